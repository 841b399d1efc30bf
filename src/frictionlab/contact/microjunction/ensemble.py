r"""Greenwood--Williamson-style ensemble of creeping JG microjunctions sharing the normal load.

:math:`N` identical hemispheres (the material and radius of a :class:`~.junction.Microjunction`)
have summit heights :math:`z_i` drawn deterministically from a Gaussian of standard deviation
:math:`\sigma_z` (quantiles :math:`z_i = \sigma_z\Phi^{-1}((i + 1/2)/N)`). A rigid flat at
separation :math:`d(t)` gives every junction the interference :math:`\delta_i = z_i - d`; the
junction forces :math:`F_i` add up to the prescribed total load, :math:`\sum_i F_i = F(t)`.

Each junction obeys the microjunction law of Goedecke (2013, App. A) written for a prescribed
interference: :math:`\dot F_i = k_i(\dot\delta_i - c_i)`, where :math:`k_i` is the force
stiffness of the printed branch logic and :math:`c_i` the creep interference rate at constant
force (:mod:`.creep`). The load constraint then fixes the common approach rate

.. math::
    \dot\delta = -\dot d = \frac{\dot F + \sum_i k_ic_i}{\sum_i k_i},

and areas follow :math:`\dot A_i = (\partial A/\partial\delta)_i\,\dot\delta`. The state is
:math:`(d, F_i, s_i, m_i)` with the area stored as its deficit from the plastic curve,
:math:`s_i = A_i - A^*_{JG}(\delta_i)`: on the plastic branch :math:`\dot s_i = 0` exactly, so
the area cannot drift off the curve (the vectorised counterpart of the single junction's hybrid
mode), and on the elastic branch :math:`\dot s_i = ((A_i)^{3/2}/F_i - \partial A^*_{JG}/
\partial\delta)\dot\delta`. The history :math:`m_i` is the augmented-state form of
:math:`\delta^*_{max}`. Friction is Bowden--Tabor,
:math:`F_f = \tau A_c\sum_iA_i`.

Notes
-----
Modelling choices not in the source (the appendix treats one junction): the load direction
used by the force branch is that of the total load; a junction on the curve while loading
slides along it (Filippov rate, see :func:`.junction._interference_rate`) when both branches
point at the curve, decided in one corrector pass with the approach rate of a predictor pass;
a junction whose force reaches zero on unloading is dropped from contact (its force is clamped
at 0). All quantities are normalised by the single-junction critical values.

Performance: the rates are evaluated by one fused kernel (:func:`_ens_rates`) that computes
each junction's JG area, stiffness and creep rate once per call and caches the creep
coefficients on :math:`\hat\delta^*_{max}` (exact: recomputed whenever that value changes).
Summits not yet touched start with :math:`m_i = z_i - d_0 < 0` and track their interference
while the flat approaches; :math:`\max(m_i, \delta_i)` is unchanged once they touch, but
:math:`m_i` no longer switches from :math:`\dot m_i = 0` to :math:`\dot\delta` at contact onset,
a kink that otherwise makes the error control cut the step at every new contact (about 8x
fewer rate evaluations in a long hold). BLAS is held to one thread during the solve. The
unoptimised :func:`_ens_rates_reference` with the clipped history (``reference=True``) is kept
to test against; both agree to solver tolerance.

References
----------
Greenwood, J. A., Williamson, J. B. P. (1966). Contact of nominally flat surfaces. Proc. R. Soc.
Lond. A 295, 300-319. doi:10.1098/rspa.1966.0242.
Goedecke, A. (2013). Transient Effects in Friction: Fractal Asperity Creep, Ch. 5 (multi-scale
ensembles of microjunctions) and Appendix A. Springer. doi:10.1007/978-3-7091-1506-0.
"""

from __future__ import annotations

import math
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass
from typing import ClassVar, final

import numpy as np
import xarray as xr
from numba import njit
from numpy.typing import ArrayLike, NDArray
from scipy.integrate import solve_ivp
from scipy.optimize import brentq

