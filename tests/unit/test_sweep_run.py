"""Sweeps: store, resume after a kill, failures, LocalCluster == serial, bad input."""

import json
import os
from collections import Counter
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from frictionlab.core.errors import ConfigError
from frictionlab.sweep import SweepStore, gather, point_key, run_sweep

import _sweep_toy

HERE = Path(__file__).resolve().parent
GRID = ["toy.x=1:6:6", "toy.y=[0.0, 0.5]"]


def _log_lines(path: Path) -> list[tuple[float, float]]:
    if not path.exists():
        return []
    return [tuple(map(float, ln.split()[:2])) for ln in path.read_text().splitlines() if ln.strip()]


def test_serial_sweep_values_store_and_gather(tmp_path):
    ds = run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "s", scheduler="serial")
    assert dict(ds.sizes) == {"toy.x": 6, "toy.y": 2}
    np.testing.assert_allclose(ds["toy.x"].values, [1, 2, 3, 4, 5, 6])
    # friction_force_final = x (1 - e^-1) + y, twice_x = 2 x: the scenario's own summary
    expected = ds["toy.x"] * (1 - np.exp(-1.0)) + ds["toy.y"]
    np.testing.assert_allclose(ds.friction_force_final.transpose("toy.x", "toy.y"), expected, rtol=1e-12)
    np.testing.assert_allclose(ds.twice_x.sel({"toy.y": 0.5}), 2 * ds["toy.x"].values)
    assert ds.friction_force_final.attrs["units"] == "N"
    assert (ds.status == "done").all() and ds.attrs["n_failed"] == 0
    assert ds.attrs["scenario"] == "toy/sweep"
    # the points of a serial run in one segment file plus an index; points readable back
    st = SweepStore(tmp_path / "s", "toy/sweep")
    idx = SweepStore.read_index(tmp_path / "s")
    assert idx["scenario"] == "toy/sweep" and idx["grid"]["toy.y"] == [0.0, 0.5]
    assert len(list((tmp_path / "s" / "segments").glob("*.seg"))) == 1 and idx["damaged"] == []
    assert {r["seg"] for r in idx["points"].values()} == {next((tmp_path / "s" / "segments").glob("*.seg")).stem}
    key = str(ds.point_key.sel({"toy.x": 3.0, "toy.y": 0.5}).item())
    assert key == point_key({"toy.x": 3.0, "toy.y": 0.5})
    pt = st.load_point(key)
    assert float(pt.friction_force[-1]) == pytest.approx(3 * (1 - np.exp(-1)) + 0.5, rel=1e-12)
    xr.testing.assert_identical(gather(tmp_path / "s"), ds)


def test_failing_point_recorded_rest_finish(tmp_path, monkeypatch):
    log = tmp_path / "log"
    monkeypatch.setenv("TOY_LOG", str(log))
    ds = run_sweep(_sweep_toy.TOY, ["toy.x=1:4:4"], overrides={"toy.fail_at": 3.0}, store=tmp_path / "s",
                   scheduler="serial")
    assert list(ds.status.values) == ["done", "done", "failed", "done"]
    assert "IntegrationError: toy failure at x = 3.0" in str(ds.error.sel({"toy.x": 3.0}).item())
    assert np.isnan(ds.friction_force_final.sel({"toy.x": 3.0}))
    assert ds.friction_force_final.sel({"toy.x": 4.0}) == pytest.approx(4 * (1 - np.exp(-1)))
    assert ds.attrs["n_failed"] == 1
    idx = SweepStore.read_index(tmp_path / "s")
    rec = idx["points"][point_key({"toy.x": 3.0})]
    assert rec["status"] == "failed" and "toy failure" in rec["error"]
    # resume: finished points are skipped, only the failed one is tried again
    log.unlink()
    ds2 = run_sweep(_sweep_toy.TOY, ["toy.x=1:4:4"], overrides={"toy.fail_at": 3.0}, store=tmp_path / "s",
                    scheduler="serial", resume=True)
    assert _log_lines(log) == [(3.0, 0.0)]
    xr.testing.assert_identical(ds2, ds)


def test_local_cluster_two_workers_equals_serial(tmp_path):
    serial = run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "a", scheduler="serial")
    dist = run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "b", n_workers=2, scheduler="local")
    xr.testing.assert_identical(dist, serial)
    for key in serial.point_key.values.ravel():  # the full point results too (timings aside)
        a, b = (SweepStore(tmp_path / d, "toy/sweep").load_point(str(key)) for d in "ab")
        xr.testing.assert_identical(a, b)


