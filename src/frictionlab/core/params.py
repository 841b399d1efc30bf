"""Validated, frozen parameter dataclasses.

A model's parameters are a frozen dataclass whose fields are declared with :func:`param`,
which records units and the allowed range. :class:`Parameters` validates every field in
``__post_init__`` (so ``dataclasses.replace`` re-validates) and offers ``from_dict`` with
"did you mean" suggestions for unknown names.
"""

from __future__ import annotations

import dataclasses
import math
from collections.abc import Mapping
from typing import Any, ClassVar, Self

import numpy as np

from .errors import ParameterError, suggest

__all__ = ["param", "option", "Parameters"]

_INF = math.inf


def param(
    default: Any = dataclasses.MISSING,
    *,
    units: str,
    lo: float = -_INF,
    hi: float = _INF,
    lo_open: bool = False,
    hi_open: bool = False,
    doc: str = "",
    integer: bool = False,
    why: str = "",
) -> Any:
    """Declare a numeric parameter with units and an allowed range ``[lo, hi]``.

    ``lo_open`` / ``hi_open`` make the bound strict. ``integer`` requires a whole number. ``why``
    is the reason for the range, appended to the refusal of a value outside it (e.g. that a value
    in a paper's units is far out of the SI range).
    """
    meta = {
        "units": units,
        "lo": lo,
        "hi": hi,
        "lo_open": lo_open,
        "hi_open": hi_open,
        "doc": doc,
        "integer": integer,
        "why": why,
        "kind": "number",
    }
    return dataclasses.field(default=default, metadata=meta)


def option(default: Any, *, choices: tuple[Any, ...], doc: str = "") -> Any:
    """Declare a categorical option (a string or bool chosen from ``choices``)."""
    return dataclasses.field(
        default=default, metadata={"kind": "option", "choices": choices, "doc": doc, "units": ""}
    )


def _range_text(m: Mapping[str, Any]) -> str:
    lo = "(" if m["lo_open"] else "["
    hi = ")" if m["hi_open"] else "]"
    return f"{lo}{m['lo']:g}, {m['hi']:g}{hi}"


def _why(m: Mapping[str, Any]) -> str:
    return f": {m['why']}" if m.get("why") else ""


def _is_vector(f: dataclasses.Field) -> bool:
    """Whether a numeric field holds a tuple of numbers (declared ``tuple[...]`` or with a tuple default)."""
    return isinstance(f.default, tuple) or "tuple" in str(f.type) or "list" in str(f.type)


