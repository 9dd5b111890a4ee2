"""League training: one weight vector of the standard AI, learned for every hero at once.

Per-hero tuning (:mod:`sim.runs.tune`) fits each hero's weights against one fixed field,
which learns to exploit that field and gives a homebrew hero nothing. Training here fits
**one** vector of weights (the profile's base weights, no weights of a hero's own) that
every hero plays, so a hero the training never saw is played by the same judgement as the
ones it did.

**Games.** A candidate vector plays one seat; the other seat is a member of the *league*:
installed or file profiles (e.g. the frozen ``standard-0.2`` and ``tuned-0.2``), and the
special member ``mean``, the optimiser's current mean (the search's own best guess, so it
also learns to beat itself rather than one fixed opponent: Miernik & Kowalski, ICAART 2022,
on how the fitness opponent shapes an evolved evaluator). Each generation draws
``games_per_eval / CELL_GAMES`` cells at random from (hero, opponent hero, battlefield,
seat, league member) over the training heroes (mirrors included, ``leave_out`` never
played), seeded from the run seed and the generation; every candidate of the generation
plays those very cells and seeds (common random numbers). The fitness is the candidate
side's mean score (1 win, 0.5 draw, 0 loss).

**Optimiser.** CMA-ES (the ``cma`` package) on the scaled weights of :mod:`sim.runs.tune`
(``w_i = start_i + x_i * max(|start_i|, SCALE_FLOOR)``, ``|x_i| <= BOUND``). The result is
the mean after the last generation.

**Check.** The trained and the starting weights play the same fresh games (a seed no
generation used): every (hero, opponent, battlefield, seat) of the training heroes, and of
the left-out heroes, against each fixed league member and against the starting weights,
``check_games`` games in all per side. The caller turns the paired per-game scores into
changes with intervals (``reports.stats.paired_difference``).

**Resume.** After each generation the optimiser's state is written atomically to
``checkpoint.pkl`` in the run folder; the same settings resume there and give the same
result as an uninterrupted run (other settings: a one-line error).

Example::

    from sim.runs.train import TrainSettings, train
    res = train(TrainSettings(league=("standard-0.2", "mean"), generations=40), "runs/train")
    res.trained_weights               # dict: weight name -> trained value
"""
from __future__ import annotations

import dataclasses
import json
import math
import time
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from sim.content.profiles import AIProfile, ProfileError, get_profile
from sim.engine.ai import WEIGHT_NAMES
from sim.engine.game import RES_WINNER
from sim.play.match import installed_content
from sim.runs.backend import Backend, open_pool
from sim.runs.errors import RunError
from sim.runs.lock import run_lock
from sim.runs.plan import resolve_battlefields, resolve_heroes
from sim.runs.tune import (
    BOUND, CHECKPOINT, SettingsDict, _load_checkpoint, _match, _save, decode, play_generation, prepare_folder,
    tunable_weights,
)

#: The league member that is the optimiser's current mean weights.
MEAN = "mean"
#: Games each drawn cell plays (both seats of a matchup are separate cells).
CELL_GAMES = 2
FORMAT = 1


@dataclass(frozen=True)
class TrainSettings(SettingsDict):
    """What one training run does (all of it recorded in the checkpoint and the provenance).

    ``heroes``: hero keys trained on (empty: every installed and ``extra`` hero);
    ``leave_out``: keys never played in training (played in the check only, to measure
    how a hero the training never saw fares); ``battlefields`` (empty: all); ``weights``:
    names trained (empty: :func:`sim.runs.tune.tunable_weights` of the start profile's mode); ``start``: the profile
    whose weights the search starts from and whose engine mode the candidates play;
    ``league``: opponent profiles (names or .toml paths) and :data:`MEAN`;
    ``games_per_eval``: games per candidate (a multiple of :data:`CELL_GAMES`);
    ``generations``; ``popsize`` (0: cma's default); ``sigma0`` (scale units);
    ``check_games``: games per side of the final check; ``seed``; ``extra``: homebrew files.
    """

    heroes: tuple = ()
    leave_out: tuple = ()
    battlefields: tuple = ()
    weights: tuple = ()
    start: str = "standard"
    league: tuple = ("standard-0.2", "tuned-0.2", MEAN)
    games_per_eval: int = 2000
    generations: int = 60
    popsize: int = 0
    sigma0: float = 0.3
    check_games: int = 4000
    seed: int = 1
    extra: tuple = ()


