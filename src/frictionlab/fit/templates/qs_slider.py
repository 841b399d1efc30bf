r"""Template: the quasi-static rate-and-state spring-slider loops of :mod:`frictionlab.fit.rsf`.

:math:`k\,(v_{lp} - v) = d\mu/dt` with :math:`v` solved from the friction law (log form) and the
state rate from the free name ``rates`` (the law's kernel, bound per specialisation by
:func:`frictionlab.core.jitcache.specialise`, so that a second process loads the compiled loops);
RK4 with a stiffness-limited step between data samples. ``qs_loop`` / ``qs_loop2`` (one / two
state variables) return -1 or the index of the sample interval where the slip diverged.
"""

import math

import numpy as np
from numba import njit

# bound per specialisation by frictionlab.core.jitcache.specialise
rates = None


@njit(cache=True)
def _vel(mu, lnth, p):
    # p = [mu0, a, b, dc, v0, law, form]; log form, solved for v
    arg = (mu - p[0] - p[2] * (math.log(p[4] / p[3]) + lnth)) / p[1]
    if arg > 700.0:
        return math.inf
    return p[4] * math.exp(arg)


@njit(cache=True)
def _rhs(mu, lnth, vl, k, p, st, ds):
    lnth = min(max(lnth, -700.0), 700.0)
    v = _vel(mu, lnth, p)
    st[0] = math.exp(lnth)
    rates(st, v, 1.0, p, ds)
    return k * (vl - v), ds[0] / st[0], v


@njit(cache=True)
def qs_loop(t, vlp, mu_init, p, k, out):
    """RK4 with a stiffness-limited step between data samples; returns -1 or the failing index."""
    mu = mu_init
    lnth = math.log(p[3] / p[4])  # steady state at v0 = v_ref
    st = np.empty(1)
    ds = np.empty(1)
    out[0] = mu
    a = p[1]
    for i in range(t.size - 1):
        vl = vlp[i]
        rem = t[i + 1] - t[i]
        guard = 0
        while rem > 0.0:
            dmu, dth, v = _rhs(mu, lnth, vl, k, p, st, ds)
            if not math.isfinite(v):
                return i
            vs = max(v, abs(vl), 1e-300)
            h = min(rem, 0.3 * a / (k * vs), 0.2 * p[3] / vs)
            k1m, k1t = dmu, dth
            k2m, k2t, _ = _rhs(mu + 0.5 * h * k1m, lnth + 0.5 * h * k1t, vl, k, p, st, ds)
            k3m, k3t, _ = _rhs(mu + 0.5 * h * k2m, lnth + 0.5 * h * k2t, vl, k, p, st, ds)
            k4m, k4t, _ = _rhs(mu + h * k3m, lnth + h * k3t, vl, k, p, st, ds)
            mu += h / 6.0 * (k1m + 2 * k2m + 2 * k3m + k4m)
            lnth += h / 6.0 * (k1t + 2 * k2t + 2 * k3t + k4t)
            if not (math.isfinite(mu) and math.isfinite(lnth)):
                return i
            rem -= h
            guard += 1
            if guard > 2000000:
                return i
        out[i + 1] = mu
    return -1


@njit(cache=True)
def _vel2(mu, lnth1, lnth2, p, b2, dc2):
    # two-state log form solved for v; p as in _vel, state 2 has (b2, dc2)
    arg = (mu - p[0] - p[2] * (math.log(p[4] / p[3]) + lnth1) - b2 * (math.log(p[4] / dc2) + lnth2)) / p[1]
    if arg > 700.0:
        return math.inf
    return p[4] * math.exp(arg)


@njit(cache=True)
def _rhs2(mu, lnth1, lnth2, vl, k, p, p2, st, ds):
    lnth1 = min(max(lnth1, -700.0), 700.0)
    lnth2 = min(max(lnth2, -700.0), 700.0)
    v = _vel2(mu, lnth1, lnth2, p, p2[2], p2[3])
    st[0] = math.exp(lnth1)
    rates(st, v, 1.0, p, ds)
    d1 = ds[0] / st[0]
    st[0] = math.exp(lnth2)
    rates(st, v, 1.0, p2, ds)  # the law's own kernel with D_c2 in the D_c slot
    return k * (vl - v), d1, ds[0] / st[0], v


@njit(cache=True)
def qs_loop2(t, vlp, mu_init, p, p2, k, out):
    """Two-state version of :func:`qs_loop`; returns -1 or the failing index."""
    mu = mu_init
    l1 = math.log(p[3] / p[4])
    l2 = math.log(p2[3] / p[4])
    st = np.empty(1)
    ds = np.empty(1)
    out[0] = mu
    a = p[1]
    dcmin = min(p[3], p2[3])
    for i in range(t.size - 1):
        vl = vlp[i]
        rem = t[i + 1] - t[i]
        guard = 0
        while rem > 0.0:
            k1m, k1a, k1b, v = _rhs2(mu, l1, l2, vl, k, p, p2, st, ds)
            if not math.isfinite(v):
                return i
            vs = max(v, abs(vl), 1e-300)
            h = min(rem, 0.3 * a / (k * vs), 0.2 * dcmin / vs)
            k2m, k2a, k2b, _ = _rhs2(mu + 0.5 * h * k1m, l1 + 0.5 * h * k1a, l2 + 0.5 * h * k1b, vl, k, p, p2, st, ds)
            k3m, k3a, k3b, _ = _rhs2(mu + 0.5 * h * k2m, l1 + 0.5 * h * k2a, l2 + 0.5 * h * k2b, vl, k, p, p2, st, ds)
            k4m, k4a, k4b, _ = _rhs2(mu + h * k3m, l1 + h * k3a, l2 + h * k3b, vl, k, p, p2, st, ds)
            mu += h / 6.0 * (k1m + 2 * k2m + 2 * k3m + k4m)
            l1 += h / 6.0 * (k1a + 2 * k2a + 2 * k3a + k4a)
            l2 += h / 6.0 * (k1b + 2 * k2b + 2 * k3b + k4b)
            if not (math.isfinite(mu) and math.isfinite(l1) and math.isfinite(l2)):
                return i
            rem -= h
            guard += 1
            if guard > 2000000:
                return i
        out[i + 1] = mu
    return -1
