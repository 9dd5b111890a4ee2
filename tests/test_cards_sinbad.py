"""Card tests for Sinbad and the Porter: the Voyages and their value, every other card and Sinbad's
ability.
"""
import numpy as np
import pytest
from helpers.cards import at, dist, hp, space
from helpers.cards import p0 as med  # seat 0 is Medusa, seat 1 Sinbad (``duel``)
from helpers.cards import p1 as sin
from helpers.medusa_sinbad import APES, CANNIBALS, COALS, HOME, SERENDIB, SNAKES, VOYAGES, WHALE, duel

from sim.engine import layout as L
from sim.engine.rules import legal_actions, unpack_action
from sim.play.scenario import Scenario, ScenarioError, resolve

pytestmark = pytest.mark.nojit

BFF = "By Fortune and Fate"


# =========================================================================== Sinbad

# ---------------------------------------------------------------- Voyage value
@pytest.mark.parametrize("voyage", VOYAGES[1:])
@pytest.mark.parametrize("others", [0, 2])
def test_voyage_value_counts_other_voyages_in_discard(voyage, others):
    # Non-Voyage cards in the discard don't count. Defense Exploit (4).
    discard = ["Feint", "Regroup"] + [v for v in VOYAGES if v != voyage][:others]
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Snipe", "Dash"],
         "deck": ["Feint"]},
        {"fighters": {"Sinbad": at("M20")}, "hand": [voyage, "Exploit"], "deck": ["Leap Away"],
         "discard": discard},
        active=1,
    ), {"attack": voyage, "by": "Sinbad", "target": "Medusa", "defense": "Snipe"},
        {CANNIBALS: ["M20"]}.get(voyage, []))
    assert out["combat"]["attack_value"] == 2 + others
    assert out["combat"]["defense_value"] == 3


# ---------------------------------------------------------------- Voyage Home
def test_voyage_home_counts_others_and_takes_them_back():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}},
        {"fighters": {"Sinbad": at("M20")}, "hand": [HOME],
         "discard": [WHALE, "Feint", APES, SNAKES]},
        active=1,
    ), {"attack": HOME, "by": "Sinbad", "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == 5
    assert hp(out, "Medusa") == 11
    assert sorted(sin(out)["hand"]) == sorted([WHALE, APES, SNAKES])
    assert sin(out)["discard"] == ["Feint", HOME]


# ---------------------------------------------------------------- Whale
def test_whale_recovers_2_capped_at_15():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}},
        {"fighters": {"Sinbad": at("M20", 14)}, "hand": [WHALE], "discard": [APES]},
        active=1,
    ), {"attack": WHALE, "by": "Sinbad", "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == 3
    assert hp(out, "Medusa") == 13
    assert hp(out, "Sinbad") == 15


def test_whale_recovers_2_even_when_combat_lost():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Hiss and Slither"]},
        {"fighters": {"Sinbad": at("M20", 10)}, "hand": [WHALE]},
        active=1,
    ), {"attack": WHALE, "by": "Sinbad", "target": "Medusa", "defense": "Hiss and Slither"})
    assert out["combat"]["winner"] == "defender"
    assert hp(out, "Sinbad") == 12
    assert sin(out)["discard"] == [WHALE]


# ---------------------------------------------------------------- Giant Snakes
def test_giant_snakes_looks_at_opponents_hand():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Snipe", "Gaze of Stone"]},
        {"fighters": {"Sinbad": at("M20")}, "hand": [SNAKES]},
        active=1,
    ), {"attack": SNAKES, "by": "Sinbad", "target": "Medusa", "defense": None})
    assert med(out)["hand_seen"] is True
    assert sin(out)["hand_seen"] is False
    assert hp(out, "Medusa") == 14
    assert med(out)["hand"] == ["Snipe", "Gaze of Stone"]


# ---------------------------------------------------------------- Eyes Like Coals
def test_eyes_like_coals_opponent_discards_one_random_card():
    hand = ["Snipe", "Gaze of Stone", "Winged Frenzy"]
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": hand},
        {"fighters": {"Sinbad": at("M20")}, "hand": [COALS]},
        active=1,
    ), {"attack": COALS, "by": "Sinbad", "target": "Medusa", "defense": None})
    assert len(med(out)["hand"]) == 2 and len(med(out)["discard"]) == 1
    assert sorted(med(out)["hand"] + med(out)["discard"]) == sorted(hand)
    assert hp(out, "Medusa") == 14 and sin(out)["discard"] == [COALS]


