"""The compile functions of the effect ops: what each op's own fields become in its row.

:func:`sim.content.vocab.compile_step` does what every step shares (the op, where it may
stand, unknown and missing fields, ``if`` / ``unless`` / ``may``, ``amount`` and its default,
``per``) from the op registry (:mod:`sim.engine.ops`); the op's own fields are compiled by
its function in :data:`COMPILERS` (op name -> function), called between the shared ``amount``
and ``per``. A function takes ``(ctx, where, step, row)``: the
:class:`sim.content.vocab.StepContext`, the place in the file for messages, the step (a
dict whose fields are known and whose required fields are present) and the int64 row
(``I_FIELDS``) it fills; it returns None (``choose``, compiled in ``vocab``, returns its rows).
Bad values raise :class:`sim.content.vocab.HeroFileError` through ``ctx.fail``, naming the
file, the place, the field and the valid choices.
"""
from __future__ import annotations

from sim.engine import effects as E
from sim.engine import layout as L
from sim.engine.ops import BY_NAME as REGISTRY

from .errors import quoted, toml_form

FOG_TOKENS = {"any": E.FT_ANY, "under_hero": E.FT_UNDER_HERO, "each": E.FT_EACH}
SEARCH_FROM = {"discard_then_deck": E.SR_DISCARD_THEN_DECK, "deck": E.SR_DECK, "discard": E.SR_DISCARD,
               "deck_or_discard": E.SR_DECK_OR_DISCARD}
SIDES = {"any": E.S_ANY, "opposing": E.S_OPPOSING, "own": E.S_OWN}
WHO = {"you": E.S_OWN, "opponent": E.S_OPPOSING}


def _known(value, table) -> bool:
    """``value`` is one of ``table``'s names (a file may hold a list or a table where a name
    belongs: that is not a name, and must not be looked up as one)."""
    return isinstance(value, str) and value in table


def _pick(ctx, where, value, table, noun=""):
    """``table[value]``; a value not among ``table``'s names is refused, naming them."""
    if not _known(value, table):
        ctx.fail(where, f"unknown {noun}{quoted(value)}; valid: " + ", ".join(table))
    return table[value]


def _int(ctx, where, value, lo=0, hi=99):
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        ctx.fail(where, f"must be a whole number from {lo} to {hi}, got {toml_form(value)}")
    return value


def _bool(ctx, where, value):
    if not isinstance(value, bool):
        ctx.fail(where, f"must be true or false, got {toml_form(value)}")
    return value


