"""Sweep metrics: named per-point metrics against closed forms, custom functions, scenario sets,
re-summarising a stored sweep, the result table and the metric-vs-parameter figure."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from frictionlab.core.errors import ConfigError
from frictionlab.core.result import make_dataset
from frictionlab.scenarios.base import Scenario
from frictionlab.sweep import run_sweep
from frictionlab.sweep.metrics import FAMILY_METRICS, METRICS, metric_names_for, resolve_metrics
from frictionlab.sweep.plot import plot_sweep

import _sweep_toy

HERE = Path(__file__).resolve().parent


def _saw_run(cfg: dict, quick: bool):
    """Sawtooth friction: rises by ``amp`` over ``period`` then drops at once; 1 ms samples over 2 s."""
    amp, period = float(cfg["saw"]["amp"]), float(cfg["saw"]["period"])
    t = np.arange(0.0, 2.0 + 1e-12, 1e-3)
    f = 10.0 + amp * ((t / period) % 1.0)
    return make_dataset(t, {"friction_force": f, "slip_velocity": np.where((t / period) % 1.0 > 0.98, 1e-3, 1e-6)})


SAW = Scenario("classic/saw-test", "sawtooth stick-slip (test only, unregistered)",
               {"saw": {"amp": 2.0, "period": 0.1}}, run=_saw_run)


def test_stick_slip_metrics_of_a_sawtooth(tmp_path):
    ds = run_sweep(SAW, ["saw.period=[0.05, 0.1]"], store=tmp_path / "s", scheduler="serial",
                   metrics=["stick_slip_period", "stick_slip_amplitude", "stick_slip_events", "peak_friction",
                            "steady_friction"])
    np.testing.assert_allclose(ds.stick_slip_period.values, [0.05, 0.1], rtol=1e-6)
    np.testing.assert_allclose(ds.stick_slip_amplitude.values, 2.0 * (1 - 1e-3 / np.array([0.05, 0.1])), rtol=1e-6)
    # the last 40 % of 2 s (from t = 1.2 s) holds 0.8 s / period peaks, just before each drop
    assert list(ds.stick_slip_events.values) == [16, 8]
    np.testing.assert_allclose(ds.peak_friction.values, 12.0, atol=0.05)  # one sample (1 ms) short of the top
    np.testing.assert_allclose(ds.steady_friction.values, 11.0, rtol=2e-3)  # mean of a sawtooth: its middle
    assert ds.stick_slip_period.attrs["units"] == "s" and ds.stick_slip_amplitude.attrs["units"] == "N"
    assert ds.stick_slip_events.attrs["units"] == "1"
    assert "last 40 %" in ds.stick_slip_period.attrs["long_name"]


def test_friction_metrics_closed_forms_and_law_dimension(tmp_path):
    """friction = x (1 - e^-t) + y on t in [0, 1] (11 samples): final, peak, time-mean (trapezoid)."""
    ds = run_sweep(_sweep_toy.TOY, ["toy.x=[1, 2]"], store=tmp_path / "s", scheduler="serial",
                   metrics=["final_friction", "mean_friction", "steady_friction", "peak_friction", "min_friction"])
    t = np.linspace(0, 1, 11)
    for x in (1.0, 2.0):
        f = x * (1 - np.exp(-t))
        row = ds.sel({"toy.x": x})
        assert float(row.final_friction) == pytest.approx(f[-1], rel=1e-12)
        assert float(row.mean_friction) == pytest.approx(np.trapezoid(f, t), rel=1e-12)
        assert float(row.steady_friction) == pytest.approx(np.trapezoid(f[8:], t[8:]) / 0.2, rel=1e-12)  # t >= 0.75
        assert float(row.peak_friction) == pytest.approx(f[-1]) and float(row.min_friction) == 0.0
    assert ds.final_friction.attrs["units"] == "N"
    assert "twice_x" not in ds  # the chosen metrics replace the scenario's summary
    # a variable with a second dimension (law): one metric per value, suffixed
    rsf = run_sweep("classic/rsf-velocity-step", ["model.mu0=[0.6]"], store=tmp_path / "r", scheduler="serial",
                    metrics=["final_friction"])
    np.testing.assert_allclose([rsf.final_friction_aging.item(), rsf.final_friction_slip.item()], 0.6, rtol=1e-4)


def test_custom_metric_function_and_units(tmp_path):
    def half_final(ds: xr.Dataset) -> float:
        return 0.5 * float(ds.friction_force[-1])

    half_final.units = "N"
    ds = run_sweep(_sweep_toy.TOY, ["toy.x=[2, 4]"], store=tmp_path / "s", scheduler="serial",
                   metrics=["final_friction", half_final])
    np.testing.assert_allclose(ds.half_final.values, 0.5 * ds.final_friction.values, rtol=1e-12)
    assert ds.half_final.attrs["units"] == "N"
    ds2 = run_sweep(_sweep_toy.TOY, ["toy.x=[2]"], store=tmp_path / "t", scheduler="serial",
                    metrics={"xsq": lambda d: float(d.attrs["x"]) ** 2})
    assert ds2.xsq.item() == 4.0
    with pytest.raises(ConfigError, match="needs a name"):
        resolve_metrics([lambda d: 1.0], _sweep_toy.TOY)


def test_unknown_metric_lists_the_valid_ones():
    with pytest.raises(ConfigError, match=r"unknown metric 'amplitude'; valid for classic/rsf-velocity-step: "
                                          r"final_friction, .*stick_slip_amplitude"):
        resolve_metrics(["amplitude"], Scenario("classic/rsf-velocity-step", "", {"model": {"name": "rsf"}}))
    # a metric that exists but not for this family
    with pytest.raises(ConfigError, match="does not apply to kloss/x"):
        resolve_metrics(["final_contact_area"], Scenario("kloss/x", "", {}))
    with pytest.raises(ConfigError, match="given twice"):
        resolve_metrics(["peak_friction", "peak_friction"], _sweep_toy.TOY)


def test_metric_sets_by_scenario_and_family():
    assert "final_contact_area" in metric_names_for(Scenario("file/r", "", {"model": {"name": "rough_contact"}}))
    assert "final_contact_area" not in metric_names_for(Scenario("file/c", "", {"model": {"name": "rsf"}}))
    assert metric_names_for(Scenario("microjunction/x", "", {})) == FAMILY_METRICS["microjunction"]
    declared = Scenario("rough_contact/y", "", {}, metrics=("final_contact_area",))
    assert metric_names_for(declared) == ("final_contact_area",)
    assert all(set(v) <= set(METRICS) for v in FAMILY_METRICS.values())


def test_resume_with_other_metrics_resummarises_without_rerunning(tmp_path, monkeypatch):
    store = tmp_path / "s"
    run_sweep(_sweep_toy.TOY, ["toy.x=1:3:3"], store=store, scheduler="serial", metrics=["final_friction"])
    log = tmp_path / "log"
    monkeypatch.setenv("TOY_LOG", str(log))
    ds = run_sweep(_sweep_toy.TOY, ["toy.x=1:3:3"], store=store, scheduler="serial", resume=True,
                   metrics=["peak_friction", "mean_friction"])
    assert not log.exists()  # nothing computed again
    assert set(ds.data_vars) == {"peak_friction", "mean_friction", "status", "error", "point_key"}
    np.testing.assert_allclose(ds.peak_friction.values, np.array([1, 2, 3]) * (1 - np.exp(-1)), rtol=1e-12)


def _cli(args):
    code = (f"import sys; sys.path.insert(0, {str(HERE)!r}); import _sweep_toy; _sweep_toy.register(); "
            "from frictionlab.cli import main; sys.argv = ['frictionlab'] + sys.argv[1:]; main()")
    return [sys.executable, "-c", code, *args]


def test_cli_metrics_table_plot_and_unknown_metric(tmp_path):
    env = {**os.environ, "COLUMNS": "100", "MPLBACKEND": "Agg"}
    store = tmp_path / "s"
    res = subprocess.run(_cli(["sweep", "toy/sweep", "--grid", "toy.x=1:3:3", "--store", str(store),
                               "--metric", "steady_friction_coefficient"]), capture_output=True, text=True,
                         timeout=300, env=env)
    # toy has no friction_coefficient: the sweep stops at its first point, one line, exit 2
    assert res.returncode == 2, res.stdout + res.stderr
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "metric 'steady_friction_coefficient' needs one of friction_coefficient" in lines[0]
    res = subprocess.run(_cli(["sweep", "toy/sweep", "--grid", "toy.x=1:3:3", "--store", str(tmp_path / "t"),
                               "--metric", "final_friction", "--metric", "peak_friction", "--metric", "mean_friction",
                               "--metric", "steady_friction", "--metric", "min_friction", "--plot",
                               str(tmp_path / "f.png")]), capture_output=True, text=True, timeout=300, env=env)
    assert res.returncode == 0, res.stdout + res.stderr
    for name in ("final_friction", "peak_friction", "mean_friction", "steady_friction", "min_friction"):
        assert name in res.stdout  # full names (the old table cut them to 'friction_f…')
    assert "[N]" in res.stdout and "…" not in res.stdout
    assert (tmp_path / "f.png").stat().st_size > 5000
    res = subprocess.run(_cli(["sweep", "plot", str(tmp_path / "t"), "--metric", "peak_friction", "--out",
                               str(tmp_path / "g.svg")]), capture_output=True, text=True, timeout=300, env=env)
    assert res.returncode == 0, res.stdout + res.stderr
    assert "<svg" in (tmp_path / "g.svg").read_text()[:2000]
    res = subprocess.run(_cli(["sweep", "toy/sweep", "--grid", "toy.x=1:3:3", "--store", str(tmp_path / "u"),
                               "--metric", "amplitude"]), capture_output=True, text=True, timeout=300, env=env)
    assert res.returncode == 2
    lines = [ln for ln in res.stderr.splitlines() if ln.strip()]
    assert len(lines) == 1 and "unknown metric 'amplitude'" in lines[0] and "stick_slip_amplitude" in lines[0]
    assert not (tmp_path / "u").exists()  # refused before the store was made


def test_plot_sweep_two_keys_and_refusals(tmp_path):
    ds = run_sweep(_sweep_toy.TOY, ["toy.x=[1, 10, 100]", "toy.y=[0, 1]"], store=tmp_path / "s",
                   scheduler="serial", metrics=["final_friction", "peak_friction"])
    fig = plot_sweep(ds)
    axes = [a for a in fig.axes if a.get_visible()]
    assert len(axes) == 2 and axes[0].get_xscale() == "log"  # 1..100: log axis
    assert len(axes[0].get_lines()) == 2  # one line per toy.y
    assert axes[0].get_ylabel() == "final_friction [N]"
    with pytest.raises(ConfigError, match="no metric 'nope'"):
        plot_sweep(ds, ["nope"])
    ds3 = run_sweep(_sweep_toy.TOY, ["toy.x=[1]", "toy.y=[0]", "toy.fail_at=[5]"], store=tmp_path / "t",
                    scheduler="serial")
    with pytest.raises(ConfigError, match="cannot draw 3 swept keys"):
        plot_sweep(ds3)
