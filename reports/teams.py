"""Report of a team run (``unmatched-sim teams``): hero pairs as teams, and each hero's share.

Reads the run folder written by :func:`sim.runs.teams.execute_teams`, streaming the games
batch by batch into sums (:func:`team_partials`, added up by :func:`combine_partials`; memory
does not grow with the run), and writes, into
``RUN_DIR/report`` (or ``out_dir``):

* ``tables/team_pairs.{csv,parquet}``: one row per hero pair: games it played as a team,
  wins, draws, losses, ``score`` (wins + draws/2, over games) with a Wilson 95% interval
  (``lo``, ``hi``), and ``synergy``: the pair's score minus the mean of its two heroes'
  ``score`` (below): above 0 the two do better together than they do on average.
* ``tables/team_heroes.{csv,parquet}``: one row per hero, its average contribution:
  ``score`` of the teams it was in (with a Wilson interval); ``dealt``: mean damage
  (health) its player's attacks and effects dealt to opposing fighters per game (hero and
  sidekicks); ``dealt_share``: mean share of its team's damage that was its own (games
  where the team dealt any); ``survived``: share of games its hero was still standing at
  the end; ``last_standing``: share of its team's wins in which its hero was the team's
  last one standing (its teammate's hero defeated: it carried the win).
* ``tables/team_pairings.{csv,parquet}``: every pairing (pair against pair) with games and
  the first pair's score.
* ``tables/team_summary.{csv,parquet}``: games, draws, the first team's score (the team
  of seat 1, who moves first), mean turns.
* ``plots/team_pairs.png``: the pairs' scores with intervals; ``teams.md`` (readable
  Markdown) and ``teams.html`` (self-contained).

Draws (turn cap) count as half a win, as in every report.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import numpy as np
import pandas as pd
from matplotlib.figure import Figure

from sim.runs.store import read_manifest
from sim.runs.teams import TEAMS_MODE

from .format import hero_names, pct, plural, pts
from .render import CSS, DPI, ReportFiles, png_data_uri, report_dirs, table_html, write_pngs, write_tables, write_text
from .stats import score_interval, wilson
from .status import run_progress, unfinished_lines
from .stream import scan_frames

TEAM_TABLES = ("team_pairs", "team_heroes", "team_pairings", "team_summary")


@dataclass
class TeamsReport(ReportFiles):
    """What :func:`build_teams_report` wrote: ``out_dir``, ``html`` and ``markdown`` paths,
    the ``tables`` (DataFrames by name), the plain-text ``summary`` and file paths."""

    markdown: Path | None = None


#: the columns of a team run the report reads (no list columns: a batch converts to pandas fast)
TEAM_REPORT_COLUMNS = (["winner", "team1", "team2", "turns", "end_reason"] + [f"s{k}_hero" for k in range(1, 5)]
                       + [f"s{k}_dealt" for k in range(1, 5)] + [f"s{k}_health" for k in range(1, 5)])
_SUMS = {"heroes": ["games", "wins", "draws", "points", "dealt", "share", "share_n", "stand", "last"],
         "pairs": ["games", "wins", "draws", "points", "dealt_a", "dealt_b"],
         "pairings": ["games", "points"],
         "summary": ["games", "draws", "first_pts", "turns", "end_hero_defeated", "end_turn_cap", "end_error"]}


def _team_rows(games: pd.DataFrame) -> pd.DataFrame:
    """One row per (game, team): team pair, seats' heroes, points (1 win, 0.5 draw, 0 loss),
    each hero's damage dealt and whether it stood at the end."""
    out = []
    for t, (a, b) in ((1, (1, 3)), (2, (2, 4))):
        w = games["winner"].to_numpy()     # 0 team1, 1 team2, -1 draw
        pts = np.where(w == t - 1, 1.0, np.where(w < 0, 0.5, 0.0))
        out.append(pd.DataFrame({
            "game": np.arange(len(games)), "team_no": t, "pair": games[f"team{t}"].to_numpy(object),
            "hero_a": games[f"s{a}_hero"].to_numpy(object), "hero_b": games[f"s{b}_hero"].to_numpy(object),
            "points": pts, "win": w == t - 1, "draw": w < 0,
            "dealt_a": games[f"s{a}_dealt"].to_numpy().astype(float),
            "dealt_b": games[f"s{b}_dealt"].to_numpy().astype(float),
            "stand_a": games[f"s{a}_health"].to_numpy() > 0, "stand_b": games[f"s{b}_health"].to_numpy() > 0,
            "opponents": games[f"team{3 - t}"].to_numpy(object),
        }))
    return pd.concat(out, ignore_index=True)


