"""Where a run's chunks are played: loky processes on this machine, or a dask.distributed cluster.

A :class:`Backend` names the place (``"loky"`` or ``"dask"``), the number of local
worker processes and, for dask, the scheduler address. :func:`open_pool` turns it
into a :class:`Pool`: a joblib ``Parallel`` (loky, or joblib's dask backend over a
``distributed.Client``) that yields results as they finish, in any order. The
runner (``sim.runs.drive.execute_run``) is the only caller; every command that plays
chunks takes ``backend=`` and so runs on a cluster without code changes.

- ``Backend("loky", jobs=4)``: four loky processes (None = all cores; 1 = play in
  this process).
- ``Backend("dask")``: a ``distributed.LocalCluster`` on this machine with ``jobs``
  single-threaded worker processes (None = all cores), closed at the end.
- ``Backend("dask", scheduler="tcp://10.0.0.5:8786")``: the workers of a running
  ``dask scheduler``. The connection is given ``connect_timeout`` seconds; an
  unreachable or invalid address raises :class:`BackendError` (one line).

Dask re-runs the tasks of a worker lost mid-run on another worker (up to the
scheduler's ``distributed.scheduler.allowed-failures``); so does a loky pool (a worker
killed by the out-of-memory killer, a crash): the tasks in flight are submitted again to
fresh worker processes, up to :data:`LOKY_ALLOWED_FAILURES` losses in a row without a
finished task. The runner stores each chunk once, by name. A loky worker whose driver
process is gone (``kill -9`` of the command) exits by itself within a second or so (the
check runs between the engine's calls, which hold Python's lock: :func:`watch_driver`), so
no worker or resource tracker outlives a killed run. A loky worker, and a local dask
cluster's, starts with SIGINT blocked (:func:`workers_ignore_ctrl_c`): Ctrl-C at a terminal reaches the whole foreground process group,
and the command alone handles it (it stops the workers and keeps the finished tasks), so no
worker prints a traceback of its own. Nothing here knows about the engine.
"""
from __future__ import annotations

import logging
import os
import re
import signal
import threading
import time
from contextlib import contextmanager
from dataclasses import dataclass
from functools import lru_cache

BACKENDS = ("loky", "dask")
#: seconds to reach a dask scheduler before giving up
CONNECT_TIMEOUT = 5.0
#: seconds to wait for a reachable scheduler to have at least one worker
WORKER_TIMEOUT = 30.0
#: joblib batch size on dask: "auto" sizes batches of chunks to 0.2-2 s of work
DASK_BATCH_SIZE = "auto"
#: loky pool: worker losses in a row (without a finished task between them) retried before
#: the run stops (dask's distributed.scheduler.allowed-failures defaults to 3 too)
LOKY_ALLOWED_FAILURES = 3
#: seconds between a loky worker's checks that its driver process is alive
WATCH_INTERVAL = 0.5
#: memory of one worker process with the engine loaded (bytes; measured ~290 MB resident)
WORKER_MEMORY = 300 * 2**20


