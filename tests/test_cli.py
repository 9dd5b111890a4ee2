"""The unmatched-sim command line, run through click's test runner."""
import json
from pathlib import Path

import pytest

from click.testing import CliRunner

from sim.cli import main
from sim.content.profiles import get_profile


def run(*args):
    return CliRunner().invoke(main, list(args))


def test_heroes_lists_character_cards():
    r = run("heroes", "--json")
    assert r.exit_code == 0
    heroes = {h["key"]: h for h in json.loads(r.stdout)}
    assert heroes["medusa"]["health"] == 16 and heroes["medusa"]["attack"] == "ranged"
    assert heroes["sinbad"]["sidekicks"] == [{"name": "The Porter", "count": 1, "health": 6, "move": 2, "attack": "melee"}]
    assert "health 16, move 3, ranged" in run("heroes").output


def test_battlefields_lists_six():
    r = run("battlefields", "--json")
    rows = {b["key"]: b for b in json.loads(r.stdout)}
    assert len(rows) == 6 and rows["kaer_morhen"]["one_way_paths"] == 13
    assert rows["baskerville_manor"]["secret_passages"] == ["BM04", "BM09", "BM15", "BM26"]


def test_duel_narrates_and_json_summarises():
    r = run("duel", "medusa", "sinbad", "--seed", "4")
    assert r.exit_code == 0
    assert r.output.startswith("Medusa (medusa) vs Sinbad (sinbad) on Marmoreal, seed 4")
    assert "Game over" in r.output
    j = json.loads(run("duel", "medusa", "sinbad", "--seed", "4", "--json").output)
    assert j["winner"] in ("Medusa", "Sinbad", "draw") and j["turns"] >= 1
    assert f"wins on turn {j['turns']}" in r.output or j["winner"] == "draw"


def test_duel_takes_battlefield_and_profile_names_in_any_case():
    """-b 'Baskerville Manor' --ai Random plays the game of -b baskerville_manor --ai random."""
    keyed = run("duel", "medusa", "sinbad", "-b", "baskerville_manor", "--ai", "random", "--seed", "3")
    assert keyed.exit_code == 0 and keyed.output.startswith(
        "Medusa (medusa) vs Sinbad (sinbad) on Baskerville Manor, seed 3"), keyed.output
    for bf, ai in (("Baskerville Manor", "Random"), ("BASKERVILLE-MANOR", "RANDOM")):
        r = run("duel", "medusa", "sinbad", "-b", bf, "--ai", ai, "--seed", "3")
        assert r.exit_code == 0 and r.output == keyed.output, (bf, ai, r.output)
    r = run("duel", "medusa", "sinbad", "-b", "Atlantis")
    assert r.exit_code == 2 and r.output.strip().splitlines()[-1] == (
        "Error: unknown battlefield 'Atlantis'; valid names: baskerville_manor, fayrlund_forest, kaer_morhen, "
        "marmoreal, sarpedon, soho")


