r"""Jackson--Green (JG) elastic-plastic hemisphere: normalisations, area and force laws, hardness.

All quantities follow Goedecke (2013), Appendix A ("Microjunction Model"), which quotes the
Jackson--Green (2005) fits. Interference, area and force are normalised by their values at
yield onset: :math:`\delta^* = \delta/\delta_c`, :math:`A^* = A/A_c`, :math:`F^* = F/F_c`.

.. math::
    C_\nu = 1.295\,e^{0.736\nu}, \quad E' = \frac{E}{1-\nu^2}, \quad
    \delta_c = \Big(\frac{C_\nu\pi\sigma_Y}{2E'}\Big)^2 R, \quad A_c = \pi R\delta_c, \quad
    F_c = \frac43\Big(\frac{R}{E'}\Big)^2\Big(\tfrac12 C_\nu\pi\sigma_Y\Big)^3

.. math::
    A^*_{JG} = \begin{cases}\delta^* & \delta^*\le 1.9\\
        \delta^*(\delta^*/1.9)^B & \delta^* > 1.9\end{cases},\qquad B = 0.14\,e^{23\sigma_Y/E}

.. math::
    F^*_{JG} = \begin{cases}(\delta^*)^{3/2} & \delta^*\le 1.9\\
        e^{-\frac14(\delta^*)^{5/12}}(\delta^*)^{3/2}
        + \frac{4H'_G}{C_\nu\sigma_Y}\,\delta^*\big(1 - e^{-\frac1{25}(\delta^*)^{5/9}}\big)
        & \delta^* > 1.9\end{cases}

Hardness :math:`H_G/\sigma_Y` (JG 2005) as a function of :math:`a/R`, see :func:`hardness_ratio`.

The scalar kernels (leading underscore) are numba-compiled and shared by the single-junction
and ensemble integrators; the public functions are their numpy-vectorised counterparts.

Notes
-----
Printed errors of Appendix A corrected here: the contact-radius line reads "pi i" (taken as
:math:`\pi`); the second copy of the hardness constant (under "Jackson--Green model for plastic
behavior") reads 0.81 (taken as 0.82 in both places, the JG 2005 value of Eq. 2.13).
The regime boundary is as printed: Hertz for :math:`\delta^* \le 1.9`. The derivative
of :math:`H'_G` with respect to :math:`\delta^*` is neglected in :math:`\partial F^*_{JG}/
\partial\delta^*`, as the appendix says ("H'_G-dependence on δ* neglected"). :math:`F^*_{JG}` jumps by about +0.5 % at
:math:`\delta^* = 1.9` (a property of the JG fit, not an error); :math:`A^*_{JG}` is continuous.

References
----------
Goedecke, A. (2013). Transient Effects in Friction: Fractal Asperity Creep, Appendix A.
Springer, Vienna. doi:10.1007/978-3-7091-1506-0.
Jackson, R. L., Green, I. (2005). A finite element study of elasto-plastic hemispherical
contact against a rigid flat. J. Tribol. 127, 343-354. doi:10.1115/1.1866166.
"""

from __future__ import annotations

import math

import numpy as np
from numba import njit
from numpy.typing import ArrayLike, NDArray

__all__ = [
    "DELTA_KINK", "normalisation", "area_jg", "darea_jg", "force_jg", "dforce_jg",
    "hardness_ratio", "hardness_ratio_at", "contact_radius_ratio", "jg_exponent",
]

#: interference (normalised) where the JG laws leave the Hertz branch
DELTA_KINK = 1.9


