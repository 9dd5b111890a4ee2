"""Runs: many seeded games, planned, played on workers, stored, resumed.

A run is planned as **cells** and **chunks** and stored in a **run folder**:

- A :class:`Cell` is one seating of a matchup: the hero (and loadout) that moves
  first (seat 0, "P1"), the hero that moves second (seat 1, "P2") and the
  battlefield, with a number of games. Its ``matchup_id`` is a stable 32-bit hash
  (CRC-32) of that identity, so adding heroes or battlefields to a run never
  changes the games of the other cells.
- Game ``i`` of a cell uses the seed ``game_seed(run_seed, matchup_id, i)``
  (``sim.engine.core``), so a game's outcome does not depend on how the games are
  chunked or on how many workers play them.
- A :class:`Chunk` is ``(cell, first game index, number of games)``, at most
  ``chunk_size`` games of one cell: the unit of resuming.
- A **task** is a batch of consecutive chunks, a few seconds of play (many small cells
  in one task; ``sim.runs.cells.plan_tasks``, or ``task_games`` games each): the unit of
  a worker's work. Tasks are played on joblib workers (loky processes on this machine,
  or the workers of a dask.distributed cluster: ``sim.runs.backend``) and each task's
  games are written by this process to the run folder as it finishes, in one Parquet
  file that records its chunks (written to a temporary name, flushed and renamed, so a
  file is either complete or absent; a task whose result arrives twice is stored once).
  A completed run is compacted into one games file (and one spaces file). Batching never
  changes a game: its seed depends only on the run seed, its cell and its index.

The run folder's layout is described in :mod:`sim.runs.store`.

Modules, each importing only those above it: ``errors``, ``cells`` (cells, chunks
and tasks), ``store`` (the run folder), ``plan`` (validation, fingerprints, resume
check), ``backend`` (loky or dask pools), ``workers`` (what a worker process runs),
``drive`` (the driver loop), then one module per kind of run: ``matrix``,
``versus`` (loadouts, compare), ``teams``, ``arena``, ``bench``.

Rerunning the same command resumes: chunks held by a stored ``games`` file are
skipped. An interrupt (Ctrl-C, or a kill) loses only the tasks in flight. A folder that
holds another run's settings, a run folder of another storage format, or a non-empty
folder that is not a run folder, is refused in one line.

Example::

    from sim.runs.matrix import plan_run, execute_run
    from sim.runs.store import read_games
    plan = plan_run("runs/demo", games=200, heroes=["medusa", "sinbad"], battlefields=["soho"])
    result = execute_run(plan, jobs=2)       # 2 loky processes on this machine
    # or on a dask cluster: execute_run(plan, backend="dask", scheduler="tcp://10.0.0.5:8786")
    # (backend="dask" alone starts a local cluster)
    games = read_games("runs/demo")          # pandas DataFrame, one row per game (all in memory;
                                             # the reports stream the files instead)

A script that starts a local dask cluster (``backend="dask"`` without a scheduler)
must do so under ``if __name__ == "__main__":``: its worker processes are spawned
and import the script.
"""
