"""Card tests for Medusa and the Harpies: every card and Medusa's ability (Gaze of Stone ... Regroup)."""
import pytest
from helpers.cards import at, dist, hp, space
from helpers.cards import p0 as med  # seat 0 is Medusa, seat 1 Sinbad (``duel``)
from helpers.cards import p1 as sin
from helpers.medusa_sinbad import APES, HOME, SERENDIB, VOYAGES, WHALE, duel

from sim.play.scenario import ScenarioError, resolve

pytestmark = pytest.mark.nojit

HOUNDS = "The Hounds of Mighty Zeus"


# =========================================================================== Medusa

# ---------------------------------------------------------------- Gaze of Stone
def test_gaze_of_stone_won_deals_8_after_combat():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Gaze of Stone"]},
        {"fighters": {"Sinbad": at("M13")}, "hand": ["Regroup"], "deck": ["Exploit", "Feint"]},
    ), {"attack": "Gaze of Stone", "by": "Medusa", "target": "Sinbad", "defense": "Regroup"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 1, "damage": 1, "winner": "attacker"}
    assert hp(out, "Sinbad") == 15 - 1 - 8
    assert sin(out)["hand"] == ["Exploit"]          # Regroup lost: draw 1
    assert sin(out)["deck"] == ["Feint"]
    assert med(out)["discard"] == ["Gaze of Stone"] and med(out)["hand"] == []
    assert sin(out)["discard"] == ["Regroup"]
    assert out["winner"] is None


def test_R04_gaze_of_stone_8_damage_defeats_sinbad_and_medusa_wins():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Gaze of Stone"]},
        {"fighters": {"Sinbad": at("M20", 9)}, "hand": ["Regroup"], "deck": ["Exploit"]},
    ), {"attack": "Gaze of Stone", "by": "Medusa", "target": "Sinbad", "defense": "Regroup"})
    assert out["combat"]["winner"] == "attacker"
    # defender's After (Regroup draw) first, then 8 damage: 9 - 1 - 8 = 0
    assert sin(out)["hand"] == ["Exploit"]
    assert hp(out, "Sinbad") == 0
    assert out["fighters"]["Sinbad"]["status"] == "defeated"
    assert out["winner"] == "Medusa"


def test_gaze_of_stone_tie_is_a_defender_win_no_8_damage():
    # Sinbad's only value-2 card is Feint; A=2, D=2 -> tie -> defender wins.
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Gaze of Stone"]},
        {"fighters": {"Sinbad": at("M13")}, "hand": ["Feint"]},
    ), {"attack": "Gaze of Stone", "by": "Medusa", "target": "Sinbad", "defense": "Feint"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 2, "damage": 0, "winner": "defender"}
    assert hp(out, "Sinbad") == 15


def test_gaze_of_stone_lost_no_8_damage():
    # Momentous Shift: Sinbad started on his space, so value 3 > 2.
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Gaze of Stone"]},
        {"fighters": {"Sinbad": at("M13", 10)}, "hand": ["Momentous Shift"]},
    ), {"attack": "Gaze of Stone", "by": "Medusa", "target": "Sinbad", "defense": "Momentous Shift"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert hp(out, "Sinbad") == 10


# ---------------------------------------------------------------- Second Shot
MEDUSA_BOOSTS = [
    ("Gaze of Stone", 4), ("Second Shot", 3), ("Hiss and Slither", 3), ("A Momentary Glance", 4),
    (HOUNDS, 3), ("Clutching Claws", 2), ("Winged Frenzy", 2), ("Snipe", 1), ("Dash", 1),
    ("Feint", 2), ("Regroup", 2),
]


@pytest.mark.parametrize("booster,boost", MEDUSA_BOOSTS)
def test_second_shot_boost_adds_boosting_cards_boost_value(booster, boost):
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Second Shot", booster, "Snipe"]},
        {"fighters": {"Sinbad": at("M13")}, "hand": []},
    ), {"attack": "Second Shot", "by": "Medusa", "target": "Sinbad", "defense": None}, [booster])
    assert out["combat"]["attack_value"] == 3 + boost
    assert hp(out, "Sinbad") == 15 - 3 - boost
    assert med(out)["discard"] == [booster, "Second Shot"]   # boost discarded during combat
    assert med(out)["hand"] == ["Snipe"]


