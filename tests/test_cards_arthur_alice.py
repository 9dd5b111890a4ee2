"""Card tests for King Arthur and Alice: every card and both hero abilities,
plus the rules cases of docs/rules.md for these heroes (R04, R05,
R23, R24, R25, R27, R28, R30, R31).

Each test builds an exact position on Marmoreal with the scenario API,
resolves one step with scripted choices and asserts the numbers the card
changes (health, piles by name, spaces, combat values, winner, Alice's size).

Map facts used below (sim/battlefields/marmoreal.toml):
  red zone = M07 M13 M20 M21; yellow = M01 M07 M08 M13 M20; brown = M25..M31.
  Edges used: M13-M20, M20-M21, M20-M27, M21-M25, M25-M26, M26-M23, M23-M24,
  M24-M16, M16-M12, M13-M07, M07-M01, M07-M08, M27-M28, M28-M29.
  M21 is red only; M27 is brown only (adjacent to M20 but in none of its zones).
Card texts: shared/reference/heroes/{king_arthur,alice}.json.
Case ids (Rnn): docs/rules.md; project decisions there (R24: a
cancelled attack card loses Arthur's face-down BOOST even for Excalibur; the
game ends as soon as a hero is defeated).
"""
import numpy as np
import pytest
from helpers.cards import alice, arthur, at, dist, game, hp, log_text, medusa, p0, p1, sinbad, space

from sim.content.battlefields import load_battlefield
from sim.engine import layout as L
from sim.engine.game import setup_game
from sim.engine.policy import MODE_RANDOM, MODE_SCRIPT, new_control
from sim.play.match import Match
from sim.play.narrate import narrate
from sim.play.scenario import Scenario, ScenarioError, resolve

pytestmark = pytest.mark.nojit

BF = load_battlefield("marmoreal")

ARTHUR = "King Arthur"
GRAIL = "The Holy Grail"
LADY = "The Lady of the Lake"
MORGANA = "The Aid of Morgana"
CHOSEN = "Aid the Chosen One"
STORMS = "Command the Storms"
SPIRITS = "Restless Spirits"
DIVINE = "Divine Intervention"
NOBLE = "Noble Sacrifice"
JABBER = "The Jabberwock"
MUSHROOM = "The Other Side of the Mushroom"
FRABJOUS = "O Frabjous Day!"
LATE = "I'm Late, I'm Late"
HATTER = "Mad as a Hatter"
GLASS = "Looking Glass"
CLAWS = "Claws That Catch"
JAWS = "Jaws That Bite"
MANXOME = "Manxome Foe"
APES = "Voyage to the City of the Man-Eating Apes"


def size(out, seat=0):
    return out["players"][seat]["counters"]["size"]


def test_map_facts_used_by_these_tests():
    """The geometry the tests rely on (so a map change fails here, not obscurely)."""
    zone = lambda z: [s for i, s in enumerate(BF.space_ids) if BF.zone_mask[i] >> BF.zone_names.index(z) & 1]  # noqa: E731
    assert zone("red") == ["M07", "M13", "M20", "M21"]
    assert zone("yellow") == ["M01", "M07", "M08", "M13", "M20"]
    adj = lambda a, b: bool(BF.adj[BF.index(a), BF.index(b)])  # noqa: E731
    assert adj("M20", "M21") and adj("M20", "M13") and adj("M20", "M27") and adj("M21", "M25")
    assert not adj("M21", "M13") and not adj("M07", "M20") and not adj("M21", "M27")
    assert not BF.zone_mask[BF.index("M27")] & BF.zone_mask[BF.index("M20")]
    assert (dist("M21", "M24"), dist("M21", "M16"), dist("M21", "M12"), dist("M21", "M23")) == (4, 5, 6, 3)
    assert (dist("M20", "M28"), dist("M20", "M29"), dist("M13", "M02"), dist("M21", "M26")) == (2, 3, 3, 2)


# =========================================================================== King Arthur

# ---------------------------------------------------------------- ability: face-down BOOST
ARTHUR_BOOSTS = [
    ("Excalibur", 3), (NOBLE, 3), (MORGANA, 2), (CHOSEN, 2), ("Swift Strike", 2), (DIVINE, 2),
    ("Skirmish", 1), ("Momentous Shift", 1), ("Feint", 1), ("Regroup", 1), (GRAIL, 2),
    ("Bewilderment", 2), (LADY, 2), ("Prophecy", 2), (SPIRITS, 2), (STORMS, 2),
]


@pytest.mark.parametrize("booster,boost", ARTHUR_BOOSTS)
def test_arthur_ability_face_down_boost_adds_boost_value_then_discarded(booster, boost):
    # Every card (any type, any banner, even Merlin's) can be the face-down BOOST.
    hand = ["Swift Strike", booster, "Regroup"] if booster != "Swift Strike" else ["Swift Strike", "Swift Strike", "Regroup"]
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=hand),
        sinbad(fighters={"Sinbad": at("M20")}, hand=[]),
    ), {"attack": "Swift Strike", "by": ARTHUR, "target": "Sinbad", "defense": None, "boost": booster},
        ["M21"])
    assert out["combat"] == {"attack_value": 3 + boost, "defense_value": 0, "damage": 3 + boost,
                             "winner": "attacker"}
    assert hp(out, "Sinbad") == 15 - 3 - boost
    assert p0(out)["hand"] == ["Regroup"]
    assert p0(out)["discard"] == ["Swift Strike", booster]
    assert f"    King Arthur boosts face down with the attack with {booster} (+{boost})" in out["log"]


def test_arthur_ability_boost_declined_card_stays_in_hand():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=["Excalibur", NOBLE]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": "Excalibur", "by": ARTHUR, "target": "Sinbad", "defense": None, "boost": None})
    assert out["combat"]["attack_value"] == 6 and hp(out, "Sinbad") == 9
    assert p0(out)["hand"] == [NOBLE] and p0(out)["discard"] == ["Excalibur"]


def test_arthur_ability_boost_is_asked_and_scripted_as_a_choice():
    # Without the step's "boost" key the face-down BOOST is an ordinary scripted decision.
    pos = game(arthur(fighters={ARTHUR: at("M21")}, hand=["Excalibur", NOBLE]),
               sinbad(fighters={"Sinbad": at("M20")}))
    with pytest.raises(ScenarioError, match=r"face-down attack boost.*legal options: Noble Sacrifice, no card"):
        resolve(pos, {"attack": "Excalibur", "by": ARTHUR, "target": "Sinbad", "defense": None})
    out = resolve(pos, {"attack": "Excalibur", "by": ARTHUR, "target": "Sinbad", "defense": None}, [NOBLE])
    assert out["combat"]["attack_value"] == 9 and hp(out, "Sinbad") == 6


def test_arthur_ability_is_arthurs_only_merlin_attacks_without_boost():
    # Merlin attacking: no face-down BOOST is asked (an empty script works) and the
    # other cards stay in hand.
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M06"), "Merlin": at("M07")}, hand=[CHOSEN, "Excalibur"],
               deck=["Feint", "Regroup", "Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": CHOSEN, "by": "Merlin", "target": "Sinbad", "defense": None})
    assert out["combat"]["attack_value"] == 4 and hp(out, "Sinbad") == 11
    assert "boosts" not in log_text(out)
    assert p0(out)["hand"] == ["Excalibur", "Feint", "Regroup"]


def test_arthur_boost_lost_when_attack_cancelled_by_feint_card_still_discarded():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=["Skirmish", GRAIL, "Regroup"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Feint"]),
    ), {"attack": "Skirmish", "by": ARTHUR, "target": "Sinbad", "defense": "Feint", "boost": GRAIL})
    assert out["combat"] == {"attack_value": 4, "defense_value": 2, "damage": 2, "winner": "attacker"}
    assert hp(out, "Sinbad") == 13
    assert p0(out)["hand"] == ["Regroup"]
    assert p0(out)["discard"] == ["Skirmish", GRAIL]       # the BOOST is discarded without effect
    assert space(out, "Sinbad") == "M20"                   # Skirmish's move cancelled too


# ---------------------------------------------------------------- R23 / R24 / R25
def test_R23_aid_of_morgana_boost_lost_to_feint_no_draw():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=[MORGANA, NOBLE], deck=["Feint", "Regroup", "Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Feint"]),
    ), {"attack": MORGANA, "by": ARTHUR, "target": "Sinbad", "defense": "Feint", "boost": NOBLE})
    assert out["combat"] == {"attack_value": 4, "defense_value": 2, "damage": 2, "winner": "attacker"}
    assert hp(out, "Sinbad") == 13
    assert p0(out)["hand"] == [] and p0(out)["deck"] == ["Feint", "Regroup", "Skirmish"]   # no draw 2
    assert sorted(p0(out)["discard"]) == sorted([MORGANA, NOBLE])
    assert p1(out)["discard"] == ["Feint"]
    assert "    Sinbad cancels the effects on the attack card" in out["log"]


