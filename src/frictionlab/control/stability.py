r"""Discrete-time stability of the sampled servo loop, and what to change when a run blows up.

:class:`~frictionlab.control.servo.ServoSystem` samples its sensors every ``sample_period``
:math:`T_s`, holds the command over the period (zero-order hold) and integrates the plant
with RK4 steps ``dt`` (and an observer with ``estimator_substeps`` RK4 steps per period). A run
that blows up has one of two causes, with different cures:

* **the sampled loop is unstable** (the physics of sampling, whatever the integrator): the
  one-period map of the loop linearised at a state of the run, with the plant and the
  observer discretised *exactly* (the matrix exponential of each zero-order-hold system),
  has a spectral radius :math:`\rho_d > 1`, more than the
  continuous-time loop it samples grows in one period (:math:`e^{\alpha T_s}`, :math:`\alpha`
  the largest real part of that loop's eigenvalues). The cure is a shorter ``sample_period``
  (:func:`largest_stable_sample_period` bisects it) or smaller gains. Example: the LuGre
  observer of Canudas de Wit et al. (1995, Sec. V) with the error injection :math:`-k e`:
  while the error is large the observer's steady state :math:`\hat z \approx (v - k e) g /
  (\sigma_0 |v|)` makes :math:`\partial\dot{\hat z}/\partial v` large, and the compensation
  :math:`\sigma_1\dot{\hat z}` a velocity feedback of thousands of N s/m, which a 1 kg mass
  sampled at :math:`T_s = 10^{-4}` s cannot take (``control/canudas1995-position``'s PID with
  k = 10 1/s: stable only below a few times 1e-5 s). Reducing ``dt`` does not change it.
* **an integration step is unstable** while the sampled loop is not: an eigenvalue
  :math:`\lambda` of the plant's (or the observer's) Jacobian leaves RK4's stability region,
  :math:`|1 + h\lambda + \dots + (h\lambda)^4/24| > 1` for the step ``h`` (``dt``, or
  ``sample_period / estimator_substeps``). The cure is a smaller ``dt`` or more
  ``estimator_substeps``, whose stable limits are found the same way.

The Jacobians come from the plant law's and the model law's own kernels (central differences),
so the check holds for every rate law. Sensor quantisation and actuator saturation are left
out; the reference is an exogenous input. The states examined are those the run logged up to
its failure (:func:`states_of_run`), or rest and steady sliding (:class:`OperatingPoint`
defaults). The extended Kalman filter (a time-varying gain) has no such check.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Callable, Sequence

import numpy as np

from ..core.base import AbstractLaw
from ..protocols.base import AbstractProtocol
from .servo import ServoSystem

__all__ = ["OperatingPoint", "loop_matrix", "spectral_radius", "sampling_margin", "largest_stable_sample_period",
           "states_of_run", "diagnose"]

#: a spectral radius this far above what the continuous loop grows in one period is unstable
RHO_TOL = 1e-6
#: RK4's stability limit on the negative real axis, |lambda h|
RK4_LIMIT = 2.785
#: the search for a stable period or step stops this many decades below the given one
SEARCH_DECADES = 6


@dataclass(frozen=True)
class OperatingPoint:
    """Where the loop is linearised: slip velocity ``v`` [m/s], normal force ``normal_force`` [N],
    and the plant law's and the model law's states ``z``, ``zm`` (None: the law's initial state at
    rest, its steady state when sliding)."""

    v: float = 0.0
    normal_force: float = 1.0
    z: tuple | None = None
    zm: tuple | None = None
    #: the measured velocity the model runs on [m/s] (None: ``v``)
    vm: float | None = None
    #: the command held over the next period [N]
    u: float = 0.0


def _state_at(law: AbstractLaw, v: float, fn: float, z: tuple | None) -> np.ndarray:
    if z is not None:
        return np.array(z, dtype=np.float64)
    if v == 0.0:
        return np.ascontiguousarray(law.initial_state(), dtype=np.float64)
    return np.ascontiguousarray(law._steady_state(v, fn), dtype=np.float64)


def _jacobians(law: AbstractLaw, v: float, fn: float, fs: float,
               z: tuple | None = None) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """``(dF/dz, dF/dv, dR/dz, dR/dv)`` of the force ``fs * friction`` and the state rates ``R`` at
    ``(z, v)`` (central differences through the law's kernels)."""
    rates, friction = law.kernels()
    p = law.param_vector()
    z0 = _state_at(law, v, fn, z)
    nz = z0.size

    def f_and_r(zz: np.ndarray, vv: float) -> tuple[float, np.ndarray]:
        r = np.zeros(nz)
        if nz:
            rates(np.ascontiguousarray(zz), float(vv), float(fn), p, r)
        return fs * float(friction(np.ascontiguousarray(zz), float(vv), float(fn), p)), r

    hv = 1e-7 * max(abs(v), 1e-6)
    fp, rp = f_and_r(z0, v + hv)
    fm, rm = f_and_r(z0, v - hv)
    dfdv, drdv = (fp - fm) / (2 * hv), (rp - rm) / (2 * hv)
    dfdz, drdz = np.zeros(nz), np.zeros((nz, nz))
    for j in range(nz):
        hz = 1e-7 * max(abs(z0[j]), 1e-9)
        zp, zn = z0.copy(), z0.copy()
        zp[j] += hz
        zn[j] -= hz
        fp, rp = f_and_r(zp, v)
        fm, rm = f_and_r(zn, v)
        dfdz[j] = (fp - fm) / (2 * hz)
        drdz[:, j] = (rp - rm) / (2 * hz)
    return dfdz, dfdv, drdz, drdv


def _hold(A: np.ndarray, B: np.ndarray, T: float) -> tuple[np.ndarray, np.ndarray]:
    """``(Phi, Gamma)`` of ``x' = A x + B w`` over ``T`` with ``w`` held (zero-order hold, exact: the
    exponential of the augmented matrix by the loop's own scaling and squaring, ``kernels._expm``;
    ``scipy.linalg.expm`` took 16 ms for a 4 x 4 matrix on a loaded machine, its BLAS threads waiting)."""
    from .kernels import _expm

    n, m = A.shape[0], B.shape[1]
    aug = np.zeros((n + m, n + m))
    aug[:n, :n], aug[:n, n:] = A * T, B * T
    M = np.empty_like(aug)
    _expm(aug, M)
    return M[:n, :n], M[:n, n:]


def _plant_matrix(law: AbstractLaw, servo: ServoSystem, op: OperatingPoint) -> np.ndarray:
    """Jacobian of the plant ``[x, v, z]' = [v, (u - F)/m, R]`` at ``op`` (``u`` held)."""
    fsp = servo.force_scale(law)
    Fz, Fv, Rz, Rv = _jacobians(law, op.v, op.normal_force / fsp, fsp, op.z)
    nz = Fz.size
    A = np.zeros((2 + nz, 2 + nz))
    A[0, 1] = 1.0
    A[1, 1], A[1, 2:] = -Fv / servo.mass, -Fz / servo.mass
    A[2:, 1], A[2:, 2:] = Rv, Rz
    return A


def _model_jacobians(servo: ServoSystem, op: OperatingPoint) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    fsm = servo.force_scale(servo.model, plant=False)
    return _jacobians(servo.model, op.v if op.vm is None else op.vm, op.normal_force / fsm, fsm, op.zm)


def loop_matrix(law: AbstractLaw, servo: ServoSystem, op: OperatingPoint = OperatingPoint(), *,
                sample_period: float | None = None, continuous: bool = False) -> np.ndarray:
    """The closed loop linearised at ``op`` (see the module notes): its exact one-period map, or with
    ``continuous`` the state matrix of the continuous-time loop it samples (controller and
    estimator unsampled; a velocity by difference becomes the velocity).

    State ``[x, v, z..., integral, previous x_m (velocity by difference, sampled only), model z...
    (feedforward, observer) or momentum (motion dynamics)]``; ``sample_period`` replaces the servo's.

    Raises
    ------
    ValueError
        For the ``ekf`` compensation (no fixed linear map).
    """
    if servo.compensation == "ekf":
        raise ValueError("the extended Kalman filter has no fixed linear loop map")
    ts = float(servo.sample_period if sample_period is None else sample_period)
    mode = servo.compensation
    uses_model = mode in ("feedforward", "observer")
    Ap = _plant_matrix(law, servo, op)
    npl = Ap.shape[0]
    if uses_model:
        Mz, Mv, Qz, Qv = _model_jacobians(servo, op)
    nzm = Mz.size if uses_model else 0
    vdiff = servo.velocity_source == "difference" and not continuous
    ii = npl  # integral of the error
    ixp = ii + 1 if vdiff else -1
    base = ii + 1 + (1 if vdiff else 0)
    izm = np.arange(base, base + nzm)
    im = base if mode == "motion_dynamics" else -1
    n = base + nzm + (1 if im >= 0 else 0)
    eye = np.eye(n)
    e = eye[0]  # the reference is exogenous: the error varies as x
    vm = (eye[0] - eye[ixp]) / ts if vdiff else eye[1]
    integ = eye[ii] if continuous else eye[ii] + ts * e  # the loop adds T_s e before using the sum
    fh = np.zeros(n)
    if uses_model:
        fh[izm] += Mz
        if mode == "observer":
            from .compensation import feedthrough

            fh += Mv * vm - feedthrough(servo.model) * servo.observer_gain * e
    elif mode == "motion_dynamics":
        fh = servo.estimator_bandwidth * (eye[im] - servo.controller_mass * vm)
    u = -(servo.kp * e + servo.ki * integ + servo.kv * vm) + (fh if servo.apply_compensation else 0.0)
    # the model runs on the reference (feedforward: exogenous here) or on v_m with -k e on every rate (observer)
    Bm = np.c_[Qv, -servo.observer_gain * np.ones(nzm)] if mode == "observer" else np.zeros((nzm, 2))
    out = np.zeros((n, n))
    plant = np.arange(npl)
    Bp = np.zeros((npl, 1))
    Bp[1, 0] = 1.0 / servo.mass
    if continuous:
        out[plant] = Ap @ eye[plant] + np.outer(Bp[:, 0], u)
        out[ii] = e
        if uses_model:
            out[izm] = Qz @ eye[izm] + np.outer(Bm[:, 0], vm) + np.outer(Bm[:, 1], e)
        if im >= 0:
            out[im] = u - fh
        return out
    Pp, Gp = _hold(Ap, Bp, ts)
    out[plant] = Pp @ eye[plant] + np.outer(Gp[:, 0], u)
    out[ii] = integ
    if vdiff:
        out[ixp] = e
    if uses_model:
        Pm, Gm = _hold(Qz, Bm, ts)
        out[izm] = Pm @ eye[izm] + np.outer(Gm[:, 0], vm) + np.outer(Gm[:, 1], e)
    if im >= 0:
        out[im] = eye[im] + ts * (u - fh)
    return out


def spectral_radius(law: AbstractLaw, servo: ServoSystem, op: OperatingPoint = OperatingPoint(), *,
                    sample_period: float | None = None) -> float:
    """Spectral radius of the exact one-period map of the loop linearised at ``op``."""
    phi = loop_matrix(law, servo, op, sample_period=sample_period)
    return float(np.max(np.abs(np.linalg.eigvals(phi)))) if np.all(np.isfinite(phi)) else math.inf


def sampling_margin(law: AbstractLaw, servo: ServoSystem, op: OperatingPoint = OperatingPoint(), *,
                    sample_period: float | None = None) -> float:
    """``rho_d / max(1, exp(alpha T_s))``: how much more the sampled loop grows in one period at ``op``
    than the continuous loop it implements (``alpha``: the largest real part of the latter's
    eigenvalues); above 1 the sampling destabilises the loop."""
    ts = float(servo.sample_period if sample_period is None else sample_period)
    a = loop_matrix(law, servo, op, continuous=True)
    if not np.all(np.isfinite(a)):
        return math.inf
    alpha = float(np.max(np.real(np.linalg.eigvals(a))))
    rho = spectral_radius(law, servo, op, sample_period=ts)
    return math.exp(min(math.log(rho), 700.0) - max(alpha, 0.0) * ts) if rho > 0 else 0.0


def _stable(margin: float) -> bool:
    return math.isfinite(margin) and margin <= 1.0 + RHO_TOL


def _largest(stable: Callable[[float], bool], hi: float) -> float | None:
    """The largest ``x < hi`` with ``stable(x)`` (``stable(hi)`` False) by halving, then bisection in log
    scale, rounded down to two significant digits while it stays stable; None when nothing down to
    ``hi / 10**SEARCH_DECADES`` is."""
    lo = hi
    while True:
        lo /= 2
        if lo < hi * 10.0 ** -SEARCH_DECADES:
            return None
        if stable(lo):
            break
        hi = lo
    for _ in range(60):
        if hi / lo < 1.02:
            break
        mid = math.sqrt(lo * hi)
        if stable(mid):
            lo = mid
        else:
            hi = mid
    d = 10.0 ** (math.floor(math.log10(lo)) - 1)
    rounded = math.floor(lo / d * (1 + 1e-12)) * d
    return rounded if stable(rounded) else lo


def trial_holds(law: AbstractLaw, servo: ServoSystem, reference: AbstractProtocol, *, substeps: int,
                horizon: float, local: bool = False, max_steps: float = 2e6) -> bool:
    """Whether a run of ``servo`` with ``substeps`` plant steps per period stays finite over ``horizon``
    [s] of ``reference`` (shortened to ``max_steps`` plant steps) and, with ``local``, sampling
    destabilises it at none of the states it passes (:func:`sampling_margin` at :func:`states_of_run`).

    ``local`` is for the search of a stable period: finite alone let the hunting PID with k = 10 1/s
    through at 0.11 ms on a 0.5 s step, with the slider 0.95 m on the wrong side (it blew up just
    after). It is not for a step trial: a PD + observer loop that tracks to 1e-8 m at 1 ms passes
    states whose sampled map grows 3.5 times faster than the continuous one (the LuGre bristle near
    stick)."""
    from .run import prepare

    ts = servo.sample_period
    span = min(horizon, float(reference.duration), max_steps * ts / substeps)
    loop, args, info = prepare(law, servo, reference, dt=ts / substeps, t_end=max(span, 2 * ts))
    if int(loop(*args)) >= 0:
        return False
    if not local:
        return True
    ops = states_of_run(args[-3], args[-2], args[-1], info["reference"][3], args[-3].shape[0], count=25)
    return all(_stable(sampling_margin(law, servo, op)) for op in ops)


def largest_stable_sample_period(law: AbstractLaw, servo: ServoSystem, reference: AbstractProtocol, *,
                                 substeps: int = 10, horizon: float = 1.0) -> float | None:
    """The largest sample period [s] up to ``servo.sample_period`` whose trial run over ``horizon`` [s]
    stays finite and locally stable (:func:`trial_holds`, ``substeps`` plant steps per period), by bisection, two
    significant digits; None when none down to 1e-6 of it does. A trial, not the failed run's
    states: they depend on the period (a transient that a short period keeps small grows under a
    long one)."""
    from dataclasses import replace

    def stable(t: float) -> bool:
        return trial_holds(law, replace(servo, sample_period=t), reference, substeps=substeps, horizon=horizon,
                           local=True)

    ts = servo.sample_period
    return ts if stable(ts) else _largest(stable, ts)


def _rk4_stable_step(A: np.ndarray, hi: float) -> float | None:
    """The largest RK4 step up to ``hi`` stable on ``x' = A x`` (every ``h lambda`` in RK4's region)."""
    lam = np.linalg.eigvals(A) if A.size else np.zeros(0)

    def stable(h: float) -> bool:
        z = lam * h
        return bool(np.all(np.abs(1 + z + z**2 / 2 + z**3 / 6 + z**4 / 24) <= 1 + RHO_TOL))

    return hi if stable(hi) else _largest(stable, hi)


def states_of_run(out: np.ndarray, zp: np.ndarray, zm: np.ndarray, normal_force: np.ndarray, failed_at: int,
                  count: int = 40) -> list[OperatingPoint]:
    """The states a servo run logged before it failed at sample ``failed_at`` (the loop's ``OUT``,
    ``ZP``, ``ZM`` arrays): ``count`` spread over the run and the last ten, each with the measured
    and measured velocities; rest is added by :func:`diagnose`."""
    n = max(1, min(failed_at, out.shape[0]))
    picks = np.unique(np.r_[np.linspace(0, n - 1, count).astype(int), np.arange(max(0, n - 10), n)])
    ops = []
    for i in picks:
        row = (out[i, 1], out[i, 3], out[i, 4], *zp[i], *zm[i])
        if all(math.isfinite(float(x)) and abs(float(x)) < 1e100 for x in row):
            ops.append(OperatingPoint(float(out[i, 1]), float(normal_force[i]), tuple(map(float, zp[i])),
                                      tuple(map(float, zm[i])) if zm.shape[1] else None, float(out[i, 3]),
                                      float(out[i, 4])))
    return ops


def _faults(law: AbstractLaw, servo: ServoSystem, op: OperatingPoint, dt: float) -> dict[str, float | None]:
    """What is unstable at ``op``: ``sampling`` (its :func:`sampling_margin`), ``dt`` (the plant's
    largest stable RK4 step there), ``estimator_substeps`` (the observer's); empty when nothing is."""
    out: dict[str, float | None] = {}
    margin = sampling_margin(law, servo, op)
    if not _stable(margin):
        out["sampling"] = margin
    # the plant at this state, and sliding at the speed the held command drives it to within the period
    driven = OperatingPoint(op.v + op.u * servo.sample_period / servo.mass, op.normal_force)
    steps = [_rk4_stable_step(_plant_matrix(law, servo, p), dt) for p in (op, driven)]
    h = None if None in steps else min(steps)
    if h is None or h < dt:
        out["dt"] = h
    if servo.compensation == "observer" and servo.model.state_names:
        now = servo.sample_period / servo.estimator_substeps
        hm = _rk4_stable_step(_model_jacobians(servo, op)[2], now)
        if hm is None or hm < now:
            out["estimator_substeps"] = hm
    return out


def diagnose(law: AbstractLaw, servo: ServoSystem, reference: AbstractProtocol, ops: Sequence[OperatingPoint],
             dt: float, t_fail: float = 0.0) -> str:
    """What made the loop blow up and its cure, as the tail of the error message (module notes).

    ``ops`` are the run's states in time order (:func:`states_of_run`); the first one at which
    something is unstable names the suspect. An unstable RK4 step (plant: ``dt``; observer:
    ``estimator_substeps``) is named when a trial run with the step it advises holds
    (:func:`trial_holds`, over ``max(1 s, 4 t_fail)``); otherwise, and when the sampling is unstable there, the largest stable
    ``sample_period`` (:func:`largest_stable_sample_period`, at the run's number of plant steps per
    period), or the gains when there is none."""
    from dataclasses import replace

    ts = servo.sample_period
    substeps = max(1, round(ts / dt))
    horizon = max(1.0, 4 * t_fail)  # trials run past the time the failed run reached
    gains = "kp, ki, kv" + {"observer": ", observer_gain", "motion_dynamics": ", estimator_bandwidth"}.get(
        servo.compensation, "")
    if servo.compensation == "ekf":
        return (f"the EKF loop has no linear stability check: shorten sample_period (now {ts:g} s), reduce dt, "
                "raise estimator_substeps, or lower the controller gains or the EKF noise intensities")
    for op in ops:
        faults = _faults(law, servo, op, dt)
        if faults:
            break
    else:
        return (f"the sampled loop and its RK4 steps are stable at sample_period = {ts:g} s at the {len(ops)} states "
                f"examined (spectral radius of the linearised one-period map): reduce dt, raise estimator_substeps, "
                f"shorten sample_period or lower the gains ({gains})")
    steps = []
    if "sampling" not in faults:
        h, hm = faults.get("dt", dt), faults.get("estimator_substeps")
        # a step of 1/2.785 of RK4's limit (|lambda h| <= 1 on the real axis): at the limit it is stable but
        # inaccurate, and the inaccurate path led a PD + observer loop into states its sampling cannot take
        n = substeps if "dt" not in faults else (math.ceil(RK4_LIMIT * ts / h) if h is not None else None)
        nest = servo.estimator_substeps if "estimator_substeps" not in faults else \
            (math.ceil(RK4_LIMIT * ts / hm) if hm is not None else None)
        if n is not None and nest is not None and trial_holds(law, replace(servo, estimator_substeps=nest), reference,
                                                             substeps=n, horizon=horizon):
            if "dt" in faults:
                steps.append(f"the plant's RK4 step is unstable at v = {op.v:.3g} m/s: reduce dt to <= "
                             f"{ts / n:.2g} s (sample_period/{n}; RK4's stability limit there is {h:.2g} s; now "
                             f"{dt:g} s)")
            if "estimator_substeps" in faults:
                steps.append(f"the observer's RK4 step is unstable at v = {op.v:.3g} m/s: raise estimator_substeps to "
                             f">= {nest} (RK4's stability limit there is sample_period/{ts / hm:.3g}; now "
                             f"{servo.estimator_substeps})")
            return "; ".join(steps)
    best = largest_stable_sample_period(law, servo, reference, substeps=substeps, horizon=horizon)
    if "sampling" in faults:
        head = (f"the sampled loop is unstable at sample_period = {ts:g} s, whatever dt: its one-period map "
                f"(zero-order hold, {servo.compensation if servo.compensation != 'none' else 'no'} compensation), "
                f"linearised at a state of the run (v = {op.v:.3g} m/s), has spectral radius "
                f"{spectral_radius(law, servo, op):.6g} ({faults['sampling']:.6g} times the continuous loop's growth); ")
    else:
        head = (f"an RK4 step is at its stability limit early in the run, but a trial with stable steps blows up "
                f"too: the sampled loop is unstable at sample_period = {ts:g} s; ")
    if best is None:
        return head + (f"no sample period down to {ts * 10.0 ** -SEARCH_DECADES:g} s removes it: lower the gains "
                       f"({gains})")
    return head + (f"use sample_period <= {best:.2g} s (the largest at which a trial run of {horizon:g} s stays finite "
                   f"and its linearised sampled map stable, with dt = sample_period/{substeps}), or lower the gains "
                   f"({gains})")
