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


def _chunk_rows(t: pa.Table, sub: str, name: str, n: int) -> np.ndarray:
    """bool (rows,): the rows of chunk ``name`` (``<matchup id hex>-<first game>``, ``n`` games)
    in table ``t`` of a games file (``sub`` GAMES_DIR) or a spaces file."""
    if sub != GAMES_DIR:
        return np.asarray(pc.equal(t.column("chunk"), name))
    mid, first = int(name.split("-")[0], 16), int(name.split("-")[1])
    gi = t.column("game_index").to_numpy()
    return (t.column("matchup_id").to_numpy() == mid) & (gi >= first) & (gi < first + n)


def _holding(run_dir, subs, name: str):
    """Each stored file of ``run_dir`` (in the folders ``subs``, in that order) that holds chunk
    ``name``: ``(sub, path, {chunk: games}, its table, bool rows of the chunk)``."""
    for sub in subs:
        for p in sorted((Path(run_dir) / sub).glob("*.parquet")):
            chunks = file_chunks(p)
            if chunks and name in chunks:
                t = pq.read_table(p)
                yield sub, p, chunks, t, _chunk_rows(t, sub, name, chunks[name])


def drop_chunk(run_dir, name: str) -> int:
    """Rewrite the games and spaces files of a matrix-style run folder without chunk ``name``
    (``<matchup id hex>-<first game>``); returns the games removed."""
    removed = 0
    for sub, p, chunks, t, rows in _holding(run_dir, (GAMES_DIR, SPACES_DIR), name):
        chunks.pop(name)
        removed = int(rows.sum()) if sub == GAMES_DIR else removed
        t = t.filter(pa.array(~rows))
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


def restore_chunk(source_dir, run_dir, name: str) -> int:
    """Store chunk ``name`` of the run folder ``source_dir`` (the same run, finished) in
    ``run_dir`` as its command would: a spaces part file, then a games part file, each with
    the chunk's rows alone (as a run storing one more task). Returns the games stored."""
    games = 0
    for sub, _, chunks, t, rows in _holding(source_dir, (SPACES_DIR, GAMES_DIR), name):
        games = int(rows.sum()) if sub == GAMES_DIR else games
        t = t.filter(pa.array(rows))
        meta = dict(t.schema.metadata or {})
        meta[CHUNKS_KEY] = json.dumps([[name, chunks[name]]]).encode()
        pq.write_table(t.replace_schema_metadata(meta), Path(run_dir) / sub / f"part-restored-{name}.parquet")
    return games
