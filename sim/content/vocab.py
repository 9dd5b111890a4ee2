"""The effect vocabulary: compile the steps written in hero files to instruction rows.

A step is a TOML inline table such as
``{ op = "damage", amount = 8, target = "opposing", if = "won" }``. Each
step becomes one row of ``I_FIELDS`` int64 (see ``sim.engine.layout.I_*``)
run by :func:`sim.engine.effects.run_program`. The full vocabulary, with an
example for every op, is documented in ``heroes/README.md``; this module is
its single source of truth (``OPS``, ``CONDITIONS``, ``TARGETS``, ``PER``).

Errors raise :class:`HeroFileError` naming the file, the card and the field,
with the valid choices.
"""
from __future__ import annotations

import numpy as np

from sim.engine import effects as E
from sim.engine import layout as L
from sim.engine.ops import BY_NAME as REGISTRY

from .errors import FileError


class HeroFileError(FileError):
    """A hero file is invalid; the message names the file, card and field."""


# the op tables below are derived from the op registry (sim.engine.ops), the one place an op is declared
# op name -> (opcode, allowed keys besides op/if/unless/may)
OPS = {op.name: (op.code, {f.name for f in op.fields}) for op in REGISTRY.values()}
# the fields a step of each op must give (an op missing from this table needs none besides
# "op"); every other field of OPS is optional, with the default heroes/README.md states.
# A target, a destination or a source is never guessed: a missing one is an error naming it.
# (move's up_to may be left out only with onto = "fog": _check_required)
REQUIRED = {op.name: tuple(f.name for f in op.fields if f.required)
            for op in REGISTRY.values() if any(f.required for f in op.fields)}
# ops that need exactly one field of a pair (compile_step checks each with its own message)
ONE_OF = {op.name: op.one_of for op in REGISTRY.values() if op.one_of}
# what a missing required field means, for the error message
FIELD_HINTS = {
    "target": "whom the step acts on",
    "to": "where to",
    "up_to": "how many spaces; only a move with onto = 'fog' may leave it out",
    "amount": "how many",
    "fighter": "which sidekick",
    "tag": "a tag that cards of this file carry",
    "counter": "a counter declared under [hero]",
    "value": "the counter's new value",
    "from": "where to search: discard_then_deck, deck, discard or deck_or_discard",
    "keep": "how many of the cards to keep in hand",
    "rest": "top or bottom: where the other cards go",
    "in_zone_of": "whose zone",
    "side": "any, opposing or own",
    "who": "you or opponent",
    "options": "a list of step lists",
    "card": "opponent or yours",
}

FOG_TOKENS = {"any": E.FT_ANY, "under_hero": E.FT_UNDER_HERO, "each": E.FT_EACH}
SEARCH_FROM = {"discard_then_deck": E.SR_DISCARD_THEN_DECK, "deck": E.SR_DECK, "discard": E.SR_DISCARD,
               "deck_or_discard": E.SR_DECK_OR_DISCARD}

# ops that only make sense in some places (window or hook name -> allowed)
COMBAT_VALUE_OPS = {"add_value", "set_value", "boost", "prevent_damage", "ignore_value", "cancel"}
ONLY_IN = {op.name: set(op.only_in) for op in REGISTRY.values() if op.only_in}
HOOK_ONLY = {"maneuver_bonus": {"add_move"}, "attack_value": {"add_value", "set_value"},
             "defense_value": {"add_value", "set_value"}}
# smallest amount per op (add_value may subtract)
MIN_AMOUNT = {op.name: op.min_amount for op in REGISTRY.values() if op.min_amount}

# simple string conditions
CONDITIONS = {
    "won": E.CN_WON,
    "not_won": E.CN_NOT_WON,
    "attacking": E.CN_ATTACKING,
    "defending": E.CN_DEFENDING,
    "opposing_is_hero": E.CN_OPPOSING_IS_HERO,
    "started_elsewhere": E.CN_STARTED_ELSEWHERE,
    "on_fog": E.CN_ON_FOG,
    "defeated_any": E.CN_DEFEATED_ANY,
    "dealt_damage": E.CN_DEALT_DAMAGE,
    "attacked_this_turn": E.CN_ATTACKED,
    "hero_attacked_this_turn": E.CN_HERO_ATTACKED,
    "left_space": E.CN_LEFT_SPACE,
    "took_from_deck": E.CN_TOOK_FROM_DECK,
    "started_on_fog": E.CN_STARTED_ON_FOG,
    "predicted": E.CN_PREDICTED,
    "discarded": E.CN_DISCARDED,
    "nothing_to_discard": E.CN_NOTHING_TO_DISCARD,
    "first_action": E.CN_FIRST_ACTION,
}
# table conditions: key -> description
TABLE_CONDITIONS = (
    "counter + is | is_not [+ role = 'attacking' | 'defending']", "hero_health_at_most", "opposing_printed_at_least",
    "opposing_printed", "opposing_health_at_least", "tag_count + at_least [+ below]",
    "adjacent = [fighter, fighter]", "hand_at_least", "fighter_in_zone = [fighter, of fighter]",
)

