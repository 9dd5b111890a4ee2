"""The engine's integer vocabularies, in one place: every code that names a kind of thing
(an event, an end reason, a decision, an opcode, a condition, a policy mode, a result-row
field, ...) rather than a slot of the state array (:mod:`sim.engine.layout`).

The compiler (``sim.content``), the engine and the readers of its output (narration,
runs, reports) share these numbers. Module-level integers are compile-time constants for
numba, so engine modules import them from here directly. ``layout``, ``effects``,
``conditions``, ``control``, ``core`` and ``game`` re-export the names of their own
vocabularies, for callers outside the engine.

Where code outside the engine needs a readable name for a code, a ``*_LABELS`` table
(code -> short label) is defined at the end.

This module imports only :mod:`sim.engine.ops` (the op registry, which imports nothing):
any module may import it without a cycle.
"""
from .ops import OPS as _OPS

# --------------------------------------------------------------- winners
DRAW = -1
"""The winner of a drawn game (turn cap or engine error) in a duel result row
(``RES_WINNER``) and a team result row (``TRES_WINNER``)."""
NO_WINNER = -1
"""``G_WINNER`` while the game is running, and after it ended with an engine error."""
TURN_CAP_WINNER = -2
"""``G_WINNER`` and the winner logged with ``EV_GAME_OVER`` when the turn cap ends the
game. It differs from :data:`DRAW` because the game log stores it (readers:
``sim.play.narrate``, ``sim.play.scenario``); result rows turn it into :data:`DRAW`."""

# ------------------------------------------- fighter statuses (F_STATUS)
FS_UNUSED = 0
FS_IN_PLAY = 1      # on the board
FS_DEFEATED = 2     # health reached 0 (sidekick removed; hero lost)
FS_REMOVED = 3      # off the board but not defeated (e.g. Vanish)

# ---------------------------------------------- game flag bits (G_FLAGS)
GF_TOOK_FROM_DECK = 1   # the last search took its card from the deck
GF_SELF_TO_DECK = 2     # the scheme being resolved goes into the deck (shuffled), not the discard
GF_TO_HAND0 = 4         # return_to_hand: the attack card (or the scheme) goes back to the hand, not the discard
GF_TO_HAND1 = 8         # return_to_hand: the defense card goes back to the hand

# --------------------------------------------------- card types (C_TYPE)
CT_ATTACK = 0
CT_DEFENSE = 1
CT_VERSATILE = 2
CT_SCHEME = 3

# ------------------------------------------------ card tag bits (C_TAGS)
TAG_ONGOING = 1
TAG_UNCANCELABLE = 2   # effects cannot be cancelled by an opponent
FIRST_FREE_TAG_BIT = 8   # bits 8.. are assigned to the free-form tags of the hero files (voyage, ...)

# --------------------------- passive bits of ongoing schemes (C_PASSIVE)
PV_NO_OPPONENT_ACTIONS = 1   # opponents can't gain actions (Blizzard)
PV_MAY_IGNORE_DISCARD = 2    # you may ignore effects that make you discard from hand (Tawny Owl)
PV_DRAW_AFTER_COMBAT = 4     # after each combat your fighter is in, draw 1 (Unicorn Ally)

# -------------------------------------------------- hero flags (H_FLAGS)
HF_ATTACK_BOOST = 1     # King Arthur: may BOOST his attack with a face-down card
HF_FOG_WALK = 2         # Invisible Man: moves between spaces with his fog tokens as if adjacent

# ----------------------- program windows of a card (C_PROG + 2 * window)
N_WINDOWS = 8
W_IMMEDIATELY = 0
W_DURING = 1
W_AFTER = 2
W_SCHEME = 3
W_ONGOING_START = 4  # ongoing scheme: at the start of the owner's turn
W_ONGOING_DISCARD = 5  # ongoing scheme: one condition row, checked at the end of the owner's turn
W_ON_RETURN = 6      # a removed hero is placed again at the start of the next turn: then this
W_ON_PLAY = 7        # a combat card, right after it is chosen, before the cards are revealed (Elementary)