from ...core.errors import IntegrationError, ParameterError
from ...core.params import Parameters, param
from ...core.result import make_dataset
from .creep import SINH_LIMIT, _A1A, _A1B, _A1C, _A2A, _A2B, _A2C, _L1A, _L1B, _L1C, _L2A, _L2B, _L2C, _creep_delta_rate
from .jackson_green import (
    DELTA_KINK, _area_jg, _darea_jg, _dforce_jg, _dforce_jg_total, _force_jg, _hardness_ratio, _k_of,
)
from .junction import SLIDING_BAND, ForceHistory, Microjunction, below_preload

__all__ = ["JunctionEnsemble", "EnsembleSolution", "integrate_ensemble", "ensemble_rates"]


@final
@dataclass(frozen=True)
class JunctionEnsemble(Parameters):
    """Height distribution of a GW-style ensemble of microjunctions.

    Parameters
    ----------
    n_junctions : int
        Number of junctions N [1].
    sigma_z : float
        Standard deviation of the summit heights [m].
    """

    n_junctions: int = param(1000, units="1", lo=1, integer=True)
    sigma_z: float = param(20e-9, units="m", lo=0.0, lo_open=True)
    _label: ClassVar[str] = "JunctionEnsemble"

    def heights(self, delta_c: float) -> NDArray[np.float64]:
        """Summit heights normalised by :math:`\\delta_c`, descending [1]."""
        from scipy.stats import norm  # here, not at import: scipy.stats alone costs ~0.3 s (frictionlab list)

        q = (np.arange(self.n_junctions) + 0.5) / self.n_junctions
        return np.sort(self.sigma_z / delta_c * norm.ppf(q))[::-1].copy()


