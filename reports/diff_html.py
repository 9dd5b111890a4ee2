"""The diff's HTML page (``reports.diff``): one self-contained file (inline CSS, the two
plots embedded), with the same tables as the CSV files (same column names)."""
from __future__ import annotations

import html
from pathlib import Path

import pandas as pd

from .format import display_names, pvalue
from .render import Sections, img, page, table_html, write_text


def _names(df: pd.DataFrame, names: dict) -> pd.DataFrame:
    """``df`` with display names for hero keys (:func:`reports.format.display_names`) and p-values as text;
    ``p_holm`` says "too few games" where a row has too few for a verdict (``enough_games``), as the summary does."""
    out = display_names(df, names)
    for c in ("p", "p_holm"):
        if c in out.columns:
            out[c] = [pvalue(v) for v in out[c]]
    if "enough_games" in out.columns and "p_holm" in out.columns:
        out["p_holm"] = out["p_holm"].where(out["enough_games"].astype(bool), "too few games")
    return out


def write_diff_html(path, d, pngs: dict, summary: str) -> Path:
    """Write the diff page to ``path`` and return it. ``d``: :class:`reports.diff.Diff`;
    ``pngs``: ``diff_heroes`` and ``diff_cells`` PNG bytes; ``summary``: the plain-text
    summary. Raises KeyError if a plot is missing, OSError if ``path`` cannot be written."""
    sections = Sections()
    runs = pd.DataFrame([
        ("A", str(d.a.run_dir), d.a.ai, d.a.games, d.a.manifest.get("status", ""), d.a.warning or ""),
        ("B", str(d.b.run_dir), d.b.ai, d.b.games, d.b.manifest.get("status", ""), d.b.warning or ""),
    ], columns=["run", "folder", "AI profile", "games stored", "status", "warning"])
    sections.add("runs", "Runs", table_html(runs) + "<ul>" + "".join(f"<li>{html.escape(n)}</li>" for n in d.notes)
                 + f"</ul><pre>{html.escape(summary)}</pre>")
    h = _names(d.tables["diff_heroes"], d.names)
    sections.add("heroes", "Field scores", img(pngs["diff_heroes"], "field scores A and B") +
                 '<p class="note"><i>score_a</i>, <i>score_b</i>: each hero\'s pooled score against the other heroes '
                 '(wins + draws/2 over its games against them, mirrors excluded: the <i>score</i> column of the '
                 'matrix report\'s strength table) with its Wilson 95% interval (<i>lo</i>, <i>hi</i>). '
                 '<i>change</i> = score_b − score_a with a 95% normal interval on the difference of two independent '
                 'proportions (<i>change_lo</i>, <i>change_hi</i>). <i>p</i>: two-proportion z test (null '
                 'hypothesis: the same expected score in both runs); <i>p_holm</i>: Holm-corrected over the heroes; '
                 '<i>significant</i>: p_holm &lt; 0.05.</p>' + table_html(h))
    rho, p = d.spearman
    rk = _names(d.tables["diff_ranking"], d.names)
    sections.add("ranking", "Rankings", '<p class="note">Spearman rank correlation of the field scores (A vs B, '
                 '<code>scipy.stats.spearmanr</code>): '
                 + (f"<b>{rho:+.3f}</b> (p = {p:.4g})" if rho == rho else "undefined (all scores equal)")
                 + ". 1 means the same order; a low value means the order of the heroes depends on what differs "
                 "between the runs.</p>" + table_html(rk))
    c = _names(d.tables["diff_cells"], d.names)
    sections.add("cells", "Matchup cells", img(pngs["diff_cells"], "cell changes heatmap") +
                 '<p class="note">Each pair of heroes once (the score is <i>hero</i>\'s), pooled over battlefields and '
                 'loadouts. <i>p_holm</i>: two-proportion z test, Holm-corrected over the cells. <i>flip</i>: the '
                 'winner changes beyond both Wilson intervals (<i>winner_a</i>, <i>winner_b</i>: the hero whose '
                 'interval lies above 50%).</p>' + table_html(c))
    if "diff_cells_by_battlefield" in d.tables:
        cb = _names(d.tables["diff_cells_by_battlefield"], d.names)
        sections.add("battlefields", "Cells per battlefield",
                     '<p class="note">The same per battlefield of both runs; Holm over these cells.</p>'
                     + table_html(cb, max_rows=2000))
    title = f"diff: {d.a.run_dir.name} ({d.a.ai}) vs {d.b.run_dir.name} ({d.b.ai})"
    return write_text(path, page(f"unmatched-sim {title}", html.escape(f"Is it the hero or the AI? {title}"),
                                 sections.html()))