@dataclass(frozen=True)
class Cell:
    """One seating of a training or check game: the trained hero ``hero`` (loadout ``lo``)
    against ``opp`` (loadout ``lo_opp``) on ``battlefield``, the trained side in seat
    ``seat`` (0 first) against league member ``member`` (an index into the league)."""

    hero: str
    lo: str | None
    opp: str
    lo_opp: str | None
    battlefield: str
    seat: int
    member: int
    games: int

    @property
    def cell_id(self) -> int:
        return zlib.crc32(f"{self.hero}@{self.lo}|{self.opp}@{self.lo_opp}|{self.battlefield}|{self.seat}|"
                          f"{self.member}".encode())


@dataclass
class TrainResult:
    """A finished training run. ``settings`` (resolved); ``start_weights`` and
    ``trained_weights`` (name -> value, the trained names); ``history`` (one dict per
    generation: generation, mean, best, worst (candidates' scores, 0..1), sigma, games,
    seconds); the check's per-game scores of the trained side with the starting weights
    ``check_start`` and the trained ones ``check_trained`` (float64, (n,), the same games in
    the same order), and per game its ``check_hero``, ``check_opponent`` (the league
    member's name, or ``start``) and whether the hero was left out (``check_left_out``,
    bool (n,)); ``seconds`` of play; ``profile``: the start profile with the trained weights."""

    settings: TrainSettings
    start_weights: dict
    trained_weights: dict
    history: list
    check_start: np.ndarray
    check_trained: np.ndarray
    check_hero: list
    check_opponent: list
    check_left_out: np.ndarray
    seconds: float
    profile: AIProfile
    popsize: int


def generation_seed(seed: int, generation: int) -> int:
    """Run seed of generation ``generation`` (every candidate of it plays these games)."""
    return zlib.crc32(f"train:{seed}:{generation}".encode())


def check_seed(seed: int) -> int:
    """Run seed of the final check: no generation plays these games."""
    return zlib.crc32(f"train-check:{seed}".encode())


def draw_cells(heroes: dict, battlefields: list, n_members: int, n_cells: int, seed: int) -> list[Cell]:
    """``n_cells`` cells drawn uniformly (with a numpy generator seeded by ``seed``) from
    (hero, opponent hero, battlefield, seat, league member) over ``heroes`` (key ->
    loadouts; mirrors included), each hero's loadout drawn among its loadouts."""
    rng = np.random.default_rng(seed)
    keys = sorted(heroes)
    out = []
    for _ in range(n_cells):
        h, o = keys[rng.integers(len(keys))], keys[rng.integers(len(keys))]
        lo = heroes[h][rng.integers(len(heroes[h]))]
        lo_o = heroes[o][rng.integers(len(heroes[o]))]
        out.append(Cell(h, lo, o, lo_o, battlefields[rng.integers(len(battlefields))], int(rng.integers(2)),
                        int(rng.integers(n_members)), CELL_GAMES))
    return out


def check_cells(heroes: dict, opponents: dict, battlefields: list, n_members: int, games: int) -> list[Cell]:
    """Every (hero of ``heroes``, opponent of ``opponents``, battlefield, seat, member) with
    about ``games`` games in all split evenly (at least one each); loadouts cycle."""
    hk, ok = sorted(heroes), sorted(opponents)
    n = len(hk) * len(ok) * len(battlefields) * 2 * n_members
    per = max(1, math.ceil(games / n))
    cells = []
    for i, h in enumerate(hk):
        for j, o in enumerate(ok):
            for k, bf in enumerate(battlefields):
                for seat in (0, 1):
                    for m in range(n_members):
                        lo = heroes[h][(i + j + k + seat + m) % len(heroes[h])]
                        lo_o = opponents[o][(i + 2 * j + k + m) % len(opponents[o])]
                        cells.append(Cell(h, lo, o, lo_o, bf, seat, m, per))
    return cells


def play_cells(cells: list, trained: AIProfile, members: list, run_seed: int, extra: tuple) -> np.ndarray:
    """The trained side's per-game scores (float64, (sum of cell games,): 1 win, 0.5 draw,
    0 loss), cell by cell in order; the trained side plays ``trained``, the other side the
    cell's member of ``members`` (profiles). Game i of a cell has seed
    ``game_seed(run_seed, cell_id, i)``."""
    out = []
    for c in cells:
        m = _match(c.hero, c.lo, c.opp, c.lo_opp, c.battlefield, c.seat, extra)
        modes = (trained, members[c.member]) if c.seat == 0 else (members[c.member], trained)
        w = m.play_many(c.games, run_seed, c.cell_id, 0, modes=modes)[:, RES_WINNER]
        out.append(np.where(w == c.seat, 1.0, np.where(w < 0, 0.5, 0.0)))
    return np.concatenate(out) if out else np.zeros(0)


