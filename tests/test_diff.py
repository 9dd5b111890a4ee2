"""`unmatched-sim diff` and `report --against` (reports/diff.py): two small matrix runs of
three heroes on one battlefield, standard AI against greedy AI."""
import json
import shutil

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from helpers.store import mirror_only_run
from statsmodels.stats.multitest import multipletests

from reports.diff import build_diff, diff_runs
from sim.cli import main
from sim.runs.matrix import run_matrix
from sim.runs.store import read_games

HEROES = ["alice", "medusa", "sinbad"]


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """Two matrix runs (40 games per pair, Soho) with the standard and the greedy AI, and a
    two-hero greedy run (other hero set)."""
    base = tmp_path_factory.mktemp("diff")
    for ai in ("standard", "greedy"):
        run_matrix(base / ai, games=40, heroes=HEROES, battlefields=["soho"], ai=ai, seed=5, jobs=1)
    run_matrix(base / "pair", games=10, heroes=["medusa", "sinbad"], battlefields=["soho"], ai="greedy", seed=5,
               jobs=1)
    return base


def _cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def _pandas_scores(run):
    """Per hero: games against the other heroes and the pooled score, from read_games."""
    g = read_games(run)
    g = g[g["p1_hero"] != g["p2_hero"]]
    score1 = np.where(g["winner"] == 0, 1.0, np.where(g["winner"] < 0, 0.5, 0.0))
    rows = pd.concat([pd.DataFrame({"hero": g["p1_hero"], "s": score1}),
                      pd.DataFrame({"hero": g["p2_hero"], "s": 1 - score1})])
    return rows.groupby("hero")["s"].agg(["size", "mean"])


def _pandas_cells(run):
    g = read_games(run)
    g = g[g["p1_hero"] != g["p2_hero"]]
    s1 = np.where(g["winner"] == 0, 1.0, np.where(g["winner"] < 0, 0.5, 0.0))
    lo = g["p1_hero"] < g["p2_hero"]
    df = pd.DataFrame({"hero": np.where(lo, g["p1_hero"], g["p2_hero"]),
                       "opponent": np.where(lo, g["p2_hero"], g["p1_hero"]), "s": np.where(lo, s1, 1 - s1)})
    return df.groupby(["hero", "opponent"])["s"].agg(["size", "mean"])


def test_field_scores_and_cells_equal_pandas_on_the_stored_games(runs):
    d = diff_runs(runs / "standard", runs / "greedy")
    h = d.tables["diff_heroes"].set_index("hero")
    assert sorted(h.index) == HEROES
    for s, run in (("a", "standard"), ("b", "greedy")):
        ref = _pandas_scores(runs / run)
        assert (h[f"games_{s}"] == ref["size"].reindex(h.index)).all()
        assert h[f"games_{s}"].eq(80).all()           # 2 opponents x 40 games
        np.testing.assert_allclose(h[f"score_{s}"], ref["mean"].reindex(h.index), atol=1e-12)
        assert ((h[f"lo_{s}"] <= h[f"score_{s}"]) & (h[f"score_{s}"] <= h[f"hi_{s}"])).all()
    np.testing.assert_allclose(h["change"], h["score_b"] - h["score_a"], atol=1e-12)
    pa_, pb_ = h["score_a"], h["score_b"]
    se = np.sqrt(pa_ * (1 - pa_) / 80 + pb_ * (1 - pb_) / 80)
    np.testing.assert_allclose(h["change_hi"] - h["change"], 1.959963984540054 * se, atol=1e-12)
    c = d.tables["diff_cells"].set_index(["hero", "opponent"])
    assert len(c) == 3 and (c["battlefield"] == "all").all()
    for s, run in (("a", "standard"), ("b", "greedy")):
        ref = _pandas_cells(runs / run)
        np.testing.assert_allclose(c[f"score_{s}"], ref["mean"].reindex(c.index), atol=1e-12)
        assert (c[f"games_{s}"] == 40).all()
    # the ranking side by side, and Spearman from scipy on the field scores
    from scipy.stats import spearmanr
    rho = spearmanr(h["score_a"], h["score_b"]).statistic
    assert d.spearman[0] == pytest.approx(rho)
    rk = d.tables["diff_ranking"]
    assert list(rk["hero_a"]) == list(h["score_a"].sort_values(ascending=False, kind="stable").index) or \
        h["score_a"].duplicated().any()


