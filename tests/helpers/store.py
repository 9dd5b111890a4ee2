"""Test helpers for stored run folders: drop a chunk from the stored files (as if a run had
been interrupted before that chunk was stored)."""
import json
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pyarrow.parquet as pq

from sim.runs.store import CHUNKS_KEY, GAMES_DIR, SPACES_DIR, file_chunks


def stored_chunk_names(run_dir) -> list[str]:
    """Every chunk name recorded in the games files of ``run_dir``, sorted."""
    out = []
    for p in sorted((Path(run_dir) / GAMES_DIR).glob("*.parquet")):
        out += list(file_chunks(p) or {})
    return sorted(out)


def drop_chunk(run_dir, name: str) -> int:
    """Rewrite the games and spaces files of a matrix-style run folder without chunk ``name``
    (``<matchup id hex>-<first game>``); returns the games removed."""
    mid, first = int(name.split("-")[0], 16), int(name.split("-")[1])
    removed = 0
    for sub in (GAMES_DIR, SPACES_DIR):
        for p in sorted((Path(run_dir) / sub).glob("*.parquet")):
            chunks = file_chunks(p)
            if not chunks or name not in chunks:
                continue
            n = chunks.pop(name)
            t = pq.read_table(p)
            if sub == GAMES_DIR:
                gi = t.column("game_index").to_numpy()
                drop = (t.column("matchup_id").to_numpy() == mid) & (gi >= first) & (gi < first + n)
                removed = int(drop.sum())
            else:
                drop = np.asarray(pc.equal(t.column("chunk"), name))
            t = t.filter(pa.array(~drop))
            meta = dict(t.schema.metadata or {})
            meta[CHUNKS_KEY] = json.dumps([[k, v] for k, v in chunks.items()]).encode()
            pq.write_table(t.replace_schema_metadata(meta), p)
    return removed
