"""Shared helpers of the ``rough-contact/*`` scenarios (surfaces, models, loads, decade metrics).

Configurations are SI (Hulikal, Lapusta & Bhattacharya 2015 compute in L* = 1 um, T* = 1 s, F*;
the model's drivers convert, :mod:`frictionlab.contact.rough.units`): ``[protocol]`` is a protocol
of :mod:`frictionlab.protocols` -- a hold (``constant_velocity`` at ``v = 0``) for the static
scenarios, ``velocity_steps`` for the sliding ones -- whose ``normal_force_value`` [N] is the
nominal pressure of the paper (100 MPa) times the patch area (:func:`force_on_patch`): a quick
profile on a smaller patch sets the force of that patch. The results are the drivers' SI results
and the checks read them in SI (printing lengths in um, the paper's scale).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import xarray as xr

from ...contact.rough.driver import rigid_surface
from ...contact.rough.model import RoughContact
from ...contact.rough.numerics import SolverOptions
from ...core.errors import ConfigError
from ...core.registry import make_model
from ...protocols import make_protocol
from ...solve import simulate

#: metres per micrometre, the paper's length scale L* (a config value written ``5.0 * UM`` is the
#: double whose conversion gives the kernel exactly the paper's 5 um)
UM = 1e-6
#: the rough surface of the static scenarios: a square 512^2 patch over a 512^2 surface (Table 1: rms
#: height 1 um, correlation length 10 um; the model's parameters are SI)
MODEL = {"name": "rough_contact", "preset": "table1", "patch_nx": 512, "patch_ny": 512, "surface_mx": 512,
         "surface_sigma": 1.0 * UM, "surface_beta": 10.0 * UM, "surface_acf": "gaussian", "surface_seed": 0}
#: the static scenarios run the ``"hold"`` driver of :func:`frictionlab.simulate`
INTEGRATOR = {"driver": "hold", "per_decade": 40}
#: the paper's nominal pressure [Pa] (Sects. 4, 5: 100 MPa)
PRESSURE = 100e6


def force_on_patch(pressure: float, n: int, dx: float = UM) -> float:
    """Normal force [N] of the nominal ``pressure`` [Pa] on an ``n x n`` patch of spacing ``dx`` [m]
    (default the paper's 1 um)."""
    return pressure * (n * n * dx**2)


def patch_pressure(model: RoughContact, force: float) -> float:
    """Nominal pressure [Pa] of the normal ``force`` [N] on the model's patch."""
    return force / (model.patch_nx * model.patch_ny * model.dx**2)


def hold_protocol(duration_s: float, n: int = 512) -> dict[str, Any]:
    """``[protocol]`` of a static scenario: a hold of ``duration_s`` [s] at 100 MPa on the ``n x n`` patch."""
    return {"type": "constant_velocity", "v": 0.0, "duration_s": float(duration_s),
            "normal_force_value": force_on_patch(PRESSURE, n)}


def quick_size(n: int) -> dict[str, Any]:
    """Quick-profile overrides of a square ``n x n`` patch on an ``n x n`` surface, at the same pressure."""
    return {"model.patch_nx": n, "model.patch_ny": n, "model.surface_mx": n,
            "protocol.normal_force_value": force_on_patch(PRESSURE, n)}


#: a former key of the static scenarios and where it went
MOVED_HOLD = {"protocol.pressure_MPa": "[protocol] is a constant_velocity hold; its load is protocol.normal_force_value "
                                       "[N] (100 MPa on the 512 x 512 um patch = 26.2144 N)",
              "protocol.t_end": "the hold lasts protocol.duration_s [s]"}


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


def numerics(cfg: dict[str, Any]) -> SolverOptions:
    """The solver options of ``[integrator]`` (for the scenarios' direct solves)."""
    return SolverOptions.from_options(cfg.get("integrator") or {})


def surface(model: RoughContact) -> np.ndarray:
    """The rigid surface under the patch, ``patch_nx x patch_ny`` heights [um] (as the ``hold`` driver)."""
    return rigid_surface(model)[: model.patch_nx]


def driver_options(cfg: dict[str, Any], driver: str, **set_here: Any) -> tuple[str, dict[str, Any]]:
    """``[integrator]`` as ``(driver, options)`` for :func:`frictionlab.simulate`, with the options the
    scenario derives from its other sections (``set_here``) added; the driver must be ``driver`` and
    an option set both ways is refused (the scenario's value would replace it)."""
    integ = dict(cfg.get("integrator") or {})
    name = integ.pop("driver", driver)
    if name != driver:
        raise ConfigError(f"this scenario runs the {driver!r} driver of rough_contact; "
                          f"got integrator.driver = {name!r}")
    clash = sorted(set(integ) & set(set_here))
    if clash:
        raise ConfigError(f"integrator.{clash[0]} is set by this scenario from its other sections; "
                          "change those keys instead")
    return name, {**integ, **set_here}


#: ``derived`` entry of a ported scenario: the study's runs are of the rough-contact model whatever
#: ``model.name`` would say (another model's name would replace the section, none of its keys read)
MODEL_NAME = {"model.name": "the parameters of the 'rough_contact' model (Hulikal, Lapusta & Bhattacharya), which "
                            "these scenarios run"}


def one_driver(point: Any, driver: str) -> None:
    """Refuse a study point (:class:`~frictionlab.solve.study.Point`) whose ``integrator.driver`` is not
    ``driver``: a scenario's checks read what that driver records (called from the scenario's ``derive``)."""
    name = (point["integrator"] or {}).get("driver", driver)
    if name != driver:
        raise ConfigError(f"this scenario runs the {driver!r} driver of rough_contact; "
                          f"got integrator.driver = {name!r}")


def runs_driver(driver: str) -> Any:
    """The ``derive`` of a scenario that computes no key: it refuses a run of another driver than ``driver``."""
    def derive(point: Any, cfg: dict[str, Any]) -> dict[str, Any]:
        one_driver(point, driver)
        return {}
    return derive


def point_model(result: Any, index: int = 0) -> RoughContact:
    """The model of the ``index``-th point of a study result (a post step reading its surface or sizes)."""
    return build_model(result.points[index].config)


def combined(result: Any, cfg: dict[str, Any]) -> xr.Dataset:
    """The post step of a scenario whose dataset is its runs combined and whose ``[analysis]`` only
    its ``derive`` and checks read."""
    return result.combine()


def hold(cfg: dict[str, Any], model: RoughContact, *, duration_s: float | None = None, **options: Any) -> xr.Dataset:
    """The hold of ``[protocol]`` (to ``duration_s`` [s] when given) through :func:`frictionlab.simulate`
    (``"hold"`` driver, ``[integrator]`` options and ``options``); the driver's SI result."""
    prot = dict(cfg["protocol"])
    if duration_s is not None:
        prot["duration_s"] = float(duration_s)
    name, opts = driver_options(cfg, "hold", **options)
    return simulate(model, make_protocol(prot), integrator=name, **opts)


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


#: ``moved`` entry of the scenarios of many independent runs: the worker count is an execution option
MOVED_PARALLEL = {"parallel": "the worker count changes no result, so it is no key of the scenario: it is an execution "
                              "option, frictionlab run|reproduce --workers N (Python: "
                              "frictionlab.scenarios.executor.runs_on(workers=N))"}


def run_parallel(fn: Any, tasks: list[tuple], cfg: dict[str, Any], executor: Any = None) -> list[Any]:
    """``[fn(*t) for t in tasks]`` through :func:`..executor.run_tasks`: local processes (the count of
    ``frictionlab run|reproduce --workers N``, :func:`..executor.runs_on`; default 1) or the dask
    cluster of ``--scheduler``, each finished run kept in the partial store (an interrupted
    ``run``/``reproduce --out`` resumes).

    ``fn`` must be a module-level function (it is pickled by reference); results come back in
    task order. The processes use one FFT thread each (``fft_workers = 0``, auto). Each run is
    independent and deterministic, so the results equal the serial ones.

    ``executor`` (:mod:`..executor`): None (default) is the cluster of ``--scheduler`` when the CLI
    opened one, else :class:`~..executor.LocalProcesses`. The key of a run hashes its task (``cfg``
    itself where a task holds it); the worker count is not in ``cfg``, so a resumed scenario may use
    another one, or a cluster. Errors and Ctrl-C as :func:`..executor.run_tasks`.
    """
    from ..executor import run_tasks

    refuse_parallel_section(cfg)
    return run_tasks(fn, tasks, executor=executor)


def refuse_parallel_section(cfg: dict[str, Any]) -> None:
    """A config still holding the former ``[parallel]`` section (an API caller's) is refused with the pointer."""
    if "parallel" in cfg:
        raise ConfigError(f"[parallel]: {MOVED_PARALLEL['parallel']}")
