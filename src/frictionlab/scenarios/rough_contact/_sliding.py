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

Single precision (issue 17): the paper-size profiles of the long runs (Figs. 13, 14) set
``integrator.sliding_fft_precision = "single"`` (:data:`SINGLE_SLIDING`): the sliding steps'
FFT products in float32, the loading in double at ``tol``; it applies to the Boussinesq runs
(the mean field has no FFT and runs double). Such a run is never silently less accurate: it
also slides a short control (:data:`PRECISION_CONTROL`) on the same surface in single and in
double precision and its checks include :func:`precision_checks`, which fails when the two
differ by more than the stated tolerance. The quick profiles stay in double precision.
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
           "slide", "window_mean", "on_path", "SINGLE_SLIDING", "QUICK_DOUBLE", "PRECISION_CONTROL", "single_sliding",
           "precision_control", "precision_checks"]

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
#: paper-size profile of the long sliding scenarios: float32 FFT products in the sliding steps
SINGLE_SLIDING = {"sliding_fft_precision": "single"}
#: their quick profile stays in double precision
QUICK_DOUBLE = {"integrator.sliding_fft_precision": "double"}
#: the control run of a single-precision scenario: slip [um] (from the t = 0+ state, at the
#: scenario's first velocity) and the largest allowed single - double differences over its
#: steps: per step mu, contact area relative to its largest value, dilatation [um], and the mean
#: of mu over the steps (what the windowed checks see). Measured over 300 steady steps
#: (``frictionlab/benchmarks/bench_rough_sliding.py precision``): 512^2 and 128^2 identical mu and area,
#: dilatation within 1e-7 um; 256^2 three steps of 300 with one or two contact elements
#: flipped at the solver tolerance (mu by <= 8e-4, area 1.6e-3, dilatation 1e-5 um; mean mu
#: difference 0). The tolerances admit such flips with a margin of 2.5-10 and lie far below
#: what the figures' checks compare (windowed means over hundreds of steps, steady-state mu
#: differences >= 1e-2 between velocities or paired runs).
PRECISION_CONTROL = {"slip_um": 10.0, "mu": 2e-3, "area_rel": 5e-3, "dilatation_um": 1e-4, "mu_mean": 1e-4}
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
    if model.interaction == "meanfield":
        opts.pop("sliding_fft_precision", None)  # no FFT: the mean field runs double (module notes)
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


def single_sliding(cfg: dict[str, Any]) -> bool:
    """Whether ``[integrator]`` asks for single-precision sliding steps."""
    return (cfg.get("integrator") or {}).get("sliding_fft_precision", "double") == "single"


def precision_control(cfg: dict[str, Any], model: RoughContact, v: float) -> dict[str, float]:
    """Slide ``PRECISION_CONTROL["slip_um"]`` at ``v`` [um/s] from the t = 0+ state on the model's
    surface twice, with the configuration's ``sliding_fft_precision = "single"`` and in double
    precision; returns the largest differences over the steps (mu, area relative to its largest
    value, dilatation [um]), the difference of the mean mu, and the tolerances, as dataset attributes for
    :func:`precision_checks`."""
    slip = float(PRECISION_CONTROL["slip_um"])
    single = slide(cfg, model, [v], [slip])
    dcfg = {**cfg, "integrator": {**(cfg.get("integrator") or {}), "sliding_fft_precision": "double"}}
    double = slide(dcfg, model, [v], [slip])
    a_d, a_s = double.contact_area.values, single.contact_area.values
    return {"precision_control_steps": int(len(double.slip) - 1), "precision_control_v": float(v),
            "precision_control_mu": float(np.abs(double.friction_coefficient.values
                                                 - single.friction_coefficient.values).max()),
            "precision_control_area_rel": float(np.abs(a_d - a_s).max() / np.abs(a_d).max()),
            "precision_control_dilatation_um": float(np.abs(double.dilatation.values - single.dilatation.values).max()),
            "precision_control_mu_mean": abs(float(np.mean(double.friction_coefficient.values
                                                           - single.friction_coefficient.values))),
            **{f"precision_control_tol_{k}": float(x) for k, x in PRECISION_CONTROL.items() if k != "slip_um"}}


def precision_checks(ds: xr.Dataset) -> list:
    """The check of a single-precision run's control (:func:`precision_control`), if it has one."""
    from ..base import check

    at = ds.attrs
    if "precision_control_mu" not in at:
        return []
    keys = ("mu", "area_rel", "dilatation_um", "mu_mean")
    ok = all(at[f"precision_control_{k}"] <= at[f"precision_control_tol_{k}"] for k in keys)
    return [check(f"single-precision sliding steps (sliding_fft_precision) match a double-precision control run "
                  f"({at['precision_control_steps']} steps at v = {at['precision_control_v']:g} on the same surface)",
                  ", ".join(f"|d {k}| <= {at[f'precision_control_tol_{k}']:g}" for k in keys),
                  ", ".join(f"{k} {at[f'precision_control_{k}']:.2e}" for k in keys), ok, kind="verification")]
