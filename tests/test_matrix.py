"""The matrix runner: planning, seeding, the Parquet store, resume, workers, CLI errors."""
import json
import os
import re
import signal
import subprocess
import sys
import time
import zlib
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.engine.core import game_seed
from sim.play.match import Match
from sim.runs.cells import Cell, plan_cells, plan_chunks
from sim.runs.errors import RunError, RunInterrupted
from sim.runs.matrix import plan_run, run_matrix
from sim.runs.store import read_games, read_manifest, read_spaces

ROOT = Path(__file__).resolve().parents[1]
SMALL = {"games": 40, "heroes": ["medusa", "sinbad"], "battlefields": ["soho"], "seed": 5}


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def reference(tmp_path_factory):
    """An uninterrupted small run (2 heroes x 1 battlefield x 40 games per pair), 1 job."""
    d = tmp_path_factory.mktemp("ref") / "run"
    run_matrix(d, chunk_size=7, jobs=1, **SMALL)
    return d, read_games(d)


def test_cells_split_games_evenly_between_seats_and_battlefields():
    bfs = ["marmoreal", "sarpedon", "soho"]
    cells = plan_cells({"alice": [""], "medusa": [""], "sinbad": [""]}, bfs, 100)
    per_pair = {}
    for c in cells:
        per_pair[frozenset((c.p1, c.p2))] = per_pair.get(frozenset((c.p1, c.p2)), 0) + c.games
    assert len(per_pair) == 6 and set(per_pair.values()) == {100}     # 3 pairs + 3 mirrors
    ms = [c for c in cells if {c.p1, c.p2} == {"medusa", "sinbad"}]
    assert len(ms) == 6                        # 3 battlefields x 2 seat orders
    # 100 = 34 + 33 + 33 over the battlefields; each battlefield's odd game goes to the
    # next seat order in turn
    assert [(c.p1, c.battlefield, c.games) for c in ms] == [
        ("medusa", "marmoreal", 17), ("sinbad", "marmoreal", 17), ("medusa", "sarpedon", 17),
        ("sinbad", "sarpedon", 16), ("medusa", "soho", 16), ("sinbad", "soho", 17)]
    first = sum(c.games for c in ms if c.p1 == "medusa")
    assert first == 50                         # seats balanced
    mirror = [c for c in cells if c.p1 == c.p2 == "alice"]   # a mirror's two seat orders are one cell
    assert [c.games for c in mirror] == [34, 33, 33]


def test_loadouts_split_evenly():
    bfs = ["marmoreal", "sarpedon", "soho"]
    los = [f"l{i}" for i in range(8)]     # a hero with 8 loadouts: 16 slots per battlefield
    cells = plan_cells({"geralt": los, "medusa": [""]}, bfs, 1000)
    pair = [c for c in cells if c.p1 != c.p2]
    assert {bf: sum(c.games for c in pair if c.battlefield == bf) for bf in bfs} == \
        {"marmoreal": 334, "sarpedon": 333, "soho": 333}
    per_lo = [sum(c.games for c in pair if lo in (c.p1_loadout, c.p2_loadout)) for lo in los]
    assert sum(per_lo) == 1000 and max(per_lo) - min(per_lo) <= 2
    assert sum(c.games for c in pair if c.p1 == "geralt") == 500
    cells = plan_cells({"gorgon": ["long", "short"], "sinbad": [""]}, ["soho"], 40)
    pair = [c for c in cells if "sinbad" in (c.p1, c.p2) and "gorgon" in (c.p1, c.p2)]
    assert sorted((c.p1, c.p1_loadout, c.p2, c.p2_loadout, c.games) for c in pair) == [
        ("gorgon", "long", "sinbad", "", 10), ("gorgon", "short", "sinbad", "", 10),
        ("sinbad", "", "gorgon", "long", 10), ("sinbad", "", "gorgon", "short", 10)]
    mirror = sorted((c.p1_loadout, c.p2_loadout, c.games) for c in cells if c.p1 == c.p2 == "gorgon")
    assert mirror == [("long", "long", 10), ("long", "short", 10), ("short", "long", 10), ("short", "short", 10)]


