"""heroes/README.md documents every effect op with a real example, so it cannot rot.

Every op the vocabulary accepts (``sim.content.vocab.OPS``) has a row in the README's
"Ops" tables, and every example there, written ``Card (Hero, window): `{ op = ... }```, is
a step of that card (or that hero's ability hook) in the shipped hero files, compared as
parsed TOML. Conditions and multipliers are all named too.
"""
import re
import tomllib
from pathlib import Path

import pytest

from sim.content.vocab import CONDITIONS, OPS, PER

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "heroes" / "README.md").read_text(encoding="utf-8")
OPS_SECTION = README[README.index("### Ops\n"):README.index("### Targets\n")]
ROW = re.compile(r"^\| `([a-z_]+)` \|(.*)\|\s*$", re.M)
EXAMPLE = re.compile(r"([^;|]+?) \(([^,()]+(?:, [^,()]+)*?), ([a-z_]+)\): `(\{.*?\})`")


def _rows() -> dict:
    rows = {}
    for op, rest in ROW.findall(OPS_SECTION):
        assert op not in rows, f"op {op} has two rows"
        rows[op] = rest.split("|")[-1]
    return rows


def _heroes() -> dict:
    out = {}
    for f in sorted((ROOT / "heroes").glob("*.toml")):
        d = tomllib.loads(f.read_text(encoding="utf-8"))
        out[d["name"]] = d
    return out


def _steps(steps):
    for s in steps:
        if isinstance(s, dict):
            yield s
            for opt in s.get("options", []) if s.get("op") == "choose" else []:
                yield from _steps(opt)


def test_every_op_of_the_vocabulary_has_a_row_and_no_row_is_stale():
    rows = _rows()
    assert sorted(rows) == sorted(OPS), (f"missing: {sorted(set(OPS) - set(rows))}; "
                                         f"not in the vocabulary: {sorted(set(rows) - set(OPS))}")


@pytest.mark.nojit
def test_every_example_is_a_step_of_that_card():
    heroes = _heroes()
    for op, example_col in _rows().items():
        examples = EXAMPLE.findall(example_col)
        assert examples, f"op {op}: no example `Card (Hero, window): {{ op = ... }}` in its row"
        for card, hero, window, text in examples:
            card = card.strip()
            step = tomllib.loads(f"x = {text}")["x"]
            assert step["op"] == op, f"op {op}: the example of {card} is a {step['op']} step"
            assert hero in heroes, f"op {op}: no hero named {hero!r}"
            d = heroes[hero]
            sources = [c for c in d.get("cards", []) if c["name"] == card]
            if d.get("ability", {}).get("name") == card:
                sources.append(d["ability"])
            assert sources, f"op {op}: {hero} has no card or ability named {card!r}"
            found = [s for src in sources for s in _steps(src.get(window, []))]
            assert step in found, f"op {op}: {card} ({hero}) has no step {text} in {window}; it has {found}"


def test_conditions_and_multipliers_are_named():
    for name in list(CONDITIONS) + list(PER):
        assert f"`{name}`" in README or f'"{name}"' in README, f"{name} is not documented in heroes/README.md"
