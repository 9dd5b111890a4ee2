"""Two matrix runs of the same heroes compared: is a conclusion about the hero or the AI?

``unmatched-sim diff RUN_A RUN_B`` (and :func:`build_diff`) compares two matrix run
folders that differ in one thing (the AI profile, a variant, a rules option, the
version). Everything is computed from the outcome counts streamed from the stored games
(:func:`reports.stream.scan_duels`, without the card counters), so memory does not grow
with the runs. Scores are fractions 0..1 (a win is 1, a draw ½); changes are B - A in
fractions too (shown as points of win rate: 0.01 = one point).

Definitions (one row per hero or per cell):

- **field score** of a hero: its *pooled* score over every game it played against the
  other heroes (mirrors excluded): ``(wins + draws/2) / games``; the ``score`` column of
  the matrix report's strength table (``reports.tables.strength``, defined in
  ``reports.format.SCORE_DEFINITION``). With ``common`` only the games between common
  heroes count. ``lo`` / ``hi``: its
  Wilson 95% interval in each run.
- **change** = score_b - score_a, with a 95% normal (Wald) interval on the difference of
  two independent proportions, ``d ± 1.96 sqrt(pa(1-pa)/na + pb(1-pb)/nb)``. Why: the two
  runs are independent samples of independent games, a run holds hundreds to millions of
  games (the normal approximation is good), and the interval is a closed form of the
  counts, so it streams; a bootstrap over games would need the game rows. A draw counts
  as half a win; the Bernoulli variance p(1-p) is an upper bound on a score's variance
  when draws occur, so the interval is slightly conservative.
- **p** / **p_holm**: two-sided two-proportion z test, pooled variance
  (``reports.stats.two_proportion_test``; null hypothesis: the hero's, or the cell's,
  expected score is the same in both runs), Holm-corrected
  (``statsmodels.stats.multitest.multipletests``) over the family: the heroes; the
  pooled cells; the per-battlefield cells (a family of its own). ``significant``:
  p_holm < 0.05. A row with too few games for a verdict (``enough_games`` False:
  ``reports.stats.sample_guard``, Cochran's rule of 5 expected wins and losses in each run)
  is left out of its family: ``p_holm`` NaN, never significant.
- **cells**: each unordered pair of different heroes once (``hero`` before ``opponent``
  in key order; the opponent's score is 1 - score), pooled over battlefields and
  loadouts, or per battlefield (battlefields of both runs only). A cell **flips** when
  the hero wins it in one run and loses it in the other beyond the intervals: score
  > 0.5 with the Wilson interval above 0.5 in one run, < 0.5 with it below 0.5 in the
  other.
- **Spearman**: ``scipy.stats.spearmanr`` of the field scores of A and B (ranks of the
  heroes), with the exact permutation p-value below 10 heroes; NaN when a run's scores are
  all equal.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
import pandas as pd

from sim.runs.errors import RunError
from sim.runs.store import MANIFEST, read_manifest

from .format import ALL, hero_names, pct, plural, pts, pvalue
from .render import ReportFiles, report_dirs, write_pngs, write_tables
from .stats import Z95, guarded_holm, outcome_counts, sample_guard, score_interval, two_proportion_test
from .status import run_progress
from .stream import scan_duels
from .tables import sides

ALPHA = 0.05
DIFF_PREFIX = "diff_"
TABLE_NAMES = ("diff_heroes", "diff_ranking", "diff_cells")
SETTING_KEYS = ("ai", "variant", "rules", "battlefields", "games_per_pair", "seed", "heroes")


class DiffError(ValueError):
    """Bad input of a diff (not a run folder, another kind of run, other heroes, no games):
    a one-line message naming the folder at fault."""


@dataclass
class RunSide:
    """One run of a diff: ``run_dir`` (Path), ``manifest`` (dict), ``games`` (int, stored),
    ``outcomes`` (``scan_duels``' outcome counts) and ``warning`` (one line, or None for a
    complete run)."""

    run_dir: Path
    manifest: dict
    games: int
    outcomes: pd.DataFrame
    warning: str | None = None

    @property
    def ai(self) -> str:
        """The AI profile both seats played."""
        return str(self.manifest["settings"].get("ai", "?"))


@dataclass
class Diff:
    """What :func:`diff_runs` computes: the two runs ``a`` and ``b`` (:class:`RunSide`),
    the ``heroes`` compared (keys), the ``tables`` (``diff_heroes``, ``diff_ranking``,
    ``diff_cells`` and with ``by_battlefield`` ``diff_cells_by_battlefield``: see
    :func:`field_scores`, :func:`ranking`, :func:`cell_changes`), ``spearman`` (rho,
    p-value; NaN if undefined), ``notes`` (one-line remarks: common heroes, other
    battlefields, settings that differ) and ``names`` (hero key -> display name)."""

    a: RunSide
    b: RunSide
    heroes: list
    tables: dict
    spearman: tuple
    notes: list = field(default_factory=list)
    names: dict = field(default_factory=dict)

    @property
    def significant_cells(self) -> pd.DataFrame:
        """The pooled cells whose change is significant after Holm (rows of ``diff_cells``)."""
        c = self.tables["diff_cells"]
        return c[c["significant"]]

    @property
    def flipped_cells(self) -> pd.DataFrame:
        """The pooled cells whose winner flips beyond the intervals (rows of ``diff_cells``)."""
        c = self.tables["diff_cells"]
        return c[c["flip"]]


@dataclass
class DiffReport(ReportFiles):
    """What :func:`build_diff` wrote: ``out_dir``, ``html`` path (None with ``html=False``),
    ``tables``, ``summary``, ``csv`` / ``parquet`` / ``png`` paths by name, and the
    :class:`Diff` in ``diff``."""

    diff: Diff | None = None


# ------------------------------------------------------------------ the runs


def _kind(run_dir: Path) -> str:
    """``"compare"`` for a compare folder, else the manifest's mode (matrix, loadouts,
    compare, teams). Raises DiffError (one line) if it is not a run folder; a run folder
    of another storage format gives the store's one-line refusal."""
    if not run_dir.is_dir():
        raise DiffError(f"{run_dir}: " + ("a file, not a run folder" if run_dir.exists() else "no such folder"))
    if not (run_dir / MANIFEST).exists() and (run_dir / "baseline").is_dir() and (run_dir / "variant").is_dir():
        return "compare folder"
    try:
        m = read_manifest(run_dir)
    except RunError as e:
        raise DiffError(str(e)) from None
    return str(m["settings"].get("mode", "matrix"))


