"""``unmatched-sim balance``: knobs, the screening rule, the curves, proposals as variant files,
their verification replayed by ``compare``, resuming, the lock, homebrew heroes, bad input."""
import json
import math

import numpy as np
import pytest
from click.testing import CliRunner
from scipy.stats import spearmanr

from reports.balance import build_balance_report
from reports.compare import pair_games, read_pair_columns
from sim.cli import main
from sim.content.heroes import load_all, load_heroes
from sim.content.knobs import hero_knobs, overrides, select_knobs
from sim.content.variants import load_variant
from sim.runs.backend import Backend
from sim.runs.balance import BalanceSettings, run_balance
from sim.runs.balance_stats import Paired, edit_key, paired, screen_look, single_proposals
from sim.runs.errors import RunError
from sim.runs.lock import RunLocked, run_lock
from sim.runs.versus import BASELINE_DIR, VARIANT_DIR, run_compare

ONE = Backend.of("loky", 1, None)
#: King Arthur against Medusa on Soho (about 18% as installed): two knobs, small blocks
SMALL = dict(hero="king_arthur", field=("medusa",), battlefields=("soho",), knobs=("health", "card:Excalibur:value"),
             target=0.25, budget=20000, verify_games=400, proposals=2, block_games=200)


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    out = tmp_path_factory.mktemp("balance") / "arthur"
    return out, run_balance(BalanceSettings(**SMALL), out, backend=ONE)


# ------------------------------------------------------------------ knobs
def test_king_arthurs_knobs_and_their_ranges():
    spec = load_all()["king_arthur"]
    knobs = {k.name: k for k in hero_knobs(spec)}
    assert knobs["health"].levels == tuple(range(12, 25))
    assert knobs["move"].levels == (1, 2, 3, 4)
    assert knobs["sidekick:Merlin:health"].levels == (5, 6, 7, 8, 9)
    assert knobs["card:Excalibur:value"].levels == (4, 5, 6, 7, 8)
    assert "card:The Lady of the Lake:value" not in knobs          # a scheme has no value
    assert "sidekick:Merlin:count" not in knobs                     # one Merlin: no count knob
    harpies = {k.name: k for k in hero_knobs(load_all()["medusa"])}["sidekick:Harpy:count"]
    assert (harpies.base, harpies.levels) == (3, (1, 2, 3))
    ex = knobs["copies:Excalibur/Noble Sacrifice"]                 # same type (attack), most copies
    assert (ex.base, ex.levels, ex.partner_base, ex.designs) == (1, (1, 2, 3), 3, 2)
    deck = {c.name: c.copies for c in spec.cards}
    for k in knobs.values():
        if k.kind == "copies":
            for v in k.levels:
                cards = overrides(knobs, {k.name: v})["cards"]
                assert cards[k.part]["copies"] + cards[k.partner]["copies"] == deck[k.part] + deck[k.partner]


def test_effect_arguments_are_knobs_and_their_variants_play_the_new_number():
    """Gaze of Stone's 8 damage and Medusa's start-of-turn Gaze (1 damage) are knobs; a setting
    of them is a variant file whose compiled cards deal the new damage."""
    import tomllib

    from sim.content.knobs import variant_text
    from sim.content.variants import apply_variant, parse_variant
    from sim.engine import layout as L
    specs = load_all()
    knobs = {k.name: k for k in hero_knobs(specs["medusa"])}
    gaze = knobs["card:Gaze of Stone:after.0.amount"]
    assert (gaze.kind, gaze.op, gaze.base, gaze.levels) == ("effect", "damage", 8, (5, 6, 7, 8, 9, 10, 11))
    assert gaze.reach == tuple(range(2, 15)) and gaze.label(5) == "Gaze of Stone damage 8 -> 5 (after.0.amount)"
    ability = knobs["ability:start_of_turn.0.amount"]
    assert (ability.base, ability.levels) == (1, (0, 1, 2, 3))
    assert ability.label(0) == "Gaze (ability) damage 1 -> 0 (start_of_turn.0.amount)"
    assert knobs["card:Dash:after.0.up_to"].levels == (1, 2, 3, 4, 5)
    text = variant_text("medusa", overrides(knobs, {gaze.name: 5, ability.name: 0}), "m")
    v = parse_variant(tomllib.loads(text), "m.toml", specs)
    assert sorted(v.describe()) == ["medusa: ability start_of_turn[0].amount 1 -> 0",
                                    "medusa: card 'Gaze of Stone' after[0].amount 8 -> 5"]
    patched = apply_variant(specs, v)["medusa"]
    card = next(c for c in patched.cards if c.name == "Gaze of Stone")
    rows = card.programs[2]                           # the 'after' window's program
    assert rows[rows[:, L.I_OP] > 0][0, L.I_N] == 5
    orig = next(c for c in specs["medusa"].cards if c.name == "Gaze of Stone").programs[2]
    assert orig[orig[:, L.I_OP] > 0][0, L.I_N] == 8


