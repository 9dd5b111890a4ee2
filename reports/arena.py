"""The arena's scores: how much better is one AI profile than another?

:func:`sim.runs.arena.play_arena` plays profile A against profile B (every hero against
every hero, mirrors included, seats swapped evenly) and returns per-cell counts;
this module scores them: profile A's score per hero (the games where A plays that
hero) and overall, with Wilson 95% intervals (score = wins + draws / 2), the score
in the mirror matches alone, and the first player's score (seat effect).
:func:`run_arena` plays and scores in one call; :func:`format_arena` is the table the
``unmatched-sim arena`` command prints. Example::

    from reports.arena import format_arena, run_arena
    res = run_arena("standard", "greedy", games=2000, heroes=["medusa", "sinbad"])
    print(res.per_hero)      # pandas DataFrame: hero, games, wins, draws, losses, score, low, high
    print(format_arena(res))
"""
from __future__ import annotations

from dataclasses import dataclass, field

import pandas as pd

from sim.runs.arena import ArenaPlay, play_arena

from .format import distinct_names, plural
from .stats import score_interval, wilson

COUNTS = ["games", "wins", "draws", "losses"]

__all__ = ["ArenaResult", "format_arena", "run_arena", "score_arena", "score_rows"]


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
    names: dict = field(default_factory=dict)     # hero key -> display name (the printed table's)

    @property
    def games_per_second(self) -> float:
        """Games played per second of wall time (NaN when no time was measured)."""
        return float(self.games["games"].sum()) / self.seconds if self.seconds > 0 else float("nan")

    def to_dict(self) -> dict:
        """JSON-ready summary."""
        return {"ai": self.ai, "vs": self.vs, "variant": self.variant or None,
                "overall": self.overall, "first_player": self.first_player,
                "per_hero": self.per_hero.to_dict(orient="records"), "seconds": round(self.seconds, 2),
                "games_per_second": round(self.games_per_second, 1)}


def score_rows(df: pd.DataFrame, by: str | None) -> pd.DataFrame:
    """Profile A's counts summed per ``by`` (a column, e.g. ``"hero"``) or over every row
    (``by`` None: one row), with ``score`` ((wins + draws / 2) / games), ``low`` and
    ``high`` (Wilson 95%). ``df``: rows with ``games``, ``wins``, ``draws``, ``losses``.
    Returns a DataFrame: columns ``by`` (unless None), games, wins, draws, losses,
    score, low, high."""
    g = df.groupby(by)[COUNTS].sum() if by else df[COUNTS].sum().to_frame().T
    score, lo, hi = score_interval(g["wins"] + 0.5 * g["draws"], g["games"])
    g = g.assign(score=score, low=lo, high=hi)
    return g.reset_index() if by else g


def score_arena(play: ArenaPlay) -> ArenaResult:
    """Score a played arena (:func:`sim.runs.arena.play_arena`): per hero (with ``mirror_games``
    and ``mirror_score``), overall and the first player's score. Returns
    :class:`ArenaResult`. Raises ZeroDivisionError if no game was played."""
    df = play.games
    per_hero = score_rows(df, "hero")
    mir = score_rows(df[df["hero"] == df["opponent"]], "hero").set_index("hero")
    per_hero["mirror_games"] = per_hero["hero"].map(mir["games"]).fillna(0).astype(int)
    per_hero["mirror_score"] = per_hero["hero"].map(mir["score"])
    ov = score_rows(df, None).iloc[0]
    overall = {k: (float(ov[k]) if k in ("score", "low", "high") else int(ov[k]))
               for k in ("games", "wins", "draws", "losses", "score", "low", "high")}
    n = int(df["games"].sum())
    fw = int(df["first_wins"].sum())
    draws = int(df["draws"].sum())
    lo, hi = wilson(fw + 0.5 * draws, n)
    first = {"games": n, "first_wins": fw, "draws": draws, "score": (fw + 0.5 * draws) / n,
             "low": float(lo), "high": float(hi)}
    return ArenaResult(play.ai, play.vs, df, per_hero, overall, first, play.seconds, play.variant,
                       distinct_names(play.names))


def run_arena(ai="standard", vs="greedy", games: int = 2000, heroes=None, battlefields=None, seed: int = 1,
              jobs: int | None = None, extra_heroes: tuple = (), backend=None, variant=None) -> ArenaResult:
    """Play profile ``ai`` against profile ``vs`` (``games`` per hero for ``ai``) and score it.

    The arguments are :func:`sim.runs.arena.play_arena`'s: ``heroes`` / ``battlefields``:
    keys (None: all installed); ``seed``: run seed; ``jobs``: processes (None: all
    cores); ``extra_heroes``: extra hero file paths; ``backend``: a
    ``sim.runs.backend.Backend``; ``variant``: a ``sim.content.variants.Variant`` or None.
    Returns :class:`ArenaResult`. Raises ``sim.runs.arena.ArenaError`` for an unknown hero,
    battlefield or profile, or games < 1.
    """
    return score_arena(play_arena(ai, vs, games, heroes, battlefields, seed, jobs, extra_heroes, backend, variant))


def format_arena(res: ArenaResult) -> str:
    """A readable table of an arena result: one line per hero by its display name (games,
    wins, draws, score, 95% interval, mirror score), the overall line and the first player's
    score."""
    names = res.names
    hw = max([22] + [len(names.get(h, h)) + 2 for h in res.per_hero["hero"]])
    lines = [f"{res.ai} vs {res.vs}: {plural(res.overall['games'], 'game')} in {res.seconds:.1f} s "
             f"({res.games_per_second:,.0f} games/s)" + (f"; variant {res.variant!r}" if res.variant else ""),
             f"{'hero':<{hw}}{'games':>7}{'wins':>7}{'draws':>7}{'score':>8}   95% interval   mirror score"]
    for _, r in res.per_hero.iterrows():
        lines.append(f"{names.get(r['hero'], r['hero']):<{hw}}{int(r['games']):>7}{int(r['wins']):>7}{int(r['draws']):>7}"
                     f"{r['score']:>8.3f}   {r['low']:.3f}-{r['high']:.3f}    {r['mirror_score']:.3f}")
    o = res.overall
    lines.append(f"{'overall':<{hw}}{o['games']:>7}{o['wins']:>7}{o['draws']:>7}{o['score']:>8.3f}   "
                 f"{o['low']:.3f}-{o['high']:.3f}")
    f = res.first_player
    lines.append(f"first player's score: {f['score']:.3f} ({f['low']:.3f}-{f['high']:.3f}) over {plural(f['games'], 'game')}")
    return "\n".join(lines)
