"""Damage in another fighter's place and damage caps (issue 35): the ability's ``before_damage``
table (a fighter of the owner may take some or all of the damage one of its fighters would take;
a cap on it) and ``prevent_damage`` with ``at_most`` (a card's cap), each in a built position with
the README's homebrew hero (the Lamplighter, his Moths given 3 health), their README examples
compiled, their errors, the AI's choice by value, and games that use them replayed by the
independent checker. Rulings: docs/rules.md, "Damage in another fighter's place"."""
import re
import tomllib
from pathlib import Path

import numpy as np
import pytest
from helpers.cards import at, game, hp

from sim.content.heroes import HeroFileError, hero_from_data
from sim.engine import layout as L
from sim.play.scenario import ScenarioError, resolve

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
HERO_README = (ROOT / "heroes" / "README.md").read_text(encoding="utf-8")
LAMP = "The Lamplighter"
GUARD = {"take": "adjacent", "taken_by": "Moth", "split": True}
# the Lamplighter on M21; Moth 1 next to him (M25), Moth 2 far (M01); Sinbad next to him (M20)
PLACES = {LAMP: at("M21"), "Moth 1": at("M25"), "Moth 2": at("M01")}


def _lamplighter() -> dict:
    block = README[README.index("<!-- homebrew-example:"):]
    data = tomllib.loads(block[block.index("```toml") + 7:block.index("\n```", block.index("```toml"))])
    data["sidekicks"][0]["health"] = 3
    return data


@pytest.fixture
def homebrew(tmp_path, monkeypatch):
    """``write(key, before_damage, cards=None)``: the Lamplighter (Moths of 3 health) with that
    ``before_damage`` ability (None: none) as homebrew hero ``key``; ``cards``: {card name:
    changes} to its cards."""
    from helpers.fuzz import to_toml
    monkeypatch.setenv("UNMATCHED_SIM_HEROES", str(tmp_path))

    def write(key, before_damage, cards=None):
        data = _lamplighter()
        data["ability"] = {"name": "Test", "text": "a test ability"}
        if before_damage is not None:
            data["ability"]["before_damage"] = before_damage
        for c in data["cards"]:
            c.update((cards or {}).get(c["name"], {}))
        (tmp_path / f"{key}.toml").write_text(to_toml(data), encoding="utf-8")
        return key
    return write


def _attacked(key, card, choices=(), lamp_hand=(), defense=None, ai=None, places=PLACES, deck=("Feint",),
              target=LAMP):
    """Sinbad (M20) attacks the Lamplighter (or ``target``) with ``card``; it defends with ``defense``."""
    pos = game({"hero": key, "fighters": places, "hand": list(lamp_hand)},
               {"hero": "sinbad", "fighters": {"Sinbad": at("M20")}, "hand": [card], "deck": list(deck)}, active=1)
    step = {"attack": card, "by": "Sinbad", "target": target, "defense": defense}
    return resolve(pos, step, ai=ai) if ai else resolve(pos, step, choices)


def _lines(out, text):
    return [line for line in out["log"] if text in line]


# ------------------------------------------------------------------ the README's examples


def test_the_readme_examples_compile():
    """The before_damage row of heroes/README.md's hook table and the prevent_damage row's at_most
    example compile into the hero table and the step's row."""
    row = next(r for r in HERO_README.splitlines() if r.startswith("| `before_damage"))
    example = re.findall(r"`before_damage = (\{.+?\})`", row)[-1]
    data = _lamplighter()
    data["ability"] = {"name": "T", "before_damage": tomllib.loads(f"x = {example}")["x"]}
    spec = hero_from_data(data, "lamp.toml")
    assert spec.before_damage == (0, 0, 1, 2, 1, 0)      # the hero; no cap; adjacent; Moths (kind 1 + 1); split
    op_row = next(r for r in HERO_README.splitlines() if r.startswith("| `prevent_damage` |"))
    step = tomllib.loads("x = " + re.search(r'`(\{ op = "prevent_damage", at_most = \d+ \})`', op_row).group(1))["x"]
    data["cards"][4]["during"] = [step]
    spec = hero_from_data(data, "lamp.toml")
    assert spec.cards[4].programs[L.W_DURING][0][L.I_X] == step["at_most"] + 1


