r"""Rate-, state- and pressure-dependent subloading-friction model (Ozaki et al. 2020).

A stress-based elastoplastic contact law: input the tangential sliding velocity ``v`` [m/s]
and the normal contact stress ``f_n`` [Pa]; output the tangential contact stress ``f_t``
[Pa] (traction per unit *apparent* area). Both model classes below run the same physics,
written once as numba kernels in this module:

* :class:`Subloading` -- the default: an implicit (backward-Euler) return-mapping step of
  eqs. (7), (8), (16) and (29) (the paper notes a return mapping applies, Sec. 3.5), an
  :class:`~frictionlab.core.base.AbstractSteppedModel`;
* :class:`SubloadingRate` -- the explicit rate form (eqs. 24-31) as an
  :class:`~frictionlab.core.base.AbstractLaw`, integrated by the core integrators; it is the
  accuracy reference.

Units are SI (m, s, Pa); the paper's mm-MPa values are converted once in the presets
(:func:`c_from_mm_mpa` for the rate coefficient ``c``, whose units depend on ``d``).

Notes
-----
The extracted paper text lost its Greek letters, operators and superscripts; the equations
are rebuilt from their printed fragments and dimensions. Where the text leaves a choice open,
this module reads it as follows:

* ``r = 1000 mm^-1`` (Secs. 4.1 and 5 print "11000 mm": a dropped "-1" superscript before
  the number, the same pattern as "110 MPab" for b = 10 MPa^-1, confirmed by the caption of
  Fig. 7); ``r`` stays a parameter.
* both pressure readings behind ``variant``: ``literal`` (eqs. 7, 8, 18 as printed;
  default, Figs. 4-9) and ``scaled`` (:math:`S_r = (1-e^{-bf_n})\phi` with eq. 35; presets of
  Figs. 11-12, where the literal reading would make ``b`` irrelevant at S_min = S_max = 1).
* eq. (29) as :math:`\mathring{\mathbf f} = \mathbf C^{ep}\mathbf v + C_c\mathbf t`
  with :math:`C_c \ge 0` as in eq. (31) (creep enlarges the surface; the sign is lost in print).
* the 0.14 mm length of Sec. 5 is :math:`\kappa`, the 2.5 s time is :math:`\xi` (eqs. 3, 7, 8:
  both enter as 1/kappa and 1/xi, as the dimensions require).
* :math:`\tau` (eq. 37) uses the norm of the tangential sliding velocity.
* :math:`\dot\tau` is ignored in the consistency condition (as the paper states after eq. 9);
  in a discrete step :math:`R^n` is evaluated with :math:`\tau^{n+1}`.
* ``R`` is clipped to [1e-12, 1.999] inside ``U`` (eq. 34's cotangent changes sign again at R = 2).
* initial contact state (not printed): :math:`S_r(0) = 1 - e^{-bf_n(0)}` (literal, eq. 35) or
  :math:`\phi(0) = S_{max}` (scaled); ``kappa = 0`` / ``xi = 0`` encode the paper's
  :math:`\kappa, \xi \to \infty` (rate effects off, Fig. 6).

References
----------
Ozaki, S., Matsuura, T., Maegawa, S. (2020). Rate-, state-, and pressure-dependent friction
model based on the elastoplastic theory. *Friction* 8(4), 768-783.
doi:10.1007/s40544-019-0322-2
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, final

import numpy as np
from numba import njit

from ..core.base import AbstractLaw, AbstractSteppedModel, FloatArray
from ..core.params import option, param
from ..core.registry import Preset, add_presets, register_model, declare_drivers

__all__ = ["Subloading", "SubloadingRate", "SubloadingParams", "c_from_mm_mpa", "P_COMMON", "P_EXP",
           "return_map", "return_map_2d", "rates_full", "evolution_u", "shear_strength"]

# parameter-vector layout shared by every kernel
_AN, _AT, _R, _B, _C, _D, _TAU0, _IK, _IX, _SMIN, _SMAX, _VAR, _FN0, _R0 = range(14)
_RCLIP_LO = 1e-12
_RCLIP_HI = 1.999
#: safeguarded Newton steps of the plastic solve before it falls back to bisection
_NEWTON_ITERS = 50
_HALF_PI = 0.5 * math.pi


# --------------------------------------------------------------------------- shared physics
@njit(cache=True)
def evolution_u(R, r):
    """Evolution function of the normal-sliding ratio, eq. (34): U = r cot(pi R / 2) [1/m].

    ``R`` is clipped to [1e-12, 1.999]: the cot of eq. (34) changes sign again beyond R = 2.
    """
    Rc = min(max(R, _RCLIP_LO), _RCLIP_HI)
    return r / math.tan(_HALF_PI * Rc)


@njit(cache=True)
def _u_and_slope(R, r):
    """U(R) and dU/dR = -r (pi/2) (1 + cot^2) from one tangent evaluation.

    Outside the clip of :func:`evolution_u` U is constant, so its slope there is 0 (the slope at
    the clip made the Newton steps of a trial far beyond the surface crawl).
    """
    Rc = min(max(R, _RCLIP_LO), _RCLIP_HI)
    ct = 1.0 / math.tan(_HALF_PI * Rc)
    if Rc != R:
        return r * ct, 0.0
    return r * ct, -r * _HALF_PI * (1.0 + ct * ct)


@njit(cache=True)
def shear_strength(v, p):
    """Rate-dependent shear strength of the junctions, eq. (37): ``tau = tau0 + c |v|^d`` [Pa]."""
    av = abs(v)
    if p[_C] == 0.0 or av == 0.0:
        return p[_TAU0]
    return p[_TAU0] + p[_C] * av ** p[_D]


@njit(cache=True)
def _pressure(fn, b):
    """P(f_n) = 1 - exp(-b f_n) (eq. 35) and P' = b exp(-b f_n) (eq. 36)."""
    if fn <= 0.0:
        return 0.0, b
    e = math.exp(-b * fn)
    return 1.0 - e, b * e


