"""``subloading/fig4``: rate dependency -- tangential stress vs slip at constant speeds.

Ozaki et al. (2020), Fig. 4, P-common set, f_n = 0.3 MPa, slide from rest
at each speed; the paper gives no speeds: 1e-3 ... 1e3 mm/s (ours). The slide is 3 mm so
that the steady state is reached to 1e-9 (the plot shows the first millimetre).
"""

from __future__ import annotations

import numpy as np
import xarray as xr
from scipy.optimize import minimize_scalar

from ..base import Mutation, Scenario, check, register_scenario
from ._common import MM, MODEL_NAME, MPA, REFERENCE, models, on_grid, rate_step, rel, result_has

CONFIG = {
    "model": {"name": "subloading", "preset": "fig4"},
    # the normal stress [Pa]; v per point of the axis, duration_s from the slide
    "protocol": {"type": "constant_velocity", "normal_force_value": 0.3 * MPA},
    # the compiled return mapping, slip increment du_max [m] per step (1e-5 mm)
    "integrator": {"driver": "prescribed", "du_max": 1e-5 * MM},
    # speeds [m/s] (1e-3 ... 1e3 mm/s, ours)
    "axes": {"protocol": {"v": [1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1.0]}},
    # the rate form with the core RK4 at three of the speeds [m/s] (its step from analysis.reference_du)
    "runs": {"return_map": {},
             "rate_form": {"model": {"name": "subloading_rate"}, "integrator": {"driver": "rk4"},
                           "axes": {"protocol": {"v": [1e-5, 1e-3, 0.1]}}}},
    # the slide from rest at each speed [m] (return mapping; rate form), the rate form's slip increment [m]
    "analysis": {"slide": 3.0 * MM, "reference_slide": 0.5 * MM, "reference_du": 2e-6 * MM},
}
DERIVED = {"protocol.duration_s": "analysis.slide (analysis.reference_slide for the rate form)",
           "integrator.dt": "analysis.reference_du (the rate form's RK4 step is reference_du / v)",
           "integrator.du": "analysis.reference_du (the rate form's slip increment with driver rate_reference)",
           **MODEL_NAME}
MOVED = {"sweep": "the speeds are axes.protocol.v [m/s], the slide analysis.slide [m]",
         "reference": "the rate form is runs.rate_form (its speeds runs.rate_form.axes.protocol.v, driver "
                      "runs.rate_form.integrator.driver), its slide analysis.reference_slide, its slip increment "
                      "analysis.reference_du"}
#: an earlier prototype of ours: peak ratios (variant L), for information
PROTOTYPE_PEAKS = {0.01: 0.316, 0.1: 0.314, 1.0: 0.317, 10.0: 0.324, 100.0: 0.342, 1000.0: 0.386}


def derive(point: dict, cfg: dict) -> dict:
    """Each run slides its length from rest; the rate form's RK4 step is its slip increment over v."""
    a, v = cfg["analysis"], float(point["protocol"]["v"])
    if point["model"]["name"] == "subloading_rate":
        return {"protocol.duration_s": float(a["reference_slide"]) / v, **rate_step(point, a["reference_du"], v)}
    return {"protocol.duration_s": float(a["slide"]) / v}


