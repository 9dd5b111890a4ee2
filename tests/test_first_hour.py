"""Issue 31, "A designer's first hour": what a fresh user met in the command line and the reports.

Ctrl-C in the first seconds of a run, ``report --against`` a run of the same AI, a report piped
into ``head``, the battlefield maps' labels, a matrix without a hero with gear, and the printed
tables' hero names.
"""
from __future__ import annotations

import html
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest
from helpers.procs import children

from sim.cli.app import compile_notice
from sim.runs.backend import Backend, open_pool, stop_local_workers, workers_ignore_ctrl_c
from sim.runs.store import read_games, read_manifest

ROOT = Path(__file__).resolve().parents[1]
PROC = Path("/proc")
_children = children   # (tests/helpers/procs.py)


# ------------------------------------------------------------------ Ctrl-C while the workers start


def _sigint_blocked() -> bool:
    return signal.SIGINT in signal.pthread_sigmask(signal.SIG_BLOCK, [])


def _ctrl_c_as_at_a_terminal() -> None:
    """A child process's SIGINT as at a terminal (run before exec): a test suite started in the
    background (``cmd &``, nohup, some CI runners) has SIGINT ignored, and an ignored signal stays
    ignored across exec, so Python would never see the Ctrl-C these tests send."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@pytest.fixture
def ctrl_c_raises():
    """This process turns SIGINT into KeyboardInterrupt (Python's default) for the test, whatever
    the suite was started with; restored afterwards."""
    before = signal.signal(signal.SIGINT, signal.default_int_handler)
    yield
    signal.signal(signal.SIGINT, before)


def _worker_state():
    return os.getpid(), _sigint_blocked()


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
def test_loky_workers_start_with_ctrl_c_blocked_and_the_command_keeps_it():
    stop_local_workers(kill=True)       # (workers another test started: these must be spawned anew)
    with open_pool(Backend("loky", 2), 2) as pool:
        assert pool.workers == 2
        got = list(pool.imap_unordered(_worker_state, [(), ()]))
    stop_local_workers(kill=True)
    assert all(pid != os.getpid() for pid, _ in got)
    assert [blocked for _, blocked in got] == [True, True]
    assert not _sigint_blocked()        # this process handles Ctrl-C as before


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
def test_a_local_dask_clusters_workers_start_with_ctrl_c_blocked_too():
    pytest.importorskip("distributed")
    with open_pool(Backend("dask", 1)) as pool:
        got = list(pool.run_on_workers(_worker_state).values())
    assert len(got) == 1 and got[0][0] != os.getpid() and got[0][1] is True
    assert not _sigint_blocked()


@pytest.mark.skipif(not hasattr(signal, "pthread_sigmask"), reason="POSIX signal masks")
def test_a_ctrl_c_while_a_worker_is_spawned_is_delivered_after_the_spawn_not_lost(monkeypatch, ctrl_c_raises):
    from joblib.externals.loky.backend import fork_exec as module
    seen = {}

    def spawn(cmd, keep_fds, env=None):
        # Ctrl-C in the middle of the spawn, sent to this thread (a signal sent to the process may be
        # taken by another thread, which does not block it: the main thread then raises at once)
        signal.pthread_kill(threading.get_ident(), signal.SIGINT)
        seen["pending"] = signal.SIGINT in signal.sigpending()
        seen["blocked"] = _sigint_blocked()
        return 4242

    monkeypatch.setattr(module, "fork_exec", spawn)
    workers_ignore_ctrl_c()
    with pytest.raises(KeyboardInterrupt):
        module.fork_exec(["python"], ())
    assert seen == {"pending": True, "blocked": True}
    assert not _sigint_blocked()


_INTERRUPTED_IMPORT = """
import builtins, os, signal, sys
sys.argv = [{argv0!r}, "heroes"]
real = builtins.__import__
def imp(name, *args, **kwargs):
    if name == "click":                          # (first imported by the command's modules)
        builtins.__import__ = real
        os.kill(os.getpid(), signal.SIGINT)      # Ctrl-C while the command imports its modules
    return real(name, *args, **kwargs)
builtins.__import__ = imp
from sim.cli import main
main()
"""


@pytest.mark.parametrize("argv0", ["/usr/local/bin/unmatched-sim", "-m", "my_script.py"])
def test_ctrl_c_while_the_command_imports_ends_in_one_word_not_a_traceback(argv0):
    """The command's imports take a few seconds on a busy machine: a Ctrl-C then ends it as click
    ends it a moment later ('Aborted!', status 1). A program that imports the package (not the
    command) gets its KeyboardInterrupt as usual."""
    r = subprocess.run([sys.executable, "-c", _INTERRUPTED_IMPORT.format(argv0=argv0)], cwd=ROOT, text=True,
                       capture_output=True, env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=600,
                       preexec_fn=_ctrl_c_as_at_a_terminal)
    if argv0 == "my_script.py":
        assert r.returncode != 0 and r.stderr.rstrip().endswith("KeyboardInterrupt"), r.stderr
    else:
        assert (r.returncode, r.stdout, r.stderr) == (1, "", "\nAborted!\n")


def _cmdline(pid: int) -> bytes:
    try:
        return (PROC / str(pid) / "cmdline").read_bytes()
    except OSError:
        return b""


def _importing_numpy(pid: int) -> bool:
    """Whether process ``pid`` has loaded numpy's compiled core (a starting loky worker imports
    it with joblib: its Python then turns a SIGINT into a KeyboardInterrupt, where a SIGINT
    before Python's start-up ends it without a word)."""
    try:
        return b"_multiarray_umath" in (PROC / str(pid) / "maps").read_bytes()
    except OSError:
        return False


@pytest.mark.skipif(not PROC.is_dir(), reason="reads /proc")
@pytest.mark.parametrize("when", ["a worker imports", "the first games file is stored"])
def test_ctrl_c_at_the_terminal_prints_the_one_line_and_keeps_the_finished_games(tmp_path, when):
    """Ctrl-C at a terminal signals the command's whole process group, workers included. Sent as
    soon as a loky worker process is importing (numpy loaded: it imports joblib, numpy and the
    engine for a second or more) or once the first games file is stored: the command ends with status 130 and its one 'interrupted' line,
    no traceback (a worker interrupted while importing printed one), no worker left running, and
    the games stored are those the line counts."""
    d = tmp_path / "run"
    args = [sys.executable, "-m", "sim.cli", "matrix", "--games", "2400", "--heroes", "medusa,sinbad,alice",
            "-b", "soho", "--chunk-size", "50", "--task-games", "100", "--jobs", "2", "--out", str(d), "--no-report"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         start_new_session=True, preexec_fn=_ctrl_c_as_at_a_terminal)
    kids: list[int] = []
    try:
        deadline = time.time() + 1800     # a hang guard only: the loop ends on the worker or the file
        while time.time() < deadline and p.poll() is None:
            kids = _children(p.pid)
            if when == "a worker imports" and any(b"popen_loky_posix" in _cmdline(k) and _importing_numpy(k)
                                                 for k in kids):
                break
            if when != "a worker imports" and list((d / "games").glob("part-*.parquet")):
                break
            time.sleep(0.005)
        assert p.poll() is None, "the run ended before the interrupt"
        os.killpg(p.pid, signal.SIGINT)           # what the terminal does on Ctrl-C
        _, err = p.communicate(timeout=600)       # (a hang guard: an interrupt the run played through)
        deadline = time.time() + 600
        while time.time() < deadline and any((PROC / str(k)).exists() for k in kids):
            time.sleep(0.1)
        alive = [k for k in kids if (PROC / str(k)).exists()]
    finally:
        try:
            os.killpg(p.pid, signal.SIGKILL)
        except ProcessLookupError:
            pass
    assert p.returncode == 130, err
    assert "Traceback" not in err and "KeyboardInterrupt" not in err, err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    last = lines[-1]
    assert last.startswith("interrupted: ") and last.endswith(f"saved in {d}; rerun the same command to resume"), err
    # before it only notes, and the compile notice when this command compiled the engine (the first run after an
    # engine change or with an empty cache: printed before the workers start, so before any interrupt)
    assert all(ln.startswith("note: ") or ln == compile_notice("matrix") for ln in lines[:-1]), err
    assert not alive, f"processes of the interrupted command still running: {alive}"
    saved, total = int(last.split()[1]), int(last.split()[3])
    assert total == 6 * 2400 and saved < total          # (3 pairs and 3 mirrors)
    assert read_manifest(d)["status"] == "interrupted"
    if when != "a worker imports":
        assert saved >= 100                             # the first task's games at least
    if saved:
        assert len(read_games(d)) == saved


# ------------------------------------------------------------------ output into a closed pipe


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    """A complete matrix run: Medusa, Sinbad and Alice, 40 games a pair on Soho."""
    from sim.runs.matrix import run_matrix
    d = tmp_path_factory.mktemp("first_hour") / "trio"
    run_matrix(d, games=40, heroes=["medusa", "sinbad", "alice"], battlefields=["soho"], seed=5, jobs=1)
    return d


def _command(*args, stdout):
    return subprocess.run([sys.executable, "-m", "sim.cli", *map(str, args)], cwd=ROOT, stdout=stdout,
                          stderr=subprocess.PIPE, text=True, env=dict(os.environ, PYTHONPATH=str(ROOT)),
                          timeout=900)


@pytest.mark.parametrize("command", [("report", "RUN"), ("heroes",)])
def test_output_into_a_pipe_closed_before_it_is_written_ends_quietly(small_run, command):
    """The reader is gone before the first line (a pipe whose read end is closed): the command
    ends with status 141 (as one ended by SIGPIPE) and says nothing; `report` said 'Error: cannot
    write the report in RUN (Broken pipe)' about a report that was written."""
    (small_run / "report" / "report.html").unlink(missing_ok=True)
    r_fd, w_fd = os.pipe()
    os.close(r_fd)
    try:
        r = _command(*[small_run if a == "RUN" else a for a in command], stdout=w_fd)
    finally:
        os.close(w_fd)
    assert (r.returncode, r.stderr) == (141, "")
    if command[0] == "report":
        assert (small_run / "report" / "report.html").stat().st_size > 10_000


@pytest.mark.skipif(not Path("/bin/bash").exists(), reason="runs a bash pipeline")
def test_report_piped_into_head_prints_its_first_line_and_nothing_else(small_run):
    """`unmatched-sim report RUN | head -1`: head's line and not a word more; the command's status
    (bash's PIPESTATUS) is 141 if it wrote after head had gone, else 0."""
    p = subprocess.run(f"{sys.executable} -m sim.cli report {small_run} | head -1; exit ${{PIPESTATUS[0]}}",
                       shell=True, executable="/bin/bash", cwd=ROOT, capture_output=True, text=True,
                       env=dict(os.environ, PYTHONPATH=str(ROOT)), timeout=900)
    assert (p.stdout, p.stderr) == ("\n", "") and p.returncode in (0, 141), (p.returncode, p.stderr)


# ------------------------------------------------------------------ battlefield maps: ids clear of everything


def _board_figures(key):
    """The two drawings of battlefield ``key``: the report's map (values in the spaces, S1/S2) and
    the replay viewer's board as ``board_svg`` draws it (zones, S1..S4), each with its facts."""
    import numpy as np
    import pandas as pd
    from matplotlib.figure import Figure

    from reports.board import draw_battlefield, layout_xy, space_radius, viewer_battlefield
    from reports.plots import plot_space_map
    from reports.tables import space_counts
    from sim.content.battlefields import load_battlefield
    from sim.runs.plan import battlefield_facts
    bf = load_battlefield(key)
    info = battlefield_facts(bf)
    n = len(info["space_ids"])
    rng = np.random.default_rng(3)
    stored = pd.DataFrame({"battlefield": [key], "combats": [rng.integers(0, 300, n)],
                           "defeats": [rng.integers(0, 60, n)], "games": [100]})
    yield plot_space_map(space_counts(stored, {key: info}), info), info
    info = viewer_battlefield(bf)
    xy = layout_xy(info)
    r = space_radius(xy)
    w, h = np.ptp(xy[:, 0]) + 3.2 * r, np.ptp(xy[:, 1]) + 3.7 * r
    fig = Figure(figsize=(9.0, 9.0 * h / w))
    ax = fig.add_axes((0, 0, 1, 1))
    ax.set_axis_off()
    draw_battlefield(ax, info, fontsize=7.0)
    ax.set_adjustable("datalim")
    yield fig, info


@pytest.mark.parametrize("key", ["baskerville_manor", "fayrlund_forest", "kaer_morhen", "marmoreal", "sarpedon",
                                 "soho"])
def test_every_space_id_on_a_battlefield_map_is_clear_of_the_other_texts_spaces_and_rings(key):
    """Issue 31: on Marmoreal's map the id under M07 ran into M13's start ring, and the start
    spaces' 'M13 S1' and 'M31 S2' were crossed by their own rings. Every id of every battlefield,
    on the report's map and on the viewer's board: no text overlaps another, no id touches a
    space or a ring (its own included), and each id is nearer its own space than any other."""
    import numpy as np

    from helpers.plot_text import drawn_texts, text_overlaps, texts_on_circles
    from reports.board import PASSAGE_RING, PASSAGE_WIDTH, START_RING, START_WIDTH, layout_xy, space_radius
    from sim.content.battlefields import list_battlefields
    assert key in list_battlefields()
    for fig, info in _board_figures(key):
        ids = set(info["space_ids"])
        xy, r = layout_xy(info), space_radius(layout_xy(info))
        circles = []
        for ax in fig.axes:
            if ax.get_label() == "<colorbar>":
                continue
            for i, sid in enumerate(info["space_ids"]):
                circles.append((sid, ax, tuple(xy[i]), r, 1.0))
            circles += [(f"ring of {info['space_ids'][s]}", ax, tuple(xy[s]), r * START_RING, START_WIDTH)
                        for s in info["starts"]]
            circles += [(f"passage ring of {info['space_ids'][s]}", ax, tuple(xy[s]), r * PASSAGE_RING,
                         PASSAGE_WIDTH) for s in info.get("passages", [])]
        assert text_overlaps(fig) == []
        assert texts_on_circles(fig, circles, which=lambda t, ids=ids: t.split(" ")[0] in ids) == []
        texts, renderer = drawn_texts(fig)
        labels = [t for t in texts if t.get_text().split(" ")[0] in ids]
        maps = len([ax for ax in fig.axes if ax.get_label() != "<colorbar>"])
        assert len(labels) == maps * len(ids)
        for t in labels:
            box = t.get_window_extent(renderer)
            centre = np.array([(box.x0 + box.x1) / 2, (box.y0 + box.y1) / 2])
            gaps = {sid: np.hypot(*(t.axes.transData.transform(xy[i]) - centre)) for i, sid in
                    enumerate(info["space_ids"])}
            assert min(gaps, key=gaps.get) == t.get_text().split(" ")[0], t.get_text()


# ------------------------------------------------------------------ a matrix without a hero with gear


def test_a_matrix_without_a_hero_with_gear_writes_no_empty_loadout_tables(small_run, tmp_path):
    """Issue 31: a matrix of Medusa, Sinbad and Alice wrote loadouts.csv, loadout_best.csv and
    gear_effects.csv (and their Parquet) with a header and no row. Now none is written (a stale
    one is removed) and the HTML says in one line that no hero has loadouts."""
    from reports import LOADOUT_TABLES, build_report
    out = tmp_path / "report"
    (out / "tables").mkdir(parents=True)
    (out / "tables" / "gear_effects.csv").write_text("hero,opponent,group,option,reference,effect\n")
    rep = build_report(small_run, out_dir=out, replays=False)
    names = sorted(p.name for p in (out / "tables").iterdir())
    assert not [n for n in names if n.split(".")[0] in LOADOUT_TABLES], names
    assert len(names) == 2 * 10 and "strength.csv" in names and "spaces.parquet" in names
    assert not set(LOADOUT_TABLES) & set(rep.csv)
    page = rep.html.read_text(encoding="utf-8")
    section = page[page.index('<h2 id="loadouts">'):page.index("<h2", page.index('<h2 id="loadouts">') + 5)]
    assert section == ('<h2 id="loadouts">Loadouts</h2>\n'
                       '<p class="note">No hero in this run has choice groups (loadouts).</p>\n')
    assert "(no rows)" not in page


# ------------------------------------------------------------------ printed tables name heroes as the plots do


@pytest.fixture(scope="module")
def named_run(tmp_path_factory):
    """A matrix run of heroes whose keys and names differ: Medusa, Dr. Jekyll & Mr. Hyde, King Arthur and the
    Invisible Man (whose key sorts before jekyll_hyde, his name after)."""
    from sim.runs.matrix import run_matrix
    d = tmp_path_factory.mktemp("first_hour_names") / "run"
    run_matrix(d, games=24, heroes=["medusa", "jekyll_hyde", "king_arthur", "invisible_man"], battlefields=["soho"],
               seed=2, jobs=1)
    return d


KEYS = ("jekyll_hyde", "king_arthur", "invisible_man")
NAMES = ["Dr. Jekyll & Mr. Hyde", "Invisible Man", "King Arthur", "Medusa"]


def _cli_result(*args):
    from click.testing import CliRunner

    from sim.cli import main
    return CliRunner().invoke(main, [str(a) for a in args])


def _cli(*args):
    r = _cli_result(*args)
    assert r.exit_code == 0, r.output
    return r.stdout


def test_the_matrix_summary_names_heroes_by_their_display_names_and_the_csv_keeps_the_keys(named_run):
    out = _cli("report", named_run)
    lines = out.splitlines()
    assert not any(k in out for k in KEYS), out
    top = lines.index(next(ln for ln in lines if ln.startswith("hero ")))
    assert sorted(ln.split("  ")[0] for ln in lines[top + 1:top + 5]) == NAMES
    grid = lines.index("Score of row hero vs column hero (draws count half):")
    # rows and columns by display name, as the HTML orders them (not by key: invisible_man < jekyll_hyde)
    assert lines[grid + 1].split() == ["Jekyll", "Invisible", "Man", "Arthur", "Medusa"]
    assert [ln[:23].rstrip() for ln in lines[grid + 2:grid + 6]] == NAMES
    assert lines[grid + 2][23:].split()[0] == "50.0%"                       # the mirror, in its column
    assert lines[grid + 3][23:].split()[1] == "50.0%"
    import pandas as pd
    assert sorted(pd.read_csv(named_run / "report" / "tables" / "strength.csv")["hero"]) == sorted(
        ["jekyll_hyde", "king_arthur", "medusa", "invisible_man"])


def _html_tables(page: str) -> dict:
    """The HTML report's tables by their header row: {header cells: [row cells]} (the first of a header)."""
    import re
    out = {}
    for t in re.findall(r"<table.*?</table>", page, re.S):
        head = tuple(re.findall(r"<th(?: [^>]*)?>(.*?)</th>", t))
        out.setdefault(head, [re.findall(r"<td(?: [^>]*)?>(.*?)</td>", r) for r in re.findall(r"<tr>(.*?)</tr>", t, re.S)[1:]])
    return out


def test_the_html_report_tables_name_heroes_and_battlefields_by_display_name_in_name_order(named_run):
    import html

    _cli("report", named_run)
    page = html.unescape((named_run / "report" / "report.html").read_text(encoding="utf-8"))
    tables = _html_tables(page)
    matchups = next(rows for head, rows in tables.items() if head[:3] == ("hero", "opponent", "battlefield"))
    assert [r[:3] for r in matchups[:5]] == [[NAMES[0], n, "all"] for n in NAMES] + [[NAMES[1], NAMES[0], "all"]]
    strength = next(rows for head, rows in tables.items() if head[:2] == ("hero", "games"))
    assert sorted(r[0] for r in strength) == NAMES
    by_hero = next(rows for head, rows in tables.items() if head[:2] == ("hero", "battlefield"))
    assert [r[:2] for r in by_hero] == [[n, b] for n in NAMES for b in ("Soho", "all")]
    assert f"<td class=\"txt\">heroes</td><td class=\"txt\">{', '.join(NAMES)}</td>" in page
    for rows in tables.values():
        assert not any(c in KEYS or c == "soho" for r in rows for c in r)
    csv = (named_run / "report" / "tables" / "matchups.csv").read_text()
    assert "invisible_man,invisible_man,all" in csv and "Invisible Man" not in csv      # the CSV keeps the keys


def test_arena_and_replay_list_print_display_names(named_run):
    out = _cli("arena", "--ai", "standard", "--vs", "greedy", "--games", "6", "--heroes", "medusa,jekyll_hyde",
               "-b", "soho", "-j", "1")
    rows = [ln for ln in out.splitlines()[2:] if not ln.startswith(("overall", "first player"))]
    assert [ln.split("  ")[0] for ln in rows] == ["Dr. Jekyll & Mr. Hyde", "Medusa"] and "jekyll_hyde" not in out
    out = _cli("replay", named_run, "--list", "--matchup", "jekyll_hyde,king_arthur", "--limit", "2")
    first = out.splitlines()[0]
    assert first.startswith("game ") and any(f": {a} vs {b} on Soho, seed " in first for a, b in (
        ("Dr. Jekyll & Mr. Hyde", "King Arthur"), ("King Arthur", "Dr. Jekyll & Mr. Hyde"))), first
    assert first.endswith(" turns") and not any(k in first for k in (*KEYS, "soho"))


def test_loadouts_and_compare_name_the_opponents(tmp_path):
    # (listed by name, as read: invisible_man's key sorts before jekyll_hyde, his name after)
    out = _cli("loadouts", "geralt", "--games", "16", "--opponents", "jekyll_hyde,king_arthur,invisible_man", "-b",
               "soho", "--out", tmp_path / "lo", "-j", "1", "-q")
    head = out.splitlines().index(next(ln for ln in out.splitlines() if ln.startswith("opponent ")))
    assert [ln.split("  ")[0] for ln in out.splitlines()[head + 1:head + 4]] == NAMES[:3]
    page = (tmp_path / "lo" / "report" / "loadouts.html").read_text(encoding="utf-8")
    assert [page.index(f'<td class="txt">{html.escape(n)}</td>') for n in ["all opponents", *NAMES[:3]]] == sorted(
        page.index(f'<td class="txt">{html.escape(n)}</td>') for n in ["all opponents", *NAMES[:3]])
    assert not any(k in out for k in KEYS)
    variant = tmp_path / "v.toml"
    variant.write_text('name = "medusa +2"\n[hero.medusa]\nhealth = 18\n')
    out = _cli("compare", "--variant", variant, "--hero", "medusa", "--opponents",
               "jekyll_hyde,king_arthur,invisible_man", "-b", "soho", "--games", "8", "--out", tmp_path / "cmp", "-j",
               "1", "-q")
    head = out.splitlines().index(next(ln for ln in out.splitlines() if ln.startswith("opponent ")))
    assert [ln.split("  ")[0] for ln in out.splitlines()[head + 1:head + 4]] == NAMES[:3]
    assert not any(k in out for k in KEYS)


# ------------------------------------------------------------------ Ctrl-C in train and tune


@pytest.mark.parametrize("command", ["train", "tune"])
def test_ctrl_c_in_train_and_tune_ends_in_the_one_line_with_status_130_as_a_run_does(tmp_path, monkeypatch, command):
    """A Ctrl-C during the search (a KeyboardInterrupt out of sim.runs.train.train or sim.runs.tune.tune) ends
    the command as it ends matrix: its one line on stderr, nothing on stdout, exit status 130 (was 'Error:
    interrupted...' and status 1)."""
    import importlib

    from click.testing import CliRunner

    from sim.cli import main

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(importlib.import_module(f"sim.runs.{command}"), command, stopped)
    args = ["train", "--generations", "1"] if command == "train" else ["tune", "medusa", "--generations", "1"]
    r = CliRunner().invoke(main, [*args, "--out", str(tmp_path / "out"), "-q"])
    assert (r.exit_code, r.stdout) == (130, ""), r.output
    assert r.stderr == (f"interrupted: every finished generation is in {tmp_path / 'out'}; rerun the same command "
                        "to resume\n")


# ------------------------------------------------------------------ report of a run being played


def test_report_of_a_run_being_played_counts_one_snapshot_of_its_games_and_says_so_once(tmp_path, monkeypatch):
    """Issue 31: `report` on a run being played printed three game counts (its warning, its first line and its
    table each read the games while they grew). A command holds the run's lock and stores one more task right
    after the report has counted the games: every figure and line still counts the games of its first read,
    and the output says once that the run is still being played."""
    import shutil

    import reports.tables
    from helpers.store import drop_chunk, restore_chunk, stored_chunk_names

    from sim.runs.lock import run_lock
    from sim.runs.matrix import run_matrix

    full, live = tmp_path / "full", tmp_path / "live"
    run_matrix(full, games=24, heroes=["medusa", "sinbad"], battlefields=["soho"], seed=3, jobs=1, chunk_size=4)
    shutil.copytree(full, live)
    later, missing = stored_chunk_names(live)[:2]
    gone = drop_chunk(live, later) + drop_chunk(live, missing)
    total = read_manifest(live)["games_total"]
    stored = total - gone
    scan = reports.tables.scan_duels

    def scan_then_the_run_stores_a_task(*args, **kwargs):
        counts = scan(*args, **kwargs)
        assert restore_chunk(full, live, later) == 4
        return counts
    monkeypatch.setattr(reports.tables, "scan_duels", scan_then_the_run_stores_a_task)
    with run_lock(live):
        r = _cli_result("report", live)
    assert r.exit_code == 0, r.output
    assert r.stderr == ""                                   # (no separate warning: the report's first line says it)
    lines = r.stdout.splitlines()
    assert lines[1] == (f"STILL BEING PLAYED: {stored} of {total} games so far; every figure below is of these games "
                        "and will change as the run goes on (report it again when it has finished).")
    assert f"{stored} games, 0 draws (0.0%); mean length" in r.stdout and stored + 4 < total
    assert r.stdout.upper().count("STILL BEING PLAYED") == 1 and "UNFINISHED" not in r.stdout
    page = (live / "report" / "report.html").read_text(encoding="utf-8")
    assert f'<td class="txt">games stored</td><td class="txt">{stored} of {total}</td>' in page
    assert (f'<td class="txt">status</td><td class="txt">running: {stored} of {total} games stored; a command is '
            'playing it now</td>') in page
    assert len(read_games(live)) == stored + 4              # (the task stored meanwhile is there for the next read)


# ------------------------------------------------------------------ weights the AI mode does not read


def test_a_weight_the_profiles_mode_does_not_read_is_warned_of_in_one_line(tmp_path, monkeypatch):
    """Issue 31: fx_damage and fx_draw (release 0.2's) in a standard profile, or guess_base in a standard-0.2
    one, had no effect and no word said. One warning line each, from a profile file (its own weights or a
    hero's) and from train's --weights; a value equal to the installed profile's (a trained profile writes every
    weight) is quiet, as is a weight the mode reads."""
    import importlib

    from sim.content.profiles import get_profile
    mine = tmp_path / "mine.toml"
    mine.write_text('name = "mine"\nbase = "standard"\n[weights]\nfx_damage = 2.0\nfx_draw = '
                    f'{get_profile("standard").weight("fx_draw")}\ncard = 3.0\n'
                    '[heroes.medusa.weights]\nfx_draw = 5\n')
    old = tmp_path / "old.toml"
    old.write_text('name = "old"\nmode = "standard-0.2"\nbase = "standard-0.2"\n[weights]\nguess_base = 0.7\n')
    r = _cli_result("profiles", mine)
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines() == [
        f"warning: {mine}: weights.fx_damage = 2 has no effect: the AI mode standard does not read fx_damage (a "
        "weight of release 0.2's AI)",
        f"warning: {mine}: heroes.medusa.weights.fx_draw = 5 has no effect: the AI mode standard does not read "
        "fx_draw (a weight of release 0.2's AI)"]
    r = _cli_result("matrix", "--games", "2", "--heroes", "medusa,sinbad", "-b", "soho", "--ai", old, "-j", "1",
                    "--no-report", "-q", "--out", tmp_path / "run")
    assert r.exit_code == 0, r.output
    assert r.stderr.splitlines()[0] == (f"warning: {old}: weights.guess_base = 0.7 has no effect: the AI mode "
                                        "standard-0.2 does not read guess_base (a weight of release 0.3's "
                                        "one-currency AI)")
    assert "warning" not in _cli_result("profiles", "standard").stderr          # (an installed profile)

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(importlib.import_module("sim.runs.train"), "train", stopped)
    r = _cli_result("train", "--weights", "card,fx_damage", "--generations", "1", "--out", tmp_path / "t", "-q")
    assert r.exit_code == 130 and r.stderr.splitlines()[0] == (
        "warning: --weights fx_damage: the AI mode standard does not read fx_damage (a weight of release 0.2's AI); "
        "training it changes nothing in the games")


def test_ctrl_c_while_the_report_is_written_says_how_to_write_it(tmp_path, monkeypatch):
    """Issue 31: a Ctrl-C once the games were played, while the report was written, ended in click's 'Aborted!'
    (status 1) with no report.html and no word of how to make it. Now the one line says the games are stored
    and which command writes the report; status 130 as every interrupted command."""
    import reports

    def stopped(*args, **kwargs):
        raise KeyboardInterrupt
    monkeypatch.setattr(reports, "build_report", stopped)
    out = tmp_path / "run"
    r = _cli_result("matrix", "--games", "2", "--heroes", "medusa,sinbad", "-b", "soho", "-j", "1", "-q",
                    "--out", out)
    assert r.exit_code == 130, r.output
    assert r.stderr.splitlines()[-1] == (f"interrupted while writing the report; every game is stored in {out}: "
                                         f"`unmatched-sim report {out}` writes the report")
    assert len(read_games(out)) == read_manifest(out)["games_total"] == 6      # (3 pairs, mirrors included)
    assert not (out / "report" / "report.html").exists()


def test_one_of_a_thing_is_said_in_the_singular(tmp_path, monkeypatch):
    """Issue 31: '1 games', '1 matchup(s) have', '1 pair(s)': a run missing one game and its resume say '1 game'
    and '1 matchup has', and the heatmap's mirror cell of one game says 'mirror / 1 game'."""
    from helpers.plot_text import record_report_figures
    from helpers.store import drop_chunk, stored_chunk_names
    out = tmp_path / "run"
    args = ["matrix", "--games", "2", "--heroes", "medusa,sinbad", "-b", "soho", "--chunk-size", "1", "-j", "1", "-q",
            "--no-report", "--out", out]
    assert _cli_result(*args).exit_code == 0
    g = read_games(out)
    mirror = int(g.loc[g["p1_hero"] == g["p2_hero"], "matchup_id"].iloc[0])
    assert drop_chunk(out, next(n for n in stored_chunk_names(out) if int(n.split("-")[0], 16) == mirror)) == 1
    figures = record_report_figures(monkeypatch)
    text = _cli("report", out)
    assert re.search(r"^1 matchup has fewer games than planned: \S.* 1 of 2\.$", text, re.M), text
    heatmap = [t.get_text() for t in figures[0].axes[0].texts]
    assert "mirror\n1 game" in heatmap and "mirror\n2 games" in heatmap, heatmap
    assert re.search(r"^5 games, \d+ draws? \(", text, re.M), text
    r = _cli_result(*args)
    assert r.exit_code == 0 and re.match(r"Played 1 game in [\d.]+ s of play \(.*\) in \d+ cells; 6 games stored in ",
                                         r.stdout), r.stdout
