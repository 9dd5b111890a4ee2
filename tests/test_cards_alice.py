"""Card tests for Alice and the Jabberwock: her size (set at setup, R28, R30, R31) and every card."""
import numpy as np
import pytest
from helpers.cards import alice, arthur, at, dist, game, hp, medusa, p0, p1, sinbad, space
from helpers.arthur_alice import ARTHUR, BF, DIVINE, GLASS, GRAIL, NOBLE, size

from sim.engine import layout as L
from sim.engine.game import setup_game
from sim.engine.policy import MODE_RANDOM, MODE_SCRIPT, new_control
from sim.play.match import Match
from sim.play.narrate import narrate
from sim.play.scenario import Scenario, ScenarioError, resolve

pytestmark = pytest.mark.nojit

JABBER = "The Jabberwock"
MUSHROOM = "The Other Side of the Mushroom"
FRABJOUS = "O Frabjous Day!"
LATE = "I'm Late, I'm Late"
HATTER = "Mad as a Hatter"
CLAWS = "Claws That Catch"
JAWS = "Jaws That Bite"
MANXOME = "Manxome Foe"


# =========================================================================== Alice

# ---------------------------------------------------------------- ability: size at setup
def test_alice_chooses_her_size_at_setup_in_real_games():
    m = Match(["alice", "medusa"])
    sizes = set()
    for seed in range(8):
        g = m.play(seed)
        log = g.log.tolist()
        first_turn = next(i for i, e in enumerate(log) if e[0] == L.EV_TURN)
        setup_counters = [e for e in log[:first_turn] if e[0] == L.EV_COUNTER]
        assert len(setup_counters) == 1
        ev, player, slot, value, *_ = setup_counters[0]
        assert (player, slot) == (0, 0) and value in (0, 1)
        # right after Alice's Jabberwock is placed, before Medusa is placed
        i = log.index(setup_counters[0])
        assert log[i - 1][0] == L.EV_SETUP and log[i - 1][1] == 1
        assert log[i + 1][0] == L.EV_SETUP and log[i + 1][1] == L.FIGHTERS_PER_PLAYER
        lines = narrate(g)
        assert f"    Alice: size is now {('big', 'small')[value]}" in lines[:lines.index("Turn 1: Alice")]
        sizes.add(value)
    assert sizes == {0, 1}          # the random policy takes both choices


@pytest.mark.parametrize("choice,name", [(0, "big"), (1, "small")])
def test_alice_setup_size_choice_is_scripted(choice, name):
    m = Match(["alice", "medusa"])
    st = m.new_state()
    log = np.zeros((200, L.EV_FIELDS), np.int64)
    jab = BF.index("M20")     # the Jabberwock's setup space (Alice starts on M13), then the size
    ctl = new_control((MODE_SCRIPT, MODE_RANDOM, MODE_RANDOM, MODE_RANDOM),
                      [(L.DOM_SPACE, jab), (L.DOM_INT, choice)])
    setup_game(st, m.tables, ctl, log, m.rows, 2, 5)
    assert st[L.G_ERR] == 0
    slot, values = m.specs[0].counters["size"]
    assert values[int(st[L.pslot(0, L.P_COUNTER0 + slot)])] == name
    assert int(st[L.fslot(1, L.F_SPACE)]) == jab


# ---------------------------------------------------------------- R28 / R30 / R31
def test_R28a_big_alice_attacking_with_versatile_gets_plus_2():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=[LATE]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": LATE, "by": "Alice", "target": "Sinbad", "defense": None}, ["M21"])
    assert out["combat"]["attack_value"] == 4
    assert hp(out, "Sinbad") == 11


def test_R28b_big_gives_nothing_to_the_jabberwock():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M06"), JABBER: at("M21")}, hand=[JAWS]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": JAWS, "by": JABBER, "target": "Sinbad", "defense": None})
    assert out["combat"]["attack_value"] == 4
    # 4 combat, then Jaws That Bite's 2 (Sinbad is the only fighter adjacent)
    assert hp(out, "Sinbad") == 15 - 4 - 2


