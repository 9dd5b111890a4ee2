"""League training (`unmatched-sim train`, sim.runs.train): one weight vector for every hero."""
import json

import numpy as np
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.content.profiles import ALL_HEROES, get_profile, load_profile
from sim.runs.errors import RunError
from sim.runs.train import MEAN, TrainSettings, check_cells, draw_cells, resolve_settings, train
from sim.runs.tune import tunable_weights


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def sabotaged(tmp_path_factory):
    """The standard weights with damage to the opposing hero feared instead of sought."""
    p = tmp_path_factory.mktemp("prof") / "sabotaged.toml"
    p.write_text('name = "sabotaged"\nmode = "standard"\nbase = "standard"\n[weights]\ndmg_hero = -2.0\n'
                 'hero_low = 0.0\n')
    return p


SMALL = {"heroes": ("medusa", "sinbad", "alice"), "leave_out": ("alice",), "battlefields": ("soho",),
         "league": ("standard", MEAN), "games_per_eval": 40, "generations": 2, "popsize": 4, "check_games": 48,
         "seed": 3}


def test_cells_never_play_a_left_out_hero_and_the_check_covers_every_seating():
    s, heroes, left, bfs, start, league = resolve_settings(TrainSettings(**SMALL))
    assert sorted(heroes) == ["medusa", "sinbad"] and sorted(left) == ["alice"] and league[1] is None
    cells = draw_cells(heroes, bfs, 2, 500, 7)
    assert cells == draw_cells(heroes, bfs, 2, 500, 7)           # seeded
    assert {c.hero for c in cells} | {c.opp for c in cells} == {"medusa", "sinbad"}
    assert {(c.hero, c.opp) for c in cells} == {(a, b) for a in heroes for b in heroes}   # mirrors included
    assert {c.seat for c in cells} == {0, 1} and {c.member for c in cells} == {0, 1}
    check = check_cells(heroes | left, heroes, bfs, 2, 48)
    # 3 heroes (alice only here) x 2 training opponents x 1 battlefield x 2 seats x 2 members
    assert len(check) == 24 and sum(c.games for c in check) == 48
    assert {c.hero for c in check} == {"alice", "medusa", "sinbad"} and {c.opp for c in check} == {"medusa", "sinbad"}


def test_by_default_only_the_weights_the_start_mode_reads_are_trained():
    # the one-currency standard prices effect damage and draws from the position: release
    # 0.2's fx_damage and fx_draw would drift at random under training
    s, *_ = resolve_settings(TrainSettings(**SMALL))
    assert "fx_damage" not in s.weights and "fx_draw" not in s.weights
    assert {"guess_base", "keep_full", "card", "dmg_hero"} <= set(s.weights)
    assert "win" not in s.weights and "search_samples" not in s.weights
    assert "fx_draw" in tunable_weights("standard-0.2") and "guess_base" not in tunable_weights("standard-0.2")
    assert set(tunable_weights()) == set(tunable_weights("standard")) | {"fx_damage", "fx_draw"}
    s, *_ = resolve_settings(TrainSettings(**{**SMALL, "weights": ("fx_draw", "card")}))   # asked for: trained
    assert s.weights == ("fx_draw", "card")


def test_training_is_seeded_and_resumes_to_the_same_result(tmp_path):
    a = train(TrainSettings(**SMALL), tmp_path / "a")

    def interrupt_after_first_generation(done, total, info):
        if info.startswith("generation 2"):
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        train(TrainSettings(**SMALL), tmp_path / "b", progress=interrupt_after_first_generation)
    b = train(TrainSettings(**SMALL), tmp_path / "b")
    def untimed(history):
        return [{k: v for k, v in h.items() if k != "seconds"} for h in history]
    assert a.trained_weights == b.trained_weights and untimed(a.history) == untimed(b.history)
    assert np.array_equal(a.check_trained, b.check_trained) and np.array_equal(a.check_start, b.check_start)
    # the check: both sides on the same games, the left-out hero among them
    assert len(a.check_start) == len(a.check_trained) == 48
    assert set(a.check_hero) == {"alice", "medusa", "sinbad"}
    assert a.check_left_out.sum() == a.check_hero.count("alice") == 16
    assert set(a.check_opponent) == {"standard", "start"}
    with pytest.raises(RunError, match="holds a training run with other settings \\(seed: the run has 3, this "
                                       "command 4\\)"):
        train(TrainSettings(**{**SMALL, "seed": 4}), tmp_path / "a")
    matrix_run = tmp_path / "matrix"
    matrix_run.mkdir()
    (matrix_run / "manifest.json").write_text("{}")
    with pytest.raises(RunError, match="holds a run of another command \\(it has a manifest.json\\), not a "
                                       "training run"):
        train(TrainSettings(**SMALL), matrix_run)


