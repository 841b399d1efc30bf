r"""Single creeping JG microjunction under a prescribed normal-force history (Goedecke 2013, App. A).

The state is the normalised interference and contact area :math:`y = (\delta^*, A^*)` plus the
history scalar :math:`\delta^*_{max}`. In physical time (the appendix's normalised time cancels) the rates are

.. math::
    \frac{d\delta^*}{dt} = \frac{\dot F^*(t)}{\partial F^*/\partial\delta^*}
        + \left.\frac{d\delta^*}{dt}\right|_{cr},\qquad
    \frac{dA^*}{dt} = \frac{\partial A^*}{\partial\delta^*}\,\frac{d\delta^*}{dt}

with the force stiffness :math:`\partial F^*/\partial\delta^* = \tfrac32\sqrt{A^*}` (elastic:
unloading, or loading below :math:`F^*_{JG}`) or :math:`\partial F^*_{JG}/\partial\delta^*`
(on the plastic curve), the area slope :math:`(A^*)^{3/2}/F^*` (elastic, residual-radius law:
decreasing interference or :math:`A^* < A^*_{JG}`) or :math:`\partial A^*_{JG}/\partial\delta^*`
(plastic), and the creep rate of :mod:`.creep`. Friction of the junction follows Bowden--Tabor,
:math:`F_f = \tau A` with shear strength :math:`\tau`.

Numerics: :func:`scipy.integrate.solve_ivp` (DOP853 by default) is run segment
by segment between load breakpoints. The history variable is **committed after each accepted
step** (a non-terminal event hook, which ``solve_ivp`` evaluates once per accepted step at its
end point); inside the right-hand side :math:`\hat\delta^*_{max} = \max(\delta^*_{max},\delta^*)`,
which is exact within a step. ``history="augmented"`` instead carries :math:`m` as a third
state with :math:`\dot m = \max(\dot\delta^*, 0)` when :math:`\delta^*\ge m` (cross-check).
``mode="hybrid"`` (default) keeps the area algebraically on the plastic curve,
:math:`A^* = A^*_{JG}(\delta^*)`, while a Boolean ``on_plastic_area`` is set; terminal solver
events leave it when :math:`\dot\delta^*` turns negative, re-enter when
:math:`\min(A^* - A^*_{JG}, \dot\delta^*)` crosses zero upwards, and stop every step at
:math:`\delta^* = 1.9`. ``mode="simple"`` integrates the printed branch logic directly with a
:math:`10^{-6}` relative band and the kink event (needs rtol <= 1e-9).

Notes
-----
Where the printed appendix is read with a correction, the corrections are listed in
:mod:`.jackson_green` and :mod:`.creep`; in addition the area branch condition is printed as
"dδ*/dτ > 0 (decreasing interference)" and is used as "< 0" (``area_branch="printed"`` takes it as printed). A load below
the preload ``f0`` [F*] is refused (:func:`below_preload`): the appendix's rates are singular at zero load (the
elastic stiffness :math:`2E'\sqrt{A/\pi}` and the area vanish, :math:`\hat p = F/A` and
:math:`R_{res} \propto A^{3/2}/F` are 0/0), so the model runs only at loads of at least ``f0`` F_c.

Force branch and sliding (not in the source, a numerical reading of it): the printed test
"F* < F*_JG → elastic stiffness, else dF*_JG/dδ*" makes the rate discontinuous on the curve
F* = F*_JG(δ*). While loading fast enough, the elastic branch points back to the curve and the
plastic branch (with creep) away from it, so the exact solution slides along the curve
(Filippov); explicit solvers chatter there at great cost. Inside a relative band of 1e-9 around
the curve the kernel therefore uses the equivalent-control rate
:math:`\dot\delta^* = \dot F^*/(dF^*_{JG}/d\delta^*)` with the total derivative (including
:math:`dH'_G/d\delta^*`), which is the limit of the chattering solution; outside the band, or
when the branches do not both point at the curve, the printed branches apply unchanged.
Without creep, the printed slope dF*_JG/dδ* (which neglects :math:`dH'_G/d\delta^*`) lets δ* lag the
curve slightly (``|F*/F*_JG - 1|`` = 5e-5 at F* = 20, 5e-4 at F* = 50: a bound of 1e-4
holds only up to F* ≈ 25), and right after δ* = 1.9 F* is 0.47 % below the curve because of the
documented jump of the JG force fit, closed by the elastic branch by δ* ≈ 2.002.
Restarts after a δ* = 1.9 event are nudged by 1e-12 relative so the event does not refire.

References
----------
Goedecke, A. (2013). Transient Effects in Friction: Fractal Asperity Creep, Appendix A.
Springer. doi:10.1007/978-3-7091-1506-0.
Bowden, F. P., Tabor, D. (1950). The Friction and Lubrication of Solids. Clarendon, Oxford.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, ClassVar, final

import numpy as np
import xarray as xr
from numba import njit
from numpy.typing import ArrayLike, NDArray
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

from ...core.base import AbstractModel, ContractCase
from ...core.errors import IntegrationError, ParameterError
from ...core.params import option, param
from ...core.registry import register_model, declare_drivers
from ...core.result import make_dataset
from .creep import _creep_delta_rate
from .jackson_green import (
    DELTA_KINK, _area_jg, _darea_jg, _dforce_jg, _dforce_jg_total, _force_jg, _k_of, area_jg, normalisation,
)

__all__ = ["Microjunction", "ForceHistory", "JunctionSolution", "integrate_junction", "junction_rates", "below_preload"]

# parameter-vector layout of the kernels
_P_SY, _P_E, _P_C1, _P_C2F, _P_FA, _P_AT, _P_CNU, _P_B, _P_AR, _P_BAND, _P_BRANCH = range(11)
#: relative band for the plastic-area test of the "simple" mode
SIMPLE_BAND = 1e-6
_MODE_SIMPLE, _MODE_PLASTIC, _MODE_ELASTIC = 0, 1, 2
#: a load this little (relative) below the preload is the preload (a load in N converted to F* rounds)
PRELOAD_RTOL = 1e-9


@final
@register_model
@dataclass(frozen=True)
class Microjunction(AbstractModel):
    r"""Creeping elastic-perfectly-plastic hemisphere (JG) against a rigid flat.

    Parameters
    ----------
    sigma_y : float
        Yield stress of the hemisphere [Pa]; must be below ``e``.
    e : float
        Young's modulus [Pa].
    nu : float
        Poisson ratio, in (0, 0.5] [1].
    r : float
        Hemisphere (asperity) radius [m].
    c1 : float
        Creep rate constant :math:`C_1` of the Garofalo-type law [1/s]; 0 switches creep off.
    c2 : float
        Creep stress constant :math:`C_2` [1/Pa]: declared by the source but unused (kept for
        completeness, ignored).
    c2_factor : float
        Speculative multiplier of both :math:`\alpha_k` (1 reproduces the source) [1].
    f_a : float
        Stress-reinsertion factor :math:`f_A` (source: 0.81) [1].
    area_term : bool
        Keep the area term of Eq. 3.39 in the creep rate (the source says it may be dropped).
    area_branch : {"corrected", "printed"}
        Condition of the elastic area branch: ``"corrected"`` (default) takes the elastic area
        law while the interference *decreases*, as the appendix's comment says; ``"printed"``
        takes the condition as printed, :math:`\partial\delta^*/\partial\tau > 0` (the elastic
        law while the interference grows, the JG slope while it falls). The printed reading is
        integrated only in ``mode="simple"`` (the hybrid mode is built on the corrected one).
    f0 : float
        Preload :math:`F^*_0` giving the consistent initial Hertz state: the smallest load the model
        runs at (a load history below it is refused) [1].
    shear_strength_ratio : float
        Junction shear strength :math:`\tau/\sigma_Y` for Bowden--Tabor friction [1]
        (default :math:`1/\sqrt3`, von Mises; an assumption).
    """

    sigma_y: float = param(1.0e9, units="Pa", lo=0.0, lo_open=True)
    e: float = param(200e9, units="Pa", lo=0.0, lo_open=True)
    nu: float = param(0.3, units="1", lo=0.0, hi=0.5, lo_open=True)
    r: float = param(10e-6, units="m", lo=0.0, lo_open=True)
    c1: float = param(1.42e-2, units="1/s", lo=0.0)
    c2: float = param(0.0, units="1/Pa", lo=0.0)
    c2_factor: float = param(1.0, units="1", lo=0.0, lo_open=True)
    f_a: float = param(0.81, units="1", lo=0.0, lo_open=True)
    area_term: bool = option(True, choices=(True, False))
    area_branch: str = option("corrected", choices=("corrected", "printed"))
    f0: float = param(1e-3, units="1", lo=0.0, lo_open=True, hi=1.0)
    shear_strength_ratio: float = param(1.0 / math.sqrt(3.0), units="1", lo=0.0)

    name: ClassVar[str] = "microjunction"
    state_names: ClassVar[tuple[str, ...]] = ("delta_star", "area_star")
    state_units: ClassVar[tuple[str, ...]] = ("1", "1")
    citation: ClassVar[str] = ("Goedecke, A. (2013). Transient Effects in Friction: Fractal Asperity Creep. "
                               "Springer, Vienna; Appendix A, Microjunction Model.")
    doi: ClassVar[str] = "10.1007/978-3-7091-1506-0"
    #: the friction tau A(t) follows the normal-load history only (it does not depend on the slip
    #: direction), so it is not odd in the velocity
    odd: ClassVar[bool] = False

    @property
    def typical_inputs(self) -> dict[str, float]:  # type: ignore[override]
        """A normal force of ten times the critical load F_c (plastic), held for 1 s of creep."""
        return {"v": 1e-6, "normal_force": 10.0 * self.constants["force_c"], "duration": 1.0}

    def contract_case(self) -> ContractCase:
        """The typical inputs at 200 steps: ``dt`` caps the adaptive solver's step."""
        return ContractCase(self, dict(self.typical_inputs), steps=200,
                            why="the drivers are adaptive (dt only caps the step); 8000 capped steps of the "
                                "Python right-hand side would take seconds per run for no accuracy")

    def _check(self) -> None:
        if self.sigma_y >= self.e:
            self._fail("sigma_y", f"= {self.sigma_y:g} Pa must be below the Young's modulus e = {self.e:g} Pa")

    # --- derived constants ------------------------------------------------------------------
    @property
    def constants(self) -> dict[str, float]:
        """Normalisation constants (``cnu``, ``eprime``, ``delta_c``, ``area_c``, ``force_c``, ``b``, ``ar_coef``)."""
        return normalisation(self.e, self.nu, self.sigma_y, self.r)

    @property
    def shear_strength(self) -> float:
        """Junction shear strength :math:`\\tau` [Pa]."""
        return self.shear_strength_ratio * self.sigma_y

    def param_vector(self) -> NDArray[np.float64]:
        c = self.constants
        return np.array([self.sigma_y, self.e, self.c1, self.c2_factor, self.f_a, 1.0 if self.area_term else 0.0,
                         c["cnu"], c["b"], c["ar_coef"], SIMPLE_BAND, 1.0 if self.area_branch == "printed" else 0.0])

    def initial_state(self) -> NDArray[np.float64]:
        d0 = self.f0 ** (2.0 / 3.0)
        return np.array([d0, d0])

    def on_curve_state(self, force_star: float) -> tuple[float, float]:
        """``(delta*, A*)`` on the JG curves carrying ``force_star`` (solves F*_JG(δ*) = F*)."""
        if force_star <= 0.0:
            raise ParameterError(f"Microjunction.on_curve_state: force_star = {force_star:g} must be > 0")
        c = self.constants
        if force_star <= DELTA_KINK ** 1.5:
            d = force_star ** (2.0 / 3.0)
        else:
            fun = lambda x: _force_jg(x, _k_of(x, c["b"], c["cnu"], c["ar_coef"])) - force_star  # noqa: E731
            hi = 2.0
            while fun(hi) < 0.0:
                hi *= 2.0
            d = brentq(fun, DELTA_KINK * (1 + 1e-14), hi, xtol=1e-14, rtol=1e-14)
        return float(d), float(_area_jg(d, c["b"]))

    def friction_force(self, area_star: ArrayLike) -> NDArray[np.float64]:
        """Bowden--Tabor friction :math:`\\tau A` [N] of normalised area ``area_star``."""
        from .scales import Scales

        return Scales.of(self).friction_force(area_star)


