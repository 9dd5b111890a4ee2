"""pandas aggregation of a run's per-game rows into the report tables.

Every table counts draws: ``wins``, ``draws`` and ``losses`` are shown separately, and
``score = (wins + draws / 2) / games`` is the win rate with a draw as half a win; the
95% interval (``lo``, ``hi``) is the Wilson interval of that score. Game counts are
in games, lengths in turns, health in health points.

Entry point: :func:`compute_tables` (run folder -> dict of DataFrames). It streams the
stored games (:func:`reports.stream.scan_duels`) into counts and computes every table
from them, so its memory does not grow with the run. The functions below also take a
per-game DataFrame (``sim.runs.store.read_games``) for a small run held in memory: a
frame with an ``n`` column is read as counts (``n`` games per row), any other as one
game per row.
"""
from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd

from sim.runs.store import read_manifest, read_spaces

from .format import ALL, RATING_DEFINITION, SCORE_DEFINITION, column_names, hero_names, plural
from .loadout_stats import matrix_loadout_tables
from .stats import ELO_PER_LOGIT, bradley_terry, outcome_counts, score_interval
from .status import run_progress, unfinished_lines
from .stream import scan_duels, weighted_stats


def _weights(df: pd.DataFrame) -> np.ndarray:
    """Games per row: the ``n`` column of a counts frame, else 1 (one game per row)."""
    return df["n"].to_numpy(np.int64) if "n" in df.columns else np.ones(len(df), np.int64)


def sides(games: pd.DataFrame) -> pd.DataFrame:
    """One row per hero per game (two per game), from the per-game table; or, from the
    outcome counts of :func:`reports.stream.scan_duels` (a frame with ``n``), one row per
    hero per count row, weighted by its ``n``.

    Columns: ``hero``, ``loadout``, ``opponent``, ``opponent_loadout``, ``battlefield``,
    ``seat`` (int8: 0 moved first, 1 second), ``win`` / ``draw`` / ``loss`` (int8 0/1),
    ``score`` (float64: 1, 0.5 or 0), ``mirror`` (bool: both seats the same hero key);
    from games also ``turns`` (int32) and ``card_plays`` (int16 array per row), from
    counts ``n`` (int64 games). Shape (2 rows, 12 or 11 columns).
    """
    counted = "n" in games.columns
    out = []
    for seat, me, opp in ((0, "p1", "p2"), (1, "p2", "p1")):
        win = (games["winner"] == seat).astype(np.int8)
        draw = (games["winner"] < 0).astype(np.int8)
        cols = {
            "hero": games[f"{me}_hero"].to_numpy(object), "loadout": games[f"{me}_loadout"].to_numpy(object),
            "opponent": games[f"{opp}_hero"].to_numpy(object),
            "opponent_loadout": games[f"{opp}_loadout"].to_numpy(object),
            "battlefield": games["battlefield"].to_numpy(object),
            "seat": np.full(len(games), seat, np.int8),
            "win": win.to_numpy(), "draw": draw.to_numpy(), "loss": (1 - win - draw).astype(np.int8).to_numpy(),
            "score": win.to_numpy() + 0.5 * draw.to_numpy(),
        }
        if counted:
            cols["mirror"] = (games["p1_hero"] == games["p2_hero"]).to_numpy(bool)
            cols["n"] = games["n"].to_numpy(np.int64)
        else:
            cols["turns"] = games["turns"].to_numpy(np.int32)
            cols["mirror"] = (games["p1_hero"] == games["p2_hero"]).to_numpy(bool)
            cols["card_plays"] = games[f"{me}_card_plays"].to_numpy(object)
        out.append(pd.DataFrame(cols))
    return pd.concat(out, ignore_index=True)


def _rate(df: pd.DataFrame) -> pd.DataFrame:
    """Add score, win/draw rates and the Wilson interval to a frame with games/wins/draws/losses/points."""
    df = df.copy()
    g = df["games"].to_numpy(float)
    score, lo, hi = score_interval(df["points"].to_numpy(float), g)
    df["score"] = score
    with np.errstate(invalid="ignore", divide="ignore"):
        df["win_rate"] = df["wins"] / g
        df["draw_rate"] = df["draws"] / g
    df["lo"], df["hi"] = lo, hi
    return df.drop(columns="points")


