"""``rough-contact/fig12``: dilatation and contact area against slip at several sliding speeds.

Boussinesq, Table 1 viscoelastic material, 100 MPa; from the same t = 0+ state slide ``slip`` at
each v in {1, 5, 10, 100} (spec S12). All runs see the same rigid path, so steady means over
the same slip window (second half, spec R26) compare the speeds without sampling noise between
different stretches of surface.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Scenario, check, register_scenario
from ._sliding import (MODEL, QUICK_BASE, QUICK_VELOCITY_NOTE, REFS, SLIDING, build_model, slide, window_mean, INTEGRATOR, to_paper_units)

CONFIG = {
    "model": dict(MODEL),
    "integrator": dict(INTEGRATOR),
    "protocol": {**SLIDING, "velocities": [1.0, 5.0, 10.0, 100.0], "slip": 200.0},
}
VARS = ["dilatation", "contact_area", "real_contact_area", "friction_coefficient", "normal_force", "time"]


def run(cfg: dict, quick: bool) -> xr.Dataset:
    pr = cfg["protocol"]
    m = build_model(cfg, interaction="boussinesq")
    runs = []
    for v in pr["velocities"]:
        r = slide(cfg, m, [v], [pr["slip"]], si=True)
        r = r.assign_coords(step=("time", np.arange(r.sizes["time"]))).swap_dims({"time": "step"})
        runs.append(r.reset_coords("time")[VARS + ["slip"]])
    ds = xr.concat(runs, dim="v").assign_coords(v=[float(v) for v in pr["velocities"]])
    ds.attrs["slip_total_um"] = float(pr["slip"])
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    ds = to_paper_units(ds)  # the result is SI; slips and dilatations in the paper's um
    L = float(ds.attrs["slip_total_um"])
    dd = [window_mean(ds.sel(v=v), "dilatation", 0.5 * L, L) for v in ds.v.values]
    aa = [window_mean(ds.sel(v=v), "area_fraction", 0.5 * L, L) for v in ds.v.values]
    vs = ", ".join(f"{v:g}" for v in ds.v.values)
    return [
        check(f"Steady dilatation increases with v (v = {vs})", "strictly increasing",
              ", ".join(f"{x:.4f}" for x in dd), bool(np.all(np.diff(dd) > 0))),
        check(f"Steady contact area decreases with v (v = {vs})", "strictly decreasing",
              ", ".join(f"{100 * x:.3f} %" for x in aa), bool(np.all(np.diff(aa) < 0))),
    ]


def plot(ds: xr.Dataset):
    from ...plot import plt

    ds = to_paper_units(ds)
    fig, ax = plt.subplots(2, 2, figsize=(11, 7))
    for v in ds.v.values:
        s = ds.sel(v=v)
        ax[0, 0].plot(s.slip, s.dilatation, label=f"v={v:g}")
        ax[1, 0].plot(s.slip, s.area_fraction)
        ax[0, 1].semilogx(s.time[1:], s.dilatation[1:])
        ax[1, 1].semilogx(s.time[1:], s.area_fraction[1:])
    ax[0, 0].legend()
    ax[0, 0].set_ylabel("dilatation [um]")
    ax[1, 0].set(ylabel="area fraction", xlabel="slip [um]")
    ax[1, 1].set_xlabel("time [s]")
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="rough-contact/fig12",
    description=("Hulikal et al. Fig. 12: dilatation and contact area vs slip and time from the same loaded state "
                 "at v = 1, 5, 10, 100; Boussinesq, viscoelastic Table 1, 100 MPa, 512^2 on 1024 x 512." + QUICK_VELOCITY_NOTE),
    config=CONFIG, run=run, checks=checks, plot=plot,
    quick={**QUICK_BASE, "model.surface_mx": 128, "protocol.slip": 40.0},
    references=REFS, slow=True,
))
