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
    from statsmodels.stats.proportion import proportion_confint  # lazy: statsmodels takes ~1 s to import
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
    # the interval always holds the observed share (at 0 or n successes the formula's
    # bound can miss it by a rounding error, which made error bars negative)
    p = np.divide(s, n, out=np.full(s.shape, np.nan), where=ok)
    lo, hi = np.where(ok, np.minimum(lo, p), lo), np.where(ok, np.maximum(hi, p), hi)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi



def score_interval(points, games, alpha: float = 0.05):
    """Score and its Wilson interval, elementwise: the columns ``score``, ``lo``, ``hi`` of
    every report table.

    ``points``: float or array (wins + draws / 2); ``games``: int or array of the same
    shape. Returns ``(score, lo, hi)``: ``score = points / games`` (float64; NaN where
    ``games`` is 0) and :func:`wilson`'s interval. Raises ValueError as :func:`wilson`.
    """
    p = np.asarray(points, dtype=float)
    n = np.asarray(games, dtype=float)
    with np.errstate(invalid="ignore", divide="ignore"):
        score = p / n
    lo, hi = wilson(p, n, alpha)
    return score, lo, hi


def outcome_counts(s: pd.DataFrame, by: list[str], squares: bool = False) -> pd.DataFrame:
    """Games, wins, draws, losses and points per group of one-row-per-game-side rows.

    ``s``: rows with int ``win`` / ``draw`` / ``loss`` (0/1) and float ``score`` columns
    (``reports.tables.sides``), each one game, or ``n`` games when ``s`` has an int ``n``
    column (sides of counts); ``by``: the grouping columns. Returns one row per group
    (sorted): the ``by`` columns, ``games`` (int64), ``wins``, ``draws``, ``losses``
    (int64), ``points`` (float64: sum of scores) and, with ``squares``, ``sq`` (sum of
    squared scores, for a variance).
    """
    if "n" in s.columns:
        w = s["n"].to_numpy(np.int64)
        cols = {b: s[b].to_numpy() for b in by}
        cols.update(games=w, wins=s["win"].to_numpy(np.int64) * w, draws=s["draw"].to_numpy(np.int64) * w,
                    losses=s["loss"].to_numpy(np.int64) * w, points=s["score"].to_numpy(float) * w)
        if squares:
            cols["sq"] = s["score"].to_numpy(float) ** 2 * w
        t = pd.DataFrame(cols).groupby(by, sort=True, observed=True).sum().reset_index()
        return t
    agg = dict(games=("win", "size"), wins=("win", "sum"), draws=("draw", "sum"), losses=("loss", "sum"),
               points=("score", "sum"))
    if squares:
        s = s.assign(sq=s["score"] ** 2)
        agg["sq"] = ("sq", "sum")
    return s.groupby(by, sort=True, observed=True).agg(**agg).reset_index()

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


MAX_RATING_SE = 5.0
"""A Bradley–Terry fit whose standard error exceeds this (log-odds; about 870 Elo points)
is a separated one (a hero won or lost every game): :func:`bradley_terry` reports no
rating (NaN) rather than an arbitrary one."""


