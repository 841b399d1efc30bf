"""``subloading/fig11``: PDMS hemisphere on acrylic -- friction force vs slip at four loads.

Ozaki et al. (2020), Fig. 11: P-exp set, specimen I (b = 7 /MPa), scaled variant
(with S_min = S_max = 1 the literal variant would make b irrelevant in steady state),
v = 0.1 mm/s; apparent area from Hertz (E = 1.2 MPa, nu = 0.5, R = 10 mm, PMMA rigid),
held fixed; f_n = W / A_a; system and rubber compliance ignored (the plate speed is the
sliding speed). The four loads are not in the text: 0.1, 0.3, 0.5, 1.0 N (ours).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Mutation, Scenario, check, not_testable, register_scenario
from ._common import MM, REFERENCE, hertz_area, models, on_grid, protocol_from, reference, rel, run_integrator

CONFIG = {
    "model": {"name": "subloading", "preset": "fig11"},
    # 0.1 mm/s; the normal stress (load / Hertz area) and the duration are set per load of [sweep]
    "protocol": {"type": "constant_velocity", "v": 0.1 * MM},
    # normal loads W [N] and the slide at each [m]
    "sweep": {"loads": [0.1, 0.3, 0.5, 1.0], "slide": 1.0 * MM},
    # the rubber hemisphere on rigid PMMA: radius [m], Young's modulus [Pa], Poisson ratio
    "contact": {"radius": 10.0 * MM, "youngs_modulus": 1.2e6, "poisson_ratio": 0.5},
    "integrator": {"driver": "prescribed", "du_max": 1e-5 * MM},
    # the rate form with the core RK4 at slip increments du [m], over this slide [m]
    "reference": {"driver": "rk4", "du": 2e-6 * MM, "slide": 0.05 * MM},
}
DERIVED = {"protocol.normal_force_value": "sweep.loads", "protocol.duration_s": "sweep.slide"}


def areas(cfg: dict) -> np.ndarray:
    c = cfg["contact"]
    return np.array([hertz_area(W, c["radius"], c["youngs_modulus"], c["poisson_ratio"]) for W in cfg["sweep"]["loads"]])


def run(cfg: dict, quick: bool) -> xr.Dataset:
    m, mr = models(cfg)
    pc = cfg["sweep"]
    v = float(cfg["protocol"]["v"])
    L = float(pc["slide"])
    grid = np.linspace(0.0, L, 2001)
    Fx, ratio, fn_all, ref_dev, slopes = [], [], [], [], []
    for W, Aa in zip(pc["loads"], areas(cfg)):
        fn = W / Aa
        d = run_integrator(m, protocol_from(cfg, duration_s=L / v, normal_force_value=fn), cfg)
        f = on_grid(d.slip.values, d.shear_stress.values, grid)
        Fx.append(Aa * f)
        s0, f0 = d.slip.values, d.shear_stress.values
        slopes.append(Aa * (f0[1] - f0[0]) / (s0[1] - s0[0]))
        ratio.append(Aa * f[-1] / W)
        fn_all.append(fn)
        Lr = float(cfg["reference"]["slide"])
        dr = reference(mr, protocol_from(cfg, duration_s=Lr / v, normal_force_value=fn), cfg, v)
        g = grid[grid <= Lr]
        a = on_grid(d.slip.values, d.shear_stress.values, g)
        b = on_grid(dr.slip.values, dr.friction_force.values, g)
        ref_dev.append(rel(float(a[-1]), float(b[-1])))
    closed = [float(m.steady_stress(v, fn)) * Aa / W for W, Aa, fn in zip(pc["loads"], areas(cfg), fn_all)]
    return xr.Dataset(
        {"friction_force": (("normal_load", "slip"), np.array(Fx), {"units": "N"}),
         "steady_ratio": ("normal_load", np.array(ratio), {"units": "1"}),
         "steady_ratio_closed_form": ("normal_load", np.array(closed), {"units": "1"}),
         "apparent_area": ("normal_load", areas(cfg), {"units": "m^2"}),
         "initial_slope": ("normal_load", np.array(slopes), {"units": "N/m"}),
         "normal_stress": ("normal_load", np.array(fn_all), {"units": "Pa"}),
         "reference_deviation": ("normal_load", np.array(ref_dev), {"units": "1"})},
        coords={"normal_load": ("normal_load", np.array(pc["loads"], dtype=float), {"units": "N"}),
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
    ax.set_xlabel("slip [mm]")
    ax.set_ylabel("friction force F_x [mN]")
    ax.legend()
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="subloading/fig11",
    description=("Ozaki et al. 2020 Fig. 11: PDMS hemisphere (R = 10 mm, E = 1.2 MPa, nu = 0.5) on acrylic, P-exp "
                 "set, specimen I (b = 7 /MPa), scaled variant, v = 0.1 mm/s, Hertz apparent area, loads "
                 "0.1, 0.3, 0.5, 1.0 N (not in the paper, ours). No measured data ship with the paper's text, so "
                 "the checks compare with closed forms and the paper's qualitative statements."),
    config=CONFIG, run=run, checks=checks, plot=plot,
    quick={"sweep.slide": 0.3 * MM}, derived=DERIVED,
    references=[REFERENCE],
))
