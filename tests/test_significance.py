"""Significance methods of the loadouts and compare reports against hand-computed values."""
import math

import numpy as np
import pandas as pd
import pytest

from reports.loadouts import gear_effects, loadout_scores, loadout_tests
from reports.stats import holm, homogeneity_test, paired_difference, pairwise_tests, two_proportion_test


def test_homogeneity_chi_square_matches_hand_computation():
    # 2 x 2: (10 wins, 20 losses) vs (20, 10). Expected 15 in every cell:
    # chi2 = 4 * 5**2 / 15 = 6.6667, df 1, p = P(chi2_1 > 6.6667) = erfc(sqrt(6.6667 / 2))
    t = homogeneity_test([10, 20], [30, 30])
    assert t.statistic == pytest.approx(20 / 3)
    assert t.df == 1
    assert t.pvalue == pytest.approx(math.erfc(math.sqrt(10 / 3)), rel=1e-9)
    assert t.pvalue == pytest.approx(0.009823, abs=1e-6)
    # 3 groups of 100: 50, 60, 40 wins. Column totals 150 / 150, expected 50 each:
    # chi2 = (0 + 100 + 100 + 0 + 100 + 100) / 50 = 8, df 2, p = exp(-8 / 2)
    t = homogeneity_test([50, 60, 40], [100, 100, 100])
    assert t.statistic == pytest.approx(8.0)
    assert t.df == 2 and t.pvalue == pytest.approx(math.exp(-4.0))


def test_homogeneity_edge_cases():
    assert homogeneity_test([0, 0, 0], [10, 20, 30]).pvalue == 1.0      # nobody ever wins: no evidence
    assert homogeneity_test([5, 5], [5, 5]).pvalue == 1.0
    assert homogeneity_test([3, 3], [6, 6]).statistic == 0.0
    t = homogeneity_test([3, 0], [6, 0])                                # a group without games is dropped
    assert math.isnan(t.pvalue)
    # a draw counts half: 10 wins + 2 draws = 11 points is the same table as 11 wins
    assert homogeneity_test([11, 20], [30, 30]).statistic == pytest.approx(
        homogeneity_test([10 + 0.5 * 2, 20], [30, 30]).statistic)
    with pytest.raises(ValueError):
        homogeneity_test([11, 2], [10, 10])


def test_two_proportion_z_test():
    # 60/100 vs 45/100: pooled 0.525, se = sqrt(0.525 * 0.475 * (1/100 + 1/100)) = 0.0706222
    # z = 0.15 / 0.0706222 = 2.12398, p = erfc(z / sqrt 2) = 0.033672
    t = two_proportion_test(60, 100, 45, 100)
    assert t.statistic == pytest.approx(0.15 / math.sqrt(0.525 * 0.475 * 0.02))
    assert t.pvalue == pytest.approx(0.033672, abs=1e-6)
    assert two_proportion_test(45, 100, 60, 100).statistic == pytest.approx(-t.statistic)
    assert two_proportion_test(0, 10, 0, 20).pvalue == 1.0
    assert math.isnan(two_proportion_test(1, 0, 1, 2).pvalue)


def test_holm_correction_textbook():
    # sorted 0.005, 0.01, 0.03, 0.04 times 4, 3, 2, 1 = 0.02, 0.03, 0.06, 0.04 -> monotone 0.02, 0.03, 0.06, 0.06
    adj, rej = holm([0.01, 0.04, 0.03, 0.005])
    assert adj == pytest.approx([0.03, 0.06, 0.06, 0.02])
    assert rej.tolist() == [True, False, False, True]
    adj, rej = holm([0.01, np.nan, 0.02])              # NaN is outside the family (2 tests)
    assert adj[0] == pytest.approx(0.02) and math.isnan(adj[1]) and adj[2] == pytest.approx(0.02)
    assert rej.tolist() == [True, False, True]
    assert holm([0.6, 0.9])[0] == pytest.approx([1.0, 1.0])   # capped at 1


def test_pairwise_tests_are_holm_corrected_over_the_pairs():
    df = pairwise_tests(["a", "b", "c"], [60, 45, 50], [100, 100, 100])
    assert list(zip(df["a"], df["b"])) == [("a", "b"), ("a", "c"), ("b", "c")]
    assert df["difference"].tolist() == pytest.approx([0.15, 0.10, -0.05])
    assert df["p"].iloc[0] == pytest.approx(0.033672, abs=1e-6)
    assert df["p_holm"].iloc[0] == pytest.approx(3 * df["p"].iloc[0])     # the smallest of 3 p-values
    assert not df["significant"].any()                                   # 0.101 > 0.05 after correction


