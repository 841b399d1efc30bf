"""``rough-contact/fig4``: contact evolution and force distributions in a static hold.

Table 1 viscoelastic material (lambda = 1, A = 0.2), 100 MPa, instantaneous loading at t = 0+,
then a hold to t = 1e3 (spec S4). Boussinesq interaction and mean field on the same surface;
mean contact radius over several surface realisations (Fig. 4d).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Scenario, check, register_scenario
from ...contact.rough.driver import to_paper_units
from ._common import INTEGRATOR, MODEL, build_model, hold, quick_size

CONFIG = {
    "model": dict(MODEL),
    "protocol": {"pressure_MPa": 100.0, "t_end": 1e3, "snapshots": [0.0, 10.0, 100.0, 1e3],
                 "seeds": 15},
    "integrator": dict(INTEGRATOR),
}


def run(cfg: dict, quick: bool) -> xr.Dataset:
    pr = cfg["protocol"]
    runs = []
    for inter in ("boussinesq", "meanfield"):
        m = build_model(cfg, interaction=inter)
        runs.append(hold(cfg, m, pr["t_end"], snapshot_times=tuple(pr["snapshots"]), si=True))
    ds = xr.concat(runs, dim="interaction", combine_attrs="drop_conflicts", coords="minimal",
                   compat="override")
    ds = ds.assign_coords(interaction=["boussinesq", "meanfield"])
    # Fig. 4d: mean contact radius over realisations (Boussinesq)
    radii = []
    base_seed = int(cfg["model"]["surface_seed"])
    m = build_model(cfg, interaction="boussinesq")
    for s in range(int(pr["seeds"])):
        if s == 0:
            radii.append(runs[0].mean_contact_radius.values)
            continue
        r = hold(cfg, m.replace(surface_seed=base_seed + s), pr["t_end"], si=True)
        radii.append(r.mean_contact_radius.values)
    radii = np.array(radii)
    ds["radius_mean"] = ("time", radii.mean(axis=0), {"units": "m"})
    ds["radius_std"] = ("time", radii.std(axis=0), {"units": "m"})
    ds.attrs["n_seeds"] = len(radii)
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    ds = to_paper_units(ds)  # the result is SI; the paper's forces and radii are in F* and um
    out = []
    b = ds.sel(interaction="boussinesq")
    n_el = b.sizes["x"] * b.sizes["y"]
    W = float(ds.attrs.get("W", -b.normal_force.values[0]))
    af0 = float(b.area_fraction.values[0])
    afm = float(ds.sel(interaction="meanfield").area_fraction.values[0])
    out.append(check("Real contact area is of order 1 % of nominal at t=0+ (Boussinesq)", "0.5 % .. 3 %",
                     f"{100 * af0:.3f} % (mean field {100 * afm:.3f} %)", 0.005 <= af0 <= 0.03))
    pdf = b.force_pdf.values
    w = b.force_bin_width.values
    c = b.force_bin.values
    m0 = (pdf * w).sum(axis=1)
    m1 = (pdf * w * c).sum(axis=1)
    out.append(check("Final force PDF has a larger zeroth moment (contact fraction) than at t=0+",
                     "m0(end) > m0(0+)", f"{m0[0]:.5f} -> {m0[-1]:.5f}", m0[-1] > m0[0]))
    # first moment: exactly W/N from the forces themselves, and the binned estimate within 5 %
    f0 = b.contact_force.values[0].sum() / n_el
    f1 = b.contact_force.values[-1].sum() / n_el
    out.append(check("First moment of the force PDF equals W/N at start and end",
                     f"{W / n_el:.4e} (binned estimate within 5 %)",
                     f"exact {f0:.4e}, {f1:.4e}; binned {m1[0]:.4e}, {m1[-1]:.4e}",
                     abs(f0 / (W / n_el) - 1) < 1e-5 and abs(f1 / (W / n_el) - 1) < 1e-5
                     and np.all(np.abs(m1 / (W / n_el) - 1) < 0.05)))
    mf = b.mean_force_per_contact.values
    out.append(check("Mean force per contact decreases during the hold", "end < start",
                     f"{mf[0]:.4g} -> {mf[-1]:.4g}", mf[-1] < mf[0]))
    nc = b.n_clusters.values
    ar = b.contact_area.values
    ft = b.first_contact_time.values
    new10 = int(((ft > 0) & (ft <= 10)).sum())
    new100 = int(((ft > 10) & (ft <= 100)).sum())
    out.append(check("Existing contacts grow and new ones appear (new contact elements by t=10 and t=100)",
                     "> 0 new elements and area grows", f"new: {new10} (<=10), {new100} (10..100); clusters {nc[0]:.0f} -> {nc[-1]:.0f}",
                     new10 > 0 and ar[-1] > ar[0]))
    rm = ds.radius_mean.values
    rs = ds.radius_std.values
    rel = abs(rm[-1] / rm[0] - 1)
    growth = ar[-1] / ar[0] - 1
    out.append(check(f"Mean contact radius nearly constant ({ds.attrs.get('n_seeds', 1)} seeds) while the area grows",
                     "|r(end)/r(0+) - 1| < 10 %",
                     f"{rm[0]:.3f}+-{rs[0]:.3f} -> {rm[-1]:.3f}+-{rs[-1]:.3f} ({100 * rel:.1f} %; area +{100 * growth:.1f} %)",
                     rel < 0.10))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    ds = to_paper_units(ds)
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
    ax[1].set(xlabel="force [F*]", ylabel="PDF (per element)")
    ax[1].legend()
    t = ds.time.values[1:]
    ax[2].errorbar(t, ds.radius_mean.values[1:], ds.radius_std.values[1:], fmt="-", errorevery=5)
    ax[2].set(xscale="log", xlabel="time [s]", ylabel="mean contact radius [um]")
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="rough-contact/fig4",
    description=("Hulikal et al. Fig. 4: static hold at 100 MPa, viscoelastic lambda=1, A=0.2, 512^2, "
                 "beta=10; contact map by first-contact epoch, force PDFs at t=0+ and t=1e3, mean "
                 "contact radius (15 seeds)."),
    config=CONFIG, run=run, checks=checks, plot=plot,
    quick={**quick_size(128), "integrator.per_decade": 8, "protocol.seeds": 3},
    references=["Hulikal, Lapusta & Bhattacharya (2015)"], slow=True,
))
