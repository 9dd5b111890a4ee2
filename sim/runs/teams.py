"""Team runs (``unmatched-sim teams``): every pairing of two disjoint hero pairs, stored
like a matrix run: a run folder with manifest.json and games/*.parquet (one file per worker
task, compacted at the end; ``sim.runs.store``), written as the games finish, resumable,
identical games whatever the workers.
The rules of team games are in :mod:`sim.play.teams`."""
from __future__ import annotations

import itertools
import json
import time
import zlib
from dataclasses import dataclass
from functools import lru_cache, partial

import numpy as np
import pyarrow as pa

from sim.content.battlefields import load_battlefield
from sim.content.profiles import get_profile
from sim.engine import game as G
from sim.play.match import installed_content
from sim.play.teams import TeamMatch
from sim.runs.backend import Backend
from sim.runs.drive import drive_chunks
from sim.runs.errors import RunError
from sim.runs.plan import battlefield_facts, check_common, finish_plan, resolve_battlefields, resolve_heroes, split_keys
from sim.runs.store import END_REASONS, read_sorted_games, write_task
from sim.runs.workers import cached_battlefield, cached_tables, check_worker, worker_expectation

TEAMS_MODE = "teams"
ARRANGEMENTS = 8    # which team moves first x seat order within each team

#: Columns of a team run's per-game table (:func:`read_team_games`). Seat k (1..4) takes the
#: k-th turn of a round; seats 1 and 3 are team 1, seats 2 and 4 team 2.
TEAM_GAME_COLUMNS = {
    "matchup_id": "int64: CRC-32 of the cell identity (0..2**32-1)",
    "game_index": "int64: index of the game within its cell",
    "seed": "int64: the game's seed, game_seed(run seed, matchup_id, game_index)",
    "battlefield": "string: battlefield key",
    **{f"s{k}_hero": f"string: hero key of seat {k}" for k in range(1, 5)},
    **{f"s{k}_loadout": f"string: loadout of seat {k} ('' for none)" for k in range(1, 5)},
    "team1": "string: hero pair of seats 1 and 3, keys sorted and joined by '+'",
    "team2": "string: hero pair of seats 2 and 4",
    "winner": "int8: 0 = team1 won, 1 = team2 won, -1 = draw (turn cap or engine error); as a duel's seats",
    "turns": "int32: turns played (every seat's turns together)",
    "end_reason": "string: hero_defeated (a team lost both heroes), turn_cap or error",
    **{f"s{k}_health": f"int16: seat {k}'s hero health at the end" for k in range(1, 5)},
    **{f"s{k}_sidekick_health": f"int16: total health of seat {k}'s sidekicks in play at the end" for k in range(1, 5)},
    **{f"s{k}_dealt": f"int16: damage (health) seat {k}'s attacks and effects dealt to opposing fighters"
       for k in range(1, 5)},
    **{f"s{k}_cards_played": f"int16: cards seat {k} played" for k in range(1, 5)},
    **{f"s{k}_out_turn": f"int16: turn in which seat {k}'s hero was defeated, 0 if it never was" for k in range(1, 5)},
    "decisions": "int32: policy decisions taken in the game",
}


@dataclass(frozen=True)
class TeamCell:
    """One seating of a team pairing on one battlefield: ``games`` games.

    ``seats``: four hero keys in turn order (seats 1..4; seats 1 and 3 are one team);
    ``loadouts``: their loadouts ('' for none)."""

    seats: tuple
    loadouts: tuple
    battlefield: str
    games: int

    @property
    def identity(self) -> str:
        return "teams|" + "|".join(f"{h}@{lo}" for h, lo in zip(self.seats, self.loadouts)) + f"|{self.battlefield}"

    @property
    def matchup_id(self) -> int:
        """Stable 32-bit id: CRC-32 of :attr:`identity`."""
        return zlib.crc32(self.identity.encode("utf-8"))


@dataclass(frozen=True)
class TeamChunk:
    """A batch of ``(cell index, first game, games)`` parts played by one worker task."""

    index: int
    parts: tuple

    @property
    def n(self) -> int:
        return sum(p[2] for p in self.parts)

    @property
    def name(self) -> str:
        h = zlib.crc32(";".join(f"{c}:{a}:{b}" for c, a, b in self.parts).encode())
        return f"t{self.index:06d}-{h:08x}"


