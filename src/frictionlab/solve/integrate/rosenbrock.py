r"""Rodas4: an L-stable Rosenbrock method of order 4(3) with dense output, in plain Python.

Small stiff systems (a rate-and-state slider has 3 or 4 states) are integrated here without
:mod:`scipy.integrate`, whose import (``scipy.special``, ``scipy.optimize``, ``scipy.sparse``, ...)
is most of what a fresh process running one rate-and-state velocity step pays (issue 19: about
1 s of a 1.3 s process on this machine, against a 25 ms solve).

Method: the stiffly accurate six-stage Rosenbrock method RODAS of Hairer & Wanner, *Solving
Ordinary Differential Equations II* (2nd ed., Springer 1996), Sect. IV.7, eqs. (7.4)-(7.5) in the
transformed variables :math:`u_i` (no product with the Jacobian), with the coefficients of their
code ``rodas.f`` (method 1, :math:`\gamma = 1/4`). For an autonomous system
:math:`y' = f(y)` with Jacobian :math:`J` and :math:`W = I/(h\gamma) - J`, each step solves

.. math:: W k_i = f\Big(y_0 + \sum_{j<i} a_{ij} k_j\Big) + \frac{1}{h}\sum_{j<i} C_{ij} k_j,
          \qquad i = 1..6,

with :math:`y_0 + \sum_j a_{6j}k_j = y_0 + \sum_j a_{5j}k_j + k_5` and
:math:`y_1 = y_0 + \sum_j a_{5j}k_j + k_5 + k_6`; :math:`k_6` is the local error estimate of the
embedded order-3 solution. Dense output (order 3, the local error's order, so interpolated
samples are as accurate as the steps):
:math:`y(t_0 + \theta h) = (1-\theta)y_0 + \theta\,[y_1 + (1-\theta)(d_1 + \theta d_2)]`,
:math:`d_1, d_2` fixed combinations of :math:`k_1..k_5`.

Step control: the weighted RMS norm of :math:`k_6` with weights ``atol + rtol * max(|y0|, |y1|)``
must be at most 1; the next step is :math:`h\,\min(6, \max(0.2, 0.9\,\mathrm{err}^{-1/4}))`
(no growth right after a rejection). A step whose stages are not finite is rejected like a step
with a large error (also one whose right-hand side raises ``OverflowError``, as :func:`math.exp`
does). The Jacobian is the caller's (exact: the method's order needs it).

The states are Python floats and the :math:`n\times n` matrix :math:`W` of each step is inverted
once (Gauss-Jordan, partial pivoting) and applied six times, in loops over :math:`n`: meant for a handful of
states, where numpy's per-call overhead would cost more than the arithmetic (``n`` above
``MAX_STATES`` is refused).
"""

from __future__ import annotations

import math
from operator import mul
from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["MAX_STATES", "RodasResult", "rodas4"]

#: largest system :func:`rodas4` takes (its linear algebra is written for a handful of states)
MAX_STATES = 12
GAMMA = 0.25
A21 = 1.544
A31, A32 = 0.9466785280815826, 0.2557011698983284
A41, A42, A43 = 3.314825187068521, 2.896124015972201, 0.9986419139977817
A51, A52, A53, A54 = 1.221224509226641, 6.019134481288629, 12.53708332932087, -0.6878860361058950
C21 = -5.6688
C31, C32 = -2.430093356833875, -0.2063599157091915
C41, C42, C43 = -0.1073529058151375, -9.594562251023355, -20.47028614809616
C51, C52, C53, C54 = 7.496443313967647, -10.24680431464352, -33.99990352819905, 11.70890893206160
C61, C62, C63, C64, C65 = (8.083246795921522, -7.981132988064893, -31.52159432874371, 16.31930543123136,
                           -6.058818238834054)
#: dense-output combinations d_1, d_2 of k_1..k_5
H1 = (10.12623508344586, -7.487995877610167, -34.80091861555747, -7.992771707568823, 1.025137723295662)
H2 = (-0.6762803392801253, 6.087714651680015, 16.43084320892478, 24.76722511418386, -6.594389125716872)
_SAFETY, _FAC_MIN, _FAC_MAX = 0.9, 0.2, 6.0

Vec = list  # list[float]


@dataclass
class RodasResult:
    """Solution at the requested times and the cost of getting it."""

    y: np.ndarray  # (len(t_eval), n)
    y_end: Vec  # the state at t_reached
    t_reached: float
    success: bool
    message: str
    n_steps: int
    n_rejected: int
    n_fev: int
    n_jev: int


