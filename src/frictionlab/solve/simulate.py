"""One entry point: ``simulate(model, protocol, *, system=..., integrator=..., dt=...)``.

``simulate`` looks up the driver (:mod:`frictionlab.solve.drivers`) named by ``integrator``,
or the model's default driver, checks the options against those the driver declares, and
calls it. The generic drivers of the rate laws (:mod:`frictionlab.solve.law_drivers`) run
:func:`run_law`:

* ``"euler"``, ``"rk4"`` -- fixed-step explicit loops compiled with numba (fast; the
  papers' Euler for faithful reproduction);
* ``"newmark"`` -- implicit Newmark-beta for mass systems (robust for stiff laws);
* ``"radau"``, ``"bdf"``, ``"lsoda"``, ``"rk45"``, ``"dop853"`` -- adaptive
  :func:`scipy.integrate.solve_ivp` (accuracy references; the stiff ones for stiff laws);
* ``"step"`` -- the model's own discrete update (return mapping), required by
  :class:`~frictionlab.core.base.AbstractSteppedModel` and by feedback protocols.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.base import AbstractLaw, AbstractModel, AbstractSteppedModel
from ..core.errors import ConfigError, IntegrationError, ParameterError, suggest
from ..core.result import LazyDataset
from ..protocols.base import AbstractProtocol
from ..systems.base import AbstractSystem
from .drivers import check_options, default_driver, driver_for, run_attrs
from .integrate.adaptive import SCIPY_METHODS as _SCIPY

if TYPE_CHECKING:
    import xarray as xr

__all__ = ["simulate", "run_law", "INTEGRATORS"]

INTEGRATORS: dict[str, str] = {"euler": "compiled", "rk4": "compiled", "newmark": "compiled",
                               "step": "stepped", **{k: "scipy" for k in _SCIPY}}
#: nominal order of accuracy of each fixed-step integrator
ORDERS = {"euler": 1, "rk4": 4, "newmark": 2, "step": 1}


def simulate(
    model: AbstractModel,
    protocol: AbstractProtocol,
    *,
    system: AbstractSystem | None = None,
    integrator: str | None = None,
    dt: float | None = None,
    t_end: float | None = None,
    save_dt: float | None = None,
    **options: Any,
) -> xr.Dataset:
    """Run ``model`` under ``protocol`` (hosted in ``system``) and return a Dataset.

    Parameters
    ----------
    model : AbstractModel
        Any registered model (e.g. ``frictionlab.laws.LuGre(...)``).
    protocol : AbstractProtocol
        Input programme (e.g. ``VelocitySteps(...)``); its ``duration`` sets the end.
    system : AbstractSystem, optional
        Defaults to :class:`PrescribedSlip` (the model sees the protocol velocity).
    integrator : str, optional
        Name of a driver of ``model`` (:func:`~frictionlab.solve.drivers.drivers_for`);
        default: the model's default driver (the first that can host ``system``).
    dt : float, optional
        Time step [s] (fixed step, or first step of adaptive drivers); driver default.
    t_end : float, optional
        Stop earlier than ``protocol.duration`` [s].
    save_dt : float, optional
        Output interval [s]; driver default.
    **options
        Options of the chosen driver (e.g. ``rtol`` for ``radau``, ``newmark_beta`` for
        ``newmark``); an option the driver does not declare is a :class:`ConfigError`.

    Returns
    -------
    xarray.Dataset with ``time`` and the standard variables (``slip``, ``slip_velocity``,
    ``normal_force``, ``friction_force``, ``friction_coefficient``, ... ) plus the model
    state variables, each with ``units``; parameters in ``attrs``. The generic law drivers and
    rate-and-state ``quasi_static`` return it as a :class:`~frictionlab.core.result.LazyDataset`,
    which builds it at first use and acts as it (``isinstance(ds, xarray.Dataset)`` holds;
    ``ds.to_dataset()`` is the Dataset itself); reading a column (``ds.friction_force.values``,
    ``float(ds.friction_force[-1])``) imports no xarray.
    """
    if not isinstance(protocol, AbstractProtocol):
        raise ConfigError(f"protocol must be an AbstractProtocol, got {type(protocol).__name__}")
    if not system:
        from ..systems.prescribed_slip import PrescribedSlip

        system = PrescribedSlip()
    if not isinstance(system, AbstractSystem):
        raise ConfigError(f"system must be an AbstractSystem, got {type(system).__name__}")
    if integrator is None:
        drv = default_driver(model, system, protocol)
    else:
        drv = driver_for(model, integrator)
        why = drv.refusal(protocol, system)
        if why is not None:
            raise ConfigError(why)
    opts = check_options(drv, options)
    for key, value in (("dt", dt), ("t_end", t_end), ("save_dt", save_dt)):
        if value is None:
            continue
        if not isinstance(value, (int, float, np.integer, np.floating)) or isinstance(value, bool):
            raise ParameterError(f"integrator.{key} = {value!r} must be a number (a time in s)")
        if not math.isfinite(value):
            raise ParameterError(f"integrator.{key} = {value!r} must be finite (a time in s)")
        if not value > 0:
            raise ParameterError(f"integrator.{key} = {value!r} s must be > 0")
    if save_dt is not None:  # a longer interval saves nothing but the start (and overflows the step counts)
        span = float(protocol.duration if t_end is None else t_end)
        if math.isfinite(span) and save_dt > span:
            raise ParameterError(f"integrator.save_dt = {float(save_dt):g} s is longer than the run ({span:g} s); "
                                 "use save_dt <= t_end")
    model.cite()
    ds = drv.run(model, protocol, system, dt=None if dt is None else float(dt),
                 t_end=None if t_end is None else float(t_end),
                 save_dt=None if save_dt is None else float(save_dt), options=opts)
    return _stamp(ds, model, protocol, system, drv.name, {"dt": dt, "t_end": t_end, "save_dt": save_dt, **opts})


def _stamp(ds: Any, model: Any, protocol: Any, system: Any, driver: str, settings: dict[str, Any]) -> Any:
    """The software, the call and CF metadata on a driver's result (:mod:`frictionlab.core.provenance`)."""
    from ..core.provenance import describe_variables, software_attrs
    from ..core.result import LazyDataset, add_attrs

    call = (f"frictionlab.simulate({getattr(model, 'name', type(model).__name__)}, {protocol.type_name}, "
            f"system={system.type_name}, integrator={driver}"
            + "".join(f", {k}={v!r}" for k, v in settings.items() if v is not None and not callable(v)) + ")")
    add_attrs(ds, {**software_attrs(), "frictionlab_call": call})
    if type(ds) is not LazyDataset:  # a LazyDataset's variables get theirs from make_dataset
        describe_variables(ds)
    return ds


