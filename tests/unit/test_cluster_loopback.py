"""Work on dask clusters that are not ours: a plain ``dask scheduler`` + two ``dask worker`` processes on
loopback (started and stopped here). Sweeps given an address, a scheduler file, a ``Client`` and a
cluster object; a killed worker; a worker without frictionlab; a scheduler without workers; the
local cluster's worker count and dashboard. ``frictionlab run|reproduce rough-contact/fig13
--scheduler``: its independent runs on the cluster, a worker killed mid-run, the local result bit for bit."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import textwrap
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
import xarray as xr

from frictionlab.core.errors import ConfigError
from frictionlab.sweep import run_sweep
from frictionlab.sweep.runner import local_workers

import _sweep_toy

HERE = Path(__file__).resolve().parent
SRC = Path(__file__).resolve().parents[2] / "src"
GRID = ["toy.x=1:6:6", "toy.y=[0.0, 0.5]"]


def _dask(*args: str, env: dict | None = None) -> subprocess.Popen:
    """A ``dask`` CLI process (scheduler or worker) of this interpreter's environment."""
    code = "import sys; from dask.cli import run_cli; sys.argv[0] = 'dask'; run_cli()"
    return subprocess.Popen([sys.executable, "-c", code, *args], env=env, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, start_new_session=True)


def _stop(proc: subprocess.Popen) -> None:
    if proc.poll() is None:
        os.killpg(proc.pid, signal.SIGTERM)
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()


def _worker_env(*paths: Path) -> dict:
    return {**os.environ, "PYTHONPATH": os.pathsep.join(map(str, paths)), "TOY_SLEEP": "0.1",
            "FRICTIONLAB_THREADS": "1"}


def _wait_workers(sched_file: Path, n: int, timeout: float = 120.0) -> None:
    from distributed import Client

    with Client(scheduler_file=str(sched_file), timeout=timeout) as c:
        c.wait_for_workers(n, timeout=timeout)


class Loopback:
    def __init__(self, address: str, sched_file: Path, procs: list[subprocess.Popen]) -> None:
        self.address, self.file, self.procs = address, sched_file, procs

    def __iter__(self):
        return iter((self.address, self.file, self.procs[1:]))

    def add_worker(self) -> subprocess.Popen:
        """One more worker (for a test that kills it); the fixture stops it at the end if it lives."""
        from distributed import Client

        with Client(scheduler_file=str(self.file), timeout=60) as c:
            n = len(c.scheduler_info(n_workers=-1)["workers"])
        proc = _dask("worker", "--scheduler-file", str(self.file), "--nthreads", "1", "--no-dashboard", "--no-nanny",
                     env=_worker_env(SRC, HERE))
        self.procs.append(proc)
        _wait_workers(self.file, n + 1)
        return proc


@pytest.fixture(scope="module")
def loopback(tmp_path_factory):
    """``(address, scheduler file, [worker processes])``: a scheduler and two workers on 127.0.0.1."""
    d = tmp_path_factory.mktemp("cluster")
    sched_file = d / "scheduler.json"
    # the scheduler unpickles the tasks: it needs frictionlab (and here the toy scenario's module) too
    procs = [_dask("scheduler", "--host", "127.0.0.1", "--port", "0", "--no-dashboard", "--scheduler-file",
                   str(sched_file), env=_worker_env(SRC, HERE))]
    try:
        deadline = time.monotonic() + 120
        while not sched_file.exists() and time.monotonic() < deadline:
            time.sleep(0.1)
        assert sched_file.exists(), "dask scheduler did not start"
        workers = [_dask("worker", "--scheduler-file", str(sched_file), "--nthreads", "1", "--no-dashboard",
                         "--no-nanny", env=_worker_env(SRC, HERE)) for _ in range(2)]
        procs += workers
        _wait_workers(sched_file, 2)
        yield Loopback(json.loads(sched_file.read_text())["address"], sched_file, procs)
    finally:
        for p in reversed(procs):
            _stop(p)


@pytest.fixture(scope="module")
def serial(tmp_path_factory):
    return run_sweep(_sweep_toy.TOY, GRID, store=tmp_path_factory.mktemp("ref") / "s", scheduler="serial")


def test_address_file_and_client_give_the_serial_result(loopback, serial, tmp_path):
    from distributed import Client

    address, sched_file, _ = loopback
    by_address = run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "a", scheduler=address)
    by_file = run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "b", scheduler=str(sched_file), worker_writes=True)
    with Client(address) as client:
        by_client = run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "c", scheduler=client, chunk_size=4)
        assert client.status == "running"  # the caller's Client stays open
        assert client.submit(sum, [1, 2]).result() == 3
    for ds in (by_address, by_file, by_client):
        xr.testing.assert_identical(ds, serial)
    with pytest.raises(ConfigError, match="--workers sizes a local cluster"):
        run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "d", scheduler=address, n_workers=2)
    with pytest.raises(ConfigError, match="--dashboard serves the dashboard of a local cluster"):
        run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "d", scheduler=address, dashboard=True)