@pytest.mark.parametrize("bd, message", [
    ({"take": "next_to"}, r"ability\.before_damage\.take: unknown 'next_to'; valid: adjacent, any$"),
    ({"take": "any", "taken_by": "Owl"}, r"ability\.before_damage\.taken_by: unknown fighter 'Owl'; valid: "
                                         r"'The Lamplighter', 'Moth'$"),
    ({"take": "any", "split": "yes"}, r'ability\.before_damage\.split: must be true or false, got "yes"$'),
    ({"take": "any", "taken_by": ["Moth", "Owl"]},
     r'ability\.before_damage\.taken_by: must be one fighter name \(a string\), got \["Moth", "Owl"\]; valid: '
     r"'The Lamplighter', 'Moth'$"),
    ({"take": "any", "taken_by": LAMP}, r"ability\.before_damage\.taken_by: 'The Lamplighter' is the fighter it protects; name another$"),
    ({"split": True}, r"ability\.before_damage: needs take \("),
    ({"at_most": 2, "split": True}, r"ability\.before_damage: taken_by and split need take"),
    ({"take": "any", "damage": "effect"}, r"ability\.before_damage\.damage: unknown 'effect'; valid: any, combat$"),
    ({"at_most": -1}, r"ability\.before_damage\.at_most: must be from 0 to 20"),
    ({"take": "any", "amount": 2}, r"ability\.before_damage: unknown field\(s\) amount; valid: at_most, damage, "
                                   r"fighter, split, take, taken_by$"),
])
def test_before_damage_errors_name_the_field_and_the_choices(bd, message):
    data = _lamplighter()
    data["ability"] = {"name": "T", "before_damage": bd}
    with pytest.raises(HeroFileError, match=r"^lamp\.toml: " + message.lstrip("^")):
        hero_from_data(data, "lamp.toml")


# ------------------------------------------------------------------ combat damage


@pytest.mark.nojit
def test_an_adjacent_moth_takes_part_of_the_combat_damage(homebrew):
    """Exploit (4) on the Lamplighter: Moth 1 (adjacent) takes 2 of it, he takes 2; the attack dealt
    damage, so Sinbad wins. Moth 2 is not adjacent: he is not offered."""
    key = homebrew("bd1", GUARD)
    out = _attacked(key, "Exploit", [("fighter", "Moth 1"), ("option", 2)])
    assert hp(out, LAMP) == 13 and hp(out, "Moth 1") == 1 and hp(out, "Moth 2") == 3
    assert out["combat"]["damage"] == 2 and out["combat"]["winner"] == "attacker"
    lines = out["log"]
    i = next(i for i, t in enumerate(lines) if "attack 4 vs defense 0: 4 combat damage (2 taken)" in t)
    assert lines[i + 1].strip() == "Moth 1 takes 2 of the combat damage in The Lamplighter's place"
    assert lines[i + 2].strip() == "Moth 1 takes 2 damage (health 1)"
    assert lines[i + 3].strip() == "The Lamplighter takes 2 damage (health 13)"


@pytest.mark.nojit
def test_not_adjacent_no_choice_and_declining(homebrew):
    """With both Moths far away nothing is asked (no script needed); declining (None) leaves all
    of it to the Lamplighter."""
    key = homebrew("bd2", GUARD)
    far = {LAMP: at("M21"), "Moth 1": at("M01"), "Moth 2": at("M02")}
    out = _attacked(key, "Exploit", places=far)
    assert hp(out, LAMP) == 11 and not _lines(out, "in The Lamplighter's place")
    out = _attacked(key, "Exploit", [("fighter", None)])
    assert hp(out, LAMP) == 11 and hp(out, "Moth 1") == 3


@pytest.mark.nojit
def test_without_split_the_taker_takes_all_of_it_and_the_attack_still_wins(homebrew):
    """Without ``split`` a Moth takes all of the damage (no amount asked). The Lamplighter takes none,
    yet the attack dealt damage: the attacker wins (docs/rules.md)."""
    key = homebrew("bd3", {"take": "any"})
    far = {LAMP: at("M21"), "Moth 1": at("M25"), "Moth 2": at("M01")}
    out = _attacked(key, "Exploit", [("fighter", "Moth 2")], places=far)
    assert hp(out, LAMP) == 15 and out["fighters"]["Moth 2"]["status"] == "defeated"
    assert out["combat"]["damage"] == 0 and out["combat"]["winner"] == "attacker"
    assert _lines(out, "Moth 2 takes 4 of the combat damage in The Lamplighter's place")
    assert _lines(out, "Moth 2 takes 3 of 4 damage (health 0)")


