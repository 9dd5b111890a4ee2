"""Issue 35, the standard AI and homebrew choices: an optional discard from its own hand (``may =
true`` or ``optional = true`` on a discard step, or a ``choose`` option holding one) and damage to
its own fighter (a "may" damage step, or a ``choose`` option) are chosen by what they are worth in
the AI's one currency, not always taken or always refused.

A discard costs the keep worth of the card it takes (``weights.keep_worth``: the cheapest in hand
when the player picks); self-damage costs what that health is worth (``estimate.dmg_value`` for
the own fighter: the hero's last health is the game). Each is weighed against what the steps
that hang on it (``if = "discarded"`` / ``"dealt_damage"``) are worth. The Haggler, a homebrew
hero written here, plays each from a built position against Medusa on Marmoreal.
"""
import pytest
from helpers.cards import at, game, hp, p0

from sim.play.scenario import resolve

HAGGLER = """
name = "Haggler"
set = "Homebrew"

[hero]
health = 12
move = 2

[ability]
name = "None"
text = "No ability."

[[cards]]
name = "Toll"
type = "scheme"
boost = 1
copies = 3
fighter = "any"
text = "You may discard a card. If you do, 2 damage to the opposing hero."
effect = [{ op = "discard", who = "you", amount = 1, OPTION = true },
          { op = "damage", amount = 2, target = "opponent_hero", if = "discarded" }]

[[cards]]
name = "Blood Price"
type = "scheme"
boost = 1
copies = 3
fighter = "any"
text = "You may take 1 damage. If you do, 3 damage to the opposing hero."
effect = [{ op = "damage", amount = 1, target = "self", may = true },
          { op = "damage", amount = 3, target = "opponent_hero", if = "dealt_damage" }]

[[cards]]
name = "Bad Bargain"
type = "scheme"
boost = 1
copies = 3
fighter = "any"
text = "You may take 3 damage. If you do, 1 damage to the opposing hero."
effect = [{ op = "damage", amount = 3, target = "self", may = true },
          { op = "damage", amount = 1, target = "opponent_hero", if = "dealt_damage" }]

[[cards]]
name = "Reckless Oath"
type = "scheme"
boost = 1
copies = 3
fighter = "any"
text = "Choose one: take 1 damage and deal 3 to the opposing hero; or nothing."
effect = [{ op = "choose", options = [
  [{ op = "damage", amount = 1, target = "self" }, { op = "damage", amount = 3, target = "opponent_hero" }],
  [],
] }]

[[cards]]
name = "Hard Sell"
type = "scheme"
boost = 1
copies = 3
fighter = "any"
text = "Choose one: discard a card and deal 1 damage to the opposing hero; or nothing."
effect = [{ op = "choose", options = [
  [{ op = "discard", who = "you", amount = 1 }, { op = "damage", amount = 1, target = "opponent_hero" }],
  [],
] }]

[[cards]]
name = "Scrap"
type = "attack"
value = 1
boost = 0
copies = 6
fighter = "any"
text = "No effect."

[[cards]]
name = "Crown Jewel"
type = "versatile"
value = 5
boost = 4
copies = 3
fighter = "any"
text = "After combat: draw 2 cards."
after = [{ op = "draw", amount = 2 }]
"""


@pytest.fixture
def haggler(tmp_path, monkeypatch):
    """Writes the Haggler (``Toll`` with ``option``: ``may`` or ``optional``) as a homebrew hero."""
    def write(option="may"):
        (tmp_path / "haggler.toml").write_text(HAGGLER.replace("OPTION", option))
        monkeypatch.setenv("UNMATCHED_SIM_HEROES", str(tmp_path))
    return write


def _play(card, hand=(), health=None):
    """The standard AI (seat 0) plays scheme ``card`` with ``hand`` besides it, its hero at ``health``."""
    pos = game({"hero": "haggler", "fighters": {"Haggler": at("M13", health)}, "hand": [card, *hand],
                "deck": ["Scrap"] * 4},
               {"hero": "medusa", "fighters": {"Medusa": at("M31")}, "deck": ["Dash"] * 3}, actions=1)
    return resolve(pos, {"scheme": card, "by": "Haggler"}, ai="standard")


@pytest.mark.parametrize("option", ["may", "optional"])
def test_an_optional_discard_is_taken_when_the_card_is_worth_less_than_what_it_buys(haggler, option):
    """With a Scrap (value 1, BOOST 0) in hand, 2 damage to Medusa is worth more: it discards it."""
    haggler(option)
    out = _play("Toll", ["Scrap", "Crown Jewel"])
    assert p0(out)["hand"] == ["Crown Jewel"] and "Scrap" in p0(out)["discard"]
    assert hp(out, "Medusa") == 16 - 2


