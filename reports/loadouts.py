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
"""
from __future__ import annotations

import html
import io
import itertools
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from .stats import Z95, holm, homogeneity_test, pairwise_tests, wilson
from .tables import sides

ALL_OPPONENTS = "all"
ALPHA = 0.05
TABLES = ("scores", "best", "tests", "pairs", "gear_effects", "gear_by_combination")
REPORT_DIR = "report"


@dataclass
class LoadoutsReport:
    """What :func:`build_loadouts_report` wrote: ``out_dir``, ``html`` path, the
    ``tables`` (see :func:`loadout_tables`), ``summary`` text and the ``csv`` /
    ``parquet`` / ``png`` paths by name."""

    out_dir: Path
    html: Path
    tables: dict
    summary: str
    csv: dict = field(default_factory=dict)
    parquet: dict = field(default_factory=dict)
    png: dict = field(default_factory=dict)


def _cells(s: pd.DataFrame, by: list[str]) -> pd.DataFrame:
    """games, wins, draws, losses, points and sum of squared scores per group."""
    g = s.assign(sq=s["score"] ** 2).groupby(by, sort=True, observed=True).agg(
        games=("win", "size"), wins=("win", "sum"), draws=("draw", "sum"), losses=("loss", "sum"),
        points=("score", "sum"), sq=("sq", "sum"))
    return g.reset_index()


def loadout_scores(s: pd.DataFrame, loadouts: list[str]) -> pd.DataFrame:
    """Each loadout's score per opponent and over all opponents.

    ``s``: :func:`reports.tables.sides` rows of the hero (one per game); ``loadouts``:
    the hero's loadout names in file order. Rows (opponent, loadout) with ``games``,
    ``wins``, ``draws``, ``losses``, ``score`` (float, draws half), ``lo``/``hi``
    (Wilson 95%), ``var`` (per-game variance of the score), ``rank`` (1 = best
    against that opponent). Opponent ``"all"`` pools every opponent.
    """
    per = _cells(s, ["opponent", "loadout"])
    pooled = _cells(s, ["loadout"]).assign(opponent=ALL_OPPONENTS)
    t = pd.concat([per, pooled[per.columns]], ignore_index=True)
    g = t["games"].to_numpy(float)
    with np.errstate(invalid="ignore", divide="ignore"):
        t["score"] = t["points"] / g
        t["var"] = t["sq"] / g - t["score"] ** 2
    t["lo"], t["hi"] = wilson(t["points"].to_numpy(float), g)
    order = {lo: i for i, lo in enumerate(loadouts)}
    t["_o"] = t["loadout"].map(order)
    t["rank"] = t.groupby("opponent")["score"].rank(ascending=False, method="min").astype(int)
    opp_order = sorted(set(t["opponent"]) - {ALL_OPPONENTS}) + [ALL_OPPONENTS]
    t["_p"] = t["opponent"].map({o: i for i, o in enumerate(opp_order)})
    t = t.sort_values(["_p", "_o"]).drop(columns=["_o", "_p", "sq"]).reset_index(drop=True)
    return t[["opponent", "loadout", "games", "wins", "draws", "losses", "points", "score", "lo", "hi", "var", "rank"]]


def loadout_tests(scores: pd.DataFrame, alpha: float = ALPHA) -> tuple[pd.DataFrame, pd.DataFrame, pd.DataFrame]:
    """The significance tests across the loadouts, per opponent and over all.

    ``scores``: :func:`loadout_scores`. Returns ``(tests, pairs, best)``:

    - ``tests``: one row per opponent: ``chi2``, ``df``, ``p`` (Pearson homogeneity
      across the loadouts), ``p_holm`` (Holm over all rows), ``significant``;
    - ``pairs``: per opponent every pair of loadouts (:func:`reports.stats.pairwise_tests`,
      Holm within the opponent);
    - ``best``: per opponent the best loadout with ``score``, ``lo``, ``hi``, ``games``,
      the runner-up and ``gap`` (best minus runner-up score), ``differ`` (the omnibus
      test is significant after Holm), ``ties`` (loadouts whose difference from the best
      is not significant after Holm, ';'-joined) and ``n_ties``.
    """
    test_rows, pair_frames, best_rows = [], [], []
    for opp, g in scores.groupby("opponent", sort=False):
        t = homogeneity_test(g["points"].to_numpy(float), g["games"].to_numpy(float))
        test_rows.append({"opponent": opp, "loadouts": len(g), "games": int(g["games"].sum()),
                          "chi2": t.statistic, "df": t.df, "p": t.pvalue})
        pr = pairwise_tests(g["loadout"].tolist(), g["points"].to_numpy(float), g["games"].to_numpy(float), alpha)
        pair_frames.append(pr.assign(opponent=opp))
        ranked = g.sort_values(["score", "loadout"], ascending=[False, True], kind="stable")
        b = ranked.iloc[0]
        second = ranked.iloc[1] if len(ranked) > 1 else None
        ties = []
        for lo in ranked["loadout"].iloc[1:]:
            row = pr[((pr["a"] == b["loadout"]) & (pr["b"] == lo)) | ((pr["b"] == b["loadout"]) & (pr["a"] == lo))]
            if len(row) and not bool(row["significant"].iloc[0]):
                ties.append(lo)
        best_rows.append({"opponent": opp, "best_loadout": b["loadout"], "score": b["score"], "lo": b["lo"],
                          "hi": b["hi"], "games": int(b["games"]),
                          "runner_up": second["loadout"] if second is not None else "",
                          "runner_up_score": second["score"] if second is not None else np.nan,
                          "gap": b["score"] - second["score"] if second is not None else np.nan,
                          "worst_loadout": ranked.iloc[-1]["loadout"], "worst_score": ranked.iloc[-1]["score"],
                          "ties": ";".join(ties), "n_ties": len(ties)})
    tests = pd.DataFrame(test_rows)
    tests["p_holm"], tests["significant"] = holm(tests["p"].to_numpy(float), alpha)
    best = pd.DataFrame(best_rows)
    best["differ"] = best["opponent"].map(tests.set_index("opponent")["significant"])
    pairs = pd.concat(pair_frames, ignore_index=True)
    pairs = pairs[["opponent"] + [c for c in pairs.columns if c != "opponent"]]
    return tests, pairs, best


def _parse(lo: str, groups) -> dict:
    return dict(zip([g for g, _ in groups], lo.split("+")))


def gear_effects(scores: pd.DataFrame, groups, alpha: float = ALPHA) -> tuple[pd.DataFrame, pd.DataFrame]:
    """The effect of each single gear choice with the other choices held fixed.

    ``scores``: :func:`loadout_scores`; ``groups``: the hero's choice groups as
    ``[(group, [option, ...]), ...]`` (loadout names are one option per group joined
    by '+', in group order). For each group and each option after the first (the
    reference), within every combination of the other groups' options the score
    difference option minus reference and its variance (sum of the two loadouts'
    per-game score variances over their games) are computed
    (``by_combination``); the effect is their mean over the combinations, with
    standard error sqrt(sum of variances) / combinations, a normal 95% interval,
    a two-sided z-test p-value and Holm's correction over the hero's contrasts per
    opponent. Returns ``(effects, by_combination)``: effects rows (opponent, group,
    option, reference, effect, lo, hi, se, z, p, p_holm, significant, combinations);
    by_combination rows (opponent, group, option, reference, fixed, difference, lo, hi).
    Differences are in score units (0.01 = one point of win rate).
    """
    from scipy.stats import norm
    groups = [(g, list(o)) for g, o in groups]
    eff_rows, combo_rows = [], []
    for opp, g in scores.groupby("opponent", sort=False):
        cell = {tuple(_parse(lo, groups)[gn] for gn, _ in groups): r for lo, r in
                zip(g["loadout"], g.itertuples(index=False))}
        first = len(eff_rows)
        for gi, (gname, opts) in enumerate(groups):
            others = [o for j, (_, o) in enumerate(groups) if j != gi]
            other_names = [n for j, (n, _) in enumerate(groups) if j != gi]
            ref = opts[0]
            for opt in opts[1:]:
                diffs, vars_ = [], []
                for fixed in itertools.product(*others):
                    def key(choice):
                        k = list(fixed)
                        k.insert(gi, choice)
                        return tuple(k)
                    a, b = cell.get(key(opt)), cell.get(key(ref))
                    if a is None or b is None or a.games == 0 or b.games == 0:
                        continue
                    d = a.score - b.score
                    v = a.var / a.games + b.var / b.games
                    diffs.append(d)
                    vars_.append(v)
                    se_c = np.sqrt(v)
                    combo_rows.append({"opponent": opp, "group": gname, "option": opt, "reference": ref,
                                       "fixed": "+".join(f"{n}={c}" for n, c in zip(other_names, fixed)) or "-",
                                       "difference": d, "lo": d - Z95 * se_c, "hi": d + Z95 * se_c})
                k = len(diffs)
                if k == 0:
                    continue
                eff = float(np.mean(diffs))
                se = float(np.sqrt(np.sum(vars_)) / k)
                z = eff / se if se > 0 else (0.0 if eff == 0 else np.inf)
                p = float(2 * norm.sf(abs(z))) if np.isfinite(z) else 0.0
                eff_rows.append({"opponent": opp, "group": gname, "option": opt, "reference": ref, "effect": eff,
                                 "lo": eff - Z95 * se, "hi": eff + Z95 * se, "se": se, "z": z, "p": p,
                                 "combinations": k})
        fam = eff_rows[first:]
        if fam:
            adj, rej = holm([r["p"] for r in fam], alpha)
            for r, a, j in zip(fam, adj, rej):
                r["p_holm"], r["significant"] = float(a), bool(j)
    cols = ["opponent", "group", "option", "reference", "effect", "lo", "hi", "se", "z", "p", "p_holm",
            "significant", "combinations"]
    return pd.DataFrame(eff_rows, columns=cols), pd.DataFrame(
        combo_rows, columns=["opponent", "group", "option", "reference", "fixed", "difference", "lo", "hi"])


def loadout_tables(games: pd.DataFrame, settings: dict, alpha: float = ALPHA) -> dict:
    """Every loadouts table from a run's per-game rows.

    ``games``: ``sim.runs.store.read_games`` of a loadouts run; ``settings``: its manifest
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