# --- kernel -----------------------------------------------------------------------------------
#: relative width of the band around F* = F*_JG in which the Filippov sliding rate is used
SLIDING_BAND = 1e-9


@njit(cache=True)
def _interference_rate(delta, area, force, dforce, cr, b, cnu, ar):
    """dδ*/dt = Ḟ*/(∂F*/∂δ*) + creep (Eq. 4.12) with the printed force-branch logic.

    Near F* = F*_JG(δ*) while loading, the two branches can point at each other (chatter);
    there the Filippov equivalent-control rate Ḟ*/(dF*_JG/dδ*) keeps the state on the curve.
    """
    kel = 1.5 * math.sqrt(area)
    if dforce < 0.0:
        return dforce / kel + cr
    k = _k_of(delta, b, cnu, ar)
    sig = _force_jg(delta, k) - force
    kpl = _dforce_jg(delta, k)
    if sig > SLIDING_BAND * force:
        return dforce / kel + cr
    if sig < -SLIDING_BAND * force:
        return dforce / kpl + cr
    ktot = _dforce_jg_total(delta, b, cnu, ar)
    s_pl = ktot * (dforce / kpl + cr) - dforce
    s_el = ktot * (dforce / kel + cr) - dforce
    if s_el < 0.0 < s_pl:
        return dforce / ktot
    if s_pl <= 0.0:
        return dforce / kpl + cr
    return dforce / kel + cr


