"""Spring-slider plots in the style geophysicists expect (rsfmodel's phase and displacement plots).

Both take a result :class:`xarray.Dataset` with ``friction_coefficient`` and ``slip_velocity``
(e.g. ``simulate(RateState(...), VelocitySteps(...), system=QuasiStaticSlider(...))``) and
return a :class:`~matplotlib.figure.Figure`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

from ..core.errors import DataError

if TYPE_CHECKING:
    import xarray as xr
    from matplotlib.figure import Figure

__all__ = ["phase_plane", "displacement_plot"]


def _need(ds: xr.Dataset, *names: str) -> None:
    missing = [n for n in names if n not in ds]
    if missing:
        raise DataError(f"this plot needs {', '.join(missing)} in the result (has {', '.join(ds.data_vars)})")


def phase_plane(ds: xr.Dataset, *, v_ref: float | None = None, title: str = "") -> Figure:
    r"""Friction coefficient against :math:`\ln(v/v_\mathrm{ref})` (the slip velocity's phase plane).

    ``v_ref`` defaults to the model's ``v0`` attribute, else the first velocity. Start and end
    are marked; steady sliding lies on the straight line of slope :math:`a - b`.
    """
    _need(ds, "friction_coefficient", "slip_velocity")
    v = np.asarray(ds["slip_velocity"].values, dtype=float)
    mu = np.asarray(ds["friction_coefficient"].values, dtype=float)
    vr = float(v_ref if v_ref is not None else ds.attrs.get("v0", v[0]))
    ok = v > 0
    x = np.log(v[ok] / vr)
    from . import pyplot

    fig, ax = pyplot().subplots(figsize=(5.5, 4.2))
    ax.plot(x, mu[ok], "-", lw=1.2)
    if x.size:
        ax.plot(x[0], mu[ok][0], "o", color="tab:green", label="start")
        ax.plot(x[-1], mu[ok][-1], "s", color="tab:red", label="end")
        ax.legend(fontsize=8)
    ax.set_xlabel(rf"ln(v / v_ref), v_ref = {vr:.3g} m/s")
    ax.set_ylabel("friction coefficient [1]")
    if title:
        ax.set_title(title)
    fig.tight_layout()
    return fig


def displacement_plot(ds: xr.Dataset, *, title: str = "") -> Figure:
    """Friction coefficient, slip velocity and state variable(s) against load-point displacement [um]."""
    _need(ds, "friction_coefficient", "slip_velocity")
    x = ds["driver_position"].values if "driver_position" in ds else ds["slip"].values
    x = x - x[0]  # displacement since the start
    xlabel = "load-point displacement [um]" if "driver_position" in ds else "slip [um]"
    states = [n for n in ds.data_vars if n.startswith("state_")]
    from . import pyplot

    fig, axes = pyplot().subplots(2 + bool(states), 1, figsize=(7, 7 if states else 5), sharex=True)
    axes[0].plot(x * 1e6, ds["friction_coefficient"].values)
    axes[0].set_ylabel("friction coefficient [1]")
    axes[1].semilogy(x * 1e6, np.abs(ds["slip_velocity"].values), label="slider")
    if "load_point_velocity" in ds:
        axes[1].semilogy(x * 1e6, ds["load_point_velocity"].values, "--", label="load point")
        axes[1].legend(fontsize=8)
    axes[1].set_ylabel("velocity [m/s]")
    if states:
        for n in states:
            axes[2].semilogy(x * 1e6, ds[n].values, label=f"{n} [{ds[n].attrs.get('units', '')}]")
        axes[2].set_ylabel("state")
        axes[2].legend(fontsize=8)
    axes[-1].set_xlabel(xlabel)
    if title:
        axes[0].set_title(title)
    fig.tight_layout()
    return fig