def _n(k: int, word: str) -> str:
    return f"{k} {word}" + ("" if k == 1 else "s")


def hero_groups(info: dict) -> list:
    """A hero's choice groups from its manifest entry (``sim.runs.plan.hero_facts``):
    ``[(group, [option, ...]), ...]``; for manifests written before groups were
    recorded, derived from the loadout names (groups named ``gear 1``, ``gear 2``...)."""
    if info.get("groups"):
        return [(g, list(o)) for g, o in info["groups"]]
    parts = [lo.split("+") for lo in info["loadouts"] if lo]
    if not parts:
        return []
    out = []
    for i in range(len(parts[0])):
        opts = list(dict.fromkeys(p[i] for p in parts))
        out.append((f"gear {i + 1}", opts))
    return out


def matrix_loadout_tables(s: pd.DataFrame, hero_info: dict, alpha: float = ALPHA) -> tuple[pd.DataFrame, pd.DataFrame]:
    """Best loadout per opponent and gear effects for every hero with choice groups in a
    matrix run (mirror games excluded). ``s``: :func:`reports.tables.sides`;
    ``hero_info``: the manifest's heroes. Returns ``(best, effects)`` as in
    :func:`loadout_tests` and :func:`gear_effects`, each with a leading ``hero``
    column (empty frames when no hero has loadouts)."""
    bests, effs = [], []
    for hero, info in hero_info.items():
        groups = hero_groups(info)
        rows = s[(s["hero"] == hero) & ~s["mirror"]]
        if not groups or len(rows) == 0:
            continue
        scores = loadout_scores(rows, list(info["loadouts"]))
        _, _, best = loadout_tests(scores, alpha)
        eff, _ = gear_effects(scores, groups, alpha)
        bests.append(best.assign(hero=hero))
        effs.append(eff.assign(hero=hero))
    if not bests:
        return pd.DataFrame(columns=["hero", "opponent", "best_loadout"]), pd.DataFrame(
            columns=["hero", "opponent", "group", "option", "reference", "effect"])
    best, eff = pd.concat(bests, ignore_index=True), pd.concat(effs, ignore_index=True)
    return best[["hero"] + list(best.columns[:-1])], eff[["hero"] + list(eff.columns[:-1])]


