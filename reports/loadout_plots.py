"""Plots of the loadouts and compare reports (matplotlib figures, no pyplot).

Each function takes report tables (``reports.loadouts``, ``reports.compare``) and
returns a :class:`matplotlib.figure.Figure`; scores are fractions (0..1) shown as
percentages, differences as points of win rate.
"""
from __future__ import annotations

import matplotlib

matplotlib.use("Agg")
import numpy as np
import pandas as pd
from matplotlib.figure import Figure
from matplotlib.lines import Line2D
from matplotlib.patches import Rectangle

from .format import ALL_OPPONENTS, opponent_label
from .plots import DPI, score_colorbar, score_heatmap, score_pivots

BEST = "#2b6cb0"
TIE = "#90cdf4"
OTHER = "#a0aec0"
UP = "#2f855a"
DOWN = "#c53030"

__all__ = ["DPI", "plot_loadout_heatmap", "plot_loadout_overall", "plot_gear_effects", "plot_compare"]


def plot_loadout_heatmap(scores: pd.DataFrame, best: pd.DataFrame, names: dict) -> Figure:
    """Heatmap: each loadout's score (rows, best overall first) against each opponent
    (columns, "all opponents" last), with its 95% Wilson interval and game count;
    the best loadout of each column is framed in black."""
    overall = scores[scores["opponent"] == ALL_OPPONENTS].sort_values("score", ascending=False, kind="stable")
    rows = overall["loadout"].tolist()
    cols = sorted(set(scores["opponent"]) - {ALL_OPPONENTS}, key=lambda o: names.get(o, o)) + [ALL_OPPONENTS]
    piv = score_pivots(scores, "loadout", "opponent", rows, cols)
    fig = Figure(figsize=(3.5 + 1.45 * len(cols), 1.6 + 0.95 * len(rows)))
    ax = fig.add_subplot()
    im = score_heatmap(ax, piv["score"], piv["lo"], piv["hi"], piv["games"], rows,
                       [opponent_label(c, names) for c in cols], fontsize=11)
    b = best.set_index("opponent")["best_loadout"]
    for j, c in enumerate(cols):
        if c in b.index and b[c] in rows:
            i = rows.index(b[c])
            ax.add_patch(Rectangle((j - 0.46, i - 0.46), 0.92, 0.92, fill=False, edgecolor="black", linewidth=2.5,
                                   zorder=5))
    ax.axvline(len(cols) - 1.5, color="black", linewidth=2)
    ax.set_xlabel("opponent")
    ax.set_ylabel("loadout (best overall first)")
    ax.set_title("Score of each loadout against each opponent (draw = ½; 95% Wilson interval; n = games)\n"
                 "black frame: the best loadout against that opponent", fontsize=11)
    score_colorbar(fig, im, ax, "score of the loadout", fraction=0.03, pad=0.02)
    return fig


def plot_loadout_overall(scores: pd.DataFrame, best: pd.DataFrame, hero_name: str) -> Figure:
    """Each loadout's score against all opponents with its 95% Wilson interval, best at
    the top; the best loadout, the loadouts not significantly worse than it, and the
    others in three colours."""
    t = scores[scores["opponent"] == ALL_OPPONENTS].sort_values("score", ascending=True, kind="stable")
    b = best.set_index("opponent").loc[ALL_OPPONENTS]
    ties = set(filter(None, str(b["ties"]).split(";")))
    colours = [BEST if lo == b["best_loadout"] else TIE if lo in ties else OTHER for lo in t["loadout"]]
    y = np.arange(len(t))
    sc = t["score"].to_numpy(float)
    fig = Figure(figsize=(9, 1.4 + 0.45 * len(t)))
    ax = fig.add_subplot()
    for yi, v, lo, hi, c in zip(y, sc, t["lo"].to_numpy(float), t["hi"].to_numpy(float), colours):
        ax.errorbar([v], [yi], xerr=[[v - lo], [hi - v]], fmt="o", color=c, ecolor=c, capsize=4, markersize=8)
        ax.annotate(f"{v:.1%}", (v, yi), textcoords="offset points", xytext=(0, 7), ha="center", fontsize=8)
    ax.axvline(0.5, color="grey", linestyle="--", linewidth=1)
    ax.set_yticks(y, t["loadout"].tolist())
    ax.set_ylim(-0.7, len(t) - 0.3)
    ax.xaxis.set_major_formatter(matplotlib.ticker.PercentFormatter(1.0))
    ax.set_xlabel("score against all opponents (draw = ½)")
    ax.grid(axis="x", alpha=0.3)
    ax.legend(handles=[Line2D([], [], marker="o", color=BEST, linestyle="", label="best"),
                       Line2D([], [], marker="o", color=TIE, linestyle="",
                              label="not significantly worse than the best"),
                       Line2D([], [], marker="o", color=OTHER, linestyle="", label="significantly worse")],
              fontsize=8, loc="lower right")
    ax.set_title(f"{hero_name}: each loadout against all opponents (95% Wilson interval)", fontsize=11)
    fig.tight_layout()
    return fig


