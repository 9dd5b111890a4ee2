"""The statistics of loadouts: each loadout's score, the tests across loadouts and the
effect of each gear choice.

Used by the loadouts report (:mod:`reports.loadouts`) and by the matrix tables
(:func:`reports.tables.compute_tables`, through :func:`matrix_loadout_tables`); it
imports neither, only :mod:`reports.stats` and :mod:`reports.format`. The input is
always :func:`reports.tables.sides` rows (one per hero per game); draws count half
a win. The tests are described in :mod:`reports.loadouts`.
"""
from __future__ import annotations

import itertools

import numpy as np
import pandas as pd

from .format import ALL_OPPONENTS
from .stats import Z95, guarded_holm, homogeneity_test, outcome_counts, pairwise_tests, sample_guard, score_interval

ALPHA = 0.05


def loadout_scores(s: pd.DataFrame, loadouts: list[str]) -> pd.DataFrame:
    """Each loadout's score per opponent and over all opponents.

    ``s``: :func:`reports.tables.sides` rows of the hero (one per game); ``loadouts``:
    the hero's loadout names in file order. Rows (opponent, loadout) with ``games``,
    ``wins``, ``draws``, ``losses``, ``score`` (float, draws half), ``lo``/``hi``
    (Wilson 95%), ``var`` (per-game variance of the score), ``rank`` (1 = best
    against that opponent). Opponent ``"all"`` pools every opponent.
    """
    per = outcome_counts(s, ["opponent", "loadout"], squares=True)
    pooled = outcome_counts(s, ["loadout"], squares=True).assign(opponent=ALL_OPPONENTS)
    t = pd.concat([per, pooled[per.columns]], ignore_index=True)
    g = t["games"].to_numpy(float)
    score, lo, hi = score_interval(t["points"].to_numpy(float), g)
    t["score"] = score
    with np.errstate(invalid="ignore", divide="ignore"):
        t["var"] = t["sq"] / g - t["score"] ** 2
    t["lo"], t["hi"] = lo, hi
    order = {lo: i for i, lo in enumerate(loadouts)}
    t["_o"] = t["loadout"].map(order)
    t["rank"] = t.groupby("opponent")["score"].rank(ascending=False, method="min").astype(int)
    opp_order = sorted(set(t["opponent"]) - {ALL_OPPONENTS}) + [ALL_OPPONENTS]
    t["_p"] = t["opponent"].map({o: i for i, o in enumerate(opp_order)})
    t = t.sort_values(["_p", "_o"]).drop(columns=["_o", "_p", "sq"]).reset_index(drop=True)
    return t[["opponent", "loadout", "games", "wins", "draws", "losses", "points", "score", "lo", "hi", "var", "rank"]]


