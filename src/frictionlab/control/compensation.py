"""Helper for the compensation strategies of :class:`~frictionlab.control.servo.ServoSystem`.

* :func:`feedthrough` -- the coefficient of the state *rate* in a law's force output
  (:math:`\\sigma_1` for LuGre, :math:`F = \\sigma_0 z + \\sigma_1\\dot z + \\sigma_2 v`), which
  turns the observer's error injection :math:`-k e` into the force term :math:`-\\sigma_1 k e`
  of Canudas de Wit et al. (1995, Sec. V).
"""

from __future__ import annotations

from ..core.base import AbstractLaw
from ..laws import LuGre

__all__ = ["feedthrough"]


def feedthrough(model: AbstractLaw | None) -> float:
    """``dF/d(z')`` of the model's output map: sigma1 for LuGre, 0 for the other laws."""
    if isinstance(model, LuGre):
        return float(model.sigma1)
    return 0.0
