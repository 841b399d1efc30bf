"""Analytic checks of the classic laws: Coulomb, Stribeck, Dahl, LuGre, GMS, rate-and-state."""

import math

import numpy as np
import pytest

from frictionlab.core.errors import ParameterError
from frictionlab.core.registry import make_model, presets_of
from frictionlab.solve import simulate
from frictionlab.laws import GMS, Coulomb, Dahl, LuGre, RateState, Stribeck
from frictionlab.protocols import ConstantVelocity, Sinusoidal, VelocitySteps
from frictionlab.reference.lugre import steady_friction
from frictionlab.reference.rate_state import direct_effect, steady_mu


# --- LuGre -------------------------------------------------------------------------------
@pytest.mark.parametrize("v", [-3e-2, -1e-3, 2e-4, 1e-3, 5e-3, 0.1])
def test_lugre_simulated_steady_state_equals_closed_form(v):
    law = make_model("lugre", "canudas1995")
    tau = 1.5 / (law.sigma0 * abs(v))  # bristle relaxation time (g <= fs = 1.5 N)
    ds = simulate(law, ConstantVelocity(v=v, duration_s=60 * tau), integrator="rk4", dt=tau / 20)
    expected = steady_friction(v, law.fc, law.fs, law.vs, law.sigma2, law.delta)
    assert float(ds.friction_force[-1]) == pytest.approx(float(expected), rel=1e-6)


def test_lugre_friction_curve_matches_reference_with_normal_scaling():
    law = LuGre(normal_scaling=True, fc=0.3, fs=0.5)
    v = np.array([-1e-2, -1e-4, 1e-5, 1e-3, 1e-1])
    got = law.friction_curve(v, normal_force=20.0)
    ref = steady_friction(v, 0.3, 0.5, law.vs, law.sigma2, law.delta, normal_force=20.0, normal_scaling=True)
    np.testing.assert_allclose(got, ref, rtol=1e-12)


# --- rate and state ------------------------------------------------------------------------
@pytest.mark.parametrize("form", ["log", "arcsinh"])
@pytest.mark.parametrize("evolution", ["aging", "slip"])
def test_rsf_steady_state(form, evolution):
    law = RateState(law=evolution, form=form, v_init=1e-6)
    v = 1e-5
    ds = simulate(law, ConstantVelocity(v=v, duration_s=60 * law.dc / v), integrator="rk4", dt=0.02)
    mu = float(ds.friction_coefficient[-1])
    assert mu == pytest.approx(float(steady_mu(v, law.mu0, law.a, law.b, law.v0)), rel=1e-6)


def test_rsf_direct_effect_is_instantaneous():
    law = RateState(v_init=1e-6)
    theta = law.initial_state()
    mu1 = law.friction(0.0, theta, 1e-6, 1.0)
    mu2 = law.friction(0.0, theta, 1e-5, 1.0)
    assert mu2 - mu1 == pytest.approx(direct_effect(1e-6, 1e-5, law.a), rel=1e-12)
    ds = simulate(law, VelocitySteps(velocities=(1e-6, 1e-5), durations=(5.0, 5.0)), integrator="rk4", dt=1e-3,
                  save_dt=1e-3)
    t = ds.time.values
    jump = float(ds.friction_coefficient[np.searchsorted(t, 5.0)] - ds.friction_coefficient[np.searchsorted(t, 5.0) - 1])
    # one saved step (1 ms) after the step the state has barely evolved: within 0.5 %
    assert jump == pytest.approx(law.a * math.log(10), rel=5e-3)


def test_rsf_arcsinh_equals_log_form_while_sliding():
    v = np.array([1e-7, 1e-6, 1e-4])
    a = RateState(form="arcsinh").friction_curve(v)
    b = RateState(form="log").friction_curve(v)
    np.testing.assert_allclose(a, b, atol=1e-12)
    assert RateState(form="arcsinh").friction(0.0, np.array([10.0]), 0.0, 1.0) == 0.0


# --- Coulomb ---------------------------------------------------------------------------------
def test_coulomb_exact_and_regularised():
    c = Coulomb(mu=0.4)
    assert c.friction(0, np.zeros(0), 1e-9, 10.0) == pytest.approx(4.0)
    assert c.friction(0, np.zeros(0), -3.0, 10.0) == pytest.approx(-4.0)
    assert c.friction(0, np.zeros(0), 0.0, 10.0) == 0.0
    r = Coulomb(mu=0.4, v_reg=1e-3)
    assert r.friction(0, np.zeros(0), 1e-3, 10.0) == pytest.approx(4.0 * math.tanh(1.0))


# --- Stribeck --------------------------------------------------------------------------------
def test_stribeck_matches_lugre_steady_state_and_limits():
    s = Stribeck(fc=1.0, fs=1.5, vs=1e-3, delta=2.0, sigma2=0.4)
    v = np.logspace(-6, 0, 13)
    np.testing.assert_allclose(s.friction_curve(v), steady_friction(v, 1.0, 1.5, 1e-3, 0.4, 2.0), rtol=1e-13)
    np.testing.assert_allclose(s.friction_curve(-v), -s.friction_curve(v), rtol=0, atol=0)
    assert s.friction_curve(np.array([1e-9]))[0] == pytest.approx(1.5, rel=1e-9)
    assert s.friction_curve(np.array([0.0]))[0] == 0.0
    assert s.friction_curve(np.array([1.0]))[0] == pytest.approx(1.0 + 0.4, rel=1e-12)