@njit(cache=True)
def _surface(q, P, Pp, p):
    """Contact-area ratio from the area state ``q`` and the pressure factor.

    Returns ``(S_r, dS_r/df_n, S_min_hat, S_max_hat, A)``: variant L (literal) stores
    ``q = A - P(f_n)`` so that ``S_r = A = q + P``; variant S (scaled) stores ``q = phi`` and
    ``S_r = P phi`` with bounds scaled by ``P`` (eq. 35).
    """
    if p[_VAR] > 0.5:
        return P * q, Pp * q, p[_SMIN] * P, p[_SMAX] * P, q
    A = q + P
    return A, Pp, p[_SMIN], p[_SMAX], A


@njit(cache=True)
def _rates(state, v, fn, p, out):
    """Core kernel interface: the rate form with df_n/dt = 0 (see :func:`rates_full`)."""
    rates_full(state, v, fn, 0.0, p, out)


@njit(cache=True)
def rates_full(state, v, fn, fn_rate, p, out):
    """Explicit rate form (eqs. 16, 19, 24-31 in 1-D), state ``[f_t, q, u_p]``, normal-stress rate ``fn_rate`` [Pa/s]."""
    if fn <= 0.0:  # loss of contact: state frozen, output zero
        out[0] = 0.0
        out[1] = 0.0
        out[2] = 0.0
        return
    ft = state[0]
    q = state[1]
    P, Pp = _pressure(fn, p[_B])
    Sr, Srp, smin_h, smax_h, A = _surface(q, P, Pp, p)
    tau = shear_strength(v, p)
    at = p[_AT]
    if ft > 0.0:
        s = 1.0
    elif ft < 0.0:
        s = -1.0
    else:
        s = 1.0 if v >= 0.0 else -1.0
    R = abs(ft) / (Sr * tau) if Sr > 0.0 else 0.0
    lam = 0.0
    if R > 0.0:
        D = at + tau * (evolution_u(R, p[_R]) * Sr - R * p[_IK] * (Sr - smin_h))
        num = at * s * v - R * Srp * tau * fn_rate - R * p[_IX] * (smax_h - Sr) * tau
        if num > 0.0:
            lam = num / D
    out[0] = at * (v - s * lam)
    if p[_VAR] > 0.5:
        out[1] = -p[_IK] * (q - p[_SMIN]) * lam + p[_IX] * (p[_SMAX] - q)
    else:
        out[1] = -p[_IK] * (A - p[_SMIN]) * lam + p[_IX] * (p[_SMAX] - A)
    out[2] = lam


@njit(cache=True)
def _friction(state, v, fn, p):
    if fn <= 0.0:
        return 0.0
    return state[0]


@njit(cache=True)
def _area_be(A0, g, dt, p):
    """Backward-Euler contact area (eqs. 7, 8) after plastic increment ``g`` and time ``dt``.

    Returns ``(A, dA/dg)``.
    """
    den = 1.0 + g * p[_IK] + dt * p[_IX]
    A = (A0 + g * p[_IK] * p[_SMIN] + dt * p[_IX] * p[_SMAX]) / den
    return A, p[_IK] * (p[_SMIN] - A) / den