def test_R28c_big_alice_defending_gets_nothing():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=["Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": "Skirmish"}, ["Alice", "M21"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert hp(out, "Alice") == 13


def test_small_alice_defending_gets_plus_1():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M21")}, hand=["Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": "Skirmish"}, ["Sinbad", "M27"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 5, "damage": 0, "winner": "defender"}
    assert space(out, "Sinbad") == "M27"


def test_small_alice_attacking_gets_nothing():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M21")}, hand=["Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": "Skirmish", "by": "Alice", "target": "Sinbad", "defense": None}, ["Alice", "M21"])
    assert out["combat"]["attack_value"] == 4 and hp(out, "Sinbad") == 11


def test_small_alice_without_a_defense_card_gets_no_bonus():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M21")}, hand=[]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": None})
    assert out["combat"] == {"attack_value": 4, "defense_value": 0, "damage": 4, "winner": "attacker"}
    assert hp(out, "Alice") == 9


def test_small_gives_nothing_to_the_defending_jabberwock():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M06"), JABBER: at("M21")}, hand=["Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": JABBER, "defense": "Skirmish"}, [JABBER, "M21"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 4, "damage": 0, "winner": "defender"}


def test_R30_big_snicker_snack_vs_feint_keeps_size_bonus_no_discard():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=["Snicker-Snack"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Feint", "Exploit", "Regroup"]),
    ), {"attack": "Snicker-Snack", "by": "Alice", "target": "Sinbad", "defense": "Feint"})
    assert out["combat"] == {"attack_value": 5, "defense_value": 2, "damage": 3, "winner": "attacker"}
    assert hp(out, "Sinbad") == 12
    assert p1(out)["hand"] == ["Exploit", "Regroup"]       # nothing discarded
    assert p1(out)["discard"] == ["Feint"]
    assert p1(out)["hand_seen"] is False


def test_R30_with_medusa_defending():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M20")}, hand=["Snicker-Snack"]),
        medusa(fighters={"Medusa": at("M21")}, hand=["Feint", "Gaze of Stone"]),
    ), {"attack": "Snicker-Snack", "by": "Alice", "target": "Medusa", "defense": "Feint"})
    assert out["combat"]["attack_value"] == 5 and hp(out, "Medusa") == 13
    assert p1(out)["hand"] == ["Gaze of Stone"] and p1(out)["hand_seen"] is False


