"""Card tests for the Invisible Man: the fog tokens (R22, R45, R46), Vanish (R48), Emerge From
Mist (R49) and every other card.
"""
import numpy as np
import pytest
from helpers.cards import at, hero, hp, pl, run, space, status
from helpers.cobble_fog import (AFOOT, APES, CODED, CONFOUND, COUNTER, COVERT, DEDUCE, DISGUISE, ELIMINATE, EMERGE,
    EXCALIBUR, FEINT, HOLMES, IM, LURKING, REVENGE, ROLLING, SH, SLIP, STEP, STUDY, SURPRISE, TERROR, THIN_AIR, UNSEEN,
    VANISH, WATSON, game, holmes, invisible)

from sim.engine import layout as L
from sim.engine.game import setup_game
from sim.engine.policy import MODE_RANDOM, new_control
from sim.play.match import Match
from sim.play.scenario import Scenario, ScenarioError, resolve

pytestmark = pytest.mark.nojit


# =========================================================================== the Invisible Man

FOG3 = ["SH05", "SH16", "SH20"]


def _ih(fog=FOG3, ihand=(), hhand=(), ideck=(), hdeck=(), ihp=None, im="SH05", hs="SH04", ws="SH10", **kw):
    return game(invisible(fog, fighters={IM: at(im, ihp)}, hand=list(ihand), deck=list(ideck)),
                holmes(fighters={HOLMES: at(hs), WATSON: at(ws)}, hand=list(hhand), deck=list(hdeck)), **kw)


@pytest.mark.parametrize("seat", [0, 1])
def test_R22_setup_three_fog_tokens_on_separate_empty_spaces_of_his_zone(seat):
    heroes = ["invisible_man", "medusa"] if seat == 0 else ["medusa", "invisible_man"]
    m = Match(heroes, battlefield="soho")
    for seed in range(20):
        st = m.new_state()
        log = np.zeros((500, L.EV_FIELDS), np.int64)
        setup_game(st, m.tables, new_control((MODE_RANDOM,) * 4), log, m.rows, 2, seed)
        fog = [int(st[L.pslot(seat, L.P_FOG0 + i)]) for i in range(3)]
        start = int(SH.starts[seat])
        assert len(set(fog)) == 3 and all(SH.zone_mask[s] & SH.zone_mask[start] for s in fog)
        occupied = {int(st[L.fslot(f, L.F_SPACE)]) for f in range(L.MAX_FIGHTERS)
                    if st[L.fslot(f, L.F_STATUS)] == L.FS_IN_PLAY}
        if seat == 0:
            assert not set(fog) & occupied - {int(st[L.fslot(f, L.F_SPACE)]) for f in range(L.FIGHTERS_PER_PLAYER, 2 * L.FIGHTERS_PER_PLAYER)}
        else:
            assert not set(fog) & occupied
        assert int(st[L.pslot(1 - seat, L.P_FOG0)]) == -1          # Medusa has no fog
        assert sum(1 for row in log if row[0] == L.EV_FOG) == 3


@pytest.mark.parametrize("fog, defense_value, health", [(FOG3, 5, 14), (["SH16", "SH20"], 4, 13)])
def test_R45_plus_1_defense_on_fog_and_into_thin_air(fog, defense_value, health):
    pos = game(hero("king_arthur", fighters={"King Arthur": at("SH04")}, hand=[EXCALIBUR]),
               invisible(fog, fighters={IM: at("SH05")}, hand=[THIN_AIR]))
    out = resolve(pos, {"attack": EXCALIBUR, "by": "King Arthur", "target": IM, "defense": THIN_AIR, "boost": None},
                  ["SH06", "SH16", "SH08"])
    assert out["combat"] == {"attack_value": 6, "defense_value": defense_value, "damage": 6 - defense_value,
                             "winner": "attacker"}
    assert hp(out, IM) == health and space(out, IM) == "SH06"
    assert pl(out, 1)["fog"] == [s if s != "SH16" else "SH08" for s in fog]     # Arthur moved a token 2 spaces
    assert "fog token moves SH16 -> SH08 (King Arthur moves it)" in "\n".join(out["log"])