def _pct(v) -> str:
    return "" if pd.isna(v) else f"{v:.1%}"


def _pts(v) -> str:
    return "" if pd.isna(v) else f"{v * 100:+.1f}"


def _p(v) -> str:
    return "" if pd.isna(v) else ("<0.0001" if v < 1e-4 else f"{v:.4f}")


def summary_text(tables: dict, manifest: dict) -> str:
    """Plain-text summary: the best loadout overall and per opponent with intervals,
    whether the loadouts differ, and the overall gear effects."""
    s = manifest["settings"]
    names = {k: v["name"] for k, v in manifest["heroes"].items()}
    best = tables["best"].set_index("opponent")
    n_games = len(tables.get("games", [])) if "games" in tables else None
    lines = [f"{names.get(s['hero'], s['hero'])}: {len(s['loadouts'])} loadouts against "
             f"{_n(len(s['opponents']), 'opponent')} on {_n(len(s['battlefields']), 'battlefield')}; "
             f"{s['games_per_loadout']} games per loadout"
             + (f" (asked {s['games_requested']}; rounded up so every opponent, battlefield and seat gets the same "
                "number)" if s["games_per_loadout"] != s["games_requested"] else "")
             + (f", {n_games} games in all." if n_games is not None else ".")]
    if "variant" in s:
        lines.append(f"Variant: {s['variant']['name']} ({s['variant']['file']}).")
    a = best.loc[ALL_OPPONENTS]
    t = tables["tests"].set_index("opponent").loc[ALL_OPPONENTS]
    lines.append(f"Best loadout overall: {a['best_loadout']} {_pct(a['score'])} [{_pct(a['lo'])}, {_pct(a['hi'])}]; "
                 f"worst {a['worst_loadout']} {_pct(a['worst_score'])}.")
    verdict = "differ significantly" if t["significant"] else "do not differ significantly"
    lines.append(f"The loadouts {verdict} overall (chi-square {t['chi2']:.1f}, df {int(t['df'])}, "
                 f"p {_p(t['p'])}, Holm {_p(t['p_holm'])}); "
                 + (f"not significantly worse than the best: {a['ties'].replace(';', ', ')}." if a["n_ties"]
                    else "the best is significantly better than every other loadout."))
    lines += ["", f"{'opponent':<18}{'best loadout':<32}{'score':>7}  {'95% interval':<16}{'differ?':<9}ties"]
    for opp, r in best.iterrows():
        if opp == ALL_OPPONENTS:
            continue
        interval = f"[{_pct(r['lo'])}, {_pct(r['hi'])}]"
        lines.append(f"{opp:<18}{r['best_loadout']:<32}{_pct(r['score']):>7}  {interval:<16}"
                     f"{'yes' if r['differ'] else 'no':<9}{r['n_ties']}")
    e = tables["gear_effects"]
    e = e[e["opponent"] == ALL_OPPONENTS]
    if len(e):
        lines += ["", "Gear effects over all opponents (other gear held fixed; points of win rate):"]
        for _, r in e.iterrows():
            lines.append(f"  {r['group']}: {r['option']} instead of {r['reference']}: {_pts(r['effect'])} "
                         f"[{_pts(r['lo'])}, {_pts(r['hi'])}], p {_p(r['p'])}, Holm {_p(r['p_holm'])}"
                         + (" (significant)" if r["significant"] else ""))
    lines.append("(differ?: chi-square test of homogeneity across the loadouts, Holm-corrected over the opponents; "
                 "ties: loadouts not significantly worse than the best, pairwise z-tests Holm-corrected)")
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
    from sim.runs.store import read_games, read_manifest

    from . import loadout_plots as P
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    s = manifest["settings"]
    if s.get("mode") != "loadouts":
        raise ValueError(f"{run_dir}: not a loadouts run (made by `unmatched-sim {s.get('mode', 'matrix')}`)")
    games = read_games(run_dir)
    if len(games) == 0:
        raise ValueError(f"{run_dir}: no finished games yet; run `unmatched-sim loadouts` first")
    tables = loadout_tables(games, s)
    out = Path(out_dir) if out_dir is not None else run_dir / REPORT_DIR
    (out / "tables").mkdir(parents=True, exist_ok=True)
    (out / "plots").mkdir(parents=True, exist_ok=True)
    summary = summary_text(dict(tables, games=games), manifest)
    rep = LoadoutsReport(out, out / "loadouts.html", tables, summary)
    for name in TABLES:
        rep.csv[name] = out / "tables" / f"loadouts_{name}.csv"
        tables[name].to_csv(rep.csv[name], index=False)
        rep.parquet[name] = out / "tables" / f"loadouts_{name}.parquet"
        tables[name].to_parquet(rep.parquet[name], index=False)
    names = {k: v["name"] for k, v in manifest["heroes"].items()}
    figs = {"loadouts_heatmap": P.plot_loadout_heatmap(tables["scores"], tables["best"], names),
            "loadouts_overall": P.plot_loadout_overall(tables["scores"], tables["best"], names[s["hero"]]),
            "gear_effects": P.plot_gear_effects(tables["gear_effects"], names, names[s["hero"]])}
    pngs = {}
    for name, fig in figs.items():
        buf = io.BytesIO()
        fig.savefig(buf, format="png", dpi=P.DPI, bbox_inches="tight", facecolor="white")
        pngs[name] = buf.getvalue()
        rep.png[name] = out / "plots" / f"{name}.png"
        rep.png[name].write_bytes(pngs[name])
    write_loadouts_html(rep.html, tables, pngs, summary, manifest, len(games))
    return rep


