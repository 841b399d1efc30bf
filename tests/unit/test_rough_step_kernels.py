"""Compiled per-step kernels of the rough sliding step (issue 17, step overhead): each one
reproduces the array (or grid-loop) form it replaced bit for bit, so that the recorded mu,
areas and forces do not move."""

import numpy as np
import pytest
from scipy import ndimage

from frictionlab.contact.rough import solver_compiled as solver
from frictionlab.contact.rough.elasticity import BoussinesqFFT, StepOperator
from frictionlab.contact.rough.model import RoughContact, RoughContactSim, _nb_count_clusters, load_from_pressure
from frictionlab.contact.rough.precond import nb_precondition
from frictionlab.contact.rough.sliding import RigidSurface, run_sliding
from frictionlab.contact.rough.surface import make_surface
from frictionlab.protocols import ConstantVelocity


def test_contact_lists_reproduce_the_grid_iteration(monkeypatch):
    # every preconditioned PK iteration of a 48^2 sliding run (loading included) on the contact
    # lists gives the direction, step, projection and carried product of the grid loops exactly
    seen = {"dir": 0, "upd": 0}
    state = {}
    direction_on, update_on = solver._direction_pc_on, solver._nb_update_on

    def direction(Mp, g, p, t, r, z, pc, delta, G_old, dinv, S, nS, Sp, nSp, U):
        assert np.array_equal(S[:nS], np.flatnonzero(p > 0))
        t_ref, r_ref, z_ref, e_ref = t.copy(), r.copy(), z.copy(), pc.e.copy()
        out = direction_on(Mp, g, p, t, r, z, pc, delta, G_old, dinv, S, nS, Sp, nSp, U)
        nS_ref, rbar = solver._nb_residual(Mp, g, p, r_ref)
        G = nb_precondition(pc.order, pc.starts, pc.moff, pc.nb, pc.mats, pc.mark, dinv, p, r_ref, z_ref, e_ref,
                            pc.buf.copy())
        t_ref = np.where(p > 0, z_ref + (delta * G / G_old) * t_ref, 0.0)
        assert out[:3] == (G, nS_ref, rbar)
        assert np.array_equal(t, t_ref)
        cand = np.flatnonzero((p > 0) | (r_ref < 0))
        assert np.array_equal(U[:out[3]], cand) and np.array_equal(r[cand], r_ref[cand])
        state["r"] = r_ref
        seen["dir"] += 1
        return out

    def update(p, t, r, w, Mp, W, nS, ci, cv, cap, dinv, S, U, nU, Snew):
        p_ref, Mp_ref, ci_ref, cv_ref = p.copy(), Mp.copy(), ci.copy(), cv.copy()
        out = update_on(p, t, r, w, Mp, W, nS, ci, cv, cap, dinv, S, U, nU, Snew)
        ref = solver._nb_update(p_ref, t, state["r"], w, Mp_ref, W, nS, ci_ref, cv_ref, cap, dinv)
        k = min(out[3], cap)
        assert out[:5] == ref
        assert np.array_equal(p, p_ref) and np.array_equal(Mp, Mp_ref)
        assert np.array_equal(ci[:k], ci_ref[:k]) and np.array_equal(cv[:k], cv_ref[:k])
        assert np.array_equal(Snew[:out[5]], np.flatnonzero(p > 0))
        seen["upd"] += 1
        return out

    monkeypatch.setattr(solver, "_direction_pc_on", direction)
    monkeypatch.setattr(solver, "_nb_update_on", update)
    n = 48
    h = make_surface(n + 40, n, beta_x=8.0, seed=2)
    run_sliding(RoughContact(), h, ConstantVelocity(v=10e-6, duration_s=12 * 0.025), W=load_from_pressure(100e6, n, n),
                nx=n, ny=n)
    assert seen["dir"] > 50 and seen["upd"] > 50


