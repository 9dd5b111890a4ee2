"""Compile validated hero specs and a battlefield into the engine's tables.

Data flows one way: hero files -> :class:`HeroSpec` -> :class:`Content`
(card, code, hero and deck arrays; one hero row per loadout) + a
:class:`Battlefield` + rules options -> :class:`sim.engine.tables.Tables`.
"""
from __future__ import annotations

from dataclasses import dataclass

import numba
import numpy as np

from sim.engine import effects as E
from sim.engine import layout as L
from sim.engine.tables import Tables

from .ai_features import card_features, hero_features, hook_step_features, step_features
from .battlefields import Battlefield
from .heroes import CARD_TYPES, HeroFileError, HeroSpec
from .names import name_form

# rules options: name -> (index, default, description)
RULE_OPTIONS = {
    "turn_cap": (L.R_TURN_CAP, 200, "total turns before the game is recorded as a draw"),
    "hand_limit": (L.R_HAND_LIMIT, 7, "hand size at the end of your own turn"),
    "opening_hand": (L.R_OPENING_HAND, 5, "cards drawn at setup"),
    "exhaustion_damage": (L.R_EXHAUST_DAMAGE, 2, "damage to each fighter per card you must draw from an empty deck"),
    "end_at_action": (L.R_END_AT_ACTION, 0,
                      "1: a defeated hero ends the game only at the end of the action (case R07); "
                      "0 (project decision): as soon as a hero is defeated"),
    "actions": (L.R_ACTIONS, 2, "actions per turn"),
    "summon_start_off_board": (L.R_SUMMON_OFF_BOARD, 0,
                               "1: sidekicks marked summon = true (the Leshen's Wolves) start off the board; "
                               "0 (project decision): they start on it like other sidekicks"),
    "off_form_cards": (L.R_OFF_FORM, 0,
                       "1: a DR. JEKYLL / MR. HYDE card may be played in either form, its effects happening "
                       "only in its form (case R44); 0 (project decision): it may be played only in its form"),
    "zero_value_blocks_boost": (L.R_ZERO_BLOCKS_BOOST, 0,
                                "1: against a value locked at 0 (Impossible to See) King Arthur's face-down BOOST "
                                "is lost too (case R66); 0 (project decision): it still adds, as his ability does"),
    "prevent_combat_damage_only": (L.R_PREVENT_COMBAT_ONLY, 0,
                                   "1: Bewilderment's prevention covers only the combat damage (case R70); "
                                   "0 (project decision): all damage to Merlin for the rest of the combat"),
    "fog_move_places": (L.R_FOG_MOVE_PLACES, 0,
                        "1: Lurking's move to a space with a fog token is a place on any such space (case R72); "
                        "0 (project decision): a move of any length along lines (not past opposing fighters)"),
}


def rules_array(**overrides) -> np.ndarray:
    """Rules options as int64 (N_RULES,); unknown names raise ValueError listing valid ones."""
    r = np.zeros(L.N_RULES, np.int64)
    for _name, (i, default, _) in RULE_OPTIONS.items():
        r[i] = default
    for name, v in overrides.items():
        if name not in RULE_OPTIONS:
            raise ValueError(f"unknown rules option {name!r}; valid: {', '.join(RULE_OPTIONS)}")
        r[RULE_OPTIONS[name][0]] = int(v)
    return r


