"""What a league training run found (:mod:`sim.runs.train`), and the profile file it writes.

:func:`summarize` turns a :class:`sim.runs.train.TrainResult` into one row per hero: the
hero's score on the final check's fresh games with the starting and with the trained
weights (Wilson 95% intervals), the paired change in points with its 95% t interval and
p-value (:func:`reports.stats.paired_difference`: the same games both ways), Holm-corrected
over the heroes, and whether the hero was left out of training; and the same per opponent
(league member). :func:`provenance` is the table written into the trained profile.

Example::

    from reports.train import summarize, format_summary
    summ = summarize(res)
    print(format_summary(summ))
    summ["heroes"]            # DataFrame: one row per hero
"""
from __future__ import annotations

import datetime as _dt

import numpy as np
import pandas as pd

from reports.stats import holm, paired_difference, score_interval


def _row(a: np.ndarray, b: np.ndarray) -> dict:
    sa, la, ha = score_interval(float(a.sum()), len(a))
    sb, lb, hb = score_interval(float(b.sum()), len(b))
    d = paired_difference(a, b)
    return {"games": len(a), "score_start": sa, "lo_start": la, "hi_start": ha, "score_trained": sb,
            "lo_trained": lb, "hi_trained": hb, "change": d.mean * 100, "change_lo": d.lo * 100,
            "change_hi": d.hi * 100, "p": d.pvalue}


def summarize(res) -> dict:
    """``overall`` (dict: the trained side's scores and change over every check game of the
    training heroes), ``heroes`` (DataFrame, one row per hero: games, scores before/after
    with Wilson 95% intervals (0..1), change in points with its 95% interval, p, p_holm,
    verdict, left_out), ``opponents`` (the same per check opponent), ``history``
    (DataFrame of the generations)."""
    a, b = np.asarray(res.check_start, float), np.asarray(res.check_trained, float)
    hero = np.asarray(res.check_hero)
    opp = np.asarray(res.check_opponent)
    left = np.asarray(res.check_left_out, bool)
    trained_games = ~left
    overall = _row(a[trained_games], b[trained_games])
    rows = []
    for h in sorted(set(hero)):
        m = hero == h
        rows.append({"hero": h, "left_out": bool(left[m].all()), **_row(a[m], b[m])})
    heroes = pd.DataFrame(rows)
    p_holm, reject = holm(heroes["p"].to_numpy())
    heroes["p_holm"] = p_holm
    heroes["verdict"] = np.where(~reject, "no significant change", np.where(heroes["change"] > 0, "better", "worse"))
    opps = pd.DataFrame([{"opponent": o, **_row(a[(opp == o) & trained_games], b[(opp == o) & trained_games])}
                         for o in dict.fromkeys(opp)])
    return {"overall": overall, "heroes": heroes, "opponents": opps, "history": pd.DataFrame(res.history),
            "seconds": res.seconds, "generations": len(res.history)}


def format_summary(summ: dict, names: dict | None = None) -> str:
    """Lines for the terminal: overall, per opponent, per hero (by its display name,
    ``names``: key -> name; the key without it), the generations' progress."""
    names = names or {}
    o = summ["overall"]
    lines = [f"Trained against starting weights on the same {o['games']:,} fresh games (training heroes; Wilson 95%):",
             f"  start weights    {o['score_start']:6.1%} [{o['lo_start']:.1%}, {o['hi_start']:.1%}]",
             f"  trained weights  {o['score_trained']:6.1%} [{o['lo_trained']:.1%}, {o['hi_trained']:.1%}]",
             f"  change           {o['change']:+5.1f} points [{o['change_lo']:+.1f}, {o['change_hi']:+.1f}] "
             f"(paired t-test, p {o['p']:.2g})", "", "Per opponent (score of the trained side):"]
    for _, r in summ["opponents"].iterrows():
        lines.append(f"  {r['opponent']:<22} start {r['score_start']:6.1%}  trained {r['score_trained']:6.1%}  "
                     f"change {r['change']:+5.1f} [{r['change_lo']:+.1f}, {r['change_hi']:+.1f}]")
    lines += ["", "Per hero (Holm over the heroes; * = left out of training):"]
    hw = max([22] + [len(names.get(h, h)) + 2 for h in summ["heroes"]["hero"]])
    for _, r in summ["heroes"].iterrows():
        lines.append(f"  {names.get(r['hero'], r['hero']) + (' *' if r['left_out'] else ''):<{hw}} start {r['score_start']:6.1%}  trained "
                     f"{r['score_trained']:6.1%}  change {r['change']:+5.1f} [{r['change_lo']:+.1f}, "
                     f"{r['change_hi']:+.1f}]  {r['verdict']}")
    h = summ["history"]
    if len(h):
        lines += ["", f"{len(h)} generations, {int(h['games'].sum()):,} games in {summ['seconds']:.0f} s of play; "
                      f"candidates' mean score {h['mean'].iloc[0]:.1%} in generation 1, {h['mean'].iloc[-1]:.1%} "
                      "in the last (against a league that includes the moving mean, so it need not rise)"]
    return "\n".join(lines)


def provenance(res, summ: dict, command: str) -> dict:
    """The ``[provenance]`` table of a trained profile (TOML-ready values): how it was
    trained (``command``, settings, league, games, seeds, date, version) and what the
    check measured."""
    from sim.runs.plan import package_version
    s, o = res.settings, summ["overall"]
    return {
        "trained_by": command, "date": _dt.date.today().isoformat(), "package_version": package_version(),
        "start": s.start, "league": list(s.league), "heroes": list(s.heroes), "left_out": list(s.leave_out),
        "battlefields": list(s.battlefields), "weights_trained": list(s.weights),
        "generations": len(res.history), "popsize": res.popsize, "games_per_eval": s.games_per_eval,
        "games_played": int(sum(h["games"] for h in res.history)), "seed": s.seed, "check_games": int(o["games"]),
        "score_start": round(o["score_start"], 4), "score_trained": round(o["score_trained"], 4),
        "change_points": round(o["change"], 2), "change_interval": [round(o["change_lo"], 2), round(o["change_hi"], 2)],
    }