def test_second_shot_boost_declined():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Second Shot", "Gaze of Stone"]},
        {"fighters": {"Sinbad": at("M13")}, "hand": ["Exploit"], "deck": ["Feint"]},
    ), {"attack": "Second Shot", "by": "Medusa", "target": "Sinbad", "defense": "Exploit"}, [None])
    assert out["combat"] == {"attack_value": 3, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert med(out)["hand"] == ["Gaze of Stone"]
    assert med(out)["discard"] == ["Second Shot"]
    assert hp(out, "Sinbad") == 15
    assert sin(out)["hand"] == ["Feint"]     # Exploit: draw 1


def test_second_shot_boost_cancelled_by_feint_not_asked():
    # Feint cancels "you may BOOST": no boost decision is asked (an empty script works).
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Second Shot", "Gaze of Stone"]},
        {"fighters": {"Sinbad": at("M13")}, "hand": ["Feint"]},
    ), {"attack": "Second Shot", "by": "Medusa", "target": "Sinbad", "defense": "Feint"})
    assert out["combat"] == {"attack_value": 3, "defense_value": 2, "damage": 1, "winner": "attacker"}
    assert med(out)["hand"] == ["Gaze of Stone"]
    assert hp(out, "Sinbad") == 14


# ---------------------------------------------------------------- Hiss and Slither
def test_R34_voyage_counts_other_voyages_vs_hiss_and_slither():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21", 16)}, "hand": ["Hiss and Slither"]},
        {"fighters": {"Sinbad": at("M20")}, "hand": [APES, "Feint", "Exploit"],
         "discard": [WHALE, SERENDIB, HOME]},
        active=1,
    ), {"attack": APES, "by": "Sinbad", "target": "Medusa", "defense": "Hiss and Slither"}, ["Feint"])
    assert out["combat"] == {"attack_value": 5, "defense_value": 4, "damage": 1, "winner": "attacker"}
    assert hp(out, "Medusa") == 13                      # 16 - 1 combat - 2 Apes
    assert sin(out)["hand"] == ["Exploit"]              # Sinbad discarded his choice
    assert sin(out)["discard"] == [WHALE, SERENDIB, HOME, "Feint", APES]
    assert sum(c in VOYAGES for c in sin(out)["discard"]) == 4
    assert med(out)["discard"] == ["Hiss and Slither"]


def test_hiss_and_slither_won_attacker_discards_then_draws():
    # Exploit 4 vs Hiss 4: tie, Medusa wins; Sinbad discards his choice, then Exploit draws 1.
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Hiss and Slither"]},
        {"fighters": {"Sinbad": at("M20")}, "hand": ["Exploit", "Feint", "Regroup"], "deck": ["Leap Away"]},
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": "Medusa", "defense": "Hiss and Slither"}, ["Regroup"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert hp(out, "Medusa") == 16
    assert sin(out)["hand"] == ["Feint", "Leap Away"]
    assert sin(out)["discard"] == ["Regroup", "Exploit"]


def test_hiss_and_slither_illegal_choice_lists_sinbads_cards():
    with pytest.raises(ScenarioError, match=r"card to discard.*legal options: Feint, Regroup"):
        resolve(duel(
            {"fighters": {"Medusa": at("M21")}, "hand": ["Hiss and Slither"]},
            {"fighters": {"Sinbad": at("M20")}, "hand": ["Exploit", "Feint", "Regroup"], "deck": ["Leap Away"]},
            active=1,
        ), {"attack": "Exploit", "by": "Sinbad", "target": "Medusa", "defense": "Hiss and Slither"}, ["Snipe"])


def test_hiss_and_slither_is_medusa_only_harpy_cannot_defend_with_it():
    with pytest.raises(ScenarioError, match=r"defense card.*legal options: Snipe, no card"):
        resolve(duel(
            {"fighters": {"Medusa": at("M06"), "Harpy 1": at("M21")}, "hand": ["Hiss and Slither", "Snipe"]},
            {"fighters": {"Sinbad": at("M20")}, "hand": ["Exploit"]},
            active=1,
        ), {"attack": "Exploit", "by": "Sinbad", "target": "Harpy 1", "defense": "Hiss and Slither"})


