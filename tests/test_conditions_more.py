"""Issue 35, conditions and multipliers: several conditions on one step (`if = [a, b]`,
`unless = [a, b]`, `if` with `unless`), the conditions `defeated`, `on_board`,
`no_opposing_in_zone`, `discard_top`, `discard_top_value_at_least`, `away_from_start`, and
the multipliers `combat_damage`, `opponent_printed`, `zones_of`.

Each is compiled (one row per condition: a guard row before the step for each condition after
the first), played from a built position with a homebrew hero (Marmoreal: seat 0 starts on
M13, red and yellow zones) and scored by the standard AI as the card would play now.
"""
import re
import textwrap
import tomllib
from pathlib import Path

import numpy as np
import pytest

from sim.content.vocab import StepContext, compile_step
from sim.engine import ai as AI
from sim.engine import codes as C
from sim.engine import layout as L
from sim.play.scenario import resolve

ROOT = Path(__file__).resolve().parents[1]

HERO = textwrap.dedent('''
    name = "Achilles"
    set = "Homebrew"
    notes = "a test hero: each card exercises one condition or multiplier of issue 35"

    [hero]
    health = 12
    move = 2
    attack = "melee"

    [[sidekicks]]
    name = "Patroclus"
    count = 1
    health = 5

    [ability]
    name = "None"
    text = "No ability."

    [[cards]]
    name = "Fallen Friend"
    type = "scheme"
    boost = 1
    copies = 2
    fighter = "any"
    effect = [{ op = "draw", amount = 2, if = { defeated = "Patroclus" } }]

    [[cards]]
    name = "Friend Near"
    type = "scheme"
    boost = 1
    copies = 2
    fighter = "any"
    effect = [{ op = "draw", amount = 1, if = { on_board = "Patroclus" } }]

    [[cards]]
    name = "Lonely Watch"
    type = "scheme"
    boost = 1
    copies = 2
    fighter = "any"
    effect = [{ op = "draw", amount = 1, if = { no_opposing_in_zone = "hero" } }]

    [[cards]]
    name = "Echo"
    type = "scheme"
    boost = 1
    copies = 2
    fighter = "any"
    effect = [{ op = "draw", amount = 1, if = { discard_top = "attack" } },
              { op = "draw", amount = 2, if = { discard_top_value_at_least = 4 } }]

    [[cards]]
    name = "Far Afield"
    type = "scheme"
    boost = 1
    copies = 2
    fighter = "any"
    effect = [{ op = "draw", amount = 1, if = { away_from_start = "self" } }]

    [[cards]]
    name = "All Or None"
    type = "scheme"
    boost = 1
    copies = 2
    fighter = "any"
    effect = [{ op = "draw", amount = 1, if = [{ on_board = "Patroclus" }, { hand_at_least = 2 }] },
              { op = "recover", amount = 2, target = "Achilles", unless = [{ defeated = "Patroclus" }, { hand_at_least = 4 }] }]

    [[cards]]
    name = "Mixed"
    type = "scheme"
    boost = 1
    copies = 2
    fighter = "any"
    effect = [{ op = "draw", amount = 1, if = { on_board = "Patroclus" }, unless = { hand_at_least = 2 } }]

    [[cards]]
    name = "Guarded Choice"
    type = "scheme"
    boost = 1
    copies = 2
    fighter = "any"
    effect = [{ op = "choose", if = [{ on_board = "Patroclus" }, { hand_at_least = 1 }], options = [[{ op = "draw", amount = 1 }], [{ op = "recover", amount = 1, target = "Achilles" }]] },
              { op = "draw", amount = 2 }]

    [[cards]]
    name = "Spear Thrust"
    type = "attack"
    value = 5
    boost = 1
    copies = 3
    fighter = "Achilles"
    after = [{ op = "recover", amount = 1, per = "combat_damage", target = "self" }]

    [[cards]]
    name = "Measured Blow"
    type = "attack"
    value = 2
    boost = 1
    copies = 3
    fighter = "any"
    after = [{ op = "draw", amount = 1, per = "opponent_printed" }]

    [[cards]]
    name = "Wide Reach"
    type = "attack"
    value = 1
    boost = 1
    copies = 3
    fighter = "any"
    during = [{ op = "add_value", amount = 1, per = "zones_of", fighter = "self" }]

    [[cards]]
    name = "Vengeance"
    type = "attack"
    value = 3
    boost = 1
    copies = 2
    fighter = "any"
    after = [{ op = "damage", amount = 1, target = "opposing", if = [{ defeated = "Patroclus" }, "won"] },
             { op = "move", target = "self", up_to = 1, if = { no_opposing_in_zone = "hero" } },
             { op = "recover", amount = 1, target = "Achilles", if = { away_from_start = "Achilles" }, unless = { on_board = "Patroclus" } }]

    [[cards]]
    name = "Reach Strike"
    type = "attack"
    value = 2
    boost = 1
    copies = 2
    fighter = "any"
    after = [{ op = "damage", amount = 1, per = "zones_of", fighter = "self", target = "opposing" },
             { op = "damage", amount = 1, per = "opponent_printed", target = "opposing", if = "won" }]

    [[cards]]
    name = "Plain Guard"
    type = "versatile"
    value = 3
    boost = 1
    copies = 1
    fighter = "any"
''')