@njit(cache=True)
def _ens_rates_reference(y, z, ftot, dftot, p, out, branch):
    """Rates of the ensemble state y = (d, F_1..F_N, s_1..s_N, m_1..m_N) (unoptimised reference).

    Straightforward form kept to check :func:`_ens_rates` against: it re-evaluates every
    per-junction quantity in each of its passes.
    """
    n = z.size
    sy, e, c1, c2f, fa, at = p[0], p[1], p[2], p[3], p[4], p[5] > 0.5
    cnu, b, ar = p[6], p[7], p[8]
    d = y[0]
    ksum = 0.0
    kc = 0.0
    # predictor: branch of every junction from its force relative to the plastic curve
    for i in range(n):
        delta = z[i] - d
        f = y[1 + i]
        if delta <= 0.0 or (f <= 0.0 and y[1 + n + i] < 0.0):
            branch[i] = -1
            continue
        area = _area_jg(delta, b) + y[1 + n + i]
        if area <= 0.0:
            branch[i] = -1
            continue
        kel = 1.5 * math.sqrt(area)
        if dftot < 0.0:
            branch[i] = 0
            k = kel
        else:
            kk = _k_of(delta, b, cnu, ar)
            sig = _force_jg(delta, kk) - f
            if sig > SLIDING_BAND * max(f, 1e-300):
                branch[i] = 0
                k = kel
            elif sig < -SLIDING_BAND * max(f, 1e-300):
                branch[i] = 1
                k = _dforce_jg(delta, kk)
            else:
                branch[i] = 2
                k = _dforce_jg_total(delta, b, cnu, ar)
        ksum += k
        if branch[i] != 2 and f > 0.0:
            dm = max(y[1 + 2 * n + i], delta)
            c = _creep_delta_rate(f, area, delta, dm, e, c1, sy, cnu, b, ar, c2f, fa, at)
            kc += k * c
    if ksum <= 0.0:
        ddot = 0.0
    else:
        ddot = (dftot + kc) / ksum
    # corrector: junctions in the sliding band stay on the curve only if both branches point at it
    changed = False
    for i in range(n):
        if branch[i] != 2:
            continue
        delta = z[i] - d
        f = y[1 + i]
        area = _area_jg(delta, b) + y[1 + n + i]
        kel = 1.5 * math.sqrt(area)
        kk = _k_of(delta, b, cnu, ar)
        kpl = _dforce_jg(delta, kk)
        ktot = _dforce_jg_total(delta, b, cnu, ar)
        c = 0.0
        if f > 0.0:
            dm = max(y[1 + 2 * n + i], delta)
            c = _creep_delta_rate(f, area, delta, dm, e, c1, sy, cnu, b, ar, c2f, fa, at)
        s_pl = (ktot - kpl) * ddot + kpl * c
        s_el = (ktot - kel) * ddot + kel * c
        if not (s_el < 0.0 < s_pl):
            changed = True
            branch[i] = 1 if s_pl <= 0.0 else 0
    if changed:
        ksum = 0.0
        kc = 0.0
        for i in range(n):
            if branch[i] < 0:
                continue
            delta = z[i] - d
            f = y[1 + i]
            area = _area_jg(delta, b) + y[1 + n + i]
            if branch[i] == 0:
                k = 1.5 * math.sqrt(area)
            elif branch[i] == 1:
                k = _dforce_jg(delta, _k_of(delta, b, cnu, ar))
            else:
                k = _dforce_jg_total(delta, b, cnu, ar)
            ksum += k
            if branch[i] != 2 and f > 0.0:
                dm = max(y[1 + 2 * n + i], delta)
                kc += k * _creep_delta_rate(f, area, delta, dm, e, c1, sy, cnu, b, ar, c2f, fa, at)
        ddot = (dftot + kc) / ksum if ksum > 0.0 else 0.0
    out[0] = -ddot
    bad = 0
    for i in range(n):
        delta = z[i] - d
        f = y[1 + i]
        s = y[1 + n + i]
        m = y[1 + 2 * n + i]
        if branch[i] < 0:
            out[1 + i] = 0.0
            out[1 + n + i] = 0.0
            out[1 + 2 * n + i] = ddot if (delta >= m and ddot > 0.0) else 0.0
            continue
        area = _area_jg(delta, b) + s
        if branch[i] == 0:
            k = 1.5 * math.sqrt(area)
        elif branch[i] == 1:
            k = _dforce_jg(delta, _k_of(delta, b, cnu, ar))
        else:
            k = _dforce_jg_total(delta, b, cnu, ar)
        c = 0.0
        if branch[i] != 2 and f > 0.0:
            c = _creep_delta_rate(f, area, delta, max(m, delta), e, c1, sy, cnu, b, ar, c2f, fa, at)
        out[1 + i] = k * (ddot - c)
        if ddot >= 0.0 and s >= 0.0:
            out[1 + n + i] = 0.0
        elif f > 0.0:
            out[1 + n + i] = (area ** 1.5 / f - _darea_jg(delta, b)) * ddot
        else:
            out[1 + n + i] = 0.0
        out[1 + 2 * n + i] = ddot if (delta >= m and ddot > 0.0) else 0.0
        if not math.isfinite(out[1 + i]):
            bad += 1
    return bad