@pytest.mark.nojit
def test_parts_to_two_moths(homebrew):
    key = homebrew("bd4", {"take": "any", "split": True})
    out = _attacked(key, "Exploit", [("fighter", "Moth 1"), ("option", 1), ("fighter", "Moth 2"), ("option", 2)])
    assert (hp(out, LAMP), hp(out, "Moth 1"), hp(out, "Moth 2")) == (14, 2, 1)
    with pytest.raises(ScenarioError, match="fighter taking the damage instead"):
        # Moth 1 took a part already: not offered again
        _attacked(key, "Exploit", [("fighter", "Moth 1"), ("option", 1), ("fighter", "Moth 1"), ("option", 1)])


# ------------------------------------------------------------------ effect damage and caps

APES = "Voyage to the City of the Man-Eating Apes"   # After combat: 2 damage to the opposing fighter


@pytest.mark.nojit
def test_effect_damage_is_redirected_unless_combat_only(homebrew):
    """The Apes' 2 damage After combat is effect damage: a Moth may take it; with ``damage =
    "combat"`` only the combat damage is asked about."""
    key, combat_only = homebrew("bd5", GUARD), homebrew("bd6", {**GUARD, "damage": "combat"})
    out = _attacked(key, APES, [("fighter", None), ("fighter", "Moth 1"), ("option", 2)])
    assert hp(out, LAMP) == 15 - 2 and hp(out, "Moth 1") == 1
    assert _lines(out, "Moth 1 takes 2 of the damage in The Lamplighter's place")
    out = _attacked(combat_only, APES, [("fighter", "Moth 1"), ("option", 2)])
    assert hp(out, LAMP) == 15 - 0 - 2 and hp(out, "Moth 1") == 1


@pytest.mark.nojit
def test_the_abilitys_cap_keeps_the_rest_off(homebrew):
    """``at_most = 1``: each damage to the Lamplighter is at most 1 (the combat's 2 and the Apes' 2)."""
    key = homebrew("bd7", {"at_most": 1})
    out = _attacked(key, APES)
    assert hp(out, LAMP) == 13 and out["combat"]["damage"] == 1 and out["combat"]["winner"] == "attacker"
    assert len(_lines(out, "of the combat damage to The Lamplighter is kept off (its ability caps it)")) == 1
    assert len(_lines(out, "1 of the damage to The Lamplighter is kept off")) == 1


@pytest.mark.nojit
def test_a_cards_cap_lasts_the_combat(homebrew):
    """Snuff Out given ``prevent_damage`` with ``at_most = 1`` (its cancel replaced): the combat damage
    (4 - 3 = 1) and the Apes' 2 After combat are each cut to 1."""
    key = homebrew("bd8", None, {"Snuff Out": {"immediately": [], "during": [{"op": "prevent_damage", "at_most": 1}]}})
    out = _attacked(key, "Exploit", lamp_hand=["Snuff Out"], defense="Snuff Out")
    assert hp(out, LAMP) == 15 - 1 and out["combat"]["damage"] == 1
    out = _attacked(key, APES, lamp_hand=["Snuff Out"], defense="Snuff Out")
    assert out["combat"]["attack_value"] == 2 + 0 and hp(out, LAMP) == 15 - 0 - 1


@pytest.mark.nojit
def test_the_cards_cap_comes_before_the_moths(homebrew):
    """Snuff Out (value 3) with ``prevent_damage`` at_most 1 against the Apes (2): no combat damage;
    the Apes' 2 After combat are cut to 1 by the card first, and only that 1 is offered to a Moth."""
    key = homebrew("bd11", GUARD, {"Snuff Out": {"immediately": [], "during": [{"op": "prevent_damage", "at_most": 1}]}})
    out = _attacked(key, APES, [("fighter", "Moth 1")], lamp_hand=["Snuff Out"], defense="Snuff Out")
    assert hp(out, LAMP) == 15 and hp(out, "Moth 1") == 2
    lines = [line.strip() for line in out["log"]]
    i = lines.index("1 of the damage to The Lamplighter is kept off (its card prevents it)")
    assert lines[i + 1] == "Moth 1 takes 1 of the damage in The Lamplighter's place"


