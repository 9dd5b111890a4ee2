"""The ability hooks no shipped hero has (issue 35): ``end_of_turn`` (Bigfoot), ``after_attack``
(Robin Hood), ``after_defense`` (Achilles' draw after a won defense) and ``fighter_defeated``
with ``defeated_fighter`` (Achilles), each in a built
position with the README's homebrew hero (the Lamplighter) given that ability, their README
examples compiled, their errors, their narration, and games that use them replayed by the
independent checker. Rulings: docs/rules.md, "Ability hooks"."""
import re
import tomllib
from pathlib import Path

import numpy as np
import pytest
from helpers.cards import at, dist, game, hp, p0, p1, run, space

from sim.content.heroes import HOOKS, HeroFileError, hero_from_data
from sim.engine import layout as L
from sim.play.scenario import Scenario, ScenarioError, resolve

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
HOOK_README = (ROOT / "heroes" / "README.md").read_text(encoding="utf-8")
LAMP = "The Lamplighter"
NEW_HOOKS = ("end_of_turn", "after_attack", "after_defense", "fighter_defeated")


def _lamplighter() -> dict:
    """The README's homebrew hero (its ```toml block after the homebrew-example marker)."""
    block = README[README.index("<!-- homebrew-example:"):]
    return tomllib.loads(block[block.index("```toml") + 7:block.index("\n```", block.index("```toml"))])


def _toml(data: dict) -> str:
    from helpers.fuzz import to_toml
    return to_toml(data)


@pytest.fixture
def homebrew(tmp_path, monkeypatch):
    """``write(key, ability)``: the Lamplighter with that ``[ability]`` as homebrew hero ``key``
    (every hero of a test written before its first game: the compiled heroes are cached)."""
    monkeypatch.setenv("UNMATCHED_SIM_HEROES", str(tmp_path))

    def write(key, ability, data=None):
        data = data or _lamplighter()
        data["ability"] = {"name": "Test", "text": "a test ability", **ability}
        (tmp_path / f"{key}.toml").write_text(_toml(data), encoding="utf-8")
        return key
    return write


def _lines(out, text):
    return [i for i, line in enumerate(out["log"]) if text in line]


# ------------------------------------------------------------------ the README's examples


def test_the_readme_examples_of_the_new_hooks_compile():
    """Each new hook's row in heroes/README.md gives an example that compiles into its hook
    (Achilles' row: a Patroclus sidekick added to the Lamplighter for it)."""
    ability = {"name": "Test", "text": "t"}
    for hook in NEW_HOOKS:
        row = next(r for r in HOOK_README.splitlines() if r.startswith(f"| `{hook}` |"))
        for key, value in re.findall(r"`((?:end_of_turn|after_attack|after_defense|fighter_defeated|defeated_fighter)) = (.+?)`",
                                     row):
            ability[key] = tomllib.loads(f"x = {value}")["x"]
    assert set(NEW_HOOKS) <= set(ability) and ability["defeated_fighter"] == "Patroclus"
    data = _lamplighter()
    data["sidekicks"].append({"name": "Patroclus", "count": 1, "health": 6, "move": 2, "attack": "melee"})
    data["ability"] = ability
    spec = hero_from_data(data, "lamp.toml")
    for hook in NEW_HOOKS:
        guards = sum(len(st["if"]) - 1 for st in ability[hook] if isinstance(st.get("if"), list))   # one a condition
        assert len(spec.hooks[HOOKS[hook]]) == len(ability[hook]) + guards, hook
    assert spec.defeat_kind == 3          # Patroclus: sidekick kind 2 (the Moth is 1), + 1


def test_defeated_fighter_errors_name_the_field_and_the_choices():
    data = _lamplighter()
    data["ability"] = {"name": "T", "fighter_defeated": [{"op": "draw"}], "defeated_fighter": "Patroclus"}
    with pytest.raises(HeroFileError, match=r"^lamp\.toml: .*ability\.defeated_fighter: unknown fighter 'Patroclus'; "
                                            r"valid: 'The Lamplighter', 'Moth'$"):
        hero_from_data(data, "lamp.toml")
    data["ability"] = {"name": "T", "defeated_fighter": "Moth"}
    with pytest.raises(HeroFileError, match=r"ability\.defeated_fighter: needs a fighter_defeated hook"):
        hero_from_data(data, "lamp.toml")
    data["ability"] = {"name": "T", "fighter_defeated": [{"op": "add_value", "amount": 1}]}
    with pytest.raises(HeroFileError, match=r"ability\.fighter_defeated\[0\]\.op: op 'add_value' only works in"):
        hero_from_data(data, "lamp.toml")