# ---------------------------------------------------------------- A Momentary Glance
GLANCE_POS = duel(
    # Medusa M21 (red). In her zone: Harpy 1 (M20, adjacent), Sinbad (M13, not adjacent).
    # The Porter on M25 is adjacent to Medusa but outside her zone.
    {"fighters": {"Medusa": at("M21"), "Harpy 1": at("M20")}, "hand": ["A Momentary Glance"]},
    {"fighters": {"Sinbad": at("M13"), "The Porter": at("M25")}},
)


def test_momentary_glance_hits_opposing_fighter_in_zone():
    out = resolve(GLANCE_POS, {"scheme": "A Momentary Glance", "by": "Medusa"}, ["Sinbad"])
    assert hp(out, "Sinbad") == 13
    assert hp(out, "The Porter") == 6 and hp(out, "Harpy 1") == 1 and hp(out, "Medusa") == 16
    assert med(out)["hand"] == [] and med(out)["discard"] == ["A Momentary Glance"]


def test_momentary_glance_can_hit_medusas_own_harpy():
    out = resolve(GLANCE_POS, {"scheme": "A Momentary Glance", "by": "Medusa"}, ["Harpy 1"])
    assert out["fighters"]["Harpy 1"] == {"space": None, "health": 0, "status": "defeated"}
    assert hp(out, "Sinbad") == 15


def test_momentary_glance_cannot_hit_adjacent_fighter_outside_zone():
    with pytest.raises(ScenarioError) as e:
        resolve(GLANCE_POS, {"scheme": "A Momentary Glance", "by": "Medusa"}, ["The Porter"])
    msg = str(e.value)
    assert "'The Porter'" in msg and "target fighter" in msg
    assert msg.endswith("legal options: Medusa, Harpy 1, Sinbad")


def test_momentary_glance_is_medusa_only():
    with pytest.raises(ScenarioError, match="Harpy 1 cannot play the scheme 'A Momentary Glance'"):
        resolve(GLANCE_POS, {"scheme": "A Momentary Glance", "by": "Harpy 1"}, ["Sinbad"])


# ---------------------------------------------------------------- The Hounds of Mighty Zeus
HOUNDS_POS = duel(
    {"fighters": {"Medusa": at("M06"), "Harpy 1": at("M20"), "Harpy 2": at("M28")}, "hand": [HOUNDS]},
    {"fighters": {"Sinbad": at("M13")}},
)


def test_hounds_each_harpy_moves_up_to_3():
    out = resolve(HOUNDS_POS, {"attack": HOUNDS, "by": "Harpy 1", "target": "Sinbad", "defense": None},
                  ["Harpy 2", "M31", "M26"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 0, "damage": 4, "winner": "attacker"}
    assert hp(out, "Sinbad") == 11
    assert (dist("M28", "M31"), dist("M20", "M26")) == (3, 3)
    assert space(out, "Harpy 2") == "M31" and space(out, "Harpy 1") == "M26"
    assert space(out, "Medusa") == "M06"                       # Medusa is not a Harpy
    assert out["fighters"]["Harpy 3"]["status"] == "defeated"
    assert med(out)["discard"] == [HOUNDS]


def test_hounds_harpy_cannot_move_4():
    assert dist("M28", "M23") == 4
    with pytest.raises(ScenarioError, match=r"'M23'.*destination space"):
        resolve(HOUNDS_POS, {"attack": HOUNDS, "by": "Harpy 1", "target": "Sinbad", "defense": None},
                ["Harpy 2", "M23", "M26"])


def test_hounds_and_claws_are_harpy_only():
    pos = duel({"fighters": {"Medusa": at("M21")}, "hand": [HOUNDS, "Clutching Claws", "Snipe"]},
               {"fighters": {"Sinbad": at("M20")}})
    with pytest.raises(ScenarioError, match="Medusa cannot attack Sinbad with 'The Hounds") as e:
        resolve(pos, {"attack": HOUNDS, "by": "Medusa", "target": "Sinbad", "defense": None})
    assert "legal: Medusa attacks Sinbad with Snipe" in str(e.value)
    assert "Clutching Claws" not in str(e.value)


# ---------------------------------------------------------------- Clutching Claws
def test_clutching_claws_attack_opponent_discards_choice():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M06"), "Harpy 1": at("M20")}, "hand": ["Clutching Claws"]},
        {"fighters": {"Sinbad": at("M13")}, "hand": ["Feint", "Exploit"]},
    ), {"attack": "Clutching Claws", "by": "Harpy 1", "target": "Sinbad", "defense": None}, ["Exploit"])
    assert out["combat"]["attack_value"] == 3
    assert hp(out, "Sinbad") == 12
    assert sin(out)["hand"] == ["Feint"] and sin(out)["discard"] == ["Exploit"]
    assert med(out)["discard"] == ["Clutching Claws"]


