r"""Drivers of :func:`frictionlab.simulate` for the rough-contact model (Hulikal et al. 2015).

Three drivers, registered on :class:`~frictionlab.contact.rough.model.RoughContact`:

``"sliding"`` (default)
    :func:`~frictionlab.contact.rough.sliding.run_sliding`: the patch slides over the rigid
    surface under the protocol's velocity programme (constant velocity, velocity steps,
    slide-hold-slide, normal-load programmes at constant velocity, sinusoidal velocity); zero
    velocity is a hold (paper §5). The normal load is the protocol's ``normal_force`` [N],
    :math:`W = F_N/F^*`, and may vary in time.
``"hold"``
    :func:`~frictionlab.contact.rough.model.run_static`: a pure normal-load hold (ageing,
    paper §4) with log-spaced steps; the protocol must hold still at one constant normal force.
``"relaxed"``
    :func:`~frictionlab.contact.rough.relaxed.drive_relaxed`: the same hold's loaded state
    (:math:`t = 0^+`) and its relaxed state at the end by two direct solves (viscoelastic material,
    relaxed to round-off by then; paper §4, eq. 5); registered by its own module, which
    ``model.py`` declares too.

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
eq. 6) by their ``units``. The protocol's SI values enter the kernel, and its records leave it,
through :mod:`~frictionlab.contact.rough.units`, the one module that converts.
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
from .model import RoughContact, run_static
from .numerics import SolverOptions
from .sliding import SlidingOptions, run_sliding
from .surface import make_surface
from .units import hold_to_si, sliding_to_si, to_paper

__all__ = ["rigid_surface", "step_controls"]

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
    """The rigid surface of the model's geometry fields, ``surface_mx x patch_ny`` heights [L*] (from the
    model's :meth:`~frictionlab.contact.rough.model.RoughContact.kernel_parameters`)."""
    k = model.kernel_parameters()
    return make_surface(k.surface_mx, k.patch_ny, sigma=k.surface_sigma, beta_x=k.surface_beta,
                        acf=k.surface_acf, seed=k.surface_seed, dx=k.dx)


def _numerics(model: RoughContact, options: dict[str, Any]) -> SolverOptions:
    """The solver options of a run, checked against the model's interaction."""
    num = SolverOptions.from_options(options)
    num.check_for(model.interaction)
    return num


def _attrs(ds: xr.Dataset, extra: dict[str, Any]) -> None:
    ds.attrs.update(extra)


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
            s_step = min(s_step, to_paper(min(speeds), "m/s") * dt)
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
    m, k = model, model.kernel_parameters()
    s_step, h_step = step_controls(protocol, k.dx, s_max, hold_dt, dt)
    h = rigid_surface(m)
    opts = SlidingOptions(nx=m.patch_nx, ny=m.patch_ny, s_max=s_step, hold_dt=h_step, shift=shift,
                          allow_wrap=m.surface_wrap, vp_max_dup=vp_max_dup, sigma=k.surface_sigma,
                          snapshot_times=tuple(float(t) for t in snapshot_times), probes=_checked_probes(m, probes),
                          pdf_after_slip=None if pdf_after_slip is None else to_paper(float(pdf_after_slip), "m"),
                          numerics=num)
    ds = run_sliding(m, h, protocol, opts)
    out = sliding_to_si(ds)
    _attrs(out, {"s_max": s_step / k.dx, "hold_dt": h_step, "shift": shift, **({} if dt is None else {"dt": float(dt)})})
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
    ds = run_static(m, h, to_paper(fn, "N"), t_end=T, t_first=t_first, per_decade=int(per_decade), vp_max_dup=vp_max_dup,
                    sigma=m.kernel_parameters().surface_sigma, snapshot_times=tuple(float(t) for t in snapshot_times),
                    numerics=num)
    out = hold_to_si(ds)
    _attrs(out, {"per_decade": int(per_decade)})
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
