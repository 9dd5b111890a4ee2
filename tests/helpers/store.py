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


def mirror_only_run(run_dir) -> Path:
    """An unfinished matrix run folder (Medusa and Sinbad on Soho, random AI, 8 games per
    pair) stopped after its first stored chunk: 4 games of Medusa against Medusa, the only
    games stored (as a run Ctrl-C'd just after its first games were stored)."""
    import pytest

    from sim.runs.errors import RunInterrupted
    from sim.runs.matrix import run_matrix

    def stop(name, done):
        raise KeyboardInterrupt

    with pytest.raises(RunInterrupted):
        run_matrix(run_dir, games=8, heroes=["medusa", "sinbad"], battlefields=["soho"], ai="random", seed=1,
                   jobs=1, chunk_size=4, task_games=4, after_chunk=stop)
    return Path(run_dir)
