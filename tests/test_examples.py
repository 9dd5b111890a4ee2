"""The published heroes of other boxes written as homebrew files under ``docs/examples/``
(issue 35): Bigfoot (end_of_turn, no_opposing_in_zone), Angel (after_attack) and Achilles
(fighter_defeated, after_attack and after_defense, defeated, several conditions on a step). Each loads with the validator and
its new constructs do what its card or ability says in a built position; seeded games with each
against shipped heroes end with a winner and pass the independent replay checker."""
import tomllib
from pathlib import Path

import pytest
from helpers.cards import at, game, hp, p0, p1

from sim.content.heroes import HOOKS, deck_warnings, load_hero
from sim.engine import layout as L
from sim.engine.codes import RES_REASON
from sim.play.scenario import resolve

ROOT = Path(__file__).resolve().parents[1]
EXAMPLES = ROOT / "docs" / "examples"
FILES = ("bigfoot", "angel", "achilles")
SINBAD = {"hero": "sinbad", "fighters": {"Sinbad": at("M20")}}


@pytest.fixture
def examples(monkeypatch):
    """The example heroes as homebrew heroes (UNMATCHED_SIM_HEROES), by their file names."""
    monkeypatch.setenv("UNMATCHED_SIM_HEROES", str(EXAMPLES))


def _lines(out, text):
    return [i for i, line in enumerate(out["log"]) if text in line]


def _constructs(data: dict) -> set:
    """The constructs new in issue 35 that a hero file's table uses: its hooks, its condition
    keys (also inside lists) and its per counts, and 'if_list' for a step with several conditions."""
    found = {h for h in ("end_of_turn", "after_attack", "after_defense", "fighter_defeated")
             if h in data.get("ability", {})}
    new_conditions = {"defeated", "on_board", "no_opposing_in_zone", "discard_top", "discard_top_value_at_least",
                      "away_from_start"}

    def walk(v):
        if isinstance(v, dict):
            for key in ("if", "unless"):
                c = v.get(key)
                if isinstance(c, list) and len(c) > 1:
                    found.add("if_list")
                for x in c if isinstance(c, list) else [c]:
                    if isinstance(x, dict):
                        found.update(set(x) & new_conditions)
            if v.get("per") in ("combat_damage", "opponent_printed", "zones_of"):
                found.add(v["per"])
            if v.get("op") == "become_defender":
                found.add("become_defender")
            for x in v.values():
                walk(x)
        elif isinstance(v, list):
            for x in v:
                walk(x)
    walk(data)
    return found


# ------------------------------------------------------------------ the files


@pytest.mark.parametrize("key", FILES)
def test_each_example_loads_with_a_published_deck_of_30(key):
    spec = load_hero(EXAMPLES / f"{key}.toml")
    assert spec.key == key and spec.deck_size() == 30 and deck_warnings(spec) == []
    assert all(c.text for c in spec.cards) and spec.ability_text


def test_the_examples_need_at_least_five_new_constructs_between_them():
    used = {k: _constructs(tomllib.loads((EXAMPLES / f"{k}.toml").read_text(encoding="utf-8"))) for k in FILES}
    assert used["bigfoot"] == {"end_of_turn", "no_opposing_in_zone"}
    assert used["angel"] == {"after_attack"}
    assert used["achilles"] == {"fighter_defeated", "after_attack", "after_defense", "defeated", "on_board", "if_list",
                                "become_defender"}
    assert len(set().union(*used.values())) >= 5


def test_the_hooks_compile_into_the_hero_table():
    big, angel, ach = (load_hero(EXAMPLES / f"{k}.toml") for k in FILES)
    assert len(big.hooks[HOOKS["end_of_turn"]]) == 1 and len(angel.hooks[HOOKS["after_attack"]]) == 1
    assert len(ach.hooks[HOOKS["fighter_defeated"]]) == 1 and ach.defeat_kind == 2      # Patroclus: kind 1, + 1
    assert len(ach.hooks[HOOKS["after_attack"]]) == 2      # the draw, and a guard row for its second condition
    assert len(ach.hooks[HOOKS["after_defense"]]) == 2     # the same draw after a won defense
    assert ach.notes and "Approximated" in ach.notes[0] and not any("won defense" in n for n in ach.notes)


