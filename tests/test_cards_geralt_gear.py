"""Card tests for Geralt's loadout cards (R54): the swords of Steel and Silver (R55), Wolf
Medallion, Armor of the Forgotten Wolf (R57), Tawny Owl and Blizzard (R58).
"""
from collections import Counter

import numpy as np
import pytest
from helpers.cards import alice, arthur, at, dist, game, hp, log_text, medusa, p0, p1, run, sinbad, space
from helpers.witcher import (ARMOR, BLINK, BLIZZARD, CIRI, DANDELION, DUELIST, FLOCK, GEAR_OPTION, GERALT, GUARDIAN,
    HISS, HOWLS, IGNI, LESHEN, MEDALLION, OWL, PACK, PLOT, REND, RIPOSTE, SENSES, SILVER, STEEL, TUNE, UGLY, UNICORN,
    YRDEN, ZIREAEL, ciri, geralt, leshen, source)

from sim.content.heroes import load_all
from sim.engine import layout as L
from sim.engine.game import setup_game
from sim.engine.policy import MODE_RANDOM, new_control
from sim.engine.rules import pack_action
from sim.play.match import Match, MatchError
from sim.play.scenario import Scenario, ScenarioError, resolve

pytestmark = pytest.mark.nojit

GERALT_BASE = {IGNI: 2, RIPOSTE: 2, YRDEN: 3, REND: 3, DUELIST: 3, UGLY: 3, TUNE: 3, PLOT: 3, SENSES: 2}

# other heroes' cards used
CLAWS = "Clutching Claws"
HOUNDS = "The Hounds of Mighty Zeus"


# ---------------------------------------------------------------- R54: loadouts
LOADOUTS = ["steel+medallion+blizzard", "steel+medallion+owl", "steel+wolf-armor+blizzard",
            "steel+wolf-armor+owl", "silver+medallion+blizzard", "silver+medallion+owl",
            "silver+wolf-armor+blizzard", "silver+wolf-armor+owl"]


def test_R54_geralt_has_exactly_the_8_loadouts():
    spec = load_all()["geralt_of_rivia"]
    assert sorted(spec.loadouts()) == sorted(LOADOUTS)
    assert [g for g, _ in spec.groups] == ["sword", "armor", "potion"]


@pytest.mark.parametrize("loadout", LOADOUTS)
def test_R54_each_loadout_is_24_base_cards_plus_both_copies_of_3_gear(loadout):
    spec = load_all()["geralt_of_rivia"]
    deck = {spec.cards[i].name: n for i, n in spec.deck(loadout)}
    chosen = set(loadout.split("+"))
    gear_in = {c: 2 for c, opt in GEAR_OPTION.items() if opt in chosen}
    assert len(gear_in) == 3
    assert deck == {**GERALT_BASE, **gear_in}
    assert sum(deck.values()) == spec.deck_size(loadout) == 30
    for c, opt in GEAR_OPTION.items():
        assert (c in deck) == (opt in chosen)


@pytest.mark.parametrize("loadout", ["steel+medallion+owl", "silver+wolf-armor+blizzard"])
def test_R54_a_set_up_game_holds_the_loadouts_30_cards(loadout):
    m = Match([f"geralt_of_rivia@{loadout}", "medusa"])
    st = m.new_state()
    log = np.zeros((500, L.EV_FIELDS), np.int64)
    setup_game(st, m.tables, new_control((MODE_RANDOM,) * 4), log, m.rows, 2, 11)
    names = m.content.card_names
    cards = []
    for base, nslot in ((L.OFF_HAND, L.P_HANDN), (L.OFF_DECK, L.P_DECKN)):
        n = int(st[L.pslot(0, nslot)])
        cards += [names[i] for i in st[base: base + n]]
    assert int(st[L.pslot(0, L.P_HANDN)]) == 5 and len(cards) == 30
    chosen = set(loadout.split("+"))
    assert Counter(cards) == Counter({**GERALT_BASE, **{c: 2 for c, o in GEAR_OPTION.items() if o in chosen}})


