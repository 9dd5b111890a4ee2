"""Is the run finished? How every report says so, from one rule.

The rule is ``sim.runs.store.run_progress`` (a run is complete only when every planned game
and, in a run with space counters, those counters are stored); this module turns it into
the lines that open a report's summary and HTML page, so the matrix, loadouts, compare,
teams and diff reports, and the ``report`` command's warning, all say the same thing.
"""
from __future__ import annotations

from sim.runs.store import RunProgress, run_progress

from .format import plural

__all__ = ["RunProgress", "no_games_lines", "run_progress", "unfinished_lines"]


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


def no_games_lines(planned: dict, stored: set, names: dict, what: str = "games", shown: int = 4) -> list[str]:
    """The lines of an unfinished loadouts or compare report naming what has no game yet, as
    the matrix report names its short matchups.

    ``planned``: opponent key -> the hero's loadouts planned against it (``[""]`` for a hero
    without gear, or for a compare report that counts opponents only); ``stored``: the
    (opponent, loadout) pairs with at least one game; ``names``: key -> display name;
    ``what``: the games counted ("games", "paired games"). One line: the opponents with no
    game at all ("No games yet against 2 opponents: Medusa, Sinbad (no row for them below)"),
    then the other loadout x opponent pairs with none ("of 5 loadout x opponent pairs: steel
    vs Alice, ..."): every such opponent named (at most the installed heroes), the first
    ``shown`` pairs. Empty when every pair has a game."""
    def listed(items, limit=shown) -> str:
        return ", ".join(items[:limit]) + (f" and {len(items) - limit} more" if len(items) > limit else "")
    opponents = sorted(planned, key=lambda o: (names.get(o, o).casefold(), o))
    none = [o for o in opponents if not any((o, lo) in stored for lo in planned[o])]
    pairs = [f"{lo} vs {names.get(o, o)}" for o in opponents if o not in none for lo in planned[o]
             if (o, lo) not in stored]
    parts = ([f"against {plural(len(none), 'opponent')}: {listed([names.get(o, o) for o in none], len(none))} (no row for them "
              "below)"] if none else []) + ([f"of {plural(len(pairs), 'loadout x opponent pair')}: {listed(pairs)}"]
                                           if pairs else [])
    return [f"No {what} yet " + "; and ".join(parts) + "."] if parts else []
