"""The ``unmatched-sim`` command line (click).

Commands: ``heroes``, ``battlefields``, ``validate``, ``profiles``, ``duel`` (also team
games: ``duel A+B C+D``), ``arena``, ``matrix``, ``teams``, ``loadouts``, ``compare``, ``report``, ``diff``, ``replay``, ``bench``, ``tune``, ``train``, ``balance``, ``warmup``. Bad input
(unknown hero, loadout or battlefield; an invalid file) prints a one-line
error naming the file or value and the valid choices, and exits with
status 2 (usage) or 1 (invalid file), never with a traceback.
"""
import sys
import time

#: when this process imported the command line, first of all: the clock of its first command
#: (``sim.cli.options.command_seconds``) starts here, as the imports are part of the user's wait
IMPORTED = time.perf_counter()


def _started_as_command() -> bool:
    """Whether this import is the ``unmatched-sim`` command (or ``python -m sim.cli``) starting,
    not a program or notebook that imports the package."""
    argv0 = (getattr(sys, "argv", None) or [""])[0]
    return argv0 == "-m" or argv0.replace("\\", "/").rsplit("/", 1)[-1] in ("unmatched-sim", "unmatched-sim.exe")


try:
    from sim.cli import balance, diff, info, play, replay, runs, train, tune, warmup  # noqa: E402, F401  (each module adds its commands)
    from sim.cli.app import main  # noqa: E402
except KeyboardInterrupt:
    # Ctrl-C while the command is still importing (a few seconds on a busy machine): end as a Ctrl-C
    # before any game ends a moment later (click's 'Aborted!', status 1), not with a traceback
    if not _started_as_command():
        raise
    print("\nAborted!", file=sys.stderr)
    raise SystemExit(1) from None

__all__ = ["main"]
