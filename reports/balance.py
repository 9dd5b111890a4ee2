"""The balance report: dose-response curves, the screen and the proposals of a balance run.

Reads ``OUT/result.json`` (``sim.runs.balance.run_balance``) and writes into ``OUT/report``:
``balance.html`` (self-contained), ``plots/curves.png`` (one panel per knob with a curve:
the field score against the knob's value, 95% intervals, the target line and band, the hero
file's value marked), ``tables/curves.csv``, ``tables/knobs.csv`` (the screen: every knob's
status and its ends' effects) and ``tables/proposals.csv``. From Python::

    from reports.balance import build_balance_report
    rep = build_balance_report("runs/balance_king_arthur")
    rep.tables["proposals"]
"""
from __future__ import annotations

import html
import json
import math
from dataclasses import dataclass
from pathlib import Path

import matplotlib

matplotlib.use("Agg")
import pandas as pd
from matplotlib.figure import Figure

from .format import pvalue
from .plots import DPI
from .render import ReportFiles, img, page, report_dirs, table_html, write_frame, write_pngs, write_text

BASE = "#2b6cb0"
TARGET = "#c53030"


@dataclass
class BalanceReport(ReportFiles):
    """What :func:`build_balance_report` wrote: ``out_dir``, ``html``, ``tables``
    (``curves``, ``knobs``, ``proposals``: DataFrames), ``summary`` text, ``csv`` and ``png``
    paths."""


def read_result(out) -> dict:
    """The ``result.json`` of a balance folder. Raises ValueError (one line) when the folder
    has none (the run has not finished) or it cannot be read."""
    path = Path(out) / "result.json"
    if not path.exists():
        raise ValueError(f"{out}: no result.json; the balance run has not finished: rerun its command to finish it")
    try:
        return json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise ValueError(f"{path}: cannot be read ({e})") from None


def curves_table(res: dict) -> pd.DataFrame:
    """One row per knob and level with a curve: ``knob``, ``level``, ``base`` (the hero file's
    value), ``games`` (paired games), ``score`` with ``score_lo``/``score_hi`` (predicted field
    score, 95%), ``change`` with ``lo``/``hi`` (points of score / 100 from the baseline, 95%)."""
    rows = []
    base = {k["name"]: k["base"] for k in res["knobs"]}
    for name, pts in res["curves"].items():
        for p in pts:
            rows.append({"knob": name, "level": p["level"], "base": base[name], "games": p["games"],
                         "score": p["score"], "score_lo": p["score_lo"], "score_hi": p["score_hi"],
                         "change": p["change"], "lo": p["lo"], "hi": p["hi"]})
    return pd.DataFrame(rows, columns=["knob", "level", "base", "games", "score", "score_lo", "score_hi", "change",
                                       "lo", "hi"])


def knobs_table(res: dict) -> pd.DataFrame:
    """The screen: one row per knob: ``knob``, ``base``, ``range``, ``extended to`` (values
    played beyond the range, toward the target), ``status`` (effect, no
    effect, not detectable, dropped (budget), ...), ``p`` and ``p_holm`` of its last look,
    ``looks``, and each end's change with its 95% interval (``low_end``, ``high_end``)."""
    def end(ends, v):
        e = ends.get(v)
        return "" if e is None else f"{v}: {100 * e['change']:+.1f} [{100 * e['lo']:+.1f}, {100 * e['hi']:+.1f}]"

    rows = []
    for k in res["knobs"]:
        ends = {e["level"]: e for e in k["ends"]}
        rows.append({"knob": k["name"], "base": k["base"], "range": f"{k['levels'][0]}..{k['levels'][-1]}",
                     "extended to": ", ".join(str(v) for v in k.get("extended", [])),
                     "status": k["status"], "p": k["p"], "p_holm": k["p_holm"], "looks": k["looks"],
                     "low_end": end(ends, k["levels"][0]), "high_end": end(ends, k["levels"][-1])})
    return pd.DataFrame(rows)