def test_R24_boosted_excalibur_vs_feint_boost_discarded_without_effect():
    # Project decision R24: Excalibur has no effects, but a Feint still cancels
    # "the effects on the attack card", so the face-down BOOST is lost: A = 6.
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=["Excalibur", NOBLE]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Feint"]),
    ), {"attack": "Excalibur", "by": ARTHUR, "target": "Sinbad", "defense": "Feint", "boost": NOBLE})
    assert out["combat"] == {"attack_value": 6, "defense_value": 2, "damage": 4, "winner": "attacker"}
    assert hp(out, "Sinbad") == 11
    assert p0(out)["hand"] == []
    assert p0(out)["discard"] == ["Excalibur", NOBLE]


def test_R24_boosted_excalibur_without_feint_keeps_the_boost():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=["Excalibur", NOBLE]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Regroup"], deck=["Exploit"]),
    ), {"attack": "Excalibur", "by": ARTHUR, "target": "Sinbad", "defense": "Regroup", "boost": NOBLE})
    assert out["combat"] == {"attack_value": 9, "defense_value": 1, "damage": 8, "winner": "attacker"}
    assert hp(out, "Sinbad") == 7
    assert p1(out)["hand"] == ["Exploit"]


def test_R25_noble_sacrifice_boosts_twice_vs_small_alice_looking_glass():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=[NOBLE, "Excalibur", DIVINE, "Regroup"]),
        alice("small", fighters={"Alice": at("M20")}, hand=[GLASS, "Feint"],
              deck=["Eat Me", "Drink Me", "Skirmish"]),
    ), {"attack": NOBLE, "by": ARTHUR, "target": "Alice", "defense": GLASS, "boost": "Excalibur"},
        [DIVINE, 2, 1])            # Noble Sacrifice's own BOOST; Looking Glass: recover 3, then draw 2
    assert out["combat"] == {"attack_value": 7, "defense_value": 3, "damage": 4, "winner": "attacker"}
    # Arthur used 3 cards: the attack and two boosts
    assert p0(out)["hand"] == ["Regroup"]
    assert sorted(p0(out)["discard"]) == sorted([NOBLE, "Excalibur", DIVINE])
    # 13 - 4 = 9, Looking Glass still resolves: recover 3 -> 12, draw 2
    assert hp(out, "Alice") == 12
    assert p1(out)["hand"] == ["Feint", "Eat Me", "Drink Me"]
    assert p1(out)["deck"] == ["Skirmish"]
    assert p1(out)["discard"] == [GLASS]
    assert space(out, "Alice") == "M20"
    assert size(out, 1) == "small"


# ---------------------------------------------------------------- Excalibur
def test_excalibur_value_6_no_effect():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=["Excalibur"], deck=["Feint"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Regroup"]),
    ), {"attack": "Excalibur", "by": ARTHUR, "target": "Sinbad", "defense": "Exploit"})
    assert out["combat"] == {"attack_value": 6, "defense_value": 4, "damage": 2, "winner": "attacker"}
    assert hp(out, "Sinbad") == 13
    assert p0(out)["hand"] == [] and p0(out)["deck"] == ["Feint"] and p0(out)["discard"] == ["Excalibur"]
    assert p1(out)["hand"] == ["Regroup"]          # Exploit's draw


def test_excalibur_is_arthurs_only():
    with pytest.raises(ScenarioError, match="Merlin cannot attack Sinbad with 'Excalibur'"):
        resolve(game(arthur(fighters={ARTHUR: at("M06"), "Merlin": at("M13")}, hand=["Excalibur"]),
                     sinbad(fighters={"Sinbad": at("M20")})),
                {"attack": "Excalibur", "by": "Merlin", "target": "Sinbad", "defense": None})


# ---------------------------------------------------------------- Noble Sacrifice
@pytest.mark.parametrize("booster,value", [("Excalibur", 5), ("Feint", 3), (None, 2)])
def test_noble_sacrifice_may_boost_during_combat(booster, value):
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=[NOBLE, "Excalibur", "Feint"]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": NOBLE, "by": ARTHUR, "target": "Sinbad", "defense": None, "boost": None}, [booster])
    assert out["combat"]["attack_value"] == value
    assert hp(out, "Sinbad") == 15 - value
    assert sorted(p0(out)["hand"] + p0(out)["discard"]) == sorted([NOBLE, "Excalibur", "Feint"])
    assert p0(out)["discard"] == ([booster] if booster else []) + [NOBLE]


def test_noble_sacrifice_cancelled_by_feint_no_boost_of_either_kind():
    # Feint cancels the DURING "you may BOOST" (not asked: empty script) and the face-down BOOST.
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=[NOBLE, "Excalibur", DIVINE]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Feint"]),
    ), {"attack": NOBLE, "by": ARTHUR, "target": "Sinbad", "defense": "Feint", "boost": "Excalibur"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 2, "damage": 0, "winner": "defender"}
    assert hp(out, "Sinbad") == 15
    assert p0(out)["hand"] == [DIVINE]
    assert sorted(p0(out)["discard"]) == sorted([NOBLE, "Excalibur"])


# ---------------------------------------------------------------- The Aid of Morgana
def test_aid_of_morgana_draws_2_even_when_combat_lost():
    # 4 vs Exploit 4: tie, defender wins; the draw has no "if you won".
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=[MORGANA], deck=["Feint", "Regroup", "Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Leap Away"]),
    ), {"attack": MORGANA, "by": ARTHUR, "target": "Sinbad", "defense": "Exploit"})
    assert out["combat"] == {"attack_value": 4, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert p0(out)["hand"] == ["Feint", "Regroup"] and p0(out)["deck"] == ["Skirmish"]
    assert p1(out)["hand"] == ["Leap Away"]


def test_aid_of_morgana_no_draw_when_it_defeats_sinbad_game_over():
    # docs/rules.md project decision "End of game": the game ends at once.
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=[MORGANA], deck=["Feint", "Regroup"]),
        sinbad(fighters={"Sinbad": at("M20", 4)}),
    ), {"attack": MORGANA, "by": ARTHUR, "target": "Sinbad", "defense": None})
    assert out["fighters"]["Sinbad"]["status"] == "defeated"
    assert out["winner"] == "King Arthur"
    assert p0(out)["hand"] == [] and p0(out)["deck"] == ["Feint", "Regroup"]


def test_aid_of_morgana_is_arthurs_only_merlin_cannot_play_it():
    with pytest.raises(ScenarioError, match="Merlin cannot attack Sinbad with 'The Aid of Morgana'"):
        resolve(game(arthur(fighters={ARTHUR: at("M06"), "Merlin": at("M13")}, hand=[MORGANA]),
                     sinbad(fighters={"Sinbad": at("M20")})),
                {"attack": MORGANA, "by": "Merlin", "target": "Sinbad", "defense": None})


# ---------------------------------------------------------------- Aid the Chosen One
def test_aid_the_chosen_one_won_draws_2_merlin_attacks_at_range():
    # Merlin (ranged) on M07 is not adjacent to Sinbad on M20 but shares the red zone.
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M06"), "Merlin": at("M07")}, hand=[CHOSEN],
               deck=["Excalibur", "Feint", "Regroup"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Regroup"], deck=["Exploit"]),
    ), {"attack": CHOSEN, "by": "Merlin", "target": "Sinbad", "defense": "Regroup"})
    assert out["combat"] == {"attack_value": 4, "defense_value": 1, "damage": 3, "winner": "attacker"}
    assert hp(out, "Sinbad") == 12
    assert p0(out)["hand"] == ["Excalibur", "Feint"] and p0(out)["deck"] == ["Regroup"]
    assert p1(out)["hand"] == ["Exploit"]


def test_aid_the_chosen_one_lost_no_draw():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M06"), "Merlin": at("M07")}, hand=[CHOSEN],
               deck=["Excalibur", "Feint", "Regroup"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Leap Away"]),
    ), {"attack": CHOSEN, "by": "Merlin", "target": "Sinbad", "defense": "Exploit"})
    assert out["combat"] == {"attack_value": 4, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert p0(out)["hand"] == [] and p0(out)["deck"] == ["Excalibur", "Feint", "Regroup"]
    assert hp(out, "Merlin") == 7


def test_aid_the_chosen_one_is_merlins_only():
    with pytest.raises(ScenarioError, match="King Arthur cannot attack Sinbad with 'Aid the Chosen One'"):
        resolve(game(arthur(fighters={ARTHUR: at("M21")}, hand=[CHOSEN]),
                     sinbad(fighters={"Sinbad": at("M20")})),
                {"attack": CHOSEN, "by": ARTHUR, "target": "Sinbad", "defense": None})


# ---------------------------------------------------------------- Swift Strike
def test_swift_strike_arthur_moves_up_to_4_after_combat():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=["Swift Strike"]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": "Swift Strike", "by": ARTHUR, "target": "Sinbad", "defense": None, "boost": None}, ["M24"])
    assert out["combat"]["attack_value"] == 3 and hp(out, "Sinbad") == 12
    assert space(out, ARTHUR) == "M24" and dist("M21", "M24") == 4


def test_swift_strike_by_merlin_moves_merlin():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M06"), "Merlin": at("M13")}, hand=["Swift Strike"]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": "Swift Strike", "by": "Merlin", "target": "Sinbad", "defense": None}, ["M02"])
    assert hp(out, "Sinbad") == 12
    assert space(out, "Merlin") == "M02" and dist("M13", "M02") == 3
    assert space(out, ARTHUR) == "M06"


