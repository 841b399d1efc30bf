"""Issue 27: stick-slip sweep metrics of the packaged scenarios from the command line.

One readable column per metric (not one per point), NaN only where the metric is undefined,
with a ``regime`` column saying why; a grid key for the drive velocity; grid values checked
before anything runs, as ``--set`` values are. Each test failed on the code before the fix.
"""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

from frictionlab.scenarios.base import Scenario
from frictionlab.sweep.store import SweepStore

from frictionlab.core.errors import ConfigError
from frictionlab.sweep import run_sweep
from frictionlab.sweep.plot import plot_sweep

from _cli_call import call as _cli

V = 1e-6  # classic/rsf-stability's drive velocity [m/s]


def test_rsf_stability_stiffness_sweep_gives_one_column_and_the_regimes(tmp_path, capsys, monkeypatch):
    """The issue's command: 4 stiffnesses around k_c = 500 N/m."""
    monkeypatch.setenv("COLUMNS", "120")
    store, fig = tmp_path / "k", tmp_path / "s.png"
    code, text = _cli(["sweep", "classic/rsf-stability", "--grid", "axes.system.stiffness=2e2:2e3:4:log", "--metric",
                       "stick_slip_amplitude", "--metric", "stick_slip_period", "--quick", "--plot", str(fig),
                       "--store", str(store), "--scheduler", "serial"], capsys)
    assert code == 0, text
    ds = xr.open_dataset(store / "sweep.nc")
    assert [v for v in ds.data_vars if v.startswith("stick_slip")] == ["stick_slip_amplitude", "stick_slip_period"]
    assert ds["axes.system.stiffness"].attrs["units"] == "N/m" and "[N/m]" in text and "stick-slip" in text
    assert list(ds.regime.values) == ["stick-slip", "stick-slip", "steady", "steady"]
    amp, period = ds.stick_slip_amplitude.values, ds.stick_slip_period.values
    assert np.all(np.isfinite(amp[:2])) and np.all(np.isnan(amp[2:])) and np.all(np.isnan(period[2:]))
    assert amp[0] > amp[1] > 0.01  # the softer spring, the larger the stress drop
    # K = 0.4 k_c, quasi-static stick-slip: the spring reloads the drop at K V during the stick (most of a cycle)
    assert period[0] == pytest.approx(amp[0] / (200.0 * V), rel=0.1)
    for i, key in enumerate(ds.point_key.values):  # independent of the metric: what the runs did
        run = SweepStore(store, "classic/rsf-stability").load_point(str(key)).squeeze()
        v = run.slip_velocity.values[int(0.6 * run.time.size):]
        if i < 2:
            assert v.max() > 100 * V and v.min() < 0.01 * V  # slips fast, then sticks
        else:
            assert np.abs(v / V - 1).max() < 0.05  # steady sliding at the drive velocity
    panels = plot_sweep(ds).axes
    for ax in panels:
        y = ax.lines[0].get_ydata()
        assert np.isfinite(y).sum() == 2
        assert [t.get_text() for t in ax.texts] == ["steady", "steady"]
    assert fig.stat().st_size > 0


def test_soft_spring_is_never_read_as_steady(tmp_path):
    """K = 0.2 k_c: a period (~1800 s) too long for 2400 s is 'unresolved'; a longer run measures it."""
    ds = run_sweep("classic/rsf-stability", ["axes.system.stiffness=[100]"], store=tmp_path / "a", quick=True,
                   scheduler="serial", metrics=["stick_slip_amplitude"])
    assert ds.regime.values.tolist() == ["unresolved"] and np.isnan(ds.stick_slip_amplitude.values[0])
    ds = run_sweep("classic/rsf-stability", ["axes.system.stiffness=[100]"], store=tmp_path / "b", quick=True,
                   scheduler="serial", metrics=["stick_slip_amplitude", "stick_slip_period"],
                   overrides={"protocol.duration_s": 7200.0})
    assert ds.regime.values.tolist() == ["stick-slip"]
    amp, period = float(ds.stick_slip_amplitude[0]), float(ds.stick_slip_period[0])
    assert amp > 0.1 and period == pytest.approx(amp / (100 * V), rel=0.1)


def test_drive_velocity_is_a_grid_key_of_the_spring_slider(tmp_path, capsys):
    from frictionlab.analysis.stick_slip import stick_slip

    code, text = _cli(["sweep", "classic/spring-slider-stick-slip", "--grid", "protocol.v=0.05:1:2", "--quick",
                       "--store", str(tmp_path / "refused")], capsys)
    assert code == 2 and "is never read: axes.protocol.v sets it for every run" in text
    ds = run_sweep("classic/spring-slider-stick-slip", ["axes.protocol.v=[0.1, 1.0]"], store=tmp_path / "v",
                   quick=True, scheduler="serial", metrics=["stick_slip_amplitude", "stick_slip_period"])
    assert list(ds.data_vars)[:3] == ["stick_slip_amplitude", "stick_slip_period", "regime"]
    assert ds.regime.values.tolist() == ["stick-slip", "steady"] and ds["axes.protocol.v"].attrs["units"] == "m/s"
    run = SweepStore(tmp_path / "v", "classic/spring-slider-stick-slip").load_point(str(ds.point_key.values[0]))
    assert run.drive_velocity.values.tolist() == [0.1]  # the point ran its own drive velocity, alone
    # the scenario's own analysis of the spring-force sawtooth (last 60 %) gives the same cycle
    own = stick_slip(run.time.values, run.spring_force.values[0], window=0.6)
    assert own.stick_slip
    assert float(ds.stick_slip_period[0]) == pytest.approx(own.period, rel=0.02)
    assert float(ds.stick_slip_amplitude[0]) == pytest.approx(own.amplitude, rel=0.02)
    assert np.isnan(float(ds.stick_slip_amplitude[1]))


