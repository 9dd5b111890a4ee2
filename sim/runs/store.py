"""The run folder: manifest, stored games and space counters.

Run folder layout (format 3)::

    manifest.json                      settings, package version, cells, hero and
                                       battlefield facts for the reports, timings
    games/part-<task>.parquet          the games of one worker task, one row per game
                                       (see GAME_COLUMNS; a team run: TEAM_GAME_COLUMNS)
    games/compact-<hash>.parquet       after a completed run: the part files merged, one
                                       file per COMPACT_ROWS games (usually one)
    spaces/part-<task>.parquet         one row per chunk of the task: combats and defeats
    spaces/compact-<hash>.parquet      per space (matrix, loadouts and compare runs only)
    manifest.json.bak                  the manifest as last written (read when manifest.json is
                                       damaged; see read_manifest)
    .lock                              held by the command playing the run (sim.runs.lock)
    report/                            written by the reports

A run's games are planned as **chunks** (a cell's game range; the unit of resuming) and
played in **tasks** (many chunks, a few seconds of play: the unit of a worker's work and
of a stored file). Every stored file records the chunks it holds in its Parquet
key-value metadata (``CHUNKS_KEY``: JSON ``[[chunk name, games], ...]``); a file's
rows are exactly those games. Each file is written to a temporary name, flushed to
disk and renamed, so a file is either complete or absent; a task's spaces file is
written before its games file, and a chunk is done when a games file holds it.

The files to read are chosen by :func:`select_files`: the files holding the most
chunks first, then each file whose chunks are all still unclaimed; a file whose chunks
another file already holds (a part file left by a compaction that was cut short) is
redundant and skipped. So a folder is consistent at every moment of a run, of a kill
and of a compaction. A chunk's games and space counters depend only on the run seed
and the chunk, so two files holding the same chunk hold the same rows.

A chunk is *complete* when a games file holds it and, in a run with space counters, a
spaces file holds it too (:func:`stored_state`); :func:`run_progress` is the one rule
every command and report uses to say whether a run is finished.
"""
from __future__ import annotations

import hashlib
import json
import os
import zlib
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass
from pathlib import Path

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

from sim.engine import game as G
from sim.engine.codes import END_REASON_LABELS
from sim.runs.errors import RunError

RUN_KIND = "unmatched-sim matrix run"
# the stored layout's number. Format 3 stores the games of a worker task (many chunks) in
# one file with its chunk list in the Parquet metadata, and compacts a completed run;
# format 2 stored one file per chunk; format 2 also changed a team run's winner to 0/1/-1
FORMAT_VERSION = 3
MANIFEST = "manifest.json"
#: the manifest as last written, beside it: read when manifest.json is damaged
MANIFEST_BACKUP = "manifest.json.bak"
GAMES_DIR = "games"
SPACES_DIR = "spaces"
CHUNKS_KEY = b"unmatched_sim.chunks"
#: Parquet key-value metadata of a stored file: :func:`settings_digest` of the run's settings
#: (files of runs played before it was added lack it)
SETTINGS_KEY = b"unmatched_sim.settings"
#: games per compacted file (about 40 bytes a game on disk: ~160 MB)
COMPACT_ROWS = 4_000_000
#: rows per Parquet row group in a compacted file (what a streaming reader holds at once)
ROW_GROUP_ROWS = 262_144

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
SPACE_COLUMNS = ["chunk", "matchup_id", "games", "battlefield", "p1_hero", "p1_loadout", "p2_hero", "p2_loadout",
                 "combats", "defeats"]


class ManifestDamaged(RunError):
    """``manifest.json`` exists but cannot be read (cut short, overwritten, not JSON) and no
    readable backup holds it. ``param`` is ``"RUN_DIR"``; the run can still be recovered by
    rerunning the command that played it (see ``sim.runs.plan.finish_plan``)."""


def _load_json(p: Path):
    return json.loads(p.read_text(encoding="utf-8"))