def test_R54_bad_loadouts_are_refused():
    with pytest.raises(MatchError, match="loadout"):
        Match(["geralt_of_rivia@steel+silver+owl", "medusa"])
    with pytest.raises(MatchError, match="loadout"):
        Match(["geralt_of_rivia@steel+medallion", "medusa"])


def test_R54_scenario_refuses_gear_outside_the_loadout():
    with pytest.raises(ScenarioError):
        Scenario(game(geralt("steel+medallion+owl", fighters={GERALT: at("M20")}, hand=[BLIZZARD]),
                      medusa(fighters={"Medusa": at("M21")})))


# ---------------------------------------------------------------- Sword of Steel
@pytest.mark.parametrize("start,after,gained", [(15, 11, 2), (12, 8, 2), (11, 7, 1), (5, 1, 1)])
def test_sword_of_steel_gains_2_actions_if_opposing_fighter_has_8_or_more_health_else_1(start, after, gained):
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[STEEL]),
                       sinbad(fighters={"Sinbad": at("M21", start)})),
                  {"attack": STEEL, "by": GERALT, "target": "Sinbad", "defense": None})
    assert out["combat"]["attack_value"] == 4 and hp(out, "Sinbad") == after
    assert out["actions_left"] == 1 + gained
    assert f"gains {gained} action(s)" in log_text(out)


def test_sword_of_steel_counts_health_after_combat_damage():
    # Exploit 4 vs 4: no combat damage, Sinbad keeps 9 >= 8: 2 actions.
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[STEEL]),
                       sinbad(fighters={"Sinbad": at("M21", 9)}, hand=["Exploit"], deck=["Feint"])),
                  {"attack": STEEL, "by": GERALT, "target": "Sinbad", "defense": "Exploit"})
    assert out["combat"]["winner"] == "defender" and hp(out, "Sinbad") == 9
    assert out["actions_left"] == 3


def test_sword_of_steel_own_blizzard_does_not_block_geralts_gain():
    out = resolve(game(geralt("steel+medallion+blizzard", fighters={GERALT: at("M20")}, hand=[STEEL],
                              ongoing=BLIZZARD),
                       sinbad(fighters={"Sinbad": at("M21")})),
                  {"attack": STEEL, "by": GERALT, "target": "Sinbad", "defense": None})
    assert out["actions_left"] == 3 and p0(out)["ongoing"] == BLIZZARD


def test_sword_of_steel_gains_nothing_against_an_opposing_geralts_blizzard():
    # Mirror match: the opposing Geralt's Blizzard stops this Geralt from gaining actions.
    g1, g2 = f"{GERALT} (P1)", f"{GERALT} (P2)"
    out = resolve(game(geralt("steel+medallion+owl", fighters={g1: at("M20")}, hand=[STEEL]),
                       geralt("silver+medallion+blizzard", fighters={g2: at("M21")}, ongoing=BLIZZARD)),
                  {"attack": STEEL, "by": g1, "target": g2, "defense": None})
    assert hp(out, g2) == 12
    assert out["actions_left"] == 1
    assert "gains" not in log_text(out)


# ---------------------------------------------------------------- Sword of Silver (R55)
def test_R55a_sword_of_silver_ignores_printed_4_skirmish():
    out = resolve(game(geralt("silver+medallion+owl", fighters={GERALT: at("M20")}, hand=[SILVER]),
                       arthur(fighters={"King Arthur": at("M21")}, hand=["Skirmish"])),
                  {"attack": SILVER, "by": GERALT, "target": "King Arthur", "defense": "Skirmish"})
    assert out["combat"] == {"attack_value": 4, "defense_value": 0, "damage": 4, "winner": "attacker"}
    assert hp(out, "King Arthur") == 14
    assert p1(out)["discard"] == ["Skirmish"]


