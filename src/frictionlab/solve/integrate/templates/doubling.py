"""Template: the step-doubling check of the fixed-step loops (see :mod:`frictionlab.solve.integrate.guard`)."""

import numpy as np
from numba import njit

# bound per specialisation by frictionlab.core.jitcache.specialise
rhs = law_rates = law_friction = None


@njit(cache=True)
def ev(y, u, ns, sp, lp, out):
    return rhs(y[:ns], y[ns:], u[0], u[1], u[2], sp, law_rates, law_friction, lp, out[:ns], out[ns:])


@njit(cache=True)
def step(y, ua, um, ub, h, rk4, ns, sp, lp, out, k1, k2, k3, k4, tmp):
    ev(y, ua, ns, sp, lp, k1)
    if not rk4:
        for m in range(y.size):
            out[m] = y[m] + h * k1[m]
        return
    for m in range(y.size):
        tmp[m] = y[m] + 0.5 * h * k1[m]
    ev(tmp, um, ns, sp, lp, k2)
    for m in range(y.size):
        tmp[m] = y[m] + 0.5 * h * k2[m]
    ev(tmp, um, ns, sp, lp, k3)
    for m in range(y.size):
        tmp[m] = y[m] + h * k3[m]
    ev(tmp, ub, ns, sp, lp, k4)
    for m in range(y.size):
        out[m] = y[m] + h / 6.0 * (k1[m] + 2.0 * k2[m] + 2.0 * k3[m] + k4[m])


@njit(cache=True)
def check(sp, lp, Y, rows, Uq, dt, ns, rk4, ratio, floor, force_rel, force_scale, gross, trips):
    ny = Y.shape[1]
    full, half, half2 = np.empty(ny), np.empty(ny), np.empty(ny)
    k1, k2, k3, k4, tmp = np.empty(ny), np.empty(ny), np.empty(ny), np.empty(ny), np.empty(ny)
    first, count, n_gross = -1, 0, 0
    for c in range(rows.size):
        y = Y[rows[c]]
        u = Uq[c]
        step(y, u[0], u[2], u[4], dt, rk4, ns, sp, lp, full, k1, k2, k3, k4, tmp)
        step(y, u[0], u[1], u[2], 0.5 * dt, rk4, ns, sp, lp, half, k1, k2, k3, k4, tmp)
        step(half, u[2], u[3], u[4], 0.5 * dt, rk4, ns, sp, lp, half2, k1, k2, k3, k4, tmp)
        tripped = False
        for m in range(ny):
            err = abs(full[m] - half2[m])
            change = abs(half2[m] - y[m])
            if not np.isfinite(err) or err > ratio * max(change, floor[m]) + 1e-12 * abs(y[m]) + 1e-300:
                tripped = True
                break
        # far beyond the limit the ratio above tends to 1; the two results then disagree on the
        # friction force by as much as the force itself
        f_err = abs(ev(full, u[4], ns, sp, lp, k1) - ev(half2, u[4], ns, sp, lp, k1))
        if not tripped:
            f_y = ev(y, u[0], ns, sp, lp, k1)
            tripped = not np.isfinite(f_err) or f_err > force_rel * max(abs(f_y), force_scale) + 1e-300
        trips[c] = tripped
        if tripped:
            if first < 0:
                first = c
            count += 1
            if not np.isfinite(f_err) or f_err > gross * force_scale:
                n_gross += 1
    return first, count, n_gross
