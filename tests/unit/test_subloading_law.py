"""Unit tests of the subloading-friction law (Ozaki et al. 2020): analytic checks, limits,
invariants, convergence and bad input."""

from __future__ import annotations

import math

import numpy as np
import pytest

from frictionlab.core.errors import ParameterError
from frictionlab.core.registry import make_model
from frictionlab.solve import simulate
from frictionlab.laws.subloading import (P_COMMON, Subloading, SubloadingRate, c_from_mm_mpa, evolution_u,
                                         rates_full, return_map, shear_strength)
from frictionlab.protocols import ConstantVelocity, VelocitySteps
from frictionlab.laws.subloading_drivers import run_prescribed, run_rate_reference

FN = 3e5  # 0.3 MPa
FIXED = {**P_COMMON, "c": 0.0, "kappa": 0.0, "xi": 0.0}  # fixed sliding surface (spec C3)


def path_protocol(v_mm_s, fn_start_mpa, fn_end_mpa, abcd_mm):
    """The A-B-C-D normal-stress path of Figs. 6-7 (mm, MPa, mm/s in; SI protocol out)."""
    from frictionlab.protocols import NormalLoadProgramme

    v = v_mm_s * 1e-3
    a, b, c, d = (x * 1e-3 for x in abcd_mm)
    fs, fe = fn_start_mpa * 1e6, fn_end_mpa * 1e6
    return NormalLoadProgramme(times=(a / v, b / v, c / v, d / v), loads=(fs, fs, fe, fe), v=v)


def test_presets_and_units():
    m = make_model("subloading", "fig4")
    assert m.alpha_t == 1e11 and m.r == 1e6 and m.b == 1e-5
    # tau(1 mm/s) = 0.1 + 0.0015 * 1^0.4 MPa
    assert shear_strength(1e-3, m.param_vector()) == pytest.approx(0.1015e6, rel=1e-12)
    assert c_from_mm_mpa(0.0065, 0.27) == pytest.approx(0.0065e6 * 1000**0.27)
    assert make_model("subloading_rate", "fig12-II").b == pytest.approx(11e-6)
    assert make_model("subloading", "fig11").variant == "scaled"


def test_evolution_function_properties():
    r = 1e6
    assert evolution_u(0.0, r) > 1e16  # U(0) = +inf (clipped)
    assert abs(evolution_u(1.0, r)) < 1e-9 * r
    assert evolution_u(1.2, r) < 0
    Rs = np.linspace(0.01, 1.9, 50)
    assert np.all(np.diff([evolution_u(x, r) for x in Rs]) < 0)


@pytest.mark.parametrize("field,value", [("R0", 1.5), ("R0", -0.1), ("alpha_t", -1.0), ("alpha_n", -5.0),
                                         ("d", -0.2), ("fn_init", 0.0), ("tau0", 0.0), ("kappa", -1.0),
                                         ("variant", "exact")])
def test_bad_input_names_the_field(field, value):
    with pytest.raises(ParameterError, match=field):
        Subloading(**{**P_COMMON, field: value})


def test_smin_above_smax_rejected():
    with pytest.raises(ParameterError, match="s_min"):
        SubloadingRate(**{**P_COMMON, "s_min": 0.9, "s_max": 0.8})


def test_loss_of_contact_releases_traction():
    m = Subloading(**P_COMMON)
    s = m.initial_state()
    for _ in range(100):
        s = m.step(s, 1e-3, 1e-5, FN)
    assert s[0] > 0
    s2 = m.step(s, 1e-3, 1e-5, 0.0)
    assert s2[0] == 0.0 and np.all(np.isfinite(s2))
    assert m.friction(0.0, s2, 1e-5, -1.0) == 0.0
    mr = SubloadingRate(**P_COMMON)
    assert mr.friction(0.0, np.array([1e4, 0.0, 0.0]), 1e-3, 0.0) == 0.0
    assert np.all(mr.rates(0.0, np.array([1e4, 0.0, 0.0]), 1e-3, -5.0) == 0.0)


def test_microslip_closed_form_rate_form():
    """C3: u(R) = R F / alpha_t - 2/(pi r) ln cos(pi R / 2) with a fixed surface (RK4, rate form)."""
    mr = SubloadingRate(**FIXED)
    v = 1e-3
    pr = ConstantVelocity(v=v, duration_s=4e-6 / v, normal_force_value=FN)
    ds = simulate(mr, pr, integrator="rk4", dt=2e-10 / v, max_points=200000)
    F = (1 - math.exp(-mr.b * FN)) * mr.tau0
    R = ds.tangential_stress.values / F
    sel = (R > 0.1) & (R < 0.99)
    up_exact, u_exact = mr.microslip(R[sel], FN)
    assert np.max(np.abs(ds.slip.values[sel] - u_exact)) < 1e-12  # m
    assert np.max(np.abs(ds.plastic_slip.values[sel] - up_exact)) < 1e-12
    # spec example: F = 0.1 * 0.950213 MPa, R = 0.99
    up, u = mr.microslip(0.99, FN)
    assert up == pytest.approx(2.644e-6, rel=1e-3) and u == pytest.approx(3.585e-6, rel=1e-3)