# ------------------------------------------------------------------ end_of_turn

SINBAD_ = {"hero": "sinbad", "fighters": {"Sinbad": at("M20")}}
HAND7 = ["Hooked Pole"] * 3 + ["Lamp Oil"] * 2 + ["Snuff Out"] * 2


@pytest.mark.nojit
def test_end_of_turn_draw_comes_before_the_hand_limit(homebrew):
    """Bigfoot's draw at the end of his turn (docs/rules.md, "Ability hooks"): with 7 cards the
    drawn card makes 8 and the hand limit then discards one."""
    key = homebrew("eot", {"end_of_turn": [{"op": "draw", "amount": 1, "may": True}]})
    out = resolve(game({"hero": key, "fighters": {LAMP: at("M21")}, "hand": HAND7,
                        "deck": ["Steady Hand", "Trim the Wick"]},
                       {"hero": "sinbad", "fighters": {"Sinbad": at("M13")}}),
                  {"end_of_turn": True}, [True, "Lamp Oil"])
    me = p0(out)
    assert len(me["hand"]) == 7 and "Steady Hand" in me["hand"] and me["deck"] == ["Trim the Wick"]
    assert me["discard"] == ["Lamp Oil"]
    ability, draw, limit = _lines(out, "end of turn: The Lamplighter's ability (Test)"), _lines(out, "draws"), \
        _lines(out, "discards")
    assert len(ability) == 1 and ability[0] < draw[0] < limit[0], out["log"]


@pytest.mark.nojit
def test_end_of_turn_ability_declined_no_draw_and_no_line(homebrew):
    key = homebrew("eot2", {"end_of_turn": [{"op": "draw", "amount": 1, "may": True}]})
    out = resolve(game({"hero": key, "fighters": {LAMP: at("M21")}, "hand": HAND7[:6], "deck": ["Steady Hand"]},
                       {"hero": "sinbad", "fighters": {"Sinbad": at("M13")}}),
                  {"end_of_turn": True}, [False])
    assert len(p0(out)["hand"]) == 6 and p0(out)["deck"] == ["Steady Hand"]
    assert not _lines(out, "end of turn")


@pytest.mark.nojit
def test_end_of_turn_runs_after_an_effect_ended_the_turn(homebrew):
    """Armor of the Forgotten Wolf ends the Lamplighter's turn in his attack; his end-of-turn
    draw still happens at the end of that turn (ending the turn skips its effects, not its end)."""
    key = homebrew("eot3", {"end_of_turn": [{"op": "draw", "amount": 1}]})
    sc = Scenario(game({"hero": key, "fighters": {LAMP: at("M21")}, "hand": ["Steady Hand"],
                        "deck": ["Trim the Wick", "Lamp Oil"]},
                       {"hero": "geralt_of_rivia@steel+wolf-armor+owl", "fighters": {"Geralt of Rivia": at("M20")},
                        "hand": ["Armor of the Forgotten Wolf"]}))
    out = run(sc, {"attack": "Steady Hand", "by": LAMP, "target": "Geralt of Rivia",
                   "defense": "Armor of the Forgotten Wolf"})
    assert out["turn_ended"] and p0(out)["hand"] == []
    out = run(sc, {"end_of_turn": True})
    assert p0(out)["hand"] == ["Trim the Wick"] and _lines(out, "end of turn: The Lamplighter's ability")


# ------------------------------------------------------------------ after_attack

ROBIN = {"after_attack": [{"op": "move", "target": "self", "up_to": 2}]}


@pytest.mark.nojit
def test_after_attack_moves_the_attacker_after_a_cancelled_attack_card(homebrew):
    """Robin Hood's move after his attack comes from his ability, so Feint (cancel the effects
    on the attack card) stops Hooked Pole's own move of Sinbad but not the ability's move."""
    key = homebrew("robin", ROBIN)
    out = resolve(game({"hero": key, "fighters": {LAMP: at("M21")}, "hand": ["Hooked Pole"]},
                       {"hero": "sinbad", "fighters": {"Sinbad": at("M20")}, "hand": ["Feint"]}),
                  {"attack": "Hooked Pole", "by": LAMP, "target": "Sinbad", "defense": "Feint"}, ["M26"])
    assert out["combat"]["attack_value"] == 4 and hp(out, "Sinbad") == 13       # 4 - 2
    assert space(out, "Sinbad") == "M20"                                         # Hooked Pole's move cancelled
    assert space(out, LAMP) == "M26" and dist("M21", "M26") == 2
    assert _lines(out, "after The Lamplighter's attack: The Lamplighter's ability (Test)")