def test_holm_correction_equals_statsmodels(runs):
    d = diff_runs(runs / "standard", runs / "greedy", by_battlefield=True)
    for name in ("diff_heroes", "diff_cells", "diff_cells_by_battlefield"):
        t = d.tables[name]
        ok = t["p"].notna().to_numpy()
        rej, adj, _, _ = multipletests(t["p"][ok], alpha=0.05, method="holm")
        np.testing.assert_allclose(t["p_holm"][ok], adj, atol=1e-12)
        assert (t["significant"][ok].to_numpy() == rej).all()
    # a flip needs both Wilson intervals on opposite sides of 0.5
    c = d.tables["diff_cells"]
    expect = ((c["lo_a"] > .5) & (c["hi_b"] < .5)) | ((c["hi_a"] < .5) & (c["lo_b"] > .5))
    assert (c["flip"] == expect).all()


def test_a_run_diffed_with_itself_changes_nothing(runs, tmp_path):
    rep = build_diff(runs / "standard", runs / "standard", tmp_path / "self", by_battlefield=True)
    d = rep.diff
    for name in ("diff_heroes", "diff_cells", "diff_cells_by_battlefield"):
        t = d.tables[name]
        assert (t["change"] == 0).all() and not t["significant"].any() and (t["p"] == 1).all()
    assert not d.tables["diff_cells"]["flip"].any()
    assert d.spearman[0] == pytest.approx(1.0)
    assert "0 with a significant change" in rep.summary and "0 flipped" in rep.summary
    for name in ("diff_heroes", "diff_ranking", "diff_cells", "diff_cells_by_battlefield"):
        assert rep.csv[name].exists()
        pd.testing.assert_frame_equal(pd.read_csv(rep.csv[name]).drop(columns=["winner_a", "winner_b"],
                                                                      errors="ignore"),
                                      pd.read_parquet(rep.parquet[name]).drop(columns=["winner_a", "winner_b"],
                                                                              errors="ignore"),
                                      check_dtype=False)
    assert rep.png["diff_heroes"].stat().st_size > 0 and rep.png["diff_cells"].stat().st_size > 0
    assert "Spearman" in rep.html.read_text(encoding="utf-8")


def test_diff_command_writes_beside_run_b_and_prints_the_summary(runs, monkeypatch):
    from helpers.plot_text import figure_name, record_report_figures, text_overlaps
    figs = record_report_figures(monkeypatch)
    r = _cli("diff", runs / "standard", runs / "greedy")
    assert r.exit_code == 0, r.output
    assert len(figs) == 2 and all(text_overlaps(f) == [] for f in figs), [figure_name(f) for f in figs]
    out = runs / "diff_standard_greedy"
    assert (out / "diff.html").exists() and (out / "tables" / "diff_cells.csv").exists()
    assert (out / "plots" / "diff_cells.png").exists()
    assert 'ai: A "standard", B "greedy"' in r.output and "Spearman" in r.output
    assert "score_a" in r.output and "change" in r.output and "p_holm" in r.output
    h = pd.read_csv(out / "tables" / "diff_heroes.csv")
    assert {"score_a", "lo_a", "hi_a", "score_b", "change", "change_lo", "change_hi", "p_holm"} <= set(h.columns)
    r = _cli("diff", runs / "standard", runs / "greedy", "--json", "--no-html", "--out", runs / "j")
    assert r.exit_code == 0, r.output
    j = json.loads(r.stdout)
    assert j["a"]["ai"] == "standard" and j["b"]["ai"] == "greedy" and len(j["heroes"]) == 3
    assert len(j["cells"]) == 3 and "html" not in j["files"] and not (runs / "j" / "diff.html").exists()