def test_return_map_converges_first_order_to_microslip():
    m = Subloading(**FIXED)
    p = m.param_vector()
    F = (1 - math.exp(-m.b * FN)) * m.tau0
    target = m.microslip(0.95, FN)[1]
    errs = []
    for du in (4e-9, 2e-9, 1e-9):
        ft, q, u = 0.0, 0.0, 0.0
        while ft / F < 0.95:
            ft_old, u_old = ft, u
            ft, q, g = return_map(ft, q, FN, du, du / 1e-3, FN, m.tau0, p)
            u += du
        u95 = u_old + (0.95 * F - ft_old) / (ft - ft_old) * du
        errs.append(abs(u95 - target))
    assert errs[-1] < 1e-8  # m
    assert errs[2] < 0.6 * errs[1] < 0.36 * errs[0]


def test_rate_form_consistency_self_check():
    """Spec 4.2 self-check: with R = |f_t| / (S_r tau), dR/dt = U(R) Lambda while loading,
    including a normal-stress rate (finite differences)."""
    for variant in ("literal", "scaled"):
        m = SubloadingRate(**{**P_COMMON, "variant": variant})
        p = m.param_vector()
        y = np.array([2.0e4, 0.0 if variant == "literal" else 0.8, 1e-6])
        v, fn, fdot = 1e-3, 3e5, 4e6
        dy = np.empty(3)
        rates_full(y, v, fn, fdot, p, dy)
        tau = shear_strength(v, p)

        def R_of(yy, ff):
            P = 1 - math.exp(-m.b * ff)
            Sr = P * yy[1] if variant == "scaled" else yy[1] + P
            return yy[0] / (Sr * tau)

        h = 1e-7
        dR = (R_of(y + h * dy, fn + h * fdot) - R_of(y - h * dy, fn - h * fdot)) / (2 * h)
        R = R_of(y, fn)
        assert dy[2] > 0
        assert dR == pytest.approx(evolution_u(R, m.r) * dy[2], rel=1e-6)


@pytest.mark.parametrize("v", [1e-6, 1e-4, 1e-2])
def test_steady_state_closed_form(v):
    """C1: A_ss = (S_min v xi + S_max kappa) / (v xi + kappa), f_t = A_ss tau(v), R -> 1."""
    m = Subloading(**P_COMMON)
    pr = ConstantVelocity(v=v, duration_s=3e-3 / v, normal_force_value=FN)
    ds = run_prescribed(m, pr, du_max=1e-7)
    assert ds.shear_stress.values[-1] == pytest.approx(float(m.steady_stress(v, FN)), rel=1e-6)
    assert ds.sliding_ratio.values[-1] == pytest.approx(1.0, abs=1e-9)
    assert ds.sliding_ratio.max() <= 1 + 1e-12


def test_large_steps_never_overshoot_the_surface():
    m = Subloading(**P_COMMON)
    pr = ConstantVelocity(v=1e-3, duration_s=2.0, normal_force_value=FN)
    ds = run_prescribed(m, pr, du_max=2e-5)  # 20 um steps: 30x the microslip length 2/(pi r)
    R = ds.sliding_ratio.values
    assert np.all(np.isfinite(ds.shear_stress.values))
    assert R.min() >= 0 and R.max() <= 1 + 1e-12
    assert ds.shear_stress.values[-1] == pytest.approx(float(m.steady_stress(1e-3, FN)), rel=1e-6)


def test_rigid_plastic_limit_large_r():
    """r -> infinity: f_t = min(alpha_t u, S_r tau) (elastic - perfectly plastic Coulomb type)."""
    m = Subloading(**{**FIXED, "r": 1e13})
    pr = ConstantVelocity(v=1e-3, duration_s=3e-6 / 1e-3, normal_force_value=FN)
    ds = run_prescribed(m, pr, du_max=1e-9)
    F = (1 - math.exp(-m.b * FN)) * m.tau0
    expect = np.minimum(m.alpha_t * ds.slip.values, F)
    assert np.max(np.abs(ds.shear_stress.values - expect)) < 2e-3 * F


def test_elastic_unloading_and_hold():
    """C7: unloading is elastic (df_t = alpha_t du); C6: at rest the stress is frozen and the
    area recovers towards S_max."""
    m = Subloading(**P_COMMON)
    pr = VelocitySteps(velocities=(1e-3, -1e-3, 0.0), durations=(0.3, 1e-4, 2.0), normal_force_value=FN)
    ds = run_prescribed(m, pr, du_max=1e-8, dt_max=1e-3)
    t = ds.time.values
    un = (t > 0.3 + 1e-9) & (t < 0.3 + 1e-4 - 1e-9)
    slope = np.diff(ds.shear_stress.values[un]) / np.diff(ds.slip.values[un])
    assert np.allclose(slope, m.alpha_t, rtol=1e-9)
    hold = t > 0.3 + 1e-4 + 1e-9
    f = ds.shear_stress.values[hold]
    assert np.ptp(f) == 0.0
    A = ds.contact_ratio.values[hold]
    assert np.all(np.diff(A) > 0) and A[-1] < m.s_max
    A0 = A[0]
    exact = m.s_max - (m.s_max - A0) * np.exp(-(t[hold][-1] - t[hold][0]) / m.xi)
    assert A[-1] == pytest.approx(exact, abs=2e-4)