# ------------------------------- hero ability hooks (H_HOOKS + 2 * hook)
N_HOOKS = 10
HK_SETUP = 0            # after the hero is placed
HK_START_TURN = 1       # start of the owner's turn
HK_MANEUVER_BONUS = 2   # extra move during a maneuver (add_move)
HK_AFTER_MANEUVER = 3
HK_ATTACK_VALUE = 4     # run when this hero's attack value is computed
HK_DEFENSE_VALUE = 5
HK_END_TURN = 6         # end of the owner's turn, before the hand limit (Bigfoot)
HK_AFTER_ATTACK = 7     # after each attack by one of the owner's fighters, before the discards (Robin Hood)
HK_FIGHTER_DEFEATED = 8  # one of the owner's fighters was defeated (Achilles: Patroclus)
HK_AFTER_DEFENSE = 9    # after each combat in which one of the owner's fighters defended, before the discards (Achilles)

# --------------------------------------- instruction flag bits (I_FLAGS)
IF_MAY = 1          # the player may decline
IF_THROUGH = 2      # move through opposing fighters
IF_RANDOM = 4       # random card
IF_YOU_CHOOSE = 8   # you look at the hand and choose
IF_EXCLUDE_REF = 16  # "other": not the reference fighter
IF_BOTTOM = 32      # look_top: the rest goes to the bottom of the deck
IF_NEGATE = 64      # the condition is negated ("unless")
IF_EXCLUDE_OPP = 128  # targets exclude the opposing fighter of this combat
IF_TRACK = 256      # move step by step, remembering opposing fighters moved through
IF_TO_OPPONENT = 512  # add_value: change the opponent's card instead of yours
IF_EMPTY = 1024     # move_fog: only to a space without a fighter
IF_DIFFERENT = 2048  # move_fog: a different token than the last one moved
IF_OPTIONAL = 4096  # discard: the discarding player may decline (Confound)
IF_ONTO_FOG = 8192  # move: the move must end on a space with one of your fog tokens (Lurking)
IF_OTHER_SPACE = 16384  # place: "any other space": the fighter's own space is not offered (Looking Glass)
IF_UP_TO = 32768    # look_top: the player chooses how many cards, 0 up to N (Calming Research)
IF_ROUTE = 65536    # tracked move: keep only the fighters of one route (for an each = "passed" target)

# ----------------------------------- rules options (indices of tb.rules)
R_TURN_CAP = 0          # total turns before the game is a draw
R_HAND_LIMIT = 1
R_OPENING_HAND = 2
R_EXHAUST_DAMAGE = 3    # damage per missing draw
R_END_AT_ACTION = 4     # 1: check the game end at the end of the action (R07)
R_ACTIONS = 5           # actions per turn
R_SUMMON_OFF_BOARD = 6  # 1: "summon" sidekicks (Leshen's Wolves) start off the board
R_OFF_FORM = 7          # 1: form cards playable in either form, their effects only in that form (R44)
R_ZERO_BLOCKS_BOOST = 8  # 1: a value locked at 0 (Impossible to See) also loses King Arthur's face-down BOOST (R66)
R_PREVENT_COMBAT_ONLY = 9  # 1: prevent_damage (Bewilderment) prevents only the combat damage (R70)
R_FOG_MOVE_PLACES = 10  # 1: a move onto a fog space (Lurking) is a place on any fog space (R72)
N_RULES = 11

# --------------------- end reasons (G_REASON, EV_GAME_OVER, result rows)
END_NONE = 0
END_HERO_DEFEATED = 1
END_TURN_CAP = 2
END_ERROR = 3

# ------------------------------------------------- script errors (G_ERR)
ERR_NONE = 0
ERR_SCRIPT_ILLEGAL = 1  # scripted choice not among the legal options
ERR_SCRIPT_DOMAIN = 2   # scripted choice of the wrong kind
ERR_SCRIPT_EMPTY = 3    # a decision was needed but the script ran out
ERR_REPLAY = 4          # the expert's replay search: a recorded decision not legal in a determinized copy
ERR_PROBE = 5           # the expert's replay search stopped the action at a decision to search (never a result)

