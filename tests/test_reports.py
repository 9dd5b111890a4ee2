"""Reports: Wilson intervals, Bradley–Terry ratings, tables, plots and the HTML report
built from a stored run folder."""
import math

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner
from conftest import write_gorgon
from helpers.store import mirror_only_run

from reports import build_report, compute_tables
from reports.stats import bradley_terry, wilson
from reports.tables import TABLE_NAMES, seatings
from sim.cli import main
from sim.runs.matrix import run_matrix
from sim.runs.store import read_games

PNG = b"\x89PNG\r\n\x1a\n"


# ------------------------------------------------------------------ statistics


def test_wilson_interval_known_values():
    lo, hi = wilson(50, 100)
    assert (round(lo, 4), round(hi, 4)) == (0.4038, 0.5962)
    lo, hi = wilson(0, 10)
    assert lo == 0.0 and round(hi, 4) == 0.2775
    lo, hi = wilson(81, 100)   # textbook: 0.7222 .. 0.8749
    assert (round(lo, 4), round(hi, 4)) == (0.7222, 0.8749)
    # closed form with a half-point count (a draw counts 0.5)
    s, n, z = 30.5, 60, 1.959963984540054
    p = s / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z / (1 + z * z / n) * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    assert wilson(s, n) == pytest.approx((centre - half, centre + half), abs=1e-12)
    lo, hi = wilson(np.array([5, 0]), np.array([10, 0]))
    assert lo[0] == pytest.approx(0.2366, abs=1e-4) and np.isnan(lo[1]) and np.isnan(hi[1])
    with pytest.raises(ValueError):
        wilson(11, 10)


def test_bradley_terry_recovers_known_ratings_and_first_move_advantage():
    # exact expected scores of ratings a=+1, b=0, c=-1 with a first-move edge of 0.2 log-odds
    r = {"a": 1.0, "b": 0.0, "c": -1.0}
    rows = [{"p1": x, "p2": y, "games": 1000, "p1_score": 1000 / (1 + math.exp(-(r[x] - r[y] + 0.2)))}
            for x in r for y in r]
    bt = bradley_terry(pd.DataFrame(rows))
    assert bt.ratings["rating"].to_dict() == pytest.approx(r, abs=1e-6)
    assert bt.first_move == pytest.approx(0.2, abs=1e-6) and bt.converged
    assert bt.first_move_score == pytest.approx(1 / (1 + math.exp(-0.2)))
    assert bt.ratings.loc["a", "elo"] == pytest.approx(400 / math.log(10))
    assert (bt.ratings["lo"] < bt.ratings["rating"]).all() and (bt.ratings["hi"] > bt.ratings["rating"]).all()


def test_bradley_terry_on_a_hand_made_table():
    # x beats y 75 of 100 (draws counted half: 70 wins + 10 draws): odds 3, so r_x - r_y = ln 3
    t = pd.DataFrame([{"p1": "x", "p2": "y", "p1_score": 75.0, "games": 100}])
    bt = bradley_terry(t, first_move=False)
    assert bt.ratings.loc["x", "rating"] == pytest.approx(math.log(3) / 2, abs=1e-8)
    assert bt.ratings.loc["y", "rating"] == pytest.approx(-math.log(3) / 2, abs=1e-8)
    # three heroes in a cycle-free order: rank follows strength, and mirrors are ignored
    t = pd.DataFrame([
        {"p1": "strong", "p2": "mid", "p1_score": 60, "games": 100},
        {"p1": "mid", "p2": "weak", "p1_score": 60, "games": 100},
        {"p1": "strong", "p2": "weak", "p1_score": 69, "games": 100},
        {"p1": "mid", "p2": "mid", "p1_score": 90, "games": 100},
    ])
    bt = bradley_terry(t, first_move=False)
    assert list(bt.ratings.sort_values("rating", ascending=False).index) == ["strong", "mid", "weak"]
    assert bt.ratings["rating"].sum() == pytest.approx(0, abs=1e-9)
    assert math.isnan(bt.first_move)
    one = bradley_terry(pd.DataFrame([{"p1": "a", "p2": "a", "p1_score": 5, "games": 10}]), first_move=False)
    assert one.ratings["rating"].tolist() == [0.0] and np.isnan(one.ratings["se"]).all()


