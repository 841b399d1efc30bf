"""Metric-vs-parameter figures of a gathered sweep (``frictionlab sweep plot STORE``, ``--plot FILE``).

One panel per metric, the first swept key on the x axis (logarithmic when its values are
positive and span more than a decade), one line per value of a second swept key; failed or
missing points are gaps. Further swept keys are refused (select a slice of the Dataset first).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

import numpy as np
import xarray as xr

from ..core.errors import ConfigError

__all__ = ["plot_sweep", "metric_names", "metric_label"]

NON_METRICS = ("status", "error", "point_key")


def metric_names(ds: xr.Dataset) -> list[str]:
    """The metric variables of a gathered sweep (every data variable but status, error, point_key)."""
    return [str(v) for v in ds.data_vars if v not in NON_METRICS]


def metric_label(ds: xr.Dataset, name: str) -> str:
    """``name [units]`` (``[-]`` when the metric has no units)."""
    units = str(ds[name].attrs.get("units", "")) or "-"
    return f"{name} [{units}]"


def _grid_keys(ds: xr.Dataset) -> list[str]:
    try:
        keys = list(json.loads(ds.attrs["grid"]))
    except (KeyError, TypeError, ValueError):
        keys = [str(d) for d in ds.dims]
    return [k for k in keys if k in ds.dims]


def plot_sweep(ds: xr.Dataset, metrics: Sequence[str] | None = None, *, x: str | None = None, title: str = ""):
    """Figure of ``metrics`` (default: all) against the swept key ``x`` (default: the first one).

    Raises
    ------
    ConfigError
        An unknown metric or key, no metric at all, or more than two swept keys.
    """
    from matplotlib.figure import Figure

    available = metric_names(ds)
    names = list(metrics) if metrics else available
    unknown = [m for m in names if m not in available]
    if unknown:
        raise ConfigError(f"the sweep has no metric {unknown[0]!r}; it has: {', '.join(available) or 'none'}")
    if not names:
        raise ConfigError("the sweep has no metric to plot (no point finished)")
    keys = _grid_keys(ds)
    x = x or keys[0]
    if x not in keys:
        raise ConfigError(f"x = {x!r} is not a swept key; the sweep sweeps {', '.join(keys)}")
    others = [k for k in keys if k != x]
    if len(others) > 1:
        raise ConfigError(f"cannot draw {len(keys)} swept keys ({', '.join(keys)}) against one axis; select values "
                          "of all but two first, e.g. ds.sel({...})")
    hue = others[0] if others else None
    xv = np.asarray(ds[x].values)
    numeric = np.issubdtype(xv.dtype, np.number)
    logx = bool(numeric and np.all(xv > 0) and xv.size > 2 and xv.max() / xv.min() > 10.0)
    ncol = 1 if len(names) == 1 else 2
    nrow = math.ceil(len(names) / ncol)
    fig = Figure(figsize=(5.2 * ncol, 3.4 * nrow), constrained_layout=True)
    axes = fig.subplots(nrow, ncol, squeeze=False).ravel()
    for ax, name in zip(axes, names):
        da = ds[name]
        positions = xv if numeric else np.arange(xv.size)
        for label, line in ([(None, da)] if hue is None else
                            [(f"{hue} = {v}", da.sel({hue: v})) for v in ds[hue].values]):
            ax.plot(positions, line.transpose(x).values, "o-", ms=4, label=label)
        if not numeric:
            ax.set_xticks(positions, [str(v) for v in xv])
        if logx:
            ax.set_xscale("log")
        ax.set_xlabel(x)
        ax.set_ylabel(metric_label(ds, name))
        ax.grid(True, alpha=0.3)
        if hue is not None:
            ax.legend(fontsize="small")
    for ax in axes[len(names):]:
        ax.set_visible(False)
    fig.suptitle(title or f"{ds.attrs.get('scenario', 'sweep')}: metrics vs {x}")
    return fig