def run_law(
    model: AbstractModel,
    protocol: AbstractProtocol,
    system: AbstractSystem,
    *,
    integrator: str = "rk4",
    dt: float | None = None,
    t_end: float | None = None,
    save_dt: float | None = None,
    max_points: int = 20000,
    rtol: float = 1e-8,
    atol: float = 1e-12,
    newmark_beta: float = 0.25,
    newmark_gamma: float = 0.5,
    max_wall_time: float | None = None,
    max_steps: int | None = None,
    progress: Any = None,
    v_stick: float | None = None,
) -> xr.Dataset:
    """The generic law driver: ``integrator`` from :data:`INTEGRATORS` (see module docstring).

    Other Parameters
    ----------------
    dt : float, optional
        Fixed step [s] (default ``duration / 1e4``); initial step for adaptive methods.
    save_dt : float, optional
        Output interval [s] (rounded to a multiple of dt); the default gives at most
        ``max_points`` samples.
    max_points : int
        Largest number of saved samples when ``save_dt`` is not given.
    rtol, atol : float
        Tolerances of the adaptive integrators.
    newmark_beta, newmark_gamma : float
        Newmark coefficients (default: average acceleration).
    max_wall_time, max_steps, progress
        Adaptive integrators only: stop with :class:`IntegrationError` after this many
        seconds of wall time (default: no limit) or steps (default: sized from the run,
        :func:`~frictionlab.solve.integrate.adaptive.default_max_steps`); ``progress`` reports the simulated time reached
        (``None``: on stderr once a run takes over 10 s; ``True``, ``False`` or a callable
        ``f(t, t_end, steps, wall_s)``). See :mod:`frictionlab.solve.integrate.adaptive`.
    v_stick : float, optional
        Half-width [m/s] of the Karnopp stick band of a static law (no state) in a
        :class:`~frictionlab.systems.mass.MassSystem` (see that module); default
        :func:`stick_velocity`. An exact law (no ``v_reg``) gets the band by default; a regularised
        one (``v_reg > 0``, its stated stiction velocity) runs smooth unless ``v_stick`` is given.
        Refused for any other model or system.

    Returns
    -------
    xarray.Dataset with ``time`` and the standard variables (``slip``, ``slip_velocity``,
    ``normal_force``, ``friction_force``, ``friction_coefficient``, ... ) plus the model
    state variables, each with ``units``; parameters in ``attrs``.
    """
    from ..core.validation import check_run_settings
    from ..systems.prescribed_slip import PrescribedSlip

    system = system or PrescribedSlip()
    check_run_settings(model, protocol, system, integrator, dt=dt, t_end=t_end, save_dt=save_dt, max_points=max_points, rtol=rtol, atol=atol, newmark_beta=newmark_beta, newmark_gamma=newmark_gamma)
    if integrator not in INTEGRATORS:
        raise ConfigError(f"unknown integrator {integrator!r}{suggest(integrator, INTEGRATORS)}; known: {', '.join(INTEGRATORS)}")
    t_end = float(protocol.duration if t_end is None else t_end)
    if not (t_end > 0 and math.isfinite(t_end)):
        raise ParameterError(f"t_end = {t_end!r} s must be a positive finite time")
    dt = float(t_end / 1e4 if dt is None else dt)
    if not (dt > 0 and math.isfinite(dt)):
        raise ParameterError(f"integrator.dt = {dt!r} s must be > 0")
    if dt > t_end:
        raise ParameterError(f"integrator.dt = {dt:g} s is longer than the run ({t_end:g} s); use dt <= t_end / 10")
    n = max(1, int(round(t_end / dt)))
    if save_dt is None:
        stride = max(1, math.ceil((n + 1) / max_points))
    else:
        if not save_dt > 0:
            raise ParameterError(f"integrator.save_dt = {save_dt!r} s must be > 0")
        stride = max(1, int(round(save_dt / dt)))

    if isinstance(model, AbstractSteppedModel) or protocol.feedback or integrator == "step":
        from .integrate.stepped import run_stepped

        return run_stepped(model, protocol, system, dt=dt, n=n, stride=stride)
    if not isinstance(model, AbstractLaw):
        raise ConfigError(f"model {type(model).__name__} is neither a rate law nor a stepped model")
    if integrator == "newmark" and not system.second_order:
        raise ConfigError(f"integrator 'newmark' needs a second-order system (e.g. 'mass'), got {system.type_name!r}")

    from .integrate.adaptive import run_adaptive
    from .integrate.compiled import fixed_step_loops
    from .integrate.guard import check_fixed_step
    from .integrate.newmark import newmark_loop_for

    y0 = np.concatenate(system.initial_conditions(model, protocol)).astype(np.float64)
    sp = system.param_vector().astype(np.float64)
    lp = model.param_vector()
    from ..systems.mass import MassSystem

    # the stick band holds an exact static law; a regularised one (v_reg > 0: its stated stiction
    # velocity) is smooth and runs as it is unless v_stick is given
    regularised = float(getattr(model, "v_reg", 0.0) or 0.0) > 0.0
    if isinstance(system, MassSystem) and y0.size == len(system.state_names) and not (regularised and v_stick is None):
        if integrator == "newmark":
            raise ConfigError(f"integrator 'newmark' cannot run the static law {model.name!r} in a mass system (its "
                              f"Newton step fails on the stick band's jump); use 'rk4' or 'radau' (option v_stick)")
        sp = np.append(sp, stick_velocity(protocol, t_end) if v_stick is None else float(v_stick))
        if not sp[-1] > 0:
            raise ParameterError(f"integrator.v_stick = {v_stick!r} m/s must be > 0")
    elif v_stick is not None and not regularised:
        raise ConfigError(f"integrator.v_stick is the stick band of a static law (no state) in a mass system; "
                          f"{model.name} in {system.type_name!r} has no use for it")
    law_rates, law_friction = model.kernels()
    rhs = type(system)._rhs_kernel

    if INTEGRATORS[integrator] == "scipy":
        times = _save_steps(n, stride) * dt
        Y, F, U = run_adaptive(rhs, law_rates, law_friction, sp, lp, protocol, y0, times, integrator=integrator, dt=dt,
                               rtol=rtol, atol=atol, ns=len(system.state_names), label=model.name,
                               max_wall_time=max_wall_time, max_steps=max_steps, progress=progress)
    else:
        U = protocol.sample(np.arange(2 * n + 1) * (0.5 * dt)).T.copy()
        UL = _left_limits(protocol, U, dt, n)
        steps = _save_steps(n, stride)
        n_save = steps.size
        Y = np.empty((n_save, y0.size))
        F = np.empty(n_save)
        ns = len(system.state_names)
        ys0, z0 = y0[:ns].copy(), y0[ns:].copy()
        if integrator == "newmark":
            loop = newmark_loop_for(rhs, law_rates, law_friction)
            status = loop(sp, lp, U, UL, ys0, z0, dt, n, stride, Y, F, newmark_beta, newmark_gamma)
        else:
            euler, rk4 = fixed_step_loops(rhs, law_rates, law_friction)
            loop = euler if integrator == "euler" else rk4
            status = loop(sp, lp, U, UL, ys0, z0, dt, n, stride, Y, F)
        if status >= 0:
            t_fail = status * dt
            raise IntegrationError(
                f"{model.name}: the state became non-finite or diverged at step {status} "
                f"(t = {t_fail:.6g} s) with integrator {integrator!r} and dt = {dt:g} s; "
                f"reduce dt (e.g. dt = {dt / 10:g}) or use integrator='radau' (stiff, adaptive)",
                time=t_fail, step=status,
            )
        check_fixed_step(model, protocol, rhs, law_rates, law_friction, sp, lp, Y, steps, dt, n, ns, integrator, F)
        times = steps * dt
        U = U[2 * steps].T
    return _to_dataset(model, protocol, system, times, Y, F, U, integrator, dt)


