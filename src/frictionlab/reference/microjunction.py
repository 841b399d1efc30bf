r"""Closed forms for the microjunction (creeping JG hemisphere) model, in plain numpy.

All are exact consequences of the equations of Goedecke (2013), Appendix A, and of Hertz
theory, used by the checks and tests of :mod:`frictionlab.contact.microjunction`.

References
----------
Hertz, H. (1881). Über die Berührung fester elastischer Körper. J. Reine Angew. Math. 92, 156-171.
Jackson, R. L., Green, I. (2005). J. Tribol. 127, 343-354. doi:10.1115/1.1866166.
Goedecke, A. (2013). Transient Effects in Friction, Appendix A. doi:10.1007/978-3-7091-1506-0.
"""

from __future__ import annotations

import math

import numpy as np
from numpy.typing import ArrayLike, NDArray

__all__ = ["hertz_force", "hertz_area", "hertz_force_dimensional", "hertz_pressure_star",
           "critical_force_identity", "elastic_unloading", "jg_force_jump_at_kink", "creep_time_scale",
           "PRINTED_CREEP", "printed_creep_rate"]


def hertz_force(delta_star: ArrayLike) -> NDArray[np.float64]:
    """Normalised Hertz force :math:`F^* = (\\delta^*)^{3/2}` [1]."""
    return np.asarray(delta_star, dtype=float) ** 1.5


def hertz_area(delta_star: ArrayLike) -> NDArray[np.float64]:
    """Normalised Hertz area :math:`A^* = \\delta^*` [1]."""
    return np.asarray(delta_star, dtype=float)


def hertz_force_dimensional(delta: ArrayLike, e: float, nu: float, r: float) -> NDArray[np.float64]:
    """Hertz force :math:`F = \\tfrac43E'R^{1/2}\\delta^{3/2}` [N] of a sphere on a rigid flat."""
    return 4.0 / 3.0 * e / (1 - nu * nu) * math.sqrt(r) * np.asarray(delta, dtype=float) ** 1.5


def hertz_pressure_star(delta_star: ArrayLike, cnu: float) -> NDArray[np.float64]:
    """Mean Hertz pressure :math:`p^* = p/\\sigma_Y = \\tfrac23C_\\nu\\sqrt{\\delta^*}`; the peak
    pressure :math:`\\tfrac32p` equals :math:`C_\\nu\\sigma_Y` at :math:`\\delta^*=1` (yield onset)."""
    return 2.0 / 3.0 * cnu * np.sqrt(np.asarray(delta_star, dtype=float))


def critical_force_identity(cnu: float) -> float:
    """:math:`F_c/(A_c\\sigma_Y) = \\tfrac23 C_\\nu` [1]."""
    return 2.0 * cnu / 3.0


def elastic_unloading(force_star: ArrayLike, force0: float, delta0: float, area0: float) -> tuple[NDArray, NDArray]:
    r"""Elastic unloading/reloading from :math:`(F_0, \delta_0, A_0)` without creep.

    The elastic laws :math:`d\delta^*/dF^* = 1/(\tfrac32\sqrt{A^*})` and
    :math:`dA^*/dF^* = \tfrac23A^*/F^*` integrate to

    .. math::
        A^* = A_0\,(F^*/F_0)^{2/3},\qquad
        \delta^* = \delta_0 + \frac{F_0^{1/3}}{\sqrt{A_0}}\big((F^*)^{2/3} - F_0^{2/3}\big)

    Returns ``(delta*, A*)``.
    """
    f = np.asarray(force_star, dtype=float)
    area = area0 * (f / force0) ** (2.0 / 3.0)
    delta = delta0 + force0 ** (1.0 / 3.0) / math.sqrt(area0) * (f ** (2.0 / 3.0) - force0 ** (2.0 / 3.0))
    return delta, area


def jg_force_jump_at_kink(cnu: float, hardness_ratio: float = 2.84) -> tuple[float, float]:
    """``(Hertz, JG)`` values of :math:`F^*` at :math:`\\delta^* = 1.9` (2.61897 and 2.63139 for the
    demo steel): the JG force fit is discontinuous there by about +0.5 %."""
    d = 1.9
    k = 4.0 * hardness_ratio / cnu
    jg = math.exp(-0.25 * d ** (5 / 12)) * d ** 1.5 + k * d * (1 - math.exp(-d ** (5 / 9) / 25))
    return d ** 1.5, jg


