"""``subloading/fig11``: PDMS hemisphere on acrylic -- friction force vs slip at four loads.

Ozaki et al. (2020), Fig. 11: P-exp set, specimen I (b = 7 /MPa), scaled variant
(with S_min = S_max = 1 the literal variant would make b irrelevant in steady state),
v = 0.1 mm/s; apparent area from Hertz (E = 1.2 MPa, nu = 0.5, R = 10 mm, PMMA rigid),
held fixed; f_n = W / A_a; system and rubber compliance ignored (the plate speed is the
sliding speed). The four loads are not in the text: 0.1, 0.3, 0.5, 1.0 N (ours).

The loads are an input axis (``axes.analysis.load`` [N]): ``derive`` turns each into the normal
stress of its run through the Hertz area of ``analysis.contact``, so a changed contact changes
the stresses (a precomputed axis of stresses would not follow it).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Mutation, Scenario, check, not_testable, register_scenario
from ._common import MM, MODEL_NAME, REFERENCE, hertz_area_of, hertz_stress, models, on_grid, rate_step, rel

CONFIG = {
    "model": {"name": "subloading", "preset": "fig11"},
    # 0.1 mm/s; the normal stress (load / Hertz area) and the duration are set per load
    "protocol": {"type": "constant_velocity", "v": 0.1 * MM},
    "integrator": {"driver": "prescribed", "du_max": 1e-5 * MM},
    # normal loads W [N] (ours): an input axis, turned into f_n = W / A_a(W) with the Hertz area of analysis.contact
    "axes": {"analysis": {"load": [0.1, 0.3, 0.5, 1.0]}},
    # the return mapping, and the rate form with the core RK4 (its step from analysis.reference_du)
    "runs": {"return_map": {},
             "rate_form": {"model": {"name": "subloading_rate"}, "integrator": {"driver": "rk4"}}},
    # the slide at each load [m], the rate form's slide [m] and slip increment [m]; the rubber hemisphere on
    # rigid PMMA: radius [m], Young's modulus [Pa], Poisson ratio
    "analysis": {"slide": 1.0 * MM, "reference_slide": 0.05 * MM, "reference_du": 2e-6 * MM,
                 "contact": {"radius": 10.0 * MM, "youngs_modulus": 1.2e6, "poisson_ratio": 0.5}},
}
DERIVED = {"protocol.normal_force_value": "axes.analysis.load [N] (over the Hertz area of analysis.contact)",
           "protocol.duration_s": "analysis.slide (analysis.reference_slide for the rate form)",
           "integrator.dt": "analysis.reference_du (the rate form's RK4 step is reference_du / v)",
           "integrator.du": "analysis.reference_du (the rate form's slip increment with driver rate_reference)",
           **MODEL_NAME}
MOVED = {"sweep": "the loads are axes.analysis.load [N], the slide analysis.slide [m]",
         "contact": "the hemisphere is analysis.contact (radius, youngs_modulus, poisson_ratio)",
         "reference": "the rate form is runs.rate_form (its driver runs.rate_form.integrator.driver), its slide "
                      "analysis.reference_slide, its slip increment analysis.reference_du"}


def derive(point, cfg: dict) -> dict:
    """f_n = W / A_a(W) of the point's load; each run slides its length from rest."""
    a, v = cfg["analysis"], float(point["protocol"]["v"])
    out = {"protocol.normal_force_value": hertz_stress(point.coord("analysis.load"), a["contact"])}
    if point["model"]["name"] == "subloading_rate":
        return {**out, "protocol.duration_s": float(a["reference_slide"]) / v, **rate_step(point, a["reference_du"], v)}
    return {**out, "protocol.duration_s": float(a["slide"]) / v}