def _stored(store: Path) -> set[tuple[float, float]]:
    """(x, y) of the points in the store's segment files (journalled or not)."""
    from frictionlab.core.errors import DataError
    from frictionlab.sweep.segments import read_footer

    out = set()
    for f in sorted(store.glob("segments/*.seg")):
        try:
            recs = read_footer(f)
        except (DataError, FileNotFoundError):
            continue
        out |= {(r["params"]["toy.x"], r["params"]["toy.y"]) for _, r in recs if r["status"] == "done"}
    return out


def _cli(args, **kw):
    code = (f"import sys; sys.path.insert(0, {str(HERE)!r}); import _sweep_toy; _sweep_toy.register(); "
            "from frictionlab.cli import main; sys.argv = ['frictionlab'] + sys.argv[1:]; main()")
    return [sys.executable, "-c", code, *args]


@pytest.mark.parametrize("how", [
    pytest.param(["--workers", "1"], id="serial"),
    pytest.param(["--workers", "2", "--scheduler", "local", "--chunk", "2"], id="forked-workers",
                 marks=pytest.mark.slow(reason="the same kill/resume with a local cluster: 15-60 s")),
])
def test_killed_sweep_resumes_without_recomputing(tmp_path, how):
    """Kill the CLI (SIGKILL to its process group) after k points are stored; --resume completes it."""
    ref = run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "ref", scheduler="serial")
    store, log = tmp_path / "s", tmp_path / "log"
    env = {**os.environ, "TOY_LOG": str(log), "TOY_SLEEP": "0.4"}
    proc = subprocess.Popen(_cli(["sweep", "toy/sweep", *sum((["--grid", g] for g in GRID), []),
                                  "--store", str(store), *how]),
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, start_new_session=True)
    k = 3
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            if len(_stored(store)) >= k:
                break
            time.sleep(0.05)
        assert proc.poll() is None, proc.stdout.read().decode()
    finally:
        os.killpg(proc.pid, signal.SIGKILL)  # the CLI, its local cluster and workers: a crash
        proc.wait()
    stored = _stored(store)  # journalled, or in a segment a worker wrote: recovered on resume
    assert k <= len(stored) < 12
    n_before = len(_log_lines(log))
    res = subprocess.run(_cli(["sweep", "toy/sweep", *sum((["--grid", g] for g in GRID), []),
                               "--store", str(store), "--resume", "--scheduler", "serial"]),
                         env={**env, "TOY_SLEEP": "0"}, capture_output=True, text=True, timeout=120)
    assert res.returncode == 0, res.stdout + res.stderr
    resumed = _log_lines(log)[n_before:]
    all_points = {(float(x), y) for x in range(1, 7) for y in (0.0, 0.5)}
    assert not (set(resumed) & stored)                 # no stored point computed again
    assert len(resumed) == len(set(resumed))           # each remaining point once
    assert set(resumed) | stored == all_points
    final = xr.open_dataset(store / "sweep.nc", engine="h5netcdf").load()
    xr.testing.assert_identical(gather(store), ref)
    np.testing.assert_array_equal(final.friction_force_final.values, ref.friction_force_final.values)


def test_store_of_another_scenario_refused(tmp_path):
    run_sweep(_sweep_toy.TOY, ["toy.x=[1]"], store=tmp_path / "s", scheduler="serial")
    with pytest.raises(ConfigError, match=r"holds a sweep of scenario 'toy/sweep', not 'toy/other'.*refusing to mix"):
        run_sweep(_sweep_toy.OTHER, ["toy.x=[1]"], store=tmp_path / "s", scheduler="serial", resume=True)
    with pytest.raises(ConfigError, match="pass --resume"):
        run_sweep(_sweep_toy.TOY, ["toy.x=[1]"], store=tmp_path / "s", scheduler="serial")
    with pytest.raises(ConfigError, match="quick"):
        run_sweep(_sweep_toy.TOY, ["toy.x=[1]"], store=tmp_path / "s", scheduler="serial", resume=True, quick=True)
    with pytest.raises(ConfigError, match="refusing to mix grids"):
        run_sweep(_sweep_toy.TOY, ["toy.y=[1]"], store=tmp_path / "s", scheduler="serial", resume=True)


def test_bad_grid_and_unreachable_scheduler(tmp_path):
    with pytest.raises(ConfigError, match=r"did you mean 'x'"):
        run_sweep(_sweep_toy.TOY, ["toy.xs=1:2:2"], store=tmp_path / "a", scheduler="serial")
    with pytest.raises(ConfigError, match="empty grid"):
        run_sweep(_sweep_toy.TOY, [], store=tmp_path / "b", scheduler="serial")
    with pytest.raises(ConfigError, match="unknown scenario 'classic/rsf-velocity-stp'.*did you mean "
                                          "'classic/rsf-velocity-step'"):
        run_sweep("classic/rsf-velocity-stp", ["model.a=[0.01]"], scheduler="serial")
    t0 = time.monotonic()
    with pytest.raises(ConfigError, match=r"cannot reach the dask scheduler at 'tcp://127.0.0.1:9'"):
        run_sweep(_sweep_toy.TOY, ["toy.x=[1]"], store=tmp_path / "c", scheduler="tcp://127.0.0.1:9",
                  connect_timeout=1.0)
    assert time.monotonic() - t0 < 120  # returns (no hang); generous bound, not a timing test


