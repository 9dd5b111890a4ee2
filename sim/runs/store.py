"""The run folder: manifest, stored games and space counters.

Run folder layout::

    manifest.json                      settings, package version, cells, hero and
                                       battlefield facts for the reports, timings
    games/part-<chunk>.parquet         one row per game (see GAME_COLUMNS)
    spaces/part-<chunk>.parquet        one row per chunk: combats and defeats per space
    report/                            written by the reports

Each file is written to a temporary name and renamed, so a file is either complete or
absent; a chunk is done when its games file holds all its games.
"""
from __future__ import annotations

import json
import os
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.dataset as ds
import pyarrow.parquet as pq

from sim.engine import game as G
from sim.engine.codes import END_REASON_LABELS
from sim.runs.cells import Chunk
from sim.runs.errors import RunError

RUN_KIND = "unmatched-sim matrix run"
# the stored layout's number; format 2 stores a team run's winner as 0/1 (team1/team2) and -1 for
# a draw, as a duel's seats (format 1 stored 1/2 and 0)
FORMAT_VERSION = 2
MANIFEST = "manifest.json"
GAMES_DIR = "games"
SPACES_DIR = "spaces"

# end reasons (codes.END_*) as stored in the ``end_reason`` column
END_REASONS = END_REASON_LABELS

#: Columns of the per-game table (``read_games``), one row per game. P1 is seat 0 and
#: moves first; P2 is seat 1.
GAME_COLUMNS = {
    "matchup_id": "int64: CRC-32 of the cell identity (0..2**32-1)",
    "game_index": "int64: index of the game within its cell (0..games-1)",
    "seed": "int64: the game's seed, game_seed(run seed, matchup_id, game_index), 0..2**32-1",
    "battlefield": "string: battlefield key",
    "p1_hero": "string: hero key of the first player (seat 0)",
    "p1_loadout": "string: loadout of P1 ('' for a hero without choice groups)",
    "p2_hero": "string: hero key of the second player (seat 1)",
    "p2_loadout": "string: loadout of P2",
    "winner": "int8: 0 = P1 won, 1 = P2 won, -1 = draw (turn cap or engine error)",
    "turns": "int32: turns played (turns)",
    "end_reason": "string: hero_defeated, turn_cap or error",
    "p1_health": "int16: P1's hero health at the end (health points)",
    "p2_health": "int16: P2's hero health at the end (health points)",
    "p1_sidekick_health": "int16: total health of P1's sidekicks still in play",
    "p2_sidekick_health": "int16: total health of P2's sidekicks still in play",
    "p1_cards_played": "int16: cards P1 played (attack, defense, scheme)",
    "p2_cards_played": "int16: cards P2 played",
    "decisions": "int32: policy decisions taken in the game",
    "p1_card_plays": "list<int16>: plays of each card of P1's hero file (index = order in the file)",
    "p2_card_plays": "list<int16>: plays of each card of P2's hero file",
}

SORT_KEYS = ["p1_hero", "p1_loadout", "p2_hero", "p2_loadout", "battlefield", "game_index"]


def read_manifest(run_dir) -> dict:
    """The run folder's manifest (dict); raises RunError if it is missing or not a run's."""
    p = Path(run_dir) / MANIFEST
    try:
        m = json.loads(p.read_text(encoding="utf-8"))
    except (OSError, ValueError) as e:
        raise RunError(f"{run_dir}: not a run folder of matrix, teams, loadouts or compare "
                       f"(cannot read {MANIFEST}: {e})", "RUN_DIR") from None
    if not isinstance(m, dict) or m.get("kind") != RUN_KIND:
        raise RunError(f"{run_dir}: {MANIFEST} is not an unmatched-sim matrix manifest", "RUN_DIR")
    if m.get("format") != FORMAT_VERSION:
        raise RunError(f"{run_dir}: a run folder of format {m.get('format')}, written by unmatched-sim "
                       f"{m.get('package_version', '?')}; this version reads format {FORMAT_VERSION}: play the run "
                       "again into a new --out folder", "RUN_DIR")
    return m


def write_json(path: Path, data: dict) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    tmp.write_text(json.dumps(data, indent=1, sort_keys=False), encoding="utf-8")
    os.replace(tmp, path)




def games_table(chunk: Chunk, res: np.ndarray, played: np.ndarray, n_cards: tuple):
    c, n = chunk.cell, chunk.n

    def lists(seat):
        k = n_cards[seat]
        values = pa.array(np.ascontiguousarray(played[:, seat, :k]).reshape(-1), pa.int16())
        offsets = pa.array(np.arange(0, (n + 1) * k, k, dtype=np.int32) if k else np.zeros(n + 1, np.int32))
        return pa.ListArray.from_arrays(offsets, values)

    reasons = np.array([END_REASONS.get(int(r), f"code_{int(r)}") for r in res[:, G.RES_REASON]], dtype=object)
    seeds = res[:, G.RES_SEED] & 0xFFFFFFFF
    cols = {
        "matchup_id": pa.array(np.full(n, c.matchup_id, np.int64)),
        "game_index": pa.array(np.arange(chunk.first, chunk.first + n, dtype=np.int64)),
        "seed": pa.array(seeds.astype(np.int64)),
        "battlefield": pa.array([c.battlefield] * n, pa.string()),
        "p1_hero": pa.array([c.p1] * n, pa.string()),
        "p1_loadout": pa.array([c.p1_loadout] * n, pa.string()),
        "p2_hero": pa.array([c.p2] * n, pa.string()),
        "p2_loadout": pa.array([c.p2_loadout] * n, pa.string()),
        "winner": pa.array(res[:, G.RES_WINNER].astype(np.int8)),
        "turns": pa.array(res[:, G.RES_TURNS].astype(np.int32)),
        "end_reason": pa.array(reasons, pa.string()),
        "p1_health": pa.array(res[:, G.RES_HP0].astype(np.int16)),
        "p2_health": pa.array(res[:, G.RES_HP1].astype(np.int16)),
        "p1_sidekick_health": pa.array(res[:, G.RES_SK0].astype(np.int16)),
        "p2_sidekick_health": pa.array(res[:, G.RES_SK1].astype(np.int16)),
        "p1_cards_played": pa.array(res[:, G.RES_PLAYED0].astype(np.int16)),
        "p2_cards_played": pa.array(res[:, G.RES_PLAYED1].astype(np.int16)),
        "decisions": pa.array(res[:, G.RES_DECISIONS].astype(np.int32)),
        "p1_card_plays": lists(0),
        "p2_card_plays": lists(1),
    }
    return pa.table(cols)