def usable_cores() -> int:
    """The CPU cores this process may run on (its affinity where the system tells, else
    ``os.cpu_count()``), at least 1."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def available_memory() -> int | None:
    """Memory available to new processes now (bytes: Linux ``MemAvailable``), or None if
    the system does not say."""
    try:
        with open("/proc/meminfo", encoding="ascii") as f:
            for line in f:
                if line.startswith("MemAvailable:"):
                    return int(line.split()[1]) * 1024
    except (OSError, ValueError, IndexError):
        pass
    return None


def local_workers(jobs: int | None, n_tasks: int | None = None, what: str = "task(s)") -> tuple[int, list[str]]:
    """How many local worker processes to start for ``jobs`` (None: one per core) and a run
    of ``n_tasks`` pieces of work (``what`` they are, for the note; None: unknown), and the notes
    that say why it is fewer than asked:
    never more than the usable cores (more only share them and take ``WORKER_MEMORY`` each),
    than the memory available holds, or than the chunks. Returns ``(workers >= 1, notes)``;
    a note is one line for stderr."""
    cores = usable_cores()
    n = int(jobs) if jobs else cores
    notes = []
    if n > cores:
        notes.append(f"note: --jobs {n} is more than the {cores} core(s) here: {cores} worker process(es) "
                     f"(more would only share the cores, at ~{WORKER_MEMORY >> 20} MB each)")
        n = cores
    mem = available_memory()
    if mem is not None and n > 1 and n * WORKER_MEMORY > mem:
        fit = max(1, int(mem // WORKER_MEMORY))
        notes.append(f"note: {n} worker processes need ~{n * WORKER_MEMORY / 2**30:.1f} GB (~{WORKER_MEMORY >> 20} MB "
                     f"each) and {mem / 2**30:.1f} GB is available: {fit} worker process(es)")
        n = fit
    if n_tasks is not None and 0 < n_tasks < n:
        if jobs:
            notes.append(f"note: {n_tasks} worker process(es), not {n}: there are only {n_tasks} {what} to play")
        n = n_tasks
    return max(1, n), notes

log = logging.getLogger("sim.runs.backend")


class BackendError(Exception):
    """A backend that cannot be used: bad options, an unreachable scheduler, a cluster
    without workers, workers that differ from this machine, or a cluster lost mid-run.

    The message is one line; ``param`` names the command-line option at fault
    (``"--backend"``, ``"--scheduler"``, ``"--jobs"``) or is None.
    """

    def __init__(self, message: str, param: str | None = None):
        super().__init__(message)
        self.param = param


@dataclass(frozen=True)
class Backend:
    """Where to play: ``name`` ``"loky"`` (default) or ``"dask"``; ``jobs``: local worker
    processes (loky, or a local dask cluster; None = all cores); ``scheduler``: a dask
    scheduler address (``tcp://host:8786`` or ``host:8786``; None with dask = start a
    local cluster); ``connect_timeout``: seconds to reach it.

    Raises BackendError naming the option on an unknown name, ``scheduler`` without
    dask, or ``jobs`` together with ``scheduler`` (the cluster's workers play then).
    """

    name: str = "loky"
    jobs: int | None = None
    scheduler: str | None = None
    connect_timeout: float = CONNECT_TIMEOUT

    def __post_init__(self):
        if self.name not in BACKENDS:
            raise BackendError(f"unknown backend {self.name!r}; valid: {', '.join(BACKENDS)}", "--backend")
        if self.scheduler is not None and not str(self.scheduler).strip():
            raise BackendError("the scheduler address is empty; give HOST:PORT, e.g. tcp://10.0.0.5:8786",
                               "--scheduler")
        if self.scheduler and self.name != "dask":
            raise BackendError(f"a scheduler address needs the dask backend (--backend dask), not {self.name!r}",
                               "--scheduler")
        if self.jobs is not None and (isinstance(self.jobs, bool) or int(self.jobs) < 1):
            raise BackendError(f"jobs must be a positive whole number, got {self.jobs!r}", "--jobs")
        if self.jobs is not None and self.scheduler:
            raise BackendError("--jobs sets the number of local worker processes; with --scheduler the cluster's "
                               "workers play (start them with `dask worker --nworkers N`)", "--jobs")

    @classmethod
    def of(cls, backend=None, jobs: int | None = None, scheduler: str | None = None) -> Backend:
        """A Backend from ``backend`` (a Backend, returned as is, or a name; None means
        ``"dask"`` if ``scheduler`` is given, else ``"loky"``), ``jobs`` and ``scheduler``.
        Raises BackendError (see the class)."""
        if isinstance(backend, Backend):
            if jobs is not None or scheduler is not None:
                raise BackendError("give jobs and scheduler inside the Backend, not beside it", "--backend")
            return backend
        if backend is None:
            backend = "dask" if scheduler else "loky"
        return cls(str(backend), jobs, scheduler)


class Pool:
    """An open backend. ``imap_unordered(fn, args_list)`` plays ``fn(*args)`` for every
    args tuple on the workers and yields the results as they finish (in any order);
    ``workers``: how many tasks run at once (worker slots); ``description``: for
    humans; ``client``: the ``distributed.Client`` (dask) or None."""

    def __init__(self, backend: Backend, workers: int, description: str, client=None):
        self.backend, self.workers, self.description, self.client = backend, workers, description, client

    def imap_unordered(self, fn, args_list):
        """Yield ``fn(*args)`` for each tuple of ``args_list`` as it finishes (any order).

        On loky, a worker process that dies (killed, out of memory, a crash) costs only the
        tasks in flight: they are submitted again to fresh workers (a note on the
        ``sim.runs.backend`` logger), each result is yielded once, and after
        :data:`LOKY_ALLOWED_FAILURES` losses in a row with no task finished between them
        BackendError (``--jobs``) is raised. Exceptions raised by ``fn`` propagate."""
        args_list = list(args_list)
        if self.workers <= 1 and self.client is None:
            return (fn(*a) for a in args_list)
        from joblib import Parallel, delayed, parallel_config
        if self.client is None:
            return self._loky_results(Parallel, delayed, fn, args_list)
        calls = (delayed(fn)(*a) for a in args_list)
        return self._dask_results(Parallel, parallel_config, calls)

    def _loky_results(self, Parallel, delayed, fn, args_list):
        from joblib.externals.loky.process_executor import BrokenProcessPool
        pending = dict(enumerate(args_list))
        lost = 0
        driver = os.getpid()
        while pending:
            calls = [delayed(_guarded)(driver, i, fn, a) for i, a in list(pending.items())]
            gen = Parallel(n_jobs=min(self.workers, len(pending)), backend="loky",
                           return_as="generator_unordered", batch_size=1)(calls)
            try:
                for i, out in gen:
                    if pending.pop(i, None) is not None:
                        lost = 0
                        yield out
            except BrokenProcessPool as e:
                lost += 1
                codes = _exit_codes(e)
                if lost > LOKY_ALLOWED_FAILURES:
                    raise BackendError(
                        f"worker processes died {lost} times in a row without finishing a task (exit codes {codes}: "
                        "killed, out of memory or crashed); the finished tasks are stored: free some memory or use "
                        "fewer --jobs, then rerun the same command to resume", "--jobs") from None
                log.warning("note: a worker process died (exit codes %s: killed, out of memory or crashed); the "
                            "%d task(s) not yet finished are played again on new workers", codes, len(pending))
            finally:
                gen.close()

    def _dask_results(self, Parallel, parallel_config, calls):
        backend = _joblib_dask_backend()(client=self.client, wait_for_workers_timeout=WORKER_TIMEOUT)
        with parallel_config(backend=backend):
            # joblib's auto batching groups short tasks into dask tasks of 0.2-2 s: a dask task
            # costs ~5-20 ms of scheduling, too much for the small chunks of small cells
            gen = Parallel(n_jobs=-1, return_as="generator_unordered", batch_size=DASK_BATCH_SIZE)(calls)
            try:
                yield from gen
            except Exception as e:
                err = _dask_failure(e, self.backend)
                if err is None:
                    raise
                raise err from None
            finally:
                gen.close()

    def warm_workers(self, fn, pause: float = 0.5) -> None:
        """Run ``fn()`` once on every loky worker before the run's tasks (to load the engine
        there while the clock of the run has not started): each worker gets one call, which
        then holds it ``pause`` seconds, so that no worker takes two. Nothing for a pool of
        one (the games are played in this process) or for dask (``client.run`` would block a
        worker's event loop for a compile; its workers load the engine in their first task
        and stay up between runs). Exceptions propagate."""
        if self.client is not None or self.workers <= 1:
            return
        from joblib import Parallel, delayed
        driver = os.getpid()
        Parallel(n_jobs=self.workers, backend="loky")(delayed(_hold)(fn, pause, driver) for _ in range(self.workers))

    def run_on_workers(self, fn, *args) -> dict:
        """``fn(*args)`` once on every dask worker now connected: {worker address: result,
        or the exception it raised}. An empty dict for loky (the workers are this
        machine's processes)."""
        if self.client is None:
            return {}
        return self.client.run(fn, *args, on_error="return")


def workers_ignore_ctrl_c() -> None:
    """Make every loky worker process started from now on by this process start with SIGINT
    blocked, as loky's own resource tracker does (and CPython's): the signal mask is inherited
    through fork and exec, so a Ctrl-C at the terminal, which the terminal sends to every process
    of the foreground group, reaches the command only. Without it a worker still importing at
    start-up prints a KeyboardInterrupt traceback before the command's one line. The command stops
    its workers itself on Ctrl-C (joblib kills them when the interrupt leaves a ``Parallel``
    call; :func:`stop_local_workers` with ``kill``); a worker whose command is gone ends by itself
    (:func:`watch_driver`).

    The signal is only blocked (not ignored) in this process, in the thread that spawns and for
    the spawn alone: a Ctrl-C in that moment is kept pending and delivered as soon as the spawn
    returns, never lost. Wraps loky's ``fork_exec`` once (loky imports it at each spawn); with a
    joblib that has no such function, nothing changes."""
    _spawn_without_ctrl_c("joblib.externals.loky.backend.fork_exec", "fork_exec")


def children_ignore_ctrl_c() -> None:
    """As :func:`workers_ignore_ctrl_c`, for the processes that ``multiprocessing`` starts by
    spawning from now on: a local dask cluster's workers, the run's compile process
    (``sim.runs.apart``)."""
    _spawn_without_ctrl_c("multiprocessing.util", "spawnv_passfds")


def _spawn_without_ctrl_c(module_name: str, function: str) -> None:
    """Wrap ``module_name.function`` (a function that starts a process by fork and exec) so that
    the process starts with SIGINT blocked (see :func:`workers_ignore_ctrl_c`); once."""
    import importlib
    if not hasattr(signal, "pthread_sigmask"):          # pragma: no cover (not POSIX)
        return
    try:
        module = importlib.import_module(module_name)
    except ImportError:                                   # pragma: no cover (another joblib)
        return
    spawn = getattr(module, function, None)
    if spawn is None or getattr(spawn, "_blocks_sigint", False):
        return

    def spawn_blocked(*args, **kwargs):
        before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT})
        try:
            return spawn(*args, **kwargs)
        finally:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)

    spawn_blocked._blocks_sigint = True
    setattr(module, function, spawn_blocked)