def post(result, cfg: dict) -> xr.Dataset:
    """Stress, sliding ratio and contact ratio of every speed on a common slip grid, peak and steady
    values, and the deviation of the return mapping from the rate form where both ran."""
    m, _ = models(cfg)
    fn = float(cfg["protocol"]["normal_force_value"])
    vels = [float(v) for v in result.axis_values("protocol.v") if result_has(result, "return_map", v)]
    L = float(cfg["analysis"]["slide"])
    grid = np.linspace(0.0, min(L, 1.0 * MM), 2001)
    Lr = float(cfg["analysis"]["reference_slide"])
    rgrid = np.linspace(0.0, Lr, 1001)
    ft, R, Sr, stats, ref_dev = [], [], [], [], []
    for v in vels:
        d = result.pick("return_map", v=v)
        s, f = d.slip.values, d.shear_stress.values
        ft.append(on_grid(s, f, grid))
        R.append(on_grid(s, d.sliding_ratio.values, grid))
        Sr.append(on_grid(s, d.contact_ratio.values, grid))
        k = int(np.argmax(f))
        stats.append((f[k] / fn, s[k], f[-1] / fn, float(d.sliding_ratio.values.max()), float(d.sliding_ratio.values[-1]),
                      float(np.max(np.diff(f) / np.maximum(np.diff(s), 1e-30)))))
        if result_has(result, "rate_form", v):
            dr = result.pick("rate_form", v=v)
            a = on_grid(s, f, rgrid)
            b = on_grid(dr.slip.values, dr.friction_force.values, rgrid)
            ref_dev.append((rel(float(a.max()), float(b.max())), rel(float(a[-1]), float(b[-1])),
                            float(np.max(np.abs(a - b)) / np.max(np.abs(b)))))
        else:
            ref_dev.append((np.nan, np.nan, np.nan))
    st = np.array(stats)
    vel = np.array(vels)
    ds = xr.Dataset(
        {"shear_stress": (("velocity", "slip"), np.array(ft), {"units": "Pa"}),
         "sliding_ratio": (("velocity", "slip"), np.array(R), {"units": "1"}),
         "contact_ratio": (("velocity", "slip"), np.array(Sr), {"units": "1"}),
         "peak_ratio": ("velocity", st[:, 0], {"units": "1"}),
         "peak_slip": ("velocity", st[:, 1], {"units": "m"}),
         "steady_ratio": ("velocity", st[:, 2], {"units": "1"}),
         "steady_ratio_closed_form": ("velocity", m.steady_stress(vel, fn) / fn, {"units": "1"}),
         "max_sliding_ratio": ("velocity", st[:, 3], {"units": "1"}),
         "final_sliding_ratio": ("velocity", st[:, 4], {"units": "1"}),
         "max_slope": ("velocity", st[:, 5], {"units": "Pa/m"}),
         "reference_deviation": (("velocity", "measure"), np.array(ref_dev), {"units": "1"})},
        coords={"velocity": ("velocity", vel, {"units": "m/s"}), "slip": ("slip", grid, {"units": "m"}),
                "measure": ("measure", ["peak", "end", "curve_max"])},
        attrs={**m.attrs(), "model": m.name, "normal_stress": fn})
    ds["friction_coefficient"] = (ds.shear_stress / fn).assign_attrs(units="1")
    return ds


def steady_minimum(m) -> tuple[float, float]:
    """Speed [m/s] and value [Pa] of the minimum of f_t^ss(v) = A^ss(v) tau(v)."""
    res = minimize_scalar(lambda lv: float(m.steady_stress(10.0 ** lv, 1.0)), bounds=(-7, 1), method="bounded",
                          options={"xatol": 1e-10})
    return 10.0 ** res.x, float(res.fun)


#: S_min read as S_max = 1: no sliding weakening of the contact ratio (eq. 33)
_NO_WEAKENING = Mutation("S_min read as 1 (= S_max): no sliding weakening", {"model.s_min": 1.0})
#: no rate dependency of tau (c = 0)
_NO_RATE = Mutation("no rate dependency of tau (c = 0)", {"model.c": 0.0})


