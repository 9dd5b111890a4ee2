"""A match: two heroes (with loadouts) on one battlefield under one rules set.

This is the Python-side entry point that every command, test and notebook
uses: it loads and compiles the hero files and the battlefield, builds the
engine tables, and plays games (one with a full event log, or many fast).

Example::

    from sim.play.match import Match
    m = Match(["medusa", "sinbad"], battlefield="marmoreal")
    game = m.play(seed=1)          # one game with its event log
    print(game.winner_name, game.turns)
    results = m.play_many(1000, run_seed=7)   # (1000, RES_FIELDS) int64
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from sim.content.battlefields import Battlefield, list_battlefields, load_battlefield
from sim.content.compile import Content, build_tables, compile_content, rules_array
from sim.content.heroes import HeroFileError, load_heroes
from sim.content.profiles import seat_controls
from sim.content.variants import apply_variant, variant_from_json
from sim.engine import layout as L
from sim.engine.game import RES_FIELDS, RES_TURNS, RES_WINNER, play_duel, play_games
from sim.engine.policy import CTL_EXPLAIN, MODE_RANDOM, new_control


def _control(modes, explain: int = 0, heroes=None) -> np.ndarray:
    """Control array for two seats from profiles / profile names / engine modes; ``heroes``:
    each seat's hero key, for profiles with weights of a hero's own (None: the profiles' weights)."""
    m, w = seat_controls(tuple(modes), heroes)
    return new_control(m + (MODE_RANDOM,) * (4 - len(m)), weights=w, explain=explain)


class MatchError(ValueError):
    """Bad hero, loadout or battlefield name; the message lists the valid ones."""


@lru_cache(maxsize=8)
def installed_content(extra: tuple = (), variant: str = "") -> Content:
    """The installed heroes plus ``extra`` hero files/folders (homebrew), compiled once.

    ``variant``: a designer variant as JSON (``Variant.to_json()``, see
    ``sim.content.variants``) applied before compiling; '' for none. A hero file that
    cannot be loaded is left out and listed in the content's ``skipped`` (naming its hero
    raises its error). Raises HeroFileError for an ``extra`` path that does not exist,
    VariantError if the variant is invalid (or changes a skipped hero).
    """
    specs, bad = load_heroes(None, tuple(str(e) for e in extra))
    if variant:
        specs = apply_variant(specs, variant_from_json(variant))
    content = compile_content(specs)
    content.skipped = bad
    return content


def parse_hero(name: str) -> tuple[str, str | None]:
    """Split 'key@loadout' (or 'key') into (key, loadout or None); MatchError on 'key@'."""
    if "@" in name:
        key, lo = name.split("@", 1)
        if not lo:
            raise MatchError(f"{name!r}: nothing after '@'; write KEY or KEY@LOADOUT")
        return key, lo
    return name, None


def env_hero_paths() -> tuple:
    """Homebrew hero files/folders named in UNMATCHED_SIM_HEROES (os.pathsep-separated)."""
    raw = os.environ.get("UNMATCHED_SIM_HEROES", "")
    return tuple(p for p in raw.split(os.pathsep) if p)


@dataclass
class GameRecord:
    """One finished game: final state, event log and result row.

    ``state``: (STATE_SIZE,) int64; ``log``: (n_events, 6) int64 rows of
    ``(event, a, b, c, d, e)`` (``layout.EV_*``); ``result``: (RES_FIELDS,)
    int64 (``sim.engine.game.RES_*``); ``seed``: 0..2**32-1.
    """

    match: Match
    seed: int
    state: np.ndarray
    log: np.ndarray
    result: np.ndarray
    explain: np.ndarray | None = None

    @property
    def winner(self) -> int:
        """Winning seat (0 moved first, 1 second) or -1 for a draw."""
        return int(self.result[RES_WINNER])

    @property
    def winner_name(self) -> str:
        return "draw" if self.winner < 0 else self.match.hero_names[self.winner]

    @property
    def turns(self) -> int:
        return int(self.result[RES_TURNS])


class Match:
    """Two heroes on one battlefield. Seat 0 moves first and starts on space 1.

    ``heroes``: two hero keys, each optionally 'key@loadout' (a loadout name
    from the hero's choice groups); ``loadouts``: optional list overriding
    the loadout per seat. ``rules``: rules option overrides (see
    ``sim.content.compile.RULE_OPTIONS``). ``tables``: engine tables already built for
    this ``content``, battlefield and rules (``build_tables``; the engine only reads
    them, so the matches of one run may share them), or None to build them. Raises
    MatchError on unknown names.
    """

    def __init__(self, heroes, battlefield="marmoreal", loadouts=None, rules=None, content: Content | None = None,
                 tables=None):
        self.content = content or installed_content(env_hero_paths())
        if len(heroes) != 2:
            raise MatchError(f"a duel needs exactly two heroes, got {len(heroes)}")
        self.keys, self.loadouts, rows = [], [], []
        for i, h in enumerate(heroes):
            key, lo = parse_hero(h)
            if loadouts and loadouts[i]:
                lo = loadouts[i]
            try:
                rows.append(self.content.row(key, lo))
            except HeroFileError as e:
                raise MatchError(str(e)) from None
            key = self.content.rows[rows[-1]][0]
            self.keys.append(key)
            self.loadouts.append(self.content.rows[rows[-1]][1])
        self.rows = np.array(rows, np.int64)
        if isinstance(battlefield, Battlefield):
            self.battlefield = battlefield
        else:
            try:
                self.battlefield = load_battlefield(battlefield)
            except ValueError as e:
                raise MatchError(str(e)) from None
        for seat in range(2):
            if self.battlefield.starts[seat] < 0:
                raise MatchError(f"battlefield {self.battlefield.key!r} has no start space {seat + 1}")
        try:
            self.rules = rules_array(**(rules or {}))
        except ValueError as e:
            raise MatchError(str(e)) from None
        self.tables = build_tables(self.content, self.battlefield, self.rules) if tables is None else tables

    @property
    def specs(self):
        return [self.content.specs[k] for k in self.keys]

    @property
    def mirror(self) -> bool:
        """True when both seats play heroes with the same name (names then get a seat suffix)."""
        return self.specs[0].name == self.specs[1].name

    def _seat_name(self, name: str, seat: int) -> str:
        return f"{name} (P{seat + 1})" if self.mirror else name

    @property
    def hero_names(self) -> list[str]:
        """Hero name per seat; in a mirror match 'Medusa (P1)', 'Medusa (P2)'."""
        return [self._seat_name(s.name, p) for p, s in enumerate(self.specs)]

    def fighter_names(self) -> list[str]:
        """Name of every fighter slot (MAX_FIGHTERS), '' for unused slots.

        Sidekicks of a kind with several copies are numbered ('Harpy 1'); in a
        mirror match every name carries its seat ('Harpy 1 (P2)').
        """
        names = [""] * L.MAX_FIGHTERS
        for p, spec in enumerate(self.specs):
            slot = p * L.FIGHTERS_PER_PLAYER
            names[slot] = self._seat_name(spec.name, p)
            k = 1
            for sk in spec.sidekicks:
                for i in range(sk.count):
                    names[slot + k] = self._seat_name(sk.name if sk.count == 1 else f"{sk.name} {i + 1}", p)
                    k += 1
        return names

    def new_state(self) -> np.ndarray:
        return np.zeros(L.STATE_SIZE, np.int64)

    def play(self, seed: int, modes=(MODE_RANDOM, MODE_RANDOM), log_size: int = 50000,
             explain: int = 0) -> GameRecord:
        """Play one game; return its record.

        ``modes``: per seat, an AI profile (name, file path or ``AIProfile``) or an
        engine policy mode (``MODE_*``). ``explain``: record the top candidates of up
        to this many AI decisions (``GameRecord.explain``).
        """
        seed = int(seed) & 0xFFFFFFFF
        st = self.new_state()
        log = np.zeros((log_size, L.EV_FIELDS), np.int64)
        ctl = _control(modes, explain=explain, heroes=self.keys)
        res = np.zeros(RES_FIELDS, np.int64)
        play_duel(st, self.tables, ctl, log, self.rows, seed, res)
        rec = GameRecord(self, seed, st, log[: st[L.G_LOGN]].copy(), res)
        if explain:
            rec.explain = ctl[CTL_EXPLAIN:].copy()
        return rec

    def play_many(self, n_games: int, run_seed: int = 0, matchup: int = 0, first_index: int = 0,
                  modes=(MODE_RANDOM, MODE_RANDOM), card_counts: bool = False):
        """Play ``n_games`` fast (no log); return (n_games, RES_FIELDS) int64 results.

        Game i uses seed ``game_seed(run_seed, matchup, first_index + i)``. With
        ``card_counts``, also return (n_games, 2, MAX_HERO_CARDS) int64: how often
        each seat played each card of its hero file (index = order in the file).
        Afterwards ``self.last_space_stats`` is (2, n_spaces) int64: combats per
        defender's space (row 0) and fighters defeated per space (row 1), summed
        over these games.
        """
        ctl = _control(modes, heroes=self.keys)
        res = np.zeros((int(n_games), RES_FIELDS), np.int64)
        played = np.zeros((int(n_games) if card_counts else 0, 2, L.MAX_HERO_CARDS), np.int64)
        spaces = np.zeros((2, L.MAX_SPACES), np.int64)
        play_games(self.tables, ctl, self.rows, int(run_seed), int(matchup), int(first_index), int(n_games),
                   res, played, spaces)
        self.last_space_stats = spaces[:, : self.battlefield.n_spaces]
        return (res, played) if card_counts else res


def battlefield_names() -> list[str]:
    return list_battlefields()
