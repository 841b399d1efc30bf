"""Beam-network dynamics: steady states, limits, scheme agreement, convergence, bad input."""

import math

import numpy as np
import pytest

from frictionlab.analysis.beam_patterns import steady_metrics
from frictionlab.contact.beam_network.lbnm import _lbnm_kernel, run_lbnm
from frictionlab.contact.beam_network.mlbnm import (_gp, _mlbnm_kernel, iub_arrays, iub_linear_eigenvalues,
                                                    run_mlbnm, run_mlbnm_batch)
from frictionlab.core.errors import IntegrationError, ParameterError
from frictionlab.core.registry import make_model

V = 7.5e-4


def g_of(p, v):
    return p.mu_c + (p.mu_s - p.mu_c) * math.exp(-((abs(v) / p.v_stribeck) ** p.alpha))


@pytest.fixture(scope="module")
def printed():
    return make_model("beam_network", "vf60-table3")


@pytest.fixture(scope="module")
def calibrated():
    return make_model("beam_network", "vf60-calibrated")


@pytest.mark.parametrize("single", [True, False])
@pytest.mark.parametrize("scheme", ["semi-implicit", "euler"])
def test_mlbnm_steady_sliding_equals_eq9(printed, single, scheme):
    """Printed Table 3 slides steadily at 7.5e-4 m/s; total friction = sum_i f_z^i g(v) + sigma_2^i v (eq. 9)."""
    ds = run_mlbnm(printed, V, 6.0, dt=2e-5, scheme=scheme, single=single)
    F = ds.friction_force.values[-1]
    n = printed.geometry().n_beams
    expected = printed.normal_load * g_of(printed, V) + n * printed.sigma2 * V
    assert F == pytest.approx(expected, rel=1e-7)
    # each IUB carries its own share: f^I = f_z^I g + sigma_2^I v
    a = iub_arrays(printed, single)
    assert np.allclose(ds.iub_friction.values[-1], a["fz"] * g_of(printed, V) + a["s2"] * V, rtol=1e-6)
    assert np.allclose(ds.iub_velocity.values[-1], V, rtol=1e-6)


def test_lbnm_steady_sliding_and_symmetry(printed):
    ds = run_lbnm(printed, V, 6.0, dt=2e-5, beam_save_dt=0.1)
    n = printed.geometry().n_beams
    expected = printed.normal_load * g_of(printed, V) + n * printed.sigma2 * V
    # the lateral (y) bristle creep of the stretched network relaxes slowly (rate ~ sigma_0 v/(f_z g) ~ 3 1/s
    # for the central beams, with lateral forces it drives); after 6 s the total is within 2e-4
    assert ds.friction_force.values[-1] == pytest.approx(expected, rel=2e-4)
    # mirror symmetry about y = 0: sum f_fy = 0, lag_y odd in y, lag_x even in y
    assert np.max(np.abs(ds.friction_force_y.values)) < 1e-9
    x, y = ds.beam_x.values, ds.beam_y.values
    mirror = np.array([int(np.nonzero(np.isclose(x, x[i]) & np.isclose(y, -y[i]))[0][0]) for i in range(x.size)])
    lx, ly = ds.beam_lag_x.values[-10], ds.beam_lag_y.values[-10]
    assert np.allclose(lx, lx[mirror], atol=1e-12)
    assert np.allclose(ly, -ly[mirror], atol=1e-12)


def test_quasi_static_stick_total_friction_equals_bending_force(calibrated):
    """Early loading, all beams nearly stuck: F_f = sum_i k_b^i lambda_x^i + c_b^i (v_s - u_dot) (eq. 1, m u'' ~ 0)."""
    ds = run_lbnm(calibrated, V, 0.3, dt=2e-5, beam_save_dt=1e-2)
    d = calibrated.derived()
    k = -1
    Fb = np.sum(d.kb * ds.beam_lag_x.values[k] + d.cb * (V - ds.beam_velocity_x.values[k]))
    F = ds.friction_force.sel(time=ds.beam_time.values[k], method="nearest").item()
    assert F == pytest.approx(Fb, rel=2e-3)


def test_no_network_equals_independent_single_beams(calibrated):
    """k_e = 0: every LBNM beam evolves like a one-beam IUB with its own load."""
    T, dt = 3.0, 2e-5
    ds = run_lbnm(calibrated, V, T, dt=dt, beam_save_dt=1e-2, no_network=True)
    d = calibrated.derived()
    n = d.geometry.n_beams
    one = np.ones((n, 1))
    F, ff, lag, vel, fail = _mlbnm_kernel(one * d.mass, one * d.kb, one * d.cb, one * d.sigma0, one * d.sigma1,
                                          one * d.sigma2, d.normal_force[:, None], one * 0.0, one * 0.0,
                                          _gp(calibrated), np.full(n, V), dt, int(round(T / dt)), 500, 1, 1, True)
    assert np.all(fail < 0)
    assert np.allclose(ds.beam_friction_x.values, ff[:, :, 0].T, rtol=1e-9, atol=1e-12)


