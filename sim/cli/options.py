"""Options and context shared by the commands: ``--jobs`` / ``--backend`` / ``--scheduler``, the
run options, ``--variant``, and the homebrew heroes of the command line.

The backend options:

Decorate a click command with :func:`backend_options`; it receives one ``backend``
argument (a :class:`sim.runs.backend.Backend`) to pass on to the runner::

    @main.command()
    @backend_options
    def matrix(..., backend):
        execute_run(plan, backend=backend, ...)

Bad options are usage errors naming the option; a backend that fails at run time
(an unreachable scheduler, workers with another unmatched-sim, a cluster lost
mid-run) is a one-line ``Error: ...`` with exit status 1, never a traceback.
"""
from __future__ import annotations

import functools
import sys
import time
from pathlib import Path

import click

from sim.content.heroes import HeroFileError, deck_warnings, load_heroes
from sim.content.profiles import DEFAULT_PROFILE, SEARCH_MODES, ProfileError, get_profile, profile_names
from sim.content.variants import VariantError, load_variant
from sim.play.match import installed_content
from sim.runs.backend import BACKENDS, CONNECT_TIMEOUT, Backend, BackendError


#: Largest --games of a run command (per pair, per hero or per pairing): 66 million games for a full
#: matrix; larger runs are several seeds. Bigger numbers only exhaust memory while the run is planned.
MAX_GAMES = 1_000_000


class Whole(click.IntRange):
    """A whole-number option in a range (``click.IntRange``) whose error for a value that is
    not a number says so in words: ``'abc' is not a whole number of games`` (``noun``:
    what the number counts, '' for none), not click's "is not a valid integer range"."""

    def __init__(self, min=None, max=None, noun: str = ""):  # noqa: A002 - click's own names
        super().__init__(min, max)
        self.noun = noun

    def convert(self, value, param, ctx):
        if not isinstance(value, int):
            try:
                int(str(value).strip())
            except ValueError:
                self.fail(f"{value!r} is not a whole number" + (f" of {self.noun}" if self.noun else "") + ".", param, ctx)
        return super().convert(value, param, ctx)


#: the --games of the run commands
GAMES = Whole(1, MAX_GAMES, "games")


def backend_options(command):
    """Add ``--jobs/-j``, ``--backend`` and ``--scheduler`` to a click command and call
    it with ``backend=Backend(...)`` in their place. Raises click.BadParameter for bad
    combinations and turns a BackendError raised by the command into a one-line
    click error."""

    @click.option("--jobs", "-j", default=None, type=Whole(min=1, noun="worker processes"),
                  help="Worker processes on this machine (loky, or a local dask cluster). Default: all cores. "
                       "Results do not depend on it.")
    @click.option("--backend", "backend_name", default=None, type=click.Choice(BACKENDS),
                  help="Where games run: loky (processes on this machine) or dask (a dask.distributed cluster: "
                       "the one at --scheduler, or a local one). Default: loky, or dask when --scheduler is given. "
                       "Results do not depend on it.")
    @click.option("--scheduler", metavar="ADDRESS", default=None,
                  help=f"Address of a running `dask scheduler` (e.g. tcp://10.0.0.5:8786) whose workers play the "
                       f"games; it must answer within {CONNECT_TIMEOUT:g} s.")
    @functools.wraps(command)
    def wrapper(*args, jobs, backend_name, scheduler, **kwargs):
        try:
            backend = Backend.of(backend_name, jobs, scheduler)
        except BackendError as e:
            raise click.BadParameter(str(e), param_hint=f"'{e.param}'" if e.param else None) from None
        try:
            return command(*args, backend=backend, **kwargs)
        except BackendError as e:
            raise click.ClickException(str(e)) from None

    return wrapper



def homebrew_paths():
    """The --homebrew hero files and folders of this command (tuple of Path). Raises
    click.BadParameter naming ``--homebrew`` or ``UNMATCHED_SIM_HEROES`` (whichever gave it)
    for a path that does not exist."""
    root = click.get_current_context().find_root()
    paths = tuple((root.obj or {}).get("heroes", ()))
    missing = [p for p in paths if not Path(p).exists()]
    if missing:
        env = root.get_parameter_source("hero_paths") == click.core.ParameterSource.ENVIRONMENT
        raise click.BadParameter(f"{missing[0]}: no such hero file or folder",
                                 param_hint="UNMATCHED_SIM_HEROES" if env else "'--homebrew'")
    for p in paths:   # a folder with no hero file in it: most likely the wrong folder
        if Path(p).is_dir() and not any(Path(p).glob("*.toml")) and ("empty", str(p)) not in _warned:
            _warned.add(("empty", str(p)))
            click.echo(f"warning: {p}: no .toml hero files in this --homebrew folder", err=True)
    if paths and ("decks",) not in _warned:
        _warned.add(("decks",))
        _warn_decks(paths)
    return paths


