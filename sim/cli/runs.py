"""Commands that play many games: ``arena``, ``matrix``, ``teams``, ``loadouts``, ``compare``,
``report`` (rebuild a run's report) and ``bench``.

Each command imports the run and report modules it uses inside its function: they load
pandas, pyarrow and matplotlib (about 0.6 s), which ``--help``, ``heroes`` and ``validate``
do not need."""
from __future__ import annotations

import errno
import json
import re
import time
from pathlib import Path

import click

from sim.cli.app import main
from sim.cli.options import (
    GAMES, Whole, backend_options, check_profile, exit_interrupted, homebrew_paths, note_expert_in_teams,
    note_same_names, run_options, variant_of, variant_option, run_content, warn_skipped,
)
from sim.content.profiles import DEFAULT_PROFILE, profile_names
from sim.runs.errors import RunError, RunInterrupted, RunWriteError


@main.command()
@click.option("--ai", default=DEFAULT_PROFILE, show_default=True, metavar="PROFILE",
              help="The profile being measured: " + ", ".join(profile_names()) + ", or a profile .toml file.")
@click.option("--vs", default="greedy", show_default=True, metavar="PROFILE", help="The opposing profile.")
@click.option("--games", "-n", default=2000, show_default=True, type=GAMES,
              help="Games per hero for --ai, split evenly over opponents (mirror included), battlefields and seats.")
@click.option("--heroes", "hero_names", multiple=True, metavar="KEYS",
              help="Heroes (comma-separated or repeated). Default: every installed hero.")
@click.option("--battlefields", "-b", "battlefield_names", multiple=True, metavar="KEYS",
              help="Battlefields (comma-separated or repeated). Default: every installed battlefield.")
