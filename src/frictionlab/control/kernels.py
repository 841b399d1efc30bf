"""Compiled building blocks of the closed loop, specialised per friction law.

Each factory is cached per law kernels (``functools.lru_cache``), so one law compiles its
pieces once per process and a ``(plant law, model law)`` pair only compiles the small outer
loop of :mod:`frictionlab.control.loop`.

* :func:`plant_stepper` -- RK4 of the plant ``x' = v, m v' = u - F(z, v, N), z' = rates``
  over ``n`` steps of ``dt`` at a held (zero-order-hold) actuator force ``u``.
* :func:`model_tools` -- the estimator pieces built on a *model* law's kernels: the state
  observer/feedforward integrator (RK4 with an additive correction ``-k e`` on every state
  rate) and the extended Kalman filter (measurement update, prediction with a Jacobian
  from central differences through the law's kernels and a Taylor scaling-and-squaring
  matrix exponential).

Forces of stress-based laws (``force_units == "Pa"``) are multiplied by the contact area
``fs`` and their normal input is the normal force divided by it (the caller passes both).
"""

from __future__ import annotations

import math
from functools import lru_cache

import numpy as np
from numba import njit

__all__ = ["plant_stepper", "model_tools", "quantise"]

_BLOWUP = 1e150


@njit(inline="always")
def quantise(x, q):
    """Round ``x`` to the sensor resolution ``q`` (no rounding when ``q <= 0``)."""
    if q > 0.0:
        return q * math.floor(x / q + 0.5)
    return x


@njit(cache=True)
def _matmul(A, B, out):
    n, m, q = A.shape[0], A.shape[1], B.shape[1]
    for i in range(n):
        for j in range(q):
            acc = 0.0
            for k in range(m):
                acc += A[i, k] * B[k, j]
            out[i, j] = acc


@njit(cache=True)
def _expm(A, out):
    """exp(A) by scaling and squaring of a degree-10 Taylor polynomial (A small, dense)."""
    n = A.shape[0]
    norm = 0.0
    for i in range(n):
        r = 0.0
        for j in range(n):
            r += abs(A[i, j])
        norm = max(norm, r)
    sq = 0
    if norm > 0.25:
        sq = int(math.ceil(math.log2(norm / 0.25)))
    scale = 1.0 / (2.0 ** sq)
    As = np.empty((n, n))
    term = np.zeros((n, n))
    tmp = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            As[i, j] = A[i, j] * scale
            out[i, j] = 0.0
        term[i, i] = 1.0
        out[i, i] = 1.0
    for k in range(1, 11):
        _matmul(term, As, tmp)
        for i in range(n):
            for j in range(n):
                term[i, j] = tmp[i, j] / k
                out[i, j] += term[i, j]
    for _ in range(sq):
        _matmul(out, out, tmp)
        for i in range(n):
            for j in range(n):
                out[i, j] = tmp[i, j]


@njit(cache=True)
def _kalman_update(s, P, xm, vm, rx, rv, use_v):
    """Measurement update with H = [1, 0, ...] (and [0, 1, ...] when ``use_v``), Joseph-free form."""
    n = s.size
    nm = 2 if use_v else 1
    S = np.empty((2, 2))
    S[0, 0] = P[0, 0] + rx * rx
    S[0, 1] = P[0, 1]
    S[1, 0] = P[1, 0]
    S[1, 1] = P[1, 1] + rv * rv
    if use_v:
        det = S[0, 0] * S[1, 1] - S[0, 1] * S[1, 0]
        i00, i01, i10, i11 = S[1, 1] / det, -S[0, 1] / det, -S[1, 0] / det, S[0, 0] / det
    else:
        i00, i01, i10, i11 = 1.0 / S[0, 0], 0.0, 0.0, 0.0
    r0, r1 = xm - s[0], vm - s[1]
    K = np.zeros((n, 2))
    for i in range(n):
        K[i, 0] = P[i, 0] * i00 + P[i, 1] * i10
        if nm == 2:
            K[i, 1] = P[i, 0] * i01 + P[i, 1] * i11
    for i in range(n):
        s[i] += K[i, 0] * r0 + K[i, 1] * r1
    Pn = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            Pn[i, j] = P[i, j] - K[i, 0] * P[0, j] - K[i, 1] * P[1, j]
    for i in range(n):
        for j in range(n):
            P[i, j] = 0.5 * (Pn[i, j] + Pn[j, i])