@dataclass
class Content:
    """Compiled heroes: numeric tables plus the names needed to read them back.

    ``cards`` (n_cards, C_FIELDS) int64, ``code`` (n, I_FIELDS) int64,
    ``heroes`` (n_rows, H_FIELDS) int64 with one row per (hero, loadout),
    ``decks`` (n,) int64 card ids. ``rows[i]`` = (hero key, loadout) of row i;
    ``card_names[id]``; ``card_ids[(hero key, card name)]``. ``skipped``: the hero files
    that could not be loaded (``sim.content.heroes.BadHeroFile``), left out: naming one of
    their heroes raises that file's error.
    """

    specs: dict
    rows: list
    card_names: list
    card_hero: list
    card_ids: dict
    cards: np.ndarray
    code: np.ndarray
    heroes: np.ndarray
    decks: np.ndarray
    skipped: tuple = ()

    def unknown_hero(self, key: str) -> str:
        """The message for a hero key that is not loaded: the error of the bad hero file
        that would have given it, or ``unknown hero ...; valid: ...``."""
        for bad in self.skipped:
            if bad.key == key or name_form(bad.key) == name_form(key):
                return f"hero {key!r} cannot be used: {bad.message}"
        return (f"unknown hero {key!r}; valid: {', '.join(sorted(self.specs))} (a hero file of your own: "
                "--homebrew FILE before the command, e.g. --homebrew docs/examples/achilles.toml)")

    def resolve_hero(self, name: str) -> str:
        """The key of the hero ``name`` names, tried in this order: its key as written (a
        homebrew hero keyed ``geralt`` is named by it, though an installed hero's alias is
        ``geralt``); one of its aliases as written; then in any case, with spaces, hyphens or underscores alike
        (:func:`sim.content.names.name_form`), its key or an alias; then its display name. ``King Arthur``,
        ``king arthur``, ``KING_ARTHUR`` -> ``king_arthur``; ``Geralt`` -> ``geralt_of_rivia``
        (an alias). Raises HeroFileError naming ``name``: listing the valid keys when no hero
        fits (or the error of a hero file that was left out), the heroes it fits when several
        of one step do (two heroes of one display name: give the key)."""
        form = name_form(name)
        if name in self.specs:
            return name
        for fits in ([k for k, sp in self.specs.items() if name in sp.aliases],
                     [k for k, sp in self.specs.items() if form in {name_form(x) for x in (k, *sp.aliases)}],
                     [k for k, sp in self.specs.items() if form == name_form(sp.name)]):
            if len(fits) == 1 and form:
                return fits[0]
            if fits and form:
                raise HeroFileError(f"hero {name!r} fits several heroes: {', '.join(sorted(fits))}; give one of "
                                    "these keys")
        raise HeroFileError(self.unknown_hero(name))

    def row(self, key: str, loadout: str | None = None) -> int:
        """Hero-table row of a hero (key, alias or display name: :meth:`resolve_hero`) and
        loadout; raises HeroFileError listing valid names."""
        key = self.resolve_hero(key)
        spec = self.specs[key]
        if not loadout:
            loadout = spec.loadouts()[0]
        spec.parse_loadout(loadout)
        return self.rows.index((key, loadout))

    def spec_of_row(self, row: int) -> HeroSpec:
        return self.specs[self.rows[row][0]]

    def label(self, row: int) -> str:
        key, lo = self.rows[row]
        return f"{key}[{lo}]" if lo else key


def _link(prog, ids):
    """Replace a hero's local card indexes in a program with global card ids."""
    if prog is None or len(prog) == 0:
        return prog
    prog = prog.copy()
    for r in prog:
        if r[L.I_OP] in (E.OP_SEARCH, E.OP_RECLAIM) and r[L.I_Y] > 0:   # a card named by the step
            r[L.I_Y] = ids[r[L.I_Y] - 1] + 1
    return prog


