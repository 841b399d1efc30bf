"""The beam-network study map: points of a study in one parallel MLBNM loop, the same datasets as one by one."""

import numpy as np
import pytest

from frictionlab.contact.beam_network import batch
from frictionlab.contact.beam_network.batch import batch_map
from frictionlab.solve.study import Study

BASE = {"model": {"name": "beam_network", "preset": "vf60-calibrated"},
        "protocol": {"type": "constant_velocity", "v": 7.5e-4, "duration_s": 0.4, "normal_force_value": 88.0},
        "integrator": {"driver": "mlbnm", "dt": 2e-5, "save_dt": 1e-3, "n_picard": 0}}


def _study(**kw):
    base = {**BASE, "protocol": {k: v for k, v in BASE["protocol"].items() if k != "v"}}
    return Study(base, axes={"model.cb": [7.4, 148.0], "protocol.v": [7.5e-4, 1.5e-3]}, **kw)


def test_batch_gives_each_point_its_own_run_bit_for_bit():
    calls = []

    def counting(func, points):
        calls.append(len(points))
        return batch_map(func, points)

    one_by_one = _study().execute()
    batched = _study().execute(map=counting)
    assert len(batched.datasets) == 4
    for a, b in zip(one_by_one.datasets, batched.datasets):
        assert a.identical(b)  # variables, coordinates and attributes
        assert np.array_equal(a.friction_force.values, b.friction_force.values)
    assert all(s > 0 for s in batched.seconds)


def test_points_a_loop_cannot_share_run_alone(monkeypatch):
    """Another driver (lbnm) and another Stribeck law run through the study's own function."""
    ran = []
    study = Study(BASE, runs={"ml": {}, "printed_vs": {"model": {"v_stribeck": 0.018}},
                              "lb": {"integrator": {"driver": "lbnm", "beam_save_dt": 0.1}}})

    def spy(point):
        ran.append(point.label)
        from frictionlab.solve.study import timed_run_point
        return timed_run_point(point)

    out = batch_map(spy, study.validate())
    assert sorted(ran) == ["lb", "ml", "printed_vs"]  # each alone: no group of two
    assert [ds.attrs["driver"] for ds, _ in out] == ["mlbnm", "mlbnm", "lbnm"]


def test_groups_are_cut_at_max_cases(monkeypatch):
    monkeypatch.setattr(batch, "MAX_CASES", 3)
    sizes = []
    real = batch._run_group

    def spy(points, func):
        sizes.append(len(points))
        return real(points, func)

    monkeypatch.setattr(batch, "_run_group", spy)
    res = _study().execute(map=batch_map)
    assert sizes == [3, 1]
    ref = _study().execute()
    assert all(a.identical(b) for a, b in zip(ref.datasets, res.datasets))


def test_a_diverged_point_raises_naming_the_point():
    from frictionlab.core.errors import FrictionLabError

    base = {**BASE, "integrator": {"driver": "mlbnm", "dt": 1e-4, "save_dt": 1e-3, "scheme": "euler",
                                   "allow_unstable": True}}
    study = Study(base, axes={"model.cb": [0.0, 148.0]})
    with pytest.raises(FrictionLabError, match="model.cb"):
        study.execute(map=batch_map)