def bradley_terry(table: pd.DataFrame, first_move: bool = True, heroes=None) -> BradleyTerry:
    """Fit Bradley–Terry ratings by a binomial GLM (logistic regression) on the pairs.

    ``table``: one row per seating with columns ``p1`` and ``p2`` (hero names; p1
    moves first), ``p1_score`` (float: p1's wins + draws / 2) and ``games`` (int).
    The model is ``logit P(p1 scores) = r[p1] - r[p2] (+ h)``, with the ratings
    constrained to sum to 0 and ``h`` the first-move advantage when ``first_move``.
    Mirror rows (p1 == p2) only inform ``h``; they are dropped when ``first_move`` is
    False. ``heroes``: the heroes to rate (default: every hero in the table, sorted); one
    with no game against another hero in ``table`` gets NaN in every column (no rating).

    Returns :class:`BradleyTerry`. With fewer than two heroes every rating is 0 with a
    NaN interval; when no finite fit exists (a hero won or lost every game, see
    :data:`MAX_RATING_SE`) every rating is NaN. Raises ValueError if a required column is
    missing.
    """
    import statsmodels.api as sm  # lazy: heavy (statsmodels, ~1 s)
    for col in ("p1", "p2", "p1_score", "games"):
        if col not in table.columns:
            raise ValueError(f"bradley_terry: missing column {col!r}")
    t = table[table["games"] > 0]
    names = sorted(set(t["p1"]) | set(t["p2"])) if heroes is None else list(heroes)
    duels = t[t["p1"] != t["p2"]]
    played = set(duels["p1"]) | set(duels["p2"])   # (mirror games rate no one)
    if 0 < len(played & set(names)) < len(set(names)):
        # a hero without a game against another (an unfinished run) has no rating, not 0 with
        # no uncertainty: fit the heroes that played others, the others NaN
        bt = bradley_terry(table, first_move, [h for h in names if h in played])
        return BradleyTerry(bt.ratings.reindex(pd.Index(names, name="hero")), bt.first_move, bt.first_move_se,
                            bt.converged)
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
    if not np.all(np.isfinite(se)) or se.max() > MAX_RATING_SE:
        # a hero that won (or lost) every game: the likelihood grows without bound and the
        # "fit" stops at an arbitrary huge rating with a huge interval; no finite rating exists
        return BradleyTerry(empty.assign(rating=np.nan, elo=np.nan, expected=np.nan),
                            float("nan"), float("nan"), False)
    df = pd.DataFrame({"rating": rating, "se": se, "lo": rating - Z95 * se, "hi": rating + Z95 * se,
                       "elo": rating * ELO_PER_LOGIT, "expected": 1.0 / (1.0 + np.exp(-rating))},
                      index=pd.Index(names, name="hero"))
    h, h_se = (float(params[-1]), float(math.sqrt(max(cov[-1, -1], 0.0)))) if first_move else (float("nan"), float("nan"))
    return BradleyTerry(df, h, h_se, bool(getattr(fit, "converged", True)))


# ---------------------------------------------------------------- significance tests
#
# Used by the loadouts and compare reports (reports.loadouts, reports.compare). A
# draw counts as half a win and half a loss, as in every score.


@dataclass
class TestResult:
    """A test's outcome: ``statistic`` (float), ``df`` (degrees of freedom, or NaN for a
    normal test), ``pvalue`` (two-sided, 0..1) and the test's ``method`` name."""

    statistic: float
    df: float
    pvalue: float
    method: str


MIN_EXPECTED = 5
"""Cochran's rule for the tests here (chi-square, and the normal approximations of the z- and
t-tests of scores): every expected count of the table the test reads, wins and losses of
each group under its null hypothesis, must be at least 5 (W. G. Cochran, "Some methods for
strengthening the common chi-square tests", Biometrics 10, 1954). :func:`sample_guard`
applies it before any verdict."""


@dataclass(frozen=True)
class SampleGuard:
    """Whether a test comparing the scores of some groups has games enough for a verdict
    (:func:`sample_guard`). ``games``: the fewest games of a group (0 if a group has none);
    ``needed``: games per group that :data:`MIN_EXPECTED` asks for at the groups' pooled score
    (``inf`` when every game had the same result, or none was played)."""

    games: int
    needed: float

    @property
    def enough(self) -> bool:
        """True when every group has at least ``needed`` games: the test's verdict stands."""
        return self.games >= self.needed

    def reason(self, per: str) -> str:
        """What a report prints instead of a verdict when not :attr:`enough`, e.g. ``too few
        games (12 a loadout per opponent; at least 23 for a verdict)``; ``per`` says what
        a group is (``"a loadout per opponent"``). '' when enough."""
        if self.enough:
            return ""
        need = (f"at least {int(self.needed)} for a verdict" if math.isfinite(self.needed) else
                "every game had the same result, so no verdict" if self.games else "no games yet")
        return f"too few games ({self.games} {per}; {need})"