def test_R45_the_opponent_moves_fog_at_most_3_spaces():
    pos = game(hero("king_arthur", fighters={"King Arthur": at("SH04")}, hand=[EXCALIBUR]),
               invisible(FOG3, fighters={IM: at("SH05")}, hand=[THIN_AIR]))
    with pytest.raises(ScenarioError, match="not legal for King Arthur's space for the fog token"):
        resolve(pos, {"attack": EXCALIBUR, "by": "King Arthur", "target": IM, "defense": THIN_AIR, "boost": None},
                ["SH06", "SH16", "SH03"])           # SH16 -> SH03 is 5 spaces along lines


def test_R46_fog_spaces_are_one_step_apart_for_his_movement():
    pos = _ih(["SH05", "SH20"], ideck=[CODED], hs="SH01", ws="SH10")
    out = resolve(pos, {"maneuver": True}, [None, "SH24"])        # SH05 -fog-> SH20 -> SH24: 2 spaces
    assert space(out, IM) == "SH24"
    with pytest.raises(ScenarioError, match="not legal"):
        resolve(pos, {"maneuver": True}, [None, "SH29"])          # 3 spaces even with the fog


def test_R46_fog_does_not_make_spaces_adjacent_for_attacks_effects_or_other_fighters():
    pos = _ih(["SH05", "SH20"], ihand=[SURPRISE, STEP], hs="SH20", ws="SH10")
    with pytest.raises(ScenarioError, match="cannot attack"):
        resolve(pos, {"attack": SURPRISE, "by": IM, "target": HOLMES})
    out = resolve(pos, {"scheme": STEP, "by": IM}, ["SH05", "SH06"])   # Step Lightly: no adjacent fighter
    assert hp(out, HOLMES) == 16 and pl(out, 0)["fog"] == ["SH06", "SH20"]
    other = _ih(["SH16", "SH05"], hs="SH16", ws="SH10", im="SH01", active=1, hdeck=[FEINT])
    with pytest.raises(ScenarioError, match="not legal"):
        resolve(other, {"maneuver": True}, [None, HOLMES, "SH05"])    # Holmes cannot use IM's fog


def test_R48_vanish_first_action_recover_leave_the_board_end_the_turn_dormant():
    sc = Scenario(_ih(ihand=[VANISH, CODED], ihp=10, hhand=[ELIMINATE, DISGUISE], hs="SH01"))
    out = run(sc, {"scheme": VANISH, "by": IM})
    assert hp(out, IM) == 11 and status(out, IM) == "removed" and space(out, IM) is None
    assert out["turn_ended"] is True and "    the turn ends" in out["log"]
    assert "    Invisible Man leaves the board" in out["log"]
    run(sc, {"end_of_turn": True})
    out = run(sc, {"scheme": ELIMINATE, "by": HOLMES})       # a dormant player cannot be made to discard
    assert pl(out, 0)["hand"] == [CODED] and pl(out, 0)["discard"] == [VANISH]
    out = run(sc, {"scheme": DISGUISE, "by": HOLMES})        # nor swapped with, nor damaged off the board
    assert space(out, HOLMES) == "SH01" and hp(out, IM) == 11
    run(sc, {"end_of_turn": True})
    out = run(sc, {"start_of_turn": True}, ["SH29"])
    assert space(out, IM) == "SH29" and status(out, IM) == "in play" and hp(out, IM) == 11


def test_R48_vanish_ends_only_a_first_action():
    sc = Scenario(_ih(ihand=[VANISH]))
    sc.st[L.G_ACTION_NO] = 2
    out = run(sc, {"scheme": VANISH, "by": IM})
    assert status(out, IM) == "removed" and out["turn_ended"] is False and "    the turn ends" not in out["log"]


