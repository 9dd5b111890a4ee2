"""The ``unmatched-sim`` command line (click).

Commands: ``heroes``, ``battlefields``, ``validate``, ``profiles``, ``duel`` (also team
games: ``duel A+B C+D``), ``arena``, ``matrix``, ``teams``, ``loadouts``, ``compare``, ``report``, ``bench``. Bad input
(unknown hero, loadout or battlefield; an invalid file) prints a one-line
error naming the file or value and the valid choices, and exits with
status 2 (usage) or 1 (invalid file), never with a traceback.
"""
from __future__ import annotations

import json
import sys
import tomllib
from pathlib import Path

import click

from sim.ai_profiles import DEFAULT_PROFILE, ProfileError, get_profile, profile_names
from sim.cli_backend import backend_options
from sim.content.battlefields import BattlefieldError, list_battlefields, load_battlefield
from sim.content.heroes import HeroFileError, deck_warnings, load_all, load_hero
from sim.engine.layout import HF_FOG_WALK


def _extra():
    ctx = click.get_current_context()
    return tuple((ctx.find_root().obj or {}).get("heroes", ()))


def _content(variant=None):
    from sim.match import installed_content
    try:
        return installed_content(_extra(), variant.to_json() if variant is not None else "")
    except HeroFileError as e:
        raise click.ClickException(f"a hero file is invalid: {e}") from None


def _variant(path):
    """The --variant file as a validated Variant (None without one), or a one-line usage
    error naming the file, the hero, the card and the field."""
    if path is None:
        return None
    from sim.content.variants import VariantError, load_variant
    try:
        specs = load_all(None, _extra())
    except HeroFileError as e:
        raise click.ClickException(f"a hero file is invalid: {e}") from None
    try:
        return load_variant(path, specs)
    except VariantError as e:
        raise click.BadParameter(str(e), param_hint="'--variant'") from None


def variant_option(command):
    """Add ``--variant FILE`` to a click command."""
    return click.option(
        "--variant", "variant_path", default=None, type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
        help="A designer variant: a TOML file that changes parts of hero files (health, move, a card's value, "
             "boost, copies or effect arguments) for this command; see the README.")(command)


def run_options(out_default, out_help, *, ai_help="AI profile for both seats",
                seed_help="Run seed, 0..4294967295 (same seed, same games).",
                bf_help="Battlefields (comma-separated or repeated). Default: every installed battlefield.",
                no_report_help="Only play and store the games."):
    """The options every command that plays a stored run shares (matrix, teams, loadouts,
    compare): --battlefields, --ai, --seed, --out, --chunk-size, --no-report, --quiet."""
    opts = [
        click.option("--battlefields", "-b", "battlefield_names", multiple=True, metavar="KEYS", help=bf_help),
        click.option("--ai", default=DEFAULT_PROFILE, show_default=True, metavar="PROFILE",
                     help=ai_help + ": " + ", ".join(profile_names()) + ", or a profile .toml file."),
        click.option("--seed", "-s", default=1, show_default=True, type=click.IntRange(0, 2**32 - 1), help=seed_help),
        click.option("--out", "-o", default=out_default, show_default=out_default is not None,
                     type=click.Path(file_okay=True, path_type=Path), help=out_help),
        click.option("--chunk-size", default=200, show_default=True, type=click.IntRange(min=1),
                     help="Games per chunk (the unit of work and of resuming)."),
        click.option("--no-report", is_flag=True, help=no_report_help),
        click.option("--quiet", "-q", is_flag=True, help="No progress bar."),
    ]

    def apply(command):
        for o in reversed(opts):
            command = o(command)
        return command
    return apply