def read_manifest(run_dir) -> dict:
    """The run folder's manifest (dict). A ``manifest.json`` that cannot be read (cut short,
    not JSON, deleted) is read from its backup ``manifest.json.bak`` when that is readable: the
    manifest is returned with ``"recovered_from"`` set to the backup's name (the next
    command that plays the run writes ``manifest.json`` again). Writes nothing.

    Raises RunError (one line, ``param`` ``"RUN_DIR"``) if the folder has no manifest or it
    is not a run's, :class:`ManifestDamaged` if the manifest and its backup are both
    damaged, and RunError if it is of another format than :data:`FORMAT_VERSION` (the
    message names both formats and says to play the run again)."""
    run_dir = Path(run_dir)
    if run_dir.exists() and not run_dir.is_dir():
        raise RunError(f"{run_dir}: a file, not a run folder", "RUN_DIR")
    p = run_dir / MANIFEST
    try:
        m = _load_json(p)
    except FileNotFoundError as e:
        if not run_dir.exists():
            raise RunError(f"{run_dir}: no such folder", "RUN_DIR") from None
        if not (run_dir / MANIFEST_BACKUP).exists():
            raise RunError(f"{run_dir}: not a run folder of matrix, teams, loadouts or compare "
                           f"(no {MANIFEST})", "RUN_DIR") from None
        m = _recover_manifest(run_dir, e)     # a deleted manifest: its backup, as for a damaged one
    except (OSError, ValueError) as e:
        m = _recover_manifest(run_dir, e)
    if not isinstance(m, dict) or m.get("kind") != RUN_KIND:
        raise RunError(f"{run_dir}: {MANIFEST} is not an unmatched-sim matrix manifest", "RUN_DIR")
    if m.get("format") != FORMAT_VERSION:
        raise RunError(f"{run_dir}: a run folder of format {m.get('format')}, written by unmatched-sim "
                       f"{m.get('package_version', '?')}; this version reads format {FORMAT_VERSION}: play the run "
                       "again into a new --out folder", "RUN_DIR")
    return m


def _recover_manifest(run_dir: Path, err: Exception) -> dict:
    """The manifest from ``manifest.json.bak`` when ``manifest.json`` is damaged (``err``).
    Raises ManifestDamaged if the backup is missing or damaged too."""
    what = "cut short or not JSON" if isinstance(err, ValueError) else (getattr(err, "strerror", None) or str(err))
    try:
        m = _load_json(run_dir / MANIFEST_BACKUP)
        if not (isinstance(m, dict) and m.get("kind") == RUN_KIND):
            raise ValueError("not a run manifest")
    except (OSError, ValueError):
        raise ManifestDamaged(f"{run_dir}: {MANIFEST} is damaged ({what}) and has no readable backup "
                              f"({MANIFEST_BACKUP}); the stored games are intact: rerun the command that played "
                              "this run, with the same options, to rebuild it", "RUN_DIR") from None
    return dict(m, recovered_from=MANIFEST_BACKUP)


def settings_digest(settings: dict) -> str:
    """16 hex digits of a run's settings (canonical JSON): recorded in every stored file
    (:data:`SETTINGS_KEY`), so that a run whose manifest is lost can be recognised."""
    return hashlib.sha256(json.dumps(settings, sort_keys=True).encode()).hexdigest()[:16]


def file_settings(path: Path) -> str | None:
    """The settings digest a stored file records, or None (no digest, or unreadable)."""
    try:
        md = pq.read_metadata(path).metadata or {}
    except Exception:   # pyarrow raises several kinds for a damaged file
        return None
    v = md.get(SETTINGS_KEY)
    return v.decode() if v else None


def _tmp_name(path: Path) -> Path:
    return path.with_name(f".{path.name}.{os.getpid()}.tmp")


def _commit(tmp: Path, path: Path) -> None:
    """Flush ``tmp`` to disk and rename it to ``path`` (atomic: ``path`` is old or new, never half)."""
    fd = os.open(tmp, os.O_RDONLY)
    try:
        os.fsync(fd)
    finally:
        os.close(fd)
    os.replace(tmp, path)


