"""Scenario configuration: TOML load/dump, ``--set`` overrides, build objects, run.

A configuration is a nested dict with four sections::

    [model]       name = "lugre", preset = "canudas1995", sigma0 = 1e5, ...   (parameters)
    [protocol]    type = "constant_velocity", v = 1e-3, duration_s = 10       (its fields)
    [system]      type = "mass", mass = 1, stiffness = 2e3                   (optional)
    [integrator]  driver = "rk4", dt = 1e-5, t_end = 5, save_dt = 1e-3, ...  (optional)

``[integrator]`` names a driver of the model (:func:`frictionlab.solve.drivers_for`; default
the model's default driver) and holds ``dt``, ``t_end``, ``save_dt`` [s] and that driver's
options only (e.g. ``rtol`` for ``radau``). A scenario may add sections of its own for what
is truly scenario-specific; a plain TOML file run by ``frictionlab run FILE.toml`` has the
four sections only. Overrides are strict: an unknown section or key is a
:class:`ConfigError` with a suggestion, never silently added (model/protocol/system keys
are checked against the class fields, integrator keys against the driver's options).
"""

from __future__ import annotations

import copy
import tomllib
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import ConfigError, suggest
from ..core.registry import get_model_class, make_model, presets_of
from ..protocols.base import _PROTOCOLS, make_protocol
from ..systems.base import _SYSTEMS, make_system, system_names

if TYPE_CHECKING:
    import xarray as xr

    from .drivers import Driver

__all__ = ["SECTIONS", "INTEGRATOR_KEYS", "parse_set", "flatten", "apply_overrides", "load_toml", "dump_toml", "build",
           "run_config", "config_driver", "expand_preset", "MOVED_SECTIONS", "refuse_moved_sections"]

#: the sections of a run configuration
SECTIONS = ("model", "protocol", "system", "integrator")
#: keys of ``[integrator]`` common to every driver (the driver's options come on top)
INTEGRATOR_KEYS = ("driver", "dt", "t_end", "save_dt")
#: sections of the former vocabulary: using one is a ConfigError saying where its keys went
MOVED_SECTIONS = {
    "drive": "[protocol] (the stage programme: type = \"constant_velocity\", v [m/s], duration_s [s]); "
             "time steps and schemes are [integrator] keys",
}


def refuse_moved_sections(keys: Any) -> None:
    """Raise :class:`ConfigError` with a pointer for a section of :data:`MOVED_SECTIONS` among ``keys``."""
    for key in keys:
        if key in MOVED_SECTIONS:
            raise ConfigError(f"config section [{key}] is gone: its keys are {MOVED_SECTIONS[key]}")


#: deepest nesting of lists/tables accepted in a value or a scenario file
MAX_DEPTH = 32


def _depth(value: Any) -> int:
    """Nesting depth of lists/dicts in ``value`` (iterative: no recursion limit)."""
    depth, level = 0, [value]
    while level:
        nxt = [v for x in level for v in (x.values() if isinstance(x, dict) else x if isinstance(x, list) else ())]
        depth += 1
        level = nxt
    return depth - 1


def parse_value(text: str) -> Any:
    """Parse a ``--set`` value as a TOML value (number, bool, list, string), else a bare string.

    Raises
    ------
    ConfigError
        A value nested deeper than :data:`MAX_DEPTH` or an integer too large for a float.
    """
    if _raw_depth(text) > MAX_DEPTH:
        raise ConfigError(f"value {text[:40]!r}... is nested deeper than {MAX_DEPTH} levels")
    try:
        value = tomllib.loads(f"v = {text}")["v"]
    except (tomllib.TOMLDecodeError, RecursionError):
        return text
    if _depth(value) > MAX_DEPTH:
        raise ConfigError(f"value {text[:40]!r}... is nested deeper than {MAX_DEPTH} levels")
    _check_ints(value, "value")
    return value


def _check_ints(value: Any, where: str) -> None:
    """Refuse integers no float can hold (e.g. 400 digits): they overflow in every model."""
    stack = [value]
    while stack:
        x = stack.pop()
        if isinstance(x, dict):
            stack.extend(x.values())
        elif isinstance(x, list):
            stack.extend(x)
        elif isinstance(x, int) and not isinstance(x, bool) and abs(x) > 2 ** 1023:
            raise ConfigError(f"{where[:60]}: integer with {len(str(abs(x)))} digits is too large for a number "
                              "(the largest is about 1.8e308)")