def team_partials(games: pd.DataFrame) -> dict:
    """Sums of a batch of a team run's games that add up across batches (see
    :func:`team_tables`): DataFrames ``heroes`` (by hero), ``pairs`` (by pair),
    ``pairings`` (by pair and opponent pair, the first team's view) and ``summary``
    (one row), each with the sum columns of ``_SUMS``."""
    tr = _team_rows(games)
    hero_rows = []
    for me, mate in (("a", "b"), ("b", "a")):
        d = tr[f"dealt_{me}"].to_numpy()
        tot = (tr["dealt_a"] + tr["dealt_b"]).to_numpy()
        has = tot > 0
        hero_rows.append(pd.DataFrame({
            "hero": tr[f"hero_{me}"].to_numpy(object), "games": 1, "wins": tr["win"].to_numpy(int),
            "draws": tr["draw"].to_numpy(int), "points": tr["points"].to_numpy(), "dealt": d,
            "share": np.where(has, d / np.where(has, tot, 1.0), 0.0), "share_n": has.astype(int),
            "stand": tr[f"stand_{me}"].to_numpy(int),
            "last": (tr["win"] & tr[f"stand_{me}"] & ~tr[f"stand_{mate}"]).to_numpy(int)}))
    heroes = pd.concat(hero_rows, ignore_index=True).groupby("hero").sum()
    pairs = tr.assign(games=1, wins=tr["win"].astype(int), draws=tr["draw"].astype(int)) \
        .groupby("pair")[_SUMS["pairs"]].sum()
    first = tr[tr["team_no"] == 1]
    pairings = first.assign(games=1).groupby(["pair", "opponents"])[["games", "points"]].sum()
    w = games["winner"].to_numpy()
    er = games["end_reason"].to_numpy(object)
    summary = pd.DataFrame([{
        "games": len(games), "draws": int((w < 0).sum()),
        "first_pts": float(np.where(w == 0, 1.0, np.where(w < 0, 0.5, 0.0)).sum()),
        "turns": int(games["turns"].sum()), "end_hero_defeated": int((er == "hero_defeated").sum()),
        "end_turn_cap": int((er == "turn_cap").sum()), "end_error": int((er == "error").sum())}])
    return {"heroes": heroes, "pairs": pairs, "pairings": pairings, "summary": summary}


def combine_partials(parts: list) -> dict:
    """Add up :func:`team_partials` of several batches (by key; the summary row by column)."""
    out = {}
    for k in _SUMS:
        frames = [p[k] for p in parts]
        if k == "summary":
            out[k] = pd.concat(frames, ignore_index=True).sum().to_frame().T
        else:
            c = pd.concat(frames)
            out[k] = c.groupby(level=list(range(c.index.nlevels))).sum()
    return out


