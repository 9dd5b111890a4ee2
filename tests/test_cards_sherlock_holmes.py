"""Card tests for Sherlock Holmes and Dr. Watson: uncancelable effects (R08, R51), Deduce Strategy
(R52), Elementary's guesses and every other card.
"""
from collections import Counter

import pytest
from helpers.cards import at, hero, hp, pl, space, status
from helpers.cobble_fog import (AFOOT, AID, AMBUSH, APES, BEASTFORM, CONFIRM, COUNTER, DASH, DEDUCE, DISGUISE, DRACULA,
    EDUCATION, ELEMENTARY, ELIMINATE, EXCALIBUR, EXPLOIT, EYES, FEINT, FIXED, FRENZY, HOLMES, JH, MISTFORM, REVOLVER,
    S1, STUDY, THIRST, WATSON, dracula, game, holmes, jekyll)

from sim.play.scenario import ScenarioError, resolve

pytestmark = pytest.mark.nojit

GAZE = "Gaze of Stone"           # Medusa: attack 2, BOOST 4


# =========================================================================== Sherlock Holmes

def _hd(hhand=(), dhand=(), hdeck=(), ddeck=(), ddisc=(), hs="SH05", ws="SH10", active=0, hhp=None, whp=None,
        ds="SH04", sisters=None, **kw):
    return game(holmes(fighters={HOLMES: at(hs, hhp), WATSON: at(ws, whp)}, hand=list(hhand), deck=list(hdeck)),
                dracula(fighters={DRACULA: at(ds), **(sisters or {})}, hand=list(dhand), deck=list(ddeck),
                        discard=list(ddisc)), active=active, **kw)


def test_R08_holmes_card_effects_cannot_be_cancelled():
    pos = game(holmes(fighters={HOLMES: at("SH04"), WATSON: at("SH10")}, hand=[AFOOT]),
               hero("alice", counters={"size": "small"}, fighters={"Alice": at("SH05")}, hand=[FEINT]))
    out = resolve(pos, {"attack": AFOOT, "by": HOLMES, "target": "Alice", "defense": FEINT}, ["SH01"])
    assert out["combat"] == {"attack_value": 5, "defense_value": 3, "damage": 2, "winner": "attacker"}
    assert hp(out, "Alice") == 11 and space(out, HOLMES) == "SH01"       # Afoot's move still happens
    assert "Alice tries to cancel the attack card's effects, but they cannot be cancelled" in "\n".join(out["log"])


def test_R51_holmes_any_card_feint_cancels_and_can_be_cancelled():
    pos = game(hero("alice", counters={"size": "big"}, fighters={"Alice": at("SH05")}, hand=[FEINT]),
               holmes(fighters={HOLMES: at("SH04"), WATSON: at("SH10")}, hand=[FEINT]))
    out = resolve(pos, {"attack": FEINT, "by": "Alice", "target": HOLMES, "defense": FEINT})
    log = "\n".join(out["log"])
    assert "Sherlock Holmes cancels the effects on the attack card" in log and "Alice cancels" not in log
    # Holmes attacks with an ANY card (Study Methods): Alice's Feint cancels it, he does not see her hand
    pos = game(holmes(fighters={HOLMES: at("SH04"), WATSON: at("SH10")}, hand=[STUDY]),
               hero("alice", counters={"size": "big"}, fighters={"Alice": at("SH05")}, hand=[FEINT, "Regroup"]))
    out = resolve(pos, {"attack": STUDY, "by": HOLMES, "target": "Alice", "defense": FEINT})
    assert out["combat"] == {"attack_value": 3, "defense_value": 2, "damage": 1, "winner": "attacker"}
    assert "Alice cancels the effects on the attack card" in "\n".join(out["log"])
    assert pl(out, 1)["hand_seen"] is False


def test_service_revolver_watson_shoots_across_the_zone():
    pos = game(holmes(fighters={HOLMES: at("SH01"), WATSON: at("SH07")}, hand=[REVOLVER]),
               jekyll(fighters={JH: at("SH05")}, hand=[FEINT]))
    out = resolve(pos, {"attack": REVOLVER, "by": WATSON, "target": JH, "defense": FEINT})
    assert out["combat"] == {"attack_value": 5, "defense_value": 2, "damage": 3, "winner": "attacker"}
    assert hp(out, JH) == 13 and "cannot be cancelled" in "\n".join(out["log"])


