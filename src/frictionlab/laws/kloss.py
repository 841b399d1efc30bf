r"""Kloss-formula ("electromagnetic") friction law and its forms (Martinez Molina 2025).

The induction-machine torque--slip curve (the Kloss formula) used as a velocity-dependent
friction law, with a speed-dependent pull-out velocity that models eddy-current
(Foucault) dissipation:

.. math::
    F(v) = \frac{2 F_{max}\, v_{max}(v)}{v^2 + v_{max}(v)^2}\, v, \qquad
    v_{max}(v) = v_{max0} + \tfrac12 \zeta |v|        \qquad \text{(eqs. 8, 11)}

This module holds every form of the law:

* :class:`Kloss` -- the 1-D velocity law as an :class:`~frictionlab.core.base.AbstractLaw`
  (numba kernels, runs in every system); optional Amontons scaling ``F_max -> F_max N``
  (eq. 27). :meth:`Kloss.from_peak` builds it from the peak location (eq. 12).
* :class:`KlossDynamic` -- the first-order lag of eq. 25 in continuous time,
  :math:`T_f \dot F = F_{ss}(v) - F`; :func:`kloss_alpha_filter` is the paper's discrete
  :math:`\alpha`-form for a sampled velocity, :func:`alpha_from_time_constant` links them.
* :func:`kloss`, :func:`kloss_2d` (eqs. 14-21), :class:`KlossAnisotropic`,
  :func:`kloss_curve` (generic argument with quadratic dissipation, eq. 38),
  :func:`kloss_slip`, :func:`kloss_combined_slip`, :func:`slip_ratios` (eqs. 29-34) and
  :func:`kloss_lift` (eqs. 37-38) -- vectorised numpy functions.

Sign convention: the library's laws return the force that *opposes* the slip velocity
``v`` (positive for ``v > 0``) and systems subtract it. The paper writes the force as a
function of the relative velocity :math:`\tilde v = -v` and adds it (eq. 1); since the law is
odd, :math:`F_x(\tilde v) = -F(v)`: the two conventions describe the same physics (eqs. 1-2, 8).

References
----------
J. J. Martinez Molina, "An electromagnetic model for friction forces", HAL preprint
hal-05273966 (2025).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, final

import numpy as np
from numba import njit
from numpy.typing import ArrayLike, NDArray

from ..core.base import AbstractLaw, FloatArray
from ..core.errors import ParameterError
from ..core.params import option, param
from ..core.registry import Preset, add_presets, register_model

__all__ = ["Kloss", "KlossDynamic", "KlossAnisotropic", "kloss", "kloss_2d", "kloss_curve", "kloss_slip",
           "kloss_combined_slip", "kloss_lift", "slip_ratios", "kloss_alpha_filter",
           "alpha_from_time_constant", "peak_velocity", "coulomb_level", "CITATION", "DOI"]

CITATION = ("Martinez Molina, J. J. (2025). An electromagnetic model for friction forces. "
            "HAL preprint hal-05273966.")
DOI = "hal-05273966"
_ZETA_HI = 2.0  # zeta >= 2 has no finite peak velocity (eq. 12): lambda_max = v_max0 / (1 - zeta/2)


# ---------------------------------------------------------------------------------------------
# scalar kernels
# ---------------------------------------------------------------------------------------------
@njit(cache=True, inline="always")
def kloss_scalar(v, f_max, v_max0, zeta):
    """Eqs. (8) + (11) for one velocity; exactly 0 at v = 0 (denominator >= v_max0^2 > 0)."""
    vm = v_max0 + 0.5 * zeta * abs(v)
    return 2.0 * f_max * vm * v / (v * v + vm * vm)


@njit(cache=True, inline="always")
def _rates(state, v, fn, p, out):
    pass


@njit(cache=True, inline="always")
def _friction(state, v, fn, p):
    # p = [f_max, v_max0, zeta, normal_scaling]
    f = kloss_scalar(v, p[0], p[1], p[2])
    if p[3] > 0.5:
        f *= fn
    return f


@njit(cache=True, inline="always")
def _dyn_rates(state, v, fn, p, out):
    # p = [f_max, v_max0, zeta, normal_scaling, t_f]
    fss = kloss_scalar(v, p[0], p[1], p[2])
    if p[3] > 0.5:
        fss *= fn
    out[0] = (fss - state[0]) / p[4]


@njit(cache=True, inline="always")
def _dyn_friction(state, v, fn, p):
    return state[0]


@njit(cache=True)
def _kloss_vec(v, f_max, v_max0, zeta, out):
    for i in range(v.size):
        out[i] = kloss_scalar(v[i], f_max, v_max0, zeta)


@njit(cache=True)
def _kloss2_vec(vx, vy, f_max, v_max0, zeta, fx, fy):
    for i in range(vx.size):
        s = math.sqrt(vx[i] * vx[i] + vy[i] * vy[i])
        vm = v_max0 + 0.5 * zeta * s
        k = 2.0 * f_max * vm / (s * s + vm * vm)
        fx[i] = k * vx[i]
        fy[i] = k * vy[i]


def _check_zeta(zeta: float, name: str = "zeta") -> None:
    if not (0.0 <= zeta < _ZETA_HI):
        raise ParameterError(f"Kloss.{name} = {zeta:g} is outside the allowed range [0, 2) 1 "
                             "(zeta >= 2 has no force peak, eq. 12)")


# ---------------------------------------------------------------------------------------------
# the 1-D law as a model
# ---------------------------------------------------------------------------------------------
@final
@register_model
@dataclass(frozen=True)
class Kloss(AbstractLaw):
    r"""Kloss-formula friction law, 1-D velocity form (eqs. 8, 11, 12, 13, 27).

    .. math::
        F(v) = \frac{2 F_{max} v_{max}}{v^2 + v_{max}^2} v,\quad v_{max} = v_{max0} + \tfrac12\zeta|v|

    Peak :math:`F_{max}` at :math:`|v| = \lambda_{max} = v_{max0}/(1 - \zeta/2)` (eq. 12),
    viscous slope :math:`2F_{max}/v_{max0}` at 0 and Coulomb limit
    :math:`F_C = \zeta F_{max}/(1 + \zeta^2/4)` (eq. 13).

    Parameters
    ----------
    f_max : float
        Peak friction force [N] (a friction coefficient [1] when ``normal_scaling``).
    v_max0 : float
        Low-speed pull-out velocity [m/s] (the paper's :math:`\tilde v_{max0}`, also printed
        as ":math:`s_{max}`" in the text of Sec. V.B-C, as :math:`\tilde v_{max0}` in the captions of Figs. 5-6).
    zeta : float
        Dissipation-growth parameter [1], ``0 <= zeta < 2``.
    normal_scaling : bool
        Amontons first law (eq. 27): ``F_max -> f_max * normal_force``.

    Notes
    -----
    Stateless: the force depends only on the instantaneous slip velocity. The paper
    integrates it with explicit Euler at 1 ms; that is stable only for
    :math:`\Delta t < m v_{max0}/F_{max}` (the viscous slope :math:`2F_{max}/v_{max0}` of eqs. 8 and 11 at
    :math:`v = 0` over the mass: explicit Euler's limit :math:`\Delta t < 2m/c_0`).

    References
    ----------
    J. J. Martinez Molina (2025), hal-05273966.

    Examples
    --------
    >>> law = Kloss(f_max=1.0, v_max0=0.01, zeta=0.5)
    >>> round(law.friction(0.0, law.initial_state(), law.peak_velocity, 0.0), 12)
    1.0
    """

    f_max: float = param(1.0, units="N", lo=0.0, lo_open=True)
    v_max0: float = param(0.01, units="m/s", lo=0.0, lo_open=True)
    zeta: float = param(0.5, units="1", lo=0.0, hi=_ZETA_HI, hi_open=True)
    normal_scaling: bool = option(False, choices=(True, False))

    name: ClassVar[str] = "kloss"
    kernel_params: ClassVar[tuple[str, ...]] = ("f_max", "v_max0", "zeta", "normal_scaling")
    citation: ClassVar[str] = CITATION
    doi: ClassVar[str] = DOI
    _rates_kernel = _rates
    _friction_kernel = _friction

    @classmethod
    def from_peak(cls, f_max: float, lambda_max: float, zeta: float, **kw: object) -> "Kloss":
        r"""Build from the peak location :math:`\lambda_{max}` [m/s] (eq. 12)."""
        _check_zeta(float(zeta))
        if not lambda_max > 0:
            raise ParameterError(f"Kloss.lambda_max = {lambda_max!r} m/s must be > 0")
        return cls(f_max=f_max, v_max0=(1.0 - 0.5 * zeta) * lambda_max, zeta=zeta, **kw)  # type: ignore[arg-type]

    @property
    def peak_velocity(self) -> float:
        r""":math:`\lambda_{max} = v_{max0}/(1 - \zeta/2)` [m/s] (eq. 12)."""
        return peak_velocity(self.v_max0, self.zeta)

    @property
    def coulomb_level(self) -> float:
        """High-speed limit ``zeta f_max / (1 + zeta^2/4)`` [N] (eq. 13)."""
        return coulomb_level(self.f_max, self.zeta)

    def friction_curve(self, v: FloatArray, normal_force: float = 1.0) -> FloatArray:
        """Vectorised F(v) (compiled loop over the points)."""
        out = kloss(v, self.f_max, self.v_max0, self.zeta)
        return out * normal_force if self.normal_scaling else out


@final
@register_model
@dataclass(frozen=True)
class KlossDynamic(AbstractLaw):
    r"""Dynamic Kloss law: first-order lag of the static law (eq. 25, continuous form).

    .. math::
        T_f \dot F = F_{ss}(v) - F, \qquad F_{ss} = \text{eq. (8)+(11)}

    Exact sampling of this ODE with a zero-order-hold velocity gives the paper's discrete
    form :math:`F^+ = \alpha F + (1-\alpha) F_{ss}(v)` with :math:`\alpha = e^{-\Delta t/T_f}`
    (:func:`kloss_alpha_filter`); forward Euler gives :math:`\alpha = 1 - \Delta t/T_f`.

    Parameters
    ----------
    f_max, v_max0, zeta, normal_scaling :
        As in :class:`Kloss`.
    t_f : float
        Lag time constant [s] (> 0; ``t_f -> 0`` recovers the static law).
    f_init : float
        Initial friction force [N].

    Notes
    -----
    The paper gives neither :math:`\alpha` nor the order of the force and velocity updates
    (Sec. V.E). In a mass system the velocity update uses the lagged force :math:`F_k`
    (the state), which is what the explicit integrators do.
    """

    f_max: float = param(1.0, units="N", lo=0.0, lo_open=True)
    v_max0: float = param(0.01, units="m/s", lo=0.0, lo_open=True)
    zeta: float = param(0.5, units="1", lo=0.0, hi=_ZETA_HI, hi_open=True)
    normal_scaling: bool = option(False, choices=(True, False))
    t_f: float = param(0.01, units="s", lo=0.0, lo_open=True)
    f_init: float = param(0.0, units="N")

    name: ClassVar[str] = "kloss_dynamic"
    state_names: ClassVar[tuple[str, ...]] = ("filtered_friction",)
    state_units: ClassVar[tuple[str, ...]] = ("N",)
    kernel_params: ClassVar[tuple[str, ...]] = ("f_max", "v_max0", "zeta", "normal_scaling", "t_f")
    citation: ClassVar[str] = CITATION
    doi: ClassVar[str] = DOI
    _rates_kernel = _dyn_rates
    _friction_kernel = _dyn_friction

    def initial_state(self) -> FloatArray:
        return np.array([self.f_init])

    def _steady_state(self, v: float, normal_force: float) -> FloatArray:
        f = kloss_scalar(v, self.f_max, self.v_max0, self.zeta)
        return np.array([f * normal_force if self.normal_scaling else f])


# ---------------------------------------------------------------------------------------------
# vectorised forms
# ---------------------------------------------------------------------------------------------
def peak_velocity(v_max0: float, zeta: float) -> float:
    r""":math:`\lambda_{max} = v_{max0}/(1 - \zeta/2)` [same units as ``v_max0``] (eq. 12)."""
    _check_zeta(float(zeta))
    return float(v_max0) / (1.0 - 0.5 * float(zeta))


def coulomb_level(f_max: float, zeta: float) -> float:
    r"""High-speed (Coulomb) level :math:`\zeta F_{max}/(1 + \zeta^2/4)` (eq. 13)."""
    return float(zeta) * float(f_max) / (1.0 + 0.25 * float(zeta) ** 2)


def _validate(f_max: float, v_max0: float, zeta: float, names=("f_max", "v_max0", "zeta")) -> None:
    if not (np.isfinite(f_max) and f_max > 0):
        raise ParameterError(f"Kloss.{names[0]} = {f_max!r} must be > 0")
    if not (np.isfinite(v_max0) and v_max0 > 0):
        raise ParameterError(f"Kloss.{names[1]} = {v_max0!r} must be > 0 (the law is singular at v_max0 <= 0)")
    _check_zeta(float(zeta), names[2])


def kloss(v: ArrayLike, f_max: float, v_max0: float, zeta: float) -> NDArray[np.float64]:
    r"""Kloss friction force at slip velocities ``v`` (eqs. 8 + 11), vectorised.

    Parameters
    ----------
    v : array_like
        Slip (or relative) velocity [m/s].
    f_max : float
        Peak force [N].
    v_max0 : float
        Low-speed pull-out velocity [m/s] (> 0).
    zeta : float
        Dissipation growth [1], ``0 <= zeta < 2``.

    Returns
    -------
    ndarray
        :math:`F(v)` [N], odd in ``v``, exactly 0 at 0, :math:`|F| \le F_{max}`.
    """
    _validate(f_max, v_max0, zeta)
    va = np.ascontiguousarray(v, dtype=np.float64)
    out = np.empty_like(va)
    _kloss_vec(va.ravel(), float(f_max), float(v_max0), float(zeta), out.ravel())
    return out


def kloss_2d(vx: ArrayLike, vy: ArrayLike, f_max: float, v_max0: float,
             zeta: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    r"""Isotropic multi-dimensional Kloss force (eqs. 14-21).

    .. math::
        (F_x, F_y) = \mathcal K(|v^*|)\,(v_x, v_y), \quad
        \mathcal K = \frac{2F_{max} v^*_{max}}{|v^*|^2 + (v^*_{max})^2},\quad
        v^*_{max} = v_{max0} + \tfrac12\zeta|v^*|

    The force is collinear with the velocity and its magnitude is the 1-D law of
    :math:`|v^*|`; :math:`\mathcal K(0) = 2F_{max}/v_{max0}` is finite.

    Returns
    -------
    (fx, fy) : ndarrays [N]
    """
    _validate(f_max, v_max0, zeta)
    vx, vy = np.broadcast_arrays(np.asarray(vx, dtype=float), np.asarray(vy, dtype=float))
    vx = np.ascontiguousarray(vx)
    vy = np.ascontiguousarray(vy)
    fx = np.empty(vx.shape)
    fy = np.empty(vx.shape)
    _kloss2_vec(vx.ravel(), vy.ravel(), float(f_max), float(v_max0), float(zeta), fx.ravel(), fy.ravel())
    return fx, fy


@dataclass(frozen=True)
class KlossAnisotropic:
    r"""Direction-dependent Kloss parameters (the paper mentions anisotropy, gives no formula).

    Each parameter :math:`p \in \{F_{max}, v_{max0}, \zeta\}` is blended between its
    x-direction and y-direction value with the direction :math:`\varphi` of the slip velocity,
    :math:`p(\varphi) = p_x\cos^2\varphi + p_y\sin^2\varphi` (an elliptic, smooth and
    :math:`\pi`-periodic choice -- ours), and the force is eq. (18) with those parameters,
    collinear with the velocity. With equal x and y values it is :func:`kloss_2d`.

    Parameters
    ----------
    f_max_x, f_max_y : float
        Peak force along x and along y [N].
    v_max0_x, v_max0_y : float
        Low-speed pull-out velocity along x and y [m/s].
    zeta_x, zeta_y : float
        Dissipation growth along x and y [1].
    """

    f_max_x: float
    f_max_y: float
    v_max0_x: float
    v_max0_y: float
    zeta_x: float
    zeta_y: float

    def __post_init__(self) -> None:
        _validate(self.f_max_x, self.v_max0_x, self.zeta_x, ("f_max_x", "v_max0_x", "zeta_x"))
        _validate(self.f_max_y, self.v_max0_y, self.zeta_y, ("f_max_y", "v_max0_y", "zeta_y"))

    def parameters(self, vx: ArrayLike, vy: ArrayLike) -> tuple[NDArray[np.float64], ...]:
        """Blended ``(f_max, v_max0, zeta)`` for the slip directions of ``(vx, vy)``."""
        vx = np.asarray(vx, dtype=float)
        vy = np.asarray(vy, dtype=float)
        s2 = vx * vx + vy * vy
        c2 = np.where(s2 > 0, vx * vx / np.where(s2 > 0, s2, 1.0), 1.0)
        blend = lambda px, py: px * c2 + py * (1.0 - c2)  # noqa: E731
        return (blend(self.f_max_x, self.f_max_y), blend(self.v_max0_x, self.v_max0_y),
                blend(self.zeta_x, self.zeta_y))

    def __call__(self, vx: ArrayLike, vy: ArrayLike) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
        """Force components ``(fx, fy)`` [N] at slip velocity ``(vx, vy)`` [m/s]."""
        vx = np.asarray(vx, dtype=float)
        vy = np.asarray(vy, dtype=float)
        fm, v0, z = self.parameters(vx, vy)
        s = np.hypot(vx, vy)
        vm = v0 + 0.5 * z * s
        k = 2.0 * fm * vm / (s * s + vm * vm)
        return k * vx, k * vy


def kloss_curve(x: ArrayLike, c_max: float, x_max0: float, zeta1: float, zeta2: float = 0.0) -> NDArray[np.float64]:
    r"""Generic Kloss curve with a quadratic dissipation term (eqs. 31-32, 37-38).

    .. math::
        y = \frac{2 C_{max} x_{max}}{x^2 + x_{max}^2} x,\qquad
        x_{max} = x_{max0} + \tfrac12\zeta_1|x| + \tfrac12\zeta_2 x^2

    Used for the tyre slip form (``zeta2 = 0``) and the airfoil lift (``x`` = angle of
    attack in degrees). With ``zeta2 < 0``, :math:`x_{max}` reaches 0 at a finite ``|x|``;
    the curve is only meaningful below that point (:func:`curve_valid_limit`).
    """
    if not x_max0 > 0:
        raise ParameterError(f"kloss_curve.x_max0 = {x_max0!r} must be > 0")
    if not (np.isfinite(c_max) and np.isfinite(zeta1) and np.isfinite(zeta2)):
        raise ParameterError("kloss_curve: c_max, zeta1 and zeta2 must be finite")
    x = np.asarray(x, dtype=float)
    ax = np.abs(x)
    xm = x_max0 + 0.5 * zeta1 * ax + 0.5 * zeta2 * ax * ax
    return 2.0 * c_max * xm * x / (x * x + xm * xm)


def curve_valid_limit(x_max0: float, zeta1: float, zeta2: float) -> float:
    """Smallest ``|x| > 0`` where ``x_max`` of :func:`kloss_curve` reaches 0 (inf if never)."""
    if zeta2 == 0:
        return math.inf if zeta1 >= 0 else -2 * x_max0 / zeta1
    disc = 0.25 * zeta1 ** 2 - 2 * zeta2 * x_max0
    if disc < 0:
        return math.inf
    roots = [(-0.5 * zeta1 + sgn * math.sqrt(disc)) / zeta2 for sgn in (1, -1)]
    pos = [r for r in roots if r > 0]
    return min(pos) if pos else math.inf


def kloss_slip(s: ArrayLike, f_max: float, s_max0: float, zeta: float) -> NDArray[np.float64]:
    r"""Tyre longitudinal force vs slip ratio (eqs. 31-32); ``s`` and ``s_max0`` in the same
    unit (the paper uses percent: ``s_max0 = 5.55``). Returns :math:`F_x/F_N` when ``f_max``
    is a peak friction coefficient."""
    _validate(f_max, s_max0, zeta, ("f_max", "s_max0", "zeta"))
    return kloss_curve(s, f_max, s_max0, zeta, 0.0)


def kloss_combined_slip(sx: ArrayLike, sy: ArrayLike, f_max: float, s_max0: float,
                        zeta: float) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    r"""Combined-slip tyre forces (eqs. 33-34): eq. (18) with :math:`v \to s`,
    :math:`|s^*| = \sqrt{s_x^2 + s_y^2}`."""
    return kloss_2d(sx, sy, f_max, s_max0, zeta)


def slip_ratios(omega: ArrayLike, r_w: float, vx: ArrayLike, vy: ArrayLike = 0.0) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    r"""Longitudinal and lateral slip (eqs. 29-30): :math:`s_x = (\omega r_w - v_x)/v_x`,
    :math:`s_y = -v_y/v_x` (dimensionless; multiply by 100 for percent).

    Parameters
    ----------
    omega : wheel angular velocity [rad/s]; r_w : rolling radius [m];
    vx, vy : contact-patch velocity components [m/s] (``vx != 0``).
    """
    vx = np.asarray(vx, dtype=float)
    if np.any(vx == 0):
        raise ParameterError("slip_ratios: vx = 0 makes the slip ratio undefined (eq. 29)")
    return (np.asarray(omega, dtype=float) * r_w - vx) / vx, -np.asarray(vy, dtype=float) / vx


def kloss_lift(alpha_deg: ArrayLike, c_max: float, alpha_max0: float, zeta1: float,
               zeta2: float = 0.0) -> NDArray[np.float64]:
    r"""Lift coefficient vs angle of attack [deg] (eqs. 37-38).

    .. math::
        C_L = \frac{2 C_{max}\alpha_{max}}{\alpha^2 + \alpha_{max}^2}\alpha,\quad
        \alpha_{max} = \alpha_{max0} + \tfrac12\zeta_1|\alpha| + \tfrac12\zeta_2\alpha^2

    Angles in degrees (Sec. VII.B prints ``alpha_max0 = 25.38``, which only degrees make sense of; the
    slope at 0 is then :math:`2C_{max}/\alpha_{max0}` per degree, close to thin-airfoil
    :math:`2\pi` per radian). ``zeta2`` is per degree.
    """
    return kloss_curve(alpha_deg, c_max, alpha_max0, zeta1, zeta2)


# ---------------------------------------------------------------------------------------------
# the paper's discrete dynamic form (eq. 25)
# ---------------------------------------------------------------------------------------------
@njit(cache=True)
def _alpha_loop(v, alpha, f_max, v_max0, zeta, f0, out):
    f = f0
    for k in range(v.size):
        out[k] = f
        f = alpha * f + (1.0 - alpha) * kloss_scalar(v[k], f_max, v_max0, zeta)


def alpha_from_time_constant(dt: float, t_f: float, form: str = "exp") -> float:
    r"""Lag coefficient of eq. (25): :math:`\alpha = e^{-\Delta t/T_f}` (``form="exp"``, exact
    for a held velocity) or :math:`1 - \Delta t/T_f` (``"euler"``); ``t_f = 0`` gives 0."""
    if not dt > 0:
        raise ParameterError(f"alpha_from_time_constant: dt = {dt!r} s must be > 0")
    if t_f < 0:
        raise ParameterError(f"alpha_from_time_constant: t_f = {t_f!r} s must be >= 0")
    if t_f == 0:
        return 0.0
    if form == "exp":
        return math.exp(-dt / t_f)
    if form == "euler":
        a = 1.0 - dt / t_f
        if a < 0:
            raise ParameterError(f"forward-Euler alpha = 1 - dt/t_f = {a:g} < 0: use dt < t_f or form='exp'")
        return a
    raise ParameterError(f"alpha_from_time_constant: form = {form!r} is not 'exp' or 'euler'")


def kloss_alpha_filter(v: ArrayLike, alpha: float, f_max: float, v_max0: float, zeta: float,
                       f0: float = 0.0) -> NDArray[np.float64]:
    r"""Discrete dynamic Kloss force (eq. 25) along a sampled slip-velocity series.

    :math:`F_{k+1} = \alpha F_k + (1 - \alpha) F_{ss}(v_k)`, returning :math:`F_k` for each
    sample (``F_0 = f0``), so the force lags the velocity by one sample at least
    (Sec. V.E does not say which force the motion uses). ``alpha = 0`` gives the static law delayed by one
    sample.

    Parameters
    ----------
    v : array_like
        Slip velocity samples [m/s] (uniform sample time implied by ``alpha``).
    alpha : float
        Lag coefficient, ``0 <= alpha < 1``.
    """
    if not (0.0 <= alpha < 1.0):
        raise ParameterError(f"kloss_alpha_filter: alpha = {alpha!r} must be in [0, 1)")
    _validate(f_max, v_max0, zeta)
    va = np.ascontiguousarray(v, dtype=np.float64).ravel()
    out = np.empty_like(va)
    _alpha_loop(va, float(alpha), float(f_max), float(v_max0), float(zeta), float(f0), out)
    return out


add_presets("kloss", {
    "fig4a": Preset({"f_max": 1.0, "v_max0": 0.01, "zeta": 0.5}, source="Martinez Molina (2025), Fig. 4(a)", doi=DOI),
    "fig4b": Preset({"f_max": 1.0, "v_max0": 1e-4, "zeta": 0.5}, source="Martinez Molina (2025), Fig. 4(b)", doi=DOI),
    "fig5": Preset({"f_max": 1.0, "v_max0": 0.01, "zeta": 0.5}, source="Martinez Molina (2025), Fig. 5 (incline)", doi=DOI),
    "fig6": Preset({"f_max": 1.0, "v_max0": 0.01, "zeta": 0.5}, source="Martinez Molina (2025), Fig. 6 (wall spring)", doi=DOI),
    "fig7": Preset({"f_max": 1.0, "v_max0": 0.01, "zeta": 0.95}, source="Martinez Molina (2025), Fig. 7 (force ramp)", doi=DOI),
    "fig14": Preset({"f_max": 5.291, "v_max0": 0.0115, "zeta": 0.005},
                    source="Martinez Molina (2025), Fig. 14 (Bragg curve, normalised units, m = 1)", doi=DOI),
})
add_presets("kloss_dynamic", {
    "fig8": Preset({"f_max": 1.0, "v_max0": 0.01, "zeta": 0.5, "t_f": 0.01},
                   source="Martinez Molina (2025), Fig. 8 with Fig. 4(a) parameters; t_f is ours (the paper prints no alpha)", doi=DOI),
})
