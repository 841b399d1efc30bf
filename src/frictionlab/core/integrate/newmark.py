"""Newmark-beta for second-order (mass) systems, implicit in the law state.

Average-acceleration Newmark (gamma = 1/2, beta = 1/4 by default) for the slider, with
the law's internal state advanced by the trapezoidal rule; the coupled unknowns
``w = (a_{n+1}, z_{n+1})`` are solved by Newton's method with a finite-difference
Jacobian. This is unconditionally stable for the linear mechanics and robust for stiff
bristle laws (LuGre with large sigma0) where explicit schemes need tiny steps.

The state layout is that of :class:`~frictionlab.systems.mass.MassSystem`:
``y = [x_driver, x, xdot, z...]``.
"""

from __future__ import annotations

import numpy as np
from numba import njit

__all__ = ["newmark_loop"]


@njit(cache=False)  # jitted-kernel arguments: never a cache hit, and the index grows until it breaks
def _residual(w, y, a0, dz0, u1, dt, beta, gamma, rhs, law_rates, law_friction, sp, lp, y1, dy, r):
    a1 = w[0]
    # driver by the trapezoidal rule on its velocity input
    y1[0] = y[0] + 0.5 * dt * (dy[0] + u1[0])
    y1[1] = y[1] + dt * y[2] + dt * dt * ((0.5 - beta) * a0 + beta * a1)
    y1[2] = y[2] + dt * ((1.0 - gamma) * a0 + gamma * a1)
    nz = y.size - 3
    for m in range(nz):
        y1[3 + m] = w[1 + m]
    tmp = np.empty(y.size)
    f = rhs(y1, u1, sp, law_rates, law_friction, lp, tmp)
    r[0] = a1 - tmp[2]
    for m in range(nz):
        r[1 + m] = w[1 + m] - y[3 + m] - 0.5 * dt * (dz0[m] + tmp[3 + m])
    return f


@njit(cache=False)  # jitted-kernel arguments: never a cache hit, and the index grows until it breaks
def newmark_loop(rhs, law_rates, law_friction, sp, lp, U, UL, y0, dt, n, stride, Y, F, beta, gamma):
    y = y0.copy()
    ny = y.size
    nz = ny - 3
    nw = 1 + nz
    dy = np.empty(ny)
    y1 = np.empty(ny)
    r = np.empty(nw)
    r2 = np.empty(nw)
    J = np.empty((nw, nw))
    w = np.empty(nw)
    w2 = np.empty(nw)
    j = 0
    for i in range(n):
        f = rhs(y, U[2 * i], sp, law_rates, law_friction, lp, dy)
        if i % stride == 0:
            Y[j, :] = y
            F[j] = f
            j += 1
        a0 = dy[2]
        dz0 = dy[3:].copy()
        u1 = UL[i + 1]
        # predictor: explicit Euler for z, a1 = a0
        w[0] = a0
        for m in range(nz):
            w[1 + m] = y[3 + m] + dt * dz0[m]
        converged = False
        for it in range(30):
            _residual(w, y, a0, dz0, u1, dt, beta, gamma, rhs, law_rates, law_friction, sp, lp, y1, dy, r)
            norm = 0.0
            for m in range(nw):
                norm = max(norm, abs(r[m]))
            scale = 1.0 + abs(w[0])
            if norm <= 1e-12 * scale:
                converged = True
                break
            for c in range(nw):
                h = 1e-7 * (abs(w[c]) + 1e-7)
                for m in range(nw):
                    w2[m] = w[m]
                w2[c] += h
                _residual(w2, y, a0, dz0, u1, dt, beta, gamma, rhs, law_rates, law_friction, sp, lp, y1, dy, r2)
                for m in range(nw):
                    J[m, c] = (r2[m] - r[m]) / h
            delta = np.linalg.solve(J, r)
            for m in range(nw):
                w[m] -= delta[m]
        _residual(w, y, a0, dz0, u1, dt, beta, gamma, rhs, law_rates, law_friction, sp, lp, y1, dy, r)
        for m in range(ny):
            y[m] = y1[m]
        if not converged:
            # accept if the final residual is small, otherwise report this step
            norm = 0.0
            for m in range(nw):
                norm = max(norm, abs(r[m]))
            if not np.isfinite(norm) or norm > 1e-6 * (1.0 + abs(w[0])):
                return i + 1
        for m in range(ny):
            if not np.isfinite(y[m]):
                return i + 1
    F[j] = rhs(y, U[2 * n], sp, law_rates, law_friction, lp, dy)  # the final state is always saved
    Y[j, :] = y
    return -1
