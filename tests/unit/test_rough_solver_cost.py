"""Cost of the Polonsky-Keer solver (issue 17): operator products per iteration, the
allocation-free product, sparse projection corrections, single-precision FFTs, FFT threads."""

import numpy as np
import pytest

from frictionlab.contact.rough.numerics import SolverOptions
from frictionlab.contact.rough.elasticity import (FFT_THREAD_CROSSOVER, BoussinesqFFT, MeanField, StepOperator,
                                                  resolve_fft_workers)
from frictionlab.contact.rough.model import RoughContact, load_from_pressure
from frictionlab.contact.rough.solver import pk_solve
from frictionlab.contact.rough.surface import make_surface
from frictionlab.core.errors import ConfigError, ParameterError


@pytest.fixture(scope="module")
def problem():
    h = make_surface(64, 64, seed=0)
    return h, load_from_pressure(100e6, 64, 64)


@pytest.mark.parametrize("periodic", [False, True])
@pytest.mark.parametrize("tol", [1e-6, 1e-10])
def test_one_operator_product_per_iteration(problem, periodic, tol):
    # Polonsky & Keer (1999): the search direction's product is the only one an iteration
    # needs; before issue 17 a cold 512^2 solve used 78 products for 43 iterations (1.8/it)
    h, W = problem
    op = StepOperator(BoussinesqFFT(64, 64, periodic=periodic))
    # unpreconditioned: enough iterations for the per-iteration count to mean something
    r = pk_solve(op, h, W, tol=tol, precondition=False)
    assert r.converged and r.iterations > 10
    assert r.products <= 1.1 * r.iterations + 6, (r.products, r.iterations)
    # the count is the operator's own count of products
    assert op.base.n_products == r.products


def test_warm_start_products(problem):
    h, W = problem
    op = StepOperator(BoussinesqFFT(64, 64), c=1.0)
    r0 = pk_solve(op, h, W, tol=1e-10)
    r1 = pk_solve(StepOperator(op.base, c=1.02), h, W, p0=r0.p, tol=1e-10)
    assert r1.products <= 1.1 * r1.iterations + 4


@pytest.mark.parametrize("periodic", [False, True])
@pytest.mark.parametrize("workers", [1, 2])
def test_apply_into_and_sparse_products_equal_the_fft_product(periodic, workers):
    # apply_into: transposed half spectrum (numpy.fft, one thread) or scipy.fft (threads)
    rng = np.random.default_rng(1)
    base = BoussinesqFFT(24, 20, periodic=periodic, workers=workers)
    op = StepOperator(base, c=1.3, diag=rng.uniform(0.1, 1.0, (24, 20)))
    x = rng.standard_normal((24, 20))
    out = np.empty_like(x)
    op.apply_into(x, out)
    np.testing.assert_allclose(out, op.apply(x), rtol=0, atol=1e-12 * np.abs(out).max())
    ii = np.array([0, 5, 23, 11], dtype=np.int64)
    jj = np.array([0, 19, 3, 10], dtype=np.int64)
    vals = rng.standard_normal(4)
    sparse = np.zeros_like(x)
    sparse[ii, jj] = vals
    acc = np.zeros_like(x)
    op.add_sparse(acc, ii, jj, vals, 4, factor=0.5)
    np.testing.assert_allclose(acc, 0.5 * op.apply(sparse), rtol=0, atol=1e-12 * np.abs(acc).max())


def test_meanfield_sparse_and_apply_into():
    op = StepOperator(MeanField(16.0, 8, 8), c=2.0)
    x = np.arange(64.0).reshape(8, 8)
    out = np.empty_like(x)
    np.testing.assert_array_equal(op.apply_into(x, out), 32.0 * x)
    acc = np.zeros_like(x)
    op.add_sparse(acc, np.array([1]), np.array([2]), np.array([3.0]), 1)
    assert acc[1, 2] == 96.0 and acc.sum() == 96.0