def stop_local_workers(kill: bool = False) -> None:
    """Stop the loky worker processes of this process now. joblib keeps them for the next run
    until the interpreter exits, which then waits for them (2-3 s measured); a command that has
    played its games stops them here instead, so the report gets their memory (~300 MB each) and
    the command's own clock counts the wait. Nothing when none runs. ``kill``: end them now
    (SIGKILL) without waiting for a task they play (an interrupted command)."""
    from joblib.externals.loky import reusable_executor
    # (the executor itself: asking loky for it would start a new one if it is gone or shut down)
    executor = getattr(reusable_executor, "_executor", None)
    flags = getattr(executor, "_flags", None)
    if executor is None or (flags is not None and (flags.shutdown or flags.broken)):
        return
    executor.shutdown(wait=True, kill_workers=kill)


def _hold(fn, pause: float, driver: int | None = None):
    """Call ``fn()``, then keep this worker busy ``pause`` seconds (see Pool.warm_workers);
    ``driver``: the driver's pid, watched from then on (:func:`watch_driver`)."""
    if driver is not None:
        watch_driver(driver)
    fn()
    time.sleep(pause)


def _guarded(driver: int, index: int, fn, args: tuple):
    """Run in a loky worker: watch the driver (:func:`watch_driver`), then return
    ``(index, fn(*args))`` so the pool knows which task finished."""
    watch_driver(driver)
    return index, fn(*args)


