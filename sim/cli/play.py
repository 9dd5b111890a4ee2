"""``duel``: one seeded game, narrated (also team games: ``duel A+B C+D``)."""
from __future__ import annotations

import json
import os
from pathlib import Path

import click

from sim.cli.app import compile_part, main
from sim.cli.options import Whole, check_profile, note_expert_in_teams, run_content, variant_of, variant_option
from sim.content.battlefields import list_battlefields, load_battlefield
from sim.content.profiles import DEFAULT_PROFILE, profile_names
from sim.engine.codes import END_REASON_LABELS
from sim.engine.game import (RES_HP0, RES_PLAYED0, RES_REASON, RES_SK0, TRES_DEALT0, TRES_HP0, TRES_OUT0, TRES_PLAYED0,
    TRES_REASON, TRES_SK0)
from sim.play.match import Match, MatchError
from sim.play.narrate import header_line, narrate, narrate_explained
from sim.play.teams import TeamMatch, parse_team, split_heroes


@main.command()
@click.argument("hero_a")
@click.argument("hero_b")
@click.option("--battlefield", "-b", default="marmoreal", show_default=True,
              help="Battlefield key or name, in any case (see `unmatched-sim battlefields`), or a battlefield .toml file.")
@click.option("--seed", "-s", default=1, show_default=True, type=Whole(0, 2**32 - 1),
              help="Game seed, 0..4294967295 (same seed, same game).")
@click.option("--loadout", "-l", "loadouts", multiple=True,
              help="Gear loadout, e.g. silver+wolf-armor+blizzard: once for the hero that has choice groups, "
                   "or twice (seat order) when both do. Same as writing KEY@LOADOUT.")
@click.option("--ai", default=DEFAULT_PROFILE, show_default=True, metavar="PROFILE",
              help="AI profile for HERO_A (and HERO_B unless --vs): " + ", ".join(profile_names())
                   + ", or a profile .toml file.")
@click.option("--vs", default=None, metavar="PROFILE", help="AI profile for HERO_B. Default: the same as --ai.")
@click.option("--explain", is_flag=True,
              help="Before each AI decision, show the top candidates and their scores.")
@click.option("--json", "as_json", is_flag=True, help="Print a machine-readable summary instead of the narration.")
@click.option("--html", "html_path", default=None, type=click.Path(path_type=Path), metavar="FILE",
              help="Write the game as a replay page (one self-contained HTML file: the battlefield, the fighters "
                   "moving event by event, step controls) instead of printing the narration.")
@click.option("--reveal", is_flag=True, help="With --html: show every player's hand (otherwise hand sizes only).")
@click.option("--players", type=click.Choice(["3", "4"]), default=None,
              help="Team games only (A+B C+D): 4 (default) players, or 3: one player controls both heroes of "
                   "the first team (A+B) and takes both its turns.")