@njit(cache=True)
def _creep_rate_cached(i, force, area, delta, ajg, dajg, hr, m, p, cdm, co):
    """Creep interference rate of junction ``i`` with its creep coefficients cached on δ*_max.

    Same arithmetic as :func:`.creep._creep_delta_rate`; the coefficients :math:`A_k, \\alpha_k`
    depend only on :math:`\\hat\\delta^*_{max} = \\max(m_i, \\delta_i)` and are recomputed only
    when that value changes (``cdm[i]`` holds the value they were computed at). ``ajg``/``dajg``
    are :math:`A^*_{JG}` and its slope at ``delta``; ``hr`` the hardness ratio at ``ajg`` or < 0.
    """
    sy, e, c1, c2f, fa, at = p[0], p[1], p[2], p[3], p[4], p[5] > 0.5
    cnu, b, ar = p[6], p[7], p[8]
    if c1 == 0.0:
        return 0.0
    dm = max(m, delta)
    if dm != cdm[i]:
        if dm == delta:
            h = hr if hr >= 0.0 else _hardness_ratio(ar * math.sqrt(ajg))
        else:
            h = _hardness_ratio(ar * math.sqrt(_area_jg(dm, b)))
        hg = sy * h
        ec1 = e * c1
        co[i, 0] = ec1 * math.exp(_A1A * (1.0 + _A1B * math.exp(_A1C * dm)))
        co[i, 1] = c2f * _L1A / hg * (1.0 + _L1B * math.exp(_L1C * dm))
        co[i, 2] = ec1 * math.exp(_A2A * (1.0 + _A2B * math.exp(_A2C * dm)))
        co[i, 3] = c2f * _L2A / hg * (1.0 + _L2B * math.exp(_L2C * dm))
        cdm[i] = dm
    pr = 2.0 / 3.0 * cnu * sy * force / area
    x1 = co[i, 1] * pr
    x2 = co[i, 3] * pr
    if abs(x1) > SINH_LIMIT or abs(x2) > SINH_LIMIT:
        return math.inf
    dpdt = -(co[i, 0] * math.sinh(x1) + co[i, 2] * math.sinh(x2))
    if dpdt == 0.0:
        return 0.0
    den = fa * cnu / math.sqrt(area)
    if at:
        den += 2.0 / 3.0 * cnu * force / (area * area) * dajg
    return -dpdt / sy / den


@njit(cache=True)
def _ens_rates(y, z, ftot, dftot, p, out, branch, kv, cv, av, dav, cdm, co):
    """Rates of the ensemble state y = (d, F_1..F_N, s_1..s_N, m_1..m_N) (fused kernel).

    Same model and arithmetic as :func:`_ens_rates_reference`, but every per-junction
    quantity is evaluated once per call: the JG area and its slope share one power, the
    hardness ratio at δ* serves both the plastic stiffness and (when δ*_max = δ*) the creep
    coefficients, stiffness ``kv``, creep rate ``cv``, area ``av`` and JG slope ``dav`` are
    kept from the branch pass for the rate pass, and the creep coefficients are cached on
    δ*_max across calls (``cdm``, ``co``; see :func:`_creep_rate_cached`).
    """
    n = z.size
    cnu, b, ar = p[6], p[7], p[8]
    d = y[0]
    ksum = 0.0
    kc = 0.0
    # predictor: branch of every junction from its force relative to the plastic curve
    for i in range(n):
        delta = z[i] - d
        f = y[1 + i]
        s = y[1 + n + i]
        if delta <= 0.0 or (f <= 0.0 and s < 0.0):
            branch[i] = -1
            continue
        if delta <= DELTA_KINK:
            ajg = delta
            dajg = 1.0
        else:
            pw = (delta / DELTA_KINK) ** b
            ajg = delta * pw
            dajg = (1.0 + b) * pw
        area = ajg + s
        if area <= 0.0:
            branch[i] = -1
            continue
        av[i] = area
        dav[i] = dajg
        hr = -1.0
        if dftot < 0.0:
            br = 0
            k = 1.5 * math.sqrt(area)
        else:
            hr = _hardness_ratio(ar * math.sqrt(ajg))
            kk = 4.0 * hr / cnu
            sig = _force_jg(delta, kk) - f
            if sig > SLIDING_BAND * max(f, 1e-300):
                br = 0
                k = 1.5 * math.sqrt(area)
            elif sig < -SLIDING_BAND * max(f, 1e-300):
                br = 1
                k = _dforce_jg(delta, kk)
            else:
                br = 2
                k = _dforce_jg_total(delta, b, cnu, ar)
        branch[i] = br
        kv[i] = k
        ksum += k
        c = 0.0
        if br != 2 and f > 0.0:
            c = _creep_rate_cached(i, f, area, delta, ajg, dajg, hr, y[1 + 2 * n + i], p, cdm, co)
            kc += k * c
        cv[i] = c
    if ksum <= 0.0:
        ddot = 0.0
    else:
        ddot = (dftot + kc) / ksum
    # corrector: junctions in the sliding band stay on the curve only if both branches point at it
    changed = False
    for i in range(n):
        if branch[i] != 2:
            continue
        delta = z[i] - d
        f = y[1 + i]
        area = av[i]
        kel = 1.5 * math.sqrt(area)
        kk = _k_of(delta, b, cnu, ar)
        kpl = _dforce_jg(delta, kk)
        ktot = kv[i]
        c = 0.0
        if f > 0.0:
            c = _creep_rate_cached(i, f, area, delta, _area_jg(delta, b), dav[i], -1.0, y[1 + 2 * n + i], p, cdm, co)
        s_pl = (ktot - kpl) * ddot + kpl * c
        s_el = (ktot - kel) * ddot + kel * c
        if not (s_el < 0.0 < s_pl):
            changed = True
            if s_pl <= 0.0:
                branch[i] = 1
                kv[i] = kpl
            else:
                branch[i] = 0
                kv[i] = kel
            cv[i] = c
    if changed:
        ksum = 0.0
        kc = 0.0
        for i in range(n):
            if branch[i] < 0:
                continue
            ksum += kv[i]
            if branch[i] != 2 and y[1 + i] > 0.0:
                kc += kv[i] * cv[i]
        ddot = (dftot + kc) / ksum if ksum > 0.0 else 0.0
    out[0] = -ddot
    bad = 0
    for i in range(n):
        delta = z[i] - d
        s = y[1 + n + i]
        m = y[1 + 2 * n + i]
        out[1 + 2 * n + i] = ddot if (delta >= m and ddot > 0.0) else 0.0
        if branch[i] < 0:
            out[1 + i] = 0.0
            out[1 + n + i] = 0.0
            continue
        f = y[1 + i]
        c = cv[i] if (branch[i] != 2 and f > 0.0) else 0.0
        out[1 + i] = kv[i] * (ddot - c)
        if ddot >= 0.0 and s >= 0.0:
            out[1 + n + i] = 0.0
        elif f > 0.0:
            out[1 + n + i] = (av[i] ** 1.5 / f - dav[i]) * ddot
        else:
            out[1 + n + i] = 0.0
        if not math.isfinite(out[1 + i]):
            bad += 1
    return bad


