"""Card tests for Dr. Jekyll & Mr. Hyde: the forms and transforming (R42), Duality of Man (R43),
off-form cards (R44) and every other card.
"""
import numpy as np
import pytest
from helpers.cards import at, hp, pl, run, space, status
from helpers.cobble_fog import (AMBUSH, CALMING, DASH, DRACULA, DUALITY, EVIL, EXPLOIT, FEINT, FOREVER, HASTE, HOLMES,
    JH, METHOD, RECOIL, RELENTS, REVOLVER, S1, S2, SKIRMISH, STRANGE, SUCCUMB, TRIAGE, WATSON, dracula, game, holmes,
    jekyll)

from sim.engine import layout as L
from sim.engine.game import setup_game
from sim.engine.policy import MODE_RANDOM, new_control
from sim.play.match import Match
from sim.play.scenario import Scenario, ScenarioError, resolve

pytestmark = pytest.mark.nojit


# =========================================================================== Dr. Jekyll & Mr. Hyde

def _jd(form, jhand=(), dhand=(), jdeck=(), ddeck=(), jhp=None, rules=None, **kw):
    pos = game(jekyll(form, fighters={JH: at("SH05", jhp)}, hand=list(jhand), deck=list(jdeck)),
               dracula(fighters={DRACULA: at("SH04"), S1: at("SH20")}, hand=list(dhand), deck=list(ddeck)), **kw)
    if rules:
        pos["rules"] = rules
    return pos


def test_R42_jekyll_starts_as_jekyll():
    m = Match(["jekyll_hyde", "medusa"])
    st = m.new_state()
    setup_game(st, m.tables, new_control((MODE_RANDOM,) * 4), np.zeros((500, L.EV_FIELDS), np.int64), m.rows, 2, 3)
    assert st[L.pslot(0, L.P_COUNTER0 + L.FORM_COUNTER)] == 0              # "Dr. Jekyll" is form 0


def test_R42_transform_at_the_start_of_the_turn_then_hyde_takes_1_after_each_maneuver():
    sc = Scenario(_jd("Dr. Jekyll", jdeck=[SKIRMISH, FEINT]))
    out = run(sc, {"start_of_turn": True}, [True])
    assert pl(out, 0)["counters"] == {"form": "Mr. Hyde"} and hp(out, JH) == 16
    out = run(sc, {"maneuver": True}, [None, "SH05"])        # no BOOST, stay
    assert hp(out, JH) == 15
    out = run(sc, {"maneuver": True}, [None, "SH05"])
    assert hp(out, JH) == 14 and pl(out, 0)["hand"] == [SKIRMISH, FEINT]


def test_R42_transforming_is_optional_and_jekyll_takes_no_maneuver_damage():
    sc = Scenario(_jd("Dr. Jekyll", jdeck=[SKIRMISH]))
    out = run(sc, {"start_of_turn": True}, [False])
    assert pl(out, 0)["counters"] == {"form": "Dr. Jekyll"}
    out = run(sc, {"maneuver": True}, [None, "SH06"])
    assert hp(out, JH) == 16 and space(out, JH) == "SH06"


def test_R42_hyde_may_transform_back_at_the_start_of_the_turn():
    out = resolve(_jd("Mr. Hyde"), {"start_of_turn": True}, [True])
    assert pl(out, 0)["counters"] == {"form": "Dr. Jekyll"}


def test_R42_succumb_to_compulsion_then_a_maneuver_costs_1():
    sc = Scenario(_jd("Dr. Jekyll", [SUCCUMB], jdeck=[FEINT]))
    out = run(sc, {"attack": SUCCUMB, "by": JH, "target": DRACULA, "defense": None}, ["SH07"])
    assert hp(out, DRACULA) == 11 and space(out, JH) == "SH07" and pl(out, 0)["counters"] == {"form": "Mr. Hyde"}
    out = run(sc, {"maneuver": True}, [None, "SH07"])
    assert hp(out, JH) == 15