def _write_atomic(path: Path, write) -> None:
    """``write(tmp)`` to a temporary file beside ``path``, then :func:`_commit` it over
    ``path``; on any error the temporary file is removed and the error raised."""
    tmp = _tmp_name(path)
    try:
        write(tmp)
        _commit(tmp, path)
    finally:
        tmp.unlink(missing_ok=True)


def write_json(path: Path, data: dict, backup: bool | None = None) -> None:
    """Write ``data`` as JSON to ``path`` atomically (temporary file, fsync, rename).
    ``backup`` (default: True for a run's ``manifest.json``): also write the same text to
    ``<path>.bak`` (atomically, after ``path``), which :func:`read_manifest` reads when
    ``path`` is damaged. Raises OSError if it cannot be written."""
    path = Path(path)
    text = json.dumps(data, indent=1, sort_keys=False)
    targets = [path]
    if backup if backup is not None else path.name == MANIFEST:
        targets.append(path.with_name(path.name + ".bak"))
    for target in targets:
        _write_atomic(target, lambda tmp: tmp.write_text(text, encoding="utf-8"))


def write_parquet(table, path: Path) -> None:
    """Write a pyarrow Table to ``path`` atomically (temporary file, fsync, rename); a
    failed write (a full disk) leaves no temporary file. Raises OSError."""
    _write_atomic(path, lambda tmp: pq.write_table(table, tmp))


# ------------------------------------------------------------------ tables of a task


def games_table(chunks, results, n_cards) -> pa.Table:
    """The per-game rows (:data:`GAME_COLUMNS`) of played chunks.

    ``chunks``: ``sim.runs.cells.Chunk`` objects; ``results``: per chunk ``(res, played)``:
    ``res`` int64 (n, RES_FIELDS) result rows, ``played`` int16 (n, 2, MAX_HERO_CARDS);
    ``n_cards``: per chunk ``(cards of P1's hero, cards of P2's hero)``."""
    cols = {k: [] for k in GAME_COLUMNS}
    plays = ([], [])
    for ch, (res, played), k2 in zip(chunks, results, n_cards):
        c, n = ch.cell, ch.n
        cols["matchup_id"].append(np.full(n, c.matchup_id, np.int64))
        cols["game_index"].append(np.arange(ch.first, ch.first + n, dtype=np.int64))
        cols["seed"].append((res[:, G.RES_SEED] & 0xFFFFFFFF).astype(np.int64))
        for name, value in (("battlefield", c.battlefield), ("p1_hero", c.p1), ("p1_loadout", c.p1_loadout),
                            ("p2_hero", c.p2), ("p2_loadout", c.p2_loadout)):
            cols[name].append(np.full(n, value, dtype=object))
        cols["winner"].append(res[:, G.RES_WINNER].astype(np.int8))
        cols["turns"].append(res[:, G.RES_TURNS].astype(np.int32))
        cols["end_reason"].append(np.array([END_REASONS.get(int(r), f"code_{int(r)}") for r in res[:, G.RES_REASON]],
                                           dtype=object))
        for name, f, dt in (("p1_health", G.RES_HP0, np.int16), ("p2_health", G.RES_HP1, np.int16),
                            ("p1_sidekick_health", G.RES_SK0, np.int16), ("p2_sidekick_health", G.RES_SK1, np.int16),
                            ("p1_cards_played", G.RES_PLAYED0, np.int16), ("p2_cards_played", G.RES_PLAYED1, np.int16),
                            ("decisions", G.RES_DECISIONS, np.int32)):
            cols[name].append(res[:, f].astype(dt))
        for seat in range(2):
            k = k2[seat]
            plays[seat].append((np.ascontiguousarray(played[:, seat, :k], np.int16).reshape(-1), n, k))
    arrays = {}
    for name, parts in cols.items():
        if name.endswith("_card_plays"):
            continue
        a = np.concatenate(parts)
        arrays[name] = pa.array(a, pa.string()) if a.dtype == object else pa.array(a)
    for seat, name in ((0, "p1_card_plays"), (1, "p2_card_plays")):
        values = np.concatenate([v for v, _, _ in plays[seat]]) if plays[seat] else np.zeros(0, np.int16)
        lengths = np.concatenate([np.full(n, k, np.int32) for _, n, k in plays[seat]]) if plays[seat] else \
            np.zeros(0, np.int32)
        offsets = np.zeros(len(lengths) + 1, np.int32)
        np.cumsum(lengths, out=offsets[1:])
        arrays[name] = pa.ListArray.from_arrays(pa.array(offsets), pa.array(values, pa.int16()))
    return pa.table(arrays)


