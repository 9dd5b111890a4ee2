"""Card tests for the Ancient Leshen and the Wolves: Heart of the Forest, Primeval Slam (R63),
Vanish into Murder (R64, R65), every other card and the Wolves' setup.
"""
import pytest
from helpers.cards import at, dist, game, hp, log_text, medusa, p0, p1, run, space, status
from helpers.witcher import (ABOUNDS, BF, COMMAND, FLOCK, GUARDIAN, HARRY, HISS, LESHEN, PACK, PLANTED, SLAM, VANISH,
    WILY, leshen)

from sim.engine import layout as L
from sim.engine.effects import opponent_player
from sim.engine.rules import pack_action
from sim.play.match import Match
from sim.play.narrate import narrate
from sim.play.scenario import Scenario, ScenarioError, resolve

pytestmark = pytest.mark.nojit


# =========================================================================== Ancient Leshen

# ---------------------------------------------------------------- Heart of the Forest
HEART_POS = game(
    leshen(fighters={LESHEN: at("M13"), "Wolf 1": at("M20")}, hand=[PLANTED, WILY, COMMAND], deck=[SLAM, FLOCK]),
    medusa(fighters={"Medusa": at("M21")}),
)


def test_heart_of_the_forest_plus_3_on_the_leshens_second_attack():
    sc = Scenario(HEART_POS)
    out = run(sc, {"attack": PLANTED, "by": LESHEN, "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == 4 and hp(out, "Medusa") == 12
    out = run(sc, {"attack": COMMAND, "by": LESHEN, "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == 4 + 3 and hp(out, "Medusa") == 5


def test_heart_of_the_forest_not_after_a_wolf_attack():
    sc = Scenario(HEART_POS)
    run(sc, {"attack": WILY, "by": "Wolf 1", "target": "Medusa", "defense": None})
    out = run(sc, {"attack": COMMAND, "by": LESHEN, "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == 4


def test_heart_of_the_forest_gives_the_wolves_nothing():
    sc = Scenario(HEART_POS)
    run(sc, {"attack": PLANTED, "by": LESHEN, "target": "Medusa", "defense": None})
    out = run(sc, {"attack": WILY, "by": "Wolf 1", "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == 3


def test_heart_of_the_forest_resets_at_the_start_of_the_next_turn():
    sc = Scenario(HEART_POS)
    run(sc, {"attack": PLANTED, "by": LESHEN, "target": "Medusa", "defense": None})
    run(sc, {"end_of_turn": True})
    run(sc, {"start_of_turn": True}, [False])             # Medusa's gaze: declined
    run(sc, {"end_of_turn": True})
    run(sc, {"start_of_turn": True})
    out = run(sc, {"attack": COMMAND, "by": LESHEN, "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == 4


def test_wolves_move_3_the_leshen_1():
    pos = game(leshen(fighters={LESHEN: at("M20"), "Wolf 1": at("M13")}, hand=[WILY], deck=[FLOCK]),
               medusa(fighters={"Medusa": at("M06")}))
    out = resolve(pos, {"maneuver": True}, [None, "Wolf 1", "M02", "M21"])
    assert space(out, "Wolf 1") == "M02" and dist("M13", "M02") == 3
    assert space(out, LESHEN) == "M21"
    with pytest.raises(ScenarioError, match=r"'M25'.*destination space"):
        resolve(pos, {"maneuver": True}, [None, LESHEN, "M25"])


def test_leshen_boosted_maneuver_adds_to_each_move_value():
    # Witcher rules: a BOOST adds to each fighter's own move (Flock of Birds, BOOST 1:
    # the Leshen up to 2, a Wolf up to 4).
    pos = game(leshen(fighters={LESHEN: at("M20"), "Wolf 1": at("M13")}, hand=[FLOCK], deck=[SLAM]),
               medusa(fighters={"Medusa": at("M06")}))
    out = resolve(pos, {"maneuver": True}, [FLOCK, "Wolf 1", "M03", "M25"])
    assert space(out, "Wolf 1") == "M03" and dist("M13", "M03") == 4
    assert space(out, LESHEN) == "M25" and dist("M20", "M25") == 2
    assert p0(out)["discard"] == [FLOCK] and p0(out)["hand"] == [SLAM]
    with pytest.raises(ScenarioError, match=r"'M26'.*destination space"):
        resolve(pos, {"maneuver": True}, [FLOCK, LESHEN, "M26"])


# ---------------------------------------------------------------- Primeval Slam (R63)
def test_R63_primeval_slam_summons_the_defeated_wolf_then_each_wolf_moves_up_to_3():
    out = resolve(game(leshen(fighters={LESHEN: at("M20"), "Wolf 1": at("M27")}, hand=[SLAM]),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": SLAM, "by": LESHEN, "target": "Medusa", "defense": None},
                  ["M07", "Wolf 1", "M30", "M02"])
    assert out["combat"]["attack_value"] == 4 and hp(out, "Medusa") == 12
    assert out["fighters"]["Wolf 2"] == {"space": "M02", "health": 1, "status": "in play"}
    assert space(out, "Wolf 1") == "M30" and dist("M27", "M30") == 3
    assert dist("M07", "M02") == 2


def test_R63_summoned_wolf_must_arrive_in_the_leshens_zone():
    with pytest.raises(ScenarioError) as e:
        resolve(game(leshen(fighters={LESHEN: at("M20"), "Wolf 1": at("M27")}, hand=[SLAM]),
                     medusa(fighters={"Medusa": at("M21")})),
                {"attack": SLAM, "by": LESHEN, "target": "Medusa", "defense": None}, ["M28"])
    assert "space to place on" in str(e.value)
    assert str(e.value).endswith("legal options: M01, M07, M08, M13")   # empty red/yellow spaces


def test_R63_with_both_wolves_on_the_board_one_is_placed_in_the_leshens_zone():
    out = resolve(game(leshen(fighters={LESHEN: at("M20"), "Wolf 1": at("M27"), "Wolf 2": at("M31")}, hand=[SLAM]),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": SLAM, "by": LESHEN, "target": "Medusa", "defense": None},
                  ["Wolf 2", "M13", "Wolf 1", "M27", "M13"])
    assert space(out, "Wolf 2") == "M13" and space(out, "Wolf 1") == "M27"


def test_primeval_slam_brings_back_a_wolf_that_started_off_the_board():
    out = resolve(game(leshen(fighters={LESHEN: at("M20"), "Wolf 1": "removed", "Wolf 2": "removed"}, hand=[SLAM]),
                       medusa(fighters={"Medusa": at("M21")}), rules={"summon_start_off_board": 1}),
                  {"attack": SLAM, "by": LESHEN, "target": "Medusa", "defense": None}, ["M13", "M13"])
    assert out["fighters"]["Wolf 1"] == {"space": "M13", "health": 1, "status": "in play"}
    assert status(out, "Wolf 2") == "removed"


# ---------------------------------------------------------------- Flock of Birds
def test_flock_of_birds_leshen_may_be_placed_on_any_space():
    pos = game(leshen(fighters={LESHEN: at("M13")}, hand=[FLOCK]), medusa(fighters={"Medusa": at("M21")}))
    out = resolve(pos, {"attack": FLOCK, "by": LESHEN, "target": "Medusa", "defense": None}, [True, "M06"])
    assert out["combat"]["attack_value"] == 5 and hp(out, "Medusa") == 11
    assert space(out, LESHEN) == "M06"
    out = resolve(pos, {"attack": FLOCK, "by": LESHEN, "target": "Medusa", "defense": None}, [False])
    assert space(out, LESHEN) == "M13"


# ---------------------------------------------------------------- Nature Abounds
@pytest.mark.parametrize("leshen_space,draws", [("M13", 3), ("M07", 2)])
def test_nature_abounds_draws_1_per_own_fighter_adjacent_to_the_opposing_fighter(leshen_space, draws):
    deck = [SLAM, FLOCK, WILY, COMMAND]
    out = resolve(game(leshen(fighters={LESHEN: at(leshen_space), "Wolf 1": at("M21"), "Wolf 2": at("M27")},
                              hand=[ABOUNDS], deck=deck),
                       medusa(fighters={"Medusa": at("M20")})),
                  {"attack": ABOUNDS, "by": "Wolf 1", "target": "Medusa", "defense": None})
    assert hp(out, "Medusa") == 14
    assert p0(out)["hand"] == deck[:draws] and p0(out)["deck"] == deck[draws:]


# ---------------------------------------------------------------- Command the Forest
def test_command_the_forest_won_opponent_discards():
    out = resolve(game(leshen(fighters={LESHEN: at("M13")}, hand=[COMMAND]),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Snipe", "Dash", "Regroup"])),
                  {"attack": COMMAND, "by": LESHEN, "target": "Medusa", "defense": None}, ["Dash"])
    assert out["combat"]["winner"] == "attacker" and hp(out, "Medusa") == 12
    assert p1(out)["hand"] == ["Snipe", "Regroup"] and p1(out)["discard"] == ["Dash"]


def test_command_the_forest_not_won_no_discard():
    out = resolve(game(leshen(fighters={LESHEN: at("M13")}, hand=[COMMAND]),
                       medusa(fighters={"Medusa": at("M21")}, hand=[HISS, "Snipe"])),
                  {"attack": COMMAND, "by": LESHEN, "target": "Medusa", "defense": HISS})
    assert out["combat"]["winner"] == "defender"
    assert p1(out)["hand"] == ["Snipe"]


# ---------------------------------------------------------------- Planted Feet
def test_planted_feet_draws_if_the_fighter_has_not_left_its_space():
    out = resolve(game(leshen(fighters={LESHEN: at("M13")}, hand=[PLANTED], deck=[SLAM]),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": PLANTED, "by": LESHEN, "target": "Medusa", "defense": None})
    assert hp(out, "Medusa") == 12 and p0(out)["hand"] == [SLAM]


def test_planted_feet_no_draw_after_a_maneuver_moved_the_fighter():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M07")}, hand=[PLANTED], deck=[SLAM, FLOCK]),
                       medusa(fighters={"Medusa": at("M21")})))
    run(sc, {"maneuver": True}, [None, "M13"])
    out = run(sc, {"attack": PLANTED, "by": LESHEN, "target": "Medusa", "defense": None})
    assert p0(out)["hand"] == [SLAM] and p0(out)["deck"] == [FLOCK]


def test_planted_feet_no_draw_after_leaving_and_coming_back():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13"), "Wolf 1": at("M20")}, hand=[PLANTED],
                              deck=[SLAM, FLOCK, WILY]),
                       medusa(fighters={"Medusa": at("M21")})))
    run(sc, {"maneuver": True}, [None, "Wolf 1", "M27", "M13"])
    out = run(sc, {"maneuver": True}, [None, "Wolf 1", "M20", "M13"])
    assert space(out, "Wolf 1") == "M20"                  # back on its space, but it left it
    out = run(sc, {"attack": PLANTED, "by": "Wolf 1", "target": "Medusa", "defense": None})
    assert p0(out)["hand"] == [SLAM, FLOCK] and p0(out)["deck"] == [WILY]


def test_planted_feet_wolf_that_did_not_move_draws_while_the_leshen_moved():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M07"), "Wolf 1": at("M20")}, hand=[PLANTED], deck=[SLAM, FLOCK]),
                       medusa(fighters={"Medusa": at("M21")})))
    run(sc, {"maneuver": True}, [None, LESHEN, "M13", "M20"])
    out = run(sc, {"attack": PLANTED, "by": "Wolf 1", "target": "Medusa", "defense": None})
    assert p0(out)["hand"] == [SLAM, FLOCK]


def test_planted_feet_no_draw_when_the_position_says_it_started_elsewhere():
    out = resolve(game(leshen(fighters={LESHEN: at("M13")}, hand=[PLANTED], deck=[SLAM], started_on={LESHEN: "M07"}),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": PLANTED, "by": LESHEN, "target": "Medusa", "defense": None})
    assert p0(out)["hand"] == []


# ---------------------------------------------------------------- Harrying Strike
def test_harrying_strike_plus_2_per_own_fighter_adjacent_to_the_opposing_fighter():
    out = resolve(game(leshen(fighters={LESHEN: at("M13"), "Wolf 1": at("M21"), "Wolf 2": at("M27")}, hand=[HARRY]),
                       medusa(fighters={"Medusa": at("M20")})),
                  {"attack": HARRY, "by": "Wolf 1", "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == 2 + 2 * 3
    assert hp(out, "Medusa") == 8


def test_harrying_strike_on_defense_counts_the_wolf_itself():
    out = resolve(game(leshen(fighters={LESHEN: at("M06"), "Wolf 1": at("M21")}, hand=[HARRY]),
                       medusa(fighters={"Medusa": at("M20")}, hand=["Snipe"], deck=["Dash"]), active=1),
                  {"attack": "Snipe", "by": "Medusa", "target": "Wolf 1", "defense": HARRY})
    assert out["combat"] == {"attack_value": 3, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert hp(out, "Wolf 1") == 1


def test_harrying_strike_is_wolf_only():
    with pytest.raises(ScenarioError, match="Ancient Leshen cannot attack Medusa with 'Harrying Strike'"):
        resolve(game(leshen(fighters={LESHEN: at("M13")}, hand=[HARRY]), medusa(fighters={"Medusa": at("M20")})),
                {"attack": HARRY, "by": LESHEN, "target": "Medusa", "defense": None})


# ---------------------------------------------------------------- Wily Fighting
def test_wily_fighting_1_damage_to_each_opposing_fighter_adjacent_to_your_fighter():
    out = resolve(game(leshen(fighters={LESHEN: at("M06"), "Wolf 1": at("M20"), "Wolf 2": at("M27")}, hand=[WILY]),
                       medusa(fighters={"Medusa": at("M21"), "Harpy 1": at("M13"), "Harpy 2": at("M07")})),
                  {"attack": WILY, "by": "Wolf 1", "target": "Medusa", "defense": None})
    assert hp(out, "Medusa") == 16 - 3 - 1
    assert status(out, "Harpy 1") == "defeated"
    assert hp(out, "Harpy 2") == 1 and hp(out, "Wolf 2") == 1


# ---------------------------------------------------------------- Primeval Guardian
def test_primeval_guardian_opponents_top_card_boost_added_to_their_attack_then_wolves_move():
    out = resolve(game(leshen(fighters={LESHEN: at("M13"), "Wolf 1": at("M07")}, hand=[GUARDIAN]),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Snipe"], deck=["Gaze of Stone", "Dash"]),
                       active=1),
                  {"attack": "Snipe", "by": "Medusa", "target": LESHEN, "defense": GUARDIAN}, ["M02"])
    assert out["combat"] == {"attack_value": 3 + 4, "defense_value": 5, "damage": 2, "winner": "attacker"}
    assert hp(out, LESHEN) == 11
    assert p1(out)["discard"] == ["Gaze of Stone", "Snipe"]
    assert p1(out)["hand"] == ["Dash"] and p1(out)["deck"] == []      # Snipe's draw: the next card
    assert space(out, "Wolf 1") == "M02"
    assert "discards the top card of the deck: Gaze of Stone (BOOST 4)" in log_text(out)


def test_primeval_guardian_with_an_empty_opposing_deck_adds_nothing():
    out = resolve(game(leshen(fighters={LESHEN: at("M13")}, hand=[GUARDIAN]),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Snipe"], deck=[]), active=1),
                  {"attack": "Snipe", "by": "Medusa", "target": LESHEN, "defense": GUARDIAN})
    assert out["combat"]["attack_value"] == 3 and out["combat"]["winner"] == "defender"


# ---------------------------------------------------------------- Strength of the Pack
def test_strength_of_the_pack_summons_a_wolf_and_stays_in_play():
    out = resolve(game(leshen(fighters={LESHEN: at("M13")}, hand=[PACK]), medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": PACK, "by": LESHEN}, ["M20"])
    assert out["fighters"]["Wolf 1"] == {"space": "M20", "health": 1, "status": "in play"}
    assert status(out, "Wolf 2") == "defeated"
    assert p0(out)["ongoing"] == PACK and p0(out)["discard"] == []


def test_strength_of_the_pack_leshen_recovers_1_at_the_start_of_his_turn():
    out = resolve(game(leshen(fighters={LESHEN: at("M13", 10), "Wolf 1": at("M20")}, ongoing=PACK),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"start_of_turn": True})
    assert hp(out, LESHEN) == 11
    out = resolve(game(leshen(fighters={LESHEN: at("M13")}, ongoing=PACK), medusa(fighters={"Medusa": at("M06")})),
                  {"start_of_turn": True})
    assert hp(out, LESHEN) == 13


@pytest.mark.parametrize("wolf,kept", [("M20", True), ("M27", False)])
def test_strength_of_the_pack_discarded_at_end_of_turn_without_a_wolf_in_the_leshens_zone(wolf, kept):
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13"), "Wolf 1": at(wolf)}, ongoing=PACK),
                       medusa(fighters={"Medusa": at("M06")})))
    out = run(sc, {"end_of_turn": True})
    assert p0(out)["ongoing"] == (PACK if kept else None)
    assert p0(out)["discard"] == ([] if kept else [PACK])


def test_strength_of_the_pack_checked_only_at_the_end_of_the_owners_turn():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13")}, ongoing=PACK),
                       medusa(fighters={"Medusa": at("M06")}), active=1))
    out = run(sc, {"end_of_turn": True})
    assert p0(out)["ongoing"] == PACK


# ---------------------------------------------------------------- Vanish into Murder (R64, R65)
def test_R64_vanish_damage_then_the_leshen_is_removed_not_defeated():
    out = resolve(game(leshen(fighters={LESHEN: at("M13", 6), "Wolf 1": at("M27")}, hand=[VANISH]),
                       medusa(fighters={"Medusa": at("M21"), "Harpy 1": at("M07"), "Harpy 2": at("M25")})),
                  {"scheme": VANISH, "by": LESHEN})
    assert hp(out, "Medusa") == 15 and status(out, "Harpy 1") == "defeated"
    assert hp(out, "Harpy 2") == 1                        # M25 is not in the red zone
    assert out["fighters"][LESHEN] == {"space": None, "health": 6, "status": "removed"}
    assert out["winner"] is None
    assert p0(out)["discard"] == [VANISH]


def test_R64_leshen_returns_at_the_start_of_his_next_turn_then_draws_1():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13", 6)}, hand=[VANISH], deck=[SLAM, FLOCK]),
                       medusa(fighters={"Medusa": at("M21")})))
    run(sc, {"scheme": VANISH, "by": LESHEN})
    run(sc, {"end_of_turn": True})
    out = run(sc, {"start_of_turn": True})                # Medusa's gaze: no target, nothing asked
    assert out["choices_used"] == 0
    assert out["fighters"][LESHEN]["status"] == "removed" and hp(out, LESHEN) == 6
    run(sc, {"end_of_turn": True})
    out = run(sc, {"start_of_turn": True}, ["M31"])
    assert out["fighters"][LESHEN] == {"space": "M31", "health": 6, "status": "in play"}
    assert p0(out)["hand"] == [SLAM] and p0(out)["deck"] == [FLOCK]


def test_R64_dormant_player_is_no_opponent_with_a_wolf_on_the_board_he_is():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13", 6)}, hand=[VANISH]),
                       medusa(fighters={"Medusa": at("M21")})))
    run(sc, {"scheme": VANISH, "by": LESHEN})
    assert opponent_player(sc.st, 1, -1) == -1            # "your opponent discards" finds nobody
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13", 6), "Wolf 1": at("M27")}, hand=[VANISH]),
                       medusa(fighters={"Medusa": at("M21")})))
    run(sc, {"scheme": VANISH, "by": LESHEN})
    assert opponent_player(sc.st, 1, -1) == 0


def test_R64_vanish_as_first_action_with_no_wolves_the_turn_stops():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13", 6)}, hand=[VANISH, SLAM], deck=[FLOCK, WILY]),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Snipe"])))
    vanish = pack_action(L.A_SCHEME, sc.fighter(LESHEN), -1, sc.card(0, VANISH))
    out = run(sc, {"turn": True}, [vanish])
    text = log_text(out)
    assert "action 1: SCHEME" in text and "action 2" not in text
    assert p0(out)["hand"] == [SLAM]


def test_R64_vanish_with_a_wolf_on_the_board_the_player_keeps_acting():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13", 6), "Wolf 1": at("M27")}, hand=[VANISH], deck=[FLOCK]),
                       medusa(fighters={"Medusa": at("M06")})))
    vanish = pack_action(L.A_SCHEME, sc.fighter(LESHEN), -1, sc.card(0, VANISH))
    # the second action is forced (a maneuver: no card left to play), so it is not asked
    out = run(sc, {"turn": True}, [vanish, None, "M30"])
    text = log_text(out)
    assert "action 1: SCHEME" in text and "action 2: MANEUVER" in text
    assert space(out, "Wolf 1") == "M30" and status(out, LESHEN) == "removed"
    assert p0(out)["hand"] == [FLOCK]