def matchups(s: pd.DataFrame, by_battlefield: bool = False) -> pd.DataFrame:
    """Win rate of each hero against each other hero, from :func:`sides`.

    Rows: (hero, opponent[, battlefield]) with ``games``, ``wins``, ``draws``,
    ``losses``, ``score``, ``win_rate``, ``draw_rate``, ``lo``, ``hi``. Mirror rows
    (hero == opponent) count each game once: ``score`` is 0.5 by symmetry, ``wins`` and
    ``losses`` are half the decisive games. Pooled rows have battlefield ``"all"``.
    """
    by = ["hero", "opponent"] + (["battlefield"] if by_battlefield else [])
    t = outcome_counts(s, by)
    m = t["hero"] == t["opponent"]
    for c in ("games", "wins", "draws", "losses", "points"):
        t[c] = t[c].astype(float)
        t.loc[m, c] = t.loc[m, c] / 2
    t["games"] = t["games"].astype(np.int64)
    t["draws"] = t["draws"].astype(np.int64)
    if not by_battlefield:
        t.insert(2, "battlefield", ALL)
    return _rate(t)


def matchup_matrix(mt: pd.DataFrame, value: str = "score") -> pd.DataFrame:
    """Pivot of :func:`matchups` (battlefield "all"): rows hero, columns opponent."""
    t = mt[mt["battlefield"] == ALL]
    return t.pivot(index="hero", columns="opponent", values=value)


def seatings(games: pd.DataFrame) -> pd.DataFrame:
    """Per (p1, p2) hero pair: ``games`` and ``p1_score`` (P1 wins + draws / 2), the
    input of :func:`reports.stats.bradley_terry`. ``games``: per-game rows or counts."""
    w = _weights(games)
    pts = np.where(games["winner"] == 0, 1.0, np.where(games["winner"] < 0, 0.5, 0.0)) * w
    g = pd.DataFrame({"p1": games["p1_hero"].to_numpy(object), "p2": games["p2_hero"].to_numpy(object),
                      "w": w, "pts": pts})
    t = g.groupby(["p1", "p2"], sort=True).agg(games=("w", "sum"), p1_score=("pts", "sum")).reset_index()
    t["games"] = t["games"].astype(np.int64)
    return t


STRENGTH_COLUMNS = ["hero", "games", "wins", "draws", "losses", "score", "lo", "hi", "rating", "rating_lo",
                    "rating_hi"]


def strength(s: pd.DataFrame, mt: pd.DataFrame, games: pd.DataFrame, heroes) -> tuple[pd.DataFrame, object]:
    """Each hero's overall strength; returns ``(table, BradleyTerry fit)``.

    One definition of each figure (``reports.format.SCORE_DEFINITION`` and
    ``RATING_DEFINITION``), shown the same way in the summary, the HTML and the plot.
    Columns (:data:`STRENGTH_COLUMNS`): ``games`` / ``wins`` / ``draws`` / ``losses``
    against the other heroes (int64; mirrors excluded), ``score`` (float64: the pooled
    score (wins + draws/2) / games, 0..1) with ``lo`` / ``hi`` (its Wilson 95% interval),
    ``rating`` (float64: Bradley–Terry rating in Elo points, ratings sum to 0, fitted with
    a first-move term; NaN when no finite fit exists) with ``rating_lo`` / ``rating_hi``
    (its 95% interval, Elo points). ``mt`` is unused (kept for callers that pass the
    matchups). Sorted by ``rating`` (then ``score``), strongest first; a hero without
    games is last with NaN figures.
    """
    heroes = list(heroes)
    pooled = _rate(outcome_counts(s[~s["mirror"]], ["hero"])).set_index("hero")
    bt = bradley_terry(seatings(games), first_move=True, heroes=heroes)
    t = pd.DataFrame(index=pd.Index(heroes, name="hero"))
    t = t.join(pooled[["games", "wins", "draws", "losses", "score", "lo", "hi"]])
    for c in ("games", "wins", "draws", "losses"):
        t[c] = t[c].fillna(0).astype(np.int64)
    r = bt.ratings
    t["rating"] = r["elo"]
    t["rating_lo"], t["rating_hi"] = r["lo"] * ELO_PER_LOGIT, r["hi"] * ELO_PER_LOGIT
    t = t.sort_values(["rating", "score"], ascending=False, kind="stable", na_position="last")
    return t.reset_index()[STRENGTH_COLUMNS], bt