def normalisation(e: float, nu: float, sigma_y: float, r: float) -> dict[str, float]:
    """Critical values of the JG hemisphere (Appendix A, "Normalization constants").

    Parameters
    ----------
    e : float
        Young's modulus of the hemisphere [Pa].
    nu : float
        Poisson ratio [1].
    sigma_y : float
        Yield stress [Pa].
    r : float
        Hemisphere radius [m].

    Returns
    -------
    dict
        ``cnu`` [1], ``eprime`` [Pa], ``delta_c`` [m], ``area_c`` [m^2], ``force_c`` [N],
        ``b`` (JG area exponent) [1] and ``ar_coef`` = :math:`C_\\nu\\pi\\sigma_Y/(2E')` [1]
        (so that :math:`a/R = \\mathrm{ar\\_coef}\\sqrt{A^*}`).
    """
    cnu = 1.295 * math.exp(0.736 * nu)
    eprime = e / (1.0 - nu * nu)
    ar_coef = cnu * math.pi * sigma_y / (2.0 * eprime)
    delta_c = ar_coef ** 2 * r
    area_c = math.pi * r * delta_c
    force_c = 4.0 / 3.0 * (r / eprime) ** 2 * (0.5 * cnu * math.pi * sigma_y) ** 3
    return {"cnu": cnu, "eprime": eprime, "delta_c": delta_c, "area_c": area_c, "force_c": force_c,
            "b": jg_exponent(sigma_y, e), "ar_coef": ar_coef}


def jg_exponent(sigma_y: float, e: float) -> float:
    """JG area exponent :math:`B = 0.14\\,e^{23\\sigma_Y/E}` [1]."""
    return 0.14 * math.exp(23.0 * sigma_y / e)


# --- scalar kernels -------------------------------------------------------------------------
@njit(cache=True)
def _area_jg(d, b):
    if d <= DELTA_KINK:
        return d
    return d * (d / DELTA_KINK) ** b


@njit(cache=True)
def _darea_jg(d, b):
    if d <= DELTA_KINK:
        return 1.0
    return (1.0 + b) * (d / DELTA_KINK) ** b


@njit(cache=True)
def _hardness_ratio(ar):
    if ar <= 0.41:
        if ar <= 0.0:
            return 2.84
        return 2.84 * (1.0 - math.exp(-0.82 * ar ** (-0.7)))
    if ar <= 1.0:
        return 7.32 * ar ** 3 - 14.1 * ar ** 2 + 6.28 * ar + 1.52
    return 1.0


@njit(cache=True)
def _force_jg(d, k):
    """F*_JG at interference ``d``; ``k`` = 4 H'_G / (C_nu sigma_Y)."""
    if d <= DELTA_KINK:
        return d ** 1.5
    return math.exp(-0.25 * d ** (5.0 / 12.0)) * d ** 1.5 + k * d * (1.0 - math.exp(-d ** (5.0 / 9.0) / 25.0))


@njit(cache=True)
def _dforce_jg(d, k):
    if d <= DELTA_KINK:
        return 1.5 * math.sqrt(d)
    e1 = math.exp(-0.25 * d ** (5.0 / 12.0))
    e2 = math.exp(-d ** (5.0 / 9.0) / 25.0)
    return (e1 * (1.5 * math.sqrt(d) - 5.0 / 48.0 * d ** (11.0 / 12.0)) + k * (1.0 - e2)
            + k / 45.0 * d ** (5.0 / 9.0) * e2)


@njit(cache=True)
def _k_of(d, b, cnu, ar_coef):
    """K = 4 H'_G/(C_nu sigma_Y) with H'_G from the JG radius at the current interference."""
    return 4.0 * _hardness_ratio(ar_coef * math.sqrt(_area_jg(d, b))) / cnu


@njit(cache=True)
def _dhardness_ratio(ar):
    """d(H_G/sigma_Y)/d(a/R)."""
    if ar <= 0.41:
        if ar <= 0.0:
            return 0.0
        return -2.84 * math.exp(-0.82 * ar ** (-0.7)) * 0.82 * 0.7 * ar ** (-1.7)
    if ar <= 1.0:
        return 21.96 * ar ** 2 - 28.2 * ar + 6.28
    return 0.0


