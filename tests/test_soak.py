"""A small slice of the soak run (tests/soak.py, tests/helpers/replay/soak.py): the replay checker
over a quarter of the matchups (every battlefield), random-policy and standard-AI games, and a
team game per policy; the matchups cover every pair, battlefield and loadout; and the report of
a failing game names its seed."""
import numpy as np
from helpers.replay.constants import E_CARD_COUNT, R_CODE, R_FIELDS, R_SEED
from helpers.replay.soak import _failures, report_lines, soak, soak_matchups
from helpers.replay.runs import geralt_loadouts

from sim.content.battlefields import list_battlefields
from sim.play.match import installed_content


def test_the_matchups_cover_every_pair_battlefield_and_loadout():
    ms = soak_matchups()
    heroes = sorted(installed_content().specs)
    assert len(ms) == len(heroes) ** 2 * len(list_battlefields())
    assert len({idx for idx, _, _ in ms}) == len(ms)
    for bf in list_battlefields():
        seen = {h.split("@")[1] for _, names, b in ms if b == bf for h in names if "@" in h}
        assert seen == set(geralt_loadouts()), bf
    pairs = {(names[0].split("@")[0], names[1].split("@")[0], bf) for _, names, bf in ms}
    assert len(pairs) == len(ms)


def test_soak_slice_has_no_violation():
    """Every 4th matchup (all battlefields), one random and one standard game each, one team game per policy."""
    ms = soak_matchups()[::4]
    assert {bf for _, _, bf in ms} == set(list_battlefields())
    r = soak(2 * len(ms), len(ms), 1, seed=24, say=lambda line: None, matchups=ms)
    assert r["random"]["games"] == 2 * len(ms) and r["standard"]["games"] == len(ms)
    assert r["random"]["violations"] == r["standard"]["violations"] == 0
    assert r["teams"]["games"] == 2 and r["teams"]["problems"] == 0
    assert r["failures"] == []
    assert report_lines(r)[-1] == "  no failing game"


def test_a_failing_game_is_reported_with_its_seed_and_a_replay_line():
    out = np.zeros((2, R_FIELDS), np.int64)
    out[1, R_CODE], out[1, R_SEED] = E_CARD_COUNT, 123456
    f = _failures("standard", 8_000_001, ["medusa", "sinbad"], "soho", out)
    assert len(f) == 1 and f[0]["seed"] == 123456
    assert f[0]["replay"] == "Match(['medusa', 'sinbad'], battlefield='soho').play(123456, modes=('standard', 'standard'))"
    lines = report_lines({"seed": 24, "failures": f})
    assert "seed 123456 standard ['medusa', 'sinbad'] soho" in lines[-1]
