"""The compare report: what does a designer variant do to a hero's win rate?

Reads a compare folder (``sim.runs.versus.plan_compare``: ``OUT/baseline`` and
``OUT/variant``, two run folders with the same cells and run seed) and pairs game
*i* of a cell in one run with game *i* of the same cell in the other: both started
from the same seed, so they share the shuffles and every random choice until the
variant first makes a difference (a changed health total changes nothing until a
fighter would have fallen; a changed deck diverges from the first draw). The pairing
removes the variance the two games share, which makes the test far more sensitive
than comparing two independent sets of games.

Statistics: per opponent and over all opponents, the mean of the paired differences
(variant score minus baseline score of the hero, draws counting half) with a t
interval and a one-sample t-test (``reports.stats.paired_difference``). Null
hypothesis: *the variant does not change the hero's expected score against this
opponent*. The p-values of the opponents and the overall row are Holm-corrected as
one family. From Python::

    from reports.compare import build_compare_report
    rep = build_compare_report("runs/arthur_plus4")
    rep.tables["compare"]      # one row per opponent and "all"
"""
from __future__ import annotations

import html
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd

from sim.content.heroes import load_heroes
from sim.content.variants import VariantError, parse_variant
from sim.runs.store import read_game_table, read_manifest
from sim.runs.versus import BASELINE_DIR, VARIANT_DIR

from . import loadout_plots as P
from .format import ALL_OPPONENTS, by_name, hero_names, opponent_label, pct, plural, pts, pvalue
from .render import ReportFiles, img, page, report_dirs, table_html, write_frame, write_pngs, write_text
from .stats import guarded_holm, paired_difference, sample_guard, wilson
from .status import no_games_lines, run_progress, unfinished_lines

ALPHA = 0.05


@dataclass
class CompareReport(ReportFiles):
    """What :func:`build_compare_report` wrote: ``out_dir``, ``html`` path, ``tables``
    (``compare``: see :func:`compare_table`; ``pairs``: :func:`pair_games`), ``summary``
    text, ``csv`` and ``png`` paths (``parquet`` stays empty: the Parquet files are
    written but, as before, not listed)."""


def hero_scores(games: pd.DataFrame, hero: str) -> pd.DataFrame:
    """The hero's score in each game of a versus run (``games``: :func:`read_pair_columns`
    or ``sim.runs.store.read_games``): columns ``matchup_id``,
    ``game_index``, ``opponent``, ``battlefield``, ``seat`` (0 = the hero moved first),
    ``score`` (float64: 1 win, 0.5 draw, 0 loss). One row per game; games in which
    the hero does not play are dropped."""
    first = games["p1_hero"] == hero
    second = games["p2_hero"] == hero
    g = games[first | second]
    seat = np.where(g["p1_hero"] == hero, 0, 1)
    w = g["winner"].to_numpy()
    score = np.where(w < 0, 0.5, np.where(w == seat, 1.0, 0.0))
    return pd.DataFrame({"matchup_id": g["matchup_id"].to_numpy(np.int64),
                         "game_index": g["game_index"].to_numpy(np.int64),
                         "opponent": np.where(seat == 0, g["p2_hero"].to_numpy(object), g["p1_hero"].to_numpy(object)),
                         "battlefield": g["battlefield"].to_numpy(object), "seat": seat.astype(np.int8),
                         "score": score})


#: the columns the compare report reads of each game (a narrow projection: ~30 bytes a game)
PAIR_COLUMNS = ["matchup_id", "game_index", "battlefield", "p1_hero", "p2_hero", "winner"]


def read_pair_columns(run_dir) -> pd.DataFrame:
    """The :data:`PAIR_COLUMNS` of every stored game of a run folder (hero and battlefield
    keys as pandas categoricals), the input of :func:`pair_games`; an empty frame if no
    game is stored. Pairing needs each game's identity, so this is per game, but only
    these six narrow columns."""
    t = read_game_table(run_dir, PAIR_COLUMNS)
    if t is None:
        return pd.DataFrame({c: [] for c in PAIR_COLUMNS})
    for c in ("battlefield", "p1_hero", "p2_hero"):
        t = t.set_column(t.schema.get_field_index(c), c, t.column(c).dictionary_encode())
    return t.to_pandas()


