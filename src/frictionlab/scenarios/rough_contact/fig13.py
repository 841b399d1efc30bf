"""``rough-contact/fig13``: steady contact area and mean contact size against sliding speed.

Boussinesq, 100 MPa; for each viscoelastic set (lambda, A) and each v, slide ``slip`` from the
t = 0+ state and average the second half (spec S13, R26). Default sets (spec R15):
(1, 0.1), (1, 1), (1, 10), (0.1, 0.1), (0.1, 1); v in {1, 2, 5, ..., 1000}. Also stores the
steady friction coefficient mu_ss(v) = (tau_s + alpha ln v) A_ss / W, i.e. Fig. 14(d), and the
contact maps of (0.1, 1) at v = 1 and v = 100 after the same slip (Figs. 13c, d).

Notes
-----
The invariance of spec §6.4 makes (1, 1) and (0.1, 0.1) identical at the same slip per step when
v is scaled by 10 (A must scale with lambda; the paper states it with lambda only, R18); the
check asserts it to round-off instead of "similar".
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Scenario, check, register_scenario
from ...contact.rough.model import F_STAR
from ._common import PARALLEL, normal_force, run_parallel
from ._sliding import (MODEL, QUICK_BASE, QUICK_DOUBLE, QUICK_VELOCITY_NOTE, REFS, SINGLE_SLIDING, SLIDING, build_model,
                       precision_checks, precision_control, single_sliding, slide, INTEGRATOR)

CONFIG = {
    "model": dict(MODEL),
    "parallel": dict(PARALLEL),
    "integrator": {**INTEGRATOR, **SINGLE_SLIDING},  # float32 sliding products + a double control (_sliding)
    "protocol": {**SLIDING, "sets": [[1.0, 0.1], [1.0, 1.0], [1.0, 10.0], [0.1, 0.1], [0.1, 1.0]],
                 "velocities": [1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0, 1000.0], "slip": 200.0,
                 "map_set": [0.1, 1.0], "map_velocities": [1.0, 100.0]},
}


def _one_run(cfg: dict, lam: float, A: float, v: float, L: float) -> xr.Dataset:
    """One constant-velocity run of one material set (independent of the others)."""
    m = build_model(cfg, interaction="boussinesq", lams=(lam,), As=(A,))
    return slide(cfg, m, [v], [L], snapshot_times=(L / v,))


def run(cfg: dict, quick: bool) -> xr.Dataset:
    pr = cfg["protocol"]
    L = float(pr["slip"])
    sets = [tuple(map(float, s)) for s in pr["sets"]]
    vs = [float(v) for v in pr["velocities"]]
    area = np.zeros((len(sets), len(vs)))
    radius = np.zeros_like(area)
    dil = np.zeros_like(area)
    series = {}
    maps = {}
    tasks = [(cfg, lam, A, v, L) for lam, A in sets for v in vs]
    results = iter(run_parallel(_one_run, tasks, cfg))
    for a, (lam, A) in enumerate(sets):
        for b, v in enumerate(vs):
            r = next(results)
            sel = r.slip.values >= 0.5 * L - 1e-9
            area[a, b] = r.contact_area.values[sel].mean()
            radius[a, b] = r.mean_contact_radius.values[sel].mean()
            dil[a, b] = r.dilatation.values[sel].mean()
            series[(a, b)] = r.contact_area.values
            if [lam, A] == list(map(float, pr["map_set"])) and v in [float(x) for x in pr["map_velocities"]]:
                maps[v] = r.contact_force.values[-1]
    m0 = build_model(cfg)
    W = normal_force(cfg, m0) / F_STAR
    n = m0.patch_nx
    mu = (m0.tau_s + m0.alpha * np.log(np.asarray(vs)))[None, :] * area / W
    ds = xr.Dataset({"contact_area": (("set", "v"), area, {"units": "um^2"}),
                     "area_fraction": (("set", "v"), area / (n * n), {"units": "1"}),
                     "mean_contact_radius": (("set", "v"), radius, {"units": "um"}),
                     "dilatation": (("set", "v"), dil, {"units": "um"}),
                     "friction_coefficient": (("set", "v"), mu, {"units": "1"})},
                    coords={"set": [f"{lam:g},{A:g}" for lam, A in sets], "lam": ("set", [s[0] for s in sets]),
                            "A": ("set", [s[1] for s in sets]), "v": vs})
    # time-scaling invariance: (0.1, 0.1) at v vs (1, 1) at 10 v, full area series
    inv = []
    if (0.1, 0.1) in sets and (1.0, 1.0) in sets:
        i1, i2 = sets.index((1.0, 1.0)), sets.index((0.1, 0.1))
        for b, v in enumerate(vs):
            if 10 * v in vs:
                s1, s2 = series[(i1, vs.index(10 * v))], series[(i2, b)]
                inv.append(float(np.max(np.abs(s1 - s2)) / np.max(s1)))
    if single_sliding(cfg):
        (lam, A), v = sets[0], vs[0]
        ds.attrs.update(precision_control(cfg, build_model(cfg, interaction="boussinesq", lams=(lam,), As=(A,)), v))
    ds.attrs["invariance_max_rel_diff"] = max(inv) if inv else np.nan
    ds.attrs["invariance_pairs"] = len(inv)
    if maps:
        mv = sorted(maps)
        ds = ds.assign_coords(map_v=mv)
        ds["contact_force_map"] = (("map_v", "x", "y"), np.stack([maps[v] for v in mv]), {"units": "F*"})
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    for s in ds.set.values:
        a = ds.area_fraction.sel(set=s).values
        out.append(check(f"(lambda, A) = ({s}): steady area decreases monotonically with v", "non-increasing",
                         " > ".join(f"{100 * x:.3f}" for x in a) + " %", bool(np.all(np.diff(a) <= 0))))
    same_lam = [s for s in ds.set.values if float(ds.lam.sel(set=s)) == 1.0]
    if len(same_lam) >= 2:
        ch = {s: float(ds.area_fraction.sel(set=s).values[0] - ds.area_fraction.sel(set=s).values[-1]) for s in same_lam}
        order = sorted(same_lam, key=lambda s: float(ds.A.sel(set=s)))
        vals = [ch[s] for s in order]
        out.append(check("lambda = 1: larger A/lambda gives a larger total area change over the v range",
                         "increasing with A", ", ".join(f"({s}): {100 * ch[s]:.3f} %" for s in order),
                         bool(np.all(np.diff(vals) > 0))))
    if ds.attrs.get("invariance_pairs", 0):
        x = float(ds.attrs["invariance_max_rel_diff"])
        out.append(check("(1, 1) and (0.1, 0.1) give the same area curve shifted by one decade in v (spec 6.4)",
                         "max rel. difference of the area series <= 1e-6", f"{x:.2e} over {ds.attrs['invariance_pairs']} pairs",
                         x <= 1e-6))
    r = ds.mean_contact_radius.values
    spread = float(np.max(np.abs(r / r.mean(axis=1, keepdims=True) - 1)))
    out.append(check("Mean contact radius roughly independent of v", "within 15 % of its mean for every set",
                     f"max deviation {100 * spread:.1f} %", spread < 0.15))
    return out + precision_checks(ds)


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, ax = plt.subplots(1, 3, figsize=(15, 4))
    for s in ds.set.values:
        ax[0].semilogx(ds.v, ds.area_fraction.sel(set=s), "o-", label=f"(lam, A) = ({s})")
        ax[1].semilogx(ds.v, ds.mean_contact_radius.sel(set=s), "o-")
        ax[2].semilogx(ds.v, ds.friction_coefficient.sel(set=s), "o-")
    ax[0].legend()
    ax[0].set(xlabel="v [um/s]", ylabel="steady area fraction")
    ax[1].set(xlabel="v [um/s]", ylabel="mean contact radius [um]")
    ax[2].set(xlabel="v [um/s]", ylabel="steady mu (Fig. 14d)")
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="rough-contact/fig13",
    description=("Hulikal et al. Fig. 13 (and 14d): steady contact area, mean contact radius and steady mu against v "
                 "for (lambda, A) in {(1,0.1),(1,1),(1,10),(0.1,0.1),(0.1,1)}, Boussinesq, 100 MPa, 512^2." + QUICK_VELOCITY_NOTE),
    config=CONFIG, run=run, checks=checks, plot=plot,
    quick={**QUICK_BASE, "model.surface_mx": 128, "protocol.slip": 30.0, "protocol.sets": [[1.0, 0.1], [1.0, 1.0], [0.1, 0.1]],
           "protocol.velocities": [1.0, 10.0, 100.0], "protocol.map_set": [1.0, 1.0], **QUICK_DOUBLE},
    references=REFS, slow=True,
))
