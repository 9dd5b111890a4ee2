"""Team games (2 vs 2 and 3 players): rules, the AI's team play, the CLI and the report.

Rules sources: Battle of Legends Vol. 1 rules, "Defeat and ending the game" and
"Exhaustion and team play"; Cobble & Fog rules, "Team Games"; decisions in ``sim/play/teams.py``.
"""
import json

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.content.battlefields import list_battlefields
from sim.engine import layout as L
from sim.engine.core import check_end, eliminated, reachable
from sim.engine.effects import choose_opponent
from sim.engine.game import TRES_OUT0, setup_game
from sim.engine.policy import MODE_FIRST, MODE_RANDOM, new_control
from sim.engine.rules import end_of_turn, legal_actions, next_player, unpack_action
from sim.play.match import MatchError
from sim.play.scenario import ScenarioError, resolve
from sim.play.teams import TeamMatch, parse_team, team_control
from sim.runs.teams import team_pairings

FPP = L.FIGHTERS_PER_PLAYER


def _game(team1=("king_arthur", "sinbad"), team2=("alice", "medusa"), bf="marmoreal", seed=3, players=4):
    m = TeamMatch(list(team1), list(team2), bf, players=players)
    st = np.zeros(L.STATE_SIZE, np.int64)
    log = np.zeros((2000, L.EV_FIELDS), np.int64)
    ctl = new_control((MODE_FIRST,) * 4)
    setup_game(st, m.tables, ctl, log, m.rows, 4, seed)
    return m, st, ctl, log


def _defeat(st, f):
    st[L.fslot(f, L.F_STATUS)] = L.FS_DEFEATED
    st[L.fslot(f, L.F_HP)] = 0
    st[L.fslot(f, L.F_SPACE)] = -1


def _clear_board(st, keep):
    """Take every fighter but ``keep`` off the board (defeated)."""
    for f in range(L.MAX_FIGHTERS):
        if f not in keep and st[L.fslot(f, L.F_STATUS)] == L.FS_IN_PLAY:
            _defeat(st, f)


@pytest.mark.nojit
def test_setup_seats_teams_and_start_spaces():
    m, st, _, _ = _game()
    assert m.hero_names == ["King Arthur", "Alice", "Sinbad", "Medusa"]     # turn order A, C, B, D
    assert m.team_names == ["King Arthur & Sinbad", "Alice & Medusa"]
    assert [int(st[L.pslot(p, L.P_TEAM)]) for p in range(4)] == [0, 1, 0, 1]
    for p in range(4):   # seat k starts on start space k; every seat draws 5
        assert st[L.fslot(p * FPP, L.F_SPACE)] == m.battlefield.starts[p]
        assert st[L.pslot(p, L.P_HANDN)] == 5
    assert st[L.G_ACTIVE] == 0 and st[L.G_NPLAYERS] == 4


def test_turn_order_1_2_3_4():
    m = TeamMatch(["medusa", "sinbad"], ["king_arthur", "alice"], "soho")
    g = m.play(5, modes=("standard", "standard"))
    turns = [int(r[1]) for r in g.log if r[0] == L.EV_TURN]
    assert turns[:12] == [0, 1, 2, 3] * 3
    for a, b in zip(turns, turns[1:]):      # later: the next seat that still has a fighter
        assert b != a


@pytest.mark.nojit
def test_defeated_hero_player_continues_with_sidekick_then_is_skipped():
    m, st, _, _ = _game()    # King Arthur (seat 0) has Merlin
    _defeat(st, 0)
    assert not eliminated(st, 0)
    assert next_player(st, 3) == 0          # still takes turns: Merlin is on the board
    for k in range(1, FPP):
        if st[L.fslot(k, L.F_STATUS)] == L.FS_IN_PLAY:
            _defeat(st, k)
    assert eliminated(st, 0)
    assert next_player(st, 3) == 1          # no fighters left: skipped
    _defeat(st, 1 * FPP)
    for k in range(1, FPP):
        _defeat(st, FPP + k)
    assert next_player(st, 3) == 2          # seat 2 (Alice's player) skipped too