def battlefield_hero(s: pd.DataFrame) -> pd.DataFrame:
    """Each hero's score against the field (mirrors excluded) per battlefield.

    Rows (hero, battlefield) with games, wins, draws, losses, score, win_rate,
    draw_rate, lo, hi; also battlefield "all".
    """
    t = s[~s["mirror"]]
    per = outcome_counts(t, ["hero", "battlefield"])
    pooled = outcome_counts(t, ["hero"]).assign(battlefield=ALL)
    return _rate(pd.concat([per, pooled[per.columns]], ignore_index=True))


def first_player(games: pd.DataFrame) -> pd.DataFrame:
    """First-player advantage per battlefield and overall (mirrors included).
    ``games``: per-game rows or counts.

    Columns: ``battlefield``, ``games``, ``p1_wins``, ``p2_wins``, ``draws``,
    ``p1_score`` ((P1 wins + draws / 2) / games), ``lo``, ``hi`` (Wilson).
    """
    w = _weights(games)
    win = games["winner"].to_numpy()
    g = pd.DataFrame({"battlefield": games["battlefield"].to_numpy(object), "games": w,
                      "p1_wins": w * (win == 0), "p2_wins": w * (win == 1), "draws": w * (win < 0)})
    t = g.groupby("battlefield", sort=True)[["games", "p1_wins", "p2_wins", "draws"]].sum().reset_index()
    a = g[["games", "p1_wins", "p2_wins", "draws"]].sum().to_frame().T.assign(battlefield=ALL)
    t = pd.concat([t, a[t.columns]], ignore_index=True)
    for c in ("games", "p1_wins", "p2_wins", "draws"):
        t[c] = t[c].astype(np.int64)
    points = t["p1_wins"].to_numpy(float) + 0.5 * t["draws"].to_numpy(float)
    t["p1_score"], t["lo"], t["hi"] = score_interval(points, t["games"].to_numpy(float))
    return t


def first_player_by_hero(s: pd.DataFrame) -> pd.DataFrame:
    """Each hero's score when moving first and when moving second (mirrors excluded).

    Columns: hero, ``first_games``, ``first_score``, ``first_lo``, ``first_hi``,
    ``second_games``, ``second_score``, ``second_lo``, ``second_hi``, ``difference``.
    """
    t = _rate(outcome_counts(s[~s["mirror"]], ["hero", "seat"]))
    out = None
    for seat, name in ((0, "first"), (1, "second")):
        p = t[t["seat"] == seat].set_index("hero")[["games", "score", "lo", "hi"]]
        p.columns = [f"{name}_{c}" for c in p.columns]
        out = p if out is None else out.join(p, how="outer")
    if out is None or out.empty:
        return pd.DataFrame(columns=["hero", "first_games", "first_score", "first_lo", "first_hi",
                                     "second_games", "second_score", "second_lo", "second_hi", "difference"])
    out["difference"] = out["first_score"] - out["second_score"]
    return out.reset_index()


def game_length(games: pd.DataFrame) -> pd.DataFrame:
    """Game length in turns per battlefield and overall: games, mean, sd, min, p10,
    median, p90, max. ``games``: per-game rows, or the length counts of
    :func:`reports.stream.scan_duels` (``battlefield``, ``turns``, ``n``)."""
    w = _weights(games)
    t = pd.DataFrame({"battlefield": games["battlefield"].to_numpy(object), "turns": games["turns"].to_numpy(np.int64),
                      "n": w})
    rows = [dict(battlefield=bf, **weighted_stats(g["turns"], g["n"])) for bf, g in t.groupby("battlefield", sort=True)]
    rows.append(dict(battlefield=ALL, **weighted_stats(t["turns"], t["n"])))
    return pd.DataFrame(rows)


