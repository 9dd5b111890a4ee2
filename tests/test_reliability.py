"""Issue 24, reliability: no silently wrong result, no lost or mixed-up run.

One test (or a few) per numbered item of the issue, each reproducing what broke:
2 an unfinished run's report, 3 a deleted spaces file, 5 variants that change no hero of the
run and heroes of one name, 5b one definition of each strength figure, 6 a lock per run
folder, 7 ``kill -9`` of the command, 8 a lost loky worker, 9 a full disk, 10 a damaged
manifest, 11 limits and estimates before a run, 12 a bad homebrew file.
(Item 1 is tests/test_required_fields.py, item 4 the narration asserts in
tests/test_cards_geralt.py and tests/test_cards_ciri.py, item 13 tests/test_cli.py.)
"""
from __future__ import annotations

import errno
import json
import logging
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path

import pandas as pd
import pytest
from helpers.procs import children
from click.testing import CliRunner

from sim.cli import main
from sim.runs.errors import RunInterrupted
from sim.runs.lock import RunLocked, lock_holder, run_lock
from sim.runs.matrix import plan_run, run_matrix
from sim.runs.store import MANIFEST, MANIFEST_BACKUP, read_games, read_manifest, read_spaces, run_progress

ROOT = Path(__file__).resolve().parents[1]
SMALL = {"games": 40, "heroes": ["medusa", "sinbad", "alice"], "battlefields": ["soho"], "seed": 5}
ARGS = ["--games", "40", "--heroes", "medusa,sinbad,alice", "-b", "soho", "--seed", "5", "--chunk-size", "7"]
PROC = Path("/proc")
_children = children   # (tests/helpers/procs.py)


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def whole(tmp_path_factory):
    """A complete small run (3 heroes, Soho, 40 games per pair, chunks of 7), its games and
    space counters: the reference every damaged or interrupted run must come back to."""
    d = tmp_path_factory.mktemp("whole") / "run"
    run_matrix(d, chunk_size=7, jobs=1, **SMALL)
    return d, read_games(d), read_spaces(d)


def _stop():
    raise KeyboardInterrupt


def _half_run(d, games_before_stop=120):
    """Play the small run into ``d`` and stop it (Ctrl-C) once ``games_before_stop`` are stored."""
    with pytest.raises(RunInterrupted):
        run_matrix(d, chunk_size=7, jobs=1, task_games=7, after_chunk=lambda n, g: g >= games_before_stop and _stop(),
                   **SMALL)


# ------------------------------------------------------------------ 2: an unfinished run's report


def test_unfinished_report_says_so_first_and_every_score_is_inside_its_interval(tmp_path):
    from reports import build_report
    d = tmp_path / "half"
    _half_run(d)
    rep = build_report(d)
    first = rep.summary.splitlines()[0]
    assert first.startswith("UNFINISHED RUN: 127 of 240 games stored; its command ended interrupted"), first
    assert re.search(r"\n(1 matchup has|\d+ matchups have) fewer games than planned", rep.summary), rep.summary
    st = rep.tables["strength"]
    # the one score, pooled from the stored games, always inside its own interval
    assert ((st["lo"] <= st["score"]) & (st["score"] <= st["hi"])).all()
    g = read_games(d)
    assert len(g) == 127 and st["games"].sum() == 2 * int((g["p1_hero"] != g["p2_hero"]).sum())
    html = rep.html.read_text()
    assert "UNFINISHED RUN: 127 of 240 games stored" in html
    assert "<td class=\"txt\">unfinished: 127 of 240 games stored" in html
    assert ">complete<" not in html


