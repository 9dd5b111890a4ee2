"""Self-play tuning (``unmatched-sim tune``): weights of a hero's own in a profile, the
optimiser's plumbing on a tiny budget, resume after an interrupt, the profile it writes."""
import numpy as np
import pytest
from click.testing import CliRunner

from reports.tune import summarize, write_profile
from sim.cli import main
from sim.content.profiles import AIProfile, ProfileError, get_profile, load_profile
from sim.engine.ai import WEIGHT_NAMES
from sim.play.match import Match
from sim.runs.backend import Backend
from sim.runs.errors import RunError
from sim.runs.tune import TuneSettings, decode, plan_cells, tunable_weights, tune

ONE = Backend.of(None, 1, None)


def _bad_start(tmp_path):
    """A profile that makes the AI shy away from damaging the opposing hero."""
    f = tmp_path / "shy.toml"
    f.write_text('name = "shy"\nmode = "standard"\nbase = "standard"\n[weights]\ndmg_hero = -2.0\nhero_low = -2.0\n')
    return str(f)


def _small(tmp_path, **kw):
    base = dict(hero="medusa", field=("sinbad",), battlefields=("marmoreal",), weights=("dmg_hero", "hero_low"),
                start=_bad_start(tmp_path), games_per_eval=80, generations=4, popsize=6, check_games=400, seed=3)
    base.update(kw)
    return TuneSettings(**base)


def test_a_hero_plays_its_own_weights_from_a_profile(tmp_path):
    """[heroes.medusa.weights] is what Medusa plays; Sinbad plays the profile's weights."""
    f = tmp_path / "mine.toml"
    f.write_text('name = "mine"\nmode = "standard"\nbase = "standard"\n'
                 '[heroes.medusa.weights]\ndmg_hero = -2.0\nthreat = 0.0\n')
    p = load_profile(f)
    std = get_profile("standard")
    assert p.tuned_heroes == ["medusa"]
    w = dict(zip(WEIGHT_NAMES, p.weights_for("medusa")))
    assert (w["dmg_hero"], w["threat"], w["card"]) == (-2.0, 0.0, std.weight("card"))
    assert p.weights_for("sinbad") == std.weights
    shy = AIProfile("shy", "standard", "", p.weights_for("medusa"))
    m = Match(["medusa", "sinbad"], "marmoreal")
    for seed in (1, 2, 3):
        a = m.play(seed, modes=(p, p))
        b = m.play(seed, modes=(shy, std))
        np.testing.assert_array_equal(a.log, b.log)
    assert not np.array_equal(m.play(1, modes=(p, p)).log, m.play(1, modes=(std, std)).log)


@pytest.mark.parametrize("text,msg", [
    ('[heroes.medusa.weights]\ncolour = 1\n', r"heroes\.medusa\.weights\.colour is not an AI weight"),
    ('[heroes.medusa]\nweights = 3\n', r"heroes\.medusa must be a table with 'weights'"),
    ('[heroes.medusa.weights]\nthreat = "x"\n', r"heroes\.medusa\.weights\.threat must be a number"),
])
def test_bad_hero_sections_name_the_file_and_field(tmp_path, text, msg):
    f = tmp_path / "bad.toml"
    f.write_text('name = "bad"\nmode = "standard"\nbase = "standard"\n' + text)
    with pytest.raises(ProfileError, match=msg):
        load_profile(f)


def test_cells_and_decoding():
    cells = plan_cells([None], {"sinbad": [None], "alice": [None]}, ["marmoreal", "soho"], 100)
    assert len(cells) == 8 and {c.games for c in cells} == {13} and sum(c.seat for c in cells) == 4
    assert len({c.cell_id for c in cells}) == 8
    start = get_profile("standard").weights
    i = WEIGHT_NAMES.index("threat")
    w = decode(np.array([1.0]), start, [i])
    assert w[i] == pytest.approx(start[i] + max(abs(start[i]), 0.2)) and w[:i] == start[:i]
    assert "win" not in tunable_weights() and "threat" in tunable_weights()


