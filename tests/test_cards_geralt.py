"""Card tests for Geralt of Rivia and Dandelion: the cards every loadout has (Igni, Riposte,
Yrden, Rend, Disciplined Duelist, Damn You're Ugly, Annoying Tune, Plot Twist, Witcher Senses).
"""
from collections import Counter

import pytest
from helpers.cards import at, dist, game, hp, medusa, p0, p1, run, sinbad, space, status
from helpers.witcher import (CIRI, CUB, DANDELION, DUELIST, FLOCK, GERALT, HISS, IGNI, LESHEN, MEDALLION, OWL, PLOT,
    REND, RIPOSTE, SENSES, SLAM, STEEL, TUNE, UGLY, WILY, YRDEN, ciri, geralt, leshen, source)

from sim.play.scenario import Scenario, ScenarioError, resolve

pytestmark = pytest.mark.nojit

APES = "Voyage to the City of the Man-Eating Apes"
WHALE = "Voyage to the Island That Was a Whale"
SERENDIB = "Voyage to the City of the King of Serendib"


# =========================================================================== Geralt of Rivia

# ---------------------------------------------------------------- Igni
IGNI_POS = game(
    geralt(fighters={GERALT: at("M20"), DANDELION: at("M13")}, hand=[IGNI]),
    medusa(fighters={"Medusa": at("M21"), "Harpy 1": at("M27"), "Harpy 2": at("M07")}),
)


def test_igni_2_to_the_opposing_fighter_1_to_every_other_adjacent_fighter():
    out = resolve(IGNI_POS, {"attack": IGNI, "by": GERALT, "target": "Medusa", "defense": None})
    assert out["combat"] == {"attack_value": 0, "defense_value": 0, "damage": 0, "winner": "defender"}
    assert hp(out, "Medusa") == 14                        # 2, not 2 + 1
    assert status(out, "Harpy 1") == "defeated"           # adjacent (M27)
    assert hp(out, DANDELION) == 4                        # Geralt's own Dandelion is hit too
    assert hp(out, "Harpy 2") == 1                        # M07: not adjacent to Geralt
    assert hp(out, GERALT) == 16
    assert p0(out)["discard"] == [IGNI]


def test_igni_defeating_medusa_ends_the_game_before_the_1_damage():
    pos = game(geralt(fighters={GERALT: at("M20"), DANDELION: at("M13")}, hand=[IGNI]),
               medusa(fighters={"Medusa": at("M21", 2), "Harpy 1": at("M27")}))
    out = resolve(pos, {"attack": IGNI, "by": GERALT, "target": "Medusa", "defense": None})
    assert out["winner"] == GERALT
    assert hp(out, DANDELION) == 5 and hp(out, "Harpy 1") == 1


def test_igni_is_geralts_only():
    with pytest.raises(ScenarioError, match="Dandelion cannot attack Medusa with 'Igni'"):
        resolve(IGNI_POS, {"attack": IGNI, "by": DANDELION, "target": "Medusa", "defense": None})


# ---------------------------------------------------------------- Riposte
RIPOSTE_POS = game(
    geralt(fighters={GERALT: at("M20"), DANDELION: at("M13")}, hand=[RIPOSTE]),
    medusa(fighters={"Medusa": at("M21"), "Harpy 1": at("M27")}),
)


def test_riposte_option_1_one_damage_to_a_chosen_adjacent_fighter():
    out = resolve(RIPOSTE_POS, {"attack": RIPOSTE, "by": GERALT, "target": "Medusa", "defense": None},
                  [1, "Medusa"])
    assert out["combat"]["attack_value"] == 2
    assert hp(out, "Medusa") == 13 and hp(out, "Harpy 1") == 1
    assert space(out, GERALT) == "M20"


def test_riposte_option_1_may_hit_geralts_own_adjacent_dandelion():
    out = resolve(RIPOSTE_POS, {"attack": RIPOSTE, "by": GERALT, "target": "Medusa", "defense": None},
                  [1, DANDELION])
    assert hp(out, DANDELION) == 4 and hp(out, "Medusa") == 14


