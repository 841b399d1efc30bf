"""Shared helpers of the sliding ``rough-contact/fig9`` ... ``fig17`` scenarios (seed 003, §5).

Configuration layout (every scenario)::

    model    = {name = "rough_contact", preset = "table1", ...}   # RoughContact fields
    surface  = {n, mx, sigma, beta, acf, seed}     # patch n x n on a rigid mx x n surface
    sliding  = {pressure_MPa}                      # nominal pressure (the load)
    integrator = {s_max, shift, [hold_dt, dt]}    # slip per step, interpolation (the driver's step control)
    protocol = scenario-specific velocities [um/s] and slips [um]

Velocities are given in um/s (= the paper's non-dimensional v) and turned into the core SI
protocols (:class:`~frictionlab.protocols.VelocitySteps`, m/s and m) here.

Quick profiles use a 64^2 patch, correlation length beta = 5 (instead of 10, so that the small
patch still holds tens of asperities) and 0.5 um of slip per step; the paper sizes (512^2 on
1024 x 512, beta = 10, 0.25 per step) are the default (full) profile. Velocity-dependent results
shift with beta: a contact lives about beta/v, so at beta = 5 a velocity acts like twice that
velocity on the paper's surface (``QUICK_VELOCITY_NOTE``, quoted by the affected scenarios).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import xarray as xr

from ...contact.rough.driver import step_controls
from ...contact.rough.model import RoughContact, load_from_pressure
from ...contact.rough.sliding import V_STAR, run_sliding
from ...contact.rough.surface import make_surface
from ...core.errors import ConfigError
from ...core.registry import make_model
from ...protocols import VelocitySteps

SURFACE = {"n": 512, "mx": 1024, "sigma": 1.0, "beta": 10.0, "acf": "gaussian", "seed": 0}
SLIDING = {"pressure_MPa": 100.0}
#: step control, as the options of the ``"sliding"`` driver of :func:`frictionlab.simulate`
#: (``s_max`` in element spacings, ``shift``; optional ``hold_dt`` and ``dt`` [s])
INTEGRATOR = {"s_max": 0.25, "shift": "cubic"}
MODEL = {"name": "rough_contact", "preset": "table1"}
QUICK_BASE = {"surface.n": 64, "surface.beta": 5.0, "integrator.s_max": 0.5}
QUICK_VELOCITY_NOTE = (" Quick: 64^2 with beta = 5; contacts live about beta/v, so a quick-profile velocity acts like "
                       "2x that velocity on the paper's beta = 10 surface.")
REFS = ["Hulikal, Lapusta & Bhattacharya (2015), JMPS 76, 44-63"]


def build_model(cfg: dict[str, Any], **over: Any) -> RoughContact:
    m = dict(cfg["model"])
    m.pop("name", None)
    preset = m.pop("preset", None)
    m.update(over)
    for k in ("lams", "As"):
        if k in m and isinstance(m[k], list):
            m[k] = tuple(m[k])
    return make_model("rough_contact", preset, **m)


def rigid(cfg: dict[str, Any]) -> np.ndarray:
    s = cfg["surface"]
    return make_surface(int(s["mx"]), int(s["n"]), sigma=float(s["sigma"]), beta_x=float(s["beta"]), acf=s["acf"],
                        seed=int(s["seed"]))


def load(cfg: dict[str, Any]) -> float:
    n = int(cfg["surface"]["n"])
    return load_from_pressure(float(cfg["sliding"]["pressure_MPa"]) * 1e6, n, n)


def steps(velocities_um_s: list[float], slips_um: list[float]) -> VelocitySteps:
    """Core velocity-steps protocol (SI) from velocities [um/s] and slip distances [um]."""
    return VelocitySteps(velocities=tuple(float(v) * V_STAR for v in velocities_um_s),
                         distances=tuple(float(s) * 1e-6 for s in slips_um))


def slide(cfg: dict[str, Any], model: RoughContact, velocities: list[float], slips: list[float],
          h: np.ndarray | None = None, **kw: Any) -> xr.Dataset:
    """Load at t = 0+ and slide through the velocity steps; returns the run's Dataset."""
    integ = dict(cfg["integrator"])
    unknown = sorted(set(integ) - {"s_max", "shift", "hold_dt", "dt"})
    if unknown:
        raise ConfigError(f"the rough-contact sliding scenarios take integrator keys s_max, shift, hold_dt, dt; "
                          f"got {', '.join(unknown)}")
    h = rigid(cfg) if h is None else h
    n = int(cfg["surface"]["n"])
    prot = steps(velocities, slips)
    dt = integ.get("dt")
    s_max, hold_dt = step_controls(prot, model.dx, float(integ["s_max"]), float(integ.get("hold_dt", 0.25)),
                                   None if dt is None else float(dt))
    return run_sliding(model, h, prot, nx=n, ny=n, W=load(cfg), s_max=s_max, hold_dt=hold_dt, shift=integ["shift"],
                       sigma=float(cfg["surface"]["sigma"]), **kw)


def window_mean(ds: xr.Dataset, var: str, s_lo: float, s_hi: float) -> float:
    """Mean of ``var`` over samples with slip in ``[s_lo, s_hi]`` (one sign of slip)."""
    s = ds.slip.values
    sel = (s >= min(s_lo, s_hi) - 1e-9) & (s <= max(s_lo, s_hi) + 1e-9)
    return float(np.mean(ds[var].values[sel]))


def on_path(ds: xr.Dataset, ref: xr.Dataset, var: str) -> np.ndarray:
    """``var`` of ``ref`` interpolated to the slip positions of ``ds`` (same rigid path)."""
    return np.interp(ds.slip.values, ref.slip.values, ref[var].values)