DECK = ["Spear Thrust", "Measured Blow", "Wide Reach", "Vengeance", "Reach Strike"]


@pytest.fixture(scope="module", autouse=True)
def homebrew(tmp_path_factory):
    """The test hero installed as homebrew (key ``achilles_test``) for every test of this module."""
    d = tmp_path_factory.mktemp("homebrew")
    (d / "achilles_test.toml").write_text(HERO, encoding="utf-8")
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("UNMATCHED_SIM_HEROES", str(d))
        yield d


def pos(fighters, hand, discard=(), deck=DECK, medusa="M31", medusa_hand=(), medusa_health=None):
    """Achilles (seat 0, to act) against Medusa alone."""
    me = {"space": medusa} if medusa_health is None else {"space": medusa, "health": medusa_health}
    return {"battlefield": "marmoreal", "players": [
        {"hero": "achilles_test", "fighters": fighters, "hand": list(hand), "deck": list(deck),
         "discard": list(discard)},
        {"hero": "medusa", "fighters": {"Medusa": me}, "hand": list(medusa_hand), "deck": ["Dash", "Dash"]}]}


def hand_after(fighters, card, hand=(), **kw):
    out = resolve(pos(fighters, [card, *hand], **kw), {"scheme": card, "by": "Achilles"})
    return len(out["players"][0]["hand"]), out


# ------------------------------------------------------------------ compiling

def _ctx():
    return StepContext("t.toml", "Achilles", {"Achilles": 0, "Patroclus": 1}, {}, {})


def test_one_condition_is_one_row_and_each_more_is_a_guard_before_the_step():
    ctx = _ctx()
    one = compile_step(ctx, "s", {"op": "draw", "if": "won"})
    assert one.shape[0] == 1 and one[0, L.I_COND] == C.CN_WON and one[0, L.I_X] == 0
    two = compile_step(ctx, "s", {"op": "draw", "if": ["won", {"defeated": "Patroclus"}]})
    assert two.shape[0] == 2
    assert (two[0, L.I_OP], two[0, L.I_COND], two[0, L.I_CREF], two[0, L.I_X]) == (C.OP_NOP, C.CN_KIND_DEFEATED, 1, 1)
    assert (two[1, L.I_OP], two[1, L.I_COND]) == (C.OP_DRAW, C.CN_WON)
    # the same single condition written as a list of one is the same row
    assert np.array_equal(compile_step(ctx, "s", {"op": "draw", "if": ["won"]}), one)
    neg = compile_step(ctx, "s", {"op": "draw", "unless": ["won", "first_action"], "if": {"hand_at_least": 2}})
    assert neg.shape[0] == 3 and neg[2, L.I_OP] == C.OP_DRAW and neg[2, L.I_COND] == C.CN_HAND_AT_LEAST
    assert not neg[2, L.I_FLAGS] & L.IF_NEGATE
    assert [int(r[L.I_X]) for r in neg[:2]] == [2, 1] and all(r[L.I_FLAGS] & L.IF_NEGATE for r in neg[:2])
    ch = compile_step(ctx, "s", {"op": "choose", "if": ["won", "first_action"],
                                 "options": [[{"op": "draw"}], [{"op": "draw", "amount": 2}]]})
    assert ch[0, L.I_OP] == C.OP_NOP and ch[0, L.I_X] == len(ch) - 1 and ch[1, L.I_OP] == C.OP_CHOOSE


