r"""Rate-and-state inversion of laboratory velocity-step records (the first user of the fit layer).

The apparatus is a quasi-static spring-slider driven at the recorded load-point velocity
:math:`V(t)` (the classic single-degree-of-freedom analysis of velocity steps, e.g. Reinen &
Weeks 1993; Marone 1998; the ``rsfmodel`` package):

.. math::
    \frac{d\mu}{dt} = k\,(V(t) - v),\qquad
    v = v_{ref}\exp\Big(\frac{\mu - \mu_{ref} - b\ln(v_{ref}\theta/D_c)}{a}\Big),\qquad
    \dot\theta = \text{aging or slip law}

with the friction law of :class:`~frictionlab.laws.rate_state.RateState` (its evolution
kernel is called inside the compiled loop) and :math:`k` the apparatus stiffness in friction
per unit load-point displacement [1/m]. The slider starts at steady state at the
pre-step velocity :math:`v_{ref}` with friction :math:`\mu_{ref}`. Free parameters:
``mu_ref``, ``a``, ``b``, ``dc`` and (optionally) ``k``.

The load-point velocity is recovered from the recorded displacement (the data files'
``slip_um`` column is the load-point displacement) by a two-segment linear fit that also
locates the step time.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ..core.errors import DataError
from ..laws.rate_state import RateState
from .data import TimeSeries, load_timeseries
from .fitter import Fitter
from .models import FitModel

__all__ = ["VelocityStep", "detect_step", "load_velocity_step", "RSFSpringSliderModel", "simulate_qs_slider",
           "fit_velocity_step", "initial_guess"]


@njit(cache=True)
def _vel(mu, lnth, p):
    # p = [mu0, a, b, dc, v0, law, form]; log form, solved for v
    arg = (mu - p[0] - p[2] * (math.log(p[4] / p[3]) + lnth)) / p[1]
    if arg > 700.0:
        return math.inf
    return p[4] * math.exp(arg)


@njit(cache=False)  # takes a jitted kernel argument: cached entries would never be hit
def _rhs(mu, lnth, vl, k, p, rates, st, ds):
    lnth = min(max(lnth, -700.0), 700.0)
    v = _vel(mu, lnth, p)
    st[0] = math.exp(lnth)
    rates(st, v, 1.0, p, ds)
    return k * (vl - v), ds[0] / st[0], v


@njit(cache=False)  # takes a jitted kernel argument: cached entries would never be hit
def _qs_loop(t, vlp, mu_init, p, k, rates, out):
    """RK4 with a stiffness-limited step between data samples; returns -1 or the failing index."""
    mu = mu_init
    lnth = math.log(p[3] / p[4])  # steady state at v0 = v_ref
    st = np.empty(1)
    ds = np.empty(1)
    out[0] = mu
    a = p[1]
    for i in range(t.size - 1):
        vl = vlp[i]
        rem = t[i + 1] - t[i]
        guard = 0
        while rem > 0.0:
            dmu, dth, v = _rhs(mu, lnth, vl, k, p, rates, st, ds)
            if not math.isfinite(v):
                return i
            vs = max(v, abs(vl), 1e-300)
            h = min(rem, 0.3 * a / (k * vs), 0.2 * p[3] / vs)
            k1m, k1t = dmu, dth
            k2m, k2t, _ = _rhs(mu + 0.5 * h * k1m, lnth + 0.5 * h * k1t, vl, k, p, rates, st, ds)
            k3m, k3t, _ = _rhs(mu + 0.5 * h * k2m, lnth + 0.5 * h * k2t, vl, k, p, rates, st, ds)
            k4m, k4t, _ = _rhs(mu + h * k3m, lnth + h * k3t, vl, k, p, rates, st, ds)
            mu += h / 6.0 * (k1m + 2 * k2m + 2 * k3m + k4m)
            lnth += h / 6.0 * (k1t + 2 * k2t + 2 * k3t + k4t)
            if not (math.isfinite(mu) and math.isfinite(lnth)):
                return i
            rem -= h
            guard += 1
            if guard > 2000000:
                return i
        out[i + 1] = mu
    return -1


def simulate_qs_slider(time: NDArray[np.float64], v_lp: NDArray[np.float64], *, mu_ref: float, a: float, b: float,
                       dc: float, k: float, v_ref: float, law: str = "aging") -> NDArray[np.float64]:
    """Friction of a quasi-static RSF spring-slider at the sample times (see module docstring).

    Parameters
    ----------
    time : sample times [s]; v_lp : load-point velocity on each interval [m/s];
    mu_ref : steady friction at ``v_ref`` [1]; a, b [1]; dc [m]; k : stiffness [1/m];
    v_ref : initial (steady) slip velocity [m/s]; law : ``"aging"`` or ``"slip"``.
    """
    from ..core.errors import IntegrationError

    law_ = RateState(mu0=mu_ref, a=a, b=b, dc=dc, v0=v_ref, v_init=v_ref, law=law)
    if not k > 0:
        from ..core.errors import ParameterError

        raise ParameterError(f"apparatus stiffness k = {k!r} 1/m must be > 0")
    out = np.empty(len(time))
    status = _qs_loop(np.ascontiguousarray(time, dtype=float), np.ascontiguousarray(v_lp, dtype=float), float(mu_ref),
                      law_.param_vector(), float(k), RateState._rates_kernel, out)
    if status >= 0:
        raise IntegrationError(f"quasi-static RSF slider diverged in sample interval {status} (t = {time[status]:.6g} s); "
                               "the parameters give unstable slip (k below k_c?)", time=float(time[status]), step=status)
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
    ts = TimeSeries(ts.time, vlp, ts.y, None, friction, str(path), ts.extra)
    sn = float("nan")
    if sigma:
        from .data import read_table

        cols = read_table(path)
        if sigma in cols:
            sn = float(np.nanmean(cols[sigma]))
    return VelocityStep(ts, t_step, v1, v2, sn)


@dataclass
class RSFSpringSliderModel(FitModel):
    """Fit model: quasi-static RSF spring-slider under the recorded load-point velocity."""

    law: str = "aging"
    v_ref: float = 1e-6

    def predict(self, params: Mapping[str, float], data: Any) -> NDArray[np.float64]:
        return simulate_qs_slider(data.time, data.velocity, mu_ref=params["mu_ref"], a=params["a"], b=params["b"],
                                  dc=params["dc"], k=params["k"], v_ref=self.v_ref, law=self.law)

    def validate(self, params: Mapping[str, float]) -> None:
        RateState(mu0=params["mu_ref"], a=params["a"], b=params["b"], dc=params["dc"], v0=self.v_ref, law=self.law)


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
                      n_starts: int = 6, seed: int = 0, max_nfev: int | None = 200) -> Fitter:
    """Invert ``mu_ref, a, b, dc`` (and ``k`` unless fixed) from one velocity step.

    Returns the fitted :class:`Fitter`; ``dc`` in metres, ``k`` in 1/m (friction per metre
    of load-point displacement).
    """
    g = initial_guess(step)
    if k is not None:
        g["k"] = float(k)
    mu_ref = g["mu_ref"]
    fm = RSFSpringSliderModel(
        "rsf-spring-slider", ("mu_ref", "a", "b", "dc", "k"), g,
        {"mu_ref": (mu_ref - 0.02, mu_ref + 0.02), "a": (1e-4, 0.05), "b": (0.0, 0.05), "dc": (1e-7, 1e-3),
         "k": (30.0, 2e5)},
        ("a", "dc", "k"), "RSF + quasi-static spring-slider", "time [s]", "friction [1]",
        law=law, v_ref=step.v1)
    fixed = {} if fit_k and k is None else {"k": g["k"]}
    return Fitter(fm, fixed=fixed, n_starts=n_starts, seed=seed, max_nfev=max_nfev).fit(step.series)