@njit(cache=True)
def return_map(ft, q, fn_old, du, dt, fn, tau, p):
    """One implicit return-mapping step of the subloading-friction law (eqs. 7, 8, 16, 29), 1-D.

    Parameters
    ----------
    ft, q : tangential stress [Pa] and area state [1] at the start of the step
    fn_old, fn : normal stress [Pa] at the start and end of the step
    du, dt : tangential slip increment [m] and time step [s]
    tau : shear strength at the end of the step [Pa]
    p : parameter vector

    Returns
    -------
    (ft_new, q_new, gamma) with gamma >= 0 the plastic slip increment [m]; gamma < 0 flags a
    non-converged plastic solve.
    """
    ftr = ft + p[_AT] * du
    if ftr > 0.0:
        s = 1.0
    elif ftr < 0.0:
        s = -1.0
    else:
        s = 1.0 if du >= 0.0 else -1.0
    # the old stress counts towards R^n only if it points the way of the trial stress (R^n = 0
    # after the stress passed through zero)
    f_old = abs(ft) if ft * s > 0.0 else 0.0
    fmag, q_new, g = _return_map_radial(f_old, abs(ftr), q, fn_old, dt, fn, tau, p)
    return s * fmag, q_new, g


@njit(cache=True)
def return_map_2d(fx, fy, q, fn_old, dux, duy, dt, fn, tau, p):
    r"""Return mapping in the 2-D tangential plane (radial return, flow along ``f_t / |f_t|``).

    Backward Euler of :math:`\mathbf v^p = \Lambda\mathbf t` makes :math:`\mathbf f^{n+1}`
    collinear with the elastic trial :math:`\mathbf f^{tr} = \mathbf f^n + \alpha_t
    \Delta\mathbf u`, so the scalar solve of :func:`return_map` applies to its magnitude.
    Returns ``(fx, fy, q, gamma)``.
    """
    at = p[_AT]
    tx = fx + at * dux
    ty = fy + at * duy
    mag = math.sqrt(tx * tx + ty * ty)
    f_old = math.sqrt(fx * fx + fy * fy) if fx * tx + fy * ty > 0.0 else 0.0
    fmag, q_new, g = _return_map_radial(f_old, mag, q, fn_old, dt, fn, tau, p)
    if mag > 0.0:
        return fmag * tx / mag, fmag * ty / mag, q_new, g
    return 0.0, 0.0, q_new, g


@njit(cache=True)
def _return_map_radial(f_old, atr, q, fn_old, dt, fn, tau, p):
    """Scalar core of the return mapping: ``f_old`` = |f^n| (0 after a reversal), ``atr`` =
    |f^tr|; returns ``(|f^{n+1}|, q^{n+1}, gamma)``."""
    if fn <= 0.0:  # loss of contact: traction released, contact state kept
        return 0.0, q, 0.0
    at = p[_AT]
    P, Pp = _pressure(fn, p[_B])
    Po, Ppo = _pressure(fn_old, p[_B])
    variant_s = p[_VAR] > 0.5
    # pressure predictor (the area state q already carries it exactly)
    A0 = q if variant_s else q + P
    Sr_old = Po * q if variant_s else q + Po
    scale = P if variant_s else 1.0
    Rn = 0.0
    if f_old > 0.0 and Sr_old > 0.0 and fn_old > 0.0:
        Rn = f_old / (Sr_old * tau)
    A_e, dA_e = _area_be(A0, 0.0, dt, p)
    Sr0 = scale * A_e
    R0 = atr / (Sr0 * tau) if Sr0 > 0.0 else math.inf
    if R0 <= Rn:
        return atr, (A_e if variant_s else A_e - P), 0.0
    # plastic: solve h(g) = R(g) - Rn - U(R(g)) g = 0 on (0, |f_tr| / alpha_t)
    lo = 0.0
    gmax = atr / at
    hi = gmax
    r = p[_R]
    ok = False
    # initial guess: one Newton step of h from g = 0 (h(0) = R0 - Rn > 0)
    dR0 = (-at - R0 * tau * scale * dA_e) / (Sr0 * tau)
    dh0 = dR0 - evolution_u(R0, r)
    g = -(R0 - Rn) / dh0 if dh0 < 0.0 else 0.5 * hi
    if g <= 0.0 or g >= hi:
        g = 0.5 * hi
    for it in range(200):
        A, dA = _area_be(A0, g, dt, p)
        Sr = scale * A
        dSr = scale * dA
        if Sr <= 0.0:
            hi = g
            g = 0.5 * (lo + hi)
            continue
        N = atr - at * g
        R = N / (Sr * tau)
        U, dU = _u_and_slope(R, r)
        h = R - Rn - U * g
        if h > 0.0:
            lo = g
        else:
            hi = g
        dR = (-at - R * tau * dSr) / (Sr * tau)
        dh = dR * (1.0 - dU * g) - U
        if dh < 0.0 and it < _NEWTON_ITERS:
            gn = g - h / dh
        else:  # plain bisection after _NEWTON_ITERS Newton steps: converges from any bracket
            gn = 0.5 * (lo + hi)
        if gn <= lo or gn >= hi:
            gn = 0.5 * (lo + hi)
        if abs(gn - g) <= 1e-14 * gmax or hi - lo <= 1e-15 * gmax:
            g = gn
            ok = True
            break
        g = gn
    A, dA = _area_be(A0, g, dt, p)
    f_new = atr - at * g
    if not ok:
        g = -1.0
    return f_new, (A if variant_s else A - P), g