_watching: set = set()


def watch_driver(driver: int, interval: float = WATCH_INTERVAL) -> None:
    """In a worker process: start (once per process) a daemon thread that ends this process
    when the driver process ``driver`` (pid) is gone, checked every ``interval`` seconds:
    the worker's parent changed (it was reparented) or ``driver`` no longer exists. A killed
    command (``kill -9``) then leaves no worker playing on, and loky's resource trackers,
    which wait for their last worker, exit too. Nothing happens in the driver itself."""
    if driver == os.getpid() or driver in _watching:
        return
    _watching.add(driver)
    parent = os.getppid()

    def watch():
        while True:
            time.sleep(interval)
            if os.getppid() != parent or not _alive(driver):
                os._exit(70)

    threading.Thread(target=watch, name="unmatched-sim driver watch", daemon=True).start()


def _alive(pid: int) -> bool:
    """Whether process ``pid`` exists (signal 0)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


def _exit_codes(e: BaseException) -> str:
    """The worker exit codes loky names in a TerminatedWorkerError (``SIGKILL(-9)``), or '?'."""
    m = re.search(r"exit codes? of the workers? (?:are|is) \{([^}]*)\}", str(e))
    return m.group(1) if m else "?"


class _TaskFailed:
    """A dask task that failed outside the joblib call (lost with its workers, or not
    deserializable): carries the exception to joblib's result callback."""

    def __init__(self, exc: BaseException):
        self.exc = exc


class _DaskTaskError(Exception):
    """Raised by joblib for a :class:`_TaskFailed`; ``exc`` is dask's exception."""

    def __init__(self, exc: BaseException):
        super().__init__(str(exc))
        self.exc = exc


