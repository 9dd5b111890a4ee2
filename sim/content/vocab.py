"""The effect vocabulary: compile the steps written in hero files to instruction rows.

A step is a TOML inline table such as
``{ op = "damage", amount = 8, target = "opposing", if = "won" }``. Each
step becomes one row of ``I_FIELDS`` int64 (see ``sim.engine.layout.I_*``)
run by :func:`sim.engine.effects.run_program`. The full vocabulary, with an
example for every op, is documented in ``heroes/README.md``. The ops come from the op
registry (``sim.engine.ops``: ``OPS``, ``REQUIRED``, ``ONE_OF``, ``ONLY_IN`` here are made
from it) and their own fields are compiled by :mod:`sim.content.steps`; this module is the
single source of truth of ``CONDITIONS``, ``TARGETS`` and ``PER``.

Errors raise :class:`HeroFileError` naming the file, the card and the field,
with the valid choices.
"""
from __future__ import annotations

import difflib

import numpy as np

from sim.engine import effects as E
from sim.engine import layout as L
from sim.engine.ops import BY_NAME as REGISTRY

from .errors import FileError, toml_form, unknown_fighter
from .steps import COMPILERS as STEP_COMPILERS
from .steps import _bool, _int, _known


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


# ops that only make sense in some places (window or hook name -> allowed)
ONLY_IN = {op.name: set(op.only_in) for op in REGISTRY.values() if op.only_in}
HOOK_ONLY = {"maneuver_bonus": {"add_move"}, "attack_value": {"add_value", "set_value"},
             "defense_value": {"add_value", "set_value"}}
# windows and ability hooks that run outside any combat (the engine runs them with no combat
# side): a step there that reads the combat would silently do nothing, so it is refused
# (_check_no_combat). after_attack, after_defense, attack_value, defense_value and the card windows of a
# combat card run inside one.
NO_COMBAT = ("setup", "start_of_turn", "maneuver_bonus", "after_maneuver", "end_of_turn", "fighter_defeated",
             "effect", "ongoing_start_of_turn", "on_return")
# what reads the combat: conditions (strings, and keys of condition tables), per counts, and
# the fighter references "opposing" (the opposing fighter of this combat) and "combatant"
COMBAT_CONDITIONS = ("won", "not_won", "attacking", "defending", "opposing_is_hero", "predicted")
COMBAT_CONDITION_KEYS = ("opposing_printed_at_least", "opposing_printed", "opposing_health_at_least", "role")
COMBAT_PER = ("opponent_boost", "opponent_printed", "combat_damage", "damage_taken", "own_adjacent_to_opposing",
              "fighter_in_zone_of_opposing")
# ops that do nothing in a hook: the end_of_turn hook runs when the turn's actions are over
NOOP_IN_HOOK = {"end_of_turn": {"gain_action": "the turn's actions are over (gain actions in start_of_turn, "
                                                "or on a card)"}}
# the fields of a per-count step (damage, recover, draw, add_value, add_move) that only a per reads
PER_FIELDS = {"tag": ("discard_tag",), "fighter": ("fighter_in_zone_of_opposing", "fighter_adjacent_to_moved", "zones_of")}
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
    "defeated = fighter", "on_board = fighter", "no_opposing_in_zone = fighter",
    "discard_top = 'attack'|'defense'|'versatile'|'scheme'", "discard_top_value_at_least",
    "away_from_start = fighter",
)
# discard_top: card type name -> CT_* code
CARD_TYPE_CODES = {"attack": E.CT_ATTACK, "defense": E.CT_DEFENSE, "versatile": E.CT_VERSATILE, "scheme": E.CT_SCHEME}

TARGETS = ("self", "opposing", "each own", "combatant", "opponent_hero", "moved", "<fighter name>",
           "{ one|each = 'in_zone'|'adjacent'|'any'|'all'|'on_fog'|'passed', of = ref, side = 'any'|'opposing'|'own', other = bool }")

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
    "combat_damage": E.PER_COMBAT_DAMAGE,
    "opponent_printed": E.PER_OPP_PRINTED,
    "zones_of": E.PER_ZONES,
}


