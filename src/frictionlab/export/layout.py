"""What each entry of a law's parameter vector is, for code generated outside Python.

:func:`param_entries` lists the entries of ``model.param_vector()`` in order as
:class:`Entry` records: a *tunable* entry is a numeric parameter (an FMU parameter with its
units and range), a fixed one an option or a count baked into the exported code (a choice of
law or form, the number of GMS elements). It refuses a model that has no C form
(:data:`frictionlab.laws.c_kernels.C_KERNELS`) with the reason, and checks that the vector it
rebuilds equals ``param_vector()``, so a layout that drifted from the law is an error, never a
wrong FMU.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import Any

from ..core.base import AbstractLaw
from ..core.errors import ConfigError
from ..laws.c_kernels import C_KERNELS, REFUSED, CKernel

__all__ = ["Entry", "param_entries", "kernel_for", "c_identifier"]


@dataclass(frozen=True)
class Entry:
    """One entry of the parameter vector."""

    name: str
    value: float
    tunable: bool
    units: str = ""
    lo: float = -math.inf
    hi: float = math.inf
    lo_open: bool = False
    hi_open: bool = False
    doc: str = ""


def c_identifier(name: str) -> str:
    """``name`` as a C identifier (letters, digits, underscores)."""
    out = "".join(ch if ch.isalnum() else "_" for ch in name)
    return out if out[:1].isalpha() else f"m_{out}"


def kernel_for(model: Any) -> CKernel:
    """The C form of ``model``'s law, or a :class:`ConfigError` saying why there is none."""
    name = getattr(model, "name", type(model).__name__)
    if not isinstance(model, AbstractLaw):
        raise ConfigError(f"model {name!r} is not a rate law (it has a discrete or implicit update, "
                          "no right-hand side): it cannot be exported as C or as an FMU")
    if name in REFUSED:
        raise ConfigError(f"model {name!r} cannot be exported: {REFUSED[name]}")
    if name not in C_KERNELS:
        raise ConfigError(f"model {name!r} has no C form of its kernels (frictionlab.laws.c_kernels); "
                          f"exportable: {', '.join(sorted(C_KERNELS))}")
    return C_KERNELS[name]


def _field_entry(model: Any, f: dataclasses.Field, name: str, value: Any) -> Entry:
    m = f.metadata
    if m.get("kind") == "option":
        return Entry(name, 1.0 if value is True else 0.0, False, doc=f"option {f.name} = {value!r}")
    return Entry(name, float(value), True, m.get("units", ""), m.get("lo", -math.inf), m.get("hi", math.inf),
                 m.get("lo_open", False), m.get("hi_open", False), m.get("doc", ""))


def param_entries(model: Any) -> list[Entry]:
    """The entries of ``model.param_vector()``, in order (see module docstring)."""
    import numpy as np

    kernel = kernel_for(model)
    fields = {f.name: f for f in dataclasses.fields(model)}
    spec = kernel.layout or tuple(type(model).kernel_params)
    out: list[Entry] = []
    for item in spec:
        if "=" in item:
            field, choice = item.split("=", 1)
            value = getattr(model, field)
            out.append(Entry(field, 1.0 if value == choice else 0.0, False, doc=f"option {field} = {value!r}"))
        elif item.startswith("len:"):
            field = item[4:]
            out.append(Entry(f"n_{field}", float(len(getattr(model, field))), False, doc=f"{len(getattr(model, field))} {field} entries"))
        elif item.endswith("[]") or "[]<" in item:  # "field[]" or "field[]<attribute": the values in force
            field, _, source = item.partition("[]<")
            field = field.removesuffix("[]")
            out.extend(_field_entry(model, fields[field], f"{field}[{i + 1}]", x)
                       for i, x in enumerate(getattr(model, source or field)))
        else:
            out.append(_field_entry(model, fields[item], item, getattr(model, item)))
    rebuilt = np.array([e.value for e in out])
    expected = model.param_vector()
    if rebuilt.shape != expected.shape or not np.array_equal(rebuilt, expected):
        raise ConfigError(f"model {model.name!r}: the C parameter layout {spec} does not rebuild its param_vector "
                          f"({rebuilt.tolist()} vs {expected.tolist()}); update frictionlab.laws.c_kernels")
    return out