def test_paired_difference_matches_hand_computation():
    # differences 1,1,1,0,0,-1,1,0,1,0: mean 0.4, sum of squares about the mean 4.4, sd sqrt(4.4 / 9)
    d = np.array([1, 1, 1, 0, 0, -1, 1, 0, 1, 0], float)
    r = paired_difference(np.zeros(10), d)
    sd = math.sqrt(4.4 / 9)
    se = sd / math.sqrt(10)
    assert (r.n, r.discordant) == (10, 6)
    assert r.mean == pytest.approx(0.4) and r.sd == pytest.approx(sd)
    assert r.t == pytest.approx(0.4 / se)                      # 1.80907
    assert r.pvalue == pytest.approx(0.10389, abs=5e-5)        # t table, 9 df
    q = 2.262157                                               # t(0.975, 9)
    assert (r.lo, r.hi) == (pytest.approx(0.4 - q * se, abs=1e-5), pytest.approx(0.4 + q * se, abs=1e-5))
    # the same pairs given as baseline/variant scores (draws count half)
    r = paired_difference([0, 0.5, 1, 0.5], [1, 1, 0.5, 0.5])     # differences 1, 0.5, -0.5, 0
    assert (r.mean, r.discordant) == (pytest.approx(0.25), 3)
    assert r.sd == pytest.approx(math.sqrt((0.75 ** 2 + 0.25 ** 2 + 0.75 ** 2 + 0.25 ** 2) / 3))


def test_paired_difference_without_any_change_is_not_significant():
    s = np.array([1, 0, 0.5, 1, 0])
    r = paired_difference(s, s)
    assert (r.mean, r.lo, r.hi, r.pvalue, r.discordant) == (0.0, 0.0, 0.0, 1.0, 0)
    with pytest.raises(ValueError):
        paired_difference([1, 0], [1])


def _sides(wins: dict, games: int = 100, opponent="medusa", draws=None) -> pd.DataFrame:
    """Synthetic per-game rows of a hero: ``wins[loadout]`` wins out of ``games``."""
    rows = []
    for lo, w in wins.items():
        d = (draws or {}).get(lo, 0)
        for i in range(games):
            win, draw = int(i < w), int(w <= i < w + d)
            rows.append({"hero": "geralt", "loadout": lo, "opponent": opponent, "win": win, "draw": draw,
                         "loss": 1 - win - draw, "score": win + 0.5 * draw})
    return pd.DataFrame(rows)


GROUPS = [("sword", ["steel", "silver"]), ("potion", ["blizzard", "owl"])]
LOADOUTS = ["steel+blizzard", "steel+owl", "silver+blizzard", "silver+owl"]


def test_gear_main_effects_match_hand_computation():
    s = _sides({"steel+blizzard": 50, "silver+blizzard": 60, "steel+owl": 40, "silver+owl": 55})
    sc = loadout_scores(s, LOADOUTS)
    assert sc[sc["opponent"] == "all"]["var"].tolist() == pytest.approx([0.25, 0.24, 0.24, 0.2475])  # p(1 - p)
    eff, combos = gear_effects(sc, GROUPS)
    e = eff[eff["opponent"] == "all"].set_index("group")
    # silver - steel: ((60 - 50) + (55 - 40)) / 2 / 100 = 0.125;
    # se = sqrt((0.24 + 0.25) / 100 + (0.2475 + 0.24) / 100) / 2 = 0.0494343, z = 2.52861, p = 0.011451
    se = math.sqrt(0.0049 + 0.004875) / 2
    assert e.loc["sword", "effect"] == pytest.approx(0.125)
    assert e.loc["sword", "se"] == pytest.approx(se)
    assert e.loc["sword", "p"] == pytest.approx(math.erfc(0.125 / se / math.sqrt(2)))
    assert e.loc["sword", "p"] == pytest.approx(0.011451, abs=1e-5)
    assert e.loc["sword", "lo"] == pytest.approx(0.125 - 1.959964 * se)
    # owl - blizzard: ((40 - 50) + (55 - 60)) / 2 / 100 = -0.075, same se; z = -1.51717, p = 0.129225
    assert e.loc["potion", "effect"] == pytest.approx(-0.075)
    assert e.loc["potion", "p"] == pytest.approx(0.129225, abs=1e-5)
    # Holm over the two contrasts: 2 x 0.011451 = 0.0229 and max(0.12921, 0.0229)
    assert e.loc["sword", "p_holm"] == pytest.approx(2 * e.loc["sword", "p"])
    assert e.loc["potion", "p_holm"] == pytest.approx(e.loc["potion", "p"])
    assert e["significant"].tolist() == [True, False]
    c = combos[(combos["opponent"] == "all") & (combos["group"] == "sword")]
    assert c["fixed"].tolist() == ["potion=blizzard", "potion=owl"]
    assert c["difference"].tolist() == pytest.approx([0.10, 0.15])