def _target(ctx, where, t, row):
    """Fill SEL/REF/SIDE (and the 'other' flag) of ``row`` from a target spec."""
    if isinstance(t, str):
        if t == "self":
            row[L.I_SEL], row[L.I_REF] = E.SEL_REF, E.REF_SELF
        elif t == "opposing":
            row[L.I_SEL], row[L.I_REF] = E.SEL_REF, E.REF_OPPOSING
        elif t == "each own":
            row[L.I_SEL] = E.SEL_EACH_OWN
        elif t == "combatant":
            row[L.I_SEL] = E.SEL_ONE_COMBATANT
        elif t == "opponent_hero":
            row[L.I_SEL] = E.SEL_OPP_HERO
        elif t == "moved":
            row[L.I_SEL] = E.SEL_MOVED
        elif t in ctx.fighters:
            k = ctx.fighters[t]
            row[L.I_SEL], row[L.I_REF] = (E.SEL_REF, 0) if k == 0 else (E.SEL_EACH_KIND, k)
        else:
            ctx.fail(where, f"unknown target {t!r}; valid: 'self', 'opposing', 'each own', 'combatant', "
                     "'opponent_hero', 'moved', "
                     + ", ".join(repr(n) for n in ctx.fighters) + ", or a table like "
                     "{ one = 'in_zone', of = 'self', side = 'opposing' }")
        return
    if not isinstance(t, dict):
        ctx.fail(where, f"must be a string or a table, got {toml_form(t)}")
    bad = set(t) - {"one", "each", "of", "side", "other", "range", "exclude"}
    if bad:
        ctx.fail(where, f"unknown key(s) {', '.join(sorted(bad))}; valid: one, each, of, side, other, range, exclude")
    if ("one" in t) == ("each" in t):
        ctx.fail(where, "give exactly one of 'one' or 'each'")
    how = t.get("one", t.get("each"))
    one = "one" in t
    table = {("in_zone", True): E.SEL_ONE_ZONE, ("in_zone", False): E.SEL_EACH_ZONE,
             ("adjacent", True): E.SEL_ONE_ADJ, ("adjacent", False): E.SEL_EACH_ADJ,
             ("any", True): E.SEL_ONE_ANY, ("all", False): E.SEL_ALL,
             ("within", True): E.SEL_ONE_WITHIN, ("passed", True): E.SEL_ONE_PASSED,
             ("passed", False): E.SEL_EACH_PASSED,
             ("on_fog", False): E.SEL_EACH_FOG}
    if not isinstance(how, str) or (how, one) not in table:
        ctx.fail(where, f"{'one' if one else 'each'} = {quoted(how)} is not valid; valid: "
                 "one = 'in_zone' | 'adjacent' | 'any' | 'within' | 'passed'; "
                 "each = 'in_zone' | 'adjacent' | 'all' | 'on_fog' | 'passed'")
    row[L.I_SEL] = table[(how, one)]
    if how == "within":
        row[L.I_RANGE] = _int(ctx, where + ".range", t.get("range"), 0, 99)
    if "exclude" in t:
        if t["exclude"] != "opposing":
            ctx.fail(where + ".exclude", "only 'opposing' (leave out the opposing fighter of this combat)")
        row[L.I_FLAGS] |= L.IF_EXCLUDE_OPP
    if how in ("in_zone", "adjacent", "within"):
        if "of" not in t:
            ctx.fail(where, f"'{how}' needs 'of' (whose zone / adjacent to whom)")
        row[L.I_REF] = ctx.ref(where + ".of", t["of"])
    side = t.get("side", "any")
    if not _known(side, SIDES):
        ctx.fail(where + ".side", f"unknown side {side!r}; valid: " + ", ".join(SIDES))
    row[L.I_SIDE] = SIDES[side]
    if _bool(ctx, where + ".other", t.get("other", False)):
        row[L.I_FLAGS] |= L.IF_EXCLUDE_REF


def _place_to(ctx, where, to, row):
    if to == "any":
        row[L.I_X] = E.PL_ANY
        return
    if to == "any_other":       # "any other space": not the one the fighter is on (Looking Glass; R69)
        row[L.I_X] = E.PL_ANY
        row[L.I_FLAGS] |= L.IF_OTHER_SPACE
        return
    if to == "last_fog":
        row[L.I_X] = E.PL_LAST_FOG
        return
    if isinstance(to, dict) and len(to) == 1 and ("in_zone_of" in to or "adjacent_to" in to):
        k, v = next(iter(to.items()))
        row[L.I_X] = E.PL_IN_ZONE if k == "in_zone_of" else E.PL_ADJ
        row[L.I_Y] = ctx.ref(f"{where}.{k}", v)
        return
    ctx.fail(where, f"must be 'any', 'any_other', 'last_fog', {{ in_zone_of = fighter }} or "
             f"{{ adjacent_to = fighter }}, got {toml_form(to)}")


def _in_zone_of(ctx, where, to):
    """The fighter reference of a ``to = { in_zone_of = fighter }`` field."""
    if not (isinstance(to, dict) and set(to) == {"in_zone_of"}):
        ctx.fail(where, "must be { in_zone_of = fighter }")
    return ctx.ref(where + ".in_zone_of", to["in_zone_of"])


def _who(ctx, where, step, row, op):
    """I_SIDE from ``who`` (its default: the op's registry entry)."""
    row[L.I_SIDE] = _pick(ctx, where + ".who", step.get("who", REGISTRY[op].field("who").default), WHO)


def _targeted(ctx, where, step, row):
    _target(ctx, where + ".target", step["target"], row)


def _move(ctx, where, step, row):
    onto = step.get("onto")
    if onto is not None and onto != "fog":
        ctx.fail(where + ".onto", f"unknown {onto!r}; valid: 'fog' (end on a space with one of your fog tokens)")
    if onto == "fog":
        row[L.I_FLAGS] |= L.IF_ONTO_FOG
    if "up_to" not in step and onto is None:
        ctx.fail(where, "op 'move' needs 'up_to' (spaces); only a move with onto = 'fog' may leave it out (no limit)")
    row[L.I_N] = _int(ctx, where + ".up_to", step.get("up_to", 99))
    if _bool(ctx, where + ".through_enemies", step.get("through_enemies", False)):
        row[L.I_FLAGS] |= L.IF_THROUGH
    if _bool(ctx, where + ".track", step.get("track", False)):
        row[L.I_FLAGS] |= L.IF_TRACK
    _targeted(ctx, where, step, row)