def test_R31_mushroom_then_next_attack_gets_no_bonus():
    sc = Scenario(game(
        alice("big", fighters={"Alice": at("M21")}, hand=[MUSHROOM, "Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ))
    out = sc.run({"attack": MUSHROOM, "by": "Alice", "target": "Sinbad", "defense": None}, ["M21"], "error")
    assert out["combat"]["attack_value"] == 5 and hp(out, "Sinbad") == 10
    assert size(out) == "small"
    out = sc.run({"attack": "Skirmish", "by": "Alice", "target": "Sinbad", "defense": None},
                 ["Alice", "M21"], "error")
    assert out["combat"]["attack_value"] == 4          # SMALL: no attack bonus
    assert hp(out, "Sinbad") == 6


def test_R31_mushroom_then_next_defense_gets_plus_1():
    sc = Scenario(game(
        alice("big", fighters={"Alice": at("M21")}, hand=[MUSHROOM, "Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
    ))
    out = sc.run({"attack": MUSHROOM, "by": "Alice", "target": "Sinbad", "defense": None}, ["M21"], "error")
    assert out["combat"]["attack_value"] == 5 and size(out) == "small"
    out = sc.run({"end_of_turn": True}, [], "error")
    out = sc.run({"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": "Skirmish"},
                 ["Alice", "M21"], "error")
    assert out["combat"] == {"attack_value": 4, "defense_value": 5, "damage": 0, "winner": "defender"}
    assert hp(out, "Alice") == 13


# ---------------------------------------------------------------- Snicker-Snack
def test_snicker_snack_won_alice_picks_the_discard():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=["Snicker-Snack"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Feint", "Exploit", "Regroup"]),
    ), {"attack": "Snicker-Snack", "by": "Alice", "target": "Sinbad", "defense": None}, ["Exploit"])
    assert out["combat"]["attack_value"] == 5 and hp(out, "Sinbad") == 10
    assert p1(out)["hand"] == ["Feint", "Regroup"] and p1(out)["discard"] == ["Exploit"]
    assert p1(out)["hand_seen"] is True
    assert p0(out)["discard"] == ["Snicker-Snack"]


def test_snicker_snack_defenders_draw_first_then_alice_picks_from_it():
    # Regroup lost: Sinbad draws 1 (defender first); Snicker-Snack may take the drawn card.
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=["Snicker-Snack"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Regroup", "Feint"], deck=["Leap Away"]),
    ), {"attack": "Snicker-Snack", "by": "Alice", "target": "Sinbad", "defense": "Regroup"}, ["Leap Away"])
    assert out["combat"] == {"attack_value": 5, "defense_value": 1, "damage": 4, "winner": "attacker"}
    assert p1(out)["hand"] == ["Feint"]
    assert p1(out)["discard"] == ["Leap Away", "Regroup"]   # played cards are discarded at cleanup


def test_snicker_snack_lost_no_discard():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M21")}, hand=["Snicker-Snack"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit", "Feint"], deck=["Regroup"]),
    ), {"attack": "Snicker-Snack", "by": "Alice", "target": "Sinbad", "defense": "Exploit"})
    assert out["combat"] == {"attack_value": 3, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert p1(out)["hand"] == ["Feint", "Regroup"] and p1(out)["hand_seen"] is False


# ---------------------------------------------------------------- O Frabjous Day!
@pytest.mark.parametrize("before,value,after", [("big", 6, "small"), ("small", 4, "big")])
def test_o_frabjous_day_changes_size_after_combat(before, value, after):
    out = resolve(game(
        alice(before, fighters={"Alice": at("M21")}, hand=[FRABJOUS]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": FRABJOUS, "by": "Alice", "target": "Sinbad", "defense": None})
    assert out["combat"]["attack_value"] == value
    assert hp(out, "Sinbad") == 15 - value
    assert size(out) == after
    assert f"    Alice: size is now {after}" in out["log"]


def test_o_frabjous_day_cancelled_by_feint_size_unchanged():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=[FRABJOUS]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Feint"]),
    ), {"attack": FRABJOUS, "by": "Alice", "target": "Sinbad", "defense": "Feint"})
    assert out["combat"]["attack_value"] == 6 and hp(out, "Sinbad") == 11
    assert size(out) == "big"


# ---------------------------------------------------------------- The Other Side of the Mushroom
def test_other_side_of_the_mushroom_moves_up_to_3_then_changes_size():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M21")}, hand=[MUSHROOM]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": MUSHROOM, "by": "Alice", "target": "Sinbad", "defense": None}, ["M23"])
    assert out["combat"]["attack_value"] == 3 and hp(out, "Sinbad") == 12
    assert space(out, "Alice") == "M23" and dist("M21", "M23") == 3
    assert size(out) == "big"


def test_other_side_of_the_mushroom_cannot_move_4():
    with pytest.raises(ScenarioError, match=r"'M24'.*destination space"):
        resolve(game(alice("small", fighters={"Alice": at("M21")}, hand=[MUSHROOM]),
                     sinbad(fighters={"Sinbad": at("M20")})),
                {"attack": MUSHROOM, "by": "Alice", "target": "Sinbad", "defense": None}, ["M24"])


# ---------------------------------------------------------------- Claws That Catch
def test_claws_that_catch_value_5_against_a_hero():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M06"), JABBER: at("M21")}, hand=[CLAWS]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": CLAWS, "by": JABBER, "target": "Sinbad", "defense": None})
    assert out["combat"]["attack_value"] == 5 and hp(out, "Sinbad") == 10


