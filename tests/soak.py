"""The soak run from the command line (issue 24): the independent replay checker over a million
random-policy games and a hundred thousand standard-AI games across every hero pair, battlefield
and loadout, plus team games. Prints games checked per policy, violations and the seed (with a
replay line) of any failing game, and writes them as JSON::

    nice -n 19 .venv/bin/python tests/soak.py --random 1000000 --standard 100000 --teams 1000 --out soak.json

The test suite runs a small slice of the same code (tests/test_soak.py). Exits 1 if any game
broke an invariant."""
from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers.replay.soak import dump, report_lines, soak  # noqa: E402


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--random", type=int, default=1_000_000, help="random-policy duels (default 1,000,000)")
    ap.add_argument("--standard", type=int, default=100_000, help="standard-AI duels (default 100,000)")
    ap.add_argument("--teams", type=int, default=500, help="team games per policy (default 500)")
    ap.add_argument("--seed", type=int, default=24, help="run seed (default 24)")
    ap.add_argument("--out", type=Path, default=None, help="write the figures and failing seeds as JSON here")
    a = ap.parse_args(argv)
    t0 = time.perf_counter()
    result = soak(a.random, a.standard, a.teams, a.seed, say=lambda line: print(line, flush=True))
    result["seconds"] = round(time.perf_counter() - t0, 1)
    for line in report_lines(result):
        print(line, flush=True)
    print(f"total {result['seconds']:.0f} s", flush=True)
    if a.out is not None:
        dump(result, a.out)
    return 1 if result["failures"] else 0


if __name__ == "__main__":
    sys.exit(main())