def parse_set(items: list[str]) -> dict[str, Any]:
    """Parse ``--set key=value`` items into ``{dotted key: value}``.

    Raises
    ------
    ConfigError
        An item without ``=``, with an empty key or an empty part in a dotted key.
    """
    out: dict[str, Any] = {}
    for item in items:
        if "=" not in item:
            raise ConfigError(f"--set expects key=value, got {item!r}")
        key, value = item.split("=", 1)
        key = key.strip()
        if not key or any(not p.strip() for p in key.split(".")):
            raise ConfigError(f"--set {item!r}: the key must be dotted names like model.a")
        out[key] = parse_value(value.strip())
    return out


def config_driver(cfg: dict[str, Any]) -> Driver:
    """The driver a config runs: ``[integrator] driver``, else the model's default for its system."""
    if "model" not in cfg or "name" not in cfg["model"]:
        raise ConfigError("config needs a [model] table with a 'name'")
    from .drivers import default_driver, driver_for

    cls = get_model_class(cfg["model"]["name"])
    integ = cfg.get("integrator") or {}
    if "method" in integ:
        raise ConfigError("[integrator] key 'method' is now 'driver' (e.g. driver = \"rk4\")")
    if integ.get("driver"):
        return driver_for(cls, str(integ["driver"]))
    system = make_system(cfg.get("system"))
    # a scenario-specific [protocol] table (no 'type', e.g. the rough sliding figures) is not a protocol
    protocol = make_protocol(cfg["protocol"]) if "type" in (cfg.get("protocol") or {}) else None
    return default_driver(cls, system, protocol)


def _allowed_keys(section: str, table: dict[str, Any], cfg: dict[str, Any]) -> list[str] | None:
    """Keys a section accepts, or None when anything goes."""
    if section == "model" and "name" in table:
        return ["name", "preset", *get_model_class(table["name"]).field_names()]
    kind = table.get("type")
    if section == "protocol" and isinstance(kind, str) and kind in _PROTOCOLS:
        return ["type", *_PROTOCOLS[table["type"]].field_names()]
    if section == "system" and isinstance(kind, str) and system_names() and kind in _SYSTEMS:
        return ["type", *_SYSTEMS[table["type"]].field_names()]
    if section == "integrator":
        if "model" in cfg and "name" in cfg["model"] and "method" not in table:
            try:
                return [*INTEGRATOR_KEYS, *config_driver(cfg).options]
            except ConfigError:  # a model without drivers (yet): only the keys the section has
                return None
        return None if "method" in table else list(INTEGRATOR_KEYS)
    return None


def _refuse_driver_option_as_model_key(section: str, node: dict[str, Any], key: str, leaf: str) -> None:
    """A ``model.X`` where X is an option of one of the model's drivers (numerics that left the model)."""
    if section != "model" or not isinstance(node.get("name"), str):
        return
    from .drivers import drivers_for

    owners = [d.name for d in drivers_for(get_model_class(node["name"])).values() if leaf in d.options]
    if owners:
        raise ConfigError(f"{key} is not a model parameter: it is an option of driver {owners[0]!r}; "
                          f"set integrator.{leaf} instead")


def flatten(cfg: dict[str, Any], prefix: str = "") -> dict[str, Any]:
    """``{dotted key: value}`` of a nested config's leaves (the inverse of :func:`apply_overrides`)."""
    out: dict[str, Any] = {}
    for k, v in cfg.items():
        if isinstance(v, dict):
            out.update(flatten(v, f"{prefix}{k}."))
        else:
            out[f"{prefix}{k}"] = v
    return out