class StepContext:
    """What a step may refer to: the hero's fighters, tags and counters.

    ``fighters``: fighter name -> kind (0 hero, k sidekick kind); ``tags``:
    tag name -> bit; ``counters``: counter name -> (slot, value names).
    """

    def __init__(self, path, hero_name, fighters, tags, counters, cards=None):
        self.cards = cards or {}
        self.window = None      # the card window or ability hook being compiled
        self.card_type = None   # the type of the card being compiled (None: an ability hook)
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
        self.fail(where, unknown_fighter(value, ["'self'", "'opposing'", "'hero'"] + [repr(n) for n in self.fighters]))

    def fighter_kind(self, where, value):
        if isinstance(value, str) and value in self.fighters:
            return self.fighters[value]
        self.fail(where, unknown_fighter(value, [repr(n) for n in self.fighters]))

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


def _condition(ctx, where, c, row):
    if isinstance(c, str):
        if c not in CONDITIONS:
            ctx.fail(where, f"unknown condition {c!r}; valid: " + ", ".join(CONDITIONS)
                     + ", or a table: " + "; ".join(TABLE_CONDITIONS))
        row[L.I_COND] = CONDITIONS[c]
        return
    if not isinstance(c, dict) and where.endswith("]"):     # an entry of an if/unless list
        ctx.fail(where, f"must be one condition (a string or a table; lists do not nest), got {toml_form(c)}")
    if not isinstance(c, dict):
        ctx.fail(where, "must be a condition (a string or a table) or a list of them, which combines them "
                 "(if = [a, b]: all must hold; unless = [a, b]: none may), e.g. "
                 f"if = [\"won\", {{ hand_at_least = 3 }}]; got {toml_form(c)}")
    if "counter" in c:
        slot, values = ctx.counter(where + ".counter", c["counter"])
        key = "is" if "is" in c else "is_not" if "is_not" in c else None
        if key is None or c[key] not in values:
            ctx.fail(where, f"counter {c['counter']!r} needs is = or is_not = one of {toml_form(list(values))}")
        bad = set(c) - {"counter", "is", "is_not", "role"}
        if bad:
            ctx.fail(where, f"unknown key(s) {', '.join(sorted(bad))} in a counter condition; valid: counter, is, "
                     "is_not, role")
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
            ctx.fail(where + ".fighter_in_zone", 'must be [fighter kind, whose zone], e.g. ["Wolf", "Ancient Leshen"]')
        row[L.I_COND] = E.CN_KIND_IN_ZONE_OF
        row[L.I_CREF] = ctx.fighter_kind(where + ".fighter_in_zone[0]", pair[0])
        row[L.I_CA] = ctx.ref(where + ".fighter_in_zone[1]", pair[1])
    elif "adjacent" in c:
        pair = c["adjacent"]
        if not (isinstance(pair, list) and len(pair) == 2):
            ctx.fail(where + ".adjacent", 'must be a list of two fighters, e.g. ["Dr. Watson", "hero"]')
        row[L.I_COND] = E.CN_ADJACENT
        row[L.I_CREF] = ctx.ref(where + ".adjacent[0]", pair[0])
        row[L.I_CA] = ctx.ref(where + ".adjacent[1]", pair[1])
    elif len(c) == 1 and next(iter(c)) in ("defeated", "on_board"):
        k = next(iter(c))
        row[L.I_COND] = E.CN_KIND_DEFEATED if k == "defeated" else E.CN_KIND_ON_BOARD
        row[L.I_CREF] = ctx.fighter_kind(f"{where}.{k}", c[k])
    elif len(c) == 1 and next(iter(c)) in ("no_opposing_in_zone", "away_from_start"):
        k = next(iter(c))
        row[L.I_COND] = E.CN_NO_OPP_IN_ZONE if k == "no_opposing_in_zone" else E.CN_AWAY_FROM_START
        row[L.I_CREF] = ctx.ref(f"{where}.{k}", c[k])
    elif set(c) == {"discard_top"}:
        if not _known(c["discard_top"], CARD_TYPE_CODES):
            ctx.fail(where + ".discard_top", f"unknown card type {c['discard_top']!r}; valid: " + ", ".join(CARD_TYPE_CODES))
        row[L.I_COND], row[L.I_CA] = E.CN_DISC_TOP_TYPE, CARD_TYPE_CODES[c["discard_top"]]
    elif set(c) == {"discard_top_value_at_least"}:
        row[L.I_COND] = E.CN_DISC_TOP_AT_LEAST
        row[L.I_CA] = _int(ctx, where + ".discard_top_value_at_least", c["discard_top_value_at_least"])
    else:
        ctx.fail(where, f"unknown condition table {toml_form(c)}; valid: " + "; ".join(TABLE_CONDITIONS))


