r"""Rate-and-state inversion of laboratory velocity-step records (the first user of the fit layer).

The apparatus is a quasi-static spring-slider driven at the recorded load-point velocity
:math:`V(t)` (the classic single-degree-of-freedom analysis of velocity steps, e.g. Reinen &
Weeks 1993; Marone 1998; the ``rsfmodel`` package):

.. math::
    \frac{d\mu}{dt} = k\,(V(t) - v),\qquad
    v = v_{ref}\exp\Big(\frac{\mu - \mu_{ref} - b\ln(v_{ref}\theta/D_c)}{a}\Big),\qquad
    \dot\theta = \text{aging or slip law}

with the friction law of :class:`~frictionlab.laws.rate_state.RateState` and :math:`k` the apparatus
stiffness in friction per unit load-point displacement [1/m]: the run of the ``quasi_static`` driver (one compiled
Rodas4 code, :mod:`frictionlab.laws.rate_state_qs_kernels`, rtol 1e-9, atol 1e-11, restarted where the
load-point velocity changes). The slider starts at steady state at the
pre-step velocity :math:`v_{ref}` with friction :math:`\mu_{ref}`. Free parameters:
``mu_ref``, ``a``, ``b``, ``dc`` and (optionally) ``k``.

The load-point velocity is recovered from the recorded displacement (the data files'
``slip_um`` column is the load-point displacement) by a two-segment linear fit that also
locates the step time.

Optional extensions (both off by default; the single-state path is unchanged):

* **Second state variable** (Ruina 1983; Dieterich 1981; two-state form as in Blanpied &
  Tullis 1986 / Marone 1998), each state with the same evolution law:

  .. math::
      \mu = \mu_{ref} + a\ln\frac{v}{v_{ref}} + b_1\ln\frac{v_{ref}\theta_1}{D_{c1}}
           + b_2\ln\frac{v_{ref}\theta_2}{D_{c2}}

  ``b2`` may be negative when requested (``allow_negative_b2``): a strengthening evolution
  effect, as reported for clay-bearing gouges. Each state evolves by the same law with that state's :math:`D_c` (as :class:`~frictionlab.laws.rate_state2.RateState2`).
* **Linear slip trend** (the ``lin_term`` of Leeman et al. 2016, Nat. Commun. 7:11104, the
  Xlook/``rsfit`` workflow): the observed friction is
  :math:`\mu_{obs} = \mu + \ell\,(x_{lp}(t) - x_{lp}(t_{step}))` after the step (0 before),
  with :math:`x_{lp}` the load-point displacement and :math:`\ell` = ``lin`` [1/m]; it absorbs
  slip hardening/weakening unrelated to the rate-and-state transient. (Leeman et al. quote it
  in friction per micrometre: multiply ``lin`` by 1e-6.)
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..core.errors import DataError
from ..laws.rate_state import RateState
from .data import TimeSeries, load_timeseries
from .fitter import Fitter
from .models import FitModel

__all__ = ["RSF_UNITS", "RSF_DESCRIPTIONS", "VelocityStep", "detect_step", "load_velocity_step", "RSFSpringSliderModel",
           "simulate_qs_slider", "fit_velocity_step", "initial_guess", "compare_nested", "load_point_displacement"]


def load_point_displacement(time: NDArray[np.float64], v_lp: NDArray[np.float64], t_step: float) -> NDArray[np.float64]:
    """Load-point displacement since ``t_step`` at the sample times [m] (0 before the step),
    integrating the piecewise-constant ``v_lp`` (value on each sample interval)."""
    time = np.asarray(time, dtype=float)
    v_lp = np.asarray(v_lp, dtype=float)
    x = np.concatenate([[0.0], np.cumsum(v_lp[:-1] * np.diff(time))])
    # displacement at t_step by linear interpolation inside its interval
    xs = float(np.interp(t_step, time, x))
    return np.maximum(x - xs, 0.0) * (time >= t_step)


def simulate_qs_slider(time: NDArray[np.float64], v_lp: NDArray[np.float64], *, mu_ref: float, a: float, b: float,
                       dc: float, k: float, v_ref: float, law: str = "aging", b2: float = 0.0,
                       dc2: float | None = None, lin: float = 0.0,
                       t_step: float | None = None) -> NDArray[np.float64]:
    """Friction of a quasi-static RSF spring-slider at the sample times (see module docstring).

    Parameters
    ----------
    time : sample times [s]; v_lp : load-point velocity on each interval [m/s];
    mu_ref : steady friction at ``v_ref`` [1]; a, b [1]; dc [m]; k : stiffness [1/m];
    v_ref : initial (steady) slip velocity [m/s]; law : ``"aging"`` or ``"slip"``.
    b2 : second evolution parameter [1] (any sign; 0 = single state, the default);
    dc2 : second critical slip distance [m] (required when ``b2 != 0``);
    lin : linear slip trend [1/m] added after ``t_step`` (0 = none, the default);
    t_step : step time [s] where the trend starts (default: the first change of ``v_lp``).
    """
    from ..core.errors import IntegrationError, ParameterError
    from ..laws.rate_state_qs_kernels import MAX_STEPS, param_vector, run_pieces

    RateState(mu0=mu_ref, a=a, b=b, dc=dc, v0=v_ref, v_init=v_ref, law=law)  # validates the parameters
    if not k > 0:
        raise ParameterError(f"apparatus stiffness k = {k!r} 1/m must be > 0")
    if not math.isfinite(b2) or not math.isfinite(lin):
        raise ParameterError(f"b2 = {b2!r} and lin = {lin!r} must be finite")
    bs, dcs = [b], [dc]
    if b2 != 0.0:
        if dc2 is None or not (dc2 > 0 and math.isfinite(dc2)):
            raise ParameterError(f"dc2 = {dc2!r} m must be > 0 when b2 = {b2!r} != 0")
        bs, dcs = [b, b2], [dc, dc2]
    tt = np.ascontiguousarray(time, dtype=float)
    vv = np.ascontiguousarray(v_lp, dtype=float)
    # the pieces of constant load-point velocity (a jump where the interval's value changes)
    jumps = np.nonzero(np.diff(vv[:-1]) != 0.0)[0] + 1 if tt.size > 2 else np.zeros(0, dtype=int)
    edges = np.concatenate([[tt[0]], tt[jumps], [tt[-1]]])
    vlps = np.concatenate([[vv[0]], vv[jumps]])
    p = param_vector(mu_ref, a, v_ref, k, bs, dcs, False, law == "slip")
    y0 = np.array([float(mu_ref), *np.log(np.asarray(dcs, dtype=float) / v_ref)])  # steady at v_ref
    Y = np.empty((tt.size, y0.size))
    slip, vel, info = np.empty(tt.size), np.empty(tt.size), np.zeros(6)
    stop = run_pieces(y0, p, edges, vlps, tt, 1e-9, 1e-11, 0.0, MAX_STEPS, Y, slip, vel, info) if tt.size > 1 else -1
    if stop >= 0:
        i = max(stop - 1, 0)
        raise IntegrationError(f"quasi-static RSF slider diverged in sample interval {i} (t = {info[0]:.6g} s); "
                               "the parameters give unstable slip (k below k_c?)", time=float(info[0]), step=i)
    out = Y[:, 0].copy()
    if lin != 0.0:
        if t_step is None:
            ch = np.nonzero(np.diff(vv) != 0.0)[0]
            t_step = float(tt[ch[0] + 1]) if ch.size else float(tt[0])
        out += float(lin) * load_point_displacement(tt, vv, float(t_step))
    return out


@dataclass
class VelocityStep:
    """A velocity-step record prepared for inversion."""

    series: TimeSeries
    t_step: float
    v1: float
    v2: float
    sigma_n: float = float("nan")


def detect_step(t: NDArray[np.float64], disp: NDArray[np.float64], n_grid: int = 400) -> tuple[float, float, float]:
    """Locate a single load-point velocity step: the time minimising the misfit of two
    independent straight lines to ``disp(t)``; returns ``(t_step, v1, v2)``."""
    best = (math.inf, 0.0, 0.0, 0.0)
    lo, hi = t[0] + 0.05 * (t[-1] - t[0]), t[-1] - 0.05 * (t[-1] - t[0])
    for ts in np.linspace(lo, hi, n_grid):
        m = t < ts
        if m.sum() < 3 or (~m).sum() < 3:
            continue
        c1 = np.polyfit(t[m], disp[m], 1)
        c2 = np.polyfit(t[~m], disp[~m], 1)
        sse = np.sum((np.polyval(c1, t[m]) - disp[m]) ** 2) + np.sum((np.polyval(c2, t[~m]) - disp[~m]) ** 2)
        if sse < best[0]:
            best = (sse, ts, c1[0], c2[0])
    if not math.isfinite(best[0]):
        raise DataError("cannot locate a velocity step: too few samples on one side")
    # refine: the intersection of the two lines is the step time
    _, ts, v1, v2 = best
    m = t < ts
    c1 = np.polyfit(t[m], disp[m], 1)
    c2 = np.polyfit(t[~m], disp[~m], 1)
    if c1[0] != c2[0]:
        ts_int = (c2[1] - c1[1]) / (c1[0] - c2[0])
        if t[0] < ts_int < t[-1]:
            ts = ts_int
    return float(ts), float(c1[0]), float(c2[0])


def load_velocity_step(path: str | Path, *, time: str = "time_s", friction: str = "friction", slip: str = "slip_um",
                       slip_scale: float = 1e-6, sigma: str | None = "sigma_n_MPa", tmin: float | None = None,
                       tmax: float | None = None, decimate: int = 1) -> VelocityStep:
    """Load a velocity-step CSV: friction vs time, load-point velocity from the displacement.

    ``decimate`` keeps every n-th sample (faster fits of densely sampled records)."""
    ts = load_timeseries(path, time, friction, slip=slip, slip_scale=slip_scale, tmin=tmin, tmax=tmax, min_points=20)
    if decimate > 1:
        ts = TimeSeries(ts.time[::decimate], ts.velocity[::decimate], ts.y[::decimate], None, friction, str(path),
                        {k: v[::decimate] for k, v in ts.extra.items()})
    t_step, v1, v2 = detect_step(ts.time, ts.extra["slip"])
    if not (v1 > 0 and v2 > 0):
        raise DataError(f"{path}: load-point velocities before/after the step must be > 0 (got {v1:g}, {v2:g} m/s)")
    # piecewise-constant input on the sample intervals (value at the interval's left end)
    mid = 0.5 * (ts.time[:-1] + ts.time[1:])
    vlp = np.where(np.append(mid, ts.time[-1]) < t_step, v1, v2)
    ts = TimeSeries(ts.time, vlp, ts.y, None, friction, str(path), ts.extra, ts.data_file)
    sn = float("nan")
    if sigma:
        from .data import read_table

        cols = read_table(path)
        if sigma in cols:
            if cols[sigma].dtype == object:
                raise DataError(f"{path}: column {sigma!r} (normal stress) is not numeric")
            sn = float(np.nanmean(cols[sigma])) if np.isfinite(cols[sigma]).any() else float("nan")
    return VelocityStep(ts, t_step, v1, v2, sn)


#: units of the spring-slider fit's parameters (``k``: friction per metre, not N/m)
RSF_UNITS = {"mu_ref": "1", "a": "1", "b": "1", "dc": "m", "k": "1/m", "b2": "1", "dc2": "m", "lin": "1/m"}

#: what the parameters whose names could mislead are (the fit report prints these)
RSF_DESCRIPTIONS = {
    "k": "normalised apparatus stiffness K/F_n: friction per metre of load-point displacement "
         "(times the normal force [N]: stiffness in N/m; times sigma_n [Pa]: Pa/m)",
    "dc": "critical slip distance D_c",
    "dc2": "critical slip distance of the second state",
    "mu_ref": "steady friction at the pre-step velocity",
    "lin": "linear slip trend: friction per metre of load-point displacement after the step",
}


@dataclass
class RSFSpringSliderModel(FitModel):
    """Fit model: quasi-static RSF spring-slider under the recorded load-point velocity."""

    law: str = "aging"
    v_ref: float = 1e-6
    t_step: float | None = None  # start of the linear trend (``lin``), when fitted

    def predict(self, params: Mapping[str, float], data: Any) -> NDArray[np.float64]:
        return simulate_qs_slider(data.time, data.velocity, mu_ref=params["mu_ref"], a=params["a"], b=params["b"],
                                  dc=params["dc"], k=params["k"], v_ref=self.v_ref, law=self.law,
                                  b2=params.get("b2", 0.0), dc2=params.get("dc2"), lin=params.get("lin", 0.0),
                                  t_step=self.t_step)

    def validate(self, params: Mapping[str, float]) -> None:
        RateState(mu0=params["mu_ref"], a=params["a"], b=params["b"], dc=params["dc"], v0=self.v_ref, law=self.law)
        if params.get("b2", 0.0) != 0.0:
            RateState(mu0=params["mu_ref"], a=params["a"], b=abs(params["b2"]), dc=params["dc2"], v0=self.v_ref,
                      law=self.law)


def initial_guess(step: VelocityStep) -> dict[str, float]:
    """Starting values from the record: mu_ref (pre-step mean), a from the peak, a - b from
    the final level, k from the initial friction rise rate, dc from the post-peak decay."""
    t, mu = step.series.time, step.series.y
    pre = t < step.t_step
    post = ~pre
    mu_ref = float(np.median(mu[pre][-max(5, pre.sum() // 4):]))
    r = math.log(step.v2 / step.v1)
    tail = post & (t > t[post][0] + 0.6 * (t[-1] - t[post][0]))
    mu_ss = float(np.median(mu[tail])) if tail.any() else float(mu[-1])
    mu_peak = float(np.max(mu[post]))
    a = max((mu_peak - mu_ref) / r, 1e-4)
    b = max(a - (mu_ss - mu_ref) / r, 1e-5)
    early = post & (t < step.t_step + 0.1 * (t[-1] - step.t_step))
    if early.sum() >= 3:
        slope = np.polyfit(t[early], mu[early], 1)[0]
    else:
        slope = (mu_peak - mu_ref) / max(t[post][np.argmax(mu[post])] - step.t_step, 1e-9)
    k = min(max(abs(slope) / (step.v2 - step.v1), 50.0), 1e5)
    i_peak = int(np.argmax(mu[post]))
    t_peak = t[post][i_peak]
    dc = min(max(step.v2 * max(t[-1] - t_peak, 1e-9) / 5.0, 2e-7), 5e-4)
    return {"mu_ref": mu_ref, "a": a, "b": b, "dc": dc, "k": k}


def fit_velocity_step(step: VelocityStep, *, law: str = "aging", fit_k: bool = True, k: float | None = None,
                      n_starts: int = 6, seed: int = 0, max_nfev: int | None = 200, trend: bool = False,
                      two_state: bool = False, allow_negative_b2: bool = False,
                      x0: Mapping[str, float] | None = None, progress=None) -> Fitter:
    """Invert ``mu_ref, a, b, dc`` (and ``k`` unless fixed) from one velocity step.

    Returns the fitted :class:`Fitter`; ``dc`` in metres, ``k`` in 1/m (friction per metre
    of load-point displacement).

    Options (off by default, see the module docstring): ``trend`` adds the linear slip trend
    ``lin`` [1/m]; ``two_state`` adds a second state variable ``b2`` [1], ``dc2`` [m]
    (``b2`` in [0, 0.05], or in [-0.05, 0.05] with ``allow_negative_b2``). ``x0`` overrides
    starting values (e.g. a previous fit's parameters); it is used as the first start and
    the record-based guess as the second. ``progress`` is the :class:`Fitter` callback. When ``b`` (or a non-negative ``b2``) stops at
    0 its ``dc`` (``dc2``) is not identifiable and its standard error is set to NaN.
    """
    g = initial_guess(step)
    if k is not None:
        g["k"] = float(k)
    mu_ref = g["mu_ref"]
    names = ["mu_ref", "a", "b", "dc", "k"]
    bounds = {"mu_ref": (mu_ref - 0.02, mu_ref + 0.02), "a": (1e-4, 0.05), "b": (0.0, 0.05), "dc": (1e-7, 1e-3),
              "k": (30.0, 2e5)}
    logs = ["a", "dc", "k"]
    if two_state:
        names += ["b2", "dc2"]
        g["b2"] = -0.2 * g["b"] if allow_negative_b2 else 0.5 * g["b"]
        g["dc2"] = min(max(10.0 * g["dc"], 1e-6), 5e-3)
        bounds["b2"] = (-0.05, 0.05) if allow_negative_b2 else (0.0, 0.05)
        bounds["dc2"] = (1e-7, 1e-2)
        bounds["dc"] = (1e-7, 1e-2)  # two states: either may carry the long transient
        logs.append("dc2")
    if trend:
        names.append("lin")
        g["lin"] = 0.0
        bounds["lin"] = (-1e3, 1e3)
    fm = RSFSpringSliderModel(
        "rsf-spring-slider", tuple(names), dict(g), bounds, tuple(logs), "RSF + quasi-static spring-slider",
        "time [s]", "friction [1]", {n: RSF_UNITS[n] for n in names},
        {n: RSF_DESCRIPTIONS[n] for n in names if n in RSF_DESCRIPTIONS},
        law=law, v_ref=step.v1, t_step=step.t_step if trend else None)
    fixed = {} if fit_k and k is None else {"k": g["k"]}
    if x0 is not None:
        start = {**g, **{kk: float(v) for kk, v in x0.items() if kk in names}}
        if k is not None:
            start["k"] = float(k)
        fm.defaults = start
        fm.guess = lambda data: dict(g)  # type: ignore[method-assign]  # the record-based start as the second
    f = Fitter(fm, fixed=fixed, n_starts=n_starts, seed=seed, max_nfev=max_nfev,
               progress=progress).fit(step.series)
    # an evolution effect stopped at b = 0 leaves its D_c undetermined: its linearised error is meaningless
    for bn, dn in (("b", "dc"), ("b2", "dc2")):
        if bn in f.at_bound_ and bounds[bn][0] == 0.0 and abs(f.params_[bn]) < 1e-12 and dn in f.stderr_:
            f.stderr_[dn] = float("nan")
            f.undetermined_[dn] = f"{bn} = 0: no second state to measure"
    return f


def compare_nested(simple: Fitter, extended: Fitter) -> dict[str, float]:
    r"""Model selection between a fit and an extension of it (same data).

    Returns ``aic_simple``, ``aic_extended`` (Gaussian AIC, :math:`n\ln(\mathrm{SSE}/n) + 2p`),
    ``delta_aic`` (extended - simple; negative favours the extension), the nested F statistic
    :math:`F = \frac{(\mathrm{SSE}_s - \mathrm{SSE}_e)/(p_e - p_s)}{\mathrm{SSE}_e/(n - p_e)}`
    and its p-value. Both assume independent Gaussian residuals: with autocorrelated
    laboratory noise they overstate the evidence for the extension.
    """
    from scipy.stats import f as f_dist

    n = simple.n_points_
    if extended.n_points_ != n:
        raise DataError("compare_nested: the two fits must use the same data")
    ps, pe = len(simple.free_), len(extended.free_)
    sse_s = float(np.sum(simple.residuals_ ** 2))
    sse_e = float(np.sum(extended.residuals_ ** 2))
    aic_s = n * math.log(sse_s / n) + 2 * ps
    aic_e = n * math.log(sse_e / n) + 2 * pe
    if pe > ps and sse_e > 0:
        F = ((sse_s - sse_e) / (pe - ps)) / (sse_e / max(n - pe, 1))
        pval = float(f_dist.sf(F, pe - ps, max(n - pe, 1))) if F > 0 else 1.0
    else:
        F, pval = float("nan"), float("nan")
    return {"aic_simple": aic_s, "aic_extended": aic_e, "delta_aic": aic_e - aic_s, "F": float(F), "p_value": pval,
            "n": n, "p_simple": ps, "p_extended": pe}