def test_heroes_are_named_by_key_alias_or_display_name_in_any_case(tmp_path):
    """`heroes` shows display names: every command that takes heroes takes them in any case,
    with spaces or underscores, and plays the same games as with the keys."""
    from sim.content.heroes import HeroFileError
    from sim.play.match import installed_content
    c = installed_content()
    for name in ("King Arthur", "king arthur", "KING_ARTHUR", "king-arthur", "king_arthur"):
        assert c.resolve_hero(name) == "king_arthur"
    assert c.resolve_hero("Geralt") == "geralt_of_rivia" == c.resolve_hero("Geralt of Rivia")   # an alias, a name
    assert c.resolve_hero("Dr. Jekyll & Mr. Hyde") == "jekyll_hyde" == c.resolve_hero("dr jekyll mr hyde")
    with pytest.raises(HeroFileError, match=r"^unknown hero 'Hercules'; valid: alice, ancient_leshen, ciri, "):
        c.resolve_hero("Hercules")
    # a key (or alias) wins over a display name; two heroes of one display name need their keys
    medusa = Path("heroes/medusa.toml").read_text(encoding="utf-8")
    for key in ("snake", "viper"):
        (tmp_path / f"{key}.toml").write_text(medusa.replace('"Medusa"', '"Stheno"'), encoding="utf-8")
    (tmp_path / "copy.toml").write_text(medusa, encoding="utf-8")        # named Medusa, key copy
    (tmp_path / "geralt.toml").write_text(medusa.replace('"Medusa"', '"Euryale"'), encoding="utf-8")
    h = installed_content((str(tmp_path),))
    # a homebrew key wins over an installed hero's alias of the same spelling (a fresh-user find:
    # `geralt` fitted both and named neither); the installed Geralt keeps his key and name
    assert h.resolve_hero("geralt") == "geralt" and h.resolve_hero("Geralt of Rivia") == "geralt_of_rivia"
    assert h.resolve_hero("MEDUSA") == "medusa" and h.resolve_hero("Copy") == "copy" and h.resolve_hero("snake") == "snake"
    with pytest.raises(HeroFileError, match=r"^hero 'Stheno' fits several heroes: snake, viper; give one of these keys$"):
        h.resolve_hero("Stheno")
    key = run("duel", "medusa", "sinbad", "--seed", "4", "--json")
    shown = run("duel", "Medusa", "SINBAD", "--seed", "4", "--json")
    assert shown.exit_code == 0 and json.loads(shown.output) == json.loads(key.output)
    r = run("duel", "King Arthur", "medusa", "--seed", "7")
    assert r.exit_code == 0 and r.output.startswith("King Arthur (king_arthur) vs Medusa (medusa)")
    r = run("duel", "Medusa+Alice", "Sinbad+King Arthur", "-b", "soho", "--seed", "3")
    assert r.exit_code == 0 and "Game over" in r.output, r.output
    r = run("matrix", "--games", "4", "--heroes", "Medusa,KING_ARTHUR", "-b", "soho", "--ai", "random", "--no-report",
            "-q", "--out", tmp_path / "runs" / "m")
    assert r.exit_code == 0 and json.loads((tmp_path / "runs" / "m" / "manifest.json").read_text())["settings"]["heroes"] == {
        "king_arthur": [""], "medusa": [""]}
    r = run("loadouts", "Geralt of Rivia", "--games", "8", "--opponents", "Medusa", "-b", "soho", "--ai", "random",
            "--no-report", "-q", "--out", tmp_path / "runs" / "g")
    assert r.exit_code == 0, r.output
    assert json.loads((tmp_path / "runs" / "g" / "manifest.json").read_text())["settings"]["hero"] == "geralt_of_rivia"
    r = run("duel", "Medusa", "Hercules")
    assert r.exit_code == 2 and "unknown hero 'Hercules'; valid: alice, ancient_leshen" in r.output


def test_unknown_names_list_the_valid_ones():
    r = run("duel", "medusa", "hercules")
    assert r.exit_code == 2 and "unknown hero 'hercules'; valid: alice, ancient_leshen, ciri, dracula, geralt_of_rivia, invisible_man, jekyll_hyde, king_arthur, medusa, sherlock_holmes, sinbad (a hero file of your own: --homebrew FILE before the command" in r.output
    r = run("duel", "medusa", "sinbad", "--battlefield", "atlantis")
    assert r.exit_code == 2 and "valid names: baskerville_manor" in r.output
    assert "Traceback" not in r.output


def test_validate_reports_good_and_bad_files(tmp_path):
    bad = tmp_path / "bad.toml"
    bad.write_text('name = "X"\n[hero]\nhealth = 5\nmove = 2\n[[cards]]\nname = "A"\ntype = "zap"\nvalue = 1\nboost = 1\ncopies = 1\n')
    r = run("validate", "heroes/medusa.toml", str(bad))
    assert r.exit_code == 1
    assert "ok  heroes/medusa.toml: hero Medusa, 30 cards" in r.output
    assert f"ERR {bad}: card 'A'.type: unknown 'zap'" in r.output   # the path, as on the ok lines
    r = run("validate", "sim/battlefields/soho.toml")
    assert r.exit_code == 0 and "battlefield Soho, 29 spaces" in r.output


def test_validate_refuses_a_homebrew_key_that_clashes_with_an_installed_hero(tmp_path):
    f = tmp_path / "medusa.toml"
    f.write_text(__import__("pathlib").Path("heroes/medusa.toml").read_text())
    r = run("validate", str(f))
    assert r.exit_code == 1 and "key 'medusa' is already the installed hero" in r.output


def test_homebrew_hero_plays_with_the_heroes_option(tmp_path):
    from pathlib import Path
    text = Path("heroes/medusa.toml").read_text().replace('"Medusa"', '"Gorgon"')
    (tmp_path / "gorgon.toml").write_text(text)
    r = run("--homebrew", str(tmp_path), "duel", "gorgon", "sinbad", "--seed", "2", "--json")
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["first_player"] == "Gorgon"


def test_mirror_match_names_the_seats():
    j = json.loads(run("duel", "medusa", "medusa", "--seed", "3", "--json").output)
    assert set(j["final_health"]) == {"Medusa (P1)", "Medusa (P2)"}
    assert j["winner_seat"] in (1, 2) and j["winner"] == f"Medusa (P{j['winner_seat']})"