@njit(cache=True)
def _dforce_jg_total(d, b, cnu, ar_coef):
    """Total slope dF*_JG/dδ* including the δ*-dependence of H'_G (used for sliding on the curve)."""
    k = _k_of(d, b, cnu, ar_coef)
    if d <= DELTA_KINK:
        return 1.5 * math.sqrt(d)
    a = _area_jg(d, b)
    x = ar_coef * math.sqrt(a)
    dk = 4.0 / cnu * _dhardness_ratio(x) * ar_coef * _darea_jg(d, b) / (2.0 * math.sqrt(a))
    return _dforce_jg(d, k) + dk * d * (1.0 - math.exp(-d ** (5.0 / 9.0) / 25.0))


# --- public, vectorised ---------------------------------------------------------------------
def _vec(fun, *args):
    arrs = np.broadcast_arrays(*[np.asarray(a, dtype=float) for a in args])
    out = np.empty(arrs[0].shape)
    flat = [a.ravel() for a in arrs]
    o = out.ravel()
    for i in range(o.size):
        o[i] = fun(*[f[i] for f in flat])
    return out if out.ndim else float(out)


def area_jg(delta: ArrayLike, b: float) -> NDArray[np.float64]:
    """JG normalised contact area :math:`A^*_{JG}(\\delta^*)` [1] (Appendix A, after Eq. 2.13); ``b`` from :func:`jg_exponent`."""
    d = np.asarray(delta, dtype=float)
    return np.where(d <= DELTA_KINK, d, d * (np.maximum(d, 0.0) / DELTA_KINK) ** b)


def darea_jg(delta: ArrayLike, b: float) -> NDArray[np.float64]:
    """Slope :math:`\\partial A^*_{JG}/\\partial\\delta^*` [1] (Appendix A, the derivative used in Eq. 3.39)."""
    d = np.asarray(delta, dtype=float)
    return np.where(d <= DELTA_KINK, 1.0, (1.0 + b) * (np.maximum(d, 0.0) / DELTA_KINK) ** b)


def hardness_ratio(a_over_r: ArrayLike) -> NDArray[np.float64]:
    r"""JG geometry-dependent hardness :math:`H_G/\sigma_Y` as a function of :math:`a/R` (Appendix A, Eq. 2.13).

    .. math::
        \frac{H_G}{\sigma_Y} = \begin{cases}2.84\,[1 - \exp(-0.82\,(a/R)^{-0.7})] & a/R \le 0.41\\
        7.32(a/R)^3 - 14.1(a/R)^2 + 6.28(a/R) + 1.52 & 0.41 < a/R \le 1\\ 1 & a/R > 1\end{cases}
    """
    return _vec(_hardness_ratio, a_over_r)


def contact_radius_ratio(area: ArrayLike, ar_coef: float) -> NDArray[np.float64]:
    """:math:`a/R = (C_\\nu\\pi\\sigma_Y/2E')\\sqrt{A^*}` (Appendix A's contact radius, with "pi i" read as pi)."""
    return ar_coef * np.sqrt(np.asarray(area, dtype=float))


def hardness_ratio_at(delta: ArrayLike, b: float, ar_coef: float) -> NDArray[np.float64]:
    """:math:`H_G/\\sigma_Y` from the JG radius at interference ``delta`` (``H_G`` or ``H'_G``)."""
    return hardness_ratio(contact_radius_ratio(area_jg(delta, b), ar_coef))


def force_jg(delta: ArrayLike, b: float, cnu: float, ar_coef: float) -> NDArray[np.float64]:
    """JG normalised force :math:`F^*_{JG}(\\delta^*)` [1] (Appendix A, JG plastic force), :math:`H'_G` from the current δ*."""
    return _vec(lambda d: _force_jg(d, _k_of(d, b, cnu, ar_coef)), delta)


def dforce_jg(delta: ArrayLike, b: float, cnu: float, ar_coef: float) -> NDArray[np.float64]:
    """Slope :math:`\\partial F^*_{JG}/\\partial\\delta^*` (Appendix A, :math:`H'_G` held fixed as it says)."""
    return _vec(lambda d: _dforce_jg(d, _k_of(d, b, cnu, ar_coef)), delta)