def test_clutching_claws_defense_attackers_player_discards_even_if_harpy_defeated():
    # Cases timing model (3), R02: a defeated fighter's card effects still resolve if
    # they don't need it on the board. Defender's After first: Sinbad discards, then draws.
    out = resolve(duel(
        {"fighters": {"Medusa": at("M06"), "Harpy 1": at("M21")}, "hand": ["Clutching Claws"]},
        {"fighters": {"Sinbad": at("M20")}, "hand": ["Exploit", "Feint"], "deck": ["Regroup"]},
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": "Harpy 1", "defense": "Clutching Claws"})
    assert out["combat"]["attack_value"] == 4 and out["combat"]["defense_value"] == 3
    assert out["combat"]["winner"] == "attacker"
    assert out["fighters"]["Harpy 1"]["status"] == "defeated"
    assert sin(out)["discard"] == ["Feint", "Exploit"]
    assert sin(out)["hand"] == ["Regroup"]
    assert med(out)["discard"] == ["Clutching Claws"]


# ---------------------------------------------------------------- Winged Frenzy
FRENZY_POS = duel(
    # Medusa M21 can reach M13 within 3 only through Sinbad on M20.
    {"fighters": {"Medusa": at("M21"), "Harpy 1": at("M28")}, "hand": ["Winged Frenzy"]},
    {"fighters": {"Sinbad": at("M20"), "The Porter": at("M06")}},
)


def test_winged_frenzy_moves_through_opposing_and_returns_harpy_in_medusas_zone():
    out = resolve(FRENZY_POS, {"scheme": "Winged Frenzy", "by": "Harpy 1"},
                  ["Medusa", "M13", "M29", "M07"])
    assert space(out, "Medusa") == "M13"          # M21 -> M20 (Sinbad) -> M13
    assert space(out, "Harpy 1") == "M29"
    # the returned Harpy comes back at full health in Medusa's (new) zone
    assert out["fighters"]["Harpy 2"] == {"space": "M07", "health": 1, "status": "in play"}
    assert out["fighters"]["Harpy 3"]["status"] == "defeated"
    assert space(out, "Sinbad") == "M20"
    assert med(out)["discard"] == ["Winged Frenzy"]


def test_winged_frenzy_returned_harpy_must_be_in_medusas_zone():
    with pytest.raises(ScenarioError) as e:
        resolve(FRENZY_POS, {"scheme": "Winged Frenzy", "by": "Medusa"}, ["Medusa", "M13", "M28", "M25"])
    msg = str(e.value)
    assert "space to place on" in msg
    # empty spaces sharing red or yellow with M13 (M20 holds Sinbad, M13 Medusa)
    assert msg.endswith("legal options: M01, M07, M08, M21")


def test_winged_frenzy_without_defeated_harpy_only_moves():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21"), "Harpy 1": at("M28"), "Harpy 2": at("M01"), "Harpy 3": at("M02")},
         "hand": ["Winged Frenzy"]},
        {"fighters": {"Sinbad": at("M06")}},
    ), {"scheme": "Winged Frenzy", "by": "Medusa"},
        ["Medusa", "M23", "Harpy 1", "M28", "Harpy 2", "M01", "M03"])
    assert [space(out, f) for f in ("Medusa", "Harpy 1", "Harpy 2", "Harpy 3")] == ["M23", "M28", "M01", "M03"]