# --------------------------------------------------------------------------- parameters
def c_from_mm_mpa(c: float, d: float) -> float:
    """Convert the rate coefficient ``c`` from MPa (s/mm)^d to SI, Pa (s/m)^d.

    With ``v`` in mm/s, ``tau [MPa] = c v_mm^d``; ``v_mm = 1e3 v`` gives
    ``c_SI = 1e6 * 1e3**d * c``.
    """
    return float(c) * 1e6 * 1e3 ** float(d)


@dataclass(frozen=True)
class SubloadingParams:
    r"""Parameters of the subloading-friction model (SI units).

    Parameters
    ----------
    alpha_n, alpha_t : float
        Normal and tangential contact (penalty) moduli :math:`\alpha_n, \alpha_t` [Pa/m].
    r : float
        Parameter of the evolution function :math:`U(R) = r\cot(\pi R/2)` [1/m].
    b : float
        Pressure sensitivity of the contact-area ratio, :math:`P = 1 - e^{-b f_n}` [1/Pa].
    c, d : float
        Rate coefficient [Pa (s/m)^d] and exponent [1] of :math:`\tau = \tau_0 + c|v|^d`.
    tau0 : float
        Quasi-static shear strength of the junctions [Pa].
    kappa : float
        Characteristic slip of contact-area decay [m]; ``0`` switches the decay off
        (the paper's :math:`\kappa\to\infty`).
    xi : float
        Delay (creep) time of contact-area recovery [s]; ``0`` switches recovery off
        (:math:`\xi\to\infty`).
    s_min, s_max : float
        Lower and upper bound of the contact-area ratio (relative to :math:`P(f_n)` in the
        scaled variant) [1].
    variant : {"literal", "scaled"}
        How :math:`S_r` depends on pressure: ``literal`` integrates eqs. (7), (8),
        (18) additively with absolute bounds, :math:`S_r = A`; ``scaled`` uses
        :math:`S_r = (1 - e^{-b f_n})\phi` with :math:`\phi` evolving between the bounds.
    fn_init : float
        Normal stress at which the initial traction is defined (only used when ``R0 > 0``) [Pa].
    R0 : float
        Initial normal-sliding ratio, ``f_t(0) = R0 S_r(0) tau0`` [1].
    """

    alpha_n: float = param(1e11, units="Pa/m", lo=0.0, lo_open=True)
    alpha_t: float = param(1e11, units="Pa/m", lo=0.0, lo_open=True)
    r: float = param(1e6, units="1/m", lo=0.0, lo_open=True)
    b: float = param(1e-5, units="1/Pa", lo=0.0, lo_open=True)
    c: float = param(0.0, units="Pa (s/m)^d", lo=0.0)
    d: float = param(0.4, units="1", lo=0.0)
    tau0: float = param(1e5, units="Pa", lo=0.0, lo_open=True)
    kappa: float = param(1.4e-4, units="m", lo=0.0)
    xi: float = param(2.5, units="s", lo=0.0)
    s_min: float = param(0.5, units="1", lo=0.0, hi=1.0)
    s_max: float = param(1.0, units="1", lo=0.0, hi=1.0)
    variant: str = option("literal", choices=("literal", "scaled"))
    fn_init: float = param(3e5, units="Pa", lo=0.0, lo_open=True)
    R0: float = param(0.0, units="1", lo=0.0, hi=1.0)

    def _check(self) -> None:
        if self.s_min > self.s_max:
            self._fail("s_min", f"= {self.s_min:g} must not exceed s_max = {self.s_max:g}")  # type: ignore[attr-defined]

    def param_vector(self) -> FloatArray:
        ik = 1.0 / self.kappa if self.kappa > 0 else 0.0
        ix = 1.0 / self.xi if self.xi > 0 else 0.0
        return np.array([self.alpha_n, self.alpha_t, self.r, self.b, self.c, self.d, self.tau0, ik, ix,
                         self.s_min, self.s_max, 1.0 if self.variant == "scaled" else 0.0,
                         self.fn_init, self.R0], dtype=np.float64)

    # -- closed forms used by checks and tests --------------------------------------------
    def pressure_factor(self, fn: float | FloatArray) -> FloatArray:
        """P(f_n) = 1 - exp(-b f_n) [1]."""
        return 1.0 - np.exp(-self.b * np.asarray(fn, dtype=float))

    def tau(self, v: float | FloatArray) -> FloatArray:
        """Shear strength ``tau(v) = tau0 + c |v|^d`` [Pa]."""
        return self.tau0 + self.c * np.abs(np.asarray(v, dtype=float)) ** self.d

    def steady_area(self, v: float | FloatArray) -> FloatArray:
        r"""Steady area state under steady sliding (eqs. 7 + 8 = 0 at u_p' = v): :math:`A^{ss}=(S_{min}v\xi+S_{max}\kappa)/(v\xi+\kappa)`."""
        v = np.abs(np.asarray(v, dtype=float))
        if self.kappa == 0:
            return np.full_like(v, self.s_max)
        if self.xi == 0:
            return np.where(v > 0, self.s_min, self.s_max) * np.ones_like(v)
        return (self.s_min * v * self.xi + self.s_max * self.kappa) / (v * self.xi + self.kappa)

    def steady_stress(self, v: float | FloatArray, fn: float | FloatArray) -> FloatArray:
        """Steady tangential stress f_t^ss at speed ``v`` and normal stress ``fn`` [Pa] (R = 1 in eq. 14, eqs. 35, 37).

        Variant L converges to ``A^ss tau`` only at constant ``fn`` from the initial state
        ``A(0) = P(fn)``; with ``kappa = xi = 0`` (rate effects off) it is ``P(fn) tau``.
        """
        A = self.steady_area(v)
        if self.kappa == 0 and self.xi == 0:
            A = self.pressure_factor(fn) if self.variant == "literal" else self.s_max * self.pressure_factor(fn)
            return A * self.tau(v)
        if self.variant == "scaled":
            return self.pressure_factor(fn) * A * self.tau(v)
        return A * self.tau(v)

    def friction_curve(self, v: FloatArray, normal_force: float = 3e5) -> FloatArray:
        """Steady friction (tangential stress [Pa]) at each slip speed in ``v`` under normal stress
        ``normal_force`` [Pa]: :meth:`steady_stress` (overrides the zero-state default of the
        rate form, whose state is not zero at steady sliding)."""
        v = np.asarray(v, dtype=float)
        return np.asarray(self.steady_stress(np.abs(v), normal_force), dtype=float) * np.sign(v)

    def microslip(self, R: float | FloatArray, fn: float) -> tuple[FloatArray, FloatArray]:
        r"""Plastic and total slip to reach ratio ``R`` under monotonic loading (eqs. 13, 16, 34 integrated).

        For a fixed surface :math:`F = S_r\tau` (``kappa = xi = c = 0``):
        :math:`u^p = -\frac{2}{\pi r}\ln\cos\frac{\pi R}{2}`, :math:`u = RF/\alpha_t + u^p` [m].
        """
        R = np.asarray(R, dtype=float)
        P = float(self.pressure_factor(fn))
        F = (P if self.variant == "literal" else self.s_max * P) * self.tau0
        up = -2.0 / (math.pi * self.r) * np.log(np.cos(0.5 * math.pi * R))
        return up, R * F / self.alpha_t + up

    def slip_scale(self) -> float:
        r"""Shortest slip over which the state changes [m]: the least of the microslip length
        :math:`1/r` of :math:`U = r\cot(\pi R/2)` (eq. 34), the elastic slip :math:`\tau_0/\alpha_t`
        up to the surface at full contact and the decay length :math:`\kappa` (when on)."""
        return float(min(1.0 / self.r, self.tau0 / self.alpha_t, self.kappa if self.kappa > 0 else math.inf))

    def initial_stress(self) -> float:
        P = float(self.pressure_factor(self.fn_init))
        Sr = P if self.variant == "literal" else self.s_max * P
        return self.R0 * Sr * self.tau0

    def initial_area_state(self) -> float:
        return self.s_max if self.variant == "scaled" else 0.0

    def diagnostics(self, ft: FloatArray, q: FloatArray, v: FloatArray, fn: FloatArray) -> dict[str, FloatArray]:
        """Contact-area ratio S_r, shear strength tau, surface size S_r tau and ratio R."""
        fn = np.asarray(fn, dtype=float)
        P = np.where(fn > 0, self.pressure_factor(np.maximum(fn, 0.0)), 0.0)
        q = np.asarray(q, dtype=float)
        Sr = P * q if self.variant == "scaled" else q + P
        tau = self.tau(v)
        with np.errstate(divide="ignore", invalid="ignore"):
            R = np.where(Sr > 0, np.abs(ft) / (Sr * tau), 0.0)
        return {"contact_ratio": Sr, "shear_strength": tau, "sliding_surface": Sr * tau, "sliding_ratio": R}