def team_tables(games) -> dict:
    """The report's tables (see the module doc) from a team run's games
    (``sim.runs.teams.read_team_games``) or from the combined :func:`team_partials` of its
    batches (a dict, as the report streams them). Raises ValueError if there are no games."""
    p = games if isinstance(games, dict) else (team_partials(games) if len(games) else None)
    if p is None or int(p["summary"]["games"].iloc[0]) == 0:
        raise ValueError("the run holds no finished game yet")
    h = p["heroes"]
    heroes = pd.DataFrame({
        "hero": h.index.to_numpy(object), "games": h["games"].to_numpy(np.int64),
        "wins": h["wins"].to_numpy(np.int64), "draws": h["draws"].to_numpy(np.int64),
        "points": h["points"].to_numpy(float), "dealt": (h["dealt"] / h["games"]).to_numpy(),
        "dealt_share": (h["share"] / h["share_n"].where(h["share_n"] > 0, np.nan)).to_numpy(),
        "survived": (h["stand"] / h["games"]).to_numpy(),
        "last_standing": (h["last"] / h["wins"].where(h["wins"] > 0, np.nan)).to_numpy(),
    })
    heroes["score"], heroes["lo"], heroes["hi"] = score_interval(heroes["points"], heroes["games"])
    heroes = heroes[["hero", "games", "wins", "draws", "score", "lo", "hi", "dealt", "dealt_share", "survived",
                     "last_standing"]].sort_values("score", ascending=False, kind="stable").reset_index(drop=True)

    q = p["pairs"]
    pairs = pd.DataFrame({"pair": q.index.to_numpy(object), "games": q["games"].to_numpy(np.int64),
                          "wins": q["wins"].to_numpy(np.int64), "draws": q["draws"].to_numpy(np.int64),
                          "points": q["points"].to_numpy(float),
                          "dealt": ((q["dealt_a"] + q["dealt_b"]) / q["games"]).to_numpy()})
    pairs["losses"] = pairs["games"] - pairs["wins"] - pairs["draws"]
    pairs["score"], pairs["lo"], pairs["hi"] = score_interval(pairs["points"], pairs["games"])
    hs = dict(zip(heroes["hero"], heroes["score"]))
    pairs["synergy"] = [s - (hs[p.split("+")[0]] + hs[p.split("+")[1]]) / 2 for p, s in zip(pairs["pair"], pairs["score"])]
    pairs = pairs[["pair", "games", "wins", "draws", "losses", "score", "lo", "hi", "synergy", "dealt"]] \
        .sort_values("score", ascending=False, kind="stable").reset_index(drop=True)

    pr = p["pairings"].reset_index()
    # orient every pairing as (smaller pair, larger pair)
    flip = pr["pair"] > pr["opponents"]
    pr.loc[flip, ["pair", "opponents"]] = pr.loc[flip, ["opponents", "pair"]].to_numpy()
    pr.loc[flip, "points"] = pr.loc[flip, "games"] - pr.loc[flip, "points"]
    pairings = pr.groupby(["pair", "opponents"], as_index=False)[["games", "points"]].sum()
    pairings["games"] = pairings["games"].astype(np.int64)
    pairings["score"] = pairings["points"] / pairings["games"]
    pairings = pairings.rename(columns={"opponents": "opponent_pair"})

    sm = p["summary"].iloc[0]
    n = int(sm["games"])
    lo, hi = wilson(float(sm["first_pts"]), n)
    summary = pd.DataFrame([{
        "games": n, "pairings": len(pairings), "draws": int(sm["draws"]),
        "first_team_score": float(sm["first_pts"]) / n, "first_lo": lo, "first_hi": hi,
        "mean_turns": float(sm["turns"]) / n,
        "end_hero_defeated": int(sm["end_hero_defeated"]), "end_turn_cap": int(sm["end_turn_cap"]),
        "end_error": int(sm["end_error"]),
    }])
    return {"team_pairs": pairs, "team_heroes": heroes, "team_pairings": pairings, "team_summary": summary}


def _pair_name(p: str, names: dict) -> str:
    """A hero pair's display name, 'Medusa + Sinbad' (a '+' as in `duel A+B C+D`: a display name
    may hold an '&', 'Dr. Jekyll & Mr. Hyde + Medusa')."""
    return " + ".join(names.get(k, k) for k in p.split("+"))