def test_R55b_sword_of_silver_keeps_printed_3_divine_intervention():
    out = resolve(game(geralt("silver+medallion+owl", fighters={GERALT: at("M20")}, hand=[SILVER]),
                       arthur(fighters={"King Arthur": at("M21")}, hand=["Divine Intervention"])),
                  {"attack": SILVER, "by": GERALT, "target": "King Arthur", "defense": "Divine Intervention"},
                  ["M25"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 3, "damage": 1, "winner": "attacker"}
    assert hp(out, "King Arthur") == 17 and space(out, "King Arthur") == "M25"


def test_R55c_sword_of_silver_reads_printed_3_not_the_current_4():
    # SMALL Alice: Momentous Shift printed 3, +1 SMALL = 4. Printed 3 < 4: not ignored, tie.
    out = resolve(game(geralt("silver+medallion+owl", fighters={GERALT: at("M20")}, hand=[SILVER]),
                       alice("small", fighters={"Alice": at("M21")}, hand=["Momentous Shift"])),
                  {"attack": SILVER, "by": GERALT, "target": "Alice", "defense": "Momentous Shift"})
    assert out["combat"] == {"attack_value": 4, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert hp(out, "Alice") == 13


def test_sword_of_silver_without_a_defense_card_is_a_plain_4():
    out = resolve(game(geralt("silver+medallion+owl", fighters={GERALT: at("M20")}, hand=[SILVER]),
                       sinbad(fighters={"Sinbad": at("M21")}, hand=["Exploit"])),
                  {"attack": SILVER, "by": GERALT, "target": "Sinbad", "defense": None})
    assert out["combat"] == {"attack_value": 4, "defense_value": 0, "damage": 4, "winner": "attacker"}
    assert out["actions_left"] == 1                       # no Sword of Steel effect


def test_sword_of_silver_ignores_printed_5_primeval_guardian_but_its_boost_still_adds():
    # Guardian (printed 5) is ignored; its During still discards Geralt's top card
    # (Rend, BOOST 2) and adds that BOOST to Geralt's card: 4 + 2 = 6.
    out = resolve(game(geralt("silver+medallion+owl", fighters={GERALT: at("M20")}, hand=[SILVER],
                              deck=[REND, IGNI]),
                       leshen(fighters={LESHEN: at("M21")}, hand=[GUARDIAN])),
                  {"attack": SILVER, "by": GERALT, "target": LESHEN, "defense": GUARDIAN})
    assert out["combat"] == {"attack_value": 6, "defense_value": 0, "damage": 6, "winner": "attacker"}
    assert hp(out, LESHEN) == 7
    assert p0(out)["deck"] == [IGNI] and p0(out)["discard"] == [REND, SILVER]


def test_sword_of_silver_ignores_blinks_printed_4_but_not_its_effect():
    out = resolve(game(geralt("silver+medallion+owl", fighters={GERALT: at("M20")}, hand=[SILVER]),
                       ciri(fighters={CIRI: at("M21")}, hand=[BLINK])),
                  {"attack": SILVER, "by": GERALT, "target": CIRI, "defense": BLINK}, ["M26"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 0, "damage": 4, "winner": "attacker"}
    assert hp(out, CIRI) == 11 and space(out, CIRI) == "M26"


# ---------------------------------------------------------------- Wolf Medallion
def test_wolf_medallion_ranged_attacker_not_adjacent_value_ignored_and_effects_cancelled():
    # Medusa (ranged) on M13 attacks Geralt on M21: same red zone, not adjacent.
    out = resolve(game(geralt(fighters={GERALT: at("M21")}, hand=[MEDALLION, IGNI]),
                       medusa(fighters={"Medusa": at("M13")}, hand=["Second Shot", "Gaze of Stone"]), active=1),
                  {"attack": "Second Shot", "by": "Medusa", "target": GERALT, "defense": MEDALLION})
    assert out["combat"] == {"attack_value": 0, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert hp(out, GERALT) == 16
    assert p1(out)["hand"] == ["Gaze of Stone"]           # Second Shot's BOOST was cancelled (not asked)
    assert "Geralt of Rivia cancels the effects on the attack card" in log_text(out)


def test_wolf_medallion_ranged_leshen_in_the_zone():
    out = resolve(game(leshen(fighters={LESHEN: at("M13")}, hand=[FLOCK]),
                       geralt(fighters={GERALT: at("M21")}, hand=[MEDALLION])),
                  {"attack": FLOCK, "by": LESHEN, "target": GERALT, "defense": MEDALLION})
    assert out["combat"] == {"attack_value": 0, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert space(out, LESHEN) == "M13" and out["choices_used"] == 0   # no "may place" asked


def test_wolf_medallion_adjacent_attacker_keeps_its_value_effects_cancelled():
    # Hounds of Mighty Zeus 4 vs Medallion 3: 1 damage; the Hounds' Harpy moves are cancelled.
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[MEDALLION]),
                       medusa(fighters={"Medusa": at("M06"), "Harpy 1": at("M21"), "Harpy 2": at("M28")},
                              hand=[HOUNDS]), active=1),
                  {"attack": HOUNDS, "by": "Harpy 1", "target": GERALT, "defense": MEDALLION})
    assert out["combat"] == {"attack_value": 4, "defense_value": 3, "damage": 1, "winner": "attacker"}
    assert hp(out, GERALT) == 15
    assert space(out, "Harpy 1") == "M21" and space(out, "Harpy 2") == "M28"


@pytest.mark.parametrize("n,cancelled", [(7, False), (6, True)])
def test_wolf_medallion_cannot_cancel_ciri_at_7_source(n, cancelled):
    # Blink 4 vs Medallion 3 (adjacent, so not ignored): 1 damage. At 7 Source the cancel
    # fails and Blink's move (through Geralt) happens; at 6 it is cancelled.
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[BLINK], discard=source(n)),
                       geralt(fighters={GERALT: at("M21")}, hand=[MEDALLION])),
                  {"attack": BLINK, "by": CIRI, "target": GERALT, "defense": MEDALLION},
                  [] if cancelled else ["M26"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 3, "damage": 1, "winner": "attacker"}
    assert hp(out, GERALT) == 15
    assert space(out, CIRI) == ("M20" if cancelled else "M26")
    assert ("cannot be cancelled" in log_text(out)) is not cancelled