def test_single_precision_fft_accuracy_and_solution(problem):
    h, W = problem
    x = np.random.default_rng(2).random((64, 64))
    d = BoussinesqFFT(64, 64, workers=1)
    s = BoussinesqFFT(64, 64, workers=1, fft_precision="single")
    yd, ys = np.empty_like(x), np.empty_like(x)
    d.apply_into(x, yd)
    s.apply_into(x, ys)
    rel = np.abs(ys - yd).max() / np.abs(yd).max()
    assert 1e-9 < rel < 1e-6  # float32 round-off, not float64
    rd = pk_solve(StepOperator(d), h, W, tol=1e-6)
    rs = pk_solve(StepOperator(s), h, W, tol=1e-6)
    assert np.array_equal(rd.p > 0, rs.p > 0)
    assert abs(rs.d - rd.d) < 1e-5


def test_single_precision_needs_a_loose_tolerance():
    with pytest.raises(ConfigError, match="fft_precision"):
        SolverOptions(fft_precision="single", tol=1e-8)
    num = SolverOptions(fft_precision="single", tol=1e-6, tol_sliding=1e-5)
    assert RoughContact().operator(16, 16, num).fft_precision == "single"
    with pytest.raises(ParameterError, match="fft_precision"):
        BoussinesqFFT(8, 8, fft_precision="half")


def test_fft_workers_option():
    assert resolve_fft_workers("auto", FFT_THREAD_CROSSOVER - 1) == 1
    assert resolve_fft_workers(3, 10) == 3
    assert resolve_fft_workers(-1, 10) >= 1
    with pytest.raises(ParameterError):
        resolve_fft_workers(0, 10)
    assert RoughContact().operator(16, 16, SolverOptions(fft_workers=2)).workers == 2
    assert RoughContact().operator(16, 16).workers == 1
    # a threaded operator gives the same product
    x = np.random.default_rng(3).random((16, 16))
    np.testing.assert_allclose(BoussinesqFFT(16, 16, workers=2).apply(x), BoussinesqFFT(16, 16, workers=1).apply(x),
                               rtol=1e-13)


def test_scenario_runs_in_parallel_processes_give_serial_results():
    import math

    from frictionlab.core.errors import ConfigError
    from frictionlab.scenarios.executor import runs_on
    from frictionlab.scenarios.rough_contact._common import run_parallel

    tasks = [(3.0, 4.0), (5.0, 12.0), (8.0, 15.0)]
    with runs_on(workers=2):
        assert run_parallel(math.hypot, tasks, {}) == [5.0, 13.0, 17.0]
    assert run_parallel(math.hypot, tasks, {}) == [5.0, 13.0, 17.0]
    with pytest.raises(ConfigError, match="--workers N"):  # the former [parallel] section: a pointer
        run_parallel(math.hypot, tasks, {"parallel": {"workers": 2}})


