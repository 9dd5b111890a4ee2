"""Shared test fixtures."""
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

_GROUP = '''
[[choice_groups]]
name = "bow"
options = ["long", "short"]

[[cards]]
name = "Long Shot"
type = "attack"
value = 5
boost = 2
copies = 2
fighter = "Gorgon"
group = "bow"
option = "long"
text = "A long bow."

[[cards]]
name = "Short Shot"
type = "attack"
value = 2
boost = 2
copies = 2
fighter = "Gorgon"
group = "bow"
option = "short"
text = "A short bow."
'''


def write_gorgon(folder) -> Path:
    """Write a homebrew hero file ``folder/gorgon.toml`` (key 'gorgon'): Medusa renamed,
    with a choice group 'bow' (loadouts 'long' and 'short', two cards each) in place of
    two Second Shots. Returns its path."""
    text = (ROOT / "heroes" / "medusa.toml").read_text(encoding="utf-8")
    text = text.replace('name = "Medusa"', 'name = "Gorgon"').replace('"Medusa"', '"Gorgon"')
    head, sep, rest = text.partition('name = "Second Shot"')
    rest = rest.replace("copies = 3", "copies = 1", 1)
    text = head + sep + rest + _GROUP
    path = Path(folder) / "gorgon.toml"
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def gorgon(tmp_path):
    """Path of the homebrew hero file written by :func:`write_gorgon`."""
    return write_gorgon(tmp_path)