def end_reasons(games: pd.DataFrame) -> pd.DataFrame:
    """How games ended, per battlefield and overall: rows (battlefield, end_reason) with
    ``games`` and ``share`` (of that battlefield's games). ``games``: per-game rows or
    the length counts of :func:`reports.stream.scan_duels`."""
    g = pd.DataFrame({"battlefield": games["battlefield"].to_numpy(object),
                      "end_reason": games["end_reason"].to_numpy(object), "games": _weights(games)})
    t = g.groupby(["battlefield", "end_reason"], sort=True)["games"].sum().reset_index()
    a = g.groupby("end_reason", sort=True)["games"].sum().reset_index().assign(battlefield=ALL)
    t = pd.concat([t, a[t.columns]], ignore_index=True)
    t["games"] = t["games"].astype(np.int64)
    t["share"] = t["games"] / t.groupby("battlefield")["games"].transform("sum")
    return t


def cards(s: pd.DataFrame, hero_info: dict) -> pd.DataFrame:
    """Per-card statistics, one row per (hero, card), over every game the hero played
    with that card in its deck (both seats, mirrors included).

    Columns: hero, ``card`` (name), ``type``, ``index`` (position in the hero file),
    ``games`` (games with the card in the deck), ``plays`` (total plays),
    ``plays_per_game``, ``played_share`` (share of games with at least one play),
    ``unplayed_share`` (share of games it was never played), ``score_when_played`` /
    ``games_played``, ``score_when_unplayed``, ``lift`` (score when played minus
    score when unplayed).
    """
    rows = []
    for hero, info in hero_info.items():
        hs = s[s["hero"] == hero]
        ncard = len(info["cards"])
        if len(hs) == 0:
            continue
        plays = np.stack([np.asarray(a, np.int64) for a in hs["card_plays"]]) if ncard else np.zeros((len(hs), 0))
        copies = np.array([info["deck_copies"].get(lo, [0] * ncard) for lo in hs["loadout"]]).reshape(len(hs), ncard)
        score = hs["score"].to_numpy(float)
        for i, name in enumerate(info["cards"]):
            in_deck = copies[:, i] > 0
            n = int(in_deck.sum())
            p = plays[in_deck, i]
            sc = score[in_deck]
            played = p > 0
            rows.append({
                "hero": hero, "card": name, "type": info["card_types"][i], "index": i, "games": n,
                "plays": int(p.sum()), "plays_per_game": p.mean() if n else np.nan,
                "played_share": played.mean() if n else np.nan, "unplayed_share": (~played).mean() if n else np.nan,
                "games_played": int(played.sum()),
                "score_when_played": sc[played].mean() if played.any() else np.nan,
                "score_when_unplayed": sc[~played].mean() if (~played).any() else np.nan,
            })
    t = pd.DataFrame(rows)
    if len(t):
        t["lift"] = t["score_when_played"] - t["score_when_unplayed"]
    return t


def card_table(card_counts: dict, hero_info: dict) -> pd.DataFrame:
    """:func:`cards`' table from the streamed card counters of
    :func:`reports.stream.scan_duels` (``{(hero, loadout): CardCounts}``): the same
    columns and values, without holding a game row."""
    rows = []
    for hero, info in hero_info.items():
        mine = {lo: c for (h, lo), c in card_counts.items() if h == hero and c.games}
        if not mine:
            continue
        ncard = len(info["cards"])
        for i, name in enumerate(info["cards"]):
            n = plays = played = 0
            sp = su = 0.0
            for lo, c in mine.items():
                if info["deck_copies"].get(lo, [0] * ncard)[i] > 0 and i < len(c.plays):
                    n += c.games
                    plays += int(c.plays[i])
                    played += int(c.played[i])
                    sp += float(c.score_played[i])
                    su += float(c.score_unplayed[i])
            rows.append({
                "hero": hero, "card": name, "type": info["card_types"][i], "index": i, "games": n,
                "plays": plays, "plays_per_game": plays / n if n else np.nan,
                "played_share": played / n if n else np.nan, "unplayed_share": (n - played) / n if n else np.nan,
                "games_played": played,
                "score_when_played": sp / played if played else np.nan,
                "score_when_unplayed": su / (n - played) if n - played else np.nan,
            })
    t = pd.DataFrame(rows)
    if len(t):
        t["lift"] = t["score_when_played"] - t["score_when_unplayed"]
    return t


