"""Constitutive relations: exact creep, schemes, invariance (spec §3.3-3.4, §6.2-6.4)."""

import numpy as np
import pytest

from frictionlab.contact.rough.constitutive import Viscoelastic, Viscoplastic
from frictionlab.contact.rough.model import RoughContact, RoughContactSim, run_static
from frictionlab.contact.rough.surface import make_surface
from frictionlab.core.errors import ParameterError

LAMS, AS = (1.0, 0.1), (0.2, 0.05)


def creep_closed(t, C0, W, lams=LAMS, As=AS):
    return -C0 * (1 + sum(A / l * (1 - np.exp(-l * t)) for l, A in zip(lams, As))) * W


@pytest.mark.parametrize("scheme", ["linear", "constant"])
@pytest.mark.parametrize("interaction, C", [("meanfield", 16.0), ("boussinesq", 3.8)])
def test_single_element_step_creep_exact(scheme, interaction, C):
    m = RoughContact(interaction=interaction, lams=LAMS, As=AS, ve_scheme=scheme)
    sim = RoughContactSim(m, np.zeros((1, 1)), W=0.01)
    sim.initial_load()
    assert sim.d == pytest.approx(-C * 0.01, rel=1e-13)  # instantaneous compliance
    sim.step(100.0)  # one huge step: exact for constant force
    assert sim.d == pytest.approx(creep_closed(100.0, C, 0.01), rel=1e-12)
    for dt in (0.3, 1.7, 1e3):
        sim.step(dt)
        assert sim.d == pytest.approx(creep_closed(sim.t, C, 0.01), rel=1e-12)
    # long-time limit C0 (1 + sum A/lambda)
    assert sim.d == pytest.approx(-C * (1 + 0.2 + 0.5) * 0.01, rel=1e-12)
    assert sim.length_change()[0, 0] == pytest.approx(sim.d, rel=1e-12)


def test_two_elements_interaction_creep():
    # element 1 loaded, element 2 (distance 1) free: u2 = (1/r)[1 + A/l (1 - e^{-l t})] F1
    m = RoughContact(interaction="boussinesq", lams=(1.0,), As=(0.2,))
    h = np.array([[0.0], [-5.0]])  # second element far below: never touches
    sim = RoughContactSim(m, h, W=0.02)
    sim.initial_load()
    for dt in (0.5, 2.0):
        sim.step(dt)
    u = sim.length_change()
    assert u[1, 0] == pytest.approx(-1.0 * (1 + 0.2 * (1 - np.exp(-sim.t))) * 0.02, rel=1e-12)


def _prescribed(scheme, n, F):
    ve = Viscoelastic((0.7,), (1.0,), scheme)
    t = np.linspace(0, 3.0, n + 1)
    q = np.zeros((1, 1))
    for a, b in zip(t[:-1], t[1:]):
        co = ve.step_coeffs(b - a)
        q = ve.update(q, np.array([F(a)]), np.array([F(b)]), co)
    return q[0, 0]


def test_prescribed_load_convergence_orders():
    lam = 0.7
    F = lambda t: 1 + np.sin(t)  # noqa: E731
    T = 3.0
    # closed form of int_0^T e^{-lam (T - s)} (1 + sin s) ds
    exact = (1 - np.exp(-lam * T)) / lam + (lam * np.sin(T) - np.cos(T) + np.exp(-lam * T)) / (1 + lam**2)
    for scheme, order in (("linear", 2), ("constant", 1)):
        e1 = abs(_prescribed(scheme, 40, F) - exact)
        e2 = abs(_prescribed(scheme, 80, F) - exact)
        assert np.log2(e1 / e2) == pytest.approx(order, abs=0.1)
    # linear force: scheme (b) exact
    G = lambda t: t  # noqa: E731
    exact_lin = T / lam - (1 - np.exp(-lam * T)) / lam**2
    assert _prescribed("linear", 7, G) == pytest.approx(exact_lin, rel=1e-12)


def test_series_branch_continuity():
    ve = Viscoelastic((1.0,), (1.0,), "linear")
    a = ve.step_coeffs(0.999e-3)
    b = ve.step_coeffs(1.001e-3)
    assert a.w0[0] == pytest.approx(b.w0[0], rel=3e-3)
    assert a.b[0] == pytest.approx(b.b[0], rel=3e-3)
    assert (a.w0 + a.b)[0] == pytest.approx(-np.expm1(-0.999e-3), rel=1e-12)


