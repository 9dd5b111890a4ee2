"""The driver of a stored run: batch the chunks not yet stored into worker tasks, play them
on a backend and store each task's games in one file as its result arrives, keeping the
manifest's status and sessions; compact the folder when the run is complete."""
from __future__ import annotations

import json
import shutil
import time
import warnings
from contextlib import ExitStack
from dataclasses import asdict
from functools import partial
from datetime import UTC, datetime

from tqdm import (
    tqdm,  # a text bar: the same in a terminal and a notebook (the widget bar needs ipywidgets)
)

from sim.content.profiles import get_profile
from sim.runs.apart import start_apart
from sim.runs.backend import Backend, BackendError, open_pool, stop_local_workers
from sim.runs.errors import RunError, RunInterrupted, RunWriteError
from sim.runs.lock import run_lock
from sim.runs.plan import RunPlan, RunResult, package_version
from sim.runs.cells import plan_tasks
from sim.runs.store import (FORMAT_VERSION, GAMES_DIR, MANIFEST, MANIFEST_BACKUP, RUN_KIND, SPACES_DIR, compact,
    finished_chunks, read_manifest, write_json, write_task)
from sim.runs.workers import WorkerMismatch, play_task, warm_match, worker_differences, worker_expectation


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def _prepare_folder(plan: RunPlan) -> dict:
    """Create the run folder (or reopen it) and write/refresh the manifest (a new one when
    the plan rebuilds a damaged manifest, ``plan.recovered``). Call it holding the lock."""
    run_dir = plan.run_dir
    try:
        for sub in (GAMES_DIR, SPACES_DIR):
            (run_dir / sub).mkdir(parents=True, exist_ok=True)
        for sub in (GAMES_DIR, SPACES_DIR, "."):
            for tmp in (run_dir / sub).glob(".*.tmp"):
                tmp.unlink(missing_ok=True)
        if not plan.recovered and ((run_dir / MANIFEST).exists() or (run_dir / MANIFEST_BACKUP).exists()):
            manifest = read_manifest(run_dir)
            manifest.pop("recovered_from", None)
        else:
            manifest = {
                "kind": RUN_KIND, "format": FORMAT_VERSION, "package_version": package_version(),
                "created": _now(), "settings": plan.settings,
                "games_total": plan.games_total, "chunks_total": len(plan.chunks),
                "cells": [dict(asdict(c), matchup_id=c.matchup_id) for c in plan.cells],
                "heroes": plan.hero_info, "battlefields": plan.battlefield_info,
                "extra_hero_paths": list(plan.extra_heroes), "sessions": [],
            }
        if plan.recovered:
            manifest["recovered"] = _now()
        manifest["status"] = "running"
        write_json(run_dir / MANIFEST, manifest)
    except OSError as e:
        raise RunWriteError(run_dir, e, plan.games_done, plan.games_total) from None
    return manifest


def execute_run(plan: RunPlan, jobs: int | None = None, progress: bool | None = True, after_chunk=None,
                backend=None, scheduler: str | None = None, task_games: int | None = None) -> RunResult:
    """Play every chunk of ``plan`` not yet stored and store the games as they finish.

    Where the games are played: ``backend`` is a :class:`sim.runs.backend.Backend`, or a
    name, ``"loky"`` (default: worker processes on this machine) or ``"dask"`` (a
    dask.distributed cluster through joblib's dask backend), combined with
    ``jobs`` (local worker processes, loky or a local dask cluster; None = all
    cores; 1 with loky = play in this process) and ``scheduler`` (a dask scheduler
    address; None with dask = start a local cluster for the run). Every command that
    plays games passes the CLI's ``backend`` here (``sim.cli.options``).
    ``progress``: show a tqdm bar (games done, games/s, time left) on stderr; None
    shows it only when stderr is a terminal.
    ``after_chunk(name, games_done)``: optional callback after each stored chunk (called
    for every chunk of a task once the task's files are written).
    ``task_games``: games per worker task (>= 1); None sizes the tasks for the workers
    (``sim.runs.cells.plan_tasks``: a few seconds of play each, smaller at the end).

    The chunks are batched into tasks; each task's games are stored in one file as the
    task's result arrives (written by this process, whatever the backend), and a task
    is stored at most once (dask may re-run a task after losing a worker). When every
    chunk is stored the folder is compacted (``sim.runs.store.compact``). Dask workers
    must have the same unmatched-sim (version, engine, hero and battlefield files);
    they are checked before the first task and each worker checks itself before its
    first task. The engine is compiled (or loaded from its cache) before any task is
    played, in a short-lived child process when workers play (``sim.runs.apart``: the
    compile's memory is not kept here), else in this process; each worker process loads it once.

    Raises sim.runs.backend.BackendError (one line, ``.param`` names the option) for bad
    backend options, an unreachable scheduler, differing workers, a cluster lost
    mid-run or loky workers that keep dying (nothing is written if the scheduler cannot be
    reached), RunError if ``task_games`` is not positive, RunWriteError if the folder cannot
    be written, ``sim.runs.lock.RunLocked`` if another command is playing the folder, and
    RunInterrupted on KeyboardInterrupt (finished tasks stay stored). Games are identical
    whatever the backend, ``jobs`` and ``task_games``.
    """
    be = Backend.of(backend, jobs, scheduler)
    prof = get_profile(plan.settings["ai"])
    modes = (prof, prof)
    seed = plan.settings["seed"]
    todo = [ch for ch in plan.chunks if ch.name not in plan.done]
    expect = worker_expectation(plan)
    expect_json = json.dumps(expect, sort_keys=True)

    c = todo[0].cell if todo else None
    # compile (or load) the engine here once, before any task is played; then on each worker
    warm_up = partial(warm_match, c.p1, c.p1_loadout, c.p2, c.p2_loadout, c.battlefield, plan.extra_heroes,
                      plan.variant, seed) if c is not None else None

    digest = plan.settings_digest

    def store(out):
        chunks, games, spaces = out[0], out[1], out[2]
        write_task(plan.run_dir, chunks, games, spaces, settings=digest,
                   games_stored=all(ch.name in plan.respace for ch in chunks))

    return drive_chunks(plan, be, expect, plan.games_total, plan.games_done, plan.settings.get("mode", "matrix"),
                        warm_up, play_task, lambda chunks: (chunks, seed, modes, plan.extra_heroes, expect_json,
                                                            plan.variant),
                        store, progress, after_chunk, task_games, worker_warm=warm_up)


