r"""One protocol, many models: the same input programme through every registered model.

:func:`compare` is a loop of plain :func:`frictionlab.simulate` calls: for each model name it
builds ``make_model(name, preset, **params)`` and runs
``simulate(model, protocol, system=system, integrator=..., dt=..., save_dt=..., **options)``
with the settings of its row in :data:`SETUPS` (a declarative table; a model without a row
runs with its defaults and its default driver). It returns one :class:`xarray.Dataset` with a
``model`` dimension, every model interpolated onto a common time grid (segment by segment, so
that no interpolated sample straddles a velocity jump; the grid contains the jump times):

* ``friction_coefficient`` [1], ``friction_force``, ``slip`` [m], ``slip_velocity`` [m/s],
  ``normal_force`` over ``(model, time)`` (forces in N, or Pa for stress-based models: see
  ``force_units``);
* ``status`` over ``model``: ``"ok"`` or the one-line reason the run failed (a model that
  cannot take the protocol -- the driver's or ``simulate``'s error -- is kept, filled with NaN,
  and reported, never silently dropped);
* ``flag`` over ``model``: ``""`` or why a run that finished looks implausible
  (:func:`plausibility`: non-finite values, a friction coefficient above :data:`MU_IMPLAUSIBLE`,
  or no steady state at the end of the last constant-velocity piece), shown in the figure;
* per-model measurements on each model's *own* output (:mod:`frictionlab.analysis.response`):
  ``direct_effect``, ``peak_after_step``, ``steady_after_step``, ``mu_reference``,
  ``hold_peaks`` over ``(model, hold)``; and the model's own expectations where it has them:
  ``steady_expected`` (its steady-state curve ``friction_curve`` at the new velocity) and
  ``direct_expected`` (a rate law's friction with its state frozen at the step, evaluated at
  the new velocity minus at the old one; or the jump the model's driver records
  itself, ``direct_effect_expected`` over ``jump``);
* rate-and-state parameters fitted to each response (:func:`frictionlab.fit.rsf_prescribed.fit_rsf`):
  ``rsf_mu_ref``, ``rsf_a``, ``rsf_b``, ``rsf_dc`` and their standard errors ``*_stderr``
  (NaN where the fit reports the parameter undetermined) plus ``rsf_fit_percent``.

The runs and the measurements are two steps that the ``classic/compare-*`` scenarios share with
:func:`compare`: :func:`run_table` is a model's run as a partial four-section config (a named
run of a study, :mod:`frictionlab.solve.study`; :func:`setup_run` the same run as objects), and
:func:`assemble` turns the runs (:class:`Outcome`: a dataset, or the reason the run failed) into
the Dataset above.

Common rules (the same for every model): rows with ``steps`` run with a fixed step ``dt`` on
which every protocol breakpoint falls (:func:`fixed_step`); a stress-based model
(``force_units == "Pa"``) runs the protocol with its normal load replaced by the model's
typical normal stress (``typical_inputs["normal_force"]``) and does not run in a force-based
system.
"""

from __future__ import annotations

import math
import time as _time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any

import numpy as np
import xarray as xr

from ..core.base import AbstractLaw
from ..core.errors import ConfigError, ParameterError, suggest
from ..core.registry import make_model, model_names
from ..protocols.base import AbstractProtocol
from ..solve import simulate
from .response import first_velocity_change, hold_peaks, hold_windows, interp_segments, step_response, time_grid

__all__ = ["QuickFull", "Setup", "SETUPS", "model_list", "setup_run", "run_table", "run_model", "Outcome",
           "compare", "assemble", "check_law", "fixed_step", "rsf_table",
           "format_table", "plausibility", "MU_IMPLAUSIBLE", "DRIFT_WINDOW", "DRIFT_TOLERANCE", "DEFAULT_PROTOCOLS",
           "build_protocol"]