@backend_options
@click.option("--seed", "-s", default=1, show_default=True, type=Whole(0, 2**32 - 1), help="Run seed.")
@click.option("--json", "as_json", is_flag=True, help="Machine-readable output.")
@variant_option
def arena(ai, vs, games, hero_names, battlefield_names, seed, as_json, backend, variant_path):
    """Play AI profile --ai against profile --vs and print --ai's score per hero and overall.

    Every hero played by --ai meets every hero played by --vs (mirrors included) on every
    battlefield, seats swapped evenly; score = wins + draws/2, with a Wilson 95% interval.
    Also prints the first player's score. Example: `unmatched-sim arena --ai standard --vs random`.
    """
    from reports.arena import format_arena, run_arena
    from sim.runs.arena import ArenaError
    check_profile(ai, "--ai")
    check_profile(vs, "--vs")
    variant = variant_of(variant_path)
    run_content(variant)        # (warns about a hero file left out)
    try:
        res = run_arena(ai, vs, games, hero_names or None, battlefield_names or None, seed, None, homebrew_paths(),
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
    """A sim.runs.errors.RunError as a click usage error naming the option at fault; a
    folder that cannot be written while playing, or that another command is playing, is a
    one-line ``Error: ...`` (exit status 1) without usage text: the options were fine."""
    from sim.runs.lock import RunLocked
    if isinstance(e, (RunWriteError, RunLocked)):
        return click.ClickException(str(e))
    if getattr(e, "param", None):
        return click.BadParameter(str(e), param_hint=f"'{e.param}'")
    return click.UsageError(str(e))


@main.command()
@click.option("--games", "-n", default=1000, show_default=True, type=GAMES,
              help="Games per pair of heroes, split evenly between the seats, the battlefields and the loadouts.")
@click.option("--heroes", "hero_names", multiple=True, metavar="KEYS",
              help="Heroes to pair (comma-separated or repeated; KEY@LOADOUT for one loadout only). "
                   "Default: every installed hero.")
@run_options(Path("runs/matrix"), "Run folder: new, empty, or a run of the same command to resume.",
             no_report_help="Only play and store the games; skip the tables, plots and HTML.")
@variant_option
@backend_options
def matrix(games, hero_names, battlefield_names, ai, backend, seed, out, chunk_size, task_games, no_report, quiet,
           variant_path):
    """Play every pair of heroes (mirrors included) on the chosen battlefields.

    Games run in tasks of a few seconds on worker processes (or on a dask cluster: --backend
    dask, with --scheduler ADDRESS for a running one) and are stored in the run folder (--out)
    as they finish: per-game rows as Parquet, one file per task (compacted into one when the
    run is complete), plus a manifest. Rerunning the same command resumes, playing only the
    games not stored; Ctrl-C (or a kill) loses only the games in flight. At the end the report
    (CSV, Parquet, PNG plots, report.html) is written to OUT/report and a summary printed.
    """
    from sim.runs.matrix import plan_run
    variant = variant_of(variant_path)
    try:
        plan = plan_run(out, games, hero_names, battlefield_names, ai, seed, chunk_size, homebrew_paths(), variant)
    except RunError as e:
        raise _run_error(e) from None
    _note_uneven_split(plan, games)
    _note_variant_unused(variant, plan.settings["heroes"])
    res = _execute(plan, backend, quiet, out, task_games=task_games)
    _report_and_time([res], out, no_report=no_report)


def _note_variant_unused(variant, heroes) -> None:
    """One line on stderr when ``variant`` changes none of the run's ``heroes`` (keys): its
    games are then those of the hero files as installed (the report says so too)."""
    if variant is not None and not set(variant.heroes) & set(heroes):
        click.echo(f"note: the variant {variant.name!r} changes {', '.join(sorted(variant.heroes))}, none of the "
                   f"heroes of this run ({', '.join(sorted(heroes))}): the games are those of the hero files as "
                   "installed", err=True)


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
        a, b = (plan.hero_info.get(h, {}).get("name", h) for h in (a, b))
        from reports.format import plural
        click.echo(f"note: {games} games per pair do not split evenly over battlefields, loadouts and seats "
                   f"({plural(len(uneven), 'pair')}, e.g. {a} vs {b}: {k} slots); some slots get one game more. "
                   f"A multiple of {k} splits that pair exactly.", err=True)


@main.command()
@click.option("--games", "-n", default=2000, show_default=True, type=GAMES,
              help="Total games, spread evenly over the pairings (two disjoint hero pairs) and rounded up so "
                   "that every pairing gets the same number (the command prints how many).")
@click.option("--heroes", "hero_names", multiple=True, metavar="KEYS",
              help="Heroes to pair (comma-separated or repeated; at least 4; KEY@LOADOUT picks a loadout, "
                   "else a hero with gear plays its first one). Default: every installed hero.")
@run_options(Path("runs/teams"), "Run folder: new, empty, or a run of the same command to resume.",
             ai_help="AI profile of every player",
             bf_help="Battlefields with four start spaces (comma-separated or repeated). Default: every installed one.")
@backend_options
def teams(games, hero_names, battlefield_names, ai, seed, out, chunk_size, task_games, no_report, quiet, backend):
    """Play every team pairing (hero pair against a disjoint hero pair, 2 vs 2) and report.

    Seats (which team moves first, the order within each team) and battlefields are
    balanced over the run. Games are stored in the run folder as they finish (rerun to
    resume; Ctrl-C loses only the games in flight). The report (OUT/report: teams.md, teams.html,
    tables/*.csv and *.parquet, plots/team_pairs.png) gives each hero pair's score as a
    team with a Wilson 95% interval, and each hero's contribution (score of its teams,
    damage dealt, share of its team's damage, survival, last hero standing). A 3-player
    game plays by the same rules, so this report covers it too.
    """
    from sim.runs.teams import execute_teams, plan_teams
    note_expert_in_teams([check_profile(ai, "--ai")])
    try:
        plan = plan_teams(out, games, hero_names or None, battlefield_names or None, ai, seed, chunk_size, homebrew_paths())
    except RunError as e:
        raise _run_error(e) from None
    from reports.format import plural
    s = plan.settings
    click.echo(f"--games {games}: {plan.games_total} games, {s['games_per_pairing']} per pairing "
               f"({s['pairings']} pairings of two disjoint pairs of {len(s['heroes'])} heroes), "
               f"{plural(len(s['battlefields']), 'battlefield')}.", err=True)
    res = _execute(plan, backend, quiet, out, run=execute_teams, task_games=task_games)
    _report_and_time([res], out, "teams", no_report)


def _execute(plan, backend, quiet, out, what="", run=None, task_games=None):
    """Play a planned run with progress and a one-line summary; exits 130 on Ctrl-C
    (finished tasks stay stored). ``run``: the executor (``sim.runs.drive.execute_run``,
    or ``sim.runs.teams.execute_teams`` for a team run); ``task_games``: games per task
    (None: sized for the workers)."""
    from sim.runs.drive import execute_run
    warn_skipped(plan.skipped)
    note_same_names(plan.hero_info)
    total, done = plan.games_total, plan.games_done
    if done:
        click.echo(f"Resuming {out}: {done} of {total} games already stored.", err=True)
    if plan.recovered:
        click.echo(f"note: {out}/manifest.json was damaged (and its backup); every stored games file records "
                   "this command's settings, so the run resumes and the manifest is written again", err=True)
    if plan.respace:
        click.echo(f"note: the space counters of {plan.games_respace} stored games are missing (a spaces/ file was "
                   "deleted or damaged): those games are played again to restore them; the stored games are kept",
                   err=True)
    _note_estimate(plan, backend)
    previous = _stop_on_sigterm()
    try:
        res = (run or execute_run)(plan, backend=backend, progress=False if quiet else None, task_games=task_games)
    except RunError as e:
        raise _run_error(e) from None
    except RunInterrupted as e:
        exit_interrupted(str(e))
    finally:
        _restore_sigterm(previous)
    from reports.format import plural
    if res.games_played:
        click.echo(f"{what}Played {plural(res.games_played, 'game')} in {res.seconds:.1f} s of play "
                   f"({res.games_per_second:,.0f} games/s) in {plural(len(plan.cells), 'cell')}; "
                   f"{plural(total, 'game')} stored in {out}.")
        click.echo(f"Workers: {res.backend}; {plural(res.tasks, 'task')}; busy {100 * (1 - res.overhead):.0f}% of the "
                   "time.", err=True)
    else:
        click.echo(f"{what}" + (f"All {total} games were" if total != 1 else "The 1 game was")
                   + f" already stored in {out}.")
    return res


def _report_and_time(results, out, kind: str = "matrix", no_report: bool = False) -> None:
    """Write the report of ``out`` (``kind``: see :func:`_write_report`; none with
    ``no_report``), then say on stderr where the command's time went (:func:`_time_line`)."""
    from sim.runs.backend import stop_local_workers
    t = time.perf_counter()
    stop_local_workers()
    stopping = time.perf_counter() - t
    t = time.perf_counter()
    if not no_report:
        try:
            _write_report(out, kind)
        except KeyboardInterrupt:
            # the games are all stored; only the report is missing (its files are written whole or not at all)
            exit_interrupted(f"interrupted while writing the report; every game is stored in {out}: "
                             f"`unmatched-sim report {out}` writes the report")
    _time_line(results, stopping, None if no_report else time.perf_counter() - t)


def _time_line(results, stopping: float, report_seconds: float | None) -> None:
    """One line on stderr at the end of a command that played games: its time up to that line
    (``sim.cli.options.command_seconds``) and what it went to: the play (``RunResult.seconds``
    of ``results``), compiling or loading the engine and starting the workers
    (``setup_seconds``) and stopping them (``stopping``), the report (``report_seconds``; None:
    no report) and the rest (imports, planning). Nothing when no game was played."""
    from sim.cli.options import command_seconds
    from sim.engine.sigs import COMPILE_STATS
    if not any(r.games_played for r in results):
        return
    total = command_seconds()
    play = sum(r.seconds for r in results)
    setup = sum(r.setup_seconds for r in results) + stopping
    engine = "compiling the engine (once) and" if COMPILE_STATS["compiled"] else "loading the engine and"
    parts = [f"{play:.1f} s of play", f"{setup:.1f} s {engine} starting and stopping the workers"]
    if report_seconds is not None:
        parts.append(f"{report_seconds:.1f} s for the report")
    rest = total - play - setup - (report_seconds or 0.0)
    click.echo(f"Took {total:.0f} s up to here: " + ", ".join(parts) + f", {max(rest, 0.0):.1f} s starting up and planning.",
               err=True)


#: a run expected to take longer than this (seconds) prints its estimate before it starts
ESTIMATE_NOTE_SECONDS = 120
#: ... and on a dask cluster (whose workers are not known yet) a run of this many games or more
ESTIMATE_NOTE_GAMES = 1_000_000


def _note_estimate(plan, backend) -> None:
    """One line on stderr before a long run: the games, the expected time on the workers
    that will play and the disk space (``sim.runs.plan.estimate_run``)."""
    from sim.runs.backend import local_workers
    from sim.runs.plan import estimate_run
    todo = sum(1 for ch in plan.chunks if ch.name not in plan.done)
    if not todo:
        return
    workers = None if backend.scheduler else local_workers(backend.jobs, todo)[0]
    est = estimate_run(plan, workers)
    # a cluster's workers are not known before it is reached: only a very big run says its rate
    big = est.seconds > ESTIMATE_NOTE_SECONDS if workers else est.games >= ESTIMATE_NOTE_GAMES
    if big:
        click.echo(est.note(plan.settings["ai"]), err=True)


def _stop_on_sigterm():
    """Make SIGTERM (``kill PID``) stop a run like Ctrl-C: the finished tasks are stored, the
    manifest says interrupted and the workers stop. Returns the previous handler (None when
    it cannot be set: not the main thread)."""
    import signal

    def stop(signum, frame):
        raise KeyboardInterrupt
    try:
        return signal.signal(signal.SIGTERM, stop)
    except ValueError:          # not the main thread
        return None


def _restore_sigterm(previous) -> None:
    import signal
    if previous is not None:
        signal.signal(signal.SIGTERM, previous)


def _write_report(run_dir, kind: str = "matrix", against=None):
    """Build the report of a run folder (``kind``: matrix, loadouts, compare or teams, each
    with its own builder in ``reports``), then print its summary and where its files are.
    ``against``: another matrix run whose significant cell changes mark the matrix
    report's AI-sensitive cells. A report that cannot be built (e.g. a damaged games
    file: pyarrow's errors are ValueErrors) is a one-line error."""
    from reports import build_report
    from reports.compare import build_compare_report
    from reports.diff import DiffError
    from reports.format import plural
    from reports.loadouts import build_loadouts_report
    from reports.teams import build_teams_report
    build = {"teams": build_teams_report, "loadouts": build_loadouts_report,
             "compare": build_compare_report}.get(kind, build_report)
    try:
        rep = build(run_dir, against=against) if against is not None else build(run_dir)
    except DiffError as e:
        raise click.BadParameter(str(e), param_hint="'--against'") from None
    except ValueError as e:
        why = str(e).splitlines()[0].removeprefix(f"{run_dir}: ")     # (the folder is named once)
        raise click.ClickException(f"cannot build the report of {run_dir}: {why}") from None
    except OSError as e:
        # a full disk: every report file is written atomically, so none is left cut off; a file
        # where a report folder should be (NotADirectory, FileExists): move it away
        fix = ("move away the file in the way of the report's folders"
               if e.errno in (errno.ENOTDIR, errno.EEXIST) else "free some space")
        raise click.ClickException(
            f"cannot write the report in {Path(run_dir) / 'report'} ({e.strerror or e}); the games are stored: "
            f"{fix} and run `unmatched-sim report {run_dir}`") from None
    click.echo("")
    click.echo(rep.summary)
    click.echo("")
    if kind == "compare":
        click.echo(f"Report: {rep.html}  (table: {rep.csv['compare']}, plot: {rep.png['compare']})")
    else:
        files = f"{rep.markdown} and {rep.html}" if kind == "teams" else f"{rep.html}"
        pages = sum(p is not None for mu in getattr(rep, "replays", {}).values() for p in mu.values())
        games = f", {plural(pages, 'example game')} to watch: {rep.out_dir / 'replays'}" if pages else ""
        click.echo(f"Report: {files}  (tables: {rep.out_dir / 'tables'}, plots: {rep.out_dir / 'plots'}{games})")
        bad = getattr(rep, "replay_problems", [])
        if bad:
            click.echo(f"note: {plural(len(bad), 'example game')} got no page (they cannot be replayed as the run "
                       f"played them); the first: {bad[0]}", err=True)


def _out_name(*parts) -> Path:
    return Path("runs") / "_".join(re.sub(r"[^A-Za-z0-9_.-]+", "-", str(p)) for p in parts if p)


@main.command()
@click.argument("hero")
@click.option("--games", "-n", default=2000, show_default=True, type=GAMES,
              help="Games per loadout, split evenly over the opponents, battlefields and seats (rounded up so "
                   "that each gets the same number; the report says so).")
@click.option("--opponents", "opponent_names", multiple=True, metavar="KEYS",
              help="Opponents (comma-separated or repeated; KEY@LOADOUT for one loadout of an opponent with gear). "
                   "Default: every other installed hero.")
@run_options(None, "Run folder: new, empty, or a run of the same command to resume. "
                   "Default: runs/loadouts_HERO (plus the variant file's name).")
@variant_option
@backend_options
def loadouts(hero, games, opponent_names, battlefield_names, ai, seed, out, chunk_size, task_games, no_report, quiet,
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
    from sim.runs.versus import plan_loadouts
    variant = variant_of(variant_path)
    if out is None:
        out = _out_name("loadouts", hero.split("@")[0], variant_path.stem if variant_path else "")
    try:
        plan = plan_loadouts(out, hero, games, opponent_names or None, battlefield_names or None, ai, seed,
                             chunk_size, homebrew_paths(), variant)
    except RunError as e:
        raise _run_error(e) from None
    s = plan.settings
    _note_variant_unused(variant, [s["hero"], *s["opponents"]])
    if s["games_per_loadout"] != games:
        click.echo(f"note: {s['games_per_loadout']} games per loadout instead of {games}, so that every opponent, "
                   "battlefield and seat gets the same number", err=True)
    res = _execute(plan, backend, quiet, out, task_games=task_games)
    _report_and_time([res], out, "loadouts", no_report)


@main.command()
@click.option("--variant", "variant_path", required=True, type=click.Path(dir_okay=False, path_type=Path),
              metavar="FILE", help="The designer variant to measure (a TOML file; see the README).")
@click.option("--hero", "hero", required=True, metavar="KEY",
              help="The hero whose win rate is compared (KEY or KEY@LOADOUT; a hero with gear plays all its "
                   "loadouts unless one is named).")
@click.option("--games", "-n", default=2000, show_default=True, type=GAMES,
              help="Games per opponent in each of the two runs, split evenly over battlefields, seats and loadouts "
                   "(rounded up so that each gets the same number).")
@click.option("--opponents", "opponent_names", multiple=True, metavar="KEYS",
              help="Opponents (comma-separated or repeated). Default: every other installed hero.")
@run_options(None, "Compare folder (OUT/baseline and OUT/variant are run folders; rerunning resumes). "
                   "Default: runs/compare_VARIANT_HERO.",
             seed_help="Run seed, 0..4294967295: both runs use it, so their games are paired.")
@backend_options
def compare(variant_path, hero, games, opponent_names, battlefield_names, ai, seed, out, chunk_size, task_games,
            no_report, quiet, backend):
    """Measure a designer variant: HERO's win rate without and with it, in paired games.

    Plays HERO against every opponent twice with the same cells and seeds: once with the
    hero files as installed (OUT/baseline) and once with the variant (OUT/variant). Game i
    of a cell has the same seed in both, so the two runs are paired, and the report gives
    the change of HERO's win rate against each opponent and overall with a 95% interval
    and a significance verdict (paired t-test, Holm-corrected). Example:
    `unmatched-sim compare --variant arthur_plus4.toml --hero king_arthur --games 2000`.
    """
    from sim.runs.versus import plan_compare
    variant = variant_of(variant_path)
    if out is None:
        out = _out_name("compare", variant_path.stem, hero.split("@")[0])
    try:
        base, var = plan_compare(out, hero, variant, games, opponent_names or None, battlefield_names or None, ai,
                                 seed, chunk_size, homebrew_paths())
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
    opponents = set(s["games_per_opponent"]) - {s["hero"]}
    changed_opponents = sorted(changed & opponents)
    if s["hero"] not in changed and not changed_opponents:
        raise click.BadParameter(
            f"the variant {variant.name!r} changes {', '.join(sorted(changed))}, who plays in none of these games "
            f"({s['hero']} against {', '.join(sorted(opponents))}): both runs would play the same games; compare "
            f"a hero it changes (--hero {sorted(changed)[0]}) or add it to --opponents", param_hint="'--variant'")
    if s["hero"] not in changed:
        click.echo(f"note: the variant {variant.name!r} does not change {s['hero']}; it changes the opponent(s) "
                   f"{', '.join(changed_opponents)}: the difference measured is the effect on {s['hero']}'s games "
                   f"of those opponents' change", err=True)
    elif changed_opponents:
        click.echo(f"note: the variant also changes opponents ({', '.join(changed_opponents)}): the difference "
                   f"is the combined effect, not {s['hero']}'s change alone", err=True)
    results = [_execute(base, backend, quiet, base.run_dir, "Baseline: ", task_games=task_games),
               _execute(var, backend, quiet, var.run_dir, "Variant:  ", task_games=task_games)]
    _report_and_time(results, out, "compare", no_report)


@main.command()
@click.argument("run_dir", type=click.Path(path_type=Path))
@click.option("--against", type=click.Path(path_type=Path), default=None, metavar="RUN",
              help="Another matrix run of the same heroes (e.g. another AI profile): mark the AI-sensitive cells, "
                   "those whose score changes significantly between the two runs (Holm). Matrix runs only.")
def report(run_dir, against):
    """Write the tables, plots and HTML report of a run folder (RUN_DIR/report): a matrix
    run, a loadouts run, a compare folder or a balance run. With --against OTHER_RUN (matrix
    runs) the cells whose score changes significantly between the two runs are marked
    AI-sensitive (see `unmatched-sim diff`)."""
    from sim.runs.store import snapshot
    if not run_dir.is_dir():
        raise click.BadParameter(f"{run_dir}: " + ("a file, not a run folder" if run_dir.exists() else "no such folder"),
                                 param_hint="RUN_DIR")
    if (run_dir / "balance.json").exists():
        _balance_report(run_dir, against)
        return
    # a run being played grows while it is read: the status line, the tables and the example games all read
    # the folder as it was at its first read (one game count in the whole output)
    with snapshot():
        _report(run_dir, against)


def _report(run_dir: Path, against) -> None:
    """The ``report`` command's work on an existing folder (see :func:`report`)."""
    from sim.runs.store import read_manifest
    from sim.runs.versus import BASELINE_DIR, VARIANT_DIR
    try:
        parent = run_dir.parent if run_dir.name in (BASELINE_DIR, VARIANT_DIR) else run_dir.resolve().parent
        half = run_dir.resolve().name in (BASELINE_DIR, VARIANT_DIR) and (parent / BASELINE_DIR).is_dir()
        unfinished = _compare_unfinished(parent if half else run_dir)
        if unfinished:
            raise click.ClickException(unfinished)
        if not (run_dir / "manifest.json").exists() and (run_dir / BASELINE_DIR).is_dir() \
                and (run_dir / VARIANT_DIR).is_dir():
            _no_against(against, "a compare folder")
            for half in (BASELINE_DIR, VARIANT_DIR):
                _warn_unfinished(run_dir / half, read_manifest(run_dir / half))
            _write_report(run_dir, "compare")
            return
        if half and (parent / VARIANT_DIR).is_dir():
            raise click.BadParameter(f"{run_dir} is one half of a compare folder; its report is made from both: "
                                     f"run `unmatched-sim report {parent}`", param_hint="RUN_DIR")
        m = read_manifest(run_dir)
        _warn_unfinished(run_dir, m)
        if m["settings"].get("mode") == "teams":
            _no_against(against, "a teams run")
            _write_report(run_dir, "teams")
            return
        if m["settings"].get("mode") == "loadouts":
            _no_against(against, "a loadouts run")
            _write_report(run_dir, "loadouts")
            return
        _write_report(run_dir, against=against)
    except RunError as e:
        raise click.BadParameter(str(e), param_hint="RUN_DIR") from None
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    except BrokenPipeError:
        raise                   # (stdout piped into head: the report is written; sim.cli.app ends quietly)
    except OSError as e:
        raise click.ClickException(f"cannot write the report in {run_dir} ({e.strerror or e})") from None


def _balance_report(run_dir: Path, against) -> None:
    """The ``report`` command on a balance run folder (``unmatched-sim balance``)."""
    from reports.balance import build_balance_report
    _no_against(against, "a balance run")
    try:
        rep = build_balance_report(run_dir)
    except ValueError as e:
        raise click.UsageError(str(e)) from None
    except OSError as e:
        raise click.ClickException(f"cannot write the report in {run_dir} ({e.strerror or e})") from None
    click.echo(rep.summary)
    click.echo(f"Report: {rep.html}  (curves: {rep.png['curves']}, proposals: {rep.csv['proposals']})")


def _compare_unfinished(folder: Path) -> str | None:
    """The one line for a compare folder whose variant run has not started (a compare
    interrupted during its baseline run): 'compare unfinished: baseline 21008 of 30008
    games, variant not started; rerun the command to finish it'. None for any other folder
    (a compare folder with both runs started is reported, however far each is)."""
    from sim.runs.store import MANIFEST, MANIFEST_BACKUP, read_manifest, run_progress
    from sim.runs.versus import BASELINE_DIR, VARIANT_DIR

    def started(d: Path) -> bool:
        return (d / MANIFEST).exists() or (d / MANIFEST_BACKUP).exists()
    base, var = folder / BASELINE_DIR, folder / VARIANT_DIR
    if (folder / MANIFEST).exists() or not started(base) or started(var):
        return None
    m = read_manifest(base)
    if m.get("settings", {}).get("mode") != "compare":
        return None
    progress = run_progress(base, m)
    return (f"compare unfinished: baseline {progress.games_stored} of {progress.games_total} games, variant not "
            f"started; rerun the compare command that made {folder} (same options) to finish it, then "
            f"`unmatched-sim report {folder}`")


def _warn_unfinished(run_dir, manifest: dict) -> None:
    """One line on stderr, before the report, when a run folder is not complete (the rule of
    ``sim.runs.store.run_progress``, the same as every report's): its figures are then of
    the games stored so far. Also a note when the manifest was read from its backup. Nothing
    when no game is stored: the report then refuses the folder in one line saying why
    (``RunProgress.no_games``); nothing for a run a command is playing now: the report's
    first line says so, with the games its figures are of."""
    from sim.runs.store import run_progress
    if manifest.get("recovered_from"):
        how = "damaged" if (Path(run_dir) / "manifest.json").exists() else "missing"
        click.echo(f"note: {run_dir}/manifest.json is {how}; read its backup {manifest['recovered_from']} "
                   "(rerunning the run's command writes manifest.json again)", err=True)
    progress = run_progress(run_dir, manifest)
    # a run being played: the report's first line says so, with the games it is of (once)
    warning = progress.warning(run_dir) if progress.games_stored and not progress.locked else None
    if warning:
        click.echo(warning, err=True)


def _no_against(against, what: str) -> None:
    if against is not None:
        raise click.BadParameter(f"RUN_DIR is {what}; --against marks the cells of a matrix report only",
                                 param_hint="'--against'")


@main.command()
@click.option("--games", "-n", default=2420, show_default=True, type=Whole(min=1, noun="games"),
              help="Duels per timed run, rounded up to a multiple of the hero pairs.")
@click.option("--ai", default=DEFAULT_PROFILE, show_default=True, metavar="PROFILE", help="AI profile for both seats.")
@click.option("--jobs", "-j", default=None, type=Whole(min=1), help="Worker processes. Default: all cores.")
@click.option("--repeat", default=3, show_default=True, type=Whole(min=1), help="Timed one-core runs.")
@click.option("--python-games", default=6, show_default=True, type=Whole(min=0),
              help="Duels for the plain-Python (NUMBA_DISABLE_JIT=1) comparison; 0 skips it.")
@click.option("--start-runs", default=2, show_default=True, type=Whole(min=0),
              help="Warm start-up measurements (a fresh python each); 0 skips them.")
@click.option("--compile", "measure_compile", is_flag=True,
              help="Also measure the compile time with an empty cache (in a temporary folder; takes minutes).")
@click.option("--matrix-games", default=100, show_default=True, type=Whole(min=0, noun="games"), metavar="N",
              help="Games per hero pair of the designer-shaped run (the full matrix through the real run "
                   "pipeline, in a temporary folder); 0 skips it.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
def bench(games, ai, jobs, repeat, python_games, start_runs, measure_compile, matrix_games, as_json):
    """Measure how fast the engine plays duels: per core, on all cores, start-up, memory.

    Plays a fixed, seeded mix (every ordered pair of heroes, all battlefields) and prints
    duels per second on one core and on --jobs cores, the parallel efficiency, the warm
    start-up time, peak memory per worker and the speed-up over plain Python, and a
    designer-shaped run beside the mix (the full matrix through the real run pipeline).
    `sim/runs/bench.py` explains every figure.
    """
    from sim.runs.bench import format_bench, run_bench
    check_profile(ai, "--ai")
    say = None if as_json else (lambda msg: click.echo(msg, err=True))
    r = run_bench(games, ai, jobs, repeat, python_games, measure_compile, start_runs, progress=say,
                  matrix_games=matrix_games)
    click.echo(json.dumps(r, indent=1) if as_json else format_bench(r))


if __name__ == "__main__":
    main()