def _copy_run(src, dst, **changes):
    shutil.copytree(src, dst)
    m = json.loads((dst / "manifest.json").read_text())
    for k, v in changes.items():
        if k == "mode":
            m["settings"]["mode"] = v
        else:
            m[k] = v
    (dst / "manifest.json").write_text(json.dumps(m))
    return dst


def test_bad_inputs_are_one_line_errors(runs, tmp_path):
    a = runs / "standard"
    (tmp_path / "file.txt").write_text("x")
    (tmp_path / "empty").mkdir()
    teams = _copy_run(a, tmp_path / "teams", mode="teams")
    old = _copy_run(a, tmp_path / "old", format=2)
    cases = [
        ((a, tmp_path / "nonesuch"), "no such folder"),
        ((a, tmp_path / "file.txt"), "a file, not a run folder"),
        ((a, tmp_path / "empty"), "not a run folder"),
        ((a, teams), "a teams run; diff compares two matrix run folders"),
        ((old, old), "a run folder of format 2"),
        ((a, runs / "pair"), "different heroes (only in"),
    ]
    for args, msg in cases:
        r = _cli("diff", *args, "--out", tmp_path / "o")
        assert r.exit_code == 1, r.output
        assert msg in r.output and "Traceback" not in r.output
        assert len(r.output.strip().splitlines()) == 1, r.output
    r = _cli("diff", a, runs / "pair", "--out", tmp_path / "o")
    assert "alice" in r.output and "--common" in r.output
    r = _cli("diff", a, runs / "pair", "--common", "--out", tmp_path / "common")
    assert r.exit_code == 0, r.output
    assert "compared on the 2 common heroes" in r.output
    h = pd.read_csv(tmp_path / "common" / "tables" / "diff_heroes.csv")
    assert sorted(h["hero"]) == ["medusa", "sinbad"] and (h["games_a"] == 40).all()
    r = _cli("diff", a, a, "--out", a)     # never into a run folder
    assert r.exit_code == 1 and "is a run folder" in r.output
    afile = tmp_path / "afile"
    afile.write_text("mine\n")
    for out in (afile, afile / "sub"):     # a file, or a folder inside one: the one line matrix gives
        r = _cli("diff", a, a, "--out", out)
        assert r.exit_code == 1 and r.output.strip().splitlines() == [
            f"Error: {afile} is a file, not a folder; choose another --out"], r.output
    assert afile.read_text() == "mine\n"


def test_an_unfinished_run_warns_on_the_first_line(runs, tmp_path):
    part = _copy_run(runs / "greedy", tmp_path / "part", status="running", games_total=480)
    r = _cli("diff", runs / "standard", part, "--out", tmp_path / "o")
    assert r.exit_code == 0, r.output
    first = r.output.splitlines()[0]
    assert first.startswith("warning: ") and "unfinished" in first and "240 of 480 games stored" in first


def test_an_unfinished_run_holding_only_mirrors_diffs_with_empty_scores(runs, tmp_path):
    """B stopped after its first stored chunk (4 Medusa mirror games): the warning line,
    then the diff of the seatings both runs hold (the mirror alone), Medusa and Sinbad without a
    score or rank in either run."""
    part = mirror_only_run(tmp_path / "part")
    r = _cli("diff", runs / "pair", part, "--out", tmp_path / "o")
    assert r.exit_code == 0 and r.exception is None, r.output
    lines = r.output.splitlines()
    assert lines[0].startswith("warning: ") and "4 of 24 games stored" in lines[0]
    rows = {ln.split()[0]: ln for ln in lines if ln.startswith(("Medusa ", "Sinbad "))}
    assert rows["Medusa"].endswith("→n/a") and rows["Sinbad"].endswith("→n/a") and "n/a [, ]" in rows["Medusa"]
    for s, run in (("A", runs / "pair"), ("B", part)):
        assert (f"   no game against the other heroes on the seatings compared in {s} ({run}) for Medusa, Sinbad: no "
                "score or rank there (n/a)") in lines
    assert any(ln.startswith("   compared on the 1 seating ") and "of 4 in A and 1 in B" in ln for ln in lines), lines
    h = pd.read_csv(tmp_path / "o" / "tables" / "diff_heroes.csv").set_index("hero")
    assert h["games_a"].tolist() == [0, 0] and h["games_b"].tolist() == [0, 0]
    assert h["score_b"].isna().all() and h["rank_b"].isna().all() and h["rank_a"].isna().all()