def test_a_hero_without_a_game_has_no_rating_not_zero():
    # an unfinished run: z has played only its mirror; x and y are rated as without z, z is NaN
    t = pd.DataFrame([{"p1": "x", "p2": "y", "p1_score": 75.0, "games": 100},
                      {"p1": "z", "p2": "z", "p1_score": 5.0, "games": 10}])
    bt = bradley_terry(t, first_move=False, heroes=["x", "y", "z"])
    assert list(bt.ratings.index) == ["x", "y", "z"]
    assert bt.ratings.loc["x", "rating"] == pytest.approx(math.log(3) / 2, abs=1e-8)
    assert bt.ratings.loc["z"].isna().all()


def test_bradley_terry_gives_no_rating_when_a_hero_wins_every_game():
    # x beat y in all 6 games, both seats: the likelihood has no maximum (separation), so a
    # fitted GLM would stop at an arbitrary huge rating; no rating is the honest answer
    t = pd.DataFrame([{"p1": "x", "p2": "y", "p1_score": 3.0, "games": 3},
                      {"p1": "y", "p2": "x", "p1_score": 0.0, "games": 3}])
    bt = bradley_terry(t, first_move=True)
    assert bt.ratings["rating"].isna().all() and bt.ratings["elo"].isna().all()
    assert math.isnan(bt.first_move) and not bt.converged
    # a draw in each seating is enough for a finite fit again
    t.loc[0, "p1_score"] = 2.5
    t.loc[1, "p1_score"] = 0.5
    bt = bradley_terry(t, first_move=True)
    assert bt.ratings.loc["x", "rating"] > 0 and bt.ratings["se"].max() < 5


# ------------------------------------------------------------------ a stored run


@pytest.fixture(scope="module")
def run(tmp_path_factory):
    """Medusa, Sinbad and a homebrew hero with two loadouts, 24 games per pair on two battlefields."""
    base = tmp_path_factory.mktemp("reports")
    hero = write_gorgon(base)
    d = base / "run"
    run_matrix(d, games=24, heroes=["gorgon", "medusa", "sinbad"], battlefields=["marmoreal", "soho"], seed=11,
               chunk_size=5, jobs=1, extra_heroes=[hero])
    return d


def test_tables_match_the_stored_games(run):
    t = compute_tables(run)
    g = read_games(run)
    assert len(g) == 6 * 24
    mt = t["matchups"].set_index(["hero", "opponent"])
    # Medusa against Sinbad, counted straight from the rows
    ms = g[(g["p1_hero"] == "medusa") & (g["p2_hero"] == "sinbad")]
    sm = g[(g["p1_hero"] == "sinbad") & (g["p2_hero"] == "medusa")]
    wins = int((ms["winner"] == 0).sum() + (sm["winner"] == 1).sum())
    draws = int((ms["winner"] < 0).sum() + (sm["winner"] < 0).sum())
    row = mt.loc[("medusa", "sinbad")]
    assert row["games"] == 24 and row["wins"] == wins and row["draws"] == draws
    assert row["score"] == pytest.approx((wins + draws / 2) / 24)
    assert (row["lo"], row["hi"]) == pytest.approx(wilson(wins + draws / 2, 24))
    assert mt.loc[("sinbad", "medusa"), "score"] == pytest.approx(1 - row["score"])
    assert mt.loc[("medusa", "medusa"), "score"] == 0.5 and mt.loc[("medusa", "medusa"), "games"] == 24
    # per battlefield rows add up to the pooled row
    mb = t["matchups_by_battlefield"]
    mb = mb[(mb["hero"] == "medusa") & (mb["opponent"] == "sinbad")]
    assert sorted(mb["battlefield"]) == ["marmoreal", "soho"] and mb["games"].sum() == 24 and mb["wins"].sum() == wins
    # strength: one score, the pooled score against the two other heroes, with its own interval
    st = t["strength"].set_index("hero")
    assert list(t["strength"].columns) == ["hero", "games", "wins", "draws", "losses", "score", "lo", "hi",
                                           "rating", "rating_lo", "rating_hi"]
    vs = g[(g["p1_hero"] != g["p2_hero"]) & ((g["p1_hero"] == "medusa") | (g["p2_hero"] == "medusa"))]
    won = int(((vs["p1_hero"] == "medusa") & (vs["winner"] == 0)).sum()
              + ((vs["p2_hero"] == "medusa") & (vs["winner"] == 1)).sum())
    drawn = int((vs["winner"] < 0).sum())
    assert st.loc["medusa", "games"] == 48 == len(vs)
    assert st.loc["medusa", "score"] == pytest.approx((won + drawn / 2) / 48)
    assert (st.loc["medusa", "lo"], st.loc["medusa", "hi"]) == pytest.approx(wilson(won + drawn / 2, 48))
    assert (st["lo"] <= st["score"]).all() and (st["score"] <= st["hi"]).all()
    # one rating scale: the Bradley–Terry rating in Elo points, interval in the same points
    bt = bradley_terry(seatings(g), first_move=True, heroes=["gorgon", "medusa", "sinbad"])
    assert st["rating"].to_dict() == pytest.approx((bt.ratings["rating"] * 400 / np.log(10)).to_dict())
    assert st["rating_lo"].to_dict() == pytest.approx((bt.ratings["lo"] * 400 / np.log(10)).to_dict())
    assert st["rating"].sum() == pytest.approx(0, abs=1e-6)
    assert list(t["strength"]["rating"]) == sorted(t["strength"]["rating"], reverse=True)
    # first player: every game counted once
    fp = t["first_player"].set_index("battlefield").loc["all"]
    assert fp["games"] == 144 and fp["p1_wins"] == int((g["winner"] == 0).sum())
    assert fp["p1_wins"] + fp["p2_wins"] + fp["draws"] == 144
    # game length and end reasons
    gl = t["game_length"].set_index("battlefield").loc["all"]
    assert gl["mean"] == pytest.approx(g["turns"].mean()) and gl["max"] == g["turns"].max()
    er = t["end_reasons"]
    assert er[er["battlefield"] == "all"]["games"].sum() == 144


