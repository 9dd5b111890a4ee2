"""The statistics of ``unmatched-sim balance`` (:mod:`sim.runs.balance`): paired estimates,
the screening rule, the dose-response points and the proposals' ranking.

Every function here is pure: it reads per-game score vectors and returns numbers, so a
resumed search, which reads the stored games again, takes the same decisions.

**Paired estimates.** Settings of the knobs play the same games (the same slots and seeds,
common random numbers), so game *g* of a setting and game *g* of the baseline differ only by
the knobs. The change of a setting is the mean of the per-game differences (draws count
half) with a t interval (scipy); its field score is the baseline's score over all baseline
games plus that change (a control variate), with an interval combining both errors.

**Screening** (:func:`screen_look`). A knob is first played at the two ends of its range.
After each look (the games per end doubling), a knob whose larger end effect is
significant (two-sided t-test, Bonferroni over its ends, Holm over the knobs still screened
at level ``alpha / looks``, statsmodels) goes on to its curve; a knob whose ends' 95%
intervals both lie within ``min_effect`` of no change is dropped (no effect a designer would
notice); the others get another look, and after the last look are dropped as not detectable.

**Proposals** (:func:`single_proposals`, :func:`pair_candidates`): ranked by the size of the
edit, :func:`edit_key`: first the knobs changed, then the printed designs touched (a copies
trade reprints two cards), then the steps moved, then how far the prediction misses the
target.
"""
from __future__ import annotations

import itertools
import math
from dataclasses import asdict, dataclass

import numpy as np
from scipy import stats
from statsmodels.stats.multitest import multipletests
from statsmodels.stats.proportion import proportion_confint

ALPHA = 0.05


@dataclass(frozen=True)
class Paired:
    """The change of a setting from the baseline over ``games`` paired games: ``change``
    (mean difference of the hero's score, -1..1), its 95% t interval ``lo``/``hi``, ``se``,
    the two-sided ``p`` (null: no change; 1.0 when every pair ends the same), and the
    predicted field ``score`` (baseline score + change) with its 95% interval
    ``score_lo``/``score_hi``."""

    games: int
    change: float
    se: float
    lo: float
    hi: float
    p: float
    score: float
    score_lo: float
    score_hi: float

    def to_dict(self) -> dict:
        return {k: (round(v, 6) if isinstance(v, float) else v) for k, v in asdict(self).items()}


def paired(x: np.ndarray, base: np.ndarray, base_all: np.ndarray | None = None) -> Paired:
    """Paired estimate of setting scores ``x`` against baseline scores ``base`` (float64,
    the same games in the same order, equal length >= 1). ``base_all``: every baseline game
    (a superset of ``base``, default ``base``) for the baseline's own score."""
    x = np.asarray(x, float)
    base = np.asarray(base, float)
    base_all = base if base_all is None else np.asarray(base_all, float)
    n = len(x)
    d = x - base
    change = float(d.mean()) if n else 0.0
    sd = float(d.std(ddof=1)) if n > 1 else 0.0
    se = sd / math.sqrt(n) if n > 1 else 0.0
    tq = float(stats.t.ppf(0.975, max(n - 1, 1)))
    if se > 0:
        p = float(2 * stats.t.sf(abs(change) / se, n - 1))
    else:
        p = 1.0 if change == 0 else 0.0
    nb = len(base_all)
    b_mean = float(base_all.mean())
    b_se = float(base_all.std(ddof=1)) / math.sqrt(nb) if nb > 1 else 0.0
    s_se = math.sqrt(se ** 2 + b_se ** 2)
    score = b_mean + change
    return Paired(n, change, se, change - tq * se, change + tq * se, p, score,
                  max(0.0, score - 1.96 * s_se), min(1.0, score + 1.96 * s_se))


def wilson(scores: np.ndarray) -> tuple[float, float, float]:
    """(mean, lo, hi): a field score (draws half) with its Wilson 95% interval (statsmodels)."""
    s = np.asarray(scores, float)
    n = len(s)
    if not n:
        return float("nan"), float("nan"), float("nan")
    lo, hi = proportion_confint(float(s.sum()), n, alpha=ALPHA, method="wilson")
    return float(s.mean()), float(lo), float(hi)