def test_report_against_marks_ai_sensitive_cells(runs, tmp_path):
    run = _copy_run(runs / "standard", tmp_path / "std")
    d = diff_runs(run, runs / "greedy")
    sig = d.tables["diff_cells"]
    r = _cli("report", run, "--against", runs / "greedy")
    assert r.exit_code == 0, r.output
    assert "AI profile: standard (both seats)." in r.output
    k = int(sig["significant"].sum())
    assert f"† AI-sensitive: {k} cell{'' if k == 1 else 's'} whose score" in r.output
    t = pd.read_csv(run / "report" / "tables" / "ai_sensitive.csv")
    assert len(t) == 2 * int(sig["significant"].sum())
    page = (run / "report" / "report.html").read_text(encoding="utf-8")
    assert "matrix report (AI profile standard)" in page and "AI-sensitive" in page
    r = _cli("report", run)    # without --against: no stale marks
    assert r.exit_code == 0 and "AI-sensitive" not in r.output
    assert not (run / "report" / "tables" / "ai_sensitive.csv").exists()
    r = _cli("report", run, "--against", tmp_path / "nonesuch")
    assert r.exit_code == 2 and "no such folder" in r.output and "Traceback" not in r.output


def test_report_against_a_run_of_the_same_ai_says_what_it_measures_instead(runs, tmp_path):
    """Issue 31: `report --against` a run of the same AI said 'AI-sensitive: 0 cells' as if the AI
    had been tested. It now says the AIs are the same and what the comparison measures."""
    run = _copy_run(runs / "standard", tmp_path / "std")
    other_seed = tmp_path / "seed6"
    run_matrix(other_seed, games=40, heroes=HEROES, battlefields=["soho"], ai="standard", seed=6, jobs=1)
    r = _cli("report", run, "--against", other_seed)
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    i = next(i for i, ln in enumerate(lines) if ln.startswith("† AI-sensitive: "))
    assert f"against {other_seed} (AI standard, 240 games)" in lines[i]
    note = ("both runs used the AI profile standard and differ only in their seed: the comparison measures sampling "
            "noise only, not the AI. Give --against a run of another --ai to find the AI-sensitive cells.")
    assert lines[i + 1] == f"Note: {note}"
    assert f"<b>Note</b>: {note}" in (run / "report" / "report.html").read_text(encoding="utf-8")
    r = _cli("report", run, "--against", runs / "standard")          # the same games
    assert r.exit_code == 0, r.output
    assert ("Note: both runs used the AI profile standard with the same settings and seed: they hold the same games, "
            "so no cell can change (the comparison does not measure the AI).") in r.output.splitlines()
    assert "† AI-sensitive: 0 cells whose score" in r.output
    r = _cli("report", run, "--against", runs / "greedy")            # other AIs: no note
    assert r.exit_code == 0 and "AI-sensitive" in r.output and "Note:" not in r.output, r.output
    assert "<b>Note</b>" not in (run / "report" / "report.html").read_text(encoding="utf-8")