@variant_option
def duel(hero_a, hero_b, battlefield, seed, loadouts, ai, vs, explain, as_json, html_path, reveal, players, variant_path):
    """Play one seeded game of HERO_A (moves first) against HERO_B and narrate it.

    A hero whose file declares choice groups (gear) takes a loadout, one option per group
    joined by '+' (`unmatched-sim heroes` lists them): either KEY@LOADOUT or --loadout, e.g.
    `duel geralt ciri --loadout silver+wolf-armor+blizzard -b kaer_morhen --seed 3`.
    Both seats play the --ai profile (default: standard) unless --vs names another for HERO_B.
    `--html game.html` writes the game as a replay page to open in a browser (offline);
    with --explain it shows the AI's candidates, with --reveal the hands.

    A team game: `duel A+B C+D` (2 vs 2 on a battlefield with four start spaces; turn
    order A, C, B, D; --players 3: one player controls A and B). --ai plays the first team,
    --vs the second. A loadout is then given as KEY@LOADOUT.
    """
    if html_path is not None and as_json:
        raise click.UsageError("--json prints a summary, --html writes a replay page: give one of them")
    variant = variant_of(variant_path)
    content = run_content(variant)
    if len(split_heroes(hero_a, content)) > 1 or len(split_heroes(hero_b, content)) > 1 or players is not None:
        compile_part("teams")
        return _team_duel(hero_a, hero_b, battlefield, seed, loadouts, ai, vs, explain, as_json,
                          int(players or 4), content, variant, html_path, reveal)
    try:
        m = Match([hero_a, hero_b], battlefield, content=content)
        if loadouts:
            with_groups = [i for i, sp in enumerate(m.specs) if sp.groups]
            if any(not lo.strip() for lo in loadouts):
                raise MatchError("--loadout is empty; give one option per choice group joined by '+' "
                                 "(`unmatched-sim heroes` lists the loadouts)")
            if len(loadouts) > 2 or (len(loadouts) == 2 and len(with_groups) < 2) or not with_groups:
                raise MatchError(f"--loadout given {len(loadouts)} time(s), but "
                                 f"{len(with_groups)} of the two heroes have loadouts")
            if len(loadouts) == 1 and len(with_groups) == 2:
                raise MatchError("both heroes have loadouts: give --loadout twice (seat order), "
                                 "or write KEY@LOADOUT for each hero")
            if any("@" in h for h in (hero_a, hero_b)):
                raise MatchError("a loadout is given both as KEY@LOADOUT and with --loadout; use one of them")
            seats = with_groups if len(loadouts) == 2 else with_groups[:1]
            per_seat = [None, None]
            for seat, lo in zip(seats, loadouts):
                per_seat[seat] = lo
            m = Match([m.keys[0], m.keys[1]], battlefield, loadouts=per_seat, content=content)
    except MatchError as e:
        raise click.UsageError(str(e)) from None
    profiles = (check_profile(ai, "--ai"), check_profile(vs if vs is not None else ai, "--vs"))
    if html_path is not None:
        compile_part("replays")
        return _write_page(m, seed, profiles, explain, reveal, html_path, variant)
    if reveal:
        raise click.UsageError("--reveal shows the hands on a replay page: use it with --html FILE")
    g = m.play(seed, modes=profiles, explain=20000 if explain else 0)
    if as_json:
        reasons = END_REASON_LABELS
        out = {
            "seed": g.seed, "battlefield": m.battlefield.key,
            "heroes": [m.content.label(int(r)) for r in m.rows],
            "first_player": m.hero_names[0], "winner": g.winner_name,
            "winner_seat": None if g.winner < 0 else g.winner + 1, "turns": g.turns,
            "end_reason": reasons.get(int(g.result[RES_REASON]), str(int(g.result[RES_REASON]))),
            "final_health": {m.hero_names[p]: int(g.result[RES_HP0 + p]) for p in range(2)},
            "sidekick_health": {m.hero_names[p]: int(g.result[RES_SK0 + p]) for p in range(2)},
            "cards_played": {m.hero_names[p]: int(g.result[RES_PLAYED0 + p]) for p in range(2)},
            "events": len(g.log), "ai": [p.name for p in profiles],
            "variant": variant.name if variant is not None else None,
        }
        click.echo(json.dumps(out, indent=2))
        return
    if variant is not None:
        click.echo(f"Variant {variant.name!r}: " + "; ".join(variant.describe()))
        if not set(variant.heroes) & set(m.keys):
            click.echo(f"note: the variant {variant.name!r} changes none of this duel's heroes "
                       f"(it changes {', '.join(sorted(variant.heroes))})", err=True)
    if explain:
        lines = narrate_explained(g)
    else:
        lines = narrate(g)
    for line in lines:
        click.echo(line)