def test_best_loadout_and_ties():
    s = _sides({"steel+blizzard": 40, "silver+blizzard": 80, "steel+owl": 30, "silver+owl": 76}, games=200)
    sc = loadout_scores(s, LOADOUTS)
    tests, pairs, best = loadout_tests(sc)
    b = best.set_index("opponent").loc["all"]
    assert b["best_loadout"] == "silver+blizzard" and b["score"] == pytest.approx(0.40)
    assert b["runner_up"] == "silver+owl" and b["gap"] == pytest.approx(0.02)
    # 80 vs 76 of 200: z = 0.02 / sqrt(0.39 * 0.61 / 100) = 0.41 -> not significant: a tie;
    # 80 vs 40: z = 0.2 / sqrt(0.3 * 0.7 / 100) = 4.36, p 1.3e-5: significantly worse even after Holm
    assert b["ties"] == "silver+owl" and b["n_ties"] == 1 and b["worst_loadout"] == "steel+owl"
    t = tests.set_index("opponent").loc["all"]
    # 226 points of 800 -> expected 56.5 points and 143.5 losses per loadout;
    # squared deviations 23.5^2 + 19.5^2 + 16.5^2 + 26.5^2 = 1907 in both columns
    assert t["chi2"] == pytest.approx(1907 / 56.5 + 1907 / 143.5)
    assert t["df"] == 3 and bool(t["significant"])
    assert len(pairs[pairs["opponent"] == "all"]) == 6
    # draws count half a win in the score
    s2 = _sides({"steel+blizzard": 50, "silver+blizzard": 50, "steel+owl": 50, "silver+owl": 40},
                draws={"silver+owl": 30})
    sc2 = loadout_scores(s2, LOADOUTS).set_index(["opponent", "loadout"])
    assert sc2.loc[("all", "silver+owl"), "score"] == pytest.approx(0.55)
    assert sc2.loc[("all", "silver+owl"), "var"] == pytest.approx((40 + 30 * 0.25) / 100 - 0.55 ** 2)


def test_wilson_interval_holds_the_share_at_a_sweep():
    """At 0 or n wins the interval still contains the observed share, so error bars are
    never negative, so a 20-0 matrix cell still plots."""
    from reports.stats import wilson
    lo, hi = wilson(np.array([0.0, 20.0, 7.0]), np.array([20, 20, 20]))
    share = np.array([0.0, 1.0, 0.35])
    assert np.all(lo <= share) and np.all(share <= hi)
    assert lo[0] == 0.0 and hi[1] == 1.0
    assert hi[0] == pytest.approx(0.1611, abs=1e-4) and lo[1] == pytest.approx(0.8389, abs=1e-4)


def test_sample_guard_is_cochrans_rule_at_the_pooled_score():
    """5 expected wins and 5 expected losses per group at the pooled score: 10 games a group
    at 50%, 5 / 0.21875 -> 23 at 21 points of 96 (loadouts geralt --games 50 against
    Sherlock Holmes), none enough when every game had the same result."""
    from reports.stats import MIN_EXPECTED, sample_guard
    assert MIN_EXPECTED == 5
    g = sample_guard([6, 7, 0, 4, 0, 2, 0, 2], [12] * 8)
    assert (g.games, g.needed, g.enough) == (12, 23, False)
    assert g.reason("a loadout per opponent") == "too few games (12 a loadout per opponent; at least 23 for a verdict)"
    assert sample_guard([6, 6], [12, 12]).needed == 10 and sample_guard([5, 5], [10, 10]).enough
    assert not sample_guard([4.5, 5], [10, 9]).enough                       # the fewest games count
    assert sample_guard([0, 0], [500, 500]).needed == math.inf
    assert sample_guard([0, 0], [12, 12]).reason("a loadout") == (
        "too few games (12 a loadout; every game had the same result, so no verdict)")
    assert sample_guard([60, 45], [100, 100]).reason("a run") == ""
    with pytest.raises(ValueError):
        sample_guard([1, 2], [3])