def drive_chunks(plan, be, expect: dict, total: int, games_done: int, desc: str, warm_up, task, task_args,
                 store, progress, after_chunk, task_games: int | None = None, worker_warm=None) -> RunResult:
    """The driver of a stored run, for every kind of run (matrix, loadouts, compare, teams).

    Batches the chunks of ``plan`` not yet in ``plan.done`` into tasks
    (``sim.runs.cells.plan_tasks`` for the pool's workers, or ``task_games`` games each),
    plays ``task(*task_args(chunks))`` for each on backend ``be`` and stores each result
    as it arrives with ``store(result)`` (``result``: ``task``'s tuple, the task's chunks
    first and the seconds it took last), at most once; ``warm_up()`` (picklable) compiles the engine
    first, in a child process when the pool's workers play (``sim.runs.apart``), else here. ``total`` and ``games_done``: games of the whole run and those already
    stored; ``desc``: the progress bar's label; ``expect``: :func:`worker_expectation` of
    the plan (dask workers are checked against it); ``worker_warm``: a picklable callable
    run once on every worker before the clock starts (loads the engine there, so the
    games per second measure play, as ``bench`` does; its time is in ``setup_seconds``).
    Keeps the manifest's status and
    sessions, and compacts the folder once every chunk is stored. Holds the folder's lock
    (``sim.runs.lock.run_lock``) from before it cleans the folder until the compaction, and
    plays the chunks of ``plan.respace`` (games stored, space counters missing) in tasks of
    their own. Raises RunWriteError (a RunError) if the folder cannot be written (a full
    disk; the message says how many games are kept), ``sim.runs.lock.RunLocked`` if another
    command holds the lock, BackendError for differing workers or loky workers that keep
    dying, and RunInterrupted on KeyboardInterrupt (finished tasks stay stored)."""
    # on Ctrl-C joblib warns that the tasks in flight were cancelled; they are simply not
    # stored (the resume plays them), so the warning only alarms the user
    warnings.filterwarnings("ignore", message=r".*tasks which were still being processed by the workers have "
                            r"been cancelled", category=UserWarning)
    if task_games is not None and (isinstance(task_games, bool) or int(task_games) < 1):
        raise RunError(f"task games must be a positive whole number, got {task_games!r}", "--task-games")
    todo = [ch for ch in plan.chunks if ch.name not in plan.done]
    state = {"games_done": games_done, "chunks_done": len(plan.done)}

    def interrupted():
        # the loky workers do not get the terminal's Ctrl-C (backend.workers_ignore_ctrl_c): end
        # any of them still playing now, so the command stops at once
        if be.name == "loky":
            stop_local_workers(kill=True)
        return RunInterrupted(plan.run_dir, state["games_done"], total, state["chunks_done"], len(plan.chunks))

    t_setup = time.perf_counter()
    with ExitStack() as stack:
        try:
            pool = stack.enter_context(open_pool(be, len(todo), "chunk(s) of games")) if todo else None
            # games played by other processes: the engine is readied (loaded, or compiled once) in a
            # child process that ends, started now, beside the checks and the folder's preparation,
            # so that this process, which writes the report next, never holds the compiler's memory
            # (sim.runs.apart); stopped on the way out if it still runs (an error, Ctrl-C)
            apart = pool is not None and (pool.client is not None or pool.workers > 1)
            engine = stack.enter_context(start_apart(warm_up)) if apart else None
            if pool is not None:
                check_workers(pool, expect)
        except KeyboardInterrupt:
            raise interrupted() from None
        # one command at a time on a run folder: held until the run is stored and compacted
        stack.enter_context(run_lock(plan.run_dir))
        if todo and plan.run_dir.is_dir():
            # the folder as it is now, under the lock: clean it and see what is stored
            finished_chunks(plan.run_dir, plan.chunks)
            plan.refresh_done()
            todo = [ch for ch in plan.chunks if ch.name not in plan.done]
            state["games_done"], state["chunks_done"] = plan.games_done, len(plan.done)
        skipped = state["games_done"]
        manifest = _prepare_folder(plan)
        workers_n = pool.workers if pool is not None else 1
        fresh = [ch for ch in todo if ch.name not in plan.respace]
        again = [ch for ch in todo if ch.name in plan.respace]
        # chunks replayed for their space counters alone go in tasks of their own (their games
        # files are kept, only a spaces file is written)
        tasks = plan_tasks(fresh, workers_n, task_games) + plan_tasks(again, workers_n, task_games)
        if pool is not None and len(tasks) < pool.workers and task_games is None:
            # a small run: one task per worker rather than idle workers
            per = max(1, -(-sum(ch.n for ch in todo) // pool.workers))
            tasks = plan_tasks(fresh, 1, per) + plan_tasks(again, 1, per)

        if todo:
            try:
                if engine is None or not engine.wait():     # (here when the child could not do it)
                    warm_up()
                if worker_warm is not None and pool is not None:
                    pool.warm_workers(worker_warm)
            except KeyboardInterrupt:
                manifest["status"] = "interrupted"
                write_json(plan.run_dir / MANIFEST, manifest)
                raise interrupted() from None

        t0 = time.perf_counter()
        setup = t0 - t_setup
        played_now = 0
        busy = 0.0
        stored: set = set()
        bar = tqdm(total=total, initial=state["games_done"], unit=" games", desc=desc, smoothing=0.1,
                   disable=None if progress is None else not progress,
                   ncols=min(120, shutil.get_terminal_size((100, 24)).columns))
        status = "failed"
        try:
            results = pool.imap_unordered(task, [task_args(t) for t in tasks]) if pool is not None else iter(())
            try:
                for out in results:
                    chunks, secs = out[0], out[-1]
                    busy += secs
                    key = tuple(ch.name for ch in chunks)
                    if key in stored:       # a result that arrived twice is stored once
                        continue
                    try:
                        store(out)
                    except OSError as e:
                        raise RunWriteError(plan.run_dir, e, state["games_done"], total) from None
                    stored.add(key)
                    n = sum(ch.n for ch in chunks)
                    plan.done.update(key)
                    plan.respace.difference_update(key)
                    state["chunks_done"] += len(chunks)
                    state["games_done"] += n
                    played_now += n
                    bar.update(n)
                    if after_chunk is not None:
                        for ch in chunks:
                            after_chunk(ch.name, state["games_done"])
            except WorkerMismatch as e:
                raise BackendError(str(e), "--scheduler") from None
            finally:
                close = getattr(results, "close", None)
                if close is not None:
                    close()
            status = "complete"
        except KeyboardInterrupt:
            status = "interrupted"
            raise interrupted() from None
        finally:
            bar.close()
            seconds = time.perf_counter() - t0
            workers = pool.workers if pool is not None else 0
            manifest["status"] = "complete" if state["chunks_done"] == len(plan.chunks) else status
            manifest.setdefault("sessions", []).append({
                "finished": _now(), "games": played_now, "seconds": round(seconds, 3),
                "backend": be.name, "where": pool.description if pool is not None else "",
                "jobs": workers, "tasks": len(tasks), "busy_seconds": round(busy, 3), "setup_seconds": round(setup, 3),
                "package_version": package_version()})
            try:
                write_json(plan.run_dir / MANIFEST, manifest)
            except OSError:
                pass
        if state["chunks_done"] == len(plan.chunks):
            try:
                compact(plan.run_dir)
            except OSError as e:
                raise RunWriteError(plan.run_dir, e, state["games_done"], total, compacting=True) from None
    return RunResult(plan.run_dir, total, played_now, skipped, len(plan.chunks), seconds,
                     played_now / seconds if seconds > 0 else float("nan"),
                     backend=pool.description if pool is not None else "", workers=workers,
                     busy_seconds=busy, setup_seconds=setup, tasks=len(tasks))


def check_workers(pool, expect: dict) -> None:
    """Raise BackendError (one line) if a dask worker's unmatched-sim differs from ``expect``."""
    bad = {}
    for addr, out in pool.run_on_workers(worker_differences, expect).items():
        if isinstance(out, BaseException):
            out = [f"cannot run unmatched-sim ({type(out).__name__}: {out})"]
        if out:
            bad[addr] = out
    if bad:
        addr, diffs = next(iter(sorted(bad.items())))
        more = f" (and {len(bad) - 1} more)" if len(bad) > 1 else ""
        raise BackendError(f"{len(bad)} of {len(pool.client.nthreads())} dask workers differ from this machine, "
                           f"e.g. {addr}{more}: {'; '.join(diffs)}; install unmatched-sim {expect['package_version']} "
                           "from the same source on every worker", "--scheduler")


