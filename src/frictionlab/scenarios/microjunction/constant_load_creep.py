"""``microjunction/constant-load-creep``: δ*, A* vs log time at loads in every JG regime (spec S3)."""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...contact.microjunction import ForceHistory, area_jg, force_jg, integrate_junction
from ...plot import time_series
from ..base import Scenario, check, register_scenario
from ._common import REFERENCES, log_grid, model_of, rel, solver_opts

CONFIG = {
    "model": {"name": "microjunction", "preset": "demo-steel"},
    "loading": {"loads_star": [0.5, 5.0, 20.0, 1000.0], "ramp": 1e-3, "hold": 100.0, "n_out": 121,
                "coarse_rtol": 1e-6},
    "integrator": {"solver": "DOP853", "rtol": 1e-9, "atol": 1e-12},
}


def run(cfg: dict, quick: bool) -> xr.Dataset:
    model = model_of(cfg)
    ld = cfg["loading"]
    ramp, hold = float(ld["ramp"]), float(ld["hold"])
    t = log_grid(ramp, ramp + hold, int(ld["n_out"]), extra=(1.0,))
    opts = solver_opts(cfg)
    runs = []
    tol_dev = {}
    for f in ld["loads_star"]:
        h = ForceHistory.piecewise_linear([0.0, ramp, ramp + hold], [model.f0, float(f), float(f)])
        sol = integrate_junction(model, h, t_eval=t, **opts)
        runs.append(sol.to_dataset(model))
        if float(f) == 20.0:
            coarse = integrate_junction(model, h, t_eval=t, method=opts["method"], rtol=float(ld["coarse_rtol"]),
                                        atol=float(ld["coarse_rtol"]) * 1e-3)
            tol_dev = {"tol_dev_delta": float(np.max(np.abs(coarse.delta / sol.delta - 1))),
                       "tol_dev_area": float(np.max(np.abs(coarse.area / sol.area - 1)))}
    ds = xr.concat(runs, dim="load_star", combine_attrs="drop_conflicts").assign_coords(
        load_star=[float(f) for f in ld["loads_star"]])
    ds.attrs.update(tol_dev)
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    model = model_of(cfg)
    c = model.constants
    out = []
    for f in ds.load_star.values:
        sub = ds.sel(load_star=f)
        d, a, p = sub.delta_star.values, sub.area_star.values, sub.pressure_star.values
        t = sub.time.values
        d0, a0 = d[0], a[0]
        fj = float(force_jg(d0, c["b"], c["cnu"], c["ar_coef"]))
        regime = "elastic" if d0 < 1 else ("elastic-plastic" if d0 < 110 else "fully plastic")
        if d0 <= 1.0:
            dh = abs(d0 / f ** (2 / 3) - 1)
            out.append(check(f"F*={f:g} ({regime}): Hertz limit δ* = A* = F*^(2/3) at the end of the 1 ms ramp",
                             "rel. 1 % (creep during the ramp is O(t_ramp EC1/H_G) = O(1e-3))",
                             f"{dh:.1e}, A*/δ*-1 = {abs(a0 / d0 - 1):.1e}", dh < 0.01 and abs(a0 / d0 - 1) < 1e-9))
        else:
            out.append(check(f"F*={f:g} ({regime}, δ*={d0:.4g} at ramp end): area on the JG curve after the ramp",
                             "|A*/A*_JG(δ*)-1| < 1e-6", abs(a0 / area_jg(d0, c["b"]) - 1),
                             abs(a0 / area_jg(d0, c["b"]) - 1) < 1e-6, fmt=".1e"))
        mono = bool(np.all(np.diff(d) >= -1e-12 * d[1:]) and np.all(np.diff(a) >= -1e-12 * a[1:]))
        out.append(check(f"F*={f:g}: δ* and A* increase monotonically under constant load", "non-decreasing",
                         "yes" if mono else "no", mono))
        rate = np.diff(d) / np.diff(t)
        a_r = c["ar_coef"] * np.sqrt(sub.area_star.values)
        ok = a_r <= 0.41  # JG hardness branch 1 (H_G decreasing with a/R beyond: creep speeds up)
        r_ok = rate[ok[:-1] & ok[1:]] if ok.size > 1 else rate
        dec = bool(np.all(np.diff(r_ok) <= 1e-9 * np.abs(rate).max()))
        out.append(check(f"F*={f:g}: creep rate dδ*/dt decreases with time while a/R <= 0.41 "
                         f"(max a/R = {a_r.max():.2f})", "non-increasing",
                         f"{rate[0]:.3g} -> {r_ok[-1] if r_ok.size else float('nan'):.3g} /s", dec))
        out.append(check(f"F*={f:g}: mean pressure p* relaxes", "non-increasing",
                         f"{p[0]:.4g} -> {p[-1]:.4g}", bool(np.all(np.diff(p) <= 1e-12 * p[1:]))))
    dends = [float(ds.sel(load_star=f).delta_star[0]) for f in ds.load_star.values]
    out.append(check("loads span the elastic (δ*<1), elastic-plastic and fully plastic (δ*>110, JG 2005) regimes",
                     "min δ* < 1 and max δ* > 110 at ramp end", f"{min(dends):.3g} .. {max(dends):.4g}",
                     min(dends) < 1 and max(dends) > 110))
    if 20.0 in ds.load_star.values:
        fj = float(force_jg(float(ds.sel(load_star=20.0).delta_star[0]), c["b"], c["cnu"], c["ar_coef"]))
        out.append(check("F*=20: the loading ramp ends on the JG force curve (sliding on F* = F*_JG)",
                         "|F*/F*_JG-1| < 1e-4", abs(20.0 / fj - 1), abs(20.0 / fj - 1) < 1e-4, fmt=".1e"))
        sub = ds.sel(load_star=20.0)
        d0, a0 = float(sub.delta_star[0]), float(sub.area_star[0])
        out.append(check("S3: ramp end at F*=20 (prototype δ*≈8.248, A*≈10.387)", "8.248 / 10.387 (rel 1e-3)",
                         f"{d0:.4f} / {a0:.4f}", rel(d0, 8.248) < 1e-3 and rel(a0, 10.387) < 1e-3))
        if sub.time.values[-1] >= 1.0:
            s1 = sub.sel(time=1.0, method="nearest")
            d1, a1 = float(s1.delta_star), float(s1.area_star)
            out.append(check("S3: at t = 1 s under F*=20 (prototype δ*≈29.6, A*≈45.5)", "29.6 / 45.5 (±1 %)",
                             f"{d1:.3f} / {a1:.3f}", rel(d1, 29.6) < 0.01 and rel(a1, 45.5) < 0.01))
        if "tol_dev_delta" in ds.attrs:
            dd, da = ds.attrs["tol_dev_delta"], ds.attrs["tol_dev_area"]
            out.append(check(f"solve_ivp rtol {cfg['loading']['coarse_rtol']:g} vs {cfg['integrator']['rtol']:g} agree",
                             "max rel. difference of δ*, A* < 1e-4", f"{dd:.1e}, {da:.1e}", dd < 1e-4 and da < 1e-4))
    return out


def plot(ds: xr.Dataset):
    return time_series(ds, ["delta_star", "area_star", "pressure_star"], hue="load_star", logx=True,
                       title="Microjunction creep under constant load (demo steel)")


register_scenario(Scenario(
    name="microjunction/constant-load-creep",
    description=("Single creeping JG hemisphere (demo steel: E 200 GPa, nu 0.3, sigma_Y 1 GPa, R 10 um, "
                 "C1 = 2.84 sigma_Y/E) ramped in 1 ms to F* = 0.5 (elastic), 5, 20 (elastic-plastic) and 1000 "
                 "(fully plastic, delta* ~ 208 > 110) and held 100 s; hybrid on-curve mode, DOP853, "
                 "rtol 1e-9. Spec S3, with the prototype values at F* = 20."),
    config=CONFIG, run=run, checks=checks, plot=plot,
    quick={"loading.hold": 10.0, "loading.n_out": 61},
    references=REFERENCES,
))
