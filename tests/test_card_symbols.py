"""Copies of a card that differ only by a printed symbol (issue 35): two entries of one name, each
with its ``symbol``, load as "Name (symbol)" and play; entries of one name without symbols are
refused with a message that says how they differ and what to do (heroes/README.md, "Copies that
differ only by a printed symbol")."""
import copy
import tomllib
from pathlib import Path

import pytest
from helpers.cards import at, game, hp, p0

from sim.content.heroes import HeroFileError, hero_from_data, load_all
from sim.content.variants import VariantError, apply_variant, load_variant
from sim.play.scenario import resolve

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")
LAMP = "The Lamplighter"


def _lamplighter() -> dict:
    block = README[README.index("<!-- homebrew-example:"):]
    return tomllib.loads(block[block.index("```toml") + 7:block.index("\n```", block.index("```toml"))])


def _with_symbols() -> dict:
    """The Lamplighter whose 3 Hooked Poles are 2 with a sun (value 4) and 1 with a moon (value 5)."""
    data = _lamplighter()
    pole = next(c for c in data["cards"] if c["name"] == "Hooked Pole")
    moon = copy.deepcopy(pole)
    pole.update(symbol="sun", copies=2)
    moon.update(symbol="moon", copies=1, value=5)
    data["cards"].insert(data["cards"].index(pole) + 1, moon)
    return data


def test_two_entries_of_one_name_with_symbols_load():
    spec = hero_from_data(_with_symbols(), "lamp.toml")
    poles = [(c.name, c.value, c.copies) for c in spec.cards if c.name.startswith("Hooked Pole")]
    assert poles == [("Hooked Pole (sun)", 4, 2), ("Hooked Pole (moon)", 5, 1)]
    assert spec.deck_size() == hero_from_data(_lamplighter(), "lamp.toml").deck_size()


def test_entries_of_one_name_without_symbols_are_refused_saying_how_they_differ():
    data = _with_symbols()
    for c in data["cards"]:
        c.pop("symbol", None)
    with pytest.raises(HeroFileError, match=r"^lamp\.toml: card 'Hooked Pole'\.name: a second card named "
                                            r"'Hooked Pole' that differs from the first in value: give each entry a "
                                            r"printed symbol = \"\.\.\.\" \(copies that differ only by a symbol\), or "
                                            r"different names$"):
        hero_from_data(data, "lamp.toml")
    data["cards"][1]["value"] = data["cards"][0]["value"]          # now the same card twice
    with pytest.raises(HeroFileError, match=r"a second card named 'Hooked Pole', the same as the first: set "
                                            r"copies = N on the first instead$"):
        hero_from_data(data, "lamp.toml")
    data = _with_symbols()
    data["cards"][1]["symbol"] = "sun"
    with pytest.raises(HeroFileError, match=r"card 'Hooked Pole \(sun\)'\.symbol: a second card named 'Hooked Pole "
                                            r"\(sun\)' that differs from the first in value: give the two entries "
                                            r"different symbols \(both are \"sun\"\)"):   # (not: give each a symbol)
        hero_from_data(data, "lamp.toml")
    data["cards"][1]["symbol"] = ""
    with pytest.raises(HeroFileError, match=r"card 'Hooked Pole'\.symbol: must be a non-empty string"):
        hero_from_data(data, "lamp.toml")


@pytest.mark.nojit
def test_a_card_with_a_symbol_plays_under_its_full_name(tmp_path, monkeypatch):
    """The moon Hooked Pole (value 5) attacks Sinbad: 5 damage; narration names "Hooked Pole (moon)"."""
    from helpers.fuzz import to_toml
    monkeypatch.setenv("UNMATCHED_SIM_HEROES", str(tmp_path))
    (tmp_path / "sym.toml").write_text(to_toml(_with_symbols()), encoding="utf-8")
    out = resolve(game({"hero": "sym", "fighters": {LAMP: at("M21")}, "hand": ["Hooked Pole (moon)", "Hooked Pole (sun)"]},
                       {"hero": "sinbad", "fighters": {"Sinbad": at("M20")}}),
                  {"attack": "Hooked Pole (moon)", "by": LAMP, "target": "Sinbad", "defense": None}, ["M20"])
    assert hp(out, "Sinbad") == 15 - 5 and p0(out)["hand"] == ["Hooked Pole (sun)"]
    assert any("with Hooked Pole (moon)" in line for line in out["log"])


def test_a_variant_names_one_entry_by_its_full_name(tmp_path, monkeypatch):
    from helpers.fuzz import to_toml
    monkeypatch.setenv("UNMATCHED_SIM_HEROES", str(tmp_path))
    (tmp_path / "sym2.toml").write_text(to_toml(_with_symbols()), encoding="utf-8")
    (tmp_path / "variants").mkdir()
    v = tmp_path / "variants" / "v.toml"
    v.write_text('name = "moon"\n[hero.sym2.cards."Hooked Pole (moon)"]\nvalue = 6\n', encoding="utf-8")
    heroes = load_all(tmp_path)
    specs = apply_variant(heroes, load_variant(v, heroes))
    assert [(c.name, c.value) for c in specs["sym2"].cards if c.name.startswith("Hooked")] == [
        ("Hooked Pole (sun)", 4), ("Hooked Pole (moon)", 6)]
    v.write_text('name = "bare"\n[hero.sym2.cards."Hooked Pole"]\nvalue = 6\n', encoding="utf-8")
    with pytest.raises(VariantError, match=r"card 'Hooked Pole': no such card; valid: .*'Hooked Pole \(sun\)', "
                                           r"'Hooked Pole \(moon\)'"):
        load_variant(v, heroes)


def test_a_symbol_that_is_not_a_string_says_what_it_got():
    data = _with_symbols()
    data["cards"][0]["symbol"] = 5
    with pytest.raises(HeroFileError, match=r"\.symbol: must be a non-empty string \(.*\), got 5$"):
        hero_from_data(data, "lamp.toml")
