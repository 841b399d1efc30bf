"""Sliding of the asperity ensemble: shifted heights, step planning, direct effect, limits
(seed 003 §5; spec §3.8, §6.6-6.7)."""

import math

import numpy as np
import pytest

from frictionlab.contact.rough.numerics import SolverOptions
from frictionlab.contact.rough.model import RoughContact, RoughContactSim, load_from_pressure
from frictionlab.contact.rough.sliding import (RigidSurface, SlidingOptions, check_slip_budget, direct_effect, plan_steps,
                                               required_rigid_length, run_sliding, steady_mean)
from frictionlab.contact.rough.surface import make_surface
from frictionlab.core.errors import DataError, ParameterError
from frictionlab.protocols import ConstantVelocity, SlideHoldSlide, VelocitySteps

UM = 1e-6  # 1 um/s in m/s; 1 um in m


@pytest.fixture(scope="module")
def rigid():
    return make_surface(96, 32, beta_x=4.0, seed=3)


@pytest.fixture(scope="module")
def W():
    return load_from_pressure(100e6, 32, 32)


@pytest.mark.parametrize("method", ["cubic", "fourier"])
def test_integer_shift_is_exact_roll(rigid, method):
    s = RigidSurface(rigid, 32, 32, method=method)
    for k in (0, 1, 7, 95, 96, 130, -3):
        np.testing.assert_array_equal(s(float(k)), np.roll(rigid, -k, axis=0)[:32])


def test_fractional_shift_of_a_smooth_profile():
    mx = 64
    x = np.arange(mx)
    h = np.tile(np.sin(2 * np.pi * 3 * x / mx)[:, None], (1, 8))
    xb = 2.37
    exact = np.sin(2 * np.pi * 3 * (x[:16] + xb) / mx)
    f = RigidSurface(h, 16, 8, method="fourier")(xb)
    c = RigidSurface(h, 16, 8, method="cubic")(xb)
    np.testing.assert_allclose(f[:, 0], exact, atol=1e-12)
    np.testing.assert_allclose(c[:, 0], exact, atol=2e-4)  # cubic spline, 21 points per wavelength


def test_plan_steps_hits_jumps_and_limits_slip():
    pr = VelocitySteps(velocities=(10 * UM, 1 * UM, -10 * UM), distances=(7.3 * UM, 3.1 * UM, 5.0 * UM))
    p = plan_steps(pr, s_max=0.25, W=1.0)
    assert np.all(np.abs(p.ds) <= 0.25 + 1e-12)
    np.testing.assert_allclose(p.slip[-1], 7.3 + 3.1 - 5.0, atol=1e-12)
    # step boundaries fall exactly on the protocol edges
    for e in pr.edges:
        assert np.min(np.abs(p.t - e)) < 1e-12
    assert list(p.v[p.jumps]) == [1.0, -10.0]
    assert np.all(p.ds[p.v < 0] < 0)  # reverse sliding


def test_plan_steps_holds_and_load_from_protocol():
    pr = SlideHoldSlide(v=10 * UM, slide_duration=1.0, holds=(2.0,), normal_force_value=0.5)
    p = plan_steps(pr, s_max=0.5, hold_dt=0.25)
    hold = p.v == 0
    assert hold.sum() == 8 and np.allclose(np.diff(p.t)[hold], 0.25)
    np.testing.assert_allclose(p.W, 0.5 / 0.25132741228718345, rtol=1e-12)


def test_slip_budget_error_names_required_length(rigid, W):
    assert required_rigid_length(32, np.array([0.0, 70.0, -5.0])) == 107
    pr = ConstantVelocity(v=10 * UM, duration_s=7.0)  # 70 um of slip
    with pytest.raises(ParameterError, match=r"at least 102 samples"):
        run_sliding(RoughContact(interaction="meanfield"), make_surface(96, 32, beta_x=4.0), pr, W=W)
    check_slip_budget(102, 32, np.array([0.0, 70.0]))  # exactly enough


