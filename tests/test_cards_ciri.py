"""Card tests for Ciri and Ihuarraquax: the Source tiers, Pushed to the Brink (R60), Ciri's
protection at 7+ Source, Searching Strike (R61) and every other card.
"""
from collections import Counter

import pytest
from helpers.cards import at, game, hp, log_text, medusa, p0, p1, run, space, status
from helpers.witcher import (ARMOR, BANE, BLINK, CHANNEL, CHILD, CIRI, CUB, GERALT, HISS, IHU, LADY, PARRY, PUSHED,
    SEARCHING, UNICORN, ZIREAEL, ciri, geralt, source)

from sim.play.scenario import Scenario, ScenarioError, resolve

pytestmark = pytest.mark.nojit


# =========================================================================== Ciri

# ---------------------------------------------------------------- Source tiers: Lion Cub of Cintra
@pytest.mark.parametrize("n,value", [(0, 2), (1, 4), (4, 4), (5, 7), (9, 7)])
def test_lion_cub_only_the_highest_source_tier_applies(n, value):
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[CUB], discard=source(n, [PARRY, BLINK, CHANNEL], without=CUB)),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": CUB, "by": CIRI, "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == value
    assert hp(out, "Medusa") == 16 - value


def test_source_counts_only_the_discard_pile():
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[CUB, PUSHED, ZIREAEL], deck=[PUSHED, ZIREAEL],
                            discard=[PARRY, BLINK]),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": CUB, "by": CIRI, "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == 2


# ---------------------------------------------------------------- R60: Pushed to the Brink

def test_R60_feint_cannot_cancel_pushed_to_the_brink_at_7_source():
    # the cancel part of R60 (the damage part is the test below)
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[PUSHED], discard=source(7, without=PUSHED)),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Feint"])),
                  {"attack": PUSHED, "by": CIRI, "target": "Medusa", "defense": "Feint"})
    assert out["combat"] == {"attack_value": 3, "defense_value": 2, "damage": 1, "winner": "attacker"}
    assert "Medusa tries to cancel the attack card's effects, but they cannot be cancelled" in log_text(out)
    assert p1(out)["discard"] == ["Feint"] and p0(out)["discard"][-1] == PUSHED


def test_R60_feint_cannot_cancel_at_7_source_only_the_top_tier():
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[PUSHED], discard=source(7, without=PUSHED)),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Feint"])),
                  {"attack": PUSHED, "by": CIRI, "target": "Medusa", "defense": "Feint"})
    assert out["combat"] == {"attack_value": 3, "defense_value": 2, "damage": 1, "winner": "attacker"}
    assert hp(out, "Medusa") == 13                        # 16 - 1, then 2 (not 1 + 2)
    assert "cannot be cancelled" in log_text(out)


def test_R60_at_6_source_feint_cancels():
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[PUSHED], discard=source(6, without=PUSHED)),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Feint"])),
                  {"attack": PUSHED, "by": CIRI, "target": "Medusa", "defense": "Feint"})
    assert hp(out, "Medusa") == 15
    assert "Medusa cancels the effects on the attack card" in log_text(out)


@pytest.mark.parametrize("n,after", [(0, 13), (1, 13), (2, 12), (6, 12)])
def test_pushed_to_the_brink_source_2_tier_one_damage(n, after):
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[PUSHED], discard=source(n, without=PUSHED)),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": PUSHED, "by": CIRI, "target": "Medusa", "defense": None})
    assert hp(out, "Medusa") == after


PUSHED7_POS = game(
    ciri(fighters={CIRI: at("M20")}, hand=[PUSHED], discard=source(7, without=PUSHED)),
    medusa(fighters={"Medusa": at("M21"), "Harpy 1": at("M26"), "Harpy 2": at("M23")}),
)


def test_pushed_to_the_brink_source_7_any_opponent_within_3_spaces_along_lines():
    # M26 is 3 from Ciri along M20-M21-M25-M26, although Medusa stands on M21.
    out = resolve(PUSHED7_POS, {"attack": PUSHED, "by": CIRI, "target": "Medusa", "defense": None}, ["Harpy 1"])
    assert status(out, "Harpy 1") == "defeated" and hp(out, "Medusa") == 13


