"""Five fighters a player (issue 35): a hero with four sidekicks (a published hero has four) loads,
plays (its fourth sidekick attacks in a built position) and passes the replay checker; one
fighter more is refused naming the limit."""
import tomllib
from pathlib import Path

import numpy as np
import pytest
from helpers.cards import at, game, hp

from sim.content.heroes import HeroFileError, hero_from_data
from sim.engine import layout as L
from sim.play.scenario import resolve

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def _lamplighter(moths: int) -> dict:
    block = README[README.index("<!-- homebrew-example:"):]
    data = tomllib.loads(block[block.index("```toml") + 7:block.index("\n```", block.index("```toml"))])
    data["sidekicks"][0]["count"] = moths
    return data


def test_the_limit_is_five_fighters():
    assert L.FIGHTERS_PER_PLAYER == 5 and L.MAX_FIGHTERS == 20
    spec = hero_from_data(_lamplighter(4), "lamp.toml")
    assert [f.count for f in spec.fighters] == [1, 4]
    with pytest.raises(HeroFileError, match=r"^lamp\.toml: sidekicks\[0\]\.count: must be from 1 to 4 \(a player "
                                            r"has at most 5 fighters, the hero included\), got 5$"):
        hero_from_data(_lamplighter(5), "lamp.toml")
    data = _lamplighter(4)
    data["sidekicks"].append({"name": "Owl", "count": 1, "health": 2})
    with pytest.raises(HeroFileError, match=r"^lamp\.toml: sidekicks: 6 fighters in all; at most 5 \(hero included\)$"):
        hero_from_data(data, "lamp.toml")


@pytest.fixture
def four_moths(tmp_path, monkeypatch):
    from helpers.fuzz import to_toml
    monkeypatch.setenv("UNMATCHED_SIM_HEROES", str(tmp_path))
    (tmp_path / "moths.toml").write_text(to_toml(_lamplighter(4)), encoding="utf-8")
    return "moths"


@pytest.mark.nojit
def test_the_fourth_sidekick_attacks(four_moths):
    """Moth 4 (fighter slot 4: the fifth of player 0) attacks Sinbad with Swarm (2, +1 for each of
    the Lamplighter's fighters adjacent to Sinbad: Moth 4 and the Lamplighter)."""
    out = resolve(game({"hero": four_moths, "hand": ["Swarm"],
                        "fighters": {"The Lamplighter": at("M21"), "Moth 1": at("M01"), "Moth 2": at("M02"),
                                     "Moth 3": at("M03"), "Moth 4": at("M13")}},
                       {"hero": "sinbad", "fighters": {"Sinbad": at("M20")}}),
                  {"attack": "Swarm", "by": "Moth 4", "target": "Sinbad", "defense": None})
    assert out["combat"]["attack_value"] == 4 and hp(out, "Sinbad") == 11
    assert any("Moth 4 attacks Sinbad with Swarm" in line for line in out["log"])


def test_games_with_five_fighters_pass_the_replay_checker(four_moths):
    """Random games of the Lamplighter with four Moths against Medusa (four fighters), replayed by the
    independent checker; a Moth 4 takes part (sets up on the board)."""
    from helpers.replay.constants import OK, R_CODE
    from helpers.replay.runs import run_match

    from sim.play.match import Match
    m = Match([four_moths, "medusa"], "marmoreal")
    out, _ = run_match(0, m, 40)
    assert (out[:, R_CODE] == OK).all(), out[out[:, R_CODE] != OK][:3]
    log = m.play(3).log
    setups = log[log[:, 0] == L.EV_SETUP][:, 1].tolist()
    assert setups[:5] == [0, 1, 2, 3, 4] and L.FIGHTERS_PER_PLAYER in setups
    assert np.isin([4], log[log[:, 0] == L.EV_MOVE][:, 1]).any() or 4 in setups