def test_cli_bad_input_exits_2_with_one_line(tmp_path):
    res = subprocess.run(_cli(["sweep", "toy/sweep", "--grid", "toy.z=1:2:2", "--store", str(tmp_path / "s")]),
                         capture_output=True, text=True, timeout=120)
    assert res.returncode == 2
    assert "unknown key 'toy.z'" in res.stderr and "Traceback" not in res.stderr


def test_real_scenario_summary_matches_closed_form(tmp_path):
    """classic/rsf-velocity-step ends at v = v0, so the final friction equals mu0 (steady state)."""
    ds = run_sweep("classic/rsf-velocity-step", ["model.mu0=[0.5, 0.7]"], store=tmp_path / "s",
                   scheduler="serial")
    for law in ("aging", "slip"):
        np.testing.assert_allclose(ds[f"friction_force_final_{law}"].values, [0.5, 0.7], rtol=1e-4)


def test_store_of_a_changed_scenario_config_refused(tmp_path):
    from frictionlab.scenarios import Scenario

    run_sweep(_sweep_toy.TOY, ["toy.x=[1]"], store=tmp_path / "s", scheduler="serial")
    changed = Scenario("toy/sweep", "same name, other defaults", {"toy": {"x": 1.0, "y": 9.0, "fail_at": -1.0}},
                       run=_sweep_toy.run)
    with pytest.raises(ConfigError, match="different configuration"):
        run_sweep(changed, ["toy.x=[1]"], store=tmp_path / "s", scheduler="serial", resume=True)


def test_crash_between_file_and_journal_and_torn_journal_line(tmp_path, monkeypatch):
    """Points of a segment the index never heard of are recovered; a torn journal line is ignored."""
    store = tmp_path / "s"
    ref = run_sweep(_sweep_toy.TOY, ["toy.x=1:3:3"], store=store, scheduler="serial")
    idx = json.loads((store / "index.json").read_text())
    lost = point_key({"toy.x": 2.0})
    del idx["points"][lost]  # as if the process died after writing the segment, before the journal line
    (store / "index.json").write_text(json.dumps(idx))
    (store / "journal.jsonl").write_text('{"key": "p0000", "params": {"toy.x": 9')  # torn last line
    log = tmp_path / "log"
    monkeypatch.setenv("TOY_LOG", str(log))
    again = run_sweep(_sweep_toy.TOY, ["toy.x=1:3:3"], store=store, scheduler="serial", resume=True)
    assert _log_lines(log) == []  # nothing recomputed
    xr.testing.assert_identical(again, ref)
    assert not (store / "journal.jsonl").exists()  # folded into the index at the end


def test_chunked_and_client_written_sweeps_equal_serial(tmp_path, monkeypatch):
    """chunk_size > 1 (workers write the files) and worker_writes=False give the serial result; resume recomputes nothing."""
    serial = run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "a", scheduler="serial")
    chunked = run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "b", n_workers=2, chunk_size=5, scheduler="local")
    client = run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "c", n_workers=1, worker_writes=False,
                       scheduler="local", start_method="spawn")
    xr.testing.assert_identical(chunked, serial)
    xr.testing.assert_identical(client, serial)
    per_segment = Counter(r["seg"] for r in SweepStore.read_index(tmp_path / "b")["points"].values())
    assert sum(per_segment.values()) == 12 and max(per_segment.values()) == 5  # one segment per task of 5 points
    log = tmp_path / "log"
    monkeypatch.setenv("TOY_LOG", str(log))
    again = run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "b", n_workers=1, chunk_size=5, resume=True)
    assert _log_lines(log) == []
    xr.testing.assert_identical(again, serial)
    with pytest.raises(ConfigError, match="chunk_size"):
        run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "d", n_workers=1, chunk_size=0)


def test_plan_parallel_and_auto_chunk():
    from frictionlab.sweep.runner import auto_chunk, plan_parallel

    # 46 points of 0.2 s: 9.2 s here vs 1.5 + 46 * 0.22 / 2 = 6.6 s on 2 new workers
    assert plan_parallel(46, 0.2, 2, 1.5)
    assert not plan_parallel(6, 0.2, 2, 1.5)      # 1.2 s here vs 2.2 s
    assert not plan_parallel(100, 1.0, 1, 0.0)    # one worker never beats this process
    assert not plan_parallel(46, float("nan"), 2, 1.5)
    assert auto_chunk(46, 0.2, 2) == 2            # tasks of ~0.5 s
    assert auto_chunk(46, 0.001, 2) == 5          # capped: >= 4 tasks per worker
    assert auto_chunk(46, 5.0, 2) == 1


