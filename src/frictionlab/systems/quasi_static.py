r"""Quasi-static (inertia-free) spring-slider: the spring force always equals friction.

A load point at :math:`x_{lp}(t) = \int V_{lp}\,dt` (the protocol velocity) pulls the slider
through a spring of stiffness :math:`k`; without inertia the slider velocity :math:`v` is
whatever makes friction balance the spring at every instant,

.. math:: k\,(x_{lp} - x) = F(z, v, N), \qquad \dot x = v, \qquad \dot z = G(z, v),

the standard laboratory and earthquake-nucleation model of rate-and-state friction (Ruina,
J. Geophys. Res. 88 (1983) 10359, Sec. 5; Gu, Rice, Ruina & Tse, J. Mech. Phys. Solids 32
(1984) 167, eq. 2; the ``rsfmodel`` package's default system). The rate-and-state law has its
own driver (``quasi_static``, :mod:`frictionlab.laws.rate_state_drivers`) that inverts the law
for :math:`v` in closed form; the generic integrators can run any law whose friction grows
with :math:`v` through :attr:`QuasiStaticSlider._rhs_kernel`, which finds :math:`v` by
bisection (they then need ``start_steady = false`` and the initial spring force ``preload``).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numba import njit

from ..core.base import FloatArray
from ..core.errors import ConfigError
from ..core.params import option, param
from .base import AbstractSystem, register_system

__all__ = ["QuasiStaticSlider"]

_V_SCALE = 1e-12  # [m/s] bisection variable s = asinh(v / V_SCALE)
_S_MAX = 36.0     # |v| up to V_SCALE sinh(36) ~ 2e3 m/s


@njit(inline="always")
def _rhs(ys, z, vd, fn, fext, sp, law_rates, law_friction, lp, dys, dz):
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


@register_system
@dataclass(frozen=True)
class QuasiStaticSlider(AbstractSystem):
    """Inertia-free slider on a spring ``stiffness`` to a load point moving at the protocol velocity.

    Parameters
    ----------
    stiffness : float
        Spring stiffness k [N/m] (per unit normal load: ``stiffness / normal_force`` [1/m] is
        the ``k`` of rsfmodel and of most rate-and-state papers).
    start_steady : bool
        Start with the spring force equal to the law's friction at the protocol's initial
        velocity and the law's initial state (steady sliding when the law starts steady at
        that velocity); ``False``: start with the spring force ``preload``.
    preload : float
        Initial spring force [N] when ``start_steady`` is false.
    """

    stiffness: float = param(1e3, units="N/m", lo=0.0, lo_open=True)
    start_steady: bool = option(True, choices=(True, False))
    preload: float = param(0.0, units="N")

    type_name: ClassVar[str] = "quasi_static"
    state_names: ClassVar[tuple[str, ...]] = ("driver_position", "slip")
    _rhs_kernel = _rhs

    def param_vector(self) -> FloatArray:
        return np.array([self.stiffness])

    def initial_state(self) -> FloatArray:
        if self.start_steady:
            raise ConfigError("quasi_static system with start_steady = true needs the model's driver "
                              "(integrator 'quasi_static' for rate_state); with another integrator set "
                              "start_steady = false and the initial spring force 'preload' [N]")
        return np.array([self.preload / self.stiffness, 0.0])

    def outputs(self, y: FloatArray, u: FloatArray, friction: FloatArray) -> dict[str, FloatArray]:
        # the slip velocity is not a state here: the rate_state driver reports it, the generic ones do not
        return {"driver_position": y[:, 0], "slip": y[:, 1], "normal_force": u[1], "friction_force": friction,
                "spring_force": self.stiffness * (y[:, 0] - y[:, 1])}