def spaces_table(chunks, spaces) -> pa.Table:
    """One row per chunk (:data:`SPACE_COLUMNS`): ``spaces`` per chunk int64 (2, n_spaces):
    combats (row 0) and defeats (row 1) per space summed over the chunk's games."""
    cs = [ch.cell for ch in chunks]
    return pa.table({
        "chunk": pa.array([ch.name for ch in chunks], pa.string()),
        "matchup_id": pa.array([c.matchup_id for c in cs], pa.int64()),
        "games": pa.array([ch.n for ch in chunks], pa.int64()),
        "battlefield": pa.array([c.battlefield for c in cs], pa.string()),
        "p1_hero": pa.array([c.p1 for c in cs], pa.string()), "p1_loadout": pa.array([c.p1_loadout for c in cs], pa.string()),
        "p2_hero": pa.array([c.p2 for c in cs], pa.string()), "p2_loadout": pa.array([c.p2_loadout for c in cs], pa.string()),
        "combats": pa.array([s[0].astype(np.int64) for s in spaces], pa.list_(pa.int64())),
        "defeats": pa.array([s[1].astype(np.int64) for s in spaces], pa.list_(pa.int64())),
    })


def _with_chunks(table: pa.Table, chunks, settings: str | None = None) -> pa.Table:
    meta = dict(table.schema.metadata or {})
    meta[CHUNKS_KEY] = json.dumps([[ch.name, int(ch.n)] for ch in chunks]).encode()
    if settings:
        meta[SETTINGS_KEY] = settings.encode()
    return table.replace_schema_metadata(meta)


def task_file_name(chunks) -> str:
    """The file name of a task's games (and spaces): ``part-<first chunk>-<crc of all chunk names>.parquet``."""
    h = zlib.crc32(";".join(ch.name for ch in chunks).encode())
    return f"part-{chunks[0].name}-{h:08x}.parquet"


def write_task(run_dir, chunks, games: pa.Table, spaces: pa.Table | None = None, settings: str | None = None,
               games_stored: bool = False) -> None:
    """Store one finished task: its ``spaces`` rows (one per chunk; None for a team run),
    then its ``games`` rows, whose file marks the chunks done. Both files carry the chunk
    list (and ``settings``, the run's :func:`settings_digest`, if given) in their metadata
    and are written atomically. ``games_stored``: the chunks' games are already stored
    (the task replayed them to restore lost space counters): only the spaces file is
    written. Raises OSError if the folder cannot be written, ValueError if ``games`` does
    not hold the chunks' games."""
    if games.num_rows != sum(ch.n for ch in chunks):
        raise ValueError(f"a task of {sum(ch.n for ch in chunks)} games returned {games.num_rows} rows")
    run_dir = Path(run_dir)
    name = task_file_name(chunks)
    if spaces is not None:
        write_parquet(_with_chunks(spaces, chunks, settings), run_dir / SPACES_DIR / name)
    if not games_stored:
        write_parquet(_with_chunks(games, chunks, settings), run_dir / GAMES_DIR / name)


# ------------------------------------------------------------------ which files to read


def file_chunks(path: Path) -> dict | None:
    """``{chunk name: games}`` recorded in a stored file, or None if the file is damaged
    (unreadable, no chunk list, or its rows are not the chunks' games; in ``spaces/``:
    not one row per chunk)."""
    try:
        md = pq.read_metadata(path)
        chunks = {str(k): int(n) for k, n in json.loads(md.metadata[CHUNKS_KEY])}
        rows = md.num_rows
    except Exception:   # pyarrow and json raise several kinds for a damaged file
        return None
    want = len(chunks) if path.parent.name == SPACES_DIR else sum(chunks.values())
    return chunks if chunks and want == rows else None


