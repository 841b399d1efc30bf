"""Rate-and-state friction with two state variables (Ruina 1983, Sec. 4; Gu et al. 1984)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, final

import numpy as np

from ..core.base import AbstractLaw, FloatArray
from ..core.lazy import KernelRef
from ..core.params import option, param
from ..core.registry import register_model, declare_drivers

__all__ = ["RateState2"]

_VMIN = 1e-300


@final
@register_model
@dataclass(frozen=True)
class RateState2(AbstractLaw):
    r"""Dieterich-Ruina rate-and-state friction with two state variables.

    .. math::
        \mu = \mu_0 + a \ln\frac{|v|}{v_0} + b_1 \ln\frac{v_0 \theta_1}{D_{c1}}
              + b_2 \ln\frac{v_0 \theta_2}{D_{c2}}, \qquad F = \operatorname{sgn}(v)\,\mu\,N,

    each :math:`\theta_i` evolving by the aging law :math:`\dot\theta_i = 1 - |v|\theta_i/D_{ci}`
    or the slip law :math:`\dot\theta_i = -\frac{|v|\theta_i}{D_{ci}}\ln\frac{|v|\theta_i}{D_{ci}}`
    (Ruina 1983, Sec. 4; the two-state form fitted to laboratory steps by Blanpied & Tullis
    1986 and used in rsfmodel). Steady state: :math:`\mu_{ss} = \mu_0 + (a - b_1 - b_2)\ln(v/v_0)`.

    Parameters
    ----------
    mu0 : float
        Reference friction coefficient at ``v0`` [1].
    a : float
        Direct-effect parameter [1].
    b1, b2 : float
        Evolution-effect parameters of the two state variables [1] (``b2`` may be negative).
    dc1, dc2 : float
        Critical slip distances [m].
    v0 : float
        Reference velocity [m/s].
    v_init : float
        Velocity at which both initial states are steady, theta_i(0) = dc_i / v_init [m/s].
    """

    mu0: float = param(0.6, units="1", lo=0.0)
    a: float = param(0.01, units="1", lo=0.0, lo_open=True)
    b1: float = param(0.01, units="1", lo=0.0)
    dc1: float = param(1e-5, units="m", lo=0.0, lo_open=True)
    b2: float = param(0.005, units="1")
    dc2: float = param(1e-4, units="m", lo=0.0, lo_open=True)
    v0: float = param(1e-6, units="m/s", lo=0.0, lo_open=True)
    v_init: float = param(1e-6, units="m/s", lo=0.0, lo_open=True)
    law: str = option("aging", choices=("aging", "slip"))

    name: ClassVar[str] = "rate_state2"
    state_names: ClassVar[tuple[str, ...]] = ("state_theta1", "state_theta2")
    state_units: ClassVar[tuple[str, ...]] = ("s", "s")
    #: a driven spring-slider starts at steady sliding by default, as with the one-state law: at rest (v = 0)
    #: the log law has no finite friction (mu0 + a ln(1e-300 / v0) < 0 pushes the slider on) and its
    #: stiffness a N / (M v) is unbounded, so an adaptive explicit solver crawled at steps of 1e-10 s
    starts_steady: ClassVar[bool] = True
    #: each theta is a time (the age of the contacts): a saved theta <= 0 is numerical garbage
    state_min: ClassVar[tuple[float, ...]] = (0.0, 0.0)
    citation: ClassVar[str] = ("Ruina, A. (1983). Slip instability and state variable friction laws. J. Geophys. Res. "
                               "88(B12), 10359-10370; Gu, J.-C., Rice, J. R., Ruina, A. L., Tse, S. T. (1984). J. Mech. "
                               "Phys. Solids 32(3), 167-196.")
    doi: ClassVar[str] = "10.1029/JB088iB12p10359"
    typical_inputs: ClassVar[dict[str, float]] = {"v": 1e-5, "normal_force": 1.0, "duration": 1.0}
    _rates_kernel = KernelRef("frictionlab.laws.rate_state2_kernels", "_rates")
    _friction_kernel = KernelRef("frictionlab.laws.rate_state2_kernels", "_friction")

    def param_vector(self) -> FloatArray:
        return np.array([self.mu0, self.a, self.b1, self.dc1, self.b2, self.dc2, self.v0,
                         1.0 if self.law == "slip" else 0.0])

    def initial_state(self) -> FloatArray:
        return np.array([self.dc1 / self.v_init, self.dc2 / self.v_init])

    def _steady_state(self, v: float, normal_force: float) -> FloatArray:
        return np.array([self.dc1, self.dc2]) / max(abs(v), _VMIN)

# the drivers of simulate, imported at the first lookup of one
declare_drivers(RateState2, ".rate_state_drivers")