def load_side(run_dir) -> RunSide:
    """A matrix run's manifest and streamed outcome counts. Raises DiffError if the folder
    is not a matrix run or holds no finished game; ``warning`` says when the run is not
    complete (the diff is computed from the games stored)."""
    run_dir = Path(run_dir)
    kind = _kind(run_dir)
    if kind != "matrix":
        raise DiffError(f"{run_dir}: a {kind} run; diff compares two matrix run folders")
    m = read_manifest(run_dir)
    counts = scan_duels(run_dir, cards=False)
    if counts.games == 0:
        raise DiffError(run_progress(run_dir, m).no_games(run_dir, "matrix"))
    # the one rule of every report (reports.status): complete only when every planned game is stored
    warning = run_progress(run_dir, m).warning(run_dir)
    return RunSide(run_dir, m, counts.games, counts.outcomes, warning)


def check_heroes(a: RunSide, b: RunSide, common: bool = False) -> tuple[list, list]:
    """The hero keys to compare and the notes. Raises DiffError (one line naming the
    heroes only in A and only in B) if the hero sets differ and ``common`` is false, or
    if fewer than two heroes are common."""
    ha, hb = list(a.manifest["heroes"]), list(b.manifest["heroes"])
    only_a, only_b = sorted(set(ha) - set(hb)), sorted(set(hb) - set(ha))
    both = sorted(set(ha) & set(hb))
    notes = []
    if only_a or only_b:
        what = "; ".join(x for x in (f"only in {a.run_dir}: {', '.join(only_a)}" if only_a else "",
                                     f"only in {b.run_dir}: {', '.join(only_b)}" if only_b else "") if x)
        if not common:
            raise DiffError(f"the runs have different heroes ({what}); pass --common to compare the "
                            f"{len(both)} common heroes")
        if len(both) < 2:
            raise DiffError(f"the runs have {len(both)} hero(es) in common ({what}); a diff needs at least 2")
        notes.append(f"compared on the {len(both)} common heroes (games between them only); {what}")
    return both, notes