def test_swift_strike_cannot_move_5():
    with pytest.raises(ScenarioError, match=r"'M16'.*destination space"):
        resolve(game(arthur(fighters={ARTHUR: at("M21")}, hand=["Swift Strike"]),
                     sinbad(fighters={"Sinbad": at("M20")})),
                {"attack": "Swift Strike", "by": ARTHUR, "target": "Sinbad", "defense": None}, ["M16"])


# ---------------------------------------------------------------- Divine Intervention
def test_divine_intervention_attack_arthur_moves_up_to_5():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=[DIVINE]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": DIVINE, "by": ARTHUR, "target": "Sinbad", "defense": None}, ["M16"])
    assert out["combat"]["attack_value"] == 3 and hp(out, "Sinbad") == 12
    assert space(out, ARTHUR) == "M16" and dist("M21", "M16") == 5


def test_divine_intervention_defense_arthur_moves_up_to_5_even_when_losing():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=[DIVINE]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": ARTHUR, "defense": DIVINE}, ["M23"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 3, "damage": 1, "winner": "attacker"}
    assert hp(out, ARTHUR) == 17
    assert space(out, ARTHUR) == "M23"


def test_divine_intervention_cannot_move_6():
    with pytest.raises(ScenarioError, match=r"'M12'.*destination space"):
        resolve(game(arthur(fighters={ARTHUR: at("M21")}, hand=[DIVINE]),
                     sinbad(fighters={"Sinbad": at("M20")})),
                {"attack": DIVINE, "by": ARTHUR, "target": "Sinbad", "defense": None}, ["M12"])


def test_divine_intervention_is_arthurs_only_merlin_cannot_defend_with_it():
    with pytest.raises(ScenarioError, match=r"defense card.*legal options: Feint, no card"):
        resolve(game(arthur(fighters={ARTHUR: at("M06"), "Merlin": at("M21")}, hand=[DIVINE, "Feint"]),
                     sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"]), active=1),
                {"attack": "Exploit", "by": "Sinbad", "target": "Merlin", "defense": DIVINE})


# ---------------------------------------------------------------- Skirmish (Arthur)
def test_arthur_skirmish_won_moves_the_opposing_fighter_up_to_2():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=["Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Regroup"], deck=["Exploit"]),
    ), {"attack": "Skirmish", "by": ARTHUR, "target": "Sinbad", "defense": "Regroup", "boost": None},
        ["Sinbad", "M28"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 1, "damage": 3, "winner": "attacker"}
    assert hp(out, "Sinbad") == 12
    assert space(out, "Sinbad") == "M28" and space(out, ARTHUR) == "M21"


def test_arthur_skirmish_on_defense_tie_wins_moves_arthur():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=["Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": ARTHUR, "defense": "Skirmish"}, [ARTHUR, "M26"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert space(out, ARTHUR) == "M26" and space(out, "Sinbad") == "M20"


def test_arthur_skirmish_lost_no_move():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=["Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
    ), {"attack": "Skirmish", "by": ARTHUR, "target": "Sinbad", "defense": "Exploit", "boost": None})
    assert out["combat"]["winner"] == "defender"
    assert space(out, "Sinbad") == "M20" and space(out, ARTHUR) == "M21"


# ---------------------------------------------------------------- Momentous Shift (Arthur)
@pytest.mark.parametrize("started_on,value", [("M25", 5), ("M21", 3)])
def test_arthur_momentous_shift_value_5_if_started_elsewhere(started_on, value):
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=["Momentous Shift"], started_on={ARTHUR: started_on}),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": "Momentous Shift", "by": ARTHUR, "target": "Sinbad", "defense": None})
    assert out["combat"]["attack_value"] == value
    assert hp(out, "Sinbad") == 15 - value


def test_arthur_momentous_shift_with_face_down_boost():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=["Momentous Shift", "Excalibur"], started_on={ARTHUR: "M25"}),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
    ), {"attack": "Momentous Shift", "by": ARTHUR, "target": "Sinbad", "defense": "Exploit", "boost": "Excalibur"})
    assert out["combat"] == {"attack_value": 8, "defense_value": 4, "damage": 4, "winner": "attacker"}
    assert hp(out, "Sinbad") == 11


# ---------------------------------------------------------------- Feint (Arthur)
def test_arthur_feint_cancels_attackers_after_effect():
    # Apes with 2 other Voyages: 4, and would deal 2 after combat; cancelled: printed 2, no damage.
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=["Feint"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=[APES],
               discard=["Voyage Home", "Voyage to the Island That Was a Whale"]),
        active=1,
    ), {"attack": APES, "by": "Sinbad", "target": ARTHUR, "defense": "Feint"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 2, "damage": 0, "winner": "defender"}
    assert hp(out, ARTHUR) == 18
    assert p0(out)["discard"] == ["Feint"]


def test_arthur_feint_attack_cancels_regroup_draw():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=["Feint"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Regroup"], deck=["Exploit", "Leap Away"]),
    ), {"attack": "Feint", "by": ARTHUR, "target": "Sinbad", "defense": "Regroup"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 1, "damage": 1, "winner": "attacker"}
    assert hp(out, "Sinbad") == 14
    assert p1(out)["hand"] == [] and p1(out)["deck"] == ["Exploit", "Leap Away"]


# ---------------------------------------------------------------- Regroup (Arthur)
def test_arthur_regroup_won_draws_2():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=["Regroup"], deck=["Excalibur", "Feint", "Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": "Regroup", "by": ARTHUR, "target": "Sinbad", "defense": None})
    assert out["combat"] == {"attack_value": 1, "defense_value": 0, "damage": 1, "winner": "attacker"}
    assert p0(out)["hand"] == ["Excalibur", "Feint"] and p0(out)["deck"] == ["Skirmish"]


def test_arthur_regroup_on_defense_lost_draws_1():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=["Regroup"], deck=["Excalibur", "Feint", "Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Leap Away"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": ARTHUR, "defense": "Regroup"})
    assert out["combat"] == {"attack_value": 4, "defense_value": 1, "damage": 3, "winner": "attacker"}
    assert hp(out, ARTHUR) == 15
    assert p0(out)["hand"] == ["Excalibur"] and p0(out)["deck"] == ["Feint", "Skirmish"]


# ---------------------------------------------------------------- The Holy Grail
@pytest.mark.parametrize("start,after", [(7, 8), (5, 8), (8, 5), (18, 15)])
def test_holy_grail_sets_health_to_8_only_at_4_or_less(start, after):
    # Exploit 4 vs Grail 1: 3 combat damage. 7 -> 4 -> 8; 5 -> 2 -> 8; 8 -> 5 (no); 18 -> 15.
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21", start)}, hand=[GRAIL]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": ARTHUR, "defense": GRAIL})
    assert out["combat"] == {"attack_value": 4, "defense_value": 1, "damage": 3, "winner": "attacker"}
    assert hp(out, ARTHUR) == after
    assert p0(out)["discard"] == [GRAIL]


def test_holy_grail_works_without_combat_damage_when_already_at_4_or_less():
    # Regroup 1 vs Grail 1: tie, no damage; Arthur at 3 is "4 or less, not defeated" -> 8.
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21", 3)}, hand=[GRAIL]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Regroup"], deck=["Feint", "Exploit"]),
        active=1,
    ), {"attack": "Regroup", "by": "Sinbad", "target": ARTHUR, "defense": GRAIL})
    assert out["combat"] == {"attack_value": 1, "defense_value": 1, "damage": 0, "winner": "defender"}
    assert hp(out, ARTHUR) == 8
    assert p1(out)["hand"] == ["Feint"]


def test_holy_grail_not_when_arthur_is_defeated():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21", 3)}, hand=[GRAIL]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": ARTHUR, "defense": GRAIL})
    assert out["fighters"][ARTHUR] == {"space": None, "health": 0, "status": "defeated"}
    assert out["winner"] == "Sinbad"


def test_holy_grail_cancelled_by_attackers_feint():
    # Sinbad's Feint (2) vs Grail (1): 1 damage, 5 -> 4; the Grail's effect is cancelled.
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21", 5)}, hand=[GRAIL]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Feint"]),
        active=1,
    ), {"attack": "Feint", "by": "Sinbad", "target": ARTHUR, "defense": GRAIL})
    assert out["combat"] == {"attack_value": 2, "defense_value": 1, "damage": 1, "winner": "attacker"}
    assert hp(out, ARTHUR) == 4


def test_holy_grail_is_arthurs_only_merlin_cannot_defend_with_it():
    with pytest.raises(ScenarioError, match=r"defense card.*legal options: Regroup, no card"):
        resolve(game(arthur(fighters={ARTHUR: at("M06"), "Merlin": at("M21")}, hand=[GRAIL, "Regroup"]),
                     sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"]), active=1),
                {"attack": "Exploit", "by": "Sinbad", "target": "Merlin", "defense": GRAIL})


def test_R04_gaze_of_stone_vs_holy_grail_arthur_10_ends_at_1():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M20", 10)}, hand=[GRAIL]),
        medusa(fighters={"Medusa": at("M21")}, hand=["Gaze of Stone"]),
        active=1,
    ), {"attack": "Gaze of Stone", "by": "Medusa", "target": ARTHUR, "defense": GRAIL})
    assert out["combat"] == {"attack_value": 2, "defense_value": 1, "damage": 1, "winner": "attacker"}
    # 10 - 1 = 9: the Grail (defender first) checks 9 > 4, nothing; then 8 damage -> 1
    assert hp(out, ARTHUR) == 1
    assert "health is set" not in log_text(out)
    assert out["winner"] is None


