"""What a tuning run found, and the profile file it writes.

:func:`summarize` turns a :class:`sim.runs.tune.TuneResult` into the hero's score with
the starting and with the tuned weights on the final check's fresh seeds (each with its
Wilson 95% interval), the paired change with its 95% t interval and p-value
(:func:`reports.stats.paired_difference`: the same games played both ways), and the
score per opponent. :func:`write_profile` writes (or updates) a profile file whose
``[heroes.<hero>]`` section holds the tuned weights and their provenance: the field,
battlefields, games, seeds, scores before and after, date and package version.

Example::

    from reports.tune import summarize, write_profile
    summ = summarize(res)              # dict; summ["change"] in points
    write_profile(res, "tuned-ciri.toml")
"""
from __future__ import annotations

import datetime as _dt
import os
import tomllib
from pathlib import Path

import numpy as np
import pandas as pd

from reports.stats import paired_difference, score_interval


def _score(v: np.ndarray) -> dict:
    s, lo, hi = score_interval(float(v.sum()), len(v))
    return {"score": float(s), "lo": float(lo), "hi": float(hi), "games": int(len(v))}


def summarize(res) -> dict:
    """Scores before/after (0..1, Wilson 95%), the paired change in points (95% t
    interval, p-value), per-opponent scores and the generations' progress of ``res``."""
    before, after = _score(res.check_start), _score(res.check_tuned)
    d = paired_difference(res.check_start, res.check_tuned)
    opp = pd.DataFrame({"opponent": res.check_opponents, "start": res.check_start, "tuned": res.check_tuned})
    per = opp.groupby("opponent").agg(games=("start", "size"), start=("start", "mean"), tuned=("tuned", "mean"))
    per["change"] = (per["tuned"] - per["start"]) * 100
    return {
        "hero": res.settings.hero, "before": before, "after": after,
        "change": d.mean * 100, "change_lo": d.lo * 100, "change_hi": d.hi * 100, "p": d.pvalue,
        "per_opponent": per.reset_index(), "history": pd.DataFrame(res.history),
        "generations": res.generations_run, "seconds": res.seconds,
    }


def format_summary(summ: dict, names: dict | None = None) -> str:
    """Lines for the terminal: before, after, change, and the generations' progress; the hero
    by its display name (``names``: key -> name; the key without it)."""
    b, a = summ["before"], summ["after"]
    h = summ["history"]
    lines = [
        f"{(names or {}).get(summ['hero'], summ['hero'])}: score against the field on {b['games']} fresh games (Wilson 95%):",
        f"  start weights  {b['score']:6.1%} [{b['lo']:.1%}, {b['hi']:.1%}]",
        f"  tuned weights  {a['score']:6.1%} [{a['lo']:.1%}, {a['hi']:.1%}]",
        f"  change         {summ['change']:+5.1f} points [{summ['change_lo']:+.1f}, {summ['change_hi']:+.1f}] "
        f"(paired t-test on the same games, p {summ['p']:.2g})",
    ]
    if len(h):
        lines.append(f"  {len(h)} generations, {int(h['games'].sum()):,} games in {summ['seconds']:.0f} s; candidates' "
                     f"mean score {h['mean'].iloc[0]:.1%} in generation 1, {h['mean'].iloc[-1]:.1%} in the last")
    return "\n".join(lines)


def provenance(res, summ: dict) -> dict:
    """The provenance table of a tuned hero's weights (TOML-ready values)."""
    from sim.runs.plan import package_version
    s = res.settings
    b, a = summ["before"], summ["after"]
    return {
        "tuned_by": "unmatched-sim tune", "date": _dt.date.today().isoformat(), "package_version": package_version(),
        "start": res.profile_base, "field_ai": s.field_ai, "field": list(s.field), "battlefields": list(s.battlefields),
        "weights_tuned": list(s.weights), "generations": res.generations_run,
        "popsize": res.popsize,
        "games_per_eval": s.games_per_eval, "games_played": int(sum(h["games"] for h in res.history)),
        "seed": s.seed, "check_games": b["games"],
        "score_before": round(b["score"], 4), "score_before_interval": [round(b["lo"], 4), round(b["hi"], 4)],
        "score_after": round(a["score"], 4), "score_after_interval": [round(a["lo"], 4), round(a["hi"], 4)],
        "change_points": round(summ["change"], 2),
        "change_interval": [round(summ["change_lo"], 2), round(summ["change_hi"], 2)],
        "p_paired": float(f"{summ['p']:.3g}"),
    }