def test_tuning_repairs_a_deliberately_bad_start(tmp_path):
    """Starting from weights that avoid damaging the opposing hero, a few generations find
    better ones: the check on fresh seeds shows a significant gain, and the written profile
    loads and plays with the tuned weights. (A first step of one scale unit: from the trained
    standard's other weights, steps of 0.3 found no change in 4 generations.)"""
    res = tune(_small(tmp_path, sigma0=1.0), tmp_path / "run", ONE)
    summ = summarize(res)
    assert res.start_weights == {"dmg_hero": -2.0, "hero_low": -2.0}
    assert res.tuned_weights["dmg_hero"] > -2.0
    assert summ["change"] > 5 and summ["change_lo"] > 0 and summ["p"] < 0.01
    assert len(res.history) == 4 and all(h["games"] == 6 * 80 for h in res.history)
    path = write_profile(res, tmp_path / "out.toml", summ)
    p = load_profile(path)
    assert p.name == "tuned-medusa" and p.tuned_heroes == ["medusa"]
    assert p.weights_for("medusa")[WEIGHT_NAMES.index("dmg_hero")] == pytest.approx(res.tuned_weights["dmg_hero"],
                                                                                     abs=1e-5)
    g = Match(["medusa", "sinbad"], "marmoreal").play(7, modes=(p, "standard"))
    assert g.winner in (0, 1)
    text = path.read_text()
    assert "[heroes.medusa.provenance]" in text and 'field = [\n    "sinbad",\n]' in text


def test_resume_after_an_interrupt_gives_the_same_result(tmp_path):
    whole = tune(_small(tmp_path, generations=3), tmp_path / "whole", ONE)
    calls = []

    def stop_in_generation_2(done, total, info):
        calls.append(info)
        if info == "generation 2/3":
            raise KeyboardInterrupt

    with pytest.raises(KeyboardInterrupt):
        tune(_small(tmp_path, generations=3), tmp_path / "cut", ONE, progress=stop_in_generation_2)
    again = tune(_small(tmp_path, generations=3), tmp_path / "cut", ONE)
    assert again.tuned_weights == whole.tuned_weights
    np.testing.assert_array_equal(again.check_tuned, whole.check_tuned)
    assert [h["mean"] for h in again.history] == [h["mean"] for h in whole.history]
    with pytest.raises(RunError, match=r"holds a tuning run with other settings \(games_per_eval"):
        tune(_small(tmp_path, generations=3, games_per_eval=40), tmp_path / "cut", ONE)


@pytest.mark.parametrize("args,msg", [
    (["tune", "nobody"], "unknown hero 'nobody'"),
    (["tune"], "name at least one HERO"),
    (["tune", "medusa", "--weights", "colour"], "unknown AI weight(s) colour"),
    (["tune", "medusa", "--field", "medusa"], "may not include the tuned hero"),
    (["tune", "Medusa", "--field", "MEDUSA,Sinbad"], "may not include the tuned hero 'medusa'"),   # names in any case
    (["tune", "medusa", "--field-ai", "nope"], "unknown AI profile 'nope'"),
    (["tune", "medusa", "--popsize", "1"], "--popsize must be 0 (CMA-ES's default) or at least 2"),
])
def test_tune_bad_input_is_one_line(tmp_path, args, msg):
    r = CliRunner().invoke(main, args + ["--out", str(tmp_path / "t"), "-q"])
    assert r.exit_code == 2, r.output
    assert msg in r.output and "Traceback" not in r.output


