"""``rough-contact/fig10``: force maps of the ensemble while sliding (contacts born, grow, die).

Boussinesq, Table 1 viscoelastic material, 100 MPa, v = 5 (Sect. 5.1, Fig. 10). After a run-in slip,
10 snapshots spaced dt = 1 (slip 5 between snapshots), plus one after a further slip of
``replace_betas`` correlation lengths to test that all contacts are eventually replaced.
The plot shows the full field (linear and log colour) and a ``window x window`` corner.

Notes
-----
The run-in length and the window position are not stated in the paper: run-in 50,
window at the patch corner (64 x 64; the whole patch in the quick profile).

The study is the one slide of ``[protocol]``; its slip (``protocol.distances``) and the snapshot times
(``integrator.snapshot_times``) are derived from ``[analysis]``.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Mutation, Scenario, check, register_scenario
from ._common import MODEL_NAME, one_driver
from ._sliding import INTEGRATOR, MODEL, MOVED_SLIDING, PROTOCOL, QUICK_BASE, REFS, UM, build_model

#: the velocity of Fig. 10 read in nm/s (v = 0.005 um/s): 0.005 um of slip between the snapshots
V_NM = Mutation("v = 5 read as 5 nm/s (0.005 um of slip between the snapshots)", {"protocol.velocities": [5e-9]})

CONFIG = {
    "model": dict(MODEL),
    "integrator": dict(INTEGRATOR),
    # the slip (protocol.distances) follows from the run-in, the snapshots and the replacement slip
    "protocol": {**PROTOCOL, "velocities": [5.0 * UM]},
    # run_in [m], snapshot_dt [s], replace_betas [correlation lengths], window [elements]
    "analysis": {"run_in": 50.0 * UM, "n_snapshots": 10, "snapshot_dt": 1.0, "replace_betas": 4.0, "window": 64},
}
DERIVED = {"protocol.distances": "analysis.run_in, analysis.n_snapshots, analysis.snapshot_dt and "
                                 "analysis.replace_betas (the slip runs to the last snapshot)",
           "integrator.snapshot_times": "analysis.run_in, analysis.n_snapshots, analysis.snapshot_dt and "
                                       "analysis.replace_betas", **MODEL_NAME}
MOVED = {**MOVED_SLIDING, **{f"protocol.{k}": f"it is analysis.{k}" + (" [m]" if k == "run_in" else "")
                             for k in ("run_in", "n_snapshots", "snapshot_dt", "replace_betas", "window")}}


def derive(point, cfg: dict) -> dict:
    """The snapshot times [s] (after the run-in, every ``snapshot_dt``, and one after ``replace_betas``
    correlation lengths more) and the slip [m] to the last of them."""
    one_driver(point, "sliding")
    an = cfg["analysis"]
    v = float(point["protocol"]["velocities"][0])
    t0 = float(an["run_in"]) / v
    times = [t0 + k * float(an["snapshot_dt"]) for k in range(int(an["n_snapshots"]))]
    beta = build_model(point.config).surface_beta  # m (model field)
    t_last = times[-1] + float(an["replace_betas"]) * beta / v
    times.append(t_last)
    return {"protocol.distances": [v * t_last], "integrator.snapshot_times": tuple(times)}


def post(result, cfg: dict) -> xr.Dataset:
    """The slide's dataset, with the plotted window (elements, at most the patch)."""
    ds = result.combine()
    ds.attrs["window"] = int(min(int(cfg["analysis"]["window"]), int(result.points[0]["model"]["patch_nx"])))
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    P = ds.contact_force.values > 0
    nsn = P.shape[0] - 1
    born = [int(np.sum(P[k + 1] & ~P[k])) for k in range(nsn - 1)]
    died = [int(np.sum(P[k] & ~P[k + 1])) for k in range(nsn - 1)]
    out.append(check("Between consecutive snapshots contacts are born and die (Sect. 5.1, Fig. 10c)",
                     "every interval: born > 0, died > 0",
                     f"born {born}, died {died}", min(born) > 0 and min(died) > 0, mutations=(V_NM,)))
    # follow contacts in the rigid-surface frame: the rigid point under element i at snapshot k+1
    # was under element i + ds at snapshot k (ds = slip between snapshots, an integer here)
    F = ds.contact_force.values
    sl = ds.snapshot_slip.values
    grew = shrank = 0
    for k in range(nsn - 1):
        sh = int(round((sl[k + 1] - sl[k]) / float(ds.attrs["dx"])))  # elements (dx [m])
        a, b = F[k][sh:], F[k + 1][: F.shape[1] - sh]
        both = (a > 0) & (b > 0)
        grew += int(np.sum(b[both] > a[both]))
        shrank += int(np.sum(b[both] < a[both]))
    out.append(check("Contacts (followed on the rigid surface) grow or shrink between consecutive snapshots (Sect. 5.1)",
                     "both present (element forces on rigid points in contact in both maps)",
                     f"{grew} grew, {shrank} shrank", grew > 0 and shrank > 0, mutations=(V_NM,)))
    overlap = float(np.sum(P[0] & P[-1]) / max(np.sum(P[0]), 1))
    frac = float(P[-1].mean())
    out.append(check(f"All contacts are eventually replaced (Sect. 5.1; after {cfg['analysis']['replace_betas']:g} beta "
                     "of slip)",
                     "overlap with the first snapshot < 3x the chance level (area fraction) + 0.05",
                     f"overlap {overlap:.3f}, chance {frac:.3f}", overlap < 3 * frac + 0.05,
                     insensitive="after several correlation lengths of slip the patch faces an independent stretch of "
                                 "the rigid surface, whatever the material or velocity"))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt
    from matplotlib.colors import LogNorm

    w = int(ds.attrs.get("window", 64))
    P = ds.contact_force.values
    fig = plt.figure(figsize=(14, 7))
    ax1 = fig.add_subplot(2, 7, (1, 8))
    ax1.imshow(P[0].T, origin="lower", cmap="viridis")
    ax1.add_patch(plt.Rectangle((-0.5, -0.5), w, w, fill=False, ec="r"))
    ax1.set_title("force map")
    ax2 = fig.add_subplot(2, 7, (2, 9))
    ax2.imshow(np.where(P[0] > 0, P[0], np.nan).T, origin="lower", norm=LogNorm(), cmap="viridis")
    ax2.set_title("log scale")
    for k in range(min(10, P.shape[0] - 1)):
        a = fig.add_subplot(2, 7, 3 + k % 5 + 7 * (k // 5))
        a.imshow(P[k, :w, :w].T, origin="lower", cmap="viridis", vmin=0, vmax=float(P[:, :w, :w].max()))
        a.set_title(f"t={float(ds.snapshot_time[k]):.0f}", fontsize=8)
        a.axis("off")
    return fig


register_scenario(Scenario(
    name="rough-contact/fig10",
    description="""Hulikal et al. Fig. 10: force maps at 10 times spaced dt = 1 while sliding at v = 5 (slip 5 between maps),
        full field linear/log and a 64 x 64 window; Boussinesq, viscoelastic Table 1.""",
    config=CONFIG, run=None, derive=derive, post=post, checks=checks, plot=plot,
    units={"analysis.run_in": "m", "analysis.snapshot_dt": "s"},
    quick={**QUICK_BASE, "model.surface_mx": 160, "analysis.run_in": 20.0 * UM},
    references=REFS, slow=True, derived=DERIVED, moved=MOVED,
))