class Parameters:
    """Mixin for frozen parameter dataclasses: validation, dict round-trip, units.

    Subclasses are ``@dataclass(frozen=True)`` and may add cross-field checks by
    overriding :meth:`_check` (call ``self._fail(name, msg)`` to raise).
    """

    _label: ClassVar[str] = ""

    def __post_init__(self) -> None:
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            m = f.metadata
            value = getattr(self, f.name)
            kind = m.get("kind")
            if kind == "number":
                if isinstance(value, np.ndarray) and value.ndim == 0:
                    value = value.item()
                if isinstance(value, (tuple, list, np.ndarray)) and not _is_vector(f):
                    self._fail(f.name, f"must be a single number, got a {type(value).__name__} {value!r}"[:200])
                value = self._coerce_number(f.name, value, m)
                object.__setattr__(self, f.name, value)
            elif kind == "option":
                if value not in m["choices"]:
                    self._fail(
                        f.name,
                        f"= {value!r} is not one of {list(m['choices'])}"
                        + (suggest(str(value), map(str, m["choices"])) if isinstance(value, str) else ""),
                    )
        self._check()

    def _coerce_number(self, name: str, value: Any, m: Mapping[str, Any]) -> Any:
        if isinstance(value, (tuple, list, np.ndarray)):
            if any(isinstance(x, bool) or not isinstance(x, (int, float, np.integer, np.floating))
                   for x in np.ravel(np.asarray(value, dtype=object))):
                self._fail(name, f"must be a list of numbers, got {value!r}"[:200])
            try:
                arr = np.asarray(value, dtype=float)
            except (ValueError, TypeError, OverflowError):
                self._fail(name, f"must be a flat list of numbers, got {value!r}"[:200])
            if arr.ndim > 1:
                self._fail(name, f"must be a flat list of numbers, got a nested list {value!r}"[:200])
            if not np.all(np.isfinite(arr)):
                self._fail(name, f"contains a non-finite value: {value!r}")
            lo_bad = (arr <= m["lo"]) if m["lo_open"] else (arr < m["lo"])
            hi_bad = (arr >= m["hi"]) if m["hi_open"] else (arr > m["hi"])
            if np.any(lo_bad | hi_bad):
                self._fail(name, f"= {value!r} has entries outside {_range_text(m)} {m['units']}{_why(m)}")
            return tuple(float(x) for x in arr.ravel())
        if isinstance(value, bool) or not isinstance(value, (int, float, np.integer, np.floating)):
            self._fail(name, f"must be a number, got {type(value).__name__} {value!r}")
        try:
            x = float(value)
        except OverflowError:
            self._fail(name, f"= {str(value)[:20]}... ({len(str(value))} digits) is too large for a number")
        if not math.isfinite(x):
            self._fail(name, f"must be finite, got {x!r}")
        lo_bad = x <= m["lo"] if m["lo_open"] else x < m["lo"]
        hi_bad = x >= m["hi"] if m["hi_open"] else x > m["hi"]
        if lo_bad or hi_bad:
            self._fail(name, f"= {x:g} {m['units']} is outside the allowed range {_range_text(m)}{_why(m)}")
        if m.get("integer"):
            if x != int(x):
                self._fail(name, f"must be a whole number, got {x:g}")
            return int(x)
        return x

    def _check(self) -> None:
        """Cross-field validation hook; default does nothing."""

    def _fail(self, name: str, msg: str) -> None:
        label = self._label or type(self).__name__
        raise ParameterError(f"{label}.{name} {msg}")

    # --- conversions -------------------------------------------------------------
    @classmethod
    def field_names(cls) -> tuple[str, ...]:
        """Names of the parameter fields, in declaration order."""
        return tuple(f.name for f in dataclasses.fields(cls))  # type: ignore[arg-type]

    @classmethod
    def units(cls) -> dict[str, str]:
        """Units of every field (``""`` for options)."""
        return {f.name: f.metadata.get("units", "") for f in dataclasses.fields(cls)}  # type: ignore[arg-type]

    @classmethod
    def from_dict(cls, values: Mapping[str, Any]) -> Self:
        """Build from a mapping, rejecting unknown names with a suggestion."""
        names = cls.field_names()
        for key in values:
            if key not in names:
                label = cls._label or cls.__name__
                raise ParameterError(
                    f"{label} has no parameter {key!r}{suggest(key, names)}; "
                    f"known: {', '.join(names)}"
                )
        try:
            return cls(**values)
        except TypeError as exc:  # missing required fields
            raise ParameterError(f"{cls._label or cls.__name__}: {exc}") from None

    def to_dict(self) -> dict[str, Any]:
        """Field values as a plain dict (tuples as lists); :meth:`from_dict` inverts it."""
        out: dict[str, Any] = {}
        for f in dataclasses.fields(self):  # type: ignore[arg-type]
            v = getattr(self, f.name)
            out[f.name] = list(v) if isinstance(v, tuple) else v
        return out

    def replace(self, **changes: Any) -> Self:
        """Return a copy with ``changes`` applied (validated, unknown names rejected)."""
        d = self.to_dict()
        d.update(changes)
        return type(self).from_dict(d)

    def attrs(self) -> dict[str, Any]:
        """Parameters as NetCDF-safe attributes (bools and None become strings)."""
        out: dict[str, Any] = {}
        for k, v in self.to_dict().items():
            if isinstance(v, bool) or v is None:
                out[k] = str(v)
            elif isinstance(v, list):
                out[k] = np.asarray(v, dtype=float)
            else:
                out[k] = v
        return out