#: variables every run returns (over ``time``)
STANDARD = ("slip", "slip_velocity", "friction_force", "normal_force", "friction_coefficient")

#: the fields of a protocol type that the command line sets none of (velocity steps: those of the
#: compare-velocity-step scenario)
DEFAULT_PROTOCOLS = {
    "velocity_steps": {"velocities": [1e-4, 1e-3], "durations": [1.0, 1.0]},
    "slide_hold_slide": {"v": 1e-3, "slide_duration": 0.2, "holds": [0.1, 1.0, 10.0]},
}


def build_protocol(kind: str, fields: Mapping[str, Any] | None = None) -> AbstractProtocol:
    """The protocol of type ``kind`` (``frictionlab compare PROTOCOL``): its :data:`DEFAULT_PROTOCOLS`
    fields, updated by ``fields``."""
    from ..protocols import make_protocol

    return make_protocol({"type": kind, **DEFAULT_PROTOCOLS.get(kind, {}), **(fields or {})})


@dataclass(frozen=True)
class QuickFull:
    """A setting that differs between the quick and the full profile."""

    quick: Any
    full: Any

    def pick(self, quick: bool) -> Any:
        return self.quick if quick else self.full


def _pick(values: Mapping[str, Any], quick: bool) -> dict[str, Any]:
    return {k: (v.pick(quick) if isinstance(v, QuickFull) else v) for k, v in values.items()}


@dataclass(frozen=True)
class Setup:
    """How :func:`compare` runs one registered model (one row of :data:`SETUPS`).

    Attributes
    ----------
    preset : preset name given to :func:`~frictionlab.core.registry.make_model` (None: defaults)
    params : parameter overrides (values may be :class:`QuickFull`)
    integrator : driver name (None: the model's default driver for the system)
    options : that driver's options (values may be :class:`QuickFull`)
    steps : fixed number of steps over the protocol (``dt`` from :func:`fixed_step`, every step
        saved); None: the driver chooses its step
    saved : number of saved samples over the protocol (``save_dt = duration / saved``); None: the driver's
    start_steady : name of the parameter that sets the velocity of the initial steady state; it
        is given the protocol's first slip speed
    description : model, parameter set and driver, shown in the result
    """

    preset: str | None = None
    params: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    integrator: str | None = None
    options: Mapping[str, Any] = field(default_factory=lambda: MappingProxyType({}))
    steps: QuickFull | None = QuickFull(10_000, 40_000)
    saved: QuickFull | None = None
    start_steady: str | None = None
    description: str = ""