def test_R42_madness_relents_then_a_maneuver_costs_nothing():
    sc = Scenario(_jd("Mr. Hyde", [RELENTS], jdeck=[FEINT]))
    out = run(sc, {"attack": RELENTS, "by": JH, "target": DRACULA, "defense": None})
    assert hp(out, DRACULA) == 9 and pl(out, 0)["counters"] == {"form": "Dr. Jekyll"}
    out = run(sc, {"maneuver": True}, [None, "SH05"])
    assert hp(out, JH) == 16


@pytest.mark.parametrize("form, role, value", [("Dr. Jekyll", "defend", 6), ("Mr. Hyde", "attack", 6),
                                               ("Mr. Hyde", "defend", 3), ("Dr. Jekyll", "attack", 3)])
def test_R43_duality_of_man_depends_on_form_and_role(form, role, value):
    if role == "attack":
        out = resolve(_jd(form, [DUALITY]), {"attack": DUALITY, "by": JH, "target": DRACULA, "defense": None})
        assert out["combat"]["attack_value"] == value and hp(out, DRACULA) == 13 - value
    else:
        out = resolve(_jd(form, [DUALITY], [EXPLOIT], active=1, ddeck=[FEINT]),
                      {"attack": EXPLOIT, "by": DRACULA, "target": JH, "defense": DUALITY})
        assert out["combat"]["defense_value"] == value and hp(out, JH) == 16 - max(0, 4 - value)


def test_R44_default_a_card_of_the_other_form_cannot_be_played():
    pos = game(holmes(fighters={HOLMES: at("SH01"), WATSON: at("SH07")}, hand=[REVOLVER]),
               jekyll("Mr. Hyde", fighters={JH: at("SH05")}, hand=[HASTE]))
    with pytest.raises(ScenarioError, match="is not legal for Dr. Jekyll & Mr. Hyde's defense card; legal options: no card"):
        resolve(pos, {"attack": REVOLVER, "by": WATSON, "target": JH, "defense": HASTE})
    with pytest.raises(ScenarioError, match="cannot play the scheme"):
        resolve(_jd("Dr. Jekyll", [EVIL]), {"scheme": EVIL, "by": JH})
    with pytest.raises(ScenarioError, match="cannot attack"):
        resolve(_jd("Dr. Jekyll", [RECOIL]), {"attack": RECOIL, "by": JH, "target": DRACULA})
    with pytest.raises(ScenarioError, match="cannot attack"):
        resolve(_jd("Mr. Hyde", [TRIAGE]), {"attack": TRIAGE, "by": JH, "target": DRACULA})


def test_R44_rules_option_off_form_cards_legal_but_the_effect_needs_the_form():
    pos = game(holmes(fighters={HOLMES: at("SH01"), WATSON: at("SH07")}, hand=[REVOLVER]),
               jekyll("Mr. Hyde", fighters={JH: at("SH05")}, hand=[HASTE]), rules={"off_form_cards": 1})
    out = resolve(pos, {"attack": REVOLVER, "by": WATSON, "target": JH, "defense": HASTE})
    assert out["combat"] == {"attack_value": 5, "defense_value": 4, "damage": 1, "winner": "attacker"}
    assert hp(out, JH) == 15 and space(out, JH) == "SH05" and out["choices_used"] == 0    # no move
    pos["players"][1]["counters"] = {"form": "Dr. Jekyll"}
    out = resolve(pos, {"attack": REVOLVER, "by": WATSON, "target": JH, "defense": HASTE}, ["SH03"])
    assert space(out, JH) == "SH03"                    # in its own form the move happens


def test_recoiling_blow_placed_in_his_zone_then_jekyll():
    out = resolve(_jd("Mr. Hyde", [RECOIL]), {"attack": RECOIL, "by": JH, "target": DRACULA, "defense": None}, ["SH16"])
    assert hp(out, DRACULA) == 8 and space(out, JH) == "SH16" and pl(out, 0)["counters"] == {"form": "Dr. Jekyll"}
    with pytest.raises(ScenarioError, match="not legal"):
        resolve(_jd("Mr. Hyde", [RECOIL]), {"attack": RECOIL, "by": JH, "target": DRACULA, "defense": None}, ["SH20"])