def test_pushed_to_the_brink_source_7_not_4_spaces_away():
    with pytest.raises(ScenarioError, match=r"'Harpy 2'.*legal options: Medusa, Harpy 1$"):
        resolve(PUSHED7_POS, {"attack": PUSHED, "by": CIRI, "target": "Medusa", "defense": None}, ["Harpy 2"])


# ---------------------------------------------------------------- Ciri's protection (7+ Source)
def test_7_source_protects_ihuarraquax_cards_too():
    out = resolve(game(ciri(fighters={CIRI: at("M06"), IHU: at("M20")}, hand=[SEARCHING],
                            deck=[PARRY, CUB, BLINK], discard=source(7, without=CUB)),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Feint"])),
                  {"attack": SEARCHING, "by": IHU, "target": "Medusa", "defense": "Feint"}, [True])
    assert out["combat"]["winner"] == "attacker"
    assert p0(out)["hand"] == [CUB]                       # the search happened
    assert "cannot be cancelled" in log_text(out)


@pytest.mark.parametrize("n,cancelled", [(7, False), (6, True)])
def test_7_source_protects_ciris_defense_card_against_an_attacking_feint(n, cancelled):
    # Medusa's attacking Feint cancels Blink's After (Ciri moves up to 3) below 7 Source only.
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[BLINK], discard=source(n)),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Feint"]), active=1),
                  {"attack": "Feint", "by": "Medusa", "target": CIRI, "defense": BLINK},
                  [] if cancelled else ["M07"])
    assert out["combat"] == {"attack_value": 2, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert space(out, CIRI) == ("M20" if cancelled else "M07")


def test_7_source_pushed_to_the_brink_on_defense_still_deals_its_2():
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[PUSHED], discard=source(7, without=PUSHED)),
                       medusa(fighters={"Medusa": at("M21")}, hand=["Feint"]), active=1),
                  {"attack": "Feint", "by": "Medusa", "target": CIRI, "defense": PUSHED})
    assert out["combat"] == {"attack_value": 2, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert hp(out, "Medusa") == 14 and hp(out, CIRI) == 15


# ---------------------------------------------------------------- Channel the Source
CHANNEL_POS = game(
    ciri(fighters={CIRI: at("M20")}, hand=[CHANNEL, ZIREAEL, PUSHED, BLINK, CUB]),
    medusa(fighters={"Medusa": at("M21")}),
)


def test_channel_the_source_plus_2_per_discarded_source_card():
    out = resolve(CHANNEL_POS, {"attack": CHANNEL, "by": CIRI, "target": "Medusa", "defense": None},
                  [ZIREAEL, PUSHED, None])
    assert out["combat"]["attack_value"] == 2 + 4
    assert hp(out, "Medusa") == 10
    assert p0(out)["hand"] == [BLINK, CUB]
    assert p0(out)["discard"] == [ZIREAEL, PUSHED, CHANNEL]


def test_channel_the_source_all_three_then_nothing_left_to_ask():
    out = resolve(CHANNEL_POS, {"attack": CHANNEL, "by": CIRI, "target": "Medusa", "defense": None},
                  [ZIREAEL, PUSHED, CUB])
    assert out["combat"]["attack_value"] == 8 and p0(out)["hand"] == [BLINK]


def test_channel_the_source_none_discarded():
    out = resolve(CHANNEL_POS, {"attack": CHANNEL, "by": CIRI, "target": "Medusa", "defense": None}, [None])
    assert out["combat"]["attack_value"] == 2 and len(p0(out)["hand"]) == 4


def test_channel_the_source_only_source_cards():
    with pytest.raises(ScenarioError, match=r"'Blink'.*legal options: Zireael, Pushed to the Brink, Lion Cub of Cintra, no card"):
        resolve(CHANNEL_POS, {"attack": CHANNEL, "by": CIRI, "target": "Medusa", "defense": None}, [BLINK])


# ---------------------------------------------------------------- Bane of the Aen Elle
def test_bane_of_the_aen_elle_moves_through_opponents_then_1_damage_to_one_moved_through():
    # M20 -> M21 (Medusa) -> M25 (Harpy 1) -> M26 -> M23
    out = resolve(game(ciri(fighters={CIRI: at("M06"), IHU: at("M20")}, hand=[BANE]),
                       medusa(fighters={"Medusa": at("M21"), "Harpy 1": at("M25")})),
                  {"attack": BANE, "by": IHU, "target": "Medusa", "defense": None}, ["M23", "Harpy 1"])
    assert out["combat"]["attack_value"] == 4 and hp(out, "Medusa") == 12
    assert space(out, IHU) == "M23"
    assert status(out, "Harpy 1") == "defeated"


def test_bane_of_the_aen_elle_damage_to_the_other_passed_fighter():
    out = resolve(game(ciri(fighters={CIRI: at("M06"), IHU: at("M20")}, hand=[BANE]),
                       medusa(fighters={"Medusa": at("M21"), "Harpy 1": at("M25")})),
                  {"attack": BANE, "by": IHU, "target": "Medusa", "defense": None}, ["M23", "Medusa"])
    assert hp(out, "Medusa") == 11 and hp(out, "Harpy 1") == 1


def test_bane_of_the_aen_elle_no_damage_without_passing_an_opponent():
    out = resolve(game(ciri(fighters={CIRI: at("M06"), IHU: at("M20")}, hand=[BANE]),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": BANE, "by": IHU, "target": "Medusa", "defense": None}, ["M01"])
    assert space(out, IHU) == "M01" and hp(out, "Medusa") == 12


def test_bane_of_the_aen_elle_is_ihuarraquax_only():
    with pytest.raises(ScenarioError, match="Ciri cannot attack Medusa with 'Bane of the Aen Elle'"):
        resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[BANE]), medusa(fighters={"Medusa": at("M21")})),
                {"attack": BANE, "by": CIRI, "target": "Medusa", "defense": None}, ["M20"])


