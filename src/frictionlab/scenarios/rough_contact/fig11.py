"""``rough-contact/fig11``: steady-state contact-force distributions at several sliding speeds.

Table 1 viscoelastic material, 100 MPa, v in {1, 10, 100}, Boussinesq and mean field (Sect. 5.2,
Fig. 11). Each run starts from the same t = 0+ state and slides ``slip``; the force PDF (histogram
of contact forces normalised by the total element count and the bin width, so that its zeroth
moment is the contact fraction and its first the mean force per element, as Sect. 5.2 reads them)
is pooled over the second half of the slip (our steady state: the paper does not say how it
measured it).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Mutation, Scenario, check, register_scenario
from ._sliding import (MODEL, MOVED_SLIDING, PROTOCOL, QUICK_BASE, QUICK_VELOCITY_NOTE, REFS, UM, build_model, slide,
                       INTEGRATOR)

#: no viscoelastic relaxation (A = 0 in eq. 5): the contacts do not depend on the velocity
NO_RELAX = Mutation("no viscoelastic relaxation: A = 0 in eq. 5", {"model.As": [0.0]})

CONFIG = {
    "model": dict(MODEL),
    "integrator": dict(INTEGRATOR),
    "protocol": {**PROTOCOL, "distances": [200.0 * UM]},
    "sweep": {"velocities": [1.0 * UM, 10.0 * UM, 100.0 * UM]},  # one run per velocity [m/s]
}
DERIVED = {"protocol.velocities": "sweep.velocities (one run per velocity)"}
MOVED = {**MOVED_SLIDING}


def run(cfg: dict, quick: bool) -> xr.Dataset:
    L = float(cfg["protocol"]["distances"][0])
    vels = [float(v) for v in cfg["sweep"]["velocities"]]
    rows = []
    for inter in ("boussinesq", "meanfield"):
        m = build_model(cfg, interaction=inter)
        per = []
        for v in vels:
            r = slide(cfg, m, [v], pdf_after_slip=0.5 * L)
            per.append(xr.Dataset({"force_pdf": r.force_pdf, "force_bin_width": r.force_bin_width,
                                   "contact_area": ((), float(r.contact_area.values[r.slip.values >= 0.5 * L].mean()),
                                                    {"units": "1", "description": "fraction of the patch in contact"}),
                                   "mean_force_per_element": ((), float(np.mean(r.normal_force.values)) / (r.nx * r.ny),
                                                              {"units": "N"})}))
        rows.append(xr.concat(per, dim="v").assign_coords(v=("v", vels, {"units": "m/s"})))
    ds = xr.concat(rows, dim="interaction").assign_coords(interaction=["boussinesq", "meanfield"])
    n = int(cfg["model"]["patch_nx"])
    ds.attrs["W_over_N"] = float(r.normal_force.values[0]) / (n * n)  # N
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    WN = float(ds.attrs["W_over_N"])
    for inter in ds.interaction.values:
        s = ds.sel(interaction=inter)
        w, c = s.force_bin_width.values[0], s.force_bin.values
        m0 = (s.force_pdf.values * w).sum(axis=1)
        m1 = (s.force_pdf.values * w * c).sum(axis=1)
        out.append(check(f"{inter}: zeroth moment (contact fraction) decreases with v (Sect. 5.2, Fig. 11)",
                         "strictly decreasing",
                         ", ".join(f"{x:.5f}" for x in m0), bool(np.all(np.diff(m0) < 0)), mutations=(NO_RELAX,)))
        out.append(check(f"{inter}: first moment equals W/N for every v (Sect. 5.2: 'by the design of the numerical "
                         "experiments')", f"{WN:.4e} N (binned within 5 %)",
                         ", ".join(f"{x:.4e}" for x in m1) + " N", bool(np.all(np.abs(m1 / WN - 1) < 0.05)), kind="verification"))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    for k, inter in enumerate(ds.interaction.values):
        for v in ds.v.values:
            ax[k].loglog(ds.force_bin, ds.force_pdf.sel(interaction=inter, v=v), label=f"v={v / UM:g} um/s")
        ax[k].set(xlabel="force [N]", ylabel="PDF (per element) [1/N]", title=str(inter))
        ax[k].legend()
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="rough-contact/fig11",
    description=("Hulikal et al. Fig. 11: steady-state contact-force PDFs at v = 1, 10, 100, viscoelastic Table 1, "
                 "100 MPa, Boussinesq and mean field, 512^2 on 1024 x 512." + QUICK_VELOCITY_NOTE),
    config=CONFIG, run=run, checks=checks, plot=plot, units={"sweep.velocities": "m/s"},
    quick={**QUICK_BASE, "model.surface_mx": 128, "protocol.distances": [40.0 * UM]},
    references=REFS, slow=True, derived=DERIVED, moved=MOVED,
))
