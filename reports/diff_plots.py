"""Plots of a diff (``reports.diff``): field scores of A and B, and the matchup cells'
changes. matplotlib, Agg backend, figures built without pyplot; labels use the column
names of the diff's CSV files (``score_a``, ``change``, ...), as the text summary does."""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import numpy as np
from matplotlib.colors import TwoSlopeNorm
from matplotlib.figure import Figure
from matplotlib.patches import Rectangle

COLOUR_A, COLOUR_B = "#718096", "#2b6cb0"
CHANGE_CMAP = "PuOr"     # orange: the row hero scores less in B, purple: more


def _label(side) -> str:
    return f"{side.run_dir.name} (AI {side.ai})"


def plot_field_scores(d) -> Figure:
    """Left: each hero's field score in A (grey) and B (blue) with its 95% Wilson
    interval; right: the change (B - A, points) with its 95% interval, significant ones
    (Holm) filled. ``d``: :class:`reports.diff.Diff`."""
    t = d.tables["diff_heroes"].iloc[::-1]
    labels = [d.names.get(h, h) for h in t["hero"]]
    y = np.arange(len(t))
    fig = Figure(figsize=(11, 1.6 + 0.55 * len(t)))
    a1, a2 = fig.subplots(1, 2, sharey=True)
    for s, off, colour, side in (("a", 0.15, COLOUR_A, d.a), ("b", -0.15, COLOUR_B, d.b)):
        v = t[f"score_{s}"].to_numpy(float)
        a1.errorbar(v, y + off, xerr=[v - t[f"lo_{s}"].to_numpy(float), t[f"hi_{s}"].to_numpy(float) - v], fmt="o",
                    color=colour, ecolor=colour, capsize=3, markersize=6, label=f"score_{s}: {_label(side)}")
    a1.axvline(0.5, color="grey", linestyle="--", linewidth=1)
    a1.set_yticks(y, labels)
    a1.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    a1.set_xlabel("field score (pooled score against the other heroes, draw = ½)")
    a1.set_title("score_a and score_b (95% Wilson interval)", fontsize=11)
    a1.legend(loc="lower right", fontsize=8)
    c = t["change"].to_numpy(float) * 100
    lo, hi = t["change_lo"].to_numpy(float) * 100, t["change_hi"].to_numpy(float) * 100
    sig = t["significant"].to_numpy(bool)
    a2.errorbar(c, y, xerr=[c - lo, hi - c], fmt="none", ecolor="#2d3748", capsize=3)
    a2.scatter(c[sig], y[sig], color="#c05621", zorder=3, s=40, label="significant (p_holm < 0.05)")
    a2.scatter(c[~sig], y[~sig], facecolor="white", edgecolor="#2d3748", zorder=3, s=40, label="not significant")
    a2.axvline(0, color="grey", linestyle="--", linewidth=1)
    a2.set_xlabel("change = score_b - score_a (points of win rate)")
    a2.set_title("change (95% interval)", fontsize=11)
    a2.legend(loc="lower right", fontsize=8)
    for yi, v in zip(y, c):
        a2.annotate(f"{v:+.1f}", (v, yi), textcoords="offset points", xytext=(0, 7), ha="center", fontsize=8)
    for a in (a1, a2):
        a.grid(axis="x", alpha=0.3)
        a.set_ylim(-0.7, len(t) - 0.3)
    rho = d.spearman[0]
    fig.suptitle(f"Field scores, A = {_label(d.a)}, B = {_label(d.b)}; Spearman "
                 + (f"{rho:+.2f}" if np.isfinite(rho) else "undefined"), fontsize=12)
    fig.tight_layout()
    return fig


def plot_cell_changes(d) -> Figure:
    """Heatmap of each matchup cell's change (pooled over battlefields): the row hero's
    score in B minus in A, in points; significant cells (p_holm < 0.05) outlined in black
    and starred, flipped cells marked "flip"; mirror cells grey."""
    c = d.tables["diff_cells"]
    keys = sorted(d.heroes, key=lambda k: d.names.get(k, k))
    idx = {k: i for i, k in enumerate(keys)}
    n = len(keys)
    val = np.full((n, n), np.nan)
    sig = np.zeros((n, n), bool)
    flip = np.zeros((n, n), bool)
    for r in c.itertuples(index=False):
        i, j = idx[r.hero], idx[r.opponent]
        val[i, j], val[j, i] = r.change * 100, -r.change * 100
        sig[i, j] = sig[j, i] = bool(r.significant)
        flip[i, j] = flip[j, i] = bool(r.flip)
    lim = max(5.0, float(np.nanmax(np.abs(val))) if np.isfinite(val).any() else 5.0)
    fig = Figure(figsize=(2.5 + 1.2 * n, 1.8 + 1.0 * n))
    ax = fig.add_subplot()
    cmap = matplotlib.colormaps[CHANGE_CMAP].with_extremes(bad="#d9d9d9")
    im = ax.imshow(np.ma.masked_invalid(val), cmap=cmap, norm=TwoSlopeNorm(vmin=-lim, vcenter=0, vmax=lim),
                   aspect="auto")
    fs = 11 if n <= 6 else 9 if n <= 10 else 7
    for i in range(n):
        for j in range(n):
            if i == j:
                ax.text(j, i, "mirror", ha="center", va="center", fontsize=fs - 3, color="#444444")
                continue
            if np.isnan(val[i, j]):
                continue
            colour = "white" if abs(val[i, j]) > 0.6 * lim else "black"
            ax.text(j, i, f"{val[i, j]:+.1f}" + ("*" if sig[i, j] else "") + ("\nflip" if flip[i, j] else ""),
                    ha="center", va="center", fontsize=fs, color=colour, fontweight="bold" if sig[i, j] else None)
            if sig[i, j]:
                ax.add_patch(Rectangle((j - 0.47, i - 0.47), 0.94, 0.94, fill=False, edgecolor="black", linewidth=2))
    labels = [d.names.get(k, k) for k in keys]
    ax.set_xticks(range(n), labels, rotation=30, ha="right")
    ax.set_yticks(range(n), labels)
    ax.set_xlabel("opponent")
    ax.set_ylabel("hero")
    ax.set_title("change of each cell = score_b - score_a of the row hero (points)\n"
                 "* and outlined: significant (p_holm < 0.05); flip: the winner changes beyond the intervals",
                 fontsize=10)
    cb = fig.colorbar(im, ax=ax, fraction=0.046, pad=0.04)
    cb.set_label("change (points of win rate)")
    return fig
