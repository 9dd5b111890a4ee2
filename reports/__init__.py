"""Reports of a matrix run: tables (pandas), statistics, plots and an HTML report.

Data flows one way: ``sim.runner`` stores per-game rows in a run folder; this package
only reads that folder. From Python::

    from reports import build_report
    rep = build_report("runs/demo")      # writes runs/demo/report/...
    rep.tables["strength"]               # pandas DataFrame
    print(rep.summary)

or from the shell: ``unmatched-sim report runs/demo``.
"""
from __future__ import annotations

import io
from dataclasses import dataclass, field
from pathlib import Path

from .stats import bradley_terry, wilson
from .tables import TABLE_NAMES, compute_tables, summary_text

REPORT_DIR = "report"

__all__ = ["REPORT_DIR", "Report", "bradley_terry", "build_report", "compute_tables", "summary_text", "wilson"]


@dataclass
class Report:
    """What :func:`build_report` wrote: ``out_dir``, ``html`` path, ``csv`` / ``parquet`` /
    ``png`` paths by name, the ``tables`` (see ``reports.tables.compute_tables``) and the
    plain-text ``summary``."""

    out_dir: Path
    html: Path
    tables: dict
    summary: str
    csv: dict = field(default_factory=dict)
    parquet: dict = field(default_factory=dict)
    png: dict = field(default_factory=dict)


def build_report(run_dir, out_dir=None) -> Report:
    """Build every table, plot and the HTML report of a run folder.

    Writes into ``out_dir`` (default ``RUN_DIR/report``): ``tables/<name>.csv`` and
    ``tables/<name>.parquet`` for each of ``TABLE_NAMES``, ``plots/<name>.png``
    (matchups, strength, battlefield_hero, game_length, map_<battlefield>) and
    ``report.html`` (self-contained: plots embedded). Works on a partly finished run
    (the stored chunks). Raises ``sim.runs.errors.RunError`` if ``run_dir`` is not a run
    folder, ValueError if it holds no finished game, OSError if ``out_dir`` cannot be
    written.
    """
    from . import html as H
    from . import plots as P

    run_dir = Path(run_dir)
    tables = compute_tables(run_dir)
    out = Path(out_dir) if out_dir is not None else run_dir / REPORT_DIR
    (out / "tables").mkdir(parents=True, exist_ok=True)
    (out / "plots").mkdir(parents=True, exist_ok=True)
    rep = Report(out, out / "report.html", tables, summary_text(tables))
    for name in TABLE_NAMES:
        df = tables[name]
        rep.csv[name] = out / "tables" / f"{name}.csv"
        df.to_csv(rep.csv[name], index=False)
        rep.parquet[name] = out / "tables" / f"{name}.parquet"
        df.to_parquet(rep.parquet[name], index=False)

    m = tables["manifest"]
    names = {k: v["name"] for k, v in m["heroes"].items()}
    bf_names = {k: v["name"] for k, v in m["battlefields"].items()}
    figs = {
        "matchups": P.plot_matchups(tables["matchups"], names),
        "strength": P.plot_strength(tables["strength"], names),
        "battlefield_hero": P.plot_battlefield_hero(tables["battlefield_hero"], names, bf_names),
        "game_length": P.plot_game_length(tables["games"], bf_names),
    }
    sp = tables["spaces"]
    for bf, info in m["battlefields"].items():
        rows = sp[sp["battlefield"] == bf]
        if len(rows) and rows["games"].max() > 0:
            figs[f"map_{bf}"] = P.plot_space_map(rows, info)
    pngs = {}
    for name, fig in figs.items():
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=P.DPI, bbox_inches="tight", facecolor="white")
        pngs[name] = buf.getvalue()
        rep.png[name] = out / "plots" / f"{name}.png"
        rep.png[name].write_bytes(pngs[name])
    H.write_html(rep.html, tables, pngs, rep.summary)
    return rep
