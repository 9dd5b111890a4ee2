"""Card tests for Dracula and the Sisters: the bite (R37) and every card (R38 Look Into My Eyes,
R17 Mistform).
"""
from collections import Counter

import pytest
from helpers.cards import at, hero, hp, pl, run, space, status
from helpers.cobble_fog import (AFOOT, AID, AMBUSH, BAPTISM, BEASTFORM, BIDDING, COUNTER, DASH, DRACULA, ELEMENTARY,
    EXCALIBUR, EXPLOIT, EYES, FEINT, FRENZY, HOLMES, JH, MISTFORM, PREY, S1, S2, S3, SEDUCTION, STUDY, SUCCUMB, THIRST,
    WATSON, dracula, game, holmes, jekyll)

from sim.play.scenario import Scenario, ScenarioError, resolve

pytestmark = pytest.mark.nojit


# =========================================================================== Dracula


BITE = game(dracula(fighters={DRACULA: at("SH05"), S1: at("SH06"), S2: at("SH13")}, deck=[EXPLOIT, DASH]),
            holmes(fighters={HOLMES: at("SH01"), WATSON: at("SH10")}))


def test_R37_dracula_bites_his_own_sister_and_draws():
    out = resolve(BITE, {"start_of_turn": True}, [True])
    assert status(out, S1) == "defeated" and hp(out, S2) == 1       # S2 (SH13) is not next to him
    assert pl(out, 0)["hand"] == [EXPLOIT] and pl(out, 0)["deck"] == [DASH]


def test_R37_the_bite_is_optional():
    out = resolve(BITE, {"start_of_turn": True}, [False])
    assert hp(out, S1) == 1 and pl(out, 0)["hand"] == []


def test_R37_dracula_bites_an_opposing_fighter_of_his_choice():
    pos = game(dracula(fighters={DRACULA: at("SH05"), S1: at("SH06")}, deck=[EXPLOIT]),
               holmes(fighters={HOLMES: at("SH04", 10), WATSON: at("SH10")}))
    out = resolve(pos, {"start_of_turn": True}, [True, HOLMES])
    assert hp(out, HOLMES) == 9 and hp(out, S1) == 1 and pl(out, 0)["hand"] == [EXPLOIT]


def test_R37_no_fighter_next_to_him_no_bite_no_draw():
    pos = game(dracula(fighters={DRACULA: at("SH05")}, deck=[EXPLOIT]),
               holmes(fighters={HOLMES: at("SH01"), WATSON: at("SH10")}))
    out = resolve(pos, {"start_of_turn": True})
    assert out["choices_used"] == 0 and pl(out, 0)["hand"] == [] and hp(out, DRACULA) == 13


DRAC_VS_HOLMES = dict(holmes=holmes(fighters={HOLMES: at("SH04"), WATSON: at("SH10")}))


def _dh(dhand, hhand=(), **d):
    return game(dracula(fighters={DRACULA: at("SH05"), **d.pop("sisters", {})}, hand=list(dhand), **d),
                holmes(fighters={HOLMES: at("SH04"), WATSON: at("SH10")}, hand=list(hhand)))


def test_beastform_plus_1_per_card_discarded():
    out = resolve(_dh([BEASTFORM, FEINT, DASH, EXPLOIT]),
                  {"attack": BEASTFORM, "by": DRACULA, "target": HOLMES, "defense": None}, [FEINT, DASH, None])
    assert out["combat"]["attack_value"] == 8 and hp(out, HOLMES) == 8
    assert pl(out, 0)["hand"] == [EXPLOIT] and Counter(pl(out, 0)["discard"]) == Counter([FEINT, DASH, BEASTFORM])


def test_beastform_may_discard_nothing():
    out = resolve(_dh([BEASTFORM, FEINT]), {"attack": BEASTFORM, "by": DRACULA, "target": HOLMES, "defense": None},
                  [None])
    assert out["combat"]["attack_value"] == 6 and pl(out, 0)["hand"] == [FEINT]


def test_feeding_frenzy_plus_1_per_sister_in_the_opposing_fighters_zone():
    # Holmes on SH04 (lightblue and navy): Sisters on SH03 (lightblue) and SH06 (navy) count, SH09 (gray) not
    pos = _dh([FRENZY], sisters={S1: at("SH03"), S2: at("SH06"), S3: at("SH09")})
    out = resolve(pos, {"attack": FRENZY, "by": DRACULA, "target": HOLMES, "defense": None})
    assert out["combat"]["attack_value"] == 4 and hp(out, HOLMES) == 12


