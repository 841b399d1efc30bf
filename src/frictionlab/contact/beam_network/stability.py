r"""Closed-form linear stability of steady sliding of one integrated unit beam (IUB).

The beam-network paper (doi:10.1115/1.4042247), eqs. (10)-(11) with no network force: a tip mass
:math:`m` on the bending spring :math:`k_b` and damper :math:`c_b` driven at :math:`V`, with the
LuGre element :math:`\sigma_0, \sigma_1, \sigma_2` under the normal load :math:`f_z` and the
Stribeck curve :math:`g(v) = \mu_C + (\mu_S - \mu_C) e^{-(v/v_s)^\alpha}`. Linearised about
steady sliding (:math:`\dot u = V`, :math:`z = f_z g(V)/\sigma_0`), with
:math:`\lambda_0 = \sigma_0 V / (f_z g)`, the weakening index :math:`\beta = -V g'(V)/g` and
:math:`c = c_b + \sigma_2`:

.. math::
    m s^3 + a_2 s^2 + a_1 s + a_0 = 0, \quad a_2 = c + m\lambda_0 - \beta\sigma_1, \quad
    a_1 = k_b + c\lambda_0 - \beta\sigma_0, \quad a_0 = k_b \lambda_0 > 0 .

Routh-Hurwitz: steady sliding is stable iff :math:`a_2 > 0`, :math:`a_1 > 0` and
:math:`a_2 a_1 > m a_0`. The three ways to lose it are the branches reported here:

* *micro-damping* :math:`c + m\lambda_0 < \beta\sigma_1` -- the LuGre micro-damping
  :math:`\sigma_1` acting on the falling Stribeck curve makes the element non-passive (the known
  non-passivity of LuGre with constant :math:`\sigma_1`); it dominates when :math:`c_b` is small;
* *stiffness* :math:`k_b + c\lambda_0 < \beta\sigma_0`, i.e.
  :math:`\beta > k_b/\sigma_0 + c V/(f_z g)`: the load enters through :math:`c V/(f_z g)`, so
  the band widens and the critical velocity rises with the normal load;
* *coupled*: both coefficients positive but :math:`a_2 a_1 < m a_0` (a heavy tip).

Because :math:`\beta \to 0` as :math:`V \to 0` and as :math:`V \to \infty`, the unstable set is a
band of velocities around :math:`v_s`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .mlbnm import iub_arrays
from .params import BeamNetworkParams

__all__ = ["IUBStability", "iub_stability", "band_edges"]


@dataclass(frozen=True)
class IUBStability:
    """Routh-Hurwitz analysis over ``velocity`` [m/s] (arrays of that shape).

    ``micro_damping``, ``stiffness``, ``coupled``: which stability condition fails;
    ``unstable``: any of them; ``growth_rate`` [1/s]: the largest real part of the roots of the
    cubic (computed numerically on access, an independent check of the Hurwitz verdict);
    ``stiffness_threshold``: :math:`k_b/\\sigma_0 + c V/(f_z g)` that :math:`\\beta` must exceed.
    """

    velocity: np.ndarray
    beta: np.ndarray
    m: float
    a2: np.ndarray
    a1: np.ndarray
    a0: np.ndarray
    stiffness_threshold: np.ndarray

    @property
    def growth_rate(self) -> np.ndarray:
        return np.array([np.roots([self.m, b2, b1, b0]).real.max() for b2, b1, b0 in zip(self.a2, self.a1, self.a0)])

    @property
    def micro_damping(self) -> np.ndarray:
        return self.a2 < 0

    @property
    def stiffness(self) -> np.ndarray:
        return self.a1 < 0

    @property
    def coupled(self) -> np.ndarray:
        return (self.a2 > 0) & (self.a1 > 0) & (self.a2 * self.a1 < self.m * self.a0)

    @property
    def unstable(self) -> np.ndarray:
        return self.micro_damping | self.stiffness | self.coupled


def iub_stability(p: BeamNetworkParams, velocity, single: bool = True, column: int = 0) -> IUBStability:
    """Linear stability of steady sliding at ``velocity`` (scalar or array) [m/s].

    ``single``: the whole-patch IUB (Sec. 3.2, all beams, :math:`f_z = F_z`); otherwise the
    MLBNM column ``column`` taken alone (its summed parameters and load, links ignored).
    """
    a = iub_arrays(p, single=single)
    m, kb = float(a["m"][column]), float(a["kb"][column])
    c = float(a["cb"][column] + a["s2"][column])
    s0, s1, fz = float(a["s0"][column]), float(a["s1"][column]), float(a["fz"][column])
    v = np.atleast_1d(np.asarray(velocity, dtype=float))
    x = v / p.v_stribeck
    e = np.exp(-(x**p.alpha))
    g = p.mu_c + (p.mu_s - p.mu_c) * e
    beta = p.alpha * x**p.alpha * (p.mu_s - p.mu_c) * e / g
    lam0 = s0 * v / (fz * g)
    a2 = c + m * lam0 - beta * s1
    a1 = kb + c * lam0 - beta * s0
    a0 = kb * lam0
    return IUBStability(v, beta, m, a2, a1, a0, kb / s0 + c * v / (fz * g))


def band_edges(p: BeamNetworkParams, velocity) -> tuple[float, float]:
    """(lowest, highest) unstable velocity of the whole-patch IUB on the grid ``velocity``; nan when stable."""
    st = iub_stability(p, velocity)
    un = st.velocity[st.unstable]
    return (float(un.min()), float(un.max())) if un.size else (float("nan"), float("nan"))