def apply_overrides(cfg: dict[str, Any], overrides: dict[str, Any], strict: bool = True) -> dict[str, Any]:
    """Return a copy of ``cfg`` with dotted-key ``overrides`` applied (validated)."""
    cfg = copy.deepcopy(cfg)
    for key, value in overrides.items():
        parts = key.split(".")
        if strict and parts[0] in ("runs", "axes") and isinstance(cfg.get(parts[0]), dict):
            _check_study_key(cfg, parts, value)
            strict_here = False  # checked against the run's (or the base's) sections just now
        else:
            strict_here = strict
        node = cfg
        for i, part in enumerate(parts[:-1]):
            if part in node and not isinstance(node[part], dict):
                raise ConfigError(f"cannot set {key!r}: {'.'.join(parts[:i + 1])} is a value "
                                  f"({node[part]!r}), not a table")
            if part not in node:
                if i == 0:
                    refuse_moved_sections([part])
                if strict_here and i == 0 and part not in SECTIONS:
                    raise ConfigError(f"unknown config section {part!r} in {key!r}{suggest(part, list(node))}; sections: {', '.join(k for k, v in node.items() if isinstance(v, dict))}")
                node = node.setdefault(part, {})
            else:
                node = node[part]
        leaf = parts[-1]
        if strict_here and len(parts) == 1 and leaf not in node:
            raise ConfigError(f"unknown config key {key!r}{suggest(leaf, list(node))}")
        if strict_here and len(parts) >= 2 and leaf not in node:
            allowed = _allowed_keys(parts[0], node, cfg) if len(parts) == 2 else None
            if allowed is None:
                allowed = list(node)
            if leaf not in allowed:
                _refuse_driver_option_as_model_key(parts[0], node, key, leaf)
                raise ConfigError(f"unknown key {key!r}{suggest(leaf, allowed)}; known: {', '.join(allowed)}")
        if isinstance(node.get(leaf), dict) and not isinstance(value, dict):
            raise ConfigError(f"cannot set {key!r} to {value!r}: it is a table; set its keys instead "
                              f"(e.g. {key}.{next(iter(node[leaf]), 'name')}=...)")
        if strict_here and leaf in node and node[leaf] is not None and value is not None:
            old = node[leaf]
            if isinstance(old, bool) != isinstance(value, bool) or (
                isinstance(old, (int, float)) and not isinstance(old, bool) and not isinstance(value, (int, float))
            ) or (isinstance(old, str) and not isinstance(value, str)) or (isinstance(old, list) and not isinstance(value, list)):
                raise ConfigError(f"{key} = {value!r} has the wrong type: expected {type(old).__name__} like {old!r}")
        node[leaf] = value
    return cfg


def _check_study_key(cfg: dict[str, Any], parts: list[str], value: Any) -> None:
    """Validate ``runs.LABEL.SECTION.KEY`` against that run's merged config and ``axes.SECTION.KEY``
    (a list) against the base config, as :func:`apply_overrides` checks a run configuration's keys
    (a study, :mod:`frictionlab.solve.study`)."""
    from .study import merge_run

    base = {s: cfg[s] for s in SECTIONS if isinstance(cfg.get(s), dict)}
    key = ".".join(parts)
    if parts[0] == "runs":
        runs = cfg["runs"]
        if len(parts) < 3 or parts[1] not in runs:
            label = parts[1] if len(parts) > 1 else ""
            raise ConfigError(f"{key}: no run {label!r}{suggest(label, list(runs))}; runs: {', '.join(runs)}; "
                              "set runs.LABEL.SECTION.KEY")
        if parts[2] not in (*SECTIONS, "axes") or len(parts) < 4:
            raise ConfigError(f"{key}: a run's keys are runs.{parts[1]}.SECTION.KEY with SECTION one of "
                              f"{', '.join(SECTIONS)}, or its own axes{suggest(parts[2], (*SECTIONS, 'axes'))}")
        merged = merge_run(base, {s: t for s, t in runs[parts[1]].items() if isinstance(t, dict)})
        if parts[2] == "axes":
            _check_axis(key, parts[3:], value, [merged])
        else:
            apply_overrides(merged, {".".join(parts[2:]): value})
        return
    axis = ".".join(parts[1:])
    runs = [t for t in (cfg.get("runs") or {}).values()
            if isinstance(t, dict) and axis not in flatten(t.get("axes") or {})] or [{}]
    # an axis applies to every run without its own axis of that key: each must have the key
    _check_axis(key, parts[1:], value, [merge_run(base, {s: t for s, t in run.items() if isinstance(t, dict)})
                                        for run in runs])


