"""Issue 31, a designer's first hour (second trial): what a fresh user met with homebrew heroes
and unfinished runs.

A stored game replayed after its homebrew hero file was edited, a homebrew file whose key is an
installed hero's, and the reports of unfinished ``compare`` and ``loadouts`` runs.
"""
from __future__ import annotations

import json
import re
import shutil
from pathlib import Path

import pyarrow as pa
import pyarrow.parquet as pq
import pytest
from click.testing import CliRunner

from sim.cli import main

ROOT = Path(__file__).resolve().parents[1]
README = (ROOT / "README.md").read_text(encoding="utf-8")


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def said(r) -> list[str]:
    """The lines a command printed, but the once-per-install compile notice."""
    return [ln for ln in r.output.strip().splitlines() if not ln.startswith("Compiling the engine")]


def _readme_hero() -> str:
    """The README's homebrew example hero file (my_heroes/lamplighter.toml)."""
    i = README.index("<!-- homebrew-example: my_heroes/lamplighter.toml")
    return re.compile(r"```toml\n(.*?)```", re.S).search(README, i).group(1)


@pytest.fixture(scope="module")
def lamp_run(tmp_path_factory):
    """The trial's run: the README's homebrew hero against Medusa and Sinbad on Soho."""
    d = tmp_path_factory.mktemp("lamp")
    (d / "my_heroes").mkdir()
    (d / "my_heroes" / "lamplighter.toml").write_text(_readme_hero(), encoding="utf-8")
    r = run("--homebrew", d / "my_heroes", "matrix", "--games", 8, "--heroes", "lamplighter,medusa,sinbad",
            "-b", "soho", "--out", d / "run", "--jobs", 1, "--quiet", "--no-report")
    assert r.exit_code == 0, r.output
    return d


def _edited_copy(lamp_run, tmp_path) -> Path:
    """A copy of the run and its hero folder, with the homebrew hero's health edited (15 -> 16)."""
    d = tmp_path / "t"
    shutil.copytree(lamp_run, d)
    man = json.loads((d / "run" / "manifest.json").read_text())
    man["extra_hero_paths"] = [str(d / "my_heroes")]
    (d / "run" / "manifest.json").write_text(json.dumps(man))
    (d / "run" / "manifest.json.bak").unlink(missing_ok=True)
    hero = d / "my_heroes" / "lamplighter.toml"
    text = hero.read_text(encoding="utf-8")
    assert "health = 15\n" in text
    hero.write_text(text.replace("health = 15\n", "health = 16\n", 1), encoding="utf-8")
    return d


def _lamp_seed(run_dir) -> int:
    r = run("replay", run_dir, "--list", "--matchup", "lamplighter,medusa", "--limit", 1)
    assert r.exit_code == 0, r.output
    return int(re.search(r"seed (\d+);", r.output).group(1))


def test_replay_of_a_game_whose_homebrew_hero_file_changed_is_refused_naming_the_file(lamp_run, tmp_path):
    d = _edited_copy(lamp_run, tmp_path)
    seed = _lamp_seed(d / "run")
    out = tmp_path / "g.html"
    r = run("replay", d / "run", "--matchup", "lamplighter,medusa", "--seed", seed, "-o", out)
    lines = said(r)
    assert r.exit_code == 1 and len(lines) == 1, r.output
    assert f"hero lamplighter's file {d / 'my_heroes' / 'lamplighter.toml'} changed since the run" in lines[0]
    assert not out.exists()
    # a game of heroes whose files are as the run played them is still shown
    r = run("replay", d / "run", "--list", "--matchup", "medusa,sinbad", "--limit", 1)
    seed = int(re.search(r"seed (\d+);", r.output).group(1))
    r = run("replay", d / "run", "--matchup", "medusa,sinbad", "--seed", seed, "-o", out)
    assert r.exit_code == 0 and out.exists(), r.output