def _best_table(best: pd.DataFrame, tests: pd.DataFrame, names: dict) -> pd.DataFrame:
    t = best.merge(tests[["opponent", "chi2", "df", "p", "p_holm"]], on="opponent")
    t = t.assign(_all=t["opponent"] != ALL_OPPONENTS).sort_values("_all", kind="stable")   # "all" first
    out = pd.DataFrame({
        "opponent": [("all opponents" if o == ALL_OPPONENTS else names.get(o, o)) for o in t["opponent"]],
        "best loadout": t["best_loadout"],
        "score [95% interval]": [f"{_pct(a)} [{_pct(b)}–{_pct(c)}]" for a, b, c in zip(t["score"], t["lo"], t["hi"])],
        "games": t["games"],
        "runner-up": [f"{r} ({_pct(v)})" for r, v in zip(t["runner_up"], t["runner_up_score"])],
        "worst": [f"{r} ({_pct(v)})" for r, v in zip(t["worst_loadout"], t["worst_score"])],
        "loadouts differ? (chi², p Holm)": [f"{'yes' if d else 'no'} ({c:.1f}, {_p(p)})"
                                            for d, c, p in zip(t["differ"], t["chi2"], t["p_holm"])],
        "not significantly worse than the best": [x.replace(";", ", ") or "(none)" for x in t["ties"]],
    })
    return out


