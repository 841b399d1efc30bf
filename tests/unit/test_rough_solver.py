"""Per-step contact solvers: PK, mean-field exact, Algorithm 1 (spec §3.5-3.7, §6.7)."""

import numpy as np
import pytest

from frictionlab.contact.rough.elasticity import BoussinesqFFT, MeanField, StepOperator
from frictionlab.contact.rough.solver import alg1_solve, check_solution, meanfield_solve, pk_solve
from frictionlab.contact.rough.surface import make_surface
from frictionlab.core.errors import IntegrationError, ParameterError


@pytest.fixture(scope="module")
def problem():
    h = make_surface(48, 48, beta_x=6.0, seed=7)
    W = 0.05 * 48 * 48 * 4e-4 * 10  # a few % contact
    return h, W


def test_pk_satisfies_complementarity_and_load(problem):
    h, W = problem
    op = StepOperator(BoussinesqFFT(48, 48))
    r = pk_solve(op, h, W, tol=1e-12)
    assert check_solution(r) == []
    assert r.p.min() >= 0
    assert abs(r.p.sum() - W) <= 1e-12 * W
    assert 0.005 < (r.p > 0).mean() < 0.2
    # gap from scratch
    gap = op.apply(r.p) - h + r.d
    assert np.max(np.abs(gap[r.p > 0])) < 1e-9
    assert gap[r.p == 0].min() > -1e-9


def test_pk_numba_and_array_paths_agree(problem):
    h, W = problem
    op = StepOperator(BoussinesqFFT(48, 48), c=1.1)
    a = pk_solve(op, h, W, tol=1e-12)
    b = pk_solve(op, h, W, tol=1e-12, use_numba=False)
    assert np.max(np.abs(a.p - b.p)) < 1e-9 * W
    assert a.d == pytest.approx(b.d, abs=1e-10)


def test_pk_with_diagonal_operator_equals_exact_meanfield(problem):
    h, W = problem
    mf = StepOperator(MeanField(16.0, 48, 48), c=1.2)
    ex = meanfield_solve(h, W, 16.0 * 1.2)
    pk = pk_solve(mf, h, W, tol=1e-13)
    assert np.array_equal(ex.p > 0, pk.p > 0)
    assert np.max(np.abs(ex.p - pk.p)) < 1e-10 * np.max(ex.p)
    assert pk.d == pytest.approx(ex.d, abs=1e-10)


def test_meanfield_exact_closed_relation(problem):
    h, W = problem
    m = np.random.default_rng(0).uniform(10, 20, h.shape)
    r = meanfield_solve(h, W, m)
    assert np.allclose(r.p, np.maximum(h - r.d, 0) / m, rtol=1e-12, atol=1e-15)
    assert r.p.sum() == pytest.approx(W, rel=1e-13)


def test_alg1_consistent_equals_pk(problem):
    h, W = problem
    op = StepOperator(BoussinesqFFT(48, 48))
    pk = pk_solve(op, h, W, tol=1e-12)
    a1 = alg1_solve(op, h, W, consistent=True, tol=1e-12)
    assert np.array_equal(a1.p > 0, pk.p > 0)
    assert np.max(np.abs(a1.p - pk.p)) < 1e-7 * np.max(pk.p)
    assert a1.d == pytest.approx(pk.d, abs=1e-8)
    # the paper's lagged form returns the corrected set for the next step and logs violations
    lag = alg1_solve(op, h, W, consistent=False)
    assert "next_active" in lag.info and lag.info["n_tensile"] + lag.info["n_penetrating"] >= 0


def test_warm_start_saves_iterations(problem):
    h, W = problem
    base = BoussinesqFFT(48, 48)
    cold = pk_solve(StepOperator(base, c=1.0), h, W)
    warm = pk_solve(StepOperator(base, c=1.01), h, W, p0=cold.p)
    again = pk_solve(StepOperator(base, c=1.01), h, W)
    assert warm.iterations < again.iterations
    assert np.allclose(warm.p, again.p, atol=1e-8 * W)


def test_periodic_pk(problem):
    h, W = problem
    op = StepOperator(BoussinesqFFT(48, 48, periodic=True))
    r = pk_solve(op, h, W, tol=1e-12)
    assert check_solution(r) == []


def test_bad_load_and_nonconvergence(problem):
    h, W = problem
    op = StepOperator(BoussinesqFFT(48, 48))
    with pytest.raises(ParameterError, match="W"):
        pk_solve(op, h, -1.0)
    with pytest.raises(ParameterError, match="W"):
        meanfield_solve(h, 0.0, 16.0)
    with pytest.raises(IntegrationError, match="step 17.*did not converge"):
        pk_solve(op, h, W, max_iter=2, step=17, time=3.0)


def test_array_cold_start_level_is_the_compiled_one_bit_for_bit():
    """The array path's mean-field cold start (``_meanfield_level``, no numba) returns the compiled
    scan's dilatation exactly: both add the sorted heights one by one."""
    from frictionlab.contact.rough import solver

    rng = np.random.default_rng(2)
    for n, W, m in ((1, 0.5, 1.0), (7, 3.0, 0.2), (4096, 40.0, 4 * 3.8), (4096, 1e5, 4 * 3.8)):
        gs = np.sort(rng.standard_normal(n))
        assert solver._meanfield_level(gs, W, m) == solver._nb_meanfield_level(gs, W, m)
    gs = np.sort(rng.standard_normal(256))
    p = solver._cold_start(StepOperator(BoussinesqFFT(16, 16, periodic=True)), gs.reshape(16, 16), 5.0, compiled=False)
    q = solver._cold_start(StepOperator(BoussinesqFFT(16, 16, periodic=True)), gs.reshape(16, 16), 5.0)
    assert np.array_equal(p, q) and np.count_nonzero(p) > 1
