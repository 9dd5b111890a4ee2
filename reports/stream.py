"""Reading a run's stored games as they stream: partial aggregates per batch, combined.

The reports never hold a run's game rows: :func:`scan_duels` reads the games files
(``sim.runs.store.iter_game_batches``: one Parquet row group at a time) and keeps only
counts that add up across batches:

- ``outcomes``: games per cell and result, columns ``p1_hero``, ``p1_loadout``,
  ``p2_hero``, ``p2_loadout``, ``battlefield``, ``winner`` (int8: 0 P1 won, 1 P2 won,
  -1 draw) and ``n`` (int64 games). Every score, interval, rating and test of the
  matrix, loadouts and compare reports is a function of these counts
  (``reports.tables.sides`` turns them into weighted per-side rows).
- ``lengths``: games per ``battlefield``, ``end_reason`` and ``turns`` (int32), ``n``:
  the game-length table, percentiles included, and its plot.
- ``cards``: per (hero, loadout) of either seat, over the games it played: ``games``
  (int), and per card of the hero file (int64 / float64 arrays of the file's cards)
  ``plays`` (sum of plays), ``played`` (games with at least one play), ``score_played``
  and ``score_unplayed`` (sum of the hero's score in the games it was / was not played).

Memory is one batch plus these counts (a few thousand rows however many games), and a
6.6-million-game run streams in well under a minute. For a team run,
:func:`scan_frames` applies a per-batch function to pandas frames of the batches (no
list columns) and sums its partial results.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.compute as pc

from sim.runs.store import iter_game_batches

CELL_KEYS = ["p1_hero", "p1_loadout", "p2_hero", "p2_loadout", "battlefield"]
LENGTH_KEYS = ["battlefield", "end_reason", "turns"]
DUEL_COLUMNS = CELL_KEYS + ["winner", "turns", "end_reason", "p1_card_plays", "p2_card_plays"]
BATCH_ROWS = 131_072


@dataclass
class CardCounts:
    """Card counters of one (hero, loadout) over the games it played (see the module doc)."""

    games: int = 0
    plays: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    played: np.ndarray = field(default_factory=lambda: np.zeros(0, np.int64))
    score_played: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float64))
    score_unplayed: np.ndarray = field(default_factory=lambda: np.zeros(0, np.float64))

    def add(self, mat: np.ndarray, score: np.ndarray) -> None:
        """Add games: ``mat`` (games, cards) plays per card, ``score`` (games,) float64."""
        k = mat.shape[1]
        if len(self.plays) != k:
            if self.games:
                raise ValueError(f"card lists of {len(self.plays)} and {k} cards for one hero")
            self.plays, self.played = np.zeros(k, np.int64), np.zeros(k, np.int64)
            self.score_played, self.score_unplayed = np.zeros(k), np.zeros(k)
        on = mat > 0
        self.games += mat.shape[0]
        self.plays += mat.sum(axis=0, dtype=np.int64)
        self.played += on.sum(axis=0)
        self.score_played += score @ on
        self.score_unplayed += score @ ~on


@dataclass
class DuelCounts:
    """What :func:`scan_duels` returns: ``games`` (int), ``outcomes`` and ``lengths``
    (DataFrames) and ``cards`` ({(hero, loadout): CardCounts}); see the module doc."""

    games: int
    outcomes: pd.DataFrame
    lengths: pd.DataFrame
    cards: dict


def _group_count(table: pa.Table, keys: list[str]) -> pa.Table:
    return table.group_by(keys, use_threads=False).aggregate([([], "count_all")]).rename_columns(keys + ["n"])


def _sum_counts(parts: list[pa.Table], keys: list[str]) -> pd.DataFrame:
    """Combine per-batch count tables: the sum of ``n`` per key, sorted by the keys."""
    if not parts:
        return pd.DataFrame({**{k: [] for k in keys}, "n": np.zeros(0, np.int64)})
    t = pa.concat_tables(parts).group_by(keys, use_threads=False).aggregate([("n", "sum")])
    df = t.rename_columns(keys + ["n"]).to_pandas()
    df["n"] = df["n"].astype(np.int64)
    return df.sort_values(keys, kind="stable").reset_index(drop=True)


def _card_matrix(lists: pa.ListArray, rows: np.ndarray) -> np.ndarray:
    """The plays of ``rows`` of a list column whose rows (one hero's) all have the same length."""
    offsets = lists.offsets.to_numpy()
    values = lists.values.to_numpy(zero_copy_only=False)
    start = offsets[rows]
    k = int(offsets[rows[0] + 1] - start[0]) if len(rows) else 0
    if len(rows) and not np.all(offsets[rows + 1] - start == k):
        raise ValueError("card-play lists of one hero with different lengths")
    return values[start[:, None] + np.arange(k)[None, :]].astype(np.int64)


def _add_cards(cards: dict, batch: pa.RecordBatch) -> None:
    winner = batch.column("winner").to_numpy(zero_copy_only=False)
    for seat, side in ((0, "p1"), (1, "p2")):
        score = np.where(winner == seat, 1.0, np.where(winner < 0, 0.5, 0.0))
        key = pc.binary_join_element_wise(batch.column(f"{side}_hero"), batch.column(f"{side}_loadout"), "\x1f")
        enc = key.dictionary_encode()
        idx = enc.indices.to_numpy(zero_copy_only=False)
        lists = batch.column(f"{side}_card_plays")
        for g, name in enumerate(enc.dictionary.to_pylist()):
            rows = np.flatnonzero(idx == g)
            if len(rows):
                hero, lo = name.split("\x1f", 1)
                cards.setdefault((hero, lo), CardCounts()).add(_card_matrix(lists, rows), score[rows])


def scan_duels(run_dir, cards: bool = True, batch_rows: int = BATCH_ROWS) -> DuelCounts:
    """Stream the stored duels of a run folder (matrix, loadouts, compare) into
    :class:`DuelCounts`. ``cards``: also count the card plays (the matrix report; the
    loadouts report does not need them). Does not check the manifest (the callers do)."""
    cols = DUEL_COLUMNS if cards else CELL_KEYS + ["winner", "turns", "end_reason"]
    outcome_parts, length_parts, card_counts = [], [], {}
    games = 0
    for batch in iter_game_batches(run_dir, cols, batch_rows):
        t = pa.Table.from_batches([batch])
        games += batch.num_rows
        outcome_parts.append(_group_count(t.select(CELL_KEYS + ["winner"]), CELL_KEYS + ["winner"]))
        length_parts.append(_group_count(t.select(LENGTH_KEYS), LENGTH_KEYS))
        if cards:
            _add_cards(card_counts, batch)
        if len(outcome_parts) >= 64:      # keep the partial counts small on a long run
            outcome_parts = [pa.Table.from_pandas(_sum_counts(outcome_parts, CELL_KEYS + ["winner"]),
                                                  preserve_index=False)]
            length_parts = [pa.Table.from_pandas(_sum_counts(length_parts, LENGTH_KEYS), preserve_index=False)]
    outcomes = _sum_counts(outcome_parts, CELL_KEYS + ["winner"])
    outcomes["winner"] = outcomes["winner"].astype(np.int8)
    lengths = _sum_counts(length_parts, LENGTH_KEYS)
    lengths["turns"] = lengths["turns"].astype(np.int32)
    return DuelCounts(games, outcomes, lengths, card_counts)


def count_games(games: pd.DataFrame) -> DuelCounts:
    """The same counts as :func:`scan_duels`, from a per-game DataFrame held in memory
    (``sim.runs.store.read_games``): for tests and notebooks."""
    if len(games) == 0:
        return DuelCounts(0, pd.DataFrame(columns=CELL_KEYS + ["winner", "n"]),
                          pd.DataFrame(columns=LENGTH_KEYS + ["n"]), {})
    t = pa.Table.from_pandas(games[[c for c in DUEL_COLUMNS if c in games.columns]], preserve_index=False)
    # pandas' strings arrive as large_string; the stored files hold string
    t = t.cast(pa.schema([pa.field(f.name, pa.string()) if pa.types.is_large_string(f.type) else f for f in t.schema]))
    out = DuelCounts(len(games), _sum_counts([_group_count(t.select(CELL_KEYS + ["winner"]), CELL_KEYS + ["winner"])],
                                             CELL_KEYS + ["winner"]),
                     _sum_counts([_group_count(t.select(LENGTH_KEYS), LENGTH_KEYS)], LENGTH_KEYS), {})
    out.outcomes["winner"] = out.outcomes["winner"].astype(np.int8)
    out.lengths["turns"] = out.lengths["turns"].astype(np.int32)
    if "p1_card_plays" in games.columns:
        for b in t.to_batches():
            _add_cards(out.cards, b)
    return out


def scan_frames(run_dir, columns: list[str], partial, batch_rows: int = BATCH_ROWS) -> list:
    """Apply ``partial(frame)`` to every batch of the stored games as a pandas DataFrame
    (``columns`` only; no list columns) and return the list of its results, to be
    combined by the caller (e.g. summed per key). Holds one batch at a time."""
    return [partial(b.to_pandas()) for b in iter_game_batches(run_dir, columns, batch_rows)]


def _sorted_histogram(values, counts) -> tuple[np.ndarray, np.ndarray]:
    """``(values, counts)`` as int64 arrays without the empty bins, sorted by value."""
    v = np.asarray(values, np.int64)
    c = np.asarray(counts, np.int64)
    keep = c > 0
    v, c = v[keep], c[keep]
    order = np.argsort(v, kind="stable")
    return v[order], c[order]


def weighted_stats(values: np.ndarray, counts: np.ndarray) -> dict:
    """Mean, sd (n-1), min, p10, median, p90 and max of integer ``values`` given with
    their ``counts`` (a histogram), equal to numpy/pandas on the expanded data
    (percentiles: numpy's linear interpolation). NaN for no data (sd: fewer than two)."""
    v, c = _sorted_histogram(values, counts)
    n = int(c.sum())
    if n == 0:
        return {"games": 0, "mean": np.nan, "sd": np.nan, "min": np.nan, "p10": np.nan, "median": np.nan,
                "p90": np.nan, "max": np.nan}
    s1 = int((v * c).sum())
    s2 = int((v * v * c).sum())
    var = (n * s2 - s1 * s1) / (n * (n - 1)) if n > 1 else np.nan
    return {"games": n, "mean": s1 / n, "sd": float(np.sqrt(var)) if n > 1 else np.nan, "min": int(v[0]),
            "p10": weighted_percentile(v, c, 10), "median": weighted_percentile(v, c, 50),
            "p90": weighted_percentile(v, c, 90), "max": int(v[-1])}


def weighted_percentile(values: np.ndarray, counts: np.ndarray, q: float) -> float:
    """The ``q``-th percentile (0..100) of integer ``values`` given with their ``counts``,
    as ``numpy.percentile`` (linear interpolation) of the expanded data; NaN if empty."""
    v, c = _sorted_histogram(values, counts)
    n = int(c.sum())
    if n == 0:
        return float("nan")
    cum = np.cumsum(c)
    h = (n - 1) * q / 100.0
    lo = int(np.floor(h))
    a = float(v[np.searchsorted(cum, lo, side="right")])
    b = float(v[np.searchsorted(cum, min(lo + 1, n - 1), side="right")])
    t = h - lo
    # numpy's lerp: a + t (b - a), from the upper end when t >= 0.5 (the same rounding)
    return b - (b - a) * (1 - t) if t >= 0.5 else a + (b - a) * t
