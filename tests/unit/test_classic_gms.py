"""Generalised Maxwell-slip law: slip-law form, regularised switch, no chatter, dt convergence."""

import numpy as np
import pytest

from frictionlab.core.errors import ParameterError
from frictionlab.core.registry import make_model
from frictionlab.solve import simulate
from frictionlab.laws import GMS
from frictionlab.protocols import Sinusoidal, make_protocol

SHS = {"type": "slide_hold_slide", "v": 1e-3, "slide_duration": 0.2, "holds": [0.1, 1.0],
       "normal_force_value": 1.0}


def _two(**kw):
    base = {"k": (1e4, 1e4), "alpha": (0.5, 0.5), "fc": 1.0, "fs": 1.0, "sigma2": 0.0, "c": 100.0,
            "switch_width": 0.05}
    return GMS(**{**base, **kw})


def test_gms_slip_law_has_alpha_inside_the_bracket():
    g = _two()  # limit alpha_i s(v) = 0.5 N
    # z = 1.2 > 1: pure slip, dF/dt = sgn(v) C (alpha_i - F_i / s) = 100 (0.5 - 0.6) = -10 N/s
    np.testing.assert_allclose(g.rates(0.0, np.array([0.6, 0.6]), 1e-3, 1.0), [-10.0, -10.0], rtol=1e-12)
    np.testing.assert_allclose(g.rates(0.0, np.array([-0.6, -0.6]), -1e-3, 1.0), [10.0, 10.0], rtol=1e-12)
    # z = 0.9 < 1 - eps: pure stick k_i v = 10 N/s
    np.testing.assert_allclose(g.rates(0.0, np.array([0.45, 0.45]), 1e-3, 1.0), [10.0, 10.0], rtol=1e-12)
    # mid-ramp z = 0.975 (u = 0.5, w = 0.5): 0.5 * 10 + 0.5 * 100 (0.5 - 0.4875) = 5.625 N/s
    np.testing.assert_allclose(g.rates(0.0, np.array([0.4875, 0.4875]), 1e-3, 1.0), [5.625, 5.625], rtol=1e-12)
    # at rest nothing changes
    assert np.all(g.rates(0.0, np.array([0.3, -0.2]), 0.0, 1.0) == 0.0)


def test_gms_rate_is_continuous_across_the_limit():
    g = _two()
    f = np.linspace(0.40, 0.60, 20001)  # limit at 0.5 N, ramp from 0.475 N
    r = np.array([g.rates(0.0, np.array([x, x]), 1e-3, 1.0)[0] for x in f])
    # Lipschitz bound of the ramp: 1.5 k v / (eps alpha s) + C / s = 1.5 * 10 / 0.025 + 100 = 700 1/s
    assert np.max(np.abs(np.diff(r))) <= 700.0 * (f[1] - f[0]) * 1.001
    assert r[np.argmin(np.abs(f - 0.5))] == pytest.approx(0.0, abs=1e-9)  # fixed point at the limit


def test_gms_switch_width_is_validated():
    with pytest.raises(ParameterError, match="switch_width"):
        _two(switch_width=0.0)
    with pytest.raises(ParameterError, match="switch_width"):
        _two(switch_width=0.9)


def _shs(dt):
    g = make_model("gms", "four-element")
    return simulate(g, make_protocol(SHS), integrator="rk4", dt=dt, save_dt=1e-4)


def test_gms_slide_hold_slide_rk4_does_not_chatter():
    ds = _shs(1e-4)
    f, v, t = ds.friction_force.values, ds.slip_velocity.values, ds.time.values
    g = make_model("gms", "four-element")
    steady = float(g.friction_curve(np.array([1e-3]))[0])
    # the late part of each slide (t in [0.1, 0.2), [0.4, 0.5), [1.6, 1.7)) is steady sliding:
    # a sharp stick/slip switch would chatter there by ~sum(k_i) V dt = 1e-2 N
    for t0 in (0.1, 0.4, 1.6):
        m = (t >= t0) & (t < t0 + 0.099)
        assert np.ptp(f[m]) < 1e-9
        assert float(np.mean(f[m])) == pytest.approx(steady, rel=1e-9)
    # each hold (v = 0) keeps the element forces: variance of the total force below 1e-18 N^2
    for t0, th in ((0.2, 0.1), (0.5, 1.0)):
        m = (t > t0 + 1e-3) & (t < t0 + th - 1e-3)
        assert np.all(v[m] == 0.0)
        assert float(np.var(f[m])) < 1e-18
    # no healing in GMS under prescribed slip: reslide peak minus pre-hold friction ~ 0
    for t_end, t_re in ((0.2, 0.3), (0.5, 1.5)):
        pre = f[np.argmin(np.abs(t - (t_end - 1e-3)))]
        peak = np.max(f[(t > t_re) & (t < t_re + 0.05)])
        assert abs(peak - pre) < 1e-6


def test_gms_slide_hold_slide_dt_halving_converges():
    f1 = _shs(1e-4).friction_force.values
    f2 = _shs(5e-5).friction_force.values
    assert f1.shape == f2.shape
    assert np.max(np.abs(f1 - f2)) / np.max(np.abs(f2)) < 1e-2  # measured ~3e-7


def test_gms_presliding_hysteresis_dt_halving_converges():
    # reversals inside and beyond presliding: 20 um amplitude, every element breaks away after ~13-15 um
    proto = Sinusoidal(amplitude=2e-5, frequency=5.0, cycles=2.0)
    g = make_model("gms", "four-element")
    runs = [simulate(g, proto, integrator="rk4", dt=dt, save_dt=1e-4).friction_force.values
            for dt in (1e-4, 5e-5)]
    scale = np.max(np.abs(runs[1]))
    assert scale > 1.0  # the loops reach gross sliding
    assert np.max(np.abs(runs[0] - runs[1])) / scale < 1e-2