def other_heroes_note(a: RunSide, b: RunSide) -> str | None:
    """What the matrix report's ``--against`` says when run ``b`` has other heroes than ``a``
    (it marks the cells of the heroes both hold, as ``diff --common`` compares them): one
    sentence naming the heroes of each run alone by display name, or None when the hero sets
    are the same."""
    ha, hb = set(a.manifest["heroes"]), set(b.manifest["heroes"])
    if ha == hb:
        return None
    names = {**hero_names(b.manifest), **hero_names(a.manifest)}
    alone = "; ".join(f"{where}: {', '.join(sorted(names.get(k, k) for k in keys))}"
                      for where, keys in (("only in this run", ha - hb), (f"only in {b.run_dir}", hb - ha)) if keys)
    return (f"{b.run_dir} has other heroes ({alone}): the AI-sensitive cells are looked for among the "
            f"{len(ha & hb)} heroes both runs have; the other cells are not checked.")


def settings_notes(a: RunSide, b: RunSide) -> list:
    """One line per setting that differs between the runs (AI, variant, rules,
    battlefields, games per pair, seed, package version, engine), or one line saying
    they are the same."""
    sa, sb = a.manifest["settings"], b.manifest["settings"]
    out = []
    for k in SETTING_KEYS:
        va, vb = sa.get(k), sb.get(k)
        if k == "heroes" or va == vb:
            continue
        if k == "variant":
            va, vb = (v["name"] if v else "none" for v in (va, vb))
        out.append(f"{k}: A {json.dumps(va)}, B {json.dumps(vb)}")
    for k, label in (("package_version", "package version"),):
        if a.manifest.get(k) != b.manifest.get(k):
            out.append(f"{label}: A {a.manifest.get(k)}, B {b.manifest.get(k)}")
    ea, eb = (sa.get("fingerprint") or {}).get("engine"), (sb.get("fingerprint") or {}).get("engine")
    if ea != eb:
        out.append("engine: the engine sources differ (another version of the AI or rules)")
    if set(sa.get("battlefields", [])) != set(sb.get("battlefields", [])):
        out.append("note: the runs played other battlefields: the pooled scores mix other battlefields")
    return out or ["the runs have the same settings (a run against itself, or another seed)"]


def same_ai_note(a: RunSide, b: RunSide) -> str | None:
    """What a comparison of two runs measures when both used the same AI profile (the matrix
    report's ``--against``, whose marks are meant to show the cells that change with the AI):
    one sentence, or None when the profiles differ. Only the seed differs: sampling noise only;
    nothing differs: the same games; else the settings that differ."""
    if a.ai != b.ai:
        return None
    other = [n.split(":", 1)[0] for n in settings_notes(a, b)
             if not n.startswith(("note:", "the runs have the same settings"))]
    head = f"both runs used the AI profile {a.ai}"
    if not other:
        return head + (" with the same settings and seed: they hold the same games, so no cell can change (the "
                       "comparison does not measure the AI).")
    if other == ["seed"]:
        return head + (" and differ only in their seed: the comparison measures sampling noise only, not the AI. "
                       "Give --against a run of another --ai to find the AI-sensitive cells.")
    return head + f": the comparison measures what else differs ({', '.join(other)}), not the AI."


# ------------------------------------------------------------------ the tables


def _counts(side: RunSide, heroes: list, by: list) -> pd.DataFrame:
    """Games, wins, draws, losses and points per ``by`` group of one run's sides, mirror
    games excluded and only games between ``heroes``."""
    s = sides(side.outcomes)
    s = s[~s["mirror"] & s["hero"].isin(heroes) & s["opponent"].isin(heroes)]
    return outcome_counts(s, by)


