r"""Template: the quasi-static rate-and-state spring-slider loops of :mod:`frictionlab.fit.rsf`.

:math:`k\,(v_{lp} - v) = d\mu/dt` with :math:`v` solved from the friction law (log form) and the
state rate from the free name ``rates`` (the law's kernel, bound per specialisation by
:func:`frictionlab.core.jitcache.specialise`, so that a second process loads the compiled loops);
RK4 with a stiffness-limited step between data samples, one loop for one or two state variables
(``qs_loop`` / ``qs_loop2``); each returns -1 or the index of the sample interval where the slip
diverged. ``_loop`` is compiled once per value of ``two`` (``literally``) with ``_rhs``/``_vel``
inlined in numba's IR, so the one-state loop carries no second state (bit for bit the separate
loops it replaced; 1.7x (one state) and 2.4x (two) faster than they were, 40001 samples).
"""

import math

import numpy as np
from numba import literally, njit

# bound per specialisation by frictionlab.core.jitcache.specialise
rates = None


@njit(cache=True, inline="always")
def _vel(mu, lnth1, lnth2, p, b2, dc2, two):
    # p = [mu0, a, b, dc, v0, law, form]; log form solved for v; state 2 (two) has (b2, dc2)
    x = mu - p[0] - p[2] * (math.log(p[4] / p[3]) + lnth1)
    if two:
        x = x - b2 * (math.log(p[4] / dc2) + lnth2)
    arg = x / p[1]
    if arg > 700.0:
        return math.inf
    return p[4] * math.exp(arg)


@njit(cache=True, inline="always")
def _rhs(mu, lnth1, lnth2, vl, k, p, p2, st, ds, two):
    lnth1 = min(max(lnth1, -700.0), 700.0)
    if two:
        lnth2 = min(max(lnth2, -700.0), 700.0)
    v = _vel(mu, lnth1, lnth2, p, p2[2], p2[3], two)
    st[0] = math.exp(lnth1)
    rates(st, v, 1.0, p, ds)
    d1 = ds[0] / st[0]
    d2 = 0.0
    if two:
        st[0] = math.exp(lnth2)
        rates(st, v, 1.0, p2, ds)  # the law's own kernel with D_c2 in the D_c slot
        d2 = ds[0] / st[0]
    return k * (vl - v), d1, d2, v


@njit(cache=True)
def _loop(t, vlp, mu_init, p, p2, k, out, two):
    """RK4 with a stiffness-limited step between data samples; state 2 (``p2``: b2, D_c2 in the
    b, D_c slots) only where ``two``. Returns -1 or the failing index."""
    literally(two)  # compiled once per value of ``two``: the one-state loop carries no state 2
    mu = mu_init
    l1 = math.log(p[3] / p[4])  # steady state at v0 = v_ref
    l2 = math.log(p2[3] / p[4]) if two else 0.0
    st = np.empty(1)
    ds = np.empty(1)
    out[0] = mu
    a = p[1]
    dcmin = min(p[3], p2[3]) if two else p[3]
    for i in range(t.size - 1):
        vl = vlp[i]
        rem = t[i + 1] - t[i]
        guard = 0
        while rem > 0.0:
            k1m, k1a, k1b, v = _rhs(mu, l1, l2, vl, k, p, p2, st, ds, two)
            if not math.isfinite(v):
                return i
            vs = max(v, abs(vl), 1e-300)
            h = min(rem, 0.3 * a / (k * vs), 0.2 * dcmin / vs)
            k2m, k2a, k2b, _ = _rhs(mu + 0.5 * h * k1m, l1 + 0.5 * h * k1a, l2 + 0.5 * h * k1b, vl, k, p, p2, st, ds,
                                    two)
            k3m, k3a, k3b, _ = _rhs(mu + 0.5 * h * k2m, l1 + 0.5 * h * k2a, l2 + 0.5 * h * k2b, vl, k, p, p2, st, ds,
                                    two)
            k4m, k4a, k4b, _ = _rhs(mu + h * k3m, l1 + h * k3a, l2 + h * k3b, vl, k, p, p2, st, ds, two)
            mu += h / 6.0 * (k1m + 2 * k2m + 2 * k3m + k4m)
            l1 += h / 6.0 * (k1a + 2 * k2a + 2 * k3a + k4a)
            if two:
                l2 += h / 6.0 * (k1b + 2 * k2b + 2 * k3b + k4b)
            if not (math.isfinite(mu) and math.isfinite(l1) and math.isfinite(l2)):
                return i
            rem -= h
            guard += 1
            if guard > 2000000:
                return i
        out[i + 1] = mu
    return -1


@njit(cache=True)
def qs_loop(t, vlp, mu_init, p, k, out):
    """One state variable; returns -1 or the failing index."""
    return _loop(t, vlp, mu_init, p, p, k, out, False)


@njit(cache=True)
def qs_loop2(t, vlp, mu_init, p, p2, k, out):
    """Two state variables (the second's b, D_c in ``p2``); returns -1 or the failing index."""
    return _loop(t, vlp, mu_init, p, p2, k, out, True)