_OUTPUT_UNITS = {"shear_stress": "Pa", "normal_stress": "Pa", "contact_ratio": "1", "shear_strength": "Pa",
                 "sliding_surface": "Pa", "sliding_ratio": "1"}
_CITATION = ("Ozaki, S., Matsuura, T., Maegawa, S. (2020). Rate-, state-, and pressure-dependent friction model "
             "based on the elastoplastic theory. Friction 8(4), 768-783.")
_DOI = "10.1007/s40544-019-0322-2"


@final
@register_model
@dataclass(frozen=True)
class Subloading(SubloadingParams, AbstractSteppedModel):
    r"""Subloading-friction model advanced by implicit return mapping (the default).

    State ``[f_t, q, u_p, f_n_prev]``: signed tangential stress [Pa], contact-area state
    (``A - P(f_n)`` literal / ``phi`` scaled) [1], accumulated plastic slip [m] and the
    normal stress of the previous step [Pa]. Input: slip velocity ``v`` [m/s] and normal
    stress [Pa]; output: the shear stress ``f_t`` [Pa] (``force_units = "Pa"``).

    Parameters are those of :class:`SubloadingParams`.

    Notes
    -----
    Each step is backward Euler on eqs. (7), (8), (16) with the elastic predictor of
    eq. (13) (backward Euler of eqs. 7, 8): :math:`A(\gamma) = (A_0 + \gamma S_{min}/\kappa + \Delta t
    S_{max}/\xi)/(1 + \gamma/\kappa + \Delta t/\xi)`, :math:`R(\gamma) = (|f^{tr}| -
    \alpha_t\gamma)/(S_r(\gamma)\tau^{n+1})`, and the plastic increment solves
    :math:`R(\gamma) - R^n - U(R(\gamma))\gamma = 0` by safeguarded Newton. Because
    :math:`U < 0` for :math:`R > 1`, a step that starts inside the surface cannot end
    outside it, whatever its size. :math:`\dot\tau` is ignored as in the paper: ``R^n`` is
    evaluated with :math:`\tau^{n+1}` (tau-dot ignored, Sec. 2 after eq. 9). Loss of contact (``f_n <= 0``) releases
    the traction (``f_t = 0``) and freezes the area state.
    """

    name: ClassVar[str] = "subloading"
    #: Sec. 4 operating point: 10 um/s under f_n = 0.3 MPa (stresses in Pa)
    typical_inputs: ClassVar[dict[str, float]] = {"v": 1e-5, "normal_force": 3e5, "duration": 10.0}
    state_names: ClassVar[tuple[str, ...]] = ("tangential_stress", "area_state", "plastic_slip", "normal_stress_prev")
    state_units: ClassVar[tuple[str, ...]] = ("Pa", "1", "m", "Pa")
    force_units: ClassVar[str] = "Pa"
    output_units: ClassVar[dict[str, str]] = _OUTPUT_UNITS
    citation: ClassVar[str] = _CITATION
    doi: ClassVar[str] = _DOI

    def initial_state(self) -> FloatArray:
        return np.array([self.initial_stress(), self.initial_area_state(), 0.0, self.fn_init])

    def step(self, state: FloatArray, dt: float, v: float, normal_force: float) -> FloatArray:
        p = self.param_vector()
        tau = shear_strength(float(v), p)
        ft, q, g = return_map(float(state[0]), float(state[1]), float(state[3]), float(v) * dt, dt,
                              float(normal_force), tau, p)
        if g < 0:
            from ..core.errors import IntegrationError

            raise IntegrationError(f"subloading: return mapping did not converge (v = {v:g} m/s, dt = {dt:g} s); "
                                   "reduce dt")
        return np.array([ft, q, state[2] + g, float(normal_force)])

    def friction(self, t: float, state: FloatArray, v: float, normal_force: float) -> float:
        return float(state[0]) if normal_force > 0 else 0.0

    def initial_state_2d(self) -> FloatArray:
        """State of :meth:`step_2d`: ``[f_x, f_y, q, u_p, f_n_prev]`` (initial traction along x)."""
        return np.array([self.initial_stress(), 0.0, self.initial_area_state(), 0.0, self.fn_init])

    def step_2d(self, state: FloatArray, dt: float, v: FloatArray, normal_stress: float | None = None,
                normal_velocity: float = 0.0) -> FloatArray:
        r"""One return-mapping step in the 2-D tangential plane.

        Parameters
        ----------
        state : ``[f_x, f_y, q, u_p, f_n_prev]`` [Pa, Pa, 1, m, Pa]
        dt : time step [s]
        v : tangential sliding velocity vector ``(v_x, v_y)`` [m/s]; tau (eq. 37) uses its norm
        normal_stress : prescribed normal stress at the end of the step [Pa]; or ``None`` to
            drive it by the normal sliding velocity through the elastic contact law,
            :math:`f_n^{n+1} = f_n^n + lpha_n v_n \Delta t` (eq. 13, no normal plastic flow, eq. 20)
        normal_velocity : :math:`v_n` [m/s] (closing positive), used when ``normal_stress`` is None
        """
        p = self.param_vector()
        vx, vy = float(v[0]), float(v[1])
        fn_prev = float(state[4])
        fn = fn_prev + self.alpha_n * float(normal_velocity) * dt if normal_stress is None else float(normal_stress)
        tau = shear_strength(math.hypot(vx, vy), p)
        fx, fy, q, g = return_map_2d(float(state[0]), float(state[1]), float(state[2]), fn_prev, vx * dt, vy * dt,
                                     dt, fn, tau, p)
        if g < 0:
            from ..core.errors import IntegrationError

            raise IntegrationError(f"subloading: 2-D return mapping did not converge (dt = {dt:g} s); reduce dt")
        return np.array([fx, fy, q, state[3] + g, fn])

    def outputs(self, state: FloatArray, v: float, normal_force: float) -> dict[str, float]:
        d = self.diagnostics(np.array([state[0]]), np.array([state[1]]), np.array([v]), np.array([normal_force]))
        out = {"shear_stress": self.friction(0.0, state, v, normal_force), "normal_stress": float(normal_force)}
        out.update({k: float(val[0]) for k, val in d.items()})
        return out


