"""Is the run finished? How every report says so, from one rule.

The rule is ``sim.runs.store.run_progress`` (a run is complete only when every planned game
and, in a run with space counters, those counters are stored); this module turns it into
the lines that open a report's summary and HTML page, so the matrix, loadouts, compare,
teams and diff reports, and the ``report`` command's warning, all say the same thing.
"""
from __future__ import annotations

from sim.runs.store import RunProgress, run_progress

from .format import plural

__all__ = ["RunProgress", "run_progress", "unfinished_lines"]


def unfinished_lines(progress: RunProgress | None, games_stored: int, short_pairs=(), names: dict | None = None,
                     label: str = "RUN") -> list[str]:
    """The lines that open the summary (and HTML) of an unfinished run; empty when
    ``progress`` is None or complete.

    ``games_stored``: the games the figures were computed from; ``short_pairs``:
    ``[(hero, opponent, stored, planned)]`` matchups with fewer games than planned
    (``reports.tables.short_pairs``), named with ``names`` (key -> display name);
    ``label``: what is unfinished (``RUN``, ``BASELINE RUN``, ...)."""
    if progress is None or progress.complete:
        return []
    names = names or {}
    if progress.locked:
        # a command is playing it: said once, with the one count every figure below is of
        lines = [f"STILL BEING PLAYED: {games_stored} of {progress.games_total} games so far; every figure below "
                 "is of these games and will change as the run goes on (report it again when it has finished)."]
    else:
        lines = [f"UNFINISHED {label}: {progress.details()}.",
                 f"Every figure below is computed from the {games_stored} games stored; the scores, intervals and "
                 "ranking can change when the run is finished (rerun its command)."]
    short = list(short_pairs)
    if short:
        shown = ", ".join(f"{names.get(a, a)} vs {names.get(b, b)} {k} of {n}" for a, b, k, n in short[:4])
        none = sum(1 for r in short if r[2] == 0)
        lines.append(f"{plural(len(short), 'matchup')} {'has' if len(short) == 1 else 'have'} fewer games than planned"
                     + (f" ({none} none yet)" if none else "")
                     + f": {shown}" + (f" and {len(short) - 4} more" if len(short) > 4 else "") + ".")
    return lines