def _place(ctx, where, step, row):
    _targeted(ctx, where, step, row)
    _place_to(ctx, where + ".to", step["to"], row)


def _add_value(ctx, where, step, row):
    if "card" in step:
        if step["card"] not in ("yours", "opponent"):
            ctx.fail(where + ".card", f"unknown {step['card']!r}; valid: yours, opponent")
        if step["card"] == "opponent":
            row[L.I_FLAGS] |= L.IF_TO_OPPONENT


def _sidekick_to_zone(ctx, where, step, row, why):
    """summon / return_defeated: a sidekick kind (I_REF) into the zone of a fighter (I_Y)."""
    k = ctx.fighter_kind(where + ".fighter", step.get("fighter"))
    if k == 0:
        ctx.fail(where + ".fighter", why)
    row[L.I_REF] = k
    row[L.I_Y] = _in_zone_of(ctx, where + ".to", step["to"])


def _summon(ctx, where, step, row):
    _sidekick_to_zone(ctx, where, step, row, "name a sidekick to summon")


def _return_defeated(ctx, where, step, row):
    _sidekick_to_zone(ctx, where, step, row, "a hero cannot be returned; name a sidekick")


def _discard_for_value(ctx, where, step, row):
    if "tag" in step:
        row[L.I_PARG] = ctx.tag(where + ".tag", step.get("tag"))
    if "form" in step:
        slot, values = ctx.counter(where + ".form", "form")
        if step["form"] not in values:
            ctx.fail(where + ".form", f"unknown form {step['form']!r}; valid: " + ", ".join(values))
        row[L.I_X] = values.index(step["form"]) + 1


def _place_fog(ctx, where, step, row):
    row[L.I_Y] = _in_zone_of(ctx, where + ".to", step["to"])
    row[L.I_N] = _int(ctx, where + ".amount", step.get("amount", 1), 1, L.N_FOG)


def _move_fog(ctx, where, step, row):
    if ("up_to" in step) == ("to" in step):
        ctx.fail(where, "op 'move_fog' needs exactly one of 'up_to' (spaces along lines) or "
                 "'to' ('anywhere': any other space; 'empty': a space without a fighter)")
    if "up_to" in step:
        row[L.I_N] = _int(ctx, where + ".up_to", step["up_to"], 1, 99)
    else:
        if step["to"] not in ("anywhere", "empty"):
            ctx.fail(where + ".to", f"unknown {step['to']!r}; valid: anywhere, empty")
        if step["to"] == "empty":
            row[L.I_FLAGS] |= L.IF_EMPTY
    row[L.I_X] = _pick(ctx, where + ".token", step.get("token", "any"), FOG_TOKENS)
    if _bool(ctx, where + ".different", step.get("different", False)):
        row[L.I_FLAGS] |= L.IF_DIFFERENT
    _who(ctx, where, step, row, "move_fog")


def _set_printed(ctx, where, step, row):
    card = step["card"]
    if card not in ("yours", "opponent"):
        ctx.fail(where + ".card", f"unknown {card!r}; valid: yours, opponent")
    row[L.I_X] = 1 if card == "opponent" else 0
    to = step["to"]
    if to != "boost" and (isinstance(to, bool) or not isinstance(to, int) or not 0 <= to <= 20):
        ctx.fail(where + ".to", f"must be 'boost' (the card's BOOST) or a whole number from 0 to 20, got {toml_form(to)}")
    if to == "boost":
        row[L.I_Y] = 0
    else:
        row[L.I_Y] = 1
        row[L.I_N] = to


def _hand_to_deck(ctx, where, step, row):
    row[L.I_N] = _int(ctx, where + ".amount", step.get("amount", 1), 1, 20)


RECLAIM_TO = {"deck_top": 0, "hand": 1, "deck": 2}   # I_X of reclaim (2: into the deck, then shuffled)


def _card_name(ctx, where, name):
    """I_Y of a step naming a card of this hero: its local index + 1 (compile_content makes it a card id)."""
    if not _known(name, ctx.cards):
        ctx.fail(where, f"unknown card {name!r}; cards of this hero: " + ", ".join(ctx.cards))
    return ctx.cards[name] + 1


