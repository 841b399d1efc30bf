"""One protocol, many models (frictionlab.analysis.compare): closed form, fit, registry, CLI, scenarios."""

import math

import numpy as np
import pytest

from frictionlab.analysis import compare as C
from frictionlab.core.errors import ConfigError, ParameterError
from frictionlab.core.registry import make_model
from frictionlab.solve import simulate
from frictionlab.protocols import ConstantVelocity, SlideHoldSlide, VelocitySteps

VS = VelocitySteps(velocities=(1e-4, 1e-3), durations=(0.2, 0.2))


# ---------------------------------------------------------------------------- closed form
@pytest.mark.parametrize("law", ["aging", "slip"])
def test_closed_form_matches_simulated_rate_state(law):
    p = VelocitySteps(velocities=(1e-6, 1e-5, 3e-6), distances=(1e-4, 2e-4, 1e-4))
    m = make_model("rate_state", "granite-typical", v_init=1e-6, law=law)
    ds = simulate(m, p, integrator="rk4", dt=0.01, max_points=10**6)
    edges, vels = C._segments(p)
    mu = C.rsf_prescribed_mu(ds.time.values, edges, vels, float(ds.friction_coefficient[0]), m.a, m.b, m.dc, law)
    assert np.max(np.abs(mu - ds.friction_coefficient.values)) < 1e-7


def test_closed_form_aging_hold_and_steady_limits():
    edges = np.array([0.0, 1.0, 3.0, 4.0])
    vels = np.array([1e-5, 0.0, 1e-5])
    a, b, dc = 0.01, 0.015, 1e-5
    t = np.array([0.0, 0.5, 2.0, 3.0, 4.0])
    mu = C.rsf_prescribed_mu(t, edges, vels, 0.6, a, b, dc)
    assert mu[0] == pytest.approx(0.6) and mu[1] == pytest.approx(0.6)  # steady at the start
    assert math.isnan(mu[2])  # friction undefined while held
    # reslide: theta = dc/v + t_h -> mu = mu_ss + b ln(1 + v t_h / dc)
    assert mu[3] == pytest.approx(0.6 + b * math.log(1 + 1e-5 * 2.0 / dc), rel=1e-12)
    # slip law: the state does not evolve at zero slip rate
    mu_s = C.rsf_prescribed_mu(t, edges, vels, 0.6, a, b, dc, "slip")
    assert mu_s[3] == pytest.approx(0.6, abs=1e-12)


def test_fit_recovers_rsf_parameters_with_noise():
    p = VelocitySteps(velocities=(1e-5, 1e-4, 1e-5), durations=(2.0, 1.0, 5.0))
    edges, vels = C._segments(p)
    t = np.linspace(0.0, p.duration, 4001)
    truth = {"a": 0.008, "b": 0.012, "dc": 2e-5}
    mu = C.rsf_prescribed_mu(t, edges, vels, 0.55, truth["a"], truth["b"], truth["dc"])
    import xarray as xr

    ds = xr.Dataset({"friction_coefficient": ("time", mu)}, coords={"time": t})
    f = C.fit_rsf(ds, p, t_start=0.0)
    for k, v in truth.items():
        assert f.params_[k] == pytest.approx(v, rel=1e-5)
    f = C.fit_rsf(ds, p, t_start=0.0, noise=2e-4, seed=3)
    for k, v in truth.items():
        assert abs(f.params_[k] - v) < 3 * f.stderr_[k] + 1e-15
        assert f.stderr_[k] < 0.05 * v


def test_fit_single_velocity_fixes_a():
    p = SlideHoldSlide(v=1e-3, slide_duration=0.2, holds=(0.1, 1.0))
    edges, vels = C._segments(p)
    t = np.linspace(0.0, p.duration, 3001)
    mu = C.rsf_prescribed_mu(t, edges, vels, 0.6, 0.01, 0.015, 1e-5)
    import xarray as xr

    ds = xr.Dataset({"friction_coefficient": ("time", np.nan_to_num(mu, nan=0.0))}, coords={"time": t})
    f = C.fit_rsf(ds, p, t_start=0.0)
    assert "a" not in f.free_
    assert f.params_["b"] == pytest.approx(0.015, rel=1e-4)
    assert f.params_["dc"] == pytest.approx(1e-5, rel=1e-3)


# ---------------------------------------------------------------------------- compare
@pytest.fixture(scope="module")
def small():
    return C.compare(VS, ["coulomb", "stribeck", "lugre", "rate_state", "beam_network", "rough_contact"], quick=True,
                     n_grid=801)