def test_report_on_a_run_with_no_game_stored_yet_says_why_in_one_line(whole, tmp_path):
    """While its command plays a run and has stored no game yet (it holds the lock, the
    manifest says running), `report` and `diff` say so in one line, without the unfinished
    run's warning; once that command is gone, the line says it was stopped and how to play it."""
    from sim.runs.drive import _prepare_folder
    d = tmp_path / "run"
    plan = plan_run(d, chunk_size=7, **SMALL)
    busy = "no finished games yet: the command playing it has stored none so far; try again in a moment"
    with run_lock(d):
        _prepare_folder(plan)        # what the command has written before its first task is stored
        r = cli("report", d)
        assert r.exit_code == 1 and r.output == f"Error: cannot build the report of {d}: {busy}\n"
        r = cli("diff", d, whole[0])
        assert r.exit_code == 1 and r.output == f"Error: {d}: {busy}\n"
    r = cli("report", d)
    assert r.exit_code == 1 and r.output == (
        f"Error: cannot build the report of {d}: no finished games yet (0 of 240 games stored; its command was "
        "stopped or killed); rerun its `unmatched-sim matrix` command to play it\n")


def test_a_deleted_games_file_is_not_reported_complete(whole, tmp_path):
    """The manifest says complete, a games file is gone: the report, the `report` command's
    warning and `diff` apply the same rule and say it is unfinished."""
    from sim.runs.store import compact
    d2 = tmp_path / "run"
    _half_run(d2, 240)                        # every game stored (stopped before the manifest said so)
    compact(d2, rows_per_file=60)             # as a big run's compacted files
    files = sorted((d2 / "games").glob("compact-*.parquet"))
    assert len(files) >= 3
    m = read_manifest(d2)
    m["status"] = "complete"
    (d2 / MANIFEST).write_text(json.dumps(m))
    files[0].unlink()                         # a games file deleted afterwards
    prog = run_progress(d2)
    n = prog.games_stored
    assert 0 < n < 240 and not prog.complete and prog.status == "unfinished"
    assert prog.describe() == (f"unfinished: {n} of 240 games stored; the manifest says complete: a stored file "
                               "was deleted or damaged")
    r = cli("report", d2)
    assert r.exit_code == 0, r.output
    assert r.stderr.startswith(f"warning: {d2} is unfinished: {n} of 240 games stored; the manifest says complete")
    assert "status: complete" not in (d2 / "report" / "report.html").read_text()
    from reports.diff import load_side
    assert load_side(d2).warning == run_progress(d2).warning(d2)


def test_all_games_stored_is_complete_whatever_the_manifest_says(whole, tmp_path):
    """A run killed after its last task was stored but before the manifest said so: complete
    by the one rule, for the report and the diff alike (they used to disagree)."""
    d = tmp_path / "run"
    shutil.copytree(whole[0], d)
    m = read_manifest(d)
    m["status"] = "running"
    (d / MANIFEST).write_text(json.dumps(m))
    assert run_progress(d).complete
    r = cli("report", d)
    assert r.exit_code == 0 and "warning" not in r.stderr and "UNFINISHED" not in r.stdout
    from reports.diff import load_side
    assert load_side(d).warning is None


# ------------------------------------------------------------------ 3: a deleted spaces file


def test_a_deleted_spaces_file_is_noticed_and_restored(whole, tmp_path):
    d = tmp_path / "run"
    shutil.copytree(whole[0], d)
    games_files = sorted(p.name for p in (d / "games").iterdir())
    for p in (d / "spaces").glob("*.parquet"):
        p.unlink()
    prog = run_progress(d)
    assert not prog.complete and prog.spaces_games == 0
    assert "space counters of 240 stored games missing" in prog.describe()
    plan = plan_run(d, chunk_size=7, **SMALL)
    assert plan.games_done == 0 and plan.games_respace == 240          # not "every game is stored"
    r = cli("matrix", *ARGS, "--out", d, "--jobs", "1", "-q", "--no-report")
    assert r.exit_code == 0, r.output
    assert "note: the space counters of 240 stored games are missing" in r.stderr
    assert sorted(p.name for p in (d / "games").iterdir()) == games_files     # the games file is kept
    pd.testing.assert_frame_equal(read_games(d), whole[1])
    pd.testing.assert_frame_equal(read_spaces(d), whole[2])
    assert run_progress(d).complete


