r"""Stick-slip patterns of the LuGre beam-network model (beam-network paper, doi:10.1115/1.4042247, Secs. 3.2, 4.2).

* :func:`classify_pattern` -- pattern I / II / III from :math:`\kappa = t_{stick}/t_{ss}`;
* :func:`steady_metrics` -- amplitude, period, t_stick, kappa and pattern of a friction
  history (built on :func:`frictionlab.analysis.stick_slip.stick_slip`);
* :func:`gaussian_tip_velocity` / :func:`fit_tip_velocity` -- eq. (13), the normal-density
  model of the steady tip velocity over one period, and its least-squares fit;
* :func:`friction_from_tip_velocity` -- eq. (12) in the time domain.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy.optimize import least_squares

from ..core.errors import DataError
from .stick_slip import StickSlip, stick_slip

__all__ = ["classify_pattern", "PatternMetrics", "steady_metrics", "gaussian_tip_velocity", "TipVelocityFit",
           "fit_tip_velocity", "friction_from_tip_velocity", "one_period"]


def classify_pattern(kappa: float) -> str:
    """Stick-slip pattern from kappa = t_stick / t_ss [1].

    Pattern ``"I"`` for 0.5 <= kappa <= 0.6, ``"II"`` for 0.6 < kappa <= 0.8, ``"III"`` for
    0.8 < kappa <= 1 (a shared boundary goes to the lower-numbered pattern). Below 0.5 (the
    paper defines no pattern there) returns ``"<I"``; ``nan`` returns ``"none"``.
    """
    if not np.isfinite(kappa):
        return "none"
    if kappa < 0.5:
        return "<I"
    if kappa <= 0.6:
        return "I"
    if kappa <= 0.8:
        return "II"
    return "III"


@dataclass(frozen=True)
class PatternMetrics:
    """Steady stick-slip metrics of one friction history.

    Attributes: ``stick_slip`` (bool), ``amplitude`` (peak-to-trough [N]), ``period``
    (t_ss [s]), ``t_stick`` [s], ``kappa`` [1], ``pattern`` (I/II/III), ``mean_force`` [N],
    ``raw`` (the :class:`StickSlip` result).
    """

    stick_slip: bool
    amplitude: float
    period: float
    t_stick: float
    kappa: float
    pattern: str
    mean_force: float
    raw: StickSlip


def steady_metrics(t: np.ndarray, force: np.ndarray, *, window: float = 0.4, prominence: float = 0.02,
                   min_events: int = 3) -> PatternMetrics:
    """Steady stick-slip metrics over the last ``window`` of a run (spec S9 rule).

    Stick-slip means at least ``min_events`` peaks with prominence above ``prominence`` x
    the mean force; the amplitude is peak-to-trough (spec 3.7 reading).
    """
    r = stick_slip(np.asarray(t, float), np.asarray(force, float), window=window, prominence=prominence,
                   min_events=min_events)
    i0 = int(np.floor((1.0 - window) * len(t)))
    mean = float(np.mean(np.asarray(force)[i0:]))
    return PatternMetrics(r.stick_slip, r.amplitude, r.period, r.t_stick, r.kappa, classify_pattern(r.kappa),
                          mean, r)


def gaussian_tip_velocity(t: np.ndarray, k1: float, k2: float, sigma: float, mu: float) -> np.ndarray:
    r"""Eq. (13): :math:`v_u(t) = \frac{k_1}{\sigma\sqrt{2\pi}} e^{-(t-\mu)^2/(2\sigma^2)} + k_2`.

    Parameters
    ----------
    t : array
        Time within one period [s].
    k1 : float
        Slip displacement carried by the bell [m].
    k2 : float
        Base (stick) velocity [m/s].
    sigma, mu : float
        Width and centre of the bell [s].
    """
    t = np.asarray(t, dtype=float)
    return k1 / (sigma * np.sqrt(2 * np.pi)) * np.exp(-((t - mu) ** 2) / (2 * sigma**2)) + k2


@dataclass(frozen=True)
class TipVelocityFit:
    """Least-squares fit of eq. (13): ``k1`` [m], ``k2`` [m/s], ``sigma`` [s], ``mu`` [s],
    ``r2`` (coefficient of determination) and ``mean_velocity_error`` (relative error of
    (k1 + k2 t_ss)/t_ss against the drive velocity, spec check 11)."""

    k1: float
    k2: float
    sigma: float
    mu: float
    r2: float
    mean_velocity_error: float


def fit_tip_velocity(t: np.ndarray, v: np.ndarray, v_drive: float) -> TipVelocityFit:
    """Fit eq. (13) to one period of tip velocity (``t`` starting at a stick onset)."""
    t = np.asarray(t, float)
    v = np.asarray(v, float)
    if t.size < 8 or t.shape != v.shape:
        raise DataError("fit_tip_velocity needs two equal 1-D series of >= 8 samples")
    t = t - t[0]
    T = t[-1] - t[0]
    k2_0 = float(np.median(v))
    area = float(np.trapezoid(v - k2_0, t))
    i_peak = int(np.argmax(v))
    amp = max(float(v[i_peak] - k2_0), 1e-12)
    sig0 = max(abs(area) / (amp * np.sqrt(2 * np.pi)), T / 200)
    x0 = [max(area, 1e-12), k2_0, sig0, t[i_peak]]

    def res(x):
        return (gaussian_tip_velocity(t, *x) - v) / amp

    sol = least_squares(res, x0, bounds=([0.0, -np.inf, T / 1e5, t[0]], [np.inf, np.inf, T, t[-1]]))
    k1, k2, sg, mu = sol.x
    pred = gaussian_tip_velocity(t, *sol.x)
    ss_tot = float(np.sum((v - v.mean()) ** 2))
    r2 = 1.0 - float(np.sum((v - pred) ** 2)) / ss_tot if ss_tot > 0 else float("nan")
    mean_err = abs((k1 + k2 * T) / T - v_drive) / v_drive if v_drive > 0 else float("nan")
    return TipVelocityFit(float(k1), float(k2), float(sg), float(mu), r2, float(mean_err))


def friction_from_tip_velocity(t: np.ndarray, v_u: np.ndarray, v_drive: float, e0: float, m: float, kb: float,
                               cb: float) -> np.ndarray:
    r"""Eq. (12) in the time domain: friction implied by a tip-velocity history.

    .. math:: f_f(t) = k_b e(t) + c_b (v_s - v_u) - m \dot v_u, \quad e(t) = e_0 + \int (v_s - v_u)\,dt

    (single IUB, network force neglected). ``e0`` is the lag s - u at ``t[0]`` [m].
    """
    t = np.asarray(t, float)
    v_u = np.asarray(v_u, float)
    dv = v_drive - v_u
    e = e0 + np.concatenate([[0.0], np.cumsum(0.5 * (dv[1:] + dv[:-1]) * np.diff(t))])
    acc = np.gradient(v_u, t)
    return kb * e + cb * dv - m * acc


def one_period(t: np.ndarray, force: np.ndarray, metrics: PatternMetrics) -> tuple[int, int]:
    """Index range [i0, i1] of the last complete cycle, from a stick onset to the next."""
    troughs = metrics.raw.trough_times
    if troughs.size < 2:
        raise DataError("one_period: fewer than two stick onsets in the window")
    i0 = int(np.searchsorted(t, troughs[-2]))
    i1 = int(np.searchsorted(t, troughs[-1]))
    return i0, i1
