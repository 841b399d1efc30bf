"""``rough-contact/fig9``: one element's force, length change and gap while sliding.

Boussinesq interaction, Table 1 viscoelastic material (lambda = 1, A = 0.2), 100 MPa, v = 5
(spec S9). Seeded random probe elements record F_i (paper sign, <= 0), u_i and the gap d_i at
every step.

Notes
-----
The paper shows one typical element; which one is not stated (spec R23). Many seeded random
probes are recorded and the checks use those that touch the rigid surface.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Scenario, check, register_scenario
from ._sliding import INTEGRATOR, MODEL, QUICK_BASE, REFS, SLIDING, build_model, slide, to_paper_units

CONFIG = {
    "model": dict(MODEL),
    "integrator": dict(INTEGRATOR),
    "protocol": {**SLIDING, "v": 5.0, "slip": 200.0, "n_probes": 100, "probe_seed": 1},
}


def run(cfg: dict, quick: bool) -> xr.Dataset:
    pr = cfg["protocol"]
    n = int(cfg["model"]["patch_nx"])
    rng = np.random.default_rng(int(pr["probe_seed"]))
    flat = rng.choice(n * n, size=min(int(pr["n_probes"]), n * n), replace=False)
    probes = tuple((int(k // n), int(k % n)) for k in flat)
    return slide(cfg, build_model(cfg, interaction="boussinesq"), [pr["v"]], [pr["slip"]], probes=probes, si=True)


def _episodes(in_contact: np.ndarray) -> int:
    return int(np.sum(np.diff(in_contact.astype(int)) == 1) + (1 if in_contact[0] else 0))


def checks(ds: xr.Dataset, cfg: dict) -> list:
    ds = to_paper_units(ds)  # the result is SI; the paper's criteria are in um and F*
    out = []
    F = ds.probe_force.values
    g = ds.probe_gap.values
    u = ds.probe_length_change.values
    touching = F < 0
    eps = np.array([_episodes(touching[:, k]) for k in range(F.shape[1])])
    repeat = int(np.sum(eps >= 2))
    out.append(check("Elements go in and out of contact repeatedly", ">= 1 probe with >= 2 contact episodes",
                     f"{repeat} of {F.shape[1]} probes (max {eps.max()} episodes)", repeat >= 1))
    gap_c = float(np.max(np.abs(g[touching]))) if touching.any() else 0.0
    gap_f = float(np.min(g[~touching]))
    out.append(check("Complementarity: gap = 0 while F < 0, F = 0 and gap >= 0 out of contact",
                     "|gap| <= 1e-6 in contact, gap >= -1e-6 out", f"max |gap| {gap_c:.2e}, min free gap {gap_f:.2e}",
                     gap_c <= 1e-6 and gap_f >= -1e-6))
    # out of contact, u changes through viscoelastic recovery and the Boussinesq coupling
    free_du = [np.ptp(u[~touching[:, k], k]) for k in range(F.shape[1]) if (~touching[:, k]).sum() > 2]
    med = float(np.median(free_du)) if free_du else 0.0
    out.append(check("Out of contact, F_i = 0 but u_i still evolves (recovery, long-range coupling)",
                     "median range of u_i out of contact > 1e-4", f"{med:.3e}", med > 1e-4))
    W = -ds.normal_force.values
    d = ds.dilatation.values
    out.append(check("Dilatation wiggles to keep the normal force constant", "std(d) > 0 and sum p = W",
                     f"std(d) = {np.std(d):.3e}, W range {np.ptp(W):.1e}", np.std(d) > 0 and np.ptp(W) == 0))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    ds = to_paper_units(ds)
    F = ds.probe_force.values
    k = int(np.argmax([np.sum(np.diff((F[:, j] < 0).astype(int)) == 1) for j in range(F.shape[1])]))
    t = ds.time.values
    fig, ax = plt.subplots(3, 1, figsize=(8, 7), sharex=True)
    ax[0].plot(t, F[:, k])
    ax[0].set_ylabel("F_i [F*]")
    ax[1].plot(t, ds.dilatation.values - ds.probe_length_change.values[:, k])
    ax[1].set_ylabel("d - u_i [um]")
    ax[2].plot(t, ds.probe_gap.values[:, k])
    ax[2].set(ylabel="gap d_i [um]", xlabel="time [s]")
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="rough-contact/fig9",
    description=("Hulikal et al. Fig. 9: force, length change and gap of single elements while sliding at v = 5, "
                 "Boussinesq, viscoelastic lambda = 1, A = 0.2, 100 MPa, 512^2 on 1024 x 512."),
    config=CONFIG, run=run, checks=checks, plot=plot,
    quick={**QUICK_BASE, "model.surface_mx": 128, "protocol.slip": 40.0, "protocol.n_probes": 200},
    references=REFS, slow=True,
))