def test_card_and_loadout_tables(run):
    t = compute_tables(run)
    g = read_games(run)
    cards = t["cards"]
    med = cards[cards["hero"] == "medusa"]
    total = g.loc[g["p1_hero"] == "medusa", "p1_cards_played"].sum() + g.loc[g["p2_hero"] == "medusa", "p2_cards_played"].sum()
    assert med["plays"].sum() == total
    assert np.allclose(med["played_share"] + med["unplayed_share"], 1.0)
    gaze = med.set_index("card").loc["Gaze of Stone"]
    plays = [a[0] for a in g.loc[g["p1_hero"] == "medusa", "p1_card_plays"]] + \
            [a[0] for a in g.loc[g["p2_hero"] == "medusa", "p2_card_plays"]]
    assert gaze["games"] == len(plays) == 24 * 4 and gaze["games_played"] == sum(p > 0 for p in plays)
    # a loadout card is only counted in games where it was in the deck
    gor = cards[cards["hero"] == "gorgon"].set_index("card")
    long_games = int((g["p1_hero"].eq("gorgon") & g["p1_loadout"].eq("long")).sum()
                     + (g["p2_hero"].eq("gorgon") & g["p2_loadout"].eq("long")).sum())
    assert gor.loc["Long Shot", "games"] == long_games and 0 < long_games < gor.loc["Gaze of Stone", "games"]
    lo = t["loadouts"]
    assert set(lo["hero"]) == {"gorgon"} and set(lo["loadout"]) == {"long", "short"}
    field = lo[lo["opponent"] == "field"]
    assert field["games"].sum() == 48        # gorgon's games against medusa and sinbad
    assert set(lo["opponent"]) == {"field", "gorgon", "medusa", "sinbad"}
    # best loadout per opponent (mirrors excluded) and the effect of the bow, short instead of long
    lb = t["loadout_best"].set_index("opponent")
    assert set(lb.index) == {"medusa", "sinbad", "all"} and set(lb["hero"]) == {"gorgon"}
    f = field.set_index("loadout")["score"]
    assert lb.loc["all", "best_loadout"] == f.idxmax() and lb.loc["all", "score"] == pytest.approx(f.max())
    ge = t["gear_effects"].set_index("opponent").loc["all"]
    assert (ge["group"], ge["option"], ge["reference"]) == ("bow", "short", "long")
    assert ge["effect"] == pytest.approx(f["short"] - f["long"])
    sp = t["spaces"]
    assert set(sp["battlefield"]) == {"marmoreal", "soho"}
    assert (sp["combats"] >= sp["defeats"]).sum() > 0 and sp["defeats"].sum() > 0
    assert sp.groupby("battlefield")["games"].first().to_dict() == {"marmoreal": 72, "soho": 72}


