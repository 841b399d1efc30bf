"""Beam-network drivers of ``simulate``: stage velocity from the protocol, dt used, SI results."""

from __future__ import annotations

import numpy as np
import pytest

import frictionlab as fl
from frictionlab.contact.beam_network import run_lbnm, run_mlbnm
from frictionlab.core.errors import ConfigError
from frictionlab.core.registry import make_model, presets_of
from frictionlab.protocols import ConstantVelocity, VelocitySteps
from frictionlab.testing import check_model


def _cv(m, v=7.5e-4, duration=0.1):
    return ConstantVelocity(v=v, duration_s=duration, normal_force_value=m.normal_load)


def test_mlbnm_matches_run_mlbnm_in_si():
    m = make_model("beam_network", "vf60-calibrated")
    ds = fl.simulate(m, _cv(m), save_dt=2e-3)
    ref = run_mlbnm(m, 7.5e-4, 0.1, save_dt=2e-3)
    np.testing.assert_array_equal(ds.friction_force.values, ref.friction_force.values)
    np.testing.assert_allclose(ds.friction_coefficient.values, ref.friction_force.values / 88.0, rtol=1e-15)
    np.testing.assert_allclose(ds.slip.values, 7.5e-4 * ds.time.values, rtol=1e-15)
    assert ds.normal_force.values[0] == 88.0 and ds.normal_force.attrs["units"] == "N"
    assert ds.driver_position.attrs["units"] == "m" and ds.attrs["driver"] == "mlbnm"


def test_lbnm_uses_integrator_dt():
    """``dt`` reaches the compiled loop (issue 12: it was accepted and ignored)."""
    m = make_model("beam_network", "vf60-table3")
    a = fl.simulate(m, _cv(m, duration=0.02), integrator="lbnm", dt=1e-5, beam_save_dt=1e-2)
    ref = run_lbnm(m, 7.5e-4, 0.02, dt=1e-5)
    np.testing.assert_array_equal(a.friction_force.values, ref.friction_force.values)
    b = fl.simulate(m, _cv(m, duration=0.02), integrator="lbnm", dt=2e-5)
    assert a.attrs["dt"] == 1e-5 and b.attrs["dt"] == 2e-5
    assert not np.array_equal(a.friction_force.values, b.friction_force.values)


def test_refusals_are_one_line():
    m = make_model("beam_network", "vf60-calibrated")
    with pytest.raises(ConfigError, match="refuses protocol .velocity_steps.: the drive velocity changes.*one constant stage velocity"):
        fl.simulate(m, VelocitySteps(velocities=(1e-4, 1e-3), durations=(0.1, 0.1), normal_force_value=88.0))
    with pytest.raises(ConfigError, match="normal force 1 N differs from the model's normal_load 88 N"):
        fl.simulate(m, ConstantVelocity(v=7.5e-4, duration_s=0.1))
    with pytest.raises(ConfigError, match="whole number of steps"):
        fl.simulate(m, _cv(m), dt=3e-5)
    with pytest.raises(ConfigError, match="no option 'schem'.*did you mean 'scheme'"):
        fl.simulate(m, _cv(m), schem="euler")
    with pytest.raises(ConfigError, match="no option 'beam_save_dt'"):
        fl.simulate(m, _cv(m), beam_save_dt=1e-2)  # an LBNM option, not an MLBNM one


@pytest.mark.parametrize("preset", sorted(presets_of("beam_network")))
def test_check_model_every_preset(preset):
    m = make_model("beam_network", preset)
    r = check_model(m, protocol=_cv(m, duration=0.2), steps=2000)
    assert r.driver == "mlbnm"


def test_mlbnm_batch_matches_single_runs():
    """A batch (parameter changes and stage velocities) gives each case's single run, bit for bit."""
    from frictionlab.contact.beam_network import run_mlbnm_batch

    m = make_model("beam_network", "vf60-calibrated")
    ds = fl.simulate(m, _cv(m, duration=0.05), save_dt=1e-3, batch_params=[{}, {"cb": 30.0}, {"normal_load": 40.0}],
                     batch_velocities=[7.5e-4, 1.5e-3, 7.5e-4], save_columns=True)
    assert ds.friction_force.dims == ("case", "time") and ds.column_lag.dims == ("case", "time", "iub")
    for j, (p, v) in enumerate([(m, 7.5e-4), (m.replace(cb=30.0), 1.5e-3), (m.replace(normal_load=40.0), 7.5e-4)]):
        ref = run_mlbnm(p, v, 0.05, save_dt=1e-3)
        np.testing.assert_array_equal(ds.friction_force.values[j], ref.friction_force.values)
    assert list(ds.case_normal_force.values) == [88.0, 88.0, 40.0] and list(ds.failed_step.values) == [-1, -1, -1]
    direct = run_mlbnm_batch([m, m], [7.5e-4, 1.5e-3], 0.05, save_dt=1e-3)
    via = fl.simulate(m, _cv(m, duration=0.05), save_dt=1e-3, batch_velocities=[7.5e-4, 1.5e-3])
    np.testing.assert_array_equal(via.friction_force.values, direct["friction_force"])
    with pytest.raises(ConfigError, match="first of batch_velocities"):
        fl.simulate(m, _cv(m, duration=0.05), batch_velocities=[1.5e-3])
    with pytest.raises(ConfigError, match="apply to batches"):
        fl.simulate(m, _cv(m, duration=0.05), save_columns=True)
    with pytest.raises(ConfigError, match="2 batch_params but 1"):
        fl.simulate(m, _cv(m, duration=0.05), batch_params=[{}, {}], batch_velocities=[7.5e-4])


