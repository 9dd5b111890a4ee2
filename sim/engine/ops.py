"""The registry of effect ops: one entry per op, from which everything else about an op is
derived or checked.

An entry (:class:`Op`) holds the op's name in hero files, its numeric code (``OP_*`` in
:mod:`sim.engine.codes`, made from this table), the family whose handler runs it in the
interpreter (:data:`FAMILY_HANDLERS`, :mod:`sim.engine.effects`), its fields (required or
optional, defaults, valid choices), where it may stand, its documentation row
(``heroes/README.md``, rendered by :func:`render_ops_tables`), the events its narration
tells, how the scripted AI values it and what the independent replay checker expects of it.
An entry that leaves a part out says so with :class:`Exempt` and the reason.

Derived from it: the opcode constants, the vocabulary's field validation
(``sim.content.vocab.OPS``, ``REQUIRED``, ``ONE_OF``, ``ONLY_IN``, ``MIN_AMOUNT``), the
family table the interpreter dispatches on and the README's op tables. Checked against it
(``tests/test_op_registry.py``): every op has an interpreter branch, a compile step, an AI
valuation, a narration, a checker expectation and a README row.

Adding an op: one entry at the end (the next code) and its branch in the family's handler;
an op with fields of its own also needs its compile function
(``sim.content.steps.COMPILERS``).

This module imports nothing: :mod:`sim.engine.codes` and every layer above may import it.
"""
from __future__ import annotations

from dataclasses import dataclass

# ------------------------------------------------------------- families
FAM_NONE = 0   # handled by run_program itself (nop, branch header, add_move, choose)
FAM_VALUE = 1
FAM_FIGHTER = 2
FAM_MOVE = 3
FAM_CARD = 4
FAM_TURN = 5
FAMILY_HANDLERS = {FAM_NONE: "run_program", FAM_VALUE: "run_value_op", FAM_FIGHTER: "run_fighter_op",
                   FAM_MOVE: "run_move_op", FAM_CARD: "run_card_op", FAM_TURN: "run_turn_op"}
"""Family -> the function of :mod:`sim.engine.effects` that holds the op's branch."""

# README subsections of the op tables, in order: key -> heading
SECTIONS = {
    "value": "Combat values (only in `immediately` / `during`, or the `attack_value` / `defense_value` hooks)",
    "health": "Damage and health",
    "move": "Moving and placing fighters",
    "cards": "Cards: drawing, discarding, searching",
    "info": "Information",
    "turn": "Turn and actions",
    "counter": "Hero state: counters and forms",
    "fog": "Fog tokens (Cobble & Fog)",
}

# the AI features an op may add to (``sim.engine.layout.AI_*``, lower case without the prefix)
AI_FEATURES = ("dmg", "self_dmg", "draw", "opp_discard", "recover", "move", "value_atk", "value_def", "cancel",
               "action", "other", "deck_top", "summon", "own_dmg")


@dataclass(frozen=True)
class Exempt:
    """An entry's explicit "this part does not apply to this op", with the reason."""
    reason: str


@dataclass(frozen=True)
class Field:
    """One field a step of an op may give besides ``op``, ``if``, ``unless`` and ``may``.

    ``required``: a step without it is refused (naming it); ``default``: the value an
    optional field takes when left out (None: nothing, False: off); ``choices``: the
    strings it accepts ((): any value of its kind, checked by the compiler); ``doc``: more
    for the README's fields column (other forms it takes)."""
    name: str
    required: bool = False
    default: object = None
    choices: tuple[str, ...] = ()
    doc: str = ""


F = Field


@dataclass(frozen=True)
class Op:
    """One effect op.

    ``name``: what hero files write (``op = "..."``), "" for the two internal rows;
    ``const``, ``code``: its ``OP_*`` constant and number (its position in :data:`OPS`);
    ``family``: ``FAM_*``, whose handler (:data:`FAMILY_HANDLERS`) runs it; ``comment``:
    what the row means to the interpreter (its ``I_*`` arguments); ``internal``: why no hero
    file writes it (then no other part applies). ``section``: its README subsection
    (:data:`SECTIONS`); ``fields``; ``one_of``: two fields of which a step gives exactly one;
    ``only_in``: the only card windows or hooks it may stand in (() anywhere);
    ``min_amount``: the smallest ``amount``; ``meaning`` and ``examples``
    (``Card (Hero, window): `{ step }```, each a step of a shipped hero file): its README
    row. ``narration``: the event labels (``codes.EVENT_LABELS``) it logs, each told by
    ``sim.play.narrate``; ``ai``: the features (:data:`AI_FEATURES`) the scripted AI's card
    reading (``sim.content.ai_features``) adds to for it; ``checker``: the expectation
    kind (``OX_*``, or ``bonus_pc`` for a maneuver bonus) the independent replay checker
    (``tests/helpers/replay/expect.py``) builds from it. Each may be :class:`Exempt`."""
    name: str
    const: str
    code: int
    family: int
    comment: str
    internal: str = ""
    section: str = ""
    fields: tuple[Field, ...] = ()
    one_of: tuple[str, str] | None = None
    only_in: tuple[str, ...] = ()
    min_amount: int = 0
    meaning: str = ""
    examples: tuple[str, ...] = ()
    narration: tuple[str, ...] | Exempt = ()
    ai: tuple[str, ...] | Exempt = ()
    checker: str | Exempt = ""

    def field(self, name: str) -> Field | None:
        """The field called ``name``, or None."""
        return next((f for f in self.fields if f.name == name), None)