def _reclaim(ctx, where, step, row):
    row[L.I_X] = _pick(ctx, where + ".to", step["to"], RECLAIM_TO)
    if _bool(ctx, where + ".random", step.get("random", False)):
        row[L.I_FLAGS] |= L.IF_RANDOM
    if "card" in step:
        if row[L.I_FLAGS] & L.IF_RANDOM:   # (one card's copies are one card id: a random pick is that card)
            ctx.fail(where + ".random", "cannot go with card: the copies of one card are alike, so at random "
                     "takes the same card; leave random out")
        row[L.I_Y] = _card_name(ctx, where + ".card", step["card"])


# where a gain_action's player can be the one taking the turn: who -> the card types / hooks where
# it cannot ("you" on a defense card, "opponent" on an attack card, a scheme, or a hook of your turn)
_GAIN_NEVER = {"you": ("defense",), "opponent": ("attack", "scheme")}
_OWN_TURN_HOOKS = ("setup", "start_of_turn", "end_of_turn", "after_attack", "after_maneuver", "maneuver_bonus",
                   "attack_value")
_OPPONENT_TURN_HOOKS = ("after_defense", "defense_value")   # run only on the opponent's turn (the owner defends)


def _gain_action(ctx, where, step, row):
    """gain_action: I_SIDE S_OPPOSING for who = "opponent" (0 for "you", as before the field).

    Only the player taking the turn gains actions (an action is one of a turn's), so a step
    whose player can never be that one is refused: "you" on a defense card or in the after_defense
    hook (both on the opponent's turn), "opponent" on an attack card, a scheme or an ability hook of
    the owner's own turn."""
    who = step.get("who", "you")
    if not _known(who, WHO):
        ctx.fail(where + ".who", f"unknown {who!r}; valid: " + ", ".join(WHO))
    if who == "opponent":
        row[L.I_SIDE] = E.S_OPPOSING
    hooks = _OWN_TURN_HOOKS if who == "opponent" else _OPPONENT_TURN_HOOKS
    if ctx.card_type in _GAIN_NEVER[who] or (ctx.card_type is None and ctx.window in hooks):
        art = "an" if (ctx.card_type or "x")[0] in "aeiou" else "a"
        where_ = f"{art} {ctx.card_type} card" if ctx.card_type else f"the {ctx.window} hook"
        turn = "the opponent's" if who == "you" else "your own"
        verb = "is played" if ctx.card_type else "runs"
        ctx.fail(where + ".who", f"who = {who!r} never gains an action in {where_}: it {verb} on {turn} turn, "
                 "and only the player taking the turn gains actions (use who = "
                 + ("'opponent'" if who == "you" else "'you'") + ")")


def _arrange_top(ctx, where, step, row):
    _who(ctx, where, step, row, "arrange_top")
    if _bool(ctx, where + ".bottom", step.get("bottom", False)):
        row[L.I_FLAGS] |= L.IF_BOTTOM


def _draw(ctx, where, step, row):
    _who(ctx, where, step, row, "draw")


def _discard_top(ctx, where, step, row):
    _who(ctx, where, step, row, "discard_top")


def _discard(ctx, where, step, row):
    _who(ctx, where, step, row, "discard")
    if _bool(ctx, where + ".random", step.get("random", False)):
        row[L.I_FLAGS] |= L.IF_RANDOM
    chooser = step.get("chooser", "owner")
    if chooser not in ("owner", "you"):
        ctx.fail(where + ".chooser", f"unknown {chooser!r}; valid: 'owner' (the discarding player), 'you'")
    if chooser == "you":
        row[L.I_FLAGS] |= L.IF_YOU_CHOOSE
    if _bool(ctx, where + ".optional", step.get("optional", False)):
        row[L.I_FLAGS] |= L.IF_OPTIONAL
    matching = step.get("matching")
    if matching is not None:
        if matching != "named_value":
            ctx.fail(where + ".matching", f"unknown {matching!r}; valid: 'named_value' (a card whose printed "
                     "value is the value the last name_value step named)")
        if row[L.I_FLAGS] & (L.IF_RANDOM | L.IF_YOU_CHOOSE):
            ctx.fail(where + ".matching", "the discarding player chooses the matching card; drop random/chooser")
        row[L.I_X] = 1