def _inverse(a: list[list[float]]) -> list[list[float]] | None:
    """The inverse of ``a`` (overwritten) by Gauss-Jordan elimination with partial pivoting, or None
    when it is singular or not finite. Its rows give each stage's solve as ``n`` dot products."""
    n = len(a)
    if n == 2:  # closed form: the one-state rate-and-state slider's case
        (p, q), (r, t) = a
        det = p * t - q * r
        if det == 0.0 or not math.isfinite(det):
            return None
        return [[t / det, -q / det], [-r / det, p / det]]
    inv = [[1.0 if i == j else 0.0 for j in range(n)] for i in range(n)]
    for k in range(n):
        p = max(range(k, n), key=lambda i: abs(a[i][k]))
        akk = a[p][k]
        if akk == 0.0 or not math.isfinite(akk):
            return None
        if p != k:
            a[k], a[p] = a[p], a[k]
            inv[k], inv[p] = inv[p], inv[k]
        rk = [x / akk for x in a[k]]
        ik = [x / akk for x in inv[k]]
        a[k], inv[k] = rk, ik
        for i in range(n):
            if i != k and a[i][k] != 0.0:
                m = a[i][k]
                a[i] = [x - m * y for x, y in zip(a[i], rk)]
                inv[i] = [x - m * y for x, y in zip(inv[i], ik)]
    return inv if all(math.isfinite(x) for row in inv for x in row) else None


def _solve(inv: list[list[float]], b: Vec) -> Vec:
    return [sum(map(mul, row, b)) for row in inv]


def _rms(e: Vec, y0: Vec, y1: Vec, rtol: float, atol: float) -> float:
    return math.sqrt(sum((ei / (atol + rtol * max(abs(a), abs(b)))) ** 2 for ei, a, b in zip(e, y0, y1)) / len(e))


def _initial_step(fun: Callable, y0: Vec, f0: Vec, span: float, rtol: float, atol: float) -> float:
    """Hairer, Norsett & Wanner (1993, Sect. II.4) starting step for an order-4 method, at most the span."""
    d0 = _rms(y0, y0, y0, rtol, atol)
    d1 = _rms(f0, y0, y0, rtol, atol)
    h0 = min(1e-6 if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1, span)
    try:
        f1 = fun([y + h0 * f for y, f in zip(y0, f0)])
        d2 = _rms([b - a for a, b in zip(f0, f1)], y0, y0, rtol, atol) / h0
    except (OverflowError, ZeroDivisionError, ValueError):
        d2 = math.inf
    if not math.isfinite(d2):
        return min(1e-3 * h0, span)
    h1 = max(1e-6, h0 * 1e-3) if max(d1, d2) <= 1e-15 else (0.01 / max(d1, d2)) ** 0.2
    return min(100.0 * h0, h1, span)


def _stages(fun: Callable, y: Vec, f0: Vec, inv: list[list[float]], h: float) -> tuple[Vec, tuple[Vec, ...]]:
    """One Rodas4 step from ``y`` (``f0 = fun(y)``): the new state and k_1..k_6."""
    ih = 1.0 / h
    k1 = _solve(inv, f0)
    f = fun([a + A21 * b for a, b in zip(y, k1)])
    k2 = _solve(inv, [fi + ih * (C21 * a) for fi, a in zip(f, k1)])
    f = fun([a + A31 * b + A32 * c for a, b, c in zip(y, k1, k2)])
    k3 = _solve(inv, [fi + ih * (C31 * a + C32 * b) for fi, a, b in zip(f, k1, k2)])
    f = fun([a + A41 * b + A42 * c + A43 * d for a, b, c, d in zip(y, k1, k2, k3)])
    k4 = _solve(inv, [fi + ih * (C41 * a + C42 * b + C43 * c) for fi, a, b, c in zip(f, k1, k2, k3)])
    u = [a + A51 * b + A52 * c + A53 * d + A54 * e for a, b, c, d, e in zip(y, k1, k2, k3, k4)]
    f = fun(u)
    k5 = _solve(inv, [fi + ih * (C51 * a + C52 * b + C53 * c + C54 * d) for fi, a, b, c, d in zip(f, k1, k2, k3, k4)])
    u = [a + b for a, b in zip(u, k5)]
    f = fun(u)
    k6 = _solve(inv, [fi + ih * (C61 * a + C62 * b + C63 * c + C64 * d + C65 * e)
                          for fi, a, b, c, d, e in zip(f, k1, k2, k3, k4, k5)])
    return [a + b for a, b in zip(u, k6)], (k1, k2, k3, k4, k5, k6)