def test_the_report_skips_the_example_pages_it_cannot_replay_faithfully_and_says_so(lamp_run, tmp_path):
    d = _edited_copy(lamp_run, tmp_path)
    r = run("report", d / "run")
    assert r.exit_code == 0, r.output
    pages = sorted(p.name for p in (d / "run" / "report" / "replays").glob("*.html"))
    assert pages and all(p.startswith("medusa-sinbad-") for p in pages), pages
    notes = [ln for ln in said(r) if "example game" in ln and "no page" in ln]
    assert len(notes) == 1, r.output
    n = int(re.search(r"note: (\d+) example games? got no page", notes[0]).group(1))
    assert 1 <= n <= 8 and "lamplighter.toml changed since the run" in notes[0], notes[0]


def test_a_game_that_plays_differently_names_the_field_that_differs(lamp_run, tmp_path):
    d = tmp_path / "t"
    shutil.copytree(lamp_run / "run", d)
    for f in (d / "games").rglob("*.parquet"):     # every stored final health of the first player, one more
        t = pq.read_table(f)
        i = t.schema.get_field_index("p1_health")
        t = t.set_column(i, t.schema.field(i), pa.array(t.column(i).to_numpy() + 1, t.schema.field(i).type))
        pq.write_table(t, f)
    r = run("replay", d, "--game", 0, "-o", tmp_path / "x.html")
    lines = said(r)
    assert r.exit_code == 1 and len(lines) == 1, r.output
    m = re.search(r"differs: (\w+)'s final health \(P1\) (\d+) stored, (\d+) replayed\)", lines[0])
    assert m and int(m.group(2)) == int(m.group(3)) + 1, lines[0]
    assert "winner" not in lines[0].split("differs:")[1] and "turns" not in lines[0].split("differs:")[1]


# ------------------------------------------------------------------ a homebrew file with an installed hero's key


@pytest.fixture
def clash(tmp_path):
    """A --homebrew folder holding a modified copy of Medusa's file under her own key."""
    d = tmp_path / "hb_clash"
    d.mkdir()
    text = (ROOT / "heroes" / "medusa.toml").read_text(encoding="utf-8")
    health = re.search(r"(?m)^health = (\d+)$", text)
    (d / "medusa.toml").write_text(text[:health.start()] + f"health = {int(health.group(1)) + 2}"
                                   + text[health.end():], encoding="utf-8")
    return d


def test_a_command_naming_a_hero_whose_homebrew_file_clashes_stops_with_the_files_error(clash, tmp_path):
    for args in (["duel", "medusa", "sinbad", "--seed", 3],
                 ["matrix", "--games", 4, "--heroes", "Medusa,sinbad", "-b", "soho", "--out", tmp_path / "run",
                  "--jobs", 1, "--quiet", "--no-report"]):
        r = run("--homebrew", clash, *args)
        lines = said(r)
        assert r.exit_code == 1 and len(lines) == 1, r.output
        assert lines[0] == (f"Error: hero 'medusa' cannot be used: {clash / 'medusa.toml'}: key 'medusa' is already "
                            f"the installed hero {ROOT / 'heroes' / 'medusa.toml'}; rename the file or set "
                            'key = "..." in it'), lines[0]
    assert not (tmp_path / "run").exists()


def test_a_command_not_naming_that_hero_warns_and_plays_and_no_worker_is_blamed(clash, tmp_path):
    from sim.runs.plan import file_sha, package_version
    from sim.runs.workers import worker_differences
    r = run("--homebrew", clash, "duel", "alice", "sinbad", "--seed", 3)
    assert r.exit_code == 0 and "Game over" in r.output, r.output
    warn = [ln for ln in said(r) if ln.startswith("warning: skipped a hero file")]
    assert len(warn) == 1 and "key 'medusa' is already the installed hero" in warn[0]
    # a run of every hero plays the installed Medusa: a worker with the same files is not "different"
    expect = {"hero:medusa": file_sha(ROOT / "heroes" / "medusa.toml"), "extra_heroes": [str(clash)],
              "package_version": package_version()}
    assert worker_differences(expect) == []
    assert worker_differences(dict(expect, **{"hero:medusa": file_sha(clash / "medusa.toml")})) == [
        "hero file medusa.toml differs"]


# ------------------------------------------------------------------ reports of unfinished compare and loadouts runs


