"""Parameter grids for sweeps: parse ``key=start:stop:num[:log]`` and ``key=[a,b,c]``.

A grid is an ordered mapping from a dotted scenario key (the same keys as ``--set``, e.g.
``model.a`` or ``system.stiffness``) to the list of values it takes. The sweep runs the
Cartesian product of all axes, in C order (last axis fastest).

Examples
--------
>>> from frictionlab.sweep.grid import parse_axis
>>> parse_axis("model.a=0.005:0.015:3")
('model.a', [0.005, 0.01, 0.015])
>>> parse_axis("protocol.v=1e-6:1e-4:3:log")
('protocol.v', [1e-06, 1e-05, 0.0001])
>>> parse_axis("model.law=[aging, slip]")
('model.law', ['aging', 'slip'])

A scenario key that holds a list of runs (a study's axis: ``axes.protocol.v``,
``axes.system.stiffness``) is swept with single values: each point runs the list of its one value
(``--grid axes.protocol.v=0.05:0.5:4:log``). Every value is checked before anything runs, as
``--set`` would check it: the key exists, the type fits, a ``[model]``, ``[protocol]`` or
``[system]`` value builds (``model.law=agin`` is refused with the valid choices), and a study
reads it (a key every named run or an axis sets itself is refused).
"""

from __future__ import annotations

import dataclasses
import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.errors import ConfigError, FrictionLabError
from ..core.validation import check_grid_size
from ..scenarios.base import Scenario
from ..solve.config import apply_overrides, parse_value

__all__ = ["Grid", "ListAxisScenario", "parse_axis", "parse_grid", "key_units"]


def _clean_number(x: float) -> float:
    """Round-trip a float through 15 significant digits (so 1e-5 from geomspace is 1e-05)."""
    return float(f"{x:.15g}")


def _parse_list(key: str, text: str) -> list[Any]:
    body = text.strip()[1:-1].strip()
    if not body:
        raise ConfigError(f"grid axis {key!r} is an empty list; give at least one value, e.g. {key}=[1, 2]")
    value = parse_value(text)
    if not isinstance(value, list):  # bare words: [aging, slip]
        value = [parse_value(p.strip()) for p in body.split(",") if p.strip()]
    return [v for v in value]


def parse_axis(item: str) -> tuple[str, list[Any]]:
    """Parse one ``--grid`` item into ``(key, values)``.

    Forms: ``key=start:stop:num`` (linear, both ends included), ``key=start:stop:num:log``
    (geometric; start and stop must be > 0), ``key=[a, b, c]`` (explicit values, numbers,
    booleans or words) or ``key=value`` (a single value).

    Raises
    ------
    ConfigError
        When the item is malformed, ``num`` < 1, a log axis has a non-positive end, or a
        list is empty.
    """
    if "=" not in item:
        raise ConfigError(f"--grid expects key=start:stop:num[:log] or key=[a,b,...], got {item!r}")
    key, text = (s.strip() for s in item.split("=", 1))
    if not key:
        raise ConfigError(f"--grid item {item!r} has no key before '='")
    if text.startswith("["):
        if not text.endswith("]"):
            raise ConfigError(f"grid axis {key!r}: list {text!r} is missing its closing ']'")
        return key, _parse_list(key, text)
    if ":" in text:
        parts = [p.strip() for p in text.split(":")]
        log = False
        if len(parts) == 4:
            if parts[3].lower() not in ("log", "lin"):
                raise ConfigError(f"grid axis {key!r}: the 4th field must be 'log' or 'lin', got {parts[3]!r}")
            log = parts[3].lower() == "log"
            parts = parts[:3]
        if len(parts) != 3:
            raise ConfigError(f"grid axis {key!r}: expected start:stop:num[:log], got {text!r}")
        try:
            start, stop = float(parts[0]), float(parts[1])
            num = int(parts[2])
        except ValueError:
            raise ConfigError(f"grid axis {key!r}: start and stop must be numbers and num an integer, got {text!r}") from None
        if num < 1:
            raise ConfigError(f"grid axis {key!r}: num = {num} gives an empty axis; it must be >= 1")
        check_grid_size((num,))
        if not (math.isfinite(start) and math.isfinite(stop)):
            raise ConfigError(f"grid axis {key!r}: start and stop must be finite, got {text!r}")
        if log:
            if start <= 0 or stop <= 0:
                raise ConfigError(f"grid axis {key!r}: a log axis needs start > 0 and stop > 0, got {start:g}:{stop:g}")
            values = np.geomspace(start, stop, num)
        else:
            values = np.linspace(start, stop, num)
        return key, [_clean_number(v) for v in values]
    return key, [parse_value(text)]