def test_bad_seed_and_empty_loadout_are_usage_errors():
    r = run("duel", "medusa", "sinbad", "--seed", "-1")
    assert r.exit_code == 2 and "0<=x<=4294967295" in r.output
    r = run("duel", "medusa@", "sinbad")
    assert r.exit_code == 2 and "nothing after '@'" in r.output


def test_battlefield_without_start_2_is_refused(tmp_path):
    from pathlib import Path
    text = Path("sim/battlefields/soho.toml").read_text().replace("start = 2, ", "")
    f = tmp_path / "nostart.toml"
    f.write_text(text)
    r = run("validate", str(f))
    assert r.exit_code == 1 and "no space has start = 2" in r.output


def test_a_compile_is_announced_on_stderr_also_when_it_is_not_a_terminal(monkeypatch):
    """A command that compiles the engine says so first, in one line on stderr, whether or not
    stderr is a terminal; stdout stays clean for scripts. (Here the compile is simulated: the
    callback runs at once, as it would before numba compiled the first engine function.)"""
    import sim.engine.sigs
    from sim.cli.app import compile_notice
    monkeypatch.setattr(sim.engine.sigs, "on_first_compile", lambda callback: callback())
    r = CliRunner().invoke(main, ["duel", "medusa", "sinbad", "--json"])
    assert r.exit_code == 0
    assert r.stderr.splitlines() == [compile_notice("duel")]
    assert json.loads(r.stdout)["seed"] == 1


def test_the_compile_notice_says_which_part_it_compiles_and_how_long_it_takes():
    """The first matrix after a duel compiles only the run code (15-45 s), not the whole
    engine ("about a minute"): the notice names the part of each command and its time."""
    from sim.cli.app import compile_notice
    assert compile_notice("matrix") == (
        "Compiling the engine's run code for this machine, once after an install or an engine change: 15-45 s on "
        "two cores after a first duel (else 1-4 minutes: the duel code first); `unmatched-sim warmup` compiles "
        "every part ahead, and later commands start in seconds.")
    assert compile_notice("loadouts") == compile_notice("compare") == compile_notice("matrix")
    assert "the engine's team-game code" in compile_notice("teams")
    assert "the engine's replay code" in compile_notice("report")
    assert compile_notice("duel").startswith("Compiling the engine's duel code for this machine") and \
        ": 1-3 minutes on two cores" in compile_notice("duel")


def test_the_notice_callbacks_run_once_before_the_first_compile():
    """What fires the notice: numba's cache look-up of an engine function finding nothing (it then
    compiles). A look-up of a signature the cache cannot hold stands in for an empty cache."""
    from numba import types
    from sim.engine import sigs
    from sim.engine.game import result_row
    calls = []
    sigs.on_first_compile(lambda: calls.append("notice"))
    n = sigs.COMPILE_STATS["compiled"]
    for _ in range(2):
        assert result_row._cache.load_overload(types.void(types.float64), result_row.targetctx) is None
    assert calls == ["notice"] and sigs.COMPILE_STATS["compiled"] == n + 2


def test_warmup_compiles_or_loads_every_entry_point_and_says_so():
    from sim.engine.game import ENTRY_POINTS
    r = CliRunner().invoke(main, ["warmup"])
    assert r.exit_code == 0 and r.stdout == ""
    last = r.stderr.splitlines()[-1]
    assert last.startswith("engine ready: already compiled, loaded from the cache in ") or \
        last.startswith("engine compiled in "), r.stderr
    assert all(fn.is_ready() for fns in ENTRY_POINTS.values() for fn in fns)
    assert sorted(ENTRY_POINTS) == ["duels", "runs", "team games"]
    r = CliRunner().invoke(main, ["warmup"])   # now everything is loaded: nothing compiles
    assert r.exit_code == 0 and r.stderr.startswith("engine ready: already compiled"), r.stderr


def test_cache_is_warm_reads_this_install_cache():
    """After the suite has played games, the engine's cache folder holds compiled functions."""
    import sim.engine
    from sim.play.match import Match
    Match(["medusa", "sinbad"], "soho").play_many(1, 1, 0, 0)
    assert sim.engine.cache_is_warm()


def test_homebrew_after_the_command_name_gets_a_hint():
    r = run("duel", "medusa", "sinbad", "--homebrew", "my_heroes")
    assert r.exit_code == 2
    assert "it goes before the command" in r.output and "unmatched-sim --homebrew my_heroes duel" in r.output


