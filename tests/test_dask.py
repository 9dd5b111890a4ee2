"""The matrix on a dask.distributed cluster: same tables as loky, a lost worker loses no game,
differing workers and unreachable schedulers are refused in one line."""
import os
import signal
import socket
import time
from pathlib import Path

import numpy as np
import pandas as pd
import pytest
from click.testing import CliRunner

from sim.cli import main
from sim.runs.backend import Backend, BackendError
from sim.runs.matrix import plan_run, run_matrix
from sim.runs.store import read_games, read_manifest, read_spaces
from sim.runs.workers import WorkerMismatch
from sim.runs.workers import check_worker as _check_worker

pytestmark = pytest.mark.dask
distributed = pytest.importorskip("distributed")

# 3 pairs + 3 mirrors x 2 battlefields: 180 games in 42 chunks of at most 5
SMALL = {"games": 30, "heroes": ["alice", "medusa", "sinbad"], "battlefields": ["soho", "marmoreal"], "seed": 11,
         "chunk_size": 5, "ai": "random"}      # the random policy keeps these runs short
KEYS = ["matchup_id", "game_index"]


def cli(*args):
    return CliRunner().invoke(main, [str(a) for a in args])


@pytest.fixture(scope="module")
def cluster():
    """A LocalCluster of 2 single-threaded worker processes, shared by this module's tests."""
    c = distributed.LocalCluster(n_workers=2, processes=True, threads_per_worker=1, dashboard_address=":0")
    try:
        yield c
    finally:
        c.close()


@pytest.fixture(scope="module")
def loky_run(tmp_path_factory):
    """The SMALL run on 2 loky processes."""
    d = tmp_path_factory.mktemp("loky") / "run"
    r = run_matrix(d, jobs=2, **SMALL)
    assert r.games_played == 180 and r.backend == "loky, 2 processes"
    return d


def test_dask_gives_the_same_tables_as_loky(cluster, loky_run, tmp_path):
    from reports import compute_tables
    d = tmp_path / "dask"
    r = run_matrix(d, backend="dask", scheduler=cluster.scheduler_address, **SMALL)
    assert r.games_played == 180 and r.workers == 2 and r.backend.startswith("dask tcp://")
    assert 0 < r.busy_seconds and 0 <= r.overhead < 1
    games = read_games(d)
    assert len(games) == 180 and not games.duplicated(KEYS).any()
    pd.testing.assert_frame_equal(games, read_games(loky_run))
    pd.testing.assert_frame_equal(read_spaces(d), read_spaces(loky_run))
    t1, t2 = compute_tables(loky_run), compute_tables(d)
    for name in ("matchups", "matchups_by_battlefield", "strength", "first_player", "cards", "spaces"):
        pd.testing.assert_frame_equal(t1[name], t2[name])
    s = read_manifest(d)["sessions"][-1]
    assert s["backend"] == "dask" and s["jobs"] == 2 and s["games"] == 180
    # the finished run resumes to nothing (without contacting the cluster)
    assert run_matrix(d, backend="dask", scheduler="tcp://127.0.0.1:1", **SMALL).games_played == 0


def test_cli_backend_dask_starts_a_local_cluster(loky_run, tmp_path):
    d = tmp_path / "cli"
    r = cli("matrix", "--games", 30, "--heroes", "alice,medusa,sinbad", "-b", "soho,marmoreal", "--seed", 11,
            "--chunk-size", 5, "--ai", "random", "--backend", "dask", "--jobs", 2, "--no-report", "-q", "--out", d)
    assert r.exit_code == 0, r.output
    assert "Played 180 games" in r.output and "Workers: dask local cluster, 2 workers (2 threads)" in r.output
    pd.testing.assert_frame_equal(read_games(d), read_games(loky_run))


def test_workers_with_another_unmatched_sim_are_refused(cluster, tmp_path, monkeypatch):
    import sim.runs.drive as drive
    import sim.runs.workers as workers
    # the driver claims another version: refused before anything is written
    monkeypatch.setattr(workers, "package_version", lambda: "9.9.9")
    with pytest.raises(BackendError, match=r"2 of 2 dask workers differ from this machine, e\.g\. tcp://.*: "
                                           r"unmatched-sim .* here, 9\.9\.9 on the driver; install unmatched-sim "
                                           r"9\.9\.9 from the same source on every worker") as e:
        run_matrix(tmp_path / "v", backend="dask", scheduler=cluster.scheduler_address, **SMALL)
    assert e.value.param == "--scheduler" and "\n" not in str(e.value)
    assert not (tmp_path / "v").exists()
    monkeypatch.undo()
    # other engine sources; a worker that joined after the start check refuses its first chunk itself
    plan = plan_run(tmp_path / "e", **SMALL)
    plan.settings["fingerprint"]["engine"] = "000000000000"
    monkeypatch.setattr(drive, "check_workers", lambda pool, expect: None)
    with pytest.raises(BackendError, match=r"dask worker tcp://.* differs from this machine: the engine sources "
                                           r"\(sim/engine\) differ; install the same unmatched-sim on every worker"):
        drive.execute_run(plan, backend=Backend("dask", scheduler=cluster.scheduler_address), progress=False)
    assert read_games(tmp_path / "e").empty


