r"""Drivers of :func:`frictionlab.simulate` for the beam-network model (doi:10.1115/1.4042247).

Two drivers, registered on :class:`~frictionlab.contact.beam_network.params.BeamNetworkParams`:

``"mlbnm"`` (default)
    the integrated-unit-beam reduction (MLBNM, or one IUB with ``single = True``),
    :func:`~frictionlab.contact.beam_network.mlbnm.run_mlbnm`;
``"lbnm"``
    the 2-D LuGre beam network of the paper, :func:`~frictionlab.contact.beam_network.lbnm.run_lbnm`.

The compiled loops drive the stage at one constant velocity from rest, so the protocol must
be a single piece of constant velocity >= 0 and constant normal force
(:meth:`~frictionlab.protocols.base.AbstractProtocol.segments`); anything else is refused in
one line. The normal force sets the contact patch (Fig. 7 load polynomial) and is the model's
``normal_load`` [N]; a protocol whose normal force differs is refused (change one of them)
rather than one of the two being ignored. How that load is shared among the beams is the
model option ``load_distribution`` (the Fig. 7 map, column means, uniform): both loops use it.

``dt`` [s] is the time step of the loop (default 2e-5 s, the scenarios' value; the explicit
``scheme = "euler"`` checks it against its stability limit), ``save_dt`` [s] the output
interval (default 1 ms); ``scheme``, ``n_picard`` and ``allow_unstable`` are options (plus
``single`` for the MLBNM and ``beam_save_dt`` for the LBNM's per-beam fields).

**Batches** (``mlbnm`` only): ``batch_params`` (a list of tables of parameter changes, one
case each, e.g. ``[{cb = 7.4}, {cb = 30.0}]``) and/or ``batch_velocities`` (the stage
velocity of each case [m/s]; the protocol's velocity must be the first of them) run many
independent cases in one parallel compiled loop
(:func:`~frictionlab.contact.beam_network.mlbnm.run_mlbnm_batch`, the sweep figures'
performance). The result then has a ``case`` dimension: ``friction_force`` (case, time),
``stage_velocity`` and ``case_normal_force`` (case), ``failed_step`` (case; -1: finished, with
``raise_on_failure = false`` a diverged case keeps NaN after its failing step) and, with
``save_columns = true``, ``column_friction``, ``column_lag``, ``column_velocity`` (case,
time, iub). Every case shares the protocol's duration, ``dt``, ``save_dt`` and scheme.

Results (SI): ``time`` [s], ``friction_force`` (total x friction F_f [N]), ``normal_force``
[N], ``friction_coefficient`` (F_f / F_N), ``driver_position`` [m] and ``slip`` [m] (the
stage displacement V t, the slip prescribed at the base of the beams), ``slip_velocity``
[m/s] (V), plus each loop's own per-beam / per-IUB fields.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import xarray as xr

from ...core.errors import ConfigError
from ...core.result import sanitize_attrs
from ...solve.contract import Run
from ...solve.drivers import register_driver
from .lbnm import run_lbnm
from .mlbnm import run_mlbnm, run_mlbnm_batch
from .params import BeamNetworkParams

__all__: list[str] = []

_DT = 2e-5
_SAVE_DT = 1e-3


def _stage(model: BeamNetworkParams, protocol: Any, name: str) -> float:
    """The stage velocity ``v`` of a one-piece constant-velocity protocol at the model's normal load."""
    segs = protocol.segments()
    sg = segs[0]
    if len(segs) != 1 or sg.velocity is None or sg.normal_force is None or sg.kind not in ("slide", "hold"):
        raise ConfigError(f"driver {name!r} of beam_network takes one constant stage velocity; protocol "
                          f"{protocol.type_name!r} has {len(segs)} piece(s) of kind "
                          f"{', '.join(s.kind for s in segs)} (use 'constant_velocity')")
    if sg.velocity < 0.0:
        raise ConfigError(f"driver {name!r} of beam_network needs a stage velocity >= 0 m/s, got {sg.velocity:g}")
    fn = float(sg.normal_force)
    if abs(fn - model.normal_load) > 1e-9 * model.normal_load:
        raise ConfigError(f"beam_network: the protocol's normal force {fn:g} N differs from the model's normal_load "
                          f"{model.normal_load:g} N (which sets the contact patch); make them equal")
    return float(sg.velocity)