_INTERNAL = Exempt("an internal row: no hero file writes it")


OPS: tuple[Op, ...] = (
    Op("", "OP_NOP", 0, FAM_NONE, "no effect: only the row's condition is read; when it fails, the X rows after it are skipped",
       internal="an empty row: the interpreter checks its condition and does nothing (a bare condition such as discard_if), or a guard: a step's second, third, ... condition, written by the compiler before the step (I_X: the rows skipped when it fails)", narration=_INTERNAL, ai=_INTERNAL, checker=_INTERNAL),
    Op('cancel', "OP_CANCEL", 1, FAM_VALUE, "cancel all effects on the opponent's card",
       section='value',
       only_in=('during', 'immediately'),
       meaning="cancel all effects on the opponent's card (not its value)",
       examples=('Feint (Alice, immediately): `{ op = "cancel" }`',),
       narration=('cancel',), ai=('cancel',),
       checker='OX_CANCEL'),
    Op('damage', "OP_DAMAGE", 2, FAM_FIGHTER, 'N damage to the targets',
       section='health',
       fields=(F('amount', default=1), F('target', True), F('per'), F('tag'), F('fighter')),
       meaning='deal damage to each target',
       examples=('Gaze of Stone (Medusa, after): `{ op = "damage", amount = 8, target = "opposing", if = "won" }`',
                 'Wily Fighting (Ancient Leshen, after): `{ op = "damage", amount = 1, target = { each = "adjacent", of = "self", side = "opposing" } }`',),
       narration=('damage', 'defeated',), ai=('dmg', 'self_dmg', 'own_dmg',),
       checker='OX_DAMAGE'),
    Op('draw', "OP_DRAW", 3, FAM_CARD, 'N cards (side: you / opponent)',
       section='cards',
       fields=(F('amount', default=1), F('who', default='you', choices=('you', 'opponent')), F('per'), F('tag'), F('fighter')),
       meaning='draw cards (exhaustion applies to an empty deck)',
       examples=('Snipe (Medusa, after): `{ op = "draw", amount = 1 }`',),
       narration=('draw', 'exhaust',), ai=('draw', 'opp_discard',),
       checker=Exempt('a draw is checked as a card movement of the log, not against the card')),
    Op('discard', "OP_DISCARD", 4, FAM_CARD, 'N cards from a hand (side: whose; flags: random / you choose)',
       section='cards',
       fields=(F('amount', default=1), F('who', default='opponent', choices=('you', 'opponent')), F('random', default=False), F('chooser', default='owner', choices=('owner', 'you')), F('optional', default=False), F('matching', choices=('named_value',))),
       meaning='a player discards from hand; the BOOST of the card discarded is remembered (`per = "last_boost"`) and the condition `discarded` says whether any was. `random = true`: at random; `chooser = "you"`: you pick the card; `optional = true`: the discarding player may decline; `matching = "named_value"`: only a card whose printed value is the value `name_value` named (none: nothing; the condition `nothing_to_discard` says so: case R68)',
       examples=('Hiss and Slither (Medusa, after): `{ op = "discard", who = "opponent", amount = 1 }`',
                 'Snicker-Snack (Alice, after): `{ op = "discard", who = "opponent", amount = 1, chooser = "you", if = "won" }`',
                 'Confound (Invisible Man, after): `{ op = "discard", who = "opponent", amount = 1, optional = true }`',
                 'Confirm Suspicion (Sherlock Holmes, effect): `{ op = "discard", who = "opponent", amount = 1, matching = "named_value" }`',),
       narration=('discard', 'ignore',), ai=('draw', 'opp_discard',),
       checker='OX_DISCARD'),
    Op('move', "OP_MOVE", 5, FAM_MOVE, 'targets move up to N (flag: through opposing fighters)',
       section='move',
       fields=(F('target', True), F('up_to', True), F('through_enemies', default=False), F('track', default=False), F('onto', choices=('fog',))),
       meaning='each target moves up to N spaces (the card\'s player chooses where). `through_enemies = true`: it may pass through opposing fighters; `track = true`: remember whom it passed (target `passed`); `onto = "fog"`: the move must end on a space with one of your fog tokens (then `up_to` may be left out: no limit; case R72, rules option `fog_move_places`: a place on such a space instead)',
       examples=('Mad as a Hatter (Alice, after): `{ op = "move", target = "each own", up_to = 2 }`',
                 'Bane of the Aen Elle (Ciri, after): `{ op = "move", target = "Ihuarraquax", up_to = 4, through_enemies = true, track = true }`',
                 'Lurking (Invisible Man, after): `{ op = "move", target = "Invisible Man", onto = "fog" }`',),
       narration=('move',), ai=('move', 'other',),
       checker='OX_MOVE'),
    Op('place', "OP_PLACE", 6, FAM_MOVE, 'place the target (X: where PL_*, Y: reference)',
       section='move',
       fields=(F('target', True), F('to', True, choices=('any', 'any_other', 'last_fog'), doc='`{ in_zone_of = f }`, `{ adjacent_to = f }`')),
       meaning='put a fighter on an empty space, ignoring paths (placing is not moving); the fighter may also stay on its own space when that space is one `to` allows, unless `to = "any_other"` ("any other space"; case R69). `"last_fog"`: the space the last `move_fog` moved a token to',
       examples=('Thirst for Sustenance (Dracula, after): `{ op = "place", target = "Dracula", to = { adjacent_to = "opposing" }, if = "won" }`',
                 'Slip Away (Invisible Man, after): `{ op = "place", target = "Invisible Man", to = "last_fog" }`',),
       narration=('place',), ai=('move',),
       checker='OX_PLACE'),
    Op('recover', "OP_RECOVER", 7, FAM_FIGHTER, 'targets recover N',
       section='health',
       fields=(F('amount', default=1), F('target', True), F('per'), F('tag'), F('fighter')),
       meaning='recover health, never above the starting health',
       examples=('Voyage to the Island That Was a Whale (Sinbad, after): `{ op = "recover", amount = 2, target = "Sinbad" }`',
                 'Prey Upon (Dracula, effect): `{ op = "recover", amount = 1, per = "last_damage", target = "Dracula" }`',),
       narration=('recover',), ai=('recover',),
       checker='OX_RECOVER'),
    Op('set_health', "OP_SET_HEALTH", 8, FAM_FIGHTER, "targets' health becomes N",
       section='health',
       fields=(F('amount', True), F('target', True)),
       meaning="the targets' health becomes N",
       examples=('The Holy Grail (King Arthur, after): `{ op = "set_health", amount = 8, target = "King Arthur", if = { hero_health_at_most = 4 } }`',),
       narration=('set_hp',), ai=('recover',),
       checker='OX_SETHP'),
    Op('return_defeated', "OP_RETURN_DEFEATED", 9, FAM_FIGHTER, 'return a defeated fighter of kind REF in zone of Y',
       section='health',
       fields=(F('fighter', True), F('to', True, doc='`{ in_zone_of = f }`')),
       meaning='a defeated sidekick of that kind comes back at full health into the zone',
       examples=('Winged Frenzy (Medusa, effect): `{ op = "return_defeated", fighter = "Harpy", to = { in_zone_of = "Medusa" } }`',),
       narration=('return',), ai=('other', 'summon',),
       checker='OX_RETURN'),
    Op('gain_action', "OP_GAIN_ACTION", 10, FAM_TURN, 'N actions (side: you / the opponent), only to the player taking the turn',
       section='turn',
       fields=(F('amount', default=1), F('who', default='you', choices=('you', 'opponent'))),
       min_amount=1,
       meaning='a player gains actions this turn; only the player taking the turn can (an action is a turn\'s): `who = "you"` needs a card you play on your turn (refused on a defense card and in the `after_defense` hook), `who = "opponent"` a card played on the opponent\'s turn (a defense or versatile card, the `after_defense` hook or the `fighter_defeated` hook; refused elsewhere). In a card that may be played on either turn (versatile, `fighter_defeated`) it does nothing on the other one',
       examples=('Mistform (Dracula, effect): `{ op = "gain_action", amount = 1 }`',
                 'Overreach (Exemplar, after): `{ op = "gain_action", who = "opponent", amount = 1, if = "defending" }`',),
       narration=('gain_action',), ai=('action',),
       checker='OX_GAIN'),
    Op('add_value', "OP_ADD_VALUE", 11, FAM_VALUE, "this card's value +N (x per count)",
       section='value',
       fields=(F('amount', default=1, doc='may be negative'), F('per'), F('tag'), F('fighter'), F('card', default='yours', choices=('yours', 'opponent'))),
       only_in=('attack_value', 'defense_value', 'during', 'immediately'),
       min_amount=-20,
       meaning='+ to this card\'s value in combat, times `per` (below). `card = "opponent"`: change the opponent\'s card instead',
       examples=('Voyage Home (Sinbad, during): `{ op = "add_value", amount = 1, per = "discard_tag", tag = "voyage" }`',
                 'Primeval Guardian (Ancient Leshen, during): `{ op = "add_value", amount = 1, per = "last_boost", card = "opponent" }`',
                 'Curiouser and Curiouser (Alice, attack_value): `{ op = "add_value", amount = 2, if = { counter = "size", is = "big" } }`',),
       narration=Exempt("the changed value is told by the combat's values line (EV_VALUES)"), ai=('value_atk', 'value_def',),
       checker=Exempt("values are checked through the combat's result, not per step")),
    Op('set_value', "OP_SET_VALUE", 12, FAM_VALUE, "this card's value is N instead",
       section='value',
       fields=(F('amount', True),),
       only_in=('attack_value', 'defense_value', 'during', 'immediately'),
       meaning="this card's value is N instead of its printed value",
       examples=('Momentous Shift (Alice, during): `{ op = "set_value", amount = 5, if = "started_elsewhere" }`',),
       narration=Exempt("the value is told by the combat's values line (EV_VALUES)"), ai=('other',),
       checker=Exempt("values are checked through the combat's result, not per step")),
    Op('boost', "OP_BOOST_THIS", 13, FAM_VALUE, 'may discard a card to add its BOOST to this card',
       section='value',
       only_in=('during', 'immediately'),
       meaning='you may discard a card from hand to add its BOOST to this card',
       examples=('Second Shot (Medusa, during): `{ op = "boost" }`',),
       narration=('boost',), ai=('value_atk', 'value_def',),
       checker='OX_BOOST'),
    Op('take_from_discard', "OP_TAKE_FROM_DISCARD", 14, FAM_CARD, 'all cards with tag PARG from discard to hand',
       section='cards',
       fields=(F('tag', True),),
       meaning='every card with the tag goes from your discard pile to your hand',
       examples=('Voyage Home (Sinbad, after): `{ op = "take_from_discard", tag = "voyage" }`',),
       narration=('take',), ai=('draw',),
       checker='OX_TAKEDISC'),
    Op('look_at_hand', "OP_LOOK_AT_HAND", 15, FAM_CARD, "look at the opponent's hand",
       section='info',
       meaning="look at the opponent's hand",
       examples=('Voyage to the Valley of the Giant Snakes (Sinbad, after): `{ op = "look_at_hand" }`',),
       narration=('look_hand',), ai=('other',),
       checker=Exempt('looking changes nothing the checker replays')),
    Op('end_turn', "OP_END_TURN", 16, FAM_TURN, 'end the turn',
       section='turn',
       meaning="end the turn now; the card's remaining effects do not happen",
       examples=('Armor of the Forgotten Wolf (Geralt of Rivia, after): `{ op = "end_turn" }`',
                 'Vanish (Invisible Man, effect): `{ op = "end_turn", if = "first_action" }`',),
       narration=('end_turn',), ai=Exempt('ending the turn is not weighed (the steps before it are)'),
       checker='OX_ENDTURN'),
    Op('add_move', "OP_ADD_MOVE", 17, FAM_NONE, '(maneuver hook) +N move (x per count)',
       section='move',
       fields=(F('amount', default=1), F('per'), F('tag'), F('fighter')),
       only_in=('maneuver_bonus',),
       min_amount=-20,
       meaning='(only the `maneuver_bonus` hook) + move for every fighter of yours in this maneuver',
       examples=('Veteran of the Seven Voyages (Sinbad, maneuver_bonus): `{ op = "add_move", amount = 1, per = "discard_tag", tag = "voyage" }`',),
       narration=Exempt('the extra movement is told by the moves it allows (EV_MOVE)'), ai=Exempt('a maneuver_bonus hook: read per hero (hero_features: H_AI_MOVE_N), not per step'),
       checker='bonus_pc'),
    Op('flip_counter', "OP_FLIP_COUNTER", 18, FAM_TURN, 'hero counter CA: 0 <-> 1 (Alice: change size)',
       section='counter',
       fields=(F('counter', True),),
       meaning='a two-valued hero counter changes to its other value (Alice: change size)',
       examples=('O Frabjous Day! (Alice, after): `{ op = "flip_counter", counter = "size" }`',),
       narration=('counter',), ai=('other',),
       checker='OX_FLIP'),
    Op('set_counter', "OP_SET_COUNTER", 19, FAM_TURN, 'hero counter CA := N',
       section='counter',
       fields=(F('counter', True), F('value', True)),
       meaning='a hero counter takes a value (Dr. Jekyll & Mr. Hyde: change form)',
       examples=('Succumb to Compulsion (Dr. Jekyll & Mr. Hyde, after): `{ op = "set_counter", counter = "form", value = "Mr. Hyde" }`',),
       narration=('counter',), ai=('other',),
       checker='OX_SETCNT'),
    Op('choose_counter', "OP_CHOOSE_COUNTER", 20, FAM_TURN, 'hero counter CA := chosen 0..N-1',
       section='counter',
       fields=(F('counter', True),),
       meaning="the player chooses the counter's value (Alice at setup)",
       examples=('Curiouser and Curiouser (Alice, setup): `{ op = "choose_counter", counter = "size" }`',),
       narration=('counter',), ai=('other',),
       checker='OX_CHOOSECNT'),
    Op('prevent_damage', "OP_PREVENT_DAMAGE", 21, FAM_VALUE, 'prevent all damage to your fighter for the rest of the combat (R70); X: at_most + 1, 0 all',
       section='value',
       fields=(F('at_most', doc='a number: a cap, not a full prevention'),),
       only_in=('during', 'immediately'),
       meaning='prevent all damage to your fighter for the rest of the combat, effect damage after combat included (case R70; rules option `prevent_combat_damage_only`: the combat damage only). `at_most = N`: your fighter instead takes at most N from each damage (the combat damage, each effect) for the rest of the combat ("you take at most N damage": `{ op = "prevent_damage", at_most = 2 }`)',
       examples=('Bewilderment (King Arthur, during): `{ op = "prevent_damage" }`',),
       narration=Exempt('the prevented damage is told by the damage lines (EV_DAMAGE, EV_VALUES)'), ai=('cancel',),
       checker='OX_PREVENT'),
    Op('ignore_value', "OP_IGNORE_VALUE", 22, FAM_VALUE, "ignore the value of the opponent's card",
       section='value',
       only_in=('during', 'immediately'),
       meaning="ignore the value of the opponent's card (it counts as 0)",
       examples=('Sword of Silver (Geralt of Rivia, immediately): `{ op = "ignore_value", if = { opposing_printed_at_least = 4 } }`',),
       narration=Exempt("the ignored value is told by the combat's values line (EV_VALUES)"), ai=('cancel',),
       checker=Exempt("values are checked through the combat's result, not per step")),
    Op('search', "OP_SEARCH", 23, FAM_CARD, 'search piles (CA: SR_*) for card CB-1 or tag PARG; take one; shuffle a searched deck',
       section='cards',
       fields=(F('card', doc='a card name of this hero'), F('tag'), F('from', True, choices=('discard_then_deck', 'deck', 'discard', 'deck_or_discard'))),
       one_of=('card', 'tag'),
       meaning='take a matching card into your hand; a searched deck is shuffled; the condition `took_from_deck` says where it came from',
       examples=('The Lady of the Lake (King Arthur, effect): `{ op = "search", card = "Excalibur", from = "discard_then_deck" }`',
                 'Searching Strike (Ciri, after): `{ op = "search", tag = "source", from = "deck", if = "won", may = true }`',),
       narration=('search', 'take',), ai=('draw',),
       checker='OX_SEARCH'),
    Op('look_top', "OP_LOOK_TOP", 24, FAM_CARD, "look at the top N cards (IF_UP_TO: 0..N, the player's choice), keep CA in hand, the rest",
       section='cards',
       fields=(F('amount', True), F('keep', True), F('rest', True, choices=('top', 'bottom')), F('up_to', default=False)),
       meaning='look at the top N cards of your deck, keep some in hand, put the rest back on top (in a chosen order) or at the bottom. `up_to = true`: the player first chooses how many, from N (or what the deck holds) down to 0 ("draw up to 3, keep one": case R71)',
       examples=('Prophecy (King Arthur, effect): `{ op = "look_top", amount = 4, keep = 2, rest = "top" }`',
                 'Calming Research (Dr. Jekyll & Mr. Hyde, effect): `{ op = "look_top", amount = 3, keep = 1, rest = "bottom", up_to = true }`',),
       narration=('look_top', 'take',), ai=('draw',),
       checker='OX_LOOKTOP'),
    Op('damage_spaces', "OP_DAMAGE_SPACES", 25, FAM_FIGHTER, "choose a space in REF's zone and one adjacent space: N damage to fighters there",
       section='health',
       fields=(F('amount', default=1), F('in_zone_of', True), F('side', True, choices=('any', 'opposing', 'own'))),
       meaning="choose a space in a fighter's zone and one next to it: damage the fighters of that side there",
       examples=('Restless Spirits (King Arthur, effect): `{ op = "damage_spaces", amount = 2, in_zone_of = "Merlin", side = "opposing" }`',),
       narration=('damage', 'defeated',), ai=('dmg', 'self_dmg',),
       checker='OX_DSPACES'),
    Op('discard_top', "OP_DISCARD_TOP", 26, FAM_CARD, 'discard the top card of a deck (side: whose); remember its BOOST',
       section='cards',
       fields=(F('who', True, choices=('you', 'opponent')),),
       meaning='discard the top card of a deck; its BOOST is remembered (`per = "last_boost"`)',
       examples=('Manxome Foe (Alice, during): `{ op = "discard_top", who = "you" }`',),
       narration=('discard',), ai=('other',),
       checker='OX_DISCTOP'),
    Op('choose', "OP_CHOOSE", 27, FAM_NONE, 'choose N of the CA branches that follow and resolve them in that order',
       section='turn',
       fields=(F('pick', default=1), F('options', True, doc='a list of step lists')),
       meaning='choose `pick` different options (at most 16 options) and resolve them in that order',
       examples=('Looking Glass (Alice, after): `{ op = "choose", pick = 2, options = [[{ op = "draw", amount = 2 }], [{ op = "recover", amount = 3, target = "Alice" }], [{ op = "place", target = "Alice", to = "any_other" }]] }`',),
       narration=('choose',), ai=Exempt("its options' steps are valued one by one (ai_features._window_rows)"),
       checker='OX_CHOOSE'),
    Op("", "OP_BRANCH", 28, FAM_NONE, 'header of one option of OP_CHOOSE: X = rows in the branch',
       internal="the header of one option of a choose, written by the compiler for each entry of options; its rows follow (I_X: how many)", narration=_INTERNAL, ai=_INTERNAL, checker=_INTERNAL),
    Op('pin', "OP_PIN", 29, FAM_FIGHTER, 'the targets cannot leave their space this turn',
       section='move',
       fields=(F('target', True),),
       meaning='the targets cannot leave their space this turn',
       examples=('Yrden (Geralt of Rivia, immediately): `{ op = "pin", target = "opposing" }`',),
       narration=('pin',), ai=('other',),
       checker='OX_PIN'),
    Op('swap', "OP_SWAP", 30, FAM_FIGHTER, 'your fighter swaps spaces with the target (a choice)',
       section='move',
       fields=(F('target', True),),
       meaning='your fighter and the target swap spaces',
       examples=('Master of Disguise (Sherlock Holmes, effect): `{ op = "swap", target = "opponent_hero" }`',),
       narration=('swap',), ai=('other',),
       checker='OX_SWAP'),
    Op('summon', "OP_SUMMON", 31, FAM_MOVE, 'put a fighter of kind REF (off the board, else one on it) in the zone of CA',
       section='health',
       fields=(F('fighter', True), F('to', True, doc='`{ in_zone_of = f }`')),
       meaning='a sidekick of that kind off the board comes back into the zone (if none is off the board, one on it is moved there)',
       examples=('Primeval Slam (Ancient Leshen, after): `{ op = "summon", fighter = "Wolf", to = { in_zone_of = "Ancient Leshen" } }`',),
       narration=('return',), ai=('other', 'summon',),
       checker='OX_SUMMON'),
    Op('remove_from_board', "OP_REMOVE", 32, FAM_FIGHTER, 'remove your hero from the board; it comes back at the start of your next turn',
       section='move',
       only_in=('effect',),
       meaning="(only a scheme's `effect`) your hero leaves the board (not defeated) until the start of your next turn, then is placed again (`on_return`)",
       examples=('Vanish into Murder (Ancient Leshen, effect): `{ op = "remove_from_board" }`',),
       narration=('remove',), ai=Exempt('leaving the board until the next turn is not weighed'),
       checker='OX_REMOVE'),
    Op('discard_for_value', "OP_DISCARD_FOR_VALUE", 33, FAM_VALUE, 'discard any number of cards with tag PARG: +N value each',
       section='value',
       fields=(F('amount', default=1), F('tag'), F('form')),
       only_in=('during', 'immediately'),
       meaning='discard any number of cards from hand (only cards with the tag, or of the form, if given): + amount each',
       examples=('Channel the Source (Ciri, during): `{ op = "discard_for_value", tag = "source", amount = 2 }`',
                 'Beastform (Dracula, during): `{ op = "discard_for_value", amount = 1 }`',
                 'Forever Hyde (Dr. Jekyll & Mr. Hyde, during): `{ op = "discard_for_value", form = "Dr. Jekyll", amount = 2 }`',),
       narration=('discard',), ai=('value_atk', 'value_def',),
       checker='OX_DISCFV'),
    Op('reclaim', "OP_RECLAIM", 34, FAM_CARD, 'a card from your discard pile (IF_RANDOM: at random; Y: card id + 1 only) to the top of the deck (X 0), hand (1) or shuffled into the deck (2)',
       section='cards',
       fields=(F('to', True, choices=('hand', 'deck_top', 'deck')), F('random', default=False), F('card', doc='a card name of this hero')),
       meaning='a card of your choice from your discard pile goes to your hand, on top of your deck, or (`to = "deck"`) into your deck, which is then shuffled. `random = true`: a card at random instead; `card`: only a card of that name (none in the pile: nothing; not with `random`, refused: the copies of one card are alike)',
       examples=('The Lady of Space and Time (Ciri, after): `{ op = "reclaim", to = "hand", if = { tag_count = "source", at_least = 8 } }`',
                 'Rummage (Exemplar, effect): `{ op = "reclaim", to = "hand", random = true }`',
                 'Recycle (Exemplar, effect): `{ op = "reclaim", to = "deck", card = "Rummage" }`',),
       narration=('take',), ai=('draw', 'deck_top',),
       checker='OX_RECLAIM'),
    Op('shuffle_into_deck', "OP_SELF_TO_DECK", 35, FAM_CARD, 'this scheme is shuffled into your deck instead of going to the discard',
       section='cards',
       only_in=('effect',),
       meaning="(only a scheme's `effect`) this scheme is shuffled into your deck instead of discarded",
       examples=('Witcher Senses (Geralt of Rivia, effect): `{ op = "shuffle_into_deck", if = "took_from_deck" }`',),
       narration=('take',), ai=Exempt('where the scheme goes afterwards is not weighed'),
       checker='OX_SELFDECK'),
    Op('place_fog', "OP_PLACE_FOG", 36, FAM_MOVE, 'place N of your fog tokens on separate empty spaces in the zone of fighter Y',
       section='fog',
       fields=(F('amount', default=1), F('to', True, doc='`{ in_zone_of = f }`')),
       only_in=('after', 'effect', 'setup'),
       meaning='(only `setup`, `effect` or `after`) put that many of your fog tokens, one at a time, on separate spaces of the zone with no fighter and no fog token',
       examples=('Shrouded in Fog (Invisible Man, setup): `{ op = "place_fog", amount = 3, to = { in_zone_of = "Invisible Man" } }`',),
       narration=('fog',), ai=('other',),
       checker='OX_PLACEFOG'),
    Op('move_fog', "OP_MOVE_FOG", 37, FAM_MOVE, 'move a fog token (X: FT_*) up to N spaces along lines (N 0: to any other space)',
       section='fog',
       fields=(F('up_to'), F('to', choices=('anywhere', 'empty'), doc='`anywhere`: any other space; `empty`: a space with no fighter'), F('token', default='any', choices=('any', 'under_hero', 'each')), F('who', default='you', choices=('you', 'opponent')), F('different', default=False)),
       one_of=('up_to', 'to'),
       meaning='move one of your fog tokens (the mover picks it) along lines; `up_to` includes 0; nothing blocks a token and tokens may share a space. `who = "opponent"`: the opponent moves it; `different = true`: not the token the last `move_fog` moved; `may = true` with `to = "anywhere"`: each token may also stay',
       examples=('Covert Preparation (Invisible Man, after): `{ op = "move_fog", up_to = 2, who = "opponent", different = true }`',
                 'Surprise Attack (Invisible Man, after): `{ op = "move_fog", token = "under_hero", to = "anywhere", if = "on_fog" }`',),
       narration=('fog',), ai=('other',),
       checker='OX_MOVEFOG'),
    Op('replace_opponent_card', "OP_REPLACE_CARD", 38, FAM_VALUE, "the opponent's combat card goes back to their hand; you choose the card they play",
       section='value',
       only_in=('immediately',),
       meaning="(only `immediately`) the opponent's combat card goes back to their hand; you look at it and pick the card they play instead (one their fighter may play for that side; it may be the same)",
       examples=('Do My Bidding (Dracula, immediately): `{ op = "replace_opponent_card" }`',),
       narration=('look_hand', 'replace',), ai=('value_atk', 'value_def',),
       checker='OX_REPLACE'),
    Op('set_printed', "OP_SET_PRINTED", 39, FAM_VALUE, "the printed value of a combat card (X 1: the opponent's) becomes its BOOST (Y 0) or N",
       section='value',
       fields=(F('card', True, choices=('opponent', 'yours')), F('to', True, choices=('boost',), doc='or a number')),
       only_in=('during', 'immediately'),
       meaning='that card\'s printed value becomes its BOOST (or N); "value is N instead" and changes still apply on top',
       examples=('Deduce Strategy (Sherlock Holmes, during): `{ op = "set_printed", card = "opponent", to = "boost", may = true }`',),
       narration=('set_printed',), ai=('value_atk', 'value_def',),
       checker='OX_SETPRINTED'),
    Op('zero_value', "OP_ZERO_VALUE", 40, FAM_VALUE, "the opponent's value is 0 and card effects cannot change it",
       section='value',
       only_in=('during', 'immediately'),
       meaning="the opponent's card value is 0 and card effects cannot change it (hero abilities still add, King Arthur's face-down BOOST too: case R66; rules option `zero_value_blocks_boost`)",
       examples=('Impossible to See (Invisible Man, immediately): `{ op = "zero_value" }`',),
       narration=Exempt("the value 0 is told by the combat's values line (EV_VALUES)"), ai=('value_atk', 'value_def',),
       checker=Exempt("values are checked through the combat's result, not per step")),
    Op('predict', "OP_PREDICT", 41, FAM_VALUE, "predict the printed value of the opponent's combat card (public information only)",
       section='value',
       only_in=('on_play',),
       meaning="(only `on_play`) predict the printed value of the opponent's combat card; the options are the values their remaining cards may have (public information: their deck list minus their discard pile); read by the condition `predicted`",
       examples=('Elementary (Sherlock Holmes, on_play): `{ op = "predict" }`',),
       narration=('guess',), ai=('other',),
       checker='OX_GUESS'),
    Op('name_value', "OP_NAME_VALUE", 42, FAM_CARD, "name a printed value (G_GUESS): one the opponent's cards may have (public information",
       section='info',
       meaning='name a printed value (the options: values of the opponent\'s cards not in their discard pile, and one value none of them has, standing for all such values: case R67); `discard` with `matching = "named_value"` uses it',
       examples=('Confirm Suspicion (Sherlock Holmes, effect): `{ op = "name_value" }`',),
       narration=('guess',), ai=('other',),
       checker='OX_GUESS'),
    Op('reveal_top', "OP_REVEAL_TOP", 43, FAM_CARD, 'reveal the top card of your deck and put it in your hand; remember its BOOST',
       section='cards',
       meaning='reveal the top card of your deck and put it in your hand (not a draw: no exhaustion); its BOOST is remembered (`per = "last_boost"`)',
       examples=('Strange Case (Dr. Jekyll & Mr. Hyde, effect): `{ op = "reveal_top" }`',),
       narration=('take',), ai=('draw',),
       checker='OX_REVEAL'),
    Op('hand_to_deck', "OP_HAND_TO_DECK", 44, FAM_CARD, 'put N cards from your hand on top of your deck, in the order you choose',
       section='cards',
       fields=(F('amount', default=1),),
       meaning='put that many cards from your hand on top of your deck, one at a time (the last one chosen ends on top)',
       examples=('Coded Notes (Invisible Man, after): `{ op = "hand_to_deck", amount = 2 }`',),
       narration=('take',), ai=Exempt('cards put back on the deck are not weighed'),
       checker='OX_HANDDECK'),
    Op('return_to_hand', "OP_TO_HAND", 45, FAM_CARD, 'this card goes back to the hand once it resolved (G_FLAGS GF_TO_HAND0/1 by side)',
       section='cards',
       only_in=('after', 'during', 'effect', 'immediately'),
       meaning="this card goes back to your hand instead of your discard pile once it has resolved (a combat card after the combat, a scheme after its effect; a scheme's `shuffle_into_deck` wins; an ongoing scheme goes to the hand instead of staying in play). Its BOOST card, if any, is discarded as ever; a card whose effects were cancelled is discarded",
       examples=('Boomerang (Exemplar, after): `{ op = "return_to_hand", if = "won" }`',),
       narration=('take',), ai=('draw',),
       checker='OX_TOHAND'),
    Op('arrange_top', "OP_ARRANGE_TOP", 46, FAM_CARD, "look at the top N cards of a deck (side: whose) and put them back in the order you choose (IF_BOTTOM: each on top or at the bottom)",
       section='cards',
       fields=(F('amount', True), F('who', default='you', choices=('you', 'opponent')), F('bottom', default=False)),
       min_amount=1,
       meaning="look at the top N cards of your deck (`who = \"opponent\"`: the opponent's) and put them back on top in the order you choose (the first card you pick ends on top); `bottom = true`: each may instead go to the bottom (the first put there ends lowest). Not a draw: no exhaustion. The scripted AI puts the cards it rates best on top of its own deck and at the bottom of an opponent's, and sends to the bottom a card rated below that deck's average card (of an opponent's deck: above it), rating a card by its value, BOOST and effects as it rates cards in hand",
       examples=('Foresight (Exemplar, effect): `{ op = "arrange_top", amount = 3, who = "opponent", bottom = true }`',),
       narration=('look_top',), ai=('other',),
       checker='OX_ARRANGE'),
    Op('become_defender', "OP_BECOME_DEFENDER", 47, FAM_FIGHTER, 'the target (one of your fighters on the board) is the defender of this combat from now on (OFF_CB CB_DEF_F)',
       section='move',
       fields=(F('target', True, doc='one of your fighters by name'),),
       only_in=('immediately',),
       meaning="(only in `immediately`, on a defense or versatile card) the target, one of your fighters on the board, is the defender of this combat from now on: it takes the combat damage, is the attacker's `\"opposing\"` and the card's `\"self\"`, and wins or loses the combat; the attacker's range is not checked again (the attack was declared). Nothing happens when the target is not on the board or already defends, or on a card played as an attack. Under Achilles' Helm (the swap first): `{ op = \"choose\", options = [[{ op = \"swap\", target = \"Patroclus\" }, { op = \"become_defender\", target = \"Patroclus\" }], []] }`",
       examples=('Stand-In (Exemplar, immediately): `{ op = "become_defender", target = "Understudy" }`',),
       narration=('defender',), ai=('other',),
       checker='OX_DEFENDER'),
)
"""Every op, in code order (``OPS[c].code == c``)."""