def test_worker_check_names_each_difference():
    expect = {"package_version": "0.0.1", "engine": "x", "compiler": "y", "hero:medusa": "z", "hero:hercules": "w",
              "battlefield:soho": "v", "extra_heroes": []}
    with pytest.raises(WorkerMismatch) as e:
        _check_worker(__import__("json").dumps(expect))
    msg = str(e.value)
    for part in ("here, 0.0.1 on the driver", "the engine sources (sim/engine) differ",
                 "the hero compiler sources (sim/content) differ", "hero file medusa.toml differs",
                 "hero 'hercules' is not installed", "battlefield file soho.toml differs"):
        assert part in msg, msg


def test_bad_backend_options_and_an_unreachable_scheduler(tmp_path):
    out = tmp_path / "none"
    base = ["matrix", "--games", 10, "--heroes", "medusa,sinbad", "-b", "soho", "-q", "--out", out]
    for extra, message in [
        (["--backend", "spark"], "Invalid value for '--backend': 'spark' is not one of 'loky', 'dask'."),
        (["--backend", "loky", "--scheduler", "10.0.0.5:8786"],
         "Invalid value for '--scheduler': a scheduler address needs the dask backend (--backend dask)"),
        (["--scheduler", "10.0.0.5:8786", "--jobs", 2], "Invalid value for '--jobs': --jobs sets the number of local"),
    ]:
        r = cli(*base, *extra)
        assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output, r.output
    with socket.socket() as s:            # a port nobody listens on
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    for addr, message in [
        (f"tcp://127.0.0.1:{port}", f"Error: cannot reach the dask scheduler at tcp://127.0.0.1:{port} "),
        ("nonsense:foo:bar", "Error: 'nonsense:foo:bar' is not a dask scheduler address"),
        ("http://10.0.0.5:8787", "Error: 'http://10.0.0.5:8787' is not a dask scheduler address"),
    ]:
        r = cli(*base, "--backend", "dask", "--scheduler", addr)
        assert r.exit_code == 1 and r.output.startswith(message) and r.output.count("\n") == 1, r.output
    assert not out.exists()


def test_a_worker_killed_mid_run_loses_no_game(cluster, tmp_path):
    """SIGKILL the process of a worker that is playing a chunk: dask re-runs that chunk on the
    other worker; every game is stored exactly once and the rows equal a loky run's.

    No clock and no game count decides when to kill: the first chunk any worker starts holds
    that worker (it claims a gate file, writes its pid and waits), and the kill comes once the
    gate file names the held worker, so a busy worker is killed on every machine, fast or slow."""
    import threading
    client = distributed.Client(cluster, set_as_default=False)
    kw = {"games": 300, "heroes": ["medusa", "sinbad"], "battlefields": ["soho"], "seed": 9, "chunk_size": 10,
          "ai": "random"}
    gate = str(tmp_path / "held")

    def hold_the_first_chunk(gate):
        """On a worker: the first chunk started by any worker of the cluster claims ``gate`` and
        waits there (until the test kills this process); every other chunk plays as usual."""
        import os
        import time

        import sim.runs.workers as workers
        real = getattr(workers, "_real_play_chunk", workers.play_chunk)
        workers._real_play_chunk = real

        def gated(*args):
            try:        # the claim file stays: the chunk, played again elsewhere after the kill, is not held
                os.close(os.open(gate + ".claim", os.O_CREAT | os.O_EXCL | os.O_WRONLY))
            except FileExistsError:
                return real(*args)
            with open(gate + ".tmp", "w") as f:
                f.write(str(os.getpid()))
            os.replace(gate + ".tmp", gate + ".pid")     # the pid is complete once this name exists
            while not os.path.exists(gate + ".release"):    # (the test releases it only if it cannot kill)
                time.sleep(0.2)
            return real(*args)
        workers.play_chunk = gated

    def restore():
        import sim.runs.workers as workers
        if hasattr(workers, "_real_play_chunk"):
            workers.play_chunk = workers._real_play_chunk

    client.run(hold_the_first_chunk, gate)
    pids = client.run(os.getpid)
    killed = {}

    run_over = threading.Event()

    def kill_the_held_worker():
        try:
            kill_it()
        except Exception as e:      # noqa: BLE001 - the assertion below shows it
            killed["error"] = repr(e)
            Path(gate + ".release").touch()     # let the run finish, so that the test fails instead of hanging

    def kill_it():
        pid_file = Path(gate + ".pid")
        while not pid_file.exists():
            if run_over.wait(0.05):
                return              # no chunk was held: the assertion below says so
        pid = int(pid_file.read_text())
        addr = next(a for a, p in pids.items() if p == pid)
        keys = client.processing()[addr]
        while not keys:             # the scheduler learns of the held task as it starts it
            time.sleep(0.05)
            keys = client.processing()[addr]
        os.kill(pid, signal.SIGKILL)
        killed.update(addr=addr, keys=list(keys))

    killer = threading.Thread(target=kill_the_held_worker, daemon=True)
    killer.start()
    try:
        try:
            r = run_matrix(tmp_path / "dask", backend="dask", scheduler=cluster.scheduler_address, **kw)
        finally:
            run_over.set()
        killer.join()
        assert killed and "error" not in killed, f"the held worker was not killed: {killed}"
        # the chunks the worker was playing were sent to a worker again, then finished
        story = client.run_on_scheduler(lambda dask_scheduler, keys: dask_scheduler.story(*keys), keys=killed["keys"])
        finishes = {key: [t[2] for t in story if t[0] == key] for key in killed["keys"]}
        assert all("memory" in f for f in finishes.values()), finishes
        assert any(f.count("processing") >= 2 for f in finishes.values()), finishes
        assert killed["addr"] not in client.nthreads()
    finally:
        client.run(restore)
        client.close()
    assert r.games_played == 900
    games = read_games(tmp_path / "dask")
    assert len(games) == 900 and not games.duplicated(KEYS).any()
    assert len(list((tmp_path / "dask" / "games").glob("*.parquet"))) == 1       # compacted
    run_matrix(tmp_path / "loky", jobs=2, **kw)
    pd.testing.assert_frame_equal(games, read_games(tmp_path / "loky"))


