"""Report plots (matplotlib, Agg backend; figures are built without pyplot).

Each ``plot_*`` function takes report tables (see :mod:`reports.tables`) and returns
a :class:`matplotlib.figure.Figure`; :func:`save` writes it as PNG. Hero labels use
the heroes' display names from the run manifest.
"""
from __future__ import annotations

import textwrap
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import numpy as np
import pandas as pd
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

from .board import HEAT_CMAP, draw_battlefield, label_spaces, layout_xy
from .format import ALL, RATING_AXIS, SCORE_AXIS, plural
from .render import DPI, write_atomic

SCORE_CMAP = "RdBu"      # red: the row hero loses, blue: it wins
SCORE_COLUMNS = ("score", "lo", "hi", "games")

__all__ = ["DPI", "HEAT_CMAP", "SCORE_CMAP", "plot_battlefield_hero", "plot_game_length", "plot_matchups",
           "plot_space_map", "plot_strength", "save", "score_colorbar", "score_heatmap", "score_pivots"]


def save(fig: Figure, path) -> Path:
    """Write ``fig`` as a PNG (``DPI`` dots per inch) to ``path`` atomically (never a cut-off
    file: ``reports.render.write_atomic``); returns the path. Raises OSError."""
    return write_atomic(path, lambda tmp: fig.savefig(tmp, format="png", dpi=DPI, bbox_inches="tight",
                                                      facecolor="white"))


def _text_colour(value: float) -> str:
    return "white" if abs(value - 0.5) > 0.28 else "black"


def score_pivots(table: pd.DataFrame, index: str, columns: str, rows: list, cols: list) -> dict:
    """The ``score``, ``lo``, ``hi`` and ``games`` columns of ``table`` pivoted to
    (``index`` x ``columns``) float arrays of shape (len(rows), len(cols)), in the
    order of ``rows`` and ``cols`` (missing cells NaN): the input of :func:`score_heatmap`."""
    return {c: table.pivot(index=index, columns=columns, values=c).reindex(index=rows, columns=cols).to_numpy(float)
            for c in SCORE_COLUMNS}


def score_heatmap(ax, values: np.ndarray, lo: np.ndarray, hi: np.ndarray, games: np.ndarray,
                  rows: list[str], cols: list[str], mirror_mask=None, fontsize: int | None = None):
    """Draw a score heatmap on the axes ``ax`` and return its image (for a colour bar).

    ``values``, ``lo``, ``hi``, ``games``: float arrays (len(rows), len(cols)): each
    cell's score (0..1, diverging colours centred on 0.5), its 95% interval and game
    count, written in the cell; NaN cells are left blank. ``rows`` / ``cols``: tick
    labels. ``mirror_mask``: optional bool array of the same shape, cells drawn grey
    and labelled "mirror". ``fontsize``: of the score text (default by size).
    """
    norm = TwoSlopeNorm(vmin=0.0, vcenter=0.5, vmax=1.0)
    shown = np.ma.masked_invalid(np.where(mirror_mask, np.nan, values) if mirror_mask is not None else values)
    cmap = matplotlib.colormaps[SCORE_CMAP].with_extremes(bad="#d9d9d9")
    im = ax.imshow(shown, cmap=cmap, norm=norm, aspect="auto")
    n = max(len(rows), len(cols))
    big = fontsize or (12 if n <= 6 else 10 if n <= 10 else 8)
    small = big - 3
    for i in range(len(rows)):
        for j in range(len(cols)):
            v = values[i, j]
            if np.isnan(v):
                continue
            if mirror_mask is not None and mirror_mask[i, j]:
                ax.text(j, i, f"mirror\n{plural(int(games[i, j]), 'game')}", ha="center", va="center", fontsize=small,
                        color="#444444")
                continue
            c = _text_colour(v)
            ax.text(j, i - 0.12, f"{v:.0%}", ha="center", va="center", fontsize=big, fontweight="bold", color=c)
            ax.text(j, i + 0.22, f"{lo[i, j]:.0%}–{hi[i, j]:.0%}\nn={int(games[i, j])}", ha="center", va="center",
                    fontsize=small, color=c, linespacing=1.1)
    ax.set_xticks(range(len(cols)), cols, rotation=30, ha="right")
    ax.set_yticks(range(len(rows)), rows)
    ax.set_xticks(np.arange(-0.5, len(cols)), minor=True)
    ax.set_yticks(np.arange(-0.5, len(rows)), minor=True)
    ax.grid(which="minor", color="white", linewidth=2)
    ax.tick_params(which="minor", length=0)
    return im