def loadout_tests(scores: pd.DataFrame, alpha: float = ALPHA) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The significance tests across the loadouts, per opponent and over all.

    ``scores``: :func:`loadout_scores`. Returns ``(tests, pairs, best)``:

    - ``tests``: one row per opponent: ``chi2``, ``df``, ``p`` (Pearson homogeneity
      across the loadouts), ``enough_games`` (:func:`reports.stats.sample_guard`: Cochran's
      rule), ``games_needed`` (games a loadout that rule asks for; inf when every game had the
      same result), ``too_few`` (what to say instead of a verdict, '' when enough games), ``p_holm``
      (Holm over the rows with enough games), ``significant`` (False without enough games);
    - ``pairs``: per opponent every pair of loadouts (:func:`reports.stats.pairwise_tests`,
      Holm within the opponent);
    - ``best``: per opponent the best loadout with ``score``, ``lo``, ``hi``, ``games``,
      the runner-up and ``gap`` (best minus runner-up score), ``differ`` (the omnibus
      test is significant after Holm), ``games_needed`` and ``too_few`` (as in ``tests``), ``ties`` (loadouts whose difference from the best
      is not significant after Holm, ';'-joined) and ``n_ties``.
    """
    test_rows, pair_frames, best_rows = [], [], []
    for opp, g in scores.groupby("opponent", sort=False):
        t = homogeneity_test(g["points"].to_numpy(float), g["games"].to_numpy(float))
        guard = sample_guard(g["points"].to_numpy(float), g["games"].to_numpy(float))
        per = "a loadout over all opponents" if opp == ALL_OPPONENTS else "a loadout per opponent"
        test_rows.append({"opponent": opp, "loadouts": len(g), "games": int(g["games"].sum()),
                          "chi2": t.statistic, "df": t.df, "p": t.pvalue, "enough_games": guard.enough,
                          "games_needed": guard.needed, "too_few": guard.reason(per)})
        pr = pairwise_tests(g["loadout"].tolist(), g["points"].to_numpy(float), g["games"].to_numpy(float), alpha)
        pair_frames.append(pr.assign(opponent=opp))
        ranked = g.sort_values(["score", "loadout"], ascending=[False, True], kind="stable")
        b = ranked.iloc[0]
        second = ranked.iloc[1] if len(ranked) > 1 else None
        ties = []
        for lo in ranked["loadout"].iloc[1:]:
            row = pr[((pr["a"] == b["loadout"]) & (pr["b"] == lo)) | ((pr["b"] == b["loadout"]) & (pr["a"] == lo))]
            if len(row) and not bool(row["significant"].iloc[0]):
                ties.append(lo)
        best_rows.append({"opponent": opp, "best_loadout": b["loadout"], "score": b["score"], "lo": b["lo"],
                          "hi": b["hi"], "games": int(b["games"]),
                          "runner_up": second["loadout"] if second is not None else "",
                          "runner_up_score": second["score"] if second is not None else np.nan,
                          "gap": b["score"] - second["score"] if second is not None else np.nan,
                          "worst_loadout": ranked.iloc[-1]["loadout"], "worst_score": ranked.iloc[-1]["score"],
                          "ties": ";".join(ties), "n_ties": len(ties)})
    tests = pd.DataFrame(test_rows)
    tests = tests.assign(**guarded_holm(tests["p"].to_numpy(float), tests["enough_games"].to_numpy(bool), alpha))
    best = pd.DataFrame(best_rows)
    best["differ"] = best["opponent"].map(tests.set_index("opponent")["significant"])
    for col in ("games_needed", "too_few"):
        best[col] = best["opponent"].map(tests.set_index("opponent")[col])
    pairs = pd.concat(pair_frames, ignore_index=True)
    pairs = pairs[["opponent"] + [c for c in pairs.columns if c != "opponent"]]
    return tests, pairs, best


def _parse(lo: str, groups) -> dict:
    return dict(zip([g for g, _ in groups], lo.split("+")))


def gear_effects(scores: pd.DataFrame, groups, alpha: float = ALPHA) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The effect of each single gear choice with the other choices held fixed.

    ``scores``: :func:`loadout_scores`; ``groups``: the hero's choice groups as
    ``[(group, [option, ...]), ...]`` (loadout names are one option per group joined
    by '+', in group order). For each group and each option after the first (the
    reference), within every combination of the other groups' options the score
    difference option minus reference and its variance (sum of the two loadouts'
    per-game score variances over their games) are computed; the effect is their mean
    over the combinations, with standard error sqrt(sum of variances) / combinations, a
    normal 95% interval, a two-sided z-test p-value and Holm's correction over the hero's
    contrasts per opponent that have games enough for a verdict (``enough_games``:
    :func:`reports.stats.sample_guard` of the option's and the reference's games pooled over
    the combinations; without, ``p_holm`` is NaN and ``significant`` False). Returns
    ``(effects, by_combination)``: effects rows (opponent, group, option, reference,
    effect, lo, hi, se, z, p, enough_games, p_holm, significant, combinations);
    by_combination rows (opponent, group, option, reference, fixed, games, reference_games,
    difference, lo, hi): one per combination, its difference with Newcombe's 95% interval
    from the two Wilson intervals (``statsmodels``' ``confint_proportions_2indep``,
    method ``newcomb``: never of zero width, also at 0 or n wins of n), NaN where the
    option or the reference has no games (their ``games`` says 0).
    Differences are in score units (0.01 = one point of win rate).
    """
    from scipy.stats import norm  # lazy: heavy (scipy), as in reports.stats
    from statsmodels.stats.proportion import confint_proportions_2indep  # lazy: heavy (statsmodels)
    groups = [(g, list(o)) for g, o in groups]
    eff_rows, combo_rows = [], []
    for opp, g in scores.groupby("opponent", sort=False):
        cell = {tuple(_parse(lo, groups)[gn] for gn, _ in groups): r for lo, r in
                zip(g["loadout"], g.itertuples(index=False))}
        first = len(eff_rows)
        for gi, (gname, opts) in enumerate(groups):
            others = [o for j, (_, o) in enumerate(groups) if j != gi]
            other_names = [n for j, (n, _) in enumerate(groups) if j != gi]
            ref = opts[0]
            for opt in opts[1:]:
                diffs, vars_, pooled = [], [], np.zeros((2, 2))   # (option, reference) x (points, games)
                for fixed in itertools.product(*others):
                    def key(choice, fixed=fixed, gi=gi):
                        k = list(fixed)
                        k.insert(gi, choice)
                        return tuple(k)
                    a, b = cell.get(key(opt)), cell.get(key(ref))
                    row = {"opponent": opp, "group": gname, "option": opt, "reference": ref,
                           "fixed": "+".join(f"{n}={c}" for n, c in zip(other_names, fixed)) or "-",
                           "games": int(a.games) if a is not None else 0,
                           "reference_games": int(b.games) if b is not None else 0,
                           "difference": np.nan, "lo": np.nan, "hi": np.nan}
                    combo_rows.append(row)
                    if not row["games"] or not row["reference_games"]:
                        continue
                    d = a.score - b.score
                    diffs.append(d)
                    vars_.append(a.var / a.games + b.var / b.games)
                    pooled += [[a.points, a.games], [b.points, b.games]]
                    lo, hi = confint_proportions_2indep(a.points, a.games, b.points, b.games, method="newcomb")
                    row.update(difference=d, lo=float(lo), hi=float(hi))
                k = len(diffs)
                if k == 0:
                    continue
                eff = float(np.mean(diffs))
                se = float(np.sqrt(np.sum(vars_)) / k)
                z = eff / se if se > 0 else (0.0 if eff == 0 else np.inf)
                p = float(2 * norm.sf(abs(z))) if np.isfinite(z) else 0.0
                eff_rows.append({"opponent": opp, "group": gname, "option": opt, "reference": ref, "effect": eff,
                                 "lo": eff - Z95 * se, "hi": eff + Z95 * se, "se": se, "z": z, "p": p,
                                 "enough_games": sample_guard(pooled[:, 0], pooled[:, 1]).enough, "combinations": k})
        fam = eff_rows[first:]
        if fam:
            h = guarded_holm([r["p"] for r in fam], [r["enough_games"] for r in fam], alpha)
            for r, a, j in zip(fam, h["p_holm"], h["significant"]):
                r["p_holm"], r["significant"] = float(a), bool(j)
    cols = ["opponent", "group", "option", "reference", "effect", "lo", "hi", "se", "z", "p", "enough_games",
            "p_holm", "significant", "combinations"]
    return pd.DataFrame(eff_rows, columns=cols), pd.DataFrame(
        combo_rows, columns=["opponent", "group", "option", "reference", "fixed", "games", "reference_games",
                             "difference", "lo", "hi"])


