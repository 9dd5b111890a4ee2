"""Expectations from outside the engine: the hero files (read with ``tomllib``) and the
battlefield graphs, as int64 arrays for the numba checker (``Expect``)."""
from __future__ import annotations

import tomllib
from pathlib import Path

import numpy as np

from sim.engine.layout import FIGHTERS_PER_PLAYER, MAX_FIGHTERS
from sim.play.match import Match, env_hero_paths, installed_content

from .constants import (CD_AWAY_START, CD_KIND_DEFEATED, CD_KIND_ON_BOARD, CD_NO_OPP_IN_ZONE, EF_C2, PX_CDMG,
    PX_OPPPRINTED, PX_ZONES, CARD_TYPES, CARD_WINDOWS, CD_ALWAYS, CD_ATTACKED, CD_COUNTER, CD_DISCARDED,
    CD_FIRST_ACTION,
    CD_HAND_AT_LEAST, CD_HERO_HP_AT_MOST, CD_KIND_IN_ZONE, CD_NOT_WON, CD_ON_FOG, CD_OPP_HP_AT_LEAST,
    CD_OPP_PRINTED_AT_LEAST, CD_OPP_PRINTED_EQ, CD_TAG_TIER, CD_TOOK_FROM_DECK, CD_UNCHECKED, CD_WON, CI_DROW,
    CI_FIELDS, CI_FORM, CI_RETDRAW, DECK_SIZE, EF_ARG, EF_BYTAG, EF_CARG2, EF_COND, EF_CONDARG, EF_CREF, EF_CTAG,
    EF_EXCLOPP, EF_FIELDS, EF_FOG, EF_MATCH, EF_N, EF_NEG, EF_ONE, EF_OP, EF_OPT, EF_OTHER, EF_PARG, EF_PER, EF_RANGE,
    EF_REF, EF_SEL, EF_SIDE, EF_THR, EF_TO, EF_TOREF, EF_TRACK, EF_UPTO, EF_WHO, EF_WIN, EF_X, FG_DIFF, FG_EACH,
    FG_EMPTY,
    FG_ONTO, FG_UNDER, FL_BOOST_ATTACK, FL_FOG_WALK, FL_FORMS, OX_BOOST, OX_CANCEL, OX_CHOOSE, OX_CHOOSECNT, OX_COND,
    OX_DAMAGE, OX_DISCARD, OX_DISCFV, OX_DISCTOP, OX_DSPACES, OX_ENDTURN, OX_FLIP, OX_GAIN, OX_GUESS, OX_HANDDECK,
    OX_LOOKTOP, OX_MOVE, OX_MOVEFOG, OX_PIN, OX_PLACE, OX_PLACEFOG, OX_PREVENT, OX_RECLAIM, OX_RECOVER, OX_REMOVE,
    OX_REPLACE, OX_RETURN, OX_REVEAL, OX_SEARCH, OX_SELFDECK, OX_SETCNT, OX_SETHP, OX_SETPRINTED, OX_SUMMON, OX_SWAP, OX_DEFENDER,
    OX_TAKEDISC, OX_TOHAND, OX_ARRANGE, PASSIVES, PX_ADJMOVED, PX_LBOOST, PX_SRCDMG, PX_UNCHECKED, RF_OPP, RF_SELF,
    SD_ANY, SD_OPP, SD_OWN,
    SF_DECK, SF_DECK_OR_DISC, SF_DISC, SF_DISC_THEN_DECK, TO_ADJ, TO_ANY, TO_LASTFOG, TO_ZONE, TS_ADJ, TS_ALL,
    TS_COMBATANT, TS_FOG, TS_KIND, TS_MOVED, TS_OPP, TS_OPPHERO, TS_OWN, TS_PASSED, TS_SELF, TS_SPACES, TS_WITHIN,
    TS_ZONE, WN_AFTATK, WN_AFTDEF, WN_AFTMAN, WN_EOT, WN_KO, WN_NEVER, WN_SETUP, WN_START, XF_BD_BY, XF_BD_CAP, XF_BD_COMBAT, XF_BD_SPLIT, XF_BD_TAKE, XF_FIELDS, XF_FLAGS, XF_KIND, XF_KO, XF_USED,
    XF_PN, XF_PTAG)


