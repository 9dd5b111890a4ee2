"""Card tests for King Arthur and Merlin: the face-down BOOST ability, the rules cases R23, R24,
R25, and the attack and versatile cards (Excalibur ... Regroup).
"""
import pytest
from helpers.cards import alice, arthur, at, dist, game, hp, log_text, p0, p1, sinbad, space
from helpers.arthur_alice import ARTHUR, DIVINE, GLASS, GRAIL, LADY, MORGANA, NOBLE, SPIRITS, STORMS, size

from sim.play.scenario import ScenarioError, resolve

pytestmark = pytest.mark.nojit

CHOSEN = "Aid the Chosen One"
APES = "Voyage to the City of the Man-Eating Apes"


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