def write_loadouts_html(path, tables: dict, pngs: dict, summary: str, manifest: dict, n_games: int) -> Path:
    """Write the loadouts report (self-contained HTML, the matrix report's style) to ``path``."""
    from .html import CSS, _img, table_html
    s = manifest["settings"]
    names = {k: v["name"] for k, v in manifest["heroes"].items()}
    hero = names.get(s["hero"], s["hero"])
    secs = sum(x.get("seconds", 0) for x in manifest.get("sessions", []))
    sections = []

    def sec(anchor, title, body):
        sections.append((anchor, title, f'<h2 id="{anchor}">{html.escape(title)}</h2>\n{body}'))

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
             ("games stored", f"{n_games} of {manifest['games_total']}"), ("status", manifest.get("status", "")),
             ("AI profile", s["ai"]), ("run seed", s["seed"]),
             ("variant", (f"{s['variant']['name']} ({s['variant']['file']}, digest {s['variant']['digest']})"
                          if "variant" in s else "none (the hero files as installed)")),
             ("package version", manifest.get("package_version", "")),
             ("engine fingerprint", s["fingerprint"]["engine"]), ("simulation time", f"{secs:.1f} s")]
    sec("run", "Run", table_html(pd.DataFrame(setup, columns=["setting", "value"]), cls="data kv")
        + f"<pre>{html.escape(summary)}</pre>")
    sec("best", "Best loadout per opponent",
        '<p class="note">The best loadout is the one with the highest score (wins + draws/2, per game) against '
        'that opponent; intervals are 95% Wilson score intervals. <i>Loadouts differ?</i>: Pearson\'s chi-square '
        'test of homogeneity across the loadouts (null hypothesis: every loadout wins equally often against this '
        'opponent), Holm-corrected over the opponents and the pooled row. <i>Not significantly worse than the '
        'best</i>: the loadouts whose two-proportion z-test against the best is not significant after Holm\'s '
        'correction over all pairs of loadouts for that opponent; a long list means the data cannot tell them '
        'apart, so more games (or no real difference).</p>'
        + table_html(_best_table(tables["best"], tables["tests"], names)))
    sec("heatmap", "Every loadout against every opponent",
        _img(pngs["loadouts_heatmap"], "loadout by opponent heatmap") + _img(pngs["loadouts_overall"], "overall"))
    sec("gear", "Effect of each gear choice",
        '<p class="note">Each row: how much the score changes when this option replaces the reference option of '
        'its choice group, with the other groups\' choices held fixed: the difference is taken within each '
        'combination of the other gear, then averaged over the combinations (a factorial main effect). Points of '
        'win rate; normal 95% interval; two-sided z-test (null hypothesis: on average this swap changes nothing), '
        'Holm-corrected over the gear contrasts of each opponent.</p>'
        + _img(pngs["gear_effects"], "gear effects")
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
    nav = "<nav>" + "".join(f'<a href="#{a}">{html.escape(t)}</a>' for a, t, _ in sections) + "</nav>"
    doc = (f"<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
           f"<title>unmatched-sim loadouts: {html.escape(hero)}</title><style>{CSS}</style></head><body>\n"
           f"<h1>{html.escape(hero)}: which loadout is best, and against whom?</h1>\n{nav}\n"
           + "\n".join(b for _, _, b in sections) + "\n</body></html>\n")
    path = Path(path)
    path.write_text(doc, encoding="utf-8")
    return path


def _gear_table(eff: pd.DataFrame, names: dict) -> pd.DataFrame:
    if len(eff) == 0:
        return eff
    e = eff.copy()
    e["_all"] = e["opponent"] != ALL_OPPONENTS
    e = e.sort_values(["_all", "opponent", "group", "option"], kind="stable")
    return pd.DataFrame({
        "opponent": [("all opponents" if o == ALL_OPPONENTS else names.get(o, o)) for o in e["opponent"]],
        "gear": [f"{g}: {o} instead of {r}" for g, o, r in zip(e["group"], e["option"], e["reference"])],
        "effect (points) [95% interval]": [f"{_pts(a)} [{_pts(b)}, {_pts(c)}]" for a, b, c in
                                           zip(e["effect"], e["lo"], e["hi"])],
        "p": [_p(v) for v in e["p"]], "p Holm": [_p(v) for v in e["p_holm"]],
        "significant": ["yes" if v else "no" for v in e["significant"]],
    })
