r"""Drivers of :func:`frictionlab.simulate` for the microjunction model (Goedecke 2013, App. A).

Two drivers, registered on :class:`~frictionlab.contact.microjunction.junction.Microjunction`:

``"junction"`` (default)
    one creeping Jackson--Green junction, :func:`~frictionlab.contact.microjunction.junction.integrate_junction`;
``"ensemble"``
    a Greenwood--Williamson-style ensemble of junctions sharing the load,
    :func:`~frictionlab.contact.microjunction.ensemble.integrate_ensemble`.

Both take the load history from the protocol's ``normal_force`` [N]
(:meth:`ForceHistory.from_protocol <frictionlab.contact.microjunction.junction.ForceHistory.from_protocol>`,
one history piece per protocol segment) and refuse one that falls below the junction's preload ``f0`` F_c
(the appendix's rates are singular at zero load; :func:`.junction.below_preload`). The friction is Bowden--Tabor, ``friction_force =
tau A(t)`` with ``tau = shear_strength_ratio * sigma_y``: it follows the creeping contact area
and does not depend on the slip, so the protocol's velocity only gives ``slip_velocity`` and
``slip`` (its integral, :func:`~frictionlab.solve.contract.protocol_slip`), which the driver contract
fills in (:mod:`frictionlab.solve.contract`). The ensemble's height statistics (``n_junctions``, ``sigma_z`` [m])
are options of the ``"ensemble"`` driver because a single junction has none.

The solvers are adaptive :func:`scipy.integrate.solve_ivp` pairs (options ``solver`` --
"DOP853" or "RK45" -- ``rtol`` and ``atol``); ``dt`` [s], when given, caps the step (``max_step``), and ``save_dt``
[s] sets the output grid (default 1000 intervals), or the option ``save_times`` lists the output
times [s] (any increasing times in ``[0, duration]``, e.g. log-spaced over a hold; read from the
solver's dense output, so the grid does not change the steps). The ``"junction"`` driver's
``initial_state = [approach, contact_area]`` ([m], [m^2]) starts the junction from a given state
instead of the consistent on-curve state at the first load (a restart).

Results, SI: ``time`` [s], ``slip`` [m], ``slip_velocity`` [m/s], ``normal_force`` [N],
``friction_force`` [N], ``friction_coefficient`` [1], ``contact_area`` [m^2], ``approach`` [m],
``pressure`` [Pa] (and ``approach_max`` [m] of a junction); the normalised values under names
ending in ``_star`` [1] (:mod:`.scales`, the one place that converts).
"""

from __future__ import annotations

import dataclasses
import math
import numbers
from typing import Any

import numpy as np
import xarray as xr

from ...core.errors import ConfigError
from ...solve.contract import Run, protocol_slip
from ...solve.drivers import OptionSpec, register_driver
from .ensemble import JunctionEnsemble, integrate_ensemble
from .junction import ForceHistory, Microjunction, below_preload, integrate_junction
from .scales import Scales

__all__ = ["protocol_slip"]


def _is_real(x: Any) -> bool:
    return isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(float(x))


def _is_times(value: Any) -> bool:
    if isinstance(value, np.ndarray):
        value = value.tolist() if value.ndim == 1 else None
    return isinstance(value, (list, tuple)) and all(_is_real(x) and x >= 0 for x in value)


def _is_state(value: Any) -> bool:
    return value is None or (isinstance(value, (list, tuple)) and len(value) == 2
                             and all(_is_real(x) and x > 0 for x in value))


#: ``save_times``: output times [s] instead of the ``save_dt`` grid
_SAVE_TIMES = OptionSpec((), _is_times, "a list (or 1-D array) of increasing times >= 0 [s]")
#: ``initial_state``: ``[approach, contact_area]`` ([m], [m^2]) to start from, or None
_INITIAL_STATE = OptionSpec(None, _is_state, "None or [approach, contact_area] > 0 ([m], [m^2])")


def _grid(T: float, save_dt: float | None, save_times: Any = ()) -> tuple[float, np.ndarray]:
    """The output times over the whole load history ``T`` [s]: 1000 intervals, every ``save_dt``, or ``save_times``."""
    if len(save_times):
        if save_dt is not None:
            raise ConfigError("give save_dt (a uniform output grid) or save_times (the output times), not both")
        te = np.asarray(save_times, dtype=float)
        if np.any(np.diff(te) <= 0) or te[-1] > T * (1 + 1e-12):
            raise ConfigError(f"save_times must increase strictly and end by the protocol's duration {T:g} s")
        return T, te
    if save_dt is None:
        return T, np.linspace(0.0, T, 1001)
    if not (save_dt > 0 and math.isfinite(save_dt)):
        raise ConfigError(f"save_dt = {save_dt!r} s must be a positive finite time")
    n = max(1, int(round(T / save_dt)))
    if abs(n * save_dt - T) <= 1e-9 * T:
        return T, np.linspace(0.0, T, n + 1)
    k = np.arange(0, int(math.floor(T / save_dt)) + 1) * save_dt
    return T, np.append(k[k < T * (1 - 1e-12)], T)