@pytest.mark.parametrize("option", ["may", "optional"])
def test_an_optional_discard_is_refused_when_every_card_is_worth_more(haggler, option):
    """With only Crown Jewels (value 5, BOOST 4, draw 2) in hand, 2 damage is not worth one: it keeps them."""
    haggler(option)
    out = _play("Toll", ["Crown Jewel", "Crown Jewel"])
    assert p0(out)["hand"] == ["Crown Jewel", "Crown Jewel"] and hp(out, "Medusa") == 16


def test_the_two_hands_straddle_the_price_of_the_damage(haggler):
    """What the two positions above weigh (the standard profile, prices set as for a decision):
    a Scrap's keep worth is below what 2 damage to Medusa is worth, a Crown Jewel's above it."""
    from sim.content.profiles import get_profile
    from sim.engine.ai.estimate import dmg_value
    from sim.engine.ai.position import set_price
    from sim.engine.ai.weights import keep_worth
    from sim.engine.control import MODE_STANDARD
    from sim.engine.layout import FIGHTERS_PER_PLAYER
    from sim.engine.policy import new_control
    from sim.play.scenario import Scenario
    haggler()
    sc = Scenario(game({"hero": "haggler", "fighters": {"Haggler": at("M13")}, "hand": ["Toll", "Scrap", "Crown Jewel"],
                        "deck": ["Scrap"] * 4},
                       {"hero": "medusa", "fighters": {"Medusa": at("M31")}, "deck": ["Dash"] * 3}))
    prof = get_profile("standard")
    ctl = new_control((MODE_STANDARD,) * 4, weights=(prof.weights,) * 4)
    tb = sc.match.tables
    set_price(sc.st, tb, ctl, 0)
    dmg = dmg_value(sc.st, ctl, 0, FIGHTERS_PER_PLAYER, 2.0)
    assert keep_worth(tb, ctl, 0, sc.card(0, "Scrap")) < dmg < keep_worth(tb, ctl, 0, sc.card(0, "Crown Jewel"))


def test_self_damage_is_taken_when_the_damage_it_buys_is_worth_more(haggler):
    """Blood Price at full health: 1 damage to the Haggler for 3 to Medusa. It pays."""
    haggler()
    out = _play("Blood Price")
    assert hp(out, "Haggler") == 11 and hp(out, "Medusa") == 13


def test_self_damage_that_would_defeat_the_hero_is_refused(haggler):
    """Blood Price with 1 health left: the damage would lose the game."""
    haggler()
    out = _play("Blood Price", health=1)
    assert hp(out, "Haggler") == 1 and hp(out, "Medusa") == 16


def test_self_damage_is_refused_when_it_buys_less_than_it_costs(haggler):
    """Bad Bargain at full health: 3 damage to the Haggler for 1 to Medusa. It does not pay."""
    haggler()
    out = _play("Bad Bargain")
    assert hp(out, "Haggler") == 12 and hp(out, "Medusa") == 16


@pytest.mark.parametrize("health, taken", [(12, True), (1, False)])
def test_a_choose_option_with_self_damage_is_priced_by_the_health_it_costs(haggler, health, taken):
    """Reckless Oath: the option "1 damage to yourself, 3 to Medusa" over the empty option at full
    health; the empty option with 1 health left."""
    haggler()
    out = _play("Reckless Oath", health=health)
    assert hp(out, "Haggler") == (health - 1 if taken else health)
    assert hp(out, "Medusa") == (13 if taken else 16)


@pytest.mark.parametrize("hand, taken", [(["Scrap"], True), (["Crown Jewel"], False)])
def test_a_choose_option_with_a_discard_is_priced_by_the_card_it_takes(haggler, hand, taken):
    """Hard Sell: "discard a card, 1 damage to Medusa" over nothing with a Scrap in hand; not with a
    Crown Jewel."""
    haggler()
    out = _play("Hard Sell", hand)
    assert p0(out)["hand"] == ([] if taken else hand)
    assert hp(out, "Medusa") == (15 if taken else 16)


def test_explain_shows_what_a_may_is_worth():
    """``--explain`` shows a priced "may" (Jekyll & Hyde's transformation, Medusa's gaze) as
    what yes is worth over no, in points, not as 1 and 0 (fresh-user find); the choice is the
    side that is worth more."""
    import re
    from click.testing import CliRunner
    from sim.cli import main
    r = CliRunner().invoke(main, ["duel", "jekyll_hyde", "medusa", "--seed", "1", "--explain"])
    assert r.exit_code == 0, r.output
    lines = re.findall(r"chooses may: (yes|no) ([+-]\d+\.\d\d); (yes|no) ([+-]\d+\.\d\d)\]", r.output)
    assert len(lines) >= 3
    yes = [float(a[1]) if a[0] == "yes" else float(a[3]) for a in lines]
    assert any(v not in (1.0, 0.0) for v in yes)
    for first, v1, _, v2 in lines:   # the option taken first: yes when it is worth more than no
        assert (first == "yes") == (float(v1 if first == "yes" else v2) > 0.0)