def compile_content(specs: dict[str, HeroSpec]) -> Content:
    """Compile hero specs (key -> HeroSpec) into a :class:`Content`."""
    code_rows = [np.zeros((1, L.I_FIELDS), np.int64)]   # row 0: unused, keeps offsets > 0
    ncode = 1

    def add_prog(prog):
        nonlocal ncode
        if prog is None or len(prog) == 0:
            return 0, 0
        start = ncode
        code_rows.append(prog)
        ncode += len(prog)
        return start, len(prog)

    card_rows, card_names, card_hero, card_ids = [], [], [], {}
    hero_rows, rows, decks = [], [], []
    for key in sorted(specs):
        spec = specs[key]
        first_row = len(hero_rows)
        ids = list(range(len(card_rows), len(card_rows) + len(spec.cards)))
        for local, c in enumerate(spec.cards):
            r = np.zeros(L.C_FIELDS, np.int64)
            r[L.C_TYPE] = CARD_TYPES[c.type]
            r[L.C_VALUE] = -1 if c.value is None else c.value
            r[L.C_BOOST] = c.boost
            r[L.C_FMASK] = c.fighter_mask
            r[L.C_TAGS] = c.tag_bits
            r[L.C_HERO] = first_row
            r[L.C_FORM] = c.form
            r[L.C_LOCAL] = local
            r[L.C_PASSIVE] = c.passive
            for w in range(L.N_WINDOWS):
                s, n = add_prog(_link(c.programs.get(w), ids))
                r[L.C_PROG + 2 * w] = s
                r[L.C_PROG + 2 * w + 1] = n
            cid = len(card_rows)
            card_rows.append(r)
            card_names.append(c.name)
            card_hero.append(key)
            card_ids[(key, c.name)] = cid
        hooks = [add_prog(_link(spec.hooks.get(h), ids)) for h in range(L.N_HOOKS)]
        for lo in spec.loadouts():
            h = np.zeros(L.H_FIELDS, np.int64)
            h[L.H_HP] = spec.hero.health
            h[L.H_MOVE] = spec.hero.move
            h[L.H_RANGED] = int(spec.hero.ranged)
            h[L.H_NKINDS] = len(spec.sidekicks)
            for k, sk in enumerate(spec.sidekicks):
                b = L.H_KIND0 + k * L.K_FIELDS
                h[b + L.K_COUNT] = sk.count
                h[b + L.K_HP] = sk.health
                h[b + L.K_MOVE] = sk.move
                h[b + L.K_RANGED] = int(sk.ranged)
                h[b + L.K_SUMMON] = int(sk.summon)
            h[L.H_FLAGS] = spec.ability_flags
            h[L.H_DEFEAT_KIND] = spec.defeat_kind
            h[L.H_BD_PROTECT:L.H_BD_COMBAT + 1] = spec.before_damage
            h[L.H_PROTECT_TAG], h[L.H_PROTECT_N] = spec.protect
            for i, (s, n) in enumerate(hooks):
                h[L.H_HOOKS + 2 * i] = s
                h[L.H_HOOKS + 2 * i + 1] = n
            h[L.H_DECK_START] = len(decks)
            for ci, copies in spec.deck(lo):
                decks.extend([ids[ci]] * copies)
            h[L.H_DECK_LEN] = len(decks) - h[L.H_DECK_START]
            hero_rows.append(h)
            rows.append((key, lo))
    cards = np.ascontiguousarray(np.stack(card_rows))
    code = np.ascontiguousarray(np.concatenate(code_rows))
    heroes = np.ascontiguousarray(np.stack(hero_rows))
    cards[:, L.C_AI0:L.C_AI0 + L.N_AI_FEAT] = card_features(cards, code)
    code[:, L.I_AI0:L.I_AI_LIVE + 1] = step_features(cards, code)
    heroes[:, L.H_AI_ATK0:L.H_AI_ATK0 + 8] = hero_features(heroes, code)
    hook_step_features(heroes, code)
    return Content(specs, rows, card_names, card_hero, card_ids, cards, code, heroes, np.asarray(decks, np.int64))


def _line_distances(adj) -> np.ndarray:
    """(S, S) int64 shortest distance along lines (adjacency), 99 if unreachable."""
    from scipy.sparse.csgraph import shortest_path
    d = shortest_path(np.asarray(adj, np.float64), unweighted=True, directed=False)
    d[np.isinf(d)] = 99
    return d.astype(np.int64)


def build_tables(content: Content, bf: Battlefield, rules: np.ndarray | None = None) -> Tables:
    """The engine tables for one battlefield (writable, C-contiguous copies)."""
    if rules is None:
        rules = rules_array()
    return Tables(
        cards=_narrow(content.cards, np.int32, "card"), code=_narrow(content.code, np.int32, "effect program"),
        heroes=content.heroes.copy(), decks=content.decks.copy(), rules=np.asarray(rules, np.int64).copy(),
        adj=np.array(bf.adj, np.int8), move=np.array(bf.move, np.int8),
        dist=_narrow(bf.dist, np.int8, "distance"), adist=_narrow(_line_distances(bf.adj), np.int8, "distance"),
        zmask=np.array(bf.zone_mask, np.int64), starts=np.array(bf.starts, np.int64), mmask=_move_masks(bf.move),
    )


def _narrow(table, dtype, what: str) -> np.ndarray:
    """A C-contiguous copy of ``table`` as ``dtype`` (the engine reads the card and effect tables
    as int32 and the distances as int8: smaller tables stay in the processor's caches; compiled
    code computes with them in int64, as before); ValueError if a number does not fit. With
    ``NUMBA_DISABLE_JIT=1`` the tables stay int64: plain Python would compute in the narrow type."""
    a = np.asarray(table)
    if numba.config.DISABLE_JIT:
        return np.array(a, np.int64)
    info = np.iinfo(dtype)
    if a.size and (a.min() < info.min or a.max() > info.max):
        raise ValueError(f"a {what} number is out of the engine's range ({info.min}..{info.max}): "
                         f"{a.min() if a.min() < info.min else a.max()}")
    return np.ascontiguousarray(a, dtype=dtype).copy()


def _move_masks(move) -> np.ndarray:
    """(S,) int64: bit v of row u set when move[u, v] (all 0 above 63 spaces; see Tables.mmask)."""
    move = np.asarray(move)
    masks = np.zeros(move.shape[0], np.int64)
    if move.shape[0] <= 63:
        for u in range(move.shape[0]):
            for v in np.nonzero(move[u])[0]:
                masks[u] |= np.int64(1) << np.int64(v)
    return masks