def test_matchup_id_is_a_stable_hash_of_the_cell_identity():
    c = Cell("medusa", "", "sinbad", "", "soho", 10)
    assert c.identity == "medusa@|sinbad@|soho"
    assert c.matchup_id == zlib.crc32(b"medusa@|sinbad@|soho") == 209673052
    assert Cell("medusa", "", "sinbad", "", "soho", 999).matchup_id == 209673052   # the count is not identity
    # adding a hero does not change the other cells (ids and game counts)
    two = plan_cells({"medusa": [""], "sinbad": [""]}, ["soho"], 30)
    three = plan_cells({"alice": [""], "medusa": [""], "sinbad": [""]}, ["soho"], 30)
    assert set(two) <= set(three) and len(three) == 3 * 2 + 3


def test_chunks_cover_each_cell_once():
    cells = plan_cells({"medusa": [""], "sinbad": [""]}, ["soho"], 40)
    chunks = plan_chunks(cells, 7)
    for c in cells:
        mine = [(ch.first, ch.n) for ch in chunks if ch.cell == c]
        assert sum(n for _, n in mine) == c.games and mine[0] == (0, 7)
        assert [f for f, _ in mine] == list(range(0, c.games, 7))
    assert len({ch.name for ch in chunks}) == len(chunks)


def test_stored_rows_are_the_engine_games(reference):
    d, games = reference
    assert len(games) == 120 and list(games.columns)[:4] == ["matchup_id", "game_index", "seed", "battlefield"]
    m = read_manifest(d)
    assert m["kind"] == "unmatched-sim matrix run" and m["status"] == "complete"
    assert m["package_version"] and m["settings"]["games_per_pair"] == 40 and m["settings"]["seed"] == 5
    assert m["heroes"]["medusa"]["cards"][0] == "Gaze of Stone"
    # one cell, replayed directly through Match, gives exactly the stored rows
    cell = games[(games["p1_hero"] == "sinbad") & (games["p2_hero"] == "medusa")]
    mid = zlib.crc32(b"sinbad@|medusa@|soho")
    assert (cell["matchup_id"] == mid).all() and cell["game_index"].tolist() == list(range(20))
    res, played = Match(["sinbad", "medusa"], "soho").play_many(20, 5, mid, 0, modes=("standard", "standard"),
                                                                card_counts=True)
    assert cell["seed"].tolist() == [int(game_seed(5, mid, i)) for i in range(20)]
    assert cell["winner"].tolist() == res[:, 0].tolist() and cell["turns"].tolist() == res[:, 1].tolist()
    assert cell["p1_health"].tolist() == res[:, 3].tolist() and cell["p2_cards_played"].tolist() == res[:, 8].tolist()
    n1 = len(m["heroes"]["sinbad"]["cards"])
    plays = np.stack(cell["p1_card_plays"].to_list())
    assert plays.shape == (20, n1) and np.array_equal(plays, played[:, 0, :n1])
    assert np.array_equal(plays.sum(axis=1), cell["p1_cards_played"].to_numpy())
    assert set(games["end_reason"]) <= {"hero_defeated", "turn_cap", "error"}
    # space counters: one row per chunk (cells of 40, 20, 20, 40 games in chunks of 7), summing
    # per cell to play_many's counters over the same games
    sp = read_spaces(d)
    assert [c["games"] for c in m["cells"]] == [40, 20, 20, 40] and len(sp) == 6 + 3 + 3 + 6
    mm = Match(["sinbad", "medusa"], "soho")
    mm.play_many(20, 5, mid, 0, modes=("standard", "standard"))
    rows = sp[sp["matchup_id"] == mid]
    assert np.array_equal(np.sum(np.stack(rows["combats"].to_list()), axis=0), mm.last_space_stats[0])
    assert np.array_equal(np.sum(np.stack(rows["defeats"].to_list()), axis=0), mm.last_space_stats[1])


def test_results_do_not_depend_on_chunk_size(reference, tmp_path):
    _, games = reference
    run_matrix(tmp_path / "big", chunk_size=40, jobs=1, **SMALL)
    pd.testing.assert_frame_equal(read_games(tmp_path / "big"), games)