def test_stribeck_viscous_exponent_regularisation_and_normal_scaling():
    s = Stribeck(fc=0.2, fs=0.3, vs=1e-3, sigma2=2.0, viscous_exponent=0.5, v_reg=1e-4, normal_scaling=True)
    v = 4e-2
    g = 0.2 + 0.1 * math.exp(-((v / 1e-3) ** 2))
    expected = 5.0 * g * math.tanh(v / 1e-4) + 2.0 * math.sqrt(v)
    assert s.friction(0, np.zeros(0), v, 5.0) == pytest.approx(expected, rel=1e-12)
    assert s.friction(0, np.zeros(0), 1e-4, 5.0) == pytest.approx(5.0 * (0.2 + 0.1 * math.exp(-0.01)) * math.tanh(1.0)
                                                                  + 2.0 * math.sqrt(1e-4), rel=1e-12)


# --- Dahl ------------------------------------------------------------------------------------
@pytest.mark.parametrize("alpha", [1.0, 2.0])
def test_dahl_virgin_curve_closed_form(alpha):
    law = Dahl(sigma0=1e5, fc=1.0, alpha=alpha)
    v = 1e-4
    ds = simulate(law, ConstantVelocity(v=v, duration_s=1.0), integrator="rk4", dt=1e-4)
    x = ds.slip.values
    if alpha == 1.0:
        exact = 1.0 - np.exp(-1e5 * x)
    else:  # dF/dx = sigma0 (1 - F/fc)^2  ->  F = fc sigma0 x / (fc + sigma0 x)
        exact = 1e5 * x / (1.0 + 1e5 * x)
    np.testing.assert_allclose(ds.friction_force.values, exact, atol=1e-8)


def test_dahl_is_rate_independent_and_validates_initial_force():
    law = Dahl(sigma0=2e4, fc=0.5)
    a = simulate(law, Sinusoidal(amplitude=5e-5, frequency=1.0, cycles=1.0), integrator="rk4", dt=1e-4, save_dt=1e-3)
    b = simulate(law, Sinusoidal(amplitude=5e-5, frequency=20.0, cycles=1.0), integrator="rk4", dt=5e-6, save_dt=5e-5)
    np.testing.assert_allclose(a.friction_force.values, b.friction_force.values, atol=1e-9)
    with pytest.raises(ParameterError, match="f_init"):
        Dahl(fc=1.0, f_init=1.5)


# --- GMS -------------------------------------------------------------------------------------
def test_gms_state_vector_and_validation():
    g = GMS(k=(1e4, 2e4, 3e4), alpha=(0.5, 0.3, 0.2))
    assert g.state_names == ("element_force_0", "element_force_1", "element_force_2")
    assert g.initial_state().shape == (3,)
    with pytest.raises(ParameterError, match="alpha"):
        GMS(k=(1e4, 2e4), alpha=(0.5, 0.3))
    with pytest.raises(ParameterError, match="alpha"):
        GMS(k=(1e4, 2e4), alpha=(1.0,))
    with pytest.raises(ParameterError, match="k"):
        GMS(k=(1e4, -2e4), alpha=(0.5, 0.5))


def test_gms_presliding_stiffness_and_steady_state():
    g = make_model("gms", "four-element")
    v = 1e-3
    ds = simulate(g, ConstantVelocity(v=v, duration_s=0.2), integrator="rk4", dt=1e-5, save_dt=1e-5)
    f = ds.friction_force.values
    x = ds.slip.values
    # all elements stick at first: slope = sum k_i (plus the viscous offset sigma2 v)
    slope = (f[5] - f[1]) / (x[5] - x[1])
    assert slope == pytest.approx(sum(g.k), rel=1e-9)
    # the steady state is the Stribeck curve s(v) + sigma2 v
    assert f[-1] == pytest.approx(float(steady_friction(v, g.fc, g.fs, g.vs, g.sigma2, g.delta)), rel=1e-6)
    np.testing.assert_allclose(g.friction_curve(np.array([-v, v])),
                               steady_friction(np.array([-v, v]), g.fc, g.fs, g.vs, g.sigma2, g.delta), rtol=1e-12)


def test_gms_reversal_sticks_all_elements_again():
    g = GMS(k=(1e4, 1e4), alpha=(0.5, 0.5), sigma2=0.0, fc=1.0, fs=1.0)
    state = np.array([0.5, 0.5])  # both elements at their limit for v > 0
    out = g.rates(0.0, state, -1e-3, 1.0)
    np.testing.assert_allclose(out, [-10.0, -10.0])  # stick: k_i v
    assert np.allclose(g.rates(0.0, state, 1e-3, 1.0), 0.0)  # slipping at the limit: no change


# --- presets ---------------------------------------------------------------------------------
@pytest.mark.parametrize("name", ["stribeck", "dahl", "gms"])
def test_presets_build_and_cite(name):
    ps = presets_of(name)
    assert ps
    for key, p in ps.items():
        m = make_model(name, key)
        assert p.source and m.citation