def test_worker_without_frictionlab_stops_the_sweep_with_its_error(loopback, tmp_path):
    """Issue 27: such a worker failed its task in its own log while the client waited forever."""
    address, sched_file, _ = loopback
    fake = tmp_path / "fake"
    (fake / "frictionlab").mkdir(parents=True)
    (fake / "frictionlab" / "__init__.py").write_text("raise ImportError('frictionlab is not installed here')\n")
    bad = _dask("worker", "--scheduler-file", str(sched_file), "--nthreads", "1", "--no-dashboard", "--no-nanny",
                env=_worker_env(fake))
    try:
        _wait_workers(sched_file, 3)
        t0 = time.monotonic()
        with pytest.raises(ConfigError, match=r"dask worker tcp://127\.0\.0\.1:\d+ cannot run frictionlab "
                                              r"\(ImportError: frictionlab is not installed here\)"):
            run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "s", scheduler=address)
        assert time.monotonic() - t0 < 120  # it returns; not a timing test
    finally:
        _stop(bad)


def test_tasks_that_cannot_run_on_the_workers_stop_the_sweep(loopback, tmp_path):
    """A scenario whose code only this process can import: every task fails on the workers."""
    address, _, _ = loopback
    (tmp_path / "only_here_toy.py").write_text(textwrap.dedent("""
        from frictionlab.core.result import make_dataset
        import numpy as np
        def run(cfg, quick):
            return make_dataset(np.linspace(0, 1, 3), {"friction_force": np.zeros(3)})
    """))
    sys.path.insert(0, str(tmp_path))
    try:
        import only_here_toy

        from frictionlab.scenarios import Scenario

        sc = Scenario("toy/only-here", "runs only where its module is", {"toy": {"x": 1.0}}, run=only_here_toy.run)
        with pytest.raises(ConfigError, match="the dask workers fail every task.*ModuleNotFoundError.*only_here_toy"):
            run_sweep(sc, ["toy.x=1:8:8"], store=tmp_path / "s", scheduler=address, chunk_size=1)
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("only_here_toy", None)


def test_killed_worker_loses_nothing(loopback, serial, tmp_path):
    """SIGKILL one of three workers mid-sweep (points of 0.1 s: it holds one): its tasks run on the
    others, results as serial."""
    victim = loopback.add_worker()
    done = []

    def on_point(key, point, error):
        done.append(key)
        if len(done) == 2 and victim.poll() is None:
            os.killpg(victim.pid, signal.SIGKILL)

    ds = run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "s", scheduler=loopback.address, chunk_size=1,
                   on_point=on_point)
    assert victim.poll() is not None  # it was killed during the sweep
    xr.testing.assert_identical(ds, serial)


def test_cluster_object_and_scheduler_without_workers(tmp_path, serial):
    from distributed import LocalCluster

    with LocalCluster(n_workers=0, processes=False, dashboard_address="127.0.0.1:0") as empty:
        t0 = time.monotonic()
        with pytest.raises(ConfigError, match=r"the dask cluster LocalCluster at .* has no workers after 1 s"):
            run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "a", scheduler=empty, worker_timeout=1.0)
        assert time.monotonic() - t0 < 60
    with LocalCluster(n_workers=1, threads_per_worker=1, processes=False,
                      dashboard_address="127.0.0.1:0") as cluster:
        ds = run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "b", scheduler=cluster)
        assert cluster.status.name == "running"  # the caller's cluster stays up
    xr.testing.assert_identical(ds, serial)
    with pytest.raises(ConfigError, match="scheduler file .*missing.json' does not exist"):
        run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "c", scheduler=str(tmp_path / "missing.json"))
    with pytest.raises(ConfigError, match="not a int"):
        run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "d", scheduler=8786)


def test_local_workers_are_capped_by_points_and_cores(monkeypatch):
    """Issue 27: --workers 100000 was still starting after 120 s; 8 workers ran a 2-point sweep."""
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    assert local_workers(None, 100) == (2, "")
    assert local_workers(8, 2) == (2, "8 workers asked, starting 2: 2 points to run")
    assert local_workers(100000, 10**6) == (4, "100000 workers asked, starting 4: 4 cores (--oversubscribe to exceed)")
    assert local_workers(6, 10, oversubscribe=True) == (6, "")
    assert local_workers(3, 1)[0] == 1


