"""Prescribed slip: the model sees the protocol's velocity directly."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numba import njit

from ..core.base import FloatArray
from .base import AbstractSystem, register_system

__all__ = ["PrescribedSlip"]


@njit(cache=False)  # jitted-kernel arguments: never a cache hit, and the index grows until it breaks
def _rhs(y, u, sp, law_rates, law_friction, lp, dy):
    v = u[0]
    fn = u[1]
    dy[0] = v
    z = y[1:]
    if z.size:
        law_rates(z, v, fn, lp, dy[1:])
    return law_friction(z, v, fn, lp)


@register_system
@dataclass(frozen=True)
class PrescribedSlip(AbstractSystem):
    """Kinematic driving: slip velocity = protocol velocity. State: ``slip`` [m]."""

    type_name: ClassVar[str] = "prescribed_slip"
    state_names: ClassVar[tuple[str, ...]] = ("slip",)
    _rhs_kernel = _rhs

    def param_vector(self) -> FloatArray:
        return np.zeros(1)

    def outputs(self, y: FloatArray, u: FloatArray, friction: FloatArray) -> dict[str, FloatArray]:
        return {"slip": y[:, 0], "slip_velocity": u[0], "normal_force": u[1], "friction_force": friction}
