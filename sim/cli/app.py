"""The ``unmatched-sim`` command group: global options and the compile notice."""
from __future__ import annotations

import sys
from pathlib import Path

import click

import sim.engine


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
        if not sim.engine.cache_is_warm():
            click.echo("Compiling the game engine for this machine: the first run after an install or an "
                       "engine change takes a few minutes (2-4 on two cores) before the first game; "
                       "later runs start in seconds.", err=True)


_PLAYS_GAMES = {"duel", "arena", "matrix", "loadouts", "compare", "bench", "teams"}


def _stderr_is_terminal() -> bool:
    """The compile notice is for people at a terminal, not for scripts reading the output."""
    return sys.stderr.isatty()
