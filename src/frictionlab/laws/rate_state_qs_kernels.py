r"""Compiled run of the inertia-free rate-and-state spring-slider: the one implementation behind both
the ``quasi_static`` driver (:mod:`frictionlab.laws.rate_state_drivers`) and the fit's
:func:`frictionlab.fit.rsf.simulate_qs_slider`.

States :math:`y = (\mu_s, \ln\theta_1[, \ln\theta_2])`; the slider velocity is the closed-form
inverse of the law (log form :math:`v = v_0 e^{(\mu_s-\psi)/a}`, arcsinh form
:math:`v = 2v_0e^{-\psi/a}\sinh(\mu_s/a)`, :math:`\psi = \mu_0 + \sum_i b_i(\ln(v_0/D_{ci}) + \ln\theta_i)`),
:math:`\dot\mu_s = (k/N)(V_{lp} - v)` and the aging or slip law per state (Ruina 1983, eqs. 5-7).
The integrator is the stiffly accurate Rosenbrock method RODAS (Hairer & Wanner, *Solving ODEs II*,
2nd ed. 1996, Sect. IV.7, coefficients of their ``rodas.f``, :math:`\gamma = 1/4`) with the exact
Jacobian, its embedded order-3 error estimate, the order-3 dense output for samples between steps,
and the starting step of Hairer, Norsett & Wanner (1993, Sect. II.4), run piece by piece between the
load-point velocity's jumps (no step straddles one). The arithmetic follows the former plain-Python
driver operation for operation (same order of sums), so its results are reproduced to rounding.

Parameter vector ``p`` (:func:`param_vector`): ``[mu0, a, v0, k/N, arcsinh?, slip law?, n_states,
b1, ln(v0/dc1), dc1, b2, ln(v0/dc2), dc2]``.
"""

from __future__ import annotations

import math

import numpy as np

from ..core.lazy import lazy_njit

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
SAFETY, FAC_MIN, FAC_MAX = 0.9, 0.2, 6.0
MAX_STEPS = 1_000_000

#: failure codes of :func:`run_pieces` (``info[2]``)
OK, TINY_STEP, TOO_MANY_STEPS, NOT_FINITE = 0, 1, 2, 3


def param_vector(mu0: float, a: float, v0: float, kn: float, bs, dcs, asinh_form: bool, slip_law: bool) -> np.ndarray:
    """``p`` of the kernels (module docstring) for one or two states (``bs``, ``dcs`` of equal length)."""
    p = np.zeros(13)
    p[:7] = mu0, a, v0, kn, float(asinh_form), float(slip_law), len(bs)
    dcs = np.asarray(dcs, dtype=float)
    for i, (b, c, dc) in enumerate(zip(bs, np.log(v0 / dcs), dcs)):
        p[7 + 3 * i: 10 + 3 * i] = float(b), float(c), float(dc)
    return p


@lazy_njit(cache=True)
def _velocity(y, p):
    s = p[7] * (p[8] + y[1])
    if p[6] > 1.5:
        s += p[10] * (p[11] + y[2])
    psi = p[0] + s
    if p[4] > 0.5:
        return 2.0 * p[2] * math.exp(-psi / p[1]) * math.sinh(y[0] / p[1])
    return p[2] * math.exp((y[0] - psi) / p[1])


@lazy_njit(cache=True)
def _rhs(y, vlp, p, out):
    v = _velocity(y, p)
    av = abs(v)
    out[0] = p[3] * (vlp - v)
    for i in range(y.size - 1):
        dc = p[9 + 3 * i]
        if p[5] > 0.5:
            out[1 + i] = -(av / dc) * math.log(max(av * math.exp(y[1 + i]) / dc, 1e-300))
        else:
            out[1 + i] = math.exp(-y[1 + i]) - av / dc