#: the compare settings of each model (declarative; models not listed run with their defaults)
SETUPS: dict[str, Setup] = {
    "coulomb": Setup(description="Coulomb mu = 0.5 (exact sign law)"),
    "stribeck": Setup("canudas1995", {"normal_scaling": True},
                      description="static Stribeck curve, Canudas de Wit et al. 1995 values (normal-scaled)"),
    "dahl": Setup("unit", {"normal_scaling": True}, description="Dahl (1968), sigma0 = 1e5 N/m, fc = 1 (normal-scaled)"),
    "lugre": Setup("canudas1995", {"normal_scaling": True},
                   description="LuGre, Canudas de Wit et al. 1995 values (normal-scaled)"),
    "gms": Setup("four-element", {"normal_scaling": True},
                 description="generalised Maxwell-slip, four elements (normal-scaled); element forces are frozen at "
                             "zero slip rate"),
    "rate_state": Setup("granite-typical", {"form": "arcsinh", "law": "aging"}, start_steady="v_init",
                        description="Dieterich-Ruina aging law, granite-typical (a 0.010, b 0.015, Dc 10 um), arcsinh "
                                    "form, steady at the first velocity"),
    "rate_state2": Setup(start_steady="v_init", description="two-state rate-and-state law, default parameters, "
                                                            "steady at the first velocity"),
    "kloss": Setup("fig4a", {"normal_scaling": True},
                   description="Kloss law, Martinez Molina 2025 Fig. 4(a) (f_max 1, v_max0 0.01 m/s, zeta 0.5)"),
    "kloss_dynamic": Setup("fig8", description="dynamic Kloss law (first-order lag), Martinez Molina 2025 Fig. 8"),
    "subloading": Setup("common", description="subloading friction (Ozaki et al. 2020) Sec. 4 set, return mapping, "
                                              "f_n = 0.3 MPa"),
    "subloading_rate": Setup("common", description="subloading friction (Ozaki et al. 2020) Sec. 4 set, explicit "
                                                   "rate form, f_n = 0.3 MPa"),
    "microjunction": Setup(integrator="ensemble", options={"n_junctions": QuickFull(200, 1000)}, steps=None,
                           saved=QuickFull(2000, 8000),
                           description="creeping Jackson-Green microjunction ensemble (Goedecke 2013), 200/1000 "
                                       "junctions; friction from creep under the normal load only: the contact "
                                       "area creeps for as long as the load lasts (slip renews no junction), so "
                                       "the friction coefficient grows without a steady state"),
    "beam_network": Setup("vf60-calibrated", steps=None, saved=QuickFull(1000, 4000),
                          description="MLBNM beam network (vf60-calibrated), one constant stage velocity"),
    "rough_contact": Setup("table1", {"patch_nx": QuickFull(32, 64), "patch_ny": QuickFull(32, 64),
                                      "surface_mx": QuickFull(256, 512), "surface_beta": 5.0 * 1e-6,  # m (5 um)
                                      "surface_wrap": True},
                           integrator="sliding", options={"s_max": QuickFull(1.0, 0.5)}, steps=None,
                           description="rough-contact asperity ensemble sliding (Hulikal et al. 2015), table1; "
                                       "32^2 (quick) / 64^2 (full) patch on a periodic surface"),
}


#: a friction coefficient above this is flagged as implausible for the dry contacts compared here
MU_IMPLAUSIBLE = 2.0
#: the end of the last constant-velocity piece that must be steady: this fraction of the piece
DRIFT_WINDOW = 0.25
#: drift over that window (linear trend) flagged when above this, absolute and relative to the mean
#: level, and above three times the scatter about the trend (so that noise is not a drift)
DRIFT_TOLERANCE = (0.02, 0.05)


def plausibility(mu: np.ndarray, time: np.ndarray, protocol: AbstractProtocol) -> str:
    """Why a finished run's friction coefficient looks wrong, or ``""``.

    Flags (fixed beforehand, the same for every model): non-finite values; ``max |mu|`` above
    :data:`MU_IMPLAUSIBLE`; and, where the protocol ends with a piece of constant velocity, a
    linear trend over the last :data:`DRIFT_WINDOW` of that piece whose change exceeds both
    :data:`DRIFT_TOLERANCE` bounds and three times the scatter about it (no steady state: the
    result depends on how long the protocol lasts)."""
    mu = np.asarray(mu, dtype=float)
    if not np.all(np.isfinite(mu)):
        return f"non-finite friction coefficient at {int(np.sum(~np.isfinite(mu)))} of {mu.size} samples"
    reasons = []
    peak = float(np.max(np.abs(mu))) if mu.size else 0.0
    if peak > MU_IMPLAUSIBLE:
        reasons.append(f"friction coefficient reaches {peak:.3g} (> {MU_IMPLAUSIBLE:g})")
    last = protocol.segments()[-1]
    if last.velocity is not None and last.t_end > last.t_start:
        t0 = last.t_end - DRIFT_WINDOW * (last.t_end - last.t_start)
        sel = (time >= t0) & (time <= last.t_end)
        if np.count_nonzero(sel) >= 5:
            tt, yy = time[sel], mu[sel]
            slope, icpt = np.polyfit(tt - tt[0], yy, 1)
            drift = slope * (tt[-1] - tt[0])
            scatter = float(np.std(yy - (icpt + slope * (tt - tt[0]))))
            limit = max(DRIFT_TOLERANCE[0], DRIFT_TOLERANCE[1] * abs(float(np.mean(yy))))
            if abs(drift) > limit and abs(drift) > 3 * scatter:
                reasons.append(f"no steady state: changes by {drift:+.3g} over the last {tt[-1] - tt[0]:.3g} s at "
                               "constant velocity (the result depends on the run length)")
    return "; ".join(reasons)