def test_compare_dataset_shape_and_status(small):
    ds = small
    assert list(ds.model.values) == ["coulomb", "stribeck", "lugre", "rate_state", "beam_network", "rough_contact"]
    assert ds.friction_coefficient.dims == ("model", "time")
    st = dict(zip(ds.model.values, ds.status.values))
    assert st["coulomb"] == st["rate_state"] == "ok"
    assert "constant stage velocity" in st["beam_network"]
    assert st["rough_contact"] == "ok"
    assert float(ds.direct_effect.sel(model="rough_contact")) > 0  # alpha ln(V2/V1) A/W
    assert np.all(np.isnan(ds.friction_coefficient.sel(model="beam_network")))
    assert "beam_network" in ds.attrs["failed"]
    # the grid contains the step time; every model shares the prescribed slip
    assert 0.2 in ds.time.values
    np.testing.assert_allclose(ds.slip.sel(model="coulomb"), ds.slip.sel(model="rate_state"), rtol=1e-9, atol=1e-15)


def test_compare_diagnostics_closed_forms(small):
    ds = small
    rs = make_model("rate_state", "granite-typical")
    assert float(ds.direct_effect.sel(model="rate_state")) == pytest.approx(rs.a * math.log(10), rel=1e-3)
    assert float(ds.direct_effect.sel(model="coulomb")) == 0.0
    st = make_model("stribeck", "canudas1995", normal_scaling=True)
    exp = float(st.friction_curve(np.array([1e-3]))[0] - st.friction_curve(np.array([1e-4]))[0])
    assert float(ds.direct_effect.sel(model="stribeck")) == pytest.approx(exp, rel=1e-9)
    for m in ("coulomb", "stribeck", "lugre", "rate_state"):
        assert float(ds.steady_after_step.sel(model=m)) == pytest.approx(float(ds.steady_expected.sel(model=m)), rel=1e-3)
    assert float(ds.direct_effect.sel(model="lugre")) == pytest.approx(float(ds.direct_expected.sel(model="lugre")),
                                                                       rel=1e-2)
    # noise-free fit to the rate_state model: its own parameters
    assert float(ds.rsf_a.sel(model="rate_state")) == pytest.approx(0.01, rel=1e-5)
    assert float(ds.rsf_b.sel(model="rate_state")) == pytest.approx(0.015, rel=1e-5)
    assert float(ds.rsf_dc.sel(model="rate_state")) == pytest.approx(1e-5, rel=1e-5)
    assert str(ds.rsf_fit_status.sel(model="beam_network").item()) == "not run"


def test_segment_interpolation_does_not_straddle_jumps():
    t = np.array([0.0, 0.5, 1.0, 1.5, 2.0])
    y = np.array([1.0, 1.0, 5.0, 5.0, 5.0])
    grid = np.array([0.0, 0.9, 1.0, 1.2, 2.0])
    out = C._interp_segments(grid, t, y, np.array([0.0, 1.0, 2.0]))
    np.testing.assert_allclose(out, [1.0, 1.0, 5.0, 5.0, 5.0])


def test_failing_adapter_is_reported_not_dropped():
    def boom(protocol, quick):
        raise RuntimeError("kaput")

    C.register_adapter(C.ModelAdapter("test_boom", boom, "always fails"))
    try:
        ds = C.compare(VS, ["coulomb", "test_boom"], fit=False, n_grid=101)
    finally:
        del C.ADAPTERS["test_boom"]
    assert list(ds.model.values) == ["coulomb", "test_boom"]
    assert str(ds.status.sel(model="test_boom").item()) == "failed: RuntimeError: kaput"
    assert str(ds.rsf_fit_status.sel(model="coulomb").item()) == "not requested"


def test_quick_vs_full_steps_converge():
    """Halving dt twice (1e4 -> 4e4 steps) changes the LuGre and rate-and-state responses < 1e-6."""
    p = VelocitySteps(velocities=(1e-4, 1e-3), durations=(0.5, 0.5))
    for m in ("lugre", "rate_state"):
        q, f = C.run_model(m, p, True), C.run_model(m, p, False)
        muf = np.interp(q.time.values, f.time.values, f.friction_coefficient.values)
        assert np.max(np.abs(q.friction_coefficient.values - muf)[q.time.values != 0.5]) < 1e-6