def test_claws_that_catch_value_3_against_a_sidekick():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M06"), JABBER: at("M21")}, hand=[CLAWS]),
        sinbad(fighters={"Sinbad": at("M13"), "The Porter": at("M20")}),
    ), {"attack": CLAWS, "by": JABBER, "target": "The Porter", "defense": None})
    assert out["combat"]["attack_value"] == 3 and hp(out, "The Porter") == 3
    assert hp(out, "Sinbad") == 15


def test_claws_that_catch_is_the_jabberwocks_only():
    with pytest.raises(ScenarioError, match="Alice cannot attack Sinbad with 'Claws That Catch'"):
        resolve(game(alice("big", fighters={"Alice": at("M21")}, hand=[CLAWS]),
                     sinbad(fighters={"Sinbad": at("M20")})),
                {"attack": CLAWS, "by": "Alice", "target": "Sinbad", "defense": None})


# ---------------------------------------------------------------- Jaws That Bite
JAWS_POS = game(
    # Jabberwock on M20; adjacent to it: Sinbad (M21), the Porter (M13) and Alice (M27).
    alice("big", fighters={"Alice": at("M27"), JABBER: at("M20")}, hand=[JAWS]),
    sinbad(fighters={"Sinbad": at("M21"), "The Porter": at("M13")}, hand=["Regroup"], deck=["Feint"]),
)


def test_jaws_that_bite_2_damage_to_a_chosen_adjacent_fighter():
    out = resolve(JAWS_POS, {"attack": JAWS, "by": JABBER, "target": "Sinbad", "defense": "Regroup"},
                  ["The Porter"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 1, "damage": 3, "winner": "attacker"}
    assert hp(out, "Sinbad") == 12 and hp(out, "The Porter") == 4
    assert hp(out, "Alice") == 13 and hp(out, JABBER) == 8


def test_jaws_that_bite_may_hit_alice_any_fighter_adjacent():
    out = resolve(JAWS_POS, {"attack": JAWS, "by": JABBER, "target": "Sinbad", "defense": "Regroup"},
                  ["Alice"])
    assert hp(out, "Alice") == 11 and hp(out, "The Porter") == 6 and hp(out, "Sinbad") == 12


def test_jaws_that_bite_lists_only_adjacent_fighters():
    # Jabberwock on M20: Sinbad (M21) and the Porter (M13) are adjacent, Alice (M06) is not.
    with pytest.raises(ScenarioError) as e:
        resolve(game(
            alice("big", fighters={"Alice": at("M06"), JABBER: at("M20")}, hand=[JAWS]),
            sinbad(fighters={"Sinbad": at("M21"), "The Porter": at("M13")}),
        ), {"attack": JAWS, "by": JABBER, "target": "Sinbad", "defense": None}, ["Alice"])
    assert "target fighter" in str(e.value)
    assert str(e.value).endswith("legal options: Sinbad, The Porter")


def test_jaws_that_bite_single_adjacent_fighter_not_asked():
    # The Porter on M07 is not adjacent to M20: Sinbad is the only choice (not asked).
    out = resolve(game(
        alice("big", fighters={"Alice": at("M06"), JABBER: at("M20")}, hand=[JAWS]),
        sinbad(fighters={"Sinbad": at("M21"), "The Porter": at("M07")}),
    ), {"attack": JAWS, "by": JABBER, "target": "Sinbad", "defense": None})
    assert hp(out, "Sinbad") == 15 - 4 - 2 and hp(out, "The Porter") == 6


def test_jaws_that_bite_is_the_jabberwocks_only():
    with pytest.raises(ScenarioError, match="Alice cannot attack Sinbad with 'Jaws That Bite'"):
        resolve(game(alice("big", fighters={"Alice": at("M21")}, hand=[JAWS]),
                     sinbad(fighters={"Sinbad": at("M20")})),
                {"attack": JAWS, "by": "Alice", "target": "Sinbad", "defense": None})


# ---------------------------------------------------------------- Mad as a Hatter
def test_mad_as_a_hatter_each_own_fighter_moves_up_to_2_then_size_changes():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M21"), JABBER: at("M07")}, hand=[HATTER]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": HATTER},
        [JABBER, "M02", "M26"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 4, "damage": 0, "winner": "defender"}
    assert space(out, JABBER) == "M02" and dist("M07", "M02") == 2
    assert space(out, "Alice") == "M26" and dist("M21", "M26") == 2
    assert space(out, "Sinbad") == "M20"
    assert size(out) == "big"


