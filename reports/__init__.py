"""Reports of a matrix run: tables (pandas), statistics, plots and an HTML report.

Data flows one way: ``sim.runs`` stores per-game rows in a run folder; this package
only reads that folder, streaming the games into counts (``reports.stream``), so a
report's memory does not grow with the run. From Python::

    from reports import build_report
    rep = build_report("runs/demo")      # writes runs/demo/report/...
    rep.tables["strength"]               # pandas DataFrame
    print(rep.summary)

or from the shell: ``unmatched-sim report runs/demo``.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from . import html as H
from .format import battlefield_names, hero_names
from .render import REPORT_DIR, ReportFiles, report_dirs, write_pngs, write_tables
from .stats import bradley_terry, wilson
from .tables import TABLE_NAMES, compute_tables, sensitive_marks, summary_text

#: the loadout tables of a matrix report: not written when they have no row (no hero with gear)
LOADOUT_TABLES = ("loadouts", "loadout_best", "gear_effects")

__all__ = ["REPORT_DIR", "Report", "bradley_terry", "build_report", "compute_tables", "summary_text", "wilson"]


@dataclass
class Report(ReportFiles):
    """What :func:`build_report` wrote: ``out_dir``, ``html`` path, ``csv`` / ``parquet`` /
    ``png`` paths by name, the ``tables`` (see ``reports.tables.compute_tables``), the
    plain-text ``summary`` and ``replays``: the example games' pages by matchup (see
    :func:`reports.examples.write_examples`); ``replay_problems``: why example games got no
    page (a file they need changed since the run, or they no longer play as stored)."""

    replays: dict = field(default_factory=dict)
    replay_problems: list = field(default_factory=list)


def build_report(run_dir, out_dir=None, against=None, replays: bool = True) -> Report:
    """Build every table, plot and the HTML report of a run folder.

    Writes into ``out_dir`` (default ``RUN_DIR/report``): ``tables/<name>.csv`` and
    ``tables/<name>.parquet`` for each of ``TABLE_NAMES`` (the :data:`LOADOUT_TABLES` only when
    they have rows: a run with a hero with gear), ``plots/<name>.png``
    (matchups, strength, battlefield_hero, game_length, map_<battlefield>) and
    ``report.html`` (self-contained: plots embedded) and, with ``replays``, the replay
    pages of a few example games of every matchup in ``replays/`` (linked from the report;
    :mod:`reports.examples`; the engine's replay code they need is loaded first, or compiled
    once after an install, in a short-lived child process: ``sim.runs.apart``). Works on a
    partly finished run
    (the stored chunks). Raises ``sim.runs.errors.RunError`` if ``run_dir`` is not a run
    folder, ValueError if it holds no finished game, OSError if ``out_dir`` cannot be
    written.

    ``against``: another matrix run folder (e.g. the same heroes under another AI
    profile): the cells whose change between the two runs is significant after Holm
    (``reports.diff.sensitive_cells``, on the heroes both runs hold; a note says so when
    the hero sets differ) are marked *AI-sensitive* in the summary, the heatmap and the HTML, and written as
    ``tables/ai_sensitive.csv``. Raises ``reports.diff.DiffError`` (a ValueError) if
    ``against`` is not a matrix run with at least two of these heroes.
    """
    # lazy: the plots need matplotlib, which `import reports` (for the tables, the
    # statistics or reports.arena) should not pay for
    from . import plots as P

    run_dir = Path(run_dir)
    if replays:
        from sim.runs.apart import ready_apart, ready_replay_code
        from sim.runs.store import read_manifest
        read_manifest(run_dir)          # (a folder that is no run says so at once)
        # the example games' replays need the engine's replay code: a child process loads it, or
        # compiles it once after an install (~0.7 GB of compiler memory that would otherwise stay
        # in this process, on top of the tables), before the tables, so that the two never add up;
        # if it fails, the replays load or compile the code here
        ready_apart(ready_replay_code)
    tables = compute_tables(run_dir)
    names_written = list(TABLE_NAMES)
    if against is not None:
        from .diff import RunSide, load_side, other_heroes_note, same_ai_note, sensitive_cells
        tables["ai_sensitive"] = sensitive_cells(run_dir, against)
        other = load_side(against)
        this = RunSide(run_dir, tables["manifest"], 0, None)
        tables["against"] = {"run": str(against), "ai": other.ai, "games": other.games,
                             "same_ai": same_ai_note(this, other), "heroes": other_heroes_note(this, other)}
        names_written.append("ai_sensitive")
    # a run without a hero with gear (or whose gear heroes play one loadout each) has no loadout
    # rows: no header-only files for them
    empty = [n for n in LOADOUT_TABLES if not len(tables[n])]
    names_written = [n for n in names_written if n not in empty]
    out = report_dirs(run_dir, out_dir)
    rep = Report(out, out / "report.html", tables, summary_text(tables))
    write_tables(out, tables, names_written, rep.csv, rep.parquet)
    # a report rebuilt without --against: no stale marks of an earlier one (nor stale loadout tables)
    for name in empty + ([] if against is not None else ["ai_sensitive"]):
        for ext in ("csv", "parquet"):
            (out / "tables" / f"{name}.{ext}").unlink(missing_ok=True)

    m = tables["manifest"]
    names = hero_names(m)
    bf_names = battlefield_names(m)
    figs = {
        "matchups": P.plot_matchups(tables["matchups"], names, marks=sensitive_marks(tables)),
        "strength": P.plot_strength(tables["strength"], names),
        "battlefield_hero": P.plot_battlefield_hero(tables["battlefield_hero"], names, bf_names),
        "game_length": P.plot_game_length(tables["counts"].lengths, bf_names),
    }
    sp = tables["spaces"]
    for bf, info in m["battlefields"].items():
        rows = sp[sp["battlefield"] == bf]
        if len(rows) and rows["games"].max() > 0:
            figs[f"map_{bf}"] = P.plot_space_map(rows, info)
    pngs = write_pngs(out, figs, rep.png, P.DPI)
    examples = ""
    if replays:
        from .examples import write_examples
        examples, rep.replays, rep.replay_problems = write_examples(run_dir, out, names)
    H.write_html(rep.html, tables, pngs, rep.summary, examples)
    return rep
