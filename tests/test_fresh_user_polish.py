"""Fresh-user finds on homebrew heroes: the deck-size warning names the field to change, ``heroes``
notes two heroes of one name as a run does, the narration says when a card's ``prevent_damage
at_most`` capped the combat damage, ``reclaim`` refuses ``random`` with ``card``, and an entry
without a ``symbol`` beside one of the same name with a symbol is refused."""
from pathlib import Path

import pytest
from click.testing import CliRunner
from helpers.cards import at, game, hp

from sim.cli import main
from sim.content.heroes import HeroFileError, hero_from_data
from sim.play.scenario import resolve

ROOT = Path(__file__).resolve().parents[1]

BULWARK = """
name = "Bulwark"
set = "Homebrew"

[hero]
health = 14
move = 2

[ability]
name = "None"
text = "No ability."

[[cards]]
name = "Brace"
type = "defense"
value = 0
boost = 1
copies = 10
fighter = "any"
text = "During combat: you take at most 1 damage from each damage this combat."
during = [{ op = "prevent_damage", at_most = 1 }]

[[cards]]
name = "Wall"
type = "defense"
value = 0
boost = 1
copies = 5
fighter = "any"
text = "During combat: prevent all damage to your fighter."
during = [{ op = "prevent_damage" }]

[[cards]]
name = "Shove"
type = "attack"
value = 2
boost = 1
copies = COPIES
fighter = "any"
text = "No effect."
"""


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_the_deck_size_warning_names_the_field_to_change(tmp_path):
    f = tmp_path / "bulwark.toml"
    f.write_text(BULWARK.replace("COPIES", "14"))
    r = run("validate", str(f))
    assert r.exit_code == 0, r.output
    assert (f"ok  {f}: hero Bulwark, 29 cards\n    warning: {f}: deck has 29 cards, the sum of the [[cards]] "
            "entries' copies (a published deck has 30: add 1 to their copies)\n") in r.output
    f.write_text(BULWARK.replace("COPIES", "17"))
    assert "deck has 32 cards, the sum of the [[cards]] entries' copies (a published deck has 30: take 2 off their " \
           "copies)" in run("validate", str(f)).output


def test_a_command_with_a_homebrew_deck_of_29_warns_once(tmp_path):
    """Not only ``validate``: a command that plays a homebrew hero says its deck is not 30 cards,
    once, on stderr (fresh-user find: only validate said it)."""
    f = tmp_path / "bulwark.toml"
    f.write_text(BULWARK.replace("COPIES", "14"))
    r = run("--homebrew", str(f), "heroes")   # (the runner's output has stderr's lines too)
    assert r.exit_code == 0, r.output
    assert r.output.count(f"warning: {f}: deck has 29 cards") == 1


def test_heroes_notes_two_homebrew_heroes_of_one_name(tmp_path):
    """Two copies of one file under two keys: ``heroes`` lists both and prints the note a run prints."""
    text = BULWARK.replace("COPIES", "15")
    (tmp_path / "bulwark.toml").write_text(text)
    (tmp_path / "bulwark2.toml").write_text(text)
    r = run("--homebrew", str(tmp_path), "heroes")
    assert r.exit_code == 0, r.output
    assert "bulwark: Bulwark (Homebrew)" in r.output and "bulwark2: Bulwark (Homebrew)" in r.output
    assert ("note: heroes bulwark, bulwark2 are both named 'Bulwark'; the reports show them as 'Bulwark [bulwark]', "
            "'Bulwark [bulwark2]' (give a copied hero a name of its own: its file's `name` and its cards' fighter "
            "references)") in r.output
    assert r.output.count("are both named") == 1
    (tmp_path / "bulwark2.toml").unlink()
    assert "are both named" not in run("--homebrew", str(tmp_path), "heroes").output


@pytest.mark.parametrize("defense, health, damage, line", [
    ("Brace", 13, 1, "attack 3 vs defense 0: 3 combat damage, capped to 1 by the defender's card, attacker wins"),
    ("Wall", 14, 0, "attack 3 vs defense 0: 3 combat damage, prevented by the defender's card, defender wins"),
])
def test_the_narration_says_the_defenders_card_cut_the_combat_damage(tmp_path, monkeypatch, defense, health, damage,
                                                                     line):
    """Medusa's Snipe (3) against Brace (0, at most 1 damage): the line says 3, capped to 1; against
    Wall (0, prevents all damage): 3, prevented (the attack does not win)."""
    (tmp_path / "bulwark.toml").write_text(BULWARK.replace("COPIES", "15"))
    monkeypatch.setenv("UNMATCHED_SIM_HEROES", str(tmp_path))
    pos = game({"hero": "bulwark", "fighters": {"Bulwark": at("M20")}, "hand": [defense]},
               {"hero": "medusa", "fighters": {"Medusa": at("M13")}, "hand": ["Snipe"], "deck": ["Dash"] * 3},
               active=1)
    out = resolve(pos, {"attack": "Snipe", "by": "Medusa", "target": "Bulwark", "defense": defense})
    assert hp(out, "Bulwark") == health and out["combat"]["damage"] == damage
    lines = [t.strip() for t in out["log"]]
    assert line in lines, lines


def _bulwark(**step):
    import tomllib
    data = tomllib.loads(BULWARK.replace("COPIES", "15"))
    data["cards"][2]["after"] = [{"op": "reclaim", "to": "hand", **step}]
    return hero_from_data(data, "bulwark.toml")


def test_reclaim_refuses_random_with_card():
    with pytest.raises(HeroFileError, match=r"^bulwark\.toml: card 'Shove'\.after\[0\]\.random: cannot go with card: "
                                            r"the copies of one card are alike, so at random takes the same card; "
                                            r"leave random out$"):
        _bulwark(random=True, card="Brace")
    assert _bulwark(card="Brace") and _bulwark(random=True) and _bulwark(random=False, card="Brace")


def test_an_entry_without_a_symbol_beside_one_of_its_name_with_a_symbol_is_refused():
    import tomllib
    data = tomllib.loads(BULWARK.replace("COPIES", "10"))
    data["cards"].append(dict(data["cards"][2], copies=5, symbol="sun", value=3))
    with pytest.raises(HeroFileError, match=r"^bulwark\.toml: card 'Shove'\.symbol: missing, but another entry named "
                                            r"'Shove' has symbol = \"sun\": give each entry of one name its own "
                                            r"symbol, or this one another name$"):
        hero_from_data(data, "bulwark.toml")
    data["cards"][2]["symbol"] = "moon"
    assert [c.name for c in hero_from_data(data, "bulwark.toml").cards][2:] == ["Shove (moon)", "Shove (sun)"]