# ---------------------------------------------------------------- Snipe
def test_snipe_draws_1():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Snipe"], "deck": ["Dash", "Feint"]},
        {"fighters": {"Sinbad": at("M13")}},
    ), {"attack": "Snipe", "by": "Medusa", "target": "Sinbad", "defense": None})
    assert out["combat"]["attack_value"] == 3 and hp(out, "Sinbad") == 12
    assert med(out)["hand"] == ["Dash"] and med(out)["deck"] == ["Feint"]
    assert med(out)["discard"] == ["Snipe"]


def test_snipe_draw_does_not_resolve_after_sinbad_is_defeated():
    # docs/rules.md project decision "End of game": the game ends at once; the After
    # Combat draw of Snipe does not resolve.
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Snipe"], "deck": ["Dash"]},
        {"fighters": {"Sinbad": at("M13", 3)}},
    ), {"attack": "Snipe", "by": "Medusa", "target": "Sinbad", "defense": None})
    assert out["fighters"]["Sinbad"]["status"] == "defeated"
    assert out["winner"] == "Medusa"
    assert med(out)["hand"] == [] and med(out)["deck"] == ["Dash"]


# ---------------------------------------------------------------- Dash
def test_dash_on_defense_moves_medusa_up_to_3():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Dash"]},
        {"fighters": {"Sinbad": at("M20")}, "hand": ["Exploit"], "deck": ["Feint"]},
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": "Medusa", "defense": "Dash"}, ["M23"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 3, "damage": 1, "winner": "attacker"}
    assert hp(out, "Medusa") == 15
    assert space(out, "Medusa") == "M23" and dist("M21", "M23") == 3
    assert sin(out)["hand"] == ["Feint"]


def test_dash_cannot_move_4():
    with pytest.raises(ScenarioError, match=r"'M24'.*destination space"):
        resolve(duel(
            {"fighters": {"Medusa": at("M21")}, "hand": ["Dash"]},
            {"fighters": {"Sinbad": at("M20")}, "hand": ["Exploit"], "deck": ["Feint"]},
            active=1,
        ), {"attack": "Exploit", "by": "Sinbad", "target": "Medusa", "defense": "Dash"}, ["M24"])


# ---------------------------------------------------------------- Feint (Medusa)
def test_medusa_feint_cancels_regroup_effects_not_its_value():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Feint"]},
        {"fighters": {"Sinbad": at("M13")}, "hand": ["Regroup"], "deck": ["Exploit", "Leap Away"]},
    ), {"attack": "Feint", "by": "Medusa", "target": "Sinbad", "defense": "Regroup"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 1, "damage": 1, "winner": "attacker"}
    assert hp(out, "Sinbad") == 14
    assert sin(out)["hand"] == [] and sin(out)["deck"] == ["Exploit", "Leap Away"]   # no draw
    assert sin(out)["discard"] == ["Regroup"] and med(out)["discard"] == ["Feint"]


def test_medusa_feint_cancels_voyage_bonus_and_after_effect():
    # Apes with 3 other Voyages would be 5; cancelled it is its printed 2 and deals no 2 damage.
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Feint"]},
        {"fighters": {"Sinbad": at("M20")}, "hand": [APES], "discard": [WHALE, SERENDIB, HOME]},
        active=1,
    ), {"attack": APES, "by": "Sinbad", "target": "Medusa", "defense": "Feint"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 2, "damage": 0, "winner": "defender"}
    assert hp(out, "Medusa") == 16


# ---------------------------------------------------------------- Regroup (Medusa)
def test_medusa_regroup_won_draws_2():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Regroup"], "deck": ["Snipe", "Dash", "Feint"]},
        {"fighters": {"Sinbad": at("M13")}},
    ), {"attack": "Regroup", "by": "Medusa", "target": "Sinbad", "defense": None})
    assert out["combat"] == {"attack_value": 1, "defense_value": 0, "damage": 1, "winner": "attacker"}
    assert med(out)["hand"] == ["Snipe", "Dash"] and med(out)["deck"] == ["Feint"]