def creep_time_scale(e: float, c1: float, sigma_y: float) -> float:
    """Fixed reference creep time :math:`2.84\\sigma_Y/(EC_1)` [s] (so :math:`\\tau_{ref} = t\\,EC_1/(2.84\\sigma_Y)`)."""
    return 2.84 * sigma_y / (e * c1)


#: what Appendix A prints for the creep law (Sect. 4.4 low-δ adjustment: ``(a, b, c)`` of
#: A_1, alpha_1, A_2, alpha_2), the stress-reinsertion factor (Eq. 3.36), the JG area kink and
#: exponent, the hardness fit and C_nu (Eq. 2.13 and the normalisation constants)
PRINTED_CREEP = {"A1": (1.07727, -0.34304, -0.11265), "alpha1": (2.19198, 0.50746, -0.0874),
                 "A2": (-1.85662, 1.52833, -0.05672), "alpha2": (4.29534, 0.89977, -0.06492), "f_a": 0.81,
                 "kink": 1.9, "jg_exp": (0.14, 23.0), "hardness": (2.84, 0.82, -0.7, 0.41), "cnu": (1.295, 0.736)}


def printed_creep_rate(delta_star: float, area_star: float, force_star: float, delta_max_star: float,
                       e: float, nu: float, sigma_y: float, c1: float, area_term: bool = True) -> float:
    r"""Interference creep rate :math:`d\delta^*/dt|_{cr}` [1/s] of Eq. 3.39 at constant force, from the
    constants Appendix A prints (:data:`PRINTED_CREEP`), written out independently of the model's kernel:

    .. math::
        \left.\frac{d\delta^*}{dt}\right|_{cr} = \frac{A_1\sinh(\alpha_1\hat p) + A_2\sinh(\alpha_2\hat p)}
            {\sigma_Y\big(f_AC_\nu(A^*)^{-1/2} + \tfrac23C_\nu F^*(A^*)^{-2}\,\partial A^*_{JG}/\partial\delta^*\big)}

    with :math:`\hat p = \tfrac23C_\nu\sigma_YF^*/A^*` [Pa], the coefficients from :math:`\hat\delta^*_{max}`
    and :math:`H_G` at the contact radius of :math:`A^*_{JG}(\hat\delta^*_{max})`. ``area_term=False``
    drops the second term of the denominator (the appendix: "could be to good approx. omitted").
    """
    pc = PRINTED_CREEP
    cnu = pc["cnu"][0] * math.exp(pc["cnu"][1] * nu)
    ep = e / (1.0 - nu * nu)
    b = pc["jg_exp"][0] * math.exp(pc["jg_exp"][1] * sigma_y / e)
    kink = pc["kink"]

    def a_jg(d: float) -> float:
        return d if d <= kink else d * (d / kink) ** b

    dmax = max(delta_max_star, delta_star)
    a_over_r = cnu * math.pi * sigma_y / (2.0 * ep) * math.sqrt(a_jg(dmax))  # a/R = sqrt(A* delta_c / R)
    h0, h1, h2, h3 = pc["hardness"]
    if a_over_r <= h3:
        hg = h0 * sigma_y * (1.0 - math.exp(-h1 * a_over_r ** h2))
    elif a_over_r <= 1.0:
        hg = sigma_y * (7.32 * a_over_r ** 3 - 14.1 * a_over_r ** 2 + 6.28 * a_over_r + 1.52)
    else:
        hg = sigma_y

    def coef(k: str) -> float:
        a, bb, c = pc[k]
        return a * (1.0 + bb * math.exp(c * dmax))

    p_hat = 2.0 / 3.0 * cnu * sigma_y * force_star / area_star
    dpdt = -(e * c1 * math.exp(coef("A1")) * math.sinh(coef("alpha1") / hg * p_hat)
             + e * c1 * math.exp(coef("A2")) * math.sinh(coef("alpha2") / hg * p_hat))
    dajg = 1.0 if delta_star <= kink else (1.0 + b) * (delta_star / kink) ** b
    den = pc["f_a"] * cnu / math.sqrt(area_star)
    if area_term:
        den += 2.0 / 3.0 * cnu * force_star / area_star ** 2 * dajg
    return -dpdt / sigma_y / den
