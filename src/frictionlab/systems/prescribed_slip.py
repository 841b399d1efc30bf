"""Prescribed slip: the model sees the protocol's velocity directly."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np

from ..core.base import FloatArray
from ..core.lazy import KernelRef
from .base import AbstractSystem, register_system

__all__ = ["PrescribedSlip"]


@register_system
@dataclass(frozen=True)
class PrescribedSlip(AbstractSystem):
    """Kinematic driving: slip velocity = protocol velocity. State: ``slip`` [m]."""

    type_name: ClassVar[str] = "prescribed_slip"
    state_names: ClassVar[tuple[str, ...]] = ("slip",)
    _rhs_kernel = KernelRef("frictionlab.systems.kernels", "prescribed_slip_rhs")

    def param_vector(self) -> FloatArray:
        return np.zeros(1)

    def outputs(self, y: FloatArray, u: FloatArray, friction: FloatArray) -> dict[str, FloatArray]:
        return {"slip": y[:, 0], "slip_velocity": u[0], "normal_force": u[1], "friction_force": friction}