@dataclass
class Grid:
    """An ordered set of axes ``{key: [values]}``; points are their Cartesian product."""

    axes: dict[str, list[Any]] = field(default_factory=dict)
    #: keys whose configuration value is a list of runs: each point runs ``[value]`` (set by :meth:`validate`)
    list_keys: tuple[str, ...] = ()
    #: units of each key where the configuration knows them (set by :meth:`validate`)
    units: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.axes:
            raise ConfigError("empty grid: give at least one --grid axis, e.g. --grid model.a=0.005:0.015:3")
        for k, vals in self.axes.items():
            if len(vals) == 0:
                raise ConfigError(f"grid axis {k!r} has no values")
            if any(isinstance(v, (list, tuple, dict)) for v in vals):
                raise ConfigError(f"grid axis {k!r}: a sweep axis takes single values (numbers, words, booleans), "
                                  f"not lists or tables; a key that holds a list of runs takes one value per point "
                                  f"({k}=[a, b, c] or {k}=start:stop:num)")
            if len(set(map(repr, vals))) != len(vals):
                raise ConfigError(f"grid axis {k!r} repeats a value: {vals}")
        check_grid_size(self.shape)

    @property
    def keys(self) -> list[str]:
        return list(self.axes)

    @property
    def shape(self) -> tuple[int, ...]:
        return tuple(len(v) for v in self.axes.values())

    @property
    def size(self) -> int:
        return int(np.prod(self.shape))

    def points(self) -> list[dict[str, Any]]:
        """All points as ``{key: value}`` override dicts, last axis fastest."""
        return [dict(zip(self.keys, combo)) for combo in itertools.product(*self.axes.values())]

    def index_of(self, point: Mapping[str, Any]) -> tuple[int, ...]:
        return tuple(self.axes[k].index(point[k]) for k in self.keys)

    def to_json(self) -> dict[str, list[Any]]:
        return {k: list(v) for k, v in self.axes.items()}

    def validate(self, config: dict[str, Any], own_units: Mapping[str, str] | None = None) -> None:
        """Check every axis key and value against a scenario ``config`` (with suggestions).

        Each axis is applied with :func:`frictionlab.solve.config.apply_overrides` (strict),
        so an unknown key is refused with a 'did you mean' suggestion and a value of the
        wrong type names the key. A key whose value in ``config`` is a list of runs takes single
        values (:attr:`list_keys`: each point runs the list of its one value). A value of a
        ``[model]``, ``[protocol]`` or ``[system]`` key must build that object, as the run would
        (checked where the section builds with the scenario's own values). ``own_units`` are the
        units of the scenario's own keys (``Scenario.units``).
        """
        list_keys = []
        for k, vals in self.axes.items():
            node: Any = config
            for part in k.split("."):
                node = node.get(part) if isinstance(node, dict) else None
            if isinstance(node, list):
                list_keys.append(k)
            for v in vals:
                cfg = apply_overrides(config, {k: [v] if isinstance(node, list) else v})
                _check_builds(config, cfg, k, v)
                _check_study_reads(config, cfg, k, v)
            units = key_units(config, k) or (own_units or {}).get(k, "")
            if units:
                self.units[k] = units
        self.list_keys = tuple(list_keys)

    def point_overrides(self, point: Mapping[str, Any]) -> dict[str, Any]:
        """The ``--set``-style overrides of one point (a list key gets the list of its one value)."""
        return {k: [v] if k in self.list_keys else v for k, v in point.items()}


#: the sections whose values a grid point builds before anything runs (model, protocol, system objects)
_BUILDERS = ("model", "protocol", "system")


def _build_section(section: str, table: Any) -> None:
    if section == "model":
        from ..core.registry import make_model

        m = dict(table)
        make_model(m.pop("name"), m.pop("preset", None), **m)
    elif section == "protocol":
        from ..protocols.base import make_protocol

        make_protocol(table)
    else:
        from ..systems.base import make_system

        make_system(table)