def _conditions(ctx, where, step):
    """The conditions of a step, in order: [(where, condition, negated)], from its ``if`` and
    its ``unless`` (each a condition or a non-empty list of them: all of the ``if`` must hold
    and none of the ``unless``)."""
    out = []
    for key, neg in (("if", False), ("unless", True)):
        if key not in step:
            continue
        c = step[key]
        if isinstance(c, list):
            if not c:
                ctx.fail(f"{where}.{key}", "an empty list; give a condition or a list of conditions, "
                         'e.g. ["won", { hand_at_least = 3 }]')
            out += [(f"{where}.{key}[{k}]", x, neg) for k, x in enumerate(c)]
        else:
            out.append((f"{where}.{key}", c, neg))
    return out


def _guarded(ctx, rows, guards):
    """``rows`` (one step) preceded by one guard row (``OP_NOP``) per extra condition
    ``(where, condition, negated)``: a guard whose condition fails skips the rows after it
    up to the end of the step (its ``I_X``), so the step runs only when every condition holds."""
    if not guards:
        return rows
    out = []
    for k, (w, c, neg) in enumerate(guards):
        g = np.zeros(L.I_FIELDS, np.int64)
        g[L.I_OP] = E.OP_NOP
        _condition(ctx, w, c, g)
        if neg:
            g[L.I_FLAGS] |= L.IF_NEGATE
        g[L.I_X] = len(guards) - 1 - k + len(rows)
        out.append(g[None, :])
    return np.concatenate(out + [rows])


def _combat_refs(value, path=()):
    """The places in a step's fields that name a fighter of the combat: ``(path, value)`` for
    each ``"opposing"`` or ``"combatant"`` string (a ``side = "opposing"`` is a side, not the
    combat's fighter; a choose's ``options`` are steps, checked one by one)."""
    if isinstance(value, str):
        return [(path, value)] if value in ("opposing", "combatant") and path[-1:] != ("side",) else []
    items = value.items() if isinstance(value, dict) else enumerate(value) if isinstance(value, list) else ()
    return [r for k, v in items if k not in ("op", "if", "unless", "options") for r in _combat_refs(v, path + (k,))]