def test_riposte_option_2_geralt_swaps_with_an_adjacent_fighter():
    out = resolve(RIPOSTE_POS, {"attack": RIPOSTE, "by": GERALT, "target": "Medusa", "defense": None},
                  [2, "Harpy 1"])
    assert space(out, GERALT) == "M27" and space(out, "Harpy 1") == "M20"
    assert hp(out, "Medusa") == 14 and hp(out, "Harpy 1") == 1


def test_riposte_targets_only_adjacent_fighters():
    with pytest.raises(ScenarioError) as e:
        resolve(game(geralt(fighters={GERALT: at("M20"), DANDELION: at("M13")}, hand=[RIPOSTE]),
                     medusa(fighters={"Medusa": at("M21"), "Harpy 1": at("M27"), "Harpy 2": at("M07")})),
                {"attack": RIPOSTE, "by": GERALT, "target": "Medusa", "defense": None}, [1, "Harpy 2"])
    assert "target fighter" in str(e.value)
    assert str(e.value).endswith("legal options: Dandelion, Medusa, Harpy 1")


def test_R07_riposte_defeats_sinbad_game_ends_before_apes_damage():
    # Project decision: the game ends as soon as a hero is defeated, so the Apes' 2 damage
    # never resolves and Geralt (2 health) wins even on Sinbad's turn.
    pos = game(geralt(fighters={GERALT: at("M20", 4)}, hand=[RIPOSTE]),
               sinbad(fighters={"Sinbad": at("M21", 1)}, hand=[APES], discard=[WHALE, SERENDIB]),
               active=1)
    out = resolve(pos, {"attack": APES, "by": "Sinbad", "target": GERALT, "defense": RIPOSTE}, [1])
    assert out["combat"] == {"attack_value": 4, "defense_value": 2, "damage": 2, "winner": "attacker"}
    assert hp(out, GERALT) == 2 and status(out, "Sinbad") == "defeated"
    assert out["winner"] == GERALT


def test_R07_with_end_at_action_both_heroes_fall_and_the_active_sinbad_wins():
    pos = game(geralt(fighters={GERALT: at("M20", 4)}, hand=[RIPOSTE]),
               sinbad(fighters={"Sinbad": at("M21", 1)}, hand=[APES], discard=[WHALE, SERENDIB]),
               active=1, rules={"end_at_action": 1})
    out = resolve(pos, {"attack": APES, "by": "Sinbad", "target": GERALT, "defense": RIPOSTE}, [1])
    assert status(out, GERALT) == "defeated" and status(out, "Sinbad") == "defeated"
    assert out["winner"] == "Sinbad"


# ---------------------------------------------------------------- Yrden
YRDEN_POS = game(
    geralt(fighters={GERALT: at("M20"), DANDELION: at("M13")}, hand=[YRDEN, TUNE]),
    sinbad(fighters={"Sinbad": at("M21")}),
)


def test_yrden_then_geralt_moves_up_to_2():
    out = resolve(YRDEN_POS, {"attack": YRDEN, "by": GERALT, "target": "Sinbad", "defense": None}, ["M28"])
    assert out["combat"]["attack_value"] == 2 and hp(out, "Sinbad") == 13
    assert space(out, GERALT) == "M28" and dist("M20", "M28") == 2


def test_yrden_geralt_cannot_move_3():
    with pytest.raises(ScenarioError, match=r"'M29'.*destination space"):
        resolve(YRDEN_POS, {"attack": YRDEN, "by": GERALT, "target": "Sinbad", "defense": None}, ["M29"])


def test_yrden_pins_the_opposing_fighter_for_the_rest_of_the_turn():
    sc = Scenario(YRDEN_POS)
    run(sc, {"attack": YRDEN, "by": GERALT, "target": "Sinbad", "defense": None}, ["M20"])
    # Annoying Tune would move Sinbad up to 4; pinned, his only destination is his own space.
    out = run(sc, {"attack": TUNE, "by": DANDELION, "target": "Sinbad", "defense": None})
    assert out["choices_used"] == 0
    assert space(out, "Sinbad") == "M21" and hp(out, "Sinbad") == 15 - 2 - 3


def test_yrden_pin_ends_with_the_turn():
    pos = game(geralt(fighters={GERALT: at("M20")}, hand=[YRDEN]),
               sinbad(fighters={"Sinbad": at("M21")}, deck=["Feint"]))
    sc = Scenario(pos)
    run(sc, {"attack": YRDEN, "by": GERALT, "target": "Sinbad", "defense": None}, ["M20"])
    run(sc, {"end_of_turn": True})
    out = run(sc, {"maneuver": True}, [None, "M26"])      # Sinbad's own turn: free to move
    assert space(out, "Sinbad") == "M26"