@pytest.mark.nojit
def test_end_of_turn_passes_to_the_next_seat_with_fighters():
    m, st, ctl, log = _game()
    for k in range(FPP):
        if st[L.fslot(FPP + k, L.F_STATUS)] == L.FS_IN_PLAY:
            _defeat(st, FPP + k)        # seat 1: Alice and the Jabberwock defeated
    st[L.G_ACTIVE] = 0
    end_of_turn(st, m.tables, ctl, log, 0)
    assert st[L.G_ACTIVE] == 2 and st[L.G_OVER] == 0


@pytest.mark.nojit
def test_team_loses_only_when_both_heroes_are_defeated():
    m, st, _, log = _game()
    _defeat(st, 1 * FPP)                    # Alice
    assert not check_end(st, m.tables, log) and st[L.G_OVER] == 0
    _defeat(st, 3 * FPP)                    # Medusa: both heroes of team 1
    st[L.G_ACTIVE] = 0
    assert check_end(st, m.tables, log)
    assert st[L.G_WINNER] == 0 and st[L.G_REASON] == L.END_HERO_DEFEATED


def _two_step_choke(tb):
    """Spaces (a, b, c): c is 2 moves from a, and every 2-move path goes through b."""
    mv = np.asarray(tb.move)
    S = mv.shape[0]
    for a in range(S):
        for b in range(S):
            if not mv[a, b]:
                continue
            for c in range(S):
                if c in (a, b) or mv[a, c] or not mv[b, c]:
                    continue
                if sum(1 for x in range(S) if mv[a, x] and mv[x, c]) == 1:
                    return a, b, c
    raise AssertionError("no choke point")


@pytest.mark.nojit
def test_movement_through_a_teammate_but_not_an_opponent():
    m, st, _, _ = _game()
    a, b, c = _two_step_choke(m.tables)
    out = np.zeros(L.MAX_SPACES + 1, np.int64)
    mover, mate, foe = 0, 2 * FPP, 1 * FPP       # King Arthur, Sinbad (teammate), Alice (opponent)
    _clear_board(st, {mover, mate, foe})
    st[L.fslot(mover, L.F_SPACE)] = a
    st[L.fslot(foe, L.F_SPACE)] = -1
    st[L.fslot(foe, L.F_STATUS)] = L.FS_REMOVED
    st[L.fslot(mate, L.F_SPACE)] = b
    n = reachable(st, m.tables, mover, 2, False, out)
    assert c in out[:n].tolist() and b not in out[:n].tolist()      # through Sinbad, not onto him
    st[L.fslot(mate, L.F_STATUS)] = L.FS_REMOVED
    st[L.fslot(mate, L.F_SPACE)] = -1
    st[L.fslot(foe, L.F_STATUS)] = L.FS_IN_PLAY
    st[L.fslot(foe, L.F_SPACE)] = b
    n = reachable(st, m.tables, mover, 2, False, out)
    assert c not in out[:n].tolist()                                # Alice blocks the way


@pytest.mark.nojit
def test_attack_cannot_target_a_teammate():
    m, st, _, _ = _game()
    tb = m.tables
    mv = np.asarray(tb.adj)
    a = int(m.battlefield.starts[0])
    nb = [s for s in range(mv.shape[0]) if mv[a, s]][:2]
    mover, mate, foe = 0, 2 * FPP, 1 * FPP
    _clear_board(st, {mover, mate, foe})
    st[L.fslot(mover, L.F_SPACE)] = a
    st[L.fslot(mate, L.F_SPACE)] = nb[0]
    st[L.fslot(foe, L.F_SPACE)] = nb[1]
    # King Arthur holds one attack card he may play
    row = int(m.rows[0])
    card = next(c for c in range(tb.cards.shape[0]) if tb.cards[c, L.C_HERO] == row
                and tb.cards[c, L.C_TYPE] == L.CT_ATTACK and tb.cards[c, L.C_FMASK] & 1)
    st[L.OFF_HAND] = card
    st[L.pslot(0, L.P_HANDN)] = 1
    opts = np.zeros(1024, np.int64)
    n = legal_actions(st, tb, 0, opts)
    targets = {unpack_action(int(x))[2] for x in opts[:n] if unpack_action(int(x))[0] == L.A_ATTACK}
    assert targets == {foe}