def test_mad_as_a_hatter_attack_big_plus_2():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=[HATTER]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": HATTER, "by": "Alice", "target": "Sinbad", "defense": None}, ["M21"])
    assert out["combat"]["attack_value"] == 5 and hp(out, "Sinbad") == 10
    assert size(out) == "small"


def test_mad_as_a_hatter_cannot_move_3():
    with pytest.raises(ScenarioError, match=r"'M23'.*destination space"):
        resolve(game(alice("big", fighters={"Alice": at("M21")}, hand=[HATTER]),
                     sinbad(fighters={"Sinbad": at("M20")})),
                {"attack": HATTER, "by": "Alice", "target": "Sinbad", "defense": None}, ["M23"])


# ---------------------------------------------------------------- I'm Late, I'm Late
def test_im_late_moves_up_to_5_then_changes_size():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=[LATE]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": LATE, "by": "Alice", "target": "Sinbad", "defense": None}, ["M16"])
    assert out["combat"]["attack_value"] == 4 and hp(out, "Sinbad") == 11
    assert space(out, "Alice") == "M16" and dist("M21", "M16") == 5
    assert size(out) == "small"


def test_im_late_on_defense_small_plus_1_then_big():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M21")}, hand=[LATE]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": LATE}, ["M26"])
    assert out["combat"] == {"attack_value": 4, "defense_value": 3, "damage": 1, "winner": "attacker"}
    assert hp(out, "Alice") == 12 and space(out, "Alice") == "M26"
    assert size(out) == "big"


def test_im_late_cannot_move_6():
    with pytest.raises(ScenarioError, match=r"'M12'.*destination space"):
        resolve(game(alice("big", fighters={"Alice": at("M21")}, hand=[LATE]),
                     sinbad(fighters={"Sinbad": at("M20")})),
                {"attack": LATE, "by": "Alice", "target": "Sinbad", "defense": None}, ["M12"])


# ---------------------------------------------------------------- Manxome Foe
def test_manxome_foe_discards_top_card_and_adds_its_boost():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=[MANXOME], deck=["Snicker-Snack", "Feint"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Regroup"]),
    ), {"attack": MANXOME, "by": "Alice", "target": "Sinbad", "defense": "Exploit"})
    # 3 + BOOST 4 (Snicker-Snack) + 2 (BIG) = 9 vs 4
    assert out["combat"] == {"attack_value": 9, "defense_value": 4, "damage": 5, "winner": "attacker"}
    assert hp(out, "Sinbad") == 10
    assert p0(out)["deck"] == ["Feint"] and p0(out)["hand"] == []
    assert p0(out)["discard"] == ["Snicker-Snack", MANXOME]
    assert "    Alice discards the top card of the deck: Snicker-Snack (BOOST 4)" in out["log"]


def test_manxome_foe_empty_deck_adds_0_and_no_exhaustion():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21", 5), JABBER: at("M06", 1)}, hand=[MANXOME], deck=[]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": MANXOME, "by": "Alice", "target": "Sinbad", "defense": None})
    assert out["combat"]["attack_value"] == 5 and hp(out, "Sinbad") == 10
    assert hp(out, "Alice") == 5 and hp(out, JABBER) == 1
    assert p0(out)["discard"] == [MANXOME]


def test_manxome_foe_jabberwock_defending_no_size_bonus():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M06"), JABBER: at("M21")}, hand=[MANXOME], deck=["Regroup", "Eat Me"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Feint"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": JABBER, "defense": MANXOME})
    # 3 + BOOST 2 (Regroup) = 5, no SMALL bonus for the Jabberwock
    assert out["combat"] == {"attack_value": 4, "defense_value": 5, "damage": 0, "winner": "defender"}
    assert p0(out)["deck"] == ["Eat Me"] and p0(out)["discard"] == ["Regroup", MANXOME]


