"""Rodas4 (``solve/integrate/rosenbrock.py``) against closed forms: accuracy at the samples (dense
output included), convergence with the tolerance, stiffness, and failure reporting."""

from __future__ import annotations

import math

import numpy as np
import pytest

from frictionlab.solve.integrate.rosenbrock import MAX_STATES, _inverse, rodas4


def _logistic(t):
    """y' = y (1 - y), y(0) = 0.1."""
    return 1.0 / (1.0 + 9.0 * np.exp(-t))


def _run_logistic(rtol, t_eval):
    return rodas4(lambda y: [y[0] * (1.0 - y[0])], lambda y: [[1.0 - 2.0 * y[0]]], 0.0, 10.0, [0.1], t_eval,
                  rtol=rtol, atol=rtol * 1e-3)


def test_logistic_samples_match_the_closed_form_and_converge_with_the_tolerance():
    te = np.linspace(0.01, 10.0, 997)  # most samples fall inside steps: dense output
    errs = []
    for rtol in (1e-6, 1e-8, 1e-10):
        r = _run_logistic(rtol, te)
        assert r.success and r.t_reached == 10.0 and r.y.shape == (997, 1)
        errs.append(np.max(np.abs(r.y[:, 0] - _logistic(te))))
        assert errs[-1] < 10 * rtol, (rtol, errs[-1])
        assert r.y_end[0] == pytest.approx(_logistic(10.0), rel=10 * rtol)
    # local error O(h^4) controlled: two decades of tolerance buy well over one decade of error
    assert errs[1] < errs[0] / 20 and errs[2] < errs[1] / 20, errs


def test_stiff_linear_system_with_eigenvalues_minus_one_and_minus_a_million():
    """y' = A y, A = P diag(-1, -1e6) P^-1: the closed form exp(At) y0. An explicit method is stable
    only for steps below ~3e-6 s (over 1e6 steps to t = 5 s); the L-stable one steps at the accuracy
    of the slow mode (423 steps measured at rtol 1e-9)."""
    P = np.array([[1.0, 1.0], [1.0, -2.0]])
    lam = np.array([-1.0, -1e6])
    A = P @ np.diag(lam) @ np.linalg.inv(P)
    y0 = np.array([2.0, 1.0])
    c = np.linalg.solve(P, y0)
    te = np.linspace(0.5, 5.0, 10)
    exact = (P @ (c[:, None] * np.exp(np.outer(lam, te)))).T
    r = rodas4(lambda y: (A @ np.array(y)).tolist(), lambda y: A.tolist(), 0.0, 5.0, y0, te, rtol=1e-9, atol=1e-12)
    assert r.success
    np.testing.assert_allclose(r.y, exact, rtol=1e-8, atol=1e-11)
    assert r.n_steps < 1000 and r.n_jev == r.n_steps  # one Jacobian per accepted step


def test_a_finite_time_blow_up_is_reported_with_the_time_reached():
    """y' = y^2, y(0) = 1 blows up at t = 1: the step size collapses there and the run says so."""
    te = np.array([0.5, 0.9, 1.5])
    r = rodas4(lambda y: [y[0] ** 2], lambda y: [[2.0 * y[0]]], 0.0, 2.0, [1.0], te, rtol=1e-8, atol=1e-10)
    assert not r.success and "step size" in r.message
    assert r.t_reached == pytest.approx(1.0, abs=1e-6)
    np.testing.assert_allclose(r.y[:2, 0], [2.0, 10.0], rtol=1e-7)  # samples before the failure are kept
    assert np.isnan(r.y[2, 0])


def test_max_steps_and_bad_arguments_are_refused():
    r = rodas4(lambda y: [-y[0]], lambda y: [[-1.0]], 0.0, 1.0, [1.0], [1.0], rtol=1e-12, atol=1e-14, max_steps=3)
    assert not r.success and "3 steps" in r.message
    with pytest.raises(ValueError, match="states"):
        rodas4(lambda y: y, lambda y: np.eye(MAX_STATES + 1).tolist(), 0.0, 1.0, [1.0] * (MAX_STATES + 1), [1.0],
               rtol=1e-6, atol=1e-9)
    with pytest.raises(ValueError, match="t1 > t0"):
        rodas4(lambda y: y, lambda y: [[1.0]], 1.0, 1.0, [1.0], [1.0], rtol=1e-6, atol=1e-9)


@pytest.mark.parametrize("n", [1, 2, 3, 5])
def test_the_inverse_of_each_step_matrix(n):
    rng = np.random.default_rng(n)
    for _ in range(20):
        a = rng.normal(size=(n, n)) + n * np.eye(n)
        inv = _inverse(a.tolist())
        np.testing.assert_allclose(np.array(inv) @ a, np.eye(n), atol=1e-12)
    assert _inverse(np.zeros((n, n)).tolist()) is None
    assert _inverse(np.full((n, n), math.nan).tolist()) is None