@njit(cache=True)
def _rates(delta, area, dmax_c, force, dforce, mode, p, out):
    """out[0] = dδ*/dt, out[1] = dA*/dt [1/s]; mode 0 simple, 1 on plastic area, 2 elastic area."""
    sy, e, c1, c2f, fa, at = p[0], p[1], p[2], p[3], p[4], p[5] > 0.5
    cnu, b, ar, band, printed = p[6], p[7], p[8], p[9], p[10] > 0.5
    dmax = max(dmax_c, delta)
    if mode == 1:
        area = _area_jg(delta, b)
    cr = _creep_delta_rate(force, area, delta, dmax, e, c1, sy, cnu, b, ar, c2f, fa, at)
    dd = _interference_rate(delta, area, force, dforce, cr, b, cnu, ar)
    el = area ** 1.5 / force
    if mode == 1:
        dadd = _darea_jg(delta, b)
    elif mode == 2:
        dadd = el
    else:
        if (dd > 0.0) if printed else (dd < 0.0):
            dadd = el
        elif area < (1.0 - band) * _area_jg(delta, b):
            dadd = el
        else:
            dadd = _darea_jg(delta, b)
    out[0] = dd
    out[1] = dadd * dd


def junction_rates(model: Microjunction, delta: float, area: float, dmax: float, force: float,
                   dforce: float, mode: str = "simple") -> tuple[float, float]:
    """Rates ``(dδ*/dt, dA*/dt)`` [1/s] of the appendix function in physical time.

    ``mode`` is ``"simple"`` (the printed branch logic), ``"plastic"`` (area held on the JG
    curve) or ``"elastic"`` (elastic area law); ``dforce`` is :math:`dF^*/dt` [1/s].
    """
    codes = {"simple": _MODE_SIMPLE, "plastic": _MODE_PLASTIC, "elastic": _MODE_ELASTIC}
    out = np.empty(2)
    _rates(float(delta), float(area), float(dmax), float(force), float(dforce), codes[mode], model.param_vector(), out)
    return float(out[0]), float(out[1])