def _doc_examples(section_start, section_end):
    readme = (ROOT / "heroes" / "README.md").read_text(encoding="utf-8")
    part = readme[readme.index(section_start):readme.index(section_end)]
    return [tomllib.loads("x = " + " ".join(t.split()))["x"] for t in re.findall(r"`(\{ op = [^`]*\})`", part)]


def test_readme_condition_and_per_examples_compile():
    """Every example step of heroes/README.md's "Conditions" and "Per" sections compiles
    (fighter names of the examples: Achilles and his Patroclus)."""
    examples = _doc_examples("### Conditions (`if`)", "## How it runs")
    assert len(examples) >= 12
    ctx = _ctx()
    for step in examples:
        assert compile_step(ctx, "readme", step).shape[0] >= 1


# ------------------------------------------------------------------ conditions in play

def test_defeated_and_on_board():
    n, _ = hand_after({"Achilles": {"space": "M13"}, "Patroclus": "defeated"}, "Fallen Friend")
    assert n == 2                                    # drew 2
    n, _ = hand_after({"Achilles": {"space": "M13"}, "Patroclus": {"space": "M20"}}, "Fallen Friend")
    assert n == 0
    n, _ = hand_after({"Achilles": {"space": "M13"}, "Patroclus": {"space": "M20"}}, "Friend Near")
    assert n == 1
    n, _ = hand_after({"Achilles": {"space": "M13"}, "Patroclus": "defeated"}, "Friend Near")
    assert n == 0


def test_no_opposing_fighter_in_the_heros_zone():
    mine = {"Achilles": {"space": "M02"}, "Patroclus": {"space": "M03"}}   # gray zone only
    assert hand_after(mine, "Lonely Watch", medusa="M31")[0] == 1        # violet, brown: not his zone
    assert hand_after(mine, "Lonely Watch", medusa="M05")[0] == 0        # gray: in his zone
    assert hand_after(mine, "Lonely Watch", medusa="M04")[0] == 0        # gray among its zones


def test_top_card_of_the_discard_pile():
    me = {"Achilles": {"space": "M13"}}
    assert hand_after(me, "Echo", discard=["Plain Guard", "Spear Thrust"])[0] == 3    # attack, value 5
    assert hand_after(me, "Echo", discard=["Spear Thrust", "Measured Blow"])[0] == 1  # attack, value 2
    assert hand_after(me, "Echo", discard=["Spear Thrust", "Plain Guard"])[0] == 0    # versatile 3
    assert hand_after(me, "Echo", discard=["Spear Thrust", "Fallen Friend"])[0] == 0  # a scheme: no value
    assert hand_after(me, "Echo")[0] == 0                                             # no top card


def test_away_from_the_start_space():
    assert hand_after({"Achilles": {"space": "M14"}}, "Far Afield")[0] == 1   # green, blue: not M13's zones
    assert hand_after({"Achilles": {"space": "M20"}}, "Far Afield")[0] == 0   # red, yellow: M13's zones
    assert hand_after({"Achilles": {"space": "M13"}}, "Far Afield")[0] == 0


