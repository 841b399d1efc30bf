"""The numpy backend at one thread transforms with numpy.fft and gives scipy.fft's bits (issue 19)."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.fft as sf

from frictionlab.contact.rough.backend import Backend
from frictionlab.contact.rough.elasticity import BoussinesqFFT

# odd, even, prime, non-square: numpy.fft scales each inverse pass, scipy.fft a 2-D inverse once
SHAPES = [(8, 8), (31, 32), (63, 65), (100, 60), (127, 127), (97, 256)]


@pytest.mark.parametrize("shape", SHAPES)
def test_one_thread_numpy_transforms_equal_scipy_bit_for_bit(shape):
    be = Backend("numpy", workers=1)
    nx, ny = shape
    rng = np.random.default_rng(nx * ny)
    x = rng.standard_normal(shape)
    X = sf.rfft2(x, workers=1) * rng.random((nx, ny // 2 + 1))
    np.testing.assert_array_equal(be.rfft2(x), sf.rfft2(x, workers=1))
    np.testing.assert_array_equal(be.irfft2(X, s=shape), sf.irfft2(X, s=shape, workers=1))
    np.testing.assert_array_equal(be.irfft2(X[: nx // 2], s=shape), sf.irfft2(X[: nx // 2], s=shape, workers=1))
    np.testing.assert_array_equal(be.rfft(x, n=2 * ny, axis=1), sf.rfft(x, n=2 * ny, axis=1, workers=1))
    np.testing.assert_array_equal(be.fft(X, n=2 * nx, axis=0), sf.fft(X, n=2 * nx, axis=0, workers=1))
    np.testing.assert_array_equal(be.ifft(X, n=2 * nx, axis=0), sf.ifft(X, n=2 * nx, axis=0, workers=1))
    np.testing.assert_array_equal(be.irfft(X, n=2 * ny, axis=1), sf.irfft(X, n=2 * ny, axis=1, workers=1))


@pytest.mark.parametrize("periodic", [True, False])
@pytest.mark.parametrize("shape", [(63, 65), (100, 60)])
def test_operator_product_unchanged_by_the_transform_library(periodic, shape):
    """``K p`` at one thread (numpy.fft) equals the product through scipy.fft bit for bit."""
    op = BoussinesqFFT(*shape, periodic=periodic, workers=1)
    ref = BoussinesqFFT(*shape, periodic=periodic, workers=2)  # two threads: scipy.fft
    assert op.be._numpy_fft(np.zeros(1)) and not ref.be._numpy_fft(np.zeros(1))
    p = np.random.default_rng(1).random(shape)
    np.testing.assert_array_equal(op.apply(p), ref.apply(p))


def test_single_precision_and_threads_stay_with_scipy():
    x = np.random.default_rng(2).random((16, 12)).astype(np.float32)
    assert Backend("numpy", workers=1).rfft2(x).dtype == np.complex64  # scipy keeps single precision
    assert not Backend("numpy", workers=2)._numpy_fft(np.zeros(1))
