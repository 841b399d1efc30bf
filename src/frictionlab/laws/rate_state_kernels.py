"""Compiled (numba) kernels of :mod:`frictionlab.laws.rate_state` (aging and slip laws, log and asinh forms).

Kept apart from the parameter class so that importing the law (and running its quasi-static
driver, which does not call them) loads no numba; :class:`~frictionlab.laws.rate_state.RateState`
names them through :class:`~frictionlab.core.lazy.KernelRef`, imported at first use.
"""

from __future__ import annotations

import math

from numba import njit

_VMIN = 1e-300


@njit(cache=True, inline="always")
def _mu(theta, v, p):
    mu0, a, b, dc, v0, form = p[0], p[1], p[2], p[3], p[4], p[6]
    th = max(theta, _VMIN)
    av = abs(v)
    if form > 0.5:  # regularised: mu = a asinh(v / (2 v0) exp(psi / a))
        psi = mu0 + b * math.log(v0 * th / dc)
        return a * math.asinh(av / (2.0 * v0) * math.exp(psi / a))
    return mu0 + a * math.log(max(av, _VMIN) / v0) + b * math.log(v0 * th / dc)


@njit(cache=True, inline="always")
def _rates(state, v, fn, p, out):
    dc = p[3]
    th = max(state[0], _VMIN)
    omega = abs(v) * th / dc
    if p[5] > 0.5:  # slip law
        out[0] = -omega * math.log(max(omega, _VMIN))
    else:  # aging law
        out[0] = 1.0 - omega


@njit(cache=True, inline="always")
def _friction(state, v, fn, p):
    mu = _mu(state[0], v, p)
    if v < 0.0:
        mu = -mu
    return mu * fn
