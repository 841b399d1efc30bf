"""Closed forms for the LuGre model (Canudas de Wit et al. 1995)."""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["steady_friction"]


def steady_friction(v: ArrayLike, fc: float, fs: float, vs: float, sigma2: float, delta: float = 2.0,
                    normal_force: float = 1.0, normal_scaling: bool = False) -> NDArray[np.float64]:
    """Steady-state LuGre friction ``F_ss(v) = sgn(v) g(v) + sigma2 v``."""
    v = np.asarray(v, dtype=float)
    g = fc + (fs - fc) * np.exp(-np.abs(v / vs) ** delta)
    if normal_scaling:
        g = g * normal_force
    return np.sign(v) * g + sigma2 * v