def test_a_trade_between_two_cards_of_equal_copies_is_one_knob():
    """Snipe and Clutching Claws (3 copies each) trade with each other by default: one knob, not two."""
    for spec in load_all().values():
        names = {k.name for k in hero_knobs(spec) if k.kind == "copies"}
        for n in names:
            a, b = n[len("copies:"):].split("/")
            assert f"copies:{b}/{a}" not in names, n


def test_a_knob_may_reach_twice_as_far_within_the_files_limits():
    knobs = {k.name: k for k in hero_knobs(load_all()["medusa"])}
    assert knobs["health"].reach == tuple(range(4, 29))                         # 16 +- 12
    assert knobs["card:Gaze of Stone:value"].reach == (0, 1, 2, 3, 4, 5, 6)       # value 2: not below 0
    assert knobs["move"].reach == (1, 2, 3, 4, 5, 6, 7)                           # move 3: at least 1
    assert knobs["copies:Gaze of Stone/Second Shot"].reach == (1, 2, 3, 4, 5)     # 3 + 3 copies, both at least 1
    for k in knobs.values():
        assert set(k.levels) <= set(k.reach)


def test_a_range_that_stops_short_of_the_target_is_extended_toward_it(tmp_path):
    # Excalibur's value 4..8 takes King Arthur from 10% to 29% against Medusa on Soho: 36% lies beyond
    res = run_balance(BalanceSettings(**dict(SMALL, knobs=("card:Excalibur:value",), target=0.36, proposals=1)),
                      tmp_path / "x", backend=ONE)
    (k,) = res["knobs"]
    assert k["extended"] == [9, 10]
    s = [p["score"] for p in res["curves"]["card:Excalibur:value"]]
    assert [p["level"] for p in res["curves"]["card:Excalibur:value"]] == list(range(4, 11))
    assert all(b > a for a, b in zip(s, s[1:]))
    (p,) = res["proposals"]
    assert p["setting"] == {"card:Excalibur:value": 9} and abs(p["predicted"]["score"] - 0.36) <= 0.02


def test_knob_patterns_and_named_trades():
    spec = load_all()["king_arthur"]
    assert [k.name for k in select_knobs(spec, ["card:*:value"])][:2] == ["card:Excalibur:value",
                                                                          "card:Noble Sacrifice:value"]
    assert [k.name for k in select_knobs(spec, ["HEALTH,sidekick:*"])] == [
        "health", "sidekick:Merlin:health", "sidekick:Merlin:move"]
    (k,) = select_knobs(spec, ["copies:Feint/Regroup"])              # not a default trade
    assert (k.partner, k.levels) == ("Regroup", (1, 2, 3, 4, 5))


# ------------------------------------------------------------------ statistics
def _p(change, se, n=1000):
    lo, hi = change - 1.96 * se, change + 1.96 * se
    return Paired(n, change, se, lo, hi, 2 * (1 - 0.5 * (1 + math.erf(abs(change) / se / math.sqrt(2)))) if se else 1.0,
                  0.5 + change, 0.5 + lo, 0.5 + hi)


def test_the_screening_rule():
    ends = {"strong": [_p(0.08, 0.01), _p(-0.07, 0.01)], "nothing": [_p(0.001, 0.003), _p(0.0, 0.002)],
            "unsure": [_p(0.02, 0.015), _p(-0.01, 0.015)]}
    dec = screen_look(ends, 0, 4)
    assert [dec[k][0] for k in ends] == ["effect", "no effect", "continue"]
    assert screen_look(ends, 3, 4, last=True)["unsure"][0] == "not detectable"


def test_paired_estimate_of_identical_games_is_exactly_the_baseline():
    b = np.array([1, 0, 0.5, 1, 0], float)
    e = paired(b, b)
    assert (e.change, e.lo, e.hi, e.p, e.score) == (0.0, 0.0, 0.0, 1.0, 0.5)