_SNAPSHOT: ContextVar[dict | None] = ContextVar("run_snapshot", default=None)


@contextmanager
def snapshot():
    """Within this block, every read of a run folder sees the folder as it was when first read
    there: its games and spaces files are listed once (the games files first: a task's spaces
    file is written before its games file, so the spaces listed then cover every game listed)
    and whether a command holds its lock is asked once. A report of a run that is being played
    reads its games several times (the tables, the status line, the example games, a diff); in
    a snapshot they all count the same games. Files written meanwhile are left for the next
    read; a file the run's compaction removes meanwhile makes a later read fail (OSError)."""
    token = _SNAPSHOT.set({})
    try:
        yield
    finally:
        _SNAPSHOT.reset(token)


def _pinned(run_dir: Path) -> dict | None:
    """The snapshot's record of ``run_dir`` (made at its first read), or None outside :func:`snapshot`."""
    pins = _SNAPSHOT.get()
    if pins is None:
        return None
    key = Path(run_dir).resolve()
    if key not in pins:
        from sim.runs.lock import lock_holder   # (lock imports this module)
        pins[key] = {sub: _listed(Path(run_dir), sub) for sub in (GAMES_DIR, SPACES_DIR)}
        pins[key]["locked"] = lock_holder(run_dir) is not None
    return pins[key]


def _listed(run_dir: Path, sub: str) -> list[Path]:
    d = run_dir / sub
    return sorted(p for p in d.glob("*.parquet") if not p.name.startswith(".")) if d.is_dir() else []


def _stored(run_dir: Path, sub: str) -> list[Path]:
    pin = _pinned(run_dir)
    return list(pin[sub]) if pin is not None and sub in pin else _listed(run_dir, sub)


def select_files(run_dir, sub: str = GAMES_DIR) -> tuple[list, list, list]:
    """The stored files of ``RUN_DIR/sub`` to read (see the module doc).

    Returns ``(selected, redundant, damaged)``: ``selected`` a list of ``(path, {chunk:
    games})`` whose chunks are disjoint, by file name; ``redundant`` paths whose chunks
    all lie in selected files; ``damaged`` paths that cannot be read as a stored file.
    A file that shares some chunks with a selected one but not all is in neither list
    (left alone: its other chunks are not done)."""
    run_dir = Path(run_dir)
    good, damaged = [], []
    for p in _stored(run_dir, sub):
        ch = file_chunks(p)
        (damaged.append(p) if ch is None else good.append((p, ch)))
    good.sort(key=lambda pc: (-len(pc[1]), pc[0].name))
    taken: set = set()
    selected, redundant = [], []
    for p, ch in good:
        if taken.isdisjoint(ch):
            selected.append((p, ch))
            taken.update(ch)
        elif taken.issuperset(ch):
            redundant.append(p)
    selected.sort(key=lambda pc: pc[0].name)
    return selected, redundant, damaged


def stored_chunks(run_dir) -> dict:
    """``{chunk name: games}`` of every chunk whose games are stored in ``run_dir``."""
    out: dict = {}
    for _, ch in select_files(run_dir, GAMES_DIR)[0]:
        out.update(ch)
    return out


def stored_state(run_dir, chunks, spaces: bool = True) -> tuple[set, set]:
    """``(done, no_spaces)``: the names of the ``chunks`` (objects with ``name`` and ``n``)
    whose games are stored in ``run_dir``, and of those (with ``spaces``: a run with space
    counters, i.e. not a team run) whose space counters are not stored in any readable
    spaces file (one was deleted or damaged). Reads only; see :func:`finished_chunks`."""
    run_dir = Path(run_dir)
    wanted = {ch.name: ch.n for ch in chunks}
    done = {k for _, ch in select_files(run_dir, GAMES_DIR)[0] for k, n in ch.items() if wanted.get(k) == n}
    if not spaces:
        return done, set()
    have: set = set()
    for p in _stored(run_dir, SPACES_DIR):
        ch = file_chunks(p)
        if ch is not None:
            have.update(ch)
    return done, done - have


