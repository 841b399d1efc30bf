"""Template: the estimator pieces built on a *model* law's kernels (see
:func:`frictionlab.control.kernels.model_tools`) and the two estimators of the closed loop that use
them, ``observer_*`` (state observer / feedforward model, modes 1 and 2) and ``ekf_*`` (extended
Kalman filter, mode 3); free names ``rates`` and ``friction`` (the model law's kernels), bound per
specialisation by :func:`frictionlab.core.jitcache.specialise`."""

import numpy as np
from numba import njit

from frictionlab.control.kernels import _BLOWUP, _covariance_predict, _kalman_update

# bound per specialisation by frictionlab.core.jitcache.specialise
rates = friction = None


@njit(cache=True)
def integrate(z, v, fn, p, corr, h, n, w):
    nz = z.size
    if nz == 0:
        return True
    k1, k2, k3, k4, tz = w[0], w[1], w[2], w[3], w[4]
    for _ in range(n):
        rates(z, v, fn, p, k1)
        for m in range(nz):
            k1[m] -= corr
            tz[m] = z[m] + 0.5 * h * k1[m]
        rates(tz, v, fn, p, k2)
        for m in range(nz):
            k2[m] -= corr
            tz[m] = z[m] + 0.5 * h * k2[m]
        rates(tz, v, fn, p, k3)
        for m in range(nz):
            k3[m] -= corr
            tz[m] = z[m] + h * k3[m]
        rates(tz, v, fn, p, k4)
        good = True
        for m in range(nz):
            k4[m] -= corr
            z[m] += h / 6.0 * (k1[m] + 2.0 * k2[m] + 2.0 * k3[m] + k4[m])
            good &= np.isfinite(z[m]) and abs(z[m]) < _BLOWUP
        if not good:
            return False
    return True

@njit(cache=True)
def force(z, v, fn, p, fs):
    return fs * friction(z, v, fn, p)

@njit(cache=True)
def _set_params(s, p, idx, nz):
    for j in range(idx.size):
        p[idx[j]] = s[2 + nz + j]

@njit(cache=True)
def _f(s, u, fn, p, nz, inv_m, fs, ds):
    z = s[2:2 + nz]
    v = s[1]
    ds[0] = v
    ds[1] = (u - fs * friction(z, v, fn, p)) * inv_m
    for m in range(2 + nz, s.size):
        ds[m] = 0.0
    if nz:
        rates(z, v, fn, p, ds[2:2 + nz])

@njit(cache=True)
def ekf_update(s, P, xm, vm, rx, rv, use_v):
    _kalman_update(s, P, xm, vm, rx, rv, use_v)

@njit(cache=True)
def ekf_predict(s, P, u, fn, p, idx, nz, inv_m, fs, Ts, n, qdiag, lo):
    ns = s.size
    _set_params(s, p, idx, nz)
    A = np.empty((ns, ns))
    fp = np.empty(ns)
    fm = np.empty(ns)
    sp = s.copy()
    for j in range(ns):
        hj = 1e-7 * max(abs(s[j]), 1e-6 if j < 2 else 1e-9)
        if j >= 2 + nz:
            hj = 1e-6 * max(abs(s[j]), lo[j - 2 - nz])
        sp[j] = s[j] + hj
        _set_params(sp, p, idx, nz)
        _f(sp, u, fn, p, nz, inv_m, fs, fp)
        sp[j] = s[j] - hj
        _set_params(sp, p, idx, nz)
        _f(sp, u, fn, p, nz, inv_m, fs, fm)
        sp[j] = s[j]
        for i in range(ns):
            A[i, j] = (fp[i] - fm[i]) / (2.0 * hj)
    _covariance_predict(P, A, Ts, qdiag)
    # mean: RK4 over n sub-steps with the parameters held
    _set_params(s, p, idx, nz)
    h = Ts / n
    k1, k2, k3, k4, ts = np.empty(ns), np.empty(ns), np.empty(ns), np.empty(ns), np.empty(ns)
    for _ in range(n):
        _f(s, u, fn, p, nz, inv_m, fs, k1)
        for i in range(ns):
            ts[i] = s[i] + 0.5 * h * k1[i]
        _f(ts, u, fn, p, nz, inv_m, fs, k2)
        for i in range(ns):
            ts[i] = s[i] + 0.5 * h * k2[i]
        _f(ts, u, fn, p, nz, inv_m, fs, k3)
        for i in range(ns):
            ts[i] = s[i] + h * k3[i]
        _f(ts, u, fn, p, nz, inv_m, fs, k4)
        for i in range(ns):
            s[i] += h / 6.0 * (k1[i] + 2.0 * k2[i] + 2.0 * k3[i] + k4[i])
    good = True
    for j in range(idx.size):  # parameters stay in their physical range (positive)
        if s[2 + nz + j] < lo[j]:
            s[2 + nz + j] = lo[j]
    for i in range(ns):
        good &= np.isfinite(s[i]) and abs(s[i]) < _BLOWUP
    return good

@njit(cache=True)
def ekf_force(s, fn, p, idx, nz, fs):
    _set_params(s, p, idx, nz)
    return fs * friction(s[2:2 + nz], s[1], fn, p)


@njit(cache=True)
def ekf_estimate(mode, zm, s, P, p, mp, xm, vm, e, vr, fnm, rx, rv, use_v, idx, fsm, kobs, feed):
    ekf_update(s, P, xm, vm, rx, rv, use_v)
    return ekf_force(s, fnm, p, idx, s.size - 2 - idx.size, fsm)

@njit(cache=True)
def ekf_propagate(mode, zm, s, P, p, mp, u, vm, e, vr, fnm, idx, inv_mm, fsm, Ts, nest, qdiag, lo, wm):
    return ekf_predict(s, P, u, fnm, p, idx, s.size - 2 - idx.size, inv_mm, fsm, Ts, nest, qdiag, lo)


@njit(cache=True)
def observer_estimate(mode, zm, s, P, p, mp, xm, vm, e, vr, fnm, rx, rv, use_v, idx, fsm, kobs, feed):
    if mode == 1:
        return force(zm, vr, fnm, mp, fsm)
    return force(zm, vm, fnm, mp, fsm) - feed * kobs * e

@njit(cache=True)
def observer_propagate(mode, zm, s, P, p, mp, u, vm, e, vr, fnm, idx, inv_mm, fsm, Ts, nest, qdiag, lo, wm):
    if mode == 1:
        return integrate(zm, vr, fnm, mp, 0.0, Ts / nest, nest, wm)
    return integrate(zm, vm, fnm, mp, e, Ts / nest, nest, wm)