def plot_gear_effects(eff: pd.DataFrame, names: dict, hero_name: str) -> Figure:
    """Effect of each gear swap (option instead of its group's reference) with the other
    gear held fixed, in points of win rate: over all opponents (large marker, 95%
    interval; filled when significant after Holm) and per opponent (small dots)."""
    rows = eff[eff["opponent"] == ALL_OPPONENTS].reset_index(drop=True)
    labels = [f"{g}: {o} instead of {r}\n{100 * e:+.1f} [{100 * lo:+.1f}, {100 * hi:+.1f}]" + (" *" if sig else "")
              for g, o, r, e, lo, hi, sig in zip(rows["group"], rows["option"], rows["reference"], rows["effect"],
                                                 rows["lo"], rows["hi"], rows["significant"])]
    fig = Figure(figsize=(9, 1.6 + 1.0 * max(1, len(rows))))
    ax = fig.add_subplot()
    per = eff[eff["opponent"] != ALL_OPPONENTS]
    opps = sorted(set(per["opponent"]), key=lambda o: names.get(o, o))
    cmap = matplotlib.colormaps["tab20"]
    for k, o in enumerate(opps):
        sub = per[per["opponent"] == o]
        ys, xs = [], []
        for i, r in rows.iterrows():
            m = sub[(sub["group"] == r["group"]) & (sub["option"] == r["option"])]
            if len(m):
                ys.append(i + 0.35 - 0.7 * (k + 0.5) / max(1, len(opps)))
                xs.append(100 * float(m["effect"].iloc[0]))
        ax.plot(xs, ys, "o", markersize=4, color=cmap(k % 20), alpha=0.8, label=names.get(o, o))
    for i, r in rows.iterrows():
        e, lo, hi = 100 * r["effect"], 100 * r["lo"], 100 * r["hi"]
        c = UP if e > 0 else DOWN
        ax.errorbar([e], [i], xerr=[[e - lo], [hi - e]], fmt="D", markersize=10, capsize=6, color=c, ecolor=c,
                    markerfacecolor=c if r["significant"] else "white", markeredgewidth=2, zorder=5)
    ax.axvline(0, color="black", linewidth=1)
    ax.set_yticks(range(len(rows)), labels)
    ax.set_ylim(-0.7, len(rows) - 0.3)
    ax.invert_yaxis()
    ax.set_xlabel("change in score (points of win rate), other gear held fixed")
    ax.grid(axis="x", alpha=0.3)
    ax.margins(x=0.25)
    if opps:
        ax.legend(fontsize=7, ncol=1, loc="center left", bbox_to_anchor=(1.01, 0.5), title="per opponent",
                  title_fontsize=8)
    ax.set_title(f"{hero_name}: effect of each gear choice, all opponents (diamond, 95% interval; filled and * = "
                 "significant after Holm)\nand each opponent (dots)", fontsize=11)
    fig.tight_layout()
    return fig


def plot_compare(per: pd.DataFrame, names: dict, hero_name: str, variant_name: str) -> Figure:
    """Change of the hero's score (variant minus baseline, paired games) against each
    opponent and over all, in points of win rate with 95% intervals; green/red when
    significant after Holm, grey otherwise."""
    t = per.reset_index(drop=True)
    y = np.arange(len(t))
    fig = Figure(figsize=(9.5, 1.6 + 0.45 * len(t)))
    ax = fig.add_subplot()
    for yi, r in t.iterrows():
        d, lo, hi = 100 * r["change"], 100 * r["lo"], 100 * r["hi"]
        c = (UP if d > 0 else DOWN) if r["significant"] else OTHER
        big = r["opponent"] == ALL_OPPONENTS
        ax.errorbar([d], [yi], xerr=[[d - lo], [hi - d]], fmt="D" if big else "o", markersize=9 if big else 7,
                    capsize=4, color=c, ecolor=c)
        ax.annotate(f"{r['baseline']:.1%} → {r['variant']:.1%}", (hi, yi), textcoords="offset points",
                    xytext=(6, -3), fontsize=8)
    ax.axvline(0, color="black", linewidth=1)
    ax.set_yticks(y, [opponent_label(o, names) for o in t["opponent"]])
    ax.set_ylim(-0.7, len(t) - 0.3)
    ax.invert_yaxis()
    ax.margins(x=0.3)
    ax.grid(axis="x", alpha=0.3)
    ax.set_xlabel(f"change in {hero_name}'s score (points of win rate), variant minus baseline")
    ax.set_title(f"{variant_name}: {hero_name}'s score against each opponent\n(paired games, 95% interval; "
                 "coloured = significant after Holm)", fontsize=11)
    fig.tight_layout()
    return fig
