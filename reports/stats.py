"""Statistics for the reports: Wilson score intervals and Bradley–Terry ratings.

Draws count as half a win everywhere a score is computed (``score = wins + draws / 2``),
so every interval and rating here takes a (possibly half-integer) success count.
"""
from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

import numpy as np
import pandas as pd

Z95 = 1.959963984540054   # two-sided 95% normal quantile
ELO_PER_LOGIT = 400.0 / math.log(10.0)   # Elo points per unit of log-odds


def wilson(successes, games, alpha: float = 0.05):
    """Wilson score interval of a proportion, elementwise.

    ``successes``: float or array (games won, draws counting 0.5); ``games``: int or
    array of the same shape (games, >= 0). Returns ``(lo, hi)`` as float64 arrays (or
    floats for scalar input), each in [0, 1]; NaN where ``games`` is 0. Uses
    ``statsmodels.stats.proportion.proportion_confint(method="wilson")``. Raises
    ValueError if ``successes`` is negative or exceeds ``games``.
    """
    from statsmodels.stats.proportion import proportion_confint
    s = np.asarray(successes, dtype=float)
    n = np.asarray(games, dtype=float)
    s, n = np.broadcast_arrays(s, n)
    if np.any(s < 0) or np.any(s > n):
        raise ValueError("successes must lie between 0 and games")
    lo = np.full(s.shape, np.nan)
    hi = np.full(s.shape, np.nan)
    ok = n > 0
    if np.any(ok):
        lo[ok], hi[ok] = proportion_confint(s[ok], n[ok], alpha=alpha, method="wilson")
    lo, hi = np.clip(lo, 0.0, 1.0), np.clip(hi, 0.0, 1.0)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


@dataclass
class BradleyTerry:
    """A Bradley–Terry fit.

    ``ratings``: DataFrame indexed by hero with float64 columns ``rating`` (log-odds,
    the ratings sum to 0), ``se``, ``lo``, ``hi`` (95% Wald interval), ``elo`` (rating in
    Elo points, 400/ln 10 per log-odd) and ``expected`` (expected score against a hero
    of rating 0, i.e. an average hero). ``first_move``: log-odds advantage of moving
    first (NaN when not fitted) with ``first_move_se``. ``converged``: the GLM's flag.
    """

    ratings: pd.DataFrame
    first_move: float
    first_move_se: float
    converged: bool

    @property
    def first_move_score(self) -> float:
        """Expected score of the first player between two equal heroes."""
        return float(1.0 / (1.0 + math.exp(-self.first_move))) if np.isfinite(self.first_move) else float("nan")


def bradley_terry(table: pd.DataFrame, first_move: bool = True, heroes=None) -> BradleyTerry:
    """Fit Bradley–Terry ratings by a binomial GLM (logistic regression) on the pairs.

    ``table``: one row per seating with columns ``p1`` and ``p2`` (hero names; p1
    moves first), ``p1_score`` (float: p1's wins + draws / 2) and ``games`` (int).
    The model is ``logit P(p1 scores) = r[p1] - r[p2] (+ h)``, with the ratings
    constrained to sum to 0 and ``h`` the first-move advantage when ``first_move``.
    Mirror rows (p1 == p2) only inform ``h``; they are dropped when ``first_move`` is
    False. ``heroes``: the heroes to rate (default: every hero in the table, sorted).

    Returns :class:`BradleyTerry`. With fewer than two heroes every rating is 0 with a
    NaN interval. Raises ValueError if a required column is missing.
    """
    import statsmodels.api as sm
    for col in ("p1", "p2", "p1_score", "games"):
        if col not in table.columns:
            raise ValueError(f"bradley_terry: missing column {col!r}")
    t = table[table["games"] > 0]
    names = sorted(set(t["p1"]) | set(t["p2"])) if heroes is None else list(heroes)
    if not first_move:
        t = t[t["p1"] != t["p2"]]
    k = len(names)
    empty = pd.DataFrame({"rating": 0.0, "se": np.nan, "lo": np.nan, "hi": np.nan, "elo": 0.0, "expected": 0.5},
                         index=pd.Index(names, name="hero"))
    if k < 2 or len(t) == 0:
        return BradleyTerry(empty, float("nan"), float("nan"), False)
    pos = {h: i for i, h in enumerate(names)}
    # sum-to-zero coding: free parameters r[0..k-2], r[k-1] = -sum(r[0..k-2])
    contrast = np.vstack([np.eye(k - 1), -np.ones((1, k - 1))])   # (k, k-1)
    d = np.zeros((len(t), k))
    i1 = t["p1"].map(pos).to_numpy()
    i2 = t["p2"].map(pos).to_numpy()
    d[np.arange(len(t)), i1] += 1.0
    d[np.arange(len(t)), i2] -= 1.0
    X = d @ contrast
    if first_move:
        X = np.column_stack([X, np.ones(len(t))])
    s = t["p1_score"].to_numpy(float)
    n = t["games"].to_numpy(float)
    endog = np.column_stack([s, n - s])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            fit = sm.GLM(endog, X, family=sm.families.Binomial()).fit()
        except Exception:   # noqa: BLE001 - singular design or separation: no rating
            return BradleyTerry(empty.assign(rating=np.nan, elo=np.nan, expected=np.nan),
                                float("nan"), float("nan"), False)
    params = np.asarray(fit.params)
    cov = np.asarray(fit.cov_params())
    beta, cov_b = params[: k - 1], cov[: k - 1, : k - 1]
    rating = contrast @ beta
    se = np.sqrt(np.maximum(np.einsum("ij,jk,ik->i", contrast, cov_b, contrast), 0.0))
    df = pd.DataFrame({"rating": rating, "se": se, "lo": rating - Z95 * se, "hi": rating + Z95 * se,
                       "elo": rating * ELO_PER_LOGIT, "expected": 1.0 / (1.0 + np.exp(-rating))},
                      index=pd.Index(names, name="hero"))
    h, h_se = (float(params[-1]), float(math.sqrt(max(cov[-1, -1], 0.0)))) if first_move else (float("nan"), float("nan"))
    return BradleyTerry(df, h, h_se, bool(getattr(fit, "converged", True)))