def finished_chunks(run_dir, chunks) -> set[str]:
    """Names of the ``chunks`` (objects with ``name`` and ``n``) whose games are stored in
    ``run_dir``, cleaning the folder for a resume: a damaged games file (cut short,
    overwritten, not Parquet) is removed, with the spaces file of the same name, so that
    resuming plays its chunks again; redundant files are removed, and so are spaces files
    holding no done chunk (a task killed between its two writes). Files of chunks that
    are not in ``chunks`` are ignored. Call it only while holding the run's lock
    (``sim.runs.lock.run_lock``): it removes files."""
    run_dir = Path(run_dir)
    wanted = {ch.name: ch.n for ch in chunks}
    selected, redundant, damaged = select_files(run_dir, GAMES_DIR)
    for p in damaged:
        p.unlink(missing_ok=True)
        (run_dir / SPACES_DIR / p.name).unlink(missing_ok=True)
    for p in redundant:
        p.unlink(missing_ok=True)
    done = {k for _, ch in selected for k, n in ch.items() if wanted.get(k) == n}
    # a spaces file none of whose chunks is done is an orphan (its task was killed between
    # its two writes, or its games file was damaged); one that holds some done chunks is
    # kept (a replayed chunk's counters are equal, and read_spaces keeps each chunk once)
    sel, red, dam = select_files(run_dir, SPACES_DIR)
    for p in red + dam + [p for p, ch in sel if done.isdisjoint(ch)]:
        p.unlink(missing_ok=True)
    return done