def _compare(ta: pd.DataFrame, tb: pd.DataFrame, keys: list) -> pd.DataFrame:
    """Join two count tables on ``keys`` and add each run's score and Wilson interval, the
    change with its 95% interval, the z test (p), whether the row has games enough for a
    verdict (``enough_games``: ``reports.stats.sample_guard``, Cochran's rule) and Holm's
    correction over the rows that have (``p_holm`` NaN and ``significant`` False for the others)."""
    cols = ["games", "wins", "draws", "losses", "points"]
    t = ta[keys + cols].merge(tb[keys + cols], on=keys, how="outer", suffixes=("_a", "_b"))
    for c in cols:
        for s in ("_a", "_b"):
            t[c + s] = t[c + s].fillna(0)
    for s in ("_a", "_b"):
        t["games" + s] = t["games" + s].astype(np.int64)
        t["score" + s], t["lo" + s], t["hi" + s] = score_interval(t["points" + s].to_numpy(float),
                                                                   t["games" + s].to_numpy(float))
    pa_, pb_ = t["score_a"].to_numpy(float), t["score_b"].to_numpy(float)
    na, nb = t["games_a"].to_numpy(float), t["games_b"].to_numpy(float)
    d = pb_ - pa_
    with np.errstate(invalid="ignore", divide="ignore"):
        se = np.sqrt(pa_ * (1 - pa_) / na + pb_ * (1 - pb_) / nb)
    t["change"], t["change_lo"], t["change_hi"] = d, d - Z95 * se, d + Z95 * se
    # z for B minus A (the sign of the change)
    tests = [two_proportion_test(p2, n2, p1, n1) for p1, n1, p2, n2 in
             zip(t["points_a"], t["games_a"], t["points_b"], t["games_b"])]
    t["z"] = [r.statistic for r in tests]
    t["p"] = [r.pvalue for r in tests]
    t["enough_games"] = [sample_guard([p1, p2], [n1, n2]).enough for p1, n1, p2, n2 in
                         zip(t["points_a"], t["games_a"], t["points_b"], t["games_b"])]
    return t.assign(**guarded_holm(t["p"].to_numpy(float), t["enough_games"].to_numpy(bool), ALPHA))


def field_scores(a: RunSide, b: RunSide, heroes: list) -> pd.DataFrame:
    """Each hero's field score in A and B and the change (see the module doc).

    One row per hero, strongest in B first: ``hero``, ``games_a`` (int64), ``score_a``,
    ``lo_a``, ``hi_a``, ``games_b``, ``score_b``, ``lo_b``, ``hi_b`` (float64 0..1),
    ``change``, ``change_lo``, ``change_hi`` (B - A, float64 fractions), ``z``, ``p``,
    ``enough_games`` (bool: Cochran's rule, see :func:`_compare`), ``p_holm`` (Holm over the
    heroes with enough games), ``significant`` (bool), ``rank_a`` / ``rank_b``
    (pandas Int64, 1 = the highest field score; ties share the best rank; NA for a hero
    with no game against the others in that run, whose score is NaN), ``rank_change``
    (rank_a - rank_b: positive when the hero rises in B; NA if either is).
    """
    every = pd.DataFrame({"hero": heroes})     # (a hero without a game in either run keeps its row: n/a)
    t = _compare(*(every.merge(_counts(side, heroes, ["hero"]), on="hero", how="left") for side in (a, b)), ["hero"])
    for s in ("a", "b"):
        # a hero with no game against the others in a run (an unfinished run) has no score there and no rank
        t[f"rank_{s}"] = t[f"score_{s}"].rank(ascending=False, method="min").astype("Int64")
    t["rank_change"] = t["rank_a"] - t["rank_b"]
    cols = ["hero", "games_a", "score_a", "lo_a", "hi_a", "games_b", "score_b", "lo_b", "hi_b", "change",
            "change_lo", "change_hi", "z", "p", "enough_games", "p_holm", "significant", "rank_a", "rank_b",
            "rank_change"]
    return t.sort_values(["score_b", "hero"], ascending=[False, True], kind="stable")[cols].reset_index(drop=True)


