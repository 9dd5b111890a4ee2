"""The op registry (``sim.engine.ops``, issue 35): every op has every part, and the check
that says so fails when a part is missing.

The parts (interpreter branch, compile function, AI valuation, narration, replay-checker
expectation, README row, code) are checked against the code that uses them by
``tests/helpers/op_registry.py``; here: the real registry passes, a registry with one part
removed or wrong fails on that part, and the registry's fields (choices, defaults,
required) agree with what the compiler does with a real hero file.
"""
import copy
import dataclasses
import re
from pathlib import Path

import pytest
from helpers.op_registry import example_hero_files, examples, problems

from sim.content.heroes import HeroFileError, hero_from_data, read_hero_data
from sim.engine import codes as C
from sim.engine.ops import BY_NAME, FAM_TURN, OPS, Exempt, Field

ROOT = Path(__file__).resolve().parents[1]


def test_every_op_has_every_part():
    assert problems() == []


def test_the_codes_are_the_registry():
    assert C.N_OPS == len(OPS) == 48
    assert [(o.const, o.code) for o in OPS] == sorted(((k, v) for k, v in vars(C).items()
                                                       if k.startswith("OP_") and k != "OP_LABELS"), key=lambda kv: kv[1])
    assert (C.OP_NOP, C.OP_DAMAGE, C.OP_BRANCH, C.OP_HAND_TO_DECK) == (0, 2, 28, 44)   # the numbers games were played with
    assert (C.OP_TO_HAND, C.OP_ARRANGE_TOP, C.OP_BECOME_DEFENDER) == (45, 46, 47)   # ops added since are appended (issue 35)


def _without(name, **change):
    """The registry with op ``name``'s entry changed (a part removed or made wrong)."""
    return tuple(dataclasses.replace(o, **change) if o.name == name else o for o in OPS)


# (op, change, the start of the line that must report it)
MISSING = [
    ("recover", {"family": FAM_TURN}, "recover: no interpreter branch 'op == OP_RECOVER' in effects.run_turn_op"),
    ("end_turn", {"fields": (Field("amount", default=1), Field("whom"))},
     "end_turn: fields of its own but no compile function"),
    ("recover", {"ai": ()}, "recover: AI valuation declared []"),
    ("recover", {"ai": ("dmg",)}, "recover: AI valuation declared ['dmg'], the AI's card reading gives ['recover']"),
    ("recover", {"ai": Exempt("not valued")}, "recover: AI marked Exempt but valued ['recover']"),
    ("end_turn", {"ai": ("other",)}, "end_turn: AI valuation declared ['other'], the AI's card reading gives []"),
    ("recover", {"narration": ()}, "recover: narration []"),
    ("recover", {"narration": ("heal",)}, "recover: narration ['heal']: no events given, or not told by narrate.py (['heal'])"),
    ("recover", {"checker": ""}, "recover: no checker expectation"),
    ("recover", {"checker": "OX_DAMAGE"}, "recover: the replay checker builds no OX_DAMAGE row"),
    ("draw", {"checker": "OX_DRAW"}, "draw: no checker expectation"),
    ("recover", {"checker": Exempt("unchecked")}, "recover: checker marked Exempt, but the replay checker builds a row"),
    ("recover", {"examples": ()}, "recover: README row incomplete"),
    ("recover", {"meaning": "heal"}, "heroes/README.md: the op tables differ from the registry's rendering"),
    ("recover", {"code": 99}, "OP_RECOVER: code 99 is not its position 7"),
]


@pytest.mark.parametrize("name, change, line", MISSING, ids=[f"{m[0]}-{next(iter(m[1]))}" for m in MISSING])
def test_a_missing_or_wrong_part_is_caught(name, change, line):
    found = problems(_without(name, **change))
    assert any(p.startswith(line) for p in found), found
    # only that op's part (and the README table, whose row shows the op) is reported
    assert all(p.startswith((name, BY_NAME[name].const, "heroes/README.md")) for p in found), found


