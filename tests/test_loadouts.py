"""The loadouts and compare commands: planning, small real runs, reports, and the
variant acceptance cases (King Arthur +4 health rises significantly; a variant that
changes nothing does not)."""
import json
from collections import Counter

import pandas as pd
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.content.variants import load_variant
from sim.runs.errors import RunError
from helpers.store import drop_chunk, stored_chunk_names
from sim.runs.store import read_games
from sim.runs.versus import plan_compare, plan_loadouts


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def test_loadouts_plan_balances_opponents_battlefields_and_seats(tmp_path):
    p = plan_loadouts(tmp_path / "run", "geralt", games=100, opponents=["medusa", "sinbad", "alice"],
                      battlefields=["soho", "marmoreal"])
    s = p.settings
    # 100 per loadout over 3 opponents -> 34 each, over 2 battlefields x 2 seats -> 9 per cell
    assert s["games_per_loadout_per_opponent"] == {"alice": 36, "medusa": 36, "sinbad": 36}
    assert s["games_per_loadout"] == 108 and s["games_requested"] == 100
    assert len(s["loadouts"]) == 8 and s["groups"][0] == ["sword", ["steel", "silver"]]
    assert {c.games for c in p.cells} == {9}
    per = Counter()
    for c in p.cells:
        geralt_first = c.p1 == "geralt_of_rivia"
        lo = c.p1_loadout if geralt_first else c.p2_loadout
        opp = c.p2 if geralt_first else c.p1
        per[(lo, opp, c.battlefield, geralt_first)] += c.games
    assert len(per) == 8 * 3 * 2 * 2 and set(per.values()) == {9}
    assert p.games_total == 8 * 108


def test_loadouts_and_compare_refuse_bad_heroes(tmp_path):
    with pytest.raises(RunError) as e:
        plan_loadouts(tmp_path / "r", "medusa", games=10)
    assert "medusa declares no choice groups" in str(e.value) and "geralt_of_rivia" in str(e.value)
    with pytest.raises(RunError) as e:
        plan_loadouts(tmp_path / "r", "geralt", games=10, opponents=["geralt_of_rivia", "medusa"])
    assert e.value.param == "--opponents"
    with pytest.raises(RunError) as e:
        plan_loadouts(tmp_path / "r", "geralt", games=10, opponents=["hercules"])
    assert "unknown hero 'hercules'" in str(e.value)


def test_compare_plans_pair_every_game(tmp_path):
    f = tmp_path / "v.toml"
    f.write_text('[hero.king_arthur]\nhealth = 22\n')
    base, var = plan_compare(tmp_path / "c", "arthur", load_variant(f), games=30, opponents=["medusa", "geralt"],
                             battlefields=["soho"])
    assert [(c.identity, c.matchup_id, c.games) for c in base.cells] == \
        [(c.identity, c.matchup_id, c.games) for c in var.cells]
    assert base.settings["seed"] == var.settings["seed"] and "variant" not in base.settings
    assert var.settings["variant"]["heroes"] == {"king_arthur": {"health": 22}}
    # Geralt's 8 loadouts x 2 seats -> 16 slots: 30 rounds up to 32; Medusa: 2 slots, 30 stays
    assert var.settings["games_per_opponent"] == {"geralt_of_rivia": 32, "medusa": 30}


