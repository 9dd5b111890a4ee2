"""Imitation records: the expert's searched decisions, kept with the position they were taken
in, so that the standard AI's weights can be fitted to choose what the search chose
(expert iteration: Anthony, Tian & Barber, NeurIPS 2017; ``sim.runs.imitate``).

A capture area follows the control array's ``CTL_SIZE`` part (and its explain buffer, if
any); ``ctl[CTL_CAP]`` is where it starts (0: no capture). Every ``ctl[CTL_CAP_EVERY]``-th
searched decision of the real game (not the search's copies, whose control arrays have no
capture area) is written as one record of ``REC_SIZE`` int64:

* ``[0]`` decision kind (``D_*``), ``[1]`` deciding player, ``[2]`` options (at most
  ``CAP_OPTS``), ``[3]`` candidates searched, ``[4]`` samples, ``[5]`` the index of the
  candidate taken;
* ``[REC_OPTS:]`` the options' values, ``[REC_CAND:]`` the candidates' values,
  ``[REC_MEAN:]`` / ``[REC_SE:]`` their mean search values and standard errors (x 1e6);
* ``[REC_ST:]`` the state at the decision (``STATE_SIZE``), ``[REC_CTL:]`` the control
  array's first ``CTL_SCRATCH`` entries there (weights, context, plans' keys, replay list).

The standard AI's scores of the options can then be computed again with other weights
(:func:`rescore`). Capturing reads and copies only: it changes no game.
"""
import numpy as np

from .sigs import A1, A2, CTL, FA1, FA2, I, jit, ST, TB, V
from .codes import MODE_STANDARD
from .control import (
    CTL_CAP, CTL_CAP_EVERY, CTL_CAP_MAX, CTL_CAP_N, CTL_CAP_PLAY, CTL_CAP_SEEN, CTL_MODE0, CTL_SCRATCH, CTL_SIZE, CTL_W,
    MAX_RP_CAND, N_WEIGHTS,
)
from .layout import STATE_SIZE
from .ai.decide import ai_scores
from .ai.position import reset_plans

CAP_OPTS = 256
REC_OPTS = 8
REC_CAND = REC_OPTS + CAP_OPTS
REC_MEAN = REC_CAND + MAX_RP_CAND
REC_SE = REC_MEAN + MAX_RP_CAND
REC_ST = REC_SE + MAX_RP_CAND
REC_CTL = REC_ST + STATE_SIZE
REC_SIZE = REC_CTL + CTL_SCRATCH


def capture_area(n_records: int) -> int:
    """Length (int64 entries) of a capture area for ``n_records`` records."""
    return int(n_records) * REC_SIZE


@jit(I(CTL))
def _pending(ctl):
    """Start of the record after the last completed one (the one a capture writes and
    completes), -1 if ``ctl`` has no capture area or it is full."""
    if ctl.shape[0] <= CTL_SIZE or ctl[CTL_CAP] <= 0:
        return -1
    n = ctl[CTL_CAP_N]
    if n >= ctl[CTL_CAP_MAX]:
        return -1
    return ctl[CTL_CAP] + n * REC_SIZE


@jit(I(CTL))
def _slot(ctl):
    """Start of the record the next capture writes, -1 if ``ctl`` has no capture area, it is
    full, or this searched decision is not one of every ``CTL_CAP_EVERY``."""
    b = _pending(ctl)
    if b < 0:
        return -1
    seen = ctl[CTL_CAP_SEEN]
    ctl[CTL_CAP_SEEN] = seen + 1
    every = ctl[CTL_CAP_EVERY]
    if every > 1 and seen % every != 0:
        return -1
    return b