def ranking(heroes_table: pd.DataFrame) -> pd.DataFrame:
    """The two rankings side by side: one row per rank position (1 = strongest):
    ``rank``, ``hero_a``, ``score_a`` (A's hero at that place and its field score),
    ``hero_b``, ``score_b``."""
    ra = heroes_table.sort_values(["score_a", "hero"], ascending=[False, True], kind="stable")
    rb = heroes_table.sort_values(["score_b", "hero"], ascending=[False, True], kind="stable")
    return pd.DataFrame({"rank": np.arange(1, len(ra) + 1), "hero_a": ra["hero"].to_numpy(),
                         "score_a": ra["score_a"].to_numpy(), "hero_b": rb["hero"].to_numpy(),
                         "score_b": rb["score_b"].to_numpy()})


def spearman(heroes_table: pd.DataFrame) -> tuple[float, float]:
    """``scipy.stats.spearmanr`` of the heroes' field scores in A and B: (rho, p-value);
    (NaN, NaN) with fewer than 3 heroes or when a run's scores are all equal."""
    from scipy.stats import spearmanr  # lazy: heavy (scipy)
    x, y = heroes_table["score_a"].to_numpy(float), heroes_table["score_b"].to_numpy(float)
    if len(x) < 3 or np.ptp(x) == 0 or np.ptp(y) == 0:
        return float("nan"), float("nan")
    r = spearmanr(x, y)
    p = float(r.pvalue)
    if len(x) < 10:
        # scipy's p comes from a t approximation that is far off for few heroes (3 heroes in
        # the same order give p ~ 0 where the exact two-sided permutation p is 2/3! = 1/3): use the exact one
        from scipy.stats import permutation_test
        res = permutation_test((x,), lambda u: spearmanr(u, y).statistic, permutation_type="pairings",
                               n_resamples=np.inf, alternative="two-sided")
        p = float(res.pvalue)
    return float(r.statistic), p


def cell_changes(a: RunSide, b: RunSide, heroes: list, by_battlefield: bool = False) -> pd.DataFrame:
    """Every matchup cell's change (see the module doc), pooled over battlefields
    (``battlefield`` "all") or per battlefield of both runs.

    One row per unordered pair (``hero`` < ``opponent`` by key; the score is the hero's)
    [per ``battlefield``]: ``games_a``, ``score_a``, ``lo_a``, ``hi_a``, ``games_b``,
    ``score_b``, ``lo_b``, ``hi_b``, ``change``, ``change_lo``, ``change_hi``, ``z``, ``p``,
    ``enough_games``, ``p_holm`` (Holm over these rows with enough games), ``significant``,
    ``flip`` (bool) and ``winner_a`` /
    ``winner_b`` (the hero key whose Wilson interval lies above 0.5, or "" if none).
    """
    by = ["hero", "opponent"] + (["battlefield"] if by_battlefield else [])
    ca, cb = _counts(a, heroes, by), _counts(b, heroes, by)
    if by_battlefield:
        both = set(a.manifest["settings"]["battlefields"]) & set(b.manifest["settings"]["battlefields"])
        ca, cb = ca[ca["battlefield"].isin(both)], cb[cb["battlefield"].isin(both)]
    ca, cb = ca[ca["hero"] < ca["opponent"]], cb[cb["hero"] < cb["opponent"]]
    t = _compare(ca, cb, by)
    if not by_battlefield:
        t.insert(2, "battlefield", ALL)
    for s in ("a", "b"):
        t[f"winner_{s}"] = np.where(t[f"lo_{s}"] > 0.5, t["hero"], np.where(t[f"hi_{s}"] < 0.5, t["opponent"], ""))
    # a flip is a verdict too: only with games enough in both runs (Cochran's rule, as the z test)
    t["flip"] = (t["winner_a"] != "") & (t["winner_b"] != "") & (t["winner_a"] != t["winner_b"]) & t["enough_games"]
    cols = ["hero", "opponent", "battlefield", "games_a", "score_a", "lo_a", "hi_a", "games_b", "score_b", "lo_b",
            "hi_b", "change", "change_lo", "change_hi", "z", "p", "enough_games", "p_holm", "significant", "flip",
            "winner_a", "winner_b"]
    return t.sort_values(["battlefield", "hero", "opponent"], kind="stable")[cols].reset_index(drop=True)