def test_yrden_on_defense_pins_the_attacker_on_his_own_turn():
    sc = Scenario(game(
        geralt(fighters={GERALT: at("M20")}, hand=[YRDEN]),
        sinbad(fighters={"Sinbad": at("M21")}, hand=["Exploit"], deck=["Feint", "Regroup"]),
        active=1))
    out = run(sc, {"attack": "Exploit", "by": "Sinbad", "target": GERALT, "defense": YRDEN}, ["M20"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 2, "damage": 2, "winner": "attacker"}
    out = run(sc, {"maneuver": True}, [None])             # boost asked; no move can be asked
    assert space(out, "Sinbad") == "M21"
    assert p1(out)["hand"] == ["Feint", "Regroup"]        # Exploit's draw, the maneuver's draw


def test_annoying_tune_without_yrden_moves_sinbad():
    out = resolve(YRDEN_POS, {"attack": TUNE, "by": DANDELION, "target": "Sinbad", "defense": None}, ["M23"])
    assert space(out, "Sinbad") == "M23" and dist("M21", "M23") == 3


def test_yrden_pinned_fighter_cannot_be_swapped_by_riposte():
    sc = Scenario(game(
        geralt(fighters={GERALT: at("M20")}, hand=[YRDEN, RIPOSTE]),
        sinbad(fighters={"Sinbad": at("M21")}, hand=[], deck=[]),
    ))
    run(sc, {"attack": YRDEN, "by": GERALT, "target": "Sinbad", "defense": None}, ["M20"])
    out = sc.run({"attack": RIPOSTE, "by": GERALT, "target": "Sinbad", "defense": None}, [2], "first")
    assert space(out, "Sinbad") == "M21" and space(out, GERALT) == "M20"


def test_yrden_on_defense_stops_flock_of_birds_placing_the_leshen():
    out = resolve(game(
        leshen(fighters={LESHEN: at("M13")}, hand=[FLOCK]),
        geralt(fighters={GERALT: at("M21")}, hand=[YRDEN]),
    ), {"attack": FLOCK, "by": LESHEN, "target": GERALT, "defense": YRDEN}, ["M21", True, "M06"], fallback="first")
    assert hp(out, GERALT) == 13
    assert space(out, LESHEN) == "M13"


def test_yrden_pinned_wolf_is_not_the_one_primeval_slam_re_places():
    sc = Scenario(game(leshen(fighters={LESHEN: at("M13"), "Wolf 1": at("M21"), "Wolf 2": at("M27")},
                              hand=[WILY, SLAM]),
                       geralt(fighters={GERALT: at("M20")}, hand=[YRDEN])))
    out = run(sc, {"attack": WILY, "by": "Wolf 1", "target": GERALT, "defense": YRDEN})   # pins Wolf 1
    assert hp(out, GERALT) == 14
    out = sc.run({"attack": SLAM, "by": LESHEN, "target": GERALT, "defense": None}, [], "first")
    assert hp(out, GERALT) == 10
    assert space(out, "Wolf 1") == "M21"


# ---------------------------------------------------------------- Rend
def test_rend_may_boost_itself():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[REND, UGLY, IGNI]),
                       sinbad(fighters={"Sinbad": at("M21")})),
                  {"attack": REND, "by": GERALT, "target": "Sinbad", "defense": None}, [UGLY])
    assert out["combat"]["attack_value"] == 3 + 4
    assert hp(out, "Sinbad") == 8
    assert p0(out)["hand"] == [IGNI] and p0(out)["discard"] == [UGLY, REND]


def test_rend_boost_declined_on_defense():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[REND, IGNI]),
                       sinbad(fighters={"Sinbad": at("M21")}, hand=["Exploit"], deck=["Feint"]), active=1),
                  {"attack": "Exploit", "by": "Sinbad", "target": GERALT, "defense": REND}, [None])
    assert out["combat"] == {"attack_value": 4, "defense_value": 3, "damage": 1, "winner": "attacker"}
    assert p0(out)["hand"] == [IGNI] and hp(out, GERALT) == 15