def test_time_scaling_invariance_static():
    h = make_surface(24, 24, beta_x=4.0, seed=5)
    W = 24 * 24 * 4e-4
    n = 10.0
    a = run_static(RoughContact(lams=(1.0,), As=(0.2,)), h, W, t_end=100.0, per_decade=5)
    b = run_static(RoughContact(lams=(1.0 / n,), As=(0.2 / n,)), h, W, t_end=100.0 * n, per_decade=5)
    assert np.allclose(b.time.values, n * a.time.values, rtol=1e-12)
    for v in ("dilatation", "friction_coefficient"):
        assert np.allclose(a[v].values, b[v].values, rtol=1e-10, atol=1e-12)


def test_viscoplastic_constant_force_creep():
    m = RoughContact(interaction="meanfield", material="viscoplastic", A_cr=1e-9)  # the paper's 1e-3 um/s
    sim = RoughContactSim(m, np.zeros((1, 1)), W=0.02)
    sim.initial_load()
    for dt in (0.5, 1.0, 10.0):
        sim.step(dt)
    up_exact = -1e-3 * (0.02 / 0.016) ** 3 * sim.t
    assert float(sim.u_p[0, 0]) == pytest.approx(up_exact, rel=1e-12)
    assert sim.d == pytest.approx(-16 * 0.02 + up_exact, rel=1e-12)


def _relax(scheme, n_steps, T=200.0, C=3.8, p0=0.1):
    # one element at fixed total length change u = -C p + u_p: the force relaxes by creep
    vp = Viscoplastic(A_cr=1e-3, n=3, Fy0=0.016, scheme=scheme)
    dt = T / n_steps
    p = p0
    for _ in range(n_steps):
        rho, dr = vp.rate(p, 0.016), vp.drate(p, 0.016)
        if scheme == "explicit":
            p = p + dt * rho / C
        else:  # linearised implicit, as in the model's step operator K + dt rho'
            p = (C * p + dt * rho + dt * dr * p) / (C + dt * dr)
    return p


def test_viscoplastic_relaxation_converges_to_closed_form():
    # spec D15: |F|^-2 = |F0|^-2 + 2 A_cr t/(C Fy^3)
    exact = (0.1**-2 + 2 * 1e-3 * 200.0 / (3.8 * 0.016**3)) ** -0.5
    for scheme in ("implicit", "explicit"):
        e1 = abs(_relax(scheme, 400) - exact)
        e2 = abs(_relax(scheme, 800) - exact)
        assert e2 < e1
        assert np.log2(e1 / e2) == pytest.approx(1.0, abs=0.15)
        assert abs(_relax(scheme, 6400) - exact) < 2e-3 * exact
    vp = Viscoplastic(A_cr=1e-3, n=3, Fy0=0.016)
    assert vp.rate(np.array([0.0]), 0.016)[0] == 0.0
    assert vp.drate(np.array([0.032]), 0.016)[0] == pytest.approx(3e-3 * 4 / 0.016, rel=1e-12)
    assert vp.stable_dt(0.11, 0.016, 2.19) == pytest.approx(0.2 * 2.19 * 0.016**3 / (3 * 1e-3 * 0.11**2), rel=1e-12)


@pytest.mark.parametrize("kw, field", [({"lams": (-1.0,)}, "lams"), ({"As": (-0.1,)}, "As"),
                                       ({"lams": (1.0, 2.0), "As": (0.1,)}, "As"), ({"A_cr": 0.0}, "A_cr"),
                                       ({"C0": -6.4e-5}, "C0")])
def test_bad_parameters(kw, field):
    with pytest.raises(ParameterError, match=field):
        RoughContact(**kw)


def test_solver_choice_is_a_driver_option_and_validated():
    """The solver left the model's parameters (physics only); a bad choice is refused where it lives."""
    from frictionlab.contact.rough.numerics import SolverOptions
    from frictionlab.core.errors import ConfigError

    with pytest.raises(ConfigError, match=r"solver option.*\[integrator\] solver"):
        RoughContact(solver="exact")
    with pytest.raises(ConfigError, match="solver"):
        SolverOptions(solver="bogus")


def test_bad_constitutive_objects():
    with pytest.raises(ParameterError, match="lams"):
        Viscoelastic((0.0,), (1.0,))
    with pytest.raises(ParameterError, match="As"):
        Viscoelastic((1.0,), (-1.0,))
    with pytest.raises(ParameterError, match="dt"):
        Viscoelastic().step_coeffs(-1.0)
    with pytest.raises(ParameterError, match="n"):
        Viscoplastic(n=0.5)