SEATING = ["p1_hero", "p1_loadout", "p2_hero", "p2_loadout", "battlefield"]
"""The columns of a seating: who sits first with which loadout, who second, where."""


def common_seatings(a: RunSide, b: RunSide) -> str | None:
    """When a run is unfinished, keep in both runs' outcomes only the seatings (:data:`SEATING`)
    that both have games of, so that a hero's field score and a cell's score count the same
    opponents, loadouts, battlefields and seats in A and in B: an interrupted run holds the
    first matchups of its plan, and its scores over those alone, set against a finished run's
    over every matchup, differ by the mix of opponents, not by anything that changed (a run
    interrupted and the same run finished gave significant changes). Modifies ``a.outcomes``
    and ``b.outcomes``; returns the note saying what was left out, or None (both complete, or
    nothing left out)."""
    if a.warning is None and b.warning is None:
        return None
    keys = [set(map(tuple, side.outcomes[SEATING].itertuples(index=False))) for side in (a, b)]
    both = keys[0] & keys[1]
    if both == keys[0] == keys[1]:
        return None
    for side in (a, b):
        seat = pd.MultiIndex.from_frame(side.outcomes[SEATING])
        side.outcomes = side.outcomes[seat.isin(list(both))].reset_index(drop=True)
    return (f"compared on the {plural(len(both), 'seating')} (heroes, loadouts, battlefield, who moves first) both runs "
            f"have games of, of {len(keys[0])} in A and {len(keys[1])} in B: an unfinished run's scores set against "
            "another's over other opponents would differ by the mix of opponents alone")


def diff_runs(run_a, run_b, common: bool = False, by_battlefield: bool = False) -> Diff:
    """Compare two matrix run folders (see the module doc). Raises DiffError (one line)
    on bad input: a folder that is not a matrix run (or of another storage format: the
    store's refusal), no finished game, other heroes without ``common``. When a run is
    unfinished both are compared on the seatings both have games of (:func:`common_seatings`)."""
    a, b = load_side(run_a), load_side(run_b)
    heroes, notes = check_heroes(a, b, common)
    seated = common_seatings(a, b)
    notes += [seated] if seated else []
    hero_t = field_scores(a, b, heroes)
    tables = {"diff_heroes": hero_t, "diff_ranking": ranking(hero_t), "diff_cells": cell_changes(a, b, heroes)}
    if by_battlefield:
        tables["diff_cells_by_battlefield"] = cell_changes(a, b, heroes, by_battlefield=True)
    names = {**hero_names(a.manifest), **hero_names(b.manifest)}
    return Diff(a, b, heroes, tables, spearman(hero_t), notes + settings_notes(a, b), names)


def sensitive_cells(run_dir, against, alpha: float = ALPHA) -> pd.DataFrame:
    """The matrix report's AI-sensitive cells: the pooled cells of ``run_dir`` whose change
    against the run ``against`` is significant after Holm (A = ``run_dir``, B =
    ``against``; compared on their common heroes). Rows of :func:`cell_changes` in both
    directions (``hero`` vs ``opponent`` and back, ``change`` and scores from ``hero``'s
    side), so a heatmap can mark either cell. Raises DiffError as :func:`diff_runs`."""
    d = diff_runs(run_dir, against, common=True)
    c = d.tables["diff_cells"]
    c = c[c["p_holm"] < alpha]
    back = c.rename(columns={"hero": "opponent", "opponent": "hero", "winner_a": "winner_a", "winner_b": "winner_b"})
    for s in ("a", "b"):
        back[f"score_{s}"] = 1 - c[f"score_{s}"]
        back[f"lo_{s}"], back[f"hi_{s}"] = 1 - c[f"hi_{s}"], 1 - c[f"lo_{s}"]
    back["change"], back["change_lo"], back["change_hi"] = -c["change"], -c["change_hi"], -c["change_lo"]
    back["z"] = -c["z"]
    return pd.concat([c, back[c.columns]], ignore_index=True).sort_values(["hero", "opponent"]).reset_index(drop=True)


# ------------------------------------------------------------------ text


def _iv(lo, hi, f=pct) -> str:
    return f"[{f(lo)}, {f(hi)}]"