def test_resume_after_an_interrupted_run_gives_the_same_rows(reference, tmp_path):
    _, games = reference
    d = tmp_path / "run"
    seen = []

    def stop(name, done):
        seen.append(name)
        if len(seen) == 5:
            raise KeyboardInterrupt

    with pytest.raises(RunInterrupted) as e:     # tasks of 7 games: one chunk each at first
        run_matrix(d, chunk_size=7, jobs=1, after_chunk=stop, task_games=7, **SMALL)
    assert e.value.chunks_done == 5 and e.value.chunks_total == 18
    parts = sorted((d / "games").glob("part-*.parquet"))
    assert len(parts) == 5 and len(list((d / "spaces").glob("part-*.parquet"))) == 5
    assert read_manifest(d)["status"] == "interrupted"

    def part(name):
        (f,) = (d / "games").glob(f"part-{name}-*.parquet")
        return f

    # a task killed half-way through its write leaves only a temporary file
    (d / "games" / f".{part(seen[0]).name}.123.tmp").write_bytes(b"PAR1 half a file")
    # and a lost task is simply played again
    part(seen[1]).unlink()
    # so is a damaged one (cut short after it was stored): found on resume, removed, replayed
    cut = part(seen[2])
    cut.write_bytes(cut.read_bytes()[:200])
    plan = plan_run(d, chunk_size=7, **SMALL)
    assert len(plan.done) == 3 and plan.games_done == 3 * 7
    assert not cut.exists() and not (d / "spaces" / cut.name).exists()
    r = run_matrix(d, chunk_size=7, jobs=1, **SMALL)
    assert r.games_played == 120 - 21 and r.games_skipped == 21
    assert not list((d / "games").glob(".*.tmp"))
    pd.testing.assert_frame_equal(read_games(d), games)
    pd.testing.assert_frame_equal(read_spaces(d), read_spaces(reference[0]))
    m = read_manifest(d)
    assert m["status"] == "complete" and [s["games"] for s in m["sessions"]] == [35, 99]
    # the complete run is compacted: one games file and one spaces file
    assert [p.name.startswith("compact-") for p in (d / "games").iterdir()] == [True]
    assert len(list((d / "spaces").iterdir())) == 1
    # a finished run resumes to nothing
    assert run_matrix(d, chunk_size=7, jobs=1, **SMALL).games_played == 0


def test_a_compaction_cut_short_leaves_a_consistent_folder(reference, tmp_path):
    """A kill after the compacted file is renamed into place but before the part files are
    removed: readers take the compacted file alone, and a resume removes the parts."""
    from sim.runs.store import _merge, compact, count_files, select_files
    ref, games = reference
    d = tmp_path / "run"
    with pytest.raises(RunInterrupted):
        run_matrix(d, chunk_size=7, jobs=1, task_games=7, after_chunk=lambda n, g: g >= 120 and _stop(), **SMALL)
    parts = len(list((d / "games").glob("part-*")))
    # manifest.json, its backup and the lock file, and every chunk stored, not compacted yet
    assert parts > 10 and count_files(d) == 3 + 2 * parts
    for sub in ("games", "spaces"):
        _merge(d / sub, select_files(d, sub)[0])            # compacted, parts not yet removed
    assert count_files(d) == 3 + 2 * (parts + 1)
    pd.testing.assert_frame_equal(read_games(d), games)
    pd.testing.assert_frame_equal(read_spaces(d), read_spaces(ref))
    plan = plan_run(d, chunk_size=7, **SMALL)
    assert len(plan.done) == 18 and count_files(d) == 5         # the redundant parts are removed on resume
    assert compact(d) == 0
    pd.testing.assert_frame_equal(read_games(d), games)