def _check_no_combat(ctx, where, op, step, conds):
    """In a window or hook that runs outside any combat (:data:`NO_COMBAT`), refuse a step that
    reads the combat (it would do nothing: no opposing fighter, no winner, no opponent's card)
    and an op that does nothing there (:data:`NOOP_IN_HOOK`); one line naming the field and what
    may stand there instead."""
    w = ctx.window
    if w in NOOP_IN_HOOK and op in NOOP_IN_HOOK[w]:
        ctx.fail(where + ".op", f"op {op!r} does nothing in the {w} hook: {NOOP_IN_HOOK[w][op]}")
    never = {"after_defense": ("attacking", "defender"), "after_attack": ("defending", "attacker")}.get(w)
    for cw, c, neg in conds if never else ():   # (the hero's fighter is on one side there, always)
        if not neg and c == never[0]:
            ctx.fail(cw, f"{never[0]!r} never holds in the {w} hook (it runs after a combat in which the hero's "
                     f"fighter was the {never[1]}; the step would do nothing): remove it, or use the other hook")
    if w not in NO_COMBAT:
        return
    why = {"effect": "a scheme's effect runs", "ongoing_start_of_turn": "ongoing_start_of_turn runs",
           "on_return": "on_return runs"}.get(w, f"the {w} hook runs") + " outside any combat"
    for path, v in _combat_refs(step):
        field = where + "".join(f"[{k}]" if isinstance(k, int) else f".{k}" for k in path)
        ctx.fail(field, f"{v!r} is a fighter of a combat, and {why} (the step would do nothing); name a "
                 "fighter ('self', 'hero', a fighter name) or a table such as { one = 'in_zone', of = 'self', "
                 "side = 'opposing' }")
    for cw, c, _ in conds:
        keys = [c] if isinstance(c, str) else list(c) if isinstance(c, dict) else []
        bad = [k for k in keys if (k in COMBAT_CONDITIONS or k in COMBAT_CONDITION_KEYS)
               and not (k == "role" and c.get("role") == "any")]
        refs = _combat_refs(c) if isinstance(c, dict) else []
        if bad or refs:
            what = (f"role = {c['role']!r}" if bad[0] == "role" else repr(bad[0])) if bad else repr(refs[0][1])
            ctx.fail(cw, f"{what} is about a combat, and {why} (the condition would never hold); valid here: "
                     + ", ".join(k for k in CONDITIONS if k not in COMBAT_CONDITIONS) + ", or a table: "
                     + "; ".join(t for t in TABLE_CONDITIONS if not t.startswith(("opposing", "counter")))
                     + "; counter + is | is_not")
    if step.get("per") in COMBAT_PER:
        ctx.fail(where + ".per", f"{step['per']!r} counts in a combat, and {why} (it would count 0); valid here: "
                 + ", ".join(k for k in PER if k not in COMBAT_PER))


def _check_per_fields(ctx, where, op, step):
    """A per-count step's ``tag`` / ``fighter`` (:data:`PER_FIELDS`) is read only by the per
    that needs it: given with another per, or with none, it would be ignored, so it is refused."""
    if REGISTRY[op].field("per") is None:
        return
    per = step.get("per")
    for k, uses in PER_FIELDS.items():
        if k in step and per not in uses:
            ctx.fail(f"{where}.{k}", f"{k!r} goes only with per = " + " or ".join(repr(u) for u in uses)
                     + (f", not per = {per!r}" if per else " (this step has no per)") + "; remove it")


def _check_required(ctx, where, op, step):
    """Raise HeroFileError (naming the file, the card or hook, the step and the field) if
    ``step`` lacks a field its op ``op`` requires (:data:`REQUIRED`)."""
    need = [k for k in REQUIRED.get(op, ()) if k not in step]
    if op == "move" and "onto" in step and "up_to" in need:
        need.remove("up_to")      # a move onto fog may leave out up_to (no limit); another onto is refused below
    if need:
        k = need[0]
        hint = FIELD_HINTS.get(k, "")
        if k == "target" and op == "become_defender":   # (one of your other fighters, by name)
            hint += "; valid: " + ", ".join(repr(n) for n in ctx.fighters)
        elif k == "target":
            hint += ("; valid: 'self', 'opposing', 'each own', 'combatant', 'opponent_hero', 'moved', "
                     + "".join(f"{n!r}, " for n in ctx.fighters) + "or a table like { one = 'in_zone', of = 'self', "
                     "side = 'opposing' }")
        more = f" (also missing: {', '.join(repr(x) for x in need[1:])})" if len(need) > 1 else ""
        ctx.fail(f"{where}.{k}", f"missing required field '{k}' of op {op!r} ({hint}){more}")