# ---------------------------------------------------------------- Cannibals
def test_cannibals_sinbad_moves_up_to_2():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}},
        {"fighters": {"Sinbad": at("M20")}, "hand": [CANNIBALS]},
        active=1,
    ), {"attack": CANNIBALS, "by": "Sinbad", "target": "Medusa", "defense": None}, ["M28"])
    assert hp(out, "Medusa") == 14 and space(out, "Sinbad") == "M28"


def test_cannibals_cannot_move_3():
    with pytest.raises(ScenarioError, match=r"'M29'.*destination space"):
        resolve(duel(
            {"fighters": {"Medusa": at("M21")}},
            {"fighters": {"Sinbad": at("M20")}, "hand": [CANNIBALS]},
            active=1,
        ), {"attack": CANNIBALS, "by": "Sinbad", "target": "Medusa", "defense": None}, ["M29"])


# ---------------------------------------------------------------- Serendib
def test_serendib_draws_1():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}},
        {"fighters": {"Sinbad": at("M20")}, "hand": [SERENDIB], "deck": ["Exploit", "Feint"],
         "discard": [COALS]},
        active=1,
    ), {"attack": SERENDIB, "by": "Sinbad", "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == 3 and hp(out, "Medusa") == 13
    assert sin(out)["hand"] == ["Exploit"] and sin(out)["deck"] == ["Feint"]
    assert sin(out)["discard"] == [COALS, SERENDIB]


# ---------------------------------------------------------------- By Fortune and Fate
BFF_POS = duel(
    {"fighters": {"Medusa": at("M21")}},
    {"fighters": {"Sinbad": at("M20"), "The Porter": at("M25")}, "hand": [BFF],
     "deck": ["Exploit", "Feint", "Regroup"]},
    active=1,
)


def test_by_fortune_and_fate_porter_draws_2():
    out = resolve(BFF_POS, {"attack": BFF, "by": "The Porter", "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == 3 and hp(out, "Medusa") == 13
    assert sin(out)["hand"] == ["Exploit", "Feint"] and sin(out)["deck"] == ["Regroup"]


def test_by_fortune_and_fate_sinbad_cannot_play_it():
    with pytest.raises(ScenarioError, match="Sinbad cannot attack Medusa with 'By Fortune and Fate'") as e:
        resolve(BFF_POS, {"attack": BFF, "by": "Sinbad", "target": "Medusa", "defense": None})
    assert "legal: The Porter attacks Medusa with By Fortune and Fate" in str(e.value)
    # and the engine's own list of legal actions pairs the card with the Porter only
    sc = Scenario(BFF_POS)
    opts = np.zeros(1024, np.int64)
    n = legal_actions(sc.st, sc.match.tables, 1, opts)
    attacks = {(sc.names[g], sc.names[t]) for k, g, t, c in map(unpack_action, opts[:n].tolist())
               if k == L.A_ATTACK}
    assert attacks == {("The Porter", "Medusa")}


# ---------------------------------------------------------------- Commanding Impact
def test_commanding_impact_by_porter_draws_1():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Dash"]},
        {"fighters": {"Sinbad": at("M06"), "The Porter": at("M25")}, "hand": ["Commanding Impact"],
         "deck": ["Feint", "Exploit"]},
        active=1,
    ), {"attack": "Commanding Impact", "by": "The Porter", "target": "Medusa", "defense": "Dash"}, ["M21"])
    assert out["combat"] == {"attack_value": 5, "defense_value": 3, "damage": 2, "winner": "attacker"}
    assert hp(out, "Medusa") == 14
    assert sin(out)["hand"] == ["Feint"] and sin(out)["discard"] == ["Commanding Impact"]


# ---------------------------------------------------------------- Toil and Danger
def test_toil_and_danger_on_defense_sinbad_moves_up_to_3():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Snipe"], "deck": ["Dash"]},
        {"fighters": {"Sinbad": at("M13")}, "hand": ["Toil and Danger"]},
    ), {"attack": "Snipe", "by": "Medusa", "target": "Sinbad", "defense": "Toil and Danger"}, ["M02"])
    assert out["combat"] == {"attack_value": 3, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert space(out, "Sinbad") == "M02" and dist("M13", "M02") == 3
    assert med(out)["hand"] == ["Dash"]     # Snipe still draws


def test_toil_and_danger_is_sinbad_only_porter_cannot_defend_with_it():
    with pytest.raises(ScenarioError, match=r"defense card.*legal options: Exploit, no card"):
        resolve(duel(
            {"fighters": {"Medusa": at("M21")}, "hand": ["Snipe"], "deck": ["Dash"]},
            {"fighters": {"Sinbad": at("M06"), "The Porter": at("M13")}, "hand": ["Toil and Danger", "Exploit"]},
        ), {"attack": "Snipe", "by": "Medusa", "target": "The Porter", "defense": "Toil and Danger"})


# ---------------------------------------------------------------- Leap Away
def test_leap_away_won_moves_opposing_fighter_up_to_4():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}},
        {"fighters": {"Sinbad": at("M20")}, "hand": ["Leap Away"]},
        active=1,
    ), {"attack": "Leap Away", "by": "Sinbad", "target": "Medusa", "defense": None}, ["Medusa", "M24"])
    assert out["combat"]["attack_value"] == 4 and hp(out, "Medusa") == 12
    assert space(out, "Medusa") == "M24" and dist("M21", "M24") == 4
    assert space(out, "Sinbad") == "M20"


