"""Issue 35, the AI understands every new construct: the one-currency standard AI counts the
steps of a hero's ``after_defense`` and ``after_attack`` ability hooks in the decision that makes
the combat (``sim.engine.ai.hooks.hook_worth``): each defense option gets the ``after_defense``
steps, "if won" at the chance that this defense holds (``choices.score_defense``), and each attack
the ``after_attack`` steps, "if won" at its chance of winning (``position.attack_now``); a defense
counts the ``fighter_defeated`` steps in what losing the defender costs (``hooks.defeat_worth``).
Release 0.2's AI does not read them.

Homebrew heroes written here: Plain (no hook), Keeper (``after_defense``: draw 3 if won), Raider
(``after_attack``: draw 3 if won), the same cards each; Pest, whose attacks are all of value 1;
Mourner and Stoic, with a Squire (Mourner discards 2 cards at random when it falls); and
Achilles (docs/examples), whose draw after a won defense holds only while Patroclus is defeated
(a live guard). No shipped hero has these hooks: tests/test_bench.py and
tests/test_golden.py keep the shipped games identical.
"""
import pytest
from helpers.cards import at, game

from sim.play.scenario import resolve, Scenario

CARDS = """
[[cards]]
name = "Bulwark"
type = "defense"
value = 4
boost = 2
copies = 4
fighter = "any"
text = "No effect."

[[cards]]
name = "Twig"
type = "defense"
value = 0
boost = 0
copies = 3
fighter = "any"
text = "No effect."

[[cards]]
name = "Jab"
type = "attack"
value = 3
boost = 1
copies = 4
fighter = "any"
text = "No effect."

[[cards]]
name = "Scrap"
type = "attack"
value = 1
boost = 0
copies = 6
fighter = "any"
text = "No effect."
"""

HOOKS = {
    "plain": "",
    "keeper": 'after_defense = [{ op = "draw", amount = 3, if = "won" }]',
    "raider": 'after_attack = [{ op = "draw", amount = 3, if = "won" }]',
}

PEST = """
name = "Pest"
set = "Homebrew"

[hero]
health = 12
move = 2

[ability]
name = "None"
text = "No ability."

[[cards]]
name = "Poke"
type = "attack"
value = 1
boost = 1
copies = 10
fighter = "any"
text = "No effect."
"""


@pytest.fixture
def homebrew(tmp_path, monkeypatch):
    """Plain, Keeper, Raider and Pest as homebrew heroes (UNMATCHED_SIM_HEROES)."""
    for key, hook in HOOKS.items():
        (tmp_path / f"{key}.toml").write_text(
            f'name = "{key.title()}"\nset = "Homebrew"\n\n[hero]\nhealth = 15\nmove = 2\n\n'
            f'[ability]\nname = "Spoils"\ntext = "Draw 3 after a won combat."\n{hook}\n{CARDS}')
    (tmp_path / "pest.toml").write_text(PEST)
    monkeypatch.setenv("UNMATCHED_SIM_HEROES", str(tmp_path))


def _defend(key, hand, ai="standard"):
    """Pest (value-1 attacks only) attacks ``key``'s hero, who holds ``hand``: the AI's defense
    decision (its candidates' scores by card) and the result."""
    name = key.title()
    pos = game({"hero": "pest", "fighters": {"Pest": at("M20")}, "hand": ["Poke"], "deck": ["Poke"] * 3},
               {"hero": key, "fighters": {name: at("M21")}, "hand": hand, "deck": ["Scrap"] * 5})
    out = resolve(pos, {"attack": "Poke", "by": "Pest", "target": name}, ai=ai)
    d = [x for x in out["decisions"] if x["kind"] == "defense card"][0]
    return d["chosen"], dict(d["candidates"]), out


