"""Dieterich-Ruina rate-and-state friction with aging and slip evolution laws."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar, final

import numpy as np

from ..core.base import AbstractLaw, FloatArray
from ..core.lazy import KernelRef
from ..core.params import option, param
from ..core.registry import Preset, add_presets, register_model, declare_drivers

__all__ = ["RateState"]

_VMIN = 1e-300


@final
@register_model
@dataclass(frozen=True)
class RateState(AbstractLaw):
    r"""Dieterich-Ruina rate-and-state friction (one state variable).

    .. math::
        \mu = \mu_0 + a \ln\frac{|v|}{v_0} + b \ln\frac{v_0 \theta}{D_c}, \qquad
        F = \operatorname{sgn}(v)\,\mu\,N

    with the aging law :math:`\dot\theta = 1 - |v|\theta/D_c` (Dieterich 1979) or the slip
    law :math:`\dot\theta = -\frac{|v|\theta}{D_c}\ln\frac{|v|\theta}{D_c}` (Ruina 1983).
    ``form = "arcsinh"`` uses the regularised
    :math:`\mu = a\,\operatorname{asinh}\!\big(\frac{|v|}{2v_0} e^{(\mu_0 + b\ln(v_0\theta/D_c))/a}\big)`
    (Rice & Ben-Zion 1996; Lapusta et al. 2000), finite at v = 0, identical to the log form
    to within :math:`O(e^{-2\mu/a})` when sliding.

    Parameters
    ----------
    mu0 : float
        Reference friction coefficient at ``v0`` [1].
    a, b : float
        Direct-effect and evolution-effect parameters [1].
    dc : float
        Critical slip distance [m].
    v0 : float
        Reference velocity [m/s].
    v_init : float
        Velocity at which the initial state is steady, theta(0) = dc / v_init [m/s].
    """

    mu0: float = param(0.6, units="1", lo=0.0)
    a: float = param(0.01, units="1", lo=0.0, lo_open=True)
    b: float = param(0.015, units="1", lo=0.0)
    dc: float = param(1e-5, units="m", lo=0.0, lo_open=True)
    v0: float = param(1e-6, units="m/s", lo=0.0, lo_open=True)
    v_init: float = param(1e-6, units="m/s", lo=0.0, lo_open=True)
    law: str = option("aging", choices=("aging", "slip"))
    form: str = option("log", choices=("log", "arcsinh"))

    name: ClassVar[str] = "rate_state"
    state_names: ClassVar[tuple[str, ...]] = ("state_theta",)
    state_units: ClassVar[tuple[str, ...]] = ("s",)
    #: a driven spring-slider starts at steady sliding by default (no finite friction at rest)
    starts_steady: ClassVar[bool] = True
    #: theta is a time (the age of the contacts, Dieterich 1979): a saved theta <= 0 is numerical garbage
    state_min: ClassVar[tuple[float, ...]] = (0.0,)
    citation: ClassVar[str] = ("Dieterich, J. H. (1979). Modeling of rock friction 1. J. Geophys. Res. 84(B5), 2161-2168; "
                               "Ruina, A. (1983). Slip instability and state variable friction laws. J. Geophys. Res. 88(B12), 10359-10370.")
    doi: ClassVar[str] = "10.1029/JB084iB05p02161"
    _rates_kernel = KernelRef("frictionlab.laws.rate_state_kernels", "_rates")
    _friction_kernel = KernelRef("frictionlab.laws.rate_state_kernels", "_friction")

    def param_vector(self) -> FloatArray:
        return np.array([self.mu0, self.a, self.b, self.dc, self.v0,
                         1.0 if self.law == "slip" else 0.0, 1.0 if self.form == "arcsinh" else 0.0])

    def initial_state(self) -> FloatArray:
        return np.array([self.dc / self.v_init])

    def _steady_state(self, v: float, normal_force: float) -> FloatArray:
        return np.array([self.dc / max(abs(v), _VMIN)])

    def critical_stiffness(self, normal_force: float = 1.0) -> float:
        """Linear-stability critical stiffness k_c = (b - a) N / dc (Ruina 1983)."""
        return (self.b - self.a) * normal_force / self.dc


add_presets("rate_state", {
    "granite-typical": Preset({"mu0": 0.6, "a": 0.010, "b": 0.015, "dc": 1e-5, "v0": 1e-6},
                              source="typical laboratory values for granite (Marone 1998, Annu. Rev. Earth Planet. Sci. 26, 643)",
                              doi="10.1146/annurev.earth.26.1.643"),
})

# the drivers of simulate, imported at the first lookup of one
declare_drivers(RateState, ".rate_state_drivers")
