"""Property-based invariants of the Kloss law forms (Hypothesis)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from frictionlab.laws.kloss import kloss, kloss_2d, kloss_curve
from frictionlab.reference import kloss as ref

pos = st.floats(1e-6, 1e3, allow_nan=False)
zetas = st.floats(0.0, 1.99)
vels = st.floats(-1e3, 1e3, allow_nan=False)


@settings(max_examples=200, deadline=None)
@given(v=vels, f_max=pos, v0=pos, zeta=zetas)
def test_odd_bounded_and_dissipative(v, f_max, v0, zeta):
    f = kloss(np.array([v, -v]), f_max, v0, zeta)
    assert f[0] == -f[1]
    assert abs(f[0]) <= f_max * (1 + 1e-12)
    assert v * f[0] >= 0.0  # the force opposes the slip: power v F >= 0 dissipated


@settings(max_examples=200, deadline=None)
@given(vx=vels, vy=vels, f_max=pos, v0=pos, zeta=zetas)
def test_multi_d_magnitude_is_1d_law(vx, vy, f_max, v0, zeta):
    fx, fy = kloss_2d(np.array([vx]), np.array([vy]), f_max, v0, zeta)
    mag = float(np.hypot(fx, fy)[0])
    assert np.isclose(mag, kloss(np.array([np.hypot(vx, vy)]), f_max, v0, zeta)[0], rtol=1e-12, atol=1e-300)


@settings(max_examples=100, deadline=None)
@given(f_max=pos, v0=pos, zeta=st.floats(0.0, 1.9))
def test_peak_is_global_maximum(f_max, v0, zeta):
    lam = ref.peak_velocity(v0, zeta)
    grid = lam * np.geomspace(1e-3, 1e3, 2001)
    f = kloss(grid, f_max, v0, zeta)
    assert f.max() <= kloss(np.array([lam]), f_max, v0, zeta)[0] * (1 + 1e-12)
    assert np.isclose(kloss(np.array([lam]), f_max, v0, zeta)[0], f_max, rtol=1e-12)


@settings(max_examples=100, deadline=None)
@given(x=vels, c=pos, x0=pos, z1=zetas)
def test_curve_with_zero_quadratic_is_kloss(x, c, x0, z1):
    assert np.isclose(kloss_curve(x, c, x0, z1, 0.0), kloss(np.array([x]), c, x0, z1)[0], rtol=1e-12, atol=1e-300)