@pytest.mark.parametrize("started, fog, value", [("SH05", ["SH05", "SH20"], 5), ("SH03", ["SH07", "SH20"], 3)])
def test_R49_emerge_from_mist_checks_where_he_started_the_turn(started, fog, value):
    pos = game(invisible(fog, fighters={IM: at("SH07")}, hand=[EMERGE], started_on={IM: started}),
               holmes(fighters={HOLMES: at("SH08"), WATSON: at("SH10")}))
    out = resolve(pos, {"attack": EMERGE, "by": IM, "target": HOLMES, "defense": None})
    assert out["combat"]["attack_value"] == value and hp(out, HOLMES) == 16 - value


def test_R49_emerge_from_mist_uses_the_fog_at_the_start_of_the_turn():
    sc = Scenario(_ih(["SH06", "SH20"], ihand=[EMERGE], im="SH06", hs="SH07", active=1))
    run(sc, {"end_of_turn": True})
    out = run(sc, {"start_of_turn": True})              # he starts his turn on fog (SH06)
    sc.st[L.pslot(0, L.P_FOG0)] = sc.space("SH01")       # the token leaves his space during the turn
    out = run(sc, {"attack": EMERGE, "by": IM, "target": HOLMES, "defense": None})
    assert out["combat"]["attack_value"] == 5


def test_surprise_attack_cancels_and_moves_the_fog_token_he_stands_on():
    out = resolve(_ih(ihand=[SURPRISE], hhand=[STUDY]), {"attack": SURPRISE, "by": IM, "target": HOLMES,
                                                         "defense": STUDY}, ["SH29"])
    assert out["combat"] == {"attack_value": 5, "defense_value": 3, "damage": 2, "winner": "attacker"}
    assert pl(out, 0)["fog"] == ["SH29", "SH16", "SH20"] and pl(out, 0)["hand_seen"] is False


