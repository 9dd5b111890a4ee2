"""The benchmark suite: ``python -m pytest tests/bench -m bench`` (pytest-benchmark).

Not part of the default run (``-m "not bench"`` in pyproject.toml): the first run
compiles the harness loops (a few minutes). At the end it prints microseconds per
step; nothing asserts a time. ``--benchmark-timer time.process_time`` measures CPU
time, steadier on a shared machine.
"""


def pytest_terminal_summary(terminalreporter):
    import sys
    figures = getattr(sys.modules.get("bench.bench_harness"), "FIGURES", None)
    if not figures:
        return
    tr = terminalreporter
    tr.section("engine hot steps (per step, restoring the position included)")
    for name, best, med, reps in figures:
        tr.write_line(f"{name:<34} best {best:9.2f} us   median {med:9.2f} us   ({reps} steps per round)")
