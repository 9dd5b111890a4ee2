"""Load or compile engine code in a short-lived child process, so that the compiler's memory is
not kept by the command's own process.

numba and LLVM keep what a compile took for the life of the process that compiled: about
0.6 GB for the engine's run code, about as much for its replay code, each compiled once after
an install. A matrix command compiles the run code before its workers start (so that they only
load it from the cache) and later replays the report's example games, whose tables and index
need about as much again: done in the command's process, the compiles' memory stayed there to
the end. Done in a child that ends once the code is cached (:func:`ready_apart`), it goes back to
the system, and the command only loads the cached code (a few tens of MB).

The child is a fresh interpreter (``python -c``, so nothing of a caller's script runs again in
it) with this process's ``sys.path``, started with Ctrl-C blocked as the workers are (the
command handles the interrupt and ends it); its output is dropped (if it fails, the command
makes the call itself, and so shows the error as it would without a child). It says when it
starts compiling, and this process then runs its own first-compile callbacks
(``sim.engine.sigs.on_first_compile``: the CLI's one-line notice); its compiles count in this
process's ``COMPILE_STATS``.
"""
from __future__ import annotations

import os
import pickle
import signal
import subprocess
import sys
import threading

from sim.engine import sigs

#: the child's program: read the caller's sys.path, then the call, from stdin
_CHILD = "import pickle, sys; sys.path[:0] = pickle.load(sys.stdin.buffer); import sim.runs.apart as a; a._child()"


def _child() -> None:
    """The child's work (see :data:`_CHILD`): ``fn(*args)`` read from stdin; on stdout, one
    line when the first engine function starts compiling, then ``done N`` (N functions
    compiled) or ``failed``. Anything else the call prints goes to stderr (dropped)."""
    fn, args = pickle.load(sys.stdin.buffer)
    out = os.fdopen(os.dup(1), "w")
    os.dup2(2, 1)                     # (stray prints to stdout would garble the messages)

    def say(line: str) -> None:
        try:
            out.write(line + "\n")
            out.flush()
        except OSError:               # the command is gone: nobody to tell
            pass

    sigs.on_first_compile(lambda: say("compiling"))
    try:
        fn(*args)
    except BaseException as e:        # (the caller makes the call itself and raises the error as usual)
        say(f"failed {type(e).__name__}")
    else:
        say(f"done {sigs.COMPILE_STATS['compiled']}")


class Apart:
    """A call running in a child process (:func:`start_apart`). ``wait()`` waits for it and
    says whether it finished; ``stop()`` ends it; as a context manager, it is stopped on the
    way out if it still runs (an error or Ctrl-C in the caller while it ran)."""

    def __init__(self, proc: subprocess.Popen | None):
        self.proc = proc
        self._compiled: int | None = None       # engine functions the child compiled, once it said "done"
        self._thread = None
        if proc is not None:
            self._thread = threading.Thread(target=self._listen, name="unmatched-sim engine compile", daemon=True)
            self._thread.start()

    def _listen(self) -> None:
        """Read the child's messages (in a thread of this process, so that the compile notice
        comes when the child starts compiling, whatever this process is doing)."""
        try:
            for line in self.proc.stdout:
                word, _, rest = line.decode(errors="replace").strip().partition(" ")
                if word == "compiling":
                    sigs.announce_first_compile()
                elif word == "done":
                    self._compiled = int(rest)
        except (OSError, ValueError):     # (the pipe closed by stop())
            pass

    def wait(self) -> bool:
        """Wait for the child; True if it finished its call (its compiles are then counted in
        ``sim.engine.sigs.COMPILE_STATS``), False if it could not start, failed or died."""
        if self.proc is None:
            return False
        self._thread.join()
        self.proc.wait()
        self.proc.stdout.close()
        ok = self._compiled is not None and self.proc.returncode == 0
        if ok:
            sigs.COMPILE_STATS["compiled"] += self._compiled
            self._compiled = 0                  # (counted once, if waited for again)
        return ok

    def stop(self) -> None:
        """End the child now if it still runs (SIGKILL: numba writes each cache file whole, so
        the cache holds only what was finished) and wait for it."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.stop()
        return False


def start_apart(fn, *args) -> Apart:
    """Start ``fn(*args)`` (a call that loads engine code, compiling what the cache lacks, e.g.
    ``sim.runs.workers.warm_match`` or :func:`ready_replay_code`) in a fresh child process and
    return at once: an :class:`Apart` to wait for. ``fn`` and ``args`` must be picklable
    (module-level functions, ``functools.partial`` of them); when they are not, or no process
    can be started, the Apart has no child and ``wait()`` says False."""
    try:
        payload = pickle.dumps(list(sys.path)) + pickle.dumps((fn, args))
    except Exception:
        return Apart(None)
    blocked = hasattr(signal, "pthread_sigmask")
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if blocked else None
    try:                              # (the child inherits the blocked Ctrl-C: see the module's notes)
        # (its stderr is dropped: on a failure the caller's own call shows the error, in its one line)
        proc = subprocess.Popen([sys.executable, "-c", _CHILD], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                stderr=subprocess.DEVNULL)
    except Exception:                 # (no interpreter to start)
        return Apart(None)
    finally:
        if blocked:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)
    try:
        proc.stdin.write(payload)
        proc.stdin.close()
    except OSError:                   # the child died at once: wait() says so
        pass
    return Apart(proc)


def ready_apart(fn, *args) -> bool:
    """Call ``fn(*args)`` in a fresh child process (:func:`start_apart`) and wait for it.

    Returns True when the child finished: the code is in the cache, and the child's compiles
    are counted in ``sim.engine.sigs.COMPILE_STATS``. Returns False when the child could not
    start, failed or died (nothing was done here): the caller then makes the call itself, so
    an error is raised as it would be without a child. On KeyboardInterrupt the child is
    ended and the interrupt raised."""
    with start_apart(fn, *args) as job:
        return job.wait()


def ready_replay_code() -> None:
    """Load the engine's code that replays a stored duel (``sim.play.replay.record``: the duel
    entry points and ``play_turns``), compiling what the cache lacks; for :func:`ready_apart`."""
    from sim.engine.game import ENTRY_POINTS
    from sim.play.replay import play_turns
    for fn in (*ENTRY_POINTS["duels"], play_turns):
        ensure = getattr(fn, "ensure_python", None)   # (None with NUMBA_DISABLE_JIT=1)
        if ensure is not None:
            ensure()