def _samples(rows: list[Vec], m: int, n: int) -> np.ndarray:
    """The samples computed so far, NaN for those not reached."""
    out = np.full((m, n), np.nan)
    if rows:
        out[: len(rows)] = rows
    return out


def rodas4(fun: Callable[[Vec], Sequence[float]], jac: Callable[[Vec], Sequence[Sequence[float]]], t0: float,
           t1: float, y0: Sequence[float], t_eval: Sequence[float], *, rtol: float, atol: float,
           first_step: float | None = None, max_steps: int = 1_000_000) -> RodasResult:
    """Integrate the autonomous system ``y' = fun(y)`` from ``t0`` to ``t1`` (> t0).

    ``fun(y)`` and ``jac(y)`` (the exact Jacobian, ``n`` rows of ``n``) take the state as a list
    of floats. ``t_eval`` (increasing, inside ``(t0, t1]``) are the sample times returned in
    ``y``; ``t1`` itself is reached by a step, never interpolated. On failure (the step size
    falls below the floating-point resolution of ``t``, or ``max_steps`` steps), the samples
    up to ``t_reached`` are filled, the rest are NaN, and ``success`` is False with the reason in
    ``message``.
    """
    y = [float(v) for v in y0]
    n = len(y)
    if not 0 < n <= MAX_STATES:
        raise ValueError(f"rodas4 integrates 1 to {MAX_STATES} states, not {n}")
    if not (t1 > t0 and rtol > 0 and atol > 0):
        raise ValueError(f"rodas4 needs t1 > t0 and positive tolerances (t0 = {t0}, t1 = {t1}, rtol = {rtol}, "
                         f"atol = {atol})")
    te = [float(t) for t in t_eval]
    rows: list[Vec] = []
    span = t1 - t0
    f0 = list(fun(y))
    nfev, njev, steps, rejected = 1, 0, 0, 0
    if first_step:
        h = min(float(first_step), span)
    else:
        h = _initial_step(fun, y, f0, span, rtol, atol)
        nfev += 1
    t = t0
    i_eval = 0
    grow_ok = True
    J = None
    while True:
        last = t + h >= t1 or t1 - t <= h * (1.0 + 1e-12)
        if last:
            h = t1 - t
        if h <= 8.0 * math.ulp(max(abs(t), abs(t1))):
            return RodasResult(_samples(rows, len(te), n), y, t, False, f"the step size {h:.3g} s fell below the resolution of t = {t:.9g} s",
                               steps, rejected, nfev, njev)
        if steps + rejected >= max_steps:
            return RodasResult(_samples(rows, len(te), n), y, t, False, f"{max_steps} steps did not reach t = {t1:.9g} s", steps, rejected,
                               nfev, njev)
        if J is None:
            J = [list(row) for row in jac(y)]
            njev += 1
        g = 1.0 / (h * GAMMA)
        err = math.inf
        inv = _inverse([[(g if i == j else 0.0) - J[i][j] for j in range(n)] for i in range(n)])
        if inv is not None:
            try:
                y_new, k = _stages(fun, y, f0, inv, h)
                nfev += 5
                err = _rms(k[5], y, y_new, rtol, atol)
            except (OverflowError, ZeroDivisionError, ValueError):
                nfev += 5
            if not math.isfinite(err):
                err = math.inf
        if err <= 1.0:
            t_new = t1 if last else t + h
            j = i_eval
            while j < len(te) and te[j] <= t_new:
                j += 1
            if j > i_eval:
                d1 = [sum(c * kk[i] for c, kk in zip(H1, k)) for i in range(n)]
                d2 = [sum(c * kk[i] for c, kk in zip(H2, k)) for i in range(n)]
                for m in range(i_eval, j):
                    th = (te[m] - t) / h
                    rows.append([(1.0 - th) * a + th * (b + (1.0 - th) * (p + th * q))
                                 for a, b, p, q in zip(y, y_new, d1, d2)])
                if last and te[j - 1] == t1:
                    rows[-1] = y_new
                i_eval = j
            steps += 1
            t, y = t_new, y_new
            if last:
                return RodasResult(_samples(rows, len(te), n), y, t, True, "reached the end of the span", steps, rejected, nfev, njev)
            f0 = list(fun(y))
            nfev += 1
            J = None
            grow = _FAC_MAX if grow_ok else 1.0
            h *= min(grow, max(_FAC_MIN, _SAFETY * err ** -0.25)) if err > 0 else grow
            grow_ok = True
        else:
            rejected += 1
            h *= max(_FAC_MIN, _SAFETY * err ** -0.25) if math.isfinite(err) else _FAC_MIN
            grow_ok = False