def _check_axis(key: str, parts: list[str], value: Any, configs: list[dict[str, Any]]) -> None:
    """An axis ``SECTION.KEY = [values]`` (``parts``) is a non-empty list whose every value each of
    ``configs`` accepts."""
    from .study import INPUT_SECTION

    if len(parts) < 2 or parts[0] not in (*SECTIONS, INPUT_SECTION):
        raise ConfigError(f"{key}: an axis is axes.SECTION.KEY = [values] with SECTION one of {', '.join(SECTIONS)}"
                          f", or an input axis axes.{INPUT_SECTION}.KEY{suggest(parts[0] if parts else '', SECTIONS)}")
    if not isinstance(value, list) or not value:
        raise ConfigError(f"{key} = {value!r} must be a non-empty list of values"[:200])
    if parts[0] == INPUT_SECTION:
        return  # read by the study's derive step, which must read it (Study.points)
    for merged in configs:
        for v in value:
            apply_overrides(merged, {".".join(parts): v})


#: largest scenario TOML file read (a scenario file is a few kB; this bounds a mistaken or hostile one)
MAX_TOML_BYTES = 16 * 2 ** 20


def load_toml(path: str | Path) -> dict[str, Any]:
    """Read a scenario TOML file.

    Raises
    ------
    ConfigError
        The file is missing, a directory or not a regular file, larger than
        :data:`MAX_TOML_BYTES`, unreadable, not UTF-8, not valid TOML, nested
        deeper than :data:`MAX_DEPTH`, or holds an integer too large for a float.
    """
    path = Path(path)
    if not path.exists():
        raise ConfigError(f"scenario file {str(path)!r} does not exist")
    if path.is_dir():
        raise ConfigError(f"scenario file {str(path)!r} is a directory, not a TOML file")
    if not path.is_file():  # a FIFO would block the read forever, a device never end
        raise ConfigError(f"scenario file {str(path)!r} is not a regular file (a pipe, socket or device)")
    try:
        if path.stat().st_size > MAX_TOML_BYTES:
            raise ConfigError(f"scenario file {str(path)!r} is {path.stat().st_size:,} bytes, more than the "
                              f"{MAX_TOML_BYTES:,} a scenario file may have")
        text = path.read_bytes().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ConfigError(f"{path}: not UTF-8 text (byte {exc.start}); save the scenario file as UTF-8") from None
    except OSError as exc:
        raise ConfigError(f"cannot read scenario file {str(path)!r}: {exc.strerror or exc}") from None
    if _raw_depth(text) > MAX_DEPTH:
        raise ConfigError(f"{path}: values nested deeper than {MAX_DEPTH} levels")
    try:
        cfg = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ConfigError(f"{path}: invalid TOML: {exc}") from None
    except RecursionError:
        raise ConfigError(f"{path}: values nested deeper than {MAX_DEPTH} levels") from None
    if _depth(cfg) > MAX_DEPTH + 1:
        raise ConfigError(f"{path}: values nested deeper than {MAX_DEPTH} levels")
    _check_ints(cfg, str(path))
    if "scenario" in cfg and not isinstance(cfg["scenario"], str):
        raise ConfigError(f"{path}: scenario = {cfg['scenario']!r} must be a scenario name (a string)"[:200])
    for section in ("model", "protocol", "system", "integrator"):
        if section in cfg and not isinstance(cfg[section], dict):
            raise ConfigError(f"{path}: {section} = {cfg[section]!r} must be a table ([{section}])"[:200])
    return cfg


def _raw_depth(text: str) -> int:
    """Deepest bracket nesting in ``text`` (a cheap bound before the parser recurses)."""
    depth = best = 0
    for ch in text:
        if ch in "[{":
            depth += 1
            best = max(best, depth)
        elif ch in "]}":
            depth = max(0, depth - 1)
    return best


def _clean(obj: Any) -> Any:
    if isinstance(obj, dict):
        return {str(k): _clean(v) for k, v in obj.items() if v is not None}
    if isinstance(obj, (list, tuple)):
        return [_clean(v) for v in obj]
    if hasattr(obj, "item"):
        return obj.item()
    return obj


