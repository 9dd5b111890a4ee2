"""The standard AI prices damage a card's step surely deals to its own fighter (a "self" or own
target, not a "may") as damage to that fighter: its health, or the game when it would defeat
the hero (``estimate.own_dmg_worth``; fresh-user find: a 4-health hero played "take 5 damage,
draw 2" and lost). No shipped card has such a step."""
import numpy as np
import pytest
from helpers.cards import at, game

RECKLESS = """
name = "Reckless"
set = "Homebrew"

[hero]
health = 30
move = 2

[ability]
name = "None"
text = "No ability."

[[cards]]
name = "Deep Cut"
type = "scheme"
boost = 1
copies = 10
fighter = "any"
text = "Take 5 damage, then draw 2."
effect = [{ op = "damage", amount = 5, target = "self" }, { op = "draw", amount = 2 }]

[[cards]]
name = "Free Draw"
type = "scheme"
boost = 1
copies = 10
fighter = "any"
text = "Draw 2."
effect = [{ op = "draw", amount = 2 }]

[[cards]]
name = "Jab"
type = "versatile"
value = 2
boost = 1
copies = 10
fighter = "any"
text = "No effect."
"""


def _scheme_scores(health):
    """The standard AI's action scores of the two schemes, Reckless at ``health`` of 30."""
    from sim.engine import layout as L
    from sim.engine.ai.decide import ai_scores
    from sim.engine.rules import action_due, legal_actions, unpack_action
    from sim.play.match import _control
    from sim.play.scenario import Scenario
    sc = Scenario(game({"hero": "reckless", "fighters": {"Reckless": at("M13", health)},
                        "hand": ["Deep Cut", "Free Draw", "Jab"], "deck": ["Jab"] * 4},
                       {"hero": "medusa", "fighters": {"Medusa": at("M31")}, "deck": ["Dash"] * 3}, actions=2))
    st = sc.st.copy()
    action_due(st, 0)
    opts = np.zeros(L.ACTION_OPTS, np.int64)
    n = legal_actions(st, sc.match.tables, 0, opts)
    scores = np.zeros(n)
    ai_scores(st, sc.match.tables, _control(("standard", "standard")), 0, 0, opts[:n].copy(), n, scores)
    out = {}
    for i in range(n):
        k, _, _, c = unpack_action(int(opts[i]))
        if k == L.A_SCHEME:
            out[sc.match.content.card_names[c]] = scores[i]
        elif k == L.A_MANEUVER:
            out["maneuver"] = scores[i]
    return out


@pytest.fixture
def reckless(tmp_path, monkeypatch):
    (tmp_path / "reckless.toml").write_text(RECKLESS)
    monkeypatch.setenv("UNMATCHED_SIM_HEROES", str(tmp_path))


def test_taking_five_damage_costs_five_health_at_full_health(reckless):
    """At 30 health the 5 damage costs 5 x hp_own (2.096 points each, the hero unhurt): Deep Cut
    scores that much below Free Draw (within its slightly different keep worth)."""
    s = _scheme_scores(30)
    assert s["Deep Cut"] - s["Free Draw"] == pytest.approx(-5 * 2.096, abs=0.3)


def test_a_step_that_would_defeat_the_hero_is_never_taken(reckless):
    """At 4 health the 5 damage would end the game: Deep Cut is priced as the lost game."""
    s = _scheme_scores(4)
    assert s["Deep Cut"] < -90
    assert s["maneuver"] > s["Deep Cut"] and s["Free Draw"] > s["Deep Cut"]
