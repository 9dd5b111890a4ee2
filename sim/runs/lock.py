"""One command at a time per run folder: an exclusive lock on ``RUN_DIR/.lock``.

The command that plays a run (``sim.runs.drive.drive_chunks``) holds the lock from before
it cleans the folder until the run is compacted, so a second command on the same folder
(the same command typed twice, a resume started while the first still runs) stops at
once with a one-line error naming the process that holds it, instead of playing every
game a second time and deleting the first one's temporary files.

The lock is an advisory ``flock`` on the file's open descriptor: the operating system
releases it when the holding process ends, however it ends (``kill -9`` included), so a
lock is never stale. The file itself stays (removing a lock file races with a command
taking it); it holds one JSON line naming the holder (pid, host, start time) for the
message. On a system without ``fcntl`` (Windows) ``msvcrt`` locks the file's first byte.
"""
from __future__ import annotations

import json
import os
import socket
from contextlib import contextmanager
from datetime import UTC, datetime
from pathlib import Path

from sim.runs.errors import RunError

LOCK_FILE = ".lock"

try:   # POSIX
    import fcntl

    def _try_lock(fd: int, shared: bool = False) -> bool:
        try:
            fcntl.flock(fd, (fcntl.LOCK_SH if shared else fcntl.LOCK_EX) | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            return False

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)
except ImportError:   # pragma: no cover - Windows
    import msvcrt

    def _try_lock(fd: int, shared: bool = False) -> bool:
        os.lseek(fd, 0, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
            return True
        except OSError:
            return False

    def _unlock(fd: int) -> None:
        os.lseek(fd, 0, os.SEEK_SET)
        msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)


class RunLocked(RunError):
    """Another process holds the run folder's lock (it is playing the run). ``holder``:
    what the lock file says about it (dict, possibly empty); ``param`` is ``"--out"``."""

    def __init__(self, run_dir, holder: dict):
        who = (f"pid {holder.get('pid', '?')} on {holder.get('host', '?')}, since {holder.get('started', '?')}"
               if holder else "another process")
        super().__init__(f"{run_dir} is in use: another unmatched-sim command ({who}) is playing this run; "
                         "wait for it to finish or stop it, then rerun to resume", "--out")
        self.holder = holder


def _read_holder(path: Path) -> dict:
    try:
        info = json.loads(path.read_text(encoding="utf-8") or "{}")
        return info if isinstance(info, dict) else {}
    except (OSError, ValueError):
        return {}


def lock_holder(run_dir) -> dict | None:
    """Who holds the lock of ``run_dir`` now: a dict (``pid``, ``host``, ``started``; empty if
    the lock file does not say) if a process holds it, None if nobody does (or the folder
    has no lock file). Does not take the lock; never raises for an unreadable folder."""
    path = Path(run_dir) / LOCK_FILE
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return None
    try:
        if _try_lock(fd, shared=True):
            _unlock(fd)
            return None
        return _read_holder(path)
    finally:
        os.close(fd)


@contextmanager
def run_lock(run_dir):
    """Hold the exclusive lock of ``run_dir`` (a folder, created if missing) for the
    ``with`` block. Raises :class:`RunLocked` at once (no waiting) if another process or
    another ``run_lock`` of this process holds it, and RunError (``param`` ``"--out"``) if
    the lock file cannot be created."""
    run_dir = Path(run_dir)
    path = run_dir / LOCK_FILE
    try:
        run_dir.mkdir(parents=True, exist_ok=True)
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
    except OSError as e:
        raise RunError(f"cannot write the run folder {run_dir}: {e.strerror or e}", "--out") from None
    try:
        if not _try_lock(fd):
            raise RunLocked(run_dir, _read_holder(path))
        try:
            info = {"pid": os.getpid(), "host": socket.gethostname(),
                    "started": datetime.now(UTC).isoformat(timespec="seconds")}
            os.ftruncate(fd, 0)
            os.lseek(fd, 0, os.SEEK_SET)
            os.write(fd, (json.dumps(info) + "\n").encode())
        except OSError:
            pass        # a full disk: the lock holds all the same, the message is vaguer
        try:
            yield
        finally:
            _unlock(fd)
    finally:
        os.close(fd)