# ---------------------------------------------------------------- Zireael
@pytest.mark.parametrize("n,value,discards", [(2, 2, 0), (3, 4, 0), (4, 4, 0), (5, 4, 1), (8, 4, 1)])
def test_zireael_source_tiers(n, value, discards):
    hand = ["Snipe", "Dash", "Feint"]
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[ZIREAEL], discard=source(n, without=ZIREAEL)),
                       medusa(fighters={"Medusa": at("M21")}, hand=hand)),
                  {"attack": ZIREAEL, "by": CIRI, "target": "Medusa", "defense": None})
    assert out["combat"]["attack_value"] == value
    assert len(p1(out)["hand"]) == 3 - discards and len(p1(out)["discard"]) == discards
    assert sorted(p1(out)["hand"] + p1(out)["discard"]) == sorted(hand)


# ---------------------------------------------------------------- The Lady of Space and Time
def test_lady_of_space_and_time_source_3_a_discard_card_onto_the_deck():
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[LADY], deck=[PARRY], discard=source(3, [BLINK], without=LADY)),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": LADY, "by": CIRI, "target": "Medusa", "defense": None}, [BLINK])
    assert p0(out)["deck"] == [BLINK, PARRY]
    assert p0(out)["hand"] == []
    assert p0(out)["discard"] == [ZIREAEL] * 3 + [LADY]
    # narrated as the engine did it: onto the deck, not into the hand
    assert f"    Ciri puts {BLINK} from the discard pile on top of the deck" in out["log"], out["log"]
    assert not any(BLINK in line and "into hand" in line for line in out["log"]), out["log"]


def test_lady_of_space_and_time_source_8_a_discard_card_to_hand_then_draw():
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[LADY], deck=[PARRY, CHANNEL],
                            discard=source(8, [BLINK], without=LADY)),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": LADY, "by": CIRI, "target": "Medusa", "defense": None}, [BLINK])
    assert p0(out)["hand"] == [BLINK, PARRY] and p0(out)["deck"] == [CHANNEL]


def test_lady_of_space_and_time_below_3_source_nothing():
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[LADY], deck=[PARRY], discard=source(2, [BLINK], without=LADY)),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": LADY, "by": CIRI, "target": "Medusa", "defense": None})
    assert p0(out)["deck"] == [PARRY] and p0(out)["hand"] == []