@pytest.mark.nojit
def test_after_attack_self_is_the_attacking_sidekick(homebrew):
    key = homebrew("robin2", ROBIN)
    out = resolve(game({"hero": key, "fighters": {LAMP: at("M06"), "Moth 1": at("M21")}, "hand": ["Burning Wick"]},
                       {"hero": "sinbad", "fighters": {"Sinbad": at("M20")}}),
                  {"attack": "Burning Wick", "by": "Moth 1", "target": "Sinbad", "defense": None}, ["M26"])
    assert hp(out, "Sinbad") == 15 - 3 - 2                    # 3 combat damage, Burning Wick's 2 (won)
    assert space(out, "Moth 1") == "M26" and space(out, LAMP) == "M06"
    after = _lines(out, "after Moth 1's attack")
    assert after and after[0] > _lines(out, "damage")[-1]     # after the After combat damage


@pytest.mark.nojit
def test_after_attack_not_after_a_combat_that_ended_the_turn(homebrew):
    """Armor of the Forgotten Wolf ends the attacker's turn After combat: no move after it (as
    R73; with no choice scripted, an asked move would be an error)."""
    key = homebrew("robin3", ROBIN)
    out = resolve(game({"hero": key, "fighters": {LAMP: at("M21")}, "hand": ["Steady Hand"]},
                       {"hero": "geralt_of_rivia@steel+wolf-armor+owl", "fighters": {"Geralt of Rivia": at("M20")},
                        "hand": ["Armor of the Forgotten Wolf"]}),
                  {"attack": "Steady Hand", "by": LAMP, "target": "Geralt of Rivia",
                   "defense": "Armor of the Forgotten Wolf"})
    assert out["turn_ended"] and space(out, LAMP) == "M21" and not _lines(out, "after The Lamplighter's attack")


@pytest.mark.nojit
def test_after_attack_the_move_is_at_most_2(homebrew):
    key = homebrew("robin4", ROBIN)
    with pytest.raises(ScenarioError, match=r"'M23'.*destination space"):
        resolve(game({"hero": key, "fighters": {LAMP: at("M21")}, "hand": ["Steady Hand"]},
                     {"hero": "sinbad", "fighters": {"Sinbad": at("M20")}}),
                {"attack": "Steady Hand", "by": LAMP, "target": "Sinbad", "defense": None}, ["M23"])


# ------------------------------------------------------------------ after_defense

DRAW_IF_WON = {"after_defense": [{"op": "draw", "amount": 1, "if": "won"}, {"op": "move", "target": "self", "up_to": 2}]}


def _medusa() -> dict:
    return tomllib.loads((ROOT / "heroes" / "medusa.toml").read_text(encoding="utf-8"))


@pytest.mark.nojit
def test_after_defense_draws_after_a_won_defense_before_the_attackers_ability(homebrew):
    """Medusa (given an after_attack draw) attacks with Gaze of Stone (2); the Lamplighter defends
    with Steady Hand (4) and wins: his after_defense draw comes after the cards' After combat
    effects and before Medusa's after_attack draw (effects at the same time: the defender's first,
    docs/rules.md "Ability hooks")."""
    lamp = homebrew("achilles_def", {"after_defense": [{"op": "draw", "amount": 1, "if": "won"}]})
    gorgon = homebrew("gorgon", {"after_attack": [{"op": "draw", "amount": 1}]}, data=_medusa())
    out = resolve(game({"hero": lamp, "fighters": {LAMP: at("M21")}, "hand": ["Steady Hand"], "deck": ["Lamp Oil"]},
                       {"hero": gorgon, "fighters": {"Medusa": at("M20")}, "hand": ["Gaze of Stone"],
                        "deck": ["Feint"]}, active=1),
                  {"attack": "Gaze of Stone", "by": "Medusa", "target": LAMP, "defense": "Steady Hand"})
    assert out["combat"]["winner"] == "defender" and hp(out, LAMP) == 15
    assert p0(out)["hand"] == ["Lamp Oil"] and p1(out)["hand"] == ["Feint"]
    mine, theirs = _lines(out, "after The Lamplighter's defense: The Lamplighter's ability (Test)"), \
        _lines(out, "after Medusa's attack: Medusa's ability (Test)")
    assert len(mine) == 1 and len(theirs) == 1 and mine[0] < _lines(out, "The Lamplighter draws")[0] < theirs[0]