def test_the_readme_lists_every_example():
    readme = (ROOT / "heroes" / "README.md").read_text(encoding="utf-8")
    assert all(f"`{k}.toml`" in readme for k in FILES) and "docs/examples" in readme


# ------------------------------------------------------------------ Bigfoot: end_of_turn


@pytest.mark.nojit
def test_bigfoot_draws_at_the_end_of_his_turn_with_no_opposing_fighter_in_his_zone(examples):
    """Bigfoot on M21 (red zone), Sinbad on M06 (gray): he may draw 1 at the end of his turn."""
    out = resolve(game({"hero": "bigfoot", "fighters": {"Bigfoot": at("M21")}, "deck": ["Hoax", "Feint"]},
                       {"hero": "sinbad", "fighters": {"Sinbad": at("M06")}}),
                  {"end_of_turn": True}, [True])
    assert p0(out)["hand"] == ["Hoax"] and p0(out)["deck"] == ["Feint"]
    assert len(_lines(out, "end of turn: Bigfoot's ability (Elusive)")) == 1


@pytest.mark.nojit
def test_bigfoot_does_not_draw_with_an_opposing_fighter_in_his_zone(examples):
    """Sinbad on M13 (red and yellow) shares Bigfoot's red zone: no draw, and no question
    (with no choice scripted, an asked "may" would be an error)."""
    out = resolve(game({"hero": "bigfoot", "fighters": {"Bigfoot": at("M21")}, "deck": ["Hoax", "Feint"]},
                       {"hero": "sinbad", "fighters": {"Sinbad": at("M13")}}),
                  {"end_of_turn": True})
    assert p0(out)["hand"] == [] and p0(out)["deck"] == ["Hoax", "Feint"]
    assert not _lines(out, "end of turn: Bigfoot's ability")


@pytest.mark.nojit
def test_bigfoot_may_decline_the_draw(examples):
    out = resolve(game({"hero": "bigfoot", "fighters": {"Bigfoot": at("M21")}, "deck": ["Hoax"]},
                       {"hero": "sinbad", "fighters": {"Sinbad": at("M06")}}),
                  {"end_of_turn": True}, [False])
    assert p0(out)["hand"] == [] and p0(out)["deck"] == ["Hoax"]


# ------------------------------------------------------------------ Angel: after_attack


@pytest.mark.nojit
@pytest.mark.parametrize("attacker", ["Angel", "Faith"])
def test_angel_draws_after_a_lost_attack_by_angel_or_faith(examples, attacker):
    """Feint (2) against Sinbad's Feint (2): no combat damage, the attacker lost; the ability
    draws 1 after the attack."""
    other = "M06" if attacker == "Faith" else None
    fighters = {attacker: at("M21")}
    if other:
        fighters["Angel"] = at(other)
    out = resolve(game({"hero": "angel", "fighters": fighters, "hand": ["Feint"], "deck": ["Regroup"]},
                       {**SINBAD, "hand": ["Feint"]}),
                  {"attack": "Feint", "by": attacker, "target": "Sinbad", "defense": "Feint"})
    assert out["combat"]["winner"] == "defender" and hp(out, "Sinbad") == 15
    assert p0(out)["hand"] == ["Regroup"] and p0(out)["deck"] == []
    assert _lines(out, f"after {attacker}'s attack: Angel's ability (Brooding Soul)")


@pytest.mark.nojit
def test_angel_does_not_draw_after_a_won_attack(examples):
    out = resolve(game({"hero": "angel", "fighters": {"Angel": at("M21")}, "hand": ["Angelus, Scourge of Europe"],
                        "deck": ["Regroup"]}, SINBAD),
                  {"attack": "Angelus, Scourge of Europe", "by": "Angel", "target": "Sinbad", "defense": None})
    assert out["combat"]["winner"] == "attacker" and hp(out, "Sinbad") == 15 - 5
    assert p0(out)["hand"] == [] and p0(out)["deck"] == ["Regroup"]
    assert not _lines(out, "after Angel's attack")


# ------------------------------------------------------------------ Achilles: fighter_defeated, defeated