def _rank(v) -> str:
    """A rank of the hero table, "n/a" for a hero without one (no game in that run)."""
    return "n/a" if pd.isna(v) else str(v)


def summary_text(d: Diff) -> str:
    """The plain-text summary: both runs, what differs, the hero table (the CSV's column
    names as headings), Spearman with the two rankings, the significant and the flipped
    cells."""
    h, names = d.tables["diff_heroes"], d.names
    lines = [f"A: {d.a.run_dir} (AI {d.a.ai}, {plural(d.a.games, 'game')})",
             f"B: {d.b.run_dir} (AI {d.b.ai}, {plural(d.b.games, 'game')})"]
    lines += [f"   {n}" for n in d.notes]
    lines += ["", "Field score: each hero's pooled score against the other heroes (wins + draws/2, mirrors "
                  "excluded), Wilson 95% interval; change = B - A in points with a 95% normal interval; "
                  "p_holm: two-proportion z test, Holm over the heroes.",
              f"{'hero':<18}{'score_a':>8} {'[lo_a, hi_a]':<16}{'score_b':>8} {'[lo_b, hi_b]':<16}"
              f"{'change':>7} {'[change_lo, change_hi]':<23}{'p_holm':>8}  rank_a→rank_b"]
    for _, r in h.iterrows():
        lines.append(f"{names.get(r['hero'], r['hero'])[:17]:<18}{pct(r['score_a']) or 'n/a':>8} "
                     f"{_iv(r['lo_a'], r['hi_a']):<16}{pct(r['score_b']) or 'n/a':>8} {_iv(r['lo_b'], r['hi_b']):<16}"
                     f"{pts(r['change']):>7} {_iv(r['change_lo'], r['change_hi'], pts):<23}"
                     f"{pvalue(r['p_holm']) if r['enough_games'] else 'too few':>8}{'*' if r['significant'] else ' '} "
                     f"{_rank(r['rank_a'])}→{_rank(r['rank_b'])}")
    for s, side in (("a", d.a), ("b", d.b)):
        none = [names.get(k, k) for k in h.loc[h[f"games_{s}"] == 0, "hero"]]
        if none:
            where = "on the seatings compared" if any(n.startswith("compared on the ") for n in d.notes) else "stored"
            lines.append(f"   no game against the other heroes {where} in {s.upper()} ({side.run_dir}) for "
                         f"{', '.join(none)}: no score or rank there (n/a)")
    rho, p = d.spearman
    lines += ["", "Spearman rank correlation of the field scores (A vs B): "
              + (f"{rho:+.3f} (p {pvalue(p)}, {len(h)} heroes)" if np.isfinite(rho) else
                 "undefined (fewer than 3 heroes, or all scores equal in a run)")]
    rk = d.tables["diff_ranking"]
    w = max(8, max(len(names.get(x, x)) for x in d.heroes) + 2)
    lines.append(f"{'rank':>4}  {'hero_a':<{w}}{'score_a':>8}   {'hero_b':<{w}}{'score_b':>8}")
    for _, r in rk.iterrows():
        lines.append(f"{r['rank']:>4}  {names.get(r['hero_a'], r['hero_a']):<{w}}{pct(r['score_a']):>8}   "
                     f"{names.get(r['hero_b'], r['hero_b']):<{w}}{pct(r['score_b']):>8}")
    c = d.tables["diff_cells"]
    sig, flip = d.significant_cells, d.flipped_cells
    lines += ["", f"Matchup cells (pooled over battlefields): {plural(len(c), 'cell')}, "
              f"{len(sig)} with a significant change (two-proportion z test, Holm over the cells), "
              f"{len(flip)} flipped (the winner changes beyond both Wilson intervals)."]
    few = int((~c["enough_games"]).sum())
    if few:
        lines.append(f"{plural(few, 'cell')} with too few games for a verdict (fewer than Cochran's rule asks: 5 "
                     "expected wins and losses in each run), left out of the test family.")
    for title, rows in (("significant", sig), ("flipped", flip)):
        if len(rows):
            lines.append(f"{title}: hero vs opponent  score_a → score_b  change [change_lo, change_hi]  p_holm")
            for _, r in rows.sort_values("p_holm", kind="stable").iterrows():
                lines.append(f"  {names.get(r['hero'], r['hero'])} vs {names.get(r['opponent'], r['opponent'])}  "
                             f"{pct(r['score_a'])} → {pct(r['score_b'])}  {pts(r['change'])} "
                             f"{_iv(r['change_lo'], r['change_hi'], pts)}  {pvalue(r['p_holm'])}")
    if "diff_cells_by_battlefield" in d.tables:
        cb = d.tables["diff_cells_by_battlefield"]
        lines.append(f"Per battlefield: {plural(len(cb), 'cell')}, {int(cb['significant'].sum())} significant "
                     f"(Holm over these cells), {int(cb['flip'].sum())} flipped.")
    return "\n".join(lines)