def test_a_damaged_compacted_file_is_played_again_and_the_spaces_kept(reference, tmp_path):
    """A completed run compacted into two games files and one spaces file; one games file is
    damaged: the resume plays its games again, and the spaces of the other chunks survive."""
    from sim.runs.store import compact, count_files
    ref, games = reference
    d = tmp_path / "run"
    with pytest.raises(RunInterrupted):
        run_matrix(d, chunk_size=7, jobs=1, task_games=7, after_chunk=lambda n, g: g >= 120 and _stop(), **SMALL)
    compact(d, rows_per_file=60)
    gfiles = sorted((d / "games").glob("compact-*"))
    assert len(gfiles) >= 2 and len(list((d / "spaces").iterdir())) == 1
    gfiles[0].write_bytes(gfiles[0].read_bytes()[:300])
    plan = plan_run(d, chunk_size=7, **SMALL)
    assert 0 < plan.games_done < 120 and len(list((d / "spaces").iterdir())) == 1
    r = run_matrix(d, chunk_size=7, jobs=1, **SMALL)
    assert r.games_played == 120 - plan.games_done
    pd.testing.assert_frame_equal(read_games(d), games)
    pd.testing.assert_frame_equal(read_spaces(d), read_spaces(ref))
    assert count_files(d) <= 7


def _stop():
    raise KeyboardInterrupt


def _killed_run_tables(run):
    from reports import compute_tables
    t = compute_tables(run)
    return {k: v for k, v in t.items() if isinstance(v, pd.DataFrame)}


def test_resume_after_a_killed_process_group(tmp_path):
    """SIGKILL a real `unmatched-sim matrix` (driver and loky workers: the process group) once
    some tasks are stored, rerun it: the stored games and every report table equal an
    uninterrupted run's, and the kill lost only the tasks in flight."""
    d = tmp_path / "killed"
    args = [sys.executable, "-m", "sim.cli", "matrix", "--games", "1200", "--heroes", "medusa,sinbad,alice,dracula",
            "-b", "soho", "--seed", "3", "--chunk-size", "50", "--task-games", "100", "--jobs", "2", "--out", str(d),
            "--no-report", "-q"]
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    p = subprocess.Popen(args, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                         start_new_session=True)
    try:
        deadline = time.time() + 1800     # a hang guard only: the loop ends on the files
        while time.time() < deadline and p.poll() is None:
            if len(list((d / "games").glob("part-*.parquet"))) >= 5:
                break
            time.sleep(0.002)
        os.killpg(p.pid, signal.SIGKILL)
    finally:
        p.wait()
    stored = len(list((d / "games").glob("part-*.parquet")))
    assert 5 <= stored < 120, "the run should be killed part-way (120 tasks of 100 games)"
    assert read_manifest(d)["status"] == "running"                # killed: no chance to say otherwise
    plan = plan_run(d, games=1200, heroes=["medusa", "sinbad", "alice", "dracula"], battlefields=["soho"], seed=3,
                    chunk_size=50)
    assert plan.games_done >= stored * 100                       # every stored task counts
    rc = subprocess.run(args, check=False, cwd=ROOT, env=env, capture_output=True, text=True)
    assert rc.returncode == 0, rc.stderr
    assert f"Resuming {d}" in rc.stderr and "Played" in rc.stdout
    ref = tmp_path / "whole"
    run_matrix(ref, games=1200, heroes=["medusa", "sinbad", "alice", "dracula"], battlefields=["soho"], seed=3,
               chunk_size=50, jobs=2)
    pd.testing.assert_frame_equal(read_games(d), read_games(ref))
    pd.testing.assert_frame_equal(read_spaces(d), read_spaces(ref))
    killed, whole = _killed_run_tables(d), _killed_run_tables(ref)
    assert set(killed) == set(whole)
    for name in killed:
        pd.testing.assert_frame_equal(killed[name], whole[name], obj=name)


def test_two_jobs_give_the_same_tables_as_one(reference, tmp_path):
    from reports import compute_tables
    d1, games = reference
    d2 = tmp_path / "two"
    run_matrix(d2, chunk_size=7, jobs=2, **SMALL)
    pd.testing.assert_frame_equal(read_games(d2), games)
    pd.testing.assert_frame_equal(read_spaces(d2), read_spaces(d1))
    t1, t2 = compute_tables(d1), compute_tables(d2)
    for name in ("matchups", "matchups_by_battlefield", "strength", "first_player", "cards", "spaces"):
        pd.testing.assert_frame_equal(t1[name], t2[name])