def pair_games(base: pd.DataFrame, var: pd.DataFrame, hero: str) -> pd.DataFrame:
    """Pair the hero's games of the baseline and variant runs by (cell, game index):
    columns ``matchup_id``, ``game_index``, ``opponent``, ``battlefield``, ``seat``,
    ``baseline`` and ``variant`` (the hero's score in each). Only games stored in both
    runs are kept."""
    b = hero_scores(base, hero).rename(columns={"score": "baseline"})
    v = hero_scores(var, hero)[["matchup_id", "game_index", "score"]].rename(columns={"score": "variant"})
    return b.merge(v, on=["matchup_id", "game_index"], how="inner")


def compare_table(pairs: pd.DataFrame, alpha: float = ALPHA) -> pd.DataFrame:
    """Change of the hero's score per opponent and over all (opponent ``"all"``, last).

    ``pairs``: :func:`pair_games`. Columns: ``opponent``, ``games`` (pairs),
    ``baseline`` / ``variant`` (mean scores) with Wilson 95% intervals
    (``baseline_lo`` ...), ``change`` (variant minus baseline), ``lo`` / ``hi``
    (its 95% t interval from the paired differences), ``t``, ``p``, ``enough_games``
    (:func:`reports.stats.sample_guard` of the baseline's and the variant's scores over the
    pairs: Cochran's rule), ``p_holm`` (Holm over the rows with enough games), ``significant``
    (bool; False without enough games), ``verdict`` ("significant rise", "significant fall",
    "no significant change", or ``too few games (...)`` saying how many a verdict needs),
    ``discordant`` (pairs with different outcomes) and ``identical_share`` (share of pairs
    with the same outcome).
    """
    rows = []
    groups = [(o, g) for o, g in pairs.groupby("opponent", sort=True)] + [(ALL_OPPONENTS, pairs)]
    for opp, g in groups:
        b, v = g["baseline"].to_numpy(float), g["variant"].to_numpy(float)
        n = len(g)
        if n >= 2:
            d = paired_difference(b, v, alpha)
            change, lo, hi, t, p, disc = d.mean, d.lo, d.hi, d.t, d.pvalue, d.discordant
        else:
            change = float(v.sum() - b.sum()) if n else np.nan
            lo = hi = t = p = np.nan
            disc = int((b != v).sum())
        blo, bhi = wilson(b.sum(), n) if n else (np.nan, np.nan)
        vlo, vhi = wilson(v.sum(), n) if n else (np.nan, np.nan)
        guard = sample_guard([b.sum(), v.sum()], [n, n])
        rows.append({"opponent": opp, "games": n, "baseline": b.mean() if n else np.nan, "baseline_lo": blo,
                     "baseline_hi": bhi, "variant": v.mean() if n else np.nan, "variant_lo": vlo, "variant_hi": vhi,
                     "change": change, "lo": lo, "hi": hi, "t": t, "p": p, "discordant": disc,
                     "identical_share": 1 - disc / n if n else np.nan, "enough_games": guard.enough,
                     "too_few": guard.reason("paired games" + (" over all opponents" if opp == ALL_OPPONENTS else ""))})
    t = pd.DataFrame(rows)
    t = t.assign(**guarded_holm(t["p"].to_numpy(float), t["enough_games"].to_numpy(bool), alpha))
    t["verdict"] = [few if few else ("significant rise" if c > 0 else "significant fall") if s else
                    "no significant change" for c, s, few in zip(t["change"], t["significant"], t["too_few"])]
    return t.drop(columns="too_few")