def test_R05_regroup_vs_regroup_tie_defender_draws_2_attacker_draws_1():
    # R05 analog: a tie is a defender win; effect draws don't change the winner.
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Regroup"], "deck": ["Snipe", "Dash"]},
        {"fighters": {"Sinbad": at("M13")}, "hand": ["Regroup"], "deck": ["Exploit", "Feint", "Leap Away"]},
    ), {"attack": "Regroup", "by": "Medusa", "target": "Sinbad", "defense": "Regroup"})
    assert out["combat"] == {"attack_value": 1, "defense_value": 1, "damage": 0, "winner": "defender"}
    assert sin(out)["hand"] == ["Exploit", "Feint"] and sin(out)["deck"] == ["Leap Away"]
    assert med(out)["hand"] == ["Snipe"] and med(out)["deck"] == ["Dash"]
    assert hp(out, "Sinbad") == 15


def test_regroup_draw_from_empty_deck_defeats_medusa_sinbad_wins():
    # R10/R11 exhaustion inside an After Combat effect, on Medusa's own turn.
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21", 2)}, "hand": ["Regroup"], "deck": []},
        {"fighters": {"Sinbad": at("M13")}, "hand": ["Exploit"], "deck": ["Feint"]},
    ), {"attack": "Regroup", "by": "Medusa", "target": "Sinbad", "defense": "Exploit"})
    assert out["combat"]["winner"] == "defender"
    assert sin(out)["hand"] == ["Feint"]           # defender's Exploit draw came first
    assert out["fighters"]["Medusa"]["status"] == "defeated"
    assert out["winner"] == "Sinbad"


def test_medusa_regroup_lost_draws_1():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}, "hand": ["Regroup"], "deck": ["Snipe", "Dash", "Feint"]},
        {"fighters": {"Sinbad": at("M20")}, "hand": ["Voyage to the Island That Was a Whale"]},
        active=1,
    ), {"attack": WHALE, "by": "Sinbad", "target": "Medusa", "defense": "Regroup"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 1, "damage": 1, "winner": "attacker"}
    assert med(out)["hand"] == ["Snipe"] and med(out)["deck"] == ["Dash", "Feint"]
    assert hp(out, "Medusa") == 15


# ---------------------------------------------------------------- Medusa's ability
def test_R32_gaze_ability_hits_opposing_fighter_in_zone_not_adjacent():
    # The Porter (1 HP) is in Medusa's zone but not adjacent; Sinbad is adjacent across a
    # zone border; Medusa's own Harpy in her zone is no target (single target: not asked).
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21"), "Harpy 1": at("M20")}},
        {"fighters": {"Sinbad": at("M25"), "The Porter": at("M13", 1)}},
    ), {"start_of_turn": True}, [True])
    assert out["fighters"]["The Porter"]["status"] == "defeated"
    assert hp(out, "Sinbad") == 15 and hp(out, "Harpy 1") == 1
    assert out["winner"] is None


def test_R32_gaze_ability_may_decline():
    out = resolve(duel(
        {"fighters": {"Medusa": at("M21")}},
        {"fighters": {"Sinbad": at("M25"), "The Porter": at("M13", 1)}},
    ), {"start_of_turn": True}, [False])
    assert hp(out, "The Porter") == 1 and hp(out, "Sinbad") == 15


def test_R32_gaze_ability_no_target_outside_zone():
    pos = duel({"fighters": {"Medusa": at("M21")}},
               {"fighters": {"Sinbad": at("M25", 1), "The Porter": at("M06")}})
    out = resolve(pos, {"start_of_turn": True})          # nothing to ask: no fighter in zone
    assert hp(out, "Sinbad") == 1 and out["winner"] is None
    with pytest.raises(ScenarioError, match="only 0 of 1 choices were used"):
        resolve(pos, {"start_of_turn": True}, [True])


def test_gaze_ability_chooses_between_two_targets_and_lists_them():
    pos = duel({"fighters": {"Medusa": at("M21"), "Harpy 1": at("M20")}},
               {"fighters": {"Sinbad": at("M13"), "The Porter": at("M07")}})
    out = resolve(pos, {"start_of_turn": True}, [True, "The Porter"])
    assert hp(out, "The Porter") == 5 and hp(out, "Sinbad") == 15
    with pytest.raises(ScenarioError, match=r"'Harpy 1'.*legal options: Sinbad, The Porter$"):
        resolve(pos, {"start_of_turn": True}, [True, "Harpy 1"])