# ------------------------------------------------------------------ 5: variants and names


def test_a_matrix_variant_that_changes_no_hero_of_the_run_says_so(tmp_path):
    f = tmp_path / "arthur.toml"
    f.write_text('name = "arthur +4"\n[hero.king_arthur]\nhealth = 22\n')
    d = tmp_path / "m"
    r = cli("matrix", "--games", 4, "--heroes", "medusa,sinbad", "-b", "soho", "--variant", f, "--jobs", 1, "-q",
            "--out", d)
    assert r.exit_code == 0, r.output
    assert ("note: the variant 'arthur +4' changes king_arthur, none of the heroes of this run (medusa, sinbad): "
            "the games are those of the hero files as installed") in r.stderr
    label = "arthur +4 (arthur.toml); it changes king_arthur, none of this run's heroes"
    import html
    assert f"Variant: {label}" in r.stdout and html.escape(label) in (d / "report" / "report.html").read_text()


def test_two_heroes_of_one_name_are_told_apart(tmp_path, gorgon):
    """A copied hero file that keeps "Medusa" as its name: the heatmap, the tables and the
    HTML show 'Medusa [copy]' and 'Medusa [medusa]', and the command says why."""
    text = (ROOT / "heroes" / "medusa.toml").read_text(encoding="utf-8")
    (tmp_path / "copy.toml").write_text(text, encoding="utf-8")
    d = tmp_path / "m"
    r = cli("--homebrew", tmp_path / "copy.toml", "matrix", "--games", 4, "--heroes", "medusa,copy", "-b", "soho",
            "--jobs", 1, "-q", "--out", d)
    assert r.exit_code == 0, r.output
    assert "note: heroes copy, medusa are both named 'Medusa'; the reports show them as 'Medusa [copy]', " \
           "'Medusa [medusa]'" in r.stderr
    from reports.format import hero_names
    assert hero_names(read_manifest(d)) == {"copy": "Medusa [copy]", "medusa": "Medusa [medusa]"}
    html = (d / "report" / "report.html").read_text()
    assert "Medusa [copy]" in html and "Medusa [medusa]" in html


# ------------------------------------------------------------------ 5b: one definition each


def test_one_score_and_one_rating_labelled_the_same_everywhere(whole):
    from reports import build_report
    from reports.format import RATING_DEFINITION, SCORE_DEFINITION
    rep = build_report(whole[0])
    st = rep.tables["strength"]
    assert "field_score" not in st and "bt_rating" not in st
    csv = pd.read_csv(rep.csv["strength"])
    assert list(csv.columns) == list(st.columns)
    lines = rep.summary.splitlines()
    head = next(i for i, x in enumerate(lines) if x.startswith("hero "))
    assert lines[head].split() == ["hero", "score", "[lo,", "hi]", "rating", "[rating_lo,", "rating_hi]", "games"]
    names = {k: v["name"] for k, v in read_manifest(whole[0])["heroes"].items()}
    for i, r in st.iterrows():        # the printed figures are the table's (the hero by its display name)
        row = lines[head + 1 + i]
        assert row.startswith(names[r["hero"]] + " ") and f"{r['score']:.1%} [{r['lo']:.1%}, {r['hi']:.1%}]" in row
        assert f"{r['rating']:+.0f} [{r['rating_lo']:+.0f}, {r['rating_hi']:+.0f}]" in row
    assert SCORE_DEFINITION in rep.summary and RATING_DEFINITION in rep.summary
    html = rep.html.read_text()
    import html as h
    assert h.escape(SCORE_DEFINITION) in html and h.escape(RATING_DEFINITION) in html
    # (the README states the same two definitions: tests/test_readme.py)


# ------------------------------------------------------------------ 6: one command per run folder


