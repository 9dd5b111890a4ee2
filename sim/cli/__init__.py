"""The ``unmatched-sim`` command line (click).

Commands: ``heroes``, ``battlefields``, ``validate``, ``profiles``, ``duel`` (also team
games: ``duel A+B C+D``), ``arena``, ``matrix``, ``teams``, ``loadouts``, ``compare``, ``report``, ``diff``, ``replay``, ``bench``, ``tune``, ``train``, ``warmup``. Bad input
(unknown hero, loadout or battlefield; an invalid file) prints a one-line
error naming the file or value and the valid choices, and exits with
status 2 (usage) or 1 (invalid file), never with a traceback.
"""
import time

#: when this process imported the command line, first of all: the clock of its first command
#: (``sim.cli.options.command_seconds``) starts here, as the imports are part of the user's wait
IMPORTED = time.perf_counter()

from sim.cli import diff, info, play, replay, runs, train, tune, warmup  # noqa: E402, F401  (each module adds its commands)
from sim.cli.app import main  # noqa: E402

__all__ = ["main"]
