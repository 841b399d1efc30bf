"""``rough-contact/fig11``: steady-state contact-force distributions at several sliding speeds.

Table 1 viscoelastic material, 100 MPa, v in {1, 10, 100}, Boussinesq and mean field (Sect. 5.2,
Fig. 11). Each run starts from the same t = 0+ state and slides ``slip``; the force PDF (histogram
of contact forces normalised by the total element count and the bin width, so that its zeroth
moment is the contact fraction and its first the mean force per element, as Sect. 5.2 reads them)
is pooled over the second half of the slip (our steady state: the paper does not say how it
measured it).

The study is one slide per point of ``axes.model.interaction`` x ``axes.protocol.velocities`` (one
single-step list ``[v]`` [m/s] per run); the driver pools the PDF after half the slip
(``integrator.pdf_after_slip``, derived); the post step keeps the PDFs and the steady means.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Mutation, Scenario, check, register_scenario
from ._common import MODEL_NAME, one_driver
from ._sliding import INTEGRATOR, MODEL, MOVED_SLIDING, PROTOCOL, QUICK_BASE, QUICK_VELOCITY_NOTE, REFS, UM

#: no viscoelastic relaxation (A = 0 in eq. 5): the contacts do not depend on the velocity
NO_RELAX = Mutation("no viscoelastic relaxation: A = 0 in eq. 5", {"model.As": [0.0]})

CONFIG = {
    "model": dict(MODEL),
    "integrator": dict(INTEGRATOR),
    "protocol": {**PROTOCOL, "distances": [200.0 * UM]},
    # both interactions, one run per velocity [m/s]
    "axes": {"model": {"interaction": ["boussinesq", "meanfield"]},
             "protocol": {"velocities": [[1.0 * UM], [10.0 * UM], [100.0 * UM]]}},
}
DERIVED = {"integrator.pdf_after_slip": "protocol.distances (the PDF is pooled over the second half of the slip)",
           **MODEL_NAME}
MOVED = {**MOVED_SLIDING, "sweep.velocities": "the velocities are axes.protocol.velocities [m/s], one list [v] per run"}


def derive(point, cfg: dict) -> dict:
    one_driver(point, "sliding")
    return {"integrator.pdf_after_slip": 0.5 * float(point["protocol"]["distances"][0])}


def post(result, cfg: dict) -> xr.Dataset:
    """Per interaction and velocity: the pooled force PDF, the steady contact fraction (second half of
    the slip) and the mean force per element; ``W_over_N`` [N] the load per element."""
    L = float(cfg["protocol"]["distances"][0])
    inters = result.axis_values("model.interaction")
    vlists = result.axis_values("protocol.velocities")
    vels = [float(v[0]) for v in vlists]
    rows = []
    for inter in inters:
        per = []
        for vl in vlists:
            r = result.pick(interaction=inter, velocities=vl)
            per.append(xr.Dataset({"force_pdf": r.force_pdf, "force_bin_width": r.force_bin_width,
                                   "contact_area": ((), float(r.contact_area.values[r.slip.values >= 0.5 * L].mean()),
                                                    {"units": "1", "description": "fraction of the patch in contact"}),
                                   "mean_force_per_element": ((), float(np.mean(r.normal_force.values)) / (r.nx * r.ny),
                                                              {"units": "N"})}))
        rows.append(xr.concat(per, dim="v").assign_coords(v=("v", vels, {"units": "m/s"})))
    ds = xr.concat(rows, dim="interaction").assign_coords(interaction=list(inters))
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
    from ...plot import facets

    return facets(ds, "force_bin", "force_pdf", col="interaction", hue="v", label=lambda v: f"v={v / UM:g} um/s",
                  xlabel="force [N]", ylabel="PDF (per element) [1/N]", logx=True, logy=True)


register_scenario(Scenario(
    name="rough-contact/fig11",
    description=("Hulikal et al. Fig. 11: steady-state contact-force PDFs at v = 1, 10, 100, viscoelastic Table 1, "
                 "100 MPa, Boussinesq and mean field, 512^2 on 1024 x 512." + QUICK_VELOCITY_NOTE),
    config=CONFIG, run=None, derive=derive, post=post, checks=checks, plot=plot,
    units={"axes.protocol.velocities": "m/s"},
    quick={**QUICK_BASE, "model.surface_mx": 128, "protocol.distances": [40.0 * UM]},
    references=REFS, slow=True, derived=DERIVED, moved=MOVED,
))
