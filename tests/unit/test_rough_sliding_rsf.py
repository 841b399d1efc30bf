"""Rate-and-state view of the rough sliding model: fitting RateState to velocity-jump records,
and the sliding scenarios' quick profiles (seed 003 §5.4-5.6)."""

import math

import numpy as np
import pytest
import xarray as xr

from frictionlab.contact.rough.model import RoughContact, load_from_pressure
from frictionlab.contact.rough.sliding import run_sliding
from frictionlab.fit.rsf_rough import fit_rate_state, rate_state_series
from frictionlab.contact.rough.surface import make_surface
from frictionlab.contact.rough.units import sliding_to_si
from frictionlab.core.errors import DataError
from frictionlab.protocols import ConstantVelocity, VelocitySteps


def _aging_record(mu0=0.5, a=0.01, b=0.03, dc=3.0, vels=(10.0, 1.0, 10.0), seg=20.0):
    """Closed-form aging-law friction (computed in um, s) under piecewise-constant v, sampled like
    a sliding run (0.25 um per step), in the SI layout of the ``sliding`` driver."""
    v0 = vels[0]
    theta = dc / v0
    t, s, v_rec, mu = [0.0], [0.0], [v0], [mu0]
    jumps = []
    for k, v in enumerate(vels):
        if k:
            jumps.append(s[-1])
        dt = 0.25 / v
        for _ in range(int(round(seg / 0.25))):
            theta = dc / v + (theta - dc / v) * math.exp(-v * dt / dc)
            t.append(t[-1] + dt)
            s.append(s[-1] + v * dt)
            v_rec.append(v)
            mu.append(mu0 + a * math.log(v / v0) + b * math.log(v0 * theta / dc))
    v_old, v_new = np.array(vels[:-1]) * 1e-6, np.array(vels[1:]) * 1e-6
    return xr.Dataset({"slip": ("time", np.array(s) * 1e-6), "slip_velocity": ("time", np.array(v_rec) * 1e-6),
                       "friction_coefficient": ("time", mu), "jump_slip": ("jump", np.array(jumps) * 1e-6),
                       "v_old": ("jump", v_old), "v_new": ("jump", v_new),
                       "direct_effect_expected": ("jump", a * np.log(v_new / v_old))}, coords={"time": t})


def test_fit_recovers_rate_state_parameters():
    ds = _aging_record()
    f = fit_rate_state(ds, n_starts=2, max_nfev=100)
    # the fit layer's recorded input interpolates the velocity linearly between samples, so a
    # jump is smeared over one 0.25 um step: a is recovered to ~10 %, b and D_c more closely
    assert f["a"] == pytest.approx(0.01, rel=0.15)
    assert f["b"] == pytest.approx(0.03, rel=0.05)
    assert f["dc_um"] == pytest.approx(3.0, rel=0.1)
    assert f["a_minus_b"] < 0 and f["fit_percent"] > 99.0


def test_rate_state_series_units_and_crop():
    ds = _aging_record()
    ts = rate_state_series(ds)
    assert ts.time[0] == 0.0 and np.all(np.diff(ts.time) > 0)
    np.testing.assert_allclose(ts.velocity[0], 1e-5)  # 10 um/s in m/s
    assert ts.y.size < ds.sizes["time"]  # starts half-way through the first segment


def test_rate_state_series_needs_a_jump():
    W = load_from_pressure(100e6, 16, 16)
    ds = sliding_to_si(run_sliding(RoughContact(interaction="meanfield"), make_surface(40, 16, beta_x=3.0),
                                   ConstantVelocity(v=1e-5, duration_s=1.0), W=W, s_max=0.5))
    with pytest.raises(DataError, match="no velocity jump"):
        rate_state_series(ds)


def test_model_jump_record_fits_with_weakening_sign():
    """Mean field, (lambda, A) = (1, 10): strongly velocity weakening; the fitted a - b < 0."""
    h = make_surface(112, 32, beta_x=4.0, seed=2)
    W = load_from_pressure(100e6, 32, 32)
    m = RoughContact(interaction="meanfield", lams=(1.0,), As=(10.0,))
    pr = VelocitySteps(velocities=(1e-5, 1e-6, 1e-5), distances=(25e-6, 25e-6, 25e-6))
    jump = sliding_to_si(run_sliding(m, h, pr, W=W, s_max=0.5))
    ref = sliding_to_si(run_sliding(m, h, ConstantVelocity(v=1e-5, duration_s=7.5), W=W, s_max=0.5))
    f = fit_rate_state(jump, reference=ref, n_starts=2, max_nfev=60)
    assert f["a_minus_b"] < 0 and f["fit_percent"] > 50.0
    assert np.isfinite(f["dc_um"]) and f["dc_um"] > 0


# the paper's blue set (lambda, A) = (1, 1) is velocity weakening between v = 1 and 10 under the
# paper's equations: a deviation, with the large-system mean-field steady state as evidence
EXPECTED_DEVIATIONS = {"rough-contact/fig14": ("boussinesq, blue: steady-state velocity dependence",
                                               "meanfield, blue: steady-state velocity dependence")}
#: fails as measured (issue 26): the first step after a velocity jump holds the part of the transient faster
#: than the step (fig14); the mean contact radius of our (1, 10) set varies with v (fig13, an extension)
EXPECTED_FAILS = {"rough-contact/fig14": tuple(f"{i}, {s}: contact area is continuous across the jumps"
                                               for i in ("boussinesq", "meanfield") for s in ("blue", "red")),
                  "rough-contact/fig13": ("Mean contact radius approximately independent of v (Sect. 5.3, Fig. 13b), "
                                          "our sets",)}


@pytest.mark.slow(reason="runs the nine sliding scenarios' quick profiles (~2 min)")
@pytest.mark.parametrize("name", [f"rough-contact/fig{k}" for k in range(9, 18)])
def test_sliding_scenarios_quick_checks(name):
    from frictionlab.scenarios.base import get_scenario

    sc = get_scenario(name)
    ds, cfg = sc.execute(quick=True)
    checks = sc.evaluate(ds, cfg)
    assert checks
    expected_fails = EXPECTED_FAILS.get(name, ())
    bad = [c for c in checks if c.status == "fail" and not any(c.claim.startswith(w) for w in expected_fails)]
    assert not bad, [(c.claim, c.measured, c.explanation) for c in bad]
    assert all(any(c.claim.startswith(w) and c.status == "fail" for c in checks) for w in expected_fails)
    devs = [c.claim for c in checks if c.status == "deviation"]
    assert all(any(d.startswith(w) for d in devs) for w in EXPECTED_DEVIATIONS.get(name, ())), devs