def test_R52_deduce_strategy_printed_value_becomes_the_boost():
    pos = game(hero("king_arthur", fighters={"King Arthur": at("SH04")}, hand=[EXCALIBUR, "Noble Sacrifice"]),
               holmes(fighters={HOLMES: at("SH05"), WATSON: at("SH10")}, hand=[DEDUCE]))
    step = {"attack": EXCALIBUR, "by": "King Arthur", "target": HOLMES, "defense": DEDUCE, "boost": None}
    out = resolve(pos, step, [True])
    assert out["combat"] == {"attack_value": 3, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert hp(out, HOLMES) == 16 and "sets the printed value of the attack card to 3" in "\n".join(out["log"])
    out = resolve(pos, step, [False])                                  # "you may"
    assert out["combat"]["attack_value"] == 6 and hp(out, HOLMES) == 13
    out = resolve(pos, {**step, "boost": "Noble Sacrifice"}, [True])  # variant: Arthur's face-down BOOST adds 3
    assert out["combat"] == {"attack_value": 6, "defense_value": 3, "damage": 3, "winner": "attacker"}


def test_R52_deduce_strategy_against_a_voyage_then_its_own_bonus_applies():
    pos = game(hero("sinbad", fighters={"Sinbad": at("SH04")}, hand=[APES],
                    discard=["Voyage to the Island That Was a Whale", "Voyage Home"]),
               holmes(fighters={HOLMES: at("SH05"), WATSON: at("SH10")}, hand=[DEDUCE]))
    out = resolve(pos, {"attack": APES, "by": "Sinbad", "target": HOLMES, "defense": DEDUCE}, [True])
    assert out["combat"] == {"attack_value": 0 + 2, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert hp(out, HOLMES) == 14                                     # Apes' own 2 damage still happens


def test_counterpunch_2_damage_only_if_holmes_is_next_to_the_opposing_fighter():
    out = resolve(_hd([COUNTER], [DASH], active=1), {"attack": DASH, "by": DRACULA, "target": HOLMES,
                                                     "defense": COUNTER}, ["SH03"])
    assert out["combat"]["winner"] == "defender" and hp(out, DRACULA) == 11 and space(out, DRACULA) == "SH03"
    pos = game(hero("medusa", fighters={"Medusa": at("SH07")}, hand=[GAZE]),
               holmes(fighters={HOLMES: at("SH05"), WATSON: at("SH10")}, hand=[COUNTER]))
    out = resolve(pos, {"attack": GAZE, "by": "Medusa", "target": HOLMES, "defense": COUNTER})
    assert out["combat"]["winner"] == "defender" and hp(out, "Medusa") == 16     # same zone, not adjacent


def test_R02_fixed_point_watson_defeated_no_recovery():
    pos = game(hero("alice", counters={"size": "big"}, fighters={"Alice": at("SH06")}, hand=["Snicker-Snack"]),
               holmes(fighters={HOLMES: at("SH04", 10), WATSON: at("SH05", 2)}, hand=[FIXED, FEINT, STUDY]))
    out = resolve(pos, {"attack": "Snicker-Snack", "by": "Alice", "target": WATSON, "defense": FIXED}, [STUDY])
    assert out["combat"] == {"attack_value": 5, "defense_value": 3, "damage": 2, "winner": "attacker"}
    assert status(out, WATSON) == "defeated" and hp(out, HOLMES) == 10 and out["winner"] is None
    assert pl(out, 1)["hand"] == [FEINT] and pl(out, 1)["discard"] == [STUDY, FIXED]   # Snicker-Snack's pick


def test_fixed_point_both_recover_1_when_watson_is_next_to_holmes():
    pos = game(hero("medusa", fighters={"Medusa": at("SH07")}, hand=[GAZE]),
               holmes(fighters={HOLMES: at("SH04", 10), WATSON: at("SH05", 5)}, hand=[FIXED]))
    out = resolve(pos, {"attack": GAZE, "by": "Medusa", "target": WATSON, "defense": FIXED})
    assert out["combat"]["winner"] == "defender" and (hp(out, HOLMES), hp(out, WATSON)) == (11, 6)
    pos["players"][1]["fighters"][HOLMES] = at("SH01", 10)
    out = resolve(pos, {"attack": GAZE, "by": "Medusa", "target": WATSON, "defense": FIXED})
    assert (hp(out, HOLMES), hp(out, WATSON)) == (10, 5)


@pytest.mark.parametrize("defense, holmes_hand, dracula_hand", [(None, [], [FEINT]), (EXPLOIT, [AID, ELIMINATE], [FEINT])])
def test_education_never_ends(defense, holmes_hand, dracula_hand):
    pos = _hd([EDUCATION], [EXPLOIT], hdeck=[AID, ELIMINATE], ddeck=[FEINT], hs="SH05", ds="SH04")
    out = resolve(pos, {"attack": EDUCATION, "by": HOLMES, "target": DRACULA, "defense": defense})
    assert pl(out, 0)["hand"] == holmes_hand
    assert pl(out, 1)["hand"] == ([EXPLOIT] if defense is None else []) + dracula_hand


@pytest.mark.parametrize("defense, seen", [(None, True), (EXPLOIT, False)])
def test_study_methods_look_at_the_hand_if_won(defense, seen):
    out = resolve(_hd([STUDY], [EXPLOIT, MISTFORM], ddeck=[FEINT]),
                  {"attack": STUDY, "by": HOLMES, "target": DRACULA, "defense": defense})
    assert pl(out, 1)["hand_seen"] is seen


def test_elementary_right_prediction_cancels_and_ignores_the_attack():
    pos = _hd([ELEMENTARY], [DASH], active=1)
    out = resolve(pos, {"attack": DASH, "by": DRACULA, "target": HOLMES, "defense": ELEMENTARY}, [3])
    assert out["combat"] == {"attack_value": 0, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert space(out, DRACULA) == "SH04"                       # Dash's move cancelled
    assert "Sherlock Holmes names the value 3" in "\n".join(out["log"])


def test_elementary_wrong_prediction_changes_nothing():
    pos = _hd([ELEMENTARY], [BEASTFORM], active=1)
    out = resolve(pos, {"attack": BEASTFORM, "by": DRACULA, "target": HOLMES, "defense": ELEMENTARY}, [4])
    assert out["combat"] == {"attack_value": 6, "defense_value": 3, "damage": 3, "winner": "attacker"}
    assert hp(out, HOLMES) == 13


def test_elementary_guesses_from_public_information_only():
    # Dracula's attack cards: Beastform 6, Feeding Frenzy 2, Ambush 2, Dash 3, Feint 2, Exploit 4 (Thirst for
    # Sustenance is a Sister's). Both Exploits are in his discard pile, so 4 is not offered; his hand and
    # the order of his deck make no difference.
    step = {"attack": DASH, "by": DRACULA, "target": HOLMES, "defense": ELEMENTARY}
    for dhand, ddeck in (([DASH], []), ([DASH, BEASTFORM, AMBUSH], [FEINT, FRENZY]), ([DASH, MISTFORM], [DASH])):
        pos = _hd([ELEMENTARY], dhand, ddeck=ddeck, ddisc=[EXPLOIT, EXPLOIT], active=1)
        with pytest.raises(ScenarioError, match="Sherlock Holmes's value to name; legal options: 2, 3, 6$"):
            resolve(pos, step, [5])
    # a Sister attacks: only the cards a Sister may play (Thirst 3, Ambush 2, Dash 3, Feint 2, Exploit 4)
    pos = _hd([ELEMENTARY], [THIRST], active=1, sisters={S1: at("SH06")})
    with pytest.raises(ScenarioError, match="legal options: 2, 3, 4$"):
        resolve(pos, {"attack": THIRST, "by": S1, "target": HOLMES, "defense": ELEMENTARY}, [6])


def test_elementary_the_random_policy_guesses_uniformly():
    pos = _hd([ELEMENTARY], [DASH], active=1)
    step = {"attack": DASH, "by": DRACULA, "target": HOLMES, "defense": ELEMENTARY}
    named = Counter()
    for seed in range(200):
        out = resolve(pos, step, [], seed=seed, fallback="random")
        line = next(x for x in out["log"] if "names the value" in x)
        named[int(line.split()[-1])] += 1
    assert set(named) == {2, 3, 4, 6} and min(named.values()) >= 30     # 50 each expected


@pytest.mark.parametrize("value, dhand, choices, dracula_hp, discarded", [
    (4, [EXPLOIT, FEINT, MISTFORM], [], 12, [EXPLOIT]),         # Exploit: BOOST 1
    (2, [FEINT, AMBUSH, MISTFORM], [AMBUSH], 10, [AMBUSH]),      # his choice among the 2s: Ambush, BOOST 3
])
def test_confirm_suspicion_matching_card_discarded_and_its_boost_as_damage(value, dhand, choices, dracula_hp, discarded):
    out = resolve(_hd([CONFIRM], dhand), {"scheme": CONFIRM, "by": HOLMES}, [value] + choices)
    assert hp(out, DRACULA) == dracula_hp and pl(out, 1)["discard"] == discarded
    assert pl(out, 1)["hand_seen"] is False


def test_confirm_suspicion_no_matching_card_the_hand_is_revealed():
    out = resolve(_hd([CONFIRM], [EXPLOIT, FEINT, MISTFORM]), {"scheme": CONFIRM, "by": HOLMES}, [6])
    assert hp(out, DRACULA) == 13 and pl(out, 1)["hand"] == [EXPLOIT, FEINT, MISTFORM]
    assert pl(out, 1)["hand_seen"] is True


def test_confirm_suspicion_names_the_values_his_cards_not_discarded_may_have_and_one_none_has():
    # Look Into My Eyes is the only value 1: with both in the discard pile, 1 is like any value none of
    # his cards can have, and 0 stands for all of those (R67)
    pos = _hd([CONFIRM], [EXPLOIT], ddisc=[EYES, EYES])
    with pytest.raises(ScenarioError, match="legal options: 0, 2, 3, 4, 6$"):
        resolve(pos, {"scheme": CONFIRM, "by": HOLMES}, [1])


def _hm(hhand=(), mhand=(), ms="SH20", active=0):
    """Holmes (SH05) and Watson (SH10) against Medusa, whose cards carry the values 1 to 4."""
    return game(holmes(fighters={HOLMES: at("SH05"), WATSON: at("SH10")}, hand=list(hhand)),
                hero("medusa", fighters={"Medusa": at(ms)}, hand=list(mhand)), active=active)


def test_R67_confirm_suspicion_may_name_a_value_no_card_has_and_then_sees_the_hand():
    pos = _hm([CONFIRM], ["Snipe", "Feint"])
    with pytest.raises(ScenarioError, match="legal options: 0, 1, 2, 3, 4$"):
        resolve(pos, {"scheme": CONFIRM, "by": HOLMES}, [5])
    out = resolve(pos, {"scheme": CONFIRM, "by": HOLMES}, [0])
    assert pl(out, 1)["hand_seen"] is True and pl(out, 1)["hand"] == ["Snipe", "Feint"]
    assert hp(out, "Medusa") == 16 and pl(out, 1)["discard"] == []
    out = resolve(pos, {"scheme": CONFIRM, "by": HOLMES}, [3])            # Snipe: discarded, BOOST 1
    assert pl(out, 1)["discard"] == ["Snipe"] and hp(out, "Medusa") == 15 and pl(out, 1)["hand_seen"] is False


def test_R67_elementary_offers_only_values_the_attack_card_can_have():
    # naming a value none of Medusa's attack cards can have (1 to 3; The Hounds of Mighty Zeus, 4, is the
    # Harpies') could never be right and does nothing else
    pos = _hm([ELEMENTARY], ["Snipe"], ms="SH04", active=1)
    with pytest.raises(ScenarioError, match="Sherlock Holmes's value to name; legal options: 1, 2, 3$"):
        resolve(pos, {"attack": "Snipe", "by": "Medusa", "target": HOLMES, "defense": ELEMENTARY}, [0])


# R68: Geralt (Tawny Owl in play) holds Rend (printed 3, BOOST 2) and Igni (printed 0)
OWL_POS = game(holmes(fighters={HOLMES: at("SH05"), WATSON: at("SH10")}, hand=[CONFIRM]),
               hero("geralt_of_rivia@steel+medallion+owl", fighters={"Geralt of Rivia": at("SH20")},
                    hand=["Rend", "Igni"], ongoing="Tawny Owl"))


def test_R68_confirm_suspicion_against_tawny_owl_ignoring_the_discard_reveals_nothing():
    # he holds a card of the named value, so the hand is not revealed even when he ignores the discard
    out = resolve(OWL_POS, {"scheme": CONFIRM, "by": HOLMES}, [3, True])
    assert pl(out, 1)["hand"] == ["Rend", "Igni"] and pl(out, 1)["hand_seen"] is False
    assert hp(out, "Geralt of Rivia") == 16
    out = resolve(OWL_POS, {"scheme": CONFIRM, "by": HOLMES}, [3, False])       # or he lets it happen
    assert pl(out, 1)["discard"] == ["Rend"] and hp(out, "Geralt of Rivia") == 14
    assert pl(out, 1)["hand_seen"] is False


def test_R68_confirm_suspicion_against_tawny_owl_without_a_matching_card_the_hand_is_revealed():
    # nothing to discard, so nothing to ignore: no question, the hand is shown
    out = resolve(OWL_POS, {"scheme": CONFIRM, "by": HOLMES}, [4])
    assert pl(out, 1)["hand_seen"] is True and pl(out, 1)["hand"] == ["Rend", "Igni"]
    assert out["choices_used"] == 1


def test_R69_administer_aid_watson_may_stay_only_on_a_space_next_to_holmes():
    # Watson next to Holmes (SH04): his own space is one the card allows, so he may stay
    out = resolve(_hd([AID], hdeck=[FEINT], ws="SH04", ds="SH20"), {"scheme": AID, "by": WATSON}, ["SH04"])
    assert space(out, WATSON) == "SH04" and pl(out, 0)["hand"] == [FEINT]
    # Watson away from Holmes: only the empty spaces next to Holmes
    with pytest.raises(ScenarioError, match="space to place on; legal options: SH04, SH06$"):
        resolve(_hd([AID], hdeck=[FEINT], ds="SH20"), {"scheme": AID, "by": WATSON}, ["SH10"])


def test_eliminate_the_impossible_holmes_picks_the_discard():
    out = resolve(_hd([ELIMINATE], [EXPLOIT, MISTFORM]), {"scheme": ELIMINATE, "by": HOLMES}, [MISTFORM])
    assert pl(out, 1)["hand"] == [EXPLOIT] and pl(out, 1)["discard"] == [MISTFORM] and pl(out, 1)["hand_seen"]


def test_master_of_disguise_swaps_with_the_opposing_hero_then_1_damage():
    out = resolve(_hd([DISGUISE], hs="SH01", ds="SH20", sisters={S1: at("SH05")}), {"scheme": DISGUISE, "by": HOLMES})
    assert (space(out, HOLMES), space(out, DRACULA), hp(out, DRACULA), hp(out, S1)) == ("SH20", "SH01", 12, 1)


def test_administer_aid_watson_next_to_holmes_holmes_recovers_1_draw_1():
    out = resolve(_hd([AID], hhp=10, hdeck=[FEINT], ds="SH20"), {"scheme": AID, "by": WATSON}, ["SH06"])
    assert space(out, WATSON) == "SH06" and hp(out, HOLMES) == 11 and pl(out, 0)["hand"] == [FEINT]
    with pytest.raises(ScenarioError, match="legal options: SH04, SH06$"):
        resolve(_hd([AID], hhp=10, hdeck=[FEINT], ds="SH20"), {"scheme": AID, "by": WATSON}, ["SH07"])