def ensemble_rates(model: Microjunction, z: ArrayLike, y: ArrayLike, ftot: float, dftot: float) -> NDArray[np.float64]:
    """Rates of the ensemble state ``y = (d, F_i, s_i, m_i)`` (normalised) at total load ``ftot``."""
    zz = np.ascontiguousarray(z, dtype=float)
    out = np.empty(1 + 3 * zz.size)
    _ens_rates(np.ascontiguousarray(y, dtype=float), zz, float(ftot), float(dftot), model.param_vector(), out,
               *_scratch(zz.size))
    return out


@njit(cache=True)
def _force_jg_array(dlt, b, cnu, ar):
    """F*_JG of every interference (0 out of contact) [1]."""
    out = np.zeros(dlt.size)
    for i in range(dlt.size):
        x = dlt[i]
        if x > 0:
            out[i] = _force_jg(x, _k_of(x, b, cnu, ar))
    return out


def _one_blas_thread() -> AbstractContextManager:
    """Limit BLAS to one thread during the solve.

    ``solve_ivp`` combines the RK stages of the long ensemble state with BLAS ``gemv``/``dot``;
    at these sizes (3N + 1 ~ 10^4 - 10^5) a threaded BLAS gains nothing and, on a busy
    machine, its spinning threads cost several times the CPU time of the rates themselves.
    """
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:  # optional: without it the BLAS threading is left as configured
        return nullcontext()
    return threadpool_limits(limits=1, user_api="blas")


def _scratch(n: int) -> tuple[NDArray, ...]:
    """Work arrays of :func:`_ens_rates`: branch, stiffness, creep rate, area, JG slope, coefficient cache."""
    cdm = np.full(n, np.nan)  # NaN never equals a δ*_max: the cache starts empty
    return (np.empty(n, dtype=np.int64), np.empty(n), np.empty(n), np.empty(n), np.empty(n), cdm, np.empty((n, 4)))