THIRST_POS = game(dracula(fighters={DRACULA: at("SH08"), S1: at("SH03")}, hand=[THIRST]),
                  holmes(fighters={HOLMES: at("SH02"), WATSON: at("SH10")}, hand=[COUNTER]))


def test_thirst_for_sustenance_won_places_dracula_next_to_the_opposing_fighter():
    out = resolve(THIRST_POS, {"attack": THIRST, "by": S1, "target": HOLMES, "defense": None})
    assert hp(out, HOLMES) == 13 and space(out, DRACULA) == "SH01"     # SH01: the empty space next to SH02


def test_thirst_for_sustenance_lost_dracula_stays():
    out = resolve(THIRST_POS, {"attack": THIRST, "by": S1, "target": HOLMES, "defense": COUNTER})
    assert out["combat"]["winner"] == "defender"
    assert space(out, DRACULA) == "SH08" and status(out, S1) == "defeated"   # Counterpunch: 2 damage


def test_ambush_adds_the_boost_of_the_randomly_discarded_card():
    out = resolve(_dh([AMBUSH], [ELEMENTARY]), {"attack": AMBUSH, "by": DRACULA, "target": HOLMES, "defense": None})
    assert out["combat"]["attack_value"] == 2 + 3 and hp(out, HOLMES) == 11
    assert pl(out, 1)["hand"] == [] and pl(out, 1)["discard"] == [ELEMENTARY]


def test_ambush_against_an_empty_hand_adds_nothing():
    out = resolve(_dh([AMBUSH]), {"attack": AMBUSH, "by": DRACULA, "target": HOLMES, "defense": None})
    assert out["combat"]["attack_value"] == 2 and hp(out, HOLMES) == 14


def test_dash_moves_up_to_3_after_combat():
    out = resolve(_dh([DASH]), {"attack": DASH, "by": DRACULA, "target": HOLMES, "defense": None}, ["SH08"])
    assert hp(out, HOLMES) == 13 and space(out, DRACULA) == "SH08"


def test_exploit_draws_1():
    pos = _dh([EXPLOIT], deck=[DASH])
    out = resolve(pos, {"attack": EXPLOIT, "by": DRACULA, "target": HOLMES, "defense": None})
    assert hp(out, HOLMES) == 12 and pl(out, 0)["hand"] == [DASH]


def test_dracula_feint_cancels_the_effects_of_jekylls_card():
    pos = game(jekyll(fighters={JH: at("SH04")}, hand=[SUCCUMB]), dracula(fighters={DRACULA: at("SH05")}, hand=[FEINT]))
    out = resolve(pos, {"attack": SUCCUMB, "by": JH, "target": DRACULA, "defense": FEINT})
    assert out["combat"] == {"attack_value": 2, "defense_value": 2, "damage": 0, "winner": "defender"}
    assert space(out, JH) == "SH04" and pl(out, 0)["counters"] == {"form": "Dr. Jekyll"}   # no move, no Hyde


BIDDING_POS = game(holmes(fighters={HOLMES: at("SH04"), WATSON: at("SH10")}, hand=[AFOOT, COUNTER, STUDY, AID]),
                   dracula(fighters={DRACULA: at("SH05")}, hand=[BIDDING]))