def test_all_conditions_must_hold_and_none_of_the_unless():
    hurt = {"space": "M13", "health": 5}
    # if = [on board, hand >= 2]: Patroclus on the board and 2 cards left in hand -> draw 1;
    # unless = [defeated, hand >= 4]: neither -> recover 2
    n, out = hand_after({"Achilles": hurt, "Patroclus": {"space": "M20"}}, "All Or None", hand=["Echo", "Echo"])
    assert n == 3 and out["fighters"]["Achilles"]["health"] == 7
    # one card left in hand: the draw's second condition fails; recover still
    n, out = hand_after({"Achilles": hurt, "Patroclus": {"space": "M20"}}, "All Or None", hand=["Echo"])
    assert n == 1 and out["fighters"]["Achilles"]["health"] == 7
    # Patroclus defeated: the draw's first condition fails, and the recover's first unless holds
    n, out = hand_after({"Achilles": hurt, "Patroclus": "defeated"}, "All Or None", hand=["Echo", "Echo"])
    assert n == 2 and out["fighters"]["Achilles"]["health"] == 5
    # four cards in hand: the recover's second unless holds
    n, out = hand_after({"Achilles": hurt, "Patroclus": {"space": "M20"}}, "All Or None",
                        hand=["Echo", "Echo", "Far Afield", "Far Afield"])
    assert n == 5 and out["fighters"]["Achilles"]["health"] == 5


def test_if_and_unless_on_one_step():
    on = {"Achilles": {"space": "M13"}, "Patroclus": {"space": "M20"}}
    assert hand_after(on, "Mixed")[0] == 1                                   # on board, hand 0 < 2
    assert hand_after(on, "Mixed", hand=["Echo", "Echo"])[0] == 2            # unless holds: no draw
    assert hand_after({"Achilles": {"space": "M13"}, "Patroclus": "defeated"}, "Mixed")[0] == 0


def test_a_guard_skips_a_whole_choose_and_the_next_step_still_runs():
    on = {"Achilles": {"space": "M13"}, "Patroclus": {"space": "M20"}}
    out = resolve(pos(on, ["Guarded Choice", "Echo"]), {"scheme": "Guarded Choice", "by": "Achilles"}, [1])
    assert len(out["players"][0]["hand"]) == 1 + 1 + 2                       # option 1 (draw 1), then draw 2
    # no card left in hand: the guard (hand >= 1) fails, the choose is skipped, draw 2 runs
    assert hand_after(on, "Guarded Choice")[0] == 2
    # Patroclus defeated: the choose's own condition fails
    assert hand_after({"Achilles": {"space": "M13"}, "Patroclus": "defeated"}, "Guarded Choice", hand=["Echo"])[0] == 3


# ------------------------------------------------------------------ multipliers in play

def attack(card, fighters, target_space, defense=None, medusa_hand=(), medusa_health=None, choices=()):
    p = pos(fighters, [card], medusa=target_space, medusa_hand=medusa_hand, medusa_health=medusa_health)
    return resolve(p, {"attack": card, "by": "Achilles", "target": "Medusa", "defense": defense}, list(choices))


def test_per_combat_damage_is_the_damage_the_attack_dealt():
    me = {"Achilles": {"space": "M13", "health": 4}}
    out = attack("Spear Thrust", me, "M20")
    assert out["combat"]["damage"] == 5 and out["fighters"]["Achilles"]["health"] == 9
    out = attack("Spear Thrust", me, "M20", defense="Snipe", medusa_hand=["Snipe"])
    assert out["combat"]["damage"] == 2 and out["fighters"]["Achilles"]["health"] == 6


def test_per_opponent_printed_value():
    me = {"Achilles": {"space": "M13"}}
    out = attack("Measured Blow", me, "M20", defense="Snipe", medusa_hand=["Snipe"])
    assert len(out["players"][0]["hand"]) == 3                               # Snipe is printed 3
    out = attack("Measured Blow", me, "M20")
    assert len(out["players"][0]["hand"]) == 0                               # no card: 0