def _refuse_below_preload(model: Microjunction, protocol: Any) -> None:
    """Refuse, before the run, a protocol whose load falls below the preload ``f0`` F_c [N] at a piece's
    ends or at 64 points within each piece (the kernels refuse any other time where it does)."""
    scales = Scales.of(model)
    for sg in protocol.segments():
        t = np.linspace(float(sg.t_start), float(sg.t_end), 65)
        load = np.asarray(protocol.normal_force(t), dtype=float)
        for ti, fi in zip(t, load):
            why = below_preload(model, float(scales.force_star(float(fi))), float(ti))
            if why is not None:
                raise ConfigError(f"{why} (protocol {protocol.type_name!r})")


def _history(model: Microjunction, protocol: Any, dt: float | None) -> ForceHistory:
    for sg in protocol.segments():
        if sg.kind == "ramp" and sg.velocity is not None:
            raise ConfigError(f"microjunction: protocol {protocol.type_name!r} applies a tangential force; the model "
                              "takes a normal-load history (and a prescribed velocity) only")
    _refuse_below_preload(model, protocol)
    hist = ForceHistory.from_protocol(protocol, Scales.of(model))
    if dt is not None:
        if not (dt > 0 and math.isfinite(dt)):
            raise ConfigError(f"dt = {dt!r} s must be a positive finite time")
        hist = dataclasses.replace(hist, max_step=tuple(min(float(m), float(dt)) for m in hist.max_step))
    return hist


def _attrs(ds: xr.Dataset, dt: float | None, solver: str, rtol: float, atol: float) -> xr.Dataset:
    ds.attrs.update({"max_step": float(dt) if dt is not None else math.inf, "solver": solver, "rtol": float(rtol),
                     "atol": float(atol)})
    return ds


def _drive_junction(run: Run, *, mode: str = "hybrid", history_method: str = "commit", solver: str = "DOP853",
                    rtol: float = 1e-8, atol: float = 1e-10, save_times: Any = (),
                    initial_state: Any = None) -> xr.Dataset:
    """Driver ``"junction"`` (default): one junction, :func:`integrate_junction`."""
    model, protocol, dt = run.model, run.protocol, run.dt
    _, grid = _grid(run.t_end, run.save_dt, save_times)
    hist = _history(model, protocol, dt)
    start = None if initial_state is None else Scales.of(model).start_state(*initial_state)
    sol = integrate_junction(model, hist, t_eval=grid, mode=mode, history_method=history_method, method=solver,
                             rtol=float(rtol), atol=float(atol), initial=start)
    return _attrs(sol.to_dataset(model), dt, solver, rtol, atol)


def _drive_ensemble(run: Run, *, n_junctions: int = 1000, sigma_z: float = 20e-9, solver: str = "RK45",
                    rtol: float = 1e-4, atol: float = 1e-8, save_times: Any = ()) -> xr.Dataset:
    """Driver ``"ensemble"``: ``n_junctions`` junctions with Gaussian summit heights (std ``sigma_z`` [m])."""
    model, protocol, dt = run.model, run.protocol, run.dt
    _, grid = _grid(run.t_end, run.save_dt, save_times)
    hist = _history(model, protocol, dt)
    ens = JunctionEnsemble(n_junctions=n_junctions, sigma_z=float(sigma_z))
    sol = integrate_ensemble(model, ens, hist, t_eval=grid, method=solver, rtol=float(rtol), atol=float(atol))
    return _attrs(sol.to_dataset(model, ens), dt, solver, rtol, atol)


#: both drivers run the whole load history: the protocol's duration is the end of the run
register_driver(Microjunction, "junction", _drive_junction, default=True, t_end="whole",
                options={"mode": "hybrid", "history_method": "commit", "solver": "DOP853", "rtol": 1e-8,
                         "atol": 1e-10, "save_times": _SAVE_TIMES, "initial_state": _INITIAL_STATE},
                description="one creeping Jackson-Green junction under the protocol's normal-load history")
register_driver(Microjunction, "ensemble", _drive_ensemble, t_end="whole",
                options={"n_junctions": 1000, "sigma_z": 20e-9, "solver": "RK45", "rtol": 1e-4, "atol": 1e-8,
                         "save_times": _SAVE_TIMES},
                description="Greenwood-Williamson ensemble of junctions sharing the protocol's normal load")