@pytest.mark.nojit
def test_after_defense_not_after_a_lost_defense_and_self_is_the_defender(homebrew):
    """"self" is the defender and "won" the defense: Moth 1 defends Regroup (1) with Snuff Out (3)
    and wins (a draw, and Moth 1 moves); the Lamplighter defends it with no card and loses (no
    draw; he moves)."""
    key = homebrew("achilles_def2", DRAW_IF_WON)
    out = resolve(game({"hero": key, "fighters": {LAMP: at("M06"), "Moth 1": at("M21")}, "hand": ["Snuff Out"],
                        "deck": ["Lamp Oil"]},
                       {**SINBAD_, "hand": ["Regroup"], "deck": ["Feint", "Exploit"]}, active=1),
                  {"attack": "Regroup", "by": "Sinbad", "target": "Moth 1", "defense": "Snuff Out"}, ["M26"])
    assert out["combat"]["winner"] == "defender" and p0(out)["hand"] == ["Lamp Oil"]
    assert space(out, "Moth 1") == "M26" and space(out, LAMP) == "M06" and p1(out)["hand"] == []   # Regroup cancelled
    out = resolve(game({"hero": key, "fighters": {LAMP: at("M21")}, "deck": ["Lamp Oil"]},
                       {**SINBAD_, "hand": ["Regroup"], "deck": ["Feint", "Exploit"]}, active=1),
                  {"attack": "Regroup", "by": "Sinbad", "target": LAMP, "defense": None}, ["M26"])
    assert out["combat"]["winner"] == "attacker" and hp(out, LAMP) == 14
    assert p0(out)["hand"] == [] and space(out, LAMP) == "M26" and sorted(p1(out)["hand"]) == ["Exploit", "Feint"]
    assert _lines(out, "after The Lamplighter's defense")[0] > _lines(out, "Sinbad draws")[-1]


@pytest.mark.nojit
def test_after_defense_not_after_a_combat_that_ended_the_turn(homebrew):
    """A defense card whose After combat ends the attacker's turn (as Armor of the Forgotten
    Wolf): no after_defense ability after it (as R73; a scripted-less "may" would be an error)."""
    data = _lamplighter()
    card = next(c for c in data["cards"] if c["name"] == "Shadowplay")
    card["after"] = [{"op": "end_turn"}]
    key = homebrew("achilles_def3", DRAW_IF_WON, data=data)
    out = resolve(game({"hero": key, "fighters": {LAMP: at("M21")}, "hand": ["Shadowplay"], "deck": ["Lamp Oil"]},
                       {**SINBAD_, "hand": ["Regroup"]}, active=1),
                  {"attack": "Regroup", "by": "Sinbad", "target": LAMP, "defense": "Shadowplay"})
    assert out["turn_ended"] and out["combat"]["winner"] == "defender"
    assert p0(out)["hand"] == [] and space(out, LAMP) == "M21" and not _lines(out, "after The Lamplighter's defense")


def test_after_defense_gain_action_needs_who_opponent():
    """The after_defense hook runs on the opponent's turn: gain_action for "you" is refused in one
    line naming the field; who = "opponent" and the combat's conditions are accepted."""
    data = _lamplighter()
    data["ability"] = {"name": "T", "after_defense": [{"op": "gain_action", "amount": 1}]}
    with pytest.raises(HeroFileError, match=r"^lamp\.toml: .*ability\.after_defense\[0\]\.who: who = 'you' never gains "
                                            r"an action in the after_defense hook: it runs on the opponent's turn"):
        hero_from_data(data, "lamp.toml")
    data["ability"] = {"name": "T", "after_defense": [
        {"op": "gain_action", "who": "opponent", "amount": 1, "if": "not_won"},
        {"op": "damage", "amount": 1, "target": "opposing", "if": "won"}]}
    spec = hero_from_data(data, "lamp.toml")
    assert len(spec.hooks[HOOKS["after_defense"]]) == 2


@pytest.mark.parametrize("hook, cond", [("after_defense", "attacking"),
                                        ("after_attack", "defending")])