def test_one_column_line_equals_single_iub(calibrated):
    """A line of equally loaded beams along y (springs at rest length) moves as one IUB (a line of the network behaves as the paper's isolated unit beam, Sec. 3)."""
    d = calibrated.derived()
    n, a, T, dt = 5, 2e-3, 3.0, 2e-5
    X, Y = np.zeros(n), np.arange(n) * a
    pairs = np.array([[i, i + 1] for i in range(n - 1)], dtype=np.int64)
    rest = np.full(n - 1, a)
    fz = np.full(n, 2.0)
    kd = np.full(n, 2 * d.ke)
    Fx, *_rest, fail = _lbnm_kernel(X, Y, pairs, rest, kd * 0, kd, d.mass, d.kb, d.cb, d.ke, d.sigma0, d.sigma1,
                                    d.sigma2, fz, _gp(calibrated), V, dt, int(round(T / dt)), 50, 500, 1, 1,
                                    calibrated.mu_c)
    assert fail < 0
    one = np.ones((1, 1))
    F1, *_ = _mlbnm_kernel(one * n * d.mass, one * n * d.kb, one * n * d.cb, one * n * d.sigma0, one * n * d.sigma1,
                           one * n * d.sigma2, one * fz.sum(), one * 0, one * 0, _gp(calibrated), np.array([V]), dt,
                           int(round(T / dt)), 50, 1, 1, False)
    assert np.allclose(Fx, F1[0], rtol=1e-9, atol=1e-9)


def test_euler_and_semi_implicit_agree(calibrated):
    """Algorithm 1 vs the semi-implicit scheme at dt = 1e-5 s: loading history within 0.5 %, steady metrics 5 %."""
    r_e = run_mlbnm(calibrated, V, 10.0, dt=1e-5, scheme="euler")
    r_s = run_mlbnm(calibrated, V, 10.0, dt=1e-5, scheme="semi-implicit")
    t = r_e.time.values
    load = t < 2.0
    fe, fs = r_e.friction_force.values, r_s.friction_force.values
    assert np.sqrt(np.mean((fe[load] - fs[load]) ** 2)) / np.sqrt(np.mean(fs[load] ** 2)) < 5e-3
    me, ms = steady_metrics(t, fe), steady_metrics(t, fs)
    assert me.stick_slip and ms.stick_slip
    assert me.amplitude == pytest.approx(ms.amplitude, rel=0.05)
    assert me.period == pytest.approx(ms.period, rel=0.05)


def test_dt_halving_convergence(calibrated):
    """Semi-implicit MLBNM: halving dt changes the loading history by < 0.5 % RMS and the steady amplitude by < 3 %."""
    r1 = run_mlbnm(calibrated, V, 10.0, dt=2e-5)
    r2 = run_mlbnm(calibrated, V, 10.0, dt=1e-5)
    t = r1.time.values
    f1, f2 = r1.friction_force.values, r2.friction_force.values
    load = t < 2.0
    assert np.sqrt(np.mean((f1[load] - f2[load]) ** 2)) / np.sqrt(np.mean(f2[load] ** 2)) < 5e-3
    m1, m2 = steady_metrics(t, f1), steady_metrics(t, f2)
    assert m1.amplitude == pytest.approx(m2.amplitude, rel=0.03)
    assert m1.period == pytest.approx(m2.period, rel=0.03)


def test_static_bound_during_stick_slip(calibrated):
    ds = run_mlbnm(calibrated, V, 8.0)
    fz = ds.iub_normal_force.values
    # |f^I| <= mu_S f_z^I up to the small sigma_1 zdot overshoot (spec 7.3): 1 %
    assert np.all(np.abs(ds.iub_friction.values) <= 1.01 * calibrated.mu_s * fz[None, :])
    # Remark 1: some IUBs slip, and a slipping IUB is at or above the Coulomb level
    sl = ds.iub_slip.values.astype(bool)
    assert sl.any()
    assert np.all(np.abs(ds.iub_friction.values[sl]) >= calibrated.mu_c * np.broadcast_to(fz, sl.shape)[sl])


def test_explicit_dt_limit_is_detected(printed):
    lim = printed.explicit_stable_dt()
    assert 3e-5 < lim < 5e-5
    with pytest.raises(ParameterError, match=r"dt = 0.0001 s exceeds the stability limit.*dt <= 3\.\d+e-05"):
        run_mlbnm(printed, V, 1.0, dt=1e-4, scheme="euler")
    with pytest.raises(ParameterError, match="stability limit"):
        run_lbnm(printed, V, 1.0, dt=1e-4, scheme="euler")
    with pytest.raises(IntegrationError, match=r"diverged at step \d+, t = .* scheme 'euler'"):
        run_mlbnm(printed, V, 1.0, dt=1e-4, scheme="euler", allow_unstable=True)
    # the semi-implicit scheme is stable at that step
    ds = run_mlbnm(printed, V, 1.0, dt=1e-4)
    assert np.all(np.isfinite(ds.friction_force.values))


