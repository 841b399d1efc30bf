r"""The driver contract: what :func:`~frictionlab.solve.simulate` does for every driver.

A driver implements its stepping only, as a function of a :class:`Run` and its options::

    def advance(run: Run, *, tol=1e-8, ...) -> xarray.Dataset

and registers it with :func:`~frictionlab.solve.drivers.register_driver`, declaring what it does
with the run's end and save interval (``t_end=``, ``saving=``). The contract does the rest, in one
place, for every driver:

1. **End of the run** (:func:`start`): ``run.t_end`` is the protocol's duration unless the caller
   gives ``t_end``; the driver's declaration says what it takes: ``"any"`` (any positive end),
   ``"within"`` (an end up to the protocol's duration; a later one is refused) or ``"whole"``
   (the whole protocol only: another end is refused, shorten the protocol instead).
2. **Saving**: ``saving="steps"``: the driver saves on its own step grid from ``run.save_dt``
   (a stride of its step, or the times it evaluates; its default when ``None``);
   ``saving="rows"``: the driver returns every step and the contract keeps the first step at or
   after each multiple of ``save_dt`` and the last one (:func:`pick_rows`); a string
   ``refuse_save_dt="why"`` refuses ``save_dt`` with that reason before the run.
3. **Standard variables in SI** (:func:`complete`, on a result over ``time`` alone): a variable of
   the standard set the driver does not return is filled from the protocol -- ``normal_force`` its
   normal force [the model's ``force_units``] and, under prescribed slip only (the protocol's
   velocity is then the slip velocity; in any other system the slip is the system's state, which
   its driver returns), ``slip_velocity`` [m/s] its velocity and ``slip`` [m] the integral of it
   (:func:`protocol_slip`) -- and ``friction_coefficient`` is ``friction_force / normal_force``
   where the load is positive (NaN elsewhere).
4. **Attributes**: the run's attributes (:func:`~frictionlab.solve.drivers.run_attrs`: model
   parameters, model, protocol and system names and fields, the citation, ``driver`` and
   ``integrator``) for every key the driver did not set itself.

A result with dimensions besides ``time`` on its friction (a batch over cases, ``case x time``)
is completed by the driver itself: one protocol value per time would not describe its cases.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ..core.errors import ConfigError

__all__ = ["Run", "start", "finish", "complete", "pick_rows", "protocol_slip", "T_END", "SAVING"]

#: what a driver takes as the end of the run (``register_driver(..., t_end=...)``)
T_END: dict[str, str] = {"any": "any positive end", "within": "an end up to the protocol's duration",
                         "whole": "the whole protocol only"}
#: who picks the saved rows (``register_driver(..., saving=...)``)
SAVING: dict[str, str] = {"steps": "the driver, on its own step grid", "rows": "the contract, from every step"}


@dataclass(frozen=True)
class Run:
    """One run as a driver's stepping receives it (module docstring).

    Attributes
    ----------
    model, protocol, system
        What runs, under which input programme, in which system.
    driver : str
        The driver's name.
    dt : float or None
        Step [s] the caller gave (``None``: the driver's default).
    t_end : float
        End of the run [s]: the protocol's duration unless the caller gave another.
    save_dt : float or None
        Output interval [s] the caller gave (``None``: the driver's default saving).
    t_end_given : bool
        Whether the caller gave ``t_end``.
    """

    model: Any
    protocol: Any
    system: Any
    driver: str
    dt: float | None
    t_end: float
    save_dt: float | None
    t_end_given: bool = False

    @property
    def label(self) -> str:
        """The model's registry name (its class name if it has none)."""
        return getattr(self.model, "name", "") or type(self.model).__name__


def start(drv: Any, model: Any, protocol: Any, system: Any, *, dt: float | None, t_end: float | None,
          save_dt: float | None) -> Run:
    """The :class:`Run` of driver ``drv``; an end or save interval it does not take is a :class:`ConfigError`."""
    duration = float(protocol.duration)
    label = getattr(model, "name", "") or type(model).__name__
    if t_end is not None:
        if drv.t_end == "whole" and abs(t_end - duration) > 1e-12 * max(1.0, t_end):
            raise ConfigError(f"driver {drv.name!r} of {label} runs the whole protocol ({duration:g} s); "
                              f"t_end = {t_end:g} s is not supported (shorten the protocol instead)")
        if drv.t_end == "within" and t_end > duration * (1 + 1e-12):
            raise ConfigError(f"driver {drv.name!r} of {label}: t_end = {t_end:g} s is beyond the protocol "
                              f"duration {duration:g} s")
    if save_dt is not None and drv.refuse_save_dt:
        raise ConfigError(f"driver {drv.name!r} of {label}: save_dt is not supported ({drv.refuse_save_dt})")
    return Run(model=model, protocol=protocol, system=system, driver=drv.name, dt=dt,
               t_end=duration if t_end is None else float(t_end), save_dt=save_dt, t_end_given=t_end is not None)


def finish(ds: Any, run: Run, drv: Any) -> Any:
    """A driver's result under the contract: rows picked (``saving="rows"``), completed, attributes."""
    if drv.saving == "rows" and run.save_dt is not None:
        ds = ds.isel(time=pick_rows(ds.time.values, run.save_dt))
    complete(ds, run)
    from ..core.result import default_attrs
    from .drivers import run_attrs

    default_attrs(ds, {"driver": run.driver, **run_attrs(run.model, run.protocol, run.system, run.driver)})
    return ds


def complete(ds: Any, run: Run) -> Any:
    """Fill the standard variables the driver did not return (module docstring, 3.); returns ``ds``."""
    from ..core.result import variable_names

    from ..systems.prescribed_slip import PrescribedSlip

    names = variable_names(ds)
    filled = {"normal_force", "friction_coefficient"}
    if isinstance(run.system, PrescribedSlip):
        filled |= {"slip_velocity", "slip"}
    missing = filled - names
    if not missing or "friction_force" not in names or ds["friction_force"].dims != ("time",):
        return ds
    t = np.asarray(ds["time"].values, dtype=float)
    protocol = run.protocol
    if "slip_velocity" in missing:
        ds["slip_velocity"] = ("time", protocol.velocity(t), {"units": "m/s"})
    if "slip" in missing:
        ds["slip"] = ("time", protocol_slip(protocol, t), {"units": "m"})
    if "normal_force" in missing:
        ds["normal_force"] = ("time", protocol.normal_force(t), {"units": run.model.force_units})
    if "friction_coefficient" in missing:
        fn = np.asarray(ds["normal_force"].values, dtype=float)
        with np.errstate(divide="ignore", invalid="ignore"):
            mu = np.where(fn > 0, np.asarray(ds["friction_force"].values) / np.where(fn > 0, fn, 1.0), np.nan)
        ds["friction_coefficient"] = ("time", mu, {"units": "1"})
    return ds


def pick_rows(times: np.ndarray, save_dt: float) -> np.ndarray:
    """Indices of the first time at or after each multiple of ``save_dt`` [s], plus the last one."""
    if not (save_dt > 0 and math.isfinite(save_dt)):
        raise ConfigError(f"save_dt = {save_dt!r} s must be a positive finite time")
    T = float(times[-1])
    targets = np.arange(0.0, T + 0.5 * save_dt, save_dt)
    idx = np.searchsorted(times, targets - 1e-9 * save_dt, side="left")
    idx = np.unique(np.clip(idx, 0, times.size - 1))
    if idx[-1] != times.size - 1:
        idx = np.append(idx, times.size - 1)
    return idx


def protocol_slip(protocol: Any, t: np.ndarray) -> np.ndarray:
    r"""Slip :math:`\int_0^t v\,dt'` [m] of the protocol's velocity at times ``t`` [s].

    Exact on pieces of constant velocity; Simpson's rule (64 panels) where it varies.
    """
    t = np.asarray(t, dtype=float)
    out = np.zeros_like(t)
    base = 0.0
    for sg in protocol.segments():
        a, b = float(sg.t_start), float(sg.t_end)
        inside = (t > a) & (t <= b) if a > 0 else (t >= a) & (t <= b)
        if sg.velocity is not None:
            out[inside] = base + float(sg.velocity) * (t[inside] - a)
            base += float(sg.velocity) * (b - a)
            continue
        for k in np.flatnonzero(inside):
            out[k] = base + _simpson(protocol, a, float(t[k]))
        base += _simpson(protocol, a, b)
    out[t > float(protocol.duration)] = base
    return out


def _simpson(protocol: Any, a: float, b: float, n: int = 64) -> float:
    if b <= a:
        return 0.0
    x = np.linspace(a, b, 2 * n + 1)
    v = protocol.velocity(x)
    return float((b - a) / (6 * n) * (v[0] + v[-1] + 4 * v[1:-1:2].sum() + 2 * v[2:-1:2].sum()))