def _interrupt_after(monkeypatch, tasks: int) -> None:
    """The run's tasks (played in this process with ``-j 1``) as a Ctrl-C after ``tasks`` of them
    would leave them: that many stored, then KeyboardInterrupt."""
    import sim.runs.drive as drive
    real, done = drive.play_task, []

    def play(*args, **kwargs):
        if len(done) == tasks:
            raise KeyboardInterrupt
        done.append(1)
        return real(*args, **kwargs)
    monkeypatch.setattr(drive, "play_task", play)


@pytest.fixture
def variant_file(tmp_path):
    v = tmp_path / "v.toml"
    v.write_text('name = "medusa +2"\n[hero.medusa]\nhealth = 18\n', encoding="utf-8")
    return v


def _interrupted_compare(tmp_path, monkeypatch, variant_file, tasks: int) -> Path:
    """A compare of Medusa +2 against three opponents (6 tasks a run) interrupted after ``tasks`` tasks."""
    _interrupt_after(monkeypatch, tasks)
    out = tmp_path / "cmp_int"
    r = run("compare", "--variant", variant_file, "--hero", "medusa", "--opponents", "sinbad,alice,dracula", "-b",
            "soho", "--games", 8, "--out", out, "-j", 1, "-q", "--task-games", 4)
    assert r.exit_code == 130, r.output
    monkeypatch.undo()
    return out


def test_a_compare_interrupted_in_its_baseline_run_is_reported_in_one_line(tmp_path, monkeypatch, variant_file):
    out = _interrupted_compare(tmp_path, monkeypatch, variant_file, 2)
    want = (f"Error: compare unfinished: baseline 8 of 24 games, variant not started; rerun the compare command "
            f"that made {out} (same options) to finish it, then `unmatched-sim report {out}`")
    for folder in (out, out / "baseline"):
        r = run("report", folder)
        assert r.exit_code == 1 and said(r) == [want], r.output


def _missing(run_dir, hero: str) -> tuple[list[str], list[tuple[str, str]]]:
    """From the stored games and the manifest: the opponents with no game of ``hero`` yet (by
    display name, in name order) and the (loadout, opponent name) pairs with none of the others."""
    from reports.format import hero_names
    from sim.runs.store import read_games, read_manifest
    m = read_manifest(run_dir)
    s, names = m["settings"], hero_names(m)
    g = read_games(run_dir)
    first = g["p1_hero"] == hero
    have = set(zip(g["p2_hero"].where(first, g["p1_hero"]), g["p1_loadout"].where(first, g["p2_loadout"])))
    opps = sorted((o for o in s["opponents"] if o != hero), key=lambda o: names[o].casefold())
    los = s.get("loadouts") if s["mode"] == "loadouts" else [""]
    none = [o for o in opps if not any((o, lo) in have for lo in los)]
    return [names[o] for o in none], [(lo, names[o]) for o in opps if o not in none for lo in los
                                      if (o, lo) not in have]


def test_an_unfinished_loadouts_report_names_the_opponents_and_pairs_with_no_games(tmp_path, monkeypatch):
    _interrupt_after(monkeypatch, 3)
    out = tmp_path / "lo_int"
    r = run("loadouts", "geralt", "--games", 16, "--opponents", "medusa,sinbad,alice", "-b", "soho", "--out", out,
            "-j", 1, "-q", "--task-games", 4)
    assert r.exit_code == 130, r.output
    monkeypatch.undo()
    r = run("report", out)
    assert r.exit_code == 0, r.output
    none, pairs = _missing(out, "geralt_of_rivia")
    assert none or pairs
    got = [ln for ln in said(r) if ln.startswith("No games yet")]
    assert len(got) == 1, r.output
    if none:
        assert got[0].startswith(f"No games yet against {len(none)} opponent{'s' * (len(none) > 1)}: "
                                 f"{', '.join(none)} (no row for them below)"), got[0]
    if pairs:
        assert f"of {len(pairs)} loadout x opponent pair" in got[0]
        assert all(f"{lo} vs {o}" in got[0] for lo, o in pairs[:4])
    assert got[0].count(" vs ") == min(len(pairs), 4), got[0]