def _warn_decks(paths) -> None:
    """A warning line on stderr for each homebrew deck that does not total 30 cards (as
    ``validate`` says it): the command plays it as written."""
    try:
        specs, _ = load_heroes(None, tuple(paths))
    except HeroFileError:
        return   # (the command's own error follows)
    roots = [Path(p).resolve() for p in paths]
    for spec in specs.values():
        where = Path(spec.path).resolve()
        if any(where == r or r in where.parents for r in roots):
            for w in deck_warnings(spec):
                click.echo(f"warning: {w} (played as written)", err=True)


_warned: set = set()


def new_command() -> None:
    """Start a command: the warnings said once per command (:func:`warn_skipped`) may be said
    again, and its clock (:func:`command_seconds`) starts: for the first command of the process
    when the process imported ``sim.cli`` (the imports are part of the wait), else now."""
    import sim.cli
    _warned.clear()
    _clock["started"] = time.perf_counter() if _clock else getattr(sim.cli, "IMPORTED", time.perf_counter())


_clock: dict = {}


def command_seconds() -> float:
    """Wall seconds since this command started (see :func:`new_command`; since the call if no
    command started)."""
    return time.perf_counter() - _clock.setdefault("started", time.perf_counter())


def warn_skipped(bad) -> None:
    """One warning line on stderr per hero file that could not be loaded
    (``sim.content.heroes.BadHeroFile``), once per command: the command goes on without it.
    A file whose hero the command names gets no warning: the command's own error about that
    hero follows, with the same message. A file whose key is an installed hero's (``clash``)
    stops a command that names that hero here, with the file's error: the command would
    otherwise play the installed hero in its place, silently."""
    named = _named_words()
    for b in bad:
        if getattr(b, "clash", False) and b.key in named:
            raise click.ClickException(f"hero {b.key!r} cannot be used: {b.message}")
    for b in bad:
        if b.path not in _warned and getattr(b, "key", None) not in named:
            _warned.add(b.path)
            click.echo(f"warning: skipped a hero file that cannot be loaded: {b.message} (the other heroes are "
                       f"available; `unmatched-sim validate {b.path}` checks it)", err=True)


def _named_words() -> set:
    """Every word in the current command's arguments and options (hero names among them:
    ``medusa``, ``medusa,sinbad``, ``medusa+alice`` (a team), ``geralt_of_rivia@...``), lower-case."""
    ctx = click.get_current_context(silent=True)
    words: set = set()
    if ctx is None:
        return words

    def add(v):
        if isinstance(v, str):
            for part in v.replace(",", " ").replace("+", " ").split():
                words.add(part.split("@")[0].lower())
        elif isinstance(v, (list, tuple)):
            for x in v:
                add(x)

    for v in ctx.params.values():
        add(v)
    return words


def run_content(variant=None):
    """The compiled heroes of this command (installed, homebrew, ``variant``): a warning on
    stderr for each hero file left out, a one-line error for a homebrew path that does not
    exist."""
    try:
        content = installed_content(homebrew_paths(), variant.to_json() if variant is not None else "")
    except HeroFileError as e:
        raise click.ClickException(f"a hero file is invalid: {e}") from None
    warn_skipped(content.skipped)
    return content


def command_heroes() -> dict:
    """The hero specs of this command (installed and homebrew), warning about the hero files
    left out (:func:`warn_skipped`)."""
    try:
        specs, bad = load_heroes(None, homebrew_paths())
    except HeroFileError as e:
        raise click.ClickException(f"a hero file is invalid: {e}") from None
    warn_skipped(bad)
    return specs


def variant_of(path):
    """The --variant file as a validated Variant (None without one), or a one-line usage
    error naming the file, the hero, the card and the field."""
    if path is None:
        return None
    specs = command_heroes()
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


def _warn_ai(ctx, param, value):
    """The run commands' ``--ai`` callback: :func:`warn_unread_weights` of a valid profile file (a
    bad one is refused later, by the run's plan, in one line)."""
    try:
        warn_unread_weights(value, get_profile(value).mode_name)
    except ProfileError:
        pass
    return value