def test_training_repairs_a_sabotaged_weight(sabotaged, tmp_path):
    """From weights that fear damaging the opposing hero, training the two damage weights raises them, and
    the final check (fresh seeds, the same games both ways) measures a real gain."""
    from reports.train import summarize
    s = TrainSettings(heroes=("medusa", "sinbad"), battlefields=("soho",), weights=("dmg_hero", "hero_low"),
                      start=str(sabotaged), league=("standard",), games_per_eval=120, generations=4, popsize=4,
                      sigma0=1.0, check_games=400, seed=1)
    res = train(s, tmp_path / "fix")
    assert res.start_weights == {"dmg_hero": -2.0, "hero_low": 0.0}
    assert res.trained_weights["dmg_hero"] > -2.0
    o = summarize(res)["overall"]
    assert o["change"] > 0 and o["change_lo"] > 0, o


def test_cli_writes_a_profile_with_its_provenance(tmp_path):
    out = tmp_path / "run"
    r = cli("train", "--heroes", "medusa,sinbad,alice", "--leave-out", "alice", "-b", "soho", "--league",
            "standard,mean", "--games-per-eval", 40, "--generations", 2, "--popsize", 4, "--check-games", 48,
            "--seed", 3, "-j", 1, "-q", "--out", out, "--name", "league-test")
    assert r.exit_code == 0, r.output
    assert "Per hero (Holm over the heroes; * = left out of training):" in r.output and "  Alice *" in r.output
    prof = load_profile(out / "league-test.toml")
    assert prof.name == "league-test" and prof.mode_name == "standard" and prof.hero_weights == ()
    prov = json.loads(dict(prof.provenance)[ALL_HEROES])
    assert prov["left_out"] == ["alice"] and prov["heroes"] == ["medusa", "sinbad"] and prov["generations"] == 2
    assert prov["trained_by"].startswith("unmatched-sim") and prov["league"] == ["standard", "mean"]
    res = train(TrainSettings(**SMALL), tmp_path / "same")   # the same run from Python: the same weights
    std = get_profile("standard")
    for name, v in res.trained_weights.items():
        assert prof.weight(name) == pytest.approx(v, abs=1e-6)
    assert prof.weight("win") == std.weight("win")           # not trained: the start's
    assert (out / "check_heroes.csv").is_file() and (out / "generations.csv").is_file()
    assert "note: the check played 48 games a side, not --check-games 47" in cli(
        "train", "--heroes", "medusa,sinbad,alice", "--leave-out", "alice", "-b", "soho", "--league", "standard,mean",
        "--games-per-eval", 40, "--generations", 2, "--popsize", 4, "--check-games", 47, "--seed", 3, "-j", 1, "-q",
        "--out", tmp_path / "rounded").stderr


@pytest.mark.parametrize("args, message", [
    (["--league", "nope"], "Invalid value for '--league': unknown AI profile 'nope'; valid:"),
    (["--heroes", "medusa", "--leave-out", "medusa"], "Invalid value for '--leave-out': no hero is left to train on"),
    (["--heroes", "hercules"], "Invalid value for '--heroes':"),
    (["--weights", "dmg_hero"], "Invalid value for '--weights': --weights must name at least 2 different weights"),
    (["--weights", "dmg_heroes"], "Invalid value for '--weights': unknown AI weight(s) dmg_heroes; valid:"),
    (["--start", "random"], "Invalid value for '--start': --start 'random' plays mode 'random', which has no weights"),
    (["--popsize", "1"], "Invalid value for '--popsize': --popsize must be 0 (CMA-ES's default) or at least 2"),
    (["--name", "standard"], "Invalid value for '--name': 'standard' is an installed profile's name"),
    (["--name", "../evil"], "Invalid value for '--name': '../evil' is not a plain profile name"),
    (["--generations", "abc"], "Invalid value for '--generations': 'abc' is not a whole number."),
])
def test_bad_input_is_one_line(tmp_path, args, message):
    r = cli("train", *args, "--out", tmp_path / "x", "-q")
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output, r.output
