"""``rough-contact/fig16``: permanent deformation of viscoplastic asperities by sliding.

Table 1 viscoplastic material with A_cr = 1e-3 um/s (Fig. 16 does not print its creep rate: chosen so the
effect is visible), Boussinesq, 100 MPa, slide v = 10 for ``slip`` (paper 200) (Sect. 5.6, Fig. 16). Outputs the surface
u_p + h(x0 + xbar, y0) at the start and the end, a line profile along x through the most
deformed element and the map of u_p.

The study is the one slide of ``[protocol]`` (``"sliding"`` driver, surface snapshots at the start
and at the end of the first step: ``integrator.snapshot_times``, derived); the post step adds the
highest rigid height each element passed over (read from the model's surface, no simulation).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...contact.rough.driver import rigid_surface
from ...contact.rough.units import to_si_value
from ..base import Mutation, Scenario, check, register_scenario
from ._common import MODEL_NAME, one_driver, point_model
from ._sliding import INTEGRATOR, MODEL, MOVED_SLIDING, PROTOCOL, QUICK_BASE, REFS, UM

#: the yield force read 100x larger (Table 1: 0.016 = 4 GPa): creep, and any blunting, become negligible
FY_100X = Mutation("initial yield force read as 1.6 F* (Table 1: 0.016 F*, i.e. 4 GPa)",
                   {"model.Fy0": to_si_value(1.6, "N")})
#: plastic shortening below this [m] (1e-3 um = 1e-3 sigma) is not a visible deformation
VISIBLE_UP = 1e-3 * UM

CONFIG = {
    "model": {**MODEL, "preset": "fig7", "A_cr": 1e-3 * UM},  # m/s: the paper's 1e-3 um/s
    "integrator": dict(INTEGRATOR),
    "protocol": {**PROTOCOL, "velocities": [10.0 * UM], "distances": [200.0 * UM]},
}


DERIVED = {"integrator.snapshot_times": "protocol.velocities and protocol.distances (the start and the end of the "
                                         "first step)"}


def derive(point, cfg: dict) -> dict:
    """The surface snapshots of Fig. 16: at t = 0 and at the end of the first velocity step [s]."""
    one_driver(point, "sliding")
    pr = point["protocol"]
    return {"integrator.snapshot_times": (0.0, float(pr["distances"][0]) / float(pr["velocities"][0]))}


def post(result, cfg: dict) -> xr.Dataset:
    """The slide's dataset with the highest rigid height each element passed over and the surface
    without its plastic shortening at the end."""
    ds = result.combine()
    m = point_model(result)
    L = float(sum(result.points[0]["protocol"]["distances"]))
    h = rigid_surface(m)  # heights in the model's um
    n = m.patch_nx
    # highest rigid height each element passed over (integer rows of its path)
    k = int(np.ceil(L / m.dx - 1e-9))
    hmax = np.stack([h[i: i + k + 1, :n].max(axis=0) for i in range(n)])
    ds["path_max_height"] = (("x", "y"), to_si_value(hmax, "m"), {"units": "m"})
    ds["undeformed_surface_end"] = (("x", "y"), ds.deformed_surface.values[-1] - ds.plastic_shortening_map.values[-1],
                                    {"units": "m"})
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    up = ds.plastic_shortening.values
    out.append(check("u_p <= 0 everywhere (plastic flow only shortens)", "max u_p <= 0", f"{up.max() / UM:.3e} um",
                     bool(up.max() <= 0), kind="verification"))
    hm = ds.path_max_height.values
    deformed = up < -VISIBLE_UP
    c = float(np.corrcoef(-up.ravel(), hm.ravel())[0, 1])
    m_def = float(hm[deformed].mean()) if deformed.any() else np.nan
    m_rest = float(hm[~deformed].mean())
    out.append(check("u_p is concentrated on elements that passed over high rigid peaks (Sect. 5.6: 'the deformable "
                     "elements that pass over the highest peaks ... get permanently deformed')",
                     "corr(-u_p, path max height) > 0 and deformed elements passed higher peaks",
                     f"corr {c:.3f}; mean path max {m_def / UM:.3f} um (u_p < -1e-3 um, {int(deformed.sum())} el.) vs "
                     f"{m_rest / UM:.3f} um",
                     c > 0 and m_def > m_rest, mutations=(FY_100X,)))
    srf = ds.deformed_surface.values[-1]
    h0 = ds.undeformed_surface_end.values
    q_def, q_h = float(np.quantile(srf, 0.999)), float(np.quantile(h0, 0.999))
    out.append(check("High peaks are blunted: the top of the surface u_p + h is lower than h alone (end position; "
                     "Sect. 5.6, Fig. 16)", f"99.9 % height quantile lower by more than {VISIBLE_UP / UM:g} um",
                     f"{q_def / UM:.4f} vs {q_h / UM:.4f} um (max u_p {up.min() / UM:.4f} um)", q_def < q_h - VISIBLE_UP,
                     mutations=(FY_100X,)))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, ax = plt.subplots(1, 4, figsize=(18, 4))
    s0, s1 = ds.deformed_surface.values[0], ds.deformed_surface.values[-1]
    vmin, vmax = float(min(s0.min(), s1.min())), float(max(s0.max(), s1.max()))
    ax[0].imshow(s0.T, origin="lower", vmin=vmin, vmax=vmax)
    ax[0].set_title("u_p + h, start")
    ax[1].imshow(s1.T, origin="lower", vmin=vmin, vmax=vmax)
    ax[1].set_title("u_p + h, end")
    up = ds.plastic_shortening.values
    j = int(np.unravel_index(np.argmin(up), up.shape)[1]) if up.min() < 0 else s1.shape[1] // 2  # most deformed row
    ax[2].plot(ds.undeformed_surface_end.values[:, j], label="h")
    ax[2].plot(s1[:, j], label="u_p + h")
    ax[2].set_title(f"profile y = {j}")
    im = ax[3].imshow(ds.plastic_shortening.values.T, origin="lower", cmap="magma")
    fig.colorbar(im, ax=ax[3])
    ax[3].set_title("u_p")
    return fig


register_scenario(Scenario(
    name="rough-contact/fig16",
    description="""Hulikal et al. Fig. 16: surface u_p + h before/after sliding 200 at v = 10 with viscoplastic asperities
        (A_cr = 1e-3), Boussinesq, 100 MPa, 512^2 on 1024 x 512; profile and u_p map.""",
    config=CONFIG, run=None, post=post, derive=derive, derived={**DERIVED, **MODEL_NAME}, checks=checks, plot=plot,
    quick={**QUICK_BASE, "model.surface_mx": 128, "protocol.distances": [50.0 * UM]},
    references=REFS, slow=True, moved=dict(MOVED_SLIDING),
))
