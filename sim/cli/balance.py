"""The ``balance`` command: search a hero's numeric knobs for the smallest changes that bring
its score to a target (``sim.runs.balance``), verify them and write the report
(``reports.balance``)."""
from __future__ import annotations

from pathlib import Path

import click

from sim.cli.app import main
from sim.cli.options import GAMES, Whole, backend_options, check_profile, exit_interrupted, homebrew_paths


class Score(click.ParamType):
    """A share strictly between ``lo`` and ``hi`` (``0.5``, or ``50%``); ``example``: the
    value the error message suggests."""

    name = "score"

    def __init__(self, lo: float = 0.0, hi: float = 1.0, example: str = "0.5 or 50%", sane: tuple = ()):
        self.lo, self.hi, self.example, self.sane = lo, hi, example, sane

    def convert(self, value, param, ctx):
        if isinstance(value, float):
            v = value
        else:
            text = str(value).strip()
            try:
                v = float(text[:-1]) / 100 if text.endswith("%") else float(text)
            except ValueError:
                self.fail(f"{value!r} is not a number; give one such as {self.example}", param, ctx)
        if not self.lo < v < self.hi:
            self.fail(f"{value} is outside ({self.lo:g}, {self.hi:g}); give one such as {self.example}", param, ctx)
        if self.sane and not self.sane[0] <= v <= self.sane[1]:
            self.fail(f"{value} is a score of {v:.1%}: outside {self.sane[0]:.0%}..{self.sane[1]:.0%}, where balancing "
                      f"a hero makes sense; give one such as {self.example}", param, ctx)
        return v


def _keys(values, option: str) -> list[str]:
    """The comma-separated keys of a repeated option; raises click.BadParameter when the
    option was given but names nothing (``--field ''``: an empty shell variable would
    otherwise mean every hero)."""
    keys = [k.strip() for v in values for k in str(v).split(",") if k.strip()]
    if values and not keys:
        raise click.BadParameter("is empty; name at least one key, or leave the option out for the default",
                                 param_hint=f"'{option}'")
    return keys


@main.command()
@click.argument("hero")
@click.option("--target", default=0.5, show_default=True, type=Score(sane=(0.05, 0.95)),
              help="The score to reach against the field (or --against), in (0, 1): 0.5 or 50%.")
@click.option("--tolerance", default=0.02, show_default=True, type=Score(0, 0.2, "0.02 or 2%"),
              help="How near the target counts as reached (0.02: within 2 points).")
@click.option("--field", multiple=True, metavar="KEYS",
              help="Opponents (comma-separated or repeated; KEY@LOADOUT for one loadout). Default: every other hero.")
@click.option("--against", default="", metavar="HERO",
              help="Balance one matchup: the score against this hero of the field.")
@click.option("--battlefields", "-b", "battlefields", multiple=True, metavar="KEYS",
              help="Battlefields (comma-separated or repeated). Default: every installed battlefield.")
@click.option("--ai", default="standard", show_default=True, metavar="PROFILE", help="AI profile of both seats.")
@click.option("--check-ai", default="", metavar="PROFILE",
              help="Verify each proposal under this second AI profile too (a fix that works for one AI only is "
                   "flagged).")
@click.option("--knobs", multiple=True, metavar="NAMES",
              help="Knobs to search: names or patterns (health, card:*:value, sidekick:*, copies:A/B; "
                   "comma-separated). Default: every knob (--list-knobs).")
@click.option("--list-knobs", is_flag=True, help="Print the hero's knobs with their ranges and stop.")
@click.option("--budget", default=300_000, show_default=True, type=Whole(1, 10**9, "games"), metavar="GAMES",
              help="Games of the search (baseline, screen, curves, pairs); the verification comes on top.")
@click.option("--verify-games", default=4000, show_default=True, type=GAMES,
              help="Fresh paired games of each proposal's verification (split over the opponents as compare does).")
@click.option("--proposals", default=5, show_default=True, type=Whole(1, 50), help="Proposals to verify, at most.")
@click.option("--block-games", default=600, show_default=True, type=Whole(1, 100_000, "games"),
              help="Games per block: the unit each setting of the knobs is played in.")
@click.option("--seed", "-s", default=1, show_default=True, type=Whole(0, 2**32 - 1), help="Seed (same seed, same run).")
@click.option("--out", "-o", default=None, type=click.Path(path_type=Path),
              help="Run folder (rerun the same command to resume). Default: runs/balance_HERO[_vs_OPPONENT].")
