"""Write a synthetic run folder in the stored format, for measuring the report of a big run.

    python tests/bench/synthetic_run.py OUT [GAMES_PER_PAIR]      # default 100000: 6.6 million games
    /usr/bin/time -v unmatched-sim report OUT                     # wall time, "Maximum resident set size"

Plans the full matrix (every installed hero and battlefield) as ``unmatched-sim matrix
--games GAMES_PER_PAIR`` would, writes its manifest, and fills every chunk with random games
(winner, turns, end reason, health, card plays of the right length per hero) straight with
pyarrow in the layout of a completed, compacted run (``sim.runs.store``: games files of at
most COMPACT_ROWS games with their chunk lists, one spaces file). No game is played, so a
6.6-million-game folder takes a minute or two instead of a quarter of an hour. Not a test:
the numbers are random, only the shapes are real.
"""
from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.parquet as pq

from sim.runs.drive import _prepare_folder
from sim.runs.matrix import plan_run
from sim.runs.store import CHUNKS_KEY, COMPACT_ROWS, GAMES_DIR, ROW_GROUP_ROWS, SPACES_DIR, spaces_table


def _strings(values: list[str], idx: np.ndarray) -> pa.Array:
    return pa.DictionaryArray.from_arrays(pa.array(idx.astype(np.int32)), pa.array(values, pa.string())).cast(pa.string())


def _batch(chunks, plan, rng) -> pa.Table:
    """The games of ``chunks`` (consecutive), random results."""
    cells = [ch.cell for ch in chunks]
    n = np.array([ch.n for ch in chunks])
    rows = int(n.sum())
    which = np.repeat(np.arange(len(chunks)), n)
    first = np.array([ch.first for ch in chunks])
    start = np.concatenate([[0], np.cumsum(n)[:-1]])
    game_index = first[which] + (np.arange(rows) - start[which])
    cols = {"matchup_id": pa.array(np.array([c.matchup_id for c in cells], np.int64)[which]),
            "game_index": pa.array(game_index.astype(np.int64)),
            "seed": pa.array(rng.integers(0, 2**32, rows, dtype=np.int64))}
    for name, attr in (("battlefield", "battlefield"), ("p1_hero", "p1"), ("p1_loadout", "p1_loadout"),
                       ("p2_hero", "p2"), ("p2_loadout", "p2_loadout")):
        vals = sorted({getattr(c, attr) for c in cells})
        pos = {v: i for i, v in enumerate(vals)}
        cols[name] = _strings(vals, np.array([pos[getattr(c, attr)] for c in cells])[which])
    w = rng.choice(np.array([0, 1, -1], np.int8), rows, p=[0.495, 0.495, 0.01])
    cols["winner"] = pa.array(w)
    cols["turns"] = pa.array(np.where(w < 0, 200, rng.integers(8, 60, rows)).astype(np.int32))
    cols["end_reason"] = _strings(["hero_defeated", "turn_cap"], (w < 0).astype(np.int32))
    for k in ("p1_health", "p2_health", "p1_sidekick_health", "p2_sidekick_health", "p1_cards_played",
              "p2_cards_played"):
        cols[k] = pa.array(rng.integers(0, 20, rows).astype(np.int16))
    cols["decisions"] = pa.array(rng.integers(100, 900, rows).astype(np.int32))
    for side, attr in (("p1", "p1"), ("p2", "p2")):
        k = np.array([len(plan.hero_info[getattr(c, attr)]["cards"]) for c in cells])[which].astype(np.int32)
        offsets = np.zeros(rows + 1, np.int32)
        np.cumsum(k, out=offsets[1:])
        vals = rng.integers(0, 3, int(offsets[-1])).astype(np.int16)
        cols[f"{side}_card_plays"] = pa.ListArray.from_arrays(pa.array(offsets), pa.array(vals, pa.int16()))
    return pa.table(cols)


def main(out: str, games_per_pair: int = 100_000) -> None:
    t0 = time.perf_counter()
    plan = plan_run(out, games=games_per_pair)
    manifest = _prepare_folder(plan)
    rng = np.random.default_rng(1)
    chunks = plan.chunks
    files, cur, n = [], [], 0
    for ch in chunks:                       # whole chunks, at most COMPACT_ROWS games a file
        if cur and n + ch.n > COMPACT_ROWS:
            files.append(cur)
            cur, n = [], 0
        cur.append(ch)
        n += ch.n
    files.append(cur)
    for i, group in enumerate(files):
        path = Path(out) / GAMES_DIR / f"compact-{i:08x}.parquet"
        writer = None
        for j in range(0, len(group), 1000):
            t = _batch(group[j:j + 1000], plan, rng)
            if writer is None:
                meta = {CHUNKS_KEY: json.dumps([[c.name, c.n] for c in group]).encode()}
                writer = pq.ParquetWriter(path, t.schema.with_metadata(meta))
            writer.write_table(t, row_group_size=ROW_GROUP_ROWS)
        writer.close()
        print(f"{path}: {sum(c.n for c in group):,} games", file=sys.stderr)
    sp = spaces_table(chunks, [rng.integers(0, 50, (2, len(plan.battlefield_info[c.cell.battlefield]["space_ids"])))
                               for c in chunks])
    pq.write_table(sp.replace_schema_metadata({CHUNKS_KEY: json.dumps([[c.name, c.n] for c in chunks]).encode()}),
                   Path(out) / SPACES_DIR / "compact-00000000.parquet")
    manifest["status"] = "complete"
    (Path(out) / "manifest.json").write_text(json.dumps(manifest, indent=1))
    print(f"{plan.games_total:,} games in {len(plan.cells)} cells, {len(chunks)} chunks: "
          f"{time.perf_counter() - t0:.0f} s", file=sys.stderr)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 100_000)