def score_colorbar(fig: Figure, im, ax, label: str, fraction: float = 0.046, pad: float = 0.04):
    """A colour bar for :func:`score_heatmap`'s image ``im`` beside ``ax``, labelled
    ``label``, ticks as percentages; returns the colour bar."""
    cb = fig.colorbar(im, ax=ax, fraction=fraction, pad=pad)
    cb.set_label(label)
    cb.ax.yaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    return cb


def plot_matchups(mt: pd.DataFrame, names: dict, marks=()) -> Figure:
    """Heatmap of the row hero's score against the column hero (battlefield "all").

    Cells show the score (draws count half), its 95% Wilson interval and the game
    count; mirror cells are grey. ``names``: hero key -> display name. ``marks``:
    (hero, opponent) key pairs outlined in black and labelled "†" (the AI-sensitive
    cells of ``build_report(..., against=...)``).
    """
    t = mt[mt["battlefield"] == ALL]
    keys = sorted(set(t["hero"]), key=lambda k: names.get(k, k))
    piv = score_pivots(t, "hero", "opponent", keys, keys)
    k = len(keys)
    fig = Figure(figsize=(2.0 + 1.35 * k, 1.5 + 1.1 * k))
    ax = fig.add_subplot()
    mirror = np.eye(k, dtype=bool)
    labels = [names.get(h, h) for h in keys]
    im = score_heatmap(ax, piv["score"], piv["lo"], piv["hi"], piv["games"], labels, labels, mirror)
    ax.set_xlabel("opponent")
    ax.set_ylabel("hero")
    title = "Score of each hero (row) against each opponent (column)\nwin = 1, draw = ½; 95% Wilson interval; n = games"
    if marks:
        pos = {h: i for i, h in enumerate(keys)}
        for h, o in marks:
            if h in pos and o in pos:
                i, j = pos[h], pos[o]
                ax.add_patch(Rectangle((j - 0.47, i - 0.47), 0.94, 0.94, fill=False, edgecolor="black", linewidth=2.5))
                ax.text(j + 0.42, i - 0.38, "†", ha="right", va="top", fontsize=12, fontweight="bold")
        title += "\n† outlined: AI-sensitive (significant change against the other run, Holm)"
    ax.set_title(title, fontsize=11)
    score_colorbar(fig, im, ax, "score of the row hero")
    return fig


def plot_strength(st: pd.DataFrame, names: dict) -> Figure:
    """Each hero's strength, the two figures of the strength table: ``score`` with its Wilson
    95% interval (left) and ``rating`` in Elo points with its 95% interval (right), labelled
    as ``reports.format`` defines them; heroes in the table's order, strongest on top."""
    t = st.iloc[::-1]
    labels = [names.get(h, h) for h in t["hero"]]
    y = np.arange(len(t))
    fig = Figure(figsize=(11, 1.4 + 0.55 * len(t)))
    a1, a2 = fig.subplots(1, 2, sharey=True)
    sc = t["score"].to_numpy(float)
    a1.errorbar(sc, y, xerr=[sc - t["lo"].to_numpy(float), t["hi"].to_numpy(float) - sc], fmt="o",
                color="#2b6cb0", ecolor="#2b6cb0", capsize=4, markersize=7)
    a1.axvline(0.5, color="grey", linestyle="--", linewidth=1)
    a1.set_yticks(y, labels)
    a1.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    # the two axis labels are long: on two lines each, so that they stay under their own panel
    a1.set_xlabel(textwrap.fill(SCORE_AXIS, 50), fontsize=9)
    a1.set_title("score [lo, hi]", fontsize=11)
    for yi, v in zip(y, sc):
        if np.isfinite(v):
            a1.annotate(f"{v:.1%}", (v, yi), textcoords="offset points", xytext=(0, 8), ha="center", fontsize=8)
    el = t["rating"].to_numpy(float)
    lo, hi = t["rating_lo"].to_numpy(float), t["rating_hi"].to_numpy(float)
    a2.errorbar(el, y, xerr=[el - lo, hi - el], fmt="s", color="#2f855a", ecolor="#2f855a", capsize=4, markersize=7)
    a2.axvline(0, color="grey", linestyle="--", linewidth=1)
    a2.set_xlabel(textwrap.fill(RATING_AXIS, 50), fontsize=9)
    a2.set_title("rating [rating_lo, rating_hi]", fontsize=11)
    for yi, v in zip(y, el):
        if np.isfinite(v):
            a2.annotate(f"{v:+.0f}", (v, yi), textcoords="offset points", xytext=(0, 8), ha="center", fontsize=8)
    for a in (a1, a2):
        a.grid(axis="x", alpha=0.3)
        a.set_ylim(-0.7, len(t) - 0.3)
    fig.suptitle("Hero strength", fontsize=13)
    fig.tight_layout()
    return fig