def test_local_cluster_serves_no_dashboard_unless_asked():
    """Issue 27: every local-cluster sweep started the dashboard's HTTP server on port 8787."""
    from frictionlab.sweep.runner import _local_cluster

    client, cluster = _local_cluster(1, "spawn", dashboard=False)
    try:
        ((host, port),) = [s.getsockname()[:2] for s in cluster.scheduler.http_server._sockets.values()]
        assert host == "127.0.0.1" and port != 8787
        for path in ("/status", "/health", "/metrics"):
            with pytest.raises(urllib.error.HTTPError, match="404"):
                urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=30)
    finally:
        client.close()
        cluster.close()


# ------------------------------------------------------------------ a scenario's independent runs
FIG13 = "rough-contact/fig13"
#: 2 sets x 2 velocities on a 16^2 patch: 4 independent runs of a few tenths of a second
TINY = ["model.patch_nx=16", "model.patch_ny=16", "model.surface_mx=32", "protocol.distances=[4e-6]",
        "protocol.normal_force_value=0.0256", "analysis.sets.fig13a_1=[1.0, 1.0]", "analysis.sets.fig13a_2=[1.0, 2.0]",
        'axes.analysis.set=["fig13a_1", "fig13a_2"]', "axes.protocol.velocities=[[1e-6], [1e-5]]",
        "analysis.map_set=[1.0, 1.0]"]


def _fig13(cli, out: Path, *extra) -> None:
    sets = [a for s in TINY for a in ("--set", s)]
    code, _, err = cli(["run", FIG13, "--quick", "--csv", "none", "--out", out, *sets, *extra])
    assert code in (0, 1), err  # 1: a claim fails at this tiny size; the data file is written either way


def _assert_bitwise_equal(a: Path, b: Path) -> None:
    #: provenance attributes that name when the file was written, not what it holds
    when = ("date_created", "history")
    with xr.open_dataset(a, engine="h5netcdf") as da, xr.open_dataset(b, engine="h5netcdf") as db:
        da, db = da.load(), db.load()
        for ds in (da, db):
            for key in when:
                ds.attrs.pop(key, None)
        xr.testing.assert_identical(da, db)
        for name in da.variables:
            assert da[name].values.tobytes() == db[name].values.tobytes(), name


@pytest.mark.slow(reason="rough-contact Fig. 13 (4 tiny runs) twice, here and on the loopback cluster: ~20 s")
def test_fig13_runs_on_the_cluster_survives_a_killed_worker_and_matches_local(loopback, cli, tmp_path, monkeypatch):
    from frictionlab.scenarios import checkpoint, executor

    _fig13(cli, tmp_path / "local")

    def not_here(*args):
        raise AssertionError("with --scheduler no run may go to local processes")

    monkeypatch.setattr(executor.LocalProcesses, "run", not_here)
    victim = loopback.add_worker()
    real_save = checkpoint.PartialStore.save

    def save(self, key, value):  # the first finished run: kill a worker that may hold another
        real_save(self, key, value)
        if victim.poll() is None:
            os.killpg(victim.pid, signal.SIGKILL)

    monkeypatch.setattr(checkpoint.PartialStore, "save", save)
    _fig13(cli, tmp_path / "cluster", "--scheduler", str(loopback.file))
    assert victim.poll() is not None
    name = "rough-contact__fig13.nc"
    _assert_bitwise_equal(tmp_path / "local" / name, tmp_path / "cluster" / name)


def test_reproduce_scheduler_refusals(cli, tmp_path):
    code, _, err = cli(["reproduce", FIG13, "--quick", "--out", tmp_path, "--workers", "2", "--scheduler",
                        "tcp://127.0.0.1:9"])
    assert code == 2 and "with --scheduler the cluster's workers run" in err
    code, _, err = cli(["run", "classic/rsf-velocity-step", "--out", tmp_path, "--scheduler", "tcp://127.0.0.1:9"])
    assert code == 2 and "is not made of independent runs" in " ".join(err.split())
    code, _, err = cli(["reproduce", FIG13, "--quick", "--out", tmp_path, "--scheduler", "local"])
    assert code == 2 and "local processes are the default" in err
    code, _, err = cli(["reproduce", FIG13, "--quick", "--out", tmp_path / "r", "--scheduler", "tcp://127.0.0.1:9"])
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1 and "cannot reach the dask scheduler at 'tcp://127.0.0.1:9'" in lines[0], err
    assert not (tmp_path / "r" / "data").exists()  # stopped before any scenario ran
