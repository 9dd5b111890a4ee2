"""Every op's required fields are required (issue 24, item 1).

A step without a required field used to validate and then act on a guessed default:
``{ op = "damage", amount = 2 }`` damaged the card's own hero. Now every field
``sim.content.vocab.REQUIRED`` lists (and heroes/README.md shows unmarked) is checked, and a
step without it is a one-line HeroFileError naming the file, the card and the field.
"""
import copy
import tomllib
from pathlib import Path

import pytest

from sim.content.heroes import HeroFileError, hero_files, hero_from_data, load_hero
from sim.content.vocab import REQUIRED

pytestmark = pytest.mark.nojit


def _steps(where, steps):
    """(path of the step list inside the card or ability, index, step) for every step,
    those inside ``choose`` options included."""
    for i, s in enumerate(steps if isinstance(steps, list) else []):
        if isinstance(s, dict):
            yield where, i, s
            if s.get("op") == "choose":
                for k, opt in enumerate(s.get("options", [])):
                    yield from _steps(f"{where}[{i}].options[{k}]", opt)


def _shipped_cases():
    """(file, data, owner label, owner table getter, window, step index path, op, field) for
    every required field of every shipped step (and of the op examples of docs/op_examples, for
    the ops no shipped hero uses)."""
    examples = sorted((Path(__file__).resolve().parents[1] / "docs" / "op_examples").glob("*.toml"))
    for f in hero_files() + examples:
        data = tomllib.loads(f.read_text(encoding="utf-8"))
        owners = [(f"card {c['name']!r}", ("cards", j)) for j, c in enumerate(data["cards"])]
        owners.append(("ability", ("ability",)))
        for label, key in owners:
            table = data[key[0]][key[1]] if len(key) == 2 else data[key[0]]
            for window, steps in table.items():
                for where, i, s in _steps(window, steps):
                    for fld in REQUIRED.get(s["op"], ()):
                        if fld == "up_to" and s.get("onto") == "fog":
                            continue
                        if fld in s:
                            yield f, label, key, window, where, i, s, fld


CASES = list(_shipped_cases())


def test_cases_cover_every_op_with_a_required_field():
    ops = {c[6]["op"] for c in CASES}
    assert ops == set(REQUIRED), sorted(set(REQUIRED) - ops)
    assert len(CASES) > 150


def _find(table, where, i):
    """The step list of ``where`` (``after`` or ``after[0].options[1]``-style path) in ``table``."""
    parts = where.replace("]", "").replace("[", ".").split(".")
    cur = table[parts[0]]
    rest = parts[1:]
    while rest:
        j, _, k = int(rest[0]), rest[1], int(rest[2])
        cur = cur[j]["options"][k]
        rest = rest[3:]
    return cur[i]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"{c[0].stem}-{c[1]}-{c[4]}[{c[5]}]-{c[7]}")
def test_a_shipped_step_without_a_required_field_is_refused(case):
    f, label, key, window, where, i, step, fld = case
    data = tomllib.loads(f.read_text(encoding="utf-8"))
    table = data[key[0]][key[1]] if len(key) == 2 else data[key[0]]
    del _find(table, where, i)[fld]
    with pytest.raises(HeroFileError) as e:
        hero_from_data(data, f)
    msg = str(e.value)
    assert "\n" not in msg
    assert msg.startswith(f"{f.name}: {label}.{where}[{i}].{fld}: missing required field '{fld}' of op "
                          f"'{step['op']}'"), msg


def test_damage_without_target_is_refused_not_dealt_to_the_own_hero(tmp_path):
    """The issue's case: King Arthur's Excalibur with ``{ op = "damage", amount = 2 }``."""
    src = (hero_files()[0].parent / "king_arthur.toml").read_text(encoding="utf-8")
    data = tomllib.loads(src)
    data = copy.deepcopy(data)
    card = next(c for c in data["cards"] if c["name"] == "Excalibur")
    card["after"] = [{"op": "damage", "amount": 2}]
    with pytest.raises(HeroFileError) as e:
        hero_from_data(data, tmp_path / "king_arthur.toml")
    assert str(e.value).startswith("king_arthur.toml: card 'Excalibur'.after[0].target: missing required field "
                                   "'target' of op 'damage' (whom the step acts on; valid: 'self', 'opposing', "
                                   "'each own', 'combatant', 'opponent_hero', 'moved', 'King Arthur', 'Merlin', ")


def test_a_step_with_every_required_field_still_loads():
    for f in hero_files():
        assert load_hero(f).cards
