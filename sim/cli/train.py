"""The ``train`` command: one weight vector of the standard AI learned for every hero at once,
against a league of opponents (``sim.runs.train``, ``reports.train``)."""
from __future__ import annotations

import shlex
import sys
from pathlib import Path

import click

from sim.cli.app import main
from sim.cli.options import (
    Whole, backend_options, homebrew_paths, run_with_progress, warn_unread_weight_names, warn_unread_weights,
)


def check_profile_name(name: str) -> None:
    """A usage error (``--name``) unless ``name`` is a plain file name (letters, digits, ``_.-``;
    the profile goes into --out) that no installed profile has (a profile may not take an
    installed profile's name)."""
    import re

    from sim.content.profiles import profile_names
    if not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.-]*", name) or ".." in name:
        raise click.BadParameter(f"{name!r} is not a plain profile name: use letters, digits, '_', '-' and '.' "
                                 "(the profile is written into --out)", param_hint="'--name'")
    if name in profile_names():
        raise click.BadParameter(f"{name!r} is an installed profile's name; give the trained profile its own name "
                                 f"(installed: {', '.join(profile_names())})", param_hint="'--name'")


def _warn_unread(start: str, weights) -> None:
    """The warnings of weights the start profile's mode does not read: set in its file, or named
    in --weights (``sim.cli.options.warn_unread_weights``). A bad --start is left to the run's
    own one-line error."""
    from sim.content.profiles import ProfileError, get_profile
    try:
        mode = get_profile(start).mode_name
    except ProfileError:
        return
    warn_unread_weights(start, mode)
    warn_unread_weight_names(weights, mode, "--weights")


def _keys(values) -> tuple[str, ...]:
    return tuple(k.strip() for v in values for k in str(v).split(",") if k.strip())


@main.command()
@click.option("--heroes", "heroes", multiple=True, metavar="KEYS",
              help="Heroes trained on (comma-separated or repeated). Default: every installed (and --homebrew) hero.")
@click.option("--leave-out", "leave_out", multiple=True, metavar="KEYS",
              help="Heroes never played in training, only in the final check: how a hero the training never saw fares.")
@click.option("--battlefields", "-b", "battlefields", multiple=True, metavar="KEYS",
              help="Battlefields (comma-separated or repeated). Default: every installed battlefield.")
@click.option("--weights", "weights", multiple=True, metavar="NAMES",
              help="Weights to train (comma-separated or repeated). Default: every standard-AI weight but win, the "
                   "team-game weights, the expert's budget and weights the start profile's mode does not read.")
@click.option("--start", default="standard", show_default=True, metavar="PROFILE",
              help="The profile whose weights the search starts from (and whose engine mode the candidates play).")
@click.option("--league", default="standard-0.2,tuned-0.2,mean", show_default=True, metavar="PROFILES",
              help="The opponents: profiles (names or .toml files, comma-separated) and 'mean', the search's own "
                   "current mean weights.")
@click.option("--games-per-eval", default=2000, show_default=True, type=Whole(2, 1_000_000, "games"),
              help="Games per candidate weight vector (random cells of hero, opponent, battlefield, seat, league "
                   "member; every candidate of a generation plays the same ones).")
@click.option("--generations", default=60, show_default=True, type=Whole(1, 10_000), help="CMA-ES generations.")
@click.option("--popsize", default=0, show_default=True, type=Whole(0, 1000),
              help="Candidates per generation (0: CMA-ES's default, 4 + 3 ln(number of weights)).")
@click.option("--sigma0", default=0.3, show_default=True, type=click.FloatRange(min=0, min_open=True),
              help="CMA-ES's first step, in units of each weight's size.")
@click.option("--check-games", default=4000, show_default=True, type=Whole(2, 10_000_000, "games"),
              help="Games of the final check on fresh seeds, per side (every hero, opponent, battlefield, seat and "
                   "fixed league member, and the starting weights).")
@click.option("--seed", "-s", default=1, show_default=True, type=Whole(0, 2**32 - 1),
              help="Seed of the optimiser and the games (same seed, same result).")
@click.option("--out", "-o", default=Path("runs/train"), show_default=True, type=click.Path(path_type=Path),
              help="Run folder (checkpoints: rerun the same command to resume).")
@click.option("--name", default="trained", show_default=True, help="The name of the written profile.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@backend_options
def train(heroes, leave_out, battlefields, weights, start, league, games_per_eval, generations, popsize, sigma0,
          check_games, seed, out, name, quiet, backend):
    """Train ONE set of standard-AI weights for every hero at once, against a league (CMA-ES).

    Unlike `tune` (weights of each hero's own), the trained weights are the profile's own,
    so a hero the training never saw (a homebrew hero) plays by the same judgement. Every
    candidate of a generation plays the same games (common random numbers). The result is
    checked on fresh seeds against the starting weights (the same games both ways: score
    change per hero with a 95% interval, Holm over the heroes) and written as
    OUT/<NAME>.toml with its provenance, a profile for --ai. Example:
    `unmatched-sim train --generations 60 --out runs/train`; a hero left out:
    `unmatched-sim train --leave-out sinbad --out runs/train_no_sinbad`.
    """
    from reports.train import format_summary, provenance, summarize
    from sim.content.profiles import write_profile_file
    from sim.engine.ai import WEIGHT_NAMES
    from sim.runs.train import TrainSettings
    from sim.runs.train import train as run_train

    check_profile_name(name)
    _warn_unread(start, _keys(weights))
    s = TrainSettings(heroes=_keys(heroes), leave_out=_keys(leave_out), battlefields=_keys(battlefields),
                      weights=_keys(weights), start=start, league=_keys([league]), games_per_eval=games_per_eval,
                      generations=generations, popsize=popsize, sigma0=sigma0, check_games=check_games, seed=seed,
                      extra=tuple(str(p) for p in homebrew_paths()))
    res = run_with_progress(lambda progress: run_train(s, out, backend=backend, progress=progress), "train", quiet,
                            out, "training")
    summ = summarize(res)
    played = len(res.check_start)
    if played != check_games:
        click.echo(f"note: the check played {played} games a side, not --check-games {check_games}: rounded so that "
                   "every hero, opponent, battlefield, seat and opponent profile gets the same number", err=True)
    from sim.play.match import installed_content
    try:
        names = {k: spec.name for k, spec in installed_content(s.extra).specs.items()}
    except ValueError:          # (the run has read the hero files already; only its lines would lack the names)
        names = {}
    click.echo(format_summary(summ, names))
    summ["heroes"].to_csv(out / "check_heroes.csv", index=False)
    summ["history"].to_csv(out / "generations.csv", index=False)
    command = "unmatched-sim " + " ".join(shlex.quote(a) for a in sys.argv[1:]) if sys.argv[1:] else "unmatched-sim train"
    path = write_profile_file(
        out / f"{name}.toml", name, res.profile.mode_name,
        f"one weight set for every hero, trained by `unmatched-sim train` from {s.start} against {', '.join(s.league)}",
        dict(zip(WEIGHT_NAMES, res.profile.weights)),
        provenance(res, summ, command),
        header="Written by `unmatched-sim train`: one weight set that every hero plays, learned by CMA-ES\n"
               "against a league of opponents; [provenance] says how and what the final check measured.")
    click.echo(f"\nProfile: {path}  (use it with --ai {path})")
