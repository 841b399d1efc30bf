"""Fixed-step explicit integrators compiled with numba.

The loops take the system's right-hand-side kernel and the law's kernels as first-class
jitted functions, so one compiled loop serves every (system, law) pair. Protocol inputs
arrive pre-sampled on the half-step grid: ``U[k] = (velocity, normal_force, force)`` at
``t = k dt / 2`` (right limits; Euler reads the even rows only), and ``UL[i]`` holds the left
limits at ``t = i dt`` so that a stage evaluated at the end of a step does not see a jump
(a velocity step) that happens exactly at that instant.

Each loop returns ``-1`` on success, or the index of the first step whose state is not
finite (the caller turns that into an :class:`~frictionlab.core.errors.IntegrationError`).
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["euler_loop", "rk4_loop"]

_BLOWUP = 1e150


@njit(cache=True)
def _bad(y):
    for k in range(y.size):
        if not np.isfinite(y[k]) or abs(y[k]) > _BLOWUP:
            return True
    return False


@njit(cache=False)  # jitted-kernel arguments: never a cache hit, and the index grows until it breaks
def euler_loop(rhs, law_rates, law_friction, sp, lp, U, UL, y0, dt, n, stride, Y, F):
    """Explicit (forward) Euler: ``y += dt f(t, y)``; saves every ``stride`` steps."""
    y = y0.copy()
    k1 = np.empty_like(y)
    j = 0
    for i in range(n):
        f = rhs(y, U[2 * i], sp, law_rates, law_friction, lp, k1)
        if i % stride == 0:
            Y[j, :] = y
            F[j] = f
            j += 1
        for m in range(y.size):
            y[m] += dt * k1[m]
        if _bad(y):
            return i + 1
    F[j] = rhs(y, U[2 * n], sp, law_rates, law_friction, lp, k1)  # the final state is always saved
    Y[j, :] = y
    return -1


@njit(cache=False)  # jitted-kernel arguments: never a cache hit, and the index grows until it breaks
def rk4_loop(rhs, law_rates, law_friction, sp, lp, U, UL, y0, dt, n, stride, Y, F):
    """Classical fourth-order Runge-Kutta; saves every ``stride`` steps."""
    y = y0.copy()
    ny = y.size
    k1 = np.empty(ny)
    k2 = np.empty(ny)
    k3 = np.empty(ny)
    k4 = np.empty(ny)
    tmp = np.empty(ny)
    j = 0
    h2 = 0.5 * dt
    for i in range(n):
        f = rhs(y, U[2 * i], sp, law_rates, law_friction, lp, k1)
        if i % stride == 0:
            Y[j, :] = y
            F[j] = f
            j += 1
        for m in range(ny):
            tmp[m] = y[m] + h2 * k1[m]
        rhs(tmp, U[2 * i + 1], sp, law_rates, law_friction, lp, k2)
        for m in range(ny):
            tmp[m] = y[m] + h2 * k2[m]
        rhs(tmp, U[2 * i + 1], sp, law_rates, law_friction, lp, k3)
        for m in range(ny):
            tmp[m] = y[m] + dt * k3[m]
        rhs(tmp, UL[i + 1], sp, law_rates, law_friction, lp, k4)
        for m in range(ny):
            y[m] += dt / 6.0 * (k1[m] + 2.0 * k2[m] + 2.0 * k3[m] + k4[m])
        if _bad(y):
            return i + 1
    F[j] = rhs(y, U[2 * n], sp, law_rates, law_friction, lp, k1)  # the final state is always saved
    Y[j, :] = y
    return -1
