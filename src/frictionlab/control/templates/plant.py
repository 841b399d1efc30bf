"""Template: RK4 of the servo plant ``x' = v, m v' = u - F(z, v, N), z' = rates`` (see
:func:`frictionlab.control.kernels.plant_stepper`); free names ``rates`` and ``friction`` (the plant
law's kernels), bound per specialisation by :func:`frictionlab.core.jitcache.specialise`."""

import numpy as np
from numba import njit

from frictionlab.control.kernels import _BLOWUP

# bound per specialisation by frictionlab.core.jitcache.specialise
rates = friction = None


@njit(inline="always", cache=True)
def accel(v, z, u, fn, lp, inv_m, fs, dz):
    f = fs * friction(z, v, fn, lp)
    if z.size:
        rates(z, v, fn, lp, dz)
    return (u - f) * inv_m

@njit(cache=True)
def advance(y, z, u, fn, lp, inv_m, fs, dt, n, w):
    nz = z.size
    k1, k2, k3, k4, tz = w[0], w[1], w[2], w[3], w[4]
    h2 = 0.5 * dt
    h6 = dt / 6.0
    x, v = y[0], y[1]
    for _ in range(n):
        a1 = accel(v, z, u, fn, lp, inv_m, fs, k1)
        v1 = v
        for m in range(nz):
            tz[m] = z[m] + h2 * k1[m]
        v2 = v + h2 * a1
        a2 = accel(v2, tz, u, fn, lp, inv_m, fs, k2)
        for m in range(nz):
            tz[m] = z[m] + h2 * k2[m]
        v3 = v + h2 * a2
        a3 = accel(v3, tz, u, fn, lp, inv_m, fs, k3)
        for m in range(nz):
            tz[m] = z[m] + dt * k3[m]
        v4 = v + dt * a3
        a4 = accel(v4, tz, u, fn, lp, inv_m, fs, k4)
        x += h6 * (v1 + 2.0 * v2 + 2.0 * v3 + v4)
        v += h6 * (a1 + 2.0 * a2 + 2.0 * a3 + a4)
        good = np.isfinite(x) and np.isfinite(v) and abs(v) < _BLOWUP
        for m in range(nz):
            z[m] += h6 * (k1[m] + 2.0 * k2[m] + 2.0 * k3[m] + k4[m])
            good &= np.isfinite(z[m]) and abs(z[m]) < _BLOWUP
        if not good:
            return False
    y[0] = x
    y[1] = v
    return True

@njit(cache=True)
def force(z, v, fn, lp, fs):
    return fs * friction(z, v, fn, lp)