def fixed_step(protocol: AbstractProtocol, n: int) -> float:
    """Fixed step [s]: the largest 1, 2 or 5 x 10^k below ``duration / n`` on which every protocol
    breakpoint falls (so that jumps land on steps), else ``duration / n``."""
    target = float(protocol.duration) / n
    edges = np.asarray((0.0, *protocol.breakpoints, float(protocol.duration)))
    k = math.floor(math.log10(target))
    for dt in sorted((m * 10.0 ** e for e in (k - 1, k) for m in (1.0, 2.0, 5.0)), reverse=True):
        if dt <= target * (1 + 1e-12) and np.all(np.abs(edges / dt - np.round(edges / dt)) < 1e-6):
            return dt
    return target


def model_list(models: Sequence[str] | str | None) -> list[str]:
    """The registered model names ``models`` stands for: None, ``"all"`` or ``["all"]``: every registered model.

    Raises
    ------
    ConfigError
        An empty list, another string than ``"all"``, or a name that is not registered (with a suggestion).
    """
    known = model_names()
    if models is None or models == "all" or (isinstance(models, Sequence) and list(models) == ["all"]):
        return list(known)
    if isinstance(models, str) or not isinstance(models, Sequence):
        raise ConfigError(f"models = {models!r}: \"all\" or a list of registered model names"[:200])
    names = [str(n) for n in models]
    if not names:
        raise ConfigError("compare: empty model list")
    for n in names:
        if n not in known:
            raise ConfigError(f"unknown model {n!r} for compare{suggest(n, known)}; known: {', '.join(known)}")
    return names


def _model_table(name: str, protocol: AbstractProtocol, quick: bool) -> dict[str, Any]:
    """``{"name", "preset", **params}`` of ``SETUPS[name]`` (the start velocity from the protocol)."""
    setup = SETUPS.get(name, Setup())
    table = {"name": name, **({"preset": setup.preset} if setup.preset is not None else {}),
             **_pick(setup.params, quick)}
    if setup.start_steady is not None:
        v = protocol.segments()[0].velocity
        if v:
            table[setup.start_steady] = abs(float(v))
    return table


def setup_run(name: str, protocol: AbstractProtocol, quick: bool, system: Any) -> tuple[Any, AbstractProtocol, dict]:
    """The model, the protocol it runs and the keyword arguments of its ``simulate`` call."""
    setup = SETUPS.get(name, Setup())
    params = _model_table(name, protocol, quick)
    params.pop("name")
    model = make_model(name, params.pop("preset", None), **params)
    if model.force_units == "Pa":
        if system is not None:
            raise ConfigError(f"{name} is stress-based (Pa); it does not run in the force-based system "
                              f"{system.type_name!r}")
        try:
            protocol = protocol.replace(normal_force_value=float(model.typical_inputs["normal_force"]))
        except ParameterError as exc:
            raise ConfigError(f"{name} is stress-based (Pa): protocol {protocol.type_name!r} has no constant "
                              "normal load to replace by its typical normal stress") from exc
    kw: dict[str, Any] = {"integrator": setup.integrator, **_pick(setup.options, quick)}
    if setup.steps is not None:
        n = setup.steps.pick(quick)
        kw["dt"] = fixed_step(protocol, n)
        kw["max_points"] = int(round(float(protocol.duration) / kw["dt"])) + 2
    if setup.saved is not None:
        kw["save_dt"] = float(protocol.duration) / setup.saved.pick(quick)
    return model, protocol, kw


