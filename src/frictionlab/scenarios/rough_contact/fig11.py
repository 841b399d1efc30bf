"""``rough-contact/fig11``: steady-state contact-force distributions at several sliding speeds.

Table 1 viscoelastic material, 100 MPa, v in {1, 10, 100}, Boussinesq and mean field (spec S11).
Each run starts from the same t = 0+ state and slides ``slip``; the force PDF (spec §3.9:
histogram of contact forces normalised by the total element count and the bin width) is pooled
over the second half of the slip (steady state, spec R26).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Scenario, check, register_scenario
from ._sliding import (MODEL, QUICK_BASE, QUICK_VELOCITY_NOTE, REFS, SLIDING, build_model, slide, INTEGRATOR)

CONFIG = {
    "model": dict(MODEL),
    "integrator": dict(INTEGRATOR),
    "protocol": {**SLIDING, "velocities": [1.0, 10.0, 100.0], "slip": 200.0},
}


def run(cfg: dict, quick: bool) -> xr.Dataset:
    pr = cfg["protocol"]
    rows = []
    for inter in ("boussinesq", "meanfield"):
        m = build_model(cfg, interaction=inter)
        per = []
        for v in pr["velocities"]:
            r = slide(cfg, m, [v], [pr["slip"]], pdf_after_slip=0.5 * float(pr["slip"]))
            per.append(xr.Dataset({"force_pdf": r.force_pdf, "force_bin_width": r.force_bin_width,
                                   "area_fraction": ((), float(r.area_fraction.values[r.slip.values >= 0.5 * pr["slip"]].mean())),
                                   "mean_force_per_element": ((), float(-np.mean(r.normal_force.values)) / (r.nx * r.ny))}))
        rows.append(xr.concat(per, dim="v").assign_coords(v=[float(v) for v in pr["velocities"]]))
    ds = xr.concat(rows, dim="interaction").assign_coords(interaction=["boussinesq", "meanfield"])
    n = int(cfg["model"]["patch_nx"])
    ds.attrs["W_over_N"] = float(-r.normal_force.values[0]) / (n * n)
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    WN = float(ds.attrs["W_over_N"])
    for inter in ds.interaction.values:
        s = ds.sel(interaction=inter)
        w, c = s.force_bin_width.values[0], s.force_bin.values
        m0 = (s.force_pdf.values * w).sum(axis=1)
        m1 = (s.force_pdf.values * w * c).sum(axis=1)
        out.append(check(f"{inter}: zeroth moment (contact fraction) decreases with v", "strictly decreasing",
                         ", ".join(f"{x:.5f}" for x in m0), bool(np.all(np.diff(m0) < 0))))
        out.append(check(f"{inter}: first moment equals W/N for every v", f"{WN:.4e} (binned within 5 %)",
                         ", ".join(f"{x:.4e}" for x in m1), bool(np.all(np.abs(m1 / WN - 1) < 0.05))))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    for k, inter in enumerate(ds.interaction.values):
        for v in ds.v.values:
            ax[k].loglog(ds.force_bin, ds.force_pdf.sel(interaction=inter, v=v), label=f"v={v:g}")
        ax[k].set(xlabel="force [F*]", ylabel="PDF (per element)", title=str(inter))
        ax[k].legend()
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="rough-contact/fig11",
    description=("Hulikal et al. Fig. 11: steady-state contact-force PDFs at v = 1, 10, 100, viscoelastic Table 1, "
                 "100 MPa, Boussinesq and mean field, 512^2 on 1024 x 512." + QUICK_VELOCITY_NOTE),
    config=CONFIG, run=run, checks=checks, plot=plot,
    quick={**QUICK_BASE, "model.surface_mx": 128, "protocol.slip": 40.0},
    references=REFS, slow=True,
))
