"""The replay viewer without a browser: the recorded game is the engine's game, the board
after every event follows the log, the page's data decodes to that board, stored games of
every kind of run play again as stored, and bad input is a one-line error.
(tests/test_viewer_browser.py drives the page itself in Chromium.)"""
import json
import random
import re
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.content.battlefields import list_battlefields
from sim.engine import layout as L
from sim.play.match import Match, installed_content
from sim.play.replay import record
from sim.play.teams import TeamMatch

HEROES = sorted(installed_content().specs)


def run(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


def fold_log(log, nfighters=L.MAX_FIGHTERS):
    """Each fighter's space and health after every event, folded straight from the log (an
    independent reading of the moving and health events): (n, F) arrays, -1 off the board."""
    space = np.full(nfighters, -1)
    health = np.zeros(nfighters, dtype=int)
    out_s, out_h = [], []
    for ev, a, b, c, _d, _e in log.tolist():
        if ev == L.EV_SETUP:
            space[a] = b
        elif ev in (L.EV_MOVE, L.EV_PLACE):
            space[a] = c
        elif ev == L.EV_SWAP:
            space[a], space[b] = space[b], space[a]
        elif ev in (L.EV_DEFEATED, L.EV_REMOVE):
            space[a] = -1
        elif ev == L.EV_RETURN:
            space[a] = b
        elif ev in (L.EV_DAMAGE, L.EV_RECOVER):
            health[a] = c
        elif ev == L.EV_SET_HP:
            health[a] = b
        out_s.append(space.copy())
        out_h.append(health.copy())
    return np.array(out_s), np.array(out_h)


# ------------------------------------------------------------------ the recorded game


@pytest.mark.parametrize("heroes,battlefield,modes", [
    (["medusa", "sinbad"], "soho", ("standard", "standard")),
    (["geralt_of_rivia@silver+wolf-armor+blizzard", "ancient_leshen"], "kaer_morhen", ("standard", "greedy")),
    (["invisible_man", "sherlock_holmes"], "baskerville_manor", ("random", "standard")),
    (["jekyll_hyde", "alice"], "marmoreal", ("expert", "standard")),
])
def test_a_recorded_duel_is_the_game_match_play_plays(heroes, battlefield, modes):
    m = Match(heroes, battlefield)
    g = m.play(5, modes=modes)
    rep = record(m, 5, modes)
    assert rep.log.shape == g.log.shape and (rep.log == g.log).all()
    assert (rep.game.result == g.result).all() and rep.game.winner_name == g.winner_name
    assert rep.mismatches == []
    assert len(rep.snapshots) == g.turns + 1     # after setup and after each turn


def test_a_recorded_team_game_is_the_game_team_match_plays():
    for players in (4, 3):
        m = TeamMatch(["medusa", "sinbad"], ["alice", "invisible_man"], "kaer_morhen", players=players)
        g = m.play(3, modes=("standard", "standard"))
        rep = record(m, 3, ("standard", "standard"))
        assert (rep.log == g.log).all() and (rep.game.result == g.result).all() and rep.mismatches == []
        assert rep.players == 4 and rep.hand[-1] is not None


def test_the_board_after_each_event_follows_the_log_and_ends_as_the_engine():
    rep = record(Match(["medusa", "sinbad"], "marmoreal"), 4, ("standard", "standard"))
    space, health = fold_log(rep.log)
    used = [f for f in range(L.MAX_FIGHTERS) if rep.fighters[f]]
    assert (rep.space[:, used] == space[:, used]).all()
    dmg = np.flatnonzero(np.isin(rep.log[:, 0], (L.EV_DAMAGE, L.EV_RECOVER)))
    assert len(dmg) > 3 and all(rep.health[i, rep.log[i, 1]] == rep.log[i, 3] for i in dmg)
    st = rep.game.state    # the last moment is the engine's final state
    mo = rep.moment(-1)
    for f in used:
        assert mo.health[f] == st[L.fslot(f, L.F_HP)] and mo.status[f] == st[L.fslot(f, L.F_STATUS)]
    for p in range(2):
        assert len(mo.hand[p]) == st[L.pslot(p, L.P_HANDN)] and mo.deck[p] == st[L.pslot(p, L.P_DECKN)]
        assert len(mo.discard[p]) == st[L.pslot(p, L.P_DISCN)]
    # a combat is shown from the attack to the end of its action, with both cards and the values
    att = int(np.flatnonzero(rep.log[:, 0] == L.EV_ATTACK)[0])
    val = int(np.flatnonzero(rep.log[:, 0] == L.EV_VALUES)[0])
    cb = rep.combat[val]
    assert cb is not None and cb.attacker == rep.log[att, 1] and cb.defender == rep.log[att, 2]
    assert (cb.attack_value, cb.defense_value, cb.damage) == tuple(int(x) for x in rep.log[val, 1:4])
    assert rep.combat[att].attack_value is None and cb.attack_card == rep.log[att, 3]
    # the narration line of every told event, and the lines are the duel command's
    assert rep.lines[0] == f"  setup: Medusa on {rep.match.battlefield.space_ids[rep.log[0, 2]]}"
    with pytest.raises(IndexError):
        rep.moment(rep.n_events)


def test_many_games_of_every_hero_follow_the_engine_at_every_turn_end():
    """The board followed from the events equals the engine's state at the end of every turn
    (hands and discard piles card by card, in order) in random games of every hero."""
    rng = random.Random(23)
    bfs = list_battlefields()
    for k in range(120):
        if k % 4 == 0:
            hs = rng.sample(HEROES, 4)
            m = TeamMatch(hs[:2], hs[2:], rng.choice(bfs))
        else:
            m = Match([rng.choice(HEROES), rng.choice(HEROES)], rng.choice(bfs))
        mode = ("random", "standard", "greedy")[k % 3]
        rep = record(m, rng.randrange(2**32), (mode, mode))
        assert rep.mismatches == [], (m.keys, rep.game.seed, mode, rep.mismatches[:1])


def test_a_board_that_strays_from_the_engine_is_reported_and_taken_from_it(monkeypatch):
    """Should the board followed from the events ever differ from the engine's state at the end
    of a turn, the turn is listed in ``mismatches`` and the board is taken from the engine there
    (here the following forgets every draw)."""
    from sim.play import replay as R
    apply = R._Board.apply
    monkeypatch.setattr(R._Board, "apply", lambda self, ev, *args: None if ev == L.EV_DRAW else apply(self, ev, *args))
    rep = record(Match(["medusa", "sinbad"], "soho"), 3, ("standard", "standard"))
    assert rep.mismatches and rep.mismatches[0][0] == 0 and "hand" in " ".join(rep.mismatches[0][1])
    for k, at in enumerate(rep.snapshot_at):     # at every turn's end the board is the engine's again
        st = rep.snapshots[k]
        assert [len(h) for h in rep.hand[at - 1]] == [int(st[L.pslot(p, L.P_HANDN)]) for p in range(2)]


def test_explain_records_the_ai_candidates_by_event():
    rep = record(Match(["medusa", "sinbad"], "soho"), 3, ("standard", "standard"), explain=True)
    assert rep.explain
    pos, recs = next(iter(sorted(rep.explain.items())))
    assert 0 <= pos <= rep.n_events and recs[0]["candidates"] and isinstance(recs[0]["candidates"][0][1], float)
    assert record(Match(["medusa", "sinbad"], "soho"), 3, ("standard", "standard")).explain == {}


# ------------------------------------------------------------------ the page's data


def decode(data):
    """The page script's reading of ``frames``, in Python: per event (space, health, status)
    by fighter slot, deck sizes, hand sizes, discard piles."""
    F = {f[0]: (-1, 0, 0) for f in data["fighters"]}
    P = len(data["players"])
    deck, hand, disc = [0] * P, [0] * P, [[] for _ in range(P)]
    out = []
    for fr in data["frames"]:
        for slot, s, h, st in fr.get("f", []):
            F[slot] = (s, h, st)
        for p, v in fr.get("k", []):
            deck[p] = v
        for p, v in fr.get("h", []):
            hand[p] = v
        for p, add, cards in fr.get("d", []):
            disc[p] = disc[p] + cards if add else list(cards)
        out.append((dict(F), list(deck), list(hand), [list(x) for x in disc]))
    return out


def test_the_page_data_decodes_to_the_recorded_board():
    from reports.replay_html import replay_data
    rep = record(TeamMatch(["medusa", "dracula"], ["sinbad", "ancient_leshen"], "sarpedon"), 2, ("random", "random"))
    data = replay_data(rep, reveal=True)
    assert len(data["frames"]) == len(data["log"]) == len(data["lines"]) == rep.n_events
    for i, (F, deck, hand, disc) in enumerate(decode(data)):
        for slot, (s, h, st) in F.items():
            assert (s, h, st) == (rep.space[i, slot], rep.health[i, slot], rep.status[i, slot]), (i, slot)
        assert deck == list(rep.deck[i]) and hand == [len(x) for x in rep.hand[i]]
        assert disc == [list(x) for x in rep.discard[i]]
    assert "H" in json.dumps(data["frames"]) and "H" not in json.dumps(replay_data(rep)["frames"])
    # only the four heroes' cards, with their numbers (and never a card's text)
    names = {c[0] for c in data["cards"].values()}
    assert "Gaze of Stone" in names and all(len(c) == 4 for c in data["cards"].values())
    assert "Excalibur" not in names


def test_the_page_names_every_card_of_a_hero_with_gear():
    """A hero with choice groups plays the cards of its loadout: the page knows every card that
    moves in the game, whatever the loadout (all of Geralt's gear, not only the first loadout's)."""
    from reports.replay_html import replay_data
    for lo in ("silver+medallion+owl", "steel+wolf-armor+blizzard"):
        rep = record(Match([f"geralt_of_rivia@{lo}", "medusa"], "kaer_morhen"), 2, ("standard", "standard"))
        data = replay_data(rep, reveal=True)
        moved = {int(c) for i in range(rep.n_events) for p in range(2) for c in rep.hand[i][p] + rep.discard[i][p]}
        assert moved and moved <= {int(c) for c in data["cards"]}


def test_a_200_turn_team_game_page_is_small_and_self_contained(tmp_path):
    from reports.replay_html import write_replay
    m = TeamMatch(["medusa", "dracula"], ["sinbad", "ancient_leshen"], "sarpedon",
                  rules={"exhaustion_damage": 0, "turn_cap": 100})   # 100 per two players: 200 turns in all
    # the first seed whose random game goes the distance (which one depends on the engine's games)
    seed = next(s for s in range(200) if m.play(s, modes=("random", "random")).turns == 200)
    rep = record(m, seed, ("random", "random"))
    assert rep.game.turns == 200 and rep.mismatches == []
    path = write_replay(tmp_path / "long.html", rep, reveal=True)
    size = path.stat().st_size
    print(f"200-turn team game ({rep.n_events} events) with hands: {size / 1e6:.2f} MB")
    assert size < 2_000_000
    text = path.read_text(encoding="utf-8")
    # nothing is fetched: no external script, style sheet, image or link
    assert not re.search(r"<(script|link|img|iframe)[^>]+(src|href)=", text)
    assert not re.search(r"url\((?!#)", text) and "@import" not in text
    assert text.count("<svg") == 1 and '<g id="overlay"></g>' in text


def test_the_board_figure_draws_every_fighter_on_the_board():
    from matplotlib.patches import Circle

    from reports.board import board_figure
    rep = record(Match(["medusa", "sinbad"], "soho"), 3, ("standard", "standard"))
    i = int(np.flatnonzero(rep.log[:, 0] == L.EV_VALUES)[0])
    fig = board_figure(rep, i)
    ax = fig.axes[0]
    colours = {"#2b6cb0", "#c53030"}
    from matplotlib.colors import to_hex
    tokens = [p for p in ax.patches if isinstance(p, Circle) and to_hex(p.get_facecolor()) in colours]
    on_board = sum(1 for f in range(L.MAX_FIGHTERS) if rep.fighters[f] and rep.space[i, f] >= 0)
    assert len(tokens) == on_board >= 4     # Medusa and her Harpies, Sinbad and The Porter, unless defeated
    texts = [t.get_text() for t in ax.texts]
    assert "Medusa" in texts and str(int(rep.health[i, 0])) in texts
    assert any("vs" in t for t in texts)    # the combat's cards
    with pytest.raises(IndexError):
        board_figure(rep, 10**6)


# ------------------------------------------------------------------ the commands


def test_duel_html_writes_a_page_and_bad_paths_are_one_line_errors(tmp_path):
    r = run("duel", "medusa", "sinbad", "--seed", 4, "--html", tmp_path / "g.html")
    assert r.exit_code == 0 and r.output.startswith(f"wrote {tmp_path / 'g.html'} (")
    assert re.search(r"\d+ turns, (Medusa|Sinbad) won\): open it in a browser$", r.output.strip()), r.output
    page = (tmp_path / "g.html").read_text(encoding="utf-8")
    assert "Medusa vs Sinbad on Marmoreal" in page and '"reveal":false' in page
    r = run("duel", "medusa+sinbad", "alice+dracula", "-b", "soho", "--html", tmp_path / "t.html", "--reveal",
            "--explain")
    assert r.exit_code == 0, r.output
    data = (tmp_path / "t.html").read_text(encoding="utf-8")
    assert '"reveal":true' in data and '"explain":{' in data
    (tmp_path / "afile").write_text("x", encoding="utf-8")
    for bad, why in ((tmp_path / "missing" / "g.html", "does not exist"), (tmp_path, "it is a folder"),
                     (tmp_path / "afile" / "g.html", f"{tmp_path / 'afile'} is a file, not a folder")):
        r = run("duel", "medusa", "sinbad", "--html", bad)
        assert r.exit_code == 1 and r.output.strip().splitlines() == [
            f"Error: cannot write {bad} (--html): " + r.output.split("(--html): ")[1].strip()]
        assert why in r.output and "Traceback" not in r.output
    r = run("duel", "medusa", "sinbad", "--reveal")
    assert r.exit_code == 2 and "use it with --html FILE" in r.output
    r = run("duel", "medusa", "sinbad", "--json", "--html", tmp_path / "j.html")
    assert r.exit_code == 2 and "give one of them" in r.output and not (tmp_path / "j.html").exists()


@pytest.fixture(scope="module")
def runs(tmp_path_factory):
    """A small matrix run (its AI a profile file with weights of Medusa's own), a compare run
    (with its variant) and a team run."""
    from sim.runs.matrix import run_matrix
    from sim.runs.teams import run_teams
    from sim.runs.versus import run_compare
    base = tmp_path_factory.mktemp("replays")
    profile = base / "mine.toml"
    profile.write_text('name = "mine"\nmode = "standard"\nbase = "standard"\n[weights]\nthreat = 1.0\n'
                       '[heroes.medusa.weights]\nkeep_value = 0.1\n')
    run_matrix(base / "m", games=6, heroes=["medusa", "sinbad", "alice"], battlefields=["soho"], seed=5, jobs=1,
               ai=str(profile))
    profile.unlink()     # the run's manifest holds the weights: the games replay without the file
    variant = base / "v.toml"
    variant.write_text('name = "weak sinbad"\n[hero.sinbad]\nhealth = 9\n')
    run_compare(base / "c", "sinbad", variant, games=4, opponents=["medusa"], battlefields=["soho"], seed=3, jobs=1)
    run_teams(base / "t", games=3, heroes=["medusa", "sinbad", "alice", "dracula"], battlefields=["soho"], seed=2,
              jobs=1)
    return base


def test_replay_writes_stored_games_of_every_kind_of_run(runs, tmp_path):
    from sim.runs.replay import find_game, replay_stored
    from sim.runs.store import read_games
    from sim.runs.teams import read_team_games
    games = read_games(runs / "m")
    r = run("replay", runs / "m", "--game", 7, "--out", tmp_path / "g7.html")
    assert r.exit_code == 0, r.output
    row = games.iloc[7]
    page = (tmp_path / "g7.html").read_text(encoding="utf-8")
    assert f"game 7 of {len(games)}" in page and f"seed {row['seed']}" in page
    # by matchup and seed, either seating; the default page path
    r = run("replay", runs / "m", "--matchup", f"{row['p2_hero']},{row['p1_hero']}", "--seed", row["seed"])
    assert r.exit_code == 0 and (runs / "m" / "report" / "replays" / "game-7.html").exists(), r.output
    # the replayed games are the stored ones: winner, turns and health
    for n in (0, 5, len(games) - 1):
        g = find_game(runs / "m", game=n)
        res = replay_stored(runs / "m", g).game.result
        stored = games.iloc[n]
        assert (int(res[0]), int(res[1])) == (int(stored["winner"]), int(stored["turns"]))
    # the compare run's variant folder plays with the variant (Sinbad's health 9)
    vg = find_game(runs / "c" / "variant", game=0)
    rep = replay_stored(runs / "c" / "variant", vg)
    sinbad = 0 if vg.row["p1_hero"] == "sinbad" else L.FIGHTERS_PER_PLAYER
    assert rep.snapshots[0][L.fslot(sinbad, L.F_MAXHP)] == 9
    r = run("replay", runs / "c", "--game", 0)
    assert r.exit_code == 1 and r.output.strip().splitlines() == [
        f"Error: {runs / 'c'} holds a compare run's two runs: replay a game of {runs / 'c' / 'baseline'} or of "
        f"{runs / 'c' / 'variant'}"]
    # a team run
    tg = read_team_games(runs / "t")
    r = run("replay", runs / "t", "--game", 1, "-o", tmp_path / "t1.html")
    assert r.exit_code == 0, r.output
    team = tg.iloc[1]
    g = find_game(runs / "t", matchup=f"{team['team2']},{team['team1']}", seed=int(team["seed"]))
    assert g.number == 1 and g.team
    r = run("replay", runs / "t", "--list")
    assert r.exit_code == 0 and r.output.strip().splitlines()[-1] == f"{len(tg)} stored games"


def test_replay_bad_input_is_a_one_line_error(runs, tmp_path):
    n = 36   # 6 pairs of heroes (mirrors included) x 6 games
    cases = [
        (["--game", 99], f"Error: {runs / 'm'} has {n} stored games, numbered 0 to {n - 1}; there is no game 99"),
        (["--matchup", "medusa,dracula", "--seed", 1], f"Error: {runs / 'm'} holds no game of medusa,dracula"),
        (["--matchup", "medusa,sinbad", "--seed", 1], f"Error: {runs / 'm'} holds no game of medusa,sinbad with seed 1"),
        (["--matchup", "medusa", "--seed", 1], "Error: --matchup 'medusa': give two hero keys joined by ','"),
        (["--matchup", "medusa,sinbad"], "Error: a game by matchup needs both --matchup and --seed"),
        ([], "Error: name one game: --game N, or --matchup and --seed"),
        (["--game", 1, "--out", tmp_path / "nope" / "x.html"],
         f"Error: cannot write {tmp_path / 'nope' / 'x.html'} (--out): the folder {tmp_path / 'nope'} does not exist"),
        (["--game", 1, "--out", tmp_path], f"Error: cannot write {tmp_path} (--out): it is a folder"),
    ]
    for args, first in cases:
        r = run("replay", runs / "m", *args)
        lines = r.output.strip().splitlines()
        assert r.exit_code == 1 and len(lines) == 1 and lines[0].startswith(first), (args, r.output)
    r = run("replay", tmp_path, "--game", 0)
    assert r.exit_code == 1 and r.output.startswith(f"Error: {tmp_path}: not a run folder") and \
        len(r.output.strip().splitlines()) == 1


def test_replay_matchup_takes_hero_names_in_any_form(runs, tmp_path):
    """--matchup resolves heroes like every other option (key, display name, any case), in
    a duel run and a team run; an unknown hero is the one-line error listing the valid ones."""
    from sim.runs.store import read_games
    from sim.runs.teams import read_team_games
    g = read_games(runs / "m")
    pair = g[((g["p1_hero"] == "medusa") & (g["p2_hero"] == "sinbad")) |
             ((g["p1_hero"] == "sinbad") & (g["p2_hero"] == "medusa"))]
    assert len(pair) == 6
    for m in ("medusa,sinbad", "Medusa,SINBAD", "sinbad, MEDUSA"):
        r = run("replay", runs / "m", "--list", "--matchup", m, "--limit", 0)
        lines = r.output.strip().splitlines()
        assert r.exit_code == 0 and lines[-1] == f"6 stored games of {m}", (m, r.output)
        assert sorted(int(ln.split(":")[0].split()[1]) for ln in lines[:-1]) == pair.index.tolist()
    # --battlefield takes a battlefield's name as the matrix's -b does
    r = run("replay", runs / "m", "--list", "--matchup", "Medusa,sinbad", "-b", "SOHO", "--limit", 0)
    assert r.exit_code == 0 and r.output.strip().splitlines()[-1] == "6 stored games of Medusa,sinbad on SOHO"
    r = run("replay", runs / "m", "--list", "-b", "Kaer Morhen")
    assert r.exit_code == 1 and r.output.strip() == f"Error: {runs / 'm'} has no game on 'kaer_morhen'; its battlefields: soho"
    row = pair.iloc[0]
    r = run("replay", runs / "m", "--matchup", "Sinbad,Medusa", "--seed", row["seed"], "-o", tmp_path / "p.html")
    assert r.exit_code == 0 and f"seed {row['seed']}" in (tmp_path / "p.html").read_text(encoding="utf-8"), r.output
    tg = read_team_games(runs / "t")
    t = tg.iloc[0]
    caps = ",".join("+".join(h.upper() for h in team.split("+")) for team in (t["team2"], t["team1"]))
    r = run("replay", runs / "t", "--list", "--matchup", caps, "--limit", 0)
    want = int((((tg["team1"] == t["team1"]) & (tg["team2"] == t["team2"])) |
                ((tg["team1"] == t["team2"]) & (tg["team2"] == t["team1"]))).sum())
    assert r.exit_code == 0 and r.output.strip().splitlines()[-1] == f"{want} stored games of {caps}", r.output
    for args in (["--list", "--matchup", "medusa,nobody"], ["--matchup", "nobody,Medusa", "--seed", 1]):
        r = run("replay", runs / "m", *args)
        lines = r.output.strip().splitlines()
        assert r.exit_code == 1 and len(lines) == 1 and lines[0].startswith(
            "Error: unknown hero 'nobody'; valid: alice, ancient_leshen, ciri, dracula,"), r.output


def test_a_stored_game_that_no_longer_plays_as_stored_is_refused(runs, tmp_path):
    import shutil
    d = tmp_path / "changed"
    shutil.copytree(runs / "m", d)
    man = json.loads((d / "manifest.json").read_text())
    man["settings"]["ai_mode"] = "random"      # as if the AI had changed since the run
    (d / "manifest.json").write_text(json.dumps(man))
    r = run("replay", d, "--game", 3, "-o", tmp_path / "x.html")
    assert r.exit_code == 1 and "plays differently now (stored: winner" in r.output
    assert len(r.output.strip().splitlines()) == 1 and not (tmp_path / "x.html").exists()


def test_the_matrix_report_links_example_games_of_every_matchup(runs):
    from reports import build_report
    rep = build_report(runs / "m")
    assert sorted(rep.replays) == [("alice", "medusa"), ("alice", "sinbad"), ("medusa", "sinbad")]
    page = rep.html.read_text(encoding="utf-8")
    links = re.findall(r'href="(replays/[^"]+\.html)"', page)
    made = [p for mu in rep.replays.values() for p in mu.values() if p is not None]
    assert len(links) == len(made) >= 6 and all((rep.out_dir / ln).exists() for ln in links)
    # each page is the seating and the outcome it is linked as
    name = {k: v["name"] for k, v in rep.tables["manifest"]["heroes"].items()}
    for games in rep.replays.values():
        for (first, winner), path in games.items():
            if path is None:
                continue
            data = page_data(path)
            assert data["header"].endswith(f"{name[first]} moves first.")
            assert data["lines"][-1].startswith(f"Game over: {name[winner]} wins on turn {data['turns']}")


def page_data(path) -> dict:
    """The JSON a replay page carries."""
    text = path.read_text(encoding="utf-8")
    start = text.index('<script id="replay-data" type="application/json">') + len(
        '<script id="replay-data" type="application/json">')
    return json.loads(text[start:text.index("</script>", start)].replace("<\\/", "</"))


def test_a_combat_shows_the_defense_as_not_chosen_yet_until_the_defender_chooses():
    """Issue 31: the replay's combat label said 'no defense' from the attack on, before the defender had chosen.
    Until its EV_DEFENSE event the page's combat carries 'not chosen' (and the board figure says so); after it,
    a combat without a defense card says 'no defense'."""
    from reports.board import board_figure
    from reports.replay_html import replay_data
    rep = record(Match(["medusa", "sinbad"], "soho"), 3, ("standard", "standard"))
    ev = rep.log[:, 0]
    attack = int(np.flatnonzero(ev == L.EV_ATTACK)[0])
    defense = attack + int(np.flatnonzero(ev[attack:] == L.EV_DEFENSE)[0])
    assert rep.combat[attack].defense_card == -1
    frames = replay_data(rep)["frames"]
    combat = None
    for i, fr in enumerate(frames):
        combat = fr.get("c", combat)
        if i in (attack, defense):
            assert combat[8] == (i == defense), (i, combat)
    texts = [t.get_text() for t in board_figure(rep, attack).axes[0].texts]
    assert any(t.endswith("vs defense not chosen yet") for t in texts), texts
    page = (Path(__file__).resolve().parents[1] / "reports" / "replay_viewer.js").read_text(encoding="utf-8")
    assert 'c[8] ? "no defense" : "defense not chosen yet"' in page


def test_the_combat_label_names_the_fighters_as_the_narration_does():
    """Issue 31: the replay page's combat label named the fighters by their tokens' short names ('Jekyll') beside
    narration lines with the full ones ('Dr. Jekyll & Mr. Hyde'). It takes the full name of the page's fighter
    list (the entry's second field; the third, the short token label, is for the tokens alone)."""
    from reports.replay_html import replay_data
    rep = record(Match(["jekyll_hyde", "king_arthur"], "soho"), 3, ("standard", "standard"))
    fighters = replay_data(rep)["fighters"]
    assert [f[1:3] for f in fighters if f[0] == 0] == [["Dr. Jekyll & Mr. Hyde", "Jekyll"]]
    attacks = [ln for ln in rep.lines if " attacks " in ln]
    assert attacks and any("Dr. Jekyll & Mr. Hyde" in ln or "King Arthur" in ln for ln in attacks), attacks[:3]
    js = (Path(__file__).resolve().parents[1] / "reports" / "replay_viewer.js").read_text(encoding="utf-8")
    assert 'FI[ka][1] + ": " + card(c[2])' in js and '"vs " + FI[kd][1] + ": "' in js and "FI[ka][2]" not in js