def write_profile(res, path, summ: dict | None = None, name: str | None = None, base: str | None = None) -> Path:
    """Write the tuned weights of ``res`` as the ``[heroes.<hero>]`` section of profile file
    ``path``: a new file (``name``, default ``tuned-<hero>``; ``base``, default the run's
    starting profile: the profile every weight not tuned comes from), or an existing one
    updated in place (its other heroes kept). Atomic.
    Raises ValueError naming the file if an existing file is not a valid profile."""
    import tomli_w
    path = Path(path)
    summ = summ or summarize(res)
    hero = res.settings.hero
    if path.exists():
        try:
            data = tomllib.loads(path.read_text())
        except (tomllib.TOMLDecodeError, UnicodeDecodeError, OSError) as e:
            raise ValueError(f"{path}: cannot update it, not a readable profile file ({e})") from None
    else:
        data = {"name": name or f"tuned-{hero}", "mode": res.field_profile.mode_name if res.field_profile else "standard",
                "base": base or res.profile_base,
                "description": f"{res.profile_base} with weights tuned by self-play for: {hero}"}
    heroes = data.setdefault("heroes", {})
    prov = {k: v for k, v in provenance(res, summ).items() if v is not None}
    heroes[hero] = {"weights": {k: round(float(v), 6) for k, v in res.tuned_weights.items()}, "provenance": prov}
    if "description" in data and "tuned by self-play for" in data["description"]:
        data["description"] = (f"{data.get('base', 'standard')} with weights tuned by self-play for: "
                               + ", ".join(sorted(heroes)))
    text = ("# Written by `unmatched-sim tune`: per hero, the weights its self-play tuning found and where\n"
            "# they came from (heroes.<key>.provenance). Every other hero plays the base profile.\n"
            + tomli_w.dumps(data))
    tmp = path.with_name(path.name + f".tmp{os.getpid()}")
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp.write_text(text)
    os.replace(tmp, path)
    return path


def final_table(entries: list) -> pd.DataFrame:
    """One row per hero from ``entries`` ((hero, start scores, tuned scores): float64 arrays
    of the same games): games, both scores with Wilson 95% intervals (0..1), the paired
    change in points with its 95% interval, the paired t-test's p and its Holm-corrected
    p over the heroes, and ``verdict`` ("better", "worse" or "no significant change" at
    5% after Holm)."""
    from reports.stats import holm
    rows = []
    for hero, a, b in entries:
        sa, sb, d = _score(a), _score(b), paired_difference(a, b)
        rows.append({"hero": hero, "games": sa["games"], "score_start": sa["score"], "lo_start": sa["lo"],
                     "hi_start": sa["hi"], "score_tuned": sb["score"], "lo_tuned": sb["lo"], "hi_tuned": sb["hi"],
                     "change": d.mean * 100, "change_lo": d.lo * 100, "change_hi": d.hi * 100, "p": d.pvalue})
    df = pd.DataFrame(rows)
    if len(df):
        p_holm, reject = holm(df["p"].to_numpy())
        df["p_holm"] = p_holm
        df["verdict"] = np.where(~reject, "no significant change", np.where(df["change"] > 0, "better", "worse"))
    return df


def format_final(df: pd.DataFrame, rounds: dict | None = None, names: dict | None = None) -> str:
    """The final table for the terminal; ``rounds``: {hero: [tuned score of each round's
    check (against that round's field)]} for the round-to-round columns; ``names``: hero key
    -> display name (the keys without it)."""
    names = names or {}
    hw = max([18] + [len(names.get(h, h)) + 2 for h in df["hero"]]) if len(df) else 18
    head = f"{'hero':<{hw}}{'games':>6}  {'start weights':<22}{'tuned weights':<22}{'change [95%]':<22}{'p_holm':>8}  verdict"
    lines = [head]
    for r in df.itertuples():
        lines.append(f"{names.get(r.hero, r.hero):<{hw}}{r.games:>6}  {r.score_start:6.1%} [{r.lo_start:.1%}, {r.hi_start:.1%}]  "
                     f"{r.score_tuned:6.1%} [{r.lo_tuned:.1%}, {r.hi_tuned:.1%}]  "
                     f"{r.change:+5.1f} [{r.change_lo:+.1f}, {r.change_hi:+.1f}]{'':<4}{r.p_holm:8.2g}  {r.verdict}")
    if rounds:
        n = max(len(v) for v in rounds.values())
        lines.append("")
        lines.append("tuned score in each round's check (against that round's field): "
                     + "  ".join(f"round {i + 1}" for i in range(n)))
        for h, v in sorted(rounds.items()):
            lines.append(f"  {names.get(h, h):<{hw}}" + "  ".join(f"{x:7.1%}" for x in v))
    return "\n".join(lines)
