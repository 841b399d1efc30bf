"""Helpers for the compensation strategies of :class:`~frictionlab.control.servo.ServoSystem`.

* :func:`feedthrough` -- the coefficient of the state *rate* in a law's force output
  (:math:`\\sigma_1` for LuGre, :math:`F = \\sigma_0 z + \\sigma_1\\dot z + \\sigma_2 v`), which
  turns the observer's error injection :math:`-k e` into the force term :math:`-\\sigma_1 k e`
  of Canudas de Wit et al. (1995, Sec. V).
* :func:`nominal_models` -- the Coulomb, Stribeck and LuGre models a designer would
  identify for a plant with Coulomb level ``fc``, static level ``fs``, Stribeck velocity
  ``vs`` and viscous coefficient ``sigma2`` (the compensators of the comparison scenario).
"""

from __future__ import annotations

import math

from ..core.base import AbstractLaw
from ..laws import Coulomb, LuGre, Stribeck

__all__ = ["feedthrough", "nominal_models"]


def feedthrough(model: AbstractLaw | None) -> float:
    """``dF/d(z')`` of the model's output map: sigma1 for LuGre, 0 for the other laws."""
    if isinstance(model, LuGre):
        return float(model.sigma1)
    return 0.0


def nominal_models(fc: float = 1.0, fs: float = 1.5, vs: float = 1e-3, sigma2: float = 0.4,
                   sigma0: float = 1e5, v_reg: float = 1e-5) -> dict[str, AbstractLaw]:
    """Coulomb (+ viscous is left out), Stribeck and LuGre models with the same levels.

    ``v_reg`` regularises the sign of the static models (a sampled feedforward of an exact
    sign would switch the full Coulomb force at every reference reversal).
    """
    return {
        "coulomb": Coulomb(mu=fc, v_reg=v_reg),
        "stribeck": Stribeck(fc=fc, fs=fs, vs=vs, sigma2=sigma2, v_reg=v_reg),
        "lugre": LuGre(sigma0=sigma0, sigma1=math.sqrt(sigma0), sigma2=sigma2, fc=fc, fs=fs, vs=vs),
    }