TARGETS = ("self", "opposing", "each own", "combatant", "opponent_hero", "moved", "<fighter name>",
           "{ one|each = 'in_zone'|'adjacent'|'any'|'all'|'on_fog', of = ref, side = 'any'|'opposing'|'own', other = bool }")

PER = {
    "discard_tag": E.PER_DISCARD_TAG,
    "own_adjacent_to_opposing": E.PER_OWN_ADJ_OPPOSING,
    "fighter_in_zone_of_opposing": E.PER_KIND_IN_ZONE_OF_OPPOSING,
    "adjacent_to_self": E.PER_ADJ_TO_SELF,
    "last_boost": E.PER_LAST_BOOST,
    "last_damage": E.PER_LAST_DAMAGE,
    "opponent_boost": E.PER_OPP_BOOST,
    "damage_taken": E.PER_DAMAGE_TAKEN,
    "fighter_adjacent_to_moved": E.PER_KIND_ADJ_MOVED,
}
SIDES = {"any": E.S_ANY, "opposing": E.S_OPPOSING, "own": E.S_OWN}
WHO = {"you": E.S_OWN, "opponent": E.S_OPPOSING}


class StepContext:
    """What a step may refer to: the hero's fighters, tags and counters.

    ``fighters``: fighter name -> kind (0 hero, k sidekick kind); ``tags``:
    tag name -> bit; ``counters``: counter name -> (slot, value names).
    """

    def __init__(self, path, hero_name, fighters, tags, counters, cards=None):
        self.cards = cards or {}
        self.window = None      # the card window or ability hook being compiled
        self.path = path
        self.hero_name = hero_name
        self.fighters = fighters
        self.tags = tags
        self.counters = counters

    def fail(self, where, msg):
        raise HeroFileError(f"{self.path}: {where}: {msg}")

    def ref(self, where, value):
        if value == "self":
            return E.REF_SELF
        if value == "opposing":
            return E.REF_OPPOSING
        if value == "hero":
            return 0
        if isinstance(value, str) and value in self.fighters:
            return self.fighters[value]
        self.fail(where, f"unknown fighter {value!r}; valid: 'self', 'opposing', 'hero', "
                  + ", ".join(repr(n) for n in self.fighters))

    def fighter_kind(self, where, value):
        if isinstance(value, str) and value in self.fighters:
            return self.fighters[value]
        self.fail(where, f"unknown fighter {value!r}; valid: " + ", ".join(repr(n) for n in self.fighters))

    def tag(self, where, value):
        if value is None:
            self.fail(where, "missing required field 'tag' (a tag that cards of this file carry, e.g. 'voyage')")
        if isinstance(value, str) and value in self.tags:
            return self.tags[value]
        own = sorted(t for t in self.tags if t not in ("ongoing", "uncancelable"))
        self.fail(where, f"unknown tag {value!r}; tags used by cards of this file: " + (", ".join(own) or "(none)")
                  + "; reserved tags: ongoing, uncancelable")

    def counter(self, where, value):
        if isinstance(value, str) and value in self.counters:
            return self.counters[value]
        self.fail(where, f"unknown counter {value!r}; declared counters: "
                  + (", ".join(sorted(self.counters)) or "(none; declare them under [hero] counters)"))


def _known(value, table) -> bool:
    """``value`` is one of ``table``'s names (a file may hold a list or a table where a name
    belongs: that is not a name, and must not be looked up as one)."""
    return isinstance(value, str) and value in table


def _int(ctx, where, value, lo=0, hi=99):
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        ctx.fail(where, f"must be a whole number from {lo} to {hi}, got {value!r}")
    return value


