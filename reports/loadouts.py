"""The loadouts report: which gear loadout of a hero is best, and against whom?

Reads a loadouts run folder (``sim.runs.versus.plan_loadouts``) and writes, into
``RUN_DIR/report``: ``tables/*.csv`` and ``*.parquet``, ``plots/*.png`` and a
self-contained ``loadouts.html``. From Python::

    from reports.loadouts import build_loadouts_report
    rep = build_loadouts_report("runs/geralt")
    rep.tables["best"]        # one row per opponent (and "all"): the best loadout
    print(rep.summary)

Statistics (draws count half a win everywhere):

- each loadout's score per opponent and over all opponents, with a Wilson 95%
  interval;
- per opponent (and over all), Pearson's chi-square test of homogeneity across the
  loadouts. Null hypothesis: *every loadout wins equally often against this
  opponent*. The p-values of the opponents' tests (and the pooled one) are Holm-
  corrected as one family;
- every pair of loadouts, two-proportion z-tests Holm-corrected over the pairs of
  that opponent. Null hypothesis: *these two loadouts win equally often*. A loadout
  "ties with the best" when its pair with the best loadout is not significant;
- the effect of each gear choice with the others held fixed: for an option of a
  choice group against the group's first option, the score difference within each
  combination of the other groups' options, averaged over those combinations (the
  main effect of a factorial design), with a normal 95% interval from the per-game
  score variances; Holm-corrected over the hero's gear contrasts per opponent. Null
  hypothesis: *swapping this gear for the reference changes nothing, on average*.

The statistics are computed in :mod:`reports.loadout_stats` (re-exported here); this
module builds the tables of a loadouts run, its summary and its HTML page.
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

import pandas as pd

from sim.runs.store import read_manifest

from . import loadout_plots as P
from .format import ALL_OPPONENTS, by_name, hero_names, opponent_label, pct, plural, pts, pvalue
from .loadout_stats import ALPHA, gear_effects, hero_groups, loadout_scores, loadout_tests, matrix_loadout_tables
from .render import (REPORT_DIR, ReportFiles, Sections, img, page, report_dirs, table_html, write_pngs, write_tables,
    write_text)
from .status import no_games_lines, run_progress, unfinished_lines
from .stream import scan_duels
from .tables import sides, variant_label

TABLES = ("scores", "best", "tests", "pairs", "gear_effects", "gear_by_combination")

__all__ = ["ALL_OPPONENTS", "ALPHA", "REPORT_DIR", "TABLES", "LoadoutsReport", "build_loadouts_report", "gear_effects",
           "hero_groups", "loadout_scores", "loadout_tables", "loadout_tests", "matrix_loadout_tables", "summary_text",
           "write_loadouts_html"]


@dataclass
class LoadoutsReport(ReportFiles):
    """What :func:`build_loadouts_report` wrote: ``out_dir``, ``html`` path, the
    ``tables`` (see :func:`loadout_tables`), ``summary`` text and the ``csv`` /
    ``parquet`` / ``png`` paths by name."""


def loadout_tables(games: pd.DataFrame, settings: dict, alpha: float = ALPHA) -> dict:
    """Every loadouts table from a run's per-game rows.

    ``games``: the outcome counts of a loadouts run (``reports.stream.scan_duels(run).outcomes``)
    or its per-game rows (``sim.runs.store.read_games``); ``settings``: its manifest
    settings (``hero``, ``loadouts``, ``groups``). Returns a dict of DataFrames:
    ``scores`` (:func:`loadout_scores`), ``tests``, ``pairs``, ``best``
    (:func:`loadout_tests`), ``gear_effects``, ``gear_by_combination``
    (:func:`gear_effects`). Raises ValueError if no game of the hero is stored.
    """
    hero = settings["hero"]
    s = sides(games)
    s = s[s["hero"] == hero]
    if len(s) == 0:
        raise ValueError(f"no games of {hero} are stored yet")
    scores = loadout_scores(s, list(settings["loadouts"]))
    tests, pairs, best = loadout_tests(scores, alpha)
    eff, combos = gear_effects(scores, settings["groups"], alpha)
    return {"scores": scores, "tests": tests, "pairs": pairs, "best": best, "gear_effects": eff,
            "gear_by_combination": combos}


def summary_text(tables: dict, manifest: dict) -> str:
    """Plain-text summary: the best loadout overall and per opponent with intervals,
    whether the loadouts differ, and the overall gear effects."""
    s = manifest["settings"]
    names = hero_names(manifest)
    best = tables["best"].set_index("opponent")
    n_games = tables.get("n_games")
    lines = [f"{names.get(s['hero'], s['hero'])}: {len(s['loadouts'])} loadouts against "
             f"{plural(len(s['opponents']), 'opponent')} on {plural(len(s['battlefields']), 'battlefield')}; "
             f"{s['games_per_loadout']} games per loadout"
             + (f" (asked {s['games_requested']}; rounded up so every opponent, battlefield and seat gets the same "
                "number)" if s["games_per_loadout"] != s["games_requested"] else "")
             + (f", {n_games} games in all." if n_games is not None else ".")]
    if "variant" in s:
        lines.append(f"Variant: {variant_label(s['variant'], [s['hero'], *s['opponents']])}.")
    a = best.loc[ALL_OPPONENTS]
    t = tables["tests"].set_index("opponent").loc[ALL_OPPONENTS]
    lines.append(f"Best loadout overall: {a['best_loadout']} {pct(a['score'])} [{pct(a['lo'])}, {pct(a['hi'])}]; "
                 f"worst {a['worst_loadout']} {pct(a['worst_score'])}.")
    if t["too_few"]:
        lines.append(f"Whether the loadouts differ overall: {t['too_few']}.")
    else:
        verdict = "differ significantly" if t["significant"] else "do not differ significantly"
        lines.append(f"The loadouts {verdict} overall (chi-square {t['chi2']:.1f}, df {int(t['df'])}, "
                     f"p {pvalue(t['p'])}, Holm {pvalue(t['p_holm'])}); "
                     + (f"not significantly worse than the best: {a['ties'].replace(';', ', ')}." if a["n_ties"]
                        else "the best is significantly better than every other loadout."))
    ow = max([18] + [len(names.get(o, o)) + 2 for o in best.index if o != ALL_OPPONENTS])
    lines += ["", f"{'opponent':<{ow}}{'best loadout':<32}{'score':>7}  {'95% interval':<16}{'differ?':<9}ties"]
    few = []
    for opp, r in by_name(tables["best"], names).set_index("opponent").iterrows():      # (by name, as read)
        if opp == ALL_OPPONENTS:
            continue
        interval = f"[{pct(r['lo'])}, {pct(r['hi'])}]"
        name = opponent_label(opp, names)
        few += [f"{name} {r['games_needed']:.0f}" if r["games_needed"] < float("inf") else f"{name} (same result "
                "every game)"] if r["too_few"] else []
        lines.append(f"{name:<{ow}}{r['best_loadout']:<32}{pct(r['score']):>7}  {interval:<16}"
                     f"{'too few' if r['too_few'] else 'yes' if r['differ'] else 'no':<9}{r['n_ties']}")
    if few:
        # the games stored (an unfinished run has fewer than its settings plan; a loadout not yet played, none)
        sc = tables["scores"]
        sc = sc[sc["opponent"] != ALL_OPPONENTS]
        fewest = int(sc["games"].min()) if len(sc) == len(s["loadouts"]) * len(s["opponents"]) else 0
        lines.append(f"too few: {fewest} games a loadout per opponent stored; a verdict needs at "
                     f"least {', '.join(few)} (Cochran's rule: 5 expected wins and losses; play more --games)")
    e = tables["gear_effects"]
    e = e[e["opponent"] == ALL_OPPONENTS]
    if len(e):
        lines += ["", "Gear effects over all opponents (other gear held fixed; points of win rate):"]
        for _, r in e.iterrows():
            lines.append(f"  {r['group']}: {r['option']} instead of {r['reference']}: {pts(r['effect'])} "
                         f"[{pts(r['lo'])}, {pts(r['hi'])}], p {pvalue(r['p'])}, Holm {pvalue(r['p_holm'])}"
                         + (" (significant)" if r["significant"] else "" if r["enough_games"] else
                            " (too few games for a verdict)"))
    lines.append("(differ?: chi-square test of homogeneity across the loadouts, Holm-corrected over the opponents; "
                 "too few: fewer games than a verdict needs, every expected count of wins and losses at least 5 "
                 "(Cochran's rule); ties: loadouts not significantly worse than the best, pairwise z-tests "
                 "Holm-corrected)")
    return "\n".join(lines)


def build_loadouts_report(run_dir, out_dir=None) -> LoadoutsReport:
    """Build the loadouts tables, plots and HTML of a loadouts run folder.

    Writes into ``out_dir`` (default ``RUN_DIR/report``): ``tables/loadouts_<name>.csv``
    and ``.parquet`` for each of ``TABLES``, ``plots/loadouts_heatmap.png``,
    ``plots/loadouts_overall.png``, ``plots/gear_effects.png`` and ``loadouts.html``.
    Works on a partly finished run. Raises ``sim.runs.errors.RunError`` if ``run_dir`` is
    not a run folder, ValueError if it is not a loadouts run or holds no game,
    OSError if ``out_dir`` cannot be written.
    """
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    s = manifest["settings"]
    if s.get("mode") != "loadouts":
        raise ValueError(f"{run_dir}: not a loadouts run (made by `unmatched-sim {s.get('mode', 'matrix')}`)")
    counts = scan_duels(run_dir, cards=False)     # streamed: memory does not grow with the run
    if counts.games == 0:
        raise ValueError(run_progress(run_dir, manifest).no_games(run_dir, "loadouts"))
    tables = loadout_tables(counts.outcomes, s)
    out = report_dirs(run_dir, out_dir)
    summary = summary_text(dict(tables, n_games=counts.games), manifest)
    progress = run_progress(run_dir, manifest)
    names = hero_names(manifest)
    banner = unfinished_lines(progress, counts.games)
    if banner:
        sc = tables["scores"]
        sc = sc[(sc["opponent"] != ALL_OPPONENTS) & (sc["games"] > 0)]
        banner += no_games_lines({o: list(s["loadouts"]) for o in s["opponents"]},
                                 set(zip(sc["opponent"], sc["loadout"])), names)
    summary = "\n".join(banner + [""] + [summary]) if banner else summary
    rep = LoadoutsReport(out, out / "loadouts.html", tables, summary)
    write_tables(out, tables, TABLES, rep.csv, rep.parquet, prefix="loadouts_")
    figs = {"loadouts_heatmap": P.plot_loadout_heatmap(tables["scores"], tables["best"], names),
            "loadouts_overall": P.plot_loadout_overall(tables["scores"], tables["best"], names[s["hero"]]),
            "gear_effects": P.plot_gear_effects(tables["gear_effects"], names, names[s["hero"]])}
    pngs = write_pngs(out, figs, rep.png, P.DPI)
    write_loadouts_html(rep.html, tables, pngs, summary, manifest, counts.games, progress.describe())
    return rep


def _best_table(best: pd.DataFrame, tests: pd.DataFrame, names: dict) -> pd.DataFrame:
    t = best.merge(tests[["opponent", "chi2", "df", "p", "p_holm"]], on="opponent")    # (best has too_few)
    t = by_name(t, names, pooled_first=True)                                  # "all" first, then by name
    out = pd.DataFrame({
        "opponent": [opponent_label(o, names) for o in t["opponent"]],
        "best loadout": t["best_loadout"],
        "score [95% interval]": [f"{pct(a)} [{pct(b)}–{pct(c)}]" for a, b, c in zip(t["score"], t["lo"], t["hi"])],
        "games": t["games"],
        "runner-up": [f"{r} ({pct(v)})" for r, v in zip(t["runner_up"], t["runner_up_score"])],
        "worst": [f"{r} ({pct(v)})" for r, v in zip(t["worst_loadout"], t["worst_score"])],
        "loadouts differ? (chi², p Holm)": [few or f"{'yes' if d else 'no'} ({c:.1f}, {pvalue(p)})"
                                            for d, c, p, few in zip(t["differ"], t["chi2"], t["p_holm"],
                                                                    t["too_few"])],
        "not significantly worse than the best": [x.replace(";", ", ") or "(none)" for x in t["ties"]],
    })
    return out


def write_loadouts_html(path, tables: dict, pngs: dict, summary: str, manifest: dict, n_games: int,
                        status: str | None = None) -> Path:
    """Write the loadouts report (self-contained HTML, the matrix report's style) to ``path``.

    ``tables``: :func:`loadout_tables`; ``pngs``: plot name -> PNG bytes
    (``loadouts_heatmap``, ``loadouts_overall``, ``gear_effects``); ``summary``:
    :func:`summary_text`; ``manifest``: the run's manifest; ``n_games``: games stored;
    ``status``: the run's status line (``sim.runs.store.RunProgress.describe``; None: the
    manifest's). Returns the path. Raises OSError if it cannot be written.
    """
    s = manifest["settings"]
    names = hero_names(manifest)
    hero = names.get(s["hero"], s["hero"])
    secs = sum(x.get("seconds", 0) for x in manifest.get("sessions", []))
    sections = Sections()
    sec = sections.add
    rounded = s["games_per_loadout"] != s["games_requested"]
    setup = [("hero", f"{hero} ({s['hero']})"),
             ("choice groups", "; ".join(f"{g}: {', '.join(o)}" for g, o in s["groups"])),
             ("loadouts", f"{len(s['loadouts'])}"),
             ("opponents", ", ".join(names.get(o, o) + (f" ({len(v)} loadouts)" if any(v) else "")
                                     for o, v in s["opponents"].items())),
             ("battlefields", ", ".join(manifest["battlefields"][b]["name"] for b in s["battlefields"])),
             ("--games (games per loadout)", f"{s['games_requested']}"
              + (f", rounded up to {s['games_per_loadout']} so that every opponent, battlefield and seat gets the "
                 "same number" if rounded else "")),
             ("games per loadout per opponent", ", ".join(f"{names.get(o, o)} {n}"
                                                          for o, n in s["games_per_loadout_per_opponent"].items())),
             ("games stored", f"{n_games} of {manifest['games_total']}"),
             ("status", status or manifest.get("status", "")),
             ("AI profile", s["ai"]), ("run seed", s["seed"]),
             ("variant", (f"{variant_label(s['variant'], [s['hero'], *s['opponents']])}, digest {s['variant']['digest']}"
                          if "variant" in s else "none (the hero files as installed)")),
             ("package version", manifest.get("package_version", "")),
             ("engine fingerprint", s["fingerprint"]["engine"]), ("simulation time", f"{secs:.1f} s")]
    sec("run", "Run", table_html(pd.DataFrame(setup, columns=["setting", "value"]), cls="data kv")
        + f"<pre>{html.escape(summary)}</pre>")
    sec("best", "Best loadout per opponent",
        '<p class="note">The best loadout is the one with the highest score (wins + draws/2, per game) against '
        'that opponent; intervals are 95% Wilson score intervals. <i>Loadouts differ?</i>: Pearson\'s chi-square '
        'test of homogeneity across the loadouts (null hypothesis: every loadout wins equally often against this '
        'opponent), Holm-corrected over the opponents and the pooled row; <i>too few games</i> instead of a '
        'verdict when an expected count of wins or losses of a loadout is below 5 (Cochran\'s rule). '
        '<i>Not significantly worse than the '
        'best</i>: the loadouts whose two-proportion z-test against the best is not significant after Holm\'s '
        'correction over all pairs of loadouts for that opponent; a long list means the data cannot tell them '
        'apart, so more games (or no real difference).</p>'
        + table_html(_best_table(tables["best"], tables["tests"], names)))
    sec("heatmap", "Every loadout against every opponent",
        img(pngs["loadouts_heatmap"], "loadout by opponent heatmap") + img(pngs["loadouts_overall"], "overall"))
    sec("gear", "Effect of each gear choice",
        '<p class="note">Each row: how much the score changes when this option replaces the reference option of '
        'its choice group, with the other groups\' choices held fixed: the difference is taken within each '
        'combination of the other gear, then averaged over the combinations (a factorial main effect). Points of '
        'win rate; normal 95% interval; two-sided z-test (null hypothesis: on average this swap changes nothing), '
        'Holm-corrected over the gear contrasts of each opponent.</p>'
        + img(pngs["gear_effects"], "gear effects")
        + table_html(_gear_table(tables["gear_effects"], names))
        + "<details><summary>per combination of the other gear</summary>"
        + table_html(tables["gear_by_combination"]) + "</details>")
    sc = tables["scores"].drop(columns=["var", "points"])
    sec("tables", "All numbers",
        "<details><summary>scores of every loadout against every opponent</summary>" + table_html(sc) + "</details>"
        + "<details><summary>homogeneity tests</summary>" + table_html(tables["tests"]) + "</details>"
        + "<details><summary>every pair of loadouts (z-tests, Holm within each opponent)</summary>"
        + table_html(tables["pairs"], max_rows=400) + "</details>"
        + '<p class="note">CSV and Parquet files of every table are in <code>tables/</code> next to this '
          'report.</p>')
    return write_text(path, page(f"unmatched-sim loadouts: {hero}",
                                 f"{html.escape(hero)}: which loadout is best, and against whom?", sections.html()))


def _gear_table(eff: pd.DataFrame, names: dict) -> pd.DataFrame:
    if len(eff) == 0:
        return eff
    e = eff.copy()
    e["_all"] = e["opponent"] != ALL_OPPONENTS
    e = e.sort_values(["_all", "opponent", "group", "option"], kind="stable")
    return pd.DataFrame({
        "opponent": [opponent_label(o, names) for o in e["opponent"]],
        "gear": [f"{g}: {o} instead of {r}" for g, o, r in zip(e["group"], e["option"], e["reference"])],
        "effect (points) [95% interval]": [f"{pts(a)} [{pts(b)}, {pts(c)}]" for a, b, c in
                                           zip(e["effect"], e["lo"], e["hi"])],
        "p": [pvalue(v) for v in e["p"]], "p Holm": [pvalue(v) for v in e["p_holm"]],
        "significant": ["yes" if v else "no" if ok else "too few games" for v, ok in zip(e["significant"],
                                                                                        e["enough_games"])],
    })
