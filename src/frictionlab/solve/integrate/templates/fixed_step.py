"""Template: the explicit Euler and classical RK4 loops (see :mod:`frictionlab.solve.integrate.compiled`)."""

import numpy as np
from numba import njit

# bound per specialisation by frictionlab.core.jitcache.specialise
rhs = law_rates = law_friction = None

_BLOWUP = 1e150


@njit(cache=True, inline="always")
def _ok(x):
    return np.isfinite(x) and abs(x) < _BLOWUP


@njit(cache=True)
def _save(Y, F, j, ys, z, f):
    ns = ys.size
    for m in range(ns):
        Y[j, m] = ys[m]
    for m in range(z.size):
        Y[j, ns + m] = z[m]
    F[j] = f


@njit(cache=True)
def euler(sp, lp, U, UL, ys0, z0, dt, n, stride, Y, F):
    return _euler(sp, lp, U, UL, ys0.copy(), z0.copy(), np.empty(ys0.size), np.empty(z0.size), dt, n, stride, Y, F)


@njit(cache=True, _nrt=False)
def _euler(sp, lp, U, UL, ys, z, ds, dz, dt, n, stride, Y, F):
    ns, nz = ys.size, z.size
    j = 0
    left = 0  # steps to the next save (a countdown: no division per step)
    for i in range(n):
        a = 2 * i
        f = rhs(ys, z, U[a, 0], U[a, 1], U[a, 2], sp, law_rates, law_friction, lp, ds, dz)
        if left == 0:
            _save(Y, F, j, ys, z, f)
            j += 1
            left = stride
        left -= 1
        good = True
        for m in range(ns):
            ys[m] += dt * ds[m]
            good &= _ok(ys[m])
        for m in range(nz):
            z[m] += dt * dz[m]
            good &= _ok(z[m])
        if not good:
            return i + 1
    f = rhs(ys, z, U[2 * n, 0], U[2 * n, 1], U[2 * n, 2], sp, law_rates, law_friction, lp, ds, dz)
    _save(Y, F, j, ys, z, f)  # the final state is always saved
    return -1


@njit(cache=True)
def rk4(sp, lp, U, UL, ys0, z0, dt, n, stride, Y, F):
    ws = np.empty((5, ys0.size))
    wz = np.empty((5, z0.size))
    return _rk4(sp, lp, U, UL, ys0.copy(), z0.copy(), ws[0], ws[1], ws[2], ws[3], ws[4], wz[0], wz[1], wz[2], wz[3],
                wz[4], dt, n, stride, Y, F)


@njit(cache=True, _nrt=False)
def _rk4(sp, lp, U, UL, ys, z, k1s, k2s, k3s, k4s, ts, k1z, k2z, k3z, k4z, tz, dt, n, stride, Y, F):
    ns, nz = ys.size, z.size
    h2 = 0.5 * dt
    h6 = dt / 6.0
    j = 0
    left = 0  # steps to the next save (a countdown: no division per step)
    for i in range(n):
        a = 2 * i
        f = rhs(ys, z, U[a, 0], U[a, 1], U[a, 2], sp, law_rates, law_friction, lp, k1s, k1z)
        if left == 0:
            _save(Y, F, j, ys, z, f)
            j += 1
            left = stride
        left -= 1
        for m in range(ns):
            ts[m] = ys[m] + h2 * k1s[m]
        for m in range(nz):
            tz[m] = z[m] + h2 * k1z[m]
        rhs(ts, tz, U[a + 1, 0], U[a + 1, 1], U[a + 1, 2], sp, law_rates, law_friction, lp, k2s, k2z)
        for m in range(ns):
            ts[m] = ys[m] + h2 * k2s[m]
        for m in range(nz):
            tz[m] = z[m] + h2 * k2z[m]
        rhs(ts, tz, U[a + 1, 0], U[a + 1, 1], U[a + 1, 2], sp, law_rates, law_friction, lp, k3s, k3z)
        for m in range(ns):
            ts[m] = ys[m] + dt * k3s[m]
        for m in range(nz):
            tz[m] = z[m] + dt * k3z[m]
        rhs(ts, tz, UL[i + 1, 0], UL[i + 1, 1], UL[i + 1, 2], sp, law_rates, law_friction, lp, k4s, k4z)
        good = True
        for m in range(ns):
            ys[m] += h6 * (k1s[m] + 2.0 * k2s[m] + 2.0 * k3s[m] + k4s[m])
            good &= _ok(ys[m])
        for m in range(nz):
            z[m] += h6 * (k1z[m] + 2.0 * k2z[m] + 2.0 * k3z[m] + k4z[m])
            good &= _ok(z[m])
        if not good:
            return i + 1
    f = rhs(ys, z, U[2 * n, 0], U[2 * n, 1], U[2 * n, 2], sp, law_rates, law_friction, lp, k1s, k1z)
    _save(Y, F, j, ys, z, f)  # the final state is always saved
    return -1