def test_build_report_writes_tables_plots_and_one_html(run):
    rep = build_report(run)
    out = run / "report"
    assert rep.html == out / "report.html"
    for name in TABLE_NAMES:
        csv = pd.read_csv(out / "tables" / f"{name}.csv")
        pq = pd.read_parquet(out / "tables" / f"{name}.parquet")
        assert len(csv) == len(pq) == len(rep.tables[name]), name
    assert sorted(rep.png) == ["battlefield_hero", "game_length", "map_marmoreal", "map_soho", "matchups", "strength"]
    for p in rep.png.values():
        assert p.read_bytes().startswith(PNG) and p.stat().st_size > 10_000
    html = rep.html.read_text(encoding="utf-8")
    assert html.count('src="data:image/png;base64,') == 6
    assert "http://" not in html and "https://" not in html and "<link" not in html   # self-contained
    for title in ("Hero strength", "Matchups", "First-player advantage", "Game length", "Cards", "Loadouts",
                  "Where fighters fall", "a draw as half a win"):
        assert title in html, title
    assert "Gorgon" in html and "Long Shot" in html
    assert "First player scores" in rep.summary and "Gorgon" in rep.summary and "gorgon" not in rep.summary


def test_no_text_runs_into_another_in_any_report_plot(run, tmp_path, monkeypatch):
    """Every plot of the matrix report, drawn: no two of its texts (titles, axis and tick
    labels, annotations, cell values) overlap."""
    from helpers.plot_text import figure_name, record_report_figures, text_overlaps
    figs = record_report_figures(monkeypatch)
    build_report(run, out_dir=tmp_path / "report", replays=False)
    assert len(figs) == 6
    for fig in figs:
        assert text_overlaps(fig) == [], figure_name(fig)


def test_the_strength_plot_axis_labels_stay_apart():
    """The strength plot's two long axis labels (score and rating) once ran into each other
    under the two panels; six heroes with long names, as in the README's first matrix."""
    from matplotlib.figure import Figure

    from helpers.plot_text import text_overlaps
    from reports.format import RATING_AXIS, SCORE_AXIS
    from reports.plots import plot_strength
    names = {"medusa": "Medusa", "sinbad": "Sinbad", "alice": "Alice", "king_arthur": "King Arthur",
             "dracula": "Dracula", "jekyll_hyde": "Dr. Jekyll & Mr. Hyde"}
    st = pd.DataFrame({"hero": list(names), "score": [.7, .6, .5, .45, .4, .3], "lo": [.65, .55, .45, .4, .35, .25],
                       "hi": [.75, .65, .55, .5, .45, .35], "rating": [150, 80, 0, -30, -60, -140],
                       "rating_lo": [130, 60, -20, -50, -80, -160], "rating_hi": [170, 100, 20, -10, -40, -120]})
    fig = plot_strength(st, names)
    assert [" ".join(a.get_xlabel().split()) for a in fig.axes] == [SCORE_AXIS, RATING_AXIS]
    assert text_overlaps(fig) == []
    # the check itself sees two labels that run into each other, and a slanted label only where
    # it is drawn: "Sinbad" lies inside the upright box around the slanted name, below its text
    f = Figure(figsize=(4, 2))
    f.text(0.1, 0.8, SCORE_AXIS, fontsize=9)
    f.text(0.3, 0.8, "rating", fontsize=9)
    f.text(0.1, 0.1, "Dr. Jekyll & Mr. Hyde", rotation=30)
    f.text(0.3, 0.085, "Sinbad", rotation=30)
    assert text_overlaps(f) == [(SCORE_AXIS, "rating")]
    f.texts[-1].set_position((0.2, 0.2))
    assert text_overlaps(f) == [(SCORE_AXIS, "rating"), ("Dr. Jekyll & Mr. Hyde", "Sinbad")]


def test_report_command(run, tmp_path):
    r = CliRunner().invoke(main, ["report", str(run)])
    assert r.exit_code == 0, r.output
    assert "144 games" in r.output and f"Report: {run / 'report' / 'report.html'}" in r.output
    empty = tmp_path / "empty"
    empty.mkdir()
    r = CliRunner().invoke(main, ["report", str(empty)])
    assert r.exit_code == 2 and "not a run folder of matrix, teams, loadouts or compare" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["report", str(tmp_path / "missing")])
    assert r.exit_code == 2 and "no such folder" in r.output


