"""Static Stribeck friction: Coulomb + static (stiction) + viscous, optionally regularised."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, final

import numpy as np
from numba import njit

from ..core.base import AbstractLaw
from ..core.params import option, param
from ..core.registry import Preset, add_presets, register_model

__all__ = ["Stribeck"]


@njit(cache=True, inline="always")
def _rates(state, v, fn, p, out):
    pass


@njit(cache=True, inline="always")
def _friction(state, v, fn, p):
    # p = [fc, fs, vs, delta, sigma2, viscous_exponent, v_reg, normal_scaling]
    fc, fs, vs, delta, sigma2, nv, v_reg = p[0], p[1], p[2], p[3], p[4], p[5], p[6]
    av = abs(v)
    g = fc + (fs - fc) * math.exp(-((av / vs) ** delta))
    if p[7] > 0.5:
        g *= fn
    if v_reg > 0.0:
        sgn = math.tanh(v / v_reg)
    elif v > 0.0:
        sgn = 1.0
    elif v < 0.0:
        sgn = -1.0
    else:
        sgn = 0.0
    visc = sigma2 * av**nv
    if v < 0.0:
        visc = -visc
    return g * sgn + visc


@final
@register_model
@dataclass(frozen=True)
class Stribeck(AbstractLaw):
    r"""Static Stribeck friction curve (no internal state).

    .. math::
        F(v) = \big[F_c + (F_s - F_c)\, e^{-|v/v_s|^{\delta}}\big]\,\operatorname{sgn}(v)
               + \sigma_2 \operatorname{sgn}(v) |v|^{n_v}

    The Coulomb level ``fc``, the static level ``fs`` reached as :math:`v \to 0`, the
    Stribeck velocity ``vs`` and exponent ``delta`` (Armstrong-Helouvry 1991; Olsson et al.
    1998 eq. 4) plus a viscous term with exponent ``viscous_exponent`` (1: linear viscous
    friction). With ``v_reg > 0`` the sign is regularised as :math:`\tanh(v/v_{reg})` so that
    the law is continuous (usable with explicit integrators in a spring-slider);
    ``v_reg = 0`` is the exact law with :math:`F(0) = 0`. With ``normal_scaling`` the
    Coulomb/static levels are friction coefficients multiplied by the normal load.

    Parameters
    ----------
    fc : float
        Coulomb friction level [N] (or [1] with normal scaling).
    fs : float
        Static (stiction) level [N] (or [1] with normal scaling).
    vs : float
        Stribeck velocity [m/s].
    delta : float
        Stribeck exponent [1] (2: Gaussian, 1: exponential decay).
    sigma2 : float
        Viscous coefficient [N (s/m)^n_v].
    viscous_exponent : float
        Exponent n_v of the viscous term [1].
    v_reg : float
        Regularisation velocity of the sign [m/s]; 0 for the exact law.
    normal_scaling : bool
        Multiply the Stribeck curve by the normal load.

    Notes
    -----
    The law is odd, F(-v) = -F(v). It is the steady-state curve of LuGre with the same
    ``fc, fs, vs, delta, sigma2`` and ``viscous_exponent = 1``.

    References
    ----------
    B. Armstrong-Helouvry, *Control of Machines with Friction*, Kluwer, 1991.
    H. Olsson, K. J. Astrom, C. Canudas de Wit, M. Gafvert, P. Lischinsky, "Friction
    models and friction compensation", Eur. J. Control 4, 176-195, 1998.
    """

    fc: float = param(1.0, units="N", lo=0.0)
    fs: float = param(1.5, units="N", lo=0.0)
    vs: float = param(1e-3, units="m/s", lo=0.0, lo_open=True)
    delta: float = param(2.0, units="1", lo=0.0, lo_open=True)
    sigma2: float = param(0.4, units="N s/m", lo=0.0)
    viscous_exponent: float = param(1.0, units="1", lo=0.0, lo_open=True)
    v_reg: float = param(0.0, units="m/s", lo=0.0)
    normal_scaling: bool = option(False, choices=(True, False))

    name: ClassVar[str] = "stribeck"
    kernel_params: ClassVar[tuple[str, ...]] = ("fc", "fs", "vs", "delta", "sigma2", "viscous_exponent",
                                                "v_reg", "normal_scaling")
    citation: ClassVar[str] = ("Olsson, H., Astrom, K. J., Canudas de Wit, C., Gafvert, M., Lischinsky, P. (1998). "
                               "Friction models and friction compensation. Eur. J. Control 4(3), 176-195.")
    doi: ClassVar[str] = "10.1016/S0947-3580(98)70113-X"
    _rates_kernel = _rates
    _friction_kernel = _friction


add_presets("stribeck", {
    "canudas1995": Preset(
        {"fc": 1.0, "fs": 1.5, "vs": 1e-3, "delta": 2.0, "sigma2": 0.4, "viscous_exponent": 1.0},
        source="steady-state curve of the LuGre parameters of Canudas de Wit et al. (1995)",
        doi="10.1109/9.376053"),
    "canudas1995-regularised": Preset(
        {"fc": 1.0, "fs": 1.5, "vs": 1e-3, "delta": 2.0, "sigma2": 0.4, "viscous_exponent": 1.0, "v_reg": 1e-5},
        source="as 'canudas1995' with tanh(v / 1e-5 m/s) sign regularisation (our choice)",
        doi="10.1109/9.376053"),
})
_ = np