@final
@register_model
@dataclass(frozen=True)
class SubloadingRate(SubloadingParams, AbstractLaw):
    r"""Subloading-friction model in explicit rate form (reference for cross-checks).

    State ``[f_t, q, u_p]`` (see :class:`Subloading`); rates of eqs. (16), (19), (24)-(31) in 1-D:

    .. math::
        \Lambda = \frac{\langle \alpha_t s v - R S_r'\tau\dot f_n - \frac{R}{\xi}(\hat S_{max}
        - S_r)\tau\rangle}{\alpha_t + \tau[U(R)S_r - \frac{R}{\kappa}(S_r - \hat S_{min})]},
        \quad \dot f_t = \alpha_t(v - s\Lambda),\quad \dot u^p = \Lambda

    Notes
    -----
    The core kernel interface ``(state, v, f_n)`` passes the normal stress but not its
    rate, so under the core integrators this form takes :math:`\dot f_n = 0` in
    :math:`\Lambda` (the area state is stored relative to :math:`P(f_n)` and follows the
    pressure exactly): it is exact for constant normal stress. Under a normal-stress
    programme use :func:`frictionlab.laws.subloading_drivers.run_rate_reference`, an
    RK4 loop over the same kernel (:func:`rates_full`) that also passes :math:`\dot f_n`.
    Explicit schemes need slip increments :math:`|v|\Delta t \lesssim 0.1/r` (near R = 1 eq. 16 relaxes
    over a slip of 2/(pi r)).
    """

    name: ClassVar[str] = "subloading_rate"
    #: Sec. 4 operating point: 10 um/s under f_n = 0.3 MPa (stresses in Pa)
    typical_inputs: ClassVar[dict[str, float]] = {"v": 1e-5, "normal_force": 3e5, "duration": 10.0}
    state_names: ClassVar[tuple[str, ...]] = ("tangential_stress", "area_state", "plastic_slip")
    state_units: ClassVar[tuple[str, ...]] = ("Pa", "1", "m")
    force_units: ClassVar[str] = "Pa"
    citation: ClassVar[str] = _CITATION
    doi: ClassVar[str] = _DOI
    _rates_kernel = _rates
    _friction_kernel = _friction

    def initial_state(self) -> FloatArray:
        return np.array([self.initial_stress(), self.initial_area_state(), 0.0])