@lazy_njit(cache=True)
def _jac(y, p, J):
    n = y.size - 1
    a, v0 = p[1], p[2]
    psi = 0.0
    for i in range(n):
        psi += p[7 + 3 * i] * (p[8 + 3 * i] + y[1 + i])
    psi = p[0] + psi
    grad = np.empty(n + 1)
    if p[4] > 0.5:
        e = 2.0 * v0 * math.exp(-psi / a)
        v = e * math.sinh(y[0] / a)
        grad[0] = e * math.cosh(y[0] / a) / a
    else:
        v = v0 * math.exp((y[0] - psi) / a)
        grad[0] = v / a
    for i in range(n):
        grad[1 + i] = -p[7 + 3 * i] * v / a
    sgn = math.copysign(1.0, v) if v != 0.0 else 0.0
    av = abs(v)
    for j in range(n + 1):
        J[0, j] = -p[3] * grad[j]
    for i in range(n):
        dc = p[9 + 3 * i]
        if p[5] > 0.5:
            arg = av * math.exp(y[1 + i]) / dc
            clipped = not arg > 1e-300
            w = -sgn * (math.log(max(arg, 1e-300)) + (0.0 if clipped else 1.0)) / dc
            diag = 0.0 if clipped else -av / dc
        else:
            w = -sgn / dc
            diag = -math.exp(-y[1 + i])
        for j in range(n + 1):
            J[1 + i, j] = w * grad[j]
        J[1 + i, 1 + i] += diag


@lazy_njit(cache=True)
def _inverse(a, inv):
    """``inv`` = the inverse of ``a`` (overwritten): closed form for 2x2, else Gauss-Jordan with partial
    pivoting; False when singular or not finite."""
    n = a.shape[0]
    if n == 2:
        det = a[0, 0] * a[1, 1] - a[0, 1] * a[1, 0]
        if det == 0.0 or not math.isfinite(det):
            return False
        inv[0, 0], inv[0, 1] = a[1, 1] / det, -a[0, 1] / det
        inv[1, 0], inv[1, 1] = -a[1, 0] / det, a[0, 0] / det
        return True
    for i in range(n):
        for j in range(n):
            inv[i, j] = 1.0 if i == j else 0.0
    for k in range(n):
        piv = k
        for i in range(k + 1, n):
            if abs(a[i, k]) > abs(a[piv, k]):
                piv = i
        akk = a[piv, k]
        if akk == 0.0 or not math.isfinite(akk):
            return False
        if piv != k:
            for j in range(n):
                a[k, j], a[piv, j] = a[piv, j], a[k, j]
                inv[k, j], inv[piv, j] = inv[piv, j], inv[k, j]
        for j in range(n):
            a[k, j] = a[k, j] / akk
            inv[k, j] = inv[k, j] / akk
        for i in range(n):
            if i != k and a[i, k] != 0.0:
                m = a[i, k]
                for j in range(n):
                    a[i, j] = a[i, j] - m * a[k, j]
                    inv[i, j] = inv[i, j] - m * inv[k, j]
    for i in range(n):
        for j in range(n):
            if not math.isfinite(inv[i, j]):
                return False
    return True


@lazy_njit(cache=True)
def _solve(inv, b, out):
    for i in range(b.size):
        s = 0.0
        for j in range(b.size):
            s += inv[i, j] * b[j]
        out[i] = s


@lazy_njit(cache=True)
def _rms(e, y0, y1, rtol, atol):
    s = 0.0
    for i in range(e.size):
        s += (e[i] / (atol + rtol * max(abs(y0[i]), abs(y1[i])))) ** 2
    return math.sqrt(s / e.size)


@lazy_njit(cache=True)
def _ulp(x):
    m, e = math.frexp(abs(x))
    return math.ldexp(1.0, e - 53) if m != 0.0 else 5e-324


@lazy_njit(cache=True)
def _initial_step(y0, f0, vlp, p, span, rtol, atol, work, f1):
    d0 = _rms(y0, y0, y0, rtol, atol)
    d1 = _rms(f0, y0, y0, rtol, atol)
    h0 = min(1e-6 if d0 < 1e-5 or d1 < 1e-5 else 0.01 * d0 / d1, span)
    for i in range(y0.size):
        work[i] = y0[i] + h0 * f0[i]
    _rhs(work, vlp, p, f1)
    for i in range(y0.size):
        work[i] = f1[i] - f0[i]
    d2 = _rms(work, y0, y0, rtol, atol) / h0
    if not math.isfinite(d2):
        return min(1e-3 * h0, span)
    h1 = max(1e-6, h0 * 1e-3) if max(d1, d2) <= 1e-15 else (0.01 / max(d1, d2)) ** 0.2
    return min(100.0 * h0, h1, span)