def screen_look(ends: dict, look: int, looks: int, alpha: float = ALPHA, min_effect: float = 0.01,
                last: bool = False) -> dict:
    """The screening decision after one look.

    ``ends``: knob name -> list of :class:`Paired` (one per end of its range played);
    ``look``/``looks``: this look's number (0-based) and how many there are; ``alpha``:
    the family level, spent evenly over the looks; ``min_effect``: the smallest change of the
    field score (0..1) worth a curve. Returns knob name -> ``(status, p, p_holm)``, status one
    of ``"effect"`` (go on to the curve), ``"no effect"`` (both ends' intervals within
    +-``min_effect``), ``"not detectable"`` (``last`` look and neither) or ``"continue"``."""
    names = list(ends)
    if not names:
        return {}
    p = np.array([min(1.0, len(ends[k]) * min(e.p for e in ends[k])) for k in names])
    reject, p_holm, _, _ = multipletests(p, alpha=alpha / looks, method="holm")
    out = {}
    for k, r, pv, ph in zip(names, reject, p, p_holm):
        if r:
            status = "effect"
        elif all(-min_effect < e.lo and e.hi < min_effect for e in ends[k]):
            status = "no effect"
        else:
            status = "not detectable" if last else "continue"
        out[k] = (status, float(pv), float(ph))
    return out


def edit_key(n_knobs: int, designs: int, steps: int, miss: float) -> tuple:
    """The ranking key of a proposal (smaller first): knobs changed, printed designs
    touched, steps moved, then |predicted - target|."""
    return (n_knobs, designs, steps, round(abs(miss), 6))


def single_proposals(curves: dict, knobs: dict, target: float, tolerance: float) -> list[dict]:
    """For each knob with a curve, its smallest change whose predicted score is within
    ``tolerance`` of ``target``. ``curves``: knob name -> {level: :class:`Paired`} (the
    hero file's level left out); ``knobs``: name -> ``sim.content.knobs.Knob``. Returns
    dicts (``setting``, ``predicted``: Paired, ``key``) sorted by :func:`edit_key`."""
    out = []
    for name, pts in curves.items():
        k = knobs[name]
        ok = [(v, e) for v, e in pts.items() if v != k.base and abs(e.score - target) <= tolerance]
        if not ok:
            continue
        v, e = min(ok, key=lambda ve: (k.steps(ve[0]), abs(ve[1].score - target)))
        out.append({"setting": {name: int(v)}, "predicted": e,
                    "key": edit_key(1, k.designs, k.steps(v), e.score - target)})
    return sorted(out, key=lambda d: d["key"])


def pair_candidates(curves: dict, knobs: dict, base_score: float, target: float, tolerance: float,
                    exclude=(), limit: int = 10) -> list[dict]:
    """Pairs of knobs whose changes, added, are predicted within ``tolerance`` of ``target``:
    for each pair of knobs with curves (none in ``exclude``: knobs that reach the target
    alone), its smallest pair of changes by :func:`edit_key`. The prediction adds the two
    changes to ``base_score`` (the interactions are not known until the pair is played).
    Pairs that set one number twice (two copies trades of one card) are left out. Returns
    up to ``limit`` dicts (``setting``, ``additive``: the predicted score, ``key``)."""
    names = [n for n in curves if n not in set(exclude)]
    best = {}
    for a, b in itertools.combinations(names, 2):
        ka, kb = knobs[a], knobs[b]
        if ka.kind == "copies" and kb.kind == "copies" and {ka.part, ka.partner} & {kb.part, kb.partner}:
            continue
        if {ka.kind, kb.kind} <= {"card", "copies"} and ka.part == kb.part and ka.field == kb.field:
            continue
        for (va, ea), (vb, eb) in itertools.product(curves[a].items(), curves[b].items()):
            if va == ka.base or vb == kb.base:
                continue
            pred = base_score + ea.change + eb.change
            if abs(pred - target) > tolerance:
                continue
            key = edit_key(2, ka.designs + kb.designs, ka.steps(va) + kb.steps(vb), pred - target)
            if (a, b) not in best or key < best[(a, b)]["key"]:
                best[(a, b)] = {"setting": {a: int(va), b: int(vb)}, "additive": pred, "key": key}
    return sorted(best.values(), key=lambda d: d["key"])[:limit]


def crossing(points: dict, target: float) -> tuple | None:
    """Where a curve (level -> :class:`Paired`, the base level included) crosses ``target``
    between two neighbouring levels: ``(level_below, level_above)``, or None."""
    lv = sorted(points)
    for a, b in zip(lv, lv[1:]):
        sa, sb = points[a].score - target, points[b].score - target
        if sa == 0 or sb == 0 or (sa < 0) != (sb < 0):
            return (a, b)
    return None