def spaces_table(chunk: Chunk, spaces: np.ndarray):
    c = chunk.cell
    return pa.table({
        "chunk": [chunk.name], "matchup_id": pa.array([c.matchup_id], pa.int64()), "games": pa.array([chunk.n], pa.int64()),
        "battlefield": [c.battlefield], "p1_hero": [c.p1], "p1_loadout": [c.p1_loadout],
        "p2_hero": [c.p2], "p2_loadout": [c.p2_loadout],
        "combats": pa.array([spaces[0].astype(np.int64)], pa.list_(pa.int64())),
        "defeats": pa.array([spaces[1].astype(np.int64)], pa.list_(pa.int64())),
    })


def write_parquet(table, path: Path) -> None:
    tmp = path.with_name(f".{path.name}.tmp")
    pq.write_table(table, tmp)
    os.replace(tmp, path)


def write_chunk(run_dir, chunk: Chunk, res, played, spaces, n_cards: tuple) -> None:
    """Store one finished chunk: the spaces file, then the games file (whose presence
    marks the chunk done). Each file is written to a temporary name and renamed."""
    run_dir = Path(run_dir)
    write_parquet(spaces_table(chunk, spaces), run_dir / SPACES_DIR / f"part-{chunk.name}.parquet")
    write_parquet(games_table(chunk, res, played, n_cards), run_dir / GAMES_DIR / f"part-{chunk.name}.parquet")


def finished_chunks(run_dir, chunks) -> set[str]:
    """Names of the ``chunks`` (objects with ``name`` and ``n``) whose games are stored in
    ``run_dir``: a games file that can be read and holds the chunk's ``n`` rows. A stored
    file that is damaged (cut short, overwritten, not Parquet) is removed, with the chunk's
    spaces file, so that resuming plays that chunk again; files of other chunks are ignored."""
    run_dir = Path(run_dir)
    wanted = {ch.name: ch.n for ch in chunks}
    done = set()
    for f in stored_files(run_dir, GAMES_DIR):
        name = f.name[len("part-"):-len(".parquet")]
        if name not in wanted:
            continue
        try:
            whole = pq.read_metadata(f).num_rows == wanted[name]
        except Exception:   # pyarrow raises several kinds for a damaged file
            whole = False
        if whole:
            done.add(name)
        else:
            f.unlink(missing_ok=True)
            (run_dir / SPACES_DIR / f.name).unlink(missing_ok=True)
    return done


def stored_files(run_dir: Path, sub: str) -> list[Path]:
    return sorted((run_dir / sub).glob("part-*.parquet"))


def read_games(run_dir):
    """All stored games of a run folder as a pandas DataFrame (one row per game).

    Columns: :data:`GAME_COLUMNS` (list columns hold numpy int16 arrays); rows sorted by
    P1 hero, P1 loadout, P2 hero, P2 loadout, battlefield, game index, with a fresh
    RangeIndex, so the table does not depend on chunking or worker count. Returns an
    empty DataFrame with those columns if no chunk is stored. Raises RunError if
    ``run_dir`` is not a run folder.
    """
    run_dir = Path(run_dir)
    read_manifest(run_dir)
    files = stored_files(run_dir, GAMES_DIR)
    if not files:
        return pd.DataFrame({c: [] for c in GAME_COLUMNS})
    table = ds.dataset([str(f) for f in files], format="parquet").to_table()
    df = table.to_pandas()
    return df.sort_values(SORT_KEYS, kind="stable").reset_index(drop=True)


def read_spaces(run_dir):
    """Per-chunk space counters of the finished chunks as a DataFrame: one row per chunk
    with ``chunk``, ``matchup_id``, ``games``, ``battlefield``, the heroes and loadouts,
    and ``combats`` / ``defeats`` (int64 arrays, one entry per space of the battlefield,
    in the battlefield's space order). Sorted by chunk name."""
    run_dir = Path(run_dir)
    done = {p.name for p in stored_files(run_dir, GAMES_DIR)}
    files = [f for f in stored_files(run_dir, SPACES_DIR) if f.name in done]
    if not files:
        return pd.DataFrame(columns=["chunk", "matchup_id", "games", "battlefield", "p1_hero", "p1_loadout",
                                     "p2_hero", "p2_loadout", "combats", "defeats"])
    df = ds.dataset([str(f) for f in files], format="parquet").to_table().to_pandas()
    return df.sort_values("chunk").reset_index(drop=True)
