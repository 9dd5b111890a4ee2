"""``replay``: a stored game of a run folder as a replay page (``sim.runs.replay``)."""
from __future__ import annotations

from pathlib import Path

import click

from sim.cli.app import main
from sim.cli.options import Whole
from sim.cli.play import check_writable, write_page
from sim.runs.errors import RunError


def _fail(e: RunError):
    """A RunError as a one-line error (``Error: ...``, exit status 1)."""
    return click.ClickException(str(e))


@main.command()
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.option("--game", "-g", "number", type=Whole(min=0), default=None, metavar="N",
              help="The game's number in the run (0-based, in the order of read_games: heroes, loadouts, "
                   "battlefield, game index); --list shows them.")
@click.option("--matchup", "-m", default=None, metavar="A,B",
              help="With --seed: the game of this matchup (two hero keys, either seating; a team run: A+B,C+D).")
@click.option("--seed", "-s", type=Whole(0, 2**32 - 1), default=None, help="With --matchup: the game's seed.")
@click.option("--battlefield", "-b", default=None, metavar="KEY",
              help="With --matchup and --seed, or with --list: only games on this battlefield.")
@click.option("--limit", "limit", type=Whole(min=0), default=20, show_default=True, metavar="N",
              help="With --list: how many games to list (0: all).")
@click.option("--out", "-o", "out", default=None, type=click.Path(path_type=Path), metavar="FILE",
              help="The page to write. Default: RUN_DIR/report/replays/game-N.html.")
@click.option("--reveal", is_flag=True, help="Show every player's hand (otherwise hand sizes only).")
@click.option("--explain", is_flag=True, help="Show the AI's top candidates and scores at each decision.")
@click.option("--list", "listing", is_flag=True, help="List the stored games (of --matchup, if given) with their "
                                                      "numbers and seeds, instead of writing a page.")
def replay(run_dir, number, matchup, seed, battlefield, limit, out, reveal, explain, listing):
    """Write a stored game of RUN_DIR (a matrix, loadouts, teams or compare run folder) as a
    replay page: the game is played again from its seed and the run's settings, checked
    against the stored result, and drawn on its battlefield event by event.

    \b
    unmatched-sim replay runs/first --game 17
    unmatched-sim replay runs/first --matchup medusa,sinbad --seed 2718281828 -o medusa.html
    unmatched-sim replay runs/first --list --matchup medusa,sinbad -b soho --limit 0
    """
    from sim.runs.replay import find_game, list_games, replay_stored, run_label

    if listing:
        try:
            games, total = list_games(run_dir, matchup, limit=limit or None, battlefield=battlefield)
        except RunError as e:
            raise _fail(e) from None
        for g in games:
            click.echo(_list_line(g))
        more = f" (the first {len(games)} shown)" if total > len(games) else ""
        click.echo(f"{total} stored games{' of ' + matchup if matchup else ''}"
                   f"{' on ' + battlefield if battlefield else ''}{more}")
        return
    if battlefield is not None and number is not None:
        raise click.UsageError("--battlefield narrows a game by --matchup and --seed (or --list); --game N "
                               "names one game already", ctx=click.get_current_context())
    try:
        g = find_game(run_dir, number, matchup, seed, battlefield)
    except RunError as e:
        raise _fail(e) from None
    if out is None:
        out = Path(run_dir) / "report" / "replays" / f"game-{g.number}.html"
        try:
            out.parent.mkdir(parents=True, exist_ok=True)
        except OSError as e:
            raise click.ClickException(f"cannot make {out.parent}: {e.strerror or e}; give --out FILE") from None
    path = check_writable(out, "--out")
    try:
        rep = replay_stored(run_dir, g, explain=explain)
    except RunError as e:
        raise click.ClickException(str(e)) from None
    write_page(rep, path, reveal, explain, note=run_label(g, run_dir) + ".")


def _list_line(g) -> str:
    """One stored game of ``replay --list`` with the heroes and the battlefield by their display
    names, as the reports name them: 'game 3: Medusa vs Sinbad on Soho, seed 123; Sinbad (P2) won
    in 17 turns' ('Alice + Medusa vs ...' in a team run; a loadout in parentheses)."""
    from reports.format import battlefield_names, hero_names
    names, bfs = hero_names(g.manifest), battlefield_names(g.manifest)
    r = g.row

    def team(t: str) -> str:
        return " + ".join(names.get(k, k) for k in t.split("+"))

    def hero(k: str, lo: str) -> str:
        return names.get(k, k) + (f" ({lo})" if lo else "")
    if g.team:
        sides = [team(r["team1"]), team(r["team2"])]
        winner = sides[r["winner"]] if r["winner"] >= 0 else ""
    else:
        sides = [hero(k, lo) for k, lo in zip(g.heroes, g.loadouts)]
        winner = f"{names.get(g.heroes[r['winner']], g.heroes[r['winner']])} (P{r['winner'] + 1})" if r["winner"] >= 0 \
            else ""
    result = f"{winner} won in {r['turns']} turns" if winner else f"draw in {r['turns']} turns"
    return (f"game {g.number}: {' vs '.join(sides)} on {bfs.get(r['battlefield'], r['battlefield'])}, "
            f"seed {r['seed']}; {result}")