def compile_step(ctx, where, step):
    """Compile one step (a dict) to int64 rows (k, I_FIELDS); k > 1 only for 'choose'.

    What every step shares is checked and compiled here from the op registry
    (``sim.engine.ops``: known op, where it may stand, known and required fields, the
    condition, ``may``, ``amount`` and its default, ``per``); the op's own fields by its
    function in :data:`COMPILERS`. Raises :class:`HeroFileError` (one line naming the file,
    the place, the field and the valid choices)."""
    if not isinstance(step, dict):
        ctx.fail(where, f"a step must be a table like {{ op = \"draw\", amount = 1 }}, got {toml_form(step)}")
    if "op" not in step:
        ctx.fail(where, "missing required field 'op'; valid ops: " + ", ".join(OPS))
    op = step.get("op")
    if not _known(op, OPS):
        near = difflib.get_close_matches(str(op), list(OPS), n=1)
        hint = f" (did you mean {near[0]!r}?)" if near else ""
        ctx.fail(where + ".op", f"unknown op {op!r}{hint}; valid: " + ", ".join(OPS))
    w = ctx.window
    if w is not None:
        if op in ONLY_IN and w not in ONLY_IN[op]:
            ctx.fail(where + ".op", f"op {op!r} only works in: " + ", ".join(sorted(ONLY_IN[op])))
        if w in HOOK_ONLY and op not in HOOK_ONLY[w]:
            ctx.fail(where + ".op", f"the {w} hook only takes: " + ", ".join(sorted(HOOK_ONLY[w])))
    code, allowed = OPS[op]
    bad = set(step) - allowed - {"op", "if", "unless", "may"}
    if bad:
        ctx.fail(where, f"op {op!r} does not take {', '.join(sorted(bad))}; it takes: "
                 + ", ".join(sorted(allowed | {"if", "unless", "may"})))
    _check_required(ctx, where, op, step)
    _check_per_fields(ctx, where, op, step)
    row = np.zeros(L.I_FIELDS, np.int64)
    row[L.I_OP] = code
    # the first condition goes on the step's own row (a step with one condition: one row, as
    # ever); each other one on a guard row before it (_guarded)
    conds = _conditions(ctx, where, step)
    _check_no_combat(ctx, where, op, step, conds)
    if conds:
        w, c, neg = conds[0]
        _condition(ctx, w, c, row)
        if neg:
            row[L.I_FLAGS] |= L.IF_NEGATE
    if _bool(ctx, where + ".may", step.get("may", False)):
        row[L.I_FLAGS] |= L.IF_MAY
    amount = REGISTRY[op].field("amount")
    if "amount" in step:
        row[L.I_N] = _int(ctx, where + ".amount", step["amount"], MIN_AMOUNT.get(op, 0), 99)
    elif amount is not None and amount.default is not None:
        row[L.I_N] = amount.default
    rows = COMPILERS[op](ctx, where, step, row) if op in COMPILERS else None
    if rows is not None:
        return _guarded(ctx, rows, conds[1:])
    if "per" in step:
        per = step["per"]
        if not _known(per, PER):
            ctx.fail(where + ".per", f"unknown {per!r}; valid: " + ", ".join(PER))
        row[L.I_PER] = PER[per]
        if per == "discard_tag":
            row[L.I_PARG] = ctx.tag(where + ".tag", step.get("tag"))
        if per in ("fighter_in_zone_of_opposing", "fighter_adjacent_to_moved"):
            row[L.I_PARG] = ctx.fighter_kind(where + ".fighter", step.get("fighter"))
        if per == "zones_of":
            if "fighter" not in step:
                ctx.fail(where + ".fighter", "per = 'zones_of' needs fighter = whose zones: 'self', 'opposing', "
                         "'hero' or a fighter name")
            row[L.I_PARG] = ctx.ref(where + ".fighter", step["fighter"])
    return _guarded(ctx, row[None, :], conds[1:])