def plot_pairs(pairs: pd.DataFrame, names: dict):
    """Horizontal bars: each pair's score with its 95% Wilson interval, best on top.

    ``pairs``: the ``team_pairs`` table (``pair`` as ``"a+b"`` hero keys, ``score``,
    ``lo``, ``hi``); ``names``: hero key -> display name. Returns a matplotlib Figure.
    """
    p = pairs.iloc[::-1]
    fig = Figure(figsize=(8, max(3.0, 0.22 * len(p) + 1)))
    ax = fig.add_subplot(111)
    y = np.arange(len(p))
    ax.barh(y, p["score"], color=["#2b6cb0" if s >= 0.5 else "#c53030" for s in p["score"]], alpha=0.8)
    ax.errorbar(p["score"], y, xerr=[p["score"] - p["lo"], p["hi"] - p["score"]], fmt="none", ecolor="black",
                lw=0.8, capsize=2)
    ax.axvline(0.5, color="grey", lw=0.8, ls="--")
    ax.set_yticks(y)
    ax.set_yticklabels([_pair_name(x, names) for x in p["pair"]], fontsize=7)
    ax.set_xlim(0, 1)
    ax.set_xlabel("score as a team (wins + draws/2) with 95% Wilson interval")
    ax.set_title("Hero pairs as teams")
    return fig


def summary_text(tables: dict, manifest: dict, top: int = 10) -> str:
    """A plain-text summary: setup, the best and worst pairs, the heroes' contributions.

    ``tables``: :func:`team_tables`; ``manifest``: the run's manifest; ``top``: how many
    of the best (and of the weakest) pairs to list. Returns the lines joined by newlines.
    """
    names = hero_names(manifest)
    s = manifest["settings"]
    sm = tables["team_summary"].iloc[0]
    pairs, heroes = tables["team_pairs"], tables["team_heroes"]
    lines = [f"Team run: {int(sm['games'])} games over {int(sm['pairings'])} pairings of {len(s['heroes'])} heroes "
             f"({s['games_per_pairing']} per pairing), {plural(len(s['battlefields']), 'battlefield')}, AI {s['ai']}.",
             f"Team moving first (seat 1): {pct(sm['first_team_score'])} [{pct(sm['first_lo'])}–{pct(sm['first_hi'])}]; "
             f"draws {int(sm['draws'])}; mean {sm['mean_turns']:.1f} turns.", "",
             "Best hero pairs (score as a team, 95% interval, games):"]
    for _, r in pairs.head(top).iterrows():
        lines.append(f"  {_pair_name(r['pair'], names):<42} {pct(r['score']):>6} [{pct(r['lo'])}–{pct(r['hi'])}] "
                     f"{int(r['games'])}")
    if len(pairs) > top:
        lines.append("Weakest hero pairs:")
        for _, r in pairs.tail(min(top, len(pairs) - top)).iterrows():
            lines.append(f"  {_pair_name(r['pair'], names):<42} {pct(r['score']):>6} [{pct(r['lo'])}–{pct(r['hi'])}] "
                         f"{int(r['games'])}")
    lines += ["", "Heroes (score of their teams, damage dealt per game, share of the team's damage, "
              "survived, last hero standing in the team's wins):"]
    for _, r in heroes.iterrows():
        lines.append(f"  {names.get(r['hero'], r['hero']):<22} {pct(r['score']):>6} [{pct(r['lo'])}–{pct(r['hi'])}] "
                     f"dealt {r['dealt']:5.1f}  share {pct(r['dealt_share']):>6}  survived {pct(r['survived']):>6}  "
                     f"last standing {pct(r['last_standing']):>6}")
    return "\n".join(lines)


def _display(tables: dict, names: dict) -> dict:
    p = tables["team_pairs"].copy()
    p["pair"] = [_pair_name(x, names) for x in p["pair"]]
    h = tables["team_heroes"].copy()
    h["hero"] = [names.get(x, x) for x in h["hero"]]
    return {"pairs": p, "heroes": h}


MARKDOWN_PERCENT = frozenset({"score", "lo", "hi", "synergy", "dealt_share", "survived", "last_standing", "first_team_score"})
"""Columns the Markdown tables show as percentages (``synergy`` as signed points)."""