@pytest.mark.nojit
def test_your_opponent_is_one_chosen_opposing_player():
    m, st, _, _ = _game()
    ctl = new_control((MODE_FIRST,) * 4)
    st[L.G_OPPONENT] = -1
    q = choose_opponent(st, m.tables, ctl, 0, -1)
    assert q in (1, 3) and st[L.G_OPPONENT] == q            # asked once, kept for the card
    assert choose_opponent(st, m.tables, ctl, 0, -1) == q
    st[L.G_OPPONENT] = -1
    for k in range(FPP):                                    # seat 1 dormant: not an opponent (R48)
        if st[L.fslot(FPP + k, L.F_STATUS)] == L.FS_IN_PLAY:
            _defeat(st, FPP + k)
    assert choose_opponent(st, m.tables, ctl, 0, -1) == 3


def test_three_player_game_one_player_controls_a_team():
    m = TeamMatch(["medusa", "sinbad"], ["king_arthur", "alice"], "soho", players=3)
    assert m.controllers == [0, 1, 0, 2]
    ctl = team_control(("greedy", "random"), players=3)
    from sim.engine.control import CTL_MODE0, MODE_GREEDY
    assert list(ctl[CTL_MODE0:CTL_MODE0 + 4]) == [MODE_GREEDY, MODE_RANDOM, MODE_GREEDY, MODE_RANDOM]
    g = m.play(2, modes=("standard", "standard"))
    assert "player 1 controls Medusa and Sinbad" in m.header(g)
    assert g.winner in (-1, 0, 1)
    turns = [int(r[1]) for r in g.log if r[0] == L.EV_TURN]
    assert turns[:4] == [0, 1, 2, 3]         # player 1 takes seats 1 and 3's turns
    # the same rules as four players: the same game for the same seed
    g4 = TeamMatch(["medusa", "sinbad"], ["king_arthur", "alice"], "soho", players=4).play(2, modes=("standard", "standard"))
    assert np.array_equal(g.log, g4.log)


@pytest.mark.nojit
def test_bad_team_input():
    with pytest.raises(MatchError, match="two hero keys joined by"):
        parse_team("medusa")
    with pytest.raises(MatchError, match="named twice"):
        TeamMatch(["medusa", "sinbad"], ["medusa", "alice"], "soho")
    with pytest.raises(MatchError, match="unknown hero|valid"):
        TeamMatch(["medusa", "nobody"], ["king_arthur", "alice"], "soho")
    assert len(team_pairings([f"h{i}" for i in range(11)])) == 990


def test_random_team_games_end_cleanly_on_every_battlefield():
    for i, bf in enumerate(list_battlefields()):
        m = TeamMatch(["medusa", "invisible_man"], ["ancient_leshen", "jekyll_hyde"] if i % 2 else
                      ["ciri", "sherlock_holmes"], bf)
        res = m.play_many(20, run_seed=1, matchup=i)
        assert set(res[:, 2].tolist()) <= {L.END_HERO_DEFEATED, L.END_TURN_CAP}
        for r in res:
            if r[2] == L.END_HERO_DEFEATED:    # the losing team lost both heroes, the winners have one
                lose = 1 - r[0]
                assert r[3 + lose] == 0 and r[3 + lose + 2] == 0
                assert r[3 + r[0]] > 0 or r[3 + r[0] + 2] > 0
                assert r[TRES_OUT0 + lose] > 0 and r[TRES_OUT0 + lose + 2] > 0


def test_cli_team_duel_and_errors():
    r = CliRunner().invoke(main, ["duel", "medusa+sinbad", "king_arthur+alice", "--seed", "4", "-b", "soho"])
    assert r.exit_code == 0, r.output
    assert r.output.startswith("Medusa & Sinbad (")
    assert "Turn 1: Medusa" in r.output and "Turn 2: King Arthur" in r.output and "Turn 3: Sinbad" in r.output
    assert "Game over: " in r.output
    r = CliRunner().invoke(main, ["duel", "medusa+sinbad", "king_arthur+alice", "--players", "3", "--json"])
    assert r.exit_code == 0, r.output
    out = json.loads(r.stdout)
    assert [s["player"] for s in out["seats"]] == [1, 2, 1, 3] and out["players"] == 3
    for args, msg in ((["medusa+sinbad", "king_arthur"], "two teams"), (["medusa+sinbad", "medusa+alice"], "named twice"),
                      (["medusa+nobody", "king_arthur+alice"], "valid"), (["medusa+", "king_arthur+alice"], "two hero keys"),
                      (["medusa+sinbad+alice", "king_arthur+ciri"], "two hero keys")):
        r = CliRunner().invoke(main, ["duel", *args])
        assert r.exit_code == 2 and msg in r.output and "Traceback" not in r.output, (args, r.output)


