r"""Drivers of :func:`frictionlab.simulate` for the rough-contact model (Hulikal et al. 2015).

Two drivers, registered on :class:`~frictionlab.contact.rough.model.RoughContact`:

``"sliding"`` (default)
    :func:`~frictionlab.contact.rough.sliding.run_sliding`: the patch slides over the rigid
    surface under the protocol's velocity programme (constant velocity, velocity steps,
    slide-hold-slide, normal-load programmes at constant velocity, sinusoidal velocity); zero
    velocity is a hold (paper §5). The normal load is the protocol's ``normal_force`` [N],
    :math:`W = F_N/F^*`, and may vary in time.
``"hold"``
    :func:`~frictionlab.contact.rough.model.run_static`: a pure normal-load hold (ageing,
    paper §4) with log-spaced steps; the protocol must hold still at one constant normal force.

What is physics and what is numerics: the rigid surface (size, rms height, correlation
length, ACF, seed, periodic re-use) is the contact *geometry* and is read from the model's
``patch_*``/``surface_*`` fields (see :class:`~frictionlab.contact.rough.model.RoughContact`);
the time discretisation (slip per step ``s_max``, hold step ``hold_dt``, the interpolation
``shift`` of the moving surface, viscoplastic sub-stepping ``vp_max_dup``, log spacing of the
hold) and the contact solver (``solver``, ``tol``, ``tol_sliding``, ``max_iter``, ``backend``,
``fft_precision``, ``sliding_fft_precision``, ``fft_workers``: :class:`~frictionlab.contact.rough.numerics.SolverOptions`)
are driver options, recorded in ``attrs``. What a run records besides the standard series is
also a driver option: ``snapshot_times`` [s] (contact-force maps, and for the viscoplastic
material the plastic shortening and deformed surface, at the first step at or after each
time; 0 = the loaded state), ``probes`` (elements ``[i, j]`` whose force, length change and
gap are recorded at every step, paper Fig. 9), ``pdf_after_slip`` [m] (force PDF pooled over
the steps after this slip, the run-in excluded). Velocity jumps come from the protocol's
:meth:`~frictionlab.protocols.base.AbstractProtocol.segments`: at each jump the direct effect
is recorded over the ``jump`` dimension without a solve in between (paper §5.5).

Results are in SI with the standard names: ``time`` [s], ``slip`` [m], ``slip_velocity``
[m/s], ``normal_force`` [N] (compressive, > 0), ``friction_force`` [N] (the shear strength
:math:`F_S = (\bar\tau_S + \alpha\ln|\bar v|)\bar A\,F^*`, eqs. 13-15, a magnitude),
``friction_coefficient`` [1], ``contact_area`` (the fraction of the patch in contact, units
"1"), ``real_contact_area`` [m^2], ``dilatation`` [m], and the driver's diagnostics converted
from the paper's units (:math:`L^* = 1` µm, :math:`T^* = 1` s, :math:`F^* = 0.2513` N,
eq. 6) by their ``units``.
"""

from __future__ import annotations

import math
import numbers
from typing import Any

import numpy as np
import xarray as xr

from ...core.errors import ConfigError
from ...solve.contract import Run
from ...solve.drivers import OptionSpec, register_driver
from .model import F_STAR, RoughContact, run_static
from .numerics import SolverOptions
from .sliding import L_STAR, V_STAR, run_sliding
from .surface import make_surface

__all__ = ["rigid_surface", "to_si", "to_paper_units", "step_controls"]

#: solver options of both drivers, with their defaults (:class:`SolverOptions`)
_NUMERICS = SolverOptions().attrs()


