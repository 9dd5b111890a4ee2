"""Numba types of the engine's arguments, for explicit (eager) signatures.

Every engine function is compiled once, for exactly these types. Without
explicit signatures numba compiles a separate copy for each combination of
literal constants a function is called with (``decide(..., D_MAY, ...)``,
``log_ev(..., EV_MOVE, ...)``), which made the first compile take minutes.
"""
import numpy as np
from numba import njit, typeof, types

from .tables import Tables

I = types.int64                      # every integer
B = types.boolean
F = types.float64
FA1 = types.Array(types.float64, 1, "C")   # AI scores
V = types.void
A1 = types.Array(types.int64, 1, "C")   # state, control, option lists, rows
A2 = types.Array(types.int64, 2, "C")   # log, result table
A3 = types.Array(types.int64, 3, "C")   # per-game card-play counts
ST = A1
CTL = A1
LOG = A2
TB = typeof(Tables(
    cards=np.zeros((1, 1), np.int64), code=np.zeros((1, 1), np.int64),
    heroes=np.zeros((1, 1), np.int64), decks=np.zeros(1, np.int64),
    rules=np.zeros(1, np.int64), adj=np.zeros((1, 1), np.int8),
    move=np.zeros((1, 1), np.int8), dist=np.zeros((1, 1), np.int64), adist=np.zeros((1, 1), np.int64),
    zmask=np.zeros(1, np.int64), starts=np.zeros(1, np.int64),
))


def jit(sig):
    """``numba.njit`` with an explicit signature and the on-disk cache."""
    return njit(sig, cache=True)