def test_a_small_sample_gets_no_verdict_where_the_bare_test_would_give_one():
    """12 games a loadout, 7 points of 48: the chi-square alone says the loadouts differ
    (p 0.003), but an expected 1.75 wins a loadout is far below Cochran's 5: 'too few games',
    the row leaves the Holm family, and so does every pair and gear effect with too few."""
    s = _sides({"steel+blizzard": 0, "silver+blizzard": 1, "steel+owl": 0, "silver+owl": 6}, games=12)
    sc = loadout_scores(s, LOADOUTS)
    assert homogeneity_test(sc["points"][:4], sc["games"][:4]).pvalue < 0.01
    tests, pairs, best = loadout_tests(sc)
    t = tests.set_index("opponent").loc["medusa"]
    assert not t["enough_games"] and not t["significant"] and math.isnan(t["p_holm"]) and t["games_needed"] == 35
    assert t["too_few"] == "too few games (12 a loadout per opponent; at least 35 for a verdict)"
    b = best.set_index("opponent").loc["medusa"]
    assert not b["differ"] and b["too_few"] == t["too_few"]
    assert not pairs["significant"].any() and not pairs["enough_games"].any() and pairs["p_holm"].isna().all()
    eff, _ = gear_effects(sc, GROUPS)
    assert not eff["enough_games"].any() and not eff["significant"].any()
    # the same scores at 10 times the games: the verdict stands
    sc10 = loadout_scores(_sides({"steel+blizzard": 0, "silver+blizzard": 10, "steel+owl": 0, "silver+owl": 60},
                                 games=120), LOADOUTS)
    t10 = loadout_tests(sc10)[0].set_index("opponent").loc["medusa"]
    assert t10["enough_games"] and t10["significant"] and t10["too_few"] == ""


def test_gear_by_combination_intervals_are_never_of_zero_width_and_a_missing_cell_is_nan():
    """0 wins of 12 against 0 of 12 is a difference of 0 with Newcombe's interval from the
    two Wilson intervals, not 0.0 [0.0, 0.0]; a loadout without games is a row of NaN with
    its count of 0."""
    from statsmodels.stats.proportion import confint_proportions_2indep
    from reports.stats import wilson
    s = _sides({"steel+blizzard": 0, "silver+blizzard": 0, "steel+owl": 3, "silver+owl": 12}, games=12)
    s = s[~((s["loadout"] == "steel+owl") & (s["opponent"] == "medusa"))]       # never played against medusa
    sc = loadout_scores(pd.concat([s, _sides({lo: 6 for lo in LOADOUTS}, 12, "sinbad")]), LOADOUTS)
    _, combos = gear_effects(sc, GROUPS)
    c = combos[(combos["opponent"] == "medusa") & (combos["group"] == "sword")].set_index("fixed")
    z = c.loc["potion=blizzard"]                 # silver 0/12 against steel 0/12
    hi0 = wilson(0, 12)[1]
    assert (z["games"], z["reference_games"], z["difference"]) == (12, 12, 0.0)
    assert z["lo"] == pytest.approx(-hi0) and z["hi"] == pytest.approx(hi0) and hi0 == pytest.approx(0.2425, abs=1e-4)
    gone = c.loc["potion=owl"]                   # silver+owl 12/12 against steel+owl: no games
    assert (gone["games"], gone["reference_games"]) == (12, 0)
    assert math.isnan(gone["difference"]) and math.isnan(gone["lo"]) and math.isnan(gone["hi"])
    d = combos[(combos["opponent"] == "sinbad")].iloc[0]              # 6/12 against 6/12
    assert (d["lo"], d["hi"]) == pytest.approx(confint_proportions_2indep(6, 12, 6, 12, method="newcomb"))
    assert not ((combos["lo"] == combos["hi"]) & combos["difference"].notna()).any()


def test_compare_gives_no_verdict_on_too_few_paired_games():
    from reports.compare import compare_table
    n = 12
    pairs = pd.DataFrame({"opponent": ["medusa"] * n, "baseline": [0.0] * n, "variant": [1.0] * 3 + [0.0] * (n - 3)})
    t = compare_table(pairs).set_index("opponent")
    # 3 points of 24 over both runs: 5 / (3 / 24) = 40 paired games for a verdict
    assert t.loc["medusa", "verdict"] == "too few games (12 paired games; at least 40 for a verdict)"
    assert t.loc["all", "verdict"] == "too few games (12 paired games over all opponents; at least 40 for a verdict)"
    assert not t["significant"].any() and t["p_holm"].isna().all() and t["p"].notna().all()
    big = pd.DataFrame({"opponent": ["medusa"] * 200, "baseline": [0.0] * 200,
                        "variant": [1.0] * 60 + [0.0] * 140})
    assert compare_table(big).set_index("opponent").loc["medusa", "verdict"] == "significant rise"
