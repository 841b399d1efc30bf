"""Shared helpers of the ``rough-contact/*`` scenarios (surfaces, models, decade metrics)."""

from __future__ import annotations

from typing import Any

import numpy as np
import xarray as xr

from ...contact.rough.driver import rigid_surface, to_paper_units
from ...contact.rough.model import RoughContact
from ...contact.rough.numerics import SolverOptions
from ...core.errors import ConfigError
from ...core.registry import make_model
from ...protocols import ConstantVelocity
from ...solve import simulate

#: the rough surface of the static scenarios: a square 512^2 patch over a 512^2 surface (Table 1)
MODEL = {"name": "rough_contact", "preset": "table1", "patch_nx": 512, "patch_ny": 512, "surface_mx": 512,
         "surface_sigma": 1.0, "surface_beta": 10.0, "surface_acf": "gaussian", "surface_seed": 0}
#: the static scenarios run the ``"hold"`` driver of :func:`frictionlab.simulate`
INTEGRATOR = {"driver": "hold", "per_decade": 40}


def quick_size(n: int) -> dict[str, int]:
    """Quick-profile overrides of a square ``n x n`` patch on an ``n x n`` surface."""
    return {"model.patch_nx": n, "model.patch_ny": n, "model.surface_mx": n}


def build_model(cfg: dict[str, Any], **over: Any) -> RoughContact:
    """The scenario's model: ``[model]`` (preset, physics and surface geometry) with ``over`` applied."""
    m = dict(cfg["model"])
    name = m.pop("name", "rough_contact")
    if name != "rough_contact":
        raise ConfigError(f"model.name = {name!r}: the rough-contact scenarios run the 'rough_contact' model "
                          "(Hulikal, Lapusta & Bhattacharya); set its parameters instead")
    preset = m.pop("preset", None)
    m.update(over)
    for k in ("lams", "As"):
        if k in m and isinstance(m[k], list):
            m[k] = tuple(m[k])
    return make_model("rough_contact", preset, **m)


def normal_force(cfg: dict[str, Any], model: RoughContact) -> float:
    """Normal force [N] of ``[protocol] pressure_MPa`` on the model's patch (nominal area ``nx ny dx^2``)."""
    area = model.patch_nx * model.patch_ny * (model.dx * 1e-6) ** 2
    return float(cfg["protocol"]["pressure_MPa"]) * 1e6 * area


def numerics(cfg: dict[str, Any]) -> SolverOptions:
    """The solver options of ``[integrator]`` (for the scenarios' direct solves)."""
    return SolverOptions.from_options(cfg.get("integrator") or {})


def surface(model: RoughContact) -> np.ndarray:
    """The rigid surface under the patch, ``patch_nx x patch_ny`` heights [um] (as the ``hold`` driver)."""
    return rigid_surface(model)[: model.patch_nx]


def driver_options(cfg: dict[str, Any], driver: str, **set_here: Any) -> tuple[str, dict[str, Any]]:
    """``[integrator]`` as ``(driver, options)`` for :func:`frictionlab.simulate`, with the options the
    scenario derives from its ``[protocol]`` (``set_here``) added; the driver must be ``driver`` and
    an option set both ways is refused (the scenario's value would replace it)."""
    integ = dict(cfg.get("integrator") or {})
    name = integ.pop("driver", driver)
    if name != driver:
        raise ConfigError(f"this scenario runs the {driver!r} driver of rough_contact; got integrator.driver = {name!r}")
    clash = sorted(set(integ) & set(set_here))
    if clash:
        raise ConfigError(f"integrator.{clash[0]} is set by this scenario from its [protocol] section; "
                          "change the [protocol] keys instead")
    return name, {**integ, **set_here}


def hold(cfg: dict[str, Any], model: RoughContact, t_end: float, pressure_MPa: float | None = None, *,
         si: bool = False, **options: Any) -> xr.Dataset:
    """A static hold at ``pressure_MPa`` (default ``[protocol] pressure_MPa``) to ``t_end`` [s] through
    :func:`frictionlab.simulate` (``"hold"`` driver, ``[integrator]`` options); the driver's SI result
    with ``si``, else in the paper's units (:func:`to_paper_units`) for analyses written in them."""
    if pressure_MPa is not None:
        cfg = {**cfg, "protocol": {**cfg["protocol"], "pressure_MPa": pressure_MPa}}
    prot = ConstantVelocity(v=0.0, duration_s=float(t_end), normal_force_value=normal_force(cfg, model))
    name, opts = driver_options(cfg, "hold", **options)
    ds = simulate(model, prot, integrator=name, **opts)
    return ds if si else to_paper_units(ds)


