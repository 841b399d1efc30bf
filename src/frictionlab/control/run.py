"""``run_servo(law, servo, reference, *, dt, t_end)``: one closed-loop run as a Dataset."""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import xarray as xr

from ..core.base import AbstractLaw
from ..core.errors import ConfigError, IntegrationError, ParameterError
from ..core.result import make_dataset
from ..protocols.base import AbstractProtocol
from ..protocols.reference import reference_signals
from .loop import closed_loop
from .servo import ServoSystem

__all__ = ["run_servo", "prepare"]


def _law_fn(fn: np.ndarray, law: AbstractLaw, scale: float) -> np.ndarray:
    return np.ascontiguousarray(fn / scale if law.force_units != "N" else fn, dtype=np.float64)


def prepare(law: AbstractLaw, servo: ServoSystem, reference: AbstractProtocol, *, dt: float | None = None,
            t_end: float | None = None) -> tuple[Any, tuple, dict[str, Any]]:
    """Validate and build ``(loop, args, info)`` for :func:`run_servo` (and the benchmarks)."""
    if not isinstance(law, AbstractLaw):
        raise ConfigError(f"the servo plant needs a rate law (AbstractLaw), got {type(law).__name__}; "
                          "for subloading friction use SubloadingRate")
    if not isinstance(servo, ServoSystem):
        raise ConfigError(f"servo must be a ServoSystem, got {type(servo).__name__}")
    ts = servo.sample_period
    t_end = float(reference.duration if t_end is None else t_end)
    if not (t_end > 0 and math.isfinite(t_end)):
        raise ParameterError(f"t_end = {t_end!r} s must be a positive finite time")
    dt = float(ts / 10 if dt is None else dt)
    if not (dt > 0 and dt <= ts):
        raise ParameterError(f"dt = {dt!r} s must be in (0, sample_period = {ts:g} s]")
    nsub = int(round(ts / dt))
    if abs(nsub * dt - ts) > 1e-9 * ts:
        raise ParameterError(f"dt = {dt:g} s must divide sample_period = {ts:g} s (e.g. dt = {ts / max(nsub, 1):g} s)")
    dt = ts / nsub
    nk = int(math.floor(t_end / ts + 1e-9)) + 1
    times = np.arange(nk) * ts
    xr_, vr, ar, fn = reference_signals(reference, times)
    model = servo.model if servo.model is not None else _dummy_model()
    fsp = servo.force_scale(law)
    fsm = servo.force_scale(model, plant=False) if servo.model is not None else 1.0
    sp = servo.param_vector()
    sp[19], sp[20] = fsp, fsm
    lp = law.param_vector()
    mp = model.param_vector()
    z0 = np.ascontiguousarray(law.initial_state(), dtype=np.float64)
    zm0 = np.ascontiguousarray(model.initial_state(), dtype=np.float64) if servo.model is not None else np.zeros(0)
    # EKF augmented state [x, v, z, theta]
    names = tuple(getattr(model, "kernel_params", ()))
    idx = np.array([names.index(n) for n in servo.ekf_params], dtype=np.int64)
    th0 = mp[idx].copy() if idx.size else np.zeros(0)
    s0 = np.concatenate([[servo.x0, servo.v0], zm0, th0])
    pvar = [servo.ekf_position_noise**2, max(servo.ekf_velocity_noise, 1e-6)**2] + [1e-30] * zm0.size \
        + list((servo.ekf_param_std * th0) ** 2)
    P0 = np.diag(np.asarray(pvar, dtype=np.float64))
    m = servo.controller_mass
    qdiag = np.asarray([0.0, (servo.ekf_force_noise / m) ** 2] + [servo.ekf_state_noise**2] * zm0.size
                       + list((servo.ekf_param_drift * th0) ** 2), dtype=np.float64)
    lo = np.ascontiguousarray(1e-3 * th0) if th0.size else np.zeros(0)
    nz_est = (s0.size - 2) if servo.compensation == "ekf" else zm0.size
    out = np.empty((nk, 8))
    zp = np.empty((nk, z0.size))
    zm = np.empty((nk, nz_est))
    if servo.model is None:
        loop = closed_loop(*law.kernels())
    else:
        loop = closed_loop(*law.kernels(), *model.kernels(), ekf=servo.compensation == "ekf")
    y0 = np.array([servo.x0, servo.v0], dtype=np.float64)
    args = (sp, lp, mp, np.ascontiguousarray(xr_), np.ascontiguousarray(vr), np.ascontiguousarray(ar),
            _law_fn(fn, law, fsp), _law_fn(fn, model, fsm), y0, z0, zm0, s0, P0, qdiag, idx, lo, dt, nsub,
            out, zp, zm)
    info = {"times": times, "reference": (xr_, vr, ar, fn), "dt": dt, "nsub": nsub, "model": model,
            "theta0": th0}
    return loop, args, info


def _dummy_model() -> AbstractLaw:
    from ..laws import Coulomb

    return Coulomb()


