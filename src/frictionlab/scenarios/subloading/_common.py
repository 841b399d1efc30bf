"""Shared helpers of the ``subloading/*`` scenarios (model construction, grids, checks)."""

from __future__ import annotations

from typing import Any

import numpy as np
import xarray as xr

from ...core.errors import ConfigError
from ...core.registry import make_model, presets_of
from ...protocols.base import make_protocol
from ...systems.base import make_system
from ...solve import simulate
from ...laws.subloading import Subloading, SubloadingRate, c_from_mm_mpa

MM = 1e-3  # m per mm
MPA = 1e6  # Pa per MPa
REFERENCE = "Ozaki, Matsuura & Maegawa (2020), Friction 8(4) 768-783, doi:10.1007/s40544-019-0322-2"


#: ``Scenario.derived`` of a ported subloading scenario: its study runs the subloading model, another name is refused
MODEL_NAME = {"model.name": "the parameters of the 'subloading' model (Ozaki et al. 2020), which these scenarios run"}


def model_overrides(cfg: dict[str, Any]) -> dict[str, Any]:
    """The ``[model]`` parameters set over its preset; ``name`` must be ``"subloading"`` (the scenarios
    build the subloading model and its rate form; another name would be ignored)."""
    name = cfg["model"].get("name", "subloading")
    if name != "subloading":
        raise ConfigError(f"model.name = {name!r}: the subloading scenarios run the 'subloading' model (Ozaki et al. "
                          "2020) and its rate form; set its parameters instead")
    return {k: v for k, v in cfg["model"].items() if k not in ("name", "preset")}


def models(cfg: dict[str, Any], **changes: Any) -> tuple[Subloading, SubloadingRate]:
    """The return-mapping model and its rate-form reference from the ``model`` section."""
    m = cfg["model"]
    over = {**model_overrides(cfg), **changes}
    return (make_model("subloading", m.get("preset"), **over),
            make_model("subloading_rate", m.get("preset"), **over))


def swept_model_key(cfg: dict[str, Any], key: str, instead: str) -> None:
    """Refuse a ``[model]`` value of ``key`` that a sweep replaces (a dumped TOML carries the preset's
    value, which is accepted; any other value would be silently ignored)."""
    m = cfg["model"]
    if key not in m:
        return
    preset = presets_of(m["name"]).get(m.get("preset")) if m.get("preset") else None
    default = preset.params.get(key) if preset is not None else None
    if default is None or m[key] != default:
        raise ConfigError(f"model.{key} = {m[key]!r}: this scenario sets {key} itself from {instead}; "
                          f"set {instead} instead")


def with_c_mm(cfg: dict[str, Any], c_mm: float) -> dict[str, Any]:
    """Model changes setting ``c`` given in MPa (s/mm)^d (converted with the model's ``d``)."""
    m, _ = models(cfg)
    return {"c": c_from_mm_mpa(c_mm, m.d)}


def protocol_from(cfg: dict[str, Any], **fields: Any):
    """The ``[protocol]`` table as a protocol, with ``fields`` (the swept ones) set over it."""
    return make_protocol({**cfg["protocol"], **fields})


def run_integrator(model, protocol, cfg: dict[str, Any], **changes: Any) -> xr.Dataset:
    """``simulate`` with the ``[integrator]`` table (``driver``, ``dt``, ``save_dt``, ``t_end`` and
    that driver's options, e.g. ``du_max`` [m] of ``prescribed``), ``changes`` set over it."""
    table = {**cfg.get("integrator", {}), **changes}
    driver = table.pop("driver", None)
    return simulate(model, protocol, system=make_system(cfg.get("system")), integrator=driver, **table)