def test_R69_recoiling_blow_mr_hyde_may_stay_on_his_space():
    out = resolve(_jd("Mr. Hyde", [RECOIL]), {"attack": RECOIL, "by": JH, "target": DRACULA, "defense": None}, ["SH05"])
    assert space(out, JH) == "SH05" and pl(out, 0)["counters"] == {"form": "Dr. Jekyll"}
    assert "is placed" not in "\n".join(out["log"])


def test_forever_hyde_plus_2_per_jekyll_card_discarded():
    pos = _jd("Mr. Hyde", [FOREVER, TRIAGE, HASTE, SKIRMISH])
    out = resolve(pos, {"attack": FOREVER, "by": JH, "target": DRACULA, "defense": None}, [TRIAGE, HASTE])
    assert out["combat"]["attack_value"] == 9 and hp(out, DRACULA) == 4 and pl(out, 0)["hand"] == [SKIRMISH]
    with pytest.raises(ScenarioError, match="legal options: Distracted Triage, With Haste!, no card$"):
        resolve(pos, {"attack": FOREVER, "by": JH, "target": DRACULA, "defense": None}, [SKIRMISH])


@pytest.mark.parametrize("defense, health", [(None, 12), (EXPLOIT, 10)])
def test_distracted_triage_recovers_2_if_won(defense, health):
    out = resolve(_jd("Dr. Jekyll", [TRIAGE], [EXPLOIT], jhp=10, ddeck=[FEINT]),
                  {"attack": TRIAGE, "by": JH, "target": DRACULA, "defense": defense})
    assert hp(out, JH) == health


def test_jekyll_skirmish_moves_a_combatant_if_won():
    out = resolve(_jd("Dr. Jekyll", [SKIRMISH]), {"attack": SKIRMISH, "by": JH, "target": DRACULA, "defense": None},
                  [DRACULA, "SH02"])
    assert hp(out, DRACULA) == 9 and space(out, DRACULA) == "SH02"


def test_jekyll_feint_cancels_ambush():
    out = resolve(_jd("Dr. Jekyll", [FEINT, HASTE], [AMBUSH], active=1),
                  {"attack": AMBUSH, "by": DRACULA, "target": JH, "defense": FEINT})
    assert out["combat"] == {"attack_value": 2, "defense_value": 2, "damage": 0, "winner": "defender"}
    assert pl(out, 0)["hand"] == [HASTE]                # no random discard


def test_with_haste_jekyll_moves_up_to_4():
    out = resolve(_jd("Dr. Jekyll", [HASTE], [EXPLOIT], active=1, ddeck=[FEINT]),
                  {"attack": EXPLOIT, "by": DRACULA, "target": JH, "defense": HASTE}, ["SH08"])
    assert hp(out, JH) == 16 and space(out, JH) == "SH08"


def test_scientific_method_draws_1_per_combat_damage_taken():
    out = resolve(_jd("Dr. Jekyll", [METHOD], [EXPLOIT], active=1, jdeck=[FEINT, SKIRMISH, DUALITY], ddeck=[DASH]),
                  {"attack": EXPLOIT, "by": DRACULA, "target": JH, "defense": METHOD})
    assert hp(out, JH) == 14 and pl(out, 0)["hand"] == [FEINT, SKIRMISH] and pl(out, 0)["deck"] == [DUALITY]


def test_calming_research_recovers_2_keeps_1_of_3_rest_to_the_bottom():
    pos = _jd("Dr. Jekyll", [CALMING], jdeck=[FEINT, SKIRMISH, DUALITY, HASTE], jhp=12)
    out = resolve(pos, {"scheme": CALMING, "by": JH}, [3, SKIRMISH, DUALITY])     # the last one is forced
    assert hp(out, JH) == 14 and pl(out, 0)["hand"] == [SKIRMISH]
    assert pl(out, 0)["deck"] == [HASTE, DUALITY, FEINT]       # top first: the two put back went to the bottom