# ---------------------------------------------------------------- Armor of the Forgotten Wolf (R57)
def r57_position(**extra):
    return game(
        geralt("steel+wolf-armor+owl", fighters={GERALT: at("M20"), DANDELION: at("M13")},
               hand=[ARMOR, IGNI, REND]),
        medusa(fighters={"Medusa": at("M06"), "Harpy 1": at("M21")}, hand=[CLAWS, "Snipe"]),
        active=1, **extra)


def test_R57_armor_plus_1_per_adjacent_fighter_wins_and_ends_the_attackers_turn():
    out = resolve(r57_position(), {"attack": CLAWS, "by": "Harpy 1", "target": GERALT, "defense": ARMOR})
    assert out["combat"] == {"attack_value": 3, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert hp(out, GERALT) == 16
    assert out["turn_ended"] is True
    # Clutching Claws' "your opponent discards 1" does not happen
    assert p0(out)["hand"] == [IGNI, REND]
    assert p0(out)["discard"] == [ARMOR] and p1(out)["discard"] == [CLAWS]
    assert "the turn ends" in log_text(out)


def test_armor_counts_every_adjacent_fighter_of_both_sides():
    out = resolve(game(
        geralt("steel+wolf-armor+owl", fighters={GERALT: at("M20"), DANDELION: at("M13")}, hand=[ARMOR]),
        medusa(fighters={"Medusa": at("M06"), "Harpy 1": at("M21"), "Harpy 2": at("M27")}, hand=[HOUNDS]),
        active=1), {"attack": HOUNDS, "by": "Harpy 1", "target": GERALT, "defense": ARMOR})
    assert out["combat"] == {"attack_value": 4, "defense_value": 5, "damage": 0, "winner": "defender"}
    # the Hounds' After (each Harpy moves) is stopped by the turn ending (defender's After first)
    assert space(out, "Harpy 1") == "M21" and space(out, "Harpy 2") == "M27"
    assert out["turn_ended"] is True


def test_armor_alone_is_2_plus_the_attacker():
    out = resolve(game(
        geralt("steel+wolf-armor+owl", fighters={GERALT: at("M20")}, hand=[ARMOR]),
        sinbad(fighters={"Sinbad": at("M21")}, hand=["Exploit"], deck=["Feint"]),
        active=1), {"attack": "Exploit", "by": "Sinbad", "target": GERALT, "defense": ARMOR})
    assert out["combat"] == {"attack_value": 4, "defense_value": 3, "damage": 1, "winner": "attacker"}
    assert hp(out, GERALT) == 15
    assert p1(out)["hand"] == [] and p1(out)["deck"] == ["Feint"]     # Exploit's draw stopped
    assert out["turn_ended"] is True


def test_R57_whole_turn_medusa_loses_her_second_action_hand_limit_still_runs():
    pos = r57_position()
    pos["players"][1]["hand"] = [CLAWS, "Snipe", "Dash", "Feint", "Regroup", "Gaze of Stone",
                                 "Second Shot", HISS, "Snipe"]
    sc = Scenario(pos)
    attack = pack_action(L.A_ATTACK, sc.fighter("Harpy 1"), sc.fighter(GERALT), sc.card(1, CLAWS))
    out = run(sc, {"turn": True}, [attack, ARMOR, "Regroup"])
    text = log_text(out)
    assert "action 1: ATTACK" in text and "action 2" not in text
    assert hp(out, GERALT) == 16 and p0(out)["hand"] == [IGNI, REND]
    assert len(p1(out)["hand"]) == 7                      # 8 after the attack, 1 discarded to the limit
    assert p1(out)["discard"] == [CLAWS, "Regroup"]


# ---------------------------------------------------------------- Tawny Owl (R58)
def test_R58_tawny_owl_draws_2_gains_1_action_and_stays_in_play():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[OWL, IGNI], deck=[REND, YRDEN, UGLY]),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": OWL, "by": GERALT})
    assert p0(out)["hand"] == [IGNI, REND, YRDEN] and p0(out)["deck"] == [UGLY]
    assert out["actions_left"] == 2
    assert p0(out)["ongoing"] == OWL and p0(out)["discard"] == []


