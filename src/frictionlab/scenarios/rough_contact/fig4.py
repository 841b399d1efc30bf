"""``rough-contact/fig4``: contact evolution and force distributions in a static hold.

Table 1 viscoelastic material (lambda = 1, A = 0.2), 100 MPa, instantaneous loading at t = 0+,
then a hold to t = 1e3 (Sect. 4, 4.1). Boussinesq interaction and mean field on the same surface;
mean contact radius over several surface realisations (Fig. 4d).

The study: runs ``boussinesq`` and ``meanfield`` (the two interactions on the base surface) and
``realisations`` (Boussinesq holds on the other surfaces of Fig. 4d, its own axis
``runs.realisations.axes.model.surface_seed``); the post step stacks the two interactions and adds
the mean and spread of the contact radius over the ``boussinesq`` run and the realisations.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Mutation, Scenario, check, register_scenario
from ._common import (INTEGRATOR, MODEL, MODEL_NAME, MOVED_HOLD, UM, force_on_patch, hold_protocol, quick_size,
                      runs_driver)

#: no viscoelastic relaxation (A = 0 in eq. 5): nothing evolves during the hold
NO_RELAX = Mutation("no viscoelastic relaxation: A = 0 in eq. 5", {"model.As": [0.0]})
#: the nominal pressure read as 1 GPa instead of Sect. 4's 100 MPa (the normal force of 1 GPa on the quick
#: profile's 128 x 128 um patch, where mutations run)
PRESSURE_1GPA = Mutation("nominal pressure read as 1 GPa (Sect. 4: 100 MPa)",
                         {"protocol.normal_force_value": force_on_patch(1e9, 128)})
#: Table 1's A read 25x larger (A/lambda = 5): the area grows by a factor, the contacts grow with it
A_LARGE = Mutation("Table 1's A read as 5 (A/lambda = 5 instead of 0.2)", {"model.As": [5.0]})

CONFIG = {
    "model": dict(MODEL),
    "protocol": hold_protocol(1e3),
    # the force maps and PDFs of Fig. 4 [s]
    "integrator": {**INTEGRATOR, "snapshot_times": [0.0, 10.0, 100.0, 1e3]},
    "runs": {"boussinesq": {"model": {"interaction": "boussinesq"}},
             "meanfield": {"model": {"interaction": "meanfield"}},
             # the other surface realisations of Fig. 4d (15 with the base surface, seed 0)
             "realisations": {"model": {"interaction": "boussinesq"},
                              "axes": {"model": {"surface_seed": list(range(1, 15))}}}},
}
_SEEDS = ("the surface realisations besides the base surface are the seeds of "
          "runs.realisations.axes.model.surface_seed")
MOVED = {**MOVED_HOLD, "protocol.snapshots": "the snapshot times are integrator.snapshot_times [s]",
         "protocol.seeds": _SEEDS, "sweep.seeds": _SEEDS}


def post(result, cfg: dict) -> xr.Dataset:
    """The holds of both interactions along ``interaction``, with the mean contact radius (and its
    spread) over the Boussinesq holds on every surface realisation (Fig. 4d)."""
    runs = [result.pick("boussinesq"), result.pick("meanfield")]
    ds = xr.concat(runs, dim="interaction", combine_attrs="drop_conflicts", coords="minimal",
                   compat="override")
    ds = ds.assign_coords(interaction=["boussinesq", "meanfield"])
    radii = np.array([r.mean_contact_radius.values for r in [runs[0], *result.of_run("realisations")]])
    ds["radius_mean"] = ("time", radii.mean(axis=0), {"units": "m"})
    ds["radius_std"] = ("time", radii.std(axis=0), {"units": "m"})
    ds.attrs["n_seeds"] = len(radii)
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    b = ds.sel(interaction="boussinesq")
    n_el = b.sizes["x"] * b.sizes["y"]
    W = float(b.normal_force.values[0])  # N
    af0 = float(b.contact_area.values[0])
    afm = float(ds.sel(interaction="meanfield").contact_area.values[0])
    out.append(check("Real contact area is of order 1 % of nominal at t=0+ (Boussinesq; Sect. 2.6: C0 = 16 'gives us "
                     "true contact areas of the order of 1%')", "0.5 % .. 3 %",
                     f"{100 * af0:.3f} % (mean field {100 * afm:.3f} %)", 0.005 <= af0 <= 0.03,
                     "'of the order of 1 %' read as 0.5-3 %", mutations=(PRESSURE_1GPA,)))
    pdf = b.force_pdf.values
    w = b.force_bin_width.values
    c = b.force_bin.values
    m0 = (pdf * w).sum(axis=1)
    m1 = (pdf * w * c).sum(axis=1)
    out.append(check("Final force PDF has a larger zeroth moment (contact fraction) than at t=0+ (Fig. 4c)",
                     "m0(end) > m0(0+)", f"{m0[0]:.5f} -> {m0[-1]:.5f}", m0[-1] > m0[0], mutations=(NO_RELAX,)))
    # first moment: exactly W/N from the forces themselves, and the binned estimate within 5 %
    f0 = b.contact_force.values[0].sum() / n_el
    f1 = b.contact_force.values[-1].sum() / n_el
    out.append(check("First moment of the force PDF equals W/N at start and end (Sect. 4.1: 'by the design of the "
                     "numerical experiment')",
                     f"{W / n_el:.4e} N (binned estimate within 5 %)",
                     f"exact {f0:.4e}, {f1:.4e}; binned {m1[0]:.4e}, {m1[-1]:.4e} N",
                     abs(f0 / (W / n_el) - 1) < 1e-5 and abs(f1 / (W / n_el) - 1) < 1e-5
                     and np.all(np.abs(m1 / (W / n_el) - 1) < 0.05), kind="verification"))
    mf = b.mean_force_per_contact.values
    out.append(check("Mean force per contact decreases during the hold (Fig. 4c caption)",
                     "end < start by more than the solver's resolution (rel. 1e-6)",
                     f"{mf[0]:.4g} -> {mf[-1]:.4g} N", mf[-1] < mf[0] * (1 - 1e-6), mutations=(NO_RELAX,)))
    nc = b.n_clusters.values
    ar = b.real_contact_area.values
    ft = b.first_contact_time.values
    new10 = int(((ft > 0) & (ft <= 10)).sum())
    new100 = int(((ft > 10) & (ft <= 100)).sum())
    out.append(check("Existing contacts grow and new ones appear (Fig. 4a: new contact elements by t=10 and t=100)",
                     "> 0 new elements and area grows", f"new: {new10} (<=10), {new100} (10..100); clusters {nc[0]:.0f} -> {nc[-1]:.0f}",
                     new10 > 0 and ar[-1] > ar[0], mutations=(NO_RELAX,)))
    rm = ds.radius_mean.values
    rs = ds.radius_std.values
    rel = abs(rm[-1] / rm[0] - 1)
    growth = ar[-1] / ar[0] - 1
    out.append(check("Mean contact radius nearly constant while the area grows (Sect. 4.1, Fig. 4d)",
                     f"|r(end)/r(0+) - 1| < 10 % ({ds.attrs.get('n_seeds', 1)} seeds)",
                     f"{rm[0] / UM:.3f}+-{rs[0] / UM:.3f} -> {rm[-1] / UM:.3f}+-{rs[-1] / UM:.3f} um ({100 * rel:.1f} %; "
                     f"area +{100 * growth:.1f} %)",
                     rel < 0.10, "'remains nearly constant' read as within 10 % (the paper gives no number)",
                     mutations=(A_LARGE,)))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    b = ds.sel(interaction="boussinesq")
    fig, ax = plt.subplots(1, 3, figsize=(14, 4))
    ft = b.first_contact_time.values
    epoch = np.full(ft.shape, np.nan)
    epoch[ft == 0] = 0
    epoch[(ft > 0) & (ft <= 10)] = 1
    epoch[(ft > 10) & (ft <= 100)] = 2
    ax[0].imshow(epoch.T, origin="lower", cmap="viridis", interpolation="nearest")
    ax[0].set_title("first contact: t=0 / <=10 / <=100")
    for k in range(b.sizes["snapshot"]):
        ax[1].loglog(b.force_bin, b.force_pdf[k], label=f"t={float(b.snapshot_time[k]):g}")
    ax[1].set(xlabel="force [N]", ylabel="PDF (per element) [1/N]")
    t = ds.time.values[1:]
    ax[2].errorbar(t, ds.radius_mean.values[1:] / UM, ds.radius_std.values[1:] / UM, fmt="-", errorevery=5)
    ax[2].set(xscale="log", xlabel="time [s]", ylabel="mean contact radius [um]")
    return fig


register_scenario(Scenario(
    name="rough-contact/fig4",
    description="""Hulikal et al. Fig. 4: static hold at 100 MPa, viscoelastic lambda=1, A=0.2, 512^2, beta=10; contact map by
        first-contact epoch, force PDFs at t=0+ and t=1e3, mean contact radius (15 seeds).""",
    config=CONFIG, run=None, derive=runs_driver("hold"), post=post, checks=checks, plot=plot,
    quick={**quick_size(128), "integrator.per_decade": 8, "runs.realisations.axes.model.surface_seed": [1, 2]},
    references=["Hulikal, Lapusta & Bhattacharya (2015)"], slow=True, moved=MOVED, derived=dict(MODEL_NAME),
))
