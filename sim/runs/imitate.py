"""Fit the standard AI's weights to the expert's searched choices (expert iteration).

The expert AI searches a decision by playing its best candidates forward with the standard
AI on both sides; where its search prefers another candidate than the standard AI's first
choice, the standard AI misjudged the position. :func:`collect` plays expert games and keeps
a sample of their searched decisions with the position (:mod:`sim.engine.capture`);
:func:`regret` is how much search value the standard AI with given weights gives up over
those decisions (it picks by its own scores; the search's values say what the pick was worth);
:func:`fit` minimises it with CMA-ES over chosen weights. References: Anthony, Tian & Barber,
"Thinking Fast and Slow with Deep Learning and Tree Search" (NeurIPS 2017), and the leads
in ``shared/AI_LEADS.md``.
"""
from __future__ import annotations

import numpy as np

from sim.content.profiles import get_profile
from sim.engine.ai import WEIGHT_NAMES
from sim.engine.capture import REC_CAND, REC_MEAN, REC_SE, REC_SIZE, capture_area, rescore
from sim.engine.control import MAX_RP_CAND, CTL_CAP, CTL_CAP_EVERY, CTL_CAP_MAX, CTL_CAP_N, CTL_CAP_PLAY, CTL_SIZE, N_WEIGHTS
from sim.engine.core import game_seed
from sim.engine.game import RES_FIELDS, play_duel
from sim.engine import layout as L
from sim.play.match import Match, _control


def collect(heroes, battlefield: str, games: int, profile: str = "expert", every: int = 4,
            per_game: int = 40, run_seed: int = 11, matchup: int = 0, play_standard: bool = False) -> np.ndarray:
    """Records (int64, ``(m, REC_SIZE)``) of every ``every``-th searched decision of ``games``
    duels of ``heroes`` (two names) on ``battlefield``, both seats playing ``profile``; at
    most ``per_game`` records a game. Game i's seed: ``game_seed(run_seed, matchup, i)``. With
    ``play_standard`` the games go on with the standard AI's choices after each search (the
    positions the standard AI reaches, labelled by the search: DAgger)."""
    m = Match(list(heroes), battlefield)
    out = []
    for i in range(int(games)):
        base = _control((profile, profile), heroes=m.keys)
        start = CTL_SIZE + 1
        ctl = np.zeros(start + capture_area(per_game), np.int64)
        ctl[:base.shape[0]] = base
        ctl[CTL_CAP] = start
        ctl[CTL_CAP_MAX] = per_game
        ctl[CTL_CAP_EVERY] = every
        ctl[CTL_CAP_PLAY] = int(play_standard)
        st = m.new_state()
        log = np.zeros((1, L.EV_FIELDS), np.int64)
        res = np.zeros(RES_FIELDS, np.int64)
        play_duel(st, m.tables, ctl, log, m.rows, game_seed(run_seed, matchup, i), res)
        n = int(ctl[CTL_CAP_N])
        if n:
            out.append(ctl[start:start + n * REC_SIZE].reshape(n, REC_SIZE).copy())
    return np.concatenate(out) if out else np.zeros((0, REC_SIZE), np.int64)


def weight_vector(profile: str = "standard", overrides: dict | None = None) -> np.ndarray:
    """The profile's weights with ``overrides`` (name -> float), int64 thousandths (N_WEIGHTS,)."""
    w = dict(zip(WEIGHT_NAMES, get_profile(profile).weights))
    w.update(overrides or {})
    v = np.zeros(N_WEIGHTS, np.int64)
    for k, name in enumerate(WEIGHT_NAMES):
        v[k] = int(round(float(w.get(name, 0.0)) * 1000))
    return v


def picks(match: Match, recs: np.ndarray, weights: np.ndarray, scores: bool = False):
    """The standard AI's pick (index among each record's options) with ``weights``; with
    ``scores`` also its scores of each record's candidates (float64, ``(m, MAX_RP_CAND)``)."""
    out = np.zeros(recs.shape[0], np.int64)
    cs = np.zeros((recs.shape[0], MAX_RP_CAND))
    if recs.shape[0]:
        rescore(match.tables, recs, weights, out, cs)
    return (out, cs) if scores else out


def soft_regret(recs: np.ndarray, pick: np.ndarray, cscores: np.ndarray, temperature: float) -> np.ndarray:
    """Per record, the expected regret (see :func:`pick_values`) of choosing among the
    searched candidates with chances softmax(score / ``temperature``) (points): a smooth
    version of the pick's regret for the weights' search; a pick outside the candidates
    counts as the worst candidate."""
    n = recs.shape[0]
    out = np.zeros(n)
    for i in range(n):
        r = recs[i]
        nc = int(r[3])
        vals = r[REC_CAND:REC_CAND + nc]
        means = r[REC_MEAN:REC_MEAN + nc] * 1e-6
        reg = np.maximum(0.0, means[int(r[5])] - means)
        if not np.any(vals == r[8 + int(pick[i])]):
            out[i] = reg.max()
            continue
        z = cscores[i, :nc] / temperature
        z = np.exp(z - z.max())
        out[i] = float(np.dot(z, reg) / z.sum())
    return out


def label(r: np.ndarray, z: float = 0.0) -> int:
    """The candidate (index) the search's values say is best in record ``r``: the one the
    expert took, unless ``z`` > 0 and its mean beats the standard AI's first candidate's by
    less than ``z`` standard errors of their difference, then the standard AI's (a search
    over actions takes the best mean of a few noisy ones: the winner's curse)."""
    ch = int(r[5])
    if z <= 0 or ch == 0:
        return ch
    m = r[REC_MEAN:REC_MEAN + 2 + ch] * 1e-6
    se = r[REC_SE:REC_SE + 2 + ch] * 1e-6
    return ch if m[ch] - m[0] > z * np.hypot(se[ch], se[0]) else 0


def pick_values(recs: np.ndarray, pick: np.ndarray, z: float = 0.0) -> tuple[np.ndarray, np.ndarray]:
    """(regret, agree): per record, how much search value the pick gives up against the
    candidate the search prefers (:func:`label`; its mean minus the pick's, at least 0; an
    option the search did not try counts as the worst candidate it tried), and whether the
    pick is that candidate. Measured against the expert's choice, not the best mean: inside
    an action the expert keeps the standard AI's choice unless another is better by 2
    standard errors, and the best of several noisy means is biased upward."""
    n = recs.shape[0]
    regret = np.zeros(n)
    agree = np.zeros(n, bool)
    for i in range(n):
        r = recs[i]
        nc = int(r[3])
        vals = r[REC_CAND:REC_CAND + nc]
        means = r[REC_MEAN:REC_MEAN + nc] * 1e-6
        best = label(r, z)
        v = r[8 + int(pick[i])]
        hit = np.nonzero(vals == v)[0]
        got = means[hit[0]] if hit.size else means.min()
        agree[i] = bool(hit.size) and hit[0] == best
        regret[i] = 0.0 if agree[i] else max(0.0, means[best] - got)
    return regret, agree