def test_tawny_owl_is_geralts_only():
    with pytest.raises(ScenarioError, match="Dandelion cannot play the scheme 'Tawny Owl'"):
        resolve(game(geralt(fighters={GERALT: at("M20"), DANDELION: at("M13")}, hand=[OWL], deck=[IGNI, REND]),
                     medusa(fighters={"Medusa": at("M06")})), {"scheme": OWL, "by": DANDELION})


OWL_DEFENSE_POS = game(
    geralt(fighters={GERALT: at("M20")}, hand=[IGNI, REND], ongoing=OWL),
    medusa(fighters={"Medusa": at("M06"), "Harpy 1": at("M21")}, hand=[CLAWS]),
    active=1)


def test_R58_tawny_owl_geralt_may_ignore_an_opponents_discard_effect():
    out = resolve(OWL_DEFENSE_POS, {"attack": CLAWS, "by": "Harpy 1", "target": GERALT, "defense": None}, [True])
    assert hp(out, GERALT) == 13
    assert p0(out)["hand"] == [IGNI, REND] and p0(out)["discard"] == []
    assert p0(out)["ongoing"] == OWL


def test_R58_tawny_owl_geralt_may_also_accept_the_discard():
    out = resolve(OWL_DEFENSE_POS, {"attack": CLAWS, "by": "Harpy 1", "target": GERALT, "defense": None},
                  [False, REND])
    assert p0(out)["hand"] == [IGNI] and p0(out)["discard"] == [REND]


def test_tawny_owl_also_covers_random_discards():
    # Zireael at 5 Source: the opponent discards a random card; with the Owl Geralt may ignore it.
    out = resolve(game(ciri(fighters={CIRI: at("M21")}, hand=[ZIREAEL], discard=source(5, without=ZIREAEL)),
                       geralt(fighters={GERALT: at("M20")}, hand=[IGNI, REND, YRDEN], ongoing=OWL)),
                  {"attack": ZIREAEL, "by": CIRI, "target": GERALT, "defense": None}, [True])
    assert out["combat"]["attack_value"] == 4
    assert p1(out)["hand"] == [IGNI, REND, YRDEN]


