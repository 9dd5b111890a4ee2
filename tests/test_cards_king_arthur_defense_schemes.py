"""Card tests for King Arthur's defense and scheme cards: The Holy Grail, Bewilderment, The Lady
of the Lake, Prophecy, Restless Spirits and Command the Storms.
"""
import pytest
from helpers.cards import arthur, at, dist, game, hp, log_text, medusa, p0, p1, sinbad, space
from helpers.arthur_alice import ARTHUR, DIVINE, GRAIL, LADY, MORGANA, NOBLE, SPIRITS, STORMS

from sim.play.scenario import ScenarioError, resolve

pytestmark = pytest.mark.nojit


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


APES = "Voyage to the City of the Man-Eating Apes"   # Sinbad: attack 2; after combat: 2 damage to the opposing fighter


def _bewilder_apes(**rules):
    pos = game(arthur(fighters={ARTHUR: at("M06"), "Merlin": at("M21")}, hand=["Bewilderment"]),
               sinbad(fighters={"Sinbad": at("M20")}, hand=[APES]), active=1)
    if rules:
        pos["rules"] = rules
    return pos


def test_R70_bewilderment_prevents_all_damage_to_merlin_for_the_rest_of_the_combat():
    out = resolve(_bewilder_apes(), {"attack": APES, "by": "Sinbad", "target": "Merlin",
                                     "defense": "Bewilderment"}, [False])
    assert out["combat"] == {"attack_value": 2, "defense_value": 0, "damage": 0, "winner": "defender"}
    assert hp(out, "Merlin") == 7                  # the Apes' 2 damage after combat is prevented too


def test_R70_rules_option_prevent_combat_damage_only_the_after_combat_damage_lands():
    out = resolve(_bewilder_apes(prevent_combat_damage_only=1),
                  {"attack": APES, "by": "Sinbad", "target": "Merlin", "defense": "Bewilderment"}, [False])
    assert out["combat"] == {"attack_value": 2, "defense_value": 0, "damage": 0, "winner": "defender"}
    assert hp(out, "Merlin") == 5


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