@dataclass
class EnsembleSolution:
    """Ensemble trajectory: totals vs time and the final per-junction state."""

    time: NDArray[np.float64]
    separation: NDArray[np.float64]
    total_area: NDArray[np.float64]
    total_force: NDArray[np.float64]
    n_contacts: NDArray[np.float64]
    final_force: NDArray[np.float64]
    final_area: NDArray[np.float64]
    heights: NDArray[np.float64]
    n_steps: int
    applied_force: NDArray[np.float64] | None = None

    def to_dataset(self, model: Microjunction, ensemble: JunctionEnsemble) -> xr.Dataset:
        """Labelled Dataset: the SI totals, ``approach`` of the highest summit and ``n_contacts``, the
        normalised totals as ``*_star`` extras (:meth:`.scales.Scales.ensemble_variables`)."""
        from .scales import Scales

        c = model.constants
        applied = self.total_force if self.applied_force is None else self.applied_force
        data, units = Scales.of(model).ensemble_variables(self.separation, float(self.heights[0]), self.total_area,
                                                          applied, self.total_force)
        data["n_contacts"] = self.n_contacts
        units["n_contacts"] = "1"
        return make_dataset(self.time, data, units=units,
                            attrs={**model.attrs(), **ensemble.attrs(), "model": model.name,
                                   "n_steps": self.n_steps, "force_c": c["force_c"], "area_c": c["area_c"]})


