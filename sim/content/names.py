"""How heroes and battlefields are named on the command line: the form names are matched in."""
from __future__ import annotations

import re


def name_form(name: str) -> str:
    """A hero or battlefield name in the form names are matched in
    (``sim.content.compile.Content.resolve_hero``, ``sim.content.battlefields.resolve_battlefield``):
    lower case, every run of other characters than letters and digits one ``_``, none at
    the ends (``"King Arthur"``, ``"KING_ARTHUR"`` and ``"king-arthur"`` all give
    ``"king_arthur"``)."""
    return re.sub(r"[^0-9a-z]+", "_", str(name).casefold()).strip("_")
