"""Golden seeded duels: one per battlefield, narration stored and diffed.

A change in the rules, the random policy or the random numbers changes these
files. Regenerate them deliberately with ``UPDATE_GOLDEN=1 python -m pytest
tests/test_golden.py`` and review the diff.
"""
import os
from pathlib import Path

import pytest

from sim.content.battlefields import list_battlefields
from sim.play.match import Match
from sim.play.narrate import narrate

GOLDEN = Path(__file__).parent / "golden"


@pytest.mark.parametrize("battlefield", list_battlefields())
def test_golden_duel(battlefield):
    g = Match(["medusa", "sinbad"], battlefield=battlefield).play(seed=1)
    text = "\n".join(narrate(g)) + "\n"
    path = GOLDEN / f"medusa_sinbad_{battlefield}_seed1.txt"
    if os.environ.get("UPDATE_GOLDEN"):
        path.write_text(text)
    expected = path.read_text()
    assert text == expected, f"narration of {path.name} changed; see UPDATE_GOLDEN in this file's docstring"
    assert text.splitlines()[-2].startswith("Game over")