def _turn(key, ai="standard"):
    """``key``'s hero next to Medusa with Jab (3) and Scrap (1): the first action decision of
    its turn (its choice and its candidates' scores by option)."""
    name = key.title()
    pos = game({"hero": key, "fighters": {name: at("M20")}, "hand": ["Scrap", "Jab"], "deck": ["Scrap"] * 5},
               {"hero": "medusa", "fighters": {"Medusa": at("M21")}, "hand": ["Dash", "Feint"], "deck": ["Dash"] * 2})
    out = resolve(pos, {"turn": True}, ai=ai)
    d = [x for x in out["decisions"] if x["kind"] == "action" and x["player"] == 0][0]
    return d["chosen"].replace(name, "X"), {k.replace(name, "X"): v for k, v in d["candidates"]}


def test_a_hero_who_draws_after_a_won_defense_defends_where_the_plain_hero_keeps_its_card(homebrew):
    """Against a value-1 attack, Bulwark (4) is worth more kept than the 1 damage it saves: the
    plain hero takes the damage. Keeper's ability draws 3 after a won defense, and Bulwark
    holds (the attack is at most 1): 3 cards at the price of a card in hand: it defends."""
    chosen, _, out = _defend("plain", ["Bulwark"])
    assert chosen == "none" and out["fighters"]["Plain"]["health"] == 15 - 1
    chosen, _, out = _defend("keeper", ["Bulwark"])
    assert chosen == "Bulwark" and out["fighters"]["Keeper"]["health"] == 15
    assert out["combat"]["winner"] == "defender" and len(out["players"][1]["hand"]) == 3


def test_after_defense_counts_if_won_at_the_chance_that_the_defense_holds(homebrew):
    """With Bulwark (holds) and Twig (0: loses to any attack): the plain hero spends the Twig,
    which is worth nothing kept; Keeper defends with Bulwark, the card that wins. The hook adds
    nothing to the options that lose (Twig, no card): their scores are the plain hero's."""
    chosen, plain, _ = _defend("plain", ["Bulwark", "Twig"])
    assert chosen == "Twig"
    chosen, keeper, _ = _defend("keeper", ["Bulwark", "Twig"])
    assert chosen == "Bulwark"
    assert keeper["Twig"] == plain["Twig"] and keeper["none"] == plain["none"]
    assert keeper["Bulwark"] - plain["Bulwark"] > 3 * 2.0     # 3 cards drawn, each at a card's price


def test_a_hero_who_draws_after_a_won_attack_attacks_where_the_plain_hero_maneuvers(homebrew):
    """Next to Medusa with Jab (3) and Scrap (1): the plain hero maneuvers; Raider's ability
    draws 3 after a won attack: it attacks with Jab. The hook's worth is weighed by each
    attack's chance of winning: Jab (3) gains more than Scrap (1)."""
    chosen, plain = _turn("plain")
    assert chosen == "maneuver"
    chosen, raider = _turn("raider")
    assert chosen == "X attacks Medusa with Jab"
    gain_jab = raider["X attacks Medusa with Jab"] - plain["X attacks Medusa with Jab"]
    gain_scrap = raider["X attacks Medusa with Scrap"] - plain["X attacks Medusa with Scrap"]
    assert gain_jab > gain_scrap > 0.0
    assert raider["maneuver"] == plain["maneuver"]


def test_release_02_does_not_read_the_hooks(homebrew):
    """standard-0.2 scores the options of the hero with a hook as those of the plain hero."""
    assert _defend("keeper", ["Bulwark", "Twig"], "standard-0.2")[1] == _defend("plain", ["Bulwark", "Twig"],
                                                                                "standard-0.2")[1]
    assert _turn("raider", "standard-0.2")[1] == _turn("plain", "standard-0.2")[1]