def stick_velocity(protocol: AbstractProtocol, t_end: float) -> float:
    """Default Karnopp band [m/s]: 1e-3 of the largest drive speed of the run, at least 1e-6 m/s.

    Small against the slip speeds (so the breakaway and slip phases are the law's), large
    against the velocity a fixed step leaves at the end of a slip (about a dt, ``|a| dt`` with
    a ~ (F_s - F_c) / M), so that a decelerating slider lands in the band instead of
    stepping across zero; give ``v_stick`` when a coarse step or a slow drive needs another.
    """
    u = protocol.sample(np.linspace(0.0, t_end, 1001))
    return max(1e-3 * float(np.max(np.abs(u[0]))), 1e-6)


def _left_limits(protocol: AbstractProtocol, U: np.ndarray, dt: float, n: int) -> np.ndarray:
    """Inputs at the full steps as left limits: equal to ``U[::2]`` except at protocol jumps."""
    UL = U[::2].copy()
    for tb in protocol.breakpoints:
        i = int(round(tb / dt))
        if 1 <= i <= n and abs(i * dt - tb) <= 1e-9 * max(dt, abs(tb)):
            UL[i] = protocol.sample(np.array([tb - 0.25 * dt]))[:, 0]
    return np.ascontiguousarray(UL)


def _save_steps(n: int, stride: int) -> np.ndarray:
    """Indices of the saved steps: every ``stride``-th step, plus the final step ``n``."""
    steps = np.arange(0, n, stride)
    return np.append(steps, n)


def _to_dataset(model, protocol, system, times, Y, F, U, integrator, dt) -> xr.Dataset:
    ns = len(system.state_names)
    data: dict[str, Any] = dict(system.outputs(Y, U, F))
    data.setdefault("applied_force", U[2])
    fn = np.asarray(data["normal_force"], dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        data["friction_coefficient"] = np.where(fn > 0, np.asarray(F) / np.where(fn > 0, fn, 1.0), np.nan)
    units = {}
    for k, (name, unit) in enumerate(zip(model.state_names, model.state_units or ("1",) * len(model.state_names))):
        data[name] = Y[:, ns + k]
        units[name] = unit
    if model.force_units != "N":
        for name in ("friction_force", "normal_force", "applied_force", "spring_force"):
            if name in data:
                units[name] = model.force_units
    # built into the Dataset at first use: a process that reads result columns imports no xarray
    return LazyDataset(times, data, units=units, attrs=run_attrs(model, protocol, system, integrator, dt=dt))