def compact(run_dir, rows_per_file: int = COMPACT_ROWS) -> int:
    """Merge the stored files of a run folder into few: the selected files of ``games/``
    and of ``spaces/``, in name order, into files of at most ``rows_per_file`` games
    (a file that alone holds more stays as it is), each written atomically before the
    files it replaces are removed (a kill at any moment leaves a consistent folder).
    Streams row groups: memory does not grow with the run. Returns the number of files
    removed. Raises OSError if the folder cannot be written."""
    run_dir = Path(run_dir)
    removed = 0
    for sub in (SPACES_DIR, GAMES_DIR):
        selected, redundant, _ = select_files(run_dir, sub)
        for p in redundant:
            p.unlink(missing_ok=True)
            removed += 1
        groups, cur, n = [], [], 0
        for p, ch in selected:
            rows = sum(ch.values()) if sub == GAMES_DIR else len(ch)
            limit = rows_per_file if sub == GAMES_DIR else max(rows_per_file // 100, 10_000)   # chunk rows
            if cur and n + rows > limit:
                groups.append(cur)
                cur, n = [], 0
            cur.append((p, ch))
            n += rows
        if cur:
            groups.append(cur)
        for group in groups:
            if len(group) < 2:
                continue
            _merge(run_dir / sub, group)
            for p, _ in group:
                p.unlink(missing_ok=True)
                removed += 1
    return removed


def _merge(folder: Path, group: list) -> Path:
    chunks: list = []
    for _, ch in group:
        chunks.extend(ch.items())
    h = zlib.crc32(";".join(k for k, _ in chunks).encode())
    path = folder / f"compact-{h:08x}.parquet"
    tmp = _tmp_name(path)
    schema = pq.read_schema(group[0][0])
    meta = dict(schema.metadata or {})
    meta[CHUNKS_KEY] = json.dumps([[k, n] for k, n in chunks]).encode()
    schema = schema.with_metadata(meta)
    buf, n = [], 0
    with pq.ParquetWriter(tmp, schema) as w:
        for p, _ in group:
            for batch in pq.ParquetFile(p).iter_batches(batch_size=ROW_GROUP_ROWS):
                buf.append(batch)
                n += batch.num_rows
                if n >= ROW_GROUP_ROWS:
                    w.write_table(pa.Table.from_batches(buf), row_group_size=ROW_GROUP_ROWS)
                    buf, n = [], 0
        if buf:
            w.write_table(pa.Table.from_batches(buf), row_group_size=ROW_GROUP_ROWS)
    _commit(tmp, path)
    return path


@dataclass
class RunProgress:
    """How far a run folder is, from the files actually stored (the one rule behind every
    "unfinished" warning and every report's status line).

    ``games_total``: games the run's command plans (manifest); ``games_stored``: games in
    its games files; ``spaces_games``: games whose space counters are stored (None for a
    team run, which has none); ``manifest_status``: what the manifest says (``running``,
    ``complete``, ``interrupted``, ``failed``); ``locked``: a command holds the run's lock
    now (it is being played). ``status`` is ``complete`` only when every planned game and
    its space counters are stored; else ``running`` (locked), or ``unfinished``."""

    games_total: int
    games_stored: int
    spaces_games: int | None
    manifest_status: str
    locked: bool = False

    @property
    def complete(self) -> bool:
        """Every planned game is stored, and (a run with space counters) their counters too."""
        return self.games_stored >= self.games_total and (self.spaces_games is None
                                                          or self.spaces_games >= self.games_stored)

    @property
    def status(self) -> str:
        """``complete``, ``running`` (not complete, a command holds the lock) or ``unfinished``."""
        if self.complete:
            return "complete"
        return "running" if self.locked else "unfinished"

    def describe(self) -> str:
        """One phrase: ``complete (N games)`` or what is missing and why, e.g. ``unfinished:
        19800 of 20000 games stored (the manifest says complete: a games file was deleted
        or damaged)``."""
        if self.complete:
            return f"complete ({self.games_total} games)"
        return f"{self.status}: {self.details()}"

    def details(self) -> str:
        """What is stored and why the rest is not (``describe`` without the status)."""
        parts = [f"{self.games_stored} of {self.games_total} games stored"]
        if self.spaces_games is not None and self.spaces_games < self.games_stored:
            parts.append(f"space counters of {self.games_stored - self.spaces_games} stored games missing "
                         "(a spaces file was deleted or damaged)")
        if self.locked:
            parts.append("a command is playing it now")
        elif self.manifest_status == "complete":
            parts.append("the manifest says complete: a stored file was deleted or damaged")
        elif self.manifest_status == "running":
            parts.append("its command was stopped or killed")
        elif self.manifest_status:
            parts.append(f"its command ended {self.manifest_status}")
        return "; ".join(parts)

    def no_games(self, run_dir, command: str) -> str:
        """The one-line message of a run folder that holds no finished game (what every
        report raises then): while a command plays it, that it has stored none so far and
        to try again in a moment; else what :meth:`details` says and that ``command`` (the
        ``unmatched-sim`` command that made the run, e.g. ``matrix``) plays it."""
        if self.locked:
            return (f"{run_dir}: no finished games yet: the command playing it has stored none so far; "
                    "try again in a moment")
        return (f"{run_dir}: no finished games yet ({self.details()}); rerun its `unmatched-sim {command}` "
                "command to play it")

    def warning(self, run_dir) -> str | None:
        """The one-line warning of an unfinished run (None when complete): what
        :meth:`describe` says, that every figure is of the stored games, and how to finish."""
        if self.complete:
            return None
        return (f"warning: {run_dir} is {self.describe()}; every figure is computed from the games stored "
                "(rerun its command to finish it)")


def run_progress(run_dir, manifest: dict | None = None) -> RunProgress:
    """The :class:`RunProgress` of a run folder (``manifest``: its manifest, read if None).
    Reads the stored files' metadata only. Raises RunError as :func:`read_manifest`."""
    from sim.runs.lock import lock_holder   # (lock imports this module)
    run_dir = Path(run_dir)
    m = manifest if manifest is not None else read_manifest(run_dir)
    stored = stored_chunks(run_dir)
    teams = (m.get("settings") or {}).get("mode") == "teams"
    spaces = None
    if not teams:
        have: set = set()
        for p in _stored(run_dir, SPACES_DIR):
            ch = file_chunks(p)
            if ch is not None:
                have.update(ch)
        spaces = sum(n for k, n in stored.items() if k in have)
    pin = _pinned(run_dir)
    return RunProgress(int(m.get("games_total", 0)), sum(stored.values()), spaces, str(m.get("status", "")),
                       pin["locked"] if pin is not None else lock_holder(run_dir) is not None)


def count_files(run_dir) -> int:
    """Files under ``run_dir`` (every subfolder, the report's included)."""
    return sum(len(files) for _, _, files in os.walk(run_dir))


# ------------------------------------------------------------------ reading


def game_files(run_dir) -> list[Path]:
    """The games files of a run folder to read (see :func:`select_files`), by name."""
    return [p for p, _ in select_files(run_dir, GAMES_DIR)[0]]


def iter_game_batches(run_dir, columns=None, batch_size: int = 131_072):
    """The stored games of a run folder as pyarrow RecordBatches of at most ``batch_size``
    rows, file after file (``columns``: the columns to read, None = all). Holds one batch
    at a time: the way the reports read a run of any size. Does not check the manifest."""
    for p in game_files(run_dir):
        yield from pq.ParquetFile(p).iter_batches(batch_size=batch_size, columns=columns)


def read_game_table(run_dir, columns=None) -> pa.Table | None:
    """Every stored game of a run folder as one pyarrow Table (``columns``: None = all),
    or None if no game is stored. Reads the whole run into memory."""
    files = game_files(run_dir)
    if not files:
        return None
    return pa.concat_tables([pq.read_table(p, columns=columns) for p in files])


def read_games(run_dir):
    """All stored games of a run folder as a pandas DataFrame (one row per game).

    Columns: :data:`GAME_COLUMNS` (list columns hold numpy int16 arrays); rows sorted by
    P1 hero, P1 loadout, P2 hero, P2 loadout, battlefield, game index, with a fresh
    RangeIndex, so the table does not depend on chunking, tasks or worker count. Returns
    an empty DataFrame with those columns if no game is stored. Raises RunError if
    ``run_dir`` is not a run folder of this format. Reads the whole run into memory
    (about 200 bytes a game): for big runs the reports stream the files instead
    (:func:`iter_game_batches`).
    """
    return read_sorted_games(run_dir, GAME_COLUMNS, SORT_KEYS)


def read_sorted_games(run_dir, columns, keys) -> pd.DataFrame:
    """Every stored game of ``run_dir`` as a DataFrame sorted (stable) by ``keys`` with a fresh
    RangeIndex; empty with ``columns`` if none is stored. Raises RunError if ``run_dir`` is
    not a run folder of this format. (The reader behind :func:`read_games` and the team
    runs' ``read_team_games``.)"""
    run_dir = Path(run_dir)
    read_manifest(run_dir)
    table = read_game_table(run_dir)
    if table is None:
        return pd.DataFrame({c: [] for c in columns})
    return table.to_pandas().sort_values(keys, kind="stable").reset_index(drop=True)


def read_spaces(run_dir):
    """Per-chunk space counters of the finished chunks as a DataFrame: one row per chunk
    with ``chunk``, ``matchup_id``, ``games``, ``battlefield``, the heroes and loadouts,
    and ``combats`` / ``defeats`` (int64 arrays, one entry per space of the battlefield,
    in the battlefield's space order). Each chunk once, sorted by chunk name. One row per
    chunk (``chunk_size`` games), so it stays small beside the games."""
    run_dir = Path(run_dir)
    done = stored_chunks(run_dir)
    # every readable spaces file that holds a done chunk; a chunk held twice (a file left
    # by a cut-short compaction or a killed task) has the same counters in both: kept once
    parts = []
    for p in _stored(run_dir, SPACES_DIR):
        ch = file_chunks(p)
        if ch is not None and not done.keys().isdisjoint(ch):
            parts.append(pq.read_table(p))
    if not parts:
        return pd.DataFrame(columns=SPACE_COLUMNS)
    df = pa.concat_tables(parts).to_pandas()
    df = df[df["chunk"].isin(done)].drop_duplicates("chunk")
    return df.sort_values("chunk").reset_index(drop=True)[SPACE_COLUMNS]
