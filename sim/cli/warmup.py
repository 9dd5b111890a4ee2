"""``warmup``: compile the game engine ahead (the first command otherwise does it)."""
from __future__ import annotations

import time

import click

from sim.cli.app import main

#: every entry point from an empty cache on two cores: 314 s measured at load 6, about two minutes idle
WARMUP_ESTIMATE = "2-5 minutes on two cores"


@main.command()
def warmup():
    """Compile the game engine now and cache it, so that later commands start in seconds.

    The first command after an install (or after an engine change) otherwise compiles it
    itself. Progress goes to stderr, one line per part (also when it is not a terminal); a
    warm cache is only loaded, in about a second.
    """
    from sim.engine import sigs
    from sim.engine.game import ENTRY_POINTS
    from sim.play.replay import play_turns

    started = time.perf_counter()
    sigs.on_first_compile(lambda: click.echo(f"compiling the engine (first run only, {WARMUP_ESTIMATE}) ...",
                                             err=True))
    before = sigs.COMPILE_STATS["compiled"]
    for name, functions in {**ENTRY_POINTS, "replays": (play_turns,)}.items():
        t = time.perf_counter()
        n = sigs.COMPILE_STATS["compiled"]
        for fn in functions:
            ensure = getattr(fn, "ensure_python", None)   # (None with NUMBA_DISABLE_JIT=1)
            if ensure is not None:
                ensure()
        if sigs.COMPILE_STATS["compiled"] > n:
            click.echo(f"  {name}: compiled in {time.perf_counter() - t:.0f} s", err=True)
    compiled = sigs.COMPILE_STATS["compiled"] - before
    spent = time.perf_counter() - started
    if compiled:
        click.echo(f"engine compiled in {spent:.0f} s ({compiled} functions) and cached; "
                   "later commands start in seconds", err=True)
    else:
        click.echo(f"engine ready: already compiled, loaded from the cache in {spent:.1f} s", err=True)