# -------------------------------------------------------- decision kinds
D_ACTION = 0            # value: packed action (see rules.pack_action)
D_DEFENSE = 1           # value: card id or -1
D_BOOST_MANEUVER = 2    # value: card id or -1
D_BOOST_ATTACK = 3      # value: card id or -1 (King Arthur's ability)
D_BOOST_CARD = 4        # value: card id or -1 ("you may BOOST this card")
D_DISCARD_LIMIT = 5     # value: card id (hand limit)
D_DISCARD_EFFECT = 6    # value: card id
D_MOVE_WHICH = 7        # value: fighter slot to move next
D_MOVE_DEST = 8         # value: space index
D_PLACE = 9             # value: space index
D_TARGET = 10           # value: fighter slot
D_MAY = 11              # value: 1 yes, 0 no
D_SETUP_SPACE = 12      # value: space index
D_OPTION = 13           # value: option number
D_TAKE_CARD = 14        # value: card id
D_MOVE_STEP = 15        # value: next space of a step-by-step move (the current space = stop)
D_GUESS = 16            # value: a printed value named or predicted (Elementary, Confirm Suspicion)
D_FOG_TOKEN = 17        # value: space of the fog token to move
D_FOG_DEST = 18         # value: space a fog token goes to
D_FORCE_CARD = 19       # value: card id the opponent must play instead (Do My Bidding)
D_OPPONENT = 20         # value: player index of the opposing player an effect's "your opponent" means (team games)
D_REDIRECT = 21         # value: fighter slot that takes (some of) a fighter's damage instead, -1 none (before_damage)
D_REDIRECT_N = 22       # value: how much of that damage it takes (1..the damage left)
N_DECISIONS = 23

# ------------------------------------------------ decision value domains
DOM_INT = 0
DOM_CARD = 1
DOM_FIGHTER = 2
DOM_SPACE = 3
DOM_BOOL = 4

# ------------------------------------ events (first column of a log row)
EV_TURN = 1             # player, turn number
EV_ACTION = 2           # player, action kind, action number
EV_DRAW = 3             # player, card
EV_EXHAUST = 4          # player, missing draws
EV_BOOST = 5            # player, card, purpose (0 maneuver, 1 attack, 2 card)
EV_MOVE = 6             # fighter, from, to, budget, through
EV_PLACE = 7            # fighter, from, to
EV_SCHEME = 8           # player, fighter, card
EV_ATTACK = 9           # attacker, defender, attack card
EV_DEFENSE = 10         # defender, card or -1
EV_CANCEL = 11          # player who cancels, side whose card is cancelled
EV_VALUES = 12          # attack value, defense value, damage taken, attacker won, damage before the health cap
EV_DAMAGE = 13          # fighter, amount taken, health after, amount dealt
EV_RECOVER = 14         # fighter, amount, health after
EV_DEFEATED = 15        # fighter
EV_DISCARD = 16         # player, card, why (0 effect, 1 hand limit)
EV_GAIN_ACTION = 17     # player, n
EV_GAME_OVER = 18       # winner team, reason
EV_RETURN = 19          # fighter, space
EV_TAKE = 20            # player, card, pile it leaves, d (0 hand, 1 deck top, 2/4 into the deck, 3 revealed, 5 back)
EV_LOOK_HAND = 21       # player looking, player looked at
EV_SETUP = 22           # fighter, space
EV_ABILITY = 23         # player, hook (HK_*), fighter (after_attack: the attacker; after_defense: the
                        # defender; fighter_defeated: the defeated one; else 0), 1 on the line that closes a
                        # fighter_defeated ability