def test_fig8_set_integrator_dt_changes_the_result():
    """``frictionlab run beam-network/fig8 --set integrator.dt=1e-5`` reaches every loop (issue 12)."""
    from frictionlab.scenarios import get_scenario

    sc = get_scenario("beam-network/fig8")
    short = {"protocol.duration_s": 0.1, "runs.lbnm.integrator.beam_save_dt": 1e-2}
    a, _ = sc.execute(short)
    b, cfg = sc.execute({**short, "integrator.dt": 1e-5})
    assert cfg["integrator"]["dt"] == 1e-5 and b.attrs["dt"] == 1e-5 and a.attrs["dt"] == 2e-5
    for model in ("LBNM", "MLBNM", "LBNM-column-mean-load"):
        fa, fb = a.friction_force.sel(model=model).values, b.friction_force.sel(model=model).values
        assert not np.array_equal(fa, fb), model
        np.testing.assert_allclose(fa, fb, rtol=0, atol=0.05 * np.max(np.abs(fa)))  # same physics, another step


def test_load_distribution_reaches_both_drivers():
    """``load_distribution`` (the per-beam normal loads) is what fig8's column-mean LBNM runs through ``simulate``."""
    from frictionlab.core.errors import ParameterError

    m = make_model("beam_network", "vf60-calibrated")
    g = m.geometry()
    col_mean = (np.bincount(g.column, weights=g.normal_force) / np.bincount(g.column))[g.column]
    cm = m.replace(load_distribution="column_mean")
    ds = fl.simulate(cm, _cv(m, duration=0.05), integrator="lbnm", beam_save_dt=1e-2)
    np.testing.assert_array_equal(ds.beam_normal_force.values, col_mean)
    ref = run_lbnm(m, 7.5e-4, 0.05, normal_force=col_mean)  # the former direct call of the scenario
    np.testing.assert_array_equal(ds.friction_force.values, ref.friction_force.values)
    fig7 = fl.simulate(m, _cv(m, duration=0.05), integrator="lbnm", beam_save_dt=1e-2)
    assert not np.array_equal(fig7.friction_force.values, ds.friction_force.values)
    # the MLBNM lumps the same column loads either way; "uniform" moves load to the outer columns
    ml = {d: fl.simulate(m.replace(load_distribution=d), _cv(m, duration=0.05)) for d in ("fig7", "column_mean", "uniform")}
    np.testing.assert_allclose(ml["column_mean"].iub_normal_force.values, ml["fig7"].iub_normal_force.values, rtol=1e-14)
    uni = ml["uniform"].iub_normal_force.values
    np.testing.assert_allclose(uni, 88.0 * g.column_count / g.n_beams, rtol=1e-14)
    assert uni[0] > ml["fig7"].iub_normal_force.values[0]
    with pytest.raises(ParameterError, match="load_distribution.*column_mean"):
        m.replace(load_distribution="column-mean")


def test_fig8_and_calibration_run_the_lbnm_through_simulate(monkeypatch):
    import inspect

    from frictionlab.scenarios import get_scenario
    from frictionlab.scenarios.beam_network import calibration, fig8

    for mod in (fig8, calibration):
        assert "run_lbnm" not in vars(mod) and "run_lbnm(" not in inspect.getsource(mod), mod.__name__
    calls = []
    import frictionlab.solve.config as config

    real = config.run_config

    def spy(cfg, **kw):  # every run of the study goes through the strict config path and simulate
        calls.append((cfg["integrator"]["driver"], cfg["model"].get("load_distribution", "fig7")))
        return real(cfg, **kw)

    monkeypatch.setattr(config, "run_config", spy)
    ds, _ = get_scenario("beam-network/fig8").execute({"protocol.duration_s": 0.05,
                                                       "runs.lbnm.integrator.beam_save_dt": 1e-2})
    assert calls == [("lbnm", "fig7"), ("mlbnm", "fig7"), ("mlbnm", "fig7"), ("lbnm", "column_mean"), ("lbnm", "fig7"),
                     ("mlbnm", "fig7")]
    assert ds.sizes["model"] == 6 and np.all(np.isfinite(ds.friction_force.values))
    assert list(ds.model.values[-2:]) == ["LBNM-printed-vs", "MLBNM-printed-vs"]
    with pytest.raises(ConfigError, match="model.load_distribution: beam-network/fig8 sets model.load_distribution"):
        get_scenario("beam-network/fig8").execute({"protocol.duration_s": 0.05, "model.load_distribution": "uniform"})