def plot_battlefield_hero(bh: pd.DataFrame, names: dict, bf_names: dict) -> Figure:
    """Heatmap: each hero's score against the field (mirrors excluded) per battlefield,
    with the pooled column "all battlefields" last; a note instead if ``bh`` holds no hero
    (only mirror games stored)."""
    heroes = sorted(set(bh["hero"]), key=lambda k: names.get(k, k))
    bfs = sorted(b for b in set(bh["battlefield"]) if b != ALL) + [ALL]
    piv = score_pivots(bh, "hero", "battlefield", heroes, bfs)
    fig = Figure(figsize=(2.5 + 1.45 * len(bfs), 1.5 + 1.0 * len(heroes)))
    ax = fig.add_subplot()
    if not heroes:      # an unfinished run with only mirrors stored: nothing to draw
        ax.axis("off")
        ax.text(0.5, 0.5, "No game between two different heroes stored yet", ha="center", va="center")
        return fig
    im = score_heatmap(ax, piv["score"], piv["lo"], piv["hi"], piv["games"], [names.get(h, h) for h in heroes],
                       [bf_names.get(b, "all battlefields") for b in bfs])
    ax.axvline(len(bfs) - 1.5, color="black", linewidth=2)
    ax.set_title("Score of each hero against the field, per battlefield\n"
                 "(mirrors excluded; draw = ½; 95% Wilson interval; n = games)", fontsize=11)
    score_colorbar(fig, im, ax, "score against the field")
    return fig