def test_surprise_attack_cannot_cancel_holmes_deduce_strategy():
    out = resolve(_ih(ihand=[SURPRISE], hhand=[DEDUCE]), {"attack": SURPRISE, "by": IM, "target": HOLMES,
                                                          "defense": DEDUCE}, [True, "SH29"])
    # Deduce: Surprise Attack's printed value becomes its BOOST (1); 1 against 3
    assert out["combat"] == {"attack_value": 1, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert "cannot be cancelled" in "\n".join(out["log"]) and pl(out, 0)["fog"][0] == "SH29"


def test_surprise_attack_off_fog_moves_no_token():
    out = resolve(_ih(["SH16", "SH20"], ihand=[SURPRISE]), {"attack": SURPRISE, "by": IM, "target": HOLMES,
                                                           "defense": None})
    assert hp(out, HOLMES) == 11 and pl(out, 0)["fog"] == ["SH16", "SH20"] and out["choices_used"] == 0


def test_slip_away_fog_to_an_empty_space_then_he_is_placed_there():
    pos = _ih(ihand=[SLIP])
    out = resolve(pos, {"attack": SLIP, "by": IM, "target": HOLMES, "defense": None}, ["SH20", "SH29"])
    assert hp(out, HOLMES) == 13 and space(out, IM) == "SH29" and pl(out, 0)["fog"] == ["SH05", "SH16", "SH29"]
    with pytest.raises(ScenarioError, match="not legal"):        # not onto Watson
        resolve(pos, {"attack": SLIP, "by": IM, "target": HOLMES, "defense": None}, ["SH20", "SH10"])


def test_covert_preparation_you_move_a_token_then_the_opponent_moves_another():
    pos = _ih(ihand=[COVERT], ideck=[CODED])
    out = resolve(pos, {"attack": COVERT, "by": IM, "target": HOLMES, "defense": None},
                  ["SH16", "SH14", "SH20", "SH15"])
    assert hp(out, HOLMES) == 14 and pl(out, 0)["hand"] == [CODED]
    assert pl(out, 0)["fog"] == ["SH05", "SH14", "SH15"]
    with pytest.raises(ScenarioError, match="legal options: SH05, SH20$"):     # not the token just moved
        resolve(pos, {"attack": COVERT, "by": IM, "target": HOLMES, "defense": None}, ["SH16", "SH14", "SH14"])


@pytest.mark.parametrize("fog, holmes_hp, watson_hp", [(["SH05", "SH04", "SH10"], 12, 7), (["SH06", "SH04", "SH10"], 13, 8)])
def test_dreaming_of_revenge_1_damage_to_opponents_on_fog_if_he_is_on_fog(fog, holmes_hp, watson_hp):
    out = resolve(_ih(fog, ihand=[REVENGE]), {"attack": REVENGE, "by": IM, "target": HOLMES, "defense": None})
    assert (hp(out, HOLMES), hp(out, WATSON)) == (holmes_hp, watson_hp)


def test_confound_the_opponent_discards_and_no_fog_moves():
    out = resolve(_ih(ihand=[CONFOUND], hhand=[FEINT, STUDY]),
                  {"attack": CONFOUND, "by": IM, "target": HOLMES, "defense": None}, [True, STUDY])
    assert pl(out, 1)["hand"] == [FEINT] and pl(out, 1)["discard"] == [STUDY] and pl(out, 0)["fog"] == FOG3


def test_confound_the_opponent_declines_and_each_fog_token_may_move_anywhere():
    out = resolve(_ih(ihand=[CONFOUND], hhand=[FEINT]),
                  {"attack": CONFOUND, "by": IM, "target": HOLMES, "defense": None}, [False, "SH29", "SH16", "SH01"])
    assert pl(out, 1)["hand"] == [FEINT] and pl(out, 0)["fog"] == ["SH29", "SH16", "SH01"]
    out = resolve(_ih(ihand=[CONFOUND]), {"attack": CONFOUND, "by": IM, "target": HOLMES, "defense": None},
                  ["SH29", "SH28", "SH27"])            # an empty hand cannot discard
    assert pl(out, 0)["fog"] == ["SH29", "SH28", "SH27"]


def test_impossible_to_see_value_0_card_changes_ignored_abilities_still_count():
    pos = game(hero("alice", counters={"size": "big"}, fighters={"Alice": at("SH04")}, hand=["O Frabjous Day!"]),
               invisible(FOG3, fighters={IM: at("SH05")}, hand=[UNSEEN]))
    out = resolve(pos, {"attack": "O Frabjous Day!", "by": "Alice", "target": IM, "defense": UNSEEN})
    assert out["combat"] == {"attack_value": 2, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert pl(out, 0)["counters"] == {"size": "small"}        # its other effects still happen
    pos = game(hero("sinbad", fighters={"Sinbad": at("SH04")}, hand=[APES],
                    discard=["Voyage to the Island That Was a Whale", "Voyage Home"]),
               invisible(["SH16"], fighters={IM: at("SH05")}, hand=[UNSEEN]))
    out = resolve(pos, {"attack": APES, "by": "Sinbad", "target": IM, "defense": UNSEEN})
    assert out["combat"] == {"attack_value": 0, "defense_value": 2, "damage": 0, "winner": "defender"}
    assert hp(out, IM) == 13                                   # Apes' 2 damage still happens


NOBLE = "Noble Sacrifice"        # King Arthur: attack 2, BOOST 3; during combat: he may BOOST it


def _arthur_vs_unseen(attack, rules=None):
    """King Arthur (SH04) attacks the Invisible Man (SH05, not on fog) with ``attack`` and
    Excalibur face down (BOOST 3); the Invisible Man defends with Impossible to See (2)."""
    pos = game(hero("king_arthur", fighters={"King Arthur": at("SH04")}, hand=[attack, EXCALIBUR, FEINT]),
               invisible(["SH16", "SH20"], fighters={IM: at("SH05")}, hand=[UNSEEN]))
    if rules:
        pos["rules"] = rules
    return pos


def test_R66_impossible_to_see_king_arthurs_face_down_boost_still_adds():
    # Excalibur (6) is worth 0 and cards cannot change that, but the face-down BOOST comes
    # with Arthur's ability: 0 + 3 against Impossible to See's 2, 1 damage
    step = {"attack": EXCALIBUR, "by": "King Arthur", "target": IM, "defense": UNSEEN, "boost": NOBLE}
    pos = _arthur_vs_unseen(NOBLE)
    pos["players"][0]["hand"] = [EXCALIBUR, NOBLE]
    out = resolve(pos, step)
    assert out["combat"] == {"attack_value": 3, "defense_value": 2, "damage": 1, "winner": "attacker"}
    assert hp(out, IM) == 14 and pl(out, 0)["discard"] == [EXCALIBUR, NOBLE]


def test_R66_impossible_to_see_a_cards_own_boost_does_not_add():
    # Noble Sacrifice's own BOOST (a card effect, Feint's BOOST 1) is shut out; the
    # face-down Excalibur (ability, BOOST 3) is not: 0 + 3
    step = {"attack": NOBLE, "by": "King Arthur", "target": IM, "defense": UNSEEN, "boost": EXCALIBUR}
    out = resolve(_arthur_vs_unseen(NOBLE), step, [FEINT])
    assert out["combat"] == {"attack_value": 3, "defense_value": 2, "damage": 1, "winner": "attacker"}
    assert pl(out, 0)["hand"] == [] and sorted(pl(out, 0)["discard"]) == [EXCALIBUR, FEINT, NOBLE]


def test_R66_rules_option_zero_value_blocks_boost_the_face_down_boost_is_lost():
    step = {"attack": NOBLE, "by": "King Arthur", "target": IM, "defense": UNSEEN, "boost": EXCALIBUR}
    out = resolve(_arthur_vs_unseen(NOBLE, rules={"zero_value_blocks_boost": 1}), step, [FEINT])
    assert out["combat"] == {"attack_value": 0, "defense_value": 2, "damage": 0, "winner": "defender"}
    assert hp(out, IM) == 15 and sorted(pl(out, 0)["discard"]) == [EXCALIBUR, FEINT, NOBLE]


def test_impossible_to_see_attacking_makes_the_defense_0():
    out = resolve(_ih(ihand=[UNSEEN], hhand=[COUNTER]), {"attack": UNSEEN, "by": IM, "target": HOLMES,
                                                         "defense": COUNTER})
    assert out["combat"] == {"attack_value": 2, "defense_value": 0, "damage": 2, "winner": "attacker"}
    assert hp(out, HOLMES) == 14 and hp(out, IM) == 13          # Counterpunch still deals its 2


def test_lurking_draw_then_move_to_a_fog_space():
    pos = _ih(["SH16", "SH20", "SH29"], ihand=[LURKING], ideck=[CODED], hhand=[AFOOT], active=1)
    out = resolve(pos, {"attack": AFOOT, "by": HOLMES, "target": IM, "defense": LURKING}, [1, "SH20", "SH03"])
    assert hp(out, IM) == 12 and pl(out, 0)["hand"] == [CODED] and space(out, IM) == "SH20"
    assert space(out, HOLMES) == "SH03"
    with pytest.raises(ScenarioError, match="legal options: SH16, SH20, SH29$"):     # only fog spaces
        resolve(pos, {"attack": AFOOT, "by": HOLMES, "target": IM, "defense": LURKING}, [1, "SH06"])


def test_lurking_draw_then_move_a_fog_token_up_to_3():
    pos = _ih(["SH16", "SH20", "SH29"], ihand=[LURKING], ideck=[CODED], hhand=[AFOOT], active=1)
    out = resolve(pos, {"attack": AFOOT, "by": HOLMES, "target": IM, "defense": LURKING},
                  [2, "SH16", "SH07", "SH04"])
    assert pl(out, 0)["fog"] == ["SH07", "SH20", "SH29"] and space(out, IM) == "SH05"


# R72: the Invisible Man on SH02, boxed in by Holmes (SH03) and Watson (SH01), fog on SH16, SH20
# and SH29: no path leads to a fog space
BOXED = dict(fog=["SH16", "SH20", "SH29"], im="SH02", hs="SH03", ws="SH01", ihand=[LURKING], ideck=[CODED],
             hhand=[AFOOT], active=1)
LURK = {"attack": AFOOT, "by": HOLMES, "target": IM, "defense": LURKING}


def test_R72_lurking_is_a_move_it_cannot_pass_opposing_fighters():
    # the move may be any length but follows the lines: boxed in, he has nowhere to go
    out = resolve(_ih(**BOXED), LURK, [1, "SH03"])
    assert space(out, IM) == "SH02" and pl(out, 0)["hand"] == [CODED]
    # not boxed in (Watson on SH10): he walks to a fog space of his choice, however far
    free = {**BOXED, "ws": "SH10"}
    with pytest.raises(ScenarioError, match="legal options: SH20, SH16, SH29$"):
        resolve(_ih(**free), LURK, [1, "SH02"])
    out = resolve(_ih(**free), LURK, [1, "SH29", "SH03"])
    assert space(out, IM) == "SH29"


def test_R72_rules_option_fog_move_places_lurking_places_him_on_a_fog_space():
    out = resolve(_ih(**BOXED, rules={"fog_move_places": 1}), LURK, [1, "SH20", "SH03"])
    assert space(out, IM) == "SH20" and pl(out, 0)["hand"] == [CODED]
    assert "Invisible Man is placed on SH20" in "\n".join(out["log"])


def test_coded_notes_draw_3_then_2_cards_back_on_top():
    pos = _ih(ihand=[CODED, TERROR], ideck=[SLIP, EMERGE, VANISH, STEP], hhand=[AFOOT], active=1)
    out = resolve(pos, {"attack": AFOOT, "by": HOLMES, "target": IM, "defense": CODED}, [EMERGE, TERROR, "SH04"])
    assert out["combat"]["defense_value"] == 4 and hp(out, IM) == 14          # 3 + 1 on fog
    assert pl(out, 0)["hand"] == [SLIP, VANISH] and pl(out, 0)["deck"] == [TERROR, EMERGE, STEP]


@pytest.mark.parametrize("fog, watson_hp", [(FOG3, 6), (["SH16"], 8)])
def test_reign_of_terror_2_damage_to_any_opposing_fighter_from_fog(fog, watson_hp):
    out = resolve(_ih(fog, ihand=[TERROR], ws="SH29"), {"scheme": TERROR, "by": IM}, [WATSON] if len(fog) == 3 else [])
    assert hp(out, WATSON) == watson_hp and hp(out, HOLMES) == 16


@pytest.mark.parametrize("fog, damage", [(FOG3, 3), (["SH16", "SH20"], 1)])
def test_step_lightly_1_or_3_damage_then_the_opponent_moves_fog_up_to_2(fog, damage):
    out = resolve(_ih(fog, ihand=[STEP]), {"scheme": STEP, "by": IM}, ["SH20", "SH24"])
    assert hp(out, HOLMES) == 16 - damage and "SH24" in pl(out, 0)["fog"] and "SH20" not in pl(out, 0)["fog"]


def test_rolling_fog_moves_a_token_anywhere_and_gains_an_action():
    out = resolve(_ih(ihand=[ROLLING], actions=1), {"scheme": ROLLING, "by": IM}, ["SH20", "SH01"])
    assert pl(out, 0)["fog"] == ["SH05", "SH16", "SH01"] and out["actions_left"] == 2


def test_R55c_sword_of_silver_reads_the_printed_value_not_the_fog_bonus():
    pos = game(hero("geralt_of_rivia@silver+medallion+owl", fighters={"Geralt of Rivia": at("SH04")},
                    hand=["Sword of Silver"]),
               invisible(FOG3, fighters={IM: at("SH05")}, hand=[CODED], deck=[SLIP, EMERGE, VANISH]))
    out = resolve(pos, {"attack": "Sword of Silver", "by": "Geralt of Rivia", "target": IM, "defense": CODED},
                  [SLIP, EMERGE])
    assert out["combat"] == {"attack_value": 4, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert hp(out, IM) == 15 and pl(out, 1)["hand"] == [VANISH]