def below_preload(model: Microjunction, force_star: float, t: float) -> str | None:
    """Why the load ``force_star`` [1] at ``t`` [s] cannot be run (below the preload ``f0``), or None.

    The appendix's rates are singular at zero load, so the model starts from, and stays at, loads of
    at least ``f0`` F_c; the message names the load and the preload in N and what to change."""
    f0 = float(model.f0)
    if force_star >= f0 * (1.0 - PRELOAD_RTOL):
        return None
    fc = float(model.constants["force_c"])
    return (f"microjunction: the normal load {force_star * fc:.4g} N (F* = {force_star:.4g}) at t = {t:.6g} s is below "
            f"the junction's preload f0 F_c = {f0 * fc:.4g} N (f0 = {f0:g}, F_c = {fc:.4g} N): the rates of "
            "Goedecke (2013, App. A) are singular at zero load (the elastic stiffness and the contact area vanish), "
            "so the model runs only at loads >= the preload; start and keep the load programme at or above "
            f"{f0 * fc:.4g} N (e.g. ramped_normal_load's preload, normal_load's first load), or lower the model's f0")


# --- force histories --------------------------------------------------------------------------
@dataclass(frozen=True)
class ForceHistory:
    """A normalised force history :math:`F^*(t)` with its rate, split into smooth segments.

    Parameters
    ----------
    edges : sequence of float
        Segment boundaries [s], strictly increasing; the history is smooth inside each segment.
    force : callable
        ``force(t) -> F*`` [1].
    rate : callable
        ``rate(t, k) -> dF*/dt`` [1/s] inside segment ``k`` (so breakpoints are unambiguous).
    max_step : sequence of float
        Largest solver step per segment [s] (``inf`` for none).
    """

    edges: tuple[float, ...]
    force: Callable[[float], float]
    rate: Callable[[float, int], float]
    max_step: tuple[float, ...] = field(default=())

    def __post_init__(self) -> None:
        e = np.asarray(self.edges, dtype=float)
        if e.ndim != 1 or e.size < 2 or not np.all(np.isfinite(e)):
            raise ParameterError(f"ForceHistory.edges needs >= 2 finite times, got {self.edges!r}")
        if np.any(np.diff(e) <= 0):
            raise ParameterError(f"ForceHistory.edges = {list(e)} must be strictly increasing")
        if not self.max_step:
            object.__setattr__(self, "max_step", tuple([math.inf] * (e.size - 1)))

    @property
    def duration(self) -> float:
        return float(self.edges[-1])

    @classmethod
    def piecewise_linear(cls, times: Sequence[float], loads: Sequence[float], *, steps_per_ramp: float = 50.0) -> "ForceHistory":
        """Linear ramps through ``(times[k], loads[k])`` (loads as F* [1], times [s]).

        Ramps get ``max_step = duration / steps_per_ramp`` (1/50 of the load segment).
        Raises :class:`ParameterError` for negative loads or non-increasing times.
        """
        t = np.asarray(times, dtype=float)
        f = np.asarray(loads, dtype=float)
        if t.ndim != 1 or t.size < 2 or t.size != f.size:
            raise ParameterError(f"ForceHistory.times needs >= 2 knots and as many loads (got {t.size} and {f.size})")
        if not (np.all(np.isfinite(t)) and np.all(np.isfinite(f))):
            raise ParameterError("ForceHistory.times/loads must be finite")
        if np.any(np.diff(t) <= 0):
            raise ParameterError(f"ForceHistory.times = {list(t)} must be strictly increasing")
        if np.any(f < 0):
            raise ParameterError(f"ForceHistory.loads = {list(f)} must be >= 0 (a junction cannot carry tension)")
        slopes = np.diff(f) / np.diff(t)
        ms = tuple(float(dt / steps_per_ramp) if s != 0.0 else math.inf for dt, s in zip(np.diff(t), slopes))
        tt, ff = t.copy(), f.copy()
        return cls(edges=tuple(map(float, t)), force=lambda x: float(np.interp(x, tt, ff)),
                   rate=lambda x, k: float(slopes[min(max(k, 0), slopes.size - 1)]), max_step=ms)

    @classmethod
    def sinusoid(cls, mean: float, amplitude: float, period: float, duration: float, *, ramp: float = 1e-3,
                 steps_per_period: float = 50.0) -> "ForceHistory":
        """Linear preload to ``mean`` in ``ramp`` [s], then :math:`F^* = \\bar F + \\hat F\\sin(2\\pi (t - t_r)/T)`."""
        if amplitude < 0 or mean - amplitude < 0:
            raise ParameterError(f"ForceHistory.sinusoid: mean - amplitude = {mean - amplitude:g} must be >= 0")
        if period <= 0 or duration <= ramp or ramp <= 0:
            raise ParameterError("ForceHistory.sinusoid: need period > 0 and duration > ramp > 0")
        w = 2 * math.pi / period

        def force(t: float) -> float:
            return mean * t / ramp if t < ramp else mean + amplitude * math.sin(w * (t - ramp))

        def rate(t: float, k: int) -> float:
            return mean / ramp if k == 0 else amplitude * w * math.cos(w * (t - ramp))

        return cls(edges=(0.0, ramp, duration), force=force, rate=rate,
                   max_step=(ramp / steps_per_period, period / steps_per_period))

    @classmethod
    def from_protocol(cls, protocol: Any, scales: Any = None, *, steps_per_ramp: float = 50.0) -> "ForceHistory":
        """The ``normal_force(t)`` channel of a protocol as F* (through ``scales.force_star``, the
        :class:`~.scales.Scales` of the model; ``None``: the protocol's loads are F* already).

        One history segment per protocol piece (:meth:`~frictionlab.protocols.base.AbstractProtocol.segments`),
        so load jumps and kinks stay breakpoints: a piece of constant normal force has rate 0;
        a piece where it varies linearly (as in
        :class:`~frictionlab.protocols.NormalLoadProgramme`) its exact slope, the straight line
        between its end values (as :meth:`piecewise_linear`) and ``max_step = length /
        steps_per_ramp``; any other variation (e.g. a cycle of
        :class:`~frictionlab.protocols.RampedNormalLoad`) is the protocol's channel, differentiated
        numerically within the piece, with the same ``max_step``.
        """
        star = (lambda f: f) if scales is None else scales.force_star  # noqa: E731
        segs = protocol.segments()
        edges = [float(segs[0].t_start)] + [float(sg.t_end) for sg in segs]

        def channel(t: float) -> float:
            return float(star(protocol.normal_force(np.array([t]))[0]))

        starts: list[float] = []  # F* at the start of each linear or constant piece (NaN: varies otherwise)
        slopes: list[float | None] = []
        max_step: list[float] = []
        for sg in segs:
            a, b = float(sg.t_start), float(sg.t_end)
            if sg.normal_force is not None:
                starts.append(float(star(float(sg.normal_force))))
                slopes.append(0.0)
                max_step.append(math.inf)
                continue
            # linear when the channel lies on the chord at interior points (several: a full period of a
            # sine has its end values at the midpoint too)
            x = np.linspace(0.0, 1.0, 9)
            f = np.asarray(star(protocol.normal_force(a + (b - a) * x)), dtype=float)
            fa, fb = float(f[0]), float(f[-1])
            linear = bool(np.all(np.abs(f - (fa + (fb - fa) * x)) <= 1e-12 * max(abs(fa), abs(fb), 1e-300)))
            starts.append(fa if linear else math.nan)
            slopes.append((fb - fa) / (b - a) if linear else None)
            max_step.append((b - a) / steps_per_ramp)
        end = channel(edges[-1])
        edge_arr = np.asarray(edges)

        def fn(t: float) -> float:
            k = int(np.searchsorted(edge_arr, t, side="right")) - 1
            if k >= len(slopes):
                return end
            s = slopes[k] if k >= 0 else None
            if s is None:
                return channel(t)
            # the arithmetic of numpy.interp on the piece's end values (bit-equal to piecewise_linear)
            return starts[k] if t == edges[k] or s == 0.0 else s * (t - edges[k]) + starts[k]

        def rate(t: float, k: int) -> float:
            k = min(max(k, 0), len(slopes) - 1)
            s = slopes[k]
            if s is not None:
                return s
            a, b = edges[k], edges[k + 1]
            h = 1e-7 * (b - a)
            lo, hi = max(t - h, a), min(t + h, b)
            return (channel(hi) - channel(lo)) / (hi - lo)

        return cls(edges=tuple(edges), force=fn, rate=rate, max_step=tuple(max_step))


