"""Metric-vs-parameter figures of a gathered sweep (``frictionlab sweep plot STORE``, ``--plot FILE``).

One panel per metric, the first swept key on the x axis (logarithmic when its values are
positive and span more than a decade), one line per value of a second swept key; a point
without a value is a gap, named at the foot of the panel by its regime (``steady``,
``unresolved``, ``failed``, ...) where the sweep has a ``regime`` column. Further swept keys are refused (select a slice of the Dataset first).
"""

from __future__ import annotations

import json
import math
from collections.abc import Sequence

import numpy as np
import xarray as xr

from ..core.errors import ConfigError

__all__ = ["plot_sweep", "metric_names", "metric_label", "key_label"]

NON_METRICS = ("status", "error", "point_key")


def metric_names(ds: xr.Dataset) -> list[str]:
    """The metric variables of a gathered sweep (its numeric data variables: not status, error,
    point_key or the words of a ``regime`` column)."""
    return [str(v) for v in ds.data_vars if v not in NON_METRICS and np.issubdtype(ds[v].dtype, np.number)]


def key_label(ds: xr.Dataset, key: str) -> str:
    """A swept key with its units, ``system.stiffness [N/m]`` (the key alone when they are unknown)."""
    units = str(ds[key].attrs.get("units", ""))
    return f"{key} [{units}]" if units else key


def _regime_of(ds: xr.Dataset, metric: str) -> xr.DataArray | None:
    """The ``regime`` column that says why ``metric`` is NaN (same suffix), if the sweep has one."""
    for name in ds.data_vars:
        if str(name).startswith("regime") and metric.endswith(str(name)[len("regime"):]):
            return ds[name]
    return None


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
        regime = _regime_of(ds, name)
        for label, line, reg in ([(None, da, regime)] if hue is None else
                                 [(f"{hue} = {v}", da.sel({hue: v}), None if regime is None else regime.sel({hue: v}))
                                  for v in ds[hue].values]):
            y = line.transpose(x).values
            ax.plot(positions, y, "o-", ms=4, label=label)
            if reg is not None:  # say at the axis why a point has no value (steady, unresolved, failed, ...)
                for xp, yp, word in zip(positions, y, reg.transpose(x).values):
                    if not np.isfinite(yp) and word:
                        ax.annotate(str(word), (xp, 0.02), xycoords=("data", "axes fraction"), rotation=90,
                                    ha="center", va="bottom", fontsize="small", color="0.4").set_in_layout(False)
        if numeric:  # every swept value on the axis, with a value or not
            ax.update_datalim(np.column_stack([positions, np.zeros(positions.size)]), updatey=False)
            ax.autoscale_view()
        if not np.isfinite(da.values).any():
            ax.text(0.5, 0.5, "no point has a value", transform=ax.transAxes, ha="center", va="center", color="0.4")
        if not numeric:
            ax.set_xticks(positions, [str(v) for v in xv])
        if logx:
            ax.set_xscale("log")
        ax.set_xlabel(key_label(ds, x))
        ax.set_ylabel(metric_label(ds, name))
        ax.grid(True, alpha=0.3)
        if hue is not None:
            ax.legend(fontsize="small")
    for ax in axes[len(names):]:
        ax.set_visible(False)
    fig.suptitle(title or f"{ds.attrs.get('scenario', 'sweep')}: metrics vs {x}")
    return fig
