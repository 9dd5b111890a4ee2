"""``unmatched-sim bench``: how fast the engine plays duels on this machine.

The bench plays a fixed, seeded **mix** of duels: every ordered pair of installed
heroes (mirrors included; 11 heroes = 121 pairs), each pair on one battlefield
(the battlefields in turn, so every battlefield appears) and with one loadout
(loadouts in turn). ``games`` duels are split evenly over the pairs; duel ``i`` of
pair ``k`` uses ``game_seed(BENCH_SEED, k, i)``, so the mix is the same on every run
and every machine. Figures (keys of :func:`run_bench`'s result, also ``--json``):

* ``one_core``: the mix played in this process, ``repeat`` times. ``duels_per_second``
  is games / wall seconds, ``duels_per_cpu_second`` games / CPU seconds of this process
  (``time.process_time``; on a shared machine the CPU figure is the steadier one),
  ``us_per_duel`` CPU microseconds per duel. Each as ``best`` / ``median`` / ``range``
  over the repeats.
* ``all_cores``: ``jobs`` loky worker processes (joblib), started and warmed up (engine
  loaded) before the clock starts, each playing the whole mix (every worker as much work
  as the one-core run, so no worker waits for a slower share), repeated so that each
  plays for at least ``MIN_PARALLEL_SECONDS`` (a fast profile's mix takes a fraction of
  a second, too short beside starting the tasks): wall rate, and each
  worker's CPU seconds. ``parallel_efficiency`` = all-cores rate / (jobs x one-core
  rate), both wall rates (best of the repeats); ``cpu_efficiency`` = one-core CPU per
  duel / the workers' CPU per duel (below 1 when parallel workers slow each other down,
  e.g. shared caches). ``same_games`` checks that every worker produced the one-core
  run's results. ``cpu_share`` = the workers' CPU seconds / (jobs x wall seconds): the
  share of ``jobs`` cores the workers actually got; well below 1 means other programs
  were using the cores, and then the wall-clock efficiency says more about the machine
  than about the engine.
* ``compile``: seconds for the first duel of a fresh process with an empty numba cache
  (``NUMBA_CACHE_DIR`` set to a temporary folder in a subprocess, so the user's cache is
  untouched). Measured only with ``compile=True`` (``--compile``: it takes minutes);
  otherwise ``null``.
* ``warm_start``: seconds from starting ``python`` to the end of its first duel (import,
  loading the cached engine, tables, one duel) with the cache warm, in a subprocess:
  ``seconds`` (best), ``runs`` (all), and inside the child ``import_seconds`` /
  ``first_duel_seconds``.
* ``memory``: peak resident memory (MB, ``getrusage`` ru_maxrss) of this process and of
  each worker process after its share of the mix.
* ``python``: the same few duels played with ``NUMBA_DISABLE_JIT=1`` (the engine run as
  plain Python, in a subprocess) and compiled in this process: microseconds per duel
  each, and ``speedup`` = plain Python / compiled.
* ``turns_per_duel``: mean turns of the mix's duels (a turn is one player's turn).
* ``engine_floor``: the engine's floor (:func:`engine_floor`): the mix's first standard-AI
  duel of every pair replayed with every choice scripted, so that no AI runs: ``floor_us``
  and ``ai_us`` (CPU microseconds per duel without and with the AI, in turn on the same
  duels), ``ai_share``, ``games``, ``skipped``, ``differed``. Printed beside the AI's
  figures so that the two cannot drift apart unseen.
* ``matrix``: a designer-shaped run beside the mix: the full matrix (every installed hero
  against every hero, mirrors included, on every battlefield, ``matrix_games`` games per
  pair: thousands of small cells) played through the real pipeline
  (``sim.runs.matrix.plan_run`` and ``sim.runs.drive.execute_run`` into a temporary run
  folder, removed afterwards, on ``jobs`` loky workers): ``games``, ``cells``, ``tasks``,
  ``games_per_second`` (games / seconds of play, as ``matrix`` prints it),
  ``ratio_to_all_cores`` (that rate over the mix's best all-cores rate: how much of the
  engine's speed a designer's run gets), ``files`` (files in the run folder after
  compaction, the manifest included) and ``wall_seconds`` (planning, workers, play,
  storing and compaction). ``null`` with ``matrix_games=0``.
"""
from __future__ import annotations

