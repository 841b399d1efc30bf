"""Shared helpers of the Kloss scenarios (curve datasets, references)."""

from __future__ import annotations

from typing import Any

import numpy as np
import xarray as xr

from ...core.result import sanitize_attrs
from ...laws.kloss import CITATION
from ...plot import plt

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



def law_moved(params: str, variable: str) -> dict[str, str]:
    """``Scenario.moved`` of a closed-form curve (Figs. 10, 13): the law's ``params`` and the sampling, once the
    ``[model]`` and ``[curve]`` tables, are ``analysis.law`` and ``analysis.curve``."""
    return {"model": f"the {params} are analysis.law.* (a closed form of the {variable}, not a run model)",
            "curve": "analysis.curve"}


def rel(a: float, b: float) -> float:
    return abs(a - b) / abs(b) if b != 0 else abs(a - b)


def law_of(cfg: dict[str, Any]):
    """The law a scenario config describes (preset + overrides), for checks that follow ``--set``."""
    from ...core.registry import make_model

    m = dict(cfg["model"])
    return make_model(m.pop("name"), m.pop("preset", None), **m)


def motion_plot(ds: xr.Dataset, drive: str, labels: tuple[str, str, str], title: str):
    """A mass under Kloss friction against time (Figs. 5, 6): the friction force on the mass (``-friction_force``),
    the driving force ``drive`` and the velocity, labelled ``labels``, in one panel."""
    fig, ax = plt.subplots(figsize=(7, 4))
    for y, style, label in zip((-ds.friction_force, ds[drive], ds.slip_velocity), ("r-", "k-", "b--"), labels):
        ax.plot(ds.time, y, style, label=label)
    ax.set(xlabel="time [s]", title=title)
    return fig