def _search(ctx, where, step, row):
    if ("card" in step) == ("tag" in step):
        ctx.fail(where, "op 'search' needs exactly one of 'card' (a card name of this hero) or 'tag'")
    if "card" in step:
        if not _known(step["card"], ctx.cards):
            ctx.fail(where + ".card", f"unknown card {step['card']!r}; cards of this hero: " + ", ".join(ctx.cards))
        row[L.I_Y] = ctx.cards[step["card"]] + 1   # local index + 1; compile_content maps it to a card id
    else:
        row[L.I_PARG] = ctx.tag(where + ".tag", step["tag"])
    row[L.I_X] = _pick(ctx, where + ".from", step["from"], SEARCH_FROM)


def _look_top(ctx, where, step, row):
    row[L.I_X] = _int(ctx, where + ".keep", step["keep"])
    rest = step["rest"]
    if rest not in ("top", "bottom"):
        ctx.fail(where + ".rest", f"unknown {rest!r}; valid: top, bottom")
    if rest == "bottom":
        row[L.I_FLAGS] |= L.IF_BOTTOM
    if _bool(ctx, where + ".up_to", step.get("up_to", False)):   # how many: the player's choice (R71)
        row[L.I_FLAGS] |= L.IF_UP_TO


def _damage_spaces(ctx, where, step, row):
    row[L.I_REF] = ctx.ref(where + ".in_zone_of", step["in_zone_of"])
    row[L.I_SIDE] = _pick(ctx, where + ".side", step["side"], SIDES, "side ")


def _take_from_discard(ctx, where, step, row):
    row[L.I_PARG] = ctx.tag(where + ".tag", step.get("tag"))


def _counter(ctx, where, step, row):
    """flip_counter / set_counter / choose_counter: the counter's slot (I_X) and I_N."""
    op = step["op"]
    slot, values = ctx.counter(where + ".counter", step.get("counter"))
    row[L.I_X] = slot
    if op == "flip_counter" and len(values) != 2:
        ctx.fail(where + ".counter", f"flip_counter needs a counter of two values; {step.get('counter')!r} has "
                 f"{len(values)} ({', '.join(values)}): use set_counter or choose_counter")
    if op == "set_counter":
        if step.get("value") not in values:
            ctx.fail(where + ".value", f"must be one of {toml_form(list(values))}")
        row[L.I_N] = values.index(step["value"])
    if op == "choose_counter":
        row[L.I_N] = len(values)


def _prevent_damage(ctx, where, step, row):
    """prevent_damage: ``at_most`` N (a cap: I_X = N + 1); left out, all damage is prevented (I_X 0)."""
    if "at_most" in step:
        row[L.I_X] = _int(ctx, where + ".at_most", step["at_most"], 0, 20) + 1


def _become_defender(ctx, where, step, row):
    """become_defender: the target is one of your fighters by name (the defender's player's own), and
    the step stands on a card that can defend (a defense or versatile card: the defender's card)."""
    t = step["target"]
    if not isinstance(t, str) or t not in ctx.fighters:
        ctx.fail(where + ".target", f"must be one of your fighters by name (who defends instead), got {toml_form(t)}; "
                 "valid: " + ", ".join(repr(n) for n in ctx.fighters))
    if ctx.card_type not in ("defense", "versatile"):
        art = "an" if (ctx.card_type or "x")[0] in "aeiou" else "a"
        what = f"{art} {ctx.card_type} card" if ctx.card_type else f"the {ctx.window} hook"
        ctx.fail(where + ".op", f"op 'become_defender' works only on a defense or versatile card (the defender's "
                 f"card), not on {what}")
    _target(ctx, where + ".target", t, row)


COMPILERS = {
    "prevent_damage": _prevent_damage, "become_defender": _become_defender,
    "damage": _targeted, "recover": _targeted, "set_health": _targeted, "pin": _targeted, "swap": _targeted,
    "move": _move, "place": _place, "add_value": _add_value, "summon": _summon, "return_defeated": _return_defeated,
    "discard_for_value": _discard_for_value, "place_fog": _place_fog, "move_fog": _move_fog,
    "set_printed": _set_printed, "hand_to_deck": _hand_to_deck, "reclaim": _reclaim, "draw": _draw,
    "gain_action": _gain_action, "arrange_top": _arrange_top,
    "discard_top": _discard_top, "discard": _discard, "search": _search, "look_top": _look_top,
    "damage_spaces": _damage_spaces, "take_from_discard": _take_from_discard,
    "flip_counter": _counter, "set_counter": _counter, "choose_counter": _counter,
}
"""Op name -> the function compiling its own fields (``choose`` is added by ``vocab``)."""