def proposals_table(res: dict) -> pd.DataFrame:
    """One row per proposal: ``rank``, ``kind`` (single, pair), ``change`` (as a designer reads
    it), ``designs``, ``steps``, ``predicted`` with ``predicted_lo``/``_hi``, ``verified`` with
    ``verified_lo``/``_hi`` and ``verified_games``, ``reaches``, with ``--check-ai`` the
    ``check`` score and ``check_reaches``, ``robust``, the ``file`` and the ``command`` that
    replays the verification."""
    rows = []
    for p in res["proposals"]:
        v, c, e = p.get("verified") or {}, p.get("check") or {}, p["predicted"]
        rows.append({"rank": p["rank"], "kind": p["kind"], "change": p["label"], "designs": p["designs"],
                     "steps": p["steps"], "predicted": e["score"], "predicted_lo": e["score_lo"],
                     "predicted_hi": e["score_hi"], "predicted_from": p["predicted_from"],
                     "verified": v.get("score"), "verified_lo": v.get("lo"), "verified_hi": v.get("hi"),
                     "verified_games": v.get("games"), "reaches": v.get("reaches"), "check": c.get("score"),
                     "check_reaches": c.get("reaches"), "robust": p.get("robust"), "file": p["file"],
                     "command": p.get("command", "")})
    return pd.DataFrame(rows)


def plot_curves(res: dict, knobs=None) -> Figure:
    """One panel per knob with a curve (``knobs``: those names only; default all, in the hero
    file's order): the predicted field score (points, 95% interval bars) against the knob's
    value, every panel on the same score axis (a steeper curve is a stronger knob); the hero
    file's value in blue, the target as a red line with its tolerance band. Without any
    curve, one panel saying so."""
    curves = res["curves"]
    names = [k["name"] for k in res["knobs"] if k["name"] in curves and (knobs is None or k["name"] in knobs)]
    target, tol = res["settings"]["target"], res["settings"]["tolerance"]
    hero = res["names"][res["hero"]]
    n = max(1, len(names))
    cols = min(4, n)
    rows = math.ceil(n / cols)
    fig = Figure(figsize=(3.6 * cols, 2.9 * rows + 0.6))
    if not names:
        ax = fig.add_subplot()
        ax.text(0.5, 0.5, "no knob had a detectable effect", ha="center", va="center")
        ax.set_axis_off()
        return fig
    base = {k["name"]: k["base"] for k in res["knobs"]}
    lo = min([100 * p["score_lo"] for n in names for p in curves[n]] + [100 * (target - tol)])
    hi = max([100 * p["score_hi"] for n in names for p in curves[n]] + [100 * (target + tol)])
    for i, name in enumerate(names):
        ax = fig.add_subplot(rows, cols, i + 1)
        ax.set_ylim(lo - 2, hi + 2)
        pts = curves[name]
        x = [p["level"] for p in pts]
        y = [100 * p["score"] for p in pts]
        err = [[100 * (p["score"] - p["score_lo"]) for p in pts], [100 * (p["score_hi"] - p["score"]) for p in pts]]
        ax.axhspan(100 * (target - tol), 100 * (target + tol), color=TARGET, alpha=0.12, linewidth=0)
        ax.axhline(100 * target, color=TARGET, linewidth=1)
        ax.errorbar(x, y, yerr=err, fmt="-o", markersize=4, capsize=3, color="#4a5568", ecolor="#a0aec0")
        b = [j for j, v in enumerate(x) if v == base[name]]
        if b:
            ax.plot([x[b[0]]], [y[b[0]]], "o", color=BASE, markersize=8, zorder=5)
        ax.set_xticks(x)
        ax.set_title(name, fontsize=9)
        ax.grid(alpha=0.3)
        ax.tick_params(labelsize=8)
        if i % cols == 0:
            ax.set_ylabel("score (%)", fontsize=8)
    where = f"against {res['names'][res['settings']['against']]}" if res["settings"].get("against") else \
        "against the field"
    fig.suptitle(f"{hero}: score {where} as each knob moves ({res['ai']} AI; paired games, 95% intervals; blue: the "
                 f"hero file's value; red: target {target:.0%} ± {100 * tol:g} points)", fontsize=10)
    fig.tight_layout(rect=(0, 0, 1, 1 - 0.3 / fig.get_figheight()))
    return fig