def _steps(T: float, dt: float | None, save_dt: float | None, name: str) -> tuple[float, float]:
    """``(dt, save_dt)`` with their defaults; both must divide the run (the loop counts whole steps)."""
    h = _DT if dt is None else float(dt)
    sv = _SAVE_DT if save_dt is None else float(save_dt)
    if not h > 0:
        raise ConfigError(f"dt = {dt!r} s must be > 0")
    for label, total in (("the duration", T), ("save_dt", sv)):
        k = total / h
        if abs(k - round(k)) > 1e-6 * max(1.0, k) or round(k) < 1:
            raise ConfigError(f"driver {name!r}: {label} ({total:g} s) must be a whole number of steps dt = {h:g} s")
    return h, sv


def _standard(ds: xr.Dataset, name: str) -> xr.Dataset:
    """The loop's own label under ``loop`` (the contract sets ``model`` to the registry name and fills the
    standard variables from the protocol: its one stage velocity and normal force)."""
    ds.attrs["loop"] = ds.attrs.pop("model", name)
    return ds


def _drive_mlbnm(run: Run, *, scheme: str = "semi-implicit", n_picard: int = 1, single: bool = False,
                 allow_unstable: bool = False, batch_params: list | None = None, batch_velocities: list | None = None,
                 save_columns: bool = False, raise_on_failure: bool = True) -> xr.Dataset:
    """Driver ``"mlbnm"`` (default): :func:`run_mlbnm` at the protocol's stage velocity, or a batch."""
    model, protocol, T = run.model, run.protocol, run.t_end
    v = _stage(model, protocol, "mlbnm")
    h, sv = _steps(T, run.dt, run.save_dt, "mlbnm")
    if batch_params or batch_velocities:
        return _batch(model, protocol, v, T, h, sv, list(batch_params or []), list(batch_velocities or []),
                      scheme=scheme, single=single, n_picard=n_picard, allow_unstable=allow_unstable,
                      save_columns=save_columns, raise_on_failure=raise_on_failure)
    if save_columns or not raise_on_failure:
        raise ConfigError("driver 'mlbnm': save_columns and raise_on_failure apply to batches (batch_params / "
                          "batch_velocities); a single run always saves its per-IUB fields and raises on divergence")
    ds = run_mlbnm(model, v, T, dt=h, save_dt=sv,
                   scheme=scheme, single=single, n_picard=n_picard, allow_unstable=allow_unstable)
    return _standard(ds, "mlbnm")