def loadouts(s: pd.DataFrame, hero_info: dict) -> pd.DataFrame:
    """Per-loadout rows for heroes with choice groups (empty if none has).

    Rows (hero, loadout, opponent) with games, wins, draws, losses, score, win_rate,
    draw_rate, lo, hi; opponent ``"field"`` pools every other hero (the hero's own
    other loadouts excluded).
    """
    with_lo = [h for h, info in hero_info.items() if any(info["loadouts"])]
    cols = ["hero", "loadout", "opponent", "games", "wins", "draws", "losses", "score", "win_rate", "draw_rate", "lo", "hi"]
    if not with_lo:
        return pd.DataFrame(columns=cols)
    t = s[s["hero"].isin(with_lo)]
    per = outcome_counts(t, ["hero", "loadout", "opponent"])
    field = outcome_counts(t[~t["mirror"]], ["hero", "loadout"]).assign(opponent="field")
    return _rate(pd.concat([per, field[per.columns]], ignore_index=True))[cols]


def space_counts(spaces: pd.DataFrame, battlefield_info: dict) -> pd.DataFrame:
    """Combats and defeats per battlefield space, summed over every stored chunk.

    Rows (battlefield, space index, ``space`` id) with ``combats`` (combats whose
    defender stood there), ``defeats`` (fighters defeated there), ``games`` (games on
    that battlefield), ``combats_per_game``, ``defeats_per_game``, ``x`` / ``y`` (layout
    pixels).
    """
    rows = []
    for bf, info in battlefield_info.items():
        sp = spaces[spaces["battlefield"] == bf]
        n = len(info["space_ids"])
        comb = np.zeros(n, np.int64)
        dfs = np.zeros(n, np.int64)
        for a, b in zip(sp["combats"], sp["defeats"]):
            comb += np.asarray(a, np.int64)[:n]
            dfs += np.asarray(b, np.int64)[:n]
        g = int(sp["games"].sum())
        for i, sid in enumerate(info["space_ids"]):
            x, y = info["xy"][i]
            rows.append({"battlefield": bf, "index": i, "space": sid, "combats": int(comb[i]), "defeats": int(dfs[i]),
                         "games": g, "combats_per_game": comb[i] / g if g else np.nan,
                         "defeats_per_game": dfs[i] / g if g else np.nan,
                         "x": np.nan if x is None else x, "y": np.nan if y is None else y})
    return pd.DataFrame(rows)