def run_table(name: str, protocol: AbstractProtocol, quick: bool = True) -> dict[str, dict[str, Any]]:
    """The run of model ``name`` under ``protocol`` as a partial four-section config (a study's named
    run: :mod:`frictionlab.solve.study`): ``[model]`` (preset and parameters of ``SETUPS[name]``),
    ``[integrator]`` (its driver, options and step) and, for a stress-based model, the protocol's
    ``normal_force_value`` replaced by its typical normal stress -- the same run as :func:`run_model`.

    Raises
    ------
    ConfigError
        A stress-based model and a protocol without a constant normal load.
    """
    _, proto, kw = setup_run(name, protocol, quick, None)
    driver = kw.pop("integrator")
    table: dict[str, dict[str, Any]] = {"model": _model_table(name, protocol, quick),
                                        "integrator": {**({"driver": driver} if driver is not None else {}), **kw}}
    if proto is not protocol:
        table["protocol"] = {"normal_force_value": float(proto.normal_force_value)}
    return table


def run_model(name: str, protocol: AbstractProtocol, quick: bool = True, system: Any = None) -> xr.Dataset:
    """``simulate(make_model(name, ...), protocol, ...)`` with the settings of ``SETUPS[name]``."""
    model, proto, kw = setup_run(name, protocol, quick, system)
    return simulate(model, proto, system=system, **kw)


def _expectations(model: Any, proto: AbstractProtocol, ds: xr.Dataset, resp: dict) -> dict[str, float]:
    """The steady state and direct effect at the first velocity change (module docstring) of ``model``
    as it ran ``proto`` (the stress-based models' normal stress in place of the compared protocol's load)."""
    ch = first_velocity_change(proto)
    if ch is None:
        return {}
    v1 = ch[2]
    fn = float(proto.normal_force(np.array([ch[0]]))[0])
    out: dict[str, float] = {}
    curve = getattr(model, "friction_curve", None)
    if curve is not None:
        out["steady_expected"] = float(curve(np.array([v1]), fn)[0]) / fn
    if ds.sizes.get("jump", 0) and "direct_effect_expected" in ds and np.isfinite(ds.direct_effect_expected.values[0]):
        # the driver's own record of the jump (same state, new velocity)
        out["direct_effect"] = float(ds.mu_after.values[0] - ds.mu_before.values[0])
        out["direct_expected"] = float(ds.direct_effect_expected.values[0])
    elif isinstance(model, AbstractLaw) and "i_before" in resp:
        i0, i1 = resp["i_before"], resp["i_step"]
        state = np.array([float(ds[s].values[i1]) for s in model.state_names])  # the state at the step
        va, vb = float(ds.slip_velocity.values[i0]), float(ds.slip_velocity.values[i1])
        out["direct_expected"] = (model.friction(0.0, state, vb, fn) - model.friction(0.0, state, va, fn)) / fn
    return out