def test_do_my_bidding_dracula_picks_the_attack_card():
    out = resolve(BIDDING_POS, {"attack": AFOOT, "by": HOLMES, "target": DRACULA, "defense": BIDDING}, [STUDY])
    # Study Methods (3) against Do My Bidding (3): no damage, Dracula wins, Study's "if you won" fails
    assert out["combat"] == {"attack_value": 3, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert hp(out, DRACULA) == 13 and pl(out, 0)["hand_seen"] is True      # Dracula saw Holmes's hand
    assert pl(out, 0)["hand"] == [COUNTER, AID, AFOOT] and pl(out, 0)["discard"] == [STUDY]
    assert pl(out, 1)["discard"] == [BIDDING]
    assert any("goes back to Sherlock Holmes's hand" in line for line in out["log"])


def test_do_my_bidding_offers_only_attack_cards_and_may_pick_the_same_one():
    sc = Scenario(BIDDING_POS)
    with pytest.raises(ScenarioError, match="legal options: Counterpunch, Study Methods, The Game is Afoot$"):
        run(sc, {"attack": AFOOT, "by": HOLMES, "target": DRACULA, "defense": BIDDING}, [AID])
    out = resolve(BIDDING_POS, {"attack": AFOOT, "by": HOLMES, "target": DRACULA, "defense": BIDDING},
                  [AFOOT, "SH01"])
    assert out["combat"]["damage"] == 2 and hp(out, DRACULA) == 11 and space(out, HOLMES) == "SH01"
    assert pl(out, 0)["discard"] == [AFOOT] and pl(out, 0)["hand"] == [COUNTER, STUDY, AID]


def test_R38_look_into_my_eyes_adds_the_attack_cards_boost():
    pos = game(hero("king_arthur", fighters={"King Arthur": at("SH04")}, hand=[EXCALIBUR]),
               dracula(fighters={DRACULA: at("SH05")}, hand=[EYES]))
    out = resolve(pos, {"attack": EXCALIBUR, "by": "King Arthur", "target": DRACULA, "defense": EYES, "boost": None})
    assert out["combat"] == {"attack_value": 6, "defense_value": 4, "damage": 2, "winner": "attacker"}
    assert hp(out, DRACULA) == 11


def test_R17_mistform_places_dracula_anywhere_and_gains_an_action():
    pos = game(dracula(fighters={DRACULA: at("SH02")}, hand=[MISTFORM]),
               holmes(fighters={HOLMES: at("SH01"), WATSON: at("SH03")}), actions=1)
    out = resolve(pos, {"scheme": MISTFORM, "by": DRACULA}, ["SH20"])
    assert space(out, DRACULA) == "SH20" and out["actions_left"] == 2
    assert "Dracula is placed on SH20" in "\n".join(out["log"])
    with pytest.raises(ScenarioError, match="not legal"):        # only empty spaces
        resolve(pos, {"scheme": MISTFORM, "by": DRACULA}, ["SH03"])


def test_R69_mistform_dracula_may_stay_where_he_is_and_still_gains_the_action():
    pos = game(dracula(fighters={DRACULA: at("SH02")}, hand=[MISTFORM]),
               holmes(fighters={HOLMES: at("SH01"), WATSON: at("SH03")}), actions=1)
    out = resolve(pos, {"scheme": MISTFORM, "by": DRACULA}, ["SH02"])
    assert space(out, DRACULA) == "SH02" and out["actions_left"] == 2
    assert "is placed" not in "\n".join(out["log"])


@pytest.mark.parametrize("start, after", [(10, 12), (12, 13)])
def test_prey_upon_1_damage_to_each_adjacent_opponent_and_1_health_per_damage(start, after):
    pos = game(dracula(fighters={DRACULA: at("SH05", start), S1: at("SH13")}, hand=[PREY]),
               holmes(fighters={HOLMES: at("SH04"), WATSON: at("SH06")}))
    out = resolve(pos, {"scheme": PREY, "by": DRACULA})
    assert (hp(out, HOLMES), hp(out, WATSON), hp(out, DRACULA), hp(out, S1)) == (15, 7, after, 1)


def test_R40_baptism_of_blood_recovery_is_capped_and_one_sister_returns():
    pos = game(dracula(fighters={DRACULA: at("SH05", 12), S1: at("SH06")}, hand=[BAPTISM]),
               holmes(fighters={HOLMES: at("SH01"), WATSON: at("SH10")}))
    with pytest.raises(ScenarioError, match="legal options: SH04, SH07, SH08, SH13, SH15, SH16$"):
        resolve(pos, {"scheme": BAPTISM, "by": DRACULA}, ["SH20"])       # only Dracula's zone (navy)
    out = resolve(pos, {"scheme": BAPTISM, "by": DRACULA}, ["SH16"])
    assert hp(out, DRACULA) == 13
    assert (space(out, S2), hp(out, S2), status(out, S3)) == ("SH16", 1, "defeated")


def test_ravening_seduction_damage_per_sister_next_to_the_moved_fighter():
    pos = game(dracula(fighters={DRACULA: at("SH20"), S1: at("SH05"), S2: at("SH07")}, hand=[SEDUCTION]),
               holmes(fighters={HOLMES: at("SH13"), WATSON: at("SH10")}))
    out = resolve(pos, {"scheme": SEDUCTION, "by": S1}, [HOLMES, "SH06"])
    assert space(out, HOLMES) == "SH06" and hp(out, HOLMES) == 14       # Sisters on SH05 and SH07
    out = resolve(pos, {"scheme": SEDUCTION, "by": S1}, [WATSON, "SH11"])
    assert space(out, WATSON) == "SH11" and hp(out, WATSON) == 8         # no Sister next to SH11
