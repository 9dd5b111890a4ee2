"""The ``unmatched-sim`` command group: global options and the compile notice."""
from __future__ import annotations

import sys
from pathlib import Path

import click

import sim.engine
import sim.engine.sigs


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
    from sim.cli.options import new_command
    new_command()
    if ctx.invoked_subcommand != "warmup" and not {"-h", "--help"} & set(sys.argv):
        sim.engine.sigs.on_first_compile(_compile_notice)


COMPILE_NOTICE = ("Compiling the game engine for this machine: the first run after an install or an engine "
                  "change takes about a minute (more on a busy machine; `unmatched-sim warmup` does it ahead); "
                  "later runs start in seconds.")


def _compile_notice():
    """One line on stderr when this command compiles the engine (it would otherwise be silent for a
    minute), whether or not stderr is a terminal; stdout stays clean for scripts."""
    click.echo(COMPILE_NOTICE, err=True)