def _battlefield_name(key: str) -> str:
    """A battlefield's display name (its key when it cannot be loaded any more)."""
    from sim.content.battlefields import load_battlefield
    try:
        return load_battlefield(key).name
    except (ValueError, OSError):
        return key


def _pct(x) -> str:
    return "" if x is None or (isinstance(x, float) and math.isnan(x)) else f"{100 * x:.1f}%"


def summary_text(res: dict) -> str:
    """The result in a few lines: the baseline, the screen, and each proposal with its
    prediction, its verification and (``--check-ai``) whether it holds under the second AI."""
    s, names = res["settings"], res["names"]
    hero = names[res["hero"]]
    b = res["baseline"]
    opps = [names[k] for k in s["field"]]
    where = f"against {opps[0]}" if len(opps) == 1 else f"against {len(opps)} heroes"
    counts: dict = {}
    for k in res["knobs"]:
        counts[k["status"]] = counts.get(k["status"], 0) + 1
    lines = [f"{hero} {where}: {_pct(b['score'])} [{_pct(b['lo'])}, {_pct(b['hi'])}] in {b['games']:,} search games; "
             f"target {_pct(s['target'])} +- {100 * s['tolerance']:g} points ({res['ai']} AI).",
             f"Knobs: {len(res['knobs'])} screened: " + ", ".join(f"{n} {st}" for st, n in sorted(counts.items()))
             + f"; {len(res['curves'])} curve(s); {res['singles_reaching']} single knob(s) reach the target."]
    if abs(b["score"] - s["target"]) <= s["tolerance"]:
        lines.append("The hero is already within the tolerance of the target.")
    v = res["verification"].get("ai", {}).get("baseline")
    lines += [f"Note: {n}" for n in res.get("notes", ())]
    if not res["proposals"]:
        lines.append("No proposal: no knob (nor pair of knobs) in its range is predicted to reach the target; see the "
                     "curves (a wider --knobs, or a larger --budget for the weak ones).")
        return "\n".join(lines)
    lines.append(f"Proposals (verified on {v['games']:,} fresh paired games each; baseline there {_pct(v['score'])}):")
    check = res.get("check_ai")
    if check and "check" in res["verification"]:
        cb = res["verification"]["check"]["baseline"]
        lines.append(f"Under {check} (--check-ai) the hero as it is scores {_pct(cb['score'])} on the same games; a "
                     "proposal that reaches the target under both AIs is robust.")
    for p in res["proposals"]:
        e, ver = p["predicted"], p["verified"]
        line = (f"  {p['rank']}. {p['label']}: predicted {_pct(e['score'])} [{_pct(e['score_lo'])}, "
                f"{_pct(e['score_hi'])}], verified {_pct(ver['score'])} [{_pct(ver['lo'])}, {_pct(ver['hi'])}] "
                + ("reaches" if ver["reaches"] else "MISSES"))
        if p.get("check"):
            c = p["check"]
            line += f"; under {check}: {_pct(c['score'])} " + ("reaches" if c["reaches"] else "MISSES (AI-sensitive)")
        lines.append(line + f"  -> {p['file']}")
    return "\n".join(lines)