def reference(model: SubloadingRate, protocol, cfg: dict[str, Any], vmax: float) -> xr.Dataset:
    """The rate-form reference of the ``[reference]`` table: ``driver`` ``"rk4"`` (the core's
    compiled RK4, ``dt = du / vmax``) or ``"rate_reference"`` (RK4 with the normal-stress
    rate as input), slip increments ``du`` [m]."""
    ref = cfg["reference"]
    du = float(ref["du"])
    if ref["driver"] == "rate_reference":
        return simulate(model, protocol, integrator="rate_reference", du=du)
    return simulate(model, protocol, integrator=ref["driver"], dt=du / vmax)


def slide_duration(point: dict[str, Any], cfg: dict[str, Any]) -> dict[str, float]:
    """``derive`` of a slide from rest over ``analysis.slide`` [m] at ``protocol.v``: its duration."""
    return {"protocol.duration_s": float(cfg["analysis"]["slide"]) / float(point["protocol"]["v"])}


def rate_step(point: dict[str, Any], du: float, vmax: float) -> dict[str, float]:
    """The step of a rate-form reference run at slip increments ``du`` [m]: ``integrator.dt = du / vmax``
    for the core ``rk4``, ``integrator.du`` for ``rate_reference`` (RK4 with the normal-stress rate as input)."""
    if point["integrator"]["driver"] == "rate_reference":
        return {"integrator.du": float(du)}
    return {"integrator.dt": float(du) / vmax}


def result_has(result: Any, label: str, v: float) -> bool:
    """Whether run ``label`` of a study result ran at ``protocol.v = v`` (rel. 1e-9)."""
    return any(p.label == label and abs(dict(p.coords)["protocol.v"] - v) <= 1e-9 * abs(v) for p in result.points)


def on_grid(x: np.ndarray, y: np.ndarray, grid: np.ndarray) -> np.ndarray:
    return np.interp(grid, np.asarray(x, dtype=float), np.asarray(y, dtype=float))


def rel(a: float, b: float) -> float:
    return abs(a - b) / max(abs(b), 1e-300)


def peaks(t: np.ndarray, y: np.ndarray, min_drop: float) -> np.ndarray:
    """Indices of local maxima of ``y`` followed by a drop of at least ``min_drop``."""
    idx = []
    i = 1
    n = len(y)
    while i < n - 1:
        if y[i] >= y[i - 1] and y[i] > y[i + 1]:
            j = i + 1
            while j < n and y[j] <= y[i]:
                if y[i] - y[j] >= min_drop:
                    idx.append(i)
                    break
                j += 1
            i = j
        else:
            i += 1
    return np.asarray(idx, dtype=int)


def hertz_area(W: float, radius: float = 10e-3, E: float = 1.2e6, nu: float = 0.5) -> float:
    """Apparent contact area pi a^2 of a sphere on a rigid flat, a = (3 W R / (4 E*))^(1/3),
    E* = E / (1 - nu^2) [m^2] (Sec. 5.2: "derived from Hertz's contact theory" with E = 1.2 MPa, nu = 0.5;
    the PMMA plate read as rigid)."""
    e_star = E / (1.0 - nu * nu)
    a = (3.0 * W * radius / (4.0 * e_star)) ** (1.0 / 3.0)
    return float(np.pi * a * a)


def hertz_area_of(W: float, contact: dict[str, Any]) -> float:
    """:func:`hertz_area` of load ``W`` [N] for an ``analysis.contact`` table (``radius`` [m],
    ``youngs_modulus`` [Pa], ``poisson_ratio``)."""
    return hertz_area(W, contact["radius"], contact["youngs_modulus"], contact["poisson_ratio"])


def hertz_stress(W: float, contact: dict[str, Any]) -> float:
    """Normal stress W / A_a [Pa] of load ``W`` [N] over its Hertz area (:func:`hertz_area_of`)."""
    return float(W) / hertz_area_of(W, contact)


def point_model(point: Any):
    """The model of a study point (its ``[model]`` section with the values derive or an axis set)."""
    m = dict(point.config["model"])
    return make_model(m.pop("name"), m.pop("preset", None), **m)