def test_without_tawny_owl_no_question_is_asked():
    pos = game(geralt(fighters={GERALT: at("M20")}, hand=[IGNI, REND]),
               medusa(fighters={"Medusa": at("M06"), "Harpy 1": at("M21")}, hand=[CLAWS]), active=1)
    out = resolve(pos, {"attack": CLAWS, "by": "Harpy 1", "target": GERALT, "defense": None}, [IGNI])
    assert p0(out)["hand"] == [REND] and p0(out)["discard"] == [IGNI]


@pytest.mark.parametrize("potion,loadout", [(OWL, "steel+medallion+owl"), (BLIZZARD, "steel+medallion+blizzard")])
def test_R58_potion_discarded_at_end_of_geralts_turn_without_an_attack(potion, loadout):
    sc = Scenario(game(geralt(loadout, fighters={GERALT: at("M20")}, hand=[IGNI], ongoing=potion),
                       medusa(fighters={"Medusa": at("M06")})))
    out = run(sc, {"end_of_turn": True})
    assert p0(out)["ongoing"] is None and p0(out)["discard"] == [potion]
    assert f"ongoing {potion} is discarded" in log_text(out)


@pytest.mark.parametrize("potion,loadout", [(OWL, "steel+medallion+owl"), (BLIZZARD, "steel+medallion+blizzard")])
def test_R58_potion_stays_after_a_turn_with_an_attack(potion, loadout):
    sc = Scenario(game(geralt(loadout, fighters={GERALT: at("M20"), DANDELION: at("M13")}, hand=[PLOT],
                              deck=[IGNI], ongoing=potion),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Snipe"])))
    run(sc, {"attack": PLOT, "by": DANDELION, "target": "Medusa", "defense": None})   # a Dandelion attack counts
    out = run(sc, {"end_of_turn": True})
    assert p0(out)["ongoing"] == potion and p0(out)["discard"] == [PLOT]


def test_R58_potion_is_not_discarded_at_the_end_of_the_opponents_turn():
    sc = Scenario(game(geralt(fighters={GERALT: at("M20")}, hand=[IGNI], ongoing=OWL),
                       medusa(fighters={"Medusa": at("M06")}), active=1))
    out = run(sc, {"end_of_turn": True})
    assert p0(out)["ongoing"] == OWL and p0(out)["discard"] == []


def test_R58_tawny_owl_played_then_attack_it_stays():
    sc = Scenario(game(geralt(fighters={GERALT: at("M20")}, hand=[OWL], deck=[UGLY, IGNI, REND]),
                       sinbad(fighters={"Sinbad": at("M21")})))
    out = run(sc, {"scheme": OWL, "by": GERALT})
    assert out["actions_left"] == 2
    run(sc, {"attack": UGLY, "by": GERALT, "target": "Sinbad", "defense": None})
    out = run(sc, {"end_of_turn": True})
    assert p0(out)["ongoing"] == OWL and p0(out)["hand"] == [IGNI]


def test_R13_tawny_owl_nine_cards_mid_turn_then_down_to_7_and_owl_discarded():
    hand = [OWL, IGNI, REND, REND, YRDEN, YRDEN, UGLY, UGLY]
    sc = Scenario(game(geralt(fighters={GERALT: at("M20")}, hand=hand, deck=[DUELIST, PLOT, TUNE]),
                       medusa(fighters={"Medusa": at("M06")})))
    out = run(sc, {"scheme": OWL, "by": GERALT})
    assert len(p0(out)["hand"]) == 9
    out = run(sc, {"end_of_turn": True}, [UGLY, UGLY])
    assert len(p0(out)["hand"]) == 7
    assert p0(out)["ongoing"] is None
    assert Counter(p0(out)["discard"]) == Counter({OWL: 1, UGLY: 2})


def test_second_ongoing_scheme_discards_the_first():
    out = resolve(game(geralt(fighters={GERALT: at("M20")}, hand=[OWL], deck=[IGNI, REND], ongoing=OWL),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": OWL, "by": GERALT})
    assert p0(out)["ongoing"] == OWL and p0(out)["discard"] == [OWL]
    assert p0(out)["hand"] == [IGNI, REND] and out["actions_left"] == 2


@pytest.mark.parametrize("hero,card,choices", [
    ("ciri", UNICORN, []),
    ("ancient_leshen", PACK, ["M20"]),
])
def test_one_ongoing_scheme_per_hero_ciri_and_leshen(hero, card, choices):
    name = {"ciri": CIRI, "ancient_leshen": LESHEN}[hero]
    out = resolve(game({"hero": hero, "fighters": {name: at("M13")}, "hand": [card], "ongoing": card},
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": card, "by": name}, choices)
    assert p0(out)["ongoing"] == card and p0(out)["discard"] == [card]


# ---------------------------------------------------------------- Blizzard (R58)
def test_blizzard_draws_1_geralt_moves_up_to_3_stays_in_play_no_action():
    out = resolve(game(geralt("steel+medallion+blizzard", fighters={GERALT: at("M20")}, hand=[BLIZZARD],
                              deck=[IGNI, REND]),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": BLIZZARD, "by": GERALT}, ["M26"])
    assert p0(out)["hand"] == [IGNI] and p0(out)["deck"] == [REND]
    assert space(out, GERALT) == "M26" and dist("M20", "M26") == 3
    assert p0(out)["ongoing"] == BLIZZARD and out["actions_left"] == 1


def test_blizzard_geralt_cannot_move_4():
    with pytest.raises(ScenarioError, match=r"'M23'.*destination space"):
        resolve(game(geralt("steel+medallion+blizzard", fighters={GERALT: at("M20")}, hand=[BLIZZARD],
                            deck=[IGNI]),
                     medusa(fighters={"Medusa": at("M06")})),
                {"scheme": BLIZZARD, "by": GERALT}, ["M23"])


HOWLS_POS = {"fighters": {LESHEN: at("M06"), "Wolf 1": at("M21")}, "hand": [HOWLS]}


def test_disturbing_howls_moves_the_opposing_fighter_up_to_2_and_gains_an_action():
    out = resolve(game(leshen(**HOWLS_POS), geralt(fighters={GERALT: at("M20")})),
                  {"attack": HOWLS, "by": "Wolf 1", "target": GERALT, "defense": None}, ["M07"])
    assert out["combat"]["attack_value"] == 1 and hp(out, GERALT) == 15
    assert space(out, GERALT) == "M07" and dist("M20", "M07") == 2
    assert out["actions_left"] == 2


def test_R58_blizzard_stops_the_opponent_gaining_actions():
    out = resolve(game(leshen(**HOWLS_POS),
                       geralt("steel+medallion+blizzard", fighters={GERALT: at("M20")}, ongoing=BLIZZARD)),
                  {"attack": HOWLS, "by": "Wolf 1", "target": GERALT, "defense": None}, ["M07"])
    assert space(out, GERALT) == "M07"                    # the rest of the card still works
    assert out["actions_left"] == 1
    assert "gains" not in log_text(out)


def test_tawny_owl_does_not_stop_the_opponent_gaining_actions():
    out = resolve(game(leshen(**HOWLS_POS), geralt(fighters={GERALT: at("M20")}, ongoing=OWL)),
                  {"attack": HOWLS, "by": "Wolf 1", "target": GERALT, "defense": None}, ["M20"])
    assert out["actions_left"] == 2


def test_tawny_owls_action_is_blocked_by_an_opposing_geralts_blizzard():
    g1, g2 = f"{GERALT} (P1)", f"{GERALT} (P2)"
    out = resolve(game(geralt("steel+medallion+owl", fighters={g1: at("M20")}, hand=[OWL], deck=[IGNI, REND]),
                       geralt("silver+medallion+blizzard", fighters={g2: at("M06")}, ongoing=BLIZZARD)),
                  {"scheme": OWL, "by": g1})
    assert p0(out)["hand"] == [IGNI, REND]                # the draw still happens
    assert out["actions_left"] == 1
    assert p0(out)["ongoing"] == OWL and p1(out)["ongoing"] == BLIZZARD