def compute_tables(run_dir) -> dict:
    """All report tables of a run folder (from its stored games, streamed: memory does not
    grow with the run).

    Returns a dict: ``manifest`` (dict), ``totals`` (dict: ``games``, ``draws``,
    ``mean_turns``), ``counts`` (:class:`reports.stream.DuelCounts`: the outcome, length
    and card counts everything else is computed from), and the DataFrames ``matchups``,
    ``matchups_by_battlefield``, ``strength``, ``battlefield_hero``, ``first_player``,
    ``first_player_by_hero``, ``game_length``, ``end_reasons``, ``cards``, ``loadouts``,
    ``spaces`` (see each function), ``loadout_best`` and ``gear_effects``
    (``reports.loadout_stats.matrix_loadout_tables``), plus ``bt`` (the Bradley–Terry
    fit), ``progress`` (``sim.runs.store.RunProgress``: is the run finished?) and
    ``short_pairs`` (:func:`short_pairs`: the matchups with fewer games than planned). Raises ``sim.runs.errors.RunError`` if ``run_dir`` is not a run folder and
    ValueError if it holds no finished game.
    """
    run_dir = Path(run_dir)
    manifest = read_manifest(run_dir)
    counts = scan_duels(run_dir)
    if counts.games == 0:
        raise ValueError(run_progress(run_dir, manifest).no_games(run_dir, "matrix"))
    oc = counts.outcomes
    s = sides(oc)
    heroes = list(manifest["heroes"])
    mt = matchups(s)
    st, bt = strength(s, mt, oc, heroes)
    lo_best, gear = matrix_loadout_tables(s, manifest["heroes"])
    ln = counts.lengths
    totals = {"games": counts.games, "draws": int(oc.loc[oc["winner"] < 0, "n"].sum()),
              "mean_turns": float((ln["turns"].to_numpy(np.int64) * ln["n"].to_numpy()).sum() / counts.games)}
    return {
        "manifest": manifest, "totals": totals, "counts": counts,
        "progress": run_progress(run_dir, manifest), "short_pairs": short_pairs(manifest, oc),
        "matchups": mt, "matchups_by_battlefield": matchups(s, by_battlefield=True),
        "strength": st, "bt": bt, "battlefield_hero": battlefield_hero(s),
        "first_player": first_player(oc), "first_player_by_hero": first_player_by_hero(s),
        "game_length": game_length(ln), "end_reasons": end_reasons(ln),
        "cards": card_table(counts.cards, manifest["heroes"]), "loadouts": loadouts(s, manifest["heroes"]),
        "loadout_best": lo_best, "gear_effects": gear,
        "spaces": space_counts(read_spaces(run_dir), manifest["battlefields"]),
    }


def short_pairs(manifest: dict, outcomes: pd.DataFrame) -> list[tuple[str, str, int, int]]:
    """The hero pairs (each unordered pair once, mirrors included) with fewer games stored
    than the run plans: ``[(hero, opponent, stored, planned)]`` sorted by the share stored,
    lowest first. ``manifest``: the run's (its ``cells`` give the planned games);
    ``outcomes``: ``reports.stream.DuelCounts.outcomes``. Empty for a finished run."""
    planned: dict = {}
    for c in manifest.get("cells", []):
        k = tuple(sorted((c["p1"], c["p2"])))
        planned[k] = planned.get(k, 0) + int(c["games"])
    stored: dict = {}
    for a, b, n in zip(outcomes["p1_hero"], outcomes["p2_hero"], outcomes["n"]):
        k = tuple(sorted((a, b)))
        stored[k] = stored.get(k, 0) + int(n)
    out = [(a, b, stored.get((a, b), 0), n) for (a, b), n in planned.items() if stored.get((a, b), 0) < n]
    return sorted(out, key=lambda r: (r[2] / r[3], r[0], r[1]))


def unfinished_banner(tables: dict, names: dict | None = None) -> list[str]:
    """The lines that open the summary (and the HTML) of an unfinished run
    (``reports.status.unfinished_lines`` of the tables' ``progress`` and ``short_pairs``);
    empty for a complete run."""
    return unfinished_lines(tables.get("progress"), tables["totals"]["games"], tables.get("short_pairs") or (), names)


TABLE_NAMES = ("strength", "matchups", "matchups_by_battlefield", "battlefield_hero", "first_player",
               "first_player_by_hero", "game_length", "end_reasons", "cards", "loadouts", "loadout_best",
               "gear_effects", "spaces")


def sensitive_marks(tables: dict) -> set:
    """The (hero, opponent) cells marked AI-sensitive (both directions): the rows of
    ``tables["ai_sensitive"]`` (``build_report(..., against=...)``), else empty."""
    t = tables.get("ai_sensitive")
    return set() if t is None else set(zip(t["hero"], t["opponent"]))


def variant_label(variant: dict, heroes: list) -> str:
    """A run's variant as its summary and HTML name it: ``name (file)``, and, when the
    variant changes none of the run's ``heroes`` (keys), says so: its games are those of
    the hero files as installed."""
    label = f"{variant['name']} ({variant['file']})"
    changed = sorted(variant.get("heroes", {}))
    if not set(changed) & set(heroes):
        label += (f"; it changes {', '.join(changed)}, none of this run's heroes: the games are those of the "
                  "hero files as installed")
    return label