@pytest.mark.parametrize("scenario, axis, match", [
    ("classic/rsf-stability", "model.law=[agin,slip]", r"--grid model.law='agin': .*not one of \['aging', 'slip'\]"),
    ("classic/rsf-stability", "model.a=[0.01,-1]", r"--grid model.a=-1: .*outside the allowed range"),
    ("classic/rsf-stability", "system.mass=[0,1]", r"--grid system.mass=0: .*outside the allowed range"),
    # every named run sets its own law: a swept base law is never read (refused before anything runs)
    ("classic/rsf-velocity-step", "model.law=[aging,slip]",
     r"--grid model.law='aging': model.law = 'aging' is never read: runs.aging.model.law, runs.slip.model.law"),
])
def test_grid_values_are_checked_like_set_values(scenario, axis, match, tmp_path, capsys):
    with pytest.raises(ConfigError, match=match):
        run_sweep(scenario, [axis], store=tmp_path / "s", quick=True, scheduler="serial")
    assert not (tmp_path / "s").exists()  # refused before anything ran
    code, text = _cli(["sweep", scenario, "--grid", axis, "--quick", "--store", str(tmp_path / "c")], capsys)
    assert code == 2 and len(text.strip().splitlines()) == 1, text
    assert not (tmp_path / "c").exists()


def test_list_axis_swept_one_value_per_point(tmp_path):
    """A key holding a list of runs (a study's axis) swept takes one value per point, not the whole list."""
    sc = Scenario("classic/axis-test", "a study with an axis (test only, unregistered)",
                  {"model": {"name": "coulomb"}, "protocol": {"type": "constant_velocity", "duration_s": 0.01,
                                                              "normal_force_value": 1.0},
                   "integrator": {"dt": 1e-3}, "axes": {"protocol": {"v": [1e-3, 1e-2, 2e-2]}}})
    ds = run_sweep(sc, ["axes.protocol.v=[0.001, 0.01]"], store=tmp_path / "s", scheduler="serial",
                   metrics=["final_friction"])
    assert list(ds.data_vars) == ["final_friction", "status", "error", "point_key"]  # no final_friction_0.001 ...
    for v, key in zip((0.001, 0.01), ds.point_key.values):
        assert SweepStore(tmp_path / "s", "classic/axis-test").load_point(str(key)).v.values.tolist() == [v]


def _kinds_run(cfg: dict, quick: bool):
    """1 ms samples over 2 s: 'saw' a sawtooth of period 0.1 s, 'flat' a constant, 'slow' a period of 3 s,
    'infinite' a series that turns non-finite; 'blowup' and 'bad' raise (an integration that diverged, a bug)."""
    from frictionlab.core.errors import IntegrationError
    from frictionlab.core.result import make_dataset

    kind = cfg["toy"]["kind"]
    if kind == "blowup":
        raise IntegrationError("the step diverged at t = 0.3 s; use a smaller dt")
    if kind == "bad":
        raise RuntimeError("something else")
    t = np.arange(0.0, 2.0 + 1e-12, 1e-3)
    period = {"saw": 0.1, "slow": 3.0}.get(kind, 1.0)
    f = 10.0 + (2.0 * ((t / period) % 1.0) if kind in ("saw", "slow") else 0.0 * t)
    if kind == "infinite":
        f[-5:] = np.inf
    if kind == "ring":  # a ringing spring-slider that never sticks: the speed stays near 1 m/s
        return make_dataset(t, {"spring_force": 10.0 + np.sin(2 * np.pi * t / 0.2),
                                "slip_velocity": 1.0 + 0.5 * np.cos(2 * np.pi * t / 0.2)})
    return make_dataset(t, {"friction_force": f})


def test_regime_column_says_why_a_value_is_missing(tmp_path):
    from frictionlab.scenarios.base import Scenario

    sc = Scenario("classic/kinds-test", "stick-slip regimes (test only, unregistered)", {"toy": {"kind": "saw"}},
                  run=_kinds_run)
    ds = run_sweep(sc, ["toy.kind=[saw, flat, slow, infinite, ring, blowup, bad]"], store=tmp_path / "s",
                   scheduler="serial", metrics=["stick_slip_amplitude", "stick_slip_events"])
    assert ds.regime.values.tolist() == ["stick-slip", "steady", "unresolved", "diverged", "oscillating", "diverged",
                                         "failed"]
    amp = ds.stick_slip_amplitude.values
    assert amp[0] == pytest.approx(2.0 * (1 - 1e-3 / 0.1), rel=1e-6) and np.isnan(amp[1:]).all()
    np.testing.assert_array_equal(ds.stick_slip_events.values[:5], [8, 0, np.nan, np.nan, 0])
    assert ds.status.values.tolist() == ["done"] * 5 + ["failed"] * 2