@click.option("--no-report", is_flag=True, help="Skip the HTML and PNG report.")
@click.option("--quiet", "-q", is_flag=True, help="No progress bar.")
@backend_options
def balance(hero, target, tolerance, field, against, battlefields, ai, check_ai, knobs, list_knobs, budget,
            verify_games, proposals, block_games, seed, out, no_report, quiet, backend):
    """Find the smallest changes of HERO's numbers that bring its score to --target.

    Moves each knob (health and move of the hero and each sidekick, each card's value and
    BOOST, copies of a card traded with another) through its range on the same games
    (common random numbers), drops the knobs with no detectable effect, draws each
    remaining knob's dose-response curve, proposes the smallest single changes (then
    pairs) predicted to reach the target, verifies each on fresh games and writes it as a
    variant file for compare, matrix --variant and duel. Example:
    `unmatched-sim balance king_arthur --budget 200000 --check-ai expert`.
    """
    from sim.runs.balance import BalanceSettings, resolve, run_balance
    from sim.runs.errors import RunError
    from sim.runs.lock import RunLocked
    if "@" in hero:
        raise click.BadParameter(f"{hero!r}: balance takes a hero without a loadout (every gear card of the hero "
                                 "is a knob); give a loadout to the field's heroes with --field", param_hint="'HERO'")
    check_profile(ai, "--ai")
    if check_ai:
        check_profile(check_ai, "--check-ai")
    s = BalanceSettings(hero=hero, field=tuple(_keys(field, '--field')), against=against, battlefields=tuple(_keys(battlefields, '--battlefields')),
                        ai=ai, check_ai=check_ai, target=target, tolerance=tolerance, knobs=tuple(_keys(knobs, '--knobs')),
                        budget=budget, verify_games=verify_games, proposals=proposals, block_games=block_games,
                        seed=seed, extra=tuple(str(p) for p in homebrew_paths()))
    try:
        r = resolve(s)
    except RunError as e:
        raise click.BadParameter(str(e), param_hint=f"'{e.param}'" if e.param else None) from None
    if list_knobs:
        for k in r.knobs.values():
            click.echo(f"{k.name:<48} {k.base:>3}  levels {k.levels[0]}..{k.levels[-1]} (up to "
                       f"{k.reach[0]}..{k.reach[-1]} toward the target)"
                       + (f"  (trades with {k.partner}, {k.partner_base} copies)" if k.partner else ""))
        return
    rs = r.settings
    name = r.names[rs.hero]
    out = out or Path("runs") / (f"balance_{rs.hero}" + (f"_vs_{rs.against}" if rs.against else ""))
    where = f"against {r.names[rs.field[0]]}" if len(r.field) == 1 else f"against {len(r.field)} heroes"
    click.echo(f"{name} {where} on {len(r.battlefields)} battlefield(s): {len(r.knobs)} knobs; target "
               f"{rs.target:.1%} +- {rs.tolerance * 100:.1f} points; search up to {rs.budget:,} games in blocks of "
               f"{r.block_total:,}"
               + (f" (--block-games {rs.block_games:,} rounded to {r.block_size} game(s) in each of the "
                  f"{len(r.slots)} slots: opponent x battlefield x seat)" if r.block_total != rs.block_games else "")
               + f"; each verification {r.verify_per_opponent() * len(r.field):,}+ games"
               + (f", also under {check_ai}" if check_ai else "") + ".", err=True)
    from tqdm import tqdm
    bar = tqdm(total=1, unit=" games", desc=f"balance {rs.hero}", disable=True if quiet else None, smoothing=0.1)

    def progress(done, total, info):
        bar.total = total
        bar.n = done
        bar.set_postfix_str(info, refresh=False)
        bar.refresh()
    try:
        res = run_balance(s, out, backend=backend, progress=progress)
        bar.close()
        from reports.balance import build_balance_report, summary_text
        click.echo(summary_text(res))
        if not no_report:
            try:
                rep = build_balance_report(out)
            except OSError as e:
                raise click.ClickException(f"cannot write the report in {out / 'report'} ({e.strerror or e}); the "
                                           "games are stored: rerun the same command to write it") from None
            click.echo(f"Report: {rep.html}  (curves: {rep.png['curves']}, proposals: {rep.csv['proposals']})")
    except RunLocked as e:
        raise click.ClickException(str(e)) from None
    except RunError as e:
        raise click.BadParameter(str(e), param_hint=f"'{e.param}'" if e.param else None) from None
    except OSError as e:
        raise click.ClickException(f"cannot write the balance run to {out}: {e.strerror or e}; free some space or "
                                   "choose another --out, then rerun to resume (finished blocks are kept)") from None
    except KeyboardInterrupt:
        from sim.runs.backend import stop_local_workers
        bar.close()
        stop_local_workers(kill=True)
        exit_interrupted(f"interrupted: every finished block of games is in {out}; rerun the same command to resume "
                         "(it plays only what is missing, then writes the report)")
    finally:
        bar.close()
    g = res["games"]
    click.echo(f"Took {res['seconds']:.0f} s of running in all sessions; {g['total']:,} games "
               f"({g['search']:,} search, {g['verification']:,} verification).", err=True)