def test_R65_strength_of_the_pack_discarded_when_the_leshen_vanished():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13"), "Wolf 1": at("M20")}, hand=[VANISH], ongoing=PACK),
                       medusa(fighters={"Medusa": at("M06")})))
    out = run(sc, {"scheme": VANISH, "by": LESHEN})
    assert p0(out)["ongoing"] == PACK                     # Vanish is not an ongoing scheme
    out = run(sc, {"end_of_turn": True})
    assert p0(out)["ongoing"] is None
    assert p0(out)["discard"] == [VANISH, PACK]


# ---------------------------------------------------------------- setup of the Wolves
def _setup_lines(rules, seed=3):
    g = Match(["ancient_leshen", "medusa"], rules=rules).play(seed)
    return [ln for ln in narrate(g) if ln.startswith("  setup:")]


def test_wolves_start_on_the_battlefield_in_the_leshens_zone_by_default():
    lines = _setup_lines(None)
    wolves = [ln for ln in lines if "Wolf" in ln]
    assert len(wolves) == 2
    leshen_space = next(ln for ln in lines if LESHEN in ln).split(" on ")[1]
    for ln in wolves:
        s = ln.split(" on ")[1]
        assert BF.zone_mask[BF.index(s)] & BF.zone_mask[BF.index(leshen_space)]


def test_rules_option_summon_start_off_board_no_wolves_at_setup():
    lines = _setup_lines({"summon_start_off_board": 1})
    assert [ln for ln in lines if "Wolf" in ln] == []
    assert any(LESHEN in ln for ln in lines) and any("Harpy" in ln for ln in lines)