def test_direct_effect_at_jump_exact_and_area_continuous(rigid, W):
    m = RoughContact(interaction="boussinesq", lams=(1.0,), As=(1.0,))
    pr = VelocitySteps(velocities=(10 * UM, 1 * UM, 10 * UM), distances=(10 * UM, 5 * UM, 5 * UM))
    ds = run_sliding(m, rigid, pr, W=W, s_max=0.5)
    assert ds.sizes["jump"] == 2
    alpha = m.kernel_parameters().alpha  # F*/um^2, as the record's area and load
    for k in range(2):
        A, vo, vn = float(ds.area_at_jump[k]), float(ds.v_old[k]), float(ds.v_new[k])
        expected = alpha * math.log(vn / vo) * A / W
        assert float(ds.mu_after[k] - ds.mu_before[k]) == pytest.approx(expected, abs=1e-14)
        assert direct_effect(alpha, vo, vn, A, W) == pytest.approx(expected, rel=1e-14)
        # mu just before the jump equals the recorded mu of the last step at v_old
        i = int(np.searchsorted(ds.time.values, float(ds.jump_time[k]) - 1e-12))
        assert float(ds.friction_coefficient[i]) == pytest.approx(float(ds.mu_before[k]), rel=1e-14)
    # load balance and complementarity at every step
    np.testing.assert_allclose(-ds.normal_force.values, W, rtol=1e-12)
    assert ds.gap_residual.max() < 1e-7 and ds.min_free_gap.min() > -1e-7


def test_zero_velocity_reduces_to_static_model_exactly(rigid, W):
    m = RoughContact(interaction="boussinesq")
    h0 = rigid[:32]
    ds, sim = run_sliding(m, rigid, ConstantVelocity(v=0.0, duration_s=2.0), W=W, nx=32, hold_dt=0.25,
                          return_sim=True)
    ref = RoughContactSim(m, h0, W)
    ref.initial_load()
    tau_s = m.kernel_parameters().tau_s  # F*/um^2
    mus = [tau_s * float((ref.p > 0).sum()) / W]
    for _ in range(8):
        ref.step(0.25)
        mus.append(tau_s * float((ref.p > 0).sum()) / W)
    np.testing.assert_array_equal(sim.p, ref.p)
    assert sim.d == ref.d
    np.testing.assert_array_equal(ds.friction_coefficient.values, mus)  # mu = tau_s A / W at v = 0
    assert np.all(ds.slip.values == 0)


def test_steady_area_decreases_with_velocity(rigid, W):
    m = RoughContact(interaction="meanfield", lams=(1.0,), As=(1.0,))
    areas = []
    for v in (1.0, 10.0, 100.0):
        ds = run_sliding(m, rigid, ConstantVelocity(v=v * UM, duration_s=40.0 / v), W=W, s_max=0.5)
        areas.append(steady_mean(ds, "contact_area", 0.0, 40.0))
    assert areas[0] > areas[1] > areas[2]


def test_elastic_sliding_is_pure_velocity_strengthening(rigid, W):
    """Elastic (A = 0): area vs slip identical for all v; mu_ss(v) = mu_ss(1) + alpha ln v A/W (spec 6.7)."""
    m = RoughContact(interaction="meanfield", material="elastic")
    a = run_sliding(m, rigid, ConstantVelocity(v=1 * UM, duration_s=20.0), W=W, s_max=0.5)
    b = run_sliding(m, rigid, ConstantVelocity(v=50 * UM, duration_s=0.4), W=W, s_max=0.5)
    np.testing.assert_array_equal(a.contact_area.values, b.contact_area.values)
    np.testing.assert_allclose(b.friction_coefficient.values - a.friction_coefficient.values,
                               m.kernel_parameters().alpha * math.log(50.0) * a.contact_area.values / W, rtol=1e-12,
                               atol=1e-15)


def test_whole_period_returns_to_the_same_steady_state(W):
    """Rigid surface with period 32 along x = patch length: after the memory has decayed
    (v = 1, lambda = 1), the state at slip s + 32 equals the state at slip s."""
    h = make_surface(32, 32, beta_x=4.0, seed=5)
    m = RoughContact(interaction="meanfield")
    ds = run_sliding(m, h, ConstantVelocity(v=1 * UM, duration_s=96.0), W=W, s_max=0.5, allow_wrap=True)
    s = ds.slip.values
    a = (s >= 40) & (s < 64)
    b = (s >= 72) & (s < 96)
    np.testing.assert_allclose(ds.friction_coefficient.values[b], ds.friction_coefficient.values[a], rtol=1e-9)
    np.testing.assert_allclose(ds.dilatation.values[b], ds.dilatation.values[a], rtol=1e-9)


