"""Stick-slip pattern analysis (beam-network paper, doi:10.1115/1.4042247, Sec. 3.2, eqs. 12-13)."""

import numpy as np
import pytest

from frictionlab.analysis.beam_patterns import (classify_pattern, fit_tip_velocity, friction_from_tip_velocity,
                                                gaussian_tip_velocity, one_period, steady_metrics)
from frictionlab.contact.beam_network.mlbnm import iub_arrays, run_mlbnm
from frictionlab.core.errors import DataError
from frictionlab.core.registry import make_model


@pytest.mark.parametrize("kappa, pattern", [(0.5, "I"), (0.55, "I"), (0.6, "I"), (0.61, "II"), (0.8, "II"),
                                            (0.81, "III"), (1.0, "III"), (0.3, "<I"), (float("nan"), "none")])
def test_classify_pattern_bands(kappa, pattern):
    assert classify_pattern(kappa) == pattern


def test_steady_metrics_of_a_sawtooth():
    """Ramp up for 0.8 s, drop in 0.2 s: t_ss = 1 s, kappa = 0.8 (pattern II), amplitude 10."""
    t = np.arange(0, 20, 1e-3)
    ph = t % 1.0
    f = np.where(ph < 0.8, 50 + 10 * ph / 0.8, 60 - 10 * (ph - 0.8) / 0.2)
    m = steady_metrics(t, f)
    assert m.stick_slip
    assert m.period == pytest.approx(1.0, abs=2e-3)
    assert m.kappa == pytest.approx(0.8, abs=5e-3)
    assert m.amplitude == pytest.approx(10.0, rel=1e-3)
    assert m.pattern in ("II", "III")
    flat = steady_metrics(t, 50 + 0 * t)
    assert not flat.stick_slip and flat.pattern == "none"


def test_gaussian_fit_recovers_parameters_and_mass_balance():
    T, v = 0.5, 7.5e-4
    t = np.linspace(0, T, 2001)
    k2 = 1e-5
    k1 = (v - k2) * T  # mean velocity = v
    vu = gaussian_tip_velocity(t, k1, k2, 0.01, 0.3)
    fit = fit_tip_velocity(t, vu, v)
    assert fit.sigma == pytest.approx(0.01, rel=1e-4)
    assert fit.mu == pytest.approx(0.3, rel=1e-5)
    assert fit.k1 == pytest.approx(k1, rel=1e-4)
    assert fit.r2 > 0.9999
    assert fit.mean_velocity_error < 1e-3
    with pytest.raises(DataError):
        fit_tip_velocity(t[:3], vu[:3], v)


def test_eq12_constant_velocity_and_simulated_cycle():
    # constant tip velocity = drive velocity: f = k_b e0
    t = np.linspace(0, 1, 101)
    f = friction_from_tip_velocity(t, np.full(101, 1e-3), 1e-3, 2e-4, 1e-3, 5e4, 100.0)
    assert np.allclose(f, 10.0)
    # simulated single IUB: eq. 12 reproduces the friction over one steady cycle
    p = make_model("beam_network", "vf60-calibrated")
    ds = run_mlbnm(p, 7.5e-4, 8.0, dt=1e-5, save_dt=1e-5, single=True)
    t = ds.time.values
    F = ds.friction_force.values
    m = steady_metrics(t, F)
    i0, i1 = one_period(t, F, m)
    a = iub_arrays(p, single=True)
    f12 = friction_from_tip_velocity(t[i0:i1], ds.iub_velocity.values[i0:i1, 0], 7.5e-4,
                                     ds.iub_lag.values[i0, 0], a["m"][0], a["kb"][0], a["cb"][0])
    assert np.max(np.abs(f12 - F[i0:i1])) < 0.01 * m.amplitude


def test_stribeck_matches_core_lugre_semantics():
    """The kernels' Stribeck function equals laws.lugre.stribeck_g with normal scaling (eq. 8) and its bounds."""
    import numpy as np

    from frictionlab.contact.beam_network.mlbnm import stribeck_g
    from frictionlab.laws.lugre import stribeck_g as core_g

    for alpha in (2.0, 1.5):
        p = np.array([0.0, 0.0, 0.0, 0.57, 0.76, 0.018, alpha, 1.0])
        for v in (0.0, 1e-4, -3e-3, 0.018, 0.5):
            assert stribeck_g(v, 3.0, p) == pytest.approx(core_g(v, 3.0, p), rel=1e-14)
            assert 0.57 * 3.0 <= stribeck_g(v, 3.0, p) <= 0.76 * 3.0
    p = np.array([0.0, 0.0, 0.0, 0.57, 0.76, 0.018, 2.0, 1.0])
    assert stribeck_g(0.0, 1.0, p) == 0.76
    assert stribeck_g(10.0, 1.0, p) == pytest.approx(0.57)


def test_hoisted_stribeck_forms_equal_eq8_to_rounding():
    """The loops' hoisted Stribeck forms (fast exp reuse in the refinement pass) equal eq. (8) within 4 ulp."""
    import math

    import numpy as np

    from frictionlab.contact.beam_network.mlbnm import _stribeck_fast, _stribeck_near, stribeck_g

    fz, mu_c, mu_s = 3.0, 0.57, 0.76
    rng = np.random.default_rng(3)
    for alpha in (2.0, 1.5):
        vs = 1.5e-3
        p = np.array([0.0, 0.0, 0.0, mu_c, mu_s, vs, alpha, 1.0])
        for v0 in rng.uniform(0.0, 8 * vs, 200):
            g0, e0, E0 = _stribeck_fast(v0, fz * mu_c, fz * (mu_s - mu_c), 1.0 / vs, alpha, alpha == 2.0)
            assert g0 == pytest.approx(stribeck_g(v0, fz, p), rel=4.5e-16)
            for v in (v0, v0 * (1 + 1e-7), v0 + 1e-6 * vs, v0 + 1e-3 * vs, v0 + 0.1 * vs):
                g, e, E = _stribeck_near(v, e0, E0, fz * mu_c, fz * (mu_s - mu_c), 1.0 / vs, alpha, alpha == 2.0)
                assert E == pytest.approx(math.exp(-e), rel=9e-16, abs=0.0)   # <= 4 ulp of exp(-e)
                assert g == pytest.approx(stribeck_g(v, fz, p), rel=9e-16)
    # a full chain of reuses (as in the loops between fresh exp() calls) stays within 2 (n + 1) ulp
    from frictionlab.contact.beam_network.mlbnm import MAX_EXP_CHAIN, _stribeck_chain

    worst = 0.0
    for v0 in rng.uniform(0.1 * vs, 6 * vs, 200):
        g, e, E, n = _stribeck_fast(v0, 1.0, 1.0, 1.0 / vs, 2.0, True) + (0,)  # fresh exp()
        v = v0
        for k in range(3 * MAX_EXP_CHAIN):
            v *= 1.0 + rng.uniform(-1e-4, 1e-4)
            g, e, E, n = _stribeck_chain(v, e, E, n, 1.0, 1.0, 1.0 / vs, 2.0, True)
            assert n == (k + 1) % (MAX_EXP_CHAIN + 1)
            worst = max(worst, abs(E / math.exp(-e) - 1.0))
    assert worst <= 2 * (MAX_EXP_CHAIN + 1) * 2.3e-16