def test_an_empty_homebrew_folder_is_said_once(tmp_path):
    """A --homebrew folder with no hero file in it gets one warning (most likely the wrong
    folder), and the command's own error about the hero follows."""
    r = run("--homebrew", str(tmp_path), "duel", "warden", "medusa")
    assert r.exit_code != 0
    assert r.output.count(f"warning: {tmp_path}: no .toml hero files in this --homebrew folder") == 1
    assert "unknown hero 'warden'" in r.output


def test_trial_findings_messages(tmp_path):
    """Messages that must name the right thing: a run folder, a hint, the option at fault."""
    # a hero with eight loadouts of one size: said once
    assert "deck 30 cards (each of 8 loadouts)" in run("heroes").output
    # `report` on a file
    f = tmp_path / "afile"
    f.write_text("x")
    r = run("report", str(f))
    assert r.exit_code == 2 and "a file, not a run folder" in r.output
    # loadouts' HERO is an argument, not --hero
    r = run("loadouts", "nobody")
    assert r.exit_code == 2 and "Invalid value for 'HERO': unknown hero 'nobody'" in r.output
    # a duel with a variant that changes neither hero says so
    v = tmp_path / "v.toml"
    v.write_text('name = "silver5"\n[hero.geralt_of_rivia.cards."Sword of Silver"]\nvalue = 5\n')
    r = run("duel", "medusa", "sinbad", "--variant", str(v))
    assert r.exit_code == 0, r.output
    assert "note: the variant 'silver5' changes none of this duel's heroes (it changes geralt_of_rivia)" in r.stderr


def test_matrix_says_when_games_do_not_split_evenly(tmp_path):
    r = run("matrix", "--games", "3", "--heroes", "medusa,sinbad", "-b", "soho,marmoreal", "--out",
            str(tmp_path / "m3"), "--no-report", "--quiet")
    assert r.exit_code == 0, r.output
    assert ("note: 3 games per pair do not split evenly over battlefields, loadouts and seats (1 pair, "
            "e.g. Medusa vs Sinbad: 4 slots)") in r.stderr
    r = run("matrix", "--games", "4", "--heroes", "medusa,sinbad", "-b", "soho,marmoreal", "--out",
            str(tmp_path / "m4"), "--no-report", "--quiet")
    assert r.exit_code == 0 and "split evenly" not in r.stderr
    # another command's folder as --out: no advice to "rerun with the same options"
    r = run("loadouts", "geralt", "--games", "16", "--opponents", "medusa", "-b", "soho", "--out", str(tmp_path / "m4"))
    assert r.exit_code == 2 and "the folder holds a matrix run, and this is a loadouts command" in r.output
    assert "rerun with the same options" not in r.output


def test_session7_trial_findings(tmp_path):
    """A huge --games, a folder as a profile, an expert in team games, an unfinished run's
    report, a resume with other weights: one clear line each."""
    r = CliRunner().invoke(main, ["matrix", "--games", "99999999999", "--out", str(tmp_path / "big")])
    assert r.exit_code == 2 and "99999999999 is not in the range 1<=x<=1000000" in r.output
    (tmp_path / "dir.toml").mkdir()
    r = CliRunner().invoke(main, ["duel", "medusa", "sinbad", "--ai", str(tmp_path / "dir.toml")])
    assert r.exit_code == 2 and "cannot read the AI profile file" in r.output and "Traceback" not in r.output
    r = CliRunner().invoke(main, ["duel", "medusa+sinbad", "alice+king_arthur", "--ai", "expert", "--seed", "1"])
    assert r.exit_code == 0 and "note: expert plays team games as the standard AI" in r.output
    run = tmp_path / "m"
    r = CliRunner().invoke(main, ["matrix", "--heroes", "medusa,sinbad", "-b", "soho", "--games", "8", "--out", str(run)])
    assert r.exit_code == 0, r.output
    m = json.loads((run / "manifest.json").read_text())
    assert m["games_total"] == 24
    m["games_total"] = 100                      # as if more games were planned than are stored
    (run / "manifest.json").write_text(json.dumps(m))
    r = CliRunner().invoke(main, ["report", str(run)])
    assert r.exit_code == 0 and f"warning: {run} is unfinished: 24 of 100 games stored" in r.output
    m["games_total"] = 24
    (run / "manifest.json").write_text(json.dumps(m))
    prof = tmp_path / "cautious.toml"
    prof.write_text('name = "cautious"\nmode = "standard"\nbase = "standard"\n[weights]\nthreat = 2.5\n')
    r = CliRunner().invoke(main, ["matrix", "--heroes", "medusa,sinbad", "-b", "soho", "--games", "8",
                                  "--out", str(run), "--ai", str(prof)])
    threat = get_profile("standard").weight("threat")
    assert r.exit_code == 2 and f"AI weights differ: threat {threat:g} -> 2.5" in r.output