def test_spearman_p_is_exact_for_few_heroes():
    """Three heroes in the same order: rho 1, and the exact two-sided p is 2/3! = 1/3 (scipy's
    t approximation says ~0); five with one adjacent swap: 10/5!."""
    from reports.diff import spearman
    rho, p = spearman(pd.DataFrame({"score_a": [0.1, 0.2, 0.3], "score_b": [0.2, 0.3, 0.5]}))
    assert rho == pytest.approx(1.0) and p == pytest.approx(1 / 3)
    rho, p = spearman(pd.DataFrame({"score_a": [0.1, 0.2, 0.3, 0.4, 0.5], "score_b": [0.5, 0.6, 0.7, 0.9, 0.8]}))
    assert rho == pytest.approx(0.9) and p == pytest.approx(2 * 5 / 120)   # identity and 4 adjacent swaps, both tails


def test_an_interrupted_run_against_the_same_run_finished_stars_nothing(runs, tmp_path):
    """Issue 31: a run interrupted after its first matchups, diffed against the same command finished
    (same settings and seed), starred Medusa's field score (72.5% -> 46.2%, p_holm 0.013): A's score was
    over Alice alone, B's over Alice and Sinbad. Both are now scored on the seatings both runs hold,
    which here are the same games: no change at all, and a note says so."""
    from sim.runs.errors import RunInterrupted

    stored = []

    def stop(name, done):
        stored.append(name)
        if len(stored) == 8:
            raise KeyboardInterrupt
    part = tmp_path / "part"
    with pytest.raises(RunInterrupted):
        run_matrix(part, games=40, heroes=HEROES, battlefields=["soho"], ai="standard", seed=5, jobs=1,
                   chunk_size=10, task_games=10, after_chunk=stop)
    r = _cli("diff", part, runs / "standard", "--out", tmp_path / "o")
    assert r.exit_code == 0, r.output
    d = diff_runs(part, runs / "standard")
    h, c = d.tables["diff_heroes"], d.tables["diff_cells"]
    scored = h[h["games_a"] > 0]
    assert len(scored) >= 2 and (scored["change"] == 0).all() and not h["significant"].any()
    assert not c["significant"].any() and not c["flip"].any()
    assert (h["games_a"] == h["games_b"]).all() and (c["games_a"] == c["games_b"]).all()
    assert "*" not in "".join(ln for ln in r.output.splitlines() if ln.startswith(("Alice ", "Medusa ", "Sinbad ")))
    note = next(n for n in d.notes if n.startswith("compared on the "))
    assert "and 9 in B" in note
    few = c[~c["enough_games"]]
    page = (tmp_path / "o" / "diff.html").read_text(encoding="utf-8")
    assert page.count('<td class="txt">too few games</td>') == len(few) + int((~h["enough_games"]).sum()) > 0
    assert f"   {note}" in r.output.splitlines(), [ln for ln in r.output.splitlines() if "compared on" in ln]


def test_report_against_a_run_of_other_heroes_says_it_compares_the_common_ones(runs, tmp_path):
    """Issue 31: `report --against` a run of other heroes was silent (diff refuses such a pair); it marks the
    cells of the heroes both runs have, as `diff --common` compares them, and says so in one line."""
    run = _copy_run(runs / "standard", tmp_path / "std")
    r = _cli("report", run, "--against", runs / "pair")
    assert r.exit_code == 0, r.output
    note = (f"{runs / 'pair'} has other heroes (only in this run: Alice): the AI-sensitive cells are looked for "
            "among the 2 heroes both runs have; the other cells are not checked.")
    assert f"Note: {note}" in r.stdout.splitlines()
    assert f"<b>Note</b>: {note}" in (run / "report" / "report.html").read_text(encoding="utf-8")
    t = pd.read_csv(run / "report" / "tables" / "ai_sensitive.csv")
    assert "alice" not in set(t["hero"]) | set(t["opponent"])
    r = _cli("report", run, "--against", runs / "greedy")            # the same heroes: no such note
    assert r.exit_code == 0 and "has other heroes" not in r.output