def test_tune_command_writes_a_profile_that_plays(tmp_path):
    out = tmp_path / "t"
    r = CliRunner().invoke(main, ["tune", "ciri", "--field", "medusa", "-b", "soho", "--weights", "threat,approach",
                                  "--generations", "1", "--popsize", "4", "--games-per-eval", "20",
                                  "--check-games", "20", "--out", str(out), "-q", "-j", "1"])
    assert r.exit_code == 0, r.output
    assert "Ciri: score against the field on 20 fresh games" in r.output
    p = load_profile(out / "tuned.toml")
    assert p.name == "tuned-ciri"
    assert p.tuned_heroes == ["ciri"]
    r = CliRunner().invoke(main, ["duel", "ciri", "medusa", "-b", "soho", "--ai", str(out / "tuned.toml"), "--seed", "2"])
    assert r.exit_code == 0 and "Game over" in r.output


def test_two_rounds_of_two_heroes_and_the_final_table(tmp_path):
    """Round 2 tunes each hero against the field playing round 1's weights; the final
    table compares each hero's starting and last weights against the first field."""
    out = tmp_path / "t"
    r = CliRunner().invoke(main, ["tune", "medusa", "sinbad", "--field", "medusa,sinbad", "--rounds", "2", "-b", "soho",
                                  "--weights", "threat,approach", "--generations", "1", "--popsize", "4",
                                  "--games-per-eval", "20", "--check-games", "40", "--out", str(out), "-q", "-j", "1"])
    assert r.exit_code == 0, r.output
    r1, r2 = load_profile(out / "round1" / "tuned.toml"), load_profile(out / "round2" / "tuned.toml")
    assert r1.tuned_heroes == r2.tuned_heroes == ["medusa", "sinbad"]
    prov = (out / "round2" / "medusa" / "tuned-medusa.toml").read_text()
    assert "round1/tuned.toml" in prov    # round 2 started from, and played against, round 1
    assert load_profile(out / "tuned.toml").weights_for("medusa") == r2.weights_for("medusa")
    import pandas as pd
    df = pd.read_csv(out / "final.csv")
    assert list(df["hero"]) == ["medusa", "sinbad"] and set(df["games"]) == {40}
    assert {"score_start", "score_tuned", "change", "p_holm", "verdict", "round1_tuned", "round2_tuned"} <= set(df)
    assert "Holm over the heroes" in r.output


def test_a_profile_based_on_a_tuned_one_keeps_its_heroes_and_applies_its_weights(tmp_path):
    """An expert level over per-hero weights: `base` brings the hero sections along and the
    profile's own [weights] (here the search budget) apply to every hero."""
    t = tmp_path / "t.toml"
    t.write_text('name = "t"\nmode = "standard"\nbase = "standard"\n[heroes.ciri.weights]\nthreat = 0.1\n')
    e = tmp_path / "e.toml"
    e.write_text(f'name = "e"\nmode = "expert"\nbase = "{t}"\n[weights]\nsearch_samples = 3\ncard = 2.0\n')
    p = load_profile(e)
    w = dict(zip(WEIGHT_NAMES, p.weights_for("ciri")))
    assert p.mode_name == "expert" and p.tuned_heroes == ["ciri"]
    assert (w["threat"], w["search_samples"], w["card"]) == (0.1, 3.0, 2.0)
    assert dict(zip(WEIGHT_NAMES, p.weights_for("medusa")))["threat"] == get_profile("standard").weight("threat")


def test_profiles_command_shows_a_heros_own_weights(tmp_path):
    f = tmp_path / "mine.toml"
    f.write_text('name = "mine"\nmode = "standard"\nbase = "standard"\n[heroes.medusa.weights]\nthreat = 0.25\n'
                 '[heroes.medusa.provenance]\ndate = "2026-12-01"\nscore_before = 0.8\nscore_after = 0.85\n'
                 'field_ai = "standard"\n')
    r = CliRunner().invoke(main, ["profiles", str(f)])
    assert r.exit_code == 0, r.output
    assert ("medusa: weights of its own, where they differ from the above (tuned 2026-12-01: score 80.0% -> 85.0% "
            "against the field of standard)") in r.output
    assert r.output.rstrip().endswith("threat             0.25")
