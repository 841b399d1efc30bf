"""The self-affine generator keeps the same Fourier modes, and so the same surface in pixel
units, at every pixel size: the band edges are compared in dimensionless wavenumbers with a
relative tolerance (``self_affine.BAND_RTOL``), never as two separately rounded rad/m values."""

from __future__ import annotations

import math

import numpy as np
import pytest

from frictionlab.contact.rough import rms_slope, self_affine_surface
from frictionlab.contact.rough.self_affine import BAND_RTOL, self_affine_psd

#: 30 pixel sizes from 1 nm to 1 m
PIXELS = np.geomspace(1e-9, 1.0, 30)


def _kept_modes(h: np.ndarray) -> np.ndarray:
    """Boolean map of the Fourier modes present in a map (above the round-off floor)."""
    H = np.abs(np.fft.fft2(h))
    return H > 1e-9 * H.max()


@pytest.mark.parametrize("shape", [64, 63, (48, 33)])
@pytest.mark.parametrize("target", ["rms_slope", "rms_height"])
def test_same_request_same_surface_in_pixel_units_at_every_pixel_size(shape, target):
    """Old code: at 1e-6 m pixels the fundamental was dropped (the 512^2, rms slope 0.1 request gave
    rms height 1.506 pixels at 1 um and 2.174 at 1 mm)."""
    ref = None
    for a in PIXELS:
        kw = {"rms_slope": 0.1} if target == "rms_slope" else {"rms_height": 3.0 * a}
        h = self_affine_surface(shape, a, hurst=0.8, seed=1, **kw) / a
        if ref is None:
            ref = h
            continue
        np.testing.assert_allclose(h, ref, rtol=0, atol=1e-11 * np.abs(ref).max(), err_msg=f"pixel size {a:g} m")


def test_issue_example_rms_height_independent_of_pixel_size():
    r = [self_affine_surface(512, a, hurst=0.8, rms_slope=0.1, seed=1).std() / a for a in (1e-6, 1e-3)]
    assert r[0] == pytest.approx(r[1], rel=1e-12)


@pytest.mark.parametrize("a", [1e-7, 1e-6, 1e-3, 0.37])
def test_default_band_has_the_fundamental_and_the_whole_nyquist_circle(a):
    """Default band: every mode with 2 pi/L <= q <= pi/a. Old code lost 18 modes on the Nyquist
    circle at 200 x 0.1 um and the fundamental at other sizes."""
    n = 200
    h = self_affine_surface(n, a, hurst=0.8, rms_height=1e-3 * a, seed=4)
    k = np.fft.fftfreq(n, 1.0 / n)
    k2 = k[:, None] ** 2 + k[None, :] ** 2  # integer wavenumber indices, squared
    expected = (k2 >= 1) & (k2 <= (n // 2) ** 2)
    np.testing.assert_array_equal(_kept_modes(h), expected)
    assert np.count_nonzero(expected & (k2 == (n // 2) ** 2)) == 18  # on the Nyquist circle


def test_given_cut_offs_that_equal_mode_wavenumbers_keep_those_modes():
    """q_long = 3 x fundamental and q_short = 40 x fundamental, as a user computes them in rad/m."""
    n = 128
    k = np.fft.fftfreq(n, 1.0 / n)
    k2 = k[:, None] ** 2 + k[None, :] ** 2
    expected = (k2 >= 9) & (k2 <= 1600)
    for a in PIXELS:
        L = n * a
        h = self_affine_surface(n, a, hurst=0.5, rms_slope=0.2, q_long=3 * 2 * math.pi / L,
                                q_rolloff=6 * 2 * math.pi / L, q_short=40 * 2 * math.pi / L, seed=2)
        np.testing.assert_array_equal(_kept_modes(h), expected, err_msg=f"pixel size {a:g} m")
        assert rms_slope(h, a) == pytest.approx(0.2, rel=1e-12)


def test_psd_band_edges_have_a_relative_tolerance():
    q = np.array([1.0 - 0.1 * BAND_RTOL, 1.0 - 10 * BAND_RTOL, 2.0 + 0.1 * BAND_RTOL, 2.0 + 10 * BAND_RTOL])
    c = self_affine_psd(q, 0.8, 1.0, 1.5, 2.0)
    assert c[0] > 0 and c[1] == 0 and c[2] > 0 and c[3] == 0
