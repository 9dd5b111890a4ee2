"""Example games of a matrix report: a few stored games of every matchup, played again and
written as replay pages beside the report (``report/replays/*.html``), with the report's
section that links them.

For each pair of different heroes and each seating, the report links a game the first
player won and one it lost (``sim.runs.replay.example_games``: the most typical length of
each kind). The pages are made when the report is built, so they open offline with a
click; any other stored game is one command away (``unmatched-sim replay RUN_DIR --game
N``), which the section says.
"""
from __future__ import annotations

import html
from pathlib import Path

from sim.runs.errors import RunError
from sim.runs.replay import example_games, replay_stored, run_label

from .render import scroll_box
from .replay_html import write_replay

REPLAYS_DIR = "replays"
#: at most this many pages (4 per matchup: 55 matchups of 11 heroes); past it, commands only
MAX_PAGES = 240


def write_examples(run_dir, out_dir, names: dict, max_pages: int = MAX_PAGES) -> tuple[str, dict, list]:
    """Play the example games of ``run_dir`` again, write each as
    ``out_dir/replays/<hero>-<hero>-<first>-<winner>.html`` and return ``(section HTML,
    {matchup (a, b): {(first, winner): page path or None}}, [why a game got no page]``). ``names``: hero key ->
    display name. After ``max_pages`` pages the section gives the commands instead of
    links. A game that no longer plays as stored (the engine or a hero file changed) is
    listed with the reason and no page. Raises OSError if the folder cannot be written."""
    run_dir, out_dir = Path(run_dir), Path(out_dir)
    try:
        matchups = example_games(run_dir)
    except RunError as e:
        return f'<p class="note">No example games: {html.escape(str(e))}</p>', {}, []
    if not matchups:
        return (f'<p class="note">No example games: {html.escape(str(run_dir))} holds no stored game between two '
                'different heroes yet (only mirrors).</p>', {}, [])
    folder = out_dir / REPLAYS_DIR
    folder.mkdir(parents=True, exist_ok=True)
    for old in folder.glob("*-*-*-*.html"):    # pages of an earlier report of this run
        old.unlink(missing_ok=True)
    pages: dict = {}
    written, problems = 0, []
    rows = []

    def nm(k):
        return html.escape(names.get(k, k))

    for mu in matchups:
        a, b = mu["heroes"]
        cells = []
        for first, winner in ((a, a), (a, b), (b, b), (b, a)):
            g = mu["games"].get((first, winner))
            if g is None:
                cells.append('<td class="txt">none stored</td>')
                pages.setdefault((a, b), {})[(first, winner)] = None
                continue
            label = f"game {g.number} ({g.row['turns']} turns, {html.escape(g.row['battlefield'])})"
            cmd = f"unmatched-sim replay {html.escape(str(run_dir))} --game {g.number}"
            path = None
            if written < max_pages:
                try:
                    rep = replay_stored(run_dir, g)
                    path = folder / f"{a}-{b}-{first}-{winner}.html"
                    write_replay(path, rep, title=f"{names.get(a, a)} vs {names.get(b, b)}: "
                                 f"{names.get(winner, winner)} wins ({names.get(first, first)} moves first)",
                                 note=run_label(g, run_dir) + ".")
                    written += 1
                except RunError as e:
                    problems.append(str(e))
            pages.setdefault((a, b), {})[(first, winner)] = path
            if path is not None:
                cells.append(f'<td class="txt"><a href="{REPLAYS_DIR}/{path.name}">{label}</a></td>')
            else:
                cells.append(f'<td class="txt">{label}: <code>{cmd}</code></td>')
        rows.append(f'<tr><td class="txt">{nm(a)} vs {nm(b)}</td>' + "".join(cells) + "</tr>")
    head = ("<tr><th>matchup A vs B</th><th>A moves first, A wins</th><th>A moves first, B wins</th>"
            "<th>B moves first, B wins</th><th>B moves first, A wins</th></tr>")
    body = ('<p class="note">Watch how a matchup is played: for each pair of heroes and each seating, a game the '
            "first player won and one it lost (of each kind, the game whose length is nearest the median). Each link "
            "opens a replay page (works offline): the battlefield, the fighters moving event by event, the cards of "
            "each combat, the hands and discard piles. Any other stored game: "
            f"<code>unmatched-sim replay {html.escape(str(run_dir))} --game N</code> "
            f"(<code>--list --matchup A,B</code> gives the numbers).</p>"
            + scroll_box(f'<table class="data"><thead>{head}</thead><tbody>{"".join(rows)}</tbody></table>'))
    if problems:
        body += '<p class="note">' + "<br>".join(html.escape(p) for p in problems[:5]) + "</p>"
    return body, pages, problems
