"""Hero data files (one TOML file per hero) and the folder the loader reads.

See ``heroes/README.md`` for the file format and the effect vocabulary; the
loader and validator live in :mod:`sim.content.heroes`.
"""
from pathlib import Path

HERO_DIR = Path(__file__).resolve().parent