def _task(i, cells, trained, members, run_seed, extra):
    return i, play_cells(cells, trained, members, run_seed, extra)


def with_weights(profile: AIProfile, weights: tuple, name: str) -> AIProfile:
    """``profile`` playing ``weights`` (a full vector, WEIGHT_NAMES order) for every hero:
    weights of a hero's own are dropped."""
    return dataclasses.replace(profile, name=name, weights=tuple(float(w) for w in weights), hero_weights=(),
                               provenance=())


def resolve_settings(s: TrainSettings):
    """Check ``s`` and fill in its defaults; returns (settings, training heroes (key ->
    loadouts), left-out heroes (key -> loadouts), battlefields, start profile, league
    profiles (None for :data:`MEAN`)). Raises RunError (one line, naming the option) on an
    unknown hero, battlefield, weight or profile, or bad numbers."""
    extra = tuple(str(Path(p).resolve()) for p in s.extra)
    try:
        content = installed_content(extra)
    except ValueError as e:
        raise RunError(f"a hero file is invalid: {e}") from None
    chosen = resolve_heroes(list(s.heroes) or None, content, "--heroes")
    out = resolve_heroes(list(s.leave_out), content, "--leave-out") if s.leave_out else {}
    train_h = {k: [lo or None for lo in v] for k, v in chosen.items() if k not in out}
    left = {k: [lo or None for lo in (v or [None])] for k, v in out.items()}
    if not train_h:
        raise RunError("no hero is left to train on: --leave-out names every hero of --heroes", "--leave-out")
    bfs = resolve_battlefields(list(s.battlefields) or None)
    try:
        start = get_profile(s.start)
    except ProfileError as e:
        raise RunError(str(e), "--start") from None
    if start.mode_name not in ("standard", "expert"):
        raise RunError(f"--start {s.start!r} plays mode {start.mode_name!r}, which has no weights to train; "
                       "give a standard or expert profile", "--start")
    names = list(s.weights) or tunable_weights(start.mode_name)   # (only weights its mode reads)
    bad = [n for n in names if n not in WEIGHT_NAMES]
    if bad:
        raise RunError(f"unknown AI weight(s) {', '.join(bad)}; valid: {', '.join(WEIGHT_NAMES)}", "--weights")
    if len(set(names)) < 2:     # (cma's step-size limits fail in one dimension)
        raise RunError("--weights must name at least 2 different weights: CMA-ES searches 2 or more", "--weights")
    for opt, v, lo in (("--games-per-eval", s.games_per_eval, CELL_GAMES), ("--generations", s.generations, 1),
                       ("--check-games", s.check_games, 1), ("--popsize", s.popsize, 0)):
        if isinstance(v, bool) or not isinstance(v, int) or v < lo:
            raise RunError(f"{opt} must be a whole number of at least {lo}, got {v!r}", opt)
    if s.popsize == 1:
        raise RunError("--popsize must be 0 (CMA-ES's default) or at least 2, got 1", "--popsize")
    if not 0 < s.sigma0 <= BOUND:
        raise RunError(f"--sigma0 must be in (0, {BOUND:g}], got {s.sigma0}", "--sigma0")
    if not s.league:
        raise RunError(f"the league is empty; give profiles (comma-separated) and/or {MEAN!r}", "--league")
    league = []
    for name in s.league:
        if name == MEAN:
            league.append(None)
            continue
        try:
            league.append(get_profile(name))
        except ProfileError as e:
            raise RunError(str(e), "--league") from None
    s = dataclasses.replace(s, heroes=tuple(sorted(train_h)), leave_out=tuple(sorted(left)), battlefields=tuple(bfs),
                            weights=tuple(names), extra=extra)
    return s, train_h, left, bfs, start, league


def _members(league: list, mean_profile: AIProfile) -> list[AIProfile]:
    return [mean_profile if p is None else p for p in league]


