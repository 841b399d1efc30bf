"""An interrupted scenario resumes: ``run``/``reproduce --out DIR`` keep every finished independent
run under ``DIR/partial/`` (rough-contact Fig. 13, a study run by ``executor.parallel_map``, on a tiny
16^2 patch, 4 runs), a rerun computes only the rest and gives the uninterrupted result bit for bit;
``reproduce --workers N``."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from frictionlab.core.result import make_dataset
from frictionlab.scenarios import base as scenario_base
from frictionlab.scenarios import checkpoint
from frictionlab.scenarios.base import Scenario, check
from frictionlab.solve.config import parse_set

FIG13 = "rough-contact/fig13"
#: 2 sets x 2 velocities on a 16^2 patch: 4 independent runs of a few tenths of a second
TINY = ["model.patch_nx=16", "model.patch_ny=16", "model.surface_mx=32", "protocol.distances=[4e-6]",
        "protocol.normal_force_value=0.0256", "analysis.sets.fig13a_1=[1.0, 1.0]", "analysis.sets.fig13a_2=[1.0, 2.0]",
        'axes.analysis.set=["fig13a_1", "fig13a_2"]', "axes.protocol.velocities=[[1e-6], [1e-5]]",
        "analysis.map_set=[1.0, 1.0]"]
RUNS = [(1.0, 1e-6), (1.0, 1e-5), (2.0, 1e-6), (2.0, 1e-5)]  # (A, v [m/s]) in task order


def run_fig13(out: Path, cli, *extra: str) -> tuple[int, str, str]:
    sets = [a for s in TINY for a in ("--set", s)]
    return cli(["run", FIG13, "--quick", "--csv", "none", "--out", out, *sets, *extra])


@pytest.fixture
def record(monkeypatch, tmp_path):
    """Every run of Fig. 13's study leaves a file ``calls/<A>_<v>`` (also from forked workers);
    ``record.fail = (A, v)`` makes that run raise. Returns the recorder; ``record.results`` holds the
    datasets the CLI wrote."""

    class Recorder:
        fail: tuple[float, float] | None = None
        calls_dir = tmp_path / "calls"
        results: list[xr.Dataset] = []

        def calls(self) -> list[tuple[float, float]]:
            got = sorted(tuple(float(x) for x in p.name.split("_")) for p in self.calls_dir.iterdir()) \
                if self.calls_dir.exists() else []
            for p in self.calls_dir.glob("*"):
                p.unlink()
            return got

    rec = Recorder()
    rec.results = []
    import frictionlab.solve.study as study

    real_run_point = study.run_point

    def run_point(point):
        cfg = point.config
        key = (float(cfg["model"]["As"][0]), float(cfg["protocol"]["velocities"][0]))
        rec.calls_dir.mkdir(exist_ok=True)
        (rec.calls_dir / f"{key[0]}_{key[1]}").touch()
        if key == rec.fail:
            raise RuntimeError(f"injected failure of the run {key}")
        return real_run_point(point)

    import frictionlab.core.result as result

    real_write = result.write_netcdf

    def write_netcdf(ds, path):
        rec.results.append(ds)
        return real_write(ds, path)

    monkeypatch.setattr(study, "run_point", run_point)
    monkeypatch.setattr(result, "write_netcdf", write_netcdf)
    return rec


def assert_bitwise_equal(a: xr.Dataset, b: xr.Dataset) -> None:
    xr.testing.assert_identical(a, b)
    for name in list(a.variables):
        assert a[name].dtype == b[name].dtype, name
        assert a[name].values.tobytes() == b[name].values.tobytes(), name


def test_interrupted_run_resumes_only_the_rest_bit_for_bit(record, tmp_path, cli):
    code, _, err = run_fig13(tmp_path / "whole", cli)
    assert code == 0, err
    assert record.calls() == sorted(RUNS)
    whole = record.results.pop()
    assert not (tmp_path / "whole" / "partial").exists()  # nothing kept after a finished scenario

    out = tmp_path / "cut"
    record.fail = RUNS[2]  # the third run raises: the first two are kept
    code, _, err = run_fig13(out, cli)
    assert code == 1 and "injected failure" in err
    assert record.calls() == sorted(RUNS[:3])
    kept = checkpoint.partial_dir(out, FIG13)
    assert len(list(kept.glob("*.nc"))) == 2
    assert not list(kept.glob(".*"))  # no temporary file left

    record.fail = None
    code, _, err = run_fig13(out, cli)
    assert code == 0, err
    assert record.calls() == sorted(RUNS[2:])  # only the runs that had not finished
    lines = [ln for ln in err.splitlines() if "resumed" in ln]
    assert len(lines) == 1 and "resumed 2 of 4 finished runs" in lines[0] and "computing 2" in lines[0], err
    assert_bitwise_equal(record.results.pop(), whole)
    assert not (out / "partial").exists()  # removed once the result is written


def test_partials_written_as_they_finish_with_workers_and_resumed_serially(record, tmp_path, cli):
    code, _, err = run_fig13(tmp_path / "whole", cli)
    assert code == 0, err
    whole = record.results.pop()
    record.calls()

    out = tmp_path / "cut"
    record.fail = RUNS[1]  # fails in a forked worker while the first run is in flight
    code, _, err = run_fig13(out, cli, "--workers", "2")
    assert code == 1 and "injected failure" in err
    first = set(record.calls())
    kept = checkpoint.partial_dir(out, FIG13)
    n_kept = len(list(kept.glob("*.nc")))
    assert RUNS[0] in first and 1 <= n_kept <= len(first) - 1  # the run in flight finished and was written

    record.fail = None
    code, _, err = run_fig13(out, cli)  # one worker now: the worker count is in no key
    assert code == 0, err
    again = record.calls()
    assert RUNS[1] in again and len(again) == 4 - n_kept and RUNS[0] not in again
    assert f"resumed {n_kept} of 4 finished runs" in err
    assert_bitwise_equal(record.results.pop(), whole)


def test_fresh_and_changed_code_compute_everything(record, tmp_path, cli, monkeypatch):
    out = tmp_path / "cut"
    record.fail = RUNS[2]
    assert run_fig13(out, cli)[0] == 1
    record.calls()
    record.fail = RUNS[3]  # stop again after the third run, to look at what was recomputed
    code, _, err = run_fig13(out, cli, "--fresh")
    assert code == 1 and "resumed" not in err
    assert record.calls() == sorted(RUNS)  # --fresh: the two kept runs were discarded and ran again

    monkeypatch.setattr(checkpoint, "_IDENTITY", [b"the code after an edit"])
    code, _, err = run_fig13(out, cli)
    assert code == 1 and "resumed" not in err  # edited code: no stale result is reused
    assert record.calls() == sorted(RUNS)
    record.fail = None
    code, _, err = run_fig13(out, cli)
    assert code == 0 and "resumed 3 of 4" in err
    assert record.calls() == [RUNS[3]]


def test_reproduce_resumes_a_crashed_scenario(record, tmp_path, cli, monkeypatch):
    sc = scenario_base.get_scenario(FIG13)
    monkeypatch.setattr(sc, "quick", {**sc.quick, **parse_set(TINY)})
    record.fail = RUNS[3]
    code, out, err = cli(["reproduce", FIG13, "--quick", "--out", tmp_path, "--workers", "2"])
    assert code == 2 and "injected failure" in out
    assert f"--workers 2: 2 processes run the independent runs of {FIG13}" in " ".join(out.split())
    assert "--workers 2" in (tmp_path / "validation.md").read_text()  # the command as run
    assert set(record.calls()) == set(RUNS)
    assert len(list(checkpoint.partial_dir(tmp_path, FIG13).glob("*.nc"))) == 3
    record.fail = None
    code, out, err = cli(["reproduce", FIG13, "--quick", "--out", tmp_path])
    assert "resumed 3 of 4 finished runs" in out + err
    assert code in (0, 1) and record.calls() == [RUNS[3]]
    assert (tmp_path / "data" / "rough-contact__fig13.nc").exists()
    assert not (tmp_path / "partial").exists()


# ------------------------------------------------------------------ reproduce --workers
def _toy_run(cfg, quick):
    t = np.linspace(0.0, 1.0, 5)
    from frictionlab.scenarios.executor import local_workers

    assert "parallel" not in cfg  # the count is an execution option, not a key of the scenario
    return make_dataset(t, {"friction_force": t}, attrs={"workers": local_workers()})


@pytest.fixture
def toys(monkeypatch):
    seen = {}

    def checks(ds, cfg):
        seen[ds.attrs["scenario"]] = int(ds.attrs["workers"])
        return [check("runs", "ok", 1.0, True)]

    for name, parallel in (("toyp/parallel", True), ("toyp/serial", False)):
        monkeypatch.setitem(scenario_base._SCENARIOS, name, Scenario(name, name, {"toy": {}}, run=_toy_run,
                                                                     checks=checks, parallel_runs=parallel))
    return seen


def test_reproduce_workers_sizes_the_local_processes_and_says_where(toys, tmp_path, cli):
    code, out, err = cli(["reproduce", "toyp", "--out", tmp_path, "--workers", "3"])
    assert code == 0, err
    assert toys == {"toyp/parallel": 3, "toyp/serial": 3}  # the execution's count (the serial one has no use for it)
    assert "--workers 3: 3 processes run the independent runs of toyp/parallel" in " ".join(out.split())
    code, out, err = cli(["reproduce", "toyp/serial", "--out", tmp_path / "serial", "--workers", "2"])
    assert code == 0 and "none of these scenarios is made of independent runs" in " ".join(out.split())
    code, out, err = cli(["reproduce", "toyp", "--out", tmp_path / "default"])
    assert code == 0 and toys == {"toyp/parallel": 1, "toyp/serial": 1}  # default: one process


@pytest.mark.parametrize("n", ["0", "-2"])
def test_reproduce_workers_below_one_refused(toys, tmp_path, cli, n):
    code, out, err = cli(["reproduce", "toyp", "--out", tmp_path / "r", "--workers", n])
    assert code == 2 and "Traceback" not in err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:") and f"--workers {n}" in lines[0]
    assert not (tmp_path / "r").exists()  # refused before anything ran or was written
    assert toys == {}


def test_run_parallel_without_cli_context_writes_nothing(tmp_path, monkeypatch):
    from frictionlab.scenarios.rough_contact._common import run_parallel

    monkeypatch.chdir(tmp_path)
    assert checkpoint.active() is None
    assert run_parallel(pow, [(2, 3), (3, 2)], {}) == [8, 9]
    assert os.listdir(tmp_path) == []


TOY_MANY = '''
import os, sys, time
import numpy as np
from frictionlab.core.result import make_dataset
from frictionlab.scenarios import base
from frictionlab.scenarios.rough_contact._common import run_parallel

def one(i):
    if os.environ.get("TOY_SLOW") and i >= 2:
        time.sleep(60)
    os.write(2, f"ran {i}\\n".encode())  # one write: the workers' lines do not interleave
    return np.full(3, float(i))

def run(cfg, quick):
    return make_dataset(np.arange(3.0), {"friction_force": np.sum(run_parallel(one, [(i,) for i in range(4)], cfg), 0)})

base.register_scenario(base.Scenario("toy/many", "independent runs", {"toy": {}}, run=run, parallel_runs=True))
from frictionlab.cli import main
main(["run", "toy/many", "--out", sys.argv[1], "--csv", "none", "--workers", "2"])
'''


@pytest.mark.skipif(sys.platform == "win32", reason="POSIX signals")
def test_real_ctrl_c_with_two_workers_keeps_the_finished_runs(tmp_path, ctrl_c_child):
    """Ctrl-C (SIGINT to the process group, as a terminal sends it) while two forked workers run:
    exit 130, the two finished runs are on disk, the same command computes only the other two."""
    env = {**os.environ, "TOY_SLOW": "1"}
    proc = subprocess.Popen([sys.executable, "-c", TOY_MANY, str(tmp_path)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, env=env, start_new_session=True,
                            preexec_fn=ctrl_c_child)
    kept = checkpoint.partial_dir(tmp_path, "toy/many")
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and len(list(kept.glob("*.nc"))) < 2 and proc.poll() is None:
            time.sleep(0.1)
        assert len(list(kept.glob("*.nc"))) == 2, proc.communicate(timeout=5)
        time.sleep(0.5)
        os.killpg(proc.pid, signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    last = [ln for ln in err.splitlines() if ln.strip()][-1]
    assert last.startswith("interrupted") and "2 finished run(s) of toy/many are kept in" in last, err
    assert len(list(kept.glob("*.nc"))) == 2 and not list(kept.glob(".*"))
    env.pop("TOY_SLOW")
    done = subprocess.run([sys.executable, "-c", TOY_MANY, str(tmp_path)], capture_output=True, text=True, env=env,
                          timeout=300)
    assert done.returncode == 0, done.stderr
    assert "resumed 2 of 4 finished runs" in done.stderr
    assert sorted(re.findall(r"ran (\d)", done.stderr)) == ["2", "3"]
    with xr.open_dataset(tmp_path / "toy__many.nc", engine="h5netcdf") as ds:
        assert ds.friction_force.values.tolist() == [6.0, 6.0, 6.0]
    assert not (tmp_path / "partial").exists()