def test_proposals_prefer_the_smallest_edit():
    spec = load_all()["king_arthur"]
    knobs = {k.name: k for k in hero_knobs(spec)}
    curves = {"health": {20: _p(-0.01, 0.005), 22: _p(0.0, 0.005)},
              "copies:Excalibur/Noble Sacrifice": {2: _p(0.001, 0.005)},
              "card:Excalibur:value": {7: _p(0.015, 0.005), 8: _p(0.03, 0.005)}}
    got = single_proposals(curves, knobs, 0.5, 0.02)
    # value +1 (one design, one step) < health +2 (one design, two steps) < a copies trade (two designs)
    assert [p["setting"] for p in got] == [{"card:Excalibur:value": 7}, {"health": 20},
                                           {"copies:Excalibur/Noble Sacrifice": 2}]
    assert edit_key(1, 1, 2, 0.0) < edit_key(1, 2, 1, 0.0) < edit_key(2, 2, 2, 0.0)


# ------------------------------------------------------------------ a small run
def test_a_small_run_finds_verifies_and_writes_proposals(small_run):
    out, res = small_run
    assert {k["name"]: k["status"] for k in res["knobs"]} == {"health": "effect", "card:Excalibur:value": "effect"}
    assert res["games"]["search"] <= SMALL["budget"]
    assert 1 <= len(res["proposals"]) <= 2
    for p in res["proposals"]:
        assert abs(p["predicted"]["score"] - 0.25) <= 0.02
        assert p["verified"]["games"] == 400 and 0 < p["verified"]["score"] < 1
        v = load_variant(p["file"])
        (name, value), = p["setting"].items()
        changed = [c for c in v.changes if c.old != c.new]
        assert len(changed) == 1 and changed[0].hero == "king_arthur" and changed[0].new == value
        assert changed[0].what == ("health" if name == "health" else "card 'Excalibur' value")


def test_the_health_curve_rises_over_its_whole_range(small_run):
    _, res = small_run
    pts = res["curves"]["health"]
    assert [p["level"] for p in pts] == list(range(12, 25))
    s = [p["score"] for p in pts]
    assert spearmanr(range(len(s)), s).statistic > 0.95
    assert s[-1] - s[0] > 0.15                               # 12 -> 24 health: many points
    assert all(b - a > -0.02 for a, b in zip(s, s[1:]))    # no neighbour lower by 2 points or more


def test_a_proposals_variant_file_replays_its_verified_score_with_compare(small_run, tmp_path):
    out, res = small_run
    p = res["proposals"][0]
    cmd = p["command"].split()
    assert cmd[cmd.index("--seed") + 1] == str(res["verify_seed"])
    run_compare(tmp_path / "cmp", "king_arthur", p["file"], games=int(cmd[cmd.index("--games") + 1]),
                opponents=["medusa"], battlefields=["soho"], seed=res["verify_seed"], jobs=1)
    pairs = pair_games(read_pair_columns(tmp_path / "cmp" / BASELINE_DIR), read_pair_columns(tmp_path / "cmp" / VARIANT_DIR),
                       "king_arthur")
    assert len(pairs) == p["verified"]["games"]
    assert pairs["variant"].mean() == pytest.approx(p["verified"]["score"], abs=1e-12)
    assert pairs["baseline"].mean() == pytest.approx(res["verification"]["ai"]["baseline"]["score"], abs=1e-12)


def test_the_report_has_curves_proposals_and_the_screen(small_run):
    out, res = small_run
    rep = build_balance_report(out)
    assert rep.png["curves"].stat().st_size > 10_000 and rep.html.exists()
    assert len(rep.tables["curves"]) == 13 + 5
    assert list(rep.tables["proposals"]["rank"]) == [p["rank"] for p in res["proposals"]]
    assert "Dose-response curves" in rep.html.read_text(encoding="utf-8")
    assert "Proposals (verified on 400 fresh paired games" in rep.summary


def test_the_report_command_rebuilds_a_balance_report(small_run):
    out, _ = small_run
    r = CliRunner().invoke(main, ["report", str(out)])
    assert r.exit_code == 0, r.output
    assert "Proposals (verified on 400 fresh paired games" in r.output and "balance.html" in r.output


