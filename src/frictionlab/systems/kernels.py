"""Compiled (numba) right-hand sides of the prescribed-slip and quasi-static systems.

Kept apart from the system classes so that importing a system loads no numba (the rate-and-state
``quasi_static`` driver does not call them); the classes name them through
:class:`~frictionlab.core.lazy.KernelRef` as ``_rhs_kernel``, imported at first use.
"""

from __future__ import annotations

import math

from numba import njit

__all__ = ["prescribed_slip_rhs", "quasi_static_rhs"]


@njit(inline="always")
def prescribed_slip_rhs(ys, z, v, fn, fext, sp, law_rates, law_friction, lp, dys, dz):
    dys[0] = v
    if z.size:
        law_rates(z, v, fn, lp, dz)
    return law_friction(z, v, fn, lp)


_V_SCALE = 1e-12  # [m/s] bisection variable s = asinh(v / V_SCALE)
_S_MAX = 36.0     # |v| up to V_SCALE sinh(36) ~ 2e3 m/s


@njit(inline="always")
def quasi_static_rhs(ys, z, vd, fn, fext, sp, law_rates, law_friction, lp, dys, dz):
    # ys = [x_lp, x]; sp = [k]; solve law_friction(z, v, fn) = k (x_lp - x) for v by bisection
    fs = sp[0] * (ys[0] - ys[1])
    lo, hi = -_S_MAX, _S_MAX
    for _ in range(90):
        mid = 0.5 * (lo + hi)
        if law_friction(z, _V_SCALE * math.sinh(mid), fn, lp) < fs:
            lo = mid
        else:
            hi = mid
    v = _V_SCALE * math.sinh(0.5 * (lo + hi))
    dys[0] = vd
    dys[1] = v
    if z.size:
        law_rates(z, v, fn, lp, dz)
    return fs