def value_at(ds: xr.Dataset, var: str, t: float) -> float:
    """Value at the first recorded time >= t."""
    tt = ds.time.values
    i = min(int(np.searchsorted(tt, t * (1 - 1e-9))), len(tt) - 1)
    return float(ds[var].values[i])


def growth_span_decades(t: np.ndarray, mu: np.ndarray, lo: float = 0.02, hi: float = 0.98) -> float:
    """Decades of log-time between ``lo`` and ``hi`` fractions of the total growth of ``mu``
    (t = 0 excluded); linear interpolation in log t."""
    sel = t > 0
    t, mu = t[sel], mu[sel]
    f = (mu - mu[0]) / (mu[-1] - mu[0]) if mu[-1] != mu[0] else np.zeros_like(mu)
    lt = np.log10(t)
    fm = np.maximum.accumulate(f)
    return float(np.interp(hi, fm, lt) - np.interp(lo, fm, lt))


def monotone(x: np.ndarray, sign: int, rtol: float = 1e-9) -> bool:
    dx = np.diff(x) * sign
    return bool(np.all(dx >= -rtol * np.max(np.abs(x))))


def growth_fraction(t: np.ndarray, mu: np.ndarray, t_lo: float, t_hi: float) -> float:
    """Fraction of the total growth of ``mu`` (from t=0+ to the end) that happens in [t_lo, t_hi]."""
    total = mu[-1] - mu[0]
    if total == 0:
        return 0.0
    return float((np.interp(t_hi, t, mu) - np.interp(t_lo, t, mu)) / total)


#: ``parallel`` section of the long rough-contact scenarios: independent runs (velocities,
#: material sets, interactions) go to ``workers`` processes; each process uses one FFT thread
PARALLEL = {"workers": 1}


def run_parallel(fn: Any, tasks: list[tuple], cfg: dict[str, Any], executor: Any = None) -> list[Any]:
    """``[fn(*t) for t in tasks]``, over ``cfg["parallel"]["workers"]`` forked processes when > 1, or on
    a dask cluster.

    ``fn`` must be a module-level function (it is pickled by reference); results come back in
    task order. The processes use one FFT thread each (``fft_workers = 0``, auto). Each run is
    independent and deterministic, so the results equal the serial ones.

    ``executor`` (:mod:`..executor`): None (default) is the cluster of ``frictionlab run|reproduce
    --scheduler`` when the CLI opened one (:func:`..executor.runs_on`), else
    :class:`~..executor.LocalProcesses` of ``parallel.workers``; a dask cluster runs every run as one
    task on its workers, whatever ``parallel.workers`` says.

    When the CLI or ``reproduce`` runs the scenario with ``--out`` (:mod:`..checkpoint`), each
    finished run is written at once, and runs already written by an interrupted earlier attempt
    are loaded instead of computed; the key of a run ignores the ``parallel`` section of ``cfg``
    (the worker count changes no result), so a resumed scenario may use another one, or a cluster.
    Without that context (API callers, tests) nothing is written. When a run raises, runs not yet
    started are cancelled, the ones in flight finish (and are written; on a cluster they are
    cancelled too), then the error is raised; on Ctrl-C the workers are terminated at once.
    """
    from ...core.errors import ConfigError
    from ..checkpoint import MISSING, active
    from ..executor import LocalProcesses
    from ..executor import active as active_cluster

    w = cfg.get("parallel", {}).get("workers", 1)
    if isinstance(w, bool) or not isinstance(w, int) or w < 1:
        raise ConfigError(f"parallel.workers = {w!r} must be a positive integer")
    store = active()
    if store is not None:
        keyed = [tuple({k: v for k, v in a.items() if k != "parallel"} if a is cfg else a for a in t) for t in tasks]
        keys, results = store.resume(fn, tasks, keyed)
    else:
        keys, results = [None] * len(tasks), [MISSING] * len(tasks)
    todo = [i for i, r in enumerate(results) if r is MISSING]

    def finished(i: int, value: Any) -> None:
        results[i] = value
        if store is not None and keys[i] is not None:
            store.save(keys[i], value)

    if todo:
        ex = executor or active_cluster() or LocalProcesses(w)
        ex.run(fn, [(i, tasks[i]) for i in todo], finished)
    return results
