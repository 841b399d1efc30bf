"""``rough-contact/fig12``: dilatation and contact area against slip at several sliding speeds.

Boussinesq, Table 1 viscoelastic material, 100 MPa; from the same t = 0+ state slide ``slip`` at
each v in {1, 5, 10, 100} (Sect. 5.3, Fig. 12). All runs see the same rigid path, so steady means over
the same slip window (the second half; the paper does not say how it measured steady state) compare the speeds without sampling noise between
different stretches of surface.

The study runs one slide per velocity: an axis over ``protocol.velocities``, one single-step list
``[v]`` [m/s] per run (``axes.protocol.velocities``); the post step stacks the runs by step along ``v``.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Mutation, Scenario, check, register_scenario
from ._common import MODEL_NAME, runs_driver
from ._sliding import INTEGRATOR, MODEL, MOVED_SLIDING, PROTOCOL, QUICK_BASE, QUICK_VELOCITY_NOTE, REFS, UM, window_mean

#: no viscoelastic relaxation (A = 0 in eq. 5): the contacts do not depend on the velocity
NO_RELAX = Mutation("no viscoelastic relaxation: A = 0 in eq. 5", {"model.As": [0.0]})

CONFIG = {
    "model": dict(MODEL),
    "integrator": dict(INTEGRATOR),
    "protocol": {**PROTOCOL, "distances": [200.0 * UM]},
    # one run per velocity [m/s]
    "axes": {"protocol": {"velocities": [[1.0 * UM], [5.0 * UM], [10.0 * UM], [100.0 * UM]]}},
}
MOVED = {**MOVED_SLIDING, "sweep.velocities": "the velocities are axes.protocol.velocities [m/s], one list [v] per run"}
VARS = ["dilatation", "contact_area", "real_contact_area", "friction_coefficient", "normal_force", "time"]


def post(result, cfg: dict) -> xr.Dataset:
    """The runs by step, stacked along ``v`` [m/s]; ``slip_total`` [m] of the protocol."""
    runs, vels = [], []
    for p, r in zip(result.points, result.datasets):
        vels.append(float(p["protocol"]["velocities"][0]))
        r = r.assign_coords(step=("time", np.arange(r.sizes["time"]))).swap_dims({"time": "step"})
        runs.append(r.reset_coords("time")[VARS + ["slip"]])
    ds = xr.concat(runs, dim="v").assign_coords(v=("v", vels, {"units": "m/s"}))
    ds.attrs["slip_total"] = float(cfg["protocol"]["distances"][0])  # m
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    L = float(ds.attrs["slip_total"])
    dd = [window_mean(ds.sel(v=v), "dilatation", 0.5 * L, L) for v in ds.v.values]
    aa = [window_mean(ds.sel(v=v), "contact_area", 0.5 * L, L) for v in ds.v.values]
    vs = ", ".join(f"{v / UM:g}" for v in ds.v.values)
    return [
        check(f"Steady dilatation increases with v (v = {vs} um/s; Sect. 5.3, Fig. 12a)", "strictly increasing",
              ", ".join(f"{x / UM:.4f}" for x in dd) + " um", bool(np.all(np.diff(dd) > 0)), mutations=(NO_RELAX,)),
        check(f"Steady contact area decreases with v (v = {vs} um/s; Sect. 5.3, Fig. 12b)", "strictly decreasing",
              ", ".join(f"{100 * x:.3f} %" for x in aa), bool(np.all(np.diff(aa) < 0)), mutations=(NO_RELAX,)),
    ]


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, ax = plt.subplots(2, 2, figsize=(11, 7))
    for v in ds.v.values:
        s = ds.sel(v=v)
        ax[0, 0].plot(s.slip / UM, s.dilatation / UM, label=f"v={v / UM:g} um/s")
        ax[1, 0].plot(s.slip / UM, s.contact_area)
        ax[0, 1].semilogx(s.time[1:], s.dilatation[1:] / UM)
        ax[1, 1].semilogx(s.time[1:], s.contact_area[1:])
    ax[0, 0].set_ylabel("dilatation [um]")
    ax[1, 0].set(ylabel="area fraction", xlabel="slip [um]")
    ax[1, 1].set_xlabel("time [s]")
    return fig


register_scenario(Scenario(
    name="rough-contact/fig12",
    description=("Hulikal et al. Fig. 12: dilatation and contact area vs slip and time from the same loaded state "
                 "at v = 1, 5, 10, 100; Boussinesq, viscoelastic Table 1, 100 MPa, 512^2 on 1024 x 512." + QUICK_VELOCITY_NOTE),
    config=CONFIG, run=None, derive=runs_driver("sliding"), post=post, checks=checks, plot=plot,
    units={"axes.protocol.velocities": "m/s"},
    quick={**QUICK_BASE, "model.surface_mx": 128, "protocol.distances": [40.0 * UM]},
    references=REFS, slow=True, derived=dict(MODEL_NAME), moved=MOVED,
))
