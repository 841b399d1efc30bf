"""The study map of independent runs (``scenarios/executor.py``: ``parallel_map``): a study's points on
local processes give the serial results bit for bit, each finished point is kept in the partial store
under the key of its config, and a resume (with another worker count) loads them; the worker count is
an execution option (``runs_on(workers=N)``, ``--workers``), never a key of the scenario."""

from __future__ import annotations

import numpy as np
import pytest

from frictionlab.core.errors import ConfigError
from frictionlab.scenarios import checkpoint, get_scenario
from frictionlab.scenarios.checkpoint import partial_results
from frictionlab.scenarios.executor import local_workers, parallel_map, run_tasks, runs_on
from frictionlab.solve.study import Study

BASE = {
    "model": {"name": "lugre", "preset": "canudas1995"},
    "protocol": {"type": "constant_velocity", "duration_s": 0.02, "normal_force_value": 1.0},
    "integrator": {"driver": "rk4", "dt": 1e-5},
    "runs": {"soft": {"model": {"sigma0": 1e4}}, "stiff": {"model": {"sigma0": 1e6}}},
}


def study(velocities: list[float]) -> Study:
    return Study.from_config({**BASE, "axes": {"protocol": {"v": velocities}}})


def same(a, b) -> None:
    """Bit-identical datasets: every variable's bytes and dtype, and the attributes."""
    assert sorted(a.variables) == sorted(b.variables)
    for k in a.variables:
        x, y = np.asarray(a[k].values), np.asarray(b[k].values)
        assert x.dtype == y.dtype and x.tobytes() == y.tobytes(), k
    assert a.attrs == b.attrs


def test_parallel_points_equal_the_serial_ones_bit_for_bit():
    vs = [1e-4, 1e-3, 1e-2]
    serial = study(vs).execute()
    with runs_on(workers=2):
        assert local_workers() == 2
        par = study(vs).execute(map=parallel_map)
    assert local_workers() == 1  # the count belongs to the block
    assert [(p.label, p.coords) for p in par.points] == [(p.label, p.coords) for p in serial.points]
    for a, b in zip(serial.datasets, par.datasets):
        same(a, b)
    assert len(par.seconds) == 6 and all(s > 0 for s in par.seconds)  # each point timed in its worker
    # the stiff and soft runs differ: a map that returned one point's result for another would show
    assert not np.array_equal(par.pick("soft", v=1e-2).friction_force.values,
                              par.pick("stiff", v=1e-2).friction_force.values)


def test_a_resume_loads_the_finished_points_whatever_the_worker_count(tmp_path):
    said: list[str] = []
    with partial_results(tmp_path, "toy/study", say=said.append) as store:  # an interrupted run: 2 of 4 points
        study([1e-3]).execute(map=parallel_map)
    assert store.written == 2 and store.resumed == 0
    assert len(list(checkpoint.partial_dir(tmp_path, "toy/study").glob("*.nc"))) == 2
    with runs_on(workers=2), partial_results(tmp_path, "toy/study", say=said.append) as store:
        resumed = study([1e-4, 1e-3]).execute(map=parallel_map)
    assert store.resumed == 2 and store.written == 2  # the v = 1e-3 points loaded, the others computed
    assert said == [f"toy/study: resumed 2 of 4 finished runs from {store.directory}; computing 2"]
    serial = study([1e-4, 1e-3]).execute()
    for a, b in zip(serial.datasets, resumed.datasets):
        same(a, b)
    # the key is the point's config: the same config under another label or axis order is the same run
    p = serial.points[1]
    assert checkpoint.task_key(len, (p.config,)) != checkpoint.task_key(len, (serial.points[0].config,))


def test_without_a_store_nothing_is_written(tmp_path):
    assert run_tasks(divmod, [(7, 2), (9, 4)]) == [(3, 1), (2, 1)]
    assert not (tmp_path / "partial").exists()


def test_the_worker_count_is_an_execution_option():
    for bad in (0, -1, 1.5, True, "2"):
        with pytest.raises(ConfigError, match="positive integer"), runs_on(workers=bad):
            pass
    with pytest.raises(ConfigError, match="cluster's workers"), runs_on("tcp://127.0.0.1:1", workers=2):
        pass
    with runs_on(workers=3), runs_on():  # a block without a count keeps the enclosing one
        assert local_workers() == 3
    for name in ("rough-contact/fig8", "rough-contact/fig13", "rough-contact/fig14"):
        sc = get_scenario(name)
        assert "parallel" not in sc.config
        with pytest.raises(ConfigError, match=r"parallel\.workers: .* no parallel any more: .*--workers N"):
            sc.resolved_config({"parallel.workers": 2})
