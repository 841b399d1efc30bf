r"""Geometric creep law of a creeping JG hemisphere with low-δ adjustment (Goedecke 2013, Sect. 4.4).

Mean contact pressure relaxes at fixed geometry as

.. math::
    \left.\frac{\partial p}{\partial t}\right|_{cr} = -\big(A_1\sinh(\alpha_1\hat p)
        + A_2\sinh(\alpha_2\hat p)\big)\quad[\mathrm{Pa/s}],\qquad
    \hat p = \frac{F^*F_c}{A^*A_c} = \tfrac23 C_\nu\sigma_Y\frac{F^*}{A^*}

with coefficients fitted on the maximum interference :math:`\hat\delta^*_{max}`

.. math::
    A_k = EC_1\exp\!\big(a_{A_k}(1 + b_{A_k}e^{c_{A_k}\hat\delta^*_{max}})\big),\qquad
    \alpha_k = \frac{a_{\alpha_k}}{H_G}\big(1 + b_{\alpha_k}e^{c_{\alpha_k}\hat\delta^*_{max}}\big)

where :math:`H_G` is the JG hardness at the radius of the max-history JG area. With stress
reinsertion (Eq. 3.36, :math:`\partial p^*/\partial\delta^* = f_AC_\nu(A^*)^{-1/2}`) and the
area term of Eq. 3.39, the interference creep rate at constant force, in physical time, is

.. math::
    \left.\frac{d\delta^*}{dt}\right|_{cr} = \frac{-\,\partial p/\partial t|_{cr}/\sigma_Y}
        {f_AC_\nu(A^*)^{-1/2} + \tfrac23C_\nu F^*(A^*)^{-2}\,\partial A^*_{JG}/\partial\delta^*}
    \quad[1/\mathrm s]

Notes
-----
Corrections of the printed Appendix A: its :math:`\hat p = F^*F_c/(A^*A_c\sigma_Y)\cdot 1/\sigma_Y`
carries a spurious extra :math:`1/\sigma_Y` (here it is the dimensional pressure, so that
:math:`\alpha_k\hat p` is dimensionless, as the :math:`1/H_G` in the printed :math:`\alpha_k`
requires); its "∂p/∂l" is ∂p/∂t (the creep law of Sect. 4.4 is a rate in time); the σ_Y missing
from the area term of Eq. (3.39) is inserted (the term is then dimensionless like the
reinsertion term of Eq. 3.36). The appendix's normalised time :math:`t_1 = EC_1/H_G` (Eq. 2.33)
is a rate and its two uses (:math:`\partial p^*/\partial\tau` and :math:`\partial F^*/\partial\tau`)
contradict each other; the model is integrated in physical time, where :math:`t_1` cancels
exactly. :math:`C_2` is declared global but unused in the appendix: it is
accepted and ignored; ``c2_factor`` (default 1) multiplies both :math:`\alpha_k` and is a
speculative hook (e.g. :math:`C_2\sigma_Y`), not part of the source.

References
----------
Goedecke, A. (2013). Transient Effects in Friction: Fractal Asperity Creep, Sect. 4.4 and
Appendix A. Springer. doi:10.1007/978-3-7091-1506-0.
Goedecke, A., Mock, R. (2009). Creep relaxation of an elastic-perfectly plastic hemisphere in
fully plastic contact. J. Tribol. 131, 021407. doi:10.1115/1.3075868.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit

from .jackson_green import _area_jg, _darea_jg, _hardness_ratio

__all__ = ["CREEP_COEFFICIENTS", "creep_coefficients", "pressure_rate", "creep_delta_rate"]

#: fitted (a, b, c) of A_1, alpha_1, A_2, alpha_2 (Goedecke 2013, Appendix A)
CREEP_COEFFICIENTS = {
    "A1": (1.07727, -0.34304, -0.11265),
    "alpha1": (2.19198, 0.50746, -0.0874),
    "A2": (-1.85662, 1.52833, -0.05672),
    "alpha2": (4.29534, 0.89977, -0.06492),
}
_CO = np.array([CREEP_COEFFICIENTS[k] for k in ("A1", "alpha1", "A2", "alpha2")])
_A1A, _A1B, _A1C = _CO[0]
_L1A, _L1B, _L1C = _CO[1]
_A2A, _A2B, _A2C = _CO[2]
_L2A, _L2B, _L2C = _CO[3]
#: sinh argument above which the creep law is declared divergent
SINH_LIMIT = 700.0


@njit(cache=True)
def _coefficients(dmax, e, c1, sigma_y, b, ar_coef, c2_factor, out):
    """out = (A1 [Pa/s], alpha1 [1/Pa], A2 [Pa/s], alpha2 [1/Pa], H_G [Pa])."""
    hg = sigma_y * _hardness_ratio(ar_coef * math.sqrt(_area_jg(dmax, b)))
    ec1 = e * c1
    out[0] = ec1 * math.exp(_A1A * (1.0 + _A1B * math.exp(_A1C * dmax)))
    out[1] = c2_factor * _L1A / hg * (1.0 + _L1B * math.exp(_L1C * dmax))
    out[2] = ec1 * math.exp(_A2A * (1.0 + _A2B * math.exp(_A2C * dmax)))
    out[3] = c2_factor * _L2A / hg * (1.0 + _L2B * math.exp(_L2C * dmax))
    out[4] = hg


@njit(cache=True)
def _pressure_rate(force, area, dmax, e, c1, sigma_y, cnu, b, ar_coef, c2_factor):
    """dp/dt|_cr [Pa/s] (<= 0); returns +inf when a sinh argument exceeds SINH_LIMIT."""
    if c1 == 0.0:
        return 0.0
    hg = sigma_y * _hardness_ratio(ar_coef * math.sqrt(_area_jg(dmax, b)))
    ec1 = e * c1
    a1 = ec1 * math.exp(_A1A * (1.0 + _A1B * math.exp(_A1C * dmax)))
    l1 = c2_factor * _L1A / hg * (1.0 + _L1B * math.exp(_L1C * dmax))
    a2 = ec1 * math.exp(_A2A * (1.0 + _A2B * math.exp(_A2C * dmax)))
    l2 = c2_factor * _L2A / hg * (1.0 + _L2B * math.exp(_L2C * dmax))
    p = 2.0 / 3.0 * cnu * sigma_y * force / area
    x1 = l1 * p
    x2 = l2 * p
    if abs(x1) > SINH_LIMIT or abs(x2) > SINH_LIMIT:
        return math.inf
    return -(a1 * math.sinh(x1) + a2 * math.sinh(x2))


@njit(cache=True)
def _creep_delta_rate(force, area, delta, dmax, e, c1, sigma_y, cnu, b, ar_coef, c2_factor, f_a, area_term):
    """Interference creep rate at constant force [1/s] (Eq. 3.39 in physical time)."""
    dpdt = _pressure_rate(force, area, dmax, e, c1, sigma_y, cnu, b, ar_coef, c2_factor)
    if dpdt == 0.0:
        return 0.0
    if math.isinf(dpdt):
        return math.inf
    den = f_a * cnu / math.sqrt(area)
    if area_term:
        den += 2.0 / 3.0 * cnu * force / (area * area) * _darea_jg(delta, b)
    return -dpdt / sigma_y / den


def creep_coefficients(dmax: float, e: float, c1: float, sigma_y: float, b: float, ar_coef: float,
                       c2_factor: float = 1.0) -> dict[str, float]:
    """Creep-law coefficients at max interference ``dmax`` (Appendix A, "Low δ-adjustment in Sect. 4.4").

    Returns ``A1``, ``A2`` [Pa/s], ``alpha1``, ``alpha2`` [1/Pa] and ``H_G`` [Pa].
    """
    out = np.empty(5)
    _coefficients(float(dmax), e, c1, sigma_y, b, ar_coef, c2_factor, out)
    return dict(zip(("A1", "alpha1", "A2", "alpha2", "H_G"), map(float, out)))


def pressure_rate(force: float, area: float, dmax: float, e: float, c1: float, sigma_y: float, cnu: float,
                  b: float, ar_coef: float, c2_factor: float = 1.0) -> float:
    """Pressure relaxation rate at fixed geometry :math:`\\partial p/\\partial t|_{cr}` [Pa/s] (Appendix A:
    :math:`-(A_1\\sinh(\\alpha_1\\hat p) + A_2\\sinh(\\alpha_2\\hat p))`)."""
    return float(_pressure_rate(float(force), float(area), float(dmax), e, c1, sigma_y, cnu, b, ar_coef, c2_factor))


def creep_delta_rate(force: float, area: float, delta: float, dmax: float, e: float, c1: float, sigma_y: float,
                     cnu: float, b: float, ar_coef: float, c2_factor: float = 1.0, f_a: float = 0.81,
                     area_term: bool = True) -> float:
    """Interference creep rate at constant force :math:`d\\delta^*/dt|_{cr}` [1/s] (Eq. 3.39)."""
    return float(_creep_delta_rate(float(force), float(area), float(delta), float(dmax), e, c1, sigma_y, cnu, b,
                                   ar_coef, c2_factor, f_a, bool(area_term)))