def sample_guard(points, games) -> SampleGuard:
    """The sample-size guard of every significance verdict (loadouts, compare, diff): a
    verdict needs every expected count of the groups' wins and losses to be at least
    :data:`MIN_EXPECTED` under the null hypothesis that they score alike (Cochran's rule).

    ``points``: array (k,) of wins + draws / 2 per group; ``games``: array (k,) of games
    per group (paired games: the pairs, for each of the two runs). With the pooled score
    ``p = sum(points) / sum(games)``, group i's expected wins and losses are ``games[i] x p``
    and ``games[i] x (1 - p)``, so the rule asks ``min(games) >= MIN_EXPECTED / min(p, 1 - p)``
    games: 10 per group at a 50% score, 25 at 20% or 80%; none suffices when every game had
    the same result. Returns a :class:`SampleGuard`. Raises ValueError if the arrays differ
    in shape or are empty."""
    s = np.asarray(points, float).ravel()
    n = np.asarray(games, float).ravel()
    if s.shape != n.shape or len(n) == 0:
        raise ValueError(f"points and games must be two arrays of one length, got {s.shape} and {n.shape}")
    fewest = int(n.min())
    total = n.sum()
    m = min(s.sum() / total, 1.0 - s.sum() / total) if total > 0 else 0.0
    needed = math.ceil(MIN_EXPECTED / m - 1e-9) if m > 0 else math.inf
    return SampleGuard(fewest, needed)


def homogeneity_test(points, games) -> TestResult:
    """Pearson's chi-square test that k groups have the same score.

    ``points``: float array (k,): wins + draws / 2 per group; ``games``: array (k,) of
    games per group. The null hypothesis: every group has the same expected score
    (e.g. every loadout wins equally often against this opponent). Builds the k x 2
    table (points, games - points) and applies ``scipy.stats.chi2_contingency``
    without continuity correction; df = k - 1 (groups with 0 games are dropped). If
    every group scores 0 or every group scores 1 the statistic is 0 and p = 1; with
    fewer than two groups p is NaN. Raises ValueError if points lie outside
    0..games.
    """
    from scipy.stats import chi2_contingency  # lazy: heavy (scipy)
    s = np.asarray(points, float)
    n = np.asarray(games, float)
    if np.any(s < 0) or np.any(s > n):
        raise ValueError("points must lie between 0 and games")
    keep = n > 0
    s, n = s[keep], n[keep]
    method = "Pearson chi-square test of homogeneity"
    if len(s) < 2:
        return TestResult(float("nan"), float("nan"), float("nan"), method)
    table = np.column_stack([s, n - s])
    if table[:, 0].sum() == 0 or table[:, 1].sum() == 0:
        return TestResult(0.0, float(len(s) - 1), 1.0, method)
    stat, p, dof, _ = chi2_contingency(table, correction=False)
    return TestResult(float(stat), float(dof), float(p), method)


def two_proportion_test(points1, games1, points2, games2) -> TestResult:
    """Two-sided z-test that two scores are equal (pooled variance).

    ``points1``/``games1``, ``points2``/``games2``: scalars (wins + draws / 2, games).
    The null hypothesis: both groups have the same expected score.
    ``statistic`` is z for group 1 minus group 2 (``statsmodels.stats.proportion.
    proportions_ztest``); p = 1 (z = 0) when both scores are 0 or both 1; NaN if a
    group has no games.
    """
    from statsmodels.stats.proportion import proportions_ztest  # lazy: heavy (statsmodels)
    method = "two-proportion z-test (pooled)"
    if games1 <= 0 or games2 <= 0:
        return TestResult(float("nan"), float("nan"), float("nan"), method)
    pooled = (points1 + points2) / (games1 + games2)
    if pooled <= 0 or pooled >= 1:
        return TestResult(0.0, float("nan"), 1.0, method)
    z, p = proportions_ztest([points1, points2], [games1, games2], alternative="two-sided")
    return TestResult(float(z), float("nan"), float(p), method)


def holm(pvalues, alpha: float = 0.05) -> tuple[np.ndarray, np.ndarray]:
    """Holm's step-down correction of a family of p-values.

    ``pvalues``: array (m,) of p-values (NaN allowed: left NaN and not counted in the
    family). Returns ``(adjusted, reject)``: float64 (m,) Holm-adjusted p-values and
    bool (m,) whether each null hypothesis is rejected at family-wise error rate
    ``alpha``. Uses ``statsmodels.stats.multitest.multipletests(method="holm")``.
    """
    from statsmodels.stats.multitest import multipletests  # lazy: heavy (statsmodels)
    p = np.asarray(pvalues, float)
    adj = np.full(p.shape, np.nan)
    rej = np.zeros(p.shape, bool)
    ok = np.isfinite(p)
    if ok.any():
        r, a, _, _ = multipletests(p[ok], alpha=alpha, method="holm")
        adj[ok], rej[ok] = a, r
    return adj, rej