def test_report_on_one_half_of_a_compare_folder_points_to_the_parent(tmp_path):
    """`report CMP/baseline` names the compare folder to report instead of
    a traceback."""
    from click.testing import CliRunner

    from sim.cli import main
    for d in ("baseline", "variant"):
        (tmp_path / "cmp" / d).mkdir(parents=True)
    r = CliRunner().invoke(main, ["report", str(tmp_path / "cmp" / "baseline")])
    assert r.exit_code == 2 and "one half of a compare folder" in r.output and "Traceback" not in r.output
    assert f"unmatched-sim report {(tmp_path / 'cmp').resolve()}" in r.output


# ------------------------------------------------------------------ streaming = in memory


def test_streamed_tables_equal_the_in_memory_aggregation(run):
    """compute_tables streams the stored games into counts; every table equals the same
    statistics computed with pandas on the whole per-game frame (read_games)."""
    from reports.loadout_stats import matrix_loadout_tables
    from reports.stream import count_games, scan_duels
    from reports.tables import (battlefield_hero, cards, first_player_by_hero, loadouts, matchups, sides,
                                strength)
    from sim.runs.store import read_manifest
    t = compute_tables(run)
    g = read_games(run)
    m = read_manifest(run)

    def eq(a, b, name):
        pd.testing.assert_frame_equal(a.reset_index(drop=True), b.reset_index(drop=True), check_dtype=False, obj=name)

    s = sides(g)                                    # one row per hero per game, as before streaming
    mt = matchups(s)
    eq(t["matchups"], mt, "matchups")
    eq(t["matchups_by_battlefield"], matchups(s, by_battlefield=True), "by battlefield")
    eq(t["strength"], strength(s, mt, g, list(m["heroes"]))[0], "strength")
    eq(t["battlefield_hero"], battlefield_hero(s), "battlefield_hero")
    eq(t["first_player_by_hero"], first_player_by_hero(s), "first_player_by_hero")
    eq(t["loadouts"], loadouts(s, m["heroes"]), "loadouts")
    eq(t["cards"], cards(s, m["heroes"]), "cards")
    best, gear = matrix_loadout_tables(s, m["heroes"])
    eq(t["loadout_best"], best, "loadout_best")
    eq(t["gear_effects"], gear, "gear_effects")
    # first player, game length and end reasons straight from pandas and numpy
    fp = t["first_player"].set_index("battlefield")
    for bf, rows in list(g.groupby("battlefield")) + [("all", g)]:
        w = rows["winner"]
        assert fp.loc[bf, ["games", "p1_wins", "p2_wins", "draws"]].tolist() == \
            [len(rows), (w == 0).sum(), (w == 1).sum(), (w < 0).sum()]
    gl = t["game_length"].set_index("battlefield")
    for bf, rows in list(g.groupby("battlefield")) + [("all", g)]:
        x = rows["turns"]
        want = [len(x), x.mean(), x.std(), x.min(), *np.percentile(x, [10, 50, 90]), x.max()]
        assert gl.loc[bf, ["games", "mean", "sd", "min", "p10", "median", "p90", "max"]].tolist() == pytest.approx(want)
    er = t["end_reasons"].set_index(["battlefield", "end_reason"])["games"]
    assert er.loc["all"].to_dict() == g["end_reason"].value_counts().to_dict()
    assert t["totals"] == {"games": len(g), "draws": int((g["winner"] < 0).sum()), "mean_turns": g["turns"].mean()}
    # the counts do not depend on how the files are cut into batches
    small, mem = scan_duels(run, batch_rows=7), count_games(g)
    for a in (small, mem):
        pd.testing.assert_frame_equal(a.outcomes, t["counts"].outcomes)
        pd.testing.assert_frame_equal(a.lengths, t["counts"].lengths)
        assert a.cards.keys() == t["counts"].cards.keys()
        for k, c in a.cards.items():
            assert c.games == t["counts"].cards[k].games and np.array_equal(c.plays, t["counts"].cards[k].plays)
            assert np.allclose(c.score_played, t["counts"].cards[k].score_played)