def test_per_zones_of_a_fighter():
    out = attack("Wide Reach", {"Achilles": {"space": "M17"}}, "M14")       # M17: green, blue, purple
    assert out["combat"]["attack_value"] == 4
    out = attack("Wide Reach", {"Achilles": {"space": "M13"}}, "M20")       # M13: red, yellow
    assert out["combat"]["attack_value"] == 3


# ------------------------------------------------------------------ the standard AI

def _scores(fighters, cards, medusa="M31"):
    """The standard AI's score of playing each scheme of ``cards`` (all in hand) as its first action."""
    out = resolve(pos(fighters, cards, medusa=medusa), {"turn": True}, ai="standard")
    first = [d for d in out["decisions"] if d["kind"] == "action"][0]
    return {c: max(v for k, v in first["candidates"] if c in k) for c in cards
            if any(c in k for k, _ in first["candidates"])}


def test_the_ai_prices_the_new_conditions_as_they_hold_now():
    """A scheme whose new condition holds now is worth more to the standard AI than one whose
    condition fails (the conditions are live: checked in the position, guards included):
    the two are compared in one position, or each against a baseline scheme whose condition
    fails in both positions."""
    on = {"Achilles": {"space": "M13"}, "Patroclus": {"space": "M20"}}
    off = {"Achilles": {"space": "M13"}, "Patroclus": "defeated"}
    s = _scores(off, ["Fallen Friend", "Friend Near"])
    assert s["Fallen Friend"] > s["Friend Near"]
    s = _scores(on, ["Fallen Friend", "Friend Near"])
    assert s["Friend Near"] > s["Fallen Friend"]
    # a scheme against the same failing baseline (Fallen Friend: Patroclus on the board) in a
    # position where its condition holds and in one where it fails
    far = {"Achilles": {"space": "M02"}, "Patroclus": {"space": "M03"}}
    hold = _scores(far, ["Lonely Watch", "Fallen Friend"], medusa="M31")
    fail = _scores(far, ["Lonely Watch", "Fallen Friend"], medusa="M05")
    assert hold["Lonely Watch"] - hold["Fallen Friend"] > fail["Lonely Watch"] - fail["Fallen Friend"] + 0.1
    hold = _scores({"Achilles": {"space": "M14"}, "Patroclus": {"space": "M08"}}, ["Far Afield", "Fallen Friend"])
    fail = _scores({"Achilles": {"space": "M20"}, "Patroclus": {"space": "M08"}}, ["Far Afield", "Fallen Friend"])
    assert hold["Far Afield"] - hold["Fallen Friend"] > fail["Far Afield"] - fail["Fallen Friend"] + 0.1
    # several conditions: All Or None's draw needs Patroclus on the board and 2 cards in hand
    # (baseline: Far Afield, which fails on M13 in both positions)
    won = _scores(on, ["All Or None", "Far Afield", "Wide Reach", "Wide Reach"])
    lost = _scores(off, ["All Or None", "Far Afield", "Wide Reach", "Wide Reach"])
    assert won["All Or None"] - won["Far Afield"] > lost["All Or None"] - lost["Far Afield"] + 0.1


def test_the_ai_reads_zones_of_from_the_board():
    """"+1 for each zone your fighter is in" is a board count: the one-currency AI's value
    change of Wide Reach is the zones of the attacker's space now (3 on M17, 2 on M13)."""
    from sim.content.profiles import get_profile
    from sim.engine.ai.weights import board_delta, feat
    from sim.engine.control import MODE_STANDARD
    from sim.engine.policy import new_control
    from sim.play.scenario import Scenario
    prof = get_profile("standard")
    for space, target, zones in (("M17", "M14", 3), ("M13", "M20", 2)):
        sc = Scenario(pos({"Achilles": {"space": space}}, ["Wide Reach"], medusa=target))
        tb = sc.match.tables
        ctl = new_control((MODE_STANDARD,) * 4, weights=(prof.weights,) * 4)
        c = sc.card(0, "Wide Reach")
        got = feat(tb, c, L.AI_VALUE_ATK) + board_delta(sc.st, tb, ctl, c, 0, L.FIGHTERS_PER_PLAYER, 0, L.AI_VALUE_ATK)
        assert got == pytest.approx(zones)


