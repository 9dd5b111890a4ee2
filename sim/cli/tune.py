"""The ``tune`` command: self-play tuning of heroes' AI weights (``sim.runs.tune``,
``reports.tune``).

One hero, or several in rounds: round 1 tunes each named hero against the field playing
``--field-ai``; round r + 1 tunes each again, starting from its round-r weights, against
the field playing round r's tuned weights, so that no hero is tuned only to exploit the
untuned play. Each round writes ``OUT/round<r>/tuned.toml`` (every hero of the round);
the last round's is also ``OUT/tuned.toml``, a profile for ``--ai``."""
from __future__ import annotations

import shutil
from pathlib import Path

import click

from sim.cli.app import main
from sim.cli.options import (
    Whole, backend_options, check_profile, homebrew_paths, run_with_progress, warn_unread_weight_names,
)
from sim.content.heroes import HeroFileError


def _keys(values) -> list[str]:
    return [k.strip() for v in values for k in str(v).split(",") if k.strip()]


@main.command()
@click.argument("heroes", nargs=-1, metavar="HERO...")
@click.option("--all", "all_heroes", is_flag=True, help="Tune every installed (and --homebrew) hero.")
@click.option("--field", "field", multiple=True, metavar="KEYS",
              help="Opponent heroes (comma-separated or repeated). Default: every other hero.")
@click.option("--battlefields", "-b", "battlefields", multiple=True, metavar="KEYS",
              help="Battlefields (comma-separated or repeated). Default: every installed battlefield.")
@click.option("--weights", "weights", multiple=True, metavar="NAMES",
              help="Weights to tune (comma-separated or repeated; `unmatched-sim profiles standard` lists them). "
                   "Default: every standard-AI weight but win, the team-game weights and the weights the --field-ai "
                   "profile's mode does not read.")
@click.option("--field-ai", default="standard", show_default=True, metavar="PROFILE",
              help="The profile the opponents play, and the tuned hero's starting weights.")
@click.option("--games-per-eval", default=1000, show_default=True, type=Whole(1, 1_000_000, "games"),
              help="Games per candidate weight vector (rounded up to fill every opponent, battlefield and seat).")
@click.option("--generations", default=30, show_default=True, type=Whole(1, 10_000),
              help="CMA-ES generations per hero and round.")
@click.option("--popsize", default=0, show_default=True, type=Whole(0, 1000),
              help="Candidates per generation (0: CMA-ES's default, 4 + 3 ln(number of weights)).")
@click.option("--budget", default=None, type=Whole(1, 10**10, "games"), metavar="GAMES",
              help="Games per hero and round for the search; sets --generations to fit (at least 1).")
@click.option("--check-games", default=2000, show_default=True, type=Whole(2, 1_000_000, "games"),
              help="Games of the final check on fresh seeds (each of: start weights, tuned weights).")
@click.option("--rounds", default=1, show_default=True, type=Whole(1, 20),
              help="Rounds: each round tunes every named hero against the previous round's tuned field.")
@click.option("--seed", "-s", default=1, show_default=True, type=Whole(0, 2**32 - 1),
              help="Seed of the optimiser and the games (same seed, same result).")
@click.option("--out", "-o", default=None, type=click.Path(path_type=Path),
              help="Run folder (checkpoints: rerun the same command to resume). Default: runs/tune_<HERO> "
                   "(runs/tune for several heroes).")
@click.option("--update", "update", default=None, type=click.Path(dir_okay=False, path_type=Path), metavar="FILE",
              help="Also write the tuned weights into this profile file (created, or its hero sections updated).")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@backend_options
