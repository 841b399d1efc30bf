"""Shared helpers of the sliding ``rough-contact/fig9`` ... ``fig17`` scenarios (seed 003, §5).

Configuration layout (every scenario)::

    model      = {name = "rough_contact", preset = "table1", patch_nx, patch_ny, surface_mx,
                  surface_sigma, surface_beta, surface_acf, surface_seed, ...}   # physics and geometry
    protocol   = {pressure_MPa, ...}   # nominal pressure (the load) and the scenario's velocities [um/s], slips [um]
    integrator = {driver = "sliding", s_max, shift, ...}   # the driver's options: step control, solver, tolerances

Every run goes through :func:`frictionlab.simulate` with the ``"sliding"`` driver; the
``[integrator]`` keys are its options (any of them may be set; an unknown one is refused).
Velocities are given in um/s (= the paper's non-dimensional v) and turned into the core SI
protocol :class:`~frictionlab.protocols.VelocitySteps` (m/s and m) here; the normal force [N]
is the pressure times the patch area. The analyses read the result in the paper's units
(:func:`~frictionlab.contact.rough.driver.to_paper_units`).

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

from ...contact.rough.driver import to_paper_units
from ...contact.rough.model import RoughContact
from ...contact.rough.sliding import L_STAR, V_STAR
from ...protocols import VelocitySteps
from ...solve import simulate
from ._common import build_model, driver_options, normal_force

__all__ = ["to_paper_units", "MODEL", "INTEGRATOR", "SLIDING", "QUICK_BASE", "QUICK_VELOCITY_NOTE", "REFS", "build_model", "steps",
           "slide", "window_mean", "on_path"]

#: a 512^2 patch sliding over a 1024 x 512 rigid surface (paper §5, Table 1)
MODEL = {"name": "rough_contact", "preset": "table1", "patch_nx": 512, "patch_ny": 512, "surface_mx": 1024,
         "surface_sigma": 1.0, "surface_beta": 10.0, "surface_acf": "gaussian", "surface_seed": 0}
#: the load: nominal pressure [MPa] on the patch (a ``[protocol]`` key of every sliding scenario)
SLIDING = {"pressure_MPa": 100.0}
#: step control, as the options of the ``"sliding"`` driver of :func:`frictionlab.simulate`
#: (``s_max`` in element spacings, ``shift``; any other option of the driver may be added)
INTEGRATOR = {"driver": "sliding", "s_max": 0.25, "shift": "cubic"}
QUICK_BASE = {"model.patch_nx": 64, "model.patch_ny": 64, "model.surface_beta": 5.0, "integrator.s_max": 0.5}
QUICK_VELOCITY_NOTE = (" Quick: 64^2 with beta = 5; contacts live about beta/v, so a quick-profile velocity acts like "
                       "2x that velocity on the paper's beta = 10 surface.")
REFS = ["Hulikal, Lapusta & Bhattacharya (2015), JMPS 76, 44-63"]


def steps(velocities_um_s: list[float], slips_um: list[float], normal_force_n: float) -> VelocitySteps:
    """Core velocity-steps protocol (SI) from velocities [um/s], slip distances [um] and the load [N]."""
    return VelocitySteps(velocities=tuple(float(v) * V_STAR for v in velocities_um_s),
                         distances=tuple(float(s) * L_STAR for s in slips_um), normal_force_value=float(normal_force_n))


def slide(cfg: dict[str, Any], model: RoughContact, velocities: list[float], slips: list[float], *,
          si: bool = False, **options: Any) -> xr.Dataset:
    """Load at t = 0+ and slide through the velocity steps [um/s, um] with :func:`frictionlab.simulate`.

    ``options`` are driver options the scenario derives from its ``[protocol]`` (``snapshot_times``
    [s], ``probes``; ``pdf_after_slip`` is given here in um); the others come from ``[integrator]``.
    Returns the driver's SI result with ``si``, else the result in the paper's units
    (:func:`~frictionlab.contact.rough.driver.to_paper_units`) for analyses written in them.
    """
    if options.get("pdf_after_slip") is not None:
        options["pdf_after_slip"] = float(options["pdf_after_slip"]) * L_STAR
    name, opts = driver_options(cfg, "sliding", **options)
    prot = steps(velocities, slips, normal_force(cfg, model))
    ds = simulate(model, prot, integrator=name, **opts)
    return ds if si else to_paper_units(ds)


def window_mean(ds: xr.Dataset, var: str, s_lo: float, s_hi: float) -> float:
    """Mean of ``var`` over samples with slip in ``[s_lo, s_hi]`` (one sign of slip)."""
    s = ds.slip.values
    sel = (s >= min(s_lo, s_hi) - 1e-9) & (s <= max(s_lo, s_hi) + 1e-9)
    return float(np.mean(ds[var].values[sel]))


def on_path(ds: xr.Dataset, ref: xr.Dataset, var: str) -> np.ndarray:
    """``var`` of ``ref`` interpolated to the slip positions of ``ds`` (same rigid path)."""
    return np.interp(ds.slip.values, ref.slip.values, ref[var].values)