def test_viscoplastic_reversal_lowers_dilatation_and_raises_mu(W):
    h = make_surface(80, 32, beta_x=4.0, seed=1)
    m = RoughContact(interaction="boussinesq", material="viscoplastic", A_cr=1e-9)  # the paper's 1e-3 um/s
    L = 30.0
    ds = run_sliding(m, h, VelocitySteps(velocities=(10 * UM, -10 * UM), distances=(L * UM, L * UM)), W=W, s_max=0.5)
    s, v = ds.slip.values, ds.slip_velocity.values
    grid = np.linspace(0.25 * L, 0.75 * L, 101)
    f, r = (v > 0) & (s > 0), v < 0
    off = {}
    for var in ("dilatation", "friction_coefficient"):
        fo, ro = np.argsort(s[f]), np.argsort(s[r])
        off[var] = np.mean(np.interp(grid, s[r][ro], ds[var].values[r][ro]) - np.interp(grid, s[f][fo], ds[var].values[f][fo]))
    assert off["dilatation"] < 0
    assert off["friction_coefficient"] > 0
    assert ds.plastic_shortening.values.max() <= 0 and ds.plastic_shortening.values.min() < 0


def test_halving_the_slip_step_changes_steady_mu_little():
    """Spec §3.8 / R26: halving s_max changes the steady mu by < 0.5 % (64^2, beta = 8)."""
    h = make_surface(150, 64, beta_x=8.0, seed=3)
    W = load_from_pressure(100e6, 64, 64)
    m = RoughContact(interaction="meanfield", lams=(1.0,), As=(1.0,))
    mus = []
    for s_max in (0.25, 0.125):
        ds = run_sliding(m, h, ConstantVelocity(v=10 * UM, duration_s=8.0), W=W, s_max=s_max)
        mus.append(steady_mean(ds, "friction_coefficient", 0.0, 80.0))
    assert abs(mus[1] / mus[0] - 1) < 0.005


def test_probes_and_snapshots(rigid, W):
    m = RoughContact(interaction="boussinesq")
    ds = run_sliding(m, rigid, ConstantVelocity(v=5 * UM, duration_s=2.0), W=W, s_max=0.5, probes=((3, 4), (10, 20)),
                     snapshot_times=(0.0, 1.0, 2.0))
    assert ds.probe_force.shape == (ds.sizes["time"], 2)
    F, g = ds.probe_force.values, ds.probe_gap.values
    assert np.all(np.abs(g[F < 0]) < 1e-7) and np.all(g[F == 0] >= -1e-7)
    np.testing.assert_allclose(ds.snapshot_slip.values, [0.0, 5.0, 10.0])


@pytest.mark.parametrize("kw, match", [
    ({"s_max": 0.0}, "s_max"),
    ({"s_max": float("nan")}, "s_max"),
    ({"hold_dt": -1.0}, "hold_dt"),
    ({"shift": "linear"}, "shift"),
    ({"every": 0}, "every"),
    ({"probes": ((40, 0),)}, "probe"),
    ({"W": -1.0}, "normal load"),
    ({"smax": 0.5}, "no option 'smax'"),
])
def test_bad_sliding_arguments(rigid, W, kw, match):
    args = {"W": W, **kw}
    with pytest.raises(ParameterError, match=match):
        run_sliding(RoughContact(interaction="meanfield"), rigid, ConstantVelocity(v=1 * UM, duration_s=1.0), **args)


def test_a_continued_run_keeps_the_state_s_time_and_slip(rigid, W):
    """``run_sliding(..., sim=sim)`` continues where the state is: the contact state owns its time and
    slip, the continuation records from there and equals one run of both pieces."""
    m = RoughContact(interaction="meanfield")
    opts = SlidingOptions(W=W, s_max=0.5)
    whole = run_sliding(m, rigid, ConstantVelocity(v=5 * UM, duration_s=2.0), opts)
    first, sim = run_sliding(m, rigid, ConstantVelocity(v=5 * UM, duration_s=1.0), opts, return_sim=True)
    assert sim.t == pytest.approx(1.0) and sim.xbar == pytest.approx(5.0)
    rest = run_sliding(m, rigid, ConstantVelocity(v=5 * UM, duration_s=1.0), opts, sim=sim)
    np.testing.assert_allclose(rest.slip.values, whole.slip.values[first.sizes["time"] - 1:], rtol=0, atol=1e-12)
    np.testing.assert_array_equal(rest.contact_area.values, whole.contact_area.values[first.sizes["time"] - 1:])


def test_bad_schedules_and_surfaces(rigid, W):
    with pytest.raises(ParameterError, match="velocities"):
        VelocitySteps(velocities=(float("nan"), 1e-6), durations=(1.0, 1.0))
    with pytest.raises(ParameterError, match="durations"):
        VelocitySteps(velocities=(1e-6, 1e-6), durations=(-1.0, 1.0))
    with pytest.raises(ParameterError, match="wide in y"):
        run_sliding(RoughContact(), rigid, ConstantVelocity(v=1e-6, duration_s=1.0), W=W, nx=32, ny=40)
    bad = rigid.copy()
    bad[3, 3] = np.nan
    with pytest.raises(DataError, match="NaN"):
        RigidSurface(bad, 32, 32)
    with pytest.raises(ParameterError, match="RoughContact"):
        run_sliding(object(), rigid, ConstantVelocity(v=1e-6, duration_s=1.0), W=W)