def test_homebrew_hero_with_loadouts(tmp_path, gorgon):
    path = gorgon
    d = tmp_path / "run"
    run_matrix(d, games=40, heroes=["gorgon", "sinbad"], battlefields=["soho"], seed=2, chunk_size=10, jobs=1,
               extra_heroes=[path])
    g = read_games(d)
    pair = g[(g["p1_hero"] != g["p2_hero"])]
    assert pair.groupby(["p1_hero", "p1_loadout", "p2_hero", "p2_loadout"]).size().tolist() == [10, 10, 10, 10]
    m = read_manifest(d)
    assert m["heroes"]["gorgon"]["loadouts"] == ["long", "short"]
    # only the chosen loadout's cards are ever played
    long_idx = m["heroes"]["gorgon"]["cards"].index("Long Shot")
    short_idx = m["heroes"]["gorgon"]["cards"].index("Short Shot")
    gl = g[(g["p1_hero"] == "gorgon") & (g["p1_loadout"] == "long")]
    assert all(a[short_idx] == 0 for a in gl["p1_card_plays"]) and sum(a[long_idx] for a in gl["p1_card_plays"]) > 0
    # a single loadout can be chosen with KEY@LOADOUT
    plan = plan_run(tmp_path / "one", games=10, heroes=["gorgon@short", "sinbad"], battlefields=["soho"],
                    extra_heroes=[path])
    assert plan.settings["heroes"] == {"gorgon": ["short"], "sinbad": [""]}


# ------------------------------------------------------------------ bad input


def test_plan_errors_name_the_option_and_list_valid_values(tmp_path):
    with pytest.raises(RunError, match=r"unknown hero 'hercules'; valid: .*medusa.*sinbad") as e:
        plan_run(tmp_path / "x", 10, heroes=["medusa", "hercules"])
    assert e.value.param == "--heroes"
    with pytest.raises(RunError, match=r"unknown battlefield 'atlantis'; valid: baskerville_manor, .*soho") as e:
        plan_run(tmp_path / "x", 10, battlefields=["soho,atlantis"])
    assert e.value.param == "--battlefields"
    with pytest.raises(RunError, match=r"unknown AI profile 'clever'; valid: expert, expert-0.2, expert-deep, greedy, random, standard, standard-0.2, tuned, tuned-0.2"):
        plan_run(tmp_path / "x", 10, ai="clever")
    for bad in (0, -3):
        with pytest.raises(RunError, match="games must be a positive whole number"):
            plan_run(tmp_path / "x", bad)
    with pytest.raises(RunError, match="no loadout 'steel'"):
        plan_run(tmp_path / "x", 10, heroes=["medusa@steel"])
    assert not (tmp_path / "x").exists()


def test_plan_takes_battlefield_and_profile_names_in_any_form(tmp_path):
    """-b SOHO,'Baskerville Manor' --ai Standard plans the run of -b baskerville_manor,soho --ai standard."""
    named = plan_run(tmp_path / "x", 10, heroes=["medusa", "sinbad"], battlefields=["SOHO,Baskerville Manor"],
                     ai="Standard")
    keyed = plan_run(tmp_path / "y", 10, heroes=["medusa", "sinbad"], battlefields=["baskerville_manor", "soho"],
                     ai="standard")
    assert named.settings["battlefields"] == ["baskerville_manor", "soho"] and named.settings["ai"] == "standard"
    assert named.settings_digest == keyed.settings_digest
    assert [c.name for c in named.chunks] == [c.name for c in keyed.chunks]
    r = CliRunner().invoke(main, ["matrix", "-n", "10", "--heroes", "medusa,sinbad", "-b", "soho,atlantis",
                                  "-o", str(tmp_path / "z")])
    assert r.exit_code == 2 and "unknown battlefield 'atlantis'; valid: baskerville_manor" in r.output