def test_a_proposal_file_works_with_duel_and_matrix(small_run, tmp_path):
    _, res = small_run
    f = res["proposals"][0]["file"]
    r = CliRunner().invoke(main, ["duel", "king_arthur", "medusa", "-b", "soho", "--seed", "3", "--variant", f])
    assert r.exit_code == 0, r.output
    r = CliRunner().invoke(main, ["matrix", "--heroes", "king_arthur,medusa", "-b", "soho", "--games", "4",
                                  "--variant", f, "--out", str(tmp_path / "m"), "--no-report", "-j", "1"])
    assert r.exit_code == 0, r.output


def test_pairs_are_proposed_when_no_single_knob_reaches_the_target(tmp_path):
    # alone, even 30 health or Excalibur 10 take King Arthur from about 18% to at most about 42% against Medusa on Soho
    # (together, 21 health and Excalibur 10 about 47%)
    res = run_balance(BalanceSettings(**dict(SMALL, target=0.48, tolerance=0.03, budget=30000, proposals=1)),
                      tmp_path / "p", backend=ONE)
    assert res["singles_reaching"] == 0
    (p,) = res["proposals"]
    assert p["kind"] == "pair" and p["predicted_from"] == "pair games"
    assert set(p["setting"]) == {"health", "card:Excalibur:value"}
    assert abs(p["predicted"]["score"] - 0.48) <= 0.03
    changed = [c for c in load_variant(p["file"]).changes if c.old != c.new]
    assert sorted(c.what for c in changed) == ["card 'Excalibur' value", "health"]


def test_the_command_balances_one_matchup_and_checks_a_second_ai(tmp_path):
    out = tmp_path / "cli"
    r = CliRunner().invoke(main, ["balance", "arthur", "--against", "medusa", "-b", "soho", "--knobs", "health",
                                  "--target", "25%", "--budget", "12000", "--block-games", "200", "--verify-games",
                                  "200", "--proposals", "1", "--check-ai", "greedy", "-j", "1", "--quiet", "--out",
                                  str(out)])
    assert r.exit_code == 0, r.output
    assert "King Arthur against Medusa" in r.output and "Report:" in r.output
    res = json.loads((out / "result.json").read_text())
    (p,) = res["proposals"]
    assert p["check"]["games"] == 200 and res["verification"]["check"]["profile"] == "greedy"
    assert p["robust"] == (p["verified"]["reaches"] and p["check"]["reaches"])
    assert ("AI-sensitive" in r.output) == (not p["check"]["reaches"])
    assert (out / "report" / "balance.html").exists() and (out / "report" / "tables" / "proposals.csv").exists()
    again = CliRunner().invoke(main, ["balance", "arthur", "--against", "medusa", "-b", "soho", "--knobs", "health",
                                      "--target", "25%", "--budget", "12000", "--block-games", "200", "--verify-games",
                                      "200", "--proposals", "1", "--check-ai", "greedy", "-j", "1", "--quiet",
                                      "--out", str(out)])
    assert again.exit_code == 0 and json.loads((out / "result.json").read_text())["sessions"][-1]["games_played"] == 0


# ------------------------------------------------------------------ resume and lock
def test_resuming_an_interrupted_run_loses_no_finished_game(tmp_path):
    s = BalanceSettings(**dict(SMALL, knobs=("health",), budget=8000, verify_games=200, proposals=1))
    ticks = []

    def stop_after(done, total, info):
        ticks.append(done)
        if len(ticks) == 12:
            raise KeyboardInterrupt
    with pytest.raises(KeyboardInterrupt):
        run_balance(s, tmp_path / "a", backend=ONE, progress=stop_after)
    stored = sum(np.load(p).size for p in (tmp_path / "a" / "evals").rglob("*.npy"))
    assert stored > 0
    state = json.loads((tmp_path / "a" / "balance.json").read_text())
    assert state["sessions"][0]["status"] == "interrupted" and state["sessions"][0]["games_played"] == stored
    res = run_balance(s, tmp_path / "a", backend=ONE)
    whole = run_balance(s, tmp_path / "b", backend=ONE)
    assert res["sessions"][1]["games_played"] == whole["sessions"][0]["games_played"] - stored
    for key in ("curves", "proposals", "baseline", "knobs"):
        a, b = json.loads(json.dumps(res[key]).replace(str(tmp_path / "a"), "X")), \
            json.loads(json.dumps(whole[key]).replace(str(tmp_path / "b"), "X"))
        assert a == b, key


