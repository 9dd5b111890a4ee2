"""The parts every op of the registry (``sim.engine.ops``) must have, checked against the
code that uses them: :func:`problems` lists what a registry lacks, one line per missing part,
so a test can run it on the real registry (no line) and on a copy with one part removed
(that part's line).

Parts and where each is checked (nothing here trusts the registry's own word):

* code: ``OPS[c].code == c``, one ``OP_*`` constant of ``sim.engine.codes`` per entry;
* interpreter branch: an ``op == OP_X`` branch in the handler of the op's family
  (``FAMILY_HANDLERS``), read from the source of ``sim/engine/effects.py`` (numba needs
  static branches, so they are not generated);
* compile function: an op with fields besides the shared ``amount`` / ``per`` / ``tag`` /
  ``fighter`` has one in ``sim.content.vocab.COMPILERS``;
* AI valuation: the scripted AI's card reading (``sim.content.ai_features``) gives a step
  of the op exactly the declared features, over targets and sides; an ``Exempt`` op none;
* narration: each declared event has a branch in ``sim.play.narrate``;
* checker expectation: the independent replay checker (``tests/helpers/replay/expect.py``)
  builds the declared kind of row from each README example of the op; an ``Exempt`` op none;
* README row: ``heroes/README.md``'s op tables equal the registry's rendering.
"""
from __future__ import annotations

import ast
import re
import tomllib
from pathlib import Path

import numpy as np

from sim.engine import codes as C
from sim.engine import layout as L
from sim.engine.ops import FAMILY_HANDLERS, OPS, SECTIONS, AI_FEATURES, Exempt, readme_with_tables

ROOT = Path(__file__).resolve().parents[2]
OP_EXAMPLES = ROOT / "docs" / "op_examples"
"""Homebrew hero files whose cards are the README examples of ops and fields no shipped hero uses."""


def example_hero_files() -> list[Path]:
    """The hero files README examples may cite: the shipped heroes, then those of :data:`OP_EXAMPLES`."""
    return sorted((ROOT / "heroes").glob("*.toml")) + sorted(OP_EXAMPLES.glob("*.toml"))
SHARED_FIELDS = {"amount", "per", "tag", "fighter"}   # compiled by vocab.compile_step for every op
EXAMPLE = re.compile(r"(.+?) \(([^()]+), ([a-z_]+)\): `(\{.*\})`")


def interpreter_branches() -> dict[str, set[str]]:
    """Handler function of sim/engine/effects.py -> the OP_* names it compares ``op`` with."""
    tree = ast.parse((ROOT / "sim" / "engine" / "effects.py").read_text(encoding="utf-8"))
    out = {}
    for fn in tree.body:
        if isinstance(fn, ast.FunctionDef):
            out[fn.name] = {c.comparators[0].id for c in ast.walk(fn) if isinstance(c, ast.Compare)
                            and isinstance(c.left, ast.Name) and c.left.id == "op"
                            and isinstance(c.ops[0], ast.Eq) and isinstance(c.comparators[0], ast.Name)}
    return out


def narrated_events() -> set[str]:
    """Event labels (``codes.EVENT_LABELS``) that sim/play/narrate.py tells (an ``ev == L.EV_X`` branch)."""
    text = (ROOT / "sim" / "play" / "narrate.py").read_text(encoding="utf-8")
    return {m.lower() for m in re.findall(r"ev == L\.EV_([A-Z_]+)", text)}


def ai_features_of(code: int) -> set[str]:
    """The features the AI's card reading gives one step of opcode ``code`` (amount 2, no
    condition), over every kind of target and side."""
    from sim.content.ai_features import _row_features
    names = {getattr(L, "AI_" + n.upper()): n for n in AI_FEATURES}
    seen = set()
    for sel, ref in ((C.SEL_REF, C.REF_OPPOSING), (C.SEL_REF, C.REF_SELF), (C.SEL_EACH_OWN, 0), (C.SEL_ALL, 0),
                     (C.SEL_EACH_ZONE, 0), (C.SEL_ONE_ANY, 0)):
        for side in (C.S_ANY, C.S_OPPOSING, C.S_OWN):
            row = np.zeros(L.I_FIELDS, np.int64)
            row[[L.I_OP, L.I_N, L.I_SEL, L.I_REF, L.I_SIDE, L.I_CA]] = (code, 2, sel, ref, side, 2)
            f = np.zeros(L.N_AI_FEAT)
            _row_features(row, 1.0, f)
            seen |= {names[k] for k in np.flatnonzero(f)}
    return seen


