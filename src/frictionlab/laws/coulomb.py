"""Coulomb friction, exact or regularised."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, final

import numpy as np
from numba import njit

from ..core.base import AbstractLaw
from ..core.registry import Preset, add_presets, register_model
from ..core.params import param

__all__ = ["Coulomb"]


@njit(cache=True, inline="always")
def _rates(state, v, fn, p, out):
    pass


@njit(cache=True, inline="always")
def _friction(state, v, fn, p):
    mu, v_reg = p[0], p[1]
    if v_reg > 0.0:
        return mu * fn * math.tanh(v / v_reg)
    if v > 0.0:
        return mu * fn
    if v < 0.0:
        return -mu * fn
    return 0.0


@final
@register_model
@dataclass(frozen=True)
class Coulomb(AbstractLaw):
    r"""Coulomb friction :math:`F = \mu N \operatorname{sgn}(v)`.

    With ``v_reg > 0`` the sign is regularised as :math:`\tanh(v / v_{reg})`, which makes
    the law smooth (and usable with explicit integrators in a spring-slider); ``v_reg = 0``
    gives the exact set-valued law with ``F(0) = 0``.

    Parameters
    ----------
    mu : float
        Friction coefficient [1].
    v_reg : float
        Regularisation velocity [m/s]; 0 for the exact law.
    """

    mu: float = param(0.5, units="1", lo=0.0)
    v_reg: float = param(0.0, units="m/s", lo=0.0)

    name: ClassVar[str] = "coulomb"
    kernel_params: ClassVar[tuple[str, ...]] = ("mu", "v_reg")
    citation: ClassVar[str] = "Coulomb, C. A. (1785). Theorie des machines simples. Mem. Math. Phys. Acad. Sci. 10, 161-331."
    _rates_kernel = _rates
    _friction_kernel = _friction


add_presets("coulomb", {"steel-steel-dry": Preset({"mu": 0.6, "v_reg": 1e-4}, source="typical handbook value (assumption)")})
_ = np  # keep numpy imported for kernels that need it