def test_cli_bad_input_is_a_usage_error_and_writes_nothing(tmp_path):
    out = tmp_path / "new"
    cases = [
        (["--heroes", "medusa,hercules"], "Invalid value for '--heroes': unknown hero 'hercules'; valid: "),
        (["-b", "atlantis"], "Invalid value for '--battlefields': unknown battlefield 'atlantis'; valid: baskerville_manor"),
        (["--games", "0"], "Invalid value for '--games' / '-n': 0 is not in the range 1<=x<=1000000"),
        (["--games", "abc"], "Invalid value for '--games' / '-n': 'abc' is not a whole number of games."),
        (["--games", "2.5"], "Invalid value for '--games' / '-n': '2.5' is not a whole number of games."),
        (["--seed", "x"], "Invalid value for '--seed' / '-s': 'x' is not a whole number."),
        (["--task-games", "many"], "Invalid value for '--task-games': 'many' is not a whole number of games."),
        (["--ai", "clever"], "unknown AI profile 'clever'; valid: expert, expert-0.2, expert-deep, greedy, random, standard, standard-0.2, tuned, tuned-0.2"),
    ]
    for extra, message in cases:
        r = cli("matrix", "--out", out, *extra)
        assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output, r.output
    assert not out.exists()
    foreign = tmp_path / "foreign"
    foreign.mkdir()
    (foreign / "notes.txt").write_text("keep me")
    r = cli("matrix", "--games", "10", "--out", foreign)
    assert r.exit_code == 2 and "is a non-empty folder that is not a matrix run folder" in r.output
    assert os.listdir(foreign) == ["notes.txt"] and (foreign / "notes.txt").read_text() == "keep me"
    afile = tmp_path / "afile"
    afile.write_text("x")
    r = cli("matrix", "--games", "10", "--out", afile)
    assert r.exit_code == 2 and "is a file, not a folder" in r.output and afile.read_text() == "x"
    r = cli("matrix", "--games", "10", "--heroes", "medusa,sinbad", "-b", "soho", "-q", "--out", afile / "sub")
    assert r.exit_code == 2 and "cannot write the run folder" in r.output and "Traceback" not in r.output
    for heroes, msg in (("medusa", "--heroes names 1 hero; a matrix needs at least 2 different heroes"),
                        ("", "--heroes is empty")):
        r = cli("matrix", "--games", "10", "--heroes", heroes, "-b", "soho", "-q", "--out", tmp_path / "none")
        assert r.exit_code == 2 and msg in r.output and not (tmp_path / "none").exists()


def test_cli_refuses_a_run_folder_with_other_settings(reference):
    d, _ = reference
    before = (d / "manifest.json").read_bytes()
    files = sorted(p.name for p in (d / "games").iterdir())
    r = cli("matrix", "--games", "80", "--heroes", "medusa,sinbad", "-b", "soho", "--seed", "5", "--chunk-size", "7",
            "--out", d)
    assert r.exit_code == 2
    assert "holds a run with different settings (games_per_pair: run has 40, this command 80)" in r.output
    r = cli("matrix", "--games", "40", "--heroes", "medusa,sinbad", "-b", "soho", "--seed", "6", "--chunk-size", "7",
            "--out", d)
    assert r.exit_code == 2 and "seed: run has 5, this command 6" in r.output
    # a list or a dict of the settings: what only one side has, in words, not JSON
    r = cli("matrix", "--games", "40", "--heroes", "alice,medusa,sinbad", "-b", "soho,marmoreal", "--seed", "5",
            "--chunk-size", "7", "--out", d)
    assert r.exit_code == 2 and "{" not in r.output and "\"" not in r.output
    assert (f"{d} holds a run with different settings (battlefields: only this command has marmoreal; heroes: only "
            "this command has alice); rerun with the same options") in " ".join(r.output.split())
    assert (d / "manifest.json").read_bytes() == before and sorted(p.name for p in (d / "games").iterdir()) == files