def build_balance_report(out, out_dir=None) -> BalanceReport:
    """Write the balance report of folder ``out`` into ``out_dir`` (default ``OUT/report``);
    returns :class:`BalanceReport`. Raises ValueError when the run has not finished, OSError
    when a file cannot be written."""
    res = read_result(out)
    od = report_dirs(out, out_dir)
    tables = {"curves": curves_table(res), "knobs": knobs_table(res), "proposals": proposals_table(res)}
    rep = BalanceReport(od, od / "balance.html", tables, summary_text(res))
    for name, t in tables.items():
        rep.csv[name] = write_frame(t, od / "tables" / f"{name}.csv")
    pngs = write_pngs(od, {"curves": plot_curves(res)}, rep.png, DPI)
    _write_html(rep.html, res, tables, pngs["curves"], rep.summary)
    return rep


def _write_html(path, res, tables, png, summary) -> Path:
    s, names = res["settings"], res["names"]
    hero = names[res["hero"]]
    g = res["games"]
    setup = pd.DataFrame([
        ("hero", f"{hero} ({res['hero']})"),
        ("field", names[s["against"]] + " (one matchup)" if s.get("against") else
         ", ".join(names[k] for k in s["field"])),
        ("battlefields", ", ".join(_battlefield_name(b) for b in s["battlefields"])),
        ("target", f"{s['target']:.1%} ± {100 * s['tolerance']:g} points"),
        ("AI", res["ai"] + (f"; proposals also checked under {res['check_ai']}" if res["check_ai"] else "")),
        ("games", f"{g['total']:,}: search {g['search']:,} (budget {g['budget']:,}), verification "
                  f"{g['verification']:,}"),
        ("time", f"{res.get('seconds', 0):.0f} s in {len(res.get('sessions', []))} session(s)"),
        ("seeds", f"search {res['search_seed']}, verification {res['verify_seed']} (compare --seed)"),
    ], columns=["setting", "value"])
    props = tables["proposals"].copy()
    for c in ("predicted", "verified", "check"):
        if c in props:
            lo, hi = (f"{c}_lo", f"{c}_hi") if f"{c}_lo" in props else (None, None)
            props[c] = [(_pct(a) + (f" [{_pct(x)}, {_pct(y)}]" if lo else "")) for a, x, y in
                        zip(props[c], props[lo] if lo else props[c], props[hi] if hi else props[c])]
    props = props.drop(columns=[c for c in props if c.endswith("_lo") or c.endswith("_hi")], errors="ignore")
    if not res.get("check_ai"):             # no second AI: its columns would read None
        props = props.drop(columns=["check", "check_reaches", "robust"], errors="ignore")
    screen = tables["knobs"].copy()
    for c in ("p", "p_holm"):
        screen[c] = screen[c].map(pvalue)
    body = (f'<h2 id="run">Run</h2>{table_html(setup, cls="data kv")}<pre>{html.escape(summary)}</pre>'
            '<h2 id="curves">Dose-response curves</h2>'
            '<p class="note">Each panel: the hero\'s predicted score against the field (y) with the knob at each '
            'value (x), from paired games: every value plays the same games (same seeds), so neighbouring points '
            'differ by the knob, not by luck. Bars: 95% intervals. Blue: the hero file\'s value. Red line and band: '
            'the target and its tolerance. Where the curve enters the band, that change reaches the target.</p>'
            + img(png, "dose-response curves")
            + '<h2 id="proposals">Proposals</h2>'
              '<p class="note">Smallest edits first (knobs changed, printed designs touched, steps). <i>predicted</i>: '
              'from the search\'s games; <i>verified</i>: a fresh paired run on other seeds (the command replays it '
              'with `unmatched-sim compare`); <i>robust</i>: reaches the target under both AI profiles.</p>'
            + table_html(props)
            + '<h2 id="screen">The screen</h2><p class="note">Every knob at both ends of its range; <i>effect</i>: '
              'significant (Holm, alpha spent over the looks), <i>no effect</i>: both ends within 1 point, '
              '<i>not detectable</i>: neither after the last look. Ends: change in points [95%].</p>'
            + table_html(screen))
    return write_text(path, page(f"unmatched-sim balance: {hero}", f"Balancing {html.escape(hero)}", body))