def expand_preset(cfg: dict[str, Any], leave_out: Any = ()) -> tuple[dict[str, Any], str | None]:
    """Replace ``[model] preset`` by the preset's values (the section's own keys win), except the
    preset's keys in ``leave_out`` (the ones a study sets for every run itself: never read in the base).

    Returns ``(config, comment)`` where ``comment`` names the preset and its source, or
    ``None`` when the config has no preset. The model built from the result equals the one
    built from ``cfg`` (:func:`~frictionlab.core.registry.make_model` applies the preset,
    then the section's keys, the same way).
    """
    m = cfg.get("model")
    if not isinstance(m, dict) or "preset" not in m or "name" not in m:
        return cfg, None
    name, preset = m["name"], m["preset"]
    presets = presets_of(name)
    if preset not in presets:
        raise ConfigError(f"model {name!r} has no preset {preset!r}{suggest(str(preset), presets)}; "
                          f"known: {', '.join(sorted(presets)) or 'none'}")
    ps = presets[preset]
    own = {k: v for k, v in m.items() if k not in ("name", "preset")}
    out = copy.deepcopy(cfg)
    out["model"] = {"name": name, **{k: v for k, v in ps.params.items() if k not in own and k not in leave_out},
                    **own}
    src = ps.source + (f", doi:{ps.doi}" if ps.doi else "")
    return out, f"preset {preset!r} of {name!r} ({src}); keys set over it: {', '.join(own) or 'none'}"


def dump_toml(cfg: dict[str, Any], scenario: str | None = None, *, expand: bool = False,
              leave_out: Any = ()) -> str:
    """TOML text of ``cfg``; with ``expand`` the model preset is written as its values (but those
    of ``leave_out``), its name and source as a comment under ``[model]``."""
    comment = None
    if expand:
        cfg, comment = expand_preset(cfg, leave_out)
    data = _clean(cfg)
    if scenario:
        data = {"scenario": scenario, **data}
    import tomli_w

    text = tomli_w.dumps(data)
    if comment:
        text = text.replace("[model]\n", f"[model]\n# {comment}\n", 1)
    return text


def check_sections(cfg: dict[str, Any]) -> None:
    """Refuse top-level keys other than :data:`SECTIONS` (and ``scenario``), with a suggestion."""
    refuse_moved_sections(cfg)
    for key in cfg:
        if key not in (*SECTIONS, "scenario"):
            raise ConfigError(f"unknown config section {key!r}{suggest(key, SECTIONS)}; sections: {', '.join(SECTIONS)}")


def build(cfg: dict[str, Any]):
    """Build ``(model, protocol, system, integrator)`` from a config.

    ``integrator`` is a dict ``{"driver": name, "dt", "t_end", "save_dt", **options}`` with
    the driver resolved (:func:`config_driver`) and its keys checked against that driver.
    """
    if "model" not in cfg or "name" not in cfg["model"]:
        raise ConfigError("config needs a [model] table with a 'name'")
    m = dict(cfg["model"])
    model = make_model(m.pop("name"), m.pop("preset", None), **m)
    if "protocol" not in cfg:
        raise ConfigError("config needs a [protocol] table with a 'type'")
    protocol = make_protocol(cfg["protocol"])
    system = make_system(cfg.get("system"))
    drv = config_driver(cfg)
    integ = dict(cfg.get("integrator") or {})
    integ.pop("driver", None)
    common = {k: integ.pop(k) for k in ("dt", "t_end", "save_dt") if k in integ}
    from .drivers import check_options

    options = check_options(drv, integ)
    given = {k: v for k, v in options.items() if k in integ}
    return model, protocol, system, {"driver": drv.name, **common, **given}


def run_config(cfg: dict[str, Any], *, strict: bool = False) -> xr.Dataset:
    """Build and simulate a single model/protocol/system configuration.

    With ``strict``, sections other than the four of a run configuration are refused
    (``frictionlab run FILE.toml``).
    """
    if strict:
        check_sections(cfg)
    from .simulate import simulate

    model, protocol, system, integ = build(cfg)
    driver = integ.pop("driver")
    return simulate(model, protocol, system=system, integrator=driver, **integ)