class _Commands(click.Group):
    """The command group; a --homebrew written after the command name gets a hint."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.NoSuchOption as e:
            if e.option_name == "--homebrew":
                e.message = ("No such option: --homebrew here; it goes before the command, e.g. "
                             "`unmatched-sim --homebrew my_heroes duel lamplighter medusa`")
            raise


@click.group(cls=_Commands, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(package_name="unmatched-sim")
@click.option("--homebrew", "hero_paths", multiple=True, type=click.Path(path_type=Path), envvar="UNMATCHED_SIM_HEROES",
              help="Extra hero file or folder (homebrew heroes), usable with every command. Repeatable; "
                   "also read from UNMATCHED_SIM_HEROES.")
@click.pass_context
def main(ctx, hero_paths):
    """unmatched-sim: matchup balance simulator for Unmatched.

    Heroes are TOML files in heroes/, battlefields in sim/battlefields/.
    Start with `unmatched-sim heroes` and `unmatched-sim duel medusa sinbad`.
    A homebrew hero: `unmatched-sim --homebrew my_hero.toml duel my_hero medusa`.
    """
    ctx.obj = {"heroes": hero_paths}
    if ctx.invoked_subcommand in _PLAYS_GAMES and not {"-h", "--help"} & set(sys.argv) and _stderr_is_terminal():
        from sim.engine import cache_is_warm
        if not cache_is_warm():
            click.echo("Compiling the game engine for this machine: the first run after an install or an "
                       "engine change takes a few minutes (2-4 on two cores) before the first game; "
                       "later runs start in seconds.", err=True)


_PLAYS_GAMES = {"duel", "arena", "matrix", "loadouts", "compare", "bench", "teams"}


def _stderr_is_terminal() -> bool:
    """The compile notice is for people at a terminal, not for scripts reading the output."""
    return sys.stderr.isatty()


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def heroes(as_json):
    """List the installed heroes with their character cards."""
    try:
        specs = load_all(None, _extra())
    except HeroFileError as e:
        raise click.ClickException(str(e)) from None
    rows = []
    for key, s in sorted(specs.items()):
        rows.append({
            "key": key, "name": s.name, "set": s.set,
            "health": s.hero.health, "move": s.hero.move, "attack": "ranged" if s.hero.ranged else "melee",
            "sidekicks": [{"name": k.name, "count": k.count, "health": k.health, "move": k.move,
                           "attack": "ranged" if k.ranged else "melee"} for k in s.sidekicks],
            "ability": s.ability_text,
            "forms": list(s.counters["form"][1]) if "form" in s.counters else [],
            "fog_tokens": 3 if s.ability_flags & HF_FOG_WALK else 0,
            "deck_size": {lo or "default": s.deck_size(lo) for lo in s.loadouts()},
            "loadouts": [lo for lo in s.loadouts() if lo],
        })
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for r in rows:
        sk = ", ".join(f"{k['count']}x {k['name']} ({k['health']} health, move {k['move']}, {k['attack']})"
                       for k in r["sidekicks"]) or "none"
        sizes = list(r["deck_size"].values())
        if len(set(sizes)) == 1:   # (one size for every loadout: say it once)
            decks = f"{sizes[0]} cards" + (f" (each of {len(sizes)} loadouts)" if len(sizes) > 1 else "")
        else:
            decks = ", ".join(f"{lo or 'default'}: {n} cards" for lo, n in r["deck_size"].items())
        click.echo(f"{r['key']}: {r['name']} ({r['set']})")
        click.echo(f"  health {r['health']}, move {r['move']}, {r['attack']}; sidekicks: {sk}; deck {decks}")
        if r["loadouts"]:
            click.echo(f"  loadouts: {', '.join(r['loadouts'])}")
        if r["forms"]:
            click.echo(f"  forms: {', '.join(r['forms'])} (starts as {r['forms'][0]})")
        if r["fog_tokens"]:
            click.echo(f"  fog tokens: {r['fog_tokens']}")
        click.echo(f"  ability: {r['ability']}")


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
def battlefields(as_json):
    """List the installed battlefields."""
    rows = []
    for key in list_battlefields():
        bf = load_battlefield(key)
        rows.append({"key": key, "name": bf.name, "box": bf.box, "spaces": bf.n_spaces,
                     "zones": list(bf.zone_names),
                     "starts": [bf.space_ids[s] if s >= 0 else None for s in bf.starts.tolist()],
                     "one_way_paths": int(((bf.move != bf.move.T) & (bf.move == 1)).sum()),
                     "secret_passages": [bf.space_ids[i] for i in range(bf.n_spaces) if bf.passage[i]]})
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for r in rows:
        extra = []
        if r["one_way_paths"]:
            extra.append(f"{r['one_way_paths']} one-way paths")
        if r["secret_passages"]:
            extra.append("secret passages " + ", ".join(r["secret_passages"]))
        click.echo(f"{r['key']}: {r['name']} ({r['box']}): {r['spaces']} spaces, {len(r['zones'])} zones, "
                   f"starts {', '.join(s for s in r['starts'] if s)}" + (f"; {'; '.join(extra)}" if extra else ""))


def _is_battlefield(path: Path) -> bool:
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8-sig"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError):
        return path.parent.name == "battlefields"
    return "spaces" in data


@main.command()
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
def validate(paths):
    """Check hero and battlefield files (or folders of them); exit 1 if any is invalid."""
    files = []
    for p in paths:
        if p.is_dir():
            files.extend(sorted(p.glob("*.toml")))
        elif not p.exists():
            raise click.BadParameter(f"{p}: no such file or folder", param_hint="PATHS")
        else:
            files.append(p)
    if not files:
        raise click.BadParameter("no .toml files found", param_hint="PATHS")
    bad = 0
    for f in files:
        try:
            if _is_battlefield(f):
                bf = load_battlefield(f)
                click.echo(f"ok  {f}: battlefield {bf.name}, {bf.n_spaces} spaces")
            else:
                spec = load_hero(f)
                from sim.content.compile import compile_content
                compile_content({spec.key: spec})
                installed = load_all()
                clash = installed.get(spec.key)
                if clash is not None and Path(clash.path).resolve() != f.resolve():
                    raise HeroFileError(f"{f.name}: key {spec.key!r} is already the installed hero {clash.path}; "
                                        "rename the file or set key = \"...\" in it")
                click.echo(f"ok  {f}: hero {spec.name}, " + ", ".join(
                    f"{lo + ': ' if lo else ''}{spec.deck_size(lo)} cards" for lo in spec.loadouts()))
                for w in deck_warnings(spec):
                    click.echo(f"    warning: {w}")
        except (HeroFileError, BattlefieldError) as e:
            bad += 1
            msg = str(e)
            if msg.startswith(f"{f.name}: "):   # the loaders name the file only: give the path, as the ok lines do
                msg = f"{f}: " + msg[len(f.name) + 2:]
            click.echo(f"ERR {msg}", err=True)
    if bad:
        click.echo(f"{bad} of {len(files)} file(s) invalid", err=True)
        sys.exit(1)


@main.command()
@click.argument("hero_a")
@click.argument("hero_b")
@click.option("--battlefield", "-b", default="marmoreal", show_default=True,
              help="Battlefield key (see `unmatched-sim battlefields`) or a battlefield .toml file.")
@click.option("--seed", "-s", default=1, show_default=True, type=click.IntRange(0, 2**32 - 1),
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
@click.option("--players", type=click.Choice(["3", "4"]), default=None,
              help="Team games only (A+B C+D): 4 (default) players, or 3: one player controls both heroes of "
                   "the first team (A+B) and takes both its turns.")
@variant_option
def duel(hero_a, hero_b, battlefield, seed, loadouts, ai, vs, explain, as_json, players, variant_path):
    """Play one seeded game of HERO_A (moves first) against HERO_B and narrate it.

    A hero whose file declares choice groups (gear) takes a loadout, one option per group
    joined by '+' (`unmatched-sim heroes` lists them): either KEY@LOADOUT or --loadout, e.g.
    `duel geralt ciri --loadout silver+wolf-armor+blizzard -b kaer_morhen --seed 3`.
    Both seats play the --ai profile (default: standard) unless --vs names another for HERO_B.

    A team game: `duel A+B C+D` (2 vs 2 on a battlefield with four start spaces; turn
    order A, C, B, D; --players 3: one player controls A and B). --ai plays the first team,
    --vs the second. A loadout is then given as KEY@LOADOUT.
    """
    from sim.match import Match, MatchError
    from sim.narrate import narrate
    from sim.engine import layout as L
    variant = _variant(variant_path)
    content = _content(variant)
    from sim.teams import split_heroes
    if len(split_heroes(hero_a, content)) > 1 or len(split_heroes(hero_b, content)) > 1 or players is not None:
        return _team_duel(hero_a, hero_b, battlefield, seed, loadouts, ai, vs, explain, as_json,
                          int(players or 4), content, variant)
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
    profiles = (_profile(ai, "--ai"), _profile(vs if vs is not None else ai, "--vs"))
    g = m.play(seed, modes=profiles, explain=20000 if explain else 0)
    if as_json:
        reasons = {L.END_HERO_DEFEATED: "hero defeated", L.END_TURN_CAP: "turn cap (draw)", L.END_ERROR: "error"}
        out = {
            "seed": g.seed, "battlefield": m.battlefield.key,
            "heroes": [m.content.label(int(r)) for r in m.rows],
            "first_player": m.hero_names[0], "winner": g.winner_name,
            "winner_seat": None if g.winner < 0 else g.winner + 1, "turns": g.turns,
            "end_reason": reasons.get(int(g.result[2]), str(int(g.result[2]))),
            "final_health": {m.hero_names[p]: int(g.result[3 + p]) for p in range(2)},
            "sidekick_health": {m.hero_names[p]: int(g.result[5 + p]) for p in range(2)},
            "cards_played": {m.hero_names[p]: int(g.result[7 + p]) for p in range(2)},
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
        from sim.narrate import narrate_explained
        lines = narrate_explained(g)
    else:
        lines = narrate(g)
    for line in lines:
        click.echo(line)


def _team_duel(team_a, team_b, battlefield, seed, loadouts, ai, vs, explain, as_json, players, content, variant):
    """`duel A+B C+D`: one narrated team game (see :mod:`sim.teams`)."""
    from sim.match import MatchError
    from sim.narrate import narrate, narrate_explained
    from sim.engine import layout as L
    from sim.engine.game import TRES_DEALT0, TRES_HP0, TRES_OUT0, TRES_PLAYED0, TRES_SK0
    from sim.teams import TeamMatch, parse_team, split_heroes
    from sim.content.battlefields import list_battlefields, load_battlefield
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
    profiles = (_profile(ai, "--ai"), _profile(vs if vs is not None else ai, "--vs"))
    g = m.play(seed, modes=profiles, explain=20000 if explain else 0)
    if as_json:
        reasons = {L.END_HERO_DEFEATED: "team defeated", L.END_TURN_CAP: "turn cap (draw)", L.END_ERROR: "error"}
        r = g.result
        out = {
            "seed": g.seed, "battlefield": m.battlefield.key, "players": players,
            "seats": [{"seat": i + 1, "hero": m.content.label(int(m.rows[i])), "team": i % 2 + 1,
                       "player": m.controllers[i] + 1, "final_health": int(r[TRES_HP0 + i]),
                       "sidekick_health": int(r[TRES_SK0 + i]), "damage_dealt": int(r[TRES_DEALT0 + i]),
                       "cards_played": int(r[TRES_PLAYED0 + i]),
                       "defeated_on_turn": int(r[TRES_OUT0 + i]) or None} for i in range(4)],
            "teams": m.team_names, "winner": g.winner_name, "winner_team": None if g.winner < 0 else g.winner + 1,
            "turns": g.turns, "end_reason": reasons.get(int(r[2]), str(int(r[2]))),
            "events": len(g.log), "ai": [p.name for p in profiles],
            "variant": variant.name if variant is not None else None,
        }
        click.echo(json.dumps(out, indent=2))
        return
    if variant is not None:
        click.echo(f"Variant {variant.name!r}: " + "; ".join(variant.describe()))
    for line in (narrate_explained(g) if explain else narrate(g)):
        click.echo(line)


def _profile(name, option):
    """An AI profile by name or file, or a usage error naming the option and the valid profiles."""
    try:
        return get_profile(name)
    except ProfileError as e:
        raise click.BadParameter(str(e), param_hint=f"'{option}'") from None


@main.command()
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@click.argument("profile", required=False)
def profiles(profile, as_json):
    """List the AI profiles, or show one profile's weights (a name or a .toml file)."""
    from sim.engine.ai import WEIGHT_NAMES
    chosen = [_profile(profile, "PROFILE")] if profile else [get_profile(n) for n in profile_names()]
    rows = [{"name": p.name, "mode": p.mode_name, "description": p.description, "source": p.source,
             "weights": dict(zip(WEIGHT_NAMES, p.weights)) if p.mode_name != "random" else {}} for p in chosen]
    if as_json:
        click.echo(json.dumps(rows, indent=2))
        return
    for r in rows:
        click.echo(f"{r['name']} (mode {r['mode']}): {r['description']}")
        if profile and r["weights"]:
            for k, v in r["weights"].items():
                click.echo(f"  {k:<18} {v:g}")