def post(result, cfg: dict) -> xr.Dataset:
    """Friction force A_a f_t of every load on a slip grid, steady ratio F_x / W against its closed form,
    initial slope, and the return mapping's deviation from the rate form at the end of its slide."""
    m, _ = models(cfg)
    a = cfg["analysis"]
    loads = [float(W) for W in result.axis_values("analysis.load")]
    areas = np.array([hertz_area_of(W, a["contact"]) for W in loads])
    v = float(cfg["protocol"]["v"])
    L = float(a["slide"])
    grid = np.linspace(0.0, L, 2001)
    Lr = float(a["reference_slide"])
    Fx, ratio, fn_all, ref_dev, slopes = [], [], [], [], []
    for W, Aa in zip(loads, areas):
        fn = W / Aa
        d = result.pick("return_map", load=W)
        f = on_grid(d.slip.values, d.shear_stress.values, grid)
        Fx.append(Aa * f)
        s0, f0 = d.slip.values, d.shear_stress.values
        slopes.append(Aa * (f0[1] - f0[0]) / (s0[1] - s0[0]))
        ratio.append(Aa * f[-1] / W)
        fn_all.append(fn)
        dr = result.pick("rate_form", load=W)
        g = grid[grid <= Lr]
        x = on_grid(d.slip.values, d.shear_stress.values, g)
        y = on_grid(dr.slip.values, dr.friction_force.values, g)
        ref_dev.append(rel(float(x[-1]), float(y[-1])))
    closed = [float(m.steady_stress(v, fn)) * Aa / W for W, Aa, fn in zip(loads, areas, fn_all)]
    return xr.Dataset(
        {"friction_force": (("normal_load", "slip"), np.array(Fx), {"units": "N"}),
         "steady_ratio": ("normal_load", np.array(ratio), {"units": "1"}),
         "steady_ratio_closed_form": ("normal_load", np.array(closed), {"units": "1"}),
         "apparent_area": ("normal_load", areas, {"units": "m^2"}),
         "initial_slope": ("normal_load", np.array(slopes), {"units": "N/m"}),
         "normal_stress": ("normal_load", np.array(fn_all), {"units": "Pa"}),
         "reference_deviation": ("normal_load", np.array(ref_dev), {"units": "1"})},
        coords={"normal_load": ("normal_load", np.array(loads, dtype=float), {"units": "N"}),
                "slip": ("slip", grid, {"units": "m"})},
        attrs={**m.attrs(), "model": m.name})


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    r, c = ds.steady_ratio.values, ds.steady_ratio_closed_form.values
    worst = max(rel(a, b) for a, b in zip(r, c))
    out.append(check("steady F_x / W = tau(v) (1 - exp(-b W/A_a)) / (W/A_a) at every load (closed form of the steady state)",
                     "rel. < 1e-6", worst, worst < 1e-6, fmt=".2e", kind="verification"))
    F = ds.friction_force.values
    Fss = F[:, -1]
    out.append(check("steady friction force grows with the normal load", "increasing in W",
                     " < ".join(f"{x * 1e3:.1f}" for x in Fss) + " mN", bool(np.all(np.diff(Fss) > 0)),
                     insensitive="the steady force A_a tau(v) (1 - exp(-b W/A_a)) grows with W for every positive b "
                                 "and tau, with A_a growing with W (Hertz)"))
    out.append(check("no velocity weakening with S_min = S_max = 1: no overshoot above the steady force",
                     "max F_x <= steady F_x (1 + 1e-9)", f"max excess {float(np.max(F.max(axis=1) / Fss - 1)):.2e}",
                     bool(np.all(F.max(axis=1) <= Fss * (1 + 1e-9))),
                     mutations=(Mutation("S_min read as 0.5 (velocity weakening, as the P-common set)", {"model.s_min": 0.5}),)))
    dev = float(ds.reference_deviation.max())
    out.append(check("return mapping vs rate form (core RK4) at the end of the reference window", "rel. < 1e-3", dev,
                     dev < 1e-3, fmt=".2e", kind="verification"))
    out.append(not_testable(
        "the model simulates the measured friction force vs sliding displacement of specimen I at four normal loads "
        "well (Sec. 5.2, Fig. 11)",
        "the measured curves are printed only as a figure (no values, no data file) and the four loads are not "
        "stated; the parameter set was fitted to those unprinted measurements"))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for i, W in enumerate(ds.normal_load.values):
        ax.plot(ds.slip / MM, ds.friction_force[i] * 1e3, label=f"W = {W:g} N")
    ax.set(xlabel="slip [mm]", ylabel="friction force F_x [mN]")
    return fig


register_scenario(Scenario(
    name="subloading/fig11",
    description="""Ozaki et al. 2020 Fig. 11: PDMS hemisphere (R = 10 mm, E = 1.2 MPa, nu = 0.5) on acrylic, P-exp set,
        specimen I (b = 7 /MPa), scaled variant, v = 0.1 mm/s, Hertz apparent area, loads 0.1, 0.3, 0.5, 1.0 N (not
        in the paper, ours). No measured data ship with the paper's text, so the checks compare with closed forms
        and the paper's qualitative statements.""",
    config=CONFIG, post=post, derive=derive, checks=checks, plot=plot,
    quick={"analysis.slide": 0.3 * MM}, derived=DERIVED, moved=MOVED,
    references=[REFERENCE],
))