def test_manxome_foe_cancelled_by_feint_no_discard():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=[MANXOME], deck=["Snicker-Snack"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Feint"]),
    ), {"attack": MANXOME, "by": "Alice", "target": "Sinbad", "defense": "Feint"})
    assert out["combat"]["attack_value"] == 5 and hp(out, "Sinbad") == 12
    assert p0(out)["deck"] == ["Snicker-Snack"]


# ---------------------------------------------------------------- Skirmish (Alice)
def test_alice_skirmish_won_moves_a_combatant_up_to_2():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=["Skirmish"]),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": "Skirmish", "by": "Alice", "target": "Sinbad", "defense": None}, ["Sinbad", "M28"])
    assert out["combat"]["attack_value"] == 6 and hp(out, "Sinbad") == 9
    assert space(out, "Sinbad") == "M28"


def test_alice_skirmish_choice_is_one_of_the_two_combatants():
    with pytest.raises(ScenarioError) as e:
        resolve(game(
            alice("big", fighters={"Alice": at("M21"), JABBER: at("M06")}, hand=["Skirmish"]),
            sinbad(fighters={"Sinbad": at("M20")}),
        ), {"attack": "Skirmish", "by": "Alice", "target": "Sinbad", "defense": None}, [JABBER, "M05"])
    assert str(e.value).endswith("legal options: Alice, Sinbad")


# ---------------------------------------------------------------- Momentous Shift (Alice)
@pytest.mark.parametrize("started_on,value", [("M25", 7), ("M21", 5)])
def test_alice_momentous_shift_big(started_on, value):
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=["Momentous Shift"], started_on={"Alice": started_on}),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": "Momentous Shift", "by": "Alice", "target": "Sinbad", "defense": None})
    assert out["combat"]["attack_value"] == value and hp(out, "Sinbad") == 15 - value


def test_jabberwock_momentous_shift_started_elsewhere():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M06"), JABBER: at("M21")}, hand=["Momentous Shift"],
              started_on={JABBER: "M25"}),
        sinbad(fighters={"Sinbad": at("M20")}),
    ), {"attack": "Momentous Shift", "by": JABBER, "target": "Sinbad", "defense": None})
    assert out["combat"]["attack_value"] == 5 and hp(out, "Sinbad") == 10


# ---------------------------------------------------------------- Feint (Alice)
def test_alice_feint_cancels_arthurs_boosts():
    # Noble Sacrifice with a face-down Excalibur vs SMALL Alice's Feint (2 + 1):
    # both BOOSTs are cancelled, A = 2 < 3.
    out = resolve(game(
        arthur(fighters={ARTHUR: at("M21")}, hand=[NOBLE, "Excalibur", DIVINE]),
        alice("small", fighters={"Alice": at("M20")}, hand=["Feint"]),
    ), {"attack": NOBLE, "by": ARTHUR, "target": "Alice", "defense": "Feint", "boost": "Excalibur"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert hp(out, "Alice") == 13
    assert p0(out)["hand"] == [DIVINE]


def test_alice_feint_attack_cancels_the_holy_grail():
    # BIG Alice attacks with Feint (2 + 2); Arthur's Grail would set 2 -> 8, but is cancelled.
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=["Feint"]),
        arthur(fighters={ARTHUR: at("M20", 5)}, hand=[GRAIL]),
    ), {"attack": "Feint", "by": "Alice", "target": ARTHUR, "defense": GRAIL})
    assert out["combat"] == {"attack_value": 4, "defense_value": 1, "damage": 3, "winner": "attacker"}
    assert hp(out, ARTHUR) == 2                  # Grail cancelled: not set to 8