def test_bad_run_arguments(printed):
    with pytest.raises(ParameterError, match="duration"):
        run_mlbnm(printed, V, -1.0)
    with pytest.raises(ParameterError, match="v_drive"):
        run_lbnm(printed, -1e-3, 1.0)
    with pytest.raises(Exception, match="scheme"):
        run_mlbnm(printed, V, 1.0, scheme="rk4")


def test_linear_stability_band(printed, calibrated):
    """Closed form: printed v_s is stable at 7.5e-4 m/s for c_b = 148; calibrated is unstable there, stable at 3.5e-3."""
    assert max(iub_linear_eigenvalues(printed, V).real) < 0
    assert max(iub_linear_eigenvalues(calibrated, V).real) > 0
    assert max(iub_linear_eigenvalues(calibrated, 3.5e-3).real) < 0
    # and the simulation agrees
    r = run_mlbnm_batch([calibrated, calibrated], [V, 3.5e-3], 8.0, single=True)
    ss = [steady_metrics(r["time"], F).stick_slip for F in r["friction_force"]]
    assert ss == [True, False]


def test_iub_link_sum_equals_lbnm_column_forces(calibrated):
    """iub_link="sum": each IUB link equals the x-force of the LBNM springs when columns move rigidly.

    Displace column J by a small delta along x (all other beams at rest): the summed LBNM
    network force on column J+1 is K_{J,J+1} delta to first order (Sec. 3.1 summation rule).
    """
    from frictionlab.contact.beam_network.lbnm import network_force

    p = make_model("beam_network", "vf60-calibrated", iub_link="sum")
    a = iub_arrays(p)
    g = p.geometry()
    assert np.allclose(a["kr"][:-1] / p.ke, [10, 14, 17, 17, 17, 17, 14, 10])
    assert np.allclose(a["kl"][1:], a["kr"][:-1]) and a["kl"][0] == 0 and a["kr"][-1] == 0
    delta = 1e-9
    for J in range(g.n_columns - 1):
        ux = np.where(g.column == J, delta, 0.0)
        fx, _ = network_force(p, ux, np.zeros(g.n_beams))
        on_next = fx[g.column == J + 1].sum() / delta
        assert on_next == pytest.approx(a["kr"][J], rel=1e-5)
    # the printed eq. (10) link N_I k_e is about half the summed stiffness for interior columns
    n_i = iub_arrays(calibrated)
    assert np.all(a["kr"][2:6] / n_i["kr"][2:6] == pytest.approx(17 / 9))


def test_uniform_load_lbnm_equals_single_iub_period(calibrated):
    """With every beam loaded F_z/N the LBNM stick-slip period equals the single IUB's.

    This isolates the cause of the MLBNM-LBNM period gap on Fig. 8 (params Notes): it is the
    unequal per-beam loads inside a column, not the inter-IUB spring.
    """
    d = calibrated.derived()
    g = d.geometry
    T, dt = 8.0, 2e-5
    fz = np.full(g.n_beams, calibrated.normal_load / g.n_beams)
    ex2 = ((g.x[g.pairs[:, 1]] - g.x[g.pairs[:, 0]]) / g.rest_length) ** 2
    kdx = np.bincount(g.pairs.ravel(), weights=np.repeat(d.ke * ex2, 2), minlength=g.n_beams)
    kdy = np.bincount(g.pairs.ravel(), weights=np.repeat(d.ke * (1 - ex2), 2), minlength=g.n_beams)
    Fx, *_r, fail = _lbnm_kernel(g.x, g.y, g.pairs, g.rest_length, kdx, kdy, d.mass, d.kb, d.cb, d.ke, d.sigma0,
                                 d.sigma1, d.sigma2, fz, _gp(calibrated), V, dt, int(round(T / dt)), 50, 5000, 1, 0,
                                 calibrated.mu_c)
    assert fail < 0
    t = np.arange(Fx.size) * 50 * dt
    ml = run_mlbnm(calibrated, V, T, dt=dt, single=True, n_picard=0)
    m_l = steady_metrics(t, Fx)
    m_s = steady_metrics(ml.time.values, ml.friction_force.values)
    assert m_l.stick_slip and m_s.stick_slip
    assert m_l.period == pytest.approx(m_s.period, rel=0.03)
    assert m_l.amplitude == pytest.approx(m_s.amplitude, rel=0.03)