def test_leap_away_defender_wins_moves_himself():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Snipe"], "deck": ["Dash"]},
        {"fighters": {"Sinbad": at("M13")}, "hand": ["Leap Away"]},
    ), {"attack": "Snipe", "by": "Medusa", "target": "Sinbad", "defense": "Leap Away"}, ["Sinbad", "M03"])
    assert out["combat"]["winner"] == "defender"
    assert space(out, "Sinbad") == "M03" and dist("M13", "M03") == 4
    assert space(out, "Medusa") == "M21"


def test_leap_away_not_won_no_move():
    # Leap Away 4 vs Hiss and Slither 4: tie, Sinbad did not win -> no move asked.
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Hiss and Slither"]},
        {"fighters": {"Sinbad": at("M20")}, "hand": ["Leap Away", "Exploit"]},
        active=1,
    ), {"attack": "Leap Away", "by": "Sinbad", "target": "Medusa", "defense": "Hiss and Slither"})
    assert out["combat"]["winner"] == "defender"
    assert space(out, "Medusa") == "M21" and space(out, "Sinbad") == "M20"
    assert sin(out)["discard"] == ["Exploit", "Leap Away"]   # Hiss: Sinbad's only card


def test_leap_away_cannot_move_5():
    assert dist("M21", "M16") == 5
    with pytest.raises(ScenarioError, match=r"'M16'.*destination space"):
        resolve(duel(
            {"fighters": {"Medusa": at("M21")}},
            {"fighters": {"Sinbad": at("M20")}, "hand": ["Leap Away"]},
            active=1,
        ), {"attack": "Leap Away", "by": "Sinbad", "target": "Medusa", "defense": None}, ["Medusa", "M16"])


def test_leap_away_moved_opponent_cannot_pass_through_sinbad():
    # Medusa moved by Sinbad's card still may not pass through HER opposing fighters (R15):
    # M13 is 2 from M21 only through Sinbad on M20.
    with pytest.raises(ScenarioError) as e:
        resolve(duel(
            {"fighters": {"Medusa": at("M21")}},
            {"fighters": {"Sinbad": at("M20")}, "hand": ["Leap Away"]},
            active=1,
        ), {"attack": "Leap Away", "by": "Sinbad", "target": "Medusa", "defense": None}, ["Medusa", "M13"])
    legal = str(e.value).split("legal options: ")[1].split(", ")
    assert "M13" not in legal and "M27" not in legal
    assert {"M21", "M25", "M26", "M23", "M24", "M31"} <= set(legal)


# ---------------------------------------------------------------- Exploit
def test_exploit_draws_1():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}},
        {"fighters": {"Sinbad": at("M06"), "The Porter": at("M25")}, "hand": ["Exploit"],
         "deck": ["Regroup", "Feint"]},
        active=1,
    ), {"attack": "Exploit", "by": "The Porter", "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == 4 and hp(out, "Medusa") == 12
    assert sin(out)["hand"] == ["Regroup"] and sin(out)["deck"] == ["Feint"]


# ---------------------------------------------------------------- Momentous Shift
@pytest.mark.parametrize("started_on,value", [("M27", 5), ("M20", 3)])
def test_momentous_shift_value_5_if_started_elsewhere(started_on, value):
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}},
        {"fighters": {"Sinbad": at("M20")}, "hand": ["Momentous Shift"], "started_on": {"Sinbad": started_on}},
        active=1,
    ), {"attack": "Momentous Shift", "by": "Sinbad", "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == value
    assert hp(out, "Medusa") == 16 - value


# ---------------------------------------------------------------- Feint (Sinbad)
def test_sinbad_feint_cancels_hiss_and_slither():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Hiss and Slither"]},
        {"fighters": {"Sinbad": at("M20")}, "hand": ["Feint", "Exploit", "Regroup"]},
        active=1,
    ), {"attack": "Feint", "by": "Sinbad", "target": "Medusa", "defense": "Hiss and Slither"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert sin(out)["hand"] == ["Exploit", "Regroup"] and sin(out)["discard"] == ["Feint"]


def test_R01_feint_vs_feint_defender_cancels_first():
    # Medusa's defending Feint resolves first and cancels Sinbad's attacking Feint.
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Feint"]},
        {"fighters": {"Sinbad": at("M20")}, "hand": ["Feint"]},
        active=1,
    ), {"attack": "Feint", "by": "Sinbad", "target": "Medusa", "defense": "Feint"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 2, "damage": 0, "winner": "defender"}
    assert "Medusa cancels the effects on the attack card" in "\n".join(out["log"])
    assert "Sinbad cancels" not in "\n".join(out["log"])


