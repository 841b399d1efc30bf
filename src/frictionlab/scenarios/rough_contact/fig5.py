"""``rough-contact/fig5``: ageing -- dilatation, contact area and mu_s against log time.

(a, b) Table 1 viscoelastic material, 100 MPa hold to t = 1e3, Boussinesq and mean field.
(c) mu_s(t) for (lambda, A) = (1, 0.2) blue, (1, 1) green, (0.1, 0.02) red (spec R15), hold to
1e4, Boussinesq.

Notes
-----
The paper states the time-scaling invariance with lambda only; A must scale too (spec R18).
Red = blue with (lambda, A)/10, so with log-spaced steps starting at 1e-4/lambda_max red is
blue shifted by exactly one decade, a check to solver tolerance.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Scenario, check, register_scenario
from ...contact.rough.driver import to_paper_units
from ._common import INTEGRATOR, MODEL, build_model, growth_fraction, growth_span_decades, hold, monotone, quick_size

COMBOS = {"blue": (1.0, 0.2), "green": (1.0, 1.0), "red": (0.1, 0.02)}
CONFIG = {
    "model": dict(MODEL),
    "protocol": {"pressure_MPa": 100.0, "t_end": 1e3, "t_end_c": 1e4},
    "integrator": dict(INTEGRATOR),
}


def run(cfg: dict, quick: bool) -> xr.Dataset:
    pr = cfg["protocol"]
    ab = []
    for inter in ("boussinesq", "meanfield"):
        r = hold(cfg, build_model(cfg, interaction=inter), pr["t_end"], si=True)
        ab.append(r[["dilatation", "real_contact_area", "contact_area", "friction_coefficient", "iterations",
                     "normal_force"]])
    ds = xr.concat(ab, dim="interaction").assign_coords(interaction=["boussinesq", "meanfield"])
    out = xr.Dataset()
    for name, (lam, A) in COMBOS.items():
        r = hold(cfg, build_model(cfg, interaction="boussinesq", lams=(lam,), As=(A,)), pr["t_end_c"])
        out[f"mu_{name}"] = xr.DataArray(r.friction_coefficient.values, dims=(f"time_{name}",),
                                         attrs={"units": "1"})
        out = out.assign_coords({f"time_{name}": (f"time_{name}", r.time.values, {"units": "s"})})
    ds = xr.merge([ds, out], combine_attrs="drop_conflicts")
    ds.attrs.update({k: v for k, v in r.attrs.items() if k in ("nx", "ny")})
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    ds = to_paper_units(ds)  # the result is SI; dilatations in the paper's um
    out = []
    t = ds.time.values
    for inter in ("boussinesq", "meanfield"):
        s = ds.sel(interaction=inter)
        out.append(check(f"{inter}: dilatation decreases monotonically (Fig. 5a)", "monotone",
                         f"{s.dilatation.values[0]:.5f} -> {s.dilatation.values[-1]:.5f}",
                         monotone(s.dilatation.values, -1)))
        mu = s.friction_coefficient.values
        out.append(check(f"{inter}: mu_s rises monotonically (Fig. 5b)", "monotone", f"{mu[0]:.4f} -> {mu[-1]:.4f}",
                         monotone(mu, +1)))
        span = growth_span_decades(t, mu)
        frac = growth_fraction(t, mu, 0.01, 10.0)
        out.append(check(f"{inter}: growth phase of about 3 decades, 0.01 < t lambda < 10 (spec S5)",
                         ">= 90 % of the total growth inside 0.01 <= t <= 10",
                         f"{100 * frac:.1f} % (2 %..98 % span {span:.2f} decades)", frac >= 0.9))
    rb = ds.sel(interaction="boussinesq").friction_coefficient.values
    rm = ds.sel(interaction="meanfield").friction_coefficient.values
    gb, gm = rb[-1] / rb[0], rm[-1] / rm[0]
    out.append(check("Interaction changes the levels but not the magnitude of growth mu(end)/mu(0+)",
                     "ratios within 0.05 (prototype 1.20 vs 1.18)", f"B {gb:.4f}, MF {gm:.4f}", abs(gb - gm) < 0.05))
    b, g, r = ds.mu_blue.values, ds.mu_green.values, ds.mu_red.values
    tb, tr = ds.time_blue.values, ds.time_red.values
    # red = blue shifted by one decade (exact invariance with A scaled, R18)
    n = min(len(b), len(r))
    same_grid = np.allclose(tr[1:n], 10 * tb[1:n], rtol=1e-12)
    dev = float(np.max(np.abs(r[:n] - b[:n]))) if same_grid else np.inf
    out.append(check("Red (0.1, 0.02) is blue (1, 0.2) shifted by exactly one decade (invariance, A scaled)",
                     "max |mu_red(10 t) - mu_blue(t)| < 1e-8", f"{dev:.2e}", dev < 1e-8))
    out.append(check("Same A/lambda gives the same final mu (blue vs red)", "rel. diff < 1e-6",
                     f"{b[-1]:.6f} vs {r[-1]:.6f}", abs(b[-1] / r[-1] - 1) < 1e-6))
    out.append(check("Initial mu independent of the VE parameters", "identical at t=0+",
                     f"{b[0]:.6f}, {g[0]:.6f}, {r[0]:.6f}", b[0] == g[0] == r[0]))
    t90 = lambda tt, m: float(np.interp(0.9, (m - m[0]) / (m[-1] - m[0]), tt))  # noqa: E731
    tg90, tb90 = t90(ds.time_green.values, g), t90(tb, b)
    out.append(check("Same lambda, larger A: larger amplitude, similar saturation time (blue vs green)",
                     "growth green > blue; t90 within a factor 3",
                     f"growth {g[-1] - g[0]:.4f} vs {b[-1] - b[0]:.4f}; t90 {tg90:.3g} vs {tb90:.3g}",
                     (g[-1] - g[0]) > (b[-1] - b[0]) and 1 / 3 < tg90 / tb90 < 3))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    ds = to_paper_units(ds)
    fig, ax = plt.subplots(1, 3, figsize=(14, 4))
    t = ds.time.values[1:]
    for inter in ds.interaction.values:
        s = ds.sel(interaction=inter)
        ax[0].semilogx(t, s.dilatation.values[1:], label=str(inter))
        ax[1].semilogx(t, s.friction_coefficient.values[1:], label=str(inter))
    for name, col in (("blue", "b"), ("green", "g"), ("red", "r")):
        ax[2].semilogx(ds[f"time_{name}"].values[1:], ds[f"mu_{name}"].values[1:], col, label=str(COMBOS[name]))
    ax[0].set(xlabel="time [s]", ylabel="dilatation [um]")
    ax[1].set(xlabel="time [s]", ylabel="mu_s")
    ax[2].set(xlabel="time [s]", ylabel="mu_s (Boussinesq)")
    for a in ax:
        a.legend()
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="rough-contact/fig5",
    description=("Hulikal et al. Fig. 5: static ageing at 100 MPa, 512^2; (a,b) d, A and mu_s vs log t for "
                 "Boussinesq and mean field, (lambda, A) = (1, 0.2) to t=1e3; (c) (1,0.2), (1,1), (0.1,0.02) "
                 "to 1e4 (spec R15), 40 log steps per decade."),
    config=CONFIG, run=run, checks=checks, plot=plot,
    quick={**quick_size(96), "integrator.per_decade": 10},
    references=["Hulikal, Lapusta & Bhattacharya (2015)"], slow=True,
))