# the forked-workers half of the test below, in a fresh process: this one may have run a numba
# parallel region (the beam-network tests do, on the OpenMP layer), after which fork_is_safe() is
# False and the sweep spawns its workers instead
_FORKED = """
import json, os, sys, types
sys.path.insert(0, sys.argv[1])
import _sweep_toy
from frictionlab.sweep import run_sweep
from frictionlab.sweep.runner import fork_is_safe
safe = fork_is_safe()
sys.modules["_sweep_warm_marker"] = types.ModuleType("_sweep_warm_marker")

def inherited(ds):
    return float("_sweep_warm_marker" in sys.modules)

ds = run_sweep(_sweep_toy.TOY, ["toy.x=1:12:12"], store=sys.argv[2], n_workers=2, metrics=["final_friction", inherited])
print(json.dumps({"fork_is_safe": safe, "pid": os.getpid(), "inherited": ds.inherited.values.tolist(),
                  "final_friction": ds.final_friction.values.tolist()}))
"""


def test_short_sweep_runs_here_long_one_on_warm_forked_workers(tmp_path, monkeypatch):
    """Instant points stay in this process; 0.4 s points go to 2 workers after the first two, and
    the workers are forked from the process that runs the sweep (a module only it imported is
    there). The second sweep runs in a fresh process (``_FORKED``) so that forking is tested
    whatever ran before in this one."""
    import multiprocessing

    log = tmp_path / "log"
    monkeypatch.setenv("TOY_LOG", str(log))
    run_sweep(_sweep_toy.TOY, ["toy.x=1:12:12"], store=tmp_path / "a")
    pids = {int(ln.split()[2]) for ln in log.read_text().splitlines()}
    assert pids == {os.getpid()}  # too short to amortise a cluster: serial here
    if "fork" not in multiprocessing.get_all_start_methods() or sys.platform == "darwin":
        pytest.skip("workers cannot be forked on this platform")
    log.unlink()
    env = {**os.environ, "TOY_LOG": str(log), "TOY_SLEEP": "0.4"}
    proc = subprocess.run([sys.executable, "-c", _FORKED, str(HERE), str(tmp_path / "b")], env=env,
                          capture_output=True, text=True, timeout=600)
    assert proc.returncode == 0, proc.stderr[-3000:]
    child = json.loads(proc.stdout.strip().splitlines()[-1])
    assert child["fork_is_safe"]  # a fresh process has started no OpenMP/TBB pool
    lines = [ln.split() for ln in log.read_text().splitlines()]
    here = [float(x) for x, _, pid in lines if int(pid) == child["pid"]]
    assert here == [1.0, 2.0]  # the first two points measured the point time here
    assert len({pid for _, _, pid in lines} - {str(child["pid"])}) == 2  # the rest on two workers
    assert child["inherited"] == [1.0] * 12  # forked: the workers have what the parent had loaded
    np.testing.assert_allclose(child["final_friction"], np.arange(1, 13) * (1 - np.exp(-1.0)), rtol=1e-12)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals and /proc")
@pytest.mark.slow(reason="a local dask cluster starts and is interrupted: 15-40 s")
@pytest.mark.parametrize("to", ["group", "main"])
def test_ctrl_c_stops_the_local_cluster_and_its_workers(tmp_path, to, processes):
    """Ctrl-C while the points run on a local dask cluster (issue 27): exit 130 within seconds, one line
    saying what the store keeps, and no scheduler, nanny or worker process left behind."""
    store, log = tmp_path / "s", tmp_path / "log"
    env = {**os.environ, "TOY_LOG": str(log), "TOY_SLEEP": "1.5"}
    proc = subprocess.Popen(_cli(["sweep", "toy/sweep", *sum((["--grid", g] for g in GRID), []), "--store", str(store),
                                  "--workers", "2", "--scheduler", "local", "--chunk", "1"]),
                            env=env, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
                            preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None:
            pids = {ln.split()[-1] for ln in (log.read_text().splitlines() if log.exists() else [])}
            if len(pids - {str(proc.pid)}) >= 1:  # a worker computes
                break
            time.sleep(0.05)
        assert proc.poll() is None, proc.communicate()
        below = processes.below(proc.pid)
        assert below, "no worker processes"
        t0 = time.monotonic()
        os.killpg(proc.pid, signal.SIGINT) if to == "group" else proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        took = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    time.sleep(0.5)
    assert proc.returncode == 130, err
    assert took < 20, took
    left = [p for p in below if processes.live(p)]
    assert not left, f"processes left running: {left}"
    assert "Traceback" not in err, err
    assert any(ln.startswith("interrupted") for ln in err.splitlines()), err