def test_R04_gaze_of_stone_vs_holy_grail_arthur_5_grail_to_8_then_gaze_defeats():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M20", 5)}, hand=[GRAIL]),
        medusa(fighters={"Medusa": at("M21")}, hand=["Gaze of Stone"]),
        active=1,
    ), {"attack": "Gaze of Stone", "by": "Medusa", "target": ARTHUR, "defense": GRAIL})
    assert out["combat"]["winner"] == "attacker"
    lines = out["log"]
    grail = lines.index("    King Arthur's health is set to 8")
    gaze = lines.index("    King Arthur takes 8 damage (health 0)")
    assert lines.index("    King Arthur takes 1 damage (health 4)") < grail < gaze
    assert out["fighters"][ARTHUR]["status"] == "defeated"
    assert out["winner"] == "Medusa"


# ---------------------------------------------------------------- Bewilderment
BEWILDER_POS = game(
    arthur(fighters={ARTHUR: at("M06"), "Merlin": at("M21")}, hand=["Bewilderment"]),
    sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
    active=1,
)


def test_bewilderment_prevents_combat_damage_and_merlin_may_be_placed_anywhere():
    out = resolve(BEWILDER_POS, {"attack": "Exploit", "by": "Sinbad", "target": "Merlin",
                                 "defense": "Bewilderment"}, [True, "M12"])
    assert out["combat"]["damage"] == 0 and out["combat"]["winner"] == "defender"
    assert out["combat"]["attack_value"] == 4 and out["combat"]["defense_value"] == 0
    assert hp(out, "Merlin") == 7
    assert space(out, "Merlin") == "M12"          # placed, not moved: far away
    assert p1(out)["hand"] == ["Feint"]            # Exploit still draws


def test_bewilderment_place_declined_merlin_stays():
    out = resolve(BEWILDER_POS, {"attack": "Exploit", "by": "Sinbad", "target": "Merlin",
                                 "defense": "Bewilderment"}, [False])
    assert hp(out, "Merlin") == 7 and space(out, "Merlin") == "M21"


def test_bewilderment_place_needs_an_empty_space():
    with pytest.raises(ScenarioError, match=r"'M06'.*space to place on"):
        resolve(BEWILDER_POS, {"attack": "Exploit", "by": "Sinbad", "target": "Merlin",
                               "defense": "Bewilderment"}, [True, "M06"])


def test_bewilderment_vs_gaze_of_stone_no_combat_damage_so_no_8_damage():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M06"), "Merlin": at("M20", 3)}, hand=["Bewilderment"]),
        medusa(fighters={"Medusa": at("M21")}, hand=["Gaze of Stone"]),
        active=1,
    ), {"attack": "Gaze of Stone", "by": "Medusa", "target": "Merlin", "defense": "Bewilderment"}, [False])
    assert out["combat"]["winner"] == "defender"
    assert hp(out, "Merlin") == 3


def test_bewilderment_cancelled_by_feint_damage_goes_through():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M06"), "Merlin": at("M21")}, hand=["Bewilderment"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Feint"]),
        active=1,
    ), {"attack": "Feint", "by": "Sinbad", "target": "Merlin", "defense": "Bewilderment"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 0, "damage": 2, "winner": "attacker"}
    assert hp(out, "Merlin") == 5 and space(out, "Merlin") == "M21"


def test_bewilderment_is_merlins_only():
    with pytest.raises(ScenarioError, match=r"defense card.*legal options: Feint, no card"):
        resolve(game(arthur(fighters={ARTHUR: at("M21")}, hand=["Bewilderment", "Feint"]),
                     sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"]), active=1),
                {"attack": "Exploit", "by": "Sinbad", "target": ARTHUR, "defense": "Bewilderment"})


# ---------------------------------------------------------------- The Lady of the Lake
def test_lady_of_the_lake_finds_excalibur_in_discard_deck_untouched():
    deck = ["Feint", "Regroup", "Skirmish", "Swift Strike", DIVINE]
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=[LADY, "Feint"], deck=deck,
               discard=[NOBLE, "Excalibur", "Regroup"]),
        sinbad(fighters={"Sinbad": at("M06")}),
    ), {"scheme": LADY, "by": ARTHUR})
    assert p0(out)["hand"] == ["Feint", "Excalibur"]
    assert p0(out)["deck"] == deck                         # not searched, not shuffled
    assert p0(out)["discard"] == [NOBLE, "Regroup", LADY]
    assert "    King Arthur searches and finds Excalibur" in out["log"]
    assert out["actions_left"] == 1


def test_lady_of_the_lake_finds_excalibur_in_deck_and_shuffles_it():
    deck = ["Feint", "Regroup", "Skirmish", "Excalibur", "Swift Strike", DIVINE, NOBLE, MORGANA]
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=[LADY], deck=deck, discard=["Regroup"]),
        sinbad(fighters={"Sinbad": at("M06")}),
    ), {"scheme": LADY, "by": ARTHUR}, seed=3)
    assert p0(out)["hand"] == ["Excalibur"]
    rest = [c for c in deck if c != "Excalibur"]
    assert sorted(p0(out)["deck"]) == sorted(rest) and len(p0(out)["deck"]) == 7
    assert p0(out)["deck"] != rest                         # seed 3: the shuffle changed the order
    assert p0(out)["discard"] == ["Regroup", LADY]
    assert "    King Arthur searches and finds Excalibur (deck shuffled)" in out["log"]


def test_lady_of_the_lake_without_excalibur_anywhere_takes_nothing():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=[LADY, "Excalibur"], deck=["Feint"], discard=["Regroup"]),
        sinbad(fighters={"Sinbad": at("M06")}),
    ), {"scheme": LADY, "by": ARTHUR})
    assert p0(out)["hand"] == ["Excalibur"] and p0(out)["deck"] == ["Feint"]
    assert "searches and finds nothing" in log_text(out)


def test_lady_of_the_lake_is_arthurs_only():
    with pytest.raises(ScenarioError, match="Merlin cannot play the scheme 'The Lady of the Lake'"):
        resolve(game(arthur(fighters={ARTHUR: at("M21"), "Merlin": at("M13")}, hand=[LADY], deck=["Excalibur"]),
                     sinbad(fighters={"Sinbad": at("M06")})),
                {"scheme": LADY, "by": "Merlin"})


# ---------------------------------------------------------------- Prophecy
PROPHECY_POS = game(
    arthur(fighters={ARTHUR: at("M21"), "Merlin": at("M13")}, hand=["Prophecy"],
           deck=["Excalibur", "Swift Strike", "Regroup", "Feint", "Skirmish"]),
    sinbad(fighters={"Sinbad": at("M06")}),
)


def test_prophecy_keeps_2_and_puts_2_back_on_top_in_chosen_order():
    # look_top (sim/engine/effects.py): the 2 kept cards are chosen first; then the
    # rest go back one at a time, each onto the top of the deck, in the order chosen.
    # The card put back LAST ends up on top; the last one is forced (not asked).
    out = resolve(PROPHECY_POS, {"scheme": "Prophecy", "by": "Merlin"},
                  ["Regroup", "Excalibur", "Feint"])
    assert p0(out)["hand"] == ["Regroup", "Excalibur"]
    assert p0(out)["deck"] == ["Swift Strike", "Feint", "Skirmish"]
    assert p0(out)["discard"] == ["Prophecy"]
    assert "    King Arthur looks at the top 4 card(s) of the deck" in out["log"]
    assert hp(out, ARTHUR) == 18 and hp(out, "Merlin") == 7    # looking is not drawing


def test_prophecy_other_order_back():
    out = resolve(PROPHECY_POS, {"scheme": "Prophecy", "by": "Merlin"},
                  ["Regroup", "Excalibur", "Swift Strike"])
    assert p0(out)["hand"] == ["Regroup", "Excalibur"]
    assert p0(out)["deck"] == ["Feint", "Swift Strike", "Skirmish"]


def test_prophecy_keeps_any_2_of_the_top_4():
    out = resolve(PROPHECY_POS, {"scheme": "Prophecy", "by": "Merlin"},
                  ["Feint", "Swift Strike", "Excalibur"])
    assert p0(out)["hand"] == ["Feint", "Swift Strike"]
    assert p0(out)["deck"] == ["Regroup", "Excalibur", "Skirmish"]


def test_prophecy_cannot_keep_the_fifth_card():
    with pytest.raises(ScenarioError, match=r"'Skirmish'.*card to take"):
        resolve(PROPHECY_POS, {"scheme": "Prophecy", "by": "Merlin"}, ["Skirmish", "Regroup", "Feint"])


def test_prophecy_with_3_cards_no_exhaustion():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21"), "Merlin": at("M13")}, hand=["Prophecy"],
               deck=["Excalibur", "Feint", "Regroup"]),
        sinbad(fighters={"Sinbad": at("M06")}),
    ), {"scheme": "Prophecy", "by": "Merlin"}, ["Excalibur", "Regroup"])
    assert p0(out)["hand"] == ["Excalibur", "Regroup"] and p0(out)["deck"] == ["Feint"]
    assert hp(out, ARTHUR) == 18 and hp(out, "Merlin") == 7