# --- solution ---------------------------------------------------------------------------------
@dataclass
class JunctionSolution:
    """Trajectory of one junction (normalised values) plus solver statistics."""

    time: NDArray[np.float64]
    delta: NDArray[np.float64]
    area: NDArray[np.float64]
    delta_max: NDArray[np.float64]
    force: NDArray[np.float64]
    plastic: NDArray[np.float64]
    n_steps: int
    n_rhs: int
    n_events: int
    mode: str
    history: str

    def to_dataset(self, model: Microjunction) -> xr.Dataset:
        """Labelled Dataset: the SI variables and the normalised ones as ``*_star`` extras
        (:meth:`.scales.Scales.junction_variables`), plus ``on_plastic_area`` [1]."""
        from .scales import Scales

        sc = Scales.of(model)
        c = model.constants
        pstar = 2.0 / 3.0 * c["cnu"] * self.force / self.area
        data, units = sc.junction_variables(self.delta, self.area, self.delta_max, self.force, pstar)
        data["on_plastic_area"] = self.plastic
        units["on_plastic_area"] = "1"
        attrs = {**model.attrs(), "model": model.name, "delta_c": c["delta_c"], "area_c": c["area_c"],
                 "force_c": c["force_c"], "cnu": c["cnu"], "jg_b": c["b"], "n_steps": self.n_steps,
                 "n_rhs": self.n_rhs, "mode": self.mode, "history": self.history}
        return make_dataset(self.time, data, units=units, attrs=attrs)