def compare(protocol: AbstractProtocol, models: Sequence[str] | None = None, quick: bool = True, *,
            fit: bool = True, law: str = "aging", n_grid: int | None = None, fit_noise: float = 0.0,
            seed: int = 0, system: Any = None) -> xr.Dataset:
    """Run ``protocol`` through each model of ``models`` (default: every registered model).

    Parameters
    ----------
    protocol : a protocol object, shared unchanged by every model
    models : registered model names; unknown names raise :class:`ConfigError` with suggestions
    quick : the quick profile of :data:`SETUPS` (1e4 fixed steps instead of 4e4, smaller ensembles and patches)
    fit : fit the RSF law to each model's response (needs a piecewise-constant velocity)
    law : evolution law of the fitted RSF model (``"aging"`` or ``"slip"``)
    n_grid : points of the common time grid (default 2001 quick, 8001 full)
    fit_noise, seed : standard deviation [1] of seeded Gaussian noise added to each record
        before the RSF fit (0: fit the noise-free output), and its seed
    system : host the models in this system (e.g. ``frictionlab.systems.spring_slider(...)``)
        instead of prescribed slip; the protocol velocity then drives the load point. The RSF
        fit and the step measurements (which assume prescribed slip) are skipped.

    Returns
    -------
    xarray.Dataset over ``(model, time)`` (see module docstring); ``attrs["failed"]`` lists
    the models that did not run, with the reason in ``status``.
    """
    if not isinstance(protocol, AbstractProtocol):
        raise ConfigError(f"compare needs a protocol object, got {type(protocol).__name__}")
    names = model_list(models)
    check_law(law)
    outcomes = []
    for name in names:
        t0 = _time.perf_counter()
        try:
            model, proto, kw = setup_run(name, protocol, quick, system)
            ds = simulate(model, proto, system=system, **kw)
        except Exception as exc:  # noqa: BLE001 - reported per model, never dropped
            outcomes.append(Outcome(name, None, f"{type(exc).__name__}: {exc}"))
            continue
        outcomes.append(Outcome(name, ds, seconds=_time.perf_counter() - t0, model=model, protocol=proto))
    return assemble(protocol, outcomes, quick, fit=fit, law=law, n_grid=n_grid, fit_noise=fit_noise, seed=seed,
                    system=system)


def check_law(law: str) -> None:
    """Refuse an evolution law of the fitted RSF model other than ``"aging"`` and ``"slip"``."""
    if law not in ("aging", "slip"):
        raise ConfigError(f"compare: law = {law!r} must be 'aging' or 'slip'")


@dataclass(frozen=True)
class Outcome:
    """One model's run under the compared protocol: its dataset, or the one-line reason it did not run
    (``"ConfigError: ..."``), its wall time [s], and the model and protocol it ran (whose own closed
    forms are the expectations; a stress-based model ran the protocol with its normal stress)."""

    name: str
    ds: xr.Dataset | None
    error: str = ""
    seconds: float = math.nan
    model: Any = None
    protocol: AbstractProtocol | None = None