def test_prophecy_is_merlins_only():
    with pytest.raises(ScenarioError, match="King Arthur cannot play the scheme 'Prophecy'"):
        resolve(PROPHECY_POS, {"scheme": "Prophecy", "by": ARTHUR}, ["Regroup", "Excalibur", "Feint"])


# ---------------------------------------------------------------- Restless Spirits
def spirits_pos(porter_hp=6, deck=("Feint", "Regroup")):
    # Merlin on M07 (green/red/yellow). Sinbad on M20 (red), the Porter on M27
    # (brown: adjacent to M20, outside Merlin's zones), Arthur on M21 (adjacent to M20).
    return game(
        arthur(fighters={ARTHUR: at("M21"), "Merlin": at("M07")}, hand=[SPIRITS], deck=list(deck)),
        sinbad(fighters={"Sinbad": at("M20"), "The Porter": at("M27", porter_hp)}),
    )


def test_restless_spirits_2_damage_on_chosen_space_and_adjacent_one():
    out = resolve(spirits_pos(), {"scheme": SPIRITS, "by": "Merlin"}, ["M20", "M27"])
    assert hp(out, "Sinbad") == 13 and hp(out, "The Porter") == 4
    assert p0(out)["hand"] == [] and p0(out)["deck"] == ["Feint", "Regroup"]     # nobody defeated: no draw
    assert p0(out)["discard"] == [SPIRITS]


def test_restless_spirits_defeat_draws_1():
    out = resolve(spirits_pos(porter_hp=2), {"scheme": SPIRITS, "by": "Merlin"}, ["M20", "M27"])
    assert hp(out, "Sinbad") == 13
    assert out["fighters"]["The Porter"]["status"] == "defeated"
    assert p0(out)["hand"] == ["Feint"] and p0(out)["deck"] == ["Regroup"]


def test_restless_spirits_own_fighters_not_hurt():
    out = resolve(spirits_pos(), {"scheme": SPIRITS, "by": "Merlin"}, ["M20", "M21"])
    assert hp(out, "Sinbad") == 13 and hp(out, ARTHUR) == 18 and hp(out, "The Porter") == 6


def test_restless_spirits_first_space_must_be_in_merlins_zone():
    with pytest.raises(ScenarioError, match=r"'M27'.*space to place on"):
        resolve(spirits_pos(), {"scheme": SPIRITS, "by": "Merlin"}, ["M27", "M20"])


def test_restless_spirits_second_space_must_be_adjacent():
    with pytest.raises(ScenarioError) as e:
        resolve(spirits_pos(), {"scheme": SPIRITS, "by": "Merlin"}, ["M20", "M07"])
    assert str(e.value).endswith("legal options: M13, M21, M27")


def test_restless_spirits_defeating_sinbad_wins_at_once():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21"), "Merlin": at("M07")}, hand=[SPIRITS], deck=["Feint"]),
        sinbad(fighters={"Sinbad": at("M20", 2)}),
    ), {"scheme": SPIRITS, "by": "Merlin"}, ["M20", "M13"])
    assert out["fighters"]["Sinbad"]["status"] == "defeated"
    assert out["winner"] == "King Arthur"


# ---------------------------------------------------------------- Command the Storms
def test_command_the_storms_moves_every_fighter_including_opposing():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21"), "Merlin": at("M13")}, hand=[STORMS]),
        sinbad(fighters={"Sinbad": at("M20"), "The Porter": at("M06")}),
    ), {"scheme": STORMS, "by": "Merlin"},
        ["Sinbad", "M29", "The Porter", "M03", "Merlin", "M08", "M26"])
    assert space(out, "Sinbad") == "M29" and dist("M20", "M29") == 3
    assert space(out, "The Porter") == "M03" and dist("M06", "M03") == 3
    assert space(out, "Merlin") == "M08"
    assert space(out, ARTHUR) == "M26"
    assert p0(out)["discard"] == [STORMS]


def test_command_the_storms_opposing_fighter_cannot_move_4():
    with pytest.raises(ScenarioError, match=r"'M30'.*destination space"):
        resolve(game(
            arthur(fighters={ARTHUR: at("M21"), "Merlin": at("M13")}, hand=[STORMS]),
            sinbad(fighters={"Sinbad": at("M20")}),
        ), {"scheme": STORMS, "by": "Merlin"}, ["Sinbad", "M30"])


def test_command_the_storms_moved_opponent_cannot_pass_through_arthurs_fighters():
    # Sinbad on M20 is boxed by Merlin (M13) and Arthur (M21): M25 is 2 away only through
    # Arthur, so it is not reachable; M27-M28-M29 is. Fighters may also stay (move 0).
    with pytest.raises(ScenarioError) as e:
        resolve(game(
            arthur(fighters={ARTHUR: at("M21"), "Merlin": at("M13")}, hand=[STORMS]),
            sinbad(fighters={"Sinbad": at("M20")}),
        ), {"scheme": STORMS, "by": "Merlin"}, ["Sinbad", "M25"])
    legal = str(e.value).split("legal options: ")[1].split(", ")
    assert sorted(legal) == ["M20", "M27", "M28", "M29"]
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21"), "Merlin": at("M13")}, hand=[STORMS]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"scheme": STORMS, "by": "Merlin"}, ["Sinbad", "M20", ARTHUR, "M21", "M13"])
    assert (space(out, "Sinbad"), space(out, ARTHUR), space(out, "Merlin")) == ("M20", "M21", "M13")


def test_command_the_storms_is_merlins_only():
    with pytest.raises(ScenarioError, match="King Arthur cannot play the scheme 'Command the Storms'"):
        resolve(game(arthur(fighters={ARTHUR: at("M21"), "Merlin": at("M13")}, hand=[STORMS]),
                     sinbad(fighters={"Sinbad": at("M20")})),
                {"scheme": STORMS, "by": ARTHUR})


def test_R27_command_the_storms_with_merlin_defeated_cannot_be_played():
    with pytest.raises(ScenarioError, match="cannot play the scheme 'Command the Storms'") as e:
        resolve(game(arthur(fighters={ARTHUR: at("M21"), "Merlin": "defeated"}, hand=[STORMS]),
                     sinbad(fighters={"Sinbad": at("M06")})),
                {"scheme": STORMS, "by": ARTHUR})
    assert "maneuver only" in str(e.value)


def test_R27_command_the_storms_with_merlin_defeated_boosts_a_maneuver():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21"), "Merlin": "defeated"}, hand=[STORMS], deck=["Feint"]),
        sinbad(fighters={"Sinbad": at("M06")}),
    ), {"maneuver": True}, [STORMS, "M24"])
    assert space(out, ARTHUR) == "M24" and dist("M21", "M24") == 2 + 2
    assert p0(out)["hand"] == ["Feint"] and p0(out)["discard"] == [STORMS]


def test_R27_command_the_storms_with_merlin_defeated_boosts_arthurs_attack():
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21"), "Merlin": "defeated"}, hand=["Excalibur", STORMS]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": "Excalibur", "by": ARTHUR, "target": "Sinbad", "defense": None, "boost": STORMS})
    assert out["combat"]["attack_value"] == 8 and hp(out, "Sinbad") == 7
    assert p0(out)["discard"] == ["Excalibur", STORMS]


# =========================================================================== Alice

# ---------------------------------------------------------------- ability: size at setup
def test_alice_chooses_her_size_at_setup_in_real_games():
    m = Match(["alice", "medusa"])
    sizes = set()
    for seed in range(8):
        g = m.play(seed)
        log = g.log.tolist()
        first_turn = next(i for i, e in enumerate(log) if e[0] == L.EV_TURN)
        setup_counters = [e for e in log[:first_turn] if e[0] == L.EV_COUNTER]
        assert len(setup_counters) == 1
        ev, player, slot, value, *_ = setup_counters[0]
        assert (player, slot) == (0, 0) and value in (0, 1)
        # right after Alice's Jabberwock is placed, before Medusa is placed
        i = log.index(setup_counters[0])
        assert log[i - 1][0] == L.EV_SETUP and log[i - 1][1] == 1
        assert log[i + 1][0] == L.EV_SETUP and log[i + 1][1] == 4
        lines = narrate(g)
        assert f"    Alice: size is now {('big', 'small')[value]}" in lines[:lines.index("Turn 1: Alice")]
        sizes.add(value)
    assert sizes == {0, 1}          # the random policy takes both choices


@pytest.mark.parametrize("choice,name", [(0, "big"), (1, "small")])
def test_alice_setup_size_choice_is_scripted(choice, name):
    m = Match(["alice", "medusa"])
    st = m.new_state()
    log = np.zeros((200, L.EV_FIELDS), np.int64)
    jab = BF.index("M20")     # the Jabberwock's setup space (Alice starts on M13), then the size
    ctl = new_control((MODE_SCRIPT, MODE_RANDOM, MODE_RANDOM, MODE_RANDOM),
                      [(L.DOM_SPACE, jab), (L.DOM_INT, choice)])
    setup_game(st, m.tables, ctl, log, m.rows, 2, 5)
    assert st[L.G_ERR] == 0
    slot, values = m.specs[0].counters["size"]
    assert values[int(st[L.pslot(0, L.P_COUNTER0 + slot)])] == name
    assert int(st[L.fslot(1, L.F_SPACE)]) == jab