class _FailsOnTheWorker:
    """Pickles fine here; unpickling it raises ZeroDivisionError: the scheduler cannot read the task
    graph (a task failure inside dask, not inside the called function)."""

    def __reduce__(self):
        import operator
        return (operator.truediv, (1, 0))


def test_a_task_that_fails_inside_dask_stops_the_run(cluster):
    """joblib's dask backend alone waits forever for a task that fails inside dask (not in
    the called function); the pool raises a one-line BackendError instead."""
    import threading

    from sim.runs.backend import open_pool
    out = {}

    def run():
        try:
            with open_pool(Backend("dask", scheduler=cluster.scheduler_address)) as pool:
                out["results"] = list(pool.imap_unordered(len, [("ab",), (_FailsOnTheWorker(),), ("c",)]))
        except Exception as e:          # noqa: BLE001 - the test inspects it
            out["error"] = e

    t = threading.Thread(target=run, daemon=True)
    t.start()
    t.join(60)
    assert not t.is_alive(), "the run hangs"
    e = out.get("error")
    assert isinstance(e, BackendError) and e.param == "--scheduler", out
    assert str(e).startswith(f"a task failed inside dask on {cluster.scheduler_address} (RuntimeError: Error during "
                             "deserialization of the task graph. This frequently); check that this machine, the "
                             "scheduler and the workers have the same versions of dask, distributed and unmatched-sim")


def test_lost_workers_and_scheduler_are_one_line_errors():
    from types import SimpleNamespace

    from distributed.scheduler import KilledWorker

    from sim.runs.backend import _dask_failure
    b = Backend("dask", scheduler="tcp://10.0.0.5:8786")
    from sim.runs.backend import _DaskTaskError
    killed = KilledWorker("k", SimpleNamespace(address="tcp://10.0.0.7:4000"), 3)
    assert str(_dask_failure(_DaskTaskError(killed), b)) == str(_dask_failure(killed, b))
    e = _dask_failure(_DaskTaskError(OSError("no such file")), b)
    assert str(e).startswith("a task failed inside dask on tcp://10.0.0.5:8786 (OSError: no such file)")
    e = _dask_failure(killed, b)
    assert str(e) == ("a task of chunks was lost with its dask worker 4 times (last tcp://10.0.0.7:4000; "
                      "distributed.scheduler.allowed-failures is 3): the workers of tcp://10.0.0.5:8786 keep dying; "
                      "the finished chunks are stored, fix the workers and rerun the same command")
    e = _dask_failure(OSError("Timed out during handshake\nwhile connecting"), b)
    assert e.param == "--scheduler" and "\n" not in str(e)
    assert str(e).startswith("lost the connection to the dask scheduler tcp://10.0.0.5:8786 during the run (OSError)")
    assert _dask_failure(ValueError("an engine bug"), b) is None


def test_tune_on_dask_gives_the_loky_result(cluster, tmp_path):
    """A tuning run's candidates and check play on the cluster's workers: same result."""
    from sim.runs.tune import TuneSettings, tune
    s = TuneSettings(hero="ciri", field=("medusa",), battlefields=("soho",), weights=("threat", "approach"),
                     generations=2, popsize=4, games_per_eval=20, check_games=20)
    a = tune(s, tmp_path / "loky", Backend.of(None, 1, None))
    b = tune(s, tmp_path / "dask", Backend("dask", scheduler=cluster.scheduler_address))
    assert a.tuned_weights == b.tuned_weights
    np.testing.assert_array_equal(a.check_tuned, b.check_tuned)
