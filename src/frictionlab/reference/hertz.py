r"""Hertz contact of a sphere on a flat, in the rough-contact model's non-dimensional units.

With :math:`E^* = 2G/(1-\nu)` and :math:`F^* = 2\pi G L^{*2}/(1-\nu)` (Hulikal et al. eq. 6;
Johnson, Contact Mechanics, 1985, Sect. 4.2):

.. math:: \bar F_H = \frac{4}{3\pi}\sqrt{\bar R}\,\bar\delta^{3/2},\quad \bar a = \sqrt{\bar R\bar\delta},
          \quad \bar p_0 = \frac{2\bar a}{\pi^2\bar R}.

Without interaction (mean field, compliance :math:`\bar C^0` per element of area
:math:`\bar\Delta^2`): :math:`\bar F = \pi\bar R\bar\delta^2/(\bar C^0\bar\Delta^2)`,
:math:`\bar a = \sqrt{2\bar R\bar\delta}`; matching Hertz at :math:`\delta_{max}` gives
:math:`\bar C^0 = (3\pi^2/4)\sqrt{R\delta_{max}}/\bar\Delta^2` (Sect. 3 of Hulikal et al.: C0 'chosen to make the force at the final
indentation match the analytical solution').

References
----------
H. Hertz (1882); K. L. Johnson, Contact Mechanics (1985), §4.2.
"""

from __future__ import annotations

import numpy as np

__all__ = ["hertz_force", "hertz_radius", "hertz_indentation", "hertz_p0", "meanfield_force",
           "meanfield_radius", "meanfield_C0"]


def hertz_force(delta, R: float = 1.0):
    """Total force [F*] at indentation ``delta`` [L*]."""
    return 4.0 / (3.0 * np.pi) * np.sqrt(R) * np.asarray(delta, dtype=float) ** 1.5


def hertz_radius(delta, R: float = 1.0):
    """Contact radius [L*]."""
    return np.sqrt(R * np.asarray(delta, dtype=float))


def hertz_indentation(force, R: float = 1.0):
    """Inverse of :func:`hertz_force`."""
    return (3.0 * np.pi * np.asarray(force, dtype=float) / (4.0 * np.sqrt(R))) ** (2.0 / 3.0)


def hertz_p0(delta, R: float = 1.0):
    """Central pressure [F*/L*^2]."""
    return 2.0 * hertz_radius(delta, R) / (np.pi**2 * R)


def meanfield_force(delta, C0: float, dx: float, R: float = 1.0):
    """Continuum mean-field force :math:`\\pi R\\delta^2/(C^0\\Delta^2)`."""
    return np.pi * R * np.asarray(delta, dtype=float) ** 2 / (C0 * dx**2)


def meanfield_radius(delta, R: float = 1.0):
    """Mean-field contact radius :math:`\\sqrt{2R\\delta}`."""
    return np.sqrt(2.0 * R * np.asarray(delta, dtype=float))


def meanfield_C0(delta_max: float, dx: float, R: float = 1.0) -> float:
    """Compliance matching Hertz at ``delta_max`` (Hulikal et al., Sect. 3)."""
    return 3.0 * np.pi**2 / 4.0 * np.sqrt(R * delta_max) / dx**2
