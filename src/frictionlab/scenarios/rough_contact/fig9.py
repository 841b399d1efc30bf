"""``rough-contact/fig9``: one element's force, length change and gap while sliding.

Boussinesq interaction, Table 1 viscoelastic material (lambda = 1, A = 0.2), 100 MPa, v = 5
(Sect. 5.1, Fig. 9; the velocity of Fig. 9 is not printed, v = 5 is that of Fig. 10). Seeded random probe elements record F_i (paper sign, <= 0), u_i and the gap d_i at
every step.

Notes
-----
The paper shows one typical element; which one is not stated. Many seeded random
probes are recorded and the checks use those that touch the rigid surface: the study is the one
slide of ``[protocol]`` (``"sliding"`` driver) whose ``integrator.probes`` are derived from
``analysis.n_probes`` and ``analysis.probe_seed``.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Mutation, Scenario, check, register_scenario
from ._common import MODEL_NAME, combined, force_on_patch, one_driver
from ._sliding import INTEGRATOR, MODEL, MOVED_SLIDING, PROTOCOL, QUICK_BASE, REFS, UM

#: the nominal pressure read as 1 MPa (Sect. 5: 100 MPa): too few contacts for a probe to touch twice (the
#: normal force of 1 MPa on the quick profile's 64 x 64 um patch, where mutations run)
PRESSURE_1MPA = Mutation("nominal pressure read as 1 MPa (Sect. 5: 100 MPa)",
                         {"protocol.normal_force_value": force_on_patch(1e6, 64)})

CONFIG = {
    "model": dict(MODEL),
    "integrator": dict(INTEGRATOR),
    "protocol": {**PROTOCOL, "velocities": [5.0 * UM], "distances": [200.0 * UM]},
    "analysis": {"n_probes": 100, "probe_seed": 1},
}
MOVED = {**MOVED_SLIDING, "protocol.n_probes": "the probe count is analysis.n_probes",
         "protocol.probe_seed": "the probes' seed is analysis.probe_seed"}


DERIVED = {"integrator.probes": "analysis.n_probes and analysis.probe_seed (seeded random elements)"}


def derive(point, cfg: dict) -> dict:
    """The probe elements: ``analysis.n_probes`` distinct elements of the patch drawn with ``analysis.probe_seed``."""
    one_driver(point, "sliding")
    an = cfg["analysis"]
    n = int(point["model"]["patch_nx"])
    rng = np.random.default_rng(int(an["probe_seed"]))
    flat = rng.choice(n * n, size=min(int(an["n_probes"]), n * n), replace=False)
    return {"integrator.probes": tuple((int(k // n), int(k % n)) for k in flat)}


def _episodes(in_contact: np.ndarray) -> int:
    return int(np.sum(np.diff(in_contact.astype(int)) == 1) + (1 if in_contact[0] else 0))


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    F = ds.probe_force.values
    g = ds.probe_gap.values
    u = ds.probe_length_change.values
    touching = F < 0
    eps = np.array([_episodes(touching[:, k]) for k in range(F.shape[1])])
    repeat = int(np.sum(eps >= 2))
    out.append(check("Elements go in and out of contact repeatedly (Sect. 5.1, Fig. 9)",
                     ">= 1 probe with >= 2 contact episodes",
                     f"{repeat} of {F.shape[1]} probes (max {eps.max()} episodes)", repeat >= 1, mutations=(PRESSURE_1MPA,)))
    gap_c = float(np.max(np.abs(g[touching]))) if touching.any() else 0.0
    gap_f = float(np.min(g[~touching]))
    out.append(check("Complementarity: gap = 0 while F < 0, F = 0 and gap >= 0 out of contact",
                     "|gap| <= 1e-6 um in contact, gap >= -1e-6 um out",
                     f"max |gap| {gap_c / UM:.2e} um, min free gap {gap_f / UM:.2e} um",
                     gap_c <= 1e-6 * UM and gap_f >= -1e-6 * UM, kind="verification",
                     ambiguity="eq. 16 enforced by the solver: a check of our numerics"))
    # out of contact, u changes through viscoelastic recovery and the Boussinesq coupling
    free_du = [np.ptp(u[~touching[:, k], k]) for k in range(F.shape[1]) if (~touching[:, k]).sum() > 2]
    med = float(np.median(free_du)) if free_du else 0.0
    out.append(check("Out of contact, F_i = 0 but u_i still evolves (Sect. 5.1: recovery, global dilatation)",
                     "median range of u_i out of contact > 1e-4 um", f"{med / UM:.3e} um", med > 1e-4 * UM,
                     insensitive="with the Boussinesq coupling of eq. 8 every element's length follows the forces of "
                                 "all contacts, which move while sliding: it changes for any material"))
    W = ds.normal_force.values
    d = ds.dilatation.values
    out.append(check("Dilatation wiggles to keep the normal force constant (Sect. 5.1, Fig. 9 region 1)",
                     "std(d) > 0 and sum p = W",
                     f"std(d) = {np.std(d) / UM:.3e} um, W range {np.ptp(W):.1e} N", np.std(d) > 0 and np.ptp(W) == 0,
                     insensitive="sliding a rough surface under a prescribed load moves the dilatation for every "
                                 "surface and material; the constant load is the protocol"))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    F = ds.probe_force.values
    k = int(np.argmax([np.sum(np.diff((F[:, j] < 0).astype(int)) == 1) for j in range(F.shape[1])]))
    t = ds.time.values
    fig, ax = plt.subplots(3, 1, figsize=(8, 7), sharex=True)
    ax[0].plot(t, F[:, k])
    ax[0].set_ylabel("F_i [N]")
    ax[1].plot(t, (ds.dilatation.values - ds.probe_length_change.values[:, k]) / UM)
    ax[1].set_ylabel("d - u_i [um]")
    ax[2].plot(t, ds.probe_gap.values[:, k] / UM)
    ax[2].set(ylabel="gap d_i [um]", xlabel="time [s]")
    return fig


register_scenario(Scenario(
    name="rough-contact/fig9",
    description="""Hulikal et al. Fig. 9: force, length change and gap of single elements while sliding at v = 5, Boussinesq,
        viscoelastic lambda = 1, A = 0.2, 100 MPa, 512^2 on 1024 x 512.""",
    config=CONFIG, run=None, derive=derive, derived={**DERIVED, **MODEL_NAME}, post=combined, checks=checks, plot=plot,
    quick={**QUICK_BASE, "model.surface_mx": 128, "protocol.distances": [40.0 * UM], "analysis.n_probes": 200},
    references=REFS, slow=True, moved=MOVED,
))