# --------------------------------------------------------------------------- presets (SI)
#: the parameter set of Secs. 4.1-4.3 (Figs. 4-7, 9; 'P-common' here), converted from mm-MPa
P_COMMON: dict[str, float | str] = {
    "alpha_n": 1e11, "alpha_t": 1e11, "r": 1e6, "b": 1e-5, "c": c_from_mm_mpa(0.0015, 0.4), "d": 0.4,
    "tau0": 1e5, "kappa": 1.4e-4, "xi": 2.5, "s_min": 0.5, "s_max": 1.0, "variant": "literal", "fn_init": 3e5,
}
#: the parameter set of Sec. 5.2 ('P-exp' here), specimen I (b = 7 MPa^-1)
P_EXP: dict[str, float | str] = {
    "alpha_n": 1e11, "alpha_t": 1e11, "r": 1e6, "b": 7e-6, "c": c_from_mm_mpa(0.0065, 0.27), "d": 0.27,
    "tau0": 6e4, "kappa": 1.4e-4, "xi": 2.5, "s_min": 1.0, "s_max": 1.0, "variant": "scaled", "fn_init": 3e5,
}
_SRC = "Ozaki, Matsuura & Maegawa 2020, Friction 8(4) 768-783"
_R_NOTE = "r = 1000 mm^-1 (Sec. 4.1 prints '11000 mm', read as a dropped '-1' superscript as in '110 MPab' = 10 MPa^-1)"

