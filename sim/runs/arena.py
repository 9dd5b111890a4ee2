"""Arena: two AI profiles play each other; how much better is one than the other?

Profile A plays every hero against profile B playing every hero (mirrors
included), on every chosen battlefield, with seats swapped evenly. A hero with
loadouts (Geralt) cycles through them. :func:`play_arena` plays the cells and
returns one row of counts per cell (:class:`ArenaPlay`); the scores (profile A's
score per hero and overall with Wilson 95% intervals, the first player's score)
are a report's: :func:`reports.arena.run_arena` plays and scores in one call.

Game ``i`` of a cell uses ``game_seed(seed, cell_id, i)`` where ``cell_id`` is a
CRC-32 of the cell's identity, so results do not depend on ``jobs``.

Example::

    from reports.arena import run_arena
    res = run_arena("standard", "greedy", games=2000, heroes=["medusa", "sinbad"])
    print(res.per_hero)      # pandas DataFrame: hero, games, wins, draws, losses, score, low, high
"""
from __future__ import annotations

import math
import time
import zlib
from dataclasses import dataclass, field

import pandas as pd

from sim.engine.game import RES_WINNER
from sim.content.profiles import ProfileError, get_profile
from sim.play.match import Match, installed_content
from sim.runs.backend import Backend, open_pool
from sim.runs.errors import RunError
from sim.runs.plan import resolve_battlefields, resolve_heroes


class ArenaError(ValueError):
    """Bad arena input (hero, battlefield, profile, games); the message lists the valid choices."""

    def __init__(self, msg: str, param: str | None = None):
        super().__init__(msg)
        self.param = param


@dataclass(frozen=True)
class ArenaCell:
    """One seating: profile A's hero (and loadout), profile B's hero, battlefield, A's seat (0 first)."""

    hero_a: str
    lo_a: str | None
    hero_b: str
    lo_b: str | None
    battlefield: str
    seat_a: int
    games: int

    @property
    def cell_id(self) -> int:
        key = f"{self.hero_a}@{self.lo_a}|{self.hero_b}@{self.lo_b}|{self.battlefield}|{self.seat_a}"
        return zlib.crc32(key.encode())


@dataclass
class ArenaPlay:
    """What :func:`play_arena` played: the profiles' names ``ai`` and ``vs``, ``games``
    (one row per cell: hero_a (hero, or hero@loadout), hero, opponent, battlefield,
    seat_a, games, wins, draws, losses (profile A's), first_wins), the wall time
    ``seconds`` of the games (compilation excluded), the ``variant``'s name ('' for
    none) and ``names``: hero key -> display name."""

    ai: str
    vs: str
    games: pd.DataFrame
    seconds: float
    variant: str = ""
    names: dict = field(default_factory=dict)


def plan_cells(heroes: dict, battlefields: list[str], games: int) -> list[ArenaCell]:
    """Cells giving each hero of ``heroes`` (key -> list of loadouts) about ``games`` games
    for profile A, split evenly over opponents (all heroes, mirror included),
    battlefields and the two seats; at least one game per cell."""
    keys = sorted(heroes)
    per = max(1, math.ceil(games / (len(keys) * len(battlefields) * 2)))
    cells = []
    for a in keys:
        for j, b in enumerate(keys):
            for k, bf in enumerate(battlefields):
                for seat in (0, 1):
                    la = heroes[a][(j + k + seat) % len(heroes[a])]
                    lb = heroes[b][(keys.index(a) + k + 1 - seat) % len(heroes[b])]
                    cells.append(ArenaCell(a, la, b, lb, bf, seat, per))
    return cells


def _play_cell(cell: ArenaCell, ai, vs, seed: int, extra: tuple, variant: str = ""):
    content = installed_content(extra, variant)
    if cell.seat_a == 0:
        m = Match([cell.hero_a, cell.hero_b], cell.battlefield, loadouts=[cell.lo_a, cell.lo_b], content=content)
        res = m.play_many(cell.games, seed, cell.cell_id, 0, modes=(ai, vs))
    else:
        m = Match([cell.hero_b, cell.hero_a], cell.battlefield, loadouts=[cell.lo_b, cell.lo_a], content=content)
        res = m.play_many(cell.games, seed, cell.cell_id, 0, modes=(vs, ai))
    w = res[:, RES_WINNER]
    wins = int((w == cell.seat_a).sum())
    draws = int((w < 0).sum())
    return {"hero_a": cell.hero_a if not cell.lo_a else f"{cell.hero_a}@{cell.lo_a}",
            "hero": cell.hero_a, "opponent": cell.hero_b, "battlefield": cell.battlefield, "seat_a": cell.seat_a,
            "games": cell.games, "wins": wins, "draws": draws, "losses": cell.games - wins - draws,
            "first_wins": int((w == 0).sum())}


def play_arena(ai="standard", vs="greedy", games: int = 2000, heroes=None, battlefields=None, seed: int = 1,
               jobs: int | None = None, extra_heroes: tuple = (), backend=None, variant=None) -> ArenaPlay:
    """Play profile ``ai`` against profile ``vs``; ``games`` per hero for ``ai``.

    Returns :class:`ArenaPlay` (the per-cell counts, in plan order, and the timing);
    ``reports.arena.score_arena`` turns it into scores.

    ``variant``: a designer variant (``sim.content.variants.Variant``) applied to the
    heroes, or None.
    ``heroes``: hero keys (None: all installed); ``battlefields``: keys (None: all).
    Raises ArenaError for an unknown hero, battlefield or profile, or games < 1.
    Cells run on ``backend`` (a ``sim.runs.backend.Backend``: loky processes or a dask
    cluster), by default loky with ``jobs`` processes (None: all cores); results do
    not depend on either.
    """

    vjson = variant.to_json() if variant is not None else ""
    if games < 1:
        raise ArenaError(f"--games must be at least 1 (got {games})", "--games")
    try:
        pa, pb = get_profile(ai), get_profile(vs)
    except ProfileError as e:
        raise ArenaError(str(e), "--ai") from None
    try:
        content = installed_content(tuple(str(e) for e in extra_heroes), vjson)
        hero_sel = resolve_heroes(heroes, content)
        bf_keys = resolve_battlefields(battlefields)
    except RunError as e:
        raise ArenaError(str(e), getattr(e, "param", None)) from None
    hero_lo = {k: [lo or None for lo in los] for k, los in hero_sel.items()}
    cells = plan_cells(hero_lo, bf_keys, games)
    extra = tuple(str(e) for e in extra_heroes)
    backend = backend or Backend.of(None, jobs, None)
    _play_cell(ArenaCell(cells[0].hero_a, cells[0].lo_a, cells[0].hero_b, cells[0].lo_b, cells[0].battlefield, 0, 1),
               pa, pb, seed, extra, vjson)   # compile (or load the cache) before timing
    t0 = time.perf_counter()
    with open_pool(backend, len(cells)) as pool:
        rows = list(pool.imap_unordered(_play_cell, [(c, pa, pb, seed, extra, vjson) for c in cells]))
    dt = time.perf_counter() - t0
    order = {(c.hero_a, c.hero_b, c.battlefield, c.seat_a): i for i, c in enumerate(cells)}
    rows.sort(key=lambda r: order[(r["hero"], r["opponent"], r["battlefield"], r["seat_a"])])
    return ArenaPlay(pa.name, pb.name, pd.DataFrame(rows), dt, variant.name if variant is not None else "",
                     {k: content.specs[k].name for k in hero_sel})