def _markdown_table(df: pd.DataFrame) -> str:
    def fmt(c, v):
        if isinstance(v, (float, np.floating)):
            if c in MARKDOWN_PERCENT:
                return pct(v) if c != "synergy" else pts(v, " pts")
            return f"{v:.1f}"
        return str(v)
    head = "| " + " | ".join(df.columns) + " |\n|" + "|".join("---" for _ in df.columns) + "|\n"
    return head + "".join("| " + " | ".join(fmt(c, v) for c, v in zip(df.columns, row)) + " |\n"
                          for row in df.itertuples(index=False))


EXPLAIN = ("score = (wins + draws/2) / games, with a Wilson 95% interval [lo, hi]. synergy = the pair's score "
           "minus the mean of its two heroes' scores. dealt = mean damage (health) dealt to opposing fighters per "
           "game by the hero's player (hero and sidekicks, attacks and effects); dealt_share = mean share of the "
           "team's damage; survived = share of games the hero was standing at the end; last_standing = share of "
           "the team's wins in which this hero was the team's last hero standing.")


def build_teams_report(run_dir, out_dir=None) -> TeamsReport:
    """Build the tables, plot, Markdown and HTML of a team run folder (see the module doc).

    Raises ``sim.runs.errors.RunError`` if ``run_dir`` is not a run folder, ValueError if it
    is not a team run or holds no finished game, OSError if ``out_dir`` cannot be written."""
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    if manifest["settings"].get("mode") != TEAMS_MODE:
        raise ValueError(f"{run_dir} is not a team run (made by `unmatched-sim teams`)")
    parts = scan_frames(run_dir, TEAM_REPORT_COLUMNS, team_partials)    # streamed, batch by batch
    if not parts:
        raise ValueError(run_progress(run_dir, manifest).no_games(run_dir, "teams"))
    tables = team_tables(combine_partials(parts))
    out = report_dirs(run_dir, out_dir)
    csv, pq, png = {}, {}, {}
    write_tables(out, tables, tables, csv, pq)
    names = hero_names(manifest)
    pngs = write_pngs(out, {"team_pairs": plot_pairs(tables["team_pairs"], names)}, png, DPI)
    summary = summary_text(tables, manifest)
    progress = run_progress(run_dir, manifest)
    banner = unfinished_lines(progress, progress.games_stored)
    summary = "\n".join(banner + [""] + [summary]) if banner else summary
    disp = _display(tables, names)
    s = manifest["settings"]
    md = ["# Team games report", "", f"Run folder `{run_dir}`; AI profile `{s['ai']}`, run seed {s['seed']}, "
          f"battlefields {', '.join(s['battlefields'])}; {s['games_per_pairing']} games per pairing "
          f"(--games {s['games']} rounded up to a multiple of the {s['pairings']} pairings).", "",
          "```", summary, "```", "", EXPLAIN, "", "## Hero pairs", "", _markdown_table(disp["pairs"]), "",
          "## Heroes", "", _markdown_table(disp["heroes"]), "", "![pairs](plots/team_pairs.png)", ""]
    mdp = write_text(out / "teams.md", "\n".join(md))
    body = (f"<h1>Team games report</h1><p class='note'>{html.escape(md[2])}</p><pre>{html.escape(summary)}</pre>"
            f"<p class='note'>{html.escape(EXPLAIN)}</p><h2>Hero pairs</h2>"
            f"<img alt='pair scores' src='{png_data_uri(pngs['team_pairs'])}'>"
            + table_html(disp["pairs"]) + "<h2>Heroes</h2>" + table_html(disp["heroes"])
            + "<h2>Summary</h2>" + table_html(tables["team_summary"]))
    htp = write_text(out / "teams.html", f"<!doctype html><html><head><meta charset='utf-8'><title>Team games report"
                     f"</title><style>{CSS}</style></head><body>{body}</body></html>")
    return TeamsReport(out, htp, tables, summary, csv, pq, png, markdown=mdp)
