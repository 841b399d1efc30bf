"""Compiled building blocks of the closed loop, specialised per friction law.

Each factory specialises a template of :mod:`frictionlab.control.templates` for the law's
kernels (:func:`frictionlab.core.jitcache.specialise`): one law compiles its pieces once, and a
later process loads them from the disk cache; a ``(plant law, model law)`` pair only adds the
small outer loop of :mod:`frictionlab.control.loop`.

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

import numpy as np
from numba import njit

from ..core.jitcache import specialise

__all__ = ["plant_stepper", "model_tools", "model_module", "quantise"]

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


def plant_stepper(rates, friction):
    """``advance(y, z, u, fn, lp, inv_m, fs, dt, n, w) -> bool`` (False on blow-up) and
    ``force(z, v, fn, lp, fs) -> F`` (template :mod:`frictionlab.control.templates.plant`).

    ``y = [x, v]`` and the law state ``z`` are updated in place; ``w`` is a ``(5, nz)``
    work array.
    """
    mod = specialise("frictionlab.control.templates.plant", {"rates": rates, "friction": friction})
    return mod.advance, mod.force


def model_tools(rates, friction):
    """Estimator pieces on one model law: ``(integrate, force, ekf_update, ekf_predict, ekf_force)``
    (template :mod:`frictionlab.control.templates.model`).

    * ``integrate(z, v, fn, p, corr, h, n, w) -> bool``: RK4 of ``z' = rates(z, v) - corr``
      over ``n`` steps ``h`` (the Canudas de Wit et al. 1995 observer with ``corr = k e``;
      the feedforward model with ``corr = 0``).
    * ``force(z, v, fn, p, fs) -> F``.
    * ``ekf_update(s, P, xm, vm, rx, rv, use_v)``: Kalman measurement update of the
      augmented state ``s = [x, v, z, theta]`` with position (and velocity) measurements.
    * ``ekf_predict(s, P, u, fn, p, idx, nz, inv_m, fs, Ts, n, qdiag, lo) -> bool``.
    * ``ekf_force(s, fn, p, idx, nz, fs) -> F``.
    """
    mod = model_module(rates, friction)
    return mod.integrate, mod.force, mod.ekf_update, mod.ekf_predict, mod.ekf_force


def model_module(rates, friction):
    """The module of template :mod:`frictionlab.control.templates.model` bound to a model law."""
    return specialise("frictionlab.control.templates.model", {"rates": rates, "friction": friction})
