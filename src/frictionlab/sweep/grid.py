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
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.errors import ConfigError
from ..core.validation import check_grid_size
from ..scenarios.config import apply_overrides, parse_value

__all__ = ["Grid", "parse_axis", "parse_grid"]


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

    def __post_init__(self) -> None:
        if not self.axes:
            raise ConfigError("empty grid: give at least one --grid axis, e.g. --grid model.a=0.005:0.015:3")
        for k, vals in self.axes.items():
            if len(vals) == 0:
                raise ConfigError(f"grid axis {k!r} has no values")
            if any(isinstance(v, (list, tuple, dict)) for v in vals):
                raise ConfigError(f"grid axis {k!r}: a sweep axis takes single values (numbers, words, booleans), "
                                  f"not lists or tables; sweep a scalar key instead")
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

    def validate(self, config: dict[str, Any]) -> None:
        """Check every axis key and value against a scenario ``config`` (with suggestions).

        Each axis is applied with :func:`frictionlab.scenarios.config.apply_overrides` (strict),
        so an unknown key is refused with a 'did you mean' suggestion and a value of the
        wrong type names the key.
        """
        for k, vals in self.axes.items():
            for v in vals:
                apply_overrides(config, {k: v})


def parse_grid(items: Iterable[str], config: dict[str, Any] | None = None) -> Grid:
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
        grid.validate(config)
    return grid