def to_json(d: Diff, files: dict | None = None) -> dict:
    """The diff as a JSON-ready dict: ``a`` / ``b`` (run folder, AI, games, warning),
    ``notes``, ``spearman`` {rho, p}, ``heroes`` and ``cells`` (rows of the tables, NaN
    as null), ``significant_cells`` / ``flipped_cells`` (counts) and ``files``."""
    def rows(df):
        return json.loads(df.to_json(orient="records"))
    rho, p = d.spearman
    return {"a": {"run": str(d.a.run_dir), "ai": d.a.ai, "games": d.a.games, "warning": d.a.warning},
            "b": {"run": str(d.b.run_dir), "ai": d.b.ai, "games": d.b.games, "warning": d.b.warning},
            "notes": d.notes, "spearman": {"rho": None if np.isnan(rho) else rho, "p": None if np.isnan(p) else p},
            "heroes": rows(d.tables["diff_heroes"]), "cells": rows(d.tables["diff_cells"]),
            "significant_cells": int(len(d.significant_cells)), "flipped_cells": int(len(d.flipped_cells)),
            "files": {k: str(v) for k, v in (files or {}).items()}}


# ------------------------------------------------------------------ files


def default_out(run_a, run_b) -> Path:
    """The default output folder: ``diff_<A>_<B>`` beside RUN_B (a diff belongs to neither
    run, and ``unmatched-sim report`` rewrites a run's own report folder)."""
    a, b = Path(run_a).resolve(), Path(run_b).resolve()
    return Path(run_b).parent / f"{DIFF_PREFIX}{a.name}_{b.name}"


def build_diff(run_a, run_b, out_dir=None, html: bool = True, common: bool = False,
               by_battlefield: bool = False) -> DiffReport:
    """Compute :func:`diff_runs` and write it to ``out_dir`` (default :func:`default_out`):
    ``tables/diff_heroes.csv``, ``diff_ranking.csv``, ``diff_cells.csv`` (and
    ``diff_cells_by_battlefield.csv``), each also as Parquet; ``plots/diff_heroes.png``
    (field scores A vs B with intervals, and the changes) and ``plots/diff_cells.png``
    (heatmap of cell changes, significant ones marked); ``diff.html`` (self-contained)
    unless ``html`` is false. Raises DiffError on bad input (also when ``out_dir`` is a
    run folder, or a file or in one) and OSError if the folder cannot be written."""
    from . import diff_plots as P   # lazy: matplotlib
    d = diff_runs(run_a, run_b, common, by_battlefield)
    out = Path(out_dir) if out_dir is not None else default_out(run_a, run_b)
    if (out / MANIFEST).exists():
        raise DiffError(f"{out} is a run folder; choose another --out for the diff")
    for p in (out, *out.parents):       # the folder, or one it would be made in, is a file
        if p.exists() and not p.is_dir():
            raise DiffError(f"{p} is a file, not a folder; choose another --out")
    out = report_dirs(out, out)
    rep = DiffReport(out, None, d.tables, summary_text(d), diff=d)
    write_tables(out, d.tables, list(d.tables), rep.csv, rep.parquet)
    figs = {"diff_heroes": P.plot_field_scores(d), "diff_cells": P.plot_cell_changes(d)}
    pngs = write_pngs(out, figs, rep.png)
    if html:
        from .diff_html import write_diff_html
        rep.html = write_diff_html(out / "diff.html", d, pngs, rep.summary)
    return rep