@njit(cache=True)
def _covariance_predict(P, A, Ts, qdiag):
    """P <- Phi P Phi^T + Q Ts with Phi = exp(A Ts)."""
    n = P.shape[0]
    At = np.empty((n, n))
    for i in range(n):
        for j in range(n):
            At[i, j] = A[i, j] * Ts
    Phi = np.empty((n, n))
    _expm(At, Phi)
    T1 = np.empty((n, n))
    _matmul(Phi, P, T1)
    for i in range(n):
        for j in range(n):
            acc = 0.0
            for k in range(n):
                acc += T1[i, k] * Phi[j, k]
            At[i, j] = acc
    for i in range(n):
        for j in range(n):
            P[i, j] = 0.5 * (At[i, j] + At[j, i])
        P[i, i] += qdiag[i] * Ts


@lru_cache(maxsize=None)
def plant_stepper(rates, friction):
    """``advance(y, z, u, fn, lp, inv_m, fs, dt, n, w) -> bool`` (False on blow-up).

    ``y = [x, v]`` and the law state ``z`` are updated in place; ``w`` is a ``(5, nz)``
    work array.
    """

    @njit(inline="always")
    def accel(v, z, u, fn, lp, inv_m, fs, dz):
        f = fs * friction(z, v, fn, lp)
        if z.size:
            rates(z, v, fn, lp, dz)
        return (u - f) * inv_m

    @njit
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

    @njit
    def force(z, v, fn, lp, fs):
        return fs * friction(z, v, fn, lp)

    return advance, force


@lru_cache(maxsize=None)
def model_tools(rates, friction):
    """Estimator pieces on one model law: ``(integrate, force, ekf_update, ekf_predict)``.

    * ``integrate(z, v, fn, p, corr, h, n, w) -> bool``: RK4 of ``z' = rates(z, v) - corr``
      over ``n`` steps ``h`` (the Canudas de Wit et al. 1995 observer with ``corr = k e``;
      the feedforward model with ``corr = 0``).
    * ``force(z, v, fn, p, fs) -> F``.
    * ``ekf_update(s, P, xm, vm, rx, rv, use_v)``: Kalman measurement update of the
      augmented state ``s = [x, v, z, theta]`` with position (and velocity) measurements.
    * ``ekf_predict(s, P, u, fn, p, idx, nz, inv_m, fs, Ts, n, qdiag, lo) -> bool``.
    """

    @njit
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

    @njit
    def force(z, v, fn, p, fs):
        return fs * friction(z, v, fn, p)

    @njit
    def _set_params(s, p, idx, nz):
        for j in range(idx.size):
            p[idx[j]] = s[2 + nz + j]

    @njit
    def _f(s, u, fn, p, nz, inv_m, fs, ds):
        z = s[2:2 + nz]
        v = s[1]
        ds[0] = v
        ds[1] = (u - fs * friction(z, v, fn, p)) * inv_m
        for m in range(2 + nz, s.size):
            ds[m] = 0.0
        if nz:
            rates(z, v, fn, p, ds[2:2 + nz])

    @njit
    def ekf_update(s, P, xm, vm, rx, rv, use_v):
        _kalman_update(s, P, xm, vm, rx, rv, use_v)

    @njit
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

    @njit
    def ekf_force(s, fn, p, idx, nz, fs):
        _set_params(s, p, idx, nz)
        return fs * friction(s[2:2 + nz], s[1], fn, p)

    return integrate, force, ekf_update, ekf_predict, ekf_force