# ---------------------------------------------------------------- Regroup (Alice)
def test_R05_gaze_of_stone_vs_small_alice_regroup_tie_alice_draws_2():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M20")}, hand=["Regroup"], deck=["Eat Me", "Drink Me", "Feint"]),
        medusa(fighters={"Medusa": at("M21")}, hand=["Gaze of Stone"]),
        active=1,
    ), {"attack": "Gaze of Stone", "by": "Medusa", "target": "Alice", "defense": "Regroup"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 2, "damage": 0, "winner": "defender"}
    assert hp(out, "Alice") == 13                          # no 8 damage
    assert p0(out)["hand"] == ["Eat Me", "Drink Me"] and p0(out)["deck"] == ["Feint"]


def test_big_alice_regroup_on_defense_lost_draws_1():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M20")}, hand=["Regroup"], deck=["Eat Me", "Drink Me"]),
        medusa(fighters={"Medusa": at("M21")}, hand=["Gaze of Stone"]),
        active=1,
    ), {"attack": "Gaze of Stone", "by": "Medusa", "target": "Alice", "defense": "Regroup"})
    assert out["combat"] == {"attack_value": 2, "defense_value": 1, "damage": 1, "winner": "attacker"}
    assert hp(out, "Alice") == 13 - 1 - 8
    assert p0(out)["hand"] == ["Eat Me"] and p0(out)["deck"] == ["Drink Me"]


def test_alice_regroup_attack_big_won_draws_2():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21")}, hand=["Regroup"], deck=["Eat Me", "Drink Me", "Feint"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Feint"]),
    ), {"attack": "Regroup", "by": "Alice", "target": "Sinbad", "defense": "Feint"})
    # Feint cancels Regroup's draw; 1 + 2 = 3 vs 2: Alice wins
    assert out["combat"] == {"attack_value": 3, "defense_value": 2, "damage": 1, "winner": "attacker"}
    assert p0(out)["hand"] == [] and p0(out)["deck"] == ["Eat Me", "Drink Me", "Feint"]


# ---------------------------------------------------------------- Looking Glass
GLASS_POS = game(
    alice("small", fighters={"Alice": at("M21", 8)}, hand=[GLASS], deck=["Eat Me", "Drink Me", "Feint"]),
    sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Regroup"]),
    active=1,
)