def integrate_junction(
    model: Microjunction,
    history: ForceHistory,
    *,
    t_eval: ArrayLike | None = None,
    mode: str = "hybrid",
    history_method: str = "commit",
    method: str = "DOP853",
    rtol: float = 1e-8,
    atol: float = 1e-10,
    max_step: float = math.inf,
    initial: tuple[float, float] | None = None,
    max_events: int = 100_000,
) -> JunctionSolution:
    """Integrate one junction under ``history`` with :func:`scipy.integrate.solve_ivp`.

    Parameters
    ----------
    model : Microjunction
    history : ForceHistory
        Normalised force history :math:`F^*(t)` [1], see :meth:`ForceHistory.from_protocol`.
    t_eval : array_like, optional
        Output times [s] (strictly increasing, inside the history); default every accepted step.
    mode : {"hybrid", "simple"}
        Plastic-area handling (module docstring).
    history_method : {"commit", "augmented"}
        :math:`\\delta^*_{max}` committed after each accepted step, or carried as a state.
    method : {"DOP853", "RK45"}
        Explicit Runge--Kutta pair (the right-hand side is discontinuous at branch switches).
    rtol, atol : float
        Solver tolerances.
    max_step : float
        Global cap on the step [s] (segments may impose smaller ones).
    initial : (delta*, A*), optional
        Initial state; default the consistent on-curve state at the initial load (Hertz at
        small loads).

    Returns
    -------
    JunctionSolution

    Raises
    ------
    ParameterError
        Bad option, non-monotone ``t_eval``.
    IntegrationError
        Solver failure or non-finite state (names the time and the step).
    """
    if mode not in ("hybrid", "simple"):
        raise ParameterError(f"integrate_junction: mode = {mode!r} is not one of ['hybrid', 'simple']")
    if mode == "hybrid" and model.area_branch == "printed":
        raise ParameterError("integrate_junction: area_branch = 'printed' (the elastic area law while the interference "
                             "grows) is integrated only with mode='simple'; the hybrid mode keeps the area on the JG "
                             "curve while it grows")
    if history_method not in ("commit", "augmented"):
        raise ParameterError(f"integrate_junction: history_method = {history_method!r} is not one of ['commit', 'augmented']")
    if method not in ("DOP853", "RK45"):
        raise ParameterError(f"integrate_junction: method = {method!r} is not one of ['DOP853', 'RK45']")
    edges = np.asarray(history.edges, dtype=float)
    if t_eval is not None:
        te = np.asarray(t_eval, dtype=float)
        if te.ndim != 1 or te.size == 0 or np.any(np.diff(te) <= 0):
            raise ParameterError("integrate_junction: t_eval must be a strictly increasing 1-D time grid")
        if te[0] < edges[0] or te[-1] > edges[-1] * (1 + 1e-12):
            raise ParameterError(f"integrate_junction: t_eval must lie in [{edges[0]:g}, {edges[-1]:g}] s")
        te = np.minimum(te, edges[-1])
    else:
        te = None
    p = model.param_vector()
    b = float(p[_P_B])
    f0 = model.f0

    def force_at(t: float) -> float:
        f = history.force(t)
        if not f >= 0.0:
            raise ParameterError(f"force history gives F* = {f!r} < 0 at t = {t:g} s (loads must be >= 0)")
        why = below_preload(model, f, t)
        if why is not None:
            raise ParameterError(why)
        return max(f, f0)  # a load within PRELOAD_RTOL below f0 is f0

    def rate_at(t: float, k: int) -> float:
        # at the preload the load does not fall further (a history that does is refused by force_at)
        return history.rate(t, k) if history.force(t) > f0 else max(history.rate(t, k), 0.0)

    if initial is None:
        delta0, area0 = model.on_curve_state(force_at(edges[0]))
    else:
        delta0, area0 = map(float, initial)
    aug = history_method == "augmented"
    y = np.array([delta0, area0] + ([delta0] if aug else []))
    dmax = [delta0]
    commits_t: list[float] = [float(edges[0])]
    commits_v: list[float] = [delta0]
    out_t: list[NDArray] = []
    out_y: list[NDArray] = []
    out_pl: list[NDArray] = []
    buf = np.empty(2)
    n_steps = n_rhs = n_events = 0
    event_log: list[tuple[float, str]] = []
    plastic = mode == "hybrid" and area0 >= _area_jg(delta0, b) * (1 - 1e-12)

    def mode_code(pl: bool) -> int:
        if mode == "simple":
            return _MODE_SIMPLE
        return _MODE_PLASTIC if pl else _MODE_ELASTIC

    def make_fun(code: int, k: int):
        def fun(tt, yy):
            nonlocal n_rhs
            n_rhs += 1
            dm = max(dmax[0], yy[2]) if aug else dmax[0]
            _rates(yy[0], yy[1], dm, force_at(tt), rate_at(tt, k), code, p, buf)
            if aug:
                return np.array([buf[0], buf[1], buf[0] if (yy[0] >= yy[2] and buf[0] > 0) else 0.0])
            return buf.copy()
        return fun

    def commit(tt: float, value: float) -> None:
        if value > dmax[0]:
            dmax[0] = float(value)
            commits_t.append(float(tt))
            commits_v.append(float(value))

    def record(tt: NDArray, yy: NDArray, pl: bool) -> None:
        yy = np.array(yy[:2], dtype=float, copy=True).reshape(2, -1)
        if mode == "hybrid" and pl and yy.size:
            yy[1] = area_jg(yy[0], b)
        out_t.append(np.atleast_1d(np.asarray(tt, dtype=float)))
        out_y.append(yy)
        out_pl.append(np.full(yy.shape[1], 1.0 if pl else 0.0))

    if te is None or abs(te[0] - edges[0]) <= 1e-12 * max(abs(edges[0]), 1.0):
        record(np.array([edges[0]]), y.reshape(-1, 1), plastic)
    for k in range(edges.size - 1):
        t0, t1 = float(edges[k]), float(edges[k + 1])
        seg_max = min(max_step, float(history.max_step[k]))
        t = t0
        seg_start = True
        while t < t1 - 1e-14 * max(abs(t1), 1.0):
            if mode == "hybrid" and seg_start:  # decide the branch where the load rate may jump
                seg_start = False
                r0 = make_fun(_MODE_PLASTIC if plastic else _MODE_ELASTIC, k)(t, y)[0]
                if plastic and r0 < 0:
                    plastic = False
                elif not plastic and y[1] >= _area_jg(y[0], b) and r0 > 0:
                    plastic = True
            if mode == "hybrid" and plastic:
                y[1] = _area_jg(y[0], b)
            fun = make_fun(mode_code(plastic), k)

            def ev_kink(tt, yy):
                return yy[0] - DELTA_KINK
            ev_kink.terminal = True
            events = [ev_kink]
            if mode == "hybrid" and plastic:
                def ev_switch(tt, yy, f=fun):  # leave the plastic curve at a maximum of delta*
                    return f(tt, yy)[0]
                ev_switch.terminal, ev_switch.direction = True, -1
                events.append(ev_switch)
            elif mode == "hybrid":
                def ev_switch(tt, yy, f=fun):  # re-enter when A* reaches A*_JG while loading
                    return min(yy[1] - _area_jg(yy[0], b), f(tt, yy)[0])
                ev_switch.terminal, ev_switch.direction = True, 1
                events.append(ev_switch)
            if not aug:
                def ev_commit(tt, yy):
                    # solve_ivp evaluates events at the end of every accepted step: commit there
                    commit(tt, yy[0])
                    return 1.0
                events.append(ev_commit)
            with np.errstate(invalid="ignore", over="ignore"):  # divergence is reported below
                sol = solve_ivp(fun, (t, t1), y, method=method, rtol=rtol, atol=atol, max_step=seg_max,
                                events=events, dense_output=te is not None)
            if sol.status == -1 or not np.all(np.isfinite(sol.y)):
                raise IntegrationError(
                    f"microjunction: solver failed near t = {sol.t[-1]:.6g} s at step {n_steps + sol.t.size} "
                    f"({sol.message}); the creep law may diverge (sinh overflow) -- reduce the load or c1, "
                    "lower max_step, or tighten rtol", time=float(sol.t[-1]), step=n_steps + sol.t.size)
            n_steps += sol.t.size - 1
            t_stop = float(sol.t[-1])
            if sol.status == 1:
                fired = [i for i, te_i in enumerate(sol.t_events) if len(te_i)]
                i_ev = fired[0]
                t_stop = float(sol.t_events[i_ev][-1])
                y_stop = np.array(sol.y_events[i_ev][-1], dtype=float)
            else:
                y_stop = np.array(sol.y[:, -1], dtype=float)
            if te is None:
                keep = sol.t[1:] < t_stop
                record(sol.t[1:][keep], sol.y[:, 1:][:, keep], plastic)
            else:
                sel = te[(te > t) & (te < t_stop)]
                if sel.size:
                    record(sel, sol.sol(sel), plastic)
            if sol.status == 1:
                n_events += 1
                if n_events > max_events:
                    raise IntegrationError(f"microjunction: more than {max_events} branch events by t = {t_stop:.6g} s "
                                           f"(chattering; last: {event_log[-4:]}); loosen rtol or use mode='simple'",
                                           time=t_stop, step=n_steps)
                event_log.append((t_stop, "kink" if events[i_ev] is ev_kink else ("exit" if plastic else "enter")))
                if events[i_ev] is ev_kink:  # step off the kink so the event does not fire again
                    sgn = 1.0 if fun(t_stop, y_stop)[0] >= 0 else -1.0
                    y_stop[0] = DELTA_KINK * (1.0 + sgn * 1e-12)
                else:
                    plastic = not plastic
            commit(t_stop, y_stop[0])
            y = y_stop
            t = t_stop if sol.status == 1 else t1
            if mode == "hybrid" and plastic:
                y[1] = _area_jg(y[0], b)
            if te is None or np.any(np.abs(te - t) <= 1e-12 * max(abs(t), 1.0)):
                record(np.array([t]), y.reshape(-1, 1), plastic)
    time = np.concatenate(out_t)
    yy = np.concatenate(out_y, axis=1)
    pl = np.concatenate(out_pl)
    # delta*_max at the output times: last committed value, or the current interference
    ct = np.asarray(commits_t)
    cv = np.maximum.accumulate(np.asarray(commits_v))
    idx = np.searchsorted(ct, time, side="right") - 1
    dm = np.maximum(cv[np.clip(idx, 0, cv.size - 1)], yy[0])
    dm = np.maximum.accumulate(dm)
    force = np.array([force_at(float(x)) for x in time])
    return JunctionSolution(time=time, delta=yy[0], area=yy[1], delta_max=dm, force=force, plastic=pl,
                            n_steps=n_steps, n_rhs=n_rhs, n_events=n_events, mode=mode, history=history_method)

# the drivers of simulate, imported at the first lookup of one
declare_drivers(Microjunction, ".driver")