def _cure(law: AbstractLaw, servo: ServoSystem, reference: AbstractProtocol, args: tuple, info: dict[str, Any],
          status: int, t_fail: float) -> str:
    """What to change after a blow-up at sample ``status``: the discrete-time stability check of
    :mod:`frictionlab.control.stability` at the states the run logged (sampling or integration)."""
    from .stability import diagnose, states_of_run

    out, zp, zm = args[-3], args[-2], args[-1]
    try:
        return diagnose(law, servo, reference, states_of_run(out, zp, zm, info["reference"][3], status), info["dt"],
                        t_fail)
    except (ArithmeticError, ValueError, np.linalg.LinAlgError):  # the check itself failed: the plain advice
        return ("reduce dt, raise estimator_substeps, shorten sample_period, or lower the controller/observer "
                "gains")


def run_servo(law: AbstractLaw, servo: ServoSystem, reference: AbstractProtocol, *, dt: float | None = None,
              t_end: float | None = None, save_dt: float | None = None) -> xr.Dataset:
    """Run the closed loop of ``servo`` on the plant friction ``law`` tracking ``reference``.

    Parameters
    ----------
    law : AbstractLaw
        The "true" plant friction (any rate law; subloading via ``SubloadingRate``).
    servo : ServoSystem
        Mass, sensors, actuator, controller, compensation.
    reference : AbstractProtocol
        Reference trajectory (``protocols.reference``: position sinusoid, steps, ramp; any
        other protocol's velocity channel is integrated) and normal load.
    dt : float, optional
        Plant integration step [s], a divisor of ``servo.sample_period`` (default T_s / 10).
    t_end : float, optional
        End time [s] (default ``reference.duration``).
    save_dt : float, optional
        Output interval [s], a multiple of the sample period (default: every sample).

    Returns
    -------
    xarray.Dataset over ``time`` (the sampling instants) with ``position``, ``velocity``,
    ``slip`` and ``slip_velocity`` (equal to them: fixed base), ``reference_position``, ``reference_velocity``,
    ``measured_position``, ``measured_velocity``, ``control_force``, ``friction_force``,
    ``friction_estimate``, ``friction_estimate_error``, ``tracking_error`` (x - x_r),
    ``normal_force``, the plant law states and the estimator states (``estimated_<name>``).
    """
    loop, args, info = prepare(law, servo, reference, dt=dt, t_end=t_end)
    law.cite()
    if servo.model is not None:
        servo.model.cite()
    status = int(loop(*args))
    times = info["times"]
    if status >= 0:
        t_fail = float(times[min(status, times.size - 1)])
        raise IntegrationError(
            f"servo with plant {law.name!r}: the plant or estimator state became non-finite at sample {status} "
            f"(t = {t_fail:.6g} s, dt = {info['dt']:g} s, sample_period = {servo.sample_period:g} s); "
            + _cure(law, servo, reference, args, info, status, t_fail), time=t_fail, step=status)
    out, zp, zm = args[-3], args[-2], args[-1]
    stride = 1
    if save_dt is not None:
        if not save_dt > 0:
            raise ParameterError(f"save_dt = {save_dt!r} s must be > 0")
        stride = max(1, int(round(save_dt / servo.sample_period)))
    sel = np.arange(0, times.size, stride)
    if sel[-1] != times.size - 1:
        sel = np.append(sel, times.size - 1)
    xr_, vr, _, fn = info["reference"]
    data: dict[str, np.ndarray] = {
        "position": out[sel, 0], "velocity": out[sel, 1], "slip": out[sel, 0], "slip_velocity": out[sel, 1],
        "reference_position": xr_[sel], "reference_velocity": vr[sel],
        "measured_position": out[sel, 2], "measured_velocity": out[sel, 3],
        "control_force": out[sel, 4], "friction_force": out[sel, 5], "friction_estimate": out[sel, 6],
        "friction_estimate_error": out[sel, 6] - out[sel, 5], "tracking_error": out[sel, 7],
        "normal_force": fn[sel],
    }
    units = {"position": "m", "velocity": "m/s", "reference_position": "m", "reference_velocity": "m/s",
             "measured_position": "m", "measured_velocity": "m/s", "control_force": "N", "friction_force": "N",
             "friction_estimate": "N", "friction_estimate_error": "N", "tracking_error": "m", "normal_force": "N"}
    for j, (name, unit) in enumerate(zip(law.state_names, law.state_units or ("1",) * len(law.state_names))):
        data[name] = zp[sel, j]
        units[name] = unit
    model = info["model"]
    if servo.model is not None:
        est_names = [f"estimated_{n}" for n in model.state_names]
        est_units = list(model.state_units or ("1",) * len(model.state_names))
        if servo.compensation == "ekf":
            est_names += [f"estimated_{n}" for n in servo.ekf_params]
            est_units += [model.units().get(n, "1") for n in servo.ekf_params]
        for j, (name, unit) in enumerate(zip(est_names, est_units)):
            data[name] = zm[sel, j]
            units[name] = unit
    attrs = {"model": law.name, **{f"plant.{k}": v for k, v in law.attrs().items()},
             "system": "servo", "protocol": reference.type_name, "integrator": "rk4", "dt": info["dt"],
             **{f"system.{k}": v for k, v in servo.attrs().items()},
             **{f"protocol.{k}": v for k, v in reference.attrs().items()}}
    if law.citation:
        attrs["citation"] = law.citation
    return make_dataset(times[sel], data, units=units, attrs=attrs)