def pairwise_tests(labels, points, games, alpha: float = 0.05) -> pd.DataFrame:
    """Every pair of groups compared with :func:`two_proportion_test`, Holm-corrected
    over the k(k-1)/2 pairs.

    ``labels``: (k,) group names; ``points`` (wins + draws / 2) and ``games``: (k,).
    Returns one row per pair (a before b in ``labels`` order): ``a``, ``b``,
    ``score_a``, ``score_b``, ``difference`` (score_a - score_b), ``z``, ``p``,
    ``enough_games`` (:func:`sample_guard` of the pair), ``p_holm`` (Holm over the pairs
    with enough games; NaN for the others), ``significant`` (bool, Holm at ``alpha``;
    False without enough games).
    """
    labels = list(labels)
    s = np.asarray(points, float)
    n = np.asarray(games, float)
    rows = []
    for i in range(len(labels)):
        for j in range(i + 1, len(labels)):
            t = two_proportion_test(s[i], n[i], s[j], n[j])
            sa = s[i] / n[i] if n[i] else np.nan
            sb = s[j] / n[j] if n[j] else np.nan
            rows.append({"a": labels[i], "b": labels[j], "score_a": sa, "score_b": sb, "difference": sa - sb,
                         "z": t.statistic, "p": t.pvalue,
                         "enough_games": sample_guard([s[i], s[j]], [n[i], n[j]]).enough})
    df = pd.DataFrame(rows, columns=["a", "b", "score_a", "score_b", "difference", "z", "p", "enough_games"])
    return df.assign(**guarded_holm(df["p"].to_numpy(float), df["enough_games"].to_numpy(bool), alpha))


def guarded_holm(pvalues, enough, alpha: float = 0.05) -> dict:
    """:func:`holm` over the tests with games enough for a verdict (``enough``: bool array
    of the same shape, :attr:`SampleGuard.enough`): the others are left out of the family.
    Returns ``{"p_holm": float64 array (NaN where not enough), "significant": bool array
    (False where not enough)}``."""
    p = np.where(np.asarray(enough, bool), np.asarray(pvalues, float), np.nan)
    adj, rej = holm(p, alpha) if p.size else (np.zeros(0), np.zeros(0, bool))
    return {"p_holm": adj, "significant": rej}


@dataclass
class PairedDifference:
    """Mean of paired differences with a t interval.

    ``n`` pairs; ``mean`` (variant minus baseline, in score units: 1 = a whole game);
    ``sd`` of the differences; ``lo``/``hi`` its ``1 - alpha`` t interval; ``t`` and
    two-sided ``pvalue`` of the one-sample t-test of mean 0; ``discordant``: pairs whose
    outcomes differ. When every difference is 0 the interval is [0, 0] and p = 1.
    """

    n: int
    mean: float
    sd: float
    lo: float
    hi: float
    t: float
    pvalue: float
    discordant: int


def paired_difference(baseline, variant, alpha: float = 0.05) -> PairedDifference:
    """Paired-difference test of two score arrays played with the same seeds.

    ``baseline``, ``variant``: float arrays (n,) of a hero's score per game (1 win,
    0.5 draw, 0 loss), element i of both from the same seed and cell. The null
    hypothesis: the variant does not change the hero's expected score. Tests the mean
    of ``variant - baseline`` with a one-sample t-test (``scipy.stats.ttest_1samp``,
    n - 1 degrees of freedom; for win/loss outcomes this is McNemar's test on the
    discordant pairs in its t form). Raises ValueError if the arrays differ in length
    or hold fewer than 2 pairs.
    """
    from scipy import stats as ss  # lazy: heavy (scipy)
    b = np.asarray(baseline, float)
    v = np.asarray(variant, float)
    if b.shape != v.shape:
        raise ValueError(f"paired arrays differ in shape: {b.shape} and {v.shape}")
    n = len(b)
    if n < 2:
        raise ValueError("a paired test needs at least 2 pairs")
    d = v - b
    mean = float(d.mean())
    sd = float(d.std(ddof=1))
    disc = int((d != 0).sum())
    if sd == 0:
        return PairedDifference(n, mean, 0.0, mean, mean, float("nan") if mean else 0.0,
                                1.0 if mean == 0 else 0.0, disc)
    se = sd / math.sqrt(n)
    t, p = ss.ttest_1samp(d, 0.0)
    q = float(ss.t.ppf(1 - alpha / 2, n - 1))
    return PairedDifference(n, mean, sd, mean - q * se, mean + q * se, float(t), float(p), disc)