# ---------------------------------------------------------------- Disciplined Duelist
def test_disciplined_duelist_vs_printed_2_may_draw():
    pos = game(geralt(fighters={GERALT: at("M20")}, hand=[DUELIST], deck=[IGNI, REND]),
               medusa(fighters={"Medusa": at("M21")}, hand=["Gaze of Stone"]), active=1)
    out = resolve(pos, {"attack": "Gaze of Stone", "by": "Medusa", "target": GERALT, "defense": DUELIST}, [True])
    assert out["combat"] == {"attack_value": 2, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert p0(out)["hand"] == [IGNI] and p0(out)["deck"] == [REND]
    out = resolve(pos, {"attack": "Gaze of Stone", "by": "Medusa", "target": GERALT, "defense": DUELIST}, [False])
    assert p0(out)["hand"] == [] and p0(out)["deck"] == [IGNI, REND]


def test_disciplined_duelist_vs_printed_3_one_damage():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[DUELIST]),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Snipe"], deck=["Dash"]), active=1),
                  {"attack": "Snipe", "by": "Medusa", "target": GERALT, "defense": DUELIST})
    assert out["combat"]["winner"] == "defender"
    assert hp(out, "Medusa") == 15 and hp(out, GERALT) == 16
    assert p1(out)["hand"] == ["Dash"]                    # Snipe still draws


def test_disciplined_duelist_vs_printed_4_opponent_discards():
    # Duelist 4 vs Hiss and Slither 4: tie. Defender first: Geralt discards (Hiss), then Medusa.
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[DUELIST, IGNI, REND]),
                       medusa(fighters={"Medusa": at("M21")}, hand=[HISS, "Snipe", "Dash"])),
                  {"attack": DUELIST, "by": GERALT, "target": "Medusa", "defense": HISS}, [IGNI, "Dash"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert p0(out)["hand"] == [REND] and p0(out)["discard"] == [IGNI, DUELIST]
    assert p1(out)["hand"] == ["Snipe"] and p1(out)["discard"] == ["Dash", HISS]


def test_disciplined_duelist_without_opposing_card_does_nothing():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[DUELIST], deck=[IGNI]),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Snipe"])),
                  {"attack": DUELIST, "by": GERALT, "target": "Medusa", "defense": None})
    assert hp(out, "Medusa") == 12
    assert p0(out)["hand"] == [] and p1(out)["hand"] == ["Snipe"]


def test_disciplined_duelist_reads_the_printed_value_not_the_current_one():
    # Lion Cub at 5 Source is worth 7, but its printed value is 2: Geralt may draw (not 1 damage).
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[CUB], discard=source(5, without=CUB)),
                       geralt(fighters={GERALT: at("M21")}, hand=[DUELIST], deck=[IGNI])),
                  {"attack": CUB, "by": CIRI, "target": GERALT, "defense": DUELIST}, [True])
    assert out["combat"] == {"attack_value": 7, "defense_value": 4, "damage": 3, "winner": "attacker"}
    assert hp(out, GERALT) == 13 and hp(out, CIRI) == 15
    assert p1(out)["hand"] == [IGNI]


# ---------------------------------------------------------------- Damn, You're Ugly
def test_damn_youre_ugly_is_a_plain_5():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[UGLY], deck=[IGNI]),
                       sinbad(fighters={"Sinbad": at("M21")}, hand=["Exploit"], deck=["Feint"])),
                  {"attack": UGLY, "by": GERALT, "target": "Sinbad", "defense": "Exploit"})
    assert out["combat"] == {"attack_value": 5, "defense_value": 4, "damage": 1, "winner": "attacker"}
    assert hp(out, "Sinbad") == 14 and p0(out)["hand"] == [] and p0(out)["deck"] == [IGNI]
    assert out["actions_left"] == 1