def _batch(model: BeamNetworkParams, protocol: Any, v: float, T: float, h: float, sv: float, changes: list,
           velocities: list, *, scheme: str, single: bool, n_picard: int, allow_unstable: bool, save_columns: bool,
           raise_on_failure: bool) -> xr.Dataset:
    """A batch of MLBNM cases (see the module docstring) in one call of :func:`run_mlbnm_batch`."""
    if not all(isinstance(c, dict) for c in changes):
        raise ConfigError("driver 'mlbnm': batch_params must be a list of tables of parameter changes, "
                          "e.g. [{cb = 7.4}, {cb = 30.0}]")
    if changes and velocities and len(changes) != len(velocities):
        raise ConfigError(f"driver 'mlbnm': {len(changes)} batch_params but {len(velocities)} batch_velocities")
    if velocities and abs(float(velocities[0]) - v) > 1e-12 * max(abs(v), 1e-300):
        raise ConfigError(f"driver 'mlbnm': the protocol's stage velocity {v:g} m/s must be the first of "
                          f"batch_velocities ({float(velocities[0]):g} m/s)")
    n = len(changes) or len(velocities)
    params = [model.replace(**c) for c in changes] if changes else [model] * n
    vels = [float(x) for x in velocities] if velocities else [v] * n
    r = run_mlbnm_batch(params, vels, T, dt=h, save_dt=sv, scheme=scheme, single=single, n_picard=n_picard,
                        save_columns=save_columns, allow_unstable=allow_unstable, raise_on_failure=raise_on_failure)
    t = r["time"]
    F = r["friction_force"]
    fz = np.array([p.normal_load for p in params])
    ds = xr.Dataset(coords={"time": ("time", t, {"units": "s"}), "case": ("case", np.arange(n))})
    ds["friction_force"] = (("case", "time"), F, {"units": "N"})
    ds["friction_coefficient"] = (("case", "time"), F / fz[:, None], {"units": "1"})
    ds["stage_velocity"] = ("case", np.asarray(vels), {"units": "m/s"})
    ds["case_normal_force"] = ("case", fz, {"units": "N"})
    ds["slip"] = (("case", "time"), np.asarray(vels)[:, None] * t[None, :],
                  {"units": "m", "description": "stage displacement V t"})
    ds["failed_step"] = ("case", np.asarray(r["failed_step"], dtype=np.int64), {"units": "1"})
    if save_columns:
        for name, unit in (("column_friction", "N"), ("column_lag", "m"), ("column_velocity", "m/s")):
            ds[name] = (("case", "time", "iub"), r[name], {"units": unit})
    ds.attrs.update({**sanitize_attrs({**model.attrs(), "citation": model.citation, "doi": model.doi}),
                     "model": model.name, "loop": "single-IUB" if single else "MLBNM", "scheme": scheme, "dt": h,
                     "batch_params": repr(changes)})
    return ds


def _drive_lbnm(run: Run, *, scheme: str = "semi-implicit", n_picard: int = 1, beam_save_dt: float = 1e-2,
                allow_unstable: bool = False) -> xr.Dataset:
    """Driver ``"lbnm"``: :func:`run_lbnm` (the 2-D network) at the protocol's stage velocity."""
    model, protocol, T = run.model, run.protocol, run.t_end
    v = _stage(model, protocol, "lbnm")
    h, sv = _steps(T, run.dt, run.save_dt, "lbnm")
    ds = run_lbnm(model, v, T, dt=h, save_dt=sv,
                  beam_save_dt=beam_save_dt, scheme=scheme, n_picard=n_picard, allow_unstable=allow_unstable)
    return _standard(ds, "lbnm")


#: what both loops do not take (their stage starts from rest at one velocity; the load is set once)
_REFUSES = {
    "velocity_change": "the compiled loops take one constant stage velocity, from rest "
                       "(use 'constant_velocity')",
    "load_change": "the normal load sets the contact patch once, before the run (the Fig. 7 load "
                   "polynomial): it is the model's normal_load",
}

register_driver(BeamNetworkParams, "mlbnm", _drive_mlbnm, default=True, refuses=_REFUSES, t_end="within",
                options={"scheme": "semi-implicit", "n_picard": 1, "single": False, "allow_unstable": False,
                         "batch_params": [], "batch_velocities": [], "save_columns": False, "raise_on_failure": True},
                description="integrated unit beams (MLBNM), compiled loop, one constant stage velocity "
                            "(or a batch of cases in one parallel loop)")
register_driver(BeamNetworkParams, "lbnm", _drive_lbnm, refuses=_REFUSES, t_end="within",
                options={"scheme": "semi-implicit", "n_picard": 1, "beam_save_dt": 1e-2, "allow_unstable": False},
                description="2-D LuGre beam network (LBNM), compiled loop, one constant stage velocity")
