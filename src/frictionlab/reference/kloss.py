r"""Closed forms for the Kloss-formula friction law (Martinez Molina 2025, hal-05273966).

Notation: :math:`a(v) = v_{max0} + \tfrac12\zeta|v|`, :math:`w = v/a`, so that
:math:`F = F_{max}\,2w/(1 + w^2)` (eqs. 8 and 11 rewritten).
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray
from scipy.integrate import quad

__all__ = ["peak_velocity", "coulomb_level", "viscous_slope", "rising_branch_velocity", "incline_creep_velocity",
           "spring_creep_time", "stopping_range", "stopping_range_zeta0", "lift_peak_angle", "lift_zero_angle"]


def peak_velocity(v_max0: float, zeta: float) -> float:
    r"""Location of the maximum, :math:`\lambda_{max} = v_{max0}/(1 - \zeta/2)` (eq. 12; AM-GM)."""
    return v_max0 / (1.0 - 0.5 * zeta)


def coulomb_level(f_max: float, zeta: float) -> float:
    r"""High-speed limit :math:`\zeta F_{max}/(1 + \zeta^2/4)` (eq. 13)."""
    return zeta * f_max / (1.0 + 0.25 * zeta * zeta)


def viscous_slope(f_max: float, v_max0: float) -> float:
    r"""Slope at zero velocity :math:`dF/dv|_0 = 2F_{max}/v_{max0}` [N s/m] (eqs. 8 and 11 expanded at :math:`v = 0`)."""
    return 2.0 * f_max / v_max0


def rising_branch_velocity(force: ArrayLike, f_max: float, v_max0: float, zeta: float) -> NDArray[np.float64]:
    r"""Velocity on the rising branch where :math:`F(v) = F` (eqs. 8 and 11 inverted), for :math:`0 \le F < F_{max}`.

    :math:`\phi = F/F_{max}`, :math:`w = (1 - \sqrt{1-\phi^2})/\phi`,
    :math:`v = v_{max0} w/(1 - \zeta w/2)`.
    """
    phi = np.asarray(force, dtype=float) / f_max
    with np.errstate(invalid="ignore", divide="ignore"):
        w = np.where(phi > 0, (1.0 - np.sqrt(1.0 - phi * phi)) / np.where(phi > 0, phi, 1.0), 0.0)
    return v_max0 * w / (1.0 - 0.5 * zeta * w)


def incline_creep_velocity(mass: float, angle_rad: float, f_max: float, v_max0: float, zeta: float,
                           g: float = 9.81) -> float:
    r"""Terminal creep speed on an incline, :math:`F(v^*) = m g\sin\theta` (eq. 22 at rest, Sec. V.B).
    The law has no true stiction, so the block never stops."""
    return float(rising_branch_velocity(mass * g * math.sin(angle_rad), f_max, v_max0, zeta))


def spring_creep_time(f_max: float, v_max0: float, stiffness: float) -> float:
    r"""Time constant of the slow creep of a mass on a wall spring, :math:`T = c_0/k_s`,
    :math:`c_0 = 2F_{max}/v_{max0}` (overdamped slow mode of eqs. 23-24, Sec. V.C)."""
    return viscous_slope(f_max, v_max0) / stiffness


def stopping_range(v0: float, mass: float, f_max: float, v_max0: float, zeta: float) -> float:
    r"""Stopping distance of a mass launched at ``v0`` (eqs. 39-40, Sec. VII.C):
    :math:`X = m\int_0^{v_0} v\,dv/F(v)`; the integrand tends to :math:`m v_{max0}/(2F_{max})` at 0."""

    def integrand(v: float) -> float:
        a = v_max0 + 0.5 * zeta * v
        return mass * (v * v + a * a) / (2.0 * f_max * a)

    lam = peak_velocity(v_max0, zeta)
    pts = [lam] if lam < v0 else None
    val, _ = quad(integrand, 0.0, v0, points=pts, epsabs=0, epsrel=1e-12, limit=200)
    return float(val)


def stopping_range_zeta0(v0: float, mass: float, f_max: float, v_max0: float) -> float:
    r"""Closed form for :math:`\zeta = 0`: :math:`m(v_0^3/3 + a_0^2 v_0)/(2F_{max}a_0)`."""
    return mass * (v0 ** 3 / 3.0 + v_max0 ** 2 * v0) / (2.0 * f_max * v_max0)


def lift_peak_angle(alpha_max0: float, zeta1: float, zeta2: float) -> float:
    r"""Angle where :math:`\alpha_{max}(\alpha) = \alpha`, i.e. :math:`C_L = C_{max}` (eqs. 37-38):
    root of :math:`\tfrac12\zeta_2\alpha^2 + (\tfrac12\zeta_1 - 1)\alpha + \alpha_{max0} = 0`."""
    qa, qb, qc = 0.5 * zeta2, 0.5 * zeta1 - 1.0, alpha_max0
    if qa == 0:
        return -qc / qb
    disc = qb * qb - 4 * qa * qc
    roots = [(-qb + s * math.sqrt(disc)) / (2 * qa) for s in (1, -1)]
    return min(r for r in roots if r > 0)


def lift_zero_angle(alpha_max0: float, zeta1: float, zeta2: float) -> float:
    r"""Angle where :math:`\alpha_{max}` reaches 0 (end of the model's validity, eq. 38)."""
    from ..laws.kloss import curve_valid_limit

    return curve_valid_limit(alpha_max0, zeta1, zeta2)