def test_variants_coincide_without_rate_effects():
    """With kappa = xi = 0 and S_max = 1, variants L and S give the same surface S_r = P(f_n)."""
    pr = path_protocol(1.0, 0.1, 0.5, [0.0, 0.1, 0.2, 0.3])
    a = run_prescribed(Subloading(**{**FIXED, "variant": "literal"}), pr, du_max=1e-8)
    b = run_prescribed(Subloading(**{**FIXED, "variant": "scaled"}), pr, du_max=1e-8)
    assert np.max(np.abs(a.shear_stress.values - b.shear_stress.values)) < 1e-6 * a.shear_stress.max()
    fn = a.normal_stress.values[-1]
    assert a.shear_stress.values[-1] == pytest.approx((1 - np.exp(-1e-5 * fn)) * 1e5, rel=1e-9)


def test_return_map_matches_rate_form_under_a_normal_programme():
    m = Subloading(**P_COMMON)
    mr = SubloadingRate(**P_COMMON)
    pr = path_protocol(1.0, 0.1, 0.5, [0.0, 0.02, 0.05, 0.08])
    a = run_prescribed(m, pr, du_max=5e-9)
    b = run_rate_reference(mr, pr, du=2e-9)
    g = np.linspace(2e-5, 8e-5, 200)
    fa = np.interp(g, a.slip.values, a.shear_stress.values)
    fb = np.interp(g, b.slip.values, b.shear_stress.values)
    assert np.max(np.abs(fa - fb)) < 1e-3 * fb.max()


def test_core_stepping_loop_uses_the_same_kernel():
    """simulate() with the stepped model (core Python loop) equals the compiled driver."""
    m = Subloading(**P_COMMON)
    pr = ConstantVelocity(v=1e-3, duration_s=0.01, normal_force_value=FN)
    ds = simulate(m, pr, dt=1e-5)
    dc = run_prescribed(m, pr, dt=1e-5)
    assert ds.friction_force.attrs["units"] == "Pa"
    assert ds.shear_stress.attrs["units"] == "Pa"
    assert float(ds.friction_force.values[-1]) == pytest.approx(float(dc.shear_stress.values[-1]), rel=1e-12)
    assert float(ds.sliding_ratio.max()) <= 1 + 1e-12


def test_rate_form_under_core_rk4_converges():
    mr = SubloadingRate(**P_COMMON)
    pr = ConstantVelocity(v=1e-3, duration_s=0.05, normal_force_value=FN)
    a = simulate(mr, pr, integrator="rk4", dt=4e-6)
    b = simulate(mr, pr, integrator="rk4", dt=2e-6)
    assert abs(a.friction_force.max() - b.friction_force.max()) < 1e-6 * b.friction_force.max()


def test_two_dimensional_return_map():
    """Sliding along a fixed direction in the plane equals the 1-D law; a 90 degree turn of the
    sliding direction rotates the traction towards it with |f_t| <= S_r tau throughout."""
    m = Subloading(**P_COMMON)
    s1 = m.initial_state()
    th = 0.3
    s2 = m.initial_state_2d()
    v = 1e-3
    for _ in range(3000):
        s1 = m.step(s1, 1e-5, v, FN)
        s2 = m.step_2d(s2, 1e-5, (v * math.cos(th), v * math.sin(th)), FN)
    assert math.hypot(s2[0], s2[1]) == pytest.approx(s1[0], rel=1e-10)
    assert math.atan2(s2[1], s2[0]) == pytest.approx(th, abs=1e-12)
    tau = m.tau(v)
    for _ in range(3000):
        s2 = m.step_2d(s2, 1e-5, (-v * math.sin(th), v * math.cos(th)), FN)
        d = m.diagnostics(np.array([math.hypot(s2[0], s2[1])]), np.array([s2[2]]), np.array([v]), np.array([FN]))
        assert d["sliding_ratio"][0] <= 1 + 1e-12
    ang = math.atan2(s2[1], s2[0])
    assert abs(ang - (th + math.pi / 2)) < 1e-3  # aligned with the new sliding direction
    assert float(tau) > 0


def test_normal_velocity_programme():
    """f_n driven through alpha_n by a closing normal velocity; contact lost when it opens."""
    m = Subloading(**P_COMMON)
    s = m.initial_state_2d()
    s = m.step_2d(s, 1e-3, (0.0, 0.0), normal_velocity=1e-6)
    assert s[4] == pytest.approx(FN + m.alpha_n * 1e-9)
    s = m.step_2d(s, 1.0, (1e-6, 0.0), normal_velocity=-1e-5)  # opens: f_n < 0
    assert s[4] < 0 and s[0] == 0.0 and s[1] == 0.0
