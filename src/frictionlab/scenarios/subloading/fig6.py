"""``subloading/fig6``: pressure dependency without rate dependency (normal path A-B-C-D).

Ozaki et al. (2020), Fig. 6: c = 0, kappa = xi = infinity, v = 1 mm/s; f_n = 0.1 MPa from
A (0) to B (0.1 mm), linear ramp to f_n,end at C (0.2 mm), held to D (0.5 mm) (our reconstruction);
b = 5, 10, 20 /MPa (ours). (b) f_t vs slip for f_n,end = 0.5 MPa; (c) mean f_t / f_n over
u in [0.3, 0.4] mm vs f_n,end.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Scenario, check, register_scenario
from ._common import MM, MODEL_NAME, MPA, REFERENCE, models, on_grid
from ._path import path_slips

#: final normal stresses at C-D [Pa] (ours)
FN_END = [x * MPA for x in (0.2, 0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0)]


def _loads(fn_end: list[float]) -> list[list[float]]:
    """The load lists of the path A-B-C-D ending at each of ``fn_end`` [Pa] (0.1 MPa at A and B)."""
    return [[0.1 * MPA, 0.1 * MPA, fe, fe] for fe in fn_end]


CONFIG = {
    "model": {"name": "subloading", "preset": "fig6"},
    # 1 mm/s; f_n = 0.1 MPa at A (0) and B (0.1 mm), 0.5 MPa at C (0.2 mm) and D (0.5 mm)
    "protocol": {"type": "normal_load", "v": 1.0 * MM, "times": [0.0, 0.1, 0.2, 0.5],
                 "loads": [0.1 * MPA, 0.1 * MPA, 0.5 * MPA, 0.5 * MPA]},
    "integrator": {"driver": "prescribed", "du_max": 1e-5 * MM},
    # pressure sensitivity b [1/Pa] (5, 10, 20 /MPa, ours)
    "axes": {"model": {"b": [5.0 / MPA, 10.0 / MPA, 20.0 / MPA]}},
    # the path (Fig. 6b), the same by the rate form (RK4 with the normal-stress rate as input, slip
    # increments du [m]), and the path to each final normal stress at C-D [Pa] (Fig. 6c)
    "runs": {"path": {},
             "path_rate_form": {"model": {"name": "subloading_rate"},
                                "integrator": {"driver": "rate_reference", "du": 2e-6 * MM}},
             "pressure": {"axes": {"protocol": {"loads": _loads(FN_END)}}}},
    # slip window of the mean f_t / f_n [m]
    "analysis": {"window": [0.3 * MM, 0.4 * MM]},
}
MOVED = {"sweep": "b is axes.model.b [1/Pa]; the final stresses are the paths of runs.pressure.axes.protocol.loads "
                  "(each [f_A, f_B, f_C, f_D] in Pa)",
         "reference": "the rate form is runs.path_rate_form (its driver and du there)"}


def post(result, cfg: dict) -> xr.Dataset:
    """Fig. 6b curves on a slip grid with the rate form's deviation, and Fig. 6c's mean f_t / f_n over the
    window against the closed form, per b and final stress."""
    bs = [float(b) for b in result.axis_values("model.b")]
    grid = np.linspace(0.0, path_slips(cfg)[3], 2001)
    w0, w1 = (float(x) for x in cfg["analysis"]["window"])
    paths = result.axis_values("protocol.loads")
    sweep = [float(x[2]) for x in paths]
    ft, fn_c, ref_dev, ratio, rmax = [], [], [], [], []
    for b in bs:
        d = result.pick("path", b=b)
        ft.append(on_grid(d.slip.values, d.shear_stress.values, grid))
        fn_c.append(on_grid(d.slip.values, d.normal_stress.values, grid))
        rmax.append(float(d.sliding_ratio.max()))
        dr = result.pick("path_rate_form", b=b)
        ref = on_grid(dr.slip.values, dr.friction_force.values, grid)
        err = np.abs(ft[-1] - ref) / np.max(np.abs(ref))
        ref_dev.append((float(err[grid > 0.01 * MM].max()), float(err.max())))
        row = []
        for loads in paths:
            ds = result.pick("pressure", b=b, loads=loads)
            sel = (ds.slip.values >= w0) & (ds.slip.values <= w1)
            row.append(float(np.mean(ds.shear_stress.values[sel] / ds.normal_stress.values[sel])))
        ratio.append(row)
    m, _ = models(cfg)
    closed = [[float(m.replace(b=b).steady_stress(0.0, fe)) / fe for fe in sweep] for b in bs]
    return xr.Dataset(
        {"shear_stress": (("b", "slip"), np.array(ft), {"units": "Pa"}),
         "normal_stress": (("b", "slip"), np.array(fn_c), {"units": "Pa"}),
         "steady_ratio": (("b", "fn_end"), np.array(ratio), {"units": "1"}),
         "steady_ratio_closed_form": (("b", "fn_end"), np.array(closed), {"units": "1"}),
         "max_sliding_ratio": ("b", np.array(rmax), {"units": "1"}),
         "reference_deviation": (("b", "measure"), np.array(ref_dev), {"units": "1"})},
        coords={"b": ("b", np.array(bs), {"units": "1/Pa"}), "slip": ("slip", grid, {"units": "m"}),
                "fn_end": ("fn_end", np.array(sweep), {"units": "Pa"}),
                "measure": ("measure", ["beyond_0.01mm", "whole_path"])},
        attrs={**m.attrs(), "model": m.name})


def _at(ds, b_i, u):
    return float(np.interp(u, ds.slip.values, ds.shear_stress.values[b_i]))


#: with rate effects off (kappa, xi -> infinity) the steady stress is tau0 (1 - exp(-b f_n)) (eq. 35)
_EQ35 = "with rate effects off the steady stress is tau0 (1 - exp(-b f_n)) (eq. 35)"


def checks(ds: xr.Dataset, cfg: dict) -> list:
    pc = cfg["protocol"]
    out = []
    sr, cf = ds.steady_ratio.values, ds.steady_ratio_closed_form.values
    worst = float(np.max(np.abs(sr - cf) / cf))
    out.append(check("steady ratio tau0 (1 - exp(-b f_n)) / f_n for every b and f_n,end (closed form of the steady state)",
                     "rel. < 1e-6", worst, worst < 1e-6, fmt=".2e", kind="verification"))
    out.append(check("the steady ratio decreases with normal stress (every b)", "monotone decrease in f_n,end",
                     "yes" if np.all(np.diff(sr, axis=1) < 0) else "no", bool(np.all(np.diff(sr, axis=1) < 0)),
                     insensitive=_EQ35 + ": (1 - exp(-b f_n)) / f_n falls with f_n for every b > 0"))
    drop = sr[:, -1] / sr[:, 0]
    out.append(check("larger b: stronger decrease of the ratio with f_n (b controls the nonlinearity)",
                     "ratio(f_max)/ratio(f_min) decreasing in b", " ".join(f"{x:.3f}" for x in drop),
                     bool(np.all(np.diff(drop) < 0)),
                     insensitive=_EQ35 + ": the ratio of (1 - exp(-b f)) / f at two f_n falls with b for any pair, and "
                                 "the values of b are not printed"))
    B, C = path_slips(cfg)[1:3]
    sub = []
    for i in range(ds.sizes["b"]):
        gain_t = _at(ds, i, C) / _at(ds, i, B)
        gain_n = pc["loads"][-1] / pc["loads"][0]
        sub.append(gain_t / gain_n)
    out.append(check("f_t follows f_n but rises less than linearly from B to C (nonlinear surface)",
                     "f_t(C)/f_t(B) < f_n(C)/f_n(B) for every b", " ".join(f"{x:.3f}" for x in sub),
                     bool(np.all(np.array(sub) < 1)),
                     insensitive=_EQ35 + ": 1 - exp(-b f_n) is concave, so it rises less than linearly for every b"))
    rmax = float(ds.max_sliding_ratio.max())
    out.append(check("R stays in [0, 1] while f_n changes", "max R <= 1", f"{rmax:.12f}", rmax <= 1 + 1e-12,
                     kind="verification"))
    dev = ds.reference_deviation.values
    out.append(check("return mapping vs rate form (RK4 with df_n/dt, du = 2e-6 mm): max |df_t| / max f_t for u > 0.01 mm",
                     "< 1e-3", f"{dev[:, 0].max():.2e} (whole path incl. the initial microslip rise, first order "
                     f"in du: {dev[:, 1].max():.2e})", float(dev[:, 0].max()) < 1e-3, kind="verification"))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for i, b in enumerate(ds.b.values):
        axes[0].plot(ds.slip / MM, ds.shear_stress[i] / MPA, label=f"b = {b * MPA:g} /MPa")
        axes[1].plot(ds.fn_end / MPA, ds.steady_ratio[i], "o", label=f"b = {b * MPA:g} /MPa")
        axes[1].plot(ds.fn_end / MPA, ds.steady_ratio_closed_form[i], "k--", lw=0.8)
    axes[0].set(xlabel="slip [mm]", ylabel="f_t [MPa]")
    axes[1].set(xlabel="f_n at C-D [MPa]", ylabel="f_t / f_n on u in [0.3, 0.4] mm")
    return fig


register_scenario(Scenario(
    name="subloading/fig6",
    description="""Ozaki et al. 2020 Fig. 6: pressure dependency without rate dependency (c = 0, kappa = xi = infinity), v = 1
        mm/s, normal path A-B-C-D = 0, 0.1, 0.2, 0.5 mm with f_n 0.1 -> f_n,end MPa and b = 5, 10, 20 /MPa
        (abscissae, start value and b are not in the paper: our reconstruction); variant L.""",
    config=CONFIG, post=post, checks=checks, plot=plot,
    quick={"runs.pressure.axes.protocol.loads": _loads([0.2 * MPA, 0.5 * MPA, 1.0 * MPA]),
           "integrator.du_max": 2e-5 * MM},
    derived=MODEL_NAME, moved=MOVED,
    references=[REFERENCE],
))
