"""What a worker process runs: play one task (many chunks) and build its stored tables, and
check once that the worker has the driver's unmatched-sim (version, engine and compiler
sources, hero and battlefield files)."""
from __future__ import annotations

import json
import os
import socket
import time
from functools import lru_cache
from pathlib import Path

import numpy as np

from sim.content.battlefields import BATTLEFIELD_DIR, load_battlefield
from sim.content.compile import build_tables, rules_array
from sim.content.heroes import HeroFileError, load_heroes
from sim.play.match import Match, installed_content
from sim.runs.plan import RunPlan, engine_fingerprint, file_sha, package_version
from sim.runs.store import games_table, spaces_table


@lru_cache(maxsize=64)
def cached_battlefield(key: str):
    """A battlefield loaded once per process (its TOML file takes ~4 ms to read and compile)."""
    return load_battlefield(key)


@lru_cache(maxsize=64)
def cached_tables(battlefield: str, extra: tuple = (), variant: str = ""):
    """The engine tables of one battlefield for the installed content plus ``extra`` and
    ``variant``, built once per process and shared by every match of a run on it (the
    engine only reads them): a cell then costs a few microseconds to set up, not ~5 ms."""
    return build_tables(installed_content(tuple(extra), variant), cached_battlefield(battlefield), rules_array())


@lru_cache(maxsize=4096)
def cached_match(p1, lo1, p2, lo2, battlefield, extra, variant=""):
    """The Match of one cell, built once per process (with the shared battlefield tables)."""
    return Match([p1, p2], cached_battlefield(battlefield), loadouts=[lo1 or None, lo2 or None],
                 content=installed_content(extra, variant), tables=cached_tables(battlefield, tuple(extra), variant))


def warm_match(p1, lo1, p2, lo2, battlefield, extra, variant, seed) -> None:
    """Load the engine in this process (from its cache) by playing one game of a cell."""
    cached_match(p1, lo1, p2, lo2, battlefield, tuple(extra), variant).play_many(1, seed, 0, 0)


def play_chunk(p1: str, lo1: str, p2: str, lo2: str, battlefield: str, matchup_id: int, first: int, n: int,
               run_seed: int, modes: tuple, extra: tuple = (), variant: str = ""):
    """Play one chunk (runs in a worker process); ``variant``: a designer variant as JSON
    ('' for none), applied to the heroes.

    Returns ``(res, played, spaces)``: ``res`` int64 (n, RES_FIELDS) result rows
    (``sim.engine.game.RES_*``), ``played`` int16 (n, 2, MAX_HERO_CARDS) plays per card
    per seat, ``spaces`` int64 (2, n_spaces): combats (row 0) and defeats (row 1) per
    space summed over the chunk's games.
    """
    m = cached_match(p1, lo1, p2, lo2, battlefield, tuple(extra), variant)
    res, played = m.play_many(n, run_seed, matchup_id, first, modes=modes, card_counts=True)
    return res, played.astype(np.int16), m.last_space_stats.copy()


class WorkerMismatch(RuntimeError):
    """A worker's unmatched-sim (package version, engine or compiler sources, hero or
    battlefield files) differs from the driver's, so it would play other games."""


def worker_expectation(plan: RunPlan) -> dict:
    """What every worker of ``plan`` must have: the driver's package version, the
    plan's fingerprints (engine and compiler sources, hero and battlefield files) and
    the homebrew hero paths. JSON-able; compared by :func:`worker_differences`."""
    return dict(plan.settings["fingerprint"], package_version=package_version(),
                extra_heroes=list(plan.extra_heroes))


def worker_differences(expect: dict) -> list[str]:
    """How this machine's unmatched-sim differs from ``expect`` (see
    :func:`worker_expectation`): a list of short phrases, empty when it matches.
    Runs on a worker; reads the installed files only (does not load the engine)."""
    diffs = []
    v = package_version()
    if v != expect.get("package_version"):
        diffs.append(f"unmatched-sim {v} here, {expect.get('package_version')} on the driver")
    for key, what in (("engine", "the engine sources (sim/engine)"), ("compiler", "the hero compiler sources (sim/content)")):
        if key in expect and engine_fingerprint(key if key != "compiler" else "content") != expect[key]:
            diffs.append(f"{what} differ")
    heroes = [k.split(":", 1)[1] for k in expect if k.startswith("hero:")]
    if heroes:
        try:
            specs, bad = load_heroes(None, tuple(expect.get("extra_heroes") or ()))
        except HeroFileError as e:
            diffs.append(f"the hero files cannot be read ({e})")
            specs, bad = None, ()
        # (a file whose key clashes with a loaded hero leaves that hero as the driver has it)
        bad_keys = {b.key: b.message for b in bad if b.key not in (specs or {})}
        for k in heroes if specs is not None else ():
            if k in bad_keys:
                diffs.append(f"hero {k!r} cannot be loaded here ({bad_keys[k]})")
            elif k not in specs:
                diffs.append(f"hero {k!r} is not installed")
            elif file_sha(specs[k].path) != expect[f"hero:{k}"]:
                diffs.append(f"hero file {Path(specs[k].path).name} differs")
    for k in (k.split(":", 1)[1] for k in expect if k.startswith("battlefield:")):
        path = BATTLEFIELD_DIR / f"{k}.toml"
        if not path.exists():
            diffs.append(f"battlefield {k!r} is not installed")
        elif file_sha(path) != expect[f"battlefield:{k}"]:
            diffs.append(f"battlefield file {path.name} differs")
    return diffs


def _worker_name() -> str:
    try:
        from distributed import get_worker
        return f"dask worker {get_worker().address}"
    except (ImportError, ValueError):
        return f"worker {socket.gethostname()} pid {os.getpid()}"


@lru_cache(maxsize=4)
def check_worker(expect_json: str) -> None:
    diffs = worker_differences(json.loads(expect_json))
    if diffs:
        raise WorkerMismatch(f"{_worker_name()} differs from this machine: {'; '.join(diffs)}; "
                             "install the same unmatched-sim on every worker")


def play_task(chunks: tuple, run_seed, modes, extra, expect_json: str | None = None, variant: str = ""):
    """Play a task (a tuple of :class:`sim.runs.cells.Chunk`) on a worker and build its
    stored tables here, so the driver only writes them: returns ``(chunks, games,
    spaces, seconds)`` with ``games`` the per-game pyarrow Table
    (``sim.runs.store.games_table``) and ``spaces`` one row per chunk
    (``sim.runs.store.spaces_table``). With ``expect_json`` the worker first checks
    (once) that it has the driver's unmatched-sim and raises WorkerMismatch if not."""
    t = time.perf_counter()
    if expect_json is not None:
        check_worker(expect_json)
    results, spaces, n_cards = [], [], []
    for ch in chunks:
        c = ch.cell
        res, played, sp = play_chunk(c.p1, c.p1_loadout, c.p2, c.p2_loadout, c.battlefield, c.matchup_id,
                                     ch.first, ch.n, run_seed, modes, extra, variant)
        m = cached_match(c.p1, c.p1_loadout, c.p2, c.p2_loadout, c.battlefield, tuple(extra), variant)
        results.append((res, played))
        spaces.append(sp)
        n_cards.append(tuple(len(s.cards) for s in m.specs))
    return chunks, games_table(chunks, results, n_cards), spaces_table(chunks, spaces), time.perf_counter() - t