# ------------------------------------------------------------------ the AI


@pytest.mark.nojit
def test_the_ai_chooses_by_what_the_damage_costs(homebrew):
    """The standard AI weighs the damage, not the names: a Moth takes the blow that would defeat
    the Lamplighter at 2 health (all 4 of it: a part of it would leave him hurt, and damage beyond
    the Moth's health is spent); with the ability turned round (the Lamplighter may take a Moth's
    damage), it lets the Moth fall rather than take 4 on its hero."""
    key = homebrew("bd9", {"take": "adjacent", "taken_by": "Moth", "split": True})
    guards = homebrew("bd10", {"fighter": "Moth", "take": "any", "taken_by": LAMP})
    low = {LAMP: at("M21", 2), "Moth 1": at("M25"), "Moth 2": at("M01")}
    out = _attacked(key, "Exploit", places=low, ai="standard")
    assert hp(out, LAMP) == 2 and out["fighters"]["Moth 1"]["status"] == "defeated"
    assert _lines(out, "Moth 1 takes 4 of the combat damage in The Lamplighter's place")
    near = {LAMP: at("M01"), "Moth 1": at("M21"), "Moth 2": at("M02")}
    out = _attacked(guards, "Exploit", places=near, ai="standard", target="Moth 1")
    assert hp(out, LAMP) == 15 and out["fighters"]["Moth 1"]["status"] == "defeated"
    assert not _lines(out, "in Moth 1's place")


# ------------------------------------------------------------------ checked games


def test_games_with_before_damage_pass_the_replay_checker(tmp_path, monkeypatch):
    """Random games of Medusa with the ability and the card cap (tests/helpers/fuzz.py
    ``guard_hero``) against Sinbad and Dracula, replayed event by event by the independent
    checker; Harpies take her damage or her cap keeps some off (EV_REDIRECT lines), and her card's
    cap cuts some (the checker's counts)."""
    from helpers.fuzz import guard_hero, to_toml
    from helpers.replay.constants import OK, R_CODE, SX_CAPPED, SX_REDIRECTS
    from helpers.replay.runs import run_match

    from sim.play.match import Match
    monkeypatch.setenv("UNMATCHED_SIM_HEROES", str(tmp_path))
    (tmp_path / "guard_tester.toml").write_text(to_toml(guard_hero()), encoding="utf-8")
    seen = np.zeros(2, np.int64)
    for k, opp in enumerate(("sinbad", "dracula")):
        out, stats = run_match(k, Match(["guard_tester", opp], "marmoreal"), 200)
        assert (out[:, R_CODE] == OK).all(), out[out[:, R_CODE] != OK][:3]
        seen += stats[[SX_REDIRECTS, SX_CAPPED]]
    assert (seen > 0).all(), seen


def test_the_checker_rejects_a_bad_redirect(tmp_path, monkeypatch):
    """A real game's EV_REDIRECT line given a fighter of the other player, or its taker's damage
    line dropped, is refused."""
    from helpers.fuzz import guard_hero, to_toml
    from helpers.replay.constants import E_REDIRECT, OK
    from helpers.replay.synth import log_code, real_game_with

    from sim.play.match import Match
    monkeypatch.setenv("UNMATCHED_SIM_HEROES", str(tmp_path))
    (tmp_path / "guard_tester.toml").write_text(to_toml(guard_hero()), encoding="utf-8")
    m = Match(["guard_tester", "sinbad"], "marmoreal")
    g = real_game_with(m, lambda lg: any(e[0] == L.EV_REDIRECT and e[2] >= 0 for e in lg.tolist()))
    log = g.log.copy()
    assert log_code(m, log) == OK
    i = next(i for i, e in enumerate(log.tolist()) if e[0] == L.EV_REDIRECT and e[2] >= 0)
    wrong = log.copy()
    wrong[i, 2] = L.FIGHTERS_PER_PLAYER       # Sinbad: not one of Medusa's fighters
    assert log_code(m, wrong) == E_REDIRECT
    assert log_code(m, np.delete(log, i + 1, axis=0)) != OK