def summary_text(tables: dict) -> str:
    """A short plain-text summary: the AI profile, games, draws, first-player advantage,
    hero strength, the matchups (AI-sensitive cells marked ``†`` when the report was
    built against another run)."""
    tot = tables["totals"]
    n, draws = tot["games"], tot["draws"]
    fp = tables["first_player"].set_index("battlefield").loc[ALL]
    manifest = tables.get("manifest", {})
    settings = manifest.get("settings", {})
    variant = settings.get("variant")
    lines = unfinished_banner(tables, hero_names(manifest))
    lines += [""] if lines else []
    lines += [f"AI profile: {settings['ai']} (both seats)."] if "ai" in settings else []
    lines += [f"Variant: {variant_label(variant, list(manifest.get('heroes', {})))}."] if variant else []
    names = hero_names(manifest)
    st = tables["strength"]
    # heroes by their display names, as the plots and the HTML name them (the CSVs keep the keys)
    hw = max([16] + [len(names.get(h, h)) + 2 for h in st["hero"]])
    lines += [f"{plural(n, 'game')}, {plural(draws, 'draw')} ({draws / n:.1%}); mean length {tot['mean_turns']:.1f} turns.",
             f"First player scores {fp['p1_score']:.1%} [{fp['lo']:.1%}, {fp['hi']:.1%}] (draws count half).",
             "", f"{'hero':<{hw}}{'score':>7} {'[lo, hi]':<17}{'rating':>7} {'[rating_lo, rating_hi]':<23}{'games':>7}"]
    for _, r in st.iterrows():
        sc = f"{r['score']:>7.1%} [{r['lo']:.1%}, {r['hi']:.1%}]" if pd.notna(r["score"]) else f"{'n/a':>7}"
        rt = (f"{r['rating']:>+7.0f} [{r['rating_lo']:+.0f}, {r['rating_hi']:+.0f}]" if pd.notna(r["rating"])
              else f"{'n/a':>7}")
        lines.append(f"{names.get(r['hero'], r['hero']):<{hw}}{sc:<25}{rt:<31}{int(r['games']):>7}")
    lines += [f"({SCORE_DEFINITION};", f" {RATING_DEFINITION})"]
    if tables["strength"]["rating"].isna().all() and len(tables["strength"]) > 1:
        lines.append("(no rating: a hero won or lost every game against the others; play more games)")
    mm = matchup_matrix(tables["matchups"])
    # rows and columns by display name, as the HTML's matchup table orders them
    order = sorted(mm.index, key=lambda k: names.get(k, k))
    mm = mm.reindex(index=order, columns=[c for c in order if c in mm.columns])
    marks = sensitive_marks(tables)
    if len(mm) > 1:
        cols = column_names(mm.columns, names)
        rw = max([16] + [len(names.get(h, h)) + 2 for h in mm.index])
        lines += ["", "Score of row hero vs column hero (draws count half):"]
        w = min(17, max(8, max(len(cols[h]) for h in mm.columns) + 1))
        lines.append((" " * rw + "".join(f"{cols[c][:w - 1]:>{w}} " for c in mm.columns)).rstrip())
        for h, row in mm.iterrows():
            lines.append(f"{names.get(h, h):<{rw}}" + "".join(
                f"{v:>{w}.1%}" + ("†" if (h, o) in marks else " ") if pd.notna(v) else " " * (w + 1)
                for o, v in row.items()).rstrip())
    if "ai_sensitive" in tables:
        ag = tables["against"]
        k = len(tables["ai_sensitive"]) // 2
        lines += ["", f"† AI-sensitive: {plural(k, 'cell')} whose score changes significantly (two-proportion z "
                      f"test, Holm over the cells) against {ag['run']} (AI {ag['ai']}, {plural(ag['games'], 'game')}); see "
                      "`unmatched-sim diff`."]
        lines += [f"Note: {ag[k]}" for k in ("heroes", "same_ai") if ag.get(k)]
    return "\n".join(lines)