def test_weighted_percentiles_equal_numpy():
    from reports.stream import weighted_percentile, weighted_stats
    rng = np.random.default_rng(3)
    for n in (1, 2, 5, 100, 1001):
        x = rng.integers(5, 60, n)
        v, c = np.unique(x, return_counts=True)
        for q in (0, 5, 10, 25, 50, 75, 90, 95, 100):
            assert weighted_percentile(v, c, q) == pytest.approx(np.percentile(x, q), abs=1e-12), (n, q)
        st = weighted_stats(v, c)
        assert st["mean"] == pytest.approx(x.mean()) and st["min"] == x.min() and st["max"] == x.max()
        assert (np.isnan(st["sd"]) if n == 1 else st["sd"] == pytest.approx(np.std(x, ddof=1)))


def test_report_of_an_unfinished_run_holding_only_mirrors(tmp_path):
    """A run stopped just after its first games were stored, all of them mirrors: the
    unfinished-run report, no example game (there is no pair of different heroes), no
    traceback and no matplotlib warning (an empty battlefield-by-hero heatmap)."""
    import warnings
    run = mirror_only_run(tmp_path / "run")
    g = read_games(run)
    assert len(g) == 4 and (g["p1_hero"] == g["p2_hero"]).all()
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        r = CliRunner().invoke(main, ["report", str(run)])
    assert r.exit_code == 0 and r.exception is None, r.output
    assert "UNFINISHED RUN: 4 of 24 games stored; its command ended interrupted." in r.output
    assert "Medusa vs Sinbad 0 of 8" in r.output and "example games" not in r.output
    assert [str(w.message) for w in caught if issubclass(w.category, UserWarning)] == []
    page = (run / "report" / "report.html").read_text()
    assert "holds no stored game between two different heroes yet (only mirrors)" in page
    assert not (run / "report" / "replays").exists()
    assert (run / "report" / "plots" / "battlefield_hero.png").read_bytes().startswith(PNG)


def test_example_games_and_the_duel_index_equal_a_straight_computation(tmp_path, monkeypatch):
    """The report's example games (``sim.runs.replay.example_games``: for each seating and
    winner of two different heroes, the game nearest its kind's median length, the first such
    in the run's order) and the compact index behind them (``duel_index``) are computed in
    slices and from histograms, to keep a big run's report small; they equal the same picks
    made with pandas on the whole per-game frame (read_games), on a run stored in several
    files (tasks of 10 games compacted into files of at most 50) with a hero of two loadouts."""
    import pyarrow.parquet as pq

    import sim.runs.drive as drive
    from sim.runs import store
    from sim.runs.replay import duel_index, example_games
    monkeypatch.setattr(drive, "compact", lambda d: store.compact(d, rows_per_file=50))
    hero = write_gorgon(tmp_path)
    run = tmp_path / "run"
    run_matrix(run, games=20, heroes=["gorgon", "medusa", "sinbad"], battlefields=["marmoreal", "soho"], seed=4,
               chunk_size=5, jobs=1, extra_heroes=[hero], task_games=10)
    g = read_games(run)
    ix = duel_index(run)
    assert len(ix["files"]) > 2 and len(g) == 6 * 20
    assert [ix["heroes"][c] for c in ix["p1"]] == g["p1_hero"].tolist()
    assert [ix["heroes"][c] for c in ix["p2"]] == g["p2_hero"].tolist()
    assert [ix["battlefields"][c] for c in ix["bf"]] == g["battlefield"].tolist()
    for c in ("seed", "winner", "turns"):
        assert ix[c].tolist() == g[c].tolist(), c
    # each game's file and row hold that game
    tables = [pq.read_table(p, columns=["seed", "game_index", "p1_loadout"]).to_pylist() for p in ix["files"]]
    at = [tables[f][r] for f, r in zip(ix["file"], ix["row"])]
    assert at == g[["seed", "game_index", "p1_loadout"]].to_dict("records")
    # the example games, straight from pandas: per (P1, P2, winner) of different heroes, the
    # first game (in the run's order) of those whose length is nearest the median
    want = {}
    for (p1, p2, w), rows in g[g["p1_hero"] != g["p2_hero"]].groupby(["p1_hero", "p2_hero", "winner"]):
        if w >= 0:
            want[(p1, p2, p1 if w == 0 else p2)] = int((rows["turns"] - rows["turns"].median()).abs().idxmin())
    got = {}
    for mu in example_games(run):
        a, b = mu["heroes"]
        for (first, winner), sg in mu["games"].items():
            if sg is not None:
                got[(first, b if first == a else a, winner)] = sg.number
                assert sg.row["seed"] == g.loc[sg.number, "seed"] and sg.row["winner"] == g.loc[sg.number, "winner"]
    assert got == want and len(got) >= 10
