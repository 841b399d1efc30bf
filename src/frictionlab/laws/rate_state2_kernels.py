"""Compiled (numba) kernels of :mod:`frictionlab.laws.rate_state2` (two state variables).

Kept apart from the parameter class so that importing the law (and running its quasi-static
driver, which does not call them) loads no numba; :class:`~frictionlab.laws.rate_state2.RateState2`
names them through :class:`~frictionlab.core.lazy.KernelRef`, imported at first use.
"""

from __future__ import annotations

import math

from numba import njit

_VMIN = 1e-300


@njit(cache=True, inline="always")
def _mu(th1, th2, v, p):
    mu0, a, b1, dc1, b2, dc2, v0 = p[0], p[1], p[2], p[3], p[4], p[5], p[6]
    return (mu0 + a * math.log(max(abs(v), _VMIN) / v0) + b1 * math.log(v0 * max(th1, _VMIN) / dc1)
            + b2 * math.log(v0 * max(th2, _VMIN) / dc2))


@njit(cache=True, inline="always")
def _rates(state, v, fn, p, out):
    for i in range(2):
        dc = p[3 + 2 * i]
        th = max(state[i], _VMIN)
        omega = abs(v) * th / dc
        if p[7] > 0.5:  # slip law
            out[i] = -omega * math.log(max(omega, _VMIN))
        else:  # aging law
            out[i] = 1.0 - omega


@njit(cache=True, inline="always")
def _friction(state, v, fn, p):
    mu = _mu(state[0], state[1], v, p)
    if v < 0.0:
        mu = -mu
    return mu * fn
