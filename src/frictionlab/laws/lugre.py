"""LuGre dynamic friction (Canudas de Wit, Olsson, Astrom & Lischinsky 1995)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, final

import numpy as np
from numba import njit

from ..core.base import AbstractLaw, FloatArray
from ..core.params import option, param
from ..core.registry import Preset, add_presets, register_model

__all__ = ["LuGre", "stribeck_g"]


@njit(cache=True, inline="always")
def stribeck_g(v, fn, p):
    """Stribeck curve ``g(v) = fc + (fs - fc) exp(-|v / vs|^delta)``, scaled by fn if p[7] > 0."""
    x = v / p[5]
    e = x * x if p[6] == 2.0 else abs(x) ** p[6]  # the common delta = 2 without pow()
    g = p[3] + (p[4] - p[3]) * math.exp(-e)
    if p[7] > 0.5:
        g *= fn
    return g


@njit(cache=True, inline="always")
def _rates(state, v, fn, p, out):
    g = stribeck_g(v, fn, p)
    if g <= 0.0:
        out[0] = -state[0] * 1e12  # no load: bristles relax immediately (stiff limit)
        return
    out[0] = v - p[0] * abs(v) * state[0] / g


@njit(cache=True, inline="always")
def _friction(state, v, fn, p):
    g = stribeck_g(v, fn, p)
    z = state[0]
    if g <= 0.0:
        zdot = -z * 1e12
    else:
        zdot = v - p[0] * abs(v) * z / g
    return p[0] * z + p[1] * zdot + p[2] * v


@final
@register_model
@dataclass(frozen=True)
class LuGre(AbstractLaw):
    r"""LuGre dynamic friction law.

    .. math::
        \dot z = v - \sigma_0 \frac{|v|}{g(v)} z, \qquad
        g(v) = F_c + (F_s - F_c)\, e^{-|v/v_s|^{\delta}}, \qquad
        F = \sigma_0 z + \sigma_1 \dot z + \sigma_2 v .

    With ``normal_scaling = True`` the Stribeck curve is scaled by the normal load,
    :math:`g \to N g` (so ``fc`` and ``fs`` become friction coefficients); the bristle
    stiffness and damping are not scaled.

    Parameters
    ----------
    sigma0 : float
        Bristle stiffness [N/m].
    sigma1 : float
        Bristle damping [N s/m].
    sigma2 : float
        Viscous coefficient [N s/m].
    fc, fs : float
        Coulomb and static (stiction) friction levels [N] (or [1] with normal scaling).
    vs : float
        Stribeck velocity [m/s].
    delta : float
        Stribeck exponent [1] (2 in the original paper).

    Notes
    -----
    Steady state: :math:`z_{ss} = \operatorname{sgn}(v) g(v)/\sigma_0` and
    :math:`F_{ss} = \operatorname{sgn}(v) g(v) + \sigma_2 v`
    (:func:`frictionlab.reference.lugre.steady_friction`).

    References
    ----------
    C. Canudas de Wit, H. Olsson, K. J. Astrom, P. Lischinsky, "A new model for control of
    systems with friction", IEEE Trans. Automatic Control 40(3), 419-425, 1995.
    """

    sigma0: float = param(1e5, units="N/m", lo=0.0, lo_open=True)
    sigma1: float = param(316.0, units="N s/m", lo=0.0)
    sigma2: float = param(0.4, units="N s/m", lo=0.0)
    fc: float = param(1.0, units="N", lo=0.0)
    fs: float = param(1.5, units="N", lo=0.0)
    vs: float = param(1e-3, units="m/s", lo=0.0, lo_open=True)
    delta: float = param(2.0, units="1", lo=0.0, lo_open=True)
    normal_scaling: bool = option(False, choices=(True, False))

    name: ClassVar[str] = "lugre"
    state_names: ClassVar[tuple[str, ...]] = ("bristle_deflection",)
    state_units: ClassVar[tuple[str, ...]] = ("m",)
    kernel_params: ClassVar[tuple[str, ...]] = ("sigma0", "sigma1", "sigma2", "fc", "fs", "vs", "delta", "normal_scaling")
    citation: ClassVar[str] = ("Canudas de Wit, C., Olsson, H., Astrom, K. J., Lischinsky, P. (1995). A new model for "
                               "control of systems with friction. IEEE Trans. Autom. Control 40(3), 419-425.")
    doi: ClassVar[str] = "10.1109/9.376053"
    _rates_kernel = _rates
    _friction_kernel = _friction

    def _steady_state(self, v: float, normal_force: float) -> FloatArray:
        g = stribeck_g(v, normal_force, self.param_vector())
        return np.array([math.copysign(g / self.sigma0, v) if v != 0 else 0.0])


add_presets("lugre", {
    "canudas1995": Preset(
        {"sigma0": 1e5, "sigma1": math.sqrt(1e5), "sigma2": 0.4, "fc": 1.0, "fs": 1.5, "vs": 1e-3},
        source="Canudas de Wit et al. (1995), simulation parameters (sigma1 = sqrt(sigma0))",
        doi="10.1109/9.376053"),
    "olsson1998": Preset(
        {"sigma0": 1e5, "sigma1": math.sqrt(1e5), "sigma2": 0.4, "fc": 1.0, "fs": 1.5, "vs": 1e-3},
        source="Olsson et al. (1998), Eur. J. Control 4, 176-195, Table 1", doi="10.1016/S0947-3580(98)70113-X"),
})