def integrate_ensemble(
    model: Microjunction,
    ensemble: JunctionEnsemble,
    history: ForceHistory,
    *,
    t_eval: ArrayLike | None = None,
    method: str = "RK45",
    rtol: float = 1e-4,
    atol: float = 1e-8,
    reference: bool = False,
) -> EnsembleSolution:
    """Integrate the ensemble under a total normalised load history :math:`F^*(t) = F(t)/F_c`.

    The state starts with every junction on its JG curve under ``F*(0)``; a total load below the
    preload ``model.f0`` is refused (:func:`.junction.below_preload`)
    (instantaneous plastic loading, no creep during it; Hertz at small loads). Segments of
    ``history`` are integrated one after another by :func:`scipy.integrate.solve_ivp`.

    ``reference=True`` evaluates the rates with the unoptimised :func:`_ens_rates_reference`
    instead of the fused, caching :func:`_ens_rates` (same model; used to test the fast path).

    Returns
    -------
    EnsembleSolution

    Raises
    ------
    ParameterError
        Non-monotone ``t_eval`` or a negative load.
    IntegrationError
        Solver failure or non-finite state (names the time and the step).
    """
    if model.area_branch != "corrected":
        raise ParameterError(f"integrate_ensemble: area_branch = {model.area_branch!r} is not supported by the ensemble "
                             "kernel (it follows the corrected area branch); use a single junction in mode='simple'")
    c = model.constants
    z = ensemble.heights(c["delta_c"])
    n = z.size
    p = model.param_vector()
    edges = np.asarray(history.edges, dtype=float)
    te = None
    if t_eval is not None:
        te = np.asarray(t_eval, dtype=float)
        if te.ndim != 1 or te.size == 0 or np.any(np.diff(te) <= 0):
            raise ParameterError("integrate_ensemble: t_eval must be a strictly increasing 1-D time grid")
        if te[0] < edges[0] or te[-1] > edges[-1]:
            raise ParameterError(f"integrate_ensemble: t_eval must lie in [{edges[0]:g}, {edges[-1]:g}] s")

    def force_at(t: float) -> float:
        f = history.force(t)
        if not f >= 0.0:
            raise ParameterError(f"force history gives F* = {f!r} < 0 at t = {t:g} s (loads must be >= 0)")
        why = below_preload(model, f, t)  # the total load: with none, no junction carries one
        if why is not None:
            raise ParameterError(why)
        return max(f, model.f0)  # a load within PRELOAD_RTOL below f0 is f0

    f_init = force_at(edges[0])
    b, cnu, arc = c["b"], c["cnu"], c["ar_coef"]

    def fjg(dlt: NDArray) -> NDArray:
        return _force_jg_array(np.ascontiguousarray(dlt, dtype=float), b, cnu, arc)

    # every junction starts on its JG curve under the initial load (loading faster than creep)
    g = lambda dd: float(np.sum(fjg(z - dd))) - f_init  # noqa: E731
    lo = z[0] - max(f_init, 1.0) ** (2.0 / 3.0) - 1.0
    while g(lo) < 0:
        lo -= 2.0 * (z[0] - lo)
    d0 = brentq(g, lo, z[0], xtol=1e-13, rtol=1e-14)
    # history: with reference=False the junctions not yet touched start at their (negative)
    # interference and track it while the flat approaches, so that m_i has no kink at contact onset
    delta0 = np.clip(z - d0, 0.0, None) if reference else z - d0
    y = np.concatenate([[d0], fjg(z - d0), np.zeros(n), delta0])
    work = _scratch(n)
    branch = work[0]
    out = np.empty_like(y)
    ts, ys = [], []
    n_steps = 0
    with _one_blas_thread():
        for k in range(edges.size - 1):
            t0, t1 = float(edges[k]), float(edges[k + 1])

            def fun(t, yy, k=k):
                # non-finite trial stages (sinh overflow) make the solver reject and shrink the step
                ft = force_at(t)
                dft = history.rate(t, k) if ft > model.f0 else 0.0
                if reference:
                    _ens_rates_reference(yy, z, ft, dft, p, out, branch)
                else:
                    _ens_rates(yy, z, ft, dft, p, out, *work)
                return out.copy()

            sel = None if te is None else te[(te >= t0) & (te <= t1)] if k == 0 else te[(te > t0) & (te <= t1)]
            # the segment's end state is always evaluated (appended to t_eval and dropped below)
            # rather than obtained by integrating the segment a second time
            extra = sel is not None and not (sel.size and sel[-1] == t1)
            with np.errstate(invalid="ignore", over="ignore"):
                sol = solve_ivp(fun, (t0, t1), y, method=method, rtol=rtol, atol=atol,
                                max_step=float(history.max_step[k]),
                                t_eval=None if sel is None else np.append(sel, t1) if extra else sel)
            if sol.status != 0 or not np.all(np.isfinite(sol.y)):
                raise IntegrationError(f"microjunction ensemble: solver failed near t = {sol.t[-1]:.6g} s "
                                       f"({sol.message}); tighten rtol or lower the load", time=float(sol.t[-1]))
            n_steps += int(sol.nfev)
            y = sol.y[:, -1].copy()  # end state of the segment
            if te is None:
                ts.append(sol.t if k == 0 else sol.t[1:])
                ys.append(sol.y if k == 0 else sol.y[:, 1:])
            elif sol.t.size > int(extra):
                ts.append(sol.t[:sol.t.size - int(extra)])
                ys.append(sol.y[:, :sol.t.size - int(extra)])
    time = np.concatenate(ts)
    yy = np.concatenate(ys, axis=1)
    d = yy[0]
    delta = z[:, None] - d[None, :]
    forces = yy[1:1 + n]
    s = yy[1 + n:1 + 2 * n]
    from .jackson_green import area_jg
    contact = (delta > 0) & ~((forces <= 0) & (s < 0))
    areas = np.where(contact, area_jg(np.clip(delta, 0, None), c["b"]) + s, 0.0)
    return EnsembleSolution(time=time, separation=d, total_area=areas.sum(axis=0),
                            total_force=np.where(contact, forces, 0.0).sum(axis=0), n_contacts=contact.sum(axis=0),
                            final_force=forces[:, -1], final_area=areas[:, -1], heights=z, n_steps=n_steps,
                            applied_force=np.array([force_at(float(x)) for x in time]))