def test_a_second_command_on_a_run_folder_in_use_is_refused(tmp_path):
    d = tmp_path / "run"
    _half_run(d, 14)
    keep = d / "games" / ".part-x.parquet.999.tmp"       # the first command's file being written
    keep.write_bytes(b"PAR1 half")
    with run_lock(d):
        assert lock_holder(d)["pid"] == os.getpid()
        r = cli("matrix", *ARGS, "--out", d, "--jobs", "1", "-q", "--no-report")
        assert r.exit_code == 1, r.output
        assert r.output.startswith(f"Error: {d} is in use: another unmatched-sim command (pid {os.getpid()} on ")
        assert "Usage" not in r.output and r.output.count("\n") == 1
        assert keep.exists()                               # nothing of the first command was touched
        with pytest.raises(RunLocked):
            plan_run(d, chunk_size=7, **SMALL)
    assert lock_holder(d) is None
    keep.unlink()
    r = cli("matrix", *ARGS, "--out", d, "--jobs", "1", "-q", "--no-report")
    assert r.exit_code == 0, r.output


def test_two_identical_commands_at_once_play_every_game_once(whole, tmp_path):
    """Two real processes started together on one folder: one plays, the other stops with the
    one-line error; the games are the uninterrupted run's."""
    d = tmp_path / "run"
    args = [sys.executable, "-m", "sim.cli", "matrix", *ARGS, "--out", str(d), "--jobs", "1", "-q", "--no-report",
            "--task-games", "7"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    ps = [subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
          for _ in range(2)]
    outs = [p.communicate(timeout=1800) for p in ps]     # a hang guard only
    codes = sorted(p.returncode for p in ps)
    refused = [e for (o, e), p in zip(outs, ps) if p.returncode == 1]
    assert codes in ([0, 0], [0, 1]), outs
    if refused:
        assert "is in use: another unmatched-sim command" in refused[0]
    pd.testing.assert_frame_equal(read_games(d), whole[1])
    pd.testing.assert_frame_equal(read_spaces(d), whole[2])


# ------------------------------------------------------------------ 7: kill -9 of the command


@pytest.mark.skipif(not PROC.is_dir(), reason="reads /proc")
def test_kill_9_of_the_command_leaves_no_worker_running(tmp_path):
    d = tmp_path / "run"
    args = [sys.executable, "-m", "sim.cli", "matrix", "--games", "2400", "--heroes", "medusa,sinbad,alice,dracula",
            "-b", "soho", "--chunk-size", "50", "--task-games", "100", "--jobs", "2", "--out", str(d), "--no-report",
            "-q"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                         start_new_session=True)
    try:
        deadline = time.time() + 1800     # a hang guard only: the loop ends on the files
        while time.time() < deadline and len(list((d / "games").glob("part-*.parquet"))) < 3:
            time.sleep(0.01)
        kids = _children(p.pid)
        assert len(kids) >= 3, kids              # the loky workers and the resource trackers
        os.kill(p.pid, signal.SIGKILL)           # the command alone, not its process group
        p.wait()
        deadline = time.time() + 600      # a hang guard only: the loop ends when they are gone
        while time.time() < deadline and any((PROC / str(k)).exists() for k in kids):
            time.sleep(0.1)
        alive = [k for k in kids if (PROC / str(k)).exists()]
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert not alive, f"processes of the killed command still running: {alive}"
    assert read_manifest(d)["status"] == "running"
    prog = run_progress(d)
    assert prog.status == "unfinished" and "its command was stopped or killed" in prog.describe()


# ------------------------------------------------------------------ 8: a lost loky worker


@pytest.mark.skipif(not PROC.is_dir(), reason="reads /proc")
def test_a_lost_loky_worker_is_replaced_and_no_game_is_lost(whole, tmp_path, caplog):
    d = tmp_path / "run"
    killed = []

    def kill_a_worker(name, games):
        if not killed:
            workers = [k for k in _children(os.getpid()) if b"loky" in (PROC / str(k) / "cmdline").read_bytes()
                       and b"resource_tracker" not in (PROC / str(k) / "cmdline").read_bytes()]
            if workers:
                os.kill(workers[0], signal.SIGKILL)     # as the out-of-memory killer would
                killed.append(workers[0])

    with caplog.at_level(logging.WARNING, logger="sim.runs.backend"):
        r = run_matrix(d, chunk_size=7, jobs=2, task_games=7, after_chunk=kill_a_worker, **SMALL)
    assert killed and r.games_played == 240
    assert any("a worker process died (exit codes" in m and "played again on new workers" in m
               for m in caplog.messages), caplog.messages
    pd.testing.assert_frame_equal(read_games(d), whole[1])
    pd.testing.assert_frame_equal(read_spaces(d), whole[2])


def test_workers_that_keep_dying_stop_the_run_in_one_line(monkeypatch):
    from sim.runs import backend as B
    pool = B.Pool(B.Backend("loky", 2), 2, "loky, 2 processes")
    with pytest.raises(B.BackendError) as e:
        list(pool.imap_unordered(os._exit, [(9,), (9,), (9,)]))
    msg = str(e.value)
    assert msg.startswith(f"worker processes died {B.LOKY_ALLOWED_FAILURES + 1} times in a row without finishing "
                          "a task (exit codes") and "\n" not in msg and e.value.param == "--jobs"


# ------------------------------------------------------------------ 9: a full disk


def _full_disk_after(n: int, real):
    calls = []

    def write(*a, **k):
        calls.append(1)
        if len(calls) > n:
            raise OSError(errno.ENOSPC, "No space left on device")
        return real(*a, **k)
    return write


def test_a_full_disk_while_playing_is_one_line_and_the_rerun_resumes(whole, tmp_path, monkeypatch):
    import sim.runs.drive as D
    d = tmp_path / "run"
    monkeypatch.setattr(D, "write_task", _full_disk_after(3, D.write_task))
    r = cli("matrix", *ARGS, "--out", d, "--jobs", "1", "-q", "--no-report", "--task-games", "7")
    assert r.exit_code == 1, r.output
    assert r.output.count("\n") == 1 and "Usage" not in r.output and "Invalid value" not in r.output
    assert r.output.startswith(f"Error: cannot write the run folder {d} (No space left on device) while writing it: "
                               "21 of 240 games are stored and kept; free some space")
    assert "rerun the same command to resume" in r.output
    monkeypatch.undo()
    r = cli("matrix", *ARGS, "--out", d, "--jobs", "1", "-q", "--no-report")
    assert r.exit_code == 0 and "Resuming" in r.stderr
    pd.testing.assert_frame_equal(read_games(d), whole[1])


def test_a_full_disk_while_writing_the_report_leaves_no_cut_off_file(whole, tmp_path, monkeypatch):
    d = tmp_path / "run"
    shutil.copytree(whole[0], d)
    assert cli("report", d).exit_code == 0
    png = d / "report" / "plots" / "matchups.png"
    before = png.read_bytes()
    real = Path.write_bytes

    def half_then_full(self, data):
        real(self, data[: len(data) // 2])
        raise OSError(errno.ENOSPC, "No space left on device")
    monkeypatch.setattr(Path, "write_bytes", half_then_full)
    r = cli("report", d)
    assert r.exit_code == 1, r.output
    assert r.output == (f"Error: cannot write the report in {d / 'report'} (No space left on device); the games are "
                        f"stored: free some space and run `unmatched-sim report {d}`\n")
    assert png.read_bytes() == before                 # the old picture, whole
    assert not list((d / "report" / "plots").glob(".*.tmp"))


# ------------------------------------------------------------------ 10: a damaged manifest


def test_a_truncated_manifest_is_read_from_its_backup_and_rewritten(whole, tmp_path):
    d = tmp_path / "run"
    shutil.copytree(whole[0], d)
    text = (d / MANIFEST).read_text()
    assert (d / MANIFEST_BACKUP).read_text() == text
    (d / MANIFEST).write_text(text[: len(text) // 3])
    r = cli("report", d)
    assert r.exit_code == 0, r.output
    assert f"note: {d}/manifest.json is damaged; read its backup manifest.json.bak" in r.stderr
    r = cli("matrix", *ARGS, "--out", d, "--jobs", "1", "-q", "--no-report")
    assert r.exit_code == 0 and "All 240 games were already stored" in r.stdout, r.output
    m = json.loads((d / MANIFEST).read_text())        # whole again
    assert m["status"] == "complete" and "recovered_from" not in m


def test_a_manifest_lost_with_its_backup_is_rebuilt_by_the_same_command_only(whole, tmp_path):
    d = tmp_path / "run"
    _half_run(d)
    (d / MANIFEST).write_text('{"kind": "unmatched-sim matrix run", "form')
    (d / MANIFEST_BACKUP).unlink()
    r = cli("report", d)
    assert r.exit_code == 2 and "manifest.json is damaged (cut short or not JSON) and has no readable backup" \
        in r.output and "rerun the command that played this run" in r.output
    other = [a if a != "5" else "6" for a in ARGS]                    # another seed: not this run's games
    r = cli("matrix", *other, "--out", d, "--jobs", "1", "-q", "--no-report")
    assert r.exit_code == 2 and "played with other settings than this command's" in r.output, r.output
    r = cli("matrix", *ARGS, "--out", d, "--jobs", "1", "-q", "--no-report")
    assert r.exit_code == 0, r.output
    assert "manifest.json was damaged (and its backup)" in r.stderr and "Resuming" in r.stderr
    pd.testing.assert_frame_equal(read_games(d), whole[1])
    assert read_manifest(d)["status"] == "complete"


# ------------------------------------------------------------------ 11: limits and estimates


def test_more_jobs_than_cores_is_said_and_capped(monkeypatch):
    from sim.runs import backend as B
    n, notes = B.local_workers(999, 500)
    assert n == B.usable_cores() and notes[0].startswith(f"note: --jobs 999 is more than the {B.usable_cores()} core(s)")
    monkeypatch.setattr(B, "available_memory", lambda: 3 * B.WORKER_MEMORY + 1)
    monkeypatch.setattr(B, "usable_cores", lambda: 8)
    n, notes = B.local_workers(8, 500)
    assert n == 3 and "need ~2.3 GB" in notes[0] and notes[0].endswith(": 3 worker process(es)")
    n, notes = B.local_workers(8, 2)
    assert n == 2 and notes[-1] == "note: 2 worker process(es), not 3: there are only 2 task(s) to play"
    assert B.local_workers(None, 2) == (2, [notes[0]])      # the default says only what it could not do


def test_a_long_run_says_what_it_will_cost_before_it_starts(tmp_path, monkeypatch):
    from sim.runs.plan import estimate_run
    plan = plan_run(tmp_path / "big", 1_000_000)                  # every hero, every battlefield
    est = estimate_run(plan, 2)
    assert est.games == 66_000_000 and est.disk_bytes == 66_000_000 * 40
    assert est.note("standard").startswith("note: 66,000,000 games to play: about 3 h 40 min with 2 worker "
                                           "process(es) at ~2,500 games/s each (standard AI")
    expert = plan_run(tmp_path / "e", 1000, heroes=["medusa", "sinbad"], ai="expert-deep")
    assert estimate_run(expert, 2).per_worker == pytest.approx(50 * 32 / 128)      # 4x the expert's budget
    import sim.cli.runs as R
    monkeypatch.setattr(R, "ESTIMATE_NOTE_SECONDS", 0)
    r = cli("matrix", "--games", 4, "--heroes", "medusa,sinbad", "-b", "soho", "--jobs", 1, "-q", "--no-report",
            "--out", tmp_path / "m")
    assert r.exit_code == 0 and "note: 12 games to play: about 0 s with 1 worker process(es)" in r.stderr
    assert "Ctrl-C stops it; rerunning the same command resumes." in r.stderr


# ------------------------------------------------------------------ 12: a bad homebrew file


def test_one_bad_homebrew_file_blocks_only_the_commands_that_need_it(tmp_path, gorgon):
    bad = tmp_path / "broken.toml"
    bad.write_text('name = "Broken"\n[hero]\nhealth = "lots"\nmove = 2\n')
    warning = (f"warning: skipped a hero file that cannot be loaded: {bad}: hero.health: must be a whole number, "
               "got \"lots\"")
    r = cli("--homebrew", tmp_path, "heroes")
    assert r.exit_code == 0 and r.stderr.startswith(warning) and "gorgon: Gorgon" in r.stdout
    r = cli("--homebrew", tmp_path, "duel", "gorgon", "sinbad", "--seed", 2)
    assert r.exit_code == 0 and "Game over" in r.stdout and warning in r.stderr
    r = cli("--homebrew", tmp_path, "duel", "broken", "sinbad")
    assert r.exit_code == 2 and f"hero 'broken' cannot be used: {bad}: hero.health: must be a whole number" in r.output
    r = cli("--homebrew", tmp_path, "matrix", "--games", 4, "--heroes", "gorgon,sinbad", "-b", "soho", "--jobs", 1,
            "-q", "--no-report", "--out", tmp_path / "m")
    assert r.exit_code == 0 and warning in r.stderr, r.output
    r = cli("--homebrew", tmp_path, "matrix", "--games", 4, "--heroes", "broken,sinbad", "-b", "soho", "-q",
            "--out", tmp_path / "m2")
    assert r.exit_code == 2 and "Invalid value for '--heroes': hero 'broken' cannot be used: " in r.output
    # the named hero's file is reported once: by the error, not also by a "skipped" warning
    assert "warning: skipped" not in r.output and r.output.count("hero.health: must be a whole number") == 1


def test_a_run_folder_that_does_not_exist_is_said_so(tmp_path):
    for args in (("replay", tmp_path / "nope", "--list"), ("report", tmp_path / "nope")):
        r = cli(*args)
        assert r.exit_code in (1, 2) and f"{tmp_path / 'nope'}: no such folder" in r.output, r.output
    (tmp_path / "empty").mkdir()
    r = cli("replay", tmp_path / "empty", "--list")
    assert r.exit_code in (1, 2) and "not a run folder" in r.output and "(no manifest.json)" in r.output


def test_tune_with_the_tuned_hero_in_its_field_lists_the_valid_opponents():
    r = cli("tune", "medusa", "--field", "medusa,sinbad")
    assert r.exit_code == 2 and "may not include the tuned hero 'medusa'" in r.output
    assert "valid: alice, ancient_leshen, ciri" in r.output and "medusa," not in r.output.split("valid:")[1]


def test_replay_list_filters_by_battlefield_and_lists_every_game_with_limit_0(tmp_path):
    d = tmp_path / "run"
    run_matrix(d, games=8, heroes=["medusa", "sinbad"], battlefields=["soho", "marmoreal"], seed=3, jobs=1)
    games = read_games(d)
    r = cli("replay", d, "--list", "--matchup", "sinbad,medusa", "-b", "soho", "--limit", 0)
    want = games[(games["battlefield"] == "soho") & (games["p1_hero"] != games["p2_hero"])]
    lines = [x for x in r.output.splitlines() if x.startswith("game ")]
    assert r.exit_code == 0 and len(lines) == len(want) == 4, r.output
    assert [int(x.split(":")[0].split()[1]) for x in lines] == list(want.index)
    assert all(" on Soho, " in x and ("(P1) won" in x or "(P2) won" in x or "draw" in x) for x in lines)
    assert r.output.rstrip().endswith("4 stored games of sinbad,medusa on soho")
    r = cli("replay", d, "--list", "--limit", 3)
    assert r.exit_code == 0 and r.output.count("\ngame ") + r.output.startswith("game ") == 3
    assert f"{len(games)} stored games (the first 3 shown)" in r.output
    r = cli("replay", d, "--list", "-b", "nowhere")
    assert r.exit_code == 1 and "has no game on 'nowhere'; its battlefields: marmoreal, soho" in r.output
    r = cli("replay", d, "--game", 3, "-b", "soho")
    assert r.exit_code == 2 and "--game N names one game already" in r.output
    seed = int(want.iloc[0]["seed"])
    r = cli("replay", d, "--matchup", "medusa,sinbad", "--seed", seed, "-b", "marmoreal")
    assert r.exit_code == 1 and "no game of medusa,sinbad on marmoreal with seed" in r.output


def test_an_empty_battlefield_list_is_refused_not_taken_as_every_battlefield(tmp_path):
    r = cli("matrix", "--games", 4, "--heroes", "medusa,sinbad", "-b", "", "--out", tmp_path / "m")
    assert r.exit_code == 2 and "--battlefields is empty" in r.output and "soho" in r.output
    assert not (tmp_path / "m").exists()


def test_a_broken_homebrew_hero_named_in_a_team_or_by_tune_is_reported_once_with_its_error(tmp_path):
    bad = tmp_path / "broken.toml"
    bad.write_text('name = "Broken"\n[hero]\nhealth = "lots"\nmove = 2\n')
    why = "hero 'broken' cannot be used: "
    r = cli("--homebrew", tmp_path, "duel", "broken+medusa", "sinbad+alice")
    assert r.exit_code == 2 and why in r.output and "warning: skipped" not in r.output, r.output
    r = cli("--homebrew", tmp_path, "tune", "broken", "--field", "medusa")
    assert r.exit_code == 2 and why in r.output and "unknown hero" not in r.output, r.output
    r = cli("tune", "medusa", "--field", "nobody")
    assert r.exit_code == 2 and "Invalid value for '--field': unknown hero 'nobody'" in r.output


def test_a_missing_homebrew_path_names_the_option_or_the_variable_it_came_from(tmp_path, monkeypatch):
    r = cli("--homebrew", tmp_path / "nope", "heroes")
    assert r.exit_code == 2 and f"Invalid value for '--homebrew': {tmp_path / 'nope'}: no such hero file" in r.output
    monkeypatch.setenv("UNMATCHED_SIM_HEROES", str(tmp_path / "gone"))
    r = cli("heroes")
    assert r.exit_code == 2 and f"Invalid value for UNMATCHED_SIM_HEROES: {tmp_path / 'gone'}: no such" in r.output


def test_a_file_given_as_a_run_folder_gets_the_same_line_from_every_command(tmp_path):
    f = tmp_path / "notes.txt"
    f.write_text("x")
    for args in (("replay", f, "--list"), ("replay", f, "--game", 0), ("report", f)):
        r = cli(*args)
        assert r.exit_code in (1, 2) and f"{f}: a file, not a run folder" in r.output, (args, r.output)


def test_a_file_in_the_way_of_the_report_folder_says_so(whole, tmp_path):
    """A plain file where the report's tables folder should be: the error says to move it
    away, not to free space (a fresh-user find)."""
    d = tmp_path / "run"
    shutil.copytree(whole[0], d)
    if (d / "report").exists():
        shutil.rmtree(d / "report")
    (d / "report").mkdir()
    (d / "report" / "tables").write_text("in the way", encoding="utf-8")
    r = cli("report", d)
    assert r.exit_code == 1, r.output
    assert r.output.startswith(f"Error: cannot write the report in {d / 'report'} (")
    assert r.output.endswith(f"the games are stored: move away the file in the way of the report's folders and run "
                             f"`unmatched-sim report {d}`\n") and "free some space" not in r.output