def examples(op) -> list[tuple[str, str, str, dict]]:
    """(card, hero name, window, step) of each README example of ``op``."""
    out = []
    for text in op.examples:
        m = EXAMPLE.fullmatch(text)
        out.append((m.group(1), m.group(2), m.group(3), tomllib.loads(f"x = {m.group(4)}")["x"]) if m else None)
    return out


def checker_rows(hero: str, step: dict) -> list:
    """The replay checker's expectation rows of ``step`` in a card of ``hero`` (a hero name)."""
    from helpers.replay.expect import _Hero
    from sim.play.match import installed_content
    content = installed_content((str(OP_EXAMPLES),))
    key = next(k for k, s in content.specs.items() if s.name == hero)
    return _Hero(key, content, {}).rows([step], 0, f"{hero} example")


def checker_problem(op) -> str | None:
    """What the replay checker lacks for ``op`` (None: nothing)."""
    from helpers.replay import constants as X
    from helpers.replay.constants import EF_OP
    if isinstance(op.checker, Exempt):
        for _card, hero, _window, step in examples(op):
            if checker_rows(hero, step):
                return f"{op.name}: checker marked Exempt, but the replay checker builds a row for it"
        return None if op.checker.reason else f"{op.name}: Exempt checker without a reason"
    if op.checker == "bonus_pc":    # a maneuver bonus of a hero ability: Expect.bonus_pc, not an effect row
        from helpers.replay.expect import Expect
        from sim.play.match import Match, installed_content
        hero = examples(op)[0][1]
        key = next(k for k, s in installed_content().specs.items() if s.name == hero)
        return None if Expect(Match([key, "medusa"])).bonus_pc.any() else f"{op.name}: no maneuver bonus expected"
    kind = getattr(X, op.checker, None) if op.checker.startswith("OX_") else None
    if kind is None:
        return f"{op.name}: no checker expectation (give the replay checker's OX_* kind, or Exempt with the reason)"
    for _card, hero, _window, step in examples(op):
        rows = checker_rows(hero, step)
        if not rows or rows[0][EF_OP] != kind:
            return f"{op.name}: the replay checker builds no {op.checker} row from {step}"
    return None


def problems(ops=OPS, readme: str | None = None) -> list[str]:
    """One line per part an op of ``ops`` lacks (see the module docstring); [] when complete."""
    from sim.content.vocab import COMPILERS
    out = []
    branches = interpreter_branches()
    told = narrated_events()
    for i, op in enumerate(ops):
        if op.code != i or getattr(C, op.const, None) != op.code:
            out.append(f"{op.const}: code {op.code} is not its position {i} or not codes.{op.const}")
        if op.internal:
            continue
        handler = FAMILY_HANDLERS.get(op.family)
        if handler is None or op.const not in branches.get(handler, set()):
            out.append(f"{op.name}: no interpreter branch 'op == {op.const}' in effects.{handler}")
        if {f.name for f in op.fields} - SHARED_FIELDS and op.name not in COMPILERS:
            out.append(f"{op.name}: fields of its own but no compile function in vocab.COMPILERS")
        if isinstance(op.ai, Exempt):
            if not op.ai.reason or ai_features_of(op.code):
                out.append(f"{op.name}: AI marked Exempt but valued {sorted(ai_features_of(op.code))} (or no reason)")
        elif not op.ai or set(op.ai) != ai_features_of(op.code):
            out.append(f"{op.name}: AI valuation declared {list(op.ai)}, the AI's card reading gives "
                       f"{sorted(ai_features_of(op.code))} (an op it does not read is valued at 0: Exempt it)")
        if isinstance(op.narration, Exempt):
            if not op.narration.reason:
                out.append(f"{op.name}: Exempt narration without a reason")
        elif not op.narration or set(op.narration) - told:
            out.append(f"{op.name}: narration {list(op.narration)}: no events given, or not told by narrate.py "
                       f"({sorted(set(op.narration) - told)})")
        if problem := checker_problem(op):
            out.append(problem)
        if op.section not in SECTIONS or not op.meaning or not op.examples or None in examples(op):
            out.append(f"{op.name}: README row incomplete (section, meaning, examples 'Card (Hero, window): `{{...}}`')")
    text = (ROOT / "heroes" / "README.md").read_text(encoding="utf-8") if readme is None else readme
    if readme_with_tables(text, ops) != text:
        out.append("heroes/README.md: the op tables differ from the registry's rendering "
                   "(run: python -m sim.engine.ops --write)")
    return out