def test_extrapolated_start_is_the_array_form():
    rng = np.random.default_rng(4)
    n = 40
    base = BoussinesqFFT(n, n)
    op = StepOperator(base, c=0.83)
    p_prev = np.where(rng.random((n, n)) < 0.3, rng.random((n, n)), 0.0)
    p = np.where(p_prev > 0, p_prev * rng.uniform(0.8, 1.2, (n, n)), 0.0)
    p.flat[np.flatnonzero(p)[:6]] = 0.0
    Kp, Kp_prev = base.apply(p), base.apply(p_prev)
    ratio = 0.7
    p0, Mp0, exact = solver.extrapolated_start(op, p, Kp, p_prev, Kp_prev, ratio)
    E = p + (p - p_prev) * ratio
    ref = op.c * (Kp + (Kp - Kp_prev) * ratio)
    neg = np.flatnonzero(E < 0.0)
    base.add_sparse(ref, neg // n, neg % n, np.ascontiguousarray(-E.reshape(-1)[neg]), neg.size, op.c)
    assert exact and neg.size == 6
    assert np.array_equal(p0, np.maximum(E, 0.0))
    assert np.array_equal(Mp0, ref)


def test_viscoelastic_fields_are_the_array_forms():
    # the known field z0 + h - K H^n (D9) and the state updates (D8), two relaxation rates
    rng = np.random.default_rng(5)
    m = RoughContact(lams=(1.0, 0.1), As=(0.2, 0.01))
    sim = RoughContactSim(m, rng.standard_normal((16, 12)), 0.05)
    co = sim.ve.step_coeffs(0.3)
    sim._Kq, sim._Kp = rng.standard_normal((2, 16, 12)), rng.standard_normal((16, 12))
    sim.z0 = rng.standard_normal((16, 12))
    g = sim._known_field(co, None)
    KH = co.E[0] * sim._Kq[0] + (m.As[0] * co.w0[0]) * sim._Kp
    KH = KH + (co.E[1] * sim._Kq[1] + (m.As[1] * co.w0[1]) * sim._Kp)
    assert np.array_equal(g, sim.z0 + sim.heights - KH)
    q = rng.standard_normal((2, 16, 12))
    fn, fn1 = rng.random((16, 12)), rng.random((16, 12))
    ref = sim.ve.update(q.copy(), fn, fn1, co)
    sim._advance_states(q, fn, fn1, co)
    assert np.array_equal(q, ref)


@pytest.mark.parametrize("xbar", [0.25, 7.6, 93.125, -4.3])
def test_spline_shift_is_horners_rule(xbar):
    h = make_surface(120, 32, seed=1)
    rs = RigidSurface(h, 40, 32)
    s = xbar / rs.dx
    k = int(np.floor(s))
    f = s - k
    c = rs._c[:, (np.arange(40) + k) % 120]
    assert np.array_equal(rs(xbar), ((c[0] * f + c[1]) * f + c[2]) * f + c[3])


def test_cluster_counts_are_the_label_counts():
    rng = np.random.default_rng(6)
    for frac in (0.02, 0.2, 0.5, 0.8):
        mask = rng.random((37, 53)) < frac
        for conn8 in (False, True):
            ref = ndimage.label(mask, structure=ndimage.generate_binary_structure(2, 2 if conn8 else 1))[1]
            assert _nb_count_clusters(mask, conn8) == ref


@pytest.mark.parametrize("rows_sorted", [True, False])
def test_windowed_correction_any_order(rows_sorted):
    # add_local: the row-by-row loop (departures listed by row, as the solver lists them) and
    # the per-departure loop both add the windowed kernel columns
    rng = np.random.default_rng(8)
    base = BoussinesqFFT(30, 26)
    idx = np.sort(rng.choice(30 * 26, 40, replace=False))
    if not rows_sorted:
        idx = idx[::-1].copy()
    ii, jj, v = idx // 26, idx % 26, rng.standard_normal(40)
    out = np.zeros((30, 26))
    base.add_local(out, ii, jj, v, 40, 5, 0.9)
    kr = base.kernel_real()
    ref = np.zeros((30, 26))
    for i0, j0, vv in zip(ii, jj, v):
        for a in range(-5, 6):
            for b in range(-5, 6):
                if 0 <= i0 + a < 30 and 0 <= j0 + b < 26:
                    ref[i0 + a, j0 + b] += 0.9 * vv * kr[a % kr.shape[0], b % kr.shape[1]]
    np.testing.assert_allclose(out, ref, rtol=0, atol=1e-13 * np.abs(ref).max())


@pytest.mark.parametrize("periodic", [False, True])
def test_single_precision_product_is_the_scipy_transform_chain(periodic):
    # float32 products: scipy.fft's transforms used as they return (no copies into buffers)
    import scipy.fft as sf

    rng = np.random.default_rng(9)
    base = BoussinesqFFT(20, 18, periodic=periodic, fft_precision="single", workers=1)
    x = rng.standard_normal((20, 18))
    out = np.empty_like(x)
    base.apply_into(x, out)
    kh = np.asarray(base.khat, dtype=np.float32)
    if periodic:
        ref = sf.irfft(sf.ifft(sf.fft(sf.rfft(x.astype(np.float32), axis=1), axis=0) * kh, axis=0), n=18, axis=1)
    else:
        R = np.zeros((20, 36), np.float32)
        R[:, :18] = x
        T = np.zeros((19, 40), np.complex64)
        T[:, :20] = sf.rfft(R, axis=1).T
        F = sf.ifft(sf.fft(T, axis=1) * kh.T, axis=1)
        ref = sf.irfft(np.ascontiguousarray(F[:, :20].T), n=36, axis=1)[:, :18]
    assert np.array_equal(out, ref.astype(np.float64))