def hero_toml(key, content=None):
    """The hero file of ``key`` as parsed TOML: from ``content`` (a match's, homebrew heroes
    included) when given, else from the installed heroes and those of UNMATCHED_SIM_HEROES."""
    specs = (content or installed_content(env_hero_paths())).specs
    return tomllib.loads(Path(specs[key].path).read_text())


# ops with no event this test checks against the card (values, draws, ...)
_UNCHECKED_OPS = {"draw", "add_value", "set_value", "look_at_hand", "ignore_value", "zero_value"}

# string conditions this test evaluates (the others are CD_UNCHECKED: may or may not hold)
_STRING_CONDS = {"won": CD_WON, "not_won": CD_NOT_WON, "attacked_this_turn": CD_ATTACKED,
                 "took_from_deck": CD_TOOK_FROM_DECK, "on_fog": CD_ON_FOG, "discarded": CD_DISCARDED,
                 "first_action": CD_FIRST_ACTION}
# "per" counts this test works out for damage and recover (the others fit any amount)
_PER = {"last_boost": PX_LBOOST, "last_damage": PX_SRCDMG, "fighter_adjacent_to_moved": PX_ADJMOVED,
        "combat_damage": PX_CDMG, "opponent_printed": PX_OPPPRINTED, "zones_of": PX_ZONES}


def chosen_gear(raw, loadout):
    """{group: option} of a loadout string 'opt1+opt2+...' in the order of the hero file's
    choice groups (rules "Geralt of Rivia: Always Prepared"); {} for heroes without groups."""
    groups = [g["name"] for g in raw.get("choice_groups", [])]
    if not groups:
        assert not loadout, loadout
        return {}
    parts = loadout.split("+")
    assert len(parts) == len(groups), (loadout, groups)
    return dict(zip(groups, parts))



def _full(c: dict) -> str:
    """A card entry's name, with its printed symbol in parentheses when it has one."""
    return f"{c['name']} ({c['symbol']})" if c.get("symbol") else c["name"]