# ---------------------------------------------------------------- R28 / R30 / R31
def test_R28a_big_alice_attacking_with_versatile_gets_plus_2():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=[LATE]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": LATE, "by": "Alice", "target": "Sinbad", "defense": None}, ["M21"])
    assert out["combat"]["attack_value"] == 4
    assert hp(out, "Sinbad") == 11


def test_R28b_big_gives_nothing_to_the_jabberwock():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M06"), JABBER: at("M21")}, hand=[JAWS]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": JAWS, "by": JABBER, "target": "Sinbad", "defense": None})
    assert out["combat"]["attack_value"] == 4
    # 4 combat, then Jaws That Bite's 2 (Sinbad is the only fighter adjacent)
    assert hp(out, "Sinbad") == 15 - 4 - 2


def test_R28c_big_alice_defending_gets_nothing():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=["Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": "Skirmish"}, ["Alice", "M21"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert hp(out, "Alice") == 13


def test_small_alice_defending_gets_plus_1():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M21")}, hand=["Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": "Skirmish"}, ["Sinbad", "M27"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 5, "damage": 0, "winner": "defender"}
    assert space(out, "Sinbad") == "M27"


def test_small_alice_attacking_gets_nothing():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M21")}, hand=["Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": "Skirmish", "by": "Alice", "target": "Sinbad", "defense": None}, ["Alice", "M21"])
    assert out["combat"]["attack_value"] == 4 and hp(out, "Sinbad") == 11


def test_small_alice_without_a_defense_card_gets_no_bonus():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M21")}, hand=[]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": None})
    assert out["combat"] == {"attack_value": 4, "defense_value": 0, "damage": 4, "winner": "attacker"}
    assert hp(out, "Alice") == 9


def test_small_gives_nothing_to_the_defending_jabberwock():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M06"), JABBER: at("M21")}, hand=["Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": JABBER, "defense": "Skirmish"}, [JABBER, "M21"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 4, "damage": 0, "winner": "defender"}


def test_R30_big_snicker_snack_vs_feint_keeps_size_bonus_no_discard():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=["Snicker-Snack"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Feint", "Exploit", "Regroup"]),
    ), {"attack": "Snicker-Snack", "by": "Alice", "target": "Sinbad", "defense": "Feint"})
    assert out["combat"] == {"attack_value": 5, "defense_value": 2, "damage": 3, "winner": "attacker"}
    assert hp(out, "Sinbad") == 12
    assert p1(out)["hand"] == ["Exploit", "Regroup"]       # nothing discarded
    assert p1(out)["discard"] == ["Feint"]
    assert p1(out)["hand_seen"] is False


def test_R30_with_medusa_defending():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M20")}, hand=["Snicker-Snack"]),
        medusa(fighters={"Medusa": at("M21")}, hand=["Feint", "Gaze of Stone"]),
    ), {"attack": "Snicker-Snack", "by": "Alice", "target": "Medusa", "defense": "Feint"})
    assert out["combat"]["attack_value"] == 5 and hp(out, "Medusa") == 13
    assert p1(out)["hand"] == ["Gaze of Stone"] and p1(out)["hand_seen"] is False


def test_R31_mushroom_then_next_attack_gets_no_bonus():
    sc = Scenario(game(
        alice("big", fighters={"Alice": at("M21")}, hand=[MUSHROOM, "Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ))
    out = sc.run({"attack": MUSHROOM, "by": "Alice", "target": "Sinbad", "defense": None}, ["M21"], "error")
    assert out["combat"]["attack_value"] == 5 and hp(out, "Sinbad") == 10
    assert size(out) == "small"
    out = sc.run({"attack": "Skirmish", "by": "Alice", "target": "Sinbad", "defense": None},
                 ["Alice", "M21"], "error")
    assert out["combat"]["attack_value"] == 4          # SMALL: no attack bonus
    assert hp(out, "Sinbad") == 6


def test_R31_mushroom_then_next_defense_gets_plus_1():
    sc = Scenario(game(
        alice("big", fighters={"Alice": at("M21")}, hand=[MUSHROOM, "Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
    ))
    out = sc.run({"attack": MUSHROOM, "by": "Alice", "target": "Sinbad", "defense": None}, ["M21"], "error")
    assert out["combat"]["attack_value"] == 5 and size(out) == "small"
    out = sc.run({"end_of_turn": True}, [], "error")
    out = sc.run({"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": "Skirmish"},
                 ["Alice", "M21"], "error")
    assert out["combat"] == {"attack_value": 4, "defense_value": 5, "damage": 0, "winner": "defender"}
    assert hp(out, "Alice") == 13


# ---------------------------------------------------------------- Snicker-Snack
def test_snicker_snack_won_alice_picks_the_discard():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=["Snicker-Snack"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Feint", "Exploit", "Regroup"]),
    ), {"attack": "Snicker-Snack", "by": "Alice", "target": "Sinbad", "defense": None}, ["Exploit"])
    assert out["combat"]["attack_value"] == 5 and hp(out, "Sinbad") == 10
    assert p1(out)["hand"] == ["Feint", "Regroup"] and p1(out)["discard"] == ["Exploit"]
    assert p1(out)["hand_seen"] is True
    assert p0(out)["discard"] == ["Snicker-Snack"]


def test_snicker_snack_defenders_draw_first_then_alice_picks_from_it():
    # Regroup lost: Sinbad draws 1 (defender first); Snicker-Snack may take the drawn card.
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=["Snicker-Snack"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Regroup", "Feint"], deck=["Leap Away"]),
    ), {"attack": "Snicker-Snack", "by": "Alice", "target": "Sinbad", "defense": "Regroup"}, ["Leap Away"])
    assert out["combat"] == {"attack_value": 5, "defense_value": 1, "damage": 4, "winner": "attacker"}
    assert p1(out)["hand"] == ["Feint"]
    assert p1(out)["discard"] == ["Leap Away", "Regroup"]   # played cards are discarded at cleanup


def test_snicker_snack_lost_no_discard():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M21")}, hand=["Snicker-Snack"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit", "Feint"], deck=["Regroup"]),
    ), {"attack": "Snicker-Snack", "by": "Alice", "target": "Sinbad", "defense": "Exploit"})
    assert out["combat"] == {"attack_value": 3, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert p1(out)["hand"] == ["Feint", "Regroup"] and p1(out)["hand_seen"] is False


# ---------------------------------------------------------------- O Frabjous Day!
@pytest.mark.parametrize("before,value,after", [("big", 6, "small"), ("small", 4, "big")])
def test_o_frabjous_day_changes_size_after_combat(before, value, after):
    out = resolve(game(
        alice(before, fighters={"Alice": at("M21")}, hand=[FRABJOUS]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": FRABJOUS, "by": "Alice", "target": "Sinbad", "defense": None})
    assert out["combat"]["attack_value"] == value
    assert hp(out, "Sinbad") == 15 - value
    assert size(out) == after
    assert f"    Alice: size is now {after}" in out["log"]


def test_o_frabjous_day_cancelled_by_feint_size_unchanged():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=[FRABJOUS]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Feint"]),
    ), {"attack": FRABJOUS, "by": "Alice", "target": "Sinbad", "defense": "Feint"})
    assert out["combat"]["attack_value"] == 6 and hp(out, "Sinbad") == 11
    assert size(out) == "big"


# ---------------------------------------------------------------- The Other Side of the Mushroom
def test_other_side_of_the_mushroom_moves_up_to_3_then_changes_size():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M21")}, hand=[MUSHROOM]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": MUSHROOM, "by": "Alice", "target": "Sinbad", "defense": None}, ["M23"])
    assert out["combat"]["attack_value"] == 3 and hp(out, "Sinbad") == 12
    assert space(out, "Alice") == "M23" and dist("M21", "M23") == 3
    assert size(out) == "big"


def test_other_side_of_the_mushroom_cannot_move_4():
    with pytest.raises(ScenarioError, match=r"'M24'.*destination space"):
        resolve(game(alice("small", fighters={"Alice": at("M21")}, hand=[MUSHROOM]),
                     sinbad(fighters={"Sinbad": at("M20")})),
                {"attack": MUSHROOM, "by": "Alice", "target": "Sinbad", "defense": None}, ["M24"])


# ---------------------------------------------------------------- Claws That Catch
def test_claws_that_catch_value_5_against_a_hero():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M06"), JABBER: at("M21")}, hand=[CLAWS]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": CLAWS, "by": JABBER, "target": "Sinbad", "defense": None})
    assert out["combat"]["attack_value"] == 5 and hp(out, "Sinbad") == 10


def test_claws_that_catch_value_3_against_a_sidekick():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M06"), JABBER: at("M21")}, hand=[CLAWS]),
        sinbad(fighters={"Sinbad": at("M13"), "The Porter": at("M20")}),
    ), {"attack": CLAWS, "by": JABBER, "target": "The Porter", "defense": None})
    assert out["combat"]["attack_value"] == 3 and hp(out, "The Porter") == 3
    assert hp(out, "Sinbad") == 15


