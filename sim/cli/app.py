"""The ``unmatched-sim`` command group: global options and the compile notice."""
from __future__ import annotations

import functools
import os
import sys
from pathlib import Path

import click

import sim.engine
import sim.engine.sigs


class _Commands(click.Group):
    """The command group; a --homebrew written after the command name gets a hint, and output
    into a pipe whose reader has closed (``unmatched-sim report RUN | head``) ends quietly."""

    def invoke(self, ctx):
        try:
            return super().invoke(ctx)
        except click.NoSuchOption as e:
            if e.option_name == "--homebrew":
                e.message = ("No such option: --homebrew here; it goes before the command, e.g. "
                             "`unmatched-sim --homebrew my_heroes duel lamplighter medusa`")
            raise
        except BrokenPipeError:
            if not _closed_pipes():
                raise
            # the reader (head, less, grep -q) has all it wanted: no 'Broken pipe' message and no
            # traceback about output nobody reads; status 141 as a command ended by SIGPIPE
            # (Python ignores SIGPIPE, so the write raised instead). Files the command wrote
            # (a report, a run's games) are complete.
            devnull = os.open(os.devnull, os.O_WRONLY)
            for fd in _closed_pipes() or (1,):
                os.dup2(devnull, fd)
            os.close(devnull)
            sys.exit(SIGPIPE_STATUS)


#: exit status after writing into a closed pipe: 128 + SIGPIPE, as the shell shows a command
#: that SIGPIPE ended
SIGPIPE_STATUS = 141


def _closed_pipes() -> list[int]:
    """Which of stdout and stderr (1, 2) are pipes whose reader has gone (poll says POLLERR)."""
    import select
    closed = []
    for fd in (1, 2):
        try:
            poll = select.poll()
            poll.register(fd, 0)
            if any(ev & select.POLLERR for _, ev in poll.poll(0)):
                closed.append(fd)
        except (OSError, ValueError, AttributeError):      # (no poll on this system: none known closed)
            pass
    return closed


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
    _PART.clear()
    from sim.cli.options import new_command
    new_command()
    if ctx.invoked_subcommand != "warmup" and not {"-h", "--help"} & set(sys.argv):
        sim.engine.sigs.on_first_compile(functools.partial(_compile_notice, ctx.invoked_subcommand))


#: what the first command of each kind compiles (``sim.engine.game.ENTRY_POINTS``, and the
#: replays' ``play_turns``) and how long that took on two cores, measured on an idle machine and
#: at load 6: the duel code 66-199 s from an empty cache; then the run code 15-42 s, the team
#: games' 30-50 s, the replays' 10-24 s. Every part calls the duel code, compiled first when it
#: is not cached yet.
COMPILE_PARTS = {
    "duel": ("the engine's duel code", "1-3 minutes on two cores (a team game or an --html page then compiles "
                                       "its own part, 10-60 s more)"),
    "runs": ("the engine's run code", "15-45 s on two cores after a first duel (else 1-4 minutes: the duel code "
                                      "first)"),
    "teams": ("the engine's team-game code", "30-60 s on two cores after a first duel (else 2-4 minutes: the duel "
                                             "code first)"),
    "replays": ("the engine's replay code", "10-30 s on two cores after a first duel (else 1-4 minutes: the duel "
                                            "code first)"),
}
#: the part each command compiles on its first run (a command not listed: the duel code)
COMMAND_PARTS = {"matrix": "runs", "loadouts": "runs", "compare": "runs", "arena": "runs", "bench": "runs",
                 "tune": "runs", "balance": "runs", "teams": "teams", "replay": "replays", "report": "replays"}


#: the part this command compiles when its arguments decide it (:func:`compile_part`)
_PART: dict = {}


def compile_part(part: str) -> None:
    """Say that this command compiles ``part`` (a key of :data:`COMPILE_PARTS`) rather than
    its command's part: ``duel A+B C+D`` plays a team game (the team-game code), ``duel
    --html`` writes a replay page (the replay code). The compile notice, if one comes later in
    this command, names that part and its time."""
    _PART["part"] = part


def compile_notice(command: str | None, part: str | None = None) -> str:
    """The one-line notice of a command that compiles the engine: what it compiles for
    ``command`` (a subcommand name, :data:`COMMAND_PARTS`), or ``part`` when given (a key of
    :data:`COMPILE_PARTS`), and how long that takes."""
    what, takes = COMPILE_PARTS[part or COMMAND_PARTS.get(command or "", "duel")]
    return (f"Compiling {what} for this machine, once after an install or an engine change: {takes}; "
            "`unmatched-sim warmup` compiles every part ahead, and later commands start in seconds.")


def _compile_notice(command: str | None = None):
    """One line on stderr when this command compiles the engine (it would otherwise be silent for a
    minute), whether or not stderr is a terminal; stdout stays clean for scripts."""
    click.echo(compile_notice(command, _PART.get("part")), err=True)