def test_live_conditions_of_the_new_kinds_agree_with_the_rules_checker():
    """``ai.live_cond`` (and its guards) agrees with ``conditions.cond_ok`` for every live step
    of the test hero over states from random games."""
    from helpers.positions import midgame_states
    from sim.engine.conditions import LIVE_CONDITIONS, cond_ok
    m, states = midgame_states(["achilles_test", "medusa"], "marmoreal", 12, seed=5)
    tb = m.tables
    rows = [r for r in range(len(tb.code)) if tb.code[r, L.I_AI_LIVE] == 1 or   # live steps and live guards
            (tb.code[r, L.I_OP] == C.OP_NOP and tb.code[r, L.I_X] > 0 and tb.code[r, L.I_COND] in LIVE_CONDITIONS)]
    conds = {int(tb.code[r, L.I_COND]) for r in rows}
    assert {C.CN_KIND_DEFEATED, C.CN_KIND_ON_BOARD, C.CN_NO_OPP_IN_ZONE, C.CN_DISC_TOP_TYPE,
            C.CN_DISC_TOP_AT_LEAST, C.CN_AWAY_FROM_START} <= conds
    seen = set()
    for st in states:
        for r in rows:
            for q in (0, 1):
                g = q * L.FIGHTERS_PER_PLAYER
                for side in (-1, 0, 1):
                    want = cond_ok(st, tb, tb.code[r], q, g, side)
                    assert AI.live_cond(st, tb, r, q, g, side) == want, (r, q, side)
                    seen.add((int(tb.code[r, L.I_COND]), bool(want)))
    assert any(v for _, v in seen) and any(not v for _, v in seen)


# ------------------------------------------------------------------ the independent replay checker

def test_the_replay_checker_evaluates_the_new_conditions_and_multipliers_itself():
    """Random games of the test hero pass the replay checker, which works out the new
    conditions (several per step too) and the per counts of damage and recover from the log;
    the same games with the checker's reading of `defeated` and of `zones_of` turned wrong
    are flagged (it does not trust the engine)."""
    from helpers.replay.checks import run_checked
    from helpers.replay.constants import (CD_KIND_DEFEATED, EF_C2_COND, EF_C2_NEG, EF_COND, EF_N, EF_NEG, EF_PER,
                                          OK, PX_ZONES, R_CODE, R_FIELDS, RUN_SEED, SX_FIELDS)
    from helpers.replay.expect import Expect
    from helpers.replay.runs import describe_failures, run_match
    from sim.engine.policy import new_control
    from sim.play.match import Match
    m = Match(["achilles_test", "medusa"], "marmoreal")
    m2 = Match(["medusa", "achilles_test"], "marmoreal")
    results = [(1, m, run_match(1, m, 150)[0]), (2, m2, run_match(2, m2, 150)[0])]
    n_fail, text = describe_failures(results)
    assert n_fail == 0, text

    def broken(change):
        ex = Expect(m)
        change(ex.eff)
        out = np.zeros((150, R_FIELDS), np.int64)
        run_checked(m.tables, m.rows, new_control(), RUN_SEED, 1, 0, 150, *ex.args(), out,
                    np.zeros(SX_FIELDS, np.int64))
        return int((out[:, R_CODE] != OK).sum())

    def flip_defeated(eff):
        for r in eff:
            if r[EF_COND] == CD_KIND_DEFEATED:
                r[EF_NEG] ^= 1
            if r[EF_C2_COND] == CD_KIND_DEFEATED:
                r[EF_C2_NEG] ^= 1

    def double_zones(eff):
        for r in eff:
            if r[EF_PER] == PX_ZONES:
                r[EF_N] = 2
    assert broken(flip_defeated) > 0
    assert broken(double_zones) > 0
