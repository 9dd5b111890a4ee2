"""The larger fuzzing run from the command line (issue 24): thousands of random structural edits
of the shipped hero, battlefield, variant and AI profile files (the property of tests/test_fuzz.py,
tests/helpers/fuzz.py), counted: files tried, loaded (and played), refused with a one-line error,
and tracebacks (each kind of traceback once, with the edits that caused it)::

    nice -n 19 .venv/bin/python tests/fuzz.py --examples 2500 --out fuzz.json

Exits 1 if any edited file gave a traceback."""
from __future__ import annotations

import argparse
import json
import re
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from helpers.fuzz import KINDS, games_played, tally  # noqa: E402
from hypothesis import HealthCheck, Phase, given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402
from test_fuzz import fuzz_case  # noqa: E402


def _signature(message: str) -> str:
    """What a traceback is (exception type and the innermost project frame), to count each once."""
    frames = re.findall(r'File "[^"]*/((?:sim|reports|heroes)/[^"]+)", line (\d+)', message)
    last = message.strip().splitlines()[-1] if message.strip() else ""
    return f"{frames[-1][0]}:{frames[-1][1]} {last.split(':')[0]}" if frames else last[:120]


def _run_kind(kind: str, examples: int, seed_value: int, outcomes: list) -> None:
    """``examples`` edited files of ``kind`` (hypothesis seed ``seed_value``), appended to ``outcomes``."""
    from hypothesis import seed

    # generate only: no shrinking (every outcome is recorded, none raises) and no example database
    @seed(seed_value)
    @settings(max_examples=examples, deadline=None, database=None, phases=[Phase.generate],
              suppress_health_check=list(HealthCheck))
    @given(data=st.data())
    def run(data):
        outcomes.append(fuzz_case(data, kind))

    run()


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--examples", type=int, default=2500, help="edited files per kind (default 2500)")
    ap.add_argument("--seed", type=int, default=24, help="hypothesis seed (default 24)")
    ap.add_argument("--kinds", default=",".join(KINDS), help="comma-separated: " + ", ".join(KINDS))
    ap.add_argument("--out", type=Path, default=None, help="write the counts and tracebacks as JSON here")
    a = ap.parse_args(argv)
    outcomes, kinds = [], [k for k in a.kinds.split(",") if k]
    t0 = time.perf_counter()
    for kind in kinds:
        _run_kind(kind, a.examples, a.seed, outcomes)
        t = tally(outcomes)[kind]
        print(f"{kind}: {t['tried']} tried, {t['loaded']} loaded, {t['refused']} refused, {t['traceback']} tracebacks "
              f"({time.perf_counter() - t0:.0f} s)", flush=True)
    t = tally(outcomes)
    sigs: dict = {}
    for o in outcomes:
        if o.status == "traceback":
            sigs.setdefault(_signature(o.message), []).append(o)
    print(f"all: {t['all']['tried']} files tried, {t['all']['loaded']} loaded ({games_played(outcomes)} games played), "
          f"{t['all']['refused']} refused, {t['all']['traceback']} tracebacks; {time.perf_counter() - t0:.0f} s")
    for sig, os_ in sorted(sigs.items(), key=lambda kv: -len(kv[1])):
        o = os_[0]
        print(f"  {len(os_)} x {sig}: {o.kind} {o.source} after {o.edits}")
        print("    " + o.message.strip().splitlines()[-1][:300])
    if a.out is not None:
        a.out.write_text(json.dumps({"counts": t, "games": games_played(outcomes), "seconds": time.perf_counter() - t0,
                                     "tracebacks": {s: [{"kind": o.kind, "source": o.source, "edits": o.edits,
                                                         "message": o.message} for o in v[:5]]
                                                    for s, v in sigs.items()}}, indent=1))
    return 1 if t["all"]["traceback"] else 0


if __name__ == "__main__":
    sys.exit(main())