@pytest.mark.parametrize("patroclus,counted", [("defeated", True), (None, False)])
def test_achilles_draw_after_a_won_defense_counts_only_while_patroclus_is_defeated(monkeypatch, patroclus, counted):
    """Achilles' after_defense (docs/examples/achilles.toml): draw 1 if won and Patroclus is
    defeated. The guard is read from the board (a live condition): worth a card at the chance of
    winning with Patroclus defeated, nothing while he is on the board."""
    from pathlib import Path

    from sim.engine import layout as L
    from sim.engine.ai.hooks import hook_worth
    from sim.engine.ai.position import set_price
    from sim.play.match import _control
    monkeypatch.setenv("UNMATCHED_SIM_HEROES", str(Path(__file__).resolve().parents[1] / "docs" / "examples"))
    fighters = {"Achilles": at("M21"), "Patroclus": patroclus or at("M06")}
    sc = Scenario(game({"hero": "sinbad", "fighters": {"Sinbad": at("M20")}},
                       {"hero": "achilles", "fighters": fighters, "deck": ["Feint"]}))
    m, st = sc.match, sc.st.copy()
    ctl = _control(("standard", "standard"))
    set_price(st, m.tables, ctl, 1)
    ach, sinbad = sc.fighter("Achilles"), sc.fighter("Sinbad")
    w = [hook_worth(st, m.tables, ctl, 1, ach, sinbad, L.HK_AFTER_DEFENSE, 1, x) for x in (1.0, 0.5, 0.0)]
    if counted:
        assert w[0] > 1.0 and w[1] == pytest.approx(w[0] / 2) and w[2] == 0.0
    else:
        assert w == [0.0, 0.0, 0.0]


SQUIRE = '\n[[sidekicks]]\nname = "Squire"\ncount = 1\nhealth = 2\nmove = 2\n'


@pytest.fixture
def mourners(tmp_path, monkeypatch):
    """Mourner (``fighter_defeated`` for its Squire: discard 2 cards at random) and Stoic (the
    same without the hook), with Pest (UNMATCHED_SIM_HEROES)."""
    for key, hook in (("stoic", ""), ("mourner", 'defeated_fighter = "Squire"\n'
                      'fighter_defeated = [{ op = "discard", who = "you", amount = 2, random = true }]')):
        (tmp_path / f"{key}.toml").write_text(
            f'name = "{key.title()}"\nset = "Homebrew"\n\n[hero]\nhealth = 15\nmove = 2\n{SQUIRE}\n'
            f'[ability]\nname = "Grief"\ntext = "Squire falls: discard 2 cards at random."\n{hook}\n{CARDS}')
    (tmp_path / "pest.toml").write_text(PEST)
    monkeypatch.setenv("UNMATCHED_SIM_HEROES", str(tmp_path))


def _defend_squire(key, hand):
    pos = game({"hero": "pest", "fighters": {"Pest": at("M20")}, "hand": ["Poke"], "deck": ["Poke"] * 3},
               {"hero": key, "fighters": {key.title(): at("M06"), "Squire": at("M21", 1)}, "hand": hand,
                "deck": ["Scrap"] * 5})
    out = resolve(pos, {"attack": "Poke", "by": "Pest", "target": "Squire"}, ai="standard")
    d = [x for x in out["decisions"] if x["kind"] == "defense card"][0]
    return d["chosen"], dict(d["candidates"]), out


def test_a_defense_counts_the_fighter_defeated_hook_in_what_losing_the_defender_costs(mourners):
    """The Squire (1 health) is attacked for 1: with no card it falls. Stoic lets it fall and
    keeps Bulwark (worth more kept). Mourner's ability then discards 2 of its cards at random:
    losing the Squire is dearer by about 2 cards, and it defends with Bulwark. The option that
    saves the Squire scores the same for both; with Bulwark alone in hand, only 1 card is lost."""
    chosen, stoic, out = _defend_squire("stoic", ["Bulwark", "Jab", "Jab"])
    assert chosen == "none" and out["fighters"]["Squire"]["status"] != "in play"
    chosen, mourner, out = _defend_squire("mourner", ["Bulwark", "Jab", "Jab"])
    assert chosen == "Bulwark" and out["fighters"]["Squire"]["health"] == 1
    assert mourner["Bulwark"] == stoic["Bulwark"]
    two = stoic["none"] - mourner["none"]
    _, alone, _ = _defend_squire("mourner", ["Bulwark"])
    assert two > 2 * 1.0 and stoic["none"] - alone["none"] == pytest.approx(two / 2, abs=0.01)