def tune(heroes, all_heroes, field, battlefields, weights, field_ai, games_per_eval, generations, popsize, budget,
         check_games, rounds, seed, out, update, quiet, backend):
    """Tune heroes' AI weights by self-play (CMA-ES) to maximise each one's score against the field.

    Every candidate of a generation plays the same games (common random numbers). The
    result is checked on fresh seeds against the starting weights (the same games both
    ways: score change with a 95% interval and a paired t-test) and written as a profile
    file with its provenance. Example: `unmatched-sim tune ciri --generations 20`;
    every hero, two rounds: `unmatched-sim tune --all --rounds 2 --out runs/tuned`.
    """

    from reports.tune import format_summary, summarize, write_profile
    from sim.play.match import installed_content
    from sim.runs.tune import TuneSettings, tunable_weights
    from sim.runs.tune import tune as run_tune

    field_profile = check_profile(field_ai, "--field-ai")
    warn_unread_weight_names(_keys(weights), field_profile.mode_name, "--weights")
    extra = homebrew_paths()
    try:
        content = installed_content(tuple(str(p) for p in extra))
    except ValueError as e:
        raise click.ClickException(f"a hero file is invalid: {e}") from None
    keys = sorted(content.specs) if all_heroes else _keys(heroes)
    if not keys:
        raise click.UsageError("name at least one HERO to tune, or give --all")
    try:
        keys = [content.resolve_hero(k) for k in keys]
    except HeroFileError as e:
        raise click.BadParameter(str(e), param_hint="'HERO'") from None
    if len(set(keys)) != len(keys):
        raise click.BadParameter("a hero is named twice", param_hint="'HERO'")
    hero_names = {k: spec.name for k, spec in content.specs.items()}      # (the printed lines' names)
    out = out or Path("runs") / (f"tune_{keys[0]}" if len(keys) == 1 else "tune")
    if update is not None:
        from sim.content.profiles import PROFILE_DIR
        if update.resolve().parent == PROFILE_DIR.resolve():
            raise click.BadParameter(f"{update} is an installed profile; give a file of your own",
                                     param_hint="'--update'")
    # by default the weights the field's mode reads (as train does): a weight nobody reads would drift
    names = _keys(weights) or tunable_weights(field_profile.mode_name)
    field_ai_now = field_ai
    results = []
    for r in range(1, rounds + 1):
        round_dir = out / f"round{r}" if rounds > 1 or len(keys) > 1 else out
        round_profile = round_dir / "tuned.toml"
        for hero in keys:
            opp = _keys(field) or [k for k in sorted(content.specs) if k != hero]
            opp = [k for k in opp if k != hero] if len(keys) > 1 else opp
            s = TuneSettings(hero=hero, field=tuple(opp), battlefields=tuple(_keys(battlefields)),
                             weights=tuple(names), field_ai=str(field_ai_now),
                             start="" if r == 1 else str(field_ai_now), games_per_eval=games_per_eval,
                             generations=generations, popsize=popsize, check_games=check_games, seed=seed,
                             extra=tuple(str(p) for p in extra))
            if budget is not None:
                s = _fit_budget(s, budget)
            hero_dir = round_dir / hero if rounds > 1 or len(keys) > 1 else round_dir
            res = run_with_progress(
                lambda progress, s=s, hero_dir=hero_dir: run_tune(s, hero_dir, backend=backend, progress=progress),
                f"tune {hero}" + (f" (round {r})" if rounds > 1 else ""), quiet, hero_dir, "tuning")
            summ = summarize(res)
            click.echo(("" if len(keys) == 1 and rounds == 1 else f"[round {r}] ") + format_summary(summ, hero_names))
            if not (summ["change_lo"] > 0):
                click.echo(f"warning: {hero_names[hero]}'s tuned weights are not significantly better than its start weights on "
                           "these games; keep the start weights, or tune again with a larger budget "
                           "(--generations, --games-per-eval)", err=True)
            write_profile(res, hero_dir / f"tuned-{hero}.toml", summ, base=field_ai)
            label = f"tuned-r{r}" if rounds > 1 else (f"tuned-{keys[0]}" if len(keys) == 1 else "tuned-heroes")
            write_profile(res, round_profile, summ, name=label, base=field_ai)
            if update is not None and r == rounds:
                try:
                    write_profile(res, update, summ, base=field_ai)
                except ValueError as e:
                    raise click.ClickException(str(e)) from None
            results.append((r, summ))
        field_ai_now = str(round_profile)
    if round_profile != out / "tuned.toml":
        shutil.copyfile(round_profile, out / "tuned.toml")
    if rounds > 1 or len(keys) > 1:
        _final_check(keys, out, field_ai, field, battlefields, names, check_games, seed, extra, results, backend,
                     hero_names)
    click.echo(f"Profile: {out / 'tuned.toml'}  (use it with --ai {out / 'tuned.toml'})"
               + (f"; also written to {update}" if update is not None else ""))


def _fit_budget(s, budget: int):
    """``s`` with as many generations as ``budget`` games allow (at least 1)."""
    import dataclasses
    import math
    n = len(s.weights)
    pop = s.popsize or (4 + int(3 * math.log(n)))
    return dataclasses.replace(s, generations=max(1, budget // (pop * s.games_per_eval)))


def _final_check(keys, out, field_ai, field, battlefields, names, check_games, seed, extra, results, backend,
                 hero_names=None):
    """Each hero with its starting and its last round's weights against the first round's
    field, on the same fresh games; the table (Holm over the heroes) also goes to
    OUT/final.csv, with each round's tuned score beside it."""
    from reports.tune import final_table, format_final
    from sim.content.profiles import get_profile
    from sim.runs.tune import TuneSettings, compare_weights
    final = get_profile(str(out / "tuned.toml"))
    base = get_profile(field_ai)
    entries = []
    for hero in keys:
        opp = [k for k in (_keys(field) or keys_all(extra)) if k != hero]
        s = TuneSettings(hero=hero, field=tuple(opp), battlefields=tuple(_keys(battlefields)), weights=tuple(names),
                         field_ai=str(field_ai), check_games=check_games, seed=seed, extra=tuple(str(p) for p in extra))
        (a, b), _ = compare_weights(s, [base.weights_for(hero), final.weights_for(hero)], backend)
        entries.append((hero, a, b))
    df = final_table(entries)
    per_round = {}
    for _r, summ in results:
        per_round.setdefault(summ["hero"], []).append(summ["after"]["score"])
    for i, x in enumerate(df["hero"]):
        for j, v in enumerate(per_round.get(x, [])):
            df.loc[i, f"round{j + 1}_tuned"] = v
    df.to_csv(out / "final.csv", index=False)
    click.echo(f"\nEach hero against the field playing {field_ai}, starting weights against the last round's, "
               f"on the same {check_games} fresh games each (paired t-test, Holm over the heroes):")
    click.echo(format_final(df, per_round, hero_names))


def keys_all(extra) -> list[str]:
    from sim.play.match import installed_content
    return sorted(installed_content(tuple(str(p) for p in extra)).specs)