BY_NAME = {op.name: op for op in OPS if not op.internal}
"""The ops hero files may write: name -> :class:`Op`."""


def _field_item(f: Field, pair: Field | None = None) -> str:
    """One item of a README fields column: ``name``, ``?`` when optional, then its choices,
    default and notes in parentheses; ``pair``: the other field of a one-of pair."""
    head = f"`{f.name}` or `{pair.name}`" if pair else f"`{f.name}`" + ("" if f.required else "?")
    about = [d for d in (pair, f) if d is not None]
    parts = []
    for d in about:
        words = []
        if d.choices:
            words.append("/".join(f"`{c}`" for c in d.choices))
        if d.default not in (None, False):
            words.append(f"default `{d.default}`" if isinstance(d.default, str) else f"default {d.default}")
        if words:
            parts.append(", ".join(words))
        if d.doc:
            parts.append(d.doc)
    return head + (f" ({'; '.join(parts)})" if parts else "")


def fields_column(op: Op) -> str:
    """The README fields column of ``op``: its fields in order, a one-of pair as ``a`` or ``b``."""
    items = []
    for f in op.fields:
        if op.one_of and f.name == op.one_of[1]:
            continue
        items.append(_field_item(f, op.field(op.one_of[1]) if op.one_of and f.name == op.one_of[0] else None))
    return ", ".join(items)