def test_a_second_command_on_the_same_folder_is_refused(tmp_path):
    with run_lock(tmp_path / "r"):
        with pytest.raises(RunLocked):
            run_balance(BalanceSettings(**SMALL), tmp_path / "r", backend=ONE)


def test_a_folder_with_other_settings_is_refused(small_run):
    out, _ = small_run
    with pytest.raises(RunError, match="other settings"):
        run_balance(BalanceSettings(**dict(SMALL, target=0.3)), out, backend=ONE)


def test_a_refused_folder_is_left_as_it_was(tmp_path):
    """A folder holding something else is refused without a lock file left in it."""
    out = tmp_path / "notes"
    out.mkdir()
    (out / "mine.txt").write_text("x")
    with pytest.raises(RunError, match="holds no balance run"):
        run_balance(BalanceSettings(**SMALL), out, backend=ONE)
    assert sorted(p.name for p in out.iterdir()) == ["mine.txt"]


# ------------------------------------------------------------------ homebrew
def test_a_homebrew_hero_is_balanced(gorgon, tmp_path):
    s = BalanceSettings(hero="gorgon", field=("sinbad",), battlefields=("soho",), knobs=("health",), target=0.5,
                        tolerance=0.05, budget=6000, verify_games=200, proposals=1, block_games=200,
                        extra=(str(gorgon),))
    res = run_balance(s, tmp_path / "g", backend=ONE)
    assert [p["level"] for p in res["curves"]["health"]] == list(range(10, 23))
    specs = load_heroes(None, (str(gorgon),))[0]
    for p in res["proposals"]:
        assert abs(p["predicted"]["score"] - 0.5) <= 0.05
        assert "--homebrew" in p["command"]
        v = load_variant(p["file"], specs)
        assert [c.what for c in v.changes] == ["health"]


# ------------------------------------------------------------------ bad input
@pytest.mark.parametrize("args, option, words", [
    (["--knobs", "helth"], "--knobs", "valid: health, move"),
    (["--target", "1.5"], "--target", "outside (0, 1)"),
    (["--target", "0"], "--target", "outside (0, 1)"),
    (["--target", "abc"], "--target", "is not a number"),
    (["--target", "0.5%"], "--target", "outside 5%..95%"),
    (["--tolerance", "0.49"], "--tolerance", "outside (0, 0.2)"),
    (["--field", "medusa,sinbad", "--against", "alice"], "--against", "alice is not in the field"),
    (["--field", "king_arthur,medusa"], "--field", "includes king_arthur itself"),
    (["--against", "nobody"], "--against", "nobody"),
    (["--budget", "100"], "--budget", "too small to screen"),
    (["--check-ai", "nosuch"], "--check-ai", "nosuch"),
    (["--field", ","], "--field", "is empty"),
    (["-b", ""], "--battlefields", "is empty"),
    (["--knobs", ""], "--knobs", "is empty"),
])
def test_bad_input_is_one_line(args, option, words, tmp_path):
    r = CliRunner().invoke(main, ["balance", "king_arthur", "--out", str(tmp_path / "x")] + args)
    assert r.exit_code == 2, r.output
    err = [ln for ln in r.output.splitlines() if ln.startswith("Error:")]
    assert len(err) == 1 and option in err[0] and words in err[0], r.output
    assert "Traceback" not in r.output and not (tmp_path / "x").exists()


def test_an_unknown_hero_is_one_line(tmp_path):
    r = CliRunner().invoke(main, ["balance", "nobody", "--out", str(tmp_path / "x")])
    assert r.exit_code == 2 and "HERO" in r.output and "king_arthur" in r.output and "Traceback" not in r.output


def test_a_hero_with_a_loadout_is_one_line(tmp_path):
    """A loadout on HERO was dropped without a word (every gear card is a knob)."""
    r = CliRunner().invoke(main, ["balance", "geralt@silver", "--list-knobs"])
    assert r.exit_code == 2 and "HERO" in r.output and "without a loadout" in r.output and "Traceback" not in r.output


def test_list_knobs_prints_every_knob():
    r = CliRunner().invoke(main, ["balance", "medusa", "--list-knobs"])
    assert r.exit_code == 0, r.output
    lines = r.output.splitlines()
    assert len(lines) == len(hero_knobs(load_all()["medusa"])) and lines[0].startswith("health")