def test_small_loadouts_run_writes_csv_html_and_names_the_best(tmp_path, monkeypatch):
    from helpers.plot_text import figure_name, record_report_figures, text_overlaps
    figs = record_report_figures(monkeypatch)
    out = tmp_path / "geralt"
    args = ["loadouts", "geralt_of_rivia", "--games", 10, "--opponents", "medusa,sinbad", "-b", "soho",
            "--jobs", 1, "--quiet", "--out", out]
    r = cli(*args)
    assert r.exit_code == 0, r.output
    assert len(figs) == 3 and all(text_overlaps(f) == [] for f in figs), [figure_name(f) for f in figs]
    # 10 per loadout over 2 opponents x 2 seats: 3 per cell, 12 per loadout
    assert "note: 12 games per loadout instead of 10" in r.output
    games = read_games(out)
    assert len(games) == 8 * 12
    best = pd.read_csv(out / "report" / "tables" / "loadouts_best.csv")
    assert set(best["opponent"]) == {"medusa", "sinbad", "all"}
    overall = best.set_index("opponent").loc["all"]
    m = json.loads((out / "manifest.json").read_text())
    assert overall["best_loadout"] in m["settings"]["loadouts"]
    assert f"Best loadout overall: {overall['best_loadout']} " in r.output
    assert 0 <= overall["lo"] <= overall["score"] <= overall["hi"] <= 1
    scores = pd.read_csv(out / "report" / "tables" / "loadouts_scores.csv")
    # the report streams the games into counts: the same tables as from the per-game frame
    from reports.loadouts import TABLES, loadout_tables
    mem = loadout_tables(games, m["settings"])
    for name in TABLES:
        pd.testing.assert_frame_equal(pd.read_parquet(out / "report" / "tables" / f"loadouts_{name}.parquet"),
                                      mem[name], check_dtype=False, obj=name)
    assert len(scores) == 8 * 3 and (scores[scores["opponent"] != "all"]["games"] == 6).all()
    assert (scores[scores["opponent"] == "all"]["games"] == 12).all()
    # the best loadout really has the top score against each opponent
    for opp, g in scores.groupby("opponent"):
        assert g["score"].max() == pytest.approx(best.set_index("opponent").loc[opp, "score"])
    eff = pd.read_csv(out / "report" / "tables" / "loadouts_gear_effects.csv")
    assert sorted(set(eff["group"])) == ["armor", "potion", "sword"] and len(eff) == 3 * 3
    html = (out / "report" / "loadouts.html").read_text()
    assert "Best loadout per opponent" in html and overall["best_loadout"] in html
    assert "rounded up to 12" in html and "null hypothesis" in html
    for png in ("loadouts_heatmap", "loadouts_overall", "gear_effects"):
        assert (out / "report" / "plots" / f"{png}.png").stat().st_size > 10_000
    r = cli(*args)                                    # resumes: nothing left to play
    assert r.exit_code == 0 and "All 96 games were already stored" in r.output
    assert len(list((out / "games").iterdir())) == 1  # a complete run is compacted into one file
    # as if interrupted before the fourth chunk (one cell of 3 games) was stored
    assert drop_chunk(out, stored_chunk_names(out)[3]) == 3
    r = cli(*args)
    assert r.exit_code == 0 and "Resuming" in r.output and "93 of 96 games already stored" in r.output
    assert "Played 3 games" in r.output             # one cell: 3 games
    assert read_games(out).equals(games)              # the same games again
    r = cli("report", out)
    assert r.exit_code == 0 and "Best loadout overall" in r.output


def test_arthur_plus_4_health_rises_significantly(tmp_path, monkeypatch):
    """The acceptance case: paired games, 3 opponents x 200 on Soho, two worker processes
    (the variant has to reach them). The rise is about 11 points (z > 6 in trials)."""
    from helpers.plot_text import record_report_figures, text_overlaps
    figs = record_report_figures(monkeypatch)
    f = tmp_path / "arthur_plus4.toml"
    f.write_text('name = "arthur +4 health"\n[hero.king_arthur]\nhealth = 22\n')
    out = tmp_path / "cmp"
    r = cli("compare", "--variant", f, "--hero", "king_arthur", "--games", 200, "--opponents",
            "medusa,sinbad,alice", "-b", "soho", "--jobs", 2, "--quiet", "--out", out)
    assert r.exit_code == 0, r.output
    t = pd.read_csv(out / "report" / "tables" / "compare.csv").set_index("opponent")
    a = t.loc["all"]
    assert a["games"] == 600 and a["verdict"] == "significant rise"
    assert a["lo"] > 0.03 and a["change"] > 0.06 and a["p_holm"] < 1e-4
    assert (t["change"] >= 0).all()
    assert "Variant 'arthur +4 health' (arthur_plus4.toml): king_arthur: health 18 -> 22" in r.output
    assert ": significant rise." in r.output
    assert (out / "report" / "compare.html").exists() and (out / "report" / "plots" / "compare.png").exists()
    assert len(figs) == 1 and text_overlaps(figs[0]) == []
    # a compare folder cannot be resumed with another variant
    g = tmp_path / "other.toml"
    g.write_text('[hero.king_arthur]\nhealth = 20\n')
    r = cli("compare", "--variant", g, "--hero", "king_arthur", "--games", 200, "--opponents",
            "medusa,sinbad,alice", "-b", "soho", "--jobs", 1, "--quiet", "--out", out)
    assert r.exit_code == 2 and "variant: run has 'arthur +4 health'" in r.output


def test_a_variant_that_changes_nothing_shows_no_change(tmp_path):
    f = tmp_path / "noop.toml"
    f.write_text('name = "no-op"\n[hero.king_arthur]\nhealth = 18\n[hero.king_arthur.cards."Excalibur"]\nvalue = 6\n')
    out = tmp_path / "cmp"
    r = cli("compare", "--variant", f, "--hero", "king_arthur", "--games", 60, "--opponents", "medusa,sinbad",
            "-b", "soho", "--jobs", 1, "--quiet", "--out", out)
    assert r.exit_code == 0, r.output
    assert "note: the variant 'no-op' sets only values the hero files already have" in r.output
    t = pd.read_csv(out / "report" / "tables" / "compare.csv").set_index("opponent")
    assert (t["verdict"] == "no significant change").all()
    assert (t["change"] == 0).all() and (t["p"] == 1).all() and (t["identical_share"] == 1).all()
    # paired games: the very same games, seed by seed
    b, v = read_games(out / "baseline"), read_games(out / "variant")
    cols = ["matchup_id", "game_index", "seed", "winner", "turns", "p1_health", "p2_health", "decisions"]
    assert len(b) == 120 and b[cols].equals(v[cols])