def render_ops_tables(ops: tuple[Op, ...] = OPS) -> str:
    """The op tables of ``heroes/README.md`` (between its ``ops tables`` markers): one
    ``####`` subsection per :data:`SECTIONS` entry, one row per op of ``ops`` in code order."""
    out = []
    for key, title in SECTIONS.items():
        out += [f"#### {title}", "", "| op | fields | meaning | example |", "|---|---|---|---|"]
        for op in ops:
            if op.section == key:
                out.append(f"| `{op.name}` | {fields_column(op)} | {op.meaning} | {'; '.join(op.examples)} |")
        out.append("")
    return "\n".join(out)


README_BEGIN = "<!-- ops tables: made from sim/engine/ops.py by `python -m sim.engine.ops --write`; do not edit here -->"
README_END = "<!-- end of the ops tables -->"


def readme_with_tables(text: str, ops: tuple[Op, ...] = OPS) -> str:
    """``text`` (heroes/README.md) with the part between :data:`README_BEGIN` and
    :data:`README_END` replaced by :func:`render_ops_tables` of ``ops``; ValueError if a
    marker is missing."""
    if README_BEGIN not in text or README_END not in text:
        raise ValueError(f"heroes/README.md: the markers {README_BEGIN!r} and {README_END!r} are missing")
    head, rest = text.split(README_BEGIN, 1)
    return head + README_BEGIN + "\n\n" + render_ops_tables(ops) + "\n" + README_END + rest.split(README_END, 1)[1]


if __name__ == "__main__":
    import sys
    from pathlib import Path
    readme = Path(__file__).resolve().parents[2] / "heroes" / "README.md"
    if sys.argv[1:] == ["--write"]:
        readme.write_text(readme_with_tables(readme.read_text(encoding="utf-8")), encoding="utf-8")
    else:
        print(render_ops_tables())