# ---------------------------------------------------------------- Annoying Tune / Plot Twist (Dandelion)
def test_annoying_tune_moves_the_opposing_fighter_up_to_4():
    out = resolve(game(geralt(fighters={GERALT: at("M06"), DANDELION: at("M13")}, hand=[TUNE]),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": TUNE, "by": DANDELION, "target": "Medusa", "defense": None}, ["M24"])
    assert out["combat"]["attack_value"] == 3 and hp(out, "Medusa") == 13
    assert space(out, "Medusa") == "M24" and dist("M21", "M24") == 4


def test_annoying_tune_cannot_move_5_and_is_dandelions_only():
    pos = game(geralt(fighters={GERALT: at("M20"), DANDELION: at("M13")}, hand=[TUNE]),
               medusa(fighters={"Medusa": at("M21")}))
    with pytest.raises(ScenarioError, match=r"'M16'.*destination space"):
        resolve(pos, {"attack": TUNE, "by": DANDELION, "target": "Medusa", "defense": None}, ["M16"])
    with pytest.raises(ScenarioError, match="Geralt of Rivia cannot attack Medusa with 'Annoying Tune'"):
        resolve(pos, {"attack": TUNE, "by": GERALT, "target": "Medusa", "defense": None}, ["M21"])


def test_plot_twist_geralt_picks_the_discard_then_draws():
    out = resolve(game(geralt(fighters={GERALT: at("M06"), DANDELION: at("M13")}, hand=[PLOT], deck=[IGNI, REND]),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Snipe", "Dash", "Feint"])),
                  {"attack": PLOT, "by": DANDELION, "target": "Medusa", "defense": None}, ["Dash"])
    assert out["combat"]["attack_value"] == 2 and hp(out, "Medusa") == 14
    assert p1(out)["hand"] == ["Snipe", "Feint"] and p1(out)["discard"] == ["Dash"]
    assert p1(out)["hand_seen"] is True
    assert p0(out)["hand"] == [IGNI] and p0(out)["deck"] == [REND]


# ---------------------------------------------------------------- Witcher Senses
def test_witcher_senses_gear_from_discard_senses_goes_to_discard():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[SENSES], deck=[IGNI, REND], discard=[STEEL]),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": SENSES, "by": GERALT})
    assert p0(out)["hand"] == [STEEL]
    assert p0(out)["discard"] == [SENSES]
    assert p0(out)["deck"] == [IGNI, REND]                # the deck was not searched, not shuffled


def test_witcher_senses_gear_from_deck_senses_is_shuffled_into_the_deck():
    deck = [IGNI, MEDALLION, REND, YRDEN, UGLY, PLOT]
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[SENSES], deck=deck),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": SENSES, "by": GERALT})
    assert p0(out)["hand"] == [MEDALLION]
    assert p0(out)["discard"] == []
    assert len(p0(out)["deck"]) == 6                      # 6 - Medallion + Senses
    assert Counter(p0(out)["deck"]) == Counter([IGNI, REND, YRDEN, UGLY, PLOT, SENSES])
    # the narration says what the engine did (issue 24, item 4: it said Senses went to the hand)
    assert f"    {SENSES} is shuffled into Geralt of Rivia's deck" in out["log"], out["log"]
    assert not any(SENSES in line and "into hand" in line for line in out["log"]), out["log"]


@pytest.mark.parametrize("pile,card,deck_after,discard_after", [
    (1, OWL, [IGNI, REND, SENSES], [STEEL]),
    (2, STEEL, [IGNI, OWL, REND], [SENSES]),
])
def test_witcher_senses_player_picks_deck_or_discard(pile, card, deck_after, discard_after):
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[SENSES], deck=[IGNI, OWL, REND], discard=[STEEL]),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": SENSES, "by": GERALT}, [pile])
    assert p0(out)["hand"] == [card]
    assert Counter(p0(out)["deck"]) == Counter(deck_after)
    assert p0(out)["discard"] == discard_after


def test_witcher_senses_chooses_among_gear_cards_blizzard_and_owl_count_as_gear():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[SENSES], deck=[IGNI],
                              discard=[STEEL, MEDALLION, OWL]),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": SENSES, "by": GERALT}, [OWL])
    assert p0(out)["hand"] == [OWL]
    assert p0(out)["discard"] == [STEEL, MEDALLION, SENSES]


def test_witcher_senses_without_gear_finds_nothing():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[SENSES], deck=[IGNI, REND], discard=[YRDEN]),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": SENSES, "by": GERALT})
    assert p0(out)["hand"] == [] and p0(out)["deck"] == [IGNI, REND]
    assert p0(out)["discard"] == [YRDEN, SENSES]