# ---------------------------------------------------------------- Blink
def test_blink_ciri_moves_up_to_3_through_opponents():
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[BLINK]),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": BLINK, "by": CIRI, "target": "Medusa", "defense": None}, ["M26"])
    assert out["combat"]["attack_value"] == 4 and hp(out, "Medusa") == 12
    assert space(out, CIRI) == "M26"                      # only reachable through Medusa on M21


def test_blink_cannot_move_4():
    with pytest.raises(ScenarioError, match=r"'M23'.*destination space"):
        resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[BLINK]), medusa(fighters={"Medusa": at("M21")})),
                {"attack": BLINK, "by": CIRI, "target": "Medusa", "defense": None}, ["M23"])


# ---------------------------------------------------------------- Searching Strike (R61)
SEARCH_DECK = [PARRY, ZIREAEL, BLINK, CHANNEL, PUSHED, BANE, UNICORN, SEARCHING]


def test_R61_searching_strike_takes_a_source_card_and_shuffles_the_deck():
    out = resolve(game(ciri(fighters={CIRI: at("M06"), IHU: at("M20")}, hand=[SEARCHING], deck=SEARCH_DECK),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": SEARCHING, "by": IHU, "target": "Medusa", "defense": None}, [True, PUSHED])
    assert hp(out, "Medusa") == 13
    assert p0(out)["hand"] == [PUSHED]
    assert Counter(p0(out)["deck"]) == Counter(c for c in SEARCH_DECK if c != PUSHED)
    assert "(deck shuffled)" in log_text(out)


def test_R61_searching_strike_may_decline_deck_untouched():
    out = resolve(game(ciri(fighters={CIRI: at("M06"), IHU: at("M20")}, hand=[SEARCHING], deck=SEARCH_DECK),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": SEARCHING, "by": IHU, "target": "Medusa", "defense": None}, [False])
    assert p0(out)["hand"] == [] and p0(out)["deck"] == SEARCH_DECK


def test_searching_strike_not_won_no_search():
    out = resolve(game(ciri(fighters={CIRI: at("M06"), IHU: at("M20")}, hand=[SEARCHING], deck=SEARCH_DECK),
                       medusa(fighters={"Medusa": at("M21")}, hand=[HISS])),
                  {"attack": SEARCHING, "by": IHU, "target": "Medusa", "defense": HISS})
    assert out["combat"]["winner"] == "defender"
    assert p0(out)["deck"] == SEARCH_DECK and p0(out)["hand"] == []


# ---------------------------------------------------------------- Parry
def test_parry_cancels_the_attack_cards_effects():
    out = resolve(game(ciri(fighters={CIRI: at("M06"), IHU: at("M21")}, hand=[PARRY]),
                       medusa(fighters={"Medusa": at("M20")}, hand=["Snipe"], deck=["Dash"]), active=1),
                  {"attack": "Snipe", "by": "Medusa", "target": IHU, "defense": PARRY})
    assert out["combat"] == {"attack_value": 3, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert p1(out)["hand"] == [] and p1(out)["deck"] == ["Dash"]      # no Snipe draw
    assert hp(out, IHU) == 7


# ---------------------------------------------------------------- Child of the Elder Blood
CHILD_FIGHTERS = ({CIRI: at("M20"), IHU: at("M13")},
                  {"Medusa": at("M21"), "Harpy 1": at("M07"), "Harpy 2": at("M27")})


@pytest.mark.parametrize("n,dmg", [(3, 0), (4, 1), (8, 1), (9, 3)])
def test_child_of_the_elder_blood_damages_every_other_fighter_in_ciris_zone(n, dmg):
    discard = [PUSHED] * 3 + [ZIREAEL] * 3 + [CUB] * 3
    out = resolve(game(ciri(fighters=CHILD_FIGHTERS[0], hand=[CHILD], discard=discard[:n]),
                       medusa(fighters=CHILD_FIGHTERS[1])),
                  {"scheme": CHILD, "by": CIRI})
    assert hp(out, "Medusa") == 16 - dmg
    assert hp(out, IHU) == 7 - dmg                        # her own Ihuarraquax too
    assert hp(out, CIRI) == 15                            # not Ciri herself
    assert hp(out, "Harpy 1") == (0 if dmg else 1)
    assert hp(out, "Harpy 2") == 1                        # M27: adjacent, not in her zone
    assert p0(out)["discard"][-1] == CHILD


# ---------------------------------------------------------------- Unicorn Ally
def test_unicorn_ally_ciri_recovers_2_and_it_stays_in_play():
    out = resolve(game(ciri(fighters={CIRI: at("M20", 10), IHU: at("M13")}, hand=[UNICORN]),
                       medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": UNICORN, "by": IHU})
    assert hp(out, CIRI) == 12 and hp(out, IHU) == 7
    assert p0(out)["ongoing"] == UNICORN and p0(out)["discard"] == []


def test_unicorn_ally_recovery_capped_at_15():
    out = resolve(game(ciri(fighters={CIRI: at("M20", 14)}, hand=[UNICORN]), medusa(fighters={"Medusa": at("M06")})),
                  {"scheme": UNICORN, "by": CIRI})
    assert hp(out, CIRI) == 15


def test_unicorn_ally_draw_1_after_a_combat_on_her_turn():
    out = resolve(game(ciri(fighters={CIRI: at("M20")}, hand=[BLINK], deck=[PARRY, CUB], ongoing=UNICORN),
                       medusa(fighters={"Medusa": at("M21")})),
                  {"attack": BLINK, "by": CIRI, "target": "Medusa", "defense": None}, ["M20"])
    assert p0(out)["hand"] == [PARRY] and p0(out)["deck"] == [CUB]


def test_unicorn_ally_draw_1_after_a_combat_on_the_opponents_turn():
    out = resolve(game(ciri(fighters={CIRI: at("M06"), IHU: at("M21")}, hand=[PARRY], deck=[CUB], ongoing=UNICORN),
                       medusa(fighters={"Medusa": at("M20")}, hand=["Snipe"]), active=1),
                  {"attack": "Snipe", "by": "Medusa", "target": IHU, "defense": PARRY})
    assert p0(out)["hand"] == [CUB]


def test_R73_unicorn_ally_no_draw_after_a_combat_that_ended_the_turn():
    # Armor of the Forgotten Wolf ends Ciri's turn in its After combat effect: what comes after it in
    # that action, the ongoing draw included, does not happen
    pos = game(ciri(fighters={CIRI: at("M21")}, hand=[CHANNEL], deck=[PARRY], ongoing=UNICORN),
               geralt("steel+wolf-armor+owl", fighters={GERALT: at("M20")}, hand=[ARMOR]))
    out = resolve(pos, {"attack": CHANNEL, "by": CIRI, "target": GERALT, "defense": ARMOR})
    assert out["combat"] == {"attack_value": 2, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert out["turn_ended"] is True
    assert p0(out)["hand"] == [] and p0(out)["deck"] == [PARRY] and p0(out)["ongoing"] == UNICORN


@pytest.mark.parametrize("hand_size,discarded", [(4, False), (5, True)])
def test_unicorn_ally_discarded_at_end_of_her_turn_with_5_or_more_cards(hand_size, discarded):
    hand = [PARRY, PARRY, BLINK, BLINK, CUB][:hand_size]
    sc = Scenario(game(ciri(fighters={CIRI: at("M20")}, hand=hand, ongoing=UNICORN),
                       medusa(fighters={"Medusa": at("M06")})))
    out = run(sc, {"end_of_turn": True})
    assert p0(out)["ongoing"] == (None if discarded else UNICORN)
    assert p0(out)["discard"] == ([UNICORN] if discarded else [])


def test_unicorn_ally_not_discarded_at_the_end_of_the_opponents_turn():
    sc = Scenario(game(ciri(fighters={CIRI: at("M20")}, hand=[PARRY, PARRY, BLINK, BLINK, CUB], ongoing=UNICORN),
                       medusa(fighters={"Medusa": at("M06")}), active=1))
    out = run(sc, {"end_of_turn": True})
    assert p0(out)["ongoing"] == UNICORN