@pytest.mark.nojit
def test_achilles_discards_two_random_cards_when_patroclus_is_defeated(examples):
    """Sinbad's Exploit defeats Patroclus (1 health left) with its combat damage: Achilles
    discards 2 of his 3 cards at random."""
    out = resolve(game({"hero": "achilles", "fighters": {"Achilles": at("M06"), "Patroclus": at("M21", 1)},
                        "hand": ["Feint", "Skirmish", "Spear Throw"]},
                       {**SINBAD, "hand": ["Exploit"]}, active=1),
                  {"attack": "Exploit", "by": "Sinbad", "target": "Patroclus", "defense": None})
    assert out["fighters"]["Patroclus"]["status"] == "defeated"
    mine = p0(out)
    assert len(mine["hand"]) == 1 and len(mine["discard"]) == 2
    assert sorted(mine["hand"] + mine["discard"]) == ["Feint", "Skirmish", "Spear Throw"]
    assert len(_lines(out, "Patroclus was defeated: Achilles's ability (Wrath)")) == 1


@pytest.mark.nojit
@pytest.mark.parametrize("patroclus, value, drawn", [("defeated", 6, ["Feint"]), ("alive", 4, [])])
def test_achilles_with_patroclus_defeated_adds_2_and_draws_after_a_won_attack(examples, patroclus, value, drawn):
    """Brothers In Arms (4) by Achilles against no defense: +2 and a draw only while Patroclus
    is defeated (attack_value; after_attack with if = ["won", { defeated = "Patroclus" }]); its
    own action only while he is not (unless = { defeated = "Patroclus" })."""
    fighters = {"Achilles": at("M21")}
    if patroclus == "alive":
        fighters["Patroclus"] = at("M06")
    out = resolve(game({"hero": "achilles", "fighters": fighters, "hand": ["Brothers In Arms"], "deck": ["Feint"]},
                       SINBAD),
                  {"attack": "Brothers In Arms", "by": "Achilles", "target": "Sinbad", "defense": None})
    assert out["combat"]["attack_value"] == value and hp(out, "Sinbad") == 15 - value
    assert p0(out)["hand"] == drawn
    assert out["actions_left"] == (2 if patroclus == "alive" else 1)      # 2 a turn, 1 spent, Brothers In Arms


@pytest.mark.nojit
@pytest.mark.parametrize("patroclus, drawn", [("defeated", ["Feint"]), ("alive", [])])
def test_achilles_draws_after_a_won_defense_only_while_patroclus_is_defeated(examples, patroclus, drawn):
    """Sinbad's Regroup (1) against Achilles' Under Achilles' Helm (2): Achilles wins the combat he
    defends and draws 1 (after_defense with if = ["won", { defeated = "Patroclus" }]) only while
    Patroclus is defeated; Regroup draws Sinbad 1 for the lost attack first (the cards' After
    combat effects come before the ability)."""
    fighters = {"Achilles": at("M21")}
    if patroclus == "alive":
        fighters["Patroclus"] = at("M06")
    out = resolve(game({"hero": "achilles", "fighters": fighters, "hand": ["Under Achilles' Helm"], "deck": ["Feint"]},
                       {**SINBAD, "hand": ["Regroup"], "deck": ["Exploit"]}, active=1),
                  {"attack": "Regroup", "by": "Sinbad", "target": "Achilles", "defense": "Under Achilles' Helm"},
                  [2] if patroclus == "alive" else [])     # Achilles keeps defending (Under Achilles' Helm declined)
    assert out["combat"]["winner"] == "defender" and hp(out, "Achilles") == 18
    assert p0(out)["hand"] == drawn and p1(out)["hand"] == ["Exploit"]
    ability = _lines(out, "after Achilles's defense: Achilles's ability (Wrath)")
    assert len(ability) == (1 if drawn else 0)
    if drawn:
        assert _lines(out, "Sinbad draws")[0] < ability[0] < _lines(out, "Achilles draws")[0]


@pytest.mark.nojit
@pytest.mark.parametrize("option", [1, 2])      # option numbers from 1
def test_under_achilles_helm_swaps_and_patroclus_defends_instead(examples, option):
    """Sinbad's Exploit (4) against Under Achilles' Helm (2) on Achilles: option 1, Achilles trades
    spaces with Patroclus, who defends instead and takes the 2 combat damage (docs/rules.md,
    "Another fighter defends"); option 2 (declined), Achilles defends and takes them."""
    out = resolve(game({"hero": "achilles", "fighters": {"Achilles": at("M21"), "Patroclus": at("M06")},
                        "hand": ["Under Achilles' Helm"]},
                       {**SINBAD, "hand": ["Exploit"], "deck": ["Feint"]}, active=1),
                  {"attack": "Exploit", "by": "Sinbad", "target": "Achilles", "defense": "Under Achilles' Helm"},
                  [option])
    assert out["combat"]["attack_value"] == 4 and out["combat"]["defense_value"] == 2
    assert out["combat"]["winner"] == "attacker"
    if option == 1:
        assert out["fighters"]["Achilles"]["space"] == "M06" and out["fighters"]["Patroclus"]["space"] == "M21"
        assert hp(out, "Patroclus") == 4 and hp(out, "Achilles") == 18
        assert _lines(out, "Patroclus defends instead of Achilles")
    else:
        assert out["fighters"]["Achilles"]["space"] == "M21" and hp(out, "Achilles") == 16 and hp(out, "Patroclus") == 6


