"""Closed forms for Dieterich-Ruina rate-and-state friction."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["steady_mu", "direct_effect", "critical_stiffness"]


def steady_mu(v: ArrayLike, mu0: float, a: float, b: float, v0: float) -> NDArray[np.float64]:
    """Steady-state friction ``mu_ss = mu0 + (a - b) ln(v / v0)`` (log form)."""
    return mu0 + (a - b) * np.log(np.asarray(v, dtype=float) / v0)


def direct_effect(v1: float, v2: float, a: float) -> float:
    """Instantaneous friction change ``a ln(v2 / v1)`` at a velocity step (state unchanged)."""
    return float(a * np.log(v2 / v1))


def critical_stiffness(a: float, b: float, dc: float, normal_force: float) -> float:
    """Quasi-static linear-stability critical stiffness ``k_c = (b - a) N / dc`` (Ruina 1983)."""
    return float((b - a) * normal_force / dc)