def test_time_scaling_invariance_in_sliding(rigid, W):
    """Spec §6.4: (lambda, A, v) -> (lambda, A, v)/10 at the same slip per step gives the same
    state at the same slip (the paper states it with lambda only; A and v must scale too, R18)."""
    a = run_sliding(RoughContact(interaction="meanfield", lams=(1.0,), As=(1.0,)), rigid,
                    ConstantVelocity(v=10 * UM, duration_s=2.0), W=W, s_max=0.5)
    b = run_sliding(RoughContact(interaction="meanfield", lams=(0.1,), As=(0.1,)), rigid,
                    ConstantVelocity(v=1 * UM, duration_s=20.0), W=W, s_max=0.5)
    np.testing.assert_allclose(b.slip.values, a.slip.values, rtol=1e-12)
    np.testing.assert_allclose(b.dilatation.values, a.dilatation.values, rtol=1e-10)
    np.testing.assert_array_equal(b.contact_area.values, a.contact_area.values)
    np.testing.assert_allclose(b.time.values, 10 * a.time.values, rtol=1e-12)


def test_pooled_force_pdf_moments(rigid, W):
    ds = run_sliding(RoughContact(interaction="meanfield"), rigid, ConstantVelocity(v=10 * UM, duration_s=2.0), W=W,
                     s_max=0.5, pdf_after_slip=10.0)
    w, c = ds.force_bin_width.values, ds.force_bin.values
    pooled = ds.slip.values >= 10.0 - 1e-9
    # zeroth moment = mean contact fraction of the pooled steps (every force falls in a bin)
    assert float((ds.force_pdf.values * w).sum()) == pytest.approx(float(ds.area_fraction.values[pooled].mean()),
                                                                   rel=1e-12)
    m1 = float((ds.force_pdf.values * w * c).sum())
    assert m1 == pytest.approx(W / 32**2, rel=0.05)  # binned first moment ~ W/N
    assert ds.attrs["pdf_samples"] == int(pooled.sum())


def test_warm_and_cold_sliding_agree_and_warm_steps_are_cheap():
    # issue 17: warm starts (extrapolated in slip) change nothing beyond the solve tolerance
    # and a steady sliding step needs a fraction of a cold solve's iterations
    n = 32
    h = make_surface(n + 40, n, beta_x=4.0, seed=5)
    W = load_from_pressure(100e6, n, n)
    m = RoughContact()
    num = SolverOptions(tol_sliding=1e-6)
    prot = ConstantVelocity(v=10 * UM, duration_s=80 * 0.025)
    warm = run_sliding(m, h, prot, W=W, nx=n, ny=n, numerics=num)
    cold = run_sliding(m, h, prot, W=W, nx=n, ny=n, warm_start=False, numerics=num)
    np.testing.assert_array_equal(warm.contact_area.values, cold.contact_area.values)
    np.testing.assert_allclose(warm.friction_coefficient.values, cold.friction_coefficient.values, rtol=0, atol=1e-12)
    np.testing.assert_allclose(warm.dilatation.values, cold.dilatation.values, rtol=0, atol=1e-5)
    its_w = warm.solver_iterations.values[40:]
    its_c = cold.solver_iterations.values[40:]
    assert its_w.mean() <= 10.0, its_w.mean()
    assert its_w.mean() < 0.7 * its_c.mean()
    assert warm.solver_products.values[40:].mean() <= 1.1 * its_w.mean() + 3


def test_sliding_uses_tol_sliding(rigid, W):
    prot = ConstantVelocity(v=10 * UM, duration_s=20 * 0.025)
    loose = run_sliding(RoughContact(), rigid, prot, W=W, nx=32, ny=32, numerics=SolverOptions(tol_sliding=1e-3))
    tight = run_sliding(RoughContact(), rigid, prot, W=W, nx=32, ny=32, numerics=SolverOptions(tol_sliding=1e-9))
    # the preconditioned PK gains ~1.5 decades per iteration, so six decades of tolerance are
    # ~3 iterations per step here (73 vs 120 in all); before the preconditioner ~0.5x
    assert loose.solver_iterations.values[1:].sum() < 0.7 * tight.solver_iterations.values[1:].sum()
