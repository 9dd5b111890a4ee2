"""`unmatched-sim bench`: the figures are all there and consistent (no timing thresholds)."""
import json

import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.runs.bench import mix_cells, python_sample


# The record of what the engine plays: the bench mix's digest at one game per ordered hero pair
# (`unmatched-sim bench --games 121 --ai PROFILE` prints it). A change that moves any game changes
# these; update them in the same commit and say why in its message.
MIX_DIGESTS = {"random": "71e5746a5d8e906fae43bb723eeddd9f0335572f",
               "greedy": "5aeed1333234470fa2eb80de777281549b32c681",
               "standard": "7bca97b5fd8b7646f08798740da4b8a1dc78dea2"}


@pytest.mark.parametrize("ai", sorted(MIX_DIGESTS))
def test_the_bench_mix_plays_the_recorded_games(ai):
    from sim.runs.bench import _digest, play_share
    assert _digest([play_share(ai, 1, 0, 1)]) == MIX_DIGESTS[ai]


def test_mix_covers_every_hero_and_battlefield():
    from sim.content.battlefields import list_battlefields
    cells = mix_cells()
    heroes = {c[0] for c in cells}
    assert len(cells) == len(heroes) ** 2
    assert {c[4] for c in cells} == set(list_battlefields())
    assert {(c[0], c[2]) for c in cells} == {(a, b) for a in heroes for b in heroes}
    assert python_sample(3) == [0, len(cells) // 3, 2 * len(cells) // 3]


def test_bench_json_has_every_figure_and_they_agree():
    r = CliRunner().invoke(main, ["bench", "--json", "--games", "1", "--ai", "random", "--jobs", "2",
                                  "--repeat", "1", "--python-games", "1", "--start-runs", "1", "--matrix-games", "12"])
    assert r.exit_code == 0, r.output
    b = json.loads(r.stdout)
    pairs = b["pairs"]
    assert b["games"] == pairs and b["ai"] == "random" and b["jobs"] == 2
    one = b["one_core"]
    for key in ("duels_per_second", "duels_per_cpu_second"):
        lo, hi = one[key]["range"]
        assert 0 < lo <= one[key]["median"] <= one[key]["best"] == hi
    assert one["us_per_duel"]["best"] > 0
    assert abs(one["us_per_duel"]["best"] * one["duels_per_cpu_second"]["best"] - 1e6) < 1e6 * 0.01
    assert b["all_cores"]["duels_per_second"]["best"] > 0
    assert len(b["all_cores"]["worker_cpu_seconds"]) == 2
    # each worker plays whole laps of the mix (as many as MIN_PARALLEL_SECONDS of play takes)
    assert b["all_cores"]["duels_per_worker"] % pairs == 0 and b["all_cores"]["duels_per_worker"] >= b["games"]
    assert b["parallel_efficiency"] > 0 and b["cpu_efficiency"] > 0 and 0 < b["cpu_share"] <= 1.05
    assert b["same_games"] is True
    assert b["games_digest"] == MIX_DIGESTS["random"]
    assert b["turns_per_duel"] > 1
    f = b["engine_floor"]   # every standard-AI game's recorded choices replay the very same game
    assert f["differed"] == 0 and f["games"] + f["skipped"] == pairs and f["games"] > 0
    assert f["floor_us"] > 0 and f["ai_us"] > 0
    assert f["ai_share"] == pytest.approx((f["ai_us"] - f["floor_us"]) / f["ai_us"], abs=0.001)
    assert b["compile"] is None      # only with --compile (minutes)
    w = b["warm_start"]
    assert w["seconds"] > 0 and w["seconds"] == min(w["runs"]) and w["import_seconds"] > 0
    mem = b["memory"]
    assert mem["main_mb"] > 0 and len(mem["workers_mb"]) == 2 and mem["max_worker_mb"] == max(mem["workers_mb"])
    p = b["python"]
    assert p["games"] == 1 and p["python_us_per_duel"] > 0 and p["compiled_us_per_duel"] > 0
    assert abs(p["speedup"] - p["python_us_per_duel"] / p["compiled_us_per_duel"]) < 0.1 * p["speedup"] + 0.1
    assert p["same_games"] is True   # the plain-Python engine plays the very same duel
    # the designer-shaped run: the full matrix through the real pipeline, 12 games per pair
    d = b["matrix"]
    from sim.content.battlefields import list_battlefields
    n = len({c[0] for c in mix_cells()})
    assert d["games_per_pair"] == 12 and d["games"] == 12 * n * (n + 1) // 2
    assert d["cells"] > len(list_battlefields()) * n and d["jobs"] == 2 and d["tasks"] >= 2
    # manifest.json and its backup, the lock file, one games and one spaces file
    assert d["games_per_second"] > 0 and d["wall_seconds"] > 0 and d["files"] == 5
    assert d["ratio_to_all_cores"] == pytest.approx(d["games_per_second"] / b["all_cores"]["duels_per_second"]["best"],
                                                    rel=0.01)


def test_bench_text_report():
    r = CliRunner().invoke(main, ["bench", "--games", "1", "--ai", "greedy", "--jobs", "1", "--repeat", "1",
                                  "--python-games", "0", "--start-runs", "0", "--matrix-games", "0"])
    assert r.exit_code == 0, r.output
    assert "designer-shaped" not in r.output
    assert "duels per CPU second" in r.output and "parallel efficiency" in r.output
    assert "peak per worker" in r.output and "compile    not measured" in r.output
    assert "duels per CPU second with no AI" in r.output and "with the standard AI" in r.output


def test_recorded_choices_replay_the_game():
    """policy.with_record: the choices a standard-AI duel made, given back as a script,
    play the same duel (same result row, same log) with no AI."""
    import numpy as np
    from sim.engine.codes import MODE_SCRIPT, RES_FIELDS
    from sim.engine.game import play_game, result_row, setup_game
    from sim.engine.layout import EV_FIELDS, G_DECISIONS, G_LOGN
    from sim.engine.policy import new_control, recorded, with_record
    from sim.play.match import Match, _control

    m = Match(["medusa", "sinbad"], "soho")

    def play(ctl):
        st, log, res = m.new_state(), np.zeros((5000, EV_FIELDS), np.int64), np.zeros(RES_FIELDS, np.int64)
        setup_game(st, m.tables, ctl, log, m.rows, 2, 7)
        play_game(st, m.tables, ctl, log)
        result_row(st, res, 7)
        return res, log[:st[G_LOGN]].copy(), st[G_DECISIONS]

    rec = with_record(_control(("standard", "standard"), heroes=m.keys))
    res, log, decisions = play(rec)
    script = recorded(rec)
    assert 0 < len(script) < decisions   # forced decisions are not recorded
    res2, log2, _ = play(new_control((MODE_SCRIPT,) * 4, script, 0))
    assert (res == res2).all() and (log == log2).all()
