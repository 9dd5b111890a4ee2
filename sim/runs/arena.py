"""Arena: two AI profiles play each other; how much better is one than the other?

Profile A plays every hero against profile B playing every hero (mirrors
included), on every chosen battlefield, with seats swapped evenly. A hero with
loadouts (Geralt) cycles through them. The result is profile A's score per hero
(the games where A plays that hero) and overall, with Wilson 95% intervals, plus
the first player's score (seat effect).

Game ``i`` of a cell uses ``game_seed(seed, cell_id, i)`` where ``cell_id`` is a
CRC-32 of the cell's identity, so results do not depend on ``jobs``.

Example::

    from sim.runs.arena import run_arena
    res = run_arena("standard", "greedy", games=2000, heroes=["medusa", "sinbad"])
    print(res.per_hero)      # pandas DataFrame: hero, games, wins, draws, losses, score, low, high
"""
from __future__ import annotations

import math
import time
import zlib
from dataclasses import dataclass

import pandas as pd

from reports.stats import wilson
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
class ArenaResult:
    """``games``: one row per cell (hero_a, hero, opponent, battlefield, seat_a, games, wins,
    draws, losses, first_wins); ``per_hero`` and ``overall``: profile A's score with Wilson
    95% intervals (score = wins + draws / 2), per hero also the score in the mirror match
    alone (same hero on both sides: the profiles' skill without the heroes' strength);
    ``first_player``: the first seat's score."""

    ai: str
    vs: str
    games: pd.DataFrame
    per_hero: pd.DataFrame
    overall: dict
    first_player: dict
    seconds: float
    variant: str = ""     # the designer variant's name, '' for none

    @property
    def games_per_second(self) -> float:
        return float(self.games["games"].sum()) / self.seconds if self.seconds > 0 else float("nan")

    def to_dict(self) -> dict:
        """JSON-ready summary."""
        return {"ai": self.ai, "vs": self.vs, "variant": self.variant or None,
                "overall": self.overall, "first_player": self.first_player,
                "per_hero": self.per_hero.to_dict(orient="records"), "seconds": round(self.seconds, 2),
                "games_per_second": round(self.games_per_second, 1)}


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
    w = res[:, 0]
    wins = int((w == cell.seat_a).sum())
    draws = int((w < 0).sum())
    return {"hero_a": cell.hero_a if not cell.lo_a else f"{cell.hero_a}@{cell.lo_a}",
            "hero": cell.hero_a, "opponent": cell.hero_b, "battlefield": cell.battlefield, "seat_a": cell.seat_a,
            "games": cell.games, "wins": wins, "draws": draws, "losses": cell.games - wins - draws,
            "first_wins": int((w == 0).sum())}


def _score_rows(df: pd.DataFrame, by: str | None) -> pd.DataFrame:
    g = df.groupby(by)[["games", "wins", "draws", "losses"]].sum() if by else df[["games", "wins", "draws", "losses"]].sum().to_frame().T
    score = (g["wins"] + 0.5 * g["draws"]) / g["games"]
    lo, hi = wilson(g["wins"] + 0.5 * g["draws"], g["games"])
    g = g.assign(score=score, low=lo, high=hi)
    return g.reset_index() if by else g


def run_arena(ai="standard", vs="greedy", games: int = 2000, heroes=None, battlefields=None, seed: int = 1,
              jobs: int | None = None, extra_heroes: tuple = (), backend=None, variant=None) -> ArenaResult:
    """Play profile ``ai`` against profile ``vs``; ``games`` per hero for ``ai``.

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
    df = pd.DataFrame(rows)
    per_hero = _score_rows(df, "hero")
    mir = _score_rows(df[df["hero"] == df["opponent"]], "hero").set_index("hero")
    per_hero["mirror_games"] = per_hero["hero"].map(mir["games"]).fillna(0).astype(int)
    per_hero["mirror_score"] = per_hero["hero"].map(mir["score"])
    ov = _score_rows(df, None).iloc[0]
    overall = {k: (float(ov[k]) if k in ("score", "low", "high") else int(ov[k]))
               for k in ("games", "wins", "draws", "losses", "score", "low", "high")}
    n = int(df["games"].sum())
    fw = int(df["first_wins"].sum())
    draws = int(df["draws"].sum())
    lo, hi = wilson(fw + 0.5 * draws, n)
    first = {"games": n, "first_wins": fw, "draws": draws, "score": (fw + 0.5 * draws) / n,
             "low": float(lo), "high": float(hi)}
    return ArenaResult(pa.name, pb.name, df, per_hero, overall, first, dt, variant.name if variant is not None else "")


def format_arena(res: ArenaResult) -> str:
    """A readable table of an arena result."""
    lines = [f"{res.ai} vs {res.vs}: {res.overall['games']} games in {res.seconds:.1f} s "
             f"({res.games_per_second:,.0f} games/s)" + (f"; variant {res.variant!r}" if res.variant else ""),
             f"{'hero':<22}{'games':>7}{'wins':>7}{'draws':>7}{'score':>8}   95% interval   mirror score"]
    for _, r in res.per_hero.iterrows():
        lines.append(f"{r['hero']:<22}{int(r['games']):>7}{int(r['wins']):>7}{int(r['draws']):>7}"
                     f"{r['score']:>8.3f}   {r['low']:.3f}-{r['high']:.3f}    {r['mirror_score']:.3f}")
    o = res.overall
    lines.append(f"{'overall':<22}{o['games']:>7}{o['wins']:>7}{o['draws']:>7}{o['score']:>8.3f}   "
                 f"{o['low']:.3f}-{o['high']:.3f}")
    f = res.first_player
    lines.append(f"first player's score: {f['score']:.3f} ({f['low']:.3f}-{f['high']:.3f}) over {f['games']} games")
    return "\n".join(lines)
