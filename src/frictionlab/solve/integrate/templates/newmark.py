"""Template: the Newmark-beta loop of mass systems (see :mod:`frictionlab.solve.integrate.newmark`)."""

import numpy as np
from numba import njit

# bound per specialisation by frictionlab.core.jitcache.specialise
rhs = law_rates = law_friction = None


@njit(cache=True)
def residual(w, y, a0, dz0, u1, dt, beta, gamma, sp, lp, y1, dy, r):
    a1 = w[0]
    y1[0] = y[0] + 0.5 * dt * (dy[0] + u1[0])  # driver: trapezoidal rule on its velocity
    y1[1] = y[1] + dt * y[2] + dt * dt * ((0.5 - beta) * a0 + beta * a1)
    y1[2] = y[2] + dt * ((1.0 - gamma) * a0 + gamma * a1)
    nz = y.size - 3
    for m in range(nz):
        y1[3 + m] = w[1 + m]
    tmp = np.empty(y.size)
    f = rhs(y1[:3], y1[3:], u1[0], u1[1], u1[2], sp, law_rates, law_friction, lp, tmp[:3], tmp[3:])
    r[0] = a1 - tmp[2]
    for m in range(nz):
        r[1 + m] = w[1 + m] - y[3 + m] - 0.5 * dt * (dz0[m] + tmp[3 + m])
    return f


@njit(cache=True)
def loop(sp, lp, U, UL, ys0, z0, dt, n, stride, Y, F, beta, gamma):
    y = np.concatenate((ys0, z0))
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
        u0 = U[2 * i]
        f = rhs(y[:3], y[3:], u0[0], u0[1], u0[2], sp, law_rates, law_friction, lp, dy[:3], dy[3:])
        if i % stride == 0:
            Y[j, :] = y
            F[j] = f
            j += 1
        a0 = dy[2]
        dz0 = dy[3:].copy()
        u1 = UL[i + 1]
        # predictor: a1 = a0, explicit Euler for z; then Newton with a finite-difference Jacobian
        w[0] = a0
        for m in range(nz):
            w[1 + m] = y[3 + m] + dt * dz0[m]
        converged = False
        for it in range(30):
            residual(w, y, a0, dz0, u1, dt, beta, gamma, sp, lp, y1, dy, r)
            norm = 0.0
            for m in range(nw):
                norm = max(norm, abs(r[m]))
            if norm <= 1e-12 * (1.0 + abs(w[0])):
                converged = True
                break
            for c in range(nw):
                h = 1e-7 * (abs(w[c]) + 1e-7)
                for m in range(nw):
                    w2[m] = w[m]
                w2[c] += h
                residual(w2, y, a0, dz0, u1, dt, beta, gamma, sp, lp, y1, dy, r2)
                for m in range(nw):
                    J[m, c] = (r2[m] - r[m]) / h
            delta = np.linalg.solve(J, r)
            for m in range(nw):
                w[m] -= delta[m]
        residual(w, y, a0, dz0, u1, dt, beta, gamma, sp, lp, y1, dy, r)
        for m in range(ny):
            y[m] = y1[m]
        if not converged:
            norm = 0.0
            for m in range(nw):
                norm = max(norm, abs(r[m]))
            if not np.isfinite(norm) or norm > 1e-6 * (1.0 + abs(w[0])):
                return i + 1
        for m in range(ny):
            if not np.isfinite(y[m]):
                return i + 1
    un = U[2 * n]
    F[j] = rhs(y[:3], y[3:], un[0], un[1], un[2], sp, law_rates, law_friction, lp, dy[:3], dy[3:])
    Y[j, :] = y  # the final state is always saved
    return -1
