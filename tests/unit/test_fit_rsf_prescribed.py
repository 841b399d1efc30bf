"""Rate-and-state under prescribed slip: the closed form (reference.rate_state) and its fit (fit.rsf_prescribed)."""

import math

import numpy as np
import pytest
import xarray as xr

from frictionlab.core.errors import ConfigError, ParameterError
from frictionlab.core.registry import make_model
from frictionlab.fit.rsf_prescribed import fit_rsf, velocity_segments
from frictionlab.protocols import ConstantVelocity, SlideHoldSlide, VelocitySteps
from frictionlab.reference.rate_state import prescribed_slip_mu
from frictionlab.solve import simulate

VS = VelocitySteps(velocities=(1e-4, 1e-3), durations=(0.2, 0.2))


# ---------------------------------------------------------------------------- closed form
@pytest.mark.parametrize("law", ["aging", "slip"])
def test_closed_form_matches_simulated_rate_state(law):
    p = VelocitySteps(velocities=(1e-6, 1e-5, 3e-6), distances=(1e-4, 2e-4, 1e-4))
    m = make_model("rate_state", "granite-typical", v_init=1e-6, law=law)
    ds = simulate(m, p, integrator="rk4", dt=0.01, max_points=10**6)
    edges, vels = velocity_segments(p)
    mu = prescribed_slip_mu(ds.time.values, edges, vels, float(ds.friction_coefficient[0]), m.a, m.b, m.dc, law)
    assert np.max(np.abs(mu - ds.friction_coefficient.values)) < 1e-7


def test_closed_form_aging_hold_and_steady_limits():
    edges = np.array([0.0, 1.0, 3.0, 4.0])
    vels = np.array([1e-5, 0.0, 1e-5])
    a, b, dc = 0.01, 0.015, 1e-5
    t = np.array([0.0, 0.5, 2.0, 3.0, 4.0])
    mu = prescribed_slip_mu(t, edges, vels, 0.6, a, b, dc)
    assert mu[0] == pytest.approx(0.6) and mu[1] == pytest.approx(0.6)  # steady at the start
    assert math.isnan(mu[2])  # friction undefined while held
    # reslide: theta = dc/v + t_h -> mu = mu_ss + b ln(1 + v t_h / dc)
    assert mu[3] == pytest.approx(0.6 + b * math.log(1 + 1e-5 * 2.0 / dc), rel=1e-12)
    # slip law: the state does not evolve at zero slip rate
    mu_s = prescribed_slip_mu(t, edges, vels, 0.6, a, b, dc, "slip")
    assert mu_s[3] == pytest.approx(0.6, abs=1e-12)


def test_fit_recovers_rsf_parameters_with_noise():
    p = VelocitySteps(velocities=(1e-5, 1e-4, 1e-5), durations=(2.0, 1.0, 5.0))
    edges, vels = velocity_segments(p)
    t = np.linspace(0.0, p.duration, 4001)
    truth = {"a": 0.008, "b": 0.012, "dc": 2e-5}
    mu = prescribed_slip_mu(t, edges, vels, 0.55, truth["a"], truth["b"], truth["dc"])

    ds = xr.Dataset({"friction_coefficient": ("time", mu)}, coords={"time": t})
    f = fit_rsf(ds, p, t_start=0.0)
    for k, v in truth.items():
        assert f.params_[k] == pytest.approx(v, rel=1e-5)
    f = fit_rsf(ds, p, t_start=0.0, noise=2e-4, seed=3)
    for k, v in truth.items():
        assert abs(f.params_[k] - v) < 3 * f.stderr_[k] + 1e-15
        assert f.stderr_[k] < 0.05 * v


def test_fit_single_velocity_fixes_a():
    p = SlideHoldSlide(v=1e-3, slide_duration=0.2, holds=(0.1, 1.0))
    edges, vels = velocity_segments(p)
    t = np.linspace(0.0, p.duration, 3001)
    mu = prescribed_slip_mu(t, edges, vels, 0.6, 0.01, 0.015, 1e-5)

    ds = xr.Dataset({"friction_coefficient": ("time", np.nan_to_num(mu, nan=0.0))}, coords={"time": t})
    f = fit_rsf(ds, p, t_start=0.0)
    assert "a" not in f.free_
    assert f.params_["b"] == pytest.approx(0.015, rel=1e-4)
    assert f.params_["dc"] == pytest.approx(1e-5, rel=1e-3)




def test_fit_bad_input():
    ds = xr.Dataset({"friction_coefficient": ("time", np.ones(50))}, coords={"time": np.linspace(0, 1, 50)})
    with pytest.raises(ConfigError, match="not identifiable"):
        fit_rsf(ds, ConstantVelocity(v=1e-3))
    with pytest.raises(ParameterError, match="noise"):
        fit_rsf(xr.Dataset({"friction_coefficient": ("time", np.ones(400))}, coords={"time": np.linspace(0, 0.4, 400)}),
                VS, noise=-1.0)
    with pytest.raises(ParameterError, match="aging"):
        prescribed_slip_mu(np.array([0.0, 0.1]), np.array([0.0, 1.0]), np.array([1e-3]), 0.6, 0.01, 0.015, 1e-5,
                           "ageing")