_presets = {
    "common": Preset(dict(P_COMMON), source=f"{_SRC}, Sec. 4 (Figs. 4-7, 9)", doi=_DOI, note=_R_NOTE),
    "fig4": Preset(dict(P_COMMON), source=f"{_SRC}, Fig. 4 (f_n = 0.3 MPa)", doi=_DOI, note=_R_NOTE),
    "fig5": Preset(dict(P_COMMON), source=f"{_SRC}, Fig. 5", doi=_DOI, note=_R_NOTE),
    "fig6": Preset({**P_COMMON, "c": 0.0, "kappa": 0.0, "xi": 0.0, "fn_init": 1e5}, source=f"{_SRC}, Fig. 6",
                   doi=_DOI, note="rate dependence off: c = 0, kappa = xi = infinity (encoded as 0)"),
    "fig7": Preset({**P_COMMON, "fn_init": 1e5}, source=f"{_SRC}, Fig. 7 (b = 10 MPa^-1)", doi=_DOI,
                   note="'same as Fig. 3' (Sec. 4.2; Fig. 3 is a schematic) read as the Fig. 4 set"),
    "fig9": Preset(dict(P_COMMON), source=f"{_SRC}, Fig. 9 (tau0 = 0.1 MPa)", doi=_DOI,
                   note="f_n = 0.3 MPa assumed (Sec. 4.3 prints no normal stress; Fig. 4's value)"),
    "fig11": Preset(dict(P_EXP), source=f"{_SRC}, Fig. 11 (specimen I, b = 7 MPa^-1)", doi=_DOI,
                    note="scaled variant: S_r = (1 - exp(-b f_n)) phi (with S_min = S_max = 1 eqs. 7, 8, 18 as printed make b irrelevant)"),
    "fig12-I": Preset(dict(P_EXP), source=f"{_SRC}, Fig. 12 specimen I (Ra 2.11 um)", doi=_DOI),
    "fig12-II": Preset({**P_EXP, "b": 11e-6}, source=f"{_SRC}, Fig. 12 specimen II (Ra 4.95 um)", doi=_DOI),
}
add_presets("subloading", _presets)
add_presets("subloading_rate", _presets)

# the drivers of simulate, imported at the first lookup of one
declare_drivers(Subloading, ".subloading_drivers")
declare_drivers(SubloadingRate, ".subloading_drivers")
