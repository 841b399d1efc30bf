r"""Closed forms for the Boussinesq half-space and the mean-field rough contact.

* Point load (Boussinesq): surface displacement :math:`u(r) = (1-\nu)F/(2\pi G r)`, i.e.
  :math:`\bar u = \bar F/\bar r` in the units of Hulikal et al. (eq. 6).
* Uniform load on a square of side :math:`\Delta` (Love): displacement at the centre
  :math:`4\ln(1+\sqrt2)\,\bar F/\bar\Delta = 3.5255\,\bar F/\bar\Delta`; the paper uses 3.8.
* Mean-field (Greenwood-Williamson-like) closed forms for i.i.d. Gaussian heights at
  :math:`t=0^+` with compliance :math:`cC^0` and :math:`\eta = d/\sigma` (spec D17):
  :math:`\bar A/(N\bar\Delta^2) = \bar\Phi(\eta)`,
  :math:`W/N = \sigma[\varphi(\eta) - \eta\bar\Phi(\eta)]/(cC^0)`,
  :math:`\mu_s = \bar\tau_S\bar\Delta^2 N\bar\Phi(\eta)/W`.

References
----------
J. Boussinesq (1885); A. E. H. Love, Phil. Trans. R. Soc. A 228 (1929) 377;
J. A. Greenwood, J. B. P. Williamson, Proc. R. Soc. A 295 (1966) 300.
"""

from __future__ import annotations

import math

import numpy as np
from scipy import optimize

__all__ = ["point_load_displacement", "square_centre_coef", "meanfield_eta", "meanfield_area_fraction",
           "meanfield_mu"]


def point_load_displacement(force, r):
    """Non-dimensional Boussinesq displacement F/r."""
    return np.asarray(force, dtype=float) / np.asarray(r, dtype=float)


def square_centre_coef() -> float:
    """4 ln(1 + sqrt 2) = 3.5255 (uniform square load, centre displacement x dx / F)."""
    return 4.0 * math.log1p(math.sqrt(2.0))


def _load_per_element(eta: float, sigma: float, C: float) -> float:
    from scipy import stats  # here, not at import: scipy.stats alone costs ~0.3 s (frictionlab list)

    return sigma * (stats.norm.pdf(eta) - eta * stats.norm.sf(eta)) / C


def meanfield_eta(pressure_bar: float, dx: float = 1.0, sigma: float = 1.0, C0: float = 16.0, c: float = 1.0) -> float:
    """Normalised dilatation :math:`\\eta = d/\\sigma` solving the load equation of D17."""
    w = pressure_bar * dx * dx
    return float(optimize.brentq(lambda e: _load_per_element(e, sigma, c * C0) - w, -10.0, 40.0, xtol=1e-14))


def meanfield_area_fraction(pressure_bar: float, **kw) -> float:
    from scipy import stats

    return float(stats.norm.sf(meanfield_eta(pressure_bar, **kw)))


def meanfield_mu(pressure_bar: float, tau_s: float, dx: float = 1.0, **kw) -> float:
    """:math:`\\mu_s = \\bar\\tau_S\\bar\\Phi(\\eta)/(\\bar p\\,)` per element of area dx^2."""
    frac = meanfield_area_fraction(pressure_bar, dx=dx, **kw)
    return tau_s * frac / pressure_bar
