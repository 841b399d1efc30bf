"""Fixed-step explicit integrators compiled with numba.

:func:`fixed_step_loops` builds, once per ``(system rhs, law rates, law friction)`` triple,
an explicit-Euler and a classical RK4 loop in which the three kernels are compile-time
constants: numba inlines the small kernels (declared ``inline="always"``) and the loop runs
with no Python work, no allocation and no reference counting per step.

State is kept as two arrays, the system's ``ys`` and the law's ``z``, and the system kernel
is ``rhs(ys, z, v, normal_force, force, sp, law_rates, law_friction, lp, dys, dz) -> F``.
Protocol inputs arrive pre-sampled on the half-step grid: ``U[k] = (velocity, normal_force,
force)`` at ``t = k dt / 2`` (right limits; Euler reads the even rows only), and ``UL[i]``
holds the left limits at ``t = i dt`` so that a stage at the end of a step does not see a
jump (a velocity step) that happens exactly at that instant.

Each loop saves every ``stride``-th step and the final step into ``Y`` (states, system
first) and ``F`` (friction), and returns ``-1`` on success or the index of the first step
whose state is not finite or beyond 1e150 (the caller raises
:class:`~frictionlab.core.errors.IntegrationError`).

Notes
-----
Compiled closures are cached per process (``functools.lru_cache``), not on disk: numba's
disk cache cannot key functions that capture other jitted functions.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

__all__ = ["fixed_step_loops"]

_BLOWUP = 1e150


@njit(inline="always")
def _ok(x):
    return np.isfinite(x) and abs(x) < _BLOWUP


@lru_cache(maxsize=None)
def fixed_step_loops(rhs, law_rates, law_friction):
    """Return ``(euler, rk4)`` loops specialised for one system and one law.

    Both have the signature ``loop(sp, lp, U, UL, ys0, z0, dt, n, stride, Y, F) -> int``.
    """

    @njit
    def _save(Y, F, j, ys, z, f):
        ns = ys.size
        for m in range(ns):
            Y[j, m] = ys[m]
        for m in range(z.size):
            Y[j, ns + m] = z[m]
        F[j] = f

    @njit
    def euler(sp, lp, U, UL, ys0, z0, dt, n, stride, Y, F):
        ys = ys0.copy()
        z = z0.copy()
        ns, nz = ys.size, z.size
        ds = np.empty(ns)
        dz = np.empty(nz)
        j = 0
        for i in range(n):
            a = 2 * i
            f = rhs(ys, z, U[a, 0], U[a, 1], U[a, 2], sp, law_rates, law_friction, lp, ds, dz)
            if i % stride == 0:
                _save(Y, F, j, ys, z, f)
                j += 1
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

    @njit
    def rk4(sp, lp, U, UL, ys0, z0, dt, n, stride, Y, F):
        ys = ys0.copy()
        z = z0.copy()
        ns, nz = ys.size, z.size
        k1s, k2s, k3s, k4s, ts = np.empty(ns), np.empty(ns), np.empty(ns), np.empty(ns), np.empty(ns)
        k1z, k2z, k3z, k4z, tz = np.empty(nz), np.empty(nz), np.empty(nz), np.empty(nz), np.empty(nz)
        h2 = 0.5 * dt
        h6 = dt / 6.0
        j = 0
        for i in range(n):
            a = 2 * i
            f = rhs(ys, z, U[a, 0], U[a, 1], U[a, 2], sp, law_rates, law_friction, lp, k1s, k1z)
            if i % stride == 0:
                _save(Y, F, j, ys, z, f)
                j += 1
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

    return euler, rk4