def test_cli_matrix_runs_resumes_and_reports(tmp_path):
    d = tmp_path / "run"
    args = ["matrix", "--games", "20", "--heroes", "medusa", "--heroes", "sinbad", "-b", "soho", "--jobs", "1",
            "--seed", "4", "--out", d]
    r = cli(*args)
    assert r.exit_code == 0, r.output
    assert "Played 60 games" in r.output and "4 cells; 60 games stored" in r.output
    assert "First player scores" in r.output and f"Report: {d / 'report' / 'report.html'}" in r.output
    # the time of play is said to be that, and the last line says where the command's time went
    assert re.search(r"Played 60 games in \d+\.\d s of play \(", r.stdout)
    last = r.stderr.splitlines()[-1]
    m = re.fullmatch(r"Took (\d+) s up to here: (\d+\.\d) s of play, (\d+\.\d) s (?:loading|compiling) the engine "
                     r"(?:\(once\) )?and starting and stopping the workers, (\d+\.\d) s for the report, (\d+\.\d) s starting up "
                     r"and planning\.", last)
    assert m, last
    assert abs(int(m[1]) - sum(float(x) for x in m.groups()[1:])) <= 0.75        # the parts add up (rounded)
    assert (d / "report" / "tables" / "matchups.csv").exists() and (d / "report" / "plots" / "map_soho.png").exists()
    r = cli(*args)
    assert r.exit_code == 0 and "All 60 games were already stored" in r.output
    assert json.loads((d / "manifest.json").read_text())["status"] == "complete"


def test_a_run_folder_of_an_older_format_gets_a_one_line_message(tmp_path):
    """The stored layout has a format number; a folder of another one (format 2: one file per
    chunk, no chunk list in the files) is named as such by `report`, by a rerun (resume) and
    by another command given it as --out, in one line, never read as if it were this version's."""
    from sim.runs.store import FORMAT_VERSION, MANIFEST
    assert FORMAT_VERSION == 3
    out = tmp_path / "old"
    r = CliRunner().invoke(main, ["matrix", "--games", "4", "--heroes", "medusa,sinbad", "-b", "soho", "--ai", "random",
                                  "--no-report", "-q", "--out", str(out)])
    assert r.exit_code == 0, r.output
    m = json.loads((out / MANIFEST).read_text())
    m["format"] = 2
    (out / MANIFEST).write_text(json.dumps(m))
    (out / "games" / "part-0c7f5c6c-000000000.parquet").write_bytes(b"PAR1 a format-2 chunk file")
    before = sorted(str(p) for p in out.rglob("*"))
    for args in (["report", str(out)],
                 ["matrix", "--games", "4", "--heroes", "medusa,sinbad", "-b", "soho", "--ai", "random", "-q",
                  "--out", str(out)],
                 ["loadouts", "geralt", "--games", "8", "--opponents", "medusa", "-b", "soho", "-q", "--out", str(out)],
                 ["teams", "--games", "3", "--heroes", "medusa,sinbad,alice,dracula", "-b", "soho", "-q",
                  "--out", str(out)]):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2 and "Traceback" not in r.output, r.output
        line = [x for x in r.output.splitlines() if "format" in x]
        assert len(line) == 1 and "a run folder of format 2" in line[0], r.output
        assert f"this version reads format {FORMAT_VERSION}" in line[0] and "new --out folder" in line[0]
    assert sorted(str(p) for p in out.rglob("*")) == before        # nothing removed or written


def test_a_many_cells_run_is_stored_in_few_files(tmp_path):
    """Hundreds of small cells (Geralt's 8 loadouts x 6 battlefields x seats): the games are
    batched into a few worker tasks, and the completed run holds one games file and one
    spaces file; the whole folder, report included (but for its example games' pages, 4 per
    pair of heroes), stays well under 50 files."""
    from sim.runs.store import count_files
    d = tmp_path / "many"
    r = run_matrix(d, games=96, heroes=["geralt", "medusa", "sinbad"], ai="random", seed=2, jobs=2)
    plan = plan_run(d, games=96, heroes=["geralt", "medusa", "sinbad"], ai="random", seed=2)
    assert len(plan.cells) > 300 and len(plan.chunks) == len(plan.cells)   # most cells hold one or two games
    assert 2 <= r.tasks <= 20 and r.games_played == plan.games_total == 6 * 96
    assert [p.name[:8] for p in (d / "games").iterdir()] == ["compact-"]
    assert [p.name[:8] for p in (d / "spaces").iterdir()] == ["compact-"]
    assert count_files(d) == 5        # manifest.json (+ .bak), .lock, one games and one spaces file
    assert len(read_spaces(d)) == len(plan.chunks) and len(read_games(d)) == plan.games_total
    from reports import build_report
    build_report(d)
    replays = list((d / "report" / "replays").iterdir())    # the example games: 4 per pair of different heroes
    assert len(replays) == 3 * 4
    assert count_files(d) - len(replays) <= 47