def _choose(ctx, where, step, row):
    """The rows of a choose step: its own row, then per option a BRANCH header and the option's steps."""
    options = step.get("options")
    if not (isinstance(options, list) and len(options) >= 2):
        ctx.fail(where + ".options", 'must be a list of at least two step lists, e.g. [[{ op = "draw" }], '
                 '[{ op = "recover", amount = 3, target = "self" }]]')
    if len(options) > L.MAX_OPTIONS:
        ctx.fail(where + ".options", f"{len(options)} options; at most {L.MAX_OPTIONS}")
    row[L.I_N] = _int(ctx, where + ".pick", step.get("pick", 1), 1, len(options))
    row[L.I_X] = len(options)
    rows = [row[None, :]]
    for k, opt in enumerate(options):
        branch = compile_steps(ctx, f"{where}.options[{k}]", opt, top=False)
        head = np.zeros(L.I_FIELDS, np.int64)
        head[L.I_OP] = E.OP_BRANCH
        head[L.I_X] = len(branch)
        rows.append(head[None, :])
        rows.append(branch)
    return np.concatenate(rows)


COMPILERS = {**STEP_COMPILERS, "choose": _choose}
"""Op name -> the function compiling its own fields (:mod:`sim.content.steps`)."""


def compile_steps(ctx, where, steps, top=True):
    """Compile a list of steps; returns int64 array (n_steps, I_FIELDS). ``top``: the list is a
    whole window or hook (not a ``choose`` option): its routes are marked (:func:`_mark_routes`)."""
    if not isinstance(steps, list):
        ctx.fail(where, f"must be a list of steps [ {{ op = ... }}, ... ], got {toml_form(steps)}")
    rows = [compile_step(ctx, f"{where}[{i}]", s) for i, s in enumerate(steps)]
    if not rows:
        return np.zeros((0, L.I_FIELDS), np.int64)
    out = np.concatenate(rows)
    return _mark_routes(ctx, where, out) if top else out


def _mark_routes(ctx, where, rows):
    """A target ``{ each = "passed" }`` needs a move with ``track = true`` before it in the same
    window or hook (refused otherwise); each such move gets ``IF_ROUTE`` (the engine then keeps
    the fighters of one route, not every fighter the move could have gone through)."""
    each = [i for i in range(len(rows)) if rows[i, L.I_SEL] == E.SEL_EACH_PASSED and rows[i, L.I_OP] != E.OP_NOP]
    if not each:
        return rows
    moves = [i for i in range(each[0]) if rows[i, L.I_OP] == E.OP_MOVE and rows[i, L.I_FLAGS] & L.IF_TRACK]
    if not moves:
        ctx.fail(where, "a target { each = 'passed' } needs a move with track = true before it in the same list "
                 "(the fighters that move went through)")
    for i in range(len(rows)):
        if rows[i, L.I_OP] == E.OP_MOVE and rows[i, L.I_FLAGS] & L.IF_TRACK:
            rows[i, L.I_FLAGS] |= L.IF_ROUTE
    return rows


def compile_condition(ctx, where, cond):
    """Compile a bare condition (e.g. an ongoing scheme's ``discard_if``) to one
    OP_NOP row whose condition the engine evaluates; ``{ unless = ... }`` negates it."""
    row = np.zeros(L.I_FIELDS, np.int64)
    row[L.I_OP] = E.OP_NOP
    if isinstance(cond, list) or (isinstance(cond, dict) and isinstance(cond.get("unless"), list)):
        ctx.fail(where, f"takes one condition (a string or a table, or {{ unless = ... }}), not a list: "
                 f"{toml_form(cond)}")
    if isinstance(cond, dict) and set(cond) == {"unless"}:
        _condition(ctx, where + ".unless", cond["unless"], row)
        row[L.I_FLAGS] |= L.IF_NEGATE
    else:
        _condition(ctx, where, cond, row)
    return row[None, :]