def test_claws_that_catch_is_the_jabberwocks_only():
    with pytest.raises(ScenarioError, match="Alice cannot attack Sinbad with 'Claws That Catch'"):
        resolve(game(alice("big", fighters={"Alice": at("M21")}, hand=[CLAWS]),
                     sinbad(fighters={"Sinbad": at("M20")})),
                {"attack": CLAWS, "by": "Alice", "target": "Sinbad", "defense": None})


# ---------------------------------------------------------------- Jaws That Bite
JAWS_POS = game(
    # Jabberwock on M20; adjacent to it: Sinbad (M21), the Porter (M13) and Alice (M27).
    alice("big", fighters={"Alice": at("M27"), JABBER: at("M20")}, hand=[JAWS]),
    sinbad(fighters={"Sinbad": at("M21"), "The Porter": at("M13")}, hand=["Regroup"], deck=["Feint"]),
)


def test_jaws_that_bite_2_damage_to_a_chosen_adjacent_fighter():
    out = resolve(JAWS_POS, {"attack": JAWS, "by": JABBER, "target": "Sinbad", "defense": "Regroup"},
                  ["The Porter"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 1, "damage": 3, "winner": "attacker"}
    assert hp(out, "Sinbad") == 12 and hp(out, "The Porter") == 4
    assert hp(out, "Alice") == 13 and hp(out, JABBER) == 8


def test_jaws_that_bite_may_hit_alice_any_fighter_adjacent():
    out = resolve(JAWS_POS, {"attack": JAWS, "by": JABBER, "target": "Sinbad", "defense": "Regroup"},
                  ["Alice"])
    assert hp(out, "Alice") == 11 and hp(out, "The Porter") == 6 and hp(out, "Sinbad") == 12


def test_jaws_that_bite_lists_only_adjacent_fighters():
    # Jabberwock on M20: Sinbad (M21) and the Porter (M13) are adjacent, Alice (M06) is not.
    with pytest.raises(ScenarioError) as e:
        resolve(game(
            alice("big", fighters={"Alice": at("M06"), JABBER: at("M20")}, hand=[JAWS]),
            sinbad(fighters={"Sinbad": at("M21"), "The Porter": at("M13")}),
        ), {"attack": JAWS, "by": JABBER, "target": "Sinbad", "defense": None}, ["Alice"])
    assert "target fighter" in str(e.value)
    assert str(e.value).endswith("legal options: Sinbad, The Porter")


def test_jaws_that_bite_single_adjacent_fighter_not_asked():
    # The Porter on M07 is not adjacent to M20: Sinbad is the only choice (not asked).
    out = resolve(game(
        alice("big", fighters={"Alice": at("M06"), JABBER: at("M20")}, hand=[JAWS]),
        sinbad(fighters={"Sinbad": at("M21"), "The Porter": at("M07")}),
    ), {"attack": JAWS, "by": JABBER, "target": "Sinbad", "defense": None})
    assert hp(out, "Sinbad") == 15 - 4 - 2 and hp(out, "The Porter") == 6


def test_jaws_that_bite_is_the_jabberwocks_only():
    with pytest.raises(ScenarioError, match="Alice cannot attack Sinbad with 'Jaws That Bite'"):
        resolve(game(alice("big", fighters={"Alice": at("M21")}, hand=[JAWS]),
                     sinbad(fighters={"Sinbad": at("M20")})),
                {"attack": JAWS, "by": "Alice", "target": "Sinbad", "defense": None})


# ---------------------------------------------------------------- Mad as a Hatter
def test_mad_as_a_hatter_each_own_fighter_moves_up_to_2_then_size_changes():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M21"), JABBER: at("M07")}, hand=[HATTER]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": HATTER},
        [JABBER, "M02", "M26"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert space(out, JABBER) == "M02" and dist("M07", "M02") == 2
    assert space(out, "Alice") == "M26" and dist("M21", "M26") == 2
    assert space(out, "Sinbad") == "M20"
    assert size(out) == "big"


def test_mad_as_a_hatter_attack_big_plus_2():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=[HATTER]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": HATTER, "by": "Alice", "target": "Sinbad", "defense": None}, ["M21"])
    assert out["combat"]["attack_value"] == 5 and hp(out, "Sinbad") == 10
    assert size(out) == "small"


def test_mad_as_a_hatter_cannot_move_3():
    with pytest.raises(ScenarioError, match=r"'M23'.*destination space"):
        resolve(game(alice("big", fighters={"Alice": at("M21")}, hand=[HATTER]),
                     sinbad(fighters={"Sinbad": at("M20")})),
                {"attack": HATTER, "by": "Alice", "target": "Sinbad", "defense": None}, ["M23"])


# ---------------------------------------------------------------- I'm Late, I'm Late
def test_im_late_moves_up_to_5_then_changes_size():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=[LATE]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": LATE, "by": "Alice", "target": "Sinbad", "defense": None}, ["M16"])
    assert out["combat"]["attack_value"] == 4 and hp(out, "Sinbad") == 11
    assert space(out, "Alice") == "M16" and dist("M21", "M16") == 5
    assert size(out) == "small"


def test_im_late_on_defense_small_plus_1_then_big():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M21")}, hand=[LATE]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": LATE}, ["M26"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 3, "damage": 1, "winner": "attacker"}
    assert hp(out, "Alice") == 12 and space(out, "Alice") == "M26"
    assert size(out) == "big"


def test_im_late_cannot_move_6():
    with pytest.raises(ScenarioError, match=r"'M12'.*destination space"):
        resolve(game(alice("big", fighters={"Alice": at("M21")}, hand=[LATE]),
                     sinbad(fighters={"Sinbad": at("M20")})),
                {"attack": LATE, "by": "Alice", "target": "Sinbad", "defense": None}, ["M12"])


# ---------------------------------------------------------------- Manxome Foe
def test_manxome_foe_discards_top_card_and_adds_its_boost():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=[MANXOME], deck=["Snicker-Snack", "Feint"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Regroup"]),
    ), {"attack": MANXOME, "by": "Alice", "target": "Sinbad", "defense": "Exploit"})
    # 3 + BOOST 4 (Snicker-Snack) + 2 (BIG) = 9 vs 4
    assert out["combat"] == {"attack_value": 9, "defense_value": 4, "damage": 5, "winner": "attacker"}
    assert hp(out, "Sinbad") == 10
    assert p0(out)["deck"] == ["Feint"] and p0(out)["hand"] == []
    assert p0(out)["discard"] == ["Snicker-Snack", MANXOME]
    assert "    Alice discards the top card of the deck: Snicker-Snack (BOOST 4)" in out["log"]


def test_manxome_foe_empty_deck_adds_0_and_no_exhaustion():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21", 5), JABBER: at("M06", 1)}, hand=[MANXOME], deck=[]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": MANXOME, "by": "Alice", "target": "Sinbad", "defense": None})
    assert out["combat"]["attack_value"] == 5 and hp(out, "Sinbad") == 10
    assert hp(out, "Alice") == 5 and hp(out, JABBER) == 1
    assert p0(out)["discard"] == [MANXOME]


def test_manxome_foe_jabberwock_defending_no_size_bonus():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M06"), JABBER: at("M21")}, hand=[MANXOME], deck=["Regroup", "Eat Me"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": JABBER, "defense": MANXOME})
    # 3 + BOOST 2 (Regroup) = 5, no SMALL bonus for the Jabberwock
    assert out["combat"] == {"attack_value": 4, "defense_value": 5, "damage": 0, "winner": "defender"}
    assert p0(out)["deck"] == ["Eat Me"] and p0(out)["discard"] == ["Regroup", MANXOME]


def test_manxome_foe_cancelled_by_feint_no_discard():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=[MANXOME], deck=["Snicker-Snack"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Feint"]),
    ), {"attack": MANXOME, "by": "Alice", "target": "Sinbad", "defense": "Feint"})
    assert out["combat"]["attack_value"] == 5 and hp(out, "Sinbad") == 12
    assert p0(out)["deck"] == ["Snicker-Snack"]


# ---------------------------------------------------------------- Skirmish (Alice)
def test_alice_skirmish_won_moves_a_combatant_up_to_2():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=["Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": "Skirmish", "by": "Alice", "target": "Sinbad", "defense": None}, ["Sinbad", "M28"])
    assert out["combat"]["attack_value"] == 6 and hp(out, "Sinbad") == 9
    assert space(out, "Sinbad") == "M28"


def test_alice_skirmish_choice_is_one_of_the_two_combatants():
    with pytest.raises(ScenarioError) as e:
        resolve(game(
            alice("big", fighters={"Alice": at("M21"), JABBER: at("M06")}, hand=["Skirmish"]),
            sinbad(fighters={"Sinbad": at("M20")}),
        ), {"attack": "Skirmish", "by": "Alice", "target": "Sinbad", "defense": None}, [JABBER, "M05"])
    assert str(e.value).endswith("legal options: Alice, Sinbad")


# ---------------------------------------------------------------- Momentous Shift (Alice)
@pytest.mark.parametrize("started_on,value", [("M25", 7), ("M21", 5)])
def test_alice_momentous_shift_big(started_on, value):
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=["Momentous Shift"], started_on={"Alice": started_on}),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": "Momentous Shift", "by": "Alice", "target": "Sinbad", "defense": None})
    assert out["combat"]["attack_value"] == value and hp(out, "Sinbad") == 15 - value