def test_a_readme_table_edited_by_hand_is_caught():
    readme = (ROOT / "heroes" / "README.md").read_text(encoding="utf-8")
    edited = readme.replace("recover health, never above the starting health", "recover health")
    assert edited != readme
    assert problems(readme=edited) == ["heroes/README.md: the op tables differ from the registry's rendering "
                                       "(run: python -m sim.engine.ops --write)"]


def _replace_step(node, old, new):
    """Replace the step equal to ``old`` (the first) inside the hero data ``node``; True if done."""
    items = node.items() if isinstance(node, dict) else enumerate(node) if isinstance(node, list) else ()
    for k, v in items:
        if v == old and isinstance(v, dict) and "op" in v:
            node[k] = new
            return True
        if _replace_step(v, old, new):
            return True
    return False


def _compile_example(op, example, step):
    """The hero of ``example`` loaded with that example's step replaced by ``step``: (card
    programs, hooks) as lists, or the HeroFileError message."""
    _card, hero, _window, original = example
    path = next(p for p in example_hero_files() if read_hero_data(p)["name"] == hero)
    data = copy.deepcopy(read_hero_data(path))
    assert _replace_step(data, original, step), (op.name, original)
    try:
        spec = hero_from_data(data, path)
    except HeroFileError as e:
        return str(e)
    return ([{w: p.tolist() for w, p in c.programs.items()} for c in spec.cards],
            {h: p.tolist() for h, p in spec.hooks.items()})


CHOICES = [(op, f) for op in OPS if not op.internal for f in op.fields if f.choices]


@pytest.mark.parametrize("op, field", CHOICES, ids=[f"{o.name}.{f.name}" for o, f in CHOICES])
def test_the_choices_of_a_field_are_those_the_compiler_takes(op, field):
    """Each listed choice compiles in some README example of the op; any other word is refused in
    one line naming the field and every choice."""
    ok = [ex for ex in examples(op)
          if all(not isinstance(_compile_example(op, ex, {**ex[3], field.name: c}), str) for c in field.choices)]
    assert ok, f"{op.name}.{field.name}: no example compiles with every choice {field.choices}"
    message = _compile_example(op, ok[0], {**ok[0][3], field.name: "bogus"})
    assert isinstance(message, str) and "\n" not in message
    assert re.search(rf"\.{field.name}: ", message) and all(c in message for c in field.choices), message


DEFAULTS = [(op, f) for op in OPS if not op.internal for f in op.fields
            if not f.required and f.default is not None]


@pytest.mark.parametrize("op, field", DEFAULTS, ids=[f"{o.name}.{f.name}" for o, f in DEFAULTS])
def test_a_default_is_what_the_compiler_does_without_the_field(op, field):
    """A README example compiles the same with the field left out and with the registry's default."""
    for ex in examples(op):
        without = {k: v for k, v in ex[3].items() if k != field.name}
        a, b = _compile_example(op, ex, without), _compile_example(op, ex, {**without, field.name: field.default})
        if not isinstance(a, str):
            assert a == b, f"{op.name}.{field.name}: left out is not the default {field.default!r}"
            return
    pytest.fail(f"{op.name}.{field.name}: no example compiles without the field")


REQUIRED = [(op, f) for op in OPS if not op.internal for f in op.fields if f.required]


@pytest.mark.parametrize("op, field", REQUIRED, ids=[f"{o.name}.{f.name}" for o, f in REQUIRED])
def test_a_required_field_left_out_is_refused_naming_it(op, field):
    ex = examples(op)[0]
    message = _compile_example(op, ex, {k: v for k, v in ex[3].items() if k != field.name})
    assert isinstance(message, str) and "\n" not in message, message
    assert f".{field.name}: missing required field '{field.name}' of op '{op.name}'" in message or (
        op.name == "move" and field.name == "up_to" and "needs 'up_to'" in message), message
