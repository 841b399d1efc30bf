"""Scenario configuration: TOML load/dump, ``--set`` overrides, build objects, run.

A configuration is a nested dict::

    [model]       name = "lugre", preset = "canudas1995", sigma0 = 1e5, ...
    [protocol]    type = "constant_velocity", v = 1e-3, duration_s = 10
    [system]      type = "mass", mass = 1, stiffness = 2e3        (optional)
    [integrator]  method = "rk4", dt = 1e-5, save_dt = 1e-3       (optional)

Scenario-specific sections are allowed; overrides of keys that a section does not have are
refused with a suggestion (model/protocol/system keys are checked against the class fields).
"""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import Any

import tomli_w
import xarray as xr

from ..core.errors import ConfigError, suggest
from ..core.registry import get_model_class, make_model
from ..core.simulate import simulate
from ..protocols.base import _PROTOCOLS, make_protocol
from ..systems.base import _SYSTEMS, make_system

__all__ = ["parse_set", "apply_overrides", "load_toml", "dump_toml", "build", "run_config"]

_INTEGRATOR_KEYS = ("method", "dt", "t_end", "save_dt", "max_points", "rtol", "atol", "newmark_beta", "newmark_gamma",
                   "max_wall_time", "max_steps", "progress")


def parse_value(text: str) -> Any:
    """Parse a ``--set`` value as a TOML value (number, bool, list, string), else a bare string."""
    try:
        return tomllib.loads(f"v = {text}")["v"]
    except tomllib.TOMLDecodeError:
        return text


def parse_set(items: list[str]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise ConfigError(f"--set expects key=value, got {item!r}")
        key, value = item.split("=", 1)
        out[key.strip()] = parse_value(value.strip())
    return out


def _allowed_keys(section: str, table: dict[str, Any]) -> list[str] | None:
    """Keys a section accepts, or None when anything goes."""
    if section == "model" and "name" in table:
        return ["name", "preset", *get_model_class(table["name"]).field_names()]
    if section == "protocol" and table.get("type") in _PROTOCOLS:
        return ["type", *_PROTOCOLS[table["type"]].field_names()]
    if section == "system" and table.get("type") in _SYSTEMS:
        return ["type", *_SYSTEMS[table["type"]].field_names()]
    if section == "integrator":
        return list(_INTEGRATOR_KEYS)
    return None


def apply_overrides(cfg: dict[str, Any], overrides: dict[str, Any], strict: bool = True) -> dict[str, Any]:
    """Return a copy of ``cfg`` with dotted-key ``overrides`` applied (validated)."""
    cfg = copy.deepcopy(cfg)
    for key, value in overrides.items():
        parts = key.split(".")
        node = cfg
        for i, part in enumerate(parts[:-1]):
            if part not in node or not isinstance(node[part], dict):
                if strict and i == 0 and part not in ("model", "protocol", "system", "integrator"):
                    raise ConfigError(f"unknown config section {part!r} in {key!r}{suggest(part, list(node))}; sections: {', '.join(k for k, v in node.items() if isinstance(v, dict))}")
                node = node.setdefault(part, {})
            else:
                node = node[part]
        leaf = parts[-1]
        if strict and len(parts) == 1 and leaf not in node:
            raise ConfigError(f"unknown config key {key!r}{suggest(leaf, list(node))}")
        if strict and len(parts) >= 2 and leaf not in node:
            allowed = _allowed_keys(parts[0], node) if len(parts) == 2 else None
            if allowed is None:
                allowed = list(node)
            if leaf not in allowed:
                raise ConfigError(f"unknown key {key!r}{suggest(leaf, allowed)}; known: {', '.join(allowed)}")
        if strict and leaf in node and node[leaf] is not None and value is not None:
            old = node[leaf]
            if isinstance(old, bool) != isinstance(value, bool) or (
                isinstance(old, (int, float)) and not isinstance(old, bool) and not isinstance(value, (int, float))
            ) or (isinstance(old, str) and not isinstance(value, str)) or (isinstance(old, list) and not isinstance(value, list)):
                raise ConfigError(f"{key} = {value!r} has the wrong type: expected {type(old).__name__} like {old!r}")
        node[leaf] = value
    return cfg


def load_toml(path: str | Path) -> dict[str, Any]:
    path = Path(path)
    if not path.exists():
        raise ConfigError(f"scenario file {str(path)!r} does not exist")
    try:
        return tomllib.loads(path.read_text())
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None


def _clean(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {str(k): _clean(v) for k, v in obj.items() if v is not None}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if hasattr(obj, "item"):
        return obj.item()
    return obj


def dump_toml(cfg: dict[str, Any], scenario: str | None = None) -> str:
    data = _clean(cfg)
    if scenario:
        data = {"scenario": scenario, **data}
    return tomli_w.dumps(data)


def build(cfg: dict[str, Any]):
    """Build ``(model, protocol, system, integrator options)`` from a config."""
    if "model" not in cfg or "name" not in cfg["model"]:
        raise ConfigError("config needs a [model] table with a 'name'")
    m = dict(cfg["model"])
    model = make_model(m.pop("name"), m.pop("preset", None), **m)
    if "protocol" not in cfg:
        raise ConfigError("config needs a [protocol] table with a 'type'")
    protocol = make_protocol(cfg["protocol"])
    system = make_system(cfg.get("system"))
    integ = dict(cfg.get("integrator", {}))
    for k in integ:
        if k not in _INTEGRATOR_KEYS:
            raise ConfigError(f"unknown integrator option {k!r}{suggest(k, _INTEGRATOR_KEYS)}")
    integ.setdefault("method", "rk4")
    return model, protocol, system, integ


def run_config(cfg: dict[str, Any]) -> xr.Dataset:
    """Build and simulate a single model/protocol/system configuration."""
    model, protocol, system, integ = build(cfg)
    method = integ.pop("method")
    return simulate(model, protocol, system=system, integrator=method, **integ)