def _is_times(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and all(
        isinstance(x, numbers.Real) and not isinstance(x, bool) and math.isfinite(float(x)) and x >= 0 for x in value)


def _is_probes(value: Any) -> bool:
    return isinstance(value, (list, tuple)) and all(
        isinstance(p, (list, tuple)) and len(p) == 2 and all(isinstance(i, numbers.Integral) and not isinstance(i, bool)
                                                              for i in p) for p in value)


_SNAPSHOTS = OptionSpec((), _is_times, "a list of times >= 0 [s]")
_PROBES = OptionSpec((), _is_probes, "a list of element index pairs [i, j]")


def rigid_surface(model: RoughContact) -> np.ndarray:
    """The rigid surface of the model's geometry fields, ``surface_mx x patch_ny`` heights [L*]."""
    return make_surface(model.surface_mx, model.patch_ny, sigma=model.surface_sigma, beta_x=model.surface_beta,
                        acf=model.surface_acf, seed=model.surface_seed, dx=model.dx)


def _numerics(model: RoughContact, options: dict[str, Any]) -> SolverOptions:
    """The solver options of a run, checked against the model's interaction."""
    num = SolverOptions.from_options(options)
    num.check_for(model.interaction)
    return num


# --------------------------------------------------------------------------- SI conversion
def _si_unit(unit: str) -> tuple[float, str, str]:
    """Factor, SI unit and a remark for a unit string of the legacy (paper-unit) results."""
    if unit == "um":
        return L_STAR, "m", ""
    if unit == "um^2":
        return L_STAR**2, "m^2", ""
    if unit == "um/s":
        return V_STAR, "m/s", ""
    if unit == "1/F*":
        return 1.0 / F_STAR, "1/N", ""
    if unit.startswith("F*"):
        rest = unit[2:].strip()
        return F_STAR, "N", "" if rest.startswith("(0.2513") else rest.strip("()")
    return 1.0, unit, ""


def to_si(ds: xr.Dataset, *, rename: dict[str, str] | None = None, drop: tuple[str, ...] = ()) -> xr.Dataset:
    """Convert every variable and coordinate of a paper-unit result to SI by its ``units``.

    ``rename`` maps old names to new ones (after conversion); ``drop`` removes variables.
    """
    out = ds.drop_vars([v for v in drop if v in ds])
    for name in list(out.variables):
        var = out[name]
        unit = var.attrs.get("units")
        if unit is None:
            continue
        fac, si, remark = _si_unit(str(unit))
        if fac == 1.0 and si == unit:
            continue
        attrs = {**var.attrs, "units": si}
        if remark:
            attrs["description"] = remark
        new = xr.Variable(var.dims, np.asarray(var.values, dtype=float) * fac, attrs)
        if name in out.coords:
            out = out.assign_coords({name: new})
        else:
            out[name] = new
    return out.rename(rename or {})


def _attrs(ds: xr.Dataset, extra: dict[str, Any]) -> None:
    ds.attrs.update({"L_star_m": L_STAR, "T_star_s": 1.0, "F_star_N": F_STAR,
                     "units_note": "SI; the paper's units are L* = 1 um, T* = 1 s, F* = 0.2513 N (eq. 6)", **extra})
    ds.attrs.pop("W", None)


# --------------------------------------------------------------------------- sliding
def _speeds(protocol: Any) -> list[float]:
    """Largest |v| [m/s] on each piece that slides (constant or varying velocity)."""
    out = []
    for sg in protocol.segments():
        if sg.velocity is not None:
            v = abs(float(sg.velocity))
        else:
            v = float(np.max(np.abs(protocol.velocity(np.linspace(sg.t_start, sg.t_end, 2001)))))
        if v > 0:
            out.append(v)
    return out


def step_controls(protocol: Any, dx: float, s_max: float, hold_dt: float, dt: float | None) -> tuple[float, float]:
    """Slip per step [L*] and hold step [s] of a sliding run (see :func:`_drive_sliding`).

    ``s_max`` is in element spacings; ``dt`` [s], when given, caps every step: the slip per
    step becomes ``min(s_max dx, |v|_min dt)`` and the hold step ``min(hold_dt, dt)``.
    """
    for name, val in (("s_max", s_max), ("hold_dt", hold_dt)):
        if not (val > 0 and math.isfinite(val)):
            raise ConfigError(f"{name} = {val!r} must be a positive finite number")
    s_step = float(s_max) * dx
    h_step = float(hold_dt)
    if dt is not None:
        if not (dt > 0 and math.isfinite(dt)):
            raise ConfigError(f"dt = {dt!r} s must be a positive finite time")
        speeds = _speeds(protocol)
        if speeds:
            s_step = min(s_step, min(speeds) / V_STAR * dt)
        h_step = min(h_step, float(dt))
    return s_step, h_step


def _checked_probes(model: RoughContact, probes: Any) -> tuple[tuple[int, int], ...]:
    out = tuple((int(i), int(j)) for i, j in probes)
    for i, j in out:
        if not (0 <= i < model.patch_nx and 0 <= j < model.patch_ny):
            raise ConfigError(f"probe element [{i}, {j}] is outside the {model.patch_nx} x {model.patch_ny} patch")
    return out


def _drive_sliding(run: Run, *, s_max: float = 0.25, hold_dt: float = 0.25, shift: str = "cubic",
                   vp_max_dup: float = 0.02, snapshot_times: Any = (), probes: Any = (),
                   pdf_after_slip: float | None = None, **numerics: Any) -> xr.Dataset:
    """Driver ``"sliding"`` (default): :func:`~frictionlab.contact.rough.sliding.run_sliding`.

    Step control (paper §3.8 / §5): the slip per step is at most ``s_max`` element spacings
    (0.25 in the paper) and a hold step is ``hold_dt`` [s]. ``dt`` [s], when given, caps
    the time step: the slip per step becomes ``min(s_max dx, |v|_min dt)`` with
    :math:`|v|_{min}` the slowest sliding speed of the protocol (every piece then steps at
    most ``dt``; faster pieces keep the same slip per step, as the paper's slip-based
    control), and the hold step ``min(hold_dt, dt)``. ``save_dt`` [s] keeps the first step at
    or after each of its multiples. A protocol that applies a tangential force (a ``ramp`` at
    constant velocity, e.g. ``force_ramp``) needs a mass system and is refused.
    ``snapshot_times`` [s], ``probes`` and ``pdf_after_slip`` [m] add the records described in
    the module docstring; the solver options are those of
    :class:`~frictionlab.contact.rough.numerics.SolverOptions`.
    """
    model, protocol, dt = run.model, run.protocol, run.dt
    for sg in protocol.segments():
        if sg.kind == "ramp" and sg.velocity is not None:
            raise ConfigError(f"rough_contact slides at a prescribed velocity; protocol {protocol.type_name!r} "
                              "applies a tangential force, which needs a mass system (not modelled here)")
    if not vp_max_dup > 0:
        raise ConfigError(f"option 'vp_max_dup' of driver 'sliding' must be > 0, got {vp_max_dup!r}")
    if shift not in ("cubic", "fourier"):
        raise ConfigError(f"option 'shift' of driver 'sliding' must be 'cubic' or 'fourier', got {shift!r}")
    if pdf_after_slip is not None and not (pdf_after_slip >= 0 and math.isfinite(pdf_after_slip)):
        raise ConfigError(f"option 'pdf_after_slip' of driver 'sliding' must be a slip >= 0 [m], "
                          f"got {pdf_after_slip!r}")
    num = _numerics(model, numerics)
    m = model
    s_step, h_step = step_controls(protocol, m.dx, s_max, hold_dt, dt)
    h = rigid_surface(m)
    ds = run_sliding(m, h, protocol, nx=m.patch_nx, ny=m.patch_ny, W=None, s_max=s_step, hold_dt=h_step,
                     shift=shift, allow_wrap=m.surface_wrap, vp_max_dup=vp_max_dup, sigma=m.surface_sigma,
                     snapshot_times=tuple(float(t) for t in snapshot_times), probes=_checked_probes(m, probes),
                     pdf_after_slip=None if pdf_after_slip is None else float(pdf_after_slip) / L_STAR, numerics=num)
    W = -ds.normal_force.values  # F*, compressive > 0
    ds["normal_force"] = ("time", W, {"units": "F* (0.2513 N)"})
    out = to_si(ds, rename={"shear_force": "friction_force", "contact_area": "real_contact_area",
                            "area_fraction": "contact_area"})
    out["friction_force"].attrs["description"] = "shear strength (tau_s + alpha ln|v|) A, eqs. 13-15 (magnitude)"
    out["contact_area"].attrs["description"] = "fraction of the patch in contact"
    _attrs(out, {"s_max": s_step / m.dx, "hold_dt": h_step, "shift": shift, **({} if dt is None else {"dt": float(dt)})})
    return out


# --------------------------------------------------------------------------- hold
def _drive_hold(run: Run, *, t_first: float | None = None, per_decade: int = 40,
                vp_max_dup: float = 0.02, snapshot_times: Any = (), **numerics: Any) -> xr.Dataset:
    r"""Driver ``"hold"``: :func:`~frictionlab.contact.rough.model.run_static` (ageing, paper §4).

    Instantaneous loading at :math:`t = 0^+`, then the constant load; steps log-spaced from
    ``t_first`` [s] (default :math:`10^{-4}/\lambda_{max}`, viscoplastic 0.01 s) with
    ``per_decade`` steps per decade to ``t_end`` (default the protocol duration). The step
    is not uniform, so ``dt`` and ``save_dt`` are refused. ``snapshot_times`` [s]: contact-force
    maps and force PDFs at the first step at or after each time (0 = the loaded state).
    The rigid surface under the patch is the first ``patch_nx`` rows of the model's surface.
    """
    model, protocol, dt, t_end = run.model, run.protocol, run.dt, run.t_end
    if dt is not None:
        raise ConfigError(f"driver 'hold' of rough_contact: dt is not supported ({_LOG_STEPS})")
    segs = protocol.segments()
    fns = {sg.normal_force for sg in segs}
    if any(sg.velocity != 0.0 for sg in segs) or len(fns) != 1 or None in fns:
        raise ConfigError(f"driver 'hold' of rough_contact needs a hold at one constant normal force (zero velocity); "
                          f"protocol {protocol.type_name!r} has pieces of kind {', '.join(sg.kind for sg in segs)} "
                          "(use the 'sliding' driver)")
    if not per_decade >= 1:
        raise ConfigError(f"option 'per_decade' of driver 'hold' must be >= 1, got {per_decade!r}")
    fn = float(segs[0].normal_force)
    T = t_end
    num = _numerics(model, numerics)
    m = model
    h = rigid_surface(m)[: m.patch_nx]
    ds = run_static(m, h, fn / F_STAR, t_end=T, t_first=t_first, per_decade=int(per_decade), vp_max_dup=vp_max_dup,
                    sigma=m.surface_sigma, snapshot_times=tuple(float(t) for t in snapshot_times), numerics=num)
    W = -ds.normal_force.values
    ds["normal_force"] = ("time", W, {"units": "F* (0.2513 N)"})
    ds["friction_force"] = ("time", ds.friction_coefficient.values * W, {"units": "F* (0.2513 N)"})
    out = to_si(ds, rename={"contact_area": "real_contact_area", "area_fraction": "contact_area"})
    out["friction_force"].attrs["description"] = "static shear strength tau_s A, eqs. 13-15"
    out["contact_area"].attrs["description"] = "fraction of the patch in contact"
    _attrs(out, {"per_decade": int(per_decade)})
    return out


# --------------------------------------------------------------------------- paper units
_PAPER = {"m": (1.0 / L_STAR, "um"), "m^2": (1.0 / L_STAR**2, "um^2"), "m/s": (1.0 / V_STAR, "um/s"),
          "N": (1.0 / F_STAR, "F* (0.2513 N)"), "1/N": (F_STAR, "1/F*")}


def to_paper_units(ds: xr.Dataset) -> xr.Dataset:
    """A driver's SI result in the paper's units and names (:func:`run_sliding` / :func:`run_static` layout).

    The inverse of the drivers' conversion, for analyses written in the paper's units
    (:math:`L^* = 1` µm, :math:`T^* = 1` s, :math:`F^*`, eq. 6): lengths in um, areas in um^2,
    velocities in um/s, forces in F*; ``contact_area`` (fraction) becomes ``area_fraction``,
    ``real_contact_area`` becomes ``contact_area`` [um^2], ``friction_force`` becomes
    ``shear_force``, ``normal_force`` takes the paper's sign (:math:`\bar F_N = -W < 0`) and
    ``attrs["W"]`` is the load at the end of the run [F*] (of the last run, for results
    concatenated over a dimension). Every variable keeps its ``units``.
    """
    out = ds.copy()
    for name in list(out.variables):
        var = out[name]
        unit = var.attrs.get("units")
        if unit not in _PAPER:
            continue
        fac, new_unit = _PAPER[unit]
        new = xr.Variable(var.dims, np.asarray(var.values, dtype=float) * fac, {**var.attrs, "units": new_unit})
        if name in out.coords:
            out = out.assign_coords({name: new})
        else:
            out[name] = new
    W = np.asarray(out["normal_force"].values, dtype=float)
    out["normal_force"] = (out["normal_force"].dims, -W, out["normal_force"].attrs)
    out = out.rename({k: v for k, v in (("contact_area", "area_fraction"),) if k in out})
    out = out.rename({k: v for k, v in (("real_contact_area", "contact_area"), ("friction_force", "shear_force"))
                      if k in out})
    out.attrs["W"] = float(np.ravel(W)[-1])
    out.attrs["units_note"] = "paper units: L* = 1 um, T* = 1 s, F* = 0.2513 N (eq. 6)"
    return out


_SHARED = {"vp_max_dup": 0.02, "snapshot_times": _SNAPSHOTS, **_NUMERICS}
#: what the contract does for both drivers (solve/contract.py): sliding runs the whole protocol and
#: returns every step (the contract keeps those at each save_dt); hold steps log-spaced up to t_end
_LOG_STEPS = "it steps log-spaced in time; set t_first / per_decade"
register_driver(RoughContact, "sliding", _drive_sliding, default=True, t_end="whole", saving="rows",
                options={"s_max": 0.25, "hold_dt": 0.25, "shift": "cubic", "probes": _PROBES,
                         "pdf_after_slip": None, **_SHARED},
                description="patch sliding over the rigid surface under the protocol's velocity and load (paper §5)")
#: a hold never slides: its solves use ``tol`` and ``fft_precision`` only, so ``tol_sliding`` and
#: ``sliding_fft_precision`` are not options of ``hold``
register_driver(RoughContact, "hold", _drive_hold, t_end="within", refuse_save_dt=_LOG_STEPS,
                options={"t_first": None, "per_decade": 40, **{k: v for k, v in _SHARED.items() if k not in ("tol_sliding", "sliding_fft_precision")}},
                description="static hold at constant normal load, log-spaced steps (ageing, paper §4)")