@main.command()
@click.option("--ai", default=DEFAULT_PROFILE, show_default=True, metavar="PROFILE",
              help="The profile being measured: " + ", ".join(profile_names()) + ", or a profile .toml file.")
@click.option("--vs", default="greedy", show_default=True, metavar="PROFILE", help="The opposing profile.")
@click.option("--games", "-n", default=2000, show_default=True, type=click.IntRange(min=1),
              help="Games per hero for --ai, split evenly over opponents (mirror included), battlefields and seats.")
@click.option("--heroes", "hero_names", multiple=True, metavar="KEYS",
              help="Heroes (comma-separated or repeated). Default: every installed hero.")
@click.option("--battlefields", "-b", "battlefield_names", multiple=True, metavar="KEYS",
              help="Battlefields (comma-separated or repeated). Default: every installed battlefield.")
@backend_options
@click.option("--seed", "-s", default=1, show_default=True, type=click.IntRange(0, 2**32 - 1), help="Run seed.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@variant_option
def arena(ai, vs, games, hero_names, battlefield_names, seed, as_json, backend, variant_path):
    """Play AI profile --ai against profile --vs and print --ai's score per hero and overall.

    Every hero played by --ai meets every hero played by --vs (mirrors included) on every
    battlefield, seats swapped evenly; score = wins + draws/2, with a Wilson 95% interval.
    Also prints the first player's score. Example: `unmatched-sim arena --ai standard --vs random`.
    """
    from reports.arena import format_arena, run_arena
    from sim.arena import ArenaError
    _profile(ai, "--ai")
    _profile(vs, "--vs")
    variant = _variant(variant_path)
    try:
        res = run_arena(ai, vs, games, hero_names or None, battlefield_names or None, seed, None, _extra(),
                        backend=backend, variant=variant)
    except ArenaError as e:
        if e.param:
            raise click.BadParameter(str(e), param_hint=f"'{e.param}'") from None
        raise click.UsageError(str(e)) from None
    per = int(res.per_hero["games"].iloc[0]) if len(res.per_hero) else 0
    if per != games:
        click.echo(f"note: {per} games per hero instead of {games}, so that every opponent, battlefield and "
                   "seat gets the same number of games", err=True)
    if as_json:
        click.echo(json.dumps(res.to_dict(), indent=2))
    else:
        click.echo(format_arena(res))


def _run_error(e):
    """A sim.runner.RunError as a click usage error naming the option at fault."""
    if getattr(e, "param", None):
        return click.BadParameter(str(e), param_hint=f"'{e.param}'")
    return click.UsageError(str(e))


@main.command()
@click.option("--games", "-n", default=1000, show_default=True, type=click.IntRange(min=1),
              help="Games per pair of heroes, split evenly between the seats, the battlefields and the loadouts.")
@click.option("--heroes", "hero_names", multiple=True, metavar="KEYS",
              help="Heroes to pair (comma-separated or repeated; KEY@LOADOUT for one loadout only). "
                   "Default: every installed hero.")
@run_options(Path("runs/matrix"), "Run folder: new, empty, or a run of the same command to resume.",
             no_report_help="Only play and store the games; skip the tables, plots and HTML.")
@variant_option
@backend_options
def matrix(games, hero_names, battlefield_names, ai, backend, seed, out, chunk_size, no_report, quiet, variant_path):
    """Play every pair of heroes (mirrors included) on the chosen battlefields.

    Games run in chunks on worker processes (or on a dask cluster: --backend dask, with
    --scheduler ADDRESS for a running one) and are stored in the run folder (--out) as they
    finish: per-game rows as Parquet plus a manifest. Rerunning the same command resumes,
    skipping finished chunks; Ctrl-C loses no finished chunk. At the end the report (CSV,
    Parquet, PNG plots, report.html) is written to OUT/report and a summary printed.
    """
    from sim.runner import RunError, plan_run
    variant = _variant(variant_path)
    try:
        plan = plan_run(out, games, hero_names, battlefield_names, ai, seed, chunk_size, _extra(), variant)
    except RunError as e:
        raise _run_error(e) from None
    _note_uneven_split(plan, games)
    _execute(plan, backend, quiet, out)
    if no_report:
        return
    _write_report(out)


def _note_uneven_split(plan, games: int) -> None:
    """Say when a pair's games do not split evenly over its battlefields x loadouts x seats
    (the matrix gives some of them one game more; the scores stay balanced to that game)."""
    heroes, n_bf = plan.settings["heroes"], len(plan.settings["battlefields"])
    played: dict = {}
    for c in plan.cells:
        if c.p1 != c.p2:
            played.setdefault(tuple(sorted((c.p1, c.p2))), []).append(c.games)
    uneven = {}
    for (a, b), v in played.items():
        k = n_bf * len(heroes[a]) * len(heroes[b]) * 2   # (cells of 0 games are not planned)
        if len(v) < k or max(v) != min(v):
            uneven[(a, b)] = k
    if uneven:
        (a, b), k = max(uneven.items(), key=lambda kv: kv[1])
        click.echo(f"note: {games} games per pair do not split evenly over battlefields, loadouts and seats "
                   f"({len(uneven)} pair(s), e.g. {a} vs {b}: {k} slots); some slots get one game more. "
                   f"A multiple of {k} splits that pair exactly.", err=True)


@main.command()
@click.option("--games", "-n", default=2000, show_default=True, type=click.IntRange(min=1),
              help="Total games, spread evenly over the pairings (two disjoint hero pairs) and rounded up so "
                   "that every pairing gets the same number (the command prints how many).")
@click.option("--heroes", "hero_names", multiple=True, metavar="KEYS",
              help="Heroes to pair (comma-separated or repeated; at least 4; KEY@LOADOUT picks a loadout, "
                   "else a hero with gear plays its first one). Default: every installed hero.")
@run_options(Path("runs/teams"), "Run folder: new, empty, or a run of the same command to resume.",
             ai_help="AI profile of every player",
             bf_help="Battlefields with four start spaces (comma-separated or repeated). Default: every installed one.")
@backend_options
def teams(games, hero_names, battlefield_names, ai, seed, out, chunk_size, no_report, quiet, backend):
    """Play every team pairing (hero pair against a disjoint hero pair, 2 vs 2) and report.

    Seats (which team moves first, the order within each team) and battlefields are
    balanced over the run. Games are stored in the run folder as they finish (rerun to
    resume; Ctrl-C loses no finished chunk). The report (OUT/report: teams.md, teams.html,
    tables/*.csv and *.parquet, plots/team_pairs.png) gives each hero pair's score as a
    team with a Wilson 95% interval, and each hero's contribution (score of its teams,
    damage dealt, share of its team's damage, survival, last hero standing). A 3-player
    game plays by the same rules, so this report covers it too.
    """
    from sim.runner import RunError
    from sim.teams import execute_teams, plan_teams
    _profile(ai, "--ai")
    try:
        plan = plan_teams(out, games, hero_names or None, battlefield_names or None, ai, seed, chunk_size, _extra())
    except RunError as e:
        raise _run_error(e) from None
    s = plan.settings
    click.echo(f"--games {games}: {plan.games_total} games, {s['games_per_pairing']} per pairing "
               f"({s['pairings']} pairings of two disjoint pairs of {len(s['heroes'])} heroes), "
               f"{len(s['battlefields'])} battlefield(s).", err=True)
    _execute(plan, backend, quiet, out, run=execute_teams)
    if not no_report:
        _write_report(out, "teams")


def _execute(plan, backend, quiet, out, what="", run=None):
    """Play a planned run with progress and a one-line summary; exits 130 on Ctrl-C
    (finished chunks stay stored). ``run``: the executor (``sim.runner.execute_run``,
    or ``sim.teams.execute_teams`` for a team run)."""
    from sim.runner import RunError, RunInterrupted, execute_run
    total, done = plan.games_total, plan.games_done
    if done:
        click.echo(f"Resuming {out}: {done} of {total} games already stored.", err=True)
    try:
        res = (run or execute_run)(plan, backend=backend, progress=False if quiet else None)
    except RunError as e:
        raise _run_error(e) from None
    except RunInterrupted as e:
        click.echo(str(e), err=True)
        sys.exit(130)
    if res.games_played:
        click.echo(f"{what}Played {res.games_played} games in {res.seconds:.1f} s ({res.games_per_second:,.0f} games/s) "
                   f"in {len(plan.cells)} cells; {total} games stored in {out}.")
        click.echo(f"Workers: {res.backend}; busy {100 * (1 - res.overhead):.0f}% of the time.", err=True)
    else:
        click.echo(f"{what}All {total} games were already stored in {out}.")
    return res


def _write_report(run_dir, kind: str = "matrix"):
    """Build the report of a run folder (``kind``: matrix, loadouts, compare or teams, each
    with its own builder in ``reports``), then print its summary and where its files are.
    A report that cannot be built (e.g. a damaged games file: pyarrow's errors are
    ValueErrors) is a one-line error."""
    if kind == "teams":
        from reports.teams import build_teams_report as build
    elif kind == "loadouts":
        from reports.loadouts import build_loadouts_report as build
    elif kind == "compare":
        from reports.compare import build_compare_report as build
    else:
        from reports import build_report as build
    try:
        rep = build(run_dir)
    except ValueError as e:
        raise click.ClickException(f"cannot build the report of {run_dir}: {str(e).splitlines()[0]}") from None
    click.echo("")
    click.echo(rep.summary)
    click.echo("")
    if kind == "compare":
        click.echo(f"Report: {rep.html}  (table: {rep.csv['compare']}, plot: {rep.png['compare']})")
    else:
        files = f"{rep.markdown} and {rep.html}" if kind == "teams" else f"{rep.html}"
        click.echo(f"Report: {files}  (tables: {rep.out_dir / 'tables'}, plots: {rep.out_dir / 'plots'})")


def _out_name(*parts) -> Path:
    import re
    return Path("runs") / "_".join(re.sub(r"[^A-Za-z0-9_.-]+", "-", str(p)) for p in parts if p)


@main.command()
@click.argument("hero")
@click.option("--games", "-n", default=2000, show_default=True, type=click.IntRange(min=1),
              help="Games per loadout, split evenly over the opponents, battlefields and seats (rounded up so "
                   "that each gets the same number; the report says so).")
@click.option("--opponents", "opponent_names", multiple=True, metavar="KEYS",
              help="Opponents (comma-separated or repeated; KEY@LOADOUT for one loadout of an opponent with gear). "
                   "Default: every other installed hero.")
@run_options(None, "Run folder: new, empty, or a run of the same command to resume. "
                   "Default: runs/loadouts_HERO (plus the variant file's name).")
@variant_option
@backend_options
def loadouts(hero, games, opponent_names, battlefield_names, ai, seed, out, chunk_size, no_report, quiet,
             variant_path, backend):
    """Compare every gear loadout of HERO against every opponent.

    HERO must declare choice groups (Geralt of Rivia: sword, armor, potion; 8 loadouts).
    Each loadout plays every opponent on every battlefield, seats swapped evenly. The
    report (OUT/report/loadouts.html, tables/*.csv, plots/*.png) gives each loadout's
    win rate per opponent and overall with 95% intervals, the best loadout against each
    opponent, whether the loadouts differ significantly (chi-square, Holm-corrected) and
    the effect of each single gear choice with the others held fixed. Resumable like
    `matrix`. Example: `unmatched-sim loadouts geralt_of_rivia --games 20000`.
    """
    from sim.runner import RunError
    from sim.versus import plan_loadouts
    variant = _variant(variant_path)
    if out is None:
        out = _out_name("loadouts", hero.split("@")[0], variant_path.stem if variant_path else "")
    try:
        plan = plan_loadouts(out, hero, games, opponent_names or None, battlefield_names or None, ai, seed,
                             chunk_size, _extra(), variant)
    except RunError as e:
        raise _run_error(e) from None
    s = plan.settings
    if s["games_per_loadout"] != games:
        click.echo(f"note: {s['games_per_loadout']} games per loadout instead of {games}, so that every opponent, "
                   "battlefield and seat gets the same number", err=True)
    _execute(plan, backend, quiet, out)
    if not no_report:
        _write_report(out, "loadouts")


@main.command()
@click.option("--variant", "variant_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              metavar="FILE", help="The designer variant to measure (a TOML file; see the README).")
@click.option("--hero", "hero", required=True, metavar="KEY",
              help="The hero whose win rate is compared (KEY or KEY@LOADOUT; a hero with gear plays all its "
                   "loadouts unless one is named).")
@click.option("--games", "-n", default=2000, show_default=True, type=click.IntRange(min=1),
              help="Games per opponent in each of the two runs, split evenly over battlefields, seats and loadouts "
                   "(rounded up so that each gets the same number).")
@click.option("--opponents", "opponent_names", multiple=True, metavar="KEYS",
              help="Opponents (comma-separated or repeated). Default: every other installed hero.")
@run_options(None, "Compare folder (OUT/baseline and OUT/variant are run folders; rerunning resumes). "
                   "Default: runs/compare_VARIANT_HERO.",
             seed_help="Run seed, 0..4294967295: both runs use it, so their games are paired.")
@backend_options
def compare(variant_path, hero, games, opponent_names, battlefield_names, ai, seed, out, chunk_size, no_report,
            quiet, backend):
    """Measure a designer variant: HERO's win rate without and with it, in paired games.

    Plays HERO against every opponent twice with the same cells and seeds: once with the
    hero files as installed (OUT/baseline) and once with the variant (OUT/variant). Game i
    of a cell has the same seed in both, so the two runs are paired, and the report gives
    the change of HERO's win rate against each opponent and overall with a 95% interval
    and a significance verdict (paired t-test, Holm-corrected). Example:
    `unmatched-sim compare --variant arthur_plus4.toml --hero king_arthur --games 2000`.
    """
    from sim.runner import RunError
    from sim.versus import plan_compare
    variant = _variant(variant_path)
    if out is None:
        out = _out_name("compare", variant_path.stem, hero.split("@")[0])
    try:
        base, var = plan_compare(out, hero, variant, games, opponent_names or None, battlefield_names or None, ai,
                                 seed, chunk_size, _extra())
    except RunError as e:
        raise _run_error(e) from None
    s = var.settings
    if any(n != games for n in s["games_per_opponent"].values()):
        click.echo("note: " + ", ".join(f"{n} games against {o}" for o, n in s["games_per_opponent"].items()
                                        if n != games)
                   + f" instead of {games}, so that every battlefield, seat and loadout gets the same number", err=True)
    if variant.is_noop:
        click.echo(f"note: the variant {variant.name!r} sets only values the hero files already have", err=True)
    changed = set(variant.heroes)
    if s["hero"] not in changed:
        click.echo(f"note: the variant {variant.name!r} does not change {s['hero']} (it changes "
                   f"{', '.join(sorted(changed))}): the difference measured is the effect on {s['hero']}'s "
                   f"games of changes to other heroes", err=True)
    if changed & set(s["games_per_opponent"]) - {s["hero"]}:
        click.echo(f"note: the variant also changes opponents ({', '.join(sorted(changed & set(s['games_per_opponent'])))}"
                   f"): the difference is the combined effect, not {s['hero']}'s change alone", err=True)
    _execute(base, backend, quiet, base.run_dir, "Baseline: ")
    _execute(var, backend, quiet, var.run_dir, "Variant:  ")
    if not no_report:
        _write_report(out, "compare")


@main.command()
@click.argument("run_dir", type=click.Path(path_type=Path))
def report(run_dir):
    """Write the tables, plots and HTML report of a run folder (RUN_DIR/report): a matrix
    run, a loadouts run, or a compare folder."""
    from sim.runner import RunError, read_manifest
    from sim.versus import BASELINE_DIR, VARIANT_DIR
    if not run_dir.is_dir():
        raise click.BadParameter(f"{run_dir}: " + ("a file, not a run folder" if run_dir.exists() else "no such folder"),
                                 param_hint="RUN_DIR")
    try:
        if not (run_dir / "manifest.json").exists() and (run_dir / BASELINE_DIR).is_dir() \
                and (run_dir / VARIANT_DIR).is_dir():
            _write_report(run_dir, "compare")
            return
        parent = run_dir.resolve().parent
        if run_dir.resolve().name in (BASELINE_DIR, VARIANT_DIR) and (parent / BASELINE_DIR).is_dir() \
                and (parent / VARIANT_DIR).is_dir():
            raise click.BadParameter(f"{run_dir} is one half of a compare folder; its report is made from both: "
                                     f"run `unmatched-sim report {parent}`", param_hint="RUN_DIR")
        m = read_manifest(run_dir)
        if m["settings"].get("mode") == "teams":
            _write_report(run_dir, "teams")
            return
        if m["settings"].get("mode") == "loadouts":
            _write_report(run_dir, "loadouts")
            return
        _write_report(run_dir)
    except RunError as e:
        raise click.BadParameter(str(e), param_hint="RUN_DIR") from None
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    except OSError as e:
        raise click.ClickException(f"cannot write the report in {run_dir}: {e}") from None


@main.command()
@click.option("--games", "-n", default=2420, show_default=True, type=click.IntRange(min=1),
              help="Duels per timed run, rounded up to a multiple of the hero pairs.")
@click.option("--ai", default=DEFAULT_PROFILE, show_default=True, metavar="PROFILE", help="AI profile for both seats.")
@click.option("--jobs", "-j", default=None, type=click.IntRange(min=1), help="Worker processes. Default: all cores.")
@click.option("--repeat", default=3, show_default=True, type=click.IntRange(min=1), help="Timed one-core runs.")
@click.option("--python-games", default=6, show_default=True, type=click.IntRange(min=0),
              help="Duels for the plain-Python (NUMBA_DISABLE_JIT=1) comparison; 0 skips it.")
@click.option("--start-runs", default=2, show_default=True, type=click.IntRange(min=0),
              help="Warm start-up measurements (a fresh python each); 0 skips them.")
@click.option("--compile", "measure_compile", is_flag=True,
              help="Also measure the compile time with an empty cache (in a temporary folder; takes minutes).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench(games, ai, jobs, repeat, python_games, start_runs, measure_compile, as_json):
    """Measure how fast the engine plays duels: per core, on all cores, start-up, memory.

    Plays a fixed, seeded mix (every ordered pair of heroes, all battlefields) and prints
    duels per second on one core and on --jobs cores, the parallel efficiency, the warm
    start-up time, peak memory per worker and the speed-up over plain Python.
    `sim/bench.py` explains every figure.
    """
    from sim.bench import format_bench, run_bench
    _profile(ai, "--ai")
    say = None if as_json else (lambda msg: click.echo(msg, err=True))
    r = run_bench(games, ai, jobs, repeat, python_games, measure_compile, start_runs, progress=say)
    click.echo(json.dumps(r, indent=1) if as_json else format_bench(r))


if __name__ == "__main__":
    main()