def test_cli_teams_run_and_report(tmp_path):
    out = tmp_path / "teams"
    args = ["teams", "--games", "30", "--heroes", "medusa,sinbad,alice,king_arthur,dracula", "-b", "soho,marmoreal",
            "--jobs", "1", "--out", str(out), "-q"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    assert "30 games, 2 per pairing (15 pairings" in r.output
    rep = out / "report"
    pairs = pd.read_csv(rep / "tables" / "team_pairs.csv")
    heroes = pd.read_csv(rep / "tables" / "team_heroes.csv")
    pairings = pd.read_csv(rep / "tables" / "team_pairings.csv")
    assert len(pairs) == 10 and len(heroes) == 5 and len(pairings) == 15
    assert pairs["games"].sum() == 60 and (pairings["games"] == 2).all()
    assert heroes["games"].sum() == 120 and (heroes["games"] == 24).all()
    for df in (pairs, heroes):
        assert df["score"].between(0, 1).all() and (df["lo"] <= df["score"]).all() and (df["score"] <= df["hi"]).all()
    assert heroes["survived"].between(0, 1).all() and (heroes["dealt"] >= 0).all()
    assert (rep / "teams.md").read_text().startswith("# Team games report")
    # the report streams the games batch by batch; the sums equal pandas on the whole frame
    from reports.stream import scan_frames
    from reports.teams import TEAM_REPORT_COLUMNS, combine_partials, team_partials, team_tables
    from sim.runs.teams import read_team_games
    games = read_team_games(out)
    whole = team_tables(games)
    streamed = team_tables(combine_partials(scan_frames(out, TEAM_REPORT_COLUMNS, team_partials, batch_rows=7)))
    for name in whole:
        pd.testing.assert_frame_equal(streamed[name], whole[name], obj=name)
        pd.testing.assert_frame_equal(pd.read_csv(rep / "tables" / f"{name}.csv"), whole[name], check_dtype=False,
                                      obj=name)
    h = whole["team_heroes"].set_index("hero")
    for k in ("medusa", "dracula"):
        mine = [(games[f"s{a}_hero"] == k) | (games[f"s{b}_hero"] == k) for a, b in ((1, 3), (2, 4))]
        won = (mine[0] & (games["winner"] == 0)) | (mine[1] & (games["winner"] == 1))
        dealt = sum(games.loc[games[f"s{i}_hero"] == k, f"s{i}_dealt"].sum() for i in range(1, 5))
        assert h.loc[k, "wins"] == won.sum() and h.loc[k, "dealt"] == pytest.approx(dealt / h.loc[k, "games"])
    assert (rep / "teams.html").exists() and (rep / "plots" / "team_pairs.png").exists()
    r = CliRunner().invoke(main, args)          # resume: nothing left to play
    assert r.exit_code == 0 and "already stored" in r.output
    for bad, msg in ((["--heroes", "medusa,sinbad,alice"], "at least 4"), (["--heroes", "medusa,nobody,alice,sinbad"], "valid"),
                     (["--heroes", "medusa,medusa,alice,sinbad,dracula"], "more than once")):
        r = CliRunner().invoke(main, ["teams", "--games", "5", "--out", str(tmp_path / "bad"), "-q", *bad])
        assert r.exit_code == 2 and msg in r.output and "Traceback" not in r.output, (bad, r.output)


def test_team_run_interrupted_keeps_finished_chunks_and_resumes(tmp_path):
    from sim.runs.errors import RunInterrupted
    from sim.runs.teams import execute_teams, plan_teams, read_team_games
    out = tmp_path / "run"
    heroes = ["medusa", "sinbad", "alice", "king_arthur"]
    plan = plan_teams(out, 12, heroes, ["soho"], "random", 3, chunk_size=4)
    assert plan.games_total == 12 and len(plan.chunks) == 3      # 3 pairings x 4 games, chunks of 4

    def stop(name, done):
        raise KeyboardInterrupt

    with pytest.raises(RunInterrupted):
        execute_teams(plan, jobs=1, progress=False, after_chunk=stop, task_games=4)   # a task per chunk
    assert len(read_team_games(out)) == 4                         # the finished task is stored
    plan = plan_teams(out, 12, heroes, ["soho"], "random", 3, chunk_size=4)
    assert plan.games_done == 4
    res = execute_teams(plan, jobs=1, progress=False)
    assert res.games_played == 8
    games = read_team_games(out)
    assert len(games) == 12 and games["seed"].nunique() == 12
    fresh = tmp_path / "fresh"                                    # the same games as an uninterrupted run
    execute_teams(plan_teams(fresh, 12, heroes, ["soho"], "random", 3, chunk_size=6), jobs=1, progress=False)
    again = read_team_games(fresh)
    assert len(list((out / "games").iterdir())) == len(list((fresh / "games").iterdir())) == 1   # compacted
    cols = ["seed", "winner", "turns", "s1_health", "s2_health", "s3_health", "s4_health"]
    assert games[cols].equals(again[cols])


def test_a_loadout_with_plus_signs_is_one_hero_in_duels_and_teams():
    """KEY@LOADOUT keeps its '+' (one option per choice group): a duel and a team duel both
    read it; the '+' is not taken as a team separator."""
    from sim.play.teams import split_heroes
    assert split_heroes("geralt@silver+wolf-armor+owl+medusa") == ["geralt@silver+wolf-armor+owl", "medusa"]
    assert split_heroes("medusa+geralt_of_rivia@steel+medallion+owl") == ["medusa", "geralt_of_rivia@steel+medallion+owl"]
    assert split_heroes("geralt@silver+wolf-armor+blizzard") == ["geralt@silver+wolf-armor+blizzard"]
    r = CliRunner().invoke(main, ["duel", "geralt@silver+wolf-armor+blizzard", "sinbad", "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.stdout)["heroes"] == ["geralt_of_rivia[silver+wolf-armor+blizzard]", "sinbad"]
    r = CliRunner().invoke(main, ["duel", "geralt@silver+wolf-armor+owl+medusa", "sinbad+alice", "--json"])
    assert r.exit_code == 0, r.output
    assert [s["hero"] for s in json.loads(r.stdout)["seats"]] == [
        "geralt_of_rivia[silver+wolf-armor+owl]", "sinbad", "medusa", "alice"]


TEAM_POSITION = {
    "battlefield": "marmoreal",
    "players": [
        {"hero": "medusa", "fighters": {"Medusa": {"space": "M13"}}, "hand": ["Gaze of Stone"]},
        {"hero": "sinbad", "fighters": {"Sinbad": {"space": "M20", "health": 13}},
         "hand": ["Regroup"], "deck": ["Feint", "Exploit", "Leap Away"]},
        {"hero": "alice", "fighters": {"Alice": {"space": "M03"}}},
        {"hero": "king_arthur", "fighters": {"King Arthur": {"space": "M31"}}},
    ],
}


def test_the_scenario_api_builds_a_four_player_team_position():
    """A 2 vs 2 position (seats 0 and 2 against 1 and 3): Gaze of Stone against Regroup
    resolves as in a duel (1 combat damage, then 8), and every seat is in the snapshot."""
    out = resolve(TEAM_POSITION, {"attack": "Gaze of Stone", "by": "Medusa", "target": "Sinbad",
                                  "defense": "Regroup"})
    assert out["combat"]["damage"] == 1 and out["fighters"]["Sinbad"]["health"] == 4
    assert [p["hero"] for p in out["players"]] == ["Medusa", "Sinbad", "Alice", "King Arthur"]
    assert out["fighters"]["Alice"] == {"space": "M03", "health": 13, "status": "in play"}


def test_a_team_scenario_refuses_to_target_a_teammate():
    with pytest.raises(ScenarioError, match="'Alice' is not an opposing fighter of Medusa"):
        resolve(TEAM_POSITION, {"attack": "Gaze of Stone", "by": "Medusa", "target": "Alice"})
    with pytest.raises(ScenarioError, match="two player dicts .* or four"):
        resolve(dict(TEAM_POSITION, players=TEAM_POSITION["players"][:3]), {"maneuver": True})