def _bool(ctx, where, value):
    if not isinstance(value, bool):
        ctx.fail(where, f"must be true or false, got {value!r}")
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
        ctx.fail(where, f"must be a string or a table, got {t!r}")
    bad = set(t) - {"one", "each", "of", "side", "other", "range", "exclude"}
    if bad:
        ctx.fail(where, f"unknown key(s) {sorted(bad)}; valid: one, each, of, side, other, range, exclude")
    if ("one" in t) == ("each" in t):
        ctx.fail(where, "give exactly one of 'one' or 'each'")
    how = t.get("one", t.get("each"))
    one = "one" in t
    table = {("in_zone", True): E.SEL_ONE_ZONE, ("in_zone", False): E.SEL_EACH_ZONE,
             ("adjacent", True): E.SEL_ONE_ADJ, ("adjacent", False): E.SEL_EACH_ADJ,
             ("any", True): E.SEL_ONE_ANY, ("all", False): E.SEL_ALL,
             ("within", True): E.SEL_ONE_WITHIN, ("passed", True): E.SEL_ONE_PASSED,
             ("on_fog", False): E.SEL_EACH_FOG}
    if not isinstance(how, str) or (how, one) not in table:
        ctx.fail(where, f"{'one' if one else 'each'} = {how!r} is not valid; valid: "
                 "one = 'in_zone' | 'adjacent' | 'any' | 'within' | 'passed'; "
                 "each = 'in_zone' | 'adjacent' | 'all' | 'on_fog'")
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


def _condition(ctx, where, c, row):
    if isinstance(c, str):
        if c not in CONDITIONS:
            ctx.fail(where, f"unknown condition {c!r}; valid: " + ", ".join(CONDITIONS)
                     + ", or a table: " + "; ".join(TABLE_CONDITIONS))
        row[L.I_COND] = CONDITIONS[c]
        return
    if not isinstance(c, dict):
        ctx.fail(where, f"must be a string or a table, got {c!r}")
    if "counter" in c:
        slot, values = ctx.counter(where + ".counter", c["counter"])
        key = "is" if "is" in c else "is_not" if "is_not" in c else None
        if key is None or c[key] not in values:
            ctx.fail(where, f"counter {c['counter']!r} needs is = or is_not = one of {list(values)}")
        bad = set(c) - {"counter", "is", "is_not", "role"}
        if bad:
            ctx.fail(where, f"unknown key(s) {sorted(bad)} in a counter condition; valid: counter, is, is_not, role")
        row[L.I_COND] = E.CN_COUNTER_EQ if key == "is" else E.CN_COUNTER_NE
        row[L.I_CA], row[L.I_CB] = slot, values.index(c[key])
        roles = {"any": 0, "attacking": 1, "defending": 2}
        role = c.get("role", "any")
        if not _known(role, roles):
            ctx.fail(where + ".role", f"unknown {role!r}; valid: " + ", ".join(roles))
        row[L.I_CREF] = roles[role]
    elif "hero_health_at_most" in c:
        row[L.I_COND], row[L.I_CA] = E.CN_HERO_HP_AT_MOST, _int(ctx, where, c["hero_health_at_most"])
    elif "opposing_printed_at_least" in c:
        row[L.I_COND], row[L.I_CA] = E.CN_OPP_PRINTED_AT_LEAST, _int(ctx, where, c["opposing_printed_at_least"])
    elif "opposing_printed" in c:
        row[L.I_COND], row[L.I_CA] = E.CN_OPP_PRINTED_EQ, _int(ctx, where, c["opposing_printed"])
    elif "opposing_health_at_least" in c:
        row[L.I_COND], row[L.I_CA] = E.CN_OPP_HP_AT_LEAST, _int(ctx, where, c["opposing_health_at_least"])
    elif "tag_count" in c:
        row[L.I_COND] = E.CN_TAG_TIER
        row[L.I_CTAG] = ctx.tag(where + ".tag_count", c["tag_count"])
        row[L.I_CA] = _int(ctx, where + ".at_least", c.get("at_least", 1))
        row[L.I_CB] = _int(ctx, where + ".below", c.get("below", 0))
    elif "hand_at_least" in c:
        row[L.I_COND], row[L.I_CA] = E.CN_HAND_AT_LEAST, _int(ctx, where, c["hand_at_least"])
    elif "fighter_in_zone" in c:
        pair = c["fighter_in_zone"]
        if not (isinstance(pair, list) and len(pair) == 2):
            ctx.fail(where + ".fighter_in_zone", "must be [fighter kind, whose zone], e.g. ['Wolf', 'Ancient Leshen']")
        row[L.I_COND] = E.CN_KIND_IN_ZONE_OF
        row[L.I_CREF] = ctx.fighter_kind(where + ".fighter_in_zone[0]", pair[0])
        row[L.I_CA] = ctx.ref(where + ".fighter_in_zone[1]", pair[1])
    elif "adjacent" in c:
        pair = c["adjacent"]
        if not (isinstance(pair, list) and len(pair) == 2):
            ctx.fail(where + ".adjacent", "must be a list of two fighters, e.g. ['Dr. Watson', 'hero']")
        row[L.I_COND] = E.CN_ADJACENT
        row[L.I_CREF] = ctx.ref(where + ".adjacent[0]", pair[0])
        row[L.I_CA] = ctx.ref(where + ".adjacent[1]", pair[1])
    else:
        ctx.fail(where, f"unknown condition table {c!r}; valid: " + "; ".join(TABLE_CONDITIONS))


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
             f"{{ adjacent_to = fighter }}, got {to!r}")