def test_a_side_the_hook_never_runs_on_is_refused(hook, cond):
    """after_defense runs only after its fighter defended, after_attack after it attacked: a
    step under the other side's condition would never run (fresh-user find: it was accepted)."""
    data = _lamplighter()
    data["ability"] = {"name": "T", hook: [{"op": "draw", "amount": 1, "if": cond}]}
    side = "attacking" if hook == "after_defense" else "defending"
    with pytest.raises(HeroFileError, match=rf"^lamp\.toml: .*ability\.{hook}\[0\]\.if: '{side}' never holds in the "
                                            rf"{hook} hook \(it runs after a combat in which the hero's fighter was the"):
        hero_from_data(data, "lamp.toml")
    data["ability"] = {"name": "T", hook: [{"op": "draw", "amount": 1, "unless": cond}]}   # (always holds: allowed)
    assert len(hero_from_data(data, "lamp.toml").hooks[HOOKS[hook]]) == 1


# ------------------------------------------------------------------ fighter_defeated

DRAW_ON_MOTH = {"fighter_defeated": [{"op": "draw", "amount": 1}], "defeated_fighter": "Moth"}


@pytest.mark.nojit
def test_fighter_defeated_by_combat_damage_resolves_before_after_combat(homebrew):
    """Sinbad's Exploit defeats Moth 1 with its combat damage: the Lamplighter's ability (draw 1)
    resolves before Exploit's After combat draw (docs/rules.md, "Ability hooks")."""
    key = homebrew("achilles", DRAW_ON_MOTH)
    out = resolve(game({"hero": key, "fighters": {LAMP: at("M06"), "Moth 1": at("M21")}, "deck": ["Steady Hand"]},
                       {"hero": "sinbad", "fighters": {"Sinbad": at("M20")}, "hand": ["Exploit"], "deck": ["Feint"]},
                       active=1),
                  {"attack": "Exploit", "by": "Sinbad", "target": "Moth 1", "defense": None})
    assert out["fighters"]["Moth 1"]["status"] == "defeated"
    assert p0(out)["hand"] == ["Steady Hand"] and p1(out)["hand"] == ["Feint"]
    ko, mine, theirs = (_lines(out, "Moth 1 was defeated: The Lamplighter's ability (Test)"),
                        _lines(out, "The Lamplighter draws"), _lines(out, "Sinbad draws"))
    assert len(ko) == 1 and ko[0] < mine[0] < theirs[0], out["log"]


@pytest.mark.nojit
def test_fighter_defeated_each_moth_defeated_by_exhaustion(homebrew):
    """Trim the Wick's After draw from an empty deck deals 2 to each of the Lamplighter's fighters:
    both Moths fall and the ability (recover 1) resolves once for each, in fighter order."""
    key = homebrew("achilles2", {"fighter_defeated": [{"op": "recover", "amount": 1, "target": LAMP}]})
    out = resolve(game({"hero": key, "fighters": {LAMP: at("M21", 10), "Moth 1": at("M01"), "Moth 2": at("M02")},
                        "hand": ["Trim the Wick"]},
                       {"hero": "sinbad", "fighters": {"Sinbad": at("M20")}}),
                  {"attack": "Trim the Wick", "by": LAMP, "target": "Sinbad", "defense": None})
    assert hp(out, "Sinbad") == 12
    assert out["fighters"]["Moth 1"]["status"] == out["fighters"]["Moth 2"]["status"] == "defeated"
    assert hp(out, LAMP) == 10 - 2 + 1 + 1
    assert len(_lines(out, "Moth 1 was defeated")) == len(_lines(out, "Moth 2 was defeated")) == 1
    assert _lines(out, "Moth 1 was defeated")[0] < _lines(out, "Moth 2 was defeated")[0]


@pytest.mark.nojit
def test_fighter_defeated_only_for_the_defeated_fighter_named(homebrew):
    key = homebrew("achilles3", {"fighter_defeated": [{"op": "recover", "amount": 1, "target": LAMP}],
                                 "defeated_fighter": LAMP})
    out = resolve(game({"hero": key, "fighters": {LAMP: at("M21", 10), "Moth 1": at("M01")},
                        "hand": ["Trim the Wick"]},
                       {"hero": "sinbad", "fighters": {"Sinbad": at("M20")}}),
                  {"attack": "Trim the Wick", "by": LAMP, "target": "Sinbad", "defense": None})
    assert out["fighters"]["Moth 1"]["status"] == "defeated" and hp(out, LAMP) == 8
    assert not _lines(out, "was defeated")


# ------------------------------------------------------------------ checked games


