"""The ``diff`` command: two matrix run folders compared (``reports.diff``).

Imports ``reports.diff`` inside the function (pandas, pyarrow, matplotlib: ``--help``
does not pay for them)."""
from __future__ import annotations

import json
from pathlib import Path

import click

from sim.cli.app import main


@main.command()
@click.argument("run_a", type=click.Path(path_type=Path))
@click.argument("run_b", type=click.Path(path_type=Path))
@click.option("--out", "out", type=click.Path(path_type=Path), default=None,
              help="Output folder. Default: diff_<A>_<B> beside RUN_B (e.g. runs/diff_standard_expert).")
@click.option("--html/--no-html", "html", default=True, show_default=True, help="Also write OUT/diff.html.")
@click.option("--common", is_flag=True,
              help="Runs with other hero sets: compare the heroes both hold (games between them only).")
@click.option("--by-battlefield", is_flag=True,
              help="Also compare every cell per battlefield of both runs (Holm over those cells).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object instead of the summary.")
def diff(run_a, run_b, out, html, common, by_battlefield, as_json):
    """Compare two matrix runs of the same heroes: is it the hero or the AI?

    RUN_A and RUN_B differ in one thing (AI profile, variant, rules option, version).
    Prints each hero's field score (pooled score against the other heroes, draws half)
    in A and B with Wilson 95% intervals, the change B - A with a 95% interval and a
    Holm-corrected two-proportion z test; the Spearman correlation of the two rankings;
    every matchup cell's change (Holm over the cells) and the cells whose winner flips
    beyond the intervals. Writes CSV and Parquet tables, two plots and diff.html to
    --out. Example: `unmatched-sim diff runs/standard runs/expert`.
    """
    from reports.diff import DiffError, build_diff
    from sim.runs.store import snapshot
    try:
        with snapshot():        # (a run being played: every figure of the same games)
            rep = build_diff(run_a, run_b, out, html=html, common=common, by_battlefield=by_battlefield)
    except DiffError as e:
        raise click.ClickException(str(e)) from None
    except OSError as e:
        raise click.ClickException(f"cannot write the diff: {e}") from None
    d = rep.diff
    warnings = [w for w in (d.a.warning, d.b.warning) if w]
    if as_json:
        for w in warnings:
            click.echo(w, err=True)
        files = {**{f"csv:{k}": v for k, v in rep.csv.items()}, **{f"png:{k}": v for k, v in rep.png.items()}}
        if rep.html:
            files["html"] = rep.html
        from reports.diff import to_json
        click.echo(json.dumps(to_json(d, files), indent=1))
        return
    for w in warnings:
        click.echo(w)
    click.echo(rep.summary)
    click.echo("")
    where = f"{rep.html}  (tables" if rep.html else f"{rep.out_dir}  (tables"
    click.echo(f"Diff: {where}: {rep.out_dir / 'tables'}, plots: {rep.out_dir / 'plots'})")