def test_the_first_tasks_are_small_whatever_the_run_size():
    """Auto-sized tasks ramp up: every worker's first task holds at most FIRST_TASK_GAMES
    games (one default chunk), each next round twice as many, up to the guided size; the
    tasks still cover every chunk once, in order. (The README's first matrix at --games 4000:
    six heroes, two battlefields, default chunks of 200.)"""
    from sim.runs.cells import FIRST_TASK_GAMES, MAX_TASK_GAMES, plan_tasks
    from sim.runs.plan import DEFAULT_CHUNK_SIZE
    heroes = {k: [""] for k in ("alice", "dracula", "invisible_man", "king_arthur", "medusa", "sinbad")}
    chunks = plan_chunks(plan_cells(heroes, ["marmoreal", "soho"], 4000), DEFAULT_CHUNK_SIZE)
    assert sum(ch.n for ch in chunks) == 21 * 4000
    for workers in (1, 2, 8):
        tasks = plan_tasks(chunks, workers)
        sizes = [sum(ch.n for ch in t) for t in tasks]
        assert [ch for t in tasks for ch in t] == chunks
        assert max(sizes[:workers]) <= FIRST_TASK_GAMES
        # round r holds at most FIRST_TASK_GAMES * 2**r games (+ one chunk less a game)
        for i, n in enumerate(sizes):
            assert n <= min(MAX_TASK_GAMES, FIRST_TASK_GAMES << (i // workers)) + DEFAULT_CHUNK_SIZE - 1
        # then larger tasks: few files, little overhead (84,000 games: 19 tasks on 1 worker, 95 on 8)
        assert max(sizes) >= 10 * FIRST_TASK_GAMES and sum(sizes) / len(tasks) >= 4 * FIRST_TASK_GAMES
    # an explicit --task-games is taken as it is
    assert [sum(ch.n for ch in t) for t in plan_tasks(chunks, 2, 5000)][:2] == [5000, 5000]


def test_an_early_interrupt_keeps_the_first_task(tmp_path):
    """A big run interrupted as soon as its first task is stored (the hook stands for a
    Ctrl-C a second into play) keeps that task's games, at most FIRST_TASK_GAMES of them,
    identical to the same games of an uninterrupted run."""
    from sim.runs.cells import FIRST_TASK_GAMES
    big = dict(games=4000, heroes=["medusa", "sinbad"], battlefields=["soho"], seed=5, ai="random")
    d = tmp_path / "big"
    stored = []

    def stop(name, done):
        stored.append(done)
        raise KeyboardInterrupt

    with pytest.raises(RunInterrupted) as e:
        run_matrix(d, jobs=1, after_chunk=stop, **big)
    assert 0 < e.value.games_done == stored[0] <= FIRST_TASK_GAMES
    games = read_games(d)
    assert len(games) == stored[0] and read_manifest(d)["status"] == "interrupted"
    # the same games as a run of those cells alone would store (seeds from run seed, cell, index)
    cell = games.iloc[0]
    res, _ = Match([cell["p1_hero"], cell["p2_hero"]], "soho").play_many(
        len(games), 5, int(cell["matchup_id"]), 0, modes=("random", "random"), card_counts=True)
    assert games["game_index"].tolist() == list(range(len(games)))
    assert games["winner"].tolist() == res[:, 0].tolist() and games["turns"].tolist() == res[:, 1].tolist()