@pytest.mark.parametrize("n, hand, deck", [
    (1, [FEINT], [SKIRMISH, DUALITY, HASTE]),                  # the top card, nothing to the bottom
    (2, [SKIRMISH], [DUALITY, HASTE, FEINT]),                  # the better of two, the other to the bottom
    (0, [], [FEINT, SKIRMISH, DUALITY, HASTE]),                # none: the deck is kept as it is
])
def test_R71_calming_research_draw_up_to_3_the_player_chooses_how_many(n, hand, deck):
    pos = _jd("Dr. Jekyll", [CALMING], jdeck=[FEINT, SKIRMISH, DUALITY, HASTE], jhp=12)
    out = resolve(pos, {"scheme": CALMING, "by": JH}, [n] + ([SKIRMISH] if n == 2 else []))
    assert hp(out, JH) == 14 and pl(out, 0)["hand"] == hand and pl(out, 0)["deck"] == deck


def test_R71_calming_research_offers_no_more_cards_than_the_deck_holds():
    pos = _jd("Dr. Jekyll", [CALMING], jdeck=[FEINT, SKIRMISH], jhp=12)
    with pytest.raises(ScenarioError, match="option number; legal options: 2, 1, 0$"):
        resolve(pos, {"scheme": CALMING, "by": JH}, [3])
    out = resolve(_jd("Dr. Jekyll", [CALMING], jhp=12), {"scheme": CALMING, "by": JH})    # empty deck: no draw,
    assert hp(out, JH) == 14 and out["choices_used"] == 0                                  # no exhaustion


def test_pure_evil_placed_in_his_zone_then_2_damage_to_every_adjacent_fighter():
    pos = game(jekyll("Mr. Hyde", fighters={JH: at("SH05")}, hand=[EVIL]),
               dracula(fighters={DRACULA: at("SH14"), S1: at("SH13"), S2: at("SH06")}))
    out = resolve(pos, {"scheme": EVIL, "by": JH}, ["SH16"])
    assert space(out, JH) == "SH16" and hp(out, DRACULA) == 11
    assert status(out, S1) == "defeated" and hp(out, S2) == 1       # SH06 is not next to SH16


def test_R69_pure_evil_mr_hyde_may_stay_and_hit_the_fighters_next_to_him():
    pos = game(jekyll("Mr. Hyde", fighters={JH: at("SH05")}, hand=[EVIL]),
               dracula(fighters={DRACULA: at("SH04"), S1: at("SH06"), S2: at("SH16")}))
    out = resolve(pos, {"scheme": EVIL, "by": JH}, ["SH05"])
    assert space(out, JH) == "SH05" and hp(out, DRACULA) == 11
    assert status(out, S1) == "defeated" and hp(out, S2) == 1           # SH16 is not next to SH05
    with pytest.raises(ScenarioError, match="not legal"):                  # an occupied space is not offered
        resolve(pos, {"scheme": EVIL, "by": JH}, ["SH06"])


def test_strange_case_damage_equal_to_the_revealed_cards_boost():
    pos = game(jekyll("Mr. Hyde", fighters={JH: at("SH05")}, hand=[STRANGE], deck=[TRIAGE, FEINT]),
               dracula(fighters={DRACULA: at("SH04"), S1: at("SH06")}))
    out = resolve(pos, {"scheme": STRANGE, "by": JH}, [DRACULA])
    assert hp(out, DRACULA) == 10 and pl(out, 0)["hand"] == [TRIAGE] and pl(out, 0)["deck"] == [FEINT]
    assert hp(out, JH) == 16                                          # revealing is not drawing
    pos["players"][0]["deck"] = []
    out = resolve(pos, {"scheme": STRANGE, "by": JH}, [DRACULA])    # an empty deck: BOOST 0, no exhaustion
    assert hp(out, DRACULA) == 13 and hp(out, JH) == 16 and pl(out, 0)["hand"] == []
