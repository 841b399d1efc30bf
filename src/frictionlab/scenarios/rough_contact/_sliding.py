"""Shared helpers of the sliding ``rough-contact/fig9`` ... ``fig17`` scenarios (seed 003, §5).

Configuration layout (every scenario), SI::

    model      = {name = "rough_contact", preset = "table1", patch_nx, patch_ny, surface_mx,
                  surface_sigma, surface_beta, surface_acf, surface_seed, ...}   # physics and geometry
    protocol   = {type = "velocity_steps", velocities [m/s], distances [m], normal_force_value [N]}
    integrator = {driver = "sliding", s_max, shift, ...}   # the driver's options: step control, solver, tolerances
    runs, axes = {...}   # the lists a figure runs over (axes.protocol.velocities [m/s], ...)
    analysis   = {...}   # what derive, the post step and the checks read (material sets by name, ...)

Every run goes through :func:`frictionlab.simulate` with the ``"sliding"`` driver; the
``[integrator]`` keys are its options (any of them may be set; an unknown one is refused). The
``[protocol]`` is a core :class:`~frictionlab.protocols.VelocitySteps` protocol; a scenario that
runs one velocity at a time has the axis ``axes.protocol.velocities`` of one-velocity lists. The normal force is the paper's 100 MPa on the patch (:func:`._common.force_on_patch`).
The analyses read the driver's SI results.

Quick profiles use a 64^2 patch (and its normal force at 100 MPa), correlation length beta = 5
(instead of 10, so that the small patch still holds tens of asperities) and 0.5 um of slip per
step; the paper sizes (512^2 on 1024 x 512, beta = 10, 0.25 per step) are the default (full)
profile. Velocity-dependent results shift with beta: a contact lives about beta/v, so at beta = 5
a velocity acts like twice that velocity on the paper's surface (``QUICK_VELOCITY_NOTE``, quoted
by the affected scenarios).

Single precision (issue 17): the paper-size profiles of the long runs (Figs. 13, 14) set
``integrator.sliding_fft_precision = "single"`` (:data:`SINGLE_SLIDING`): the sliding steps'
FFT products in float32, the loading in double at ``tol``; it applies to the Boussinesq runs
(the mean field has no FFT and runs double). Such a run is never silently less accurate: it
also slides a short control (:data:`PRECISION_CONTROL`) on the same surface in single and in
double precision (a study: a refinement round of :func:`precision_runs`, read by
:func:`precision_attrs`) and its checks include :func:`precision_checks`, which fails when the two
differ by more than the stated tolerance. The quick profiles stay in double precision.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import xarray as xr

from ...contact.rough.model import RoughContact
from ...core.errors import ConfigError
from ...protocols import make_protocol
from ...solve import simulate
from ._common import PRESSURE, UM, build_model, driver_options, force_on_patch

__all__ = ["MODEL", "INTEGRATOR", "PROTOCOL", "QUICK_BASE", "QUICK_VELOCITY_NOTE", "REFS", "build_model", "slide",
           "window_mean", "on_path", "SINGLE_SLIDING", "QUICK_DOUBLE", "PRECISION_CONTROL", "single_sliding",
           "precision_control", "precision_checks", "UM", "MOVED_SLIDING", "SLIP_TOL", "CONTROL_RUNS", "precision_runs",
           "precision_attrs", "run_sets"]

#: a 512^2 patch sliding over a 1024 x 512 rigid surface (paper §5, Table 1)
MODEL = {"name": "rough_contact", "preset": "table1", "patch_nx": 512, "patch_ny": 512, "surface_mx": 1024,
         "surface_sigma": 1.0 * UM, "surface_beta": 10.0 * UM, "surface_acf": "gaussian", "surface_seed": 0}
#: the protocol of every sliding scenario: velocity steps under the paper's 100 MPa on the 512^2 patch
PROTOCOL = {"type": "velocity_steps", "normal_force_value": force_on_patch(PRESSURE, 512)}
#: step control, as the options of the ``"sliding"`` driver of :func:`frictionlab.simulate`
#: (``s_max`` in element spacings, ``shift``; any other option of the driver may be added)
INTEGRATOR = {"driver": "sliding", "s_max": 0.25, "shift": "cubic"}
QUICK_BASE = {"model.patch_nx": 64, "model.patch_ny": 64, "model.surface_beta": 5.0 * UM, "integrator.s_max": 0.5,
              "protocol.normal_force_value": force_on_patch(PRESSURE, 64)}
QUICK_VELOCITY_NOTE = (" Quick: 64^2 with beta = 5; contacts live about beta/v, so a quick-profile velocity acts like "
                       "2x that velocity on the paper's beta = 10 surface.")
#: paper-size profile of the long sliding scenarios: float32 FFT products in the sliding steps
SINGLE_SLIDING = {"sliding_fft_precision": "single"}
#: their quick profile stays in double precision
QUICK_DOUBLE = {"integrator.sliding_fft_precision": "double"}
#: the control run of a single-precision scenario: slip [m] (from the t = 0+ state, at the
#: scenario's first velocity) and the largest allowed single - double differences over its
#: steps: per step mu, contact area relative to its largest value, dilatation [m], and the mean
#: of mu over the steps (what the windowed checks see). Measured over 300 steady steps
#: (``frictionlab/benchmarks/bench_rough_sliding.py precision``): 512^2 and 128^2 identical mu and area,
#: dilatation within 1e-7 um; 256^2 three steps of 300 with one or two contact elements
#: flipped at the solver tolerance (mu by <= 8e-4, area 1.6e-3, dilatation 1e-5 um; mean mu
#: difference 0). The tolerances admit such flips with a margin of 2.5-10 and lie far below
#: what the figures' checks compare (windowed means over hundreds of steps, steady-state mu
#: differences >= 1e-2 between velocities or paired runs).
PRECISION_CONTROL = {"slip": 10.0 * UM, "mu": 2e-3, "area_rel": 5e-3, "dilatation": 1e-4 * UM, "mu_mean": 1e-4}
#: round-off allowance of a slip window's edges [m] (1e-9 um)
SLIP_TOL = 1e-9 * UM
REFS = ["Hulikal, Lapusta & Bhattacharya (2015), JMPS 76, 44-63"]
#: former keys of the sliding scenarios (um, um/s, MPa) and where they went
MOVED_SLIDING = {"protocol.pressure_MPa": "the load is protocol.normal_force_value [N] (100 MPa on the 512 x 512 um "
                                          "patch = 26.2144 N)",
                 "protocol.v": "the velocity is protocol.velocities [m/s]",
                 "protocol.slip": "the slip is protocol.distances [m]",
                 "protocol.seg": "the slip of each velocity step is protocol.distances [m]"}


def run_sets(cfg: dict[str, Any]) -> dict[str, tuple[float, float]]:
    """``{name: (lambda, A)}`` [1/s] of the viscoelastic sets a study runs: the names of its input axis
    ``axes.analysis.set`` (every set when it has none), their values from ``analysis.sets``
    (``{name: [lambda, A]}``; every entry is checked, so a misshapen one is refused even when not run)."""
    sets = cfg["analysis"]["sets"]
    for name, value in sets.items():
        if not isinstance(value, (list, tuple)) or len(value) != 2:
            raise ConfigError(f"analysis.sets.{name} = {value!r}: a viscoelastic set is [lambda, A] [1/s]")
    names = ((cfg.get("axes") or {}).get("analysis") or {}).get("set", list(sets))
    missing = [n for n in names if n not in sets]
    if missing:
        raise ConfigError(f"axes.analysis.set names {missing[0]!r}, which analysis.sets does not have (its sets: "
                          f"{', '.join(sets)})")
    return {str(n): (float(sets[n][0]), float(sets[n][1])) for n in names}


def slide(cfg: dict[str, Any], model: RoughContact, velocities: list[float] | None = None,
          distances: list[float] | None = None, **options: Any) -> xr.Dataset:
    """Load at t = 0+ and slide through ``[protocol]``'s velocity steps with :func:`frictionlab.simulate`;
    ``velocities`` [m/s] and ``distances`` [m], when given, replace the protocol's (a run of a swept
    velocity, a same-path reference).

    ``options`` are driver options the scenario derives from its other sections (``snapshot_times``
    [s], ``probes``, ``pdf_after_slip`` [m]); the others come from ``[integrator]``. Returns the
    driver's SI result.
    """
    name, opts = driver_options(cfg, "sliding", **options)
    if model.interaction == "meanfield":
        opts.pop("sliding_fft_precision", None)  # no FFT: the mean field runs double (module notes)
    prot = dict(cfg["protocol"])
    if velocities is not None:
        prot["velocities"] = [float(v) for v in velocities]
    if distances is not None:
        prot["distances"] = [float(x) for x in distances]
    return simulate(model, make_protocol(prot), integrator=name, **opts)


def window_mean(ds: xr.Dataset, var: str, s_lo: float, s_hi: float) -> float:
    """Mean of ``var`` over samples with slip in ``[s_lo, s_hi]`` [m] (one sign of slip)."""
    s = ds.slip.values
    sel = (s >= min(s_lo, s_hi) - SLIP_TOL) & (s <= max(s_lo, s_hi) + SLIP_TOL)
    return float(np.mean(ds[var].values[sel]))


def on_path(ds: xr.Dataset, ref: xr.Dataset, var: str) -> np.ndarray:
    """``var`` of ``ref`` interpolated to the slip positions of ``ds`` (same rigid path)."""
    return np.interp(ds.slip.values, ref.slip.values, ref[var].values)


def single_sliding(cfg: dict[str, Any]) -> bool:
    """Whether ``[integrator]`` asks for single-precision sliding steps."""
    return (cfg.get("integrator") or {}).get("sliding_fft_precision", "double") == "single"


def precision_control(cfg: dict[str, Any], model: RoughContact, v: float) -> dict[str, float]:
    """Slide ``PRECISION_CONTROL["slip"]`` at ``v`` [m/s] from the t = 0+ state on the model's
    surface twice, with the configuration's ``sliding_fft_precision = "single"`` and in double
    precision; returns :func:`precision_attrs` of the two (a study runs them as
    :func:`precision_runs` instead)."""
    slip = float(PRECISION_CONTROL["slip"])
    single = slide(cfg, model, [v], [slip])
    dcfg = {**cfg, "integrator": {**(cfg.get("integrator") or {}), "sliding_fft_precision": "double"}}
    double = slide(dcfg, model, [v], [slip])
    return precision_attrs(single, double, v)


#: the labels of the control runs of a single-precision study (:func:`precision_runs`)
CONTROL_RUNS = ("precision_single", "precision_double")


def precision_runs(cfg: dict[str, Any], model: dict[str, Any], v: float) -> dict[str, Any]:
    """The control of a single-precision study as a refinement round (``Scenario.refine``): runs
    ``precision_single`` (the study's ``[integrator]``) and ``precision_double`` (the same in double
    precision), each ``PRECISION_CONTROL["slip"]`` at ``v`` [m/s] from the t = 0+ state under the
    ``[protocol]`` of ``cfg`` (the round's own ``[protocol]``, its load), the base ``[model]`` with ``model``
    over it (a set's ``lams``, ``As``)."""
    prot = {**cfg["protocol"], "velocities": [float(v)], "distances": [float(PRECISION_CONTROL["slip"])]}
    return {"protocol": prot, "runs": {"precision_single": {"model": dict(model)},
                                       "precision_double": {"model": dict(model),
                                                            "integrator": {"sliding_fft_precision": "double"}}}}


def precision_attrs(single: xr.Dataset, double: xr.Dataset, v: float) -> dict[str, float]:
    """The largest single - double differences of a control pair over its steps (mu, area relative to its
    largest value, dilatation [m]), the difference of the mean mu, and the tolerances, as dataset
    attributes for :func:`precision_checks`."""
    a_d, a_s = double.real_contact_area.values, single.real_contact_area.values
    return {"precision_control_steps": int(len(double.slip) - 1), "precision_control_v": float(v),
            "precision_control_mu": float(np.abs(double.friction_coefficient.values
                                                 - single.friction_coefficient.values).max()),
            "precision_control_area_rel": float(np.abs(a_d - a_s).max() / np.abs(a_d).max()),
            "precision_control_dilatation": float(np.abs(double.dilatation.values - single.dilatation.values).max()),
            "precision_control_mu_mean": abs(float(np.mean(double.friction_coefficient.values
                                                           - single.friction_coefficient.values))),
            **{f"precision_control_tol_{k}": float(x) for k, x in PRECISION_CONTROL.items() if k != "slip"}}


def precision_checks(ds: xr.Dataset) -> list:
    """The check of a single-precision run's control (:func:`precision_control`), if it has one."""
    from ..base import check

    at = ds.attrs
    if "precision_control_mu" not in at:
        return []
    keys = ("mu", "area_rel", "dilatation", "mu_mean")
    ok = all(at[f"precision_control_{k}"] <= at[f"precision_control_tol_{k}"] for k in keys)
    shown = {k: (1e6 if k == "dilatation" else 1.0) for k in keys}  # the dilatation in um
    names = {k: ("dilatation_um" if k == "dilatation" else k) for k in keys}
    return [check(f"single-precision sliding steps (sliding_fft_precision) match a double-precision control run "
                  f"({at['precision_control_steps']} steps at v = {at['precision_control_v'] * 1e6:g} um/s on the "
                  "same surface)",
                  ", ".join(f"|d {names[k]}| <= {at[f'precision_control_tol_{k}'] * shown[k]:g}" for k in keys),
                  ", ".join(f"{names[k]} {at[f'precision_control_{k}'] * shown[k]:.2e}" for k in keys), ok,
                  kind="verification")]