import hashlib
import json
import math
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from functools import lru_cache

from sim.content.battlefields import list_battlefields
from sim.engine.game import RES_TURNS
from sim.content.profiles import get_profile
from sim.play.match import Match, installed_content

BENCH_SEED = 20260101
DEFAULT_GAMES = 2420
DEFAULT_REPEAT = 3
DEFAULT_PYTHON_GAMES = 6
DEFAULT_MATRIX_GAMES = 100   # games per hero pair of the designer-shaped run
MIN_PARALLEL_SECONDS = 2.0   # least play per worker in the all-cores run
FLOOR_AI = "standard"        # the AI whose games the engine floor replays


def _rss_mb() -> float:
    """Peak resident memory of this process so far, in MB."""
    kb = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return kb / 1024.0 if sys.platform != "darwin" else kb / 2**20


def mix_cells(extra: tuple = ()) -> list[tuple]:
    """The bench mix: ``(p1, loadout1, p2, loadout2, battlefield)`` per ordered hero pair
    (all installed heroes plus ``extra`` homebrew files, mirrors included), battlefields
    and loadouts in turn. Fixed order."""
    content = installed_content(tuple(extra))
    keys = sorted(content.specs)
    bfs = list_battlefields()
    cells = []
    i = 0
    for a in keys:
        for b in keys:
            la, lb = content.specs[a].loadouts(), content.specs[b].loadouts()
            cells.append((a, la[i % len(la)], b, lb[(i // 2) % len(lb)], bfs[i % len(bfs)]))
            i += 1
    return cells


@lru_cache(maxsize=4)
def _matches(extra: tuple):
    """The mix's matches, built as a run's workers build theirs (``workers.cached_tables``):
    the matches on one battlefield share its engine tables."""
    from sim.content.battlefields import load_battlefield
    from sim.content.compile import build_tables, rules_array
    content = installed_content(extra)
    tables = {}
    out = []
    for a, la, b, lb, bf in mix_cells(extra):
        if bf not in tables:
            tables[bf] = build_tables(content, load_battlefield(bf), rules_array())
        out.append(Match([a, b], bf, loadouts=[la or None, lb or None], content=content, tables=tables[bf]))
    return out


def play_share(ai: str, per_cell: int, part: int, parts: int, extra: tuple = (), laps: int = 1) -> dict:
    """Play part ``part`` of ``parts`` of the mix (games ``[per_cell*part/parts, per_cell*(part+1)/parts)``
    of every pair) with AI profile ``ai`` in this process, ``laps`` times over (the same games).

    Returns ``games`` (all laps), ``wall`` and ``cpu`` seconds (the play only), ``turns``
    (sum), ``results`` (per pair: its result rows, of the last lap), ``rss_mb`` (this
    process's peak) and ``pid``. Runs in bench worker processes too.
    """
    prof = get_profile(ai)
    matches = _matches(tuple(extra))
    lo, hi = per_cell * part // parts, per_cell * (part + 1) // parts
    out = {}
    games = turns = 0
    t, c = time.perf_counter(), time.process_time()
    for _ in range(laps):
        for k, m in enumerate(matches):
            if hi > lo:
                res = m.play_many(hi - lo, BENCH_SEED, k, lo, modes=(prof, prof))
                out[k] = res
                games += hi - lo
                turns += int(res[:, RES_TURNS].sum())
    wall, cpu = time.perf_counter() - t, time.process_time() - c
    return {"games": games, "wall": wall, "cpu": cpu, "turns": turns, "pid": os.getpid(), "rss_mb": _rss_mb(),
            "results": {k: v.tobytes() for k, v in out.items()}}


def _warm(ai: str, extra: tuple, pause: float) -> dict:
    """Worker warm-up: load the engine and build the mix's tables, then hold the worker
    for ``pause`` seconds so that every worker of the pool gets one warm-up task."""
    m = _matches(tuple(extra))
    m[0].play_many(1, BENCH_SEED, 0, 0, modes=(get_profile(ai),) * 2)
    time.sleep(pause)
    return {"pid": os.getpid()}


def engine_floor(ai: str, extra: tuple = (), repeats: int = 5) -> dict:
    """How much of a duel is the engine: the mix's first game of every pair played with AI
    profile ``ai`` while every choice is recorded (``policy.with_record``), then again with
    both seats scripted with those choices (no AI computation at all), in turn, ``repeats``
    times. Returns ``ai_us`` and ``floor_us`` (CPU microseconds per duel of each, the cost
    of a game-loop call that plays nothing taken off both), ``ai_share`` (the AI's part of
    a duel), ``games`` timed, ``skipped`` (more choices than a script holds) and
    ``differed`` (scripted replays whose result row was not the AI game's: 0 unless the
    engine is broken, or ``ai`` draws the game's random numbers as the random policy does).
    ``tests/bench/engine_floor.py`` measures the same at more games per pair."""
    import numpy as np
    from sim.engine.codes import MODE_SCRIPT, RES_FIELDS
    from sim.engine.control import CTL_REC, MAX_SCRIPT
    from sim.engine.core import game_seed
    from sim.engine.game import play_duel, play_games
    from sim.engine.layout import EV_FIELDS, MAX_HERO_CARDS, MAX_SPACES, STATE_SIZE
    from sim.engine.policy import new_control, recorded, with_record
    from sim.play.match import _control

    prof = get_profile(ai)
    played = np.zeros((0, 2, MAX_HERO_CARDS), np.int64)
    spaces = np.zeros((2, MAX_SPACES), np.int64)
    one = np.zeros((1, RES_FIELDS), np.int64)
    log = np.zeros((0, EV_FIELDS), np.int64)

    def play(m, k, ctl):
        play_games(m.tables, ctl, m.rows, BENCH_SEED, k, 0, 1, one, played, spaces)
        return one[0].copy()

    jobs, skipped, differed = [], 0, 0
    for k, m in enumerate(_matches(tuple(extra))):
        ctl = _control((prof, prof), heroes=m.keys)
        rec = with_record(ctl)
        play_duel(np.zeros(STATE_SIZE, np.int64), m.tables, rec, log, m.rows, int(game_seed(BENCH_SEED, k, 0)), one[0])
        if rec[rec[CTL_REC] + 1] > MAX_SCRIPT:
            skipped += 1
            continue
        sc = new_control((MODE_SCRIPT,) * 4, recorded(rec), 0)
        if not (play(m, k, ctl) == play(m, k, sc)).all():
            differed += 1
            continue
        jobs.append((m, k, ctl, sc))
    cpu = [0.0, 0.0]
    for r in range(repeats):
        for which in ((0, 1) if r % 2 == 0 else (1, 0)):   # in turn, so that the machine's drift cancels
            t = time.process_time()
            for m, k, ctl, sc in jobs:
                play(m, k, sc if which else ctl)
            cpu[which] += time.process_time() - t
    n = max(1, len(jobs) * repeats)
    m, k, ctl, _ = jobs[0] if jobs else (None, 0, None, None)
    call = 0.0
    if jobs:
        t = time.process_time()
        for _ in range(n):
            play_games(m.tables, ctl, m.rows, BENCH_SEED, k, 0, 0, one, played, spaces)
        call = (time.process_time() - t) / n
    ai_us, floor_us = 1e6 * (cpu[0] / n - call), 1e6 * (cpu[1] / n - call)
    return {"ai_us": round(ai_us, 1), "floor_us": round(floor_us, 1),
            "ai_share": round((ai_us - floor_us) / ai_us, 3) if ai_us > 0 else None,
            "games": len(jobs), "repeats": repeats, "skipped": skipped, "differed": differed}


def _digest(shares: list[dict]) -> str:
    """sha1 over the result rows of every pair in pair order, joined across shares."""
    per = {}
    for s in shares:
        for k, b in s["results"].items():
            per.setdefault(k, []).append(b)
    h = hashlib.sha1()
    for k in sorted(per):
        for b in per[k]:   # shares hold consecutive game ranges in part order
            h.update(b)
    return h.hexdigest()


def _spread(values: list[float], digits: int = 1) -> dict:
    return {"best": round(max(values), digits), "median": round(statistics.median(values), digits),
            "range": [round(min(values), digits), round(max(values), digits)]}


_START_CODE = r"""
import json, sys, time
t0 = time.perf_counter()
from sim.play.match import Match
from sim.content.profiles import get_profile
t1 = time.perf_counter()
m = Match(["medusa", "sinbad"], "soho")
m.play_many(1, 1, 0, 0, modes=(get_profile(sys.argv[1]),) * 2)
t2 = time.perf_counter()
print(json.dumps({"import_seconds": t1 - t0, "first_duel_seconds": t2 - t1, "cpu_seconds": time.process_time()}))
"""

_PYTHON_CODE = r"""
import json, sys, time
from sim.runs.bench import BENCH_SEED, _matches, python_sample
from sim.content.profiles import get_profile
prof = get_profile(sys.argv[1])
sample = python_sample(int(sys.argv[2]))
ms = _matches(())
rows = []
t, c = time.perf_counter(), time.process_time()
for k in sample:
    rows.append(ms[k].play_many(1, BENCH_SEED, k, 0, modes=(prof, prof)).tolist())
print(json.dumps({"wall": time.perf_counter() - t, "cpu": time.process_time() - c, "rows": rows}))
"""


def _run_child(code: str, args: list[str], env_extra: dict | None = None, timeout: float = 3600) -> tuple[dict, float]:
    """Run ``python -c code args`` in the package's environment; return (its JSON, wall seconds)."""
    env = dict(os.environ)
    env.update(env_extra or {})
    t = time.perf_counter()
    p = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=timeout,
                       cwd=os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    wall = time.perf_counter() - t
    if p.returncode != 0:
        raise RuntimeError(f"bench subprocess failed ({p.returncode}): {p.stderr.strip().splitlines()[-1:]}")
    return json.loads(p.stdout.strip().splitlines()[-1]), wall


def warm_start(ai: str, runs: int = 2) -> dict:
    """Seconds from starting ``python`` to the end of its first duel, engine cache warm (best of ``runs``)."""
    walls, inner = [], []
    for _ in range(runs):
        info, wall = _run_child(_START_CODE, [ai])
        walls.append(wall)
        inner.append(info)
    i = walls.index(min(walls))
    return {"seconds": round(min(walls), 2), "runs": [round(w, 2) for w in walls],
            "import_seconds": round(inner[i]["import_seconds"], 2),
            "first_duel_seconds": round(inner[i]["first_duel_seconds"], 3)}


def compile_time(ai: str) -> dict:
    """Seconds to the end of the first duel of a fresh process with an empty numba cache
    (a temporary ``NUMBA_CACHE_DIR``, removed afterwards; the user's cache is untouched)."""
    tmp = tempfile.mkdtemp(prefix="unmatched-bench-cache-")
    try:
        info, wall = _run_child(_START_CODE, [ai], {"NUMBA_CACHE_DIR": tmp})
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {"seconds": round(wall, 1), "cpu_seconds": round(info["cpu_seconds"], 1)}


def python_sample(n: int) -> list[int]:
    """Pairs of the mix whose first duel the plain-Python comparison plays (``n`` spread over the mix)."""
    cells = len(mix_cells())
    return [(j * cells) // n for j in range(n)]


def python_speed(ai: str, n: int) -> dict:
    """The same ``n`` duels (see :func:`python_sample`) as plain Python (``NUMBA_DISABLE_JIT=1``,
    subprocess) and compiled (this process, repeated for at least 0.3 s): microseconds per duel."""
    info, _ = _run_child(_PYTHON_CODE, [ai, str(n)], {"NUMBA_DISABLE_JIT": "1"})
    prof = get_profile(ai)
    ms = _matches(())
    sample = python_sample(n)
    rows = [ms[k].play_many(1, BENCH_SEED, k, 0, modes=(prof, prof)).tolist() for k in sample]
    reps = 0
    c = time.process_time()
    while True:
        for k in sample:
            ms[k].play_many(1, BENCH_SEED, k, 0, modes=(prof, prof))
        reps += 1
        spent = time.process_time() - c
        if spent >= 0.3:
            break
    compiled = 1e6 * spent / (reps * n)
    plain = 1e6 * info["cpu"] / n
    return {"games": n, "python_us_per_duel": round(plain), "compiled_us_per_duel": round(compiled, 1),
            "speedup": round(plain / compiled, 1), "same_games": rows == info["rows"]}


def designer_run(ai: str, games_per_pair: int, jobs: int, all_cores_rate: float) -> dict:
    """The designer-shaped run of the bench (see the module docstring): the full matrix at
    ``games_per_pair`` games per pair on ``jobs`` loky workers, into a temporary folder."""
    from sim.runs.drive import execute_run
    from sim.runs.matrix import plan_run
    from sim.runs.store import count_files
    tmp = tempfile.mkdtemp(prefix="unmatched-bench-matrix-")
    try:
        t = time.perf_counter()
        plan = plan_run(os.path.join(tmp, "run"), games=int(games_per_pair), ai=ai, seed=BENCH_SEED)
        res = execute_run(plan, jobs=jobs, progress=False)
        wall = time.perf_counter() - t
        files = count_files(os.path.join(tmp, "run"))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {"games_per_pair": int(games_per_pair), "games": res.games_played, "cells": len(plan.cells),
            "tasks": res.tasks, "jobs": res.workers, "games_per_second": round(res.games_per_second, 1),
            "ratio_to_all_cores": round(res.games_per_second / all_cores_rate, 3) if all_cores_rate > 0 else None,
            "files": files, "wall_seconds": round(wall, 2), "setup_seconds": round(res.setup_seconds, 2)}


def run_bench(games: int = DEFAULT_GAMES, ai: str = "standard", jobs: int | None = None,
              repeat: int = DEFAULT_REPEAT, python_games: int = DEFAULT_PYTHON_GAMES, measure_compile: bool = False,
              start_runs: int = 2, progress=None, matrix_games: int = DEFAULT_MATRIX_GAMES) -> dict:
    """Run the bench and return its figures (see the module docstring); ``games`` is rounded
    up to a multiple of the mix's pairs. ``jobs``: worker processes (None = all cores);
    ``python_games``: duels for the plain-Python comparison (0 = skip); ``start_runs``:
    warm start-up measurements (0 = skip); ``progress(msg)``: optional callback;
    ``matrix_games``: games per pair of the designer-shaped matrix run (0 = skip)."""
    from joblib import Parallel, delayed

    from sim.runs.backend import workers_ignore_ctrl_c
    workers_ignore_ctrl_c()     # (Ctrl-C stops the bench, not each worker with a traceback)

    say = progress or (lambda msg: None)
    prof = get_profile(ai)
    extra: tuple = ()
    if not jobs:
        jobs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else (os.cpu_count() or 1)
    cells = mix_cells(extra)
    per_cell = max(1, -(-int(games) // len(cells)))
    games = per_cell * len(cells)
    out = {"games": games, "ai": prof.name, "jobs": jobs, "pairs": len(cells), "seed": BENCH_SEED,
           "machine": {"cpus": os.cpu_count(), "load_average": [round(x, 2) for x in os.getloadavg()],
                       "python": platform.python_version()}}
    try:
        import numba
        out["machine"]["numba"] = numba.__version__
    except ImportError:   # pragma: no cover
        pass

    if measure_compile:
        say("compile: first duel with an empty numba cache (a few minutes) ...")
        out["compile"] = compile_time(ai)
    else:
        out["compile"] = None

    say("loading the engine ...")
    t = time.perf_counter()
    _warm(ai, extra, 0.0)
    out["load_seconds"] = round(time.perf_counter() - t, 2)

    say(f"one core: {games} duels x {repeat} ...")
    walls, cpus, ref = [], [], None
    for _ in range(max(1, repeat)):
        s = play_share(ai, per_cell, 0, 1, extra)
        walls.append(s["games"] / s["wall"])
        cpus.append(s["games"] / s["cpu"])
        ref = s
    one = {"duels_per_second": _spread(walls), "duels_per_cpu_second": _spread(cpus),
           "us_per_duel": {"best": round(1e6 / max(cpus), 1), "median": round(1e6 / statistics.median(cpus), 1),
                           "range": [round(1e6 / max(cpus), 1), round(1e6 / min(cpus), 1)]}}
    out["one_core"] = one
    out["turns_per_duel"] = round(ref["turns"] / ref["games"], 2)
    ref_digest = _digest([ref])
    out["games_digest"] = ref_digest     # what the engine plays: any change of a game changes it
    # (on the standard AI's games whatever --ai is: the random policy draws the game's random
    # numbers, so its choices replayed as a script are not the same game)
    say("engine floor: the mix's standard-AI games replayed with every choice scripted ...")
    out["engine_floor"] = engine_floor(FLOOR_AI, extra)

    # every worker plays the mix `laps` times over: at least MIN_PARALLEL_SECONDS of play, so
    # that starting the tasks and collecting their results stay small beside it
    laps = max(1, math.ceil(MIN_PARALLEL_SECONDS * max(walls) / games))
    say(f"all cores: {laps * games} duels on each of {jobs} workers ...")
    with Parallel(n_jobs=jobs, backend="loky") as par:
        par(delayed(_warm)(ai, extra, 1.0) for _ in range(jobs))
        rates, shares_best, eff_cpu, share = [], None, [], []
        for _ in range(max(1, min(repeat, 2))):
            t = time.perf_counter()
            shares = par(delayed(play_share)(ai, per_cell, 0, 1, extra, laps) for _ in range(jobs))
            wall = time.perf_counter() - t
            rates.append(jobs * laps * games / wall)
            eff_cpu.append(sum(s["cpu"] for s in shares) / (jobs * laps * games))
            share.append(sum(s["cpu"] for s in shares) / (jobs * wall))
            if shares_best is None or rates[-1] == max(rates):
                shares_best = shares
    best_one = max(walls)
    out["all_cores"] = {"duels_per_second": _spread(rates), "duels_per_worker": laps * games,
                        "worker_cpu_seconds": [round(s["cpu"], 2) for s in shares_best],
                        "workers": len({s["pid"] for s in shares_best})}
    out["parallel_efficiency"] = round(max(rates) / (jobs * best_one), 3)
    out["cpu_efficiency"] = round((1.0 / max(cpus)) / min(eff_cpu), 3)
    out["cpu_share"] = round(max(share), 3)
    out["same_games"] = all(_digest([s]) == ref_digest for s in shares_best)
    out["memory"] = {"main_mb": round(_rss_mb(), 1),
                     "workers_mb": sorted(round(s["rss_mb"], 1) for s in shares_best)}
    out["memory"]["max_worker_mb"] = max(out["memory"]["workers_mb"])

    if matrix_games > 0:
        say(f"designer-shaped run: the full matrix at {matrix_games} games per pair on {jobs} workers ...")
        out["matrix"] = designer_run(ai, matrix_games, jobs, max(rates))
    else:
        out["matrix"] = None
    if start_runs > 0:
        say("warm start-up ...")
        out["warm_start"] = warm_start(ai, start_runs)
    else:
        out["warm_start"] = None
    if python_games > 0:
        say(f"plain Python (NUMBA_DISABLE_JIT=1): {python_games} duels ...")
        out["python"] = python_speed(ai, python_games)
    else:
        out["python"] = None
    return out


def format_bench(r: dict) -> str:
    """The bench figures as a short text report."""
    one, allc = r["one_core"], r["all_cores"]
    lines = [
        f"unmatched-sim bench: {r['games']} duels ({r['pairs']} hero pairs, all battlefields), AI {r['ai']}, "
        f"{r['turns_per_duel']} turns per duel",
        f"  one core   {one['duels_per_cpu_second']['best']:>9,.0f} duels per CPU second "
        f"(median {one['duels_per_cpu_second']['median']:,.0f}; {one['us_per_duel']['best']:,.0f} us per duel); "
        f"wall {one['duels_per_second']['best']:,.0f}/s",
        f"  {r['jobs']} cores    {allc['duels_per_second']['best']:>9,.0f} duels per second; parallel efficiency "
        f"{100 * r['parallel_efficiency']:.0f}% (CPU per duel: {100 * r['cpu_efficiency']:.0f}%; the workers got "
        f"{100 * r['cpu_share']:.0f}% of {r['jobs']} cores); same games: {'yes' if r['same_games'] else 'NO'}",
        f"  games      digest {r['games_digest']} (sha1 of the mix's result rows: the record of what this "
        "engine and AI play)",
    ]
    f = r.get("engine_floor")
    if f and f["games"]:
        lines.insert(2, f"  engine     {1e6 / f['floor_us']:>9,.0f} duels per CPU second with no AI ({f['floor_us']:,.1f} us "
                        f"per duel; the same duels take {f['ai_us']:,.1f} us with the {FLOOR_AI} AI, which is "
                        f"{100 * f['ai_share']:.0f}% of them): the engine floor, {f['games']} of the mix's "
                        f"{FLOOR_AI}-AI duels replayed with every choice scripted"
                        + (f", {f['differed']} DIFFERED" if f["differed"] else ""))
    d = r.get("matrix")
    if d:
        lines.append(f"  matrix     {d['games_per_second']:>9,.0f} games per second in a designer-shaped run (all heroes "
                     f"and battlefields, {d['games_per_pair']} per pair: {d['games']:,} games in {d['cells']:,} cells, "
                     f"{d['tasks']} tasks): {100 * d['ratio_to_all_cores']:.0f}% of the {r['jobs']}-core mix; "
                     f"{d['files']} files; {d['wall_seconds']:.1f} s wall")
    c = r.get("compile")
    lines.append(f"  compile    {c['seconds']:.0f} s to the first duel with an empty cache ({c['cpu_seconds']:.0f} s CPU)"
                 if c else "  compile    not measured (--compile: a fresh cache in a temporary folder, takes minutes)")
    w = r.get("warm_start")
    if w:
        lines.append(f"  start-up   {w['seconds']:.2f} s to the first duel with a warm cache "
                     f"(import {w['import_seconds']:.2f} s, first duel {w['first_duel_seconds']:.2f} s)")
    mem = r["memory"]
    lines.append(f"  memory     {mem['max_worker_mb']:.0f} MB peak per worker, {mem['main_mb']:.0f} MB this process")
    p = r.get("python")
    if p:
        lines.append(f"  compiled   {p['speedup']:,.0f}x faster than plain Python ({p['python_us_per_duel']:,} vs "
                     f"{p['compiled_us_per_duel']:,.0f} us per duel, {p['games']} duels)")
    lines.append(f"  machine    {r['machine']['cpus']} CPUs, load average {r['machine']['load_average'][0]} at start")
    return "\n".join(lines)