EV_SET_HP = 24          # fighter, health
EV_PLAY_SCHEME_DONE = 25
EV_ONGOING = 26         # player, card, 1 in play / 0 discarded
EV_END_TURN = 27        # player (an effect ended the turn)
EV_COUNTER = 28         # player, counter, value
EV_LOOK_TOP = 29        # player, cards looked at
EV_SEARCH = 30          # player, card found (-1 none), 1 if the deck was shuffled
EV_CHOOSE = 31          # player, option chosen (1-based)
EV_PIN = 32             # fighter (cannot leave its space this turn)
EV_REMOVE = 33          # fighter removed from the board (not defeated)
EV_SWAP = 34            # fighter, other fighter (they swapped spaces)
EV_IGNORE = 35          # player who ignored a discard effect (Tawny Owl)
EV_FOG = 36             # owner, token, from space (-1 at setup), to space, player who moved it
EV_REPLACE = 37         # player whose card is replaced, old card, new card, player who chose
EV_GUESS = 38           # player, value named/predicted, 1 predicted correctly / 0 not / -1 not checked
EV_SET_PRINTED = 39     # player who changed it, side whose card, new printed value
EV_REDIRECT = 40        # fighter that would take the damage, fighter taking it instead (-1: the before_damage
                        # ability's cap kept it off; -2: its card's prevent_damage, before the ability), amount,
                        # 1 combat damage / 0 effect damage
EV_DEFENDER = 41        # fighter that defends from now on, fighter that defended (become_defender)

# -------------------------------------- action kinds (rules.pack_action)
A_MANEUVER = 0
A_SCHEME = 1
A_ATTACK = 2

# ----------------------------------------------------------------- piles
PILE_DECK = 0
PILE_HAND = 1
PILE_DISC = 2

# ------------------------------------------------- effect opcodes (I_OP)
# OP_NOP = 0, OP_CANCEL = 1, OP_DAMAGE = 2, ...: one constant per entry of the op registry
# (sim.engine.ops.OPS: its ``const`` and ``code``, with what the row's arguments mean)
globals().update({_op.const: _op.code for _op in _OPS})
N_OPS = len(_OPS)

# ------------------------------------ fog token choice of move_fog (I_X)
FT_ANY = 0             # move_fog: one token of the mover's choice
FT_UNDER_HERO = 1      # the token on your hero's space
FT_EACH = 2            # every token, one after the other

# ---------------------------------------- piles a search looks in (I_CA)
SR_DISCARD_THEN_DECK = 0
SR_DECK = 1
SR_DISCARD = 2
SR_DECK_OR_DISCARD = 3

# ---------------------------------------------- target selectors (I_SEL)
SEL_REF = 0            # the fighter REF
SEL_EACH_KIND = 1      # each of your fighters of kind REF
SEL_EACH_OWN = 2       # each of your fighters
SEL_ALL = 3            # each fighter (side filter)
SEL_ONE_ZONE = 4       # one fighter in the zone of REF (side filter)
SEL_EACH_ZONE = 5
SEL_ONE_ADJ = 6        # one fighter adjacent to REF
SEL_EACH_ADJ = 7
SEL_ONE_COMBATANT = 8  # one of the two fighters in the combat
SEL_ONE_ANY = 9        # any one fighter (side filter)
SEL_ONE_WITHIN = 10    # one fighter within CB spaces of REF (counted along lines)
SEL_ONE_PASSED = 11    # one fighter the last tracked move passed through
SEL_EACH_FOG = 12      # each fighter on a space with one of your fog tokens (side filter)
SEL_OPP_HERO = 13      # the opponent's hero
SEL_MOVED = 14         # the fighter the last move step moved (or chose)
SEL_EACH_PASSED = 15   # each fighter the last tracked move passed through

# ------------------------------------------------- side filters (I_SIDE)
S_ANY = 0
S_OPPOSING = 1
S_OWN = 2