def assemble(protocol: AbstractProtocol, outcomes: Sequence[Outcome], quick: bool = True, *, fit: bool = True,
             law: str = "aging", n_grid: int | None = None, fit_noise: float = 0.0, seed: int = 0,
             system: Any = None) -> xr.Dataset:
    """The comparison Dataset of :func:`compare` from each model's run (its measurements, the model's own
    expectations and the RSF fit; the parameters as in :func:`compare`): the step after the runs, shared
    by :func:`compare` and the ``classic/compare-*`` scenarios, whose runs are a study."""
    from ..fit.rsf_prescribed import fit_rsf

    check_law(law)
    names = [o.name for o in outcomes]
    grid = time_grid(protocol, n_grid or (2001 if quick else 8001))
    seg_edges = np.asarray((0.0, *protocol.breakpoints, float(protocol.duration)))
    nm, ng = len(names), grid.size
    arrays = {v: np.full((nm, ng), np.nan) for v in STANDARD}
    status, seconds, force_units = [], np.full(nm, np.nan), []
    diag_keys = ("direct_effect", "direct_expected", "peak_after_step", "steady_after_step", "steady_expected",
                 "mu_reference")
    diags = {k: np.full(nm, np.nan) for k in diag_keys}
    n_holds = len(hold_windows(protocol))
    peaks = np.full((nm, max(n_holds, 1)), np.nan)
    fit_keys = ("mu_ref", "a", "b", "dc")
    fits = {f"rsf_{k}{s}": np.full(nm, np.nan) for k in fit_keys for s in ("", "_stderr")}
    fits["rsf_fit_percent"] = np.full(nm, np.nan)
    fit_status, flags = [], []
    for i, o in enumerate(outcomes):
        ds = o.ds
        if ds is None:
            status.append(f"failed: {o.error}")
            fit_status.append("not run")
            force_units.append("")
            flags.append("")
            continue
        seconds[i] = o.seconds
        status.append("ok")
        for v in STANDARD:
            if v in ds:
                arrays[v][i] = interp_segments(grid, ds.time.values, ds[v].values, seg_edges)
        flags.append(plausibility(ds.friction_coefficient.values, ds.time.values, protocol)
                     if "friction_coefficient" in ds else "no friction_coefficient in the result")
        force_units.append(str(ds.friction_force.attrs.get("units", "N")) if "friction_force" in ds else "")
        if system is None:
            resp = step_response(ds, protocol)
            resp.update(_expectations(o.model, o.protocol, ds, resp))
            for k in diag_keys:
                if k in resp:
                    diags[k][i] = resp[k]
            if n_holds:
                peaks[i, :n_holds] = hold_peaks(ds, protocol)
        if not fit:
            fit_status.append("not requested")
        elif system is not None:
            fit_status.append("skipped: the RSF closed form assumes prescribed slip")
        else:
            try:
                f = fit_rsf(ds, protocol, law=law, noise=fit_noise, seed=seed)
                for k in fit_keys:
                    if k in f.free_:
                        fits[f"rsf_{k}"][i] = f.params_[k]
                        fits[f"rsf_{k}_stderr"][i] = f.stderr_[k]
                fits["rsf_fit_percent"][i] = f.fit_percent_
                fit_status.append("ok")
            except Exception as exc:  # noqa: BLE001
                fit_status.append(f"failed: {type(exc).__name__}: {exc}")
    out = _assemble(protocol, names, grid, arrays, status, seconds, force_units, diags, peaks if n_holds else None,
                    fits, fit_status, quick=quick, law=law, fit_noise=fit_noise, seed=seed, system=system)
    out["flag"] = ("model", flags)
    out.attrs["flagged"] = ", ".join(n for n, f in zip(names, flags) if f)
    return out


def _assemble(protocol, names, grid, arrays, status, seconds, force_units, diags, peaks, fits, fit_status, *,
              quick, law, fit_noise, seed, system) -> xr.Dataset:
    units = {v: "1" for v in STANDARD}
    units.update(slip="m", slip_velocity="m/s", friction_force="N", normal_force="N")
    out = xr.Dataset(coords={"model": ("model", names), "time": ("time", grid, {"units": "s"})})
    for v in STANDARD:
        out[v] = (("model", "time"), arrays[v], {"units": units[v]})
    out["friction_force"].attrs["units"] = "N (Pa for stress-based models, see force_units)"
    out["normal_force"].attrs["units"] = "N (Pa for stress-based models, see force_units)"
    out["force_units"] = ("model", force_units)
    out["status"] = ("model", status)
    out["description"] = ("model", [SETUPS.get(n, Setup()).description or f"{n}, default parameters" for n in names])
    out["run_seconds"] = ("model", seconds, {"units": "s"})
    for k, arr in diags.items():
        out[k] = ("model", arr, {"units": "1"})
    if peaks is not None:
        holds = [h1 - h0 for h0, h1, _ in hold_windows(protocol)]
        out = out.assign_coords(hold=("hold", np.asarray(holds, dtype=float), {"units": "s"}))
        out["hold_peaks"] = (("model", "hold"), peaks, {"units": "1"})
    for k, arr in fits.items():
        out[k] = ("model", arr, {"units": "m" if k.startswith("rsf_dc") else ("%" if k.endswith("percent") else "1")})
    out["rsf_fit_status"] = ("model", fit_status)
    out.attrs.update({
        "protocol": protocol.type_name, "system": "prescribed_slip" if system is None else system.type_name,
        "quick": int(bool(quick)), "rsf_law": law, "rsf_fit_noise": fit_noise, "rsf_fit_seed": seed,
        "failed": ", ".join(n for n, s in zip(names, status) if s != "ok"),
        **{f"protocol.{k}": v for k, v in _flat_attrs(protocol).items()},
    })
    ch = first_velocity_change(protocol)
    if ch is not None:
        out.attrs.update({"step_time": ch[0], "v_before": ch[1], "v_after": ch[2], "ref_time": ch[0]})
    windows = hold_windows(protocol)
    if windows:
        out.attrs["ref_time"] = float(windows[0][0])
    return out