@lazy_njit(cache=True)
def _stages(y, f0, vlp, p, inv, h, K, u, f, rhs_b, y_new):
    """One RODAS step from ``y`` (``f0`` its rate): ``y_new`` and the stages ``K[0..5]``; False if not finite."""
    n = y.size
    ih = 1.0 / h
    _solve(inv, f0, K[0])
    for i in range(n):
        u[i] = y[i] + A21 * K[0, i]
    _rhs(u, vlp, p, f)
    for i in range(n):
        rhs_b[i] = f[i] + ih * (C21 * K[0, i])
    _solve(inv, rhs_b, K[1])
    for i in range(n):
        u[i] = y[i] + A31 * K[0, i] + A32 * K[1, i]
    _rhs(u, vlp, p, f)
    for i in range(n):
        rhs_b[i] = f[i] + ih * (C31 * K[0, i] + C32 * K[1, i])
    _solve(inv, rhs_b, K[2])
    for i in range(n):
        u[i] = y[i] + A41 * K[0, i] + A42 * K[1, i] + A43 * K[2, i]
    _rhs(u, vlp, p, f)
    for i in range(n):
        rhs_b[i] = f[i] + ih * (C41 * K[0, i] + C42 * K[1, i] + C43 * K[2, i])
    _solve(inv, rhs_b, K[3])
    for i in range(n):
        u[i] = y[i] + A51 * K[0, i] + A52 * K[1, i] + A53 * K[2, i] + A54 * K[3, i]
    _rhs(u, vlp, p, f)
    for i in range(n):
        rhs_b[i] = f[i] + ih * (C51 * K[0, i] + C52 * K[1, i] + C53 * K[2, i] + C54 * K[3, i])
    _solve(inv, rhs_b, K[4])
    for i in range(n):
        u[i] = u[i] + K[4, i]
    _rhs(u, vlp, p, f)
    for i in range(n):
        rhs_b[i] = f[i] + ih * (C61 * K[0, i] + C62 * K[1, i] + C63 * K[2, i] + C64 * K[3, i] + C65 * K[4, i])
    _solve(inv, rhs_b, K[5])
    ok = True
    for i in range(n):
        y_new[i] = u[i] + K[5, i]
        ok = ok and math.isfinite(y_new[i])
    for j in range(6):
        for i in range(n):
            ok = ok and math.isfinite(K[j, i])
    return ok