@lru_cache(maxsize=1)
def _joblib_dask_backend():
    """joblib's dask backend, made to report dask-level task failures.

    joblib 1.4-1.6 (``joblib._dask.DaskDistributedBackend``) sets the exception of a
    task that fails inside dask (e.g. ``KilledWorker`` once a task has lost more workers
    than ``distributed.scheduler.allowed-failures``) on its future but never calls
    joblib's completion callback, so ``Parallel`` waits forever. This subclass passes
    such failures to the callback, and ``retrieve_result_callback`` raises them, so
    ``Parallel`` raises the exception instead. Failures inside the called function
    are unaffected (joblib returns them as results).
    """
    from joblib._dask import DaskDistributedBackend

    class ReportingDaskBackend(DaskDistributedBackend):
        def submit(self, func, callback=None):
            future = super().submit(func, callback)

            def failed(f):
                if callback is not None and not f.cancelled() and f.exception() is not None:
                    callback(_TaskFailed(f.exception()))

            future.add_done_callback(failed)
            return future

        def retrieve_result_callback(self, out):
            if isinstance(out, _TaskFailed):
                raise _DaskTaskError(out.exc)
            return super().retrieve_result_callback(out)

    return ReportingDaskBackend


def _dask_failure(e: Exception, backend: Backend) -> BackendError | None:
    """A one-line BackendError for a cluster failure during a run, else None."""
    try:
        from distributed.scheduler import KilledWorker
    except ImportError:          # pragma: no cover
        return None
    where = backend.scheduler or "the local cluster"
    if isinstance(e, _DaskTaskError) and isinstance(e.exc, KilledWorker):
        e = e.exc
    if isinstance(e, KilledWorker):
        n = e.allowed_failures + 1
        return BackendError(f"a task of chunks was lost with its dask worker {n} time{'s' if n > 1 else ''} (last "
                            f"{getattr(e.last_worker, 'address', '?')}; distributed.scheduler.allowed-failures is "
                            f"{e.allowed_failures}): the workers of {where} keep dying; the finished chunks are "
                            "stored, fix the workers and rerun the same command", "--scheduler")
    if isinstance(e, (OSError, TimeoutError)) or type(e).__name__ in ("CancelledError", "FutureCancelledError"):
        return BackendError(f"lost the connection to the dask scheduler {where} during the run "
                            f"({type(e).__name__}); the finished chunks are stored, rerun the same command to resume",
                            "--scheduler")
    if isinstance(e, _DaskTaskError):
        first = (str(e.exc).strip().splitlines() or [""])[0]
        return BackendError(f"a task failed inside dask on {where} ({type(e.exc).__name__}: {first}); check that "
                            "this machine, the scheduler and the workers have the same versions of dask, "
                            "distributed and unmatched-sim", "--scheduler")
    return None


async def _probe(addr: str, timeout: float) -> None:
    from distributed.comm import connect
    comm = await connect(addr, timeout=timeout)
    await comm.close()


def _connect(backend: Backend):
    """A distributed.Client for ``backend.scheduler``; BackendError (one line) if it cannot
    be reached within ``backend.connect_timeout`` s. The address is probed with one
    plain connection first, so a failure leaves no half-built client behind."""
    import asyncio

    from distributed import Client
    addr = str(backend.scheduler).strip()
    t = backend.connect_timeout
    hint = "is `dask scheduler` running there, and is the port open?"
    try:
        asyncio.run(_probe(addr, t))
    except ValueError as e:
        raise BackendError(f"{addr!r} is not a dask scheduler address ({e}); give HOST:PORT, "
                           "e.g. tcp://10.0.0.5:8786", "--scheduler") from None
    except (OSError, TimeoutError) as e:
        if "Timed out" in str(e) or isinstance(e, TimeoutError):
            raise BackendError(f"cannot reach the dask scheduler at {addr} within {t:g} s; {hint}",
                               "--scheduler") from None
        raise BackendError(f"cannot reach the dask scheduler at {addr} ({type(e).__name__}: "
                           f"{' '.join(str(e).split())[:160]}); {hint}", "--scheduler") from None
    except Exception as e:          # a port that answers, but not with the dask protocol
        raise BackendError(f"{addr} does not answer like a dask scheduler ({type(e).__name__}); "
                           "give the scheduler's port (8786 by default), not the dashboard's", "--scheduler") from None
    try:
        return Client(addr, timeout=t, set_as_default=False)
    except (OSError, TimeoutError) as e:
        raise BackendError(f"cannot connect a dask client to {addr} within {t:g} s ({type(e).__name__}: "
                           f"{' '.join(str(e).split())[:160]}); {hint}", "--scheduler") from None


