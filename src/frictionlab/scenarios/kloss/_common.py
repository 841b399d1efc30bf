"""Shared helpers of the Kloss scenarios (curve datasets, references)."""

from __future__ import annotations

from typing import Any

import numpy as np
import xarray as xr

from ...core.result import sanitize_attrs
from ...laws.kloss import CITATION

REFS = [CITATION]


def curve_dataset(coord: str, x: np.ndarray, units: dict[str, str], data: dict[str, Any],
                  attrs: dict[str, Any] | None = None) -> xr.Dataset:
    """A Dataset over a non-time coordinate ``coord`` with ``units`` on every variable."""
    ds = xr.Dataset(coords={coord: (coord, np.asarray(x, dtype=float), {"units": units[coord]})})
    for name, val in data.items():
        if isinstance(val, tuple):
            dims, arr = val
        else:
            dims, arr = (coord,), val
        ds[name] = (dims, np.asarray(arr, dtype=float), {"units": units.get(name, "1")})
    ds.attrs.update(sanitize_attrs(attrs or {}))
    return ds


def rel(a: float, b: float) -> float:
    return abs(a - b) / abs(b) if b != 0 else abs(a - b)


def law_of(cfg: dict[str, Any]):
    """The law a scenario config describes (preset + overrides), for checks that follow ``--set``."""
    from ...core.registry import make_model

    m = dict(cfg["model"])
    return make_model(m.pop("name"), m.pop("preset", None), **m)