def train(settings: TrainSettings, out, backend: Backend | None = None, progress=None) -> TrainResult:
    """Run (or resume) one training run into folder ``out``; returns :class:`TrainResult`.

    ``backend``: where the candidates' games play (results do not depend on it);
    ``progress``: called as ``progress(done, total, info)`` in games, or None. Raises
    RunError on bad settings or a folder holding another run, RunLocked if another command
    is training in ``out``.
    """
    import cma   # (imported here: only training needs it)

    s, heroes, left, bfs, start_prof, league = resolve_settings(settings)
    out = prepare_folder(out, "training")
    with run_lock(out):      # one command at a time per folder (a second one stops at once, one line)
        start = start_prof.weights
        idx = [WEIGHT_NAMES.index(n) for n in s.weights]
        n_cells = max(1, s.games_per_eval // CELL_GAMES)
        key = {**s.to_dict(), "format": FORMAT, "start_weights": list(start), "start_mode": start_prof.mode_name,
               "league_weights": [None if p is None else [p.mode_name, list(p.weights), [[k, list(w)] for k, w in
                                                                                           p.hero_weights]]
                                  for p in league]}
        key = json.loads(json.dumps(key))
        ck = _load_checkpoint(out, key, "training")
        if ck is None:
            opts = {"seed": int(s.seed) % (2**31 - 1) or 1, "bounds": [-BOUND, BOUND], "verbose": -9}
            if s.popsize:
                opts["popsize"] = s.popsize
            es = cma.CMAEvolutionStrategy(np.zeros(len(idx)), s.sigma0, opts)
            ck = {"format": 1, "key": key, "es": es, "np_state": np.random.get_state(), "history": [], "seconds": 0.0}
            _save(out / CHECKPOINT, ck)
        es = ck["es"]
        np.random.set_state(ck["np_state"])
        fixed = [p for p in league if p is not None]
        start_side = with_weights(start_prof, start, "train-start")
        ccells = check_cells(heroes | left, heroes, bfs, len(fixed) + 1, s.check_games)
        per_check = sum(c.games for c in ccells)
        total = (s.generations - len(ck["history"])) * es.popsize * n_cells * CELL_GAMES + 2 * per_check
        done = 0
        with open_pool(backend or Backend.of(None, None, None), es.popsize) as pool:
            while len(ck["history"]) < s.generations:
                g = len(ck["history"])
                mean_prof = with_weights(start_prof, decode(np.asarray(es.mean), start, idx), "train-mean")
                members = _members(league, mean_prof)
                cells = draw_cells(heroes, bfs, len(members), n_cells, generation_seed(s.seed, g) ^ 0x51ED)
                rs = generation_seed(s.seed, g)
                row, done = play_generation(
                    es, pool, _task, lambda i, x, cells=cells, members=members, rs=rs, g=g: (
                        i, cells, with_weights(start_prof, decode(x, start, idx), f"train-{g}-{i}"), members, rs,
                        s.extra), g, s.generations, done, total, progress)
                ck["history"].append(row)
                ck["seconds"] += row["seconds"]
                ck["np_state"] = np.random.get_state()
                _save(out / CHECKPOINT, ck)
            trained = decode(np.asarray(es.mean), start, idx)
            trained_side = with_weights(start_prof, trained, "trained")
            if "check" not in ck:
                t0 = time.perf_counter()
                cs = check_seed(s.seed)
                k = max(1, min(8, len(ccells)))
                parts = [ccells[i::k] for i in range(k)]
                res = {}
                tasks = []
                for label, side in (("start", start_side), ("trained", trained_side)):
                    # the check's opponents: the fixed league members, then the starting weights
                    tasks += [((label, j), part, side, fixed + [start_side], cs, s.extra) for j, part in enumerate(parts)]
                for i, v in pool.imap_unordered(_task, tasks):
                    res[i] = v
                    done += len(v)
                    if progress:
                        progress(done, total, "final check")
                order = [c for part in parts for c in part]
                names = [p.name for p in fixed] + ["start"]
                ck["check"] = {
                    "start": np.concatenate([res[("start", j)] for j in range(k)]),
                    "trained": np.concatenate([res[("trained", j)] for j in range(k)]),
                    "hero": [c.hero for c in order for _ in range(c.games)],
                    "opponent": [names[c.member] for c in order for _ in range(c.games)],
                    "left_out": np.array([c.hero in left for c in order for _ in range(c.games)]),
                }
                ck["seconds"] += time.perf_counter() - t0
                _save(out / CHECKPOINT, ck)
        c = ck["check"]
    return TrainResult(s, {n: start[i] for n, i in zip(s.weights, idx)}, {n: trained[i] for n, i in zip(s.weights, idx)},
                       list(ck["history"]), c["start"], c["trained"], c["hero"], c["opponent"], c["left_out"],
                       ck["seconds"], trained_side, int(es.popsize))
