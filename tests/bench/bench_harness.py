"""Compiled loops around the engine's hot functions, for the benchmark suite.

Each harness restores a saved position (state and control arrays) and runs one
engine step ``reps`` times inside numba, so a Python call costs nothing per step.
Like ``play_games`` they work on views numba does not reference-count
(``sim.engine.sigs.unmanaged``). Restoring the position (two array copies) is part
of every step; :func:`copy_only` times that alone.
"""
import numpy as np
from numba import njit

from sim.engine.game import play_games, unmanaged_tables  # noqa: F401
from sim.engine.layout import D_ACTION, G_ACTIVE, G_OVER
from sim.engine.policy import CTL_CTX_OP, decide
from sim.engine.rules import do_action, do_attack, legal_actions, take_turn
from sim.engine.sigs import unmanaged


@njit(cache=True)
def copy_only(st0, ctl0, reps):
    """Restore the position ``reps`` times; return a checksum."""
    st_m = st0.copy()
    ctl_m = ctl0.copy()
    st = unmanaged(st_m)
    ctl = unmanaged(ctl_m)
    s = 0
    for _ in range(reps):
        st[:] = st0
        ctl[:] = ctl0
        s += st[G_ACTIVE]
    st_m[0] += ctl_m[0] * 0
    return s


@njit(cache=True)
def one_action(st0, tb, ctl0, log_m, reps):
    """The active player's next action: legal actions, the policy's choice, the action.
    Returns the number of steps after which the game was over (a sanity figure)."""
    tbu = unmanaged_tables(tb)
    st_m = st0.copy()
    ctl_m = ctl0.copy()
    opts_m = np.empty(1024, np.int64)
    st = unmanaged(st_m)
    ctl = unmanaged(ctl_m)
    log = unmanaged(log_m)
    opts = unmanaged(opts_m)
    over = 0
    for _ in range(reps):
        st[:] = st0
        ctl[:] = ctl0
        p = st[G_ACTIVE]
        n = legal_actions(st, tbu, p, opts)
        ctl[CTL_CTX_OP] = -1
        i = decide(st, tbu, ctl, D_ACTION, p, opts, n)
        do_action(st, tbu, ctl, log, p, opts[i])
        over += st[G_OVER]
    st_m[0] += ctl_m[0] * 0 + opts_m[0] * 0
    return over


@njit(cache=True)
def one_combat(st0, tb, ctl0, log_m, reps, p, a, t, card):
    """One attack of fighter ``a`` on ``t`` with ``card`` (the defender's policy picks its
    defense; effects resolve). Returns the number of combats that ended the game."""
    tbu = unmanaged_tables(tb)
    st_m = st0.copy()
    ctl_m = ctl0.copy()
    st = unmanaged(st_m)
    ctl = unmanaged(ctl_m)
    log = unmanaged(log_m)
    over = 0
    for _ in range(reps):
        st[:] = st0
        ctl[:] = ctl0
        do_attack(st, tbu, ctl, log, p, a, t, card)
        over += st[G_OVER]
    st_m[0] += ctl_m[0] * 0
    return over


@njit(cache=True)
def one_turn(st0, tb, ctl0, log_m, reps):
    """The active player's whole turn (start, actions, end). Returns games over."""
    tbu = unmanaged_tables(tb)
    st_m = st0.copy()
    ctl_m = ctl0.copy()
    st = unmanaged(st_m)
    ctl = unmanaged(ctl_m)
    log = unmanaged(log_m)
    over = 0
    for _ in range(reps):
        st[:] = st0
        ctl[:] = ctl0
        take_turn(st, tbu, ctl, log)
        over += st[G_OVER]
    st_m[0] += ctl_m[0] * 0
    return over


FIGURES: list = []


def record(name: str, stats, reps: int) -> None:
    """Remember a benchmark's per-step figures (microseconds) for the end-of-run summary."""
    FIGURES.append((name, stats.min / reps * 1e6, stats.median / reps * 1e6, reps))