def test_jabberwock_momentous_shift_started_elsewhere():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M06"), JABBER: at("M21")}, hand=["Momentous Shift"],
              started_on={JABBER: "M25"}),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": "Momentous Shift", "by": JABBER, "target": "Sinbad", "defense": None})
    assert out["combat"]["attack_value"] == 5 and hp(out, "Sinbad") == 10


# ---------------------------------------------------------------- Feint (Alice)
def test_alice_feint_cancels_arthurs_boosts():
    # Noble Sacrifice with a face-down Excalibur vs SMALL Alice's Feint (2 + 1):
    # both BOOSTs are cancelled, A = 2 < 3.
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=[NOBLE, "Excalibur", DIVINE]),
        alice("small", fighters={"Alice": at("M20")}, hand=["Feint"]),
    ), {"attack": NOBLE, "by": ARTHUR, "target": "Alice", "defense": "Feint", "boost": "Excalibur"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert hp(out, "Alice") == 13
    assert p0(out)["hand"] == [DIVINE]


def test_alice_feint_attack_cancels_the_holy_grail():
    # BIG Alice attacks with Feint (2 + 2); Arthur's Grail would set 2 -> 8, but is cancelled.
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=["Feint"]),
        arthur(fighters={ARTHUR: at("M20", 5)}, hand=[GRAIL]),
    ), {"attack": "Feint", "by": "Alice", "target": ARTHUR, "defense": GRAIL})
    assert out["combat"] == {"attack_value": 4, "defense_value": 1, "damage": 3, "winner": "attacker"}
    assert hp(out, ARTHUR) == 2                  # Grail cancelled: not set to 8


# ---------------------------------------------------------------- Regroup (Alice)
def test_R05_gaze_of_stone_vs_small_alice_regroup_tie_alice_draws_2():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M20")}, hand=["Regroup"], deck=["Eat Me", "Drink Me", "Feint"]),
        medusa(fighters={"Medusa": at("M21")}, hand=["Gaze of Stone"]),
        active=1,
    ), {"attack": "Gaze of Stone", "by": "Medusa", "target": "Alice", "defense": "Regroup"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 2, "damage": 0, "winner": "defender"}
    assert hp(out, "Alice") == 13                          # no 8 damage
    assert p0(out)["hand"] == ["Eat Me", "Drink Me"] and p0(out)["deck"] == ["Feint"]


def test_big_alice_regroup_on_defense_lost_draws_1():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M20")}, hand=["Regroup"], deck=["Eat Me", "Drink Me"]),
        medusa(fighters={"Medusa": at("M21")}, hand=["Gaze of Stone"]),
        active=1,
    ), {"attack": "Gaze of Stone", "by": "Medusa", "target": "Alice", "defense": "Regroup"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 1, "damage": 1, "winner": "attacker"}
    assert hp(out, "Alice") == 13 - 1 - 8
    assert p0(out)["hand"] == ["Eat Me"] and p0(out)["deck"] == ["Drink Me"]


def test_alice_regroup_attack_big_won_draws_2():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=["Regroup"], deck=["Eat Me", "Drink Me", "Feint"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Feint"]),
    ), {"attack": "Regroup", "by": "Alice", "target": "Sinbad", "defense": "Feint"})
    # Feint cancels Regroup's draw; 1 + 2 = 3 vs 2: Alice wins
    assert out["combat"] == {"attack_value": 3, "defense_value": 2, "damage": 1, "winner": "attacker"}
    assert p0(out)["hand"] == [] and p0(out)["deck"] == ["Eat Me", "Drink Me", "Feint"]


# ---------------------------------------------------------------- Looking Glass
GLASS_POS = game(
    alice("small", fighters={"Alice": at("M21", 8)}, hand=[GLASS], deck=["Eat Me", "Drink Me", "Feint"]),
    sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Regroup"]),
    active=1,
)


def test_looking_glass_recover_and_draw():
    out = resolve(GLASS_POS, {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": GLASS}, [2, 1])
    assert out["combat"] == {"attack_value": 4, "defense_value": 3, "damage": 1, "winner": "attacker"}
    assert hp(out, "Alice") == 8 - 1 + 3
    assert p0(out)["hand"] == ["Eat Me", "Drink Me"] and p0(out)["deck"] == ["Feint"]
    assert space(out, "Alice") == "M21"
    assert p1(out)["hand"] == ["Regroup"]


def test_looking_glass_place_then_draw_in_chosen_order():
    out = resolve(GLASS_POS, {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": GLASS},
                  [3, "M12", 1])
    assert space(out, "Alice") == "M12"
    assert hp(out, "Alice") == 7
    assert p0(out)["hand"] == ["Eat Me", "Drink Me"]
    lines = out["log"]
    assert lines.index("    Alice chooses effect 3") < lines.index("    Alice is placed on M12") \
        < lines.index("    Alice chooses effect 1") < lines.index("    Alice draws Eat Me")


def test_looking_glass_recover_capped_at_13():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M21", 12)}, hand=[GLASS], deck=["Eat Me"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Regroup"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": GLASS}, [2, 3, "M01"])
    assert hp(out, "Alice") == 13                     # 12 - 1 + 3, capped
    assert space(out, "Alice") == "M01"


def test_looking_glass_options_must_differ():
    with pytest.raises(ScenarioError) as e:
        resolve(GLASS_POS, {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": GLASS}, [1, 1])
    msg = str(e.value)
    assert "option number" in msg
    assert sorted(msg.split("legal options: ")[1].split(", ")) == ["2", "3"]


def test_looking_glass_place_on_another_space_only():
    with pytest.raises(ScenarioError) as e:
        resolve(GLASS_POS, {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": GLASS},
                [3, "M21", 1])
    legal = str(e.value).split("legal options: ")[1].split(", ")
    assert "M21" not in legal and "M20" not in legal and len(legal) == 31 - 2


def test_looking_glass_cancelled_by_feint_small_bonus_stays():
    # Sinbad's Feint cancels Looking Glass's effects, not Alice's SMALL +1 (an ability): 2 vs 3.
    out = resolve(game(
        alice("small", fighters={"Alice": at("M21", 8)}, hand=[GLASS], deck=["Eat Me", "Drink Me"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Feint"]),
        active=1,
    ), {"attack": "Feint", "by": "Sinbad", "target": "Alice", "defense": GLASS})
    assert out["combat"] == {"attack_value": 2, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert hp(out, "Alice") == 8 and space(out, "Alice") == "M21"
    assert p0(out)["hand"] == [] and p0(out)["deck"] == ["Eat Me", "Drink Me"]


def test_looking_glass_is_alices_only():
    with pytest.raises(ScenarioError, match=r"defense card.*legal options: Feint, no card"):
        resolve(game(alice("small", fighters={"Alice": at("M06"), JABBER: at("M21")}, hand=[GLASS, "Feint"]),
                     sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"]), active=1),
                {"attack": "Exploit", "by": "Sinbad", "target": JABBER, "defense": GLASS})


# ---------------------------------------------------------------- Eat Me
def test_eat_me_moves_up_to_3_then_changes_size():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21"), JABBER: at("M06")}, hand=["Eat Me"]),
        sinbad(fighters={"Sinbad": at("M13")}),
    ), {"scheme": "Eat Me", "by": "Alice"}, ["M27"])
    assert space(out, "Alice") == "M27" and dist("M21", "M27") == 2
    assert size(out) == "small"
    assert p0(out)["discard"] == ["Eat Me"] and out["actions_left"] == 1


def test_eat_me_cannot_move_4_and_is_alices_only():
    pos = game(alice("small", fighters={"Alice": at("M21"), JABBER: at("M06")}, hand=["Eat Me"]),
               sinbad(fighters={"Sinbad": at("M13")}))
    with pytest.raises(ScenarioError, match=r"'M24'.*destination space"):
        resolve(pos, {"scheme": "Eat Me", "by": "Alice"}, ["M24"])
    with pytest.raises(ScenarioError, match="The Jabberwock cannot play the scheme 'Eat Me'"):
        resolve(pos, {"scheme": "Eat Me", "by": JABBER}, ["M23"])


# ---------------------------------------------------------------- Drink Me
@pytest.mark.parametrize("before,after", [("big", "small"), ("small", "big")])
def test_drink_me_draws_2_then_changes_size(before, after):
    out = resolve(game(
        alice(before, fighters={"Alice": at("M21")}, hand=["Drink Me"], deck=["Feint", "Regroup", "Eat Me"]),
        sinbad(fighters={"Sinbad": at("M13")}),
    ), {"scheme": "Drink Me", "by": "Alice"})
    assert p0(out)["hand"] == ["Feint", "Regroup"] and p0(out)["deck"] == ["Eat Me"]
    assert size(out) == after
    assert p0(out)["discard"] == ["Drink Me"]


def test_drink_me_with_one_card_exhaustion_then_size_changes():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21", 6), JABBER: at("M06", 2)}, hand=["Drink Me"], deck=["Feint"]),
        sinbad(fighters={"Sinbad": at("M13")}),
    ), {"scheme": "Drink Me", "by": "Alice"})
    assert p0(out)["hand"] == ["Feint"]
    assert hp(out, "Alice") == 4 and out["fighters"][JABBER]["status"] == "defeated"
    assert size(out) == "small"