# -------------------------------------------------- 'per' counts (I_PER)
PER_ONE = 0
PER_DISCARD_TAG = 1    # cards with tag bits PARG in your discard pile
PER_OWN_ADJ_OPPOSING = 2  # your fighters adjacent to the opposing fighter
PER_KIND_IN_ZONE_OF_OPPOSING = 3  # your fighters of kind PARG in its zone
PER_ADJ_TO_SELF = 4    # fighters adjacent to your fighter
PER_LAST_BOOST = 5     # BOOST of the card the last discard_top step discarded
PER_LAST_DAMAGE = 6    # damage dealt by the last damage step
PER_OPP_BOOST = 7      # printed BOOST of the opponent's combat card
PER_DAMAGE_TAKEN = 8   # combat damage your fighter took in this combat
PER_KIND_ADJ_MOVED = 9  # your fighters of kind PARG adjacent to the fighter the last move step moved
PER_COMBAT_DAMAGE = 10  # combat damage your attack dealt in this combat (0 before damage, when defending, outside combat)
PER_OPP_PRINTED = 11   # printed value of the opponent's combat card (0 without one)
PER_ZONES = 12         # zones the space of fighter PARG (a REF code or kind) belongs to (0 off the board)

# ------------------------------- where a place step puts a fighter (I_X)
PL_ANY = 0
PL_IN_ZONE = 1         # a space in the zone of fighter CA
PL_ADJ = 2             # a space adjacent to fighter CA
PL_LAST_FOG = 3        # the space the last move_fog step moved a token to

# --------------------------------------------------- conditions (I_COND)
# (a step with several conditions: each one after the first is an OP_NOP "guard" row before
# the step, whose I_X rows that follow are skipped when its condition fails)
CN_ALWAYS = 0
CN_WON = 1             # you won the combat
CN_NOT_WON = 2         # you did not win the combat
CN_COUNTER_EQ = 3      # your hero counter CA == CB
CN_OPPOSING_IS_HERO = 4
CN_STARTED_ELSEWHERE = 5  # your fighter started this turn in another space
CN_HERO_HP_AT_MOST = 6  # your hero is in play with health <= CA
CN_ATTACKING = 7
CN_DEFENDING = 8
CN_OPP_PRINTED_AT_LEAST = 9
CN_OPP_PRINTED_EQ = 10
CN_OPP_HP_AT_LEAST = 11
CN_TAG_TIER = 12       # CA <= cards with tag bits PARG in your discard < CB (CB 0: no top)
CN_ADJACENT = 13       # fighter REF adjacent to fighter CA (both REF codes)
CN_ON_FOG = 14         # your hero is on a space with one of your fog tokens
CN_COUNTER_NE = 15
CN_DEFEATED_ANY = 16   # the last damage step defeated a fighter
CN_DEALT_DAMAGE = 17   # the last damage step dealt damage
CN_ATTACKED = 18       # one of your fighters attacked this turn
CN_HERO_ATTACKED = 19  # your hero attacked this turn (before this combat)
CN_LEFT_SPACE = 20     # your fighter left its space this turn
CN_HAND_AT_LEAST = 21  # you hold at least CA cards
CN_KIND_IN_ZONE_OF = 22  # one of your fighters of kind REF is in the zone of fighter CA
CN_TOOK_FROM_DECK = 23  # the last search took its card from the deck
CN_STARTED_ON_FOG = 24  # your hero began this turn on a space with one of your fog tokens
CN_PREDICTED = 25      # your prediction (OP_PREDICT) equals the opponent card's printed value
CN_DISCARDED = 26      # the last discard step discarded at least one card
CN_FIRST_ACTION = 27   # this is the first action of the turn
CN_NOTHING_TO_DISCARD = 28  # the last discard step found no card it could discard (not: refused, declined; R68)
CN_KIND_DEFEATED = 29  # one of your fighters of kind CREF is defeated
CN_KIND_ON_BOARD = 30  # one of your fighters of kind CREF is on the board
CN_NO_OPP_IN_ZONE = 31  # fighter CREF (a REF code or kind) is on the board and no opposing fighter is in its zone
CN_DISC_TOP_AT_LEAST = 32  # the top card of your discard pile has a printed value of at least CA (not a scheme)
CN_DISC_TOP_TYPE = 33  # the top card of your discard pile is of type CA (CT_*)
CN_AWAY_FROM_START = 34  # fighter CREF is on the board and its space shares no zone with your start space