def plot_game_length(lengths: pd.DataFrame, bf_names: dict) -> Figure:
    """Histogram of game length in turns (stacked by end reason) and the length per
    battlefield (box plots: median, quartiles, 5th-95th percentile whiskers).

    ``lengths``: games per ``battlefield``, ``end_reason`` and ``turns`` (column ``n``;
    :func:`reports.stream.scan_duels`), or per-game rows (one game each)."""
    from .stream import weighted_percentile
    w = lengths["n"].to_numpy(np.int64) if "n" in lengths.columns else np.ones(len(lengths), np.int64)
    turns = lengths["turns"].to_numpy(np.int64)
    reason = lengths["end_reason"].to_numpy(object)
    n = int(w.sum())
    fig = Figure(figsize=(12, 4.6))
    a1, a2 = fig.subplots(1, 2, gridspec_kw={"width_ratios": [3, 2]})
    hi = int(turns.max()) if len(turns) else 1
    step = max(1, int(np.ceil((hi + 1) / 60)))
    bins = np.arange(0, hi + step + 1, step) + 0.5 - (step > 1) * 0.5
    colours = {"hero_defeated": "#4c78a8", "turn_cap": "#e45756", "error": "#222222"}
    labels = {"hero_defeated": "a hero was defeated", "turn_cap": "turn cap (draw)", "error": "engine error (draw)"}
    data, weights, cols, labs = [], [], [], []
    for r in ("hero_defeated", "turn_cap", "error"):
        sel = reason == r
        if w[sel].sum():
            data.append(turns[sel])
            weights.append(w[sel])
            cols.append(colours[r])
            labs.append(f"{labels[r]} ({int(w[sel].sum())})")
    other = ~np.isin(reason, list(colours))
    if w[other].sum():
        data.append(turns[other])
        weights.append(w[other])
        cols.append("#999999")
        labs.append(f"other ({int(w[other].sum())})")
    a1.hist(data, bins=bins, weights=weights, stacked=True, color=cols, label=labs, edgecolor="white", linewidth=0.3)
    mean, med = float((turns * w).sum() / max(n, 1)), weighted_percentile(turns, w, 50)
    a1.axvline(mean, color="black", linestyle="--", linewidth=1, label=f"mean {mean:.1f}")
    a1.axvline(med, color="black", linestyle=":", linewidth=1.2, label=f"median {med:.0f}")
    a1.set_xlabel("game length (turns)")
    a1.set_ylabel("games")
    a1.set_title(f"Game length, all {plural(n, 'game')}", fontsize=11)
    a1.legend(fontsize=8)
    bfs = sorted(set(lengths["battlefield"]))
    stats = []
    for b in bfs:
        sel = (lengths["battlefield"] == b).to_numpy()
        t, c = turns[sel], w[sel]
        q = {p: weighted_percentile(t, c, p) for p in (5, 25, 50, 75, 95)}
        stats.append({"med": q[50], "q1": q[25], "q3": q[75], "whislo": q[5], "whishi": q[95], "fliers": [],
                      "label": bf_names.get(b, b)})
    if stats:
        a2.bxp(stats, orientation="horizontal", showfliers=False, widths=0.6,
               medianprops={"color": "#c05621", "linewidth": 2})
    a2.set_xlabel("game length (turns)")
    a2.set_title("Per battlefield\n(box: quartiles; whiskers: 5th–95th percentile)", fontsize=11)
    for a in (a1, a2):
        a.grid(axis="x", alpha=0.3)
    fig.tight_layout()
    return fig


def plot_space_map(spaces: pd.DataFrame, info: dict) -> Figure:
    """One battlefield drawn from its layout (:func:`reports.board.draw_battlefield`):
    spaces at their ``xy`` positions, lines for adjacent spaces, arrows for one-way paths,
    each space coloured by fighters defeated there per game (left) and by combats fought
    with the defender there per game (right). Start spaces 1 and 2 are outlined and
    labelled S1/S2, secret passages ringed with a dashed line.

    ``spaces``: :func:`reports.tables.space_counts` rows of this battlefield; ``info``:
    the manifest's battlefield entry.
    """
    xy = layout_xy(info)
    spaces = spaces.sort_values("index")
    span = np.ptp(xy[:, 0]) if len(xy) else 1.0
    w = 7.0
    h = max(3.0, w * (np.ptp(xy[:, 1]) + 120) / (span + 120))
    fig = Figure(figsize=(2 * w + 1.5, h + 1.2))
    axes = fig.subplots(1, 2)
    games = int(spaces["games"].max()) if len(spaces) else 0
    for ax, col, title in ((axes[0], "defeats_per_game", "Fighters defeated per game"),
                           (axes[1], "combats_per_game", "Combats per game (at the defender's space)")):
        v = np.full(len(xy), np.nan)
        v[: len(spaces)] = spaces[col].to_numpy(float)[: len(xy)]
        _, _, sc = draw_battlefield(ax, info, values=v, cmap=HEAT_CMAP, labels=False)
        ax.set_title(title, fontsize=11)
        cb = fig.colorbar(sc, ax=ax, fraction=0.035, pad=0.02)
        cb.set_label("per game")
    extra = "; dashed ring = secret passage" if info.get("passages") else ""
    extra += "; arrows = one-way paths" if info.get("one_way") else ""
    fig.suptitle(f"{info['name']}: where fights happen ({plural(games, 'game')}; lines join adjacent spaces; "
                 f"S1/S2 = start spaces{extra})", fontsize=12)
    fig.tight_layout()
    for ax in axes:         # (the ids are placed for the axes' final size)
        label_spaces(ax, info)
    return fig