def test_slide_hold_slide_healing_rate_state():
    p = SlideHoldSlide(v=1e-3, slide_duration=0.2, holds=(0.1, 1.0))
    ds = C.compare(p, ["rate_state", "lugre", "subloading"], n_grid=401)
    rs = make_model("rate_state", "granite-typical")
    exp = [rs.b * math.log(1 + 1e-3 * th / rs.dc) for th in (0.1, 1.0)]
    np.testing.assert_allclose(ds.hold_peaks.sel(model="rate_state"), exp, rtol=1e-3)
    assert np.all(np.abs(ds.hold_peaks.sel(model="lugre")) < 1e-4)
    sub = ds.hold_peaks.sel(model="subloading").values
    assert sub[0] > 0 and sub[1] > sub[0]
    assert math.isnan(float(ds.rsf_a.sel(model="rate_state")))
    assert float(ds.rsf_b.sel(model="rate_state")) == pytest.approx(0.015, rel=1e-4)


def test_plot_and_table(small):
    fig = C.plot_compare(small, title="t")
    assert len(fig.axes) == 3
    txt = C.format_table(small)
    assert "rate_state" in txt and "constant stage velocity" in txt
    rows = C.rsf_table(small)
    assert rows[3]["model"] == "rate_state" and rows[3]["a"] == pytest.approx(0.01, rel=1e-5)


# ---------------------------------------------------------------------------- bad input
def test_bad_input():
    with pytest.raises(ConfigError, match="lugre"):
        C.compare(VS, ["lugra"])
    with pytest.raises(ConfigError, match="empty"):
        C.compare(VS, [])
    with pytest.raises(ConfigError, match="protocol object"):
        C.compare({"type": "velocity_steps"}, ["coulomb"])
    with pytest.raises(ConfigError, match="law"):
        C.compare(VS, ["coulomb"], law="ageing")
    import xarray as xr

    ds = xr.Dataset({"friction_coefficient": ("time", np.ones(50))}, coords={"time": np.linspace(0, 1, 50)})
    with pytest.raises(ConfigError, match="not identifiable"):
        C.fit_rsf(ds, ConstantVelocity(v=1e-3))
    with pytest.raises(ParameterError, match="noise"):
        C.fit_rsf(xr.Dataset({"friction_coefficient": ("time", np.ones(400))}, coords={"time": np.linspace(0, 0.4, 400)}),
                  VS, noise=-1.0)


def test_cli_compare(tmp_path):
    from typer.testing import CliRunner

    from frictionlab.cli import app

    r = CliRunner().invoke(app, ["compare", "velocity_steps", "--set", "durations=[0.2,0.2]", "--models",
                                 "coulomb,rate_state,beam_network", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "compare_velocity_steps.nc").exists() and (tmp_path / "compare_velocity_steps.png").exists()
    assert "constant stage velocity" in r.output
    import json

    rows = json.loads((tmp_path / "compare_velocity_steps.json").read_text())
    assert rows[1]["model"] == "rate_state" and rows[1]["b"] == pytest.approx(0.015, rel=1e-5)


# ---------------------------------------------------------------------------- scenarios
@pytest.mark.slow(reason="every model through two protocols: ~60 s with numba compilation")
@pytest.mark.parametrize("name", ["classic/compare-velocity-step", "classic/compare-slide-hold-slide"])
def test_quick_profile_checks_pass(name):
    from frictionlab.scenarios import get_scenario

    sc = get_scenario(name)
    ds, cfg = sc.execute(quick=True)
    checks = sc.evaluate(ds, cfg)
    assert len(checks) >= 10
    failed = [(c.claim, c.expected, c.measured) for c in checks if not c.passed]
    assert not failed, failed


def test_spring_slider_system_runs_force_laws_and_reports_the_others():
    from frictionlab.systems.mass import spring_slider

    p = VelocitySteps(velocities=(1e-4, 1e-3), durations=(0.1, 0.1))
    ds = C.compare(p, ["coulomb", "rate_state", "subloading", "microjunction"], n_grid=201,
                   system=spring_slider(mass=1e-3, stiffness=1e4, damping=2.0))
    st = {m: str(s) for m, s in zip(ds.model.values, ds.status.values)}
    assert st["coulomb"] == "ok" and st["rate_state"] == "ok"
    assert "stress-based" in st["subloading"] and "prescribed slip" in st["microjunction"]
    assert ds.attrs["system"] == "mass"
    assert str(ds.rsf_fit_status.sel(model="rate_state").item()).startswith("skipped")
    # the load point moves at the protocol velocity; the slider follows it on average
    slip = float(ds.slip.sel(model="rate_state").isel(time=-1))
    assert slip == pytest.approx(1e-4 * 0.1 + 1e-3 * 0.1, rel=0.05)