class _Hero:
    """One hero file read for the checker: fighter kinds by name, counters, card ids, tags."""

    def __init__(self, key, content, tag_bits):
        self.key = key
        self.raw = raw = hero_toml(key, content)
        self.kinds = {raw["name"]: 0}
        for k, sk in enumerate(raw.get("sidekicks", []), 1):
            self.kinds[sk["name"]] = k
        # counter slots: the form first (Jekyll & Hyde: slot 0, the first form is the starting one),
        # then the counters in the order the hero file declares them (values by position)
        self.forms = list(raw["hero"].get("forms") or [])
        declared = list((raw["hero"].get("counters") or {}).items())
        if self.forms:
            declared = [("form", self.forms)] + declared
        self.counters = {name: (i, list(vals)) for i, (name, vals) in enumerate(declared)}
        # a card is known by its name, "Name (symbol)" when it has a printed symbol (the loader's card_name)
        self.card_ids = {_full(c): content.card_ids[(key, _full(c))] for c in raw["cards"]}
        for c in raw["cards"]:
            for t in c.get("tags", []):
                tag_bits.setdefault(t, 1 << len(tag_bits))
        self.tag_bits = tag_bits

    def ref(self, v, where):
        if v == "self":
            return RF_SELF
        if v == "opposing":
            return RF_OPP
        if v == "hero":
            return 0
        if v in self.kinds:
            return self.kinds[v]
        raise NotImplementedError(f"{self.key}: {where}: reference {v!r} not modelled by this test")

    def condition(self, step, row, where):
        """Fill the EF_COND.. fields of ``row`` from a step's ``if`` / ``unless`` (each a
        condition or a list: all of the ``if`` and none of the ``unless``): the first condition
        in EF_COND.., a second one in EF_C2.. (a third or more: the second block is
        CD_UNCHECKED, may or may not hold)."""
        conds = []
        for key, neg in (("if", 0), ("unless", 1)):
            c = step.get(key)
            if c is not None:
                conds += [(x, neg) for x in (c if isinstance(c, list) else [c])]
        a = self._one_condition(*conds[0], where) if conds else (CD_ALWAYS, 0, 0, 0, 0, 0)
        row[EF_COND], row[EF_CONDARG], row[EF_NEG], row[EF_CARG2], row[EF_CTAG], row[EF_CREF] = a
        if len(conds) == 2:
            row[EF_C2:EF_C2 + 6] = self._one_condition(*conds[1], where)
        elif len(conds) > 2:
            row[EF_C2] = CD_UNCHECKED

    def _one_condition(self, cond, neg, where):
        """(CD_* code, arg, negated, arg 2, tag bits, reference) of one condition."""
        code, arg, carg2, ctag, cref = CD_UNCHECKED, 0, 0, 0, 0
        if isinstance(cond, str):
            code = _STRING_CONDS.get(cond, CD_UNCHECKED)
        elif isinstance(cond, dict) and len(cond) == 1 and next(iter(cond)) in (
                "hero_health_at_most", "opposing_health_at_least", "opposing_printed", "opposing_printed_at_least",
                "hand_at_least"):
            k, v = next(iter(cond.items()))
            code = {"hero_health_at_most": CD_HERO_HP_AT_MOST, "opposing_health_at_least": CD_OPP_HP_AT_LEAST,
                    "opposing_printed": CD_OPP_PRINTED_EQ, "opposing_printed_at_least": CD_OPP_PRINTED_AT_LEAST,
                    "hand_at_least": CD_HAND_AT_LEAST}[k]
            arg = v
        elif isinstance(cond, dict) and "tag_count" in cond:
            # Source tiers: at_least <= Source cards in your discard pile (< below)
            code, ctag = CD_TAG_TIER, self.tag_bits[cond["tag_count"]]
            arg, carg2 = cond.get("at_least", 1), cond.get("below", 0)
        elif isinstance(cond, dict) and "counter" in cond:
            slot, values = self.counters[cond["counter"]]
            code, arg = CD_COUNTER, slot
            carg2 = values.index(cond.get("is", cond.get("is_not")))
            ctag = int("is_not" in cond)
            cref = {"any": 0, "attacking": 1, "defending": 2}[cond.get("role", "any")]
        elif isinstance(cond, dict) and set(cond) == {"fighter_in_zone"}:
            kind, of = cond["fighter_in_zone"]
            code, carg2, cref = CD_KIND_IN_ZONE, self.kinds[kind], self.ref(of, where)
        elif isinstance(cond, dict) and len(cond) == 1 and next(iter(cond)) in ("defeated", "on_board"):
            k, v = next(iter(cond.items()))
            code, cref = (CD_KIND_DEFEATED if k == "defeated" else CD_KIND_ON_BOARD), self.kinds[v]
        elif isinstance(cond, dict) and len(cond) == 1 and next(iter(cond)) in ("no_opposing_in_zone",
                                                                                  "away_from_start"):
            k, v = next(iter(cond.items()))
            code, cref = (CD_NO_OPP_IN_ZONE if k == "no_opposing_in_zone" else CD_AWAY_START), self.ref(v, where)
        # (discard_top, discard_top_value_at_least: this test does not follow the order of a discard pile)
        return code, arg, neg, carg2, ctag, cref

    def target(self, t, where):
        """(selector, reference, side, other, one, exclude opposing, range) of a step's ``target``."""
        if t == "self":
            return TS_SELF, 0, SD_ANY, 0, 1, 0, 0
        if t == "opposing":
            return TS_OPP, 0, SD_ANY, 0, 1, 0, 0
        if t == "combatant":
            return TS_COMBATANT, 0, SD_ANY, 0, 1, 0, 0
        if t == "each own":
            return TS_OWN, 0, SD_ANY, 0, 0, 0, 0
        if t == "opponent_hero":
            return TS_OPPHERO, 0, SD_ANY, 0, 1, 0, 0
        if t == "moved":
            return TS_MOVED, 0, SD_ANY, 0, 1, 0, 0
        if isinstance(t, str) and t in self.kinds:
            return TS_KIND, self.kinds[t], SD_ANY, 0, 0, 0, 0
        if isinstance(t, dict) and ("one" in t) != ("each" in t):
            if set(t) - {"one", "each", "of", "side", "other", "range", "exclude"}:
                raise NotImplementedError(f"{self.key}: {where}: target {t!r} not modelled by this test")
            how, one = (t["one"], 1) if "one" in t else (t["each"], 0)
            side = {"any": SD_ANY, "opposing": SD_OPP, "own": SD_OWN}[t.get("side", "any")]
            other = int(bool(t.get("other", False)))
            excl = {None: 0, "opposing": 1}[t.get("exclude")]
            if how in ("any", "all", "passed", "on_fog"):
                if other:
                    raise NotImplementedError(f"{self.key}: {where}: 'other' with {how!r}")
                sel = {"passed": TS_PASSED, "on_fog": TS_FOG}.get(how, TS_ALL)
                return sel, 0, side, 0, one, excl, 0
            if how in ("in_zone", "adjacent", "within"):
                sel = {"in_zone": TS_ZONE, "adjacent": TS_ADJ, "within": TS_WITHIN}[how]
                return sel, self.ref(t["of"], where), side, other, one, excl, t.get("range", 0)
        raise NotImplementedError(f"{self.key}: {where}: target {t!r} not modelled by this test")

    def rows(self, steps, window, where, opt=0):
        """Effect rows of a list of steps (options of a 'choose' get their option number)."""
        out = []
        for n, step in enumerate(steps):
            op = step["op"]
            w = f"{where}[{n}]"
            row = np.zeros(EF_FIELDS, np.int64)
            row[EF_WIN] = window
            row[EF_OPT] = opt
            self.condition(step, row, w)
            if op in _UNCHECKED_OPS:
                continue
            if op in ("move", "place", "damage", "recover", "set_health", "pin", "swap", "become_defender"):
                if "per" in step:
                    if op not in ("damage", "recover"):
                        raise NotImplementedError(f"{self.key}: {w}: 'per' on {op} not modelled by this test")
                    row[EF_PER] = _PER.get(step["per"], PX_UNCHECKED)
                    if step["per"] == "fighter_adjacent_to_moved":
                        row[EF_PARG] = self.kinds[step["fighter"]]
                    if step["per"] == "zones_of":
                        row[EF_PARG] = self.ref(step["fighter"], w)
                row[EF_OP] = {"move": OX_MOVE, "place": OX_PLACE, "damage": OX_DAMAGE, "recover": OX_RECOVER,
                              "set_health": OX_SETHP, "pin": OX_PIN, "swap": OX_SWAP,
                              "become_defender": OX_DEFENDER}[op]
                (row[EF_SEL], row[EF_REF], row[EF_SIDE], row[EF_OTHER], row[EF_ONE], row[EF_EXCLOPP],
                 row[EF_RANGE]) = self.target(step.get("target", "self"), w)
                if op == "move":
                    row[EF_N] = step.get("up_to", 99)        # onto = "fog" without up_to: no limit
                    if step.get("onto") == "fog":
                        row[EF_FOG] = FG_ONTO
                    row[EF_THR] = int(bool(step.get("through_enemies", False)))
                    row[EF_TRACK] = int(bool(step.get("track", False)))
                elif op == "place":
                    row[EF_ONE] = 1                      # one fighter is placed
                    to = step.get("to", "any")
                    if to in ("any", "any_other"):          # (a place always changes the space: R69)
                        row[EF_TO] = TO_ANY
                    elif to == "last_fog":
                        row[EF_TO] = TO_LASTFOG
                    elif isinstance(to, dict) and len(to) == 1 and next(iter(to)) in ("in_zone_of", "adjacent_to"):
                        k = next(iter(to))
                        row[EF_TO] = TO_ZONE if k == "in_zone_of" else TO_ADJ
                        row[EF_TOREF] = self.ref(to[k], w)
                    else:
                        raise NotImplementedError(f"{self.key}: {w}: place to {to!r}")
                elif op == "swap":
                    row[EF_ONE] = 1                      # your fighter swaps with one other
                elif op != "pin":
                    row[EF_N] = step.get("amount", 1)
            elif op == "damage_spaces":
                row[EF_OP] = OX_DSPACES
                row[EF_N] = step["amount"]
                row[EF_SEL] = TS_SPACES
                row[EF_REF] = self.ref(step["in_zone_of"], w)
                row[EF_SIDE] = {"any": SD_ANY, "opposing": SD_OPP, "own": SD_OWN}[step.get("side", "any")]
            elif op == "prevent_damage":
                row[EF_OP] = OX_PREVENT
                row[EF_N] = step["at_most"] + 1 if "at_most" in step else 0   # a cap + 1; 0: all prevented
            elif op in ("return_defeated", "summon"):
                # summon: a Wolf off the board comes back, else one on it is put there (R63)
                row[EF_OP] = OX_RETURN if op == "return_defeated" else OX_SUMMON
                row[EF_REF] = self.kinds[step["fighter"]]
                if row[EF_REF] == 0:
                    raise NotImplementedError(f"{self.key}: {w}: {op} of the hero")
                to = step.get("to", {"in_zone_of": self.raw["name"]})
                if not (isinstance(to, dict) and set(to) == {"in_zone_of"}):
                    raise NotImplementedError(f"{self.key}: {w}: {op} to {to!r}")
                row[EF_TOREF] = self.ref(to["in_zone_of"], w)
                row[EF_TO] = TO_ZONE
                row[EF_SEL] = TS_KIND
                row[EF_ONE] = 1
            elif op in ("flip_counter", "set_counter", "choose_counter"):
                slot, values = self.counters[step["counter"]]
                row[EF_X] = slot
                if op == "flip_counter":
                    if len(values) != 2:
                        raise NotImplementedError(f"{self.key}: {w}: flip of a {len(values)}-valued counter")
                    row[EF_OP] = OX_FLIP
                elif op == "set_counter":
                    row[EF_OP] = OX_SETCNT
                    row[EF_N] = values.index(step["value"])
                else:
                    row[EF_OP] = OX_CHOOSECNT
                    row[EF_N] = len(values)
            elif op in ("discard_top", "discard"):
                row[EF_OP] = OX_DISCTOP if op == "discard_top" else OX_DISCARD
                who = step.get("who", "you" if op == "discard_top" else "opponent")
                row[EF_SIDE] = SD_OWN if who == "you" else SD_OPP
                row[EF_MATCH] = int(step.get("matching") == "named_value")
            elif op == "discard_for_value":
                row[EF_OP] = OX_DISCFV
                row[EF_ARG] = self.tag_bits[step["tag"]] if "tag" in step else 0
                row[EF_X] = self.forms.index(step["form"]) + 1 if "form" in step else 0
            elif op == "place_fog":
                row[EF_OP] = OX_PLACEFOG
                row[EF_N] = step.get("amount", 1)
                row[EF_TOREF] = self.ref(step.get("to", {}).get("in_zone_of", self.raw["name"]), w)
            elif op == "move_fog":
                row[EF_OP] = OX_MOVEFOG
                row[EF_N] = step.get("up_to", 0)
                row[EF_WHO] = SD_OWN if step.get("who", "you") == "you" else SD_OPP
                tok = step.get("token", "any")
                row[EF_FOG] = ((FG_EMPTY if step.get("to") == "empty" else 0)
                               | (FG_DIFF if step.get("different") else 0)
                               | (FG_UNDER if tok == "under_hero" else 0) | (FG_EACH if tok == "each" else 0))
            elif op == "replace_opponent_card":
                row[EF_OP] = OX_REPLACE
            elif op == "set_printed":
                row[EF_OP] = OX_SETPRINTED
                row[EF_X] = int(step.get("card", "opponent") == "opponent")
                to = step.get("to", "boost")
                row[EF_ARG] = -1 if to == "boost" else to
            elif op in ("predict", "name_value"):
                row[EF_OP] = OX_GUESS
                row[EF_X] = int(op == "name_value")
            elif op == "reveal_top":
                row[EF_OP] = OX_REVEAL
            elif op == "hand_to_deck":
                row[EF_OP] = OX_HANDDECK
                row[EF_N] = step.get("amount", 1)
            elif op == "search":
                row[EF_OP] = OX_SEARCH
                if "card" in step:
                    row[EF_ARG] = self.card_ids[step["card"]]
                else:
                    row[EF_ARG] = self.tag_bits[step["tag"]]
                    row[EF_BYTAG] = 1
                row[EF_X] = {"discard_then_deck": SF_DISC_THEN_DECK, "deck": SF_DECK,
                             "discard": SF_DISC, "deck_or_discard": SF_DECK_OR_DISC}[step.get("from", "deck")]
            elif op == "look_top":
                row[EF_OP] = OX_LOOKTOP
                row[EF_N] = step["amount"]
                row[EF_X] = step["keep"]
                row[EF_UPTO] = int(bool(step.get("up_to", False)))
            elif op == "take_from_discard":
                row[EF_OP] = OX_TAKEDISC
                row[EF_ARG] = self.tag_bits.get(step["tag"], 0)
            elif op == "reclaim":
                row[EF_OP] = OX_RECLAIM
                row[EF_X] = {"hand": 1, "deck_top": 0, "deck": 2}[step.get("to", "hand")]
                row[EF_ARG] = self.card_ids[step["card"]] + 1 if "card" in step else 0   # (random: any card)
            elif op == "shuffle_into_deck":
                row[EF_OP] = OX_SELFDECK
            elif op == "return_to_hand":
                row[EF_OP] = OX_TOHAND
            elif op == "arrange_top":
                row[EF_OP] = OX_ARRANGE
                row[EF_N] = step["amount"]
                row[EF_WHO] = SD_OPP if step.get("who", "you") == "opponent" else SD_OWN
                row[EF_X] = int(bool(step.get("bottom", False)))
            elif op == "remove_from_board":
                row[EF_OP] = OX_REMOVE
            elif op == "gain_action":
                row[EF_OP] = OX_GAIN
                row[EF_N] = step.get("amount", 1)
                row[EF_WHO] = SD_OPP if step.get("who", "you") == "opponent" else SD_OWN
            elif op == "end_turn":
                row[EF_OP] = OX_ENDTURN
            elif op == "boost":
                row[EF_OP] = OX_BOOST
            elif op == "cancel":
                row[EF_OP] = OX_CANCEL
            elif op == "choose":
                row[EF_OP] = OX_CHOOSE
                row[EF_N] = step.get("pick", 1)
                row[EF_ARG] = len(step["options"])
                out.append(row)
                for k, branch in enumerate(step["options"], 1):
                    out.extend(self.rows(branch, window, f"{w}.options[{k - 1}]", k))
                continue
            else:
                raise NotImplementedError(f"{self.key}: {w}: op {op!r} not modelled by this test")
            out.append(row)
        return out


