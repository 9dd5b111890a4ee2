"""The ``--jobs`` / ``--backend`` / ``--scheduler`` options shared by every command that plays chunks.

Decorate a click command with :func:`backend_options`; it receives one ``backend``
argument (a :class:`sim.backend.Backend`) to pass on to the runner::

    @main.command()
    @backend_options
    def matrix(..., backend):
        execute_run(plan, backend=backend, ...)

Bad options are usage errors naming the option; a backend that fails at run time
(an unreachable scheduler, workers with another unmatched-sim, a cluster lost
mid-run) is a one-line ``Error: ...`` with exit status 1, never a traceback.
"""
from __future__ import annotations

import functools

import click

from sim.backend import BACKENDS, CONNECT_TIMEOUT, Backend, BackendError


def backend_options(command):
    """Add ``--jobs/-j``, ``--backend`` and ``--scheduler`` to a click command and call
    it with ``backend=Backend(...)`` in their place. Raises click.BadParameter for bad
    combinations and turns a BackendError raised by the command into a one-line
    click error."""

    @click.option("--jobs", "-j", default=None, type=click.IntRange(min=1),
                  help="Worker processes on this machine (loky, or a local dask cluster). Default: all cores. "
                       "Results do not depend on it.")
    @click.option("--backend", "backend_name", default=None, type=click.Choice(BACKENDS),
                  help="Where games run: loky (processes on this machine) or dask (a dask.distributed cluster: "
                       "the one at --scheduler, or a local one). Default: loky, or dask when --scheduler is given. "
                       "Results do not depend on it.")
    @click.option("--scheduler", metavar="ADDRESS", default=None,
                  help=f"Address of a running `dask scheduler` (e.g. tcp://10.0.0.5:8786) whose workers play the "
                       f"games; it must answer within {CONNECT_TIMEOUT:g} s.")
    @functools.wraps(command)
    def wrapper(*args, jobs, backend_name, scheduler, **kwargs):
        try:
            backend = Backend.of(backend_name, jobs, scheduler)
        except BackendError as e:
            raise click.BadParameter(str(e), param_hint=f"'{e.param}'" if e.param else None) from None
        try:
            return command(*args, backend=backend, **kwargs)
        except BackendError as e:
            raise click.ClickException(str(e)) from None

    return wrapper