def _flat_attrs(protocol: AbstractProtocol) -> dict[str, Any]:
    out = {}
    for k, v in protocol.attrs().items():
        out[k] = (np.asarray(v, dtype=float) if len(v) else "()") if isinstance(v, (tuple, list)) else v
    return out


# --------------------------------------------------------------------------- the fitted RSF table
def rsf_table(ds: xr.Dataset) -> list[dict[str, Any]]:
    """The fitted RSF parameters as rows ``{model, a, a_stderr, b, ..., fit_percent, status}``."""
    rows = []
    for i, m in enumerate(ds.model.values):
        row: dict[str, Any] = {"model": str(m), "status": str(ds.status.values[i]),
                               "fit": str(ds.rsf_fit_status.values[i])}
        for k in ("mu_ref", "a", "b", "dc"):
            row[k] = float(ds[f"rsf_{k}"].values[i])
            row[f"{k}_stderr"] = float(ds[f"rsf_{k}_stderr"].values[i])
        row["fit_percent"] = float(ds.rsf_fit_percent.values[i])
        rows.append(row)
    return rows


def format_table(ds: xr.Dataset, width: int = 118) -> str:
    """Plain-text table of the RSF fit (value ± standard error; "not determined" where the fit says so).

    A model that did not run, whose fit failed or whose run is flagged (``flag``) gets a numbered
    note under the table, wrapped at ``width`` characters, so that no line runs off a figure."""
    import textwrap

    lines = [f"{'model':<16} {'a':>22} {'b':>22} {'D_c [um]':>24} {'FIT %':>8}  status"]
    notes: list[str] = []
    flags = [str(f) for f in ds["flag"].values] if "flag" in ds else [""] * ds.sizes["model"]

    def note(text: str) -> str:
        notes.append(text)
        return f"[{len(notes)}]"

    for r, flag in zip(rsf_table(ds), flags):
        mark = f" {note(r['model'] + ': ' + flag)}" if flag else ""
        if r["status"] != "ok" or r["fit"] != "ok":
            why = "did not run" if r["status"] != "ok" else "fit failed"
            text = r["status"] if r["status"] != "ok" else "fit " + r["fit"]
            lines.append(f"{r['model']:<16} {'-':>22} {'-':>22} {'-':>24} {'-':>8}  {why} "
                         f"{note(r['model'] + ': ' + text)}{mark}")
            continue
        lines.append(f"{r['model']:<16} {_pm(r['a'], r['a_stderr'], 1e-7):>22} {_pm(r['b'], r['b_stderr'], 1e-7):>22} "
                     f"{_pm(r['dc'] * 1e6, r['dc_stderr'] * 1e6, 1e-4):>24} {_pct(r['fit_percent']):>8}  ok{mark}")
    for i, text in enumerate(notes, 1):
        lines += textwrap.wrap(text, width=width, initial_indent=f"[{i}] ", subsequent_indent="    ")
    return "\n".join(lines)


def _pm(x: float, se: float, lower: float | None = None) -> str:
    if not math.isfinite(x):
        return "n/a (fixed)"
    if lower is not None and x <= lower * 1.0001:
        return f"<= {lower:.0e} (at bound)"
    if not (math.isfinite(se) and se > 0):
        return f"{x:.4g} (not determined)"
    return f"{x:.4g} ± {se:.2g}"


def _pct(x: float) -> str:
    return f"{x:.2f}" if math.isfinite(x) and x > -1e4 else "n/a"