def test_an_unfinished_compare_report_names_the_opponents_with_no_paired_games(tmp_path, monkeypatch, variant_file):
    out = _interrupted_compare(tmp_path, monkeypatch, variant_file, 9)
    r = run("report", out)
    assert r.exit_code == 0, r.output
    none, _ = _missing(out / "variant", "medusa")
    assert none
    got = [ln for ln in said(r) if ln.startswith("No paired games yet")]
    assert got == [f"No paired games yet against {len(none)} opponent{'s' * (len(none) > 1)}: {', '.join(none)} "
                   "(no row for them below)."], r.output


# ------------------------------------------------------------------ a deleted manifest.json, its backup intact


def test_a_deleted_manifest_is_read_from_its_backup(lamp_run, tmp_path):
    d = tmp_path / "run"
    shutil.copytree(lamp_run / "run", d)
    assert (d / "manifest.json.bak").exists()
    (d / "manifest.json").unlink()
    r = run("replay", d, "--list", "--limit", 0)
    assert r.exit_code == 0 and said(r)[-1] == "48 stored games", r.output
    r = run("report", d)
    assert r.exit_code == 0, r.output
    notes = [ln for ln in said(r) if ln.startswith("note: ")]
    assert notes == [f"note: {d}/manifest.json is missing; read its backup manifest.json.bak (rerunning the run's "
                     "command writes manifest.json again)"], r.output
    assert (d / "report" / "report.html").exists()
    r = run("--homebrew", lamp_run / "my_heroes", "matrix", "--games", 8, "--heroes", "lamplighter,medusa,sinbad",
            "-b", "soho", "--out", d, "--jobs", 1, "--quiet", "--no-report")
    assert r.exit_code == 0 and "All 48 games were already stored" in r.output, r.output
    assert json.loads((d / "manifest.json").read_text())["status"] == "complete"


# ------------------------------------------------------------------ the compile notice of a team duel


@pytest.mark.parametrize("args, part", [(["duel", "medusa+alice", "sinbad+dracula", "-b", "soho", "--json"], "teams"),
                                        (["duel", "medusa", "sinbad", "--html", "PAGE"], "replays"),
                                        (["duel", "medusa", "sinbad", "--json"], "duel")])
def test_the_compile_notice_of_a_duel_names_the_part_its_game_compiles(args, part, monkeypatch, tmp_path, capsys):
    """A team duel compiles the team-game code, a duel's --html page the replay code (the duel
    code is their first step, compiled then only when it is not cached): the notice, said when
    the first engine function compiles, names that part. (The callback is called here after
    the command, as the engine would call it at its first compile.)"""
    import sim.engine.sigs
    from sim.cli.app import COMPILE_PARTS, compile_notice
    waiting = []
    monkeypatch.setattr(sim.engine.sigs, "on_first_compile", waiting.append)
    r = run(*[str(tmp_path / "p.html") if a == "PAGE" else a for a in args])
    assert r.exit_code == 0, r.output
    assert len(waiting) == 1
    capsys.readouterr()
    waiting[0]()
    said_now = capsys.readouterr().err.strip()
    assert said_now == compile_notice(None, part) and COMPILE_PARTS[part][0] in said_now
    assert (": 1-3 minutes" in said_now) == (part == "duel")


def test_an_unfinished_report_names_every_opponent_without_games():
    """A compare interrupted early had no paired games against 9 opponents; its line named 4
    "and 5 more" (the trial's re-check). Every opponent is named; pairs stay cut at 4."""
    from reports.status import no_games_lines
    keys = [f"h{i}" for i in range(9)]
    names = {k: f"Hero {k[1]}" for k in keys}
    (line,) = no_games_lines({k: [""] for k in keys}, set(), names, "paired games")
    assert line == ("No paired games yet against 9 opponents: " + ", ".join(f"Hero {i}" for i in range(9))
                    + " (no row for them below).")
    (line,) = no_games_lines({"h0": [f"lo{i}" for i in range(6)]}, {("h0", "lo0")}, names)
    assert line.endswith("lo1 vs Hero 0, lo2 vs Hero 0, lo3 vs Hero 0, lo4 vs Hero 0 and 1 more.")