@pytest.mark.nojit
def test_under_achilles_helm_asks_nothing_with_patroclus_defeated(examples):
    """With Patroclus defeated the choice is not offered (if = { on_board = "Patroclus" }): no
    choice is scripted, and an asked one would be an error."""
    out = resolve(game({"hero": "achilles", "fighters": {"Achilles": at("M21")}, "hand": ["Under Achilles' Helm"]},
                       {**SINBAD, "hand": ["Exploit"], "deck": ["Feint"]}, active=1),
                  {"attack": "Exploit", "by": "Sinbad", "target": "Achilles", "defense": "Under Achilles' Helm"})
    assert hp(out, "Achilles") == 16 and not _lines(out, "defends instead")


@pytest.mark.nojit
def test_achilles_does_not_draw_after_a_lost_defense(examples):
    out = resolve(game({"hero": "achilles", "fighters": {"Achilles": at("M21")}, "deck": ["Feint"]},
                       {**SINBAD, "hand": ["Regroup"], "deck": ["Exploit", "Feint"]}, active=1),
                  {"attack": "Regroup", "by": "Sinbad", "target": "Achilles", "defense": None})
    assert out["combat"]["winner"] == "attacker" and hp(out, "Achilles") == 17
    assert p0(out)["hand"] == [] and not _lines(out, "after Achilles's defense")


@pytest.mark.nojit
@pytest.mark.parametrize("option, value, patroclus_hp", [(1, 5, 4), (2, 3, 6)])   # option numbers from 1
def test_the_day_of_your_doom_trades_2_damage_to_patroclus_for_value_5(examples, option, value, patroclus_hp):
    out = resolve(game({"hero": "achilles", "fighters": {"Achilles": at("M06"), "Patroclus": at("M21")},
                        "hand": ["The Day of Your Doom"]}, SINBAD),
                  {"attack": "The Day of Your Doom", "by": "Patroclus", "target": "Sinbad", "defense": None},
                  [option])
    assert out["combat"]["attack_value"] == value and hp(out, "Patroclus") == patroclus_hp
    assert hp(out, "Sinbad") == 15 - value and p1(out)["hand"] == []


# ------------------------------------------------------------------ games


@pytest.mark.parametrize("key, opponents, hook", [
    ("bigfoot", ("medusa", "dracula"), L.HK_END_TURN),
    ("angel", ("sinbad", "king_arthur"), L.HK_AFTER_ATTACK),
    ("achilles", ("alice", "sherlock_holmes"), L.HK_FIGHTER_DEFEATED),
])
def test_seeded_games_finish_with_a_winner_and_pass_the_replay_checker(examples, key, opponents, hook):
    """Random games of each example against two shipped heroes, in both seats: every game is
    replayed event by event by the independent checker (tests/helpers/replay), ends with a
    hero defeated, and the example's hook fires in some of them."""
    from helpers.replay.constants import OK, R_CODE

    from helpers.replay.runs import run_match
    from sim.play.match import Match

    fired = 0
    for k, opp in enumerate(opponents):
        for seat, pair in enumerate(([key, opp], [opp, key])):
            m = Match(pair, "marmoreal")
            out, _ = run_match(k, m, 12)
            assert (out[:, R_CODE] == OK).all(), out[out[:, R_CODE] != OK][:3]
            for s in range(6):
                g = m.play(100 * k + s)
                assert g.winner in (0, 1) and g.result[RES_REASON] == L.END_HERO_DEFEATED, (pair, s)
                fired += sum(ev == L.EV_ABILITY and a == seat and b == hook for ev, a, b, *_ in g.log.tolist())
    assert fired > 0