def summary_text(table: pd.DataFrame, settings: dict, names: dict, changes: list[str]) -> str:
    """Plain-text summary of :func:`compare_table`.

    ``table``: :func:`compare_table`; ``settings``: the variant run's manifest settings;
    ``names``: hero key -> display name; ``changes``: the variant's changes as text
    (``Variant.describe()``). Returns the summary lines joined by newlines.
    """
    hero = names.get(settings["hero"], settings["hero"])
    v = settings["variant"]
    a = table.set_index("opponent").loc[ALL_OPPONENTS]
    rounded = any(n != settings["games_requested"] for n in settings["games_per_opponent"].values())
    ow = max([18] + [len(opponent_label(o, names)) + 2 for o in table["opponent"] if o != ALL_OPPONENTS])
    lines = [f"Variant {v['name']!r} ({v['file']}): " + ("; ".join(changes) if changes else "(no changes listed)"),
             f"{hero} against {plural(len(settings['opponents']), 'opponent')} on "
             f"{plural(len(settings['battlefields']), 'battlefield')}, "
             f"{int(a['games'])} paired games ({settings['games_requested']} per opponent asked"
             + ("; rounded up so every battlefield, seat and loadout gets the same number" if rounded else "") + ").",
             f"Overall: {pct(a['baseline'])} -> {pct(a['variant'])}, change {pts(a['change'])} points "
             f"[{pts(a['lo'])}, {pts(a['hi'])}], p {pvalue(a['p'])} (Holm {pvalue(a['p_holm'])}): {a['verdict']}.",
             "", f"{'opponent':<{ow}}{'baseline':>9}{'variant':>9}{'change':>8}  {'95% interval':<17}"
                 f"{'p Holm':>8}  verdict"]
    for _, r in by_name(table, names).iterrows():
        if r["opponent"] == ALL_OPPONENTS:
            continue
        interval = f"[{pts(r['lo'])}, {pts(r['hi'])}]"
        lines.append(f"{opponent_label(r['opponent'], names):<{ow}}{pct(r['baseline']):>9}{pct(r['variant']):>9}{pts(r['change']):>8}  "
                     f"{interval:<17}{pvalue(r['p_holm']):>8}  {r['verdict']}")
    lines.append("(paired games: same seeds with and without the variant; change in points of win rate, draws half; "
                 "paired t-test, Holm-corrected over the opponents and the overall row)")
    return "\n".join(lines)


def build_compare_report(out, out_dir=None) -> CompareReport:
    """Build the compare table, plot and HTML of a compare folder ``out``.

    Writes into ``out_dir`` (default ``OUT/report``): ``tables/compare.csv`` /
    ``.parquet``, ``tables/compare_pairs.parquet`` (one row per paired game),
    ``plots/compare.png`` and ``compare.html``. Raises ``sim.runs.errors.RunError`` if
    ``OUT/baseline`` or ``OUT/variant`` is not a run folder, ValueError if no paired
    game is stored yet.
    """
    out = Path(out)
    mb, mv = read_manifest(out / BASELINE_DIR), read_manifest(out / VARIANT_DIR)
    s = mv["settings"]
    pairs = pair_games(read_pair_columns(out / BASELINE_DIR), read_pair_columns(out / VARIANT_DIR), s["hero"])
    if len(pairs) == 0:
        busy = [p for p in (run_progress(out / h, m) for h, m in ((BASELINE_DIR, mb), (VARIANT_DIR, mv))) if p.locked]
        raise ValueError(busy[0].no_games(out, "compare") if busy else
                         f"{out}: no paired games stored yet; rerun its `unmatched-sim compare` command to play them")
    table = compare_table(pairs)
    names = hero_names(mv)
    changes = _changes(mv)
    summary = summary_text(table, s, names, changes)
    banner, status = [], []
    for half, label in ((BASELINE_DIR, "BASELINE RUN"), (VARIANT_DIR, "VARIANT RUN")):
        prog = run_progress(out / half, mb if half == BASELINE_DIR else mv)
        banner += unfinished_lines(prog, prog.games_stored, label=label)
        status.append(prog.describe())
    if banner:
        banner.append(f"The comparison pairs the {plural(int(table['games'].iloc[-1]), 'game')} stored in both runs.")
        rows = table[(table["opponent"] != ALL_OPPONENTS) & (table["games"] > 0)]
        banner += no_games_lines({o: [""] for o in s["opponents"] if o != s["hero"]},
                                 {(o, "") for o in rows["opponent"]}, names, "paired games")
        summary = "\n".join(banner + [""] + [summary])
    od = report_dirs(out, out_dir)
    rep = CompareReport(od, od / "compare.html", {"compare": table, "pairs": pairs}, summary)
    rep.csv["compare"] = od / "tables" / "compare.csv"
    write_frame(table, rep.csv["compare"])
    write_frame(table, od / "tables" / "compare.parquet")
    write_frame(pairs, od / "tables" / "compare_pairs.parquet")
    fig = P.plot_compare(table, names, names.get(s["hero"], s["hero"]), s["variant"]["name"])
    pngs = write_pngs(od, {"compare": fig}, rep.png, P.DPI)
    _write_html(rep.html, table, pngs["compare"], summary, mb, mv, names, changes, status)
    return rep