def team_pairings(keys) -> list[tuple]:
    """Every unordered pairing of two disjoint hero pairs of ``keys`` (sorted keys), as
    ``((a, b), (c, d))`` with ``a < b``, ``c < d`` and ``(a, b) < (c, d)``: for n heroes
    n(n-1)(n-2)(n-3)/8 pairings (11 heroes: 990)."""
    pairs = list(itertools.combinations(sorted(keys), 2))
    return [(p, q) for i, p in enumerate(pairs) for q in pairs[i + 1:] if not set(p) & set(q)]


def plan_team_cells(heroes: dict, battlefields: list, games: int) -> tuple[list, int]:
    """Cells of a team run and the games per pairing.

    ``heroes``: key -> loadout (one per hero); ``games``: total games (>= 1), spread evenly
    over the pairings and rounded up so that every pairing gets the same number
    (``per = ceil(games / pairings)``). The run's games, pairing after pairing, take the
    seat arrangements (which team moves first, and the order of the two heroes within
    each team: 8 arrangements) in turn, and the battlefields in turn every 8 games, so
    seats and battlefields are balanced over the run (and each pairing's games use
    different arrangements). Raises RunError if fewer than four heroes are given.
    """
    keys = sorted(heroes)
    if len(keys) < 4:
        raise RunError(f"--heroes names {len(keys)} heroes; team games need at least 4", "--heroes")
    pairings = team_pairings(keys)
    per = -(-int(games) // len(pairings))
    cells: dict = {}
    k = 0
    nb = len(battlefields)
    for p, q in pairings:
        for _ in range(per):
            arr = k % ARRANGEMENTS
            bf = battlefields[(k // ARRANGEMENTS) % nb]
            k += 1
            first, second = (p, q) if arr & 1 == 0 else (q, p)
            f = first if arr & 2 == 0 else first[::-1]
            s = second if arr & 4 == 0 else second[::-1]
            seats = (f[0], s[0], f[1], s[1])
            key = (seats, bf)
            cells[key] = cells.get(key, 0) + 1
    out = [TeamCell(seats, tuple(heroes[h] for h in seats), bf, n) for (seats, bf), n in cells.items()]
    seen = {}
    for c in out:
        if c.matchup_id in seen:
            raise RunError(f"cells {seen[c.matchup_id]} and {c.identity} have the same matchup id; rename a hero key")
        seen[c.matchup_id] = c.identity
    return out, per


def plan_team_chunks(cells: list, chunk_size: int) -> list:
    """Batch the cells' games, in cell order, into chunks of at most ``chunk_size`` games."""
    chunks, parts, n = [], [], 0
    for ci, c in enumerate(cells):
        first = 0
        while first < c.games:
            take = min(c.games - first, chunk_size - n)
            parts.append((ci, first, take))
            first += take
            n += take
            if n >= chunk_size:
                chunks.append(TeamChunk(len(chunks), tuple(parts)))
                parts, n = [], 0
    if parts:
        chunks.append(TeamChunk(len(chunks), tuple(parts)))
    return chunks


def plan_teams(out, games: int, heroes=None, battlefields=None, ai: str = "standard", seed: int = 1,
               chunk_size: int = 200, extra_heroes=()):
    """Validate a team run and plan it, without writing anything.

    ``out``: run folder (new, empty, or this very run to resume); ``games``: total games
    (>= 1; rounded up to a multiple of the pairings, see :func:`plan_team_cells`);
    ``heroes``: keys or KEY@LOADOUT (None = every installed hero; a hero with gear plays
    its first loadout unless one is named); ``battlefields``: keys (None = every installed
    one; each needs four start spaces); ``ai``: AI profile of both teams. Returns a
    ``sim.runs.plan.RunPlan`` whose cells are :class:`TeamCell` and chunks :class:`TeamChunk`.
    Raises ``sim.runs.errors.RunError`` (``.param`` names the option) on bad input.
    """
    profile, extra, content = check_common(games, chunk_size, seed, ai, extra_heroes, None)
    sel = _resolve_team_heroes(heroes, content)
    bf_keys = resolve_battlefields(battlefields)
    bfs = {k: load_battlefield(k) for k in bf_keys}
    for k, bf in bfs.items():
        if (bf.starts[:4] < 0).any():
            good = [b for b in resolve_battlefields(None) if (load_battlefield(b).starts[:4] >= 0).all()]
            raise RunError(f"battlefield {k!r} has fewer than four start spaces; team games need four: "
                           f"{', '.join(good)}", "--battlefields")
    cells, per = plan_team_cells(sel, bf_keys, int(games))
    settings = {"mode": TEAMS_MODE, "heroes": sel, "battlefields": bf_keys, "games": int(games),
                "games_per_pairing": per, "pairings": len(team_pairings(sel))}
    plan = finish_plan(out, settings, cells, list(sel), bf_keys, bfs, ai, profile, seed, chunk_size,
                        content, extra, None)
    plan.chunks = plan_team_chunks(cells, int(chunk_size))
    plan.spaces = False
    if plan.run_dir.is_dir():
        plan.refresh_done()
    plan.battlefield_info = {k: dict(battlefield_facts(bf), starts=[int(s) for s in bf.starts[:4]])
                             for k, bf in bfs.items()}
    return plan


def _resolve_team_heroes(names, content) -> dict:
    """--heroes -> {key: loadout}: each hero once, its first loadout unless KEY@LOADOUT names one."""
    raw = split_keys(names)
    keys = [n.split("@", 1)[0] for n in raw]
    dup = sorted({k for k in keys if keys.count(k) > 1})
    if dup:
        raise RunError(f"--heroes names {', '.join(dup)} more than once; name each hero once", "--heroes")
    sel = resolve_heroes(names, content)
    return {k: los[0] for k, los in sel.items()}


@lru_cache(maxsize=4096)
def _team_match(seats, loadouts, battlefield, extra):
    heroes = [f"{h}@{lo}" if lo else h for h, lo in zip(seats, loadouts)]
    return TeamMatch([heroes[0], heroes[2]], [heroes[1], heroes[3]], cached_battlefield(battlefield),
                     content=installed_content(extra), tables=cached_tables(battlefield, tuple(extra)))


def _warm_team(seats, loadouts, battlefield, extra, seed) -> None:
    """Load the engine in this process by playing one team game of a cell."""
    _team_match(seats, loadouts, battlefield, tuple(extra)).play_many(1, seed, 0, 0)


def _team_task(chunks: tuple, cells: dict, run_seed, modes, extra, expect_json=None):
    """Play a task (a tuple of :class:`TeamChunk`) on a worker (``cells``: cell index ->
    TeamCell for its parts): ``(chunks, games table, seconds)``."""
    t = time.perf_counter()
    if expect_json is not None:
        check_worker(expect_json)
    out = []
    for chunk in chunks:
        for ci, first, n in chunk.parts:
            c = cells[ci]
            res = _team_match(c.seats, c.loadouts, c.battlefield, tuple(extra)).play_many(
                n, run_seed, c.matchup_id, first, modes=modes)
            out.append((ci, first, res))
    return chunks, _team_table(cells, out), time.perf_counter() - t


def _team_table(cells, parts):
    cols = {k: [] for k in TEAM_GAME_COLUMNS}
    for ci, first, res in parts:
        c = cells[ci]
        n = len(res)
        cols["matchup_id"].append(np.full(n, c.matchup_id, np.int64))
        cols["game_index"].append(np.arange(first, first + n, dtype=np.int64))
        cols["seed"].append((res[:, G.TRES_SEED] & 0xFFFFFFFF).astype(np.int64))
        cols["battlefield"].append(np.array([c.battlefield] * n, dtype=object))
        for k in range(4):
            cols[f"s{k + 1}_hero"].append(np.array([c.seats[k]] * n, dtype=object))
            cols[f"s{k + 1}_loadout"].append(np.array([c.loadouts[k]] * n, dtype=object))
        cols["team1"].append(np.array(["+".join(sorted((c.seats[0], c.seats[2])))] * n, dtype=object))
        cols["team2"].append(np.array(["+".join(sorted((c.seats[1], c.seats[3])))] * n, dtype=object))
        w = res[:, G.TRES_WINNER]
        cols["winner"].append(np.where(w < 0, -1, w).astype(np.int8))
        cols["turns"].append(res[:, G.TRES_TURNS].astype(np.int32))
        cols["end_reason"].append(np.array([END_REASONS.get(int(r), f"code_{int(r)}") for r in res[:, G.TRES_REASON]],
                                           dtype=object))
        for k in range(4):
            cols[f"s{k + 1}_health"].append(res[:, G.TRES_HP0 + k].astype(np.int16))
            cols[f"s{k + 1}_sidekick_health"].append(res[:, G.TRES_SK0 + k].astype(np.int16))
            cols[f"s{k + 1}_dealt"].append(res[:, G.TRES_DEALT0 + k].astype(np.int16))
            cols[f"s{k + 1}_cards_played"].append(res[:, G.TRES_PLAYED0 + k].astype(np.int16))
            cols[f"s{k + 1}_out_turn"].append(res[:, G.TRES_OUT0 + k].astype(np.int16))
        cols["decisions"].append(res[:, G.TRES_DECISIONS].astype(np.int32))
    arrays = {}
    for k, v in cols.items():
        a = np.concatenate(v) if v else np.array([])
        arrays[k] = pa.array(list(a), pa.string()) if a.dtype == object else pa.array(a)
    return pa.table(arrays)


def read_team_games(run_dir):
    """All stored games of a team run folder as a pandas DataFrame (one row per game,
    :data:`TEAM_GAME_COLUMNS`), sorted by seat heroes, battlefield and game index. Raises
    ``sim.runs.errors.RunError`` if ``run_dir`` is not a run folder of this format. Reads
    the whole run into memory; the report streams it instead."""
    return read_sorted_games(run_dir, TEAM_GAME_COLUMNS,
                             ["s1_hero", "s2_hero", "s3_hero", "s4_hero", "battlefield", "game_index"])


def execute_teams(plan, backend=None, progress: bool | None = True, after_chunk=None, jobs: int | None = None,
                  task_games: int | None = None):
    """Play every chunk of a team run ``plan`` (:func:`plan_teams`) not yet stored and store
    the games as they finish; like ``sim.runs.drive.execute_run`` (backends, tasks of many
    chunks stored one file each, resuming, compaction at the end; Ctrl-C keeps every
    finished task: raises ``RunInterrupted``). Returns a ``sim.runs.plan.RunResult``."""
    be = Backend.of(backend, jobs)
    prof = get_profile(plan.settings["ai"])
    modes = (prof, prof)
    seed = plan.settings["seed"]
    cells = tuple(plan.cells)
    todo = [ch for ch in plan.chunks if ch.name not in plan.done]
    expect = worker_expectation(plan)
    expect_json = json.dumps(expect, sort_keys=True)

    c = cells[todo[0].parts[0][0]] if todo else None
    # compile (or load) the engine here once, before any task; then on each worker
    warm_up = partial(_warm_team, c.seats, c.loadouts, c.battlefield, plan.extra_heroes, seed) if c else None

    def store(out):
        write_task(plan.run_dir, out[0], out[1], settings=plan.settings_digest)

    def args(chunks):
        return (chunks, {ci: cells[ci] for ch in chunks for ci, _, _ in ch.parts}, seed, modes, plan.extra_heroes,
                expect_json)

    return drive_chunks(plan, be, expect, plan.games_total, plan.games_done, "teams", warm_up, _team_task, args,
                        store, progress, after_chunk, task_games, worker_warm=warm_up)


def run_teams(out, games: int, heroes=None, battlefields=None, ai: str = "standard", seed: int = 1,
              chunk_size: int = 200, extra_heroes=(), backend=None, progress: bool = False, jobs: int | None = None,
              task_games: int | None = None):
    """:func:`plan_teams` then :func:`execute_teams`."""
    plan = plan_teams(out, games, heroes, battlefields, ai, seed, chunk_size, extra_heroes)
    return execute_teams(plan, backend=backend, progress=progress, jobs=jobs, task_games=task_games)


__all__ = ["TEAM_GAME_COLUMNS", "TEAMS_MODE", "TeamCell", "TeamChunk", "execute_teams", "plan_team_cells",
           "plan_team_chunks", "plan_teams", "read_team_games", "run_teams", "team_pairings"]
