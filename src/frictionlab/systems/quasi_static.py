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

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..core.base import FloatArray
from ..core.errors import ConfigError
from ..core.lazy import KernelRef
from ..core.params import option, param
from .base import AbstractSystem, register_system

__all__ = ["QuasiStaticSlider"]

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
    _rhs_kernel = KernelRef("frictionlab.systems.kernels", "quasi_static_rhs")

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