def hero_groups(info: dict) -> list:
    """A hero's choice groups from its manifest entry (``sim.runs.plan.hero_facts``):
    ``[(group, [option, ...]), ...]``; for manifests written before groups were
    recorded, derived from the loadout names (groups named ``gear 1``, ``gear 2``...)."""
    if info.get("groups"):
        return [(g, list(o)) for g, o in info["groups"]]
    parts = [lo.split("+") for lo in info["loadouts"] if lo]
    if not parts:
        return []
    out = []
    for i in range(len(parts[0])):
        opts = list(dict.fromkeys(p[i] for p in parts))
        out.append((f"gear {i + 1}", opts))
    return out


def matrix_loadout_tables(s: pd.DataFrame, hero_info: dict, alpha: float = ALPHA) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Best loadout per opponent and gear effects for every hero with choice groups in a
    matrix run (mirror games excluded). ``s``: :func:`reports.tables.sides`;
    ``hero_info``: the manifest's heroes. Returns ``(best, effects)`` as in
    :func:`loadout_tests` and :func:`gear_effects`, each with a leading ``hero``
    column (empty frames when no hero has loadouts)."""
    bests, effs = [], []
    for hero, info in hero_info.items():
        groups = hero_groups(info)
        rows = s[(s["hero"] == hero) & ~s["mirror"]]
        if not groups or len(rows) == 0:
            continue
        scores = loadout_scores(rows, list(info["loadouts"]))
        _, _, best = loadout_tests(scores, alpha)
        eff, _ = gear_effects(scores, groups, alpha)
        bests.append(best.assign(hero=hero))
        effs.append(eff.assign(hero=hero))
    if not bests:
        return pd.DataFrame(columns=["hero", "opponent", "best_loadout"]), pd.DataFrame(
            columns=["hero", "opponent", "group", "option", "reference", "effect"])
    best, eff = pd.concat(bests, ignore_index=True), pd.concat(effs, ignore_index=True)
    return best[["hero"] + list(best.columns[:-1])], eff[["hero"] + list(eff.columns[:-1])]