# ---------------------------------------------------------------- Regroup (Sinbad)
def test_sinbad_regroup_won_draws_2():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}},
        {"fighters": {"Sinbad": at("M20")}, "hand": ["Regroup"], "deck": ["Exploit", "Feint", "Leap Away"]},
        active=1,
    ), {"attack": "Regroup", "by": "Sinbad", "target": "Medusa", "defense": None})
    assert out["combat"]["winner"] == "attacker" and hp(out, "Medusa") == 15
    assert sin(out)["hand"] == ["Exploit", "Feint"] and sin(out)["deck"] == ["Leap Away"]


# ---------------------------------------------------------------- Riches Beyond Compare
def test_riches_beyond_compare_draws_3():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M06")}},
        {"fighters": {"Sinbad": at("M20"), "The Porter": at("M21")}, "hand": ["Riches Beyond Compare"],
         "deck": ["Exploit", "Feint", "Regroup", "Leap Away"]},
        active=1,
    ), {"scheme": "Riches Beyond Compare", "by": "Sinbad"})
    assert sin(out)["hand"] == ["Exploit", "Feint", "Regroup"] and sin(out)["deck"] == ["Leap Away"]
    assert sin(out)["discard"] == ["Riches Beyond Compare"]
    assert out["actions_left"] == 1 and out["turn_ended"] is False
    assert hp(out, "Sinbad") == 15 and hp(out, "The Porter") == 6


def test_R11_riches_beyond_compare_with_one_card_in_deck():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M06")}},
        {"fighters": {"Sinbad": at("M20", 10), "The Porter": at("M21", 3)},
         "hand": ["Riches Beyond Compare"], "deck": ["Exploit"]},
        active=1,
    ), {"scheme": "Riches Beyond Compare", "by": "Sinbad"})
    assert sin(out)["hand"] == ["Exploit"] and sin(out)["deck"] == []
    assert hp(out, "Sinbad") == 6
    assert out["fighters"]["The Porter"] == {"space": None, "health": 0, "status": "defeated"}
    assert out["winner"] is None


def test_riches_beyond_compare_exhaustion_defeats_sinbad_medusa_wins():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M06")}},
        {"fighters": {"Sinbad": at("M20", 4)}, "hand": ["Riches Beyond Compare"], "deck": ["Exploit"]},
        active=1,
    ), {"scheme": "Riches Beyond Compare", "by": "Sinbad"})
    assert out["fighters"]["Sinbad"]["status"] == "defeated"
    assert out["winner"] == "Medusa"


def test_riches_beyond_compare_is_sinbad_only():
    with pytest.raises(ScenarioError, match="The Porter cannot play the scheme 'Riches Beyond Compare'"):
        resolve(duel(
            {"fighters": {"Medusa": at("M06")}},
            {"fighters": {"Sinbad": at("M20"), "The Porter": at("M21")}, "hand": ["Riches Beyond Compare"],
             "deck": ["Exploit", "Feint", "Regroup"]},
            active=1,
        ), {"scheme": "Riches Beyond Compare", "by": "The Porter"})


# ---------------------------------------------------------------- Sinbad's ability
R35_POS = duel(
    {"fighters": {"Medusa": at("M06")}},
    {"fighters": {"Sinbad": at("M27"), "The Porter": at("M28")}, "hand": ["Exploit"],
     "deck": ["Feint"], "discard": [WHALE, "Regroup", APES, SERENDIB, "Leap Away", HOME]},
    active=1,
)


def test_R35_maneuver_bonus_each_fighter_moves_up_to_6():
    out = resolve(R35_POS, {"maneuver": True}, [None, "Sinbad", "M24", "M12"])
    assert space(out, "Sinbad") == "M24" and space(out, "The Porter") == "M12"
    assert sin(out)["hand"] == ["Exploit", "Feint"]      # the maneuver's mandatory draw
    assert out["actions_left"] == 1


def test_R35_maneuver_bonus_distance_7_illegal():
    with pytest.raises(ScenarioError, match=r"'M04'.*destination space"):
        resolve(R35_POS, {"maneuver": True}, [None, "Sinbad", "M04", "M12"])