def _local_cluster(n: int):
    """A local dask cluster of ``n`` single-threaded worker processes and its client. Its worker
    processes start with SIGINT blocked, as loky's do (:func:`workers_ignore_ctrl_c`); a Ctrl-C
    while the cluster starts (a second or two) takes effect once it has started, so that it is
    closed whole (a cluster interrupted half-built fails to close at exit, with a traceback)."""
    from distributed import Client, LocalCluster
    children_ignore_ctrl_c()
    pressed: list = []
    try:
        previous = signal.signal(signal.SIGINT, lambda signum, frame: pressed.append(signum))
    except ValueError:          # not the main thread: Ctrl-C is the main thread's anyway
        previous = None
    try:
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=":0",
                               silence_logs=logging.CRITICAL)
    finally:
        if previous is not None:
            signal.signal(signal.SIGINT, previous)
    try:
        if pressed:
            raise KeyboardInterrupt
        return cluster, Client(cluster, set_as_default=False)
    except BaseException:
        cluster.close()
        raise


@contextmanager
def _quiet_logs(names=("distributed", "tornado", "asyncio")):
    """Keep dask's own log lines (worker restarts, lost connections, with tracebacks) off
    stderr while a pool is open: its failures reach the caller as one BackendError."""
    existing = [n for n in logging.root.manager.loggerDict if any(n == p or n.startswith(p + ".") for p in names)]
    loggers = [logging.getLogger(n) for n in sorted(set(names) | set(existing))]
    levels = [lg.level for lg in loggers]
    for lg in loggers:
        lg.setLevel(logging.CRITICAL)
    try:
        yield
    finally:
        for lg, level in zip(loggers, levels):
            lg.setLevel(level)


@contextmanager
def open_pool(backend: Backend, n_tasks: int | None = None, what: str = "task(s)"):
    """Open ``backend`` as a :class:`Pool` (a context manager; closes the client and any
    local cluster on exit). ``n_tasks``: how many tasks will be played (``what`` they are,
    for a note). Local worker
    processes (loky, a local dask cluster) are never more than :func:`local_workers`
    allows (cores, memory, tasks); each reduction is a note on this module's logger. Raises BackendError if a dask scheduler cannot be
    reached within ``backend.connect_timeout`` s or has no worker within
    :data:`WORKER_TIMEOUT` s. While a dask pool is open, the ``distributed``,
    ``tornado`` and ``asyncio`` loggers of this process are silenced (below CRITICAL)."""
    if backend.name == "loky":
        jobs, notes = local_workers(backend.jobs, n_tasks, what)
        for note in notes:
            log.warning(note)
        if jobs > 1:
            workers_ignore_ctrl_c()
        yield Pool(backend, jobs, "this process" if jobs == 1 else f"loky, {jobs} processes")
        return
    try:
        import distributed  # noqa: F401
    except ImportError:
        raise BackendError("the dask backend needs dask.distributed, which is not installed here: "
                           "pip install 'unmatched-sim[dask]'", "--backend") from None
    with _quiet_logs():
        cluster = None
        if backend.scheduler:
            client = _connect(backend)
        else:
            n, notes = local_workers(backend.jobs)
            for note in notes:
                log.warning(note)
            cluster, client = _local_cluster(n)
        try:
            yield _dask_pool(backend, client)
        finally:
            try:
                client.close(timeout=10)
            except Exception:          # the scheduler is gone already
                pass
            finally:
                if cluster is not None:
                    cluster.close(timeout=10)


def _dask_pool(backend: Backend, client) -> Pool:
    if not client.nthreads():
        try:
            client.wait_for_workers(1, timeout=WORKER_TIMEOUT)
        except (TimeoutError, OSError):
            raise BackendError(f"the dask scheduler at {backend.scheduler} has no workers (waited "
                               f"{WORKER_TIMEOUT:g} s); start some with `dask worker {backend.scheduler}`",
                               "--scheduler") from None
    nthreads = client.nthreads()
    slots = sum(nthreads.values())
    hosts = {a.rsplit(":", 1)[0] for a in nthreads}
    threaded = [a for a, n in nthreads.items() if n > 1]
    if threaded:
        log.warning("note: %d dask worker(s) have several threads, e.g. %s with %d; the engine holds "
                    "Python's lock, so start workers as `dask worker ADDRESS --nworkers N --nthreads 1`",
                    len(threaded), threaded[0], nthreads[threaded[0]])
    where = backend.scheduler or "local cluster"
    return Pool(backend, slots, f"dask {where}, {len(nthreads)} workers ({slots} threads) on {len(hosts)} host(s)",
                client)
