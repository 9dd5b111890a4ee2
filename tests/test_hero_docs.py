"""heroes/README.md documents every effect op with a real example, so it cannot rot.

Every op the vocabulary accepts (``sim.content.vocab.OPS``) has a row in the README's
"Ops" tables, and every example there, written ``Card (Hero, window): `{ op = ... }```, is
a step of that card (or that hero's ability hook) in the shipped hero files (or in the homebrew
Exemplar of ``docs/op_examples``, for what no shipped hero uses), compared as parsed TOML. Conditions and multipliers are all named too.
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
    """Hero name -> parsed file: the shipped heroes and the homebrew examples of docs/op_examples
    (the cards that show what no shipped hero uses)."""
    out = {}
    for f in sorted((ROOT / "heroes").glob("*.toml")) + sorted((ROOT / "docs" / "op_examples").glob("*.toml")):
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


def _fields(column: str) -> tuple[set, set, list]:
    """(required, optional, one-of pairs) of an Ops row's fields column: items separated by
    commas outside parentheses; ``name``? (or an item ending in ``?``) is optional,
    ``a`` or ``b`` is a pair of which exactly one is needed."""
    items, depth, cur = [], 0, ""
    for ch in column:
        depth += ch in "({"
        depth -= ch in ")}"
        if ch == "," and depth == 0:
            items.append(cur)
            cur = ""
        else:
            cur += ch
    items.append(cur)
    required, optional, pairs = set(), set(), []
    for item in (i.strip() for i in items if i.strip()):
        pair = re.fullmatch(r"`([a-z_]+)` or `([a-z_]+)`.*", item)
        if pair:
            pairs.append((pair.group(1), pair.group(2)))
            continue
        name = re.match(r"`([a-z_]+)", item).group(1)
        (optional if item.endswith("?") or item.startswith(f"`{name}`?") else required).add(name)
    return required, optional, pairs


def test_required_and_optional_fields_are_those_the_compiler_enforces():
    """Each op's row lists exactly the fields of ``OPS``; the unmarked ones are ``REQUIRED``
    (a pair written ``a`` or ``b`` is ``ONE_OF``), the ones marked ``?`` optional."""
    from sim.content.vocab import ONE_OF, REQUIRED
    for op, rest in ROW.findall(OPS_SECTION):
        column = rest.split("|")[0]
        required, optional, pairs = _fields(column)
        assert required == set(REQUIRED.get(op, ())), (op, required, REQUIRED.get(op))
        assert pairs == ([ONE_OF[op]] if op in ONE_OF else []), (op, pairs)
        listed = required | optional | {k for p in pairs for k in p}
        assert listed == OPS[op][1], (op, sorted(listed ^ OPS[op][1]))