def test_games_with_the_new_hooks_pass_the_replay_checker(homebrew, tmp_path):
    """Random games of Medusa with the four hooks (tests/helpers/fuzz.py ``hook_hero``: an
    end-of-turn draw, a move after each attack, a move after a won defense, a random discard
    when a Harpy falls) against
    Sinbad and Dracula, replayed event by event by the independent checker; every hook fires."""
    from helpers.fuzz import hook_hero
    from helpers.replay.constants import OK, R_CODE
    from helpers.replay.runs import run_match

    from sim.play.match import Match
    (tmp_path / "hook_tester.toml").write_text(_toml(hook_hero()), encoding="utf-8")
    seen = set()
    for k, opp in enumerate(("sinbad", "dracula")):
        m = Match(["hook_tester", opp], "marmoreal")
        out, _ = run_match(k, m, 60)
        assert (out[:, R_CODE] == OK).all(), out[out[:, R_CODE] != OK][:3]
        for seed in range(30):
            log = m.play(seed).log
            seen |= {int(b) for ev, a, b, *_ in log.tolist() if ev == L.EV_ABILITY}
    assert {L.HK_END_TURN, L.HK_AFTER_ATTACK, L.HK_AFTER_DEFENSE, L.HK_FIGHTER_DEFEATED} <= seen


def test_the_checker_rejects_a_hook_line_at_the_wrong_moment(homebrew, tmp_path):
    """A real game's after_attack or after_defense line given another fighter, an after_defense line
    read as an after_attack one, a fighter_defeated line naming a
    fighter that is not a Harpy (defeated_fighter), or its closing line dropped, is refused."""
    from helpers.fuzz import hook_hero
    from helpers.replay.constants import E_ABILITY, OK
    from helpers.replay.synth import log_code, real_game_with

    from sim.play.match import Match
    (tmp_path / "hook_tester.toml").write_text(_toml(hook_hero()), encoding="utf-8")
    m = Match(["hook_tester", "sinbad"], "marmoreal")

    def has(hook):
        return lambda log: any(e[0] == L.EV_ABILITY and e[2] == hook for e in log.tolist())
    g = real_game_with(m, has(L.HK_AFTER_ATTACK))
    log = g.log.copy()
    assert log_code(m, log) == OK
    i = next(i for i, e in enumerate(log.tolist()) if e[0] == L.EV_ABILITY and e[2] == L.HK_AFTER_ATTACK)
    log[i, 3] = (log[i, 3] + 1) % L.FIGHTERS_PER_PLAYER + log[i, 1] * L.FIGHTERS_PER_PLAYER   # not the attacker
    assert log_code(m, log) == E_ABILITY
    g = real_game_with(m, has(L.HK_AFTER_DEFENSE))
    log = g.log.copy()
    assert log_code(m, log) == OK
    i = next(i for i, e in enumerate(log.tolist()) if e[0] == L.EV_ABILITY and e[2] == L.HK_AFTER_DEFENSE)
    wrong = log.copy()
    wrong[i, 3] = (wrong[i, 3] + 1) % L.FIGHTERS_PER_PLAYER + wrong[i, 1] * L.FIGHTERS_PER_PLAYER   # not the defender
    assert log_code(m, wrong) == E_ABILITY
    wrong = log.copy()
    wrong[i, 2] = L.HK_AFTER_ATTACK          # the defender's line read as an attacker's ability
    assert log_code(m, wrong) == E_ABILITY
    g = real_game_with(m, lambda lg: has(L.HK_FIGHTER_DEFEATED)(lg)
                       and sum(e[0] == L.EV_ABILITY and e[2] == L.HK_FIGHTER_DEFEATED for e in lg.tolist()) >= 4)
    log = g.log.copy()
    assert log_code(m, log) == OK
    i = next(i for i, e in enumerate(log.tolist()) if e[0] == L.EV_ABILITY and e[2] == L.HK_FIGHTER_DEFEATED
             and e[4] == 1)
    assert log_code(m, np.delete(log, i, axis=0)) != OK
    j = next(i for i, e in enumerate(log.tolist()) if e[0] == L.EV_ABILITY and e[2] == L.HK_FIGHTER_DEFEATED)
    wrong = log.copy()
    wrong[j, 3] = wrong[j, 1] * L.FIGHTERS_PER_PLAYER     # the hero: not a Harpy (defeated_fighter)
    assert log_code(m, wrong) == E_ABILITY