# ------------------------------------ fighter references (I_REF, I_CREF)
REF_SELF = -1          # your fighter (who played the card)
REF_OPPOSING = -2      # the opposing fighter in this combat

# ------------------------------------- policy modes (ctl[CTL_MODE0 + p])
MODE_RANDOM = 0        # uniformly random legal option
MODE_SCRIPT = 1        # scripted choices (scenario API)
MODE_FIRST = 2         # always the first option
MODE_STANDARD = 3      # the scripted AI, weights from the profile (sim.engine.ai)
MODE_GREEDY = 4        # attack with the best card, else close in; defend with the best card
MODE_EXPERT = 6        # the expert AI: looks ahead at each action decision (sim.engine.search), else standard
MODE_STANDARD02 = 7    # the standard AI of release 0.2 ("standard-0.2", frozen): its code path and weights
                       # (sim.engine.ai.weights.frozen)
MODE_EXPERT02 = 8      # the expert AI of release 0.2 ("expert-0.2", frozen): lookahead with MODE_STANDARD02 rollouts

# ------------------------------ duel result row fields (game.play_games)
RES_WINNER = 0      # winning seat (0 first player, 1 second), or DRAW
RES_TURNS = 1       # turns played (the turn the game ended in)
RES_REASON = 2      # END_* code
RES_HP0 = 3         # hero health of seat 0 at the end
RES_HP1 = 4
RES_SK0 = 5         # total sidekick health of seat 0
RES_SK1 = 6
RES_PLAYED0 = 7     # cards played (attack, defense, scheme) by seat 0
RES_PLAYED1 = 8
RES_DECISIONS = 9
RES_SEED = 10       # the game's seed, stored signed
RES_FIELDS = 12

# ------------------------- team result row fields (game.play_team_games)
TRES_WINNER = 0     # winning team (0: seats 1 and 3, 1: seats 2 and 4), or DRAW
TRES_TURNS = 1      # turns played (every seat's turns together)
TRES_REASON = 2     # END_* code
TRES_HP0 = 3        # hero health of seats 0..3 at the end (4 entries)
TRES_SK0 = 7        # total sidekick health in play of seats 0..3 (4 entries)
TRES_DEALT0 = 11    # damage dealt to opposing fighters by seats 0..3 (4 entries, P_DEALT)
TRES_PLAYED0 = 15   # cards played by seats 0..3 (4 entries)
TRES_OUT0 = 19      # turn (1-based) in which the hero of seats 0..3 was defeated, 0 if never (4 entries)
TRES_DECISIONS = 23
TRES_SEED = 24      # the game's seed, stored signed
TRES_FIELDS = 26

# ------------------------------------------------------------------ labels
END_REASON_LABELS = {END_HERO_DEFEATED: "hero_defeated", END_TURN_CAP: "turn_cap", END_ERROR: "error"}
"""End reason -> the label stored in run tables (``end_reason`` columns)."""


def _labels(prefix, skip=()):
    return {v: k[len(prefix):].lower() for k, v in globals().items()
            if k.startswith(prefix) and k not in skip and isinstance(v, int)}


EVENT_LABELS = _labels("EV_")
"""Event code -> lower-case name (``EV_MOVE`` -> ``"move"``)."""
DECISION_LABELS = _labels("D_")
"""Decision kind -> lower-case name (``D_DEFENSE`` -> ``"defense"``)."""
MODE_LABELS = _labels("MODE_")
"""Policy mode -> lower-case name (``MODE_STANDARD`` -> ``"standard"``)."""
OP_LABELS = _labels("OP_")
"""Opcode -> lower-case name (``OP_DAMAGE`` -> ``"damage"``)."""
CONDITION_LABELS = _labels("CN_")
"""Condition code -> lower-case name (``CN_WON`` -> ``"won"``)."""