def run_options(out_default, out_help, *, ai_help="AI profile for both seats",
                seed_help="Run seed, 0..4294967295 (same seed, same games).",
                bf_help="Battlefields, keys or names in any case (comma-separated or repeated). Default: every installed "
                        "battlefield.",
                no_report_help="Only play and store the games."):
    """The options every command that plays a stored run shares (matrix, teams, loadouts,
    compare): --battlefields, --ai, --seed, --out, --chunk-size, --task-games, --no-report, --quiet."""
    opts = [
        click.option("--battlefields", "-b", "battlefield_names", multiple=True, metavar="KEYS", help=bf_help),
        click.option("--ai", default=DEFAULT_PROFILE, show_default=True, metavar="PROFILE", callback=_warn_ai,
                     help=ai_help + ": " + ", ".join(profile_names()) + ", or a profile .toml file."),
        click.option("--seed", "-s", default=1, show_default=True, type=Whole(0, 2**32 - 1), help=seed_help),
        click.option("--out", "-o", default=out_default, show_default=out_default is not None,
                     type=click.Path(file_okay=True, path_type=Path), help=out_help),
        click.option("--chunk-size", default=200, show_default=True, type=Whole(min=1, noun="games"),
                     help="Games per chunk (the unit of resuming: a stored file records its chunks)."),
        click.option("--task-games", default=None, type=Whole(min=1, noun="games"), metavar="N",
                     help="Games per worker task (each task's games are stored in one file). Default: sized for "
                          "the workers, a few seconds of play each. Results do not depend on it."),
        click.option("--no-report", is_flag=True, help=no_report_help),
        click.option("--quiet", "-q", is_flag=True, help="No progress bar."),
    ]

    def apply(command):
        for o in reversed(opts):
            command = o(command)
        return command
    return apply


def check_profile(name, option):
    """An AI profile by name or file, or a usage error naming the option and the valid profiles.
    Warns (:func:`warn_unread_weights`) of weights a profile file sets that its mode does not read."""
    try:
        profile = get_profile(name)
    except ProfileError as e:
        raise click.BadParameter(str(e), param_hint=f"'{option}'") from None
    warn_unread_weights(name, profile.mode_name)
    return profile


def unread_weights(mode: str) -> dict[str, str]:
    """The AI weights that engine ``mode`` (``sim.content.profiles.MODES``) does not read, each
    with whose weight it is: release 0.2's ``OLD_ONLY`` for the one-currency modes (the
    standard and expert AI of release 0.3 price an effect's damage and draw in the one
    currency), release 0.3's ``NEW_DEFAULTS`` for release 0.2's modes, the search budget
    (``SEARCH_DEFAULTS``) for the modes without lookahead (``sim.engine.ai.weights``; the same
    sets ``sim.runs.tune.tunable_weights`` leaves out). Empty for greedy and random."""
    from sim.engine.ai.weights import NEW_DEFAULTS, OLD_ONLY, SEARCH_DEFAULTS
    out = {}
    if mode in ("standard", "expert"):
        out.update(dict.fromkeys(OLD_ONLY, "a weight of release 0.2's AI"))
    if mode in ("standard-0.2", "expert-0.2"):
        out.update(dict.fromkeys(NEW_DEFAULTS, "a weight of release 0.3's one-currency AI"))
    if mode in ("standard", "standard-0.2"):
        out.update(dict.fromkeys(SEARCH_DEFAULTS, "a weight of the expert's search"))
    return out


def warn_unread_weights(name, mode: str) -> None:
    """One line on stderr per weight that the profile file ``name`` (a path; an installed
    profile's name is not checked) sets in ``[weights]`` or ``[heroes.<key>.weights]`` to
    another value than the installed profile of its ``mode`` has, when ``mode`` does not read it
    (:func:`unread_weights`): the value has no effect, which a designer who set it would not
    guess. A value equal to the installed one (a trained profile writes every weight) is quiet."""
    import tomllib

    from sim.content.profiles import PROFILE_DIR
    path = Path(str(name))
    unread = unread_weights(mode)
    if not unread or path.suffix != ".toml" or not path.is_file():
        return
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        return                  # (get_profile has read it: a file changed meanwhile is not worth a warning)
    shipped = get_profile(mode) if (PROFILE_DIR / f"{mode}.toml").is_file() else None
    tables = [("weights", data.get("weights"))] + [(f"heroes.{k}.weights", (sec or {}).get("weights"))
                                                   for k, sec in (data.get("heroes") or {}).items()
                                                   if isinstance(sec, dict)]
    for table, given in tables:
        for k, v in (given or {}).items() if isinstance(given, dict) else ():
            same = shipped is not None and float(v) == shipped.weight(k)
            if k in unread and not same and ("unread", str(path), table, k) not in _warned:
                _warned.add(("unread", str(path), table, k))      # (--ai and --vs may name one file)
                click.echo(f"warning: {path}: {table}.{k} = {v:g} has no effect: the AI mode {mode} does not read "
                           f"{k} ({unread[k]})", err=True)