def _line_distances(adj):
    """(S, S) steps along lines (attack adjacency, either way) by our own BFS; 99 unreachable."""
    S = adj.shape[0]
    nb = [np.flatnonzero((adj[u] != 0) | (adj[:, u] != 0)) for u in range(S)]
    out = np.full((S, S), 99, np.int64)
    for s in range(S):
        out[s, s] = 0
        frontier = [s]
        while frontier:
            nxt = []
            for u in frontier:
                for v in nb[u]:
                    if out[s, v] == 99:
                        out[s, v] = out[s, u] + 1
                        nxt.append(v)
            frontier = nxt
    return out


def _successors(move):
    deg = max(1, int(move.sum(axis=1).max()))
    succ = np.full((move.shape[0], deg), -1, np.int64)
    for u in range(move.shape[0]):
        vs = np.flatnonzero(move[u])
        succ[u, : len(vs)] = vs
    return succ


class Expect:
    """What the hero files and the battlefield say, as int64 arrays for the checker."""

    def __init__(self, match: Match):
        content = match.content
        nc = len(content.card_names)
        self.nc = nc
        self.xf = np.zeros((MAX_FIGHTERS, XF_FIELDS), np.int64)
        self.card_info = np.zeros((nc, CI_FIELDS), np.int64)
        self.card_info[:, CI_DROW] = -1
        self.deck_counts = np.zeros((2, nc), np.int64)
        self.bonus_pc = np.zeros((2, nc), np.int64)
        tag_bits = {}
        heroes = [_Hero(key, content, tag_bits) for key in match.keys]
        sources = {}                 # source id -> effect rows
        conds = []                   # (card id, discard_if row), stored after all sources
        for seat, (key, hero) in enumerate(zip(match.keys, heroes)):
            raw = hero.raw
            slot = seat * FIGHTERS_PER_PLAYER
            fighters = [(raw["hero"], 1, 0)] + [(sk, sk["count"], k) for k, sk in enumerate(raw.get("sidekicks", []), 1)]
            for fd, count, kind in fighters:
                for _ in range(count):
                    move = fd.get("move", raw["hero"]["move"])
                    self.xf[slot, :XF_FLAGS] = (1, fd["health"], move, int(fd.get("attack", "melee") == "ranged"), kind)
                    slot += 1
            ability = raw.get("ability", {})
            known = {"name", "text", "maneuver_bonus", "start_of_turn", "setup", "attack_value", "defense_value",
                     "boost_attack", "uncancelable_with", "after_maneuver", "fog_walk", "end_of_turn", "after_attack", "after_defense",
                     "fighter_defeated", "defeated_fighter", "before_damage"}
            if set(ability) - known:
                raise NotImplementedError(f"{key}: ability hooks {sorted(set(ability) - known)} not modelled")
            h = seat * FIGHTERS_PER_PLAYER
            if ability.get("boost_attack"):
                self.xf[h, XF_FLAGS] |= FL_BOOST_ATTACK
            if ability.get("fog_walk"):
                self.xf[h, XF_FLAGS] |= FL_FOG_WALK
            if hero.forms:
                self.xf[h, XF_FLAGS] |= FL_FORMS
            if ability.get("fighter_defeated"):
                self.xf[h, XF_KO] = hero.kinds[ability["defeated_fighter"]] + 1 if "defeated_fighter" in ability else -1
            if "before_damage" in ability:
                # the fighters it protects (every fighter of that name) and what it allows (heroes/README.md)
                bd = ability["before_damage"]
                kind = hero.kinds[bd.get("fighter", raw["name"])]
                for g in range(h, h + FIGHTERS_PER_PLAYER):
                    if self.xf[g, XF_USED] and self.xf[g, XF_KIND] == kind:
                        self.xf[g, XF_BD_TAKE] = {"adjacent": 1, "any": 2}[bd["take"]] if "take" in bd else 0
                        self.xf[g, XF_BD_BY] = hero.kinds[bd["taken_by"]] + 1 if "taken_by" in bd else 0
                        self.xf[g, XF_BD_SPLIT] = int(bd.get("split", False))
                        self.xf[g, XF_BD_COMBAT] = int(bd.get("damage", "any") == "combat")
                        self.xf[g, XF_BD_CAP] = bd["at_most"] + 1 if "at_most" in bd else 0
            if "uncancelable_with" in ability:
                u = ability["uncancelable_with"]
                self.xf[h, XF_PTAG] = tag_bits[u["tag"]]
                self.xf[h, XF_PN] = u["at_least"]
            for hook in ("attack_value", "defense_value"):
                if any(s["op"] not in ("add_value", "set_value") for s in ability.get(hook, [])):
                    raise NotImplementedError(f"{key}: {hook} with ops other than values")
            bonus_tags = {}
            for ins in ability.get("maneuver_bonus", []):
                if ins.get("op") != "add_move" or ins.get("per") != "discard_tag":
                    raise NotImplementedError(f"{key}: maneuver bonus {ins} not modelled by this test")
                bonus_tags[ins["tag"]] = bonus_tags.get(ins["tag"], 0) + ins["amount"]
            sources[nc + 2 * seat] = hero.rows(ability.get("start_of_turn", []), WN_START, f"{key}.start_of_turn")
            sources[nc + 2 * seat + 1] = hero.rows(ability.get("setup", []), WN_SETUP, f"{key}.setup")
            sources[nc + 4 + seat] = hero.rows(ability.get("after_maneuver", []), WN_AFTMAN, f"{key}.after_maneuver")
            # the hooks that begin with their EV_ABILITY line (events.py): end of turn, after an attack, a defeat
            sources[nc + 6 + seat] = hero.rows(ability.get("end_of_turn", []), WN_EOT, f"{key}.end_of_turn")
            sources[nc + 8 + seat] = hero.rows(ability.get("after_attack", []), WN_AFTATK, f"{key}.after_attack")
            sources[nc + 10 + seat] = hero.rows(ability.get("fighter_defeated", []), WN_KO, f"{key}.fighter_defeated")
            sources[nc + 12 + seat] = hero.rows(ability.get("after_defense", []), WN_AFTDEF, f"{key}.after_defense")
            gear = chosen_gear(raw, match.loadouts[seat])
            card_keys = {"name", "type", "value", "boost", "copies", "fighter", "tags", "text", "group", "option",
                         "ongoing", "discard_if", "on_return", "form", "symbol"} | set(CARD_WINDOWS)
            for card in raw["cards"]:
                if set(card) - card_keys:
                    raise NotImplementedError(f"{key}: {card['name']}: {sorted(set(card) - card_keys)} not modelled")
                cid = hero.card_ids[_full(card)]
                if "group" not in card or gear.get(card["group"]) == card["option"]:
                    self.deck_counts[seat, cid] += card["copies"]
                fmask = 0
                banner = card["fighter"]
                for name in ([banner] if isinstance(banner, str) else banner):
                    fmask |= ((1 << len(hero.kinds)) - 1) if name == "any" else 1 << hero.kinds[name]
                tags = 0
                for t in card.get("tags", []):
                    tags |= tag_bits[t]
                ctags = card.get("tags", [])
                passive = 0
                for pv in card.get("ongoing", []):
                    if pv not in PASSIVES:
                        raise NotImplementedError(f"{key}: {card['name']}: ongoing effect {pv!r} not modelled")
                    passive |= PASSIVES[pv]
                retdraw = 0
                for _n, s in enumerate(card.get("on_return", [])):
                    if s["op"] != "draw" or set(s) - {"op", "amount"}:
                        raise NotImplementedError(f"{key}: {card['name']}: on_return {s!r} not modelled")
                    retdraw += s.get("amount", 1)
                self.card_info[cid, :CI_DROW] = (card.get("boost", 0), CARD_TYPES[card["type"]], fmask, tags,
                                                 card.get("value", -1), int("ongoing" in ctags),
                                                 int("uncancelable" in ctags), passive)
                self.card_info[cid, CI_RETDRAW] = retdraw
                self.card_info[cid, CI_FORM] = hero.forms.index(card["form"]) + 1 if "form" in card else 0
                self.bonus_pc[seat, cid] = sum(bonus_tags.get(t, 0) for t in ctags)
                if "discard_if" in card:
                    # a bare condition; { unless = ... } negates it
                    dif = card["discard_if"]
                    step = dif if isinstance(dif, dict) and set(dif) == {"unless"} else {"if": dif}
                    row = np.zeros(EF_FIELDS, np.int64)
                    row[EF_OP] = OX_COND
                    row[EF_WIN] = WN_NEVER
                    hero.condition(step, row, f"{key}.{card['name']}.discard_if")
                    conds.append((cid, row))
                rows = []
                for wname, wcode in CARD_WINDOWS.items():
                    rows += hero.rows(card.get(wname, []), wcode, f"{key}.{card['name']}.{wname}")
                sources[cid] = rows
            assert self.deck_counts[seat].sum() == DECK_SIZE, (key, self.deck_counts[seat].sum())
        n_src = nc + 14
        self.eidx = np.zeros(n_src + 1, np.int64)
        flat = []
        for s in range(n_src):
            rows = sources.get(s, [])
            assert len(rows) <= MAX_FIGHTERS, (s, len(rows))     # 'used' holds one column per row
            flat += rows
            self.eidx[s + 1] = len(flat)
        for cid, row in conds:
            self.card_info[cid, CI_DROW] = len(flat)
            flat.append(row)
        self.eff = np.array(flat, np.int64).reshape(-1, EF_FIELDS) if flat else np.zeros((0, EF_FIELDS), np.int64)
        bf = match.battlefield
        move = np.asarray(bf.move) != 0
        self.succ = _successors(move)
        # one-way paths (Kaer Morhen): the same graph with two-way arrows, for statistics
        self.succ2 = _successors(move | move.T) if (move != move.T).any() else np.zeros((0, 1), np.int64)
        # secret passages (Baskerville Manor): the same graph without them, for statistics
        pas = np.asarray(bf.passage) != 0
        self.succ3 = (_successors(move & ~(pas[:, None] & pas[None, :] & (np.asarray(bf.adj) == 0)))
                      if pas.any() else np.zeros((0, 1), np.int64))
        self.adj = np.array(bf.adj, np.int64)
        self.zmask = np.array(bf.zone_mask, np.int64)
        self.ldist = _line_distances(self.adj)

    def args(self):
        return (self.succ, self.adj, self.zmask, self.xf, self.card_info, self.eff, self.eidx,
                self.deck_counts, self.bonus_pc, self.ldist, self.succ2, self.succ3)

    def source_rows(self, src):
        return self.eff[self.eidx[src]:self.eidx[src + 1]]