def _sliding_sims(n=32, steps=30):
    from frictionlab.contact.rough.model import RoughContactSim

    h = make_surface(n + 20, n, beta_x=4.0, seed=2)
    W = load_from_pressure(100e6, n, n)
    m = RoughContact(lams=(1.0, 0.1), As=(0.2, 0.02))
    sims = [RoughContactSim(m, h[:n], W, numerics=SolverOptions(tol_sliding=1e-8)) for _ in range(2)]
    for sim in sims:
        sim.initial_load()
    hp = [[], []]
    for k in range(1, steps + 1):
        sl = slice(k // 4, k // 4 + n)  # whole-element slip every 4th step, as heights change
        for i, sim in enumerate(sims):
            if i == 1:
                sim._Kq = None  # the uncarried path: one product of the history field per step
            sim.step(0.025, heights=h[sl])
            hp[i].append(sim.history_products)
    return sims, hp


def test_viscoelastic_history_product_is_carried_not_recomputed():
    # issue 17: K q_k is advanced with the recurrence of q_k from the solver's final product,
    # so a step's history field costs no operator product and gives the same step
    (a, b), (hp_a, hp_b) = _sliding_sims()
    assert hp_a == [0] * len(hp_a)
    assert set(hp_b) == {1 + 2}  # the history product, then K q_k recomputed for the carry
    np.testing.assert_allclose(a.p, b.p, rtol=0, atol=1e-11 * a.p.max())
    assert a.d == pytest.approx(b.d, abs=1e-11)
    assert np.array_equal(a.p > 0, b.p > 0)
    # the carried products are the exact ones to round-off
    for k in range(a.q.shape[0]):
        exact = a.base.apply(a.q[k])
        assert np.abs(a._Kq[k] - exact).max() < 1e-12 * np.abs(exact).max()
    np.testing.assert_allclose(a._Kp, a.base.apply(a.p), rtol=0, atol=1e-12 * np.abs(a._Kp).max())


def test_preconditioner_is_reused_between_solves_of_one_operator(problem):
    # issue 17: consecutive solves with the same operator (sliding steps) keep the cluster
    # factors of the previous solve; the solution is the one of a fresh preconditioner
    h, W = problem
    base = BoussinesqFFT(64, 64)
    r0 = pk_solve(StepOperator(base, c=0.9), h, W, tol=1e-10)
    h1 = 0.75 * h + 0.25 * np.roll(h, -1, axis=0)  # a quarter-element slip
    pc0 = base._pc_cache[1]
    ra = pk_solve(StepOperator(base, c=0.9), h1, W, p0=r0.p, tol=1e-10)
    assert base._pc_cache[1] is pc0
    base._pc_cache = None
    rb = pk_solve(StepOperator(base, c=0.9), h1, W, p0=r0.p, tol=1e-10)
    assert np.array_equal(ra.p > 0, rb.p > 0)
    np.testing.assert_allclose(ra.p, rb.p, rtol=0, atol=1e-8 * ra.p.max())
    assert ra.d == pytest.approx(rb.d, abs=1e-9)
    assert ra.info["preconditioner_builds"] < rb.info["preconditioner_builds"]
    # another step factor c: other matrices, a new preconditioner
    pk_solve(StepOperator(base, c=0.8), h1, W, p0=r0.p, tol=1e-10)
    assert base._pc_cache[0][0] == 0.8


@pytest.mark.parametrize("k_neg", ["few", "many"])
def test_extrapolated_start_product_from_carried_products(k_neg):
    # issue 17: the warm start of a step and its product come from the previous solutions'
    # products; the clipped elements add kernel columns (exact) or a windowed kernel (many)
    from frictionlab.contact.rough.solver import extrapolated_start

    rng = np.random.default_rng(7)
    n = 48
    base = BoussinesqFFT(n, n)
    op = StepOperator(base, c=0.85)
    p_prev = np.where(rng.random((n, n)) < 0.2, rng.random((n, n)), 0.0)
    p = np.where(rng.random((n, n)) < 0.2, rng.random((n, n)), 0.0) if k_neg == "many" else \
        np.where(p_prev > 0, p_prev * rng.uniform(0.9, 1.1, (n, n)), 0.0)
    if k_neg == "few":
        p.flat[np.flatnonzero(p)[:5]] = 0.0  # five contacts lost: the extrapolation goes negative there
    p0, Mp0, exact = extrapolated_start(op, p, base.apply(p), p_prev, base.apply(p_prev), 1.0)
    np.testing.assert_array_equal(p0, np.maximum(2 * p - p_prev, 0.0))
    ref = op.apply(p0)
    err = np.abs(Mp0 - ref).max() / np.abs(ref).max()
    if k_neg == "few":
        assert exact and err < 1e-13
    else:
        assert not exact and err > 1e-13  # windowed: approximate, resynchronised by the solver
    # the solver started from it reaches the solution of a start with its own product
    h = make_surface(n, n, seed=3)
    W = load_from_pressure(100e6, n, n)
    ra = pk_solve(op, h, W, p0, Mp0=Mp0, Mp0_exact=exact, tol=1e-10)
    rb = pk_solve(op, h, W, p0, tol=1e-10)
    assert np.array_equal(ra.p > 0, rb.p > 0)
    np.testing.assert_allclose(ra.p, rb.p, rtol=0, atol=1e-8 * rb.p.max())
    assert ra.d == pytest.approx(rb.d, abs=1e-9)
    np.testing.assert_allclose(ra.Mp, op.apply(ra.p), rtol=0, atol=1e-11 * np.abs(ra.Mp).max())
    if exact:
        assert ra.products - ra.iterations == rb.products - rb.iterations - 1  # no start product


def test_sliding_steps_start_without_a_product():
    # a steady viscoelastic sliding step: the solver's products are its iterations (no start
    # product, no history product) while the extrapolation clips few elements
    (a, b), _ = _sliding_sims(steps=12)
    res = a.last
    assert a.history_products == 0
    assert res.products <= res.iterations + 1
    np.testing.assert_allclose(a.p, b.p, rtol=0, atol=1e-8 * a.p.max())