def warn_unread_weight_names(names, mode: str, option: str) -> None:
    """One line on stderr per weight named in ``option`` (e.g. train's ``--weights``) that engine
    ``mode`` does not read (:func:`unread_weights`): training it would only let it drift."""
    unread = unread_weights(mode)
    for k in names:
        if k in unread:
            click.echo(f"warning: {option} {k}: the AI mode {mode} does not read {k} ({unread[k]}); training it "
                       "changes nothing in the games", err=True)


def note_expert_in_teams(profiles) -> None:
    """One line on stderr when an expert profile plays team games: there it plays as standard."""
    names = sorted({p.name for p in profiles if p.mode_name in SEARCH_MODES})
    if names:
        click.echo(f"note: {', '.join(names)} plays team games as the standard AI (the lookahead is for duels)",
                   err=True)



def run_with_progress(fn, desc: str, quiet: bool, out, what: str):
    """Call ``fn(progress)`` (a generation-checkpointed search such as ``tune`` or ``train``)
    under a tqdm bar fed by ``progress(done, total, info)``; a RunError becomes a one-line
    click error (a usage error naming its option when it has one), an OSError or an
    interrupt a one-line error saying the finished generations in ``out`` are kept.
    ``what`` names the run in those lines ("tuning", "training"). Returns ``fn``'s result."""
    from tqdm import tqdm

    from sim.runs.errors import RunError
    bar = tqdm(total=1, unit=" games", desc=desc, disable=True if quiet else None, smoothing=0.1, leave=True)

    def progress(done, total, info):
        if bar.total != total:
            bar.total = total
        bar.n = done
        bar.set_postfix_str(info, refresh=False)
        bar.refresh()
    try:
        return fn(progress)
    except RunError as e:
        if e.param:
            raise click.BadParameter(str(e), param_hint=f"'{e.param}'") from None
        raise click.ClickException(str(e)) from None
    except OSError as e:
        raise click.ClickException(f"cannot write the {what} run to {out}: {e.strerror or e}; choose another "
                                   "--out (finished generations are kept)") from None
    except KeyboardInterrupt:
        from sim.runs.backend import stop_local_workers
        bar.close()
        stop_local_workers(kill=True)       # (workers still playing a generation that will not be kept)
        exit_interrupted(f"interrupted: every finished generation is in {out}; rerun the same command to resume")
    finally:
        bar.close()


def exit_interrupted(line: str):
    """End a command stopped by Ctrl-C (or ``kill``) as every command ends then: its one line on
    stderr (below the terminal's echoed ``^C``) and exit status 130 (128 + SIGINT, the shell's
    convention for a command ended by Ctrl-C). Does not return."""
    if sys.stderr.isatty():
        click.echo("", err=True)        # (off the line where the terminal echoed ^C, as click does)
    click.echo(line, err=True)
    sys.exit(130)


def note_same_names(hero_info: dict) -> None:
    """One line on stderr when two heroes (``{key: {"name": ...}}``: of a run, or the ``heroes``
    list) have the same name (a copied hero file that kept the installed hero's ``name``): the
    reports add the key to tell them apart."""
    by_name: dict = {}
    for key, info in hero_info.items():
        by_name.setdefault(info["name"], []).append(key)
    for name, keys in sorted(by_name.items()):
        if len(keys) > 1:
            click.echo(f"note: heroes {', '.join(sorted(keys))} are {'both' if len(keys) == 2 else 'all'} named "
                       f"{name!r}; the reports show them as "
                       + ", ".join(f"'{name} [{k}]'" for k in sorted(keys)) + " (give a copied hero a name of its "
                       "own: its file's `name` and its cards' fighter references)", err=True)