def test_any_hero_with_choice_groups_and_a_variant(tmp_path):
    from conftest import write_gorgon
    hero = write_gorgon(tmp_path)
    v = tmp_path / "longer.toml"
    v.write_text('name = "longer bow"\n[hero.gorgon.cards."Long Shot"]\nvalue = 6\n')
    out = tmp_path / "gorgon"
    r = cli("--homebrew", hero, "loadouts", "gorgon", "--games", 8, "--opponents", "sinbad", "-b", "soho",
            "--jobs", 1, "--quiet", "--out", out, "--variant", v)
    assert r.exit_code == 0, r.output
    assert "Variant: longer bow (longer.toml)." in r.output
    eff = pd.read_csv(out / "report" / "tables" / "loadouts_gear_effects.csv")
    assert eff[["group", "option", "reference"]].drop_duplicates().values.tolist() == [["bow", "short", "long"]]
    m = json.loads((out / "manifest.json").read_text())
    assert m["settings"]["loadouts"] == ["long", "short"] and m["settings"]["variant"]["name"] == "longer bow"
    assert "longer bow" in (out / "report" / "loadouts.html").read_text()


def test_compare_says_when_the_variant_changes_other_heroes(tmp_path):
    """A variant of Medusa compared for King Arthur, with Medusa as an opponent: the command
    notes that Arthur is unchanged and that an opponent is, so a mistyped --hero does not give
    a silent null result."""
    f = tmp_path / "medusa.toml"
    f.write_text('name = "gaze 6"\n[hero.medusa.cards."Gaze of Stone"]\nvalue = 6\n')
    r = cli("compare", "--variant", f, "--hero", "king_arthur", "--games", 12, "--opponents", "medusa",
            "-b", "soho", "--jobs", 1, "--quiet", "--no-report", "--out", tmp_path / "cmp")
    assert r.exit_code == 0, r.output
    assert ("note: the variant 'gaze 6' does not change king_arthur; it changes the opponent(s) medusa: the "
            "difference measured is the effect on king_arthur's games of those opponents' change") in r.output
    assert "also changes opponents" not in r.output


def test_compare_refuses_a_variant_of_a_hero_who_does_not_play(tmp_path):
    """A variant of Medusa compared for King Arthur against Sinbad only: nothing it changes
    plays, so both runs would play the same games; a one-line usage error (issue 24, item 5:
    the command used to note "changes to other heroes" and measure a certain zero)."""
    f = tmp_path / "medusa.toml"
    f.write_text('name = "gaze 6"\n[hero.medusa.cards."Gaze of Stone"]\nvalue = 6\n')
    r = cli("compare", "--variant", f, "--hero", "king_arthur", "--games", 12, "--opponents", "sinbad",
            "-b", "soho", "--jobs", 1, "--quiet", "--no-report", "--out", tmp_path / "cmp")
    assert r.exit_code == 2, r.output
    assert ("Invalid value for '--variant': the variant 'gaze 6' changes medusa, who plays in none of these games "
            "(king_arthur against sinbad): both runs would play the same games") in r.output
    assert "Traceback" not in r.output and not (tmp_path / "cmp" / "variant" / "games").exists()


def test_another_commands_run_folder_is_named_as_such(tmp_path):
    """`loadouts --out` on a matrix folder says the folder holds a matrix run (a fresh-user
    trial got a long list of differing settings instead)."""
    out = tmp_path / "m"
    r = cli("matrix", "--games", 2, "--heroes", "medusa,sinbad", "-b", "soho", "--quiet", "--no-report", "--out", out)
    assert r.exit_code == 0, r.output
    r = cli("loadouts", "geralt", "--games", 8, "--opponents", "medusa", "-b", "soho", "--quiet", "--out", out)
    assert r.exit_code == 2
    assert "the folder holds a matrix run, and this is a loadouts command" in r.output
    assert "groups:" not in r.output


def test_the_too_few_line_counts_the_games_stored_in_an_unfinished_run(tmp_path):
    """Issue 31: the loadouts summary's 'too few' line gave the games its settings plan (6 a loadout per opponent)
    for a run with fewer stored; it now gives the fewest stored, those the sample-size guard judged."""
    out = tmp_path / "geralt"
    r = cli("loadouts", "geralt_of_rivia", "--games", 10, "--opponents", "medusa,sinbad", "-b", "soho", "--jobs", 1,
            "--quiet", "--out", out)
    assert r.exit_code == 0, r.output
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("too few: "))
    assert line.startswith("too few: 6 games a loadout per opponent stored; a verdict needs at least ")
    assert drop_chunk(out, stored_chunk_names(out)[3]) == 3          # one cell of 3 games, as if interrupted
    r = cli("report", out)
    assert r.exit_code == 0, r.output
    line = next(ln for ln in r.stdout.splitlines() if ln.startswith("too few: "))
    assert line.startswith("too few: 3 games a loadout per opponent stored; a verdict needs at least ")