def _changes(manifest: dict) -> list[str]:
    """The variant's changes as text, recomputed from the recorded overrides and the
    installed hero files (empty if they cannot be read)."""
    s = manifest["settings"]["variant"]
    try:
        specs = load_heroes(None, tuple(manifest.get("extra_hero_paths") or ()))[0]
        v = parse_variant({"name": s["name"], "hero": s["heroes"]}, s["file"], specs)
    except (VariantError, ValueError, OSError):
        return []
    return v.describe()


def _write_html(path, table, png, summary, mb, mv, names, changes, status=("", "")) -> Path:
    s = mv["settings"]
    hero = names.get(s["hero"], s["hero"])
    v = s["variant"]
    secs = sum(x.get("seconds", 0) for m in (mb, mv) for x in m.get("sessions", []))
    rounded = any(n != s["games_requested"] for n in s["games_per_opponent"].values())
    setup = pd.DataFrame([
        ("hero", f"{hero} ({s['hero']})" + (f", loadouts: {', '.join(s['loadouts'])}" if any(s["loadouts"]) else "")),
        ("variant", f"{v['name']} ({v['file']}, digest {v['digest']})"),
        ("changes", "; ".join(changes) or "(see the variant file)"),
        ("opponents", ", ".join(names.get(o, o) for o in s["opponents"])),
        ("battlefields", ", ".join(mv["battlefields"][b]["name"] for b in s["battlefields"])),
        ("--games (games per opponent)", f"{s['games_requested']}" + (
            "; rounded up so that every battlefield, seat and loadout gets the same number: "
            + ", ".join(f"{names.get(o, o)} {n}" for o, n in s["games_per_opponent"].items()) if rounded else "")),
        ("AI profile", s["ai"]), ("run seed", s["seed"]),
        ("games stored", f"baseline {status[0]}, variant {status[1]}; {int(table['games'].iloc[-1])} pairs"),
        ("simulation time", f"{secs:.1f} s (both runs)"), ("package version", mv.get("package_version", "")),
    ], columns=["setting", "value"])
    table = by_name(table, names)           # (the opponents by name, "all opponents" last)
    shown = table.copy()
    shown["opponent"] = [opponent_label(o, names) for o in shown["opponent"]]
    shown = pd.DataFrame({
        "opponent": shown["opponent"], "pairs": shown["games"],
        "baseline [95%]": [f"{pct(a)} [{pct(b)}–{pct(c)}]" for a, b, c in
                           zip(table["baseline"], table["baseline_lo"], table["baseline_hi"])],
        "variant [95%]": [f"{pct(a)} [{pct(b)}–{pct(c)}]" for a, b, c in
                          zip(table["variant"], table["variant_lo"], table["variant_hi"])],
        "change (points) [95%]": [f"{pts(a)} [{pts(b)}, {pts(c)}]" for a, b, c in
                                  zip(table["change"], table["lo"], table["hi"])],
        "p": [pvalue(x) for x in table["p"]], "p Holm": [pvalue(x) for x in table["p_holm"]],
        "verdict": table["verdict"], "same outcome": [pct(x) for x in table["identical_share"]],
    })
    body = (f'<h2 id="run">Run</h2>{table_html(setup, cls="data kv")}<pre>{html.escape(summary)}</pre>'
            f'<h2 id="change">Change of {html.escape(hero)}\'s score</h2>'
            '<p class="note">Each game with the variant is paired with the game of the same cell and seed without '
            'it. <i>change</i>: mean of (variant score − baseline score) over the pairs, in points of win rate '
            '(draws count half); 95% t interval of the paired differences; p: one-sample t-test of the paired '
            'differences (null hypothesis: the variant does not change the hero\'s expected score against this '
            'opponent); Holm-corrected over the opponents and the overall row. <i>same outcome</i>: share of pairs '
            'whose result did not change. Baseline and variant scores carry Wilson 95% intervals of their own.</p>'
            + img(png, "change per opponent") + table_html(shown))
    return write_text(path, page(f"unmatched-sim compare: {v['name']}",
                                 f"{html.escape(v['name'])}: {html.escape(hero)} with and without the variant", body))