def checks(ds: xr.Dataset, cfg: dict) -> list:
    m, _ = models(cfg)
    fn = float(ds.attrs["normal_stress"])
    vmm = ds.velocity.values / MM
    out = []
    ss, cf = ds.steady_ratio.values, ds.steady_ratio_closed_form.values
    worst = max(rel(a, b) for a, b in zip(ss, cf))
    out.append(check("steady traction ratio = A_ss(v) tau(v) / f_n at every speed (closed form of the steady state)",
                     "rel. error < 1e-6", worst, worst < 1e-6, fmt=".2e", kind="verification"))
    vstar, smin = steady_minimum(m)
    out.append(check("minimum of the steady ratio (weakening -> strengthening) as an earlier computation of ours",
                     "v* = 4.91 mm/s, ratio 0.17332 (L)",
                     f"v* = {vstar / MM:.3f} mm/s, ratio {smin / fn:.5f}",
                     abs(vstar / MM - 4.91) < 0.01 and abs(smin / fn - 0.17332) < 1e-5, kind="regression"))
    lo = vmm <= 1.0 + 1e-12
    hi = vmm >= 10.0 - 1e-12
    weak = bool(np.all(np.diff(ss[lo]) < 0)) if lo.sum() > 1 else True
    strong = bool(np.all(np.diff(ss[hi]) > 0)) if hi.sum() > 1 else True
    out.append(check("velocity weakening at low speed (steady ratio falls for v <= 1 mm/s)", "monotone decrease",
                     " ".join(f"{x:.4f}" for x in ss[lo]), weak, mutations=(_NO_WEAKENING,)))
    out.append(check("velocity strengthening at high speed (steady ratio rises for v >= 10 mm/s)", "monotone increase",
                     " ".join(f"{x:.4f}" for x in ss[hi]), strong, mutations=(_NO_RATE,)))
    pk = ds.peak_ratio.values
    # a peak followed by softening is predicted where the steady area is below the initial one
    soft = m.steady_area(ds.velocity.values) < m.pressure_factor(fn) - 1e-9
    wk = lo & soft
    smooth = bool(np.all(pk[wk] > ss[wk] + 1e-3)) and float(ds.max_slope.max()) <= m.alpha_t * (1 + 1e-9)
    out.append(check("smooth static -> kinetic transition: a peak above the kinetic level (weakening speeds where "
                     "A_ss < A(0)), slope never above alpha_t", "peak > steady; df_t/du <= alpha_t",
                     f"peak-steady min {np.min(pk[wk] - ss[wk]) if wk.any() else float('nan'):.4f} at {wk.sum()} speeds",
                     smooth and wk.sum() > 0, mutations=(_NO_WEAKENING,)))
    rmax = float(ds.max_sliding_ratio.max())
    rfin = float(ds.final_sliding_ratio.min())
    out.append(check("R stays in [0, 1] and R -> 1 in steady sliding", "max R <= 1, final R > 1 - 1e-6",
                     f"max {rmax:.12f}, final min {rfin:.9f}", rmax <= 1 + 1e-12 and rfin > 1 - 1e-6, kind="verification"))
    ps = ds.peak_slip.values[soft] / MM * 1e3
    out.append(check("peak at a microslip of a few um where a peak exists (an earlier prototype of ours: 4.6-5.3 um)",
                     "4 um < u_peak < 6 um", f"{ps.min():.2f}-{ps.max():.2f} um" if ps.size else "no peak",
                     bool(ps.size) and bool(np.all((ps > 4) & (ps < 6))),
                     ambiguity="r = 1000 /mm (the seed prints '11000 mm')", kind="regression"))
    devs = []
    for v, p in zip(vmm, pk):
        key = min(PROTOTYPE_PEAKS, key=lambda k: abs(np.log(k / v)))
        if abs(np.log(key / v)) < 1e-6:
            devs.append(rel(p, PROTOTYPE_PEAKS[key]))
    if devs:
        out.append(check("peak ratios as an earlier prototype of ours (0.316 ... 0.386)", "rel. < 1 %",
                         max(devs), max(devs) < 0.01, fmt=".2e", kind="regression"))
    rd = ds.reference_deviation.values
    rd = rd[np.isfinite(rd[:, 0])]
    if rd.size:
        worst = float(rd[:, :2].max())
        out.append(check("return mapping (du = 1e-5 mm) vs rate form (RK4, du = 2e-6 mm): peak and end-of-window f_t",
                         "rel. < 1e-3",
                         f"{worst:.2e} (pointwise over the curve: {float(rd[:, 2].max()):.2e})", worst < 1e-3,
                         kind="verification"))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, axes = plt.subplots(1, 3, figsize=(15, 4))
    for v in ds.velocity.values:
        tgt = axes[0] if v <= 1.0 * MM + 1e-12 else axes[1]
        tgt.plot(ds.slip / MM, ds.shear_stress.sel(velocity=v) / MPA, label=f"{v / MM:g} mm/s")
    for ax, t in zip(axes[:2], ("(a) weakening speeds", "(b) strengthening speeds")):
        ax.set(xlabel="slip [mm]", ylabel="f_t [MPa]", title=t)
    axes[2].semilogx(ds.velocity / MM, ds.steady_ratio, "o", label="simulated")
    axes[2].semilogx(ds.velocity / MM, ds.steady_ratio_closed_form, "k--", label="closed form")
    axes[2].set(xlabel="v [mm/s]", ylabel="steady f_t / f_n", title="(c) steady traction ratio")
    return fig


register_scenario(Scenario(
    name="subloading/fig4",
    description="""Ozaki et al. 2020 Fig. 4: rate dependency of the subloading-friction model (P-common set, r = 1000 /mm,
        variant L, f_n = 0.3 MPa). Constant speeds 1e-3 ... 1e3 mm/s (not in the paper; ours), slide 3 mm from rest,
        implicit return mapping (du = 1e-5 mm) checked against the rate form integrated by the core RK4.""",
    config=CONFIG, post=post, derive=derive, checks=checks, plot=plot,
    quick={"axes.protocol.v": [1e-5, 1e-4, 1e-3, 1e-2, 0.1, 1.0],
           "runs.rate_form.axes.protocol.v": [1e-3], "analysis.reference_slide": 0.3 * MM},
    references=[REFERENCE], derived=DERIVED, moved=MOVED,
))