def _check_builds(base: dict[str, Any], cfg: dict[str, Any], key: str, value: Any) -> None:
    """Refuse a value that makes its ``[model]``/``[protocol]``/``[system]`` section fail to build.

    Only where the scenario's own section builds (a scenario may complete a section itself at run
    time, e.g. a velocity it derives); then the error is the value's.
    """
    section = key.split(".", 1)[0]
    if section not in _BUILDERS or not isinstance(base.get(section), dict):
        return
    if section == "model" and "name" not in base[section]:
        return
    if section == "protocol" and "type" not in base[section]:
        return
    try:
        _build_section(section, base[section])
    except (FrictionLabError, TypeError, ValueError):
        return  # the scenario builds this section its own way
    try:
        _build_section(section, cfg[section])
    except FrictionLabError as exc:
        raise ConfigError(f"--grid {key}={value!r}: {str(exc).splitlines()[0]}") from None


def _check_study_reads(base: dict[str, Any], cfg: dict[str, Any], key: str, value: Any) -> None:
    """A study's config (``[runs]``/``[axes]``): refuse a value that no run reads (a key every named run
    or an axis sets itself), laid out as the study's points before anything runs."""
    if not isinstance(base.get("runs"), dict) and not isinstance(base.get("axes"), dict):
        return
    from ..solve.study import Study

    try:
        Study.from_config(cfg).points()
    except ConfigError as exc:
        raise ConfigError(f"--grid {key}={value!r}: {str(exc).splitlines()[0]}") from None


def key_units(config: dict[str, Any], key: str) -> str:
    """Units of the dotted ``key`` of a ``[model]``, ``[protocol]`` or ``[system]`` section ("" when unknown)."""
    section, _, leaf = key.partition(".")
    if section == "axes":  # a study's axis: the units of the key it runs over
        return key_units(config, leaf)
    table = config.get(section)
    if section not in _BUILDERS or not isinstance(table, dict) or "." in leaf:
        return ""
    try:
        if section == "model":
            from ..core.registry import get_model_class

            cls = get_model_class(table["name"])
        elif section == "protocol":
            from ..protocols.base import make_protocol

            cls = type(make_protocol(table))
        else:
            from ..systems.base import make_system

            cls = type(make_system(table))
    except (FrictionLabError, KeyError, TypeError, ValueError):  # a section the scenario completes itself
        return ""
    for f in dataclasses.fields(cls):
        if f.name == leaf:
            return str(f.metadata.get("units", "") or "")
    return ""


@dataclass
class ListAxisScenario(Scenario):
    """A scenario whose list-of-runs keys (a study's ``axes.protocol.v``) are swept one value per point.

    :meth:`execute` turns a single value of one of :attr:`list_keys` into the list of that value,
    so a sweep point runs exactly the value of its grid coordinate.
    """

    list_keys: tuple[str, ...] = ()

    def execute(self, overrides: dict[str, Any] | None = None, quick: bool = False):
        over = {k: [v] if k in self.list_keys and not isinstance(v, list) else v for k, v in (overrides or {}).items()}
        return super().execute(over, quick)

    @classmethod
    def wrap(cls, scenario: Scenario, list_keys: Iterable[str]) -> Scenario:
        """``scenario`` itself when ``list_keys`` is empty, else its copy that sweeps them."""
        keys = tuple(list_keys)
        if not keys:
            return scenario
        values = {f.name: getattr(scenario, f.name) for f in dataclasses.fields(Scenario)}
        return cls(**values, list_keys=keys)


def parse_grid(items: Iterable[str], config: dict[str, Any] | None = None,
               own_units: Mapping[str, str] | None = None) -> Grid:
    """Parse ``--grid`` items into a :class:`Grid`, validated against ``config`` when given.

    Raises
    ------
    ConfigError
        An empty grid, a malformed or repeated axis, or a key the scenario does not have.
    """
    axes: dict[str, list[Any]] = {}
    for item in items:
        key, values = parse_axis(item)
        if key in axes:
            raise ConfigError(f"grid axis {key!r} is given twice")
        axes[key] = values
    grid = Grid(axes)
    if config is not None:
        grid.validate(config, own_units)
    return grid