def _team_duel(team_a, team_b, battlefield, seed, loadouts, ai, vs, explain, as_json, players, content, variant,
               html_path=None, reveal=False):
    """`duel A+B C+D`: one narrated team game (see :mod:`sim.play.teams`)."""
    note_expert_in_teams([check_profile(x, o) for x, o in ((ai, "--ai"), (vs or ai, "--vs"))])
    try:
        if len(split_heroes(team_a, content)) < 2 or len(split_heroes(team_b, content)) < 2:
            raise MatchError(f"a team game needs two teams of two heroes, each written A+B "
                             f"(e.g. `duel medusa+sinbad king_arthur+alice`); got {team_a!r} and {team_b!r}")
        if loadouts:
            raise MatchError("--loadout is for duels; in a team game write KEY@LOADOUT for the hero")
        t1, t2 = parse_team(team_a, content), parse_team(team_b, content)
        m = TeamMatch(t1, t2, battlefield, players=players, content=content)
    except MatchError as e:
        msg = str(e)
        if "start space" in msg:
            good = [b for b in list_battlefields() if (load_battlefield(b).starts[:4] >= 0).all()]
            msg += f"; battlefields with four: {', '.join(good)}"
        raise click.UsageError(msg) from None
    profiles = (check_profile(ai, "--ai"), check_profile(vs if vs is not None else ai, "--vs"))
    if html_path is not None:
        compile_part("replays")
        return _write_page(m, seed, profiles, explain, reveal, html_path, variant)
    if reveal:
        raise click.UsageError("--reveal shows the hands on a replay page: use it with --html FILE")
    g = m.play(seed, modes=profiles, explain=20000 if explain else 0)
    if as_json:
        reasons = END_REASON_LABELS
        r = g.result
        out = {
            "seed": g.seed, "battlefield": m.battlefield.key, "players": players,
            "seats": [{"seat": i + 1, "hero": m.content.label(int(m.rows[i])), "team": i % 2 + 1,
                       "player": m.controllers[i] + 1, "final_health": int(r[TRES_HP0 + i]),
                       "sidekick_health": int(r[TRES_SK0 + i]), "damage_dealt": int(r[TRES_DEALT0 + i]),
                       "cards_played": int(r[TRES_PLAYED0 + i]),
                       "defeated_on_turn": int(r[TRES_OUT0 + i]) or None} for i in range(4)],
            "teams": m.team_names, "winner": g.winner_name, "winner_team": None if g.winner < 0 else g.winner + 1,
            "turns": g.turns, "end_reason": reasons.get(int(r[TRES_REASON]), str(int(r[TRES_REASON]))),
            "events": len(g.log), "ai": [p.name for p in profiles],
            "variant": variant.name if variant is not None else None,
        }
        click.echo(json.dumps(out, indent=2))
        return
    if variant is not None:
        click.echo(f"Variant {variant.name!r}: " + "; ".join(variant.describe()))
    for line in (narrate_explained(g) if explain else narrate(g)):
        click.echo(line)


def check_writable(path: Path, option: str) -> Path:
    """``path`` if a file can be written there (its folder exists and is writable, it is
    not a folder), else a one-line error (``Error: cannot write ...: why``, exit status 1)
    naming ``option``; checked before a game is played, so a bad path fails at once."""
    path = Path(path)
    parent = path.parent if str(path.parent) else Path(".")
    why = None
    if path.is_dir():
        why = f"it is a folder; give a file name, e.g. {path / 'game.html'}"
    elif not parent.is_dir():
        why = f"{parent} is a file, not a folder" if parent.exists() else f"the folder {parent} does not exist"
    elif not os.access(parent, os.W_OK) or (path.exists() and not os.access(path, os.W_OK)):
        why = "permission denied"
    if why:
        raise click.ClickException(f"cannot write {path} ({option}): {why}")
    return path


def write_page(rep, path: Path, reveal: bool, explain: bool, note: str = "") -> None:
    """Write replay ``rep`` as a page to ``path`` and print one line; an OSError is a
    one-line error."""
    from reports.replay_html import page_events, write_replay
    try:
        out = write_replay(path, rep, reveal=reveal, explain=explain, note=note)
    except OSError as e:
        raise click.ClickException(f"cannot write {path}: {e.strerror or e}") from None
    g = rep.game
    result = "a draw" if g.winner < 0 else f"{g.winner_name} won"
    # the page's events, as the page counts them ("event N of M", #event=N)
    click.echo(f"wrote {out} ({out.stat().st_size / 1024:.0f} KB; {len(page_events(rep))} events, {g.turns} turns, "
               f"{result}): "
               "open it in a browser")


def _write_page(m, seed, profiles, explain, reveal, html_path, variant) -> None:
    from sim.play.replay import record
    path = check_writable(html_path, "--html")
    rep = record(m, seed, modes=profiles, explain=explain)
    ai = profiles[0].name if profiles[0].name == profiles[1].name else f"{profiles[0].name} vs {profiles[1].name}"
    note = f"AI {ai}" + (f"; variant {variant.name!r}: " + "; ".join(variant.describe()) if variant is not None else "")
    write_page(rep, path, reveal, explain, note=header_line(rep.game) + " " + note + ".")