@lazy_njit(cache=True)
def _piece(y, vlp, p, t0, t1, times, i0, i1, Y, rtol, atol, first_step, max_steps, info):
    """Integrate ``y`` (in place) from ``t0`` to ``t1`` at constant ``vlp``; the samples ``times[i0:i1]``
    (in ``(t0, t1]``) go to ``Y``. Returns ``OK`` or a failure code, with the time reached and the last
    step in ``info[0]``, ``info[1]``; the step and function counts are added to ``info[3:6]``."""
    n = y.size
    f0 = np.empty(n)
    work = np.empty(n)
    f1 = np.empty(n)
    J = np.empty((n, n))
    W = np.empty((n, n))
    inv = np.empty((n, n))
    K = np.empty((6, n))
    y_new = np.empty(n)
    span = t1 - t0
    _rhs(y, vlp, p, f0)
    nfev = 1
    if first_step > 0.0:
        h = min(first_step, span)
    else:
        h = _initial_step(y, f0, vlp, p, span, rtol, atol, work, f1)
        nfev += 1
    t = t0
    i_eval = i0
    grow_ok = True
    steps = 0
    rejected = 0
    need_jac = True
    code = OK
    while True:
        last = t + h >= t1 or t1 - t <= h * (1.0 + 1e-12)
        if last:
            h = t1 - t
        if h <= 8.0 * _ulp(max(abs(t), abs(t1))):
            code = TINY_STEP
            break
        if steps + rejected >= max_steps:
            code = TOO_MANY_STEPS
            break
        if need_jac:
            _jac(y, p, J)
            need_jac = False
        g = 1.0 / (h * GAMMA)
        for i in range(n):
            for j in range(n):
                W[i, j] = (g if i == j else 0.0) - J[i, j]
        err = math.inf
        if _inverse(W, inv):
            ok = _stages(y, f0, vlp, p, inv, h, K, work, f1, W[0], y_new)  # W is free once inverted
            nfev += 5
            if ok:
                err = _rms(K[5], y, y_new, rtol, atol)
            if not math.isfinite(err):
                err = math.inf
        if err <= 1.0:
            t_new = t1 if last else t + h
            j = i_eval
            while j < i1 and times[j] <= t_new:
                j += 1
            for m in range(i_eval, j):
                th = (times[m] - t) / h
                for i in range(n):
                    d1 = (H1[0] * K[0, i] + H1[1] * K[1, i] + H1[2] * K[2, i] + H1[3] * K[3, i] + H1[4] * K[4, i])
                    d2 = (H2[0] * K[0, i] + H2[1] * K[1, i] + H2[2] * K[2, i] + H2[3] * K[3, i] + H2[4] * K[4, i])
                    Y[m, i] = (1.0 - th) * y[i] + th * (y_new[i] + (1.0 - th) * (d1 + th * d2))
            if last and j > i_eval and times[j - 1] == t1:
                Y[j - 1, :] = y_new
            i_eval = j
            steps += 1
            t = t_new
            y[:] = y_new
            if last:
                break
            _rhs(y, vlp, p, f0)
            nfev += 1
            need_jac = True
            grow = FAC_MAX if grow_ok else 1.0
            h *= min(grow, max(FAC_MIN, SAFETY * err ** -0.25)) if err > 0 else grow
            grow_ok = True
        else:
            rejected += 1
            h *= max(FAC_MIN, SAFETY * err ** -0.25) if math.isfinite(err) else FAC_MIN
            grow_ok = False
    info[0], info[1] = t, h
    info[3] += steps
    info[4] += rejected
    info[5] += nfev
    return code


@lazy_njit(cache=True)
def run_pieces(y0, p, edges, vlps, times, rtol, atol, first_step, max_steps, Y, slip, vel, info):
    r"""Run from ``edges[0] = times[0]`` piece by piece (``vlps[j]`` on ``[edges[j], edges[j+1]]``).

    Fills the states ``Y`` (``len(times)`` x ``n``), the slip ``slip`` (load-point travel minus the
    spring's extension, :math:`k(x_{lp}-x) = \mu_s N`) and the slider velocity ``vel`` at the samples
    ``times`` (increasing, ``times[0] = edges[0]``); ``first_step`` > 0 caps each piece's first step;
    at most ``max_steps`` steps (accepted and rejected) in all.
    Returns -1, or the index of the first sample not reached; ``info`` = ``[time reached, last step,
    failure code, steps, rejected steps, right-hand sides]``.
    """
    n = y0.size
    y = y0.copy()
    Y[0, :] = y
    slip[0] = 0.0
    x = 0.0
    info[:] = 0.0
    i = 1
    for jp in range(edges.size - 1):
        t0, t1, vlp = edges[jp], edges[jp + 1], vlps[jp]
        i1 = i
        while i1 < times.size and times[i1] <= t1:
            i1 += 1
        mu_start = y[0]
        code = _piece(y, vlp, p, t0, t1, times, i, i1, Y, rtol, atol, min(first_step, t1 - t0),
                      max_steps - info[3] - info[4], info)
        finite = True
        for k in range(n):
            finite = finite and math.isfinite(y[k])
        if code != OK or not finite:
            info[2] = code if code != OK else NOT_FINITE
            while i < i1 - 1 and times[i] <= info[0]:
                i += 1
            return i
        for m in range(i, i1):
            slip[m] = x + vlp * (times[m] - t0) - (Y[m, 0] - mu_start) / p[3]
        x = x + vlp * (t1 - t0) - (y[0] - mu_start) / p[3]
        i = i1
    for m in range(times.size):
        vel[m] = _velocity(Y[m], p)
    return -1