@jit(V(ST, CTL, I, I, A1, I))
def capture_begin(st, ctl, kind, p, opts, n):
    """Start a record of player ``p``'s decision ``kind`` among ``opts[:n]`` in position
    ``st`` (if this decision is captured): the position, the control array's first part and
    the options. It counts once :func:`capture_end` fills in the search's values."""
    b = _slot(ctl)
    if b < 0:
        return
    m = min(n, CAP_OPTS)
    ctl[b] = kind
    ctl[b + 1] = p
    ctl[b + 2] = m
    ctl[b + 3] = 0
    for i in range(m):
        ctl[b + REC_OPTS + i] = opts[i]
    for i in range(STATE_SIZE):
        ctl[b + REC_ST + i] = st[i]
    for i in range(CTL_SCRATCH):
        ctl[b + REC_CTL + i] = ctl[i]
    ctl[b + 6] = 1   # (begun: capture_end commits it)


@jit(V(CTL, A1, I, FA1, FA1, I, I))
def capture_end(ctl, cand, nc, mean, se, samples, chosen):
    """Complete the record :func:`capture_begin` started, if any: the candidates' values
    ``cand[:nc]``, their mean values and standard errors (float64), the samples and the
    index of the candidate taken."""
    b = _pending(ctl)
    if b < 0 or ctl[b + 6] != 1:
        return
    nc = min(nc, MAX_RP_CAND)
    ctl[b + 3] = nc
    ctl[b + 4] = samples
    ctl[b + 5] = chosen
    for j in range(nc):
        ctl[b + REC_CAND + j] = cand[j]
        ctl[b + REC_MEAN + j] = int(mean[j] * 1e6)
        ctl[b + REC_SE + j] = int(se[j] * 1e6)
    ctl[b + 6] = 2
    ctl[CTL_CAP_N] += 1


@jit(I(CTL, I))
def played(ctl, best):
    """The candidate index the game goes on with after a search that chose ``best``: 0 (the
    standard AI's first choice) when the capture plays the standard AI's choices
    (``CTL_CAP_PLAY``), else ``best``."""
    if ctl.shape[0] > CTL_SIZE and ctl[CTL_CAP] > 0 and ctl[CTL_CAP_PLAY] != 0:
        return 0
    return best


@jit(V(CTL))
def capture_drop(ctl):
    """Forget a record begun and not completed (the search stopped without values)."""
    b = _pending(ctl)
    if b >= 0:
        ctl[b + 6] = 0


@jit(V(TB, A2, A1, A1, FA2), entry=True)
def rescore(tb, recs, weights, picks, cscores):
    """The option the standard AI picks in each record ``recs[i]`` (int64, ``(m, REC_SIZE)``,
    one matchup's tables ``tb``) with AI weights ``weights`` (int64 thousandths,
    ``(N_WEIGHTS,)``, every player): ``picks[i]`` the index among the record's options
    (int64, ``(m,)``), the first best, as ``ai_decide`` breaks ties; ``cscores[i, j]`` its
    score of the record's candidate j (float64, ``(m, MAX_RP_CAND)``, points)."""
    st = np.empty(STATE_SIZE, np.int64)
    ctl = np.zeros(CTL_SIZE, np.int64)
    scores = np.zeros(CAP_OPTS, np.float64)
    for i in range(recs.shape[0]):
        r = recs[i]
        for k in range(STATE_SIZE):
            st[k] = r[REC_ST + k]
        for k in range(CTL_SIZE):
            ctl[k] = r[REC_CTL + k] if k < CTL_SCRATCH else 0
        for q in range(4):
            ctl[CTL_MODE0 + q] = MODE_STANDARD
            for k in range(N_WEIGHTS):
                ctl[CTL_W + q * N_WEIGHTS + k] = weights[k]
        reset_plans(ctl)
        n = r[2]
        opts = r[REC_OPTS:REC_OPTS + n].copy()
        ai_scores(st, tb, ctl, r[0], r[1], opts, n, scores)
        best = 0
        for j in range(1, n):
            if scores[j] > scores[best]:
                best = j
        picks[i] = best
        for j in range(r[3]):
            cscores[i, j] = scores[0]
            for k in range(n):
                if opts[k] == r[REC_CAND + j]:
                    cscores[i, j] = scores[k]
                    break
