"""FFT Boussinesq operator of the rough-contact model (spec §3.2)."""

import numpy as np
import pytest

from frictionlab.contact.rough.elasticity import (SQUARE_SELF_COEF, BoussinesqFFT, MeanField, StepOperator,
                                                  brute_force_apply)
from frictionlab.core.errors import ParameterError


@pytest.mark.parametrize("shape", [(16, 16), (17, 9), (1, 5)])
@pytest.mark.parametrize("self_coef", [3.8, "square"])
def test_fft_equals_brute_force(shape, self_coef):
    x = np.random.default_rng(1).standard_normal(shape)
    op = BoussinesqFFT(*shape, dx=0.5, self_coef=self_coef)
    a = op.apply(x)
    b = brute_force_apply(x, dx=0.5, self_coef=self_coef)
    assert np.max(np.abs(a - b)) / np.max(np.abs(b)) < 1e-13


def test_kernel_spd_and_min_eigenvalue():
    n = 24
    op = BoussinesqFFT(n, n)
    K = np.column_stack([op.apply(e.reshape(n, n)).ravel() for e in np.eye(n * n)])
    assert np.allclose(K, K.T, atol=1e-12)
    ev = np.linalg.eigvalsh(0.5 * (K + K.T))
    assert ev.min() > 0
    assert ev.min() == pytest.approx(2.19, abs=0.01)  # spec §3.2
    op2 = BoussinesqFFT(n, n, self_coef="square")
    K2 = np.column_stack([op2.apply(e.reshape(n, n)).ravel() for e in np.eye(n * n)])
    assert np.linalg.eigvalsh(0.5 * (K2 + K2.T)).min() == pytest.approx(1.91, abs=0.01)


def test_square_self_coefficient_value():
    assert SQUARE_SELF_COEF == pytest.approx(3.525494348078172, rel=1e-14)


def test_periodic_operator_is_symmetric_and_translation_invariant():
    n = 16
    op = BoussinesqFFT(n, n, periodic=True)
    rng = np.random.default_rng(0)
    x, y = rng.standard_normal((2, n, n))
    assert np.sum(y * op.apply(x)) == pytest.approx(np.sum(x * op.apply(y)), rel=1e-12)
    assert np.allclose(op.apply(np.roll(x, 3, axis=0)), np.roll(op.apply(x), 3, axis=0), atol=1e-12)
    # continuum spectral kernel: a cosine mode is an eigenfunction with eigenvalue 2 pi/|q|
    q = 2 * np.pi * 2 / n
    mode = np.cos(q * np.arange(n))[:, None] * np.ones((1, n))
    assert np.allclose(op.apply(mode), 2 * np.pi / q * mode, atol=1e-12)


def test_step_operator_and_meanfield():
    n = 8
    base = BoussinesqFFT(n, n)
    x = np.random.default_rng(3).random((n, n))
    D = np.full((n, n), 0.3)
    op = StepOperator(base, c=1.2, diag=D)
    assert np.allclose(op.apply(x), 1.2 * base.apply(x) + 0.3 * x, atol=1e-13)
    assert np.allclose(op.diagonal(), 1.2 * 3.8 + 0.3)
    mf = MeanField(16.0, n, n)
    assert np.allclose(StepOperator(mf, c=1.2).apply(x), 19.2 * x)


@pytest.mark.parametrize("kw, field", [({"dx": 0.0}, "dx"), ({"self_coef": -1.0}, "self_coef"),
                                       ({"self_coef": "bogus"}, "self_coef")])
def test_bad_operator_input(kw, field):
    with pytest.raises(ParameterError, match=field):
        BoussinesqFFT(4, 4, **kw)
    with pytest.raises(ParameterError, match="C0"):
        MeanField(0.0)


def test_patch_kernel_matches_quadrature():
    from scipy import integrate

    from frictionlab.contact.rough.elasticity import patch_kernel_values

    assert float(patch_kernel_values(np.array(0.0), np.array(0.0))) == pytest.approx(SQUARE_SELF_COEF, rel=1e-14)
    for a, b in ((1, 0), (2, -3), (-4, 1)):
        q = integrate.dblquad(lambda y, x: 1 / np.hypot(x, y), a - 0.5, a + 0.5, b - 0.5, b + 0.5, epsabs=1e-13)[0]
        assert float(patch_kernel_values(np.array(float(a)), np.array(float(b)))) == pytest.approx(q, rel=1e-10)
    # patch-kernel operator is still an exact FFT convolution of its own kernel
    op = BoussinesqFFT(9, 7, kernel="patch")
    x = np.random.default_rng(2).standard_normal((9, 7))
    ii, jj = np.meshgrid(np.arange(9), np.arange(7), indexing="ij")
    A = patch_kernel_values((ii.ravel()[:, None] - ii.ravel()[None, :]).astype(float),
                            (jj.ravel()[:, None] - jj.ravel()[None, :]).astype(float))
    assert np.allclose(op.apply(x).ravel(), A @ x.ravel(), rtol=1e-12, atol=1e-12)
