"""Engine code loaded (or compiled) in a short-lived child process (sim.runs.apart): the call
runs there, its compile notice and count come back here, a failure is a False (the caller
then makes the call itself), and the child ends with the caller's error or interrupt. A run
played by workers never loads the run code in the command's own process."""
import functools
import os
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from sim.engine import sigs
from sim.runs.apart import ready_apart, start_apart
from sim.runs.backend import usable_cores

ROOT = Path(__file__).resolve().parent.parent


def test_the_call_runs_in_another_process(tmp_path):
    """The child makes the call (here it writes its pid) and the answer is True."""
    out = tmp_path / "pid.txt"
    code = f"import os; open({str(out)!r}, 'w').write(str(os.getpid()))"
    assert ready_apart(functools.partial(exec, code)) is True
    pid = int(out.read_text())
    assert pid != os.getpid() and pid > 0


def test_the_childs_compile_notice_and_count_come_back_here(monkeypatch):
    """When the child starts compiling, this process's first-compile callbacks run (once), and
    the functions the child compiled count in this process's COMPILE_STATS. (The compile is
    simulated in the child: it announces one and counts three.)"""
    monkeypatch.setattr(sigs, "_ON_FIRST_COMPILE", [])
    monkeypatch.setitem(sigs.COMPILE_STATS, "compiled", 5)
    said = []
    sigs.on_first_compile(lambda: said.append("notice"))
    code = "from sim.engine import sigs; sigs.announce_first_compile(); sigs.COMPILE_STATS['compiled'] += 3"
    assert ready_apart(functools.partial(exec, code)) is True
    assert said == ["notice"] and sigs.COMPILE_STATS["compiled"] == 8
    assert sigs._ON_FIRST_COMPILE == []           # (said once: a later compile here says nothing)


def test_a_call_that_fails_or_cannot_be_sent_is_false_and_counts_nothing(monkeypatch):
    monkeypatch.setitem(sigs.COMPILE_STATS, "compiled", 0)
    assert ready_apart(int, "not a number") is False            # ValueError in the child
    assert ready_apart(lambda: None) is False                   # cannot be pickled: no child
    assert ready_apart(functools.partial(exec, "import os; os._exit(3)")) is False   # died
    assert sigs.COMPILE_STATS["compiled"] == 0


def test_the_child_ends_when_the_caller_stops_or_fails():
    """stop() ends a child still running; leaving the ``with`` block by an error ends it too."""
    job = start_apart(time.sleep, 60)
    assert job.proc.poll() is None
    t = time.perf_counter()
    job.stop()
    assert job.proc.poll() is not None and time.perf_counter() - t < 30
    assert job.wait() is False
    with pytest.raises(KeyboardInterrupt):
        with start_apart(time.sleep, 60) as job:
            raise KeyboardInterrupt
    assert job.proc.poll() is not None


@pytest.mark.skipif(usable_cores() < 2, reason="a run on one core plays in the command's process")
def test_a_run_played_by_workers_never_loads_the_run_code_in_this_process(tmp_path):
    """A matrix on two loky workers: the run code is readied in a child and loaded by the
    workers, never in the driver (its dispatcher stays unloaded there), and the report's
    replays load the replay code here from the cache the child filled. Same games as one
    process playing them all."""
    code = textwrap.dedent(f"""
        from sim.engine.game import play_games_plain
        from sim.play.replay import play_turns
        from sim.runs.matrix import run_matrix
        from sim.runs.store import read_games
        from reports import build_report
        run_matrix({str(tmp_path / 'two')!r}, 8, heroes=["medusa", "sinbad"], battlefields=["soho"], jobs=2)
        print(play_games_plain.is_ready(), play_turns.is_ready())
        build_report({str(tmp_path / 'two')!r})
        print(play_games_plain.is_ready(), play_turns.is_ready())
        run_matrix({str(tmp_path / 'one')!r}, 8, heroes=["medusa", "sinbad"], battlefields=["soho"], jobs=1)
        cols = ["seed", "winner", "turns", "p1_health", "p2_health"]
        two, one = (read_games({str(tmp_path)!r} + f"/{{d}}")[cols].values.tolist()
                    for d in ("two", "one"))
        print(two == one and len(two) == 8 * 3)
    """)
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=900,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)))
    assert r.returncode == 0, r.stderr
    assert r.stdout.split() == ["False", "False", "False", "True", "True"], r.stdout + r.stderr
