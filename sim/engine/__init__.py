"""The numba engine: state layout, core operations, effects, rules, policy, games.

Compiled code is cached on disk. Numba's own cache only notices when a
function's *own* file changes, not when a function it calls changes, so a
cache built before an engine edit could silently run old code. To rule that
out, the cache lives in a folder named after a hash of every engine source
file, subpackages included (``__pycache__/numba-<hash>``); any edit starts a fresh cache.
Set ``NUMBA_CACHE_DIR`` yourself to override.
"""
import hashlib
import os
import shutil
from pathlib import Path

import numba

_HERE = Path(__file__).resolve().parent


def _cache_dir() -> Path | None:
    digest = hashlib.sha1()
    for rel, p in sorted((p.relative_to(_HERE).as_posix(), p) for p in _HERE.rglob("*.py")):
        digest.update(rel.encode() + p.read_bytes())
    parent = _HERE / "__pycache__"
    target = parent / f"numba-{digest.hexdigest()[:12]}"
    try:
        target.mkdir(parents=True, exist_ok=True)
        for old in parent.glob("numba-*"):
            if old != target:
                shutil.rmtree(old, ignore_errors=True)
        return target
    except OSError:
        return None


_dir = None
if not os.environ.get("NUMBA_CACHE_DIR"):
    _dir = _cache_dir()
    if _dir is not None:
        numba.config.CACHE_DIR = str(_dir)


def cache_is_warm() -> bool:
    """Whether the compiled game loop is in this install's cache (False: the first game
    compiles the engine, a few minutes). True when ``NUMBA_CACHE_DIR`` is set by the user
    (their cache is not inspected)."""
    if _dir is None:
        return True
    return any(_dir.rglob("*.nbi"))