def test_looking_glass_recover_and_draw():
    out = resolve(GLASS_POS, {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": GLASS}, [2, 1])
    assert out["combat"] == {"attack_value": 4, "defense_value": 3, "damage": 1, "winner": "attacker"}
    assert hp(out, "Alice") == 8 - 1 + 3
    assert p0(out)["hand"] == ["Eat Me", "Drink Me"] and p0(out)["deck"] == ["Feint"]
    assert space(out, "Alice") == "M21"
    assert p1(out)["hand"] == ["Regroup"]


def test_looking_glass_place_then_draw_in_chosen_order():
    out = resolve(GLASS_POS, {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": GLASS},
                  [3, "M12", 1])
    assert space(out, "Alice") == "M12"
    assert hp(out, "Alice") == 7
    assert p0(out)["hand"] == ["Eat Me", "Drink Me"]
    lines = out["log"]
    assert lines.index("    Alice chooses effect 3") < lines.index("    Alice is placed on M12") \
        < lines.index("    Alice chooses effect 1") < lines.index("    Alice draws Eat Me")


def test_looking_glass_recover_capped_at_13():
    out = resolve(game(
        alice("small", fighters={"Alice": at("M21", 12)}, hand=[GLASS], deck=["Eat Me"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"], deck=["Regroup"]),
        active=1,
    ), {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": GLASS}, [2, 3, "M01"])
    assert hp(out, "Alice") == 13                     # 12 - 1 + 3, capped
    assert space(out, "Alice") == "M01"


def test_looking_glass_options_must_differ():
    with pytest.raises(ScenarioError) as e:
        resolve(GLASS_POS, {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": GLASS}, [1, 1])
    msg = str(e.value)
    assert "option number" in msg
    assert sorted(msg.split("legal options: ")[1].split(", ")) == ["2", "3"]


def test_R69_looking_glass_any_other_space_not_her_own():
    with pytest.raises(ScenarioError) as e:
        resolve(GLASS_POS, {"attack": "Exploit", "by": "Sinbad", "target": "Alice", "defense": GLASS},
                [3, "M21", 1])
    legal = str(e.value).split("legal options: ")[1].split(", ")
    assert "M21" not in legal and "M20" not in legal and len(legal) == 31 - 2


def test_looking_glass_cancelled_by_feint_small_bonus_stays():
    # Sinbad's Feint cancels Looking Glass's effects, not Alice's SMALL +1 (an ability): 2 vs 3.
    out = resolve(game(
        alice("small", fighters={"Alice": at("M21", 8)}, hand=[GLASS], deck=["Eat Me", "Drink Me"]),
        sinbad(fighters={"Sinbad": at("M20")}, hand=["Feint"]),
        active=1,
    ), {"attack": "Feint", "by": "Sinbad", "target": "Alice", "defense": GLASS})
    assert out["combat"] == {"attack_value": 2, "defense_value": 3, "damage": 0, "winner": "defender"}
    assert hp(out, "Alice") == 8 and space(out, "Alice") == "M21"
    assert p0(out)["hand"] == [] and p0(out)["deck"] == ["Eat Me", "Drink Me"]


def test_looking_glass_is_alices_only():
    with pytest.raises(ScenarioError, match=r"defense card.*legal options: Feint, no card"):
        resolve(game(alice("small", fighters={"Alice": at("M06"), JABBER: at("M21")}, hand=[GLASS, "Feint"]),
                     sinbad(fighters={"Sinbad": at("M20")}, hand=["Exploit"]), active=1),
                {"attack": "Exploit", "by": "Sinbad", "target": JABBER, "defense": GLASS})


# ---------------------------------------------------------------- Eat Me
def test_eat_me_moves_up_to_3_then_changes_size():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21"), JABBER: at("M06")}, hand=["Eat Me"]),
        sinbad(fighters={"Sinbad": at("M13")}),
    ), {"scheme": "Eat Me", "by": "Alice"}, ["M27"])
    assert space(out, "Alice") == "M27" and dist("M21", "M27") == 2
    assert size(out) == "small"
    assert p0(out)["discard"] == ["Eat Me"] and out["actions_left"] == 1


def test_eat_me_cannot_move_4_and_is_alices_only():
    pos = game(alice("small", fighters={"Alice": at("M21"), JABBER: at("M06")}, hand=["Eat Me"]),
               sinbad(fighters={"Sinbad": at("M13")}))
    with pytest.raises(ScenarioError, match=r"'M24'.*destination space"):
        resolve(pos, {"scheme": "Eat Me", "by": "Alice"}, ["M24"])
    with pytest.raises(ScenarioError, match="The Jabberwock cannot play the scheme 'Eat Me'"):
        resolve(pos, {"scheme": "Eat Me", "by": JABBER}, ["M23"])


# ---------------------------------------------------------------- Drink Me
@pytest.mark.parametrize("before,after", [("big", "small"), ("small", "big")])
def test_drink_me_draws_2_then_changes_size(before, after):
    out = resolve(game(
        alice(before, fighters={"Alice": at("M21")}, hand=["Drink Me"], deck=["Feint", "Regroup", "Eat Me"]),
        sinbad(fighters={"Sinbad": at("M13")}),
    ), {"scheme": "Drink Me", "by": "Alice"})
    assert p0(out)["hand"] == ["Feint", "Regroup"] and p0(out)["deck"] == ["Eat Me"]
    assert size(out) == after
    assert p0(out)["discard"] == ["Drink Me"]


def test_drink_me_with_one_card_exhaustion_then_size_changes():
    out = resolve(game(
        alice("big", fighters={"Alice": at("M21", 6), JABBER: at("M06", 2)}, hand=["Drink Me"], deck=["Feint"]),
        sinbad(fighters={"Sinbad": at("M13")}),
    ), {"scheme": "Drink Me", "by": "Alice"})
    assert p0(out)["hand"] == ["Feint"]
    assert hp(out, "Alice") == 4 and out["fighters"][JABBER]["status"] == "defeated"
    assert size(out) == "small"