def _check_required(ctx, where, op, step):
    """Raise HeroFileError (naming the file, the card or hook, the step and the field) if
    ``step`` lacks a field its op ``op`` requires (:data:`REQUIRED`)."""
    need = [k for k in REQUIRED.get(op, ()) if k not in step]
    if op == "move" and "onto" in step and "up_to" in need:
        need.remove("up_to")      # a move onto fog may leave out up_to (no limit); another onto is refused below
    if need:
        k = need[0]
        hint = FIELD_HINTS.get(k, "")
        if k == "target":
            hint += ("; valid: 'self', 'opposing', 'each own', 'combatant', 'opponent_hero', 'moved', "
                     + "".join(f"{n!r}, " for n in ctx.fighters) + "or a table like { one = 'in_zone', of = 'self', "
                     "side = 'opposing' }")
        more = f" (also missing: {', '.join(repr(x) for x in need[1:])})" if len(need) > 1 else ""
        ctx.fail(f"{where}.{k}", f"missing required field '{k}' of op {op!r} ({hint}){more}")


def compile_step(ctx, where, step):
    """Compile one step (a dict) to int64 rows (k, I_FIELDS); k > 1 only for 'choose'."""
    if not isinstance(step, dict):
        ctx.fail(where, f"a step must be a table like {{ op = 'draw', amount = 1 }}, got {step!r}")
    if "op" not in step:
        ctx.fail(where, "missing required field 'op'; valid ops: " + ", ".join(OPS))
    op = step.get("op")
    if not _known(op, OPS):
        ctx.fail(where + ".op", f"unknown op {op!r}; valid: " + ", ".join(OPS))
    w = ctx.window
    if w is not None:
        if op in ONLY_IN and w not in ONLY_IN[op]:
            ctx.fail(where + ".op", f"op {op!r} only works in: " + ", ".join(sorted(ONLY_IN[op])))
        if w in HOOK_ONLY and op not in HOOK_ONLY[w]:
            ctx.fail(where + ".op", f"the {w} hook only takes: " + ", ".join(sorted(HOOK_ONLY[w])))
    code, allowed = OPS[op]
    bad = set(step) - allowed - {"op", "if", "unless", "may"}
    if bad:
        ctx.fail(where, f"op {op!r} does not take {sorted(bad)}; it takes: "
                 + ", ".join(sorted(allowed | {"if", "unless", "may"})))
    _check_required(ctx, where, op, step)
    row = np.zeros(L.I_FIELDS, np.int64)
    row[L.I_OP] = code
    if "if" in step and "unless" in step:
        ctx.fail(where, "give 'if' or 'unless', not both")
    if "if" in step:
        _condition(ctx, where + ".if", step["if"], row)
    if "unless" in step:
        _condition(ctx, where + ".unless", step["unless"], row)
        row[L.I_FLAGS] |= L.IF_NEGATE
    if _bool(ctx, where + ".may", step.get("may", False)):
        row[L.I_FLAGS] |= L.IF_MAY
    amount = REGISTRY[op].field("amount")
    if "amount" in step:
        row[L.I_N] = _int(ctx, where + ".amount", step["amount"], MIN_AMOUNT.get(op, 0), 99)
    elif amount is not None and amount.default is not None:
        row[L.I_N] = amount.default
    if op == "move":
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
    if op in ("damage", "move", "place", "recover", "set_health", "pin", "swap"):
        _target(ctx, where + ".target", step["target"], row)
    if op == "add_value" and "card" in step:
        if step["card"] not in ("yours", "opponent"):
            ctx.fail(where + ".card", f"unknown {step['card']!r}; valid: yours, opponent")
        if step["card"] == "opponent":
            row[L.I_FLAGS] |= L.IF_TO_OPPONENT
    if op == "summon":
        k = ctx.fighter_kind(where + ".fighter", step.get("fighter"))
        if k == 0:
            ctx.fail(where + ".fighter", "name a sidekick to summon")
        row[L.I_REF] = k
        to = step["to"]
        if not (isinstance(to, dict) and set(to) == {"in_zone_of"}):
            ctx.fail(where + ".to", "must be { in_zone_of = fighter }")
        row[L.I_Y] = ctx.ref(where + ".to.in_zone_of", to["in_zone_of"])
    if op == "discard_for_value":
        if "tag" in step:
            row[L.I_PARG] = ctx.tag(where + ".tag", step.get("tag"))
        if "form" in step:
            slot, values = ctx.counter(where + ".form", "form")
            if step["form"] not in values:
                ctx.fail(where + ".form", f"unknown form {step['form']!r}; valid: " + ", ".join(values))
            row[L.I_X] = values.index(step["form"]) + 1
    if op == "place_fog":
        to = step["to"]
        if not (isinstance(to, dict) and set(to) == {"in_zone_of"}):
            ctx.fail(where + ".to", "must be { in_zone_of = fighter }")
        row[L.I_Y] = ctx.ref(where + ".to.in_zone_of", to["in_zone_of"])
        row[L.I_N] = _int(ctx, where + ".amount", step.get("amount", 1), 1, L.N_FOG)
    if op == "move_fog":
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
        token = step.get("token", "any")
        if not _known(token, FOG_TOKENS):
            ctx.fail(where + ".token", f"unknown {token!r}; valid: " + ", ".join(FOG_TOKENS))
        row[L.I_X] = FOG_TOKENS[token]
        if _bool(ctx, where + ".different", step.get("different", False)):
            row[L.I_FLAGS] |= L.IF_DIFFERENT
    if op == "set_printed":
        card = step["card"]
        if card not in ("yours", "opponent"):
            ctx.fail(where + ".card", f"unknown {card!r}; valid: yours, opponent")
        row[L.I_X] = 1 if card == "opponent" else 0
        to = step["to"]
        if to == "boost":
            row[L.I_Y] = 0
        else:
            row[L.I_Y] = 1
            row[L.I_N] = _int(ctx, where + ".to", to, 0, 20)
    if op == "hand_to_deck":
        row[L.I_N] = _int(ctx, where + ".amount", step.get("amount", 1), 1, 20)
    if op == "reclaim":
        to = step["to"]
        if to not in ("deck_top", "hand"):
            ctx.fail(where + ".to", f"unknown {to!r}; valid: deck_top, hand")
        row[L.I_X] = 1 if to == "hand" else 0
    if op in ("draw", "discard", "discard_top", "move_fog"):
        who = step.get("who", "you" if op in ("draw", "discard_top", "move_fog") else "opponent")
        if not _known(who, WHO):
            ctx.fail(where + ".who", f"unknown {who!r}; valid: " + ", ".join(WHO))
        row[L.I_SIDE] = WHO[who]
    if op == "search":
        if ("card" in step) == ("tag" in step):
            ctx.fail(where, "op 'search' needs exactly one of 'card' (a card name of this hero) or 'tag'")
        if "card" in step:
            if not _known(step["card"], ctx.cards):
                ctx.fail(where + ".card", f"unknown card {step['card']!r}; cards of this hero: " + ", ".join(ctx.cards))
            row[L.I_Y] = ctx.cards[step["card"]] + 1   # local index + 1; compile_content maps it to a card id
        else:
            row[L.I_PARG] = ctx.tag(where + ".tag", step["tag"])
        frm = step["from"]
        if not _known(frm, SEARCH_FROM):
            ctx.fail(where + ".from", f"unknown {frm!r}; valid: " + ", ".join(SEARCH_FROM))
        row[L.I_X] = SEARCH_FROM[frm]
    if op == "look_top":
        row[L.I_X] = _int(ctx, where + ".keep", step["keep"])
        rest = step["rest"]
        if rest not in ("top", "bottom"):
            ctx.fail(where + ".rest", f"unknown {rest!r}; valid: top, bottom")
        if rest == "bottom":
            row[L.I_FLAGS] |= L.IF_BOTTOM
        if _bool(ctx, where + ".up_to", step.get("up_to", False)):   # how many: the player's choice (R71)
            row[L.I_FLAGS] |= L.IF_UP_TO
    if op == "damage_spaces":
        row[L.I_REF] = ctx.ref(where + ".in_zone_of", step["in_zone_of"])
        side = step["side"]
        if not _known(side, SIDES):
            ctx.fail(where + ".side", f"unknown side {side!r}; valid: " + ", ".join(SIDES))
        row[L.I_SIDE] = SIDES[side]
    if op == "choose":
        options = step.get("options")
        if not (isinstance(options, list) and len(options) >= 2):
            ctx.fail(where + ".options", "must be a list of at least two step lists, e.g. [[{ op = 'draw' }], [{ op = 'recover', amount = 3 }]]")
        if len(options) > L.MAX_OPTIONS:
            ctx.fail(where + ".options", f"{len(options)} options; at most {L.MAX_OPTIONS}")
        row[L.I_N] = _int(ctx, where + ".pick", step.get("pick", 1), 1, len(options))
        row[L.I_X] = len(options)
        rows = [row]
        for k, opt in enumerate(options):
            branch = compile_steps(ctx, f"{where}.options[{k}]", opt)
            head = np.zeros(L.I_FIELDS, np.int64)
            head[L.I_OP] = E.OP_BRANCH
            head[L.I_X] = len(branch)
            rows.append(head[None, :])
            rows.append(branch)
        return np.concatenate([rows[0][None, :]] + rows[1:])
    if op == "discard":
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
    if "per" in step:
        per = step["per"]
        if not _known(per, PER):
            ctx.fail(where + ".per", f"unknown {per!r}; valid: " + ", ".join(PER))
        row[L.I_PER] = PER[per]
        if per == "discard_tag":
            row[L.I_PARG] = ctx.tag(where + ".tag", step.get("tag"))
        if per in ("fighter_in_zone_of_opposing", "fighter_adjacent_to_moved"):
            row[L.I_PARG] = ctx.fighter_kind(where + ".fighter", step.get("fighter"))
    if op == "take_from_discard":
        row[L.I_PARG] = ctx.tag(where + ".tag", step.get("tag"))
    if op == "place":
        _place_to(ctx, where + ".to", step["to"], row)
    if op == "return_defeated":
        k = ctx.fighter_kind(where + ".fighter", step.get("fighter"))
        if k == 0:
            ctx.fail(where + ".fighter", "a hero cannot be returned; name a sidekick")
        row[L.I_REF] = k
        to = step["to"]
        if not (isinstance(to, dict) and set(to) == {"in_zone_of"}):
            ctx.fail(where + ".to", "must be { in_zone_of = fighter }")
        row[L.I_Y] = ctx.ref(where + ".to.in_zone_of", to["in_zone_of"])
    if op in ("flip_counter", "set_counter", "choose_counter"):
        slot, values = ctx.counter(where + ".counter", step.get("counter"))
        row[L.I_X] = slot
        if op == "flip_counter" and len(values) != 2:
            ctx.fail(where + ".counter", f"flip_counter needs a counter of two values; {step.get('counter')!r} has "
                     f"{len(values)} ({', '.join(values)}): use set_counter or choose_counter")
        if op == "set_counter":
            if step.get("value") not in values:
                ctx.fail(where + ".value", f"must be one of {list(values)}")
            row[L.I_N] = values.index(step["value"])
        if op == "choose_counter":
            row[L.I_N] = len(values)
    return row[None, :]


def compile_steps(ctx, where, steps):
    """Compile a list of steps; returns int64 array (n_steps, I_FIELDS)."""
    if not isinstance(steps, list):
        ctx.fail(where, f"must be a list of steps [ {{ op = ... }}, ... ], got {steps!r}")
    rows = [compile_step(ctx, f"{where}[{i}]", s) for i, s in enumerate(steps)]
    if not rows:
        return np.zeros((0, L.I_FIELDS), np.int64)
    return np.concatenate(rows)


def compile_condition(ctx, where, cond):
    """Compile a bare condition (e.g. an ongoing scheme's ``discard_if``) to one
    OP_NOP row whose condition the engine evaluates; ``{ unless = ... }`` negates it."""
    row = np.zeros(L.I_FIELDS, np.int64)
    row[L.I_OP] = E.OP_NOP
    if isinstance(cond, dict) and set(cond) == {"unless"}:
        _condition(ctx, where + ".unless", cond["unless"], row)
        row[L.I_FLAGS] |= L.IF_NEGATE
    else:
        _condition(ctx, where, cond, row)
    return row[None, :]
