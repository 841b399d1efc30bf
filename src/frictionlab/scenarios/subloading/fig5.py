"""``subloading/fig5``: cyclic pulsating loading below the sliding surface (ratchetting).

Ozaki et al. (2020), Fig. 5: f_n = 0.3 MPa, load at +0.1 mm/s until f_t = rho S_max tau0,
unload at -0.1 mm/s to f_t = 0, repeat (amplitude rho = f_t,amp / (S_max tau0), our reading), with the core
:class:`~frictionlab.protocols.PulsatingThreshold` protocol run by the compiled driver.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Mutation, Scenario, check, register_scenario
from ._common import MM, MODEL_NAME, MPA, REFERENCE, models, on_grid, rel

CONFIG = {
    "model": {"name": "subloading", "preset": "fig5"},
    # +-0.1 mm/s between f_t = upper (from the amplitude rho of each point) and lower, f_n = 0.3 MPa
    "protocol": {"type": "pulsating_threshold", "v": 0.1 * MM, "lower": 0.0, "cycles": 2000, "max_duration": 1e3,
                 "normal_force_value": 0.3 * MPA},
    # the compiled threshold-switched return mapping, slip increment du [m] (1e-6 mm)
    "integrator": {"driver": "pulsating", "du": 1e-6 * MM},
    "runs": {"pulsating": {}},
    # amplitudes rho = f_t,amp / (S_max tau0) (our reading of the amplitude): an input axis, upper = rho S_max tau0
    "axes": {"analysis": {"rho": [0.6, 0.7, 0.8]}},
    # conventional_r: the conventional limit r -> infinity [1/m] (1e9 /mm), run at the last amplitude;
    # reference: the first cycles of the last amplitude again, by the return mapping and the rate form (core RK4,
    # slip increments du [m]) under the run's velocity history (a refinement round: it needs the switch times);
    # plot_cycles: cycles drawn
    "analysis": {"conventional_r": 1e9 / MM, "reference": {"driver": "rk4", "du": 2e-7 * MM, "cycles": 3},
                 "plot_cycles": 10},
}
DERIVED = {"protocol.upper": "axes.analysis.rho (upper = rho S_max tau0)", **MODEL_NAME}
MOVED = {"sweep": "the amplitudes are axes.analysis.rho", "conventional_limit": "analysis.conventional_r [1/m]",
         "reference": "analysis.reference (driver, du [m], cycles)", "plot": "analysis.plot_cycles"}
#: the conventional model (r -> infinity): no plastic slip inside the sliding surface
_CONVENTIONAL = Mutation("the conventional friction model (r = 1e9 /mm): no plastic slip below the sliding surface",
                         {"model.r": 1e9 / MM})
#: the printed "r = 11000 mm" taken as 11000 /mm (we read 1000 /mm: a dropped superscript)
_R_11000 = Mutation("r read as 11000 /mm", {"model.r": 11000.0 / MM})
#: plastic slip [m] visible on Fig. 5's micrometre axis (a thousandth of a micrometre); the conventional
#: model's is a million times smaller
VISIBLE = 1e-9
#: "after several cycles" (Sec. on Fig. 5) read as: gross sliding at a cycle no later than this
SEVERAL = 100
#: an earlier prototype of ours (variant L): plastic slip in cycle 1 [um]
PROTOTYPE_CYCLE1_UM = {0.6: 0.38, 0.7: 0.58, 0.8: 0.89}


def derive(point, cfg: dict) -> dict:
    """The switching level of a point of the amplitude axis: upper = rho S_max tau0 of its model."""
    if "analysis.rho" not in dict(point.coords):  # the refinement's runs set their own levels
        return {}
    rho = point.coord("analysis.rho")
    m, _ = models(point.config)
    return {"protocol.upper": float(rho) * m.s_max * m.tau0}


def refine(result, cfg: dict):
    """After the amplitude runs: the conventional limit at the last amplitude, and the return mapping and the
    rate form under the velocity history of that run's first cycles (its switch times)."""
    if any(p.label == "ref_return_map" for p in result.points):
        return None
    pc, ref = cfg["protocol"], cfg["analysis"]["reference"]
    rho = result.axis_values("analysis.rho", "pulsating")[-1]
    cyc = _cycles(result.pick("pulsating", rho=rho))[:int(ref["cycles"])]
    v = float(pc["v"])
    durs, vels, t0 = [], [], 0.0
    for row in cyc:
        durs += [float(row[3] - t0), float(row[4] - row[3])]
        vels += [v, -v]
        t0 = float(row[4])
    r_conv = float(cfg["analysis"]["conventional_r"])
    mc, _ = models(cfg, r=r_conv)
    du = float(ref["du"])
    rate = {"driver": "rate_reference", "du": du} if ref["driver"] == "rate_reference" else \
        {"driver": str(ref["driver"]), "dt": du / v}
    return {"protocol": {"type": "velocity_steps", "velocities": vels, "durations": durs,
                         "normal_force_value": float(pc["normal_force_value"])},
            # the return mapping under prescribed slip with the same slip increment as the pulsating runs
            "integrator": {"driver": "prescribed", "du_max": float(cfg["integrator"]["du"])},
            "runs": {"conventional": {"model": {"r": r_conv}, "protocol": {**pc, "upper": float(rho) * mc.s_max * mc.tau0},
                                      "integrator": dict(cfg["integrator"])},
                     "ref_return_map": {},
                     "ref_rate_form": {"model": {"name": "subloading_rate"}, "integrator": rate}}}


def _cycles(ds: xr.Dataset) -> np.ndarray:
    """Rows (plastic slip, slip, peak stress, reversal time, end time) of the completed cycles."""
    names = ("cycle_plastic_slip", "cycle_slip", "cycle_peak_stress", "cycle_reversal_time", "cycle_end_time")
    return np.stack([ds[n].values for n in names], axis=1)


def post(result, cfg: dict) -> xr.Dataset:
    """Plastic slip per cycle and the first loops of every amplitude, the conventional limit's cycles, and the
    return mapping and rate form at the ends of the reference cycles."""
    m, _ = models(cfg)
    pc = cfg["protocol"]
    rhos = [float(x) for x in result.axis_values("analysis.rho", "pulsating")]
    ncyc = int(pc["cycles"])
    up = np.full((len(rhos), ncyc), np.nan)
    gross = []
    curves = []
    grid_n = 4000
    cyc_all = []
    for rho in rhos:
        ds = result.pick("pulsating", rho=rho)
        cyc, g = _cycles(ds), int(ds.attrs["gross_sliding_cycle"])
        up[len(gross), : len(cyc)] = cyc[:, 0]
        gross.append(g)
        cyc_all.append(cyc)
        # the loops of the first cycles (resolving every cycle of a long run would alias)
        shown = int(cfg["analysis"]["plot_cycles"])
        t_show = float(cyc[min(len(cyc), shown) - 1, 4]) if len(cyc) else float(ds.time[-1])
        tt = np.linspace(0, t_show, grid_n)
        curves.append((on_grid(ds.time.values, ds.slip.values, tt), on_grid(ds.time.values, ds.shear_stress.values, tt)))
    dc = result.pick("conventional")
    cyc_c, g_c = _cycles(dc), int(dc.attrs["gross_sliding_cycle"])
    cyc = cyc_all[-1][:int(cfg["analysis"]["reference"]["cycles"])]
    d_rm, d_rf = result.pick("ref_return_map"), result.pick("ref_rate_form")
    t_ends = cyc[:, 4]
    up_rm = on_grid(d_rm.time.values, d_rm.plastic_slip.values, t_ends)
    up_rf = on_grid(d_rf.time.values, d_rf.plastic_slip.values, t_ends)
    n_idx = max(ncyc, grid_n)
    up_pad = np.full((len(rhos), n_idx), np.nan)
    up_pad[:, :ncyc] = up
    data = {
        "plastic_slip": (("rho", "index"), up_pad, {"units": "m", "note": "accumulated plastic slip at the end of cycle index + 1"}),
        "gross_sliding_cycle": ("rho", np.array(gross, dtype=float), {"units": "1"}),
        "slip": (("rho", "index"), _pad([c[0] for c in curves], n_idx), {"units": "m"}),
        "shear_stress": (("rho", "index"), _pad([c[1] for c in curves], n_idx), {"units": "Pa"}),
    }
    return xr.Dataset(data, coords={"rho": rhos, "index": np.arange(n_idx)},
                      attrs={**m.attrs(), "model": m.name, "cycles": ncyc, "gross_sliding_conventional": g_c,
                             "plastic_slip_conventional": cyc_c[:, 0], "reference_plastic_slip": up_rf,
                             "return_map_plastic_slip": up_rm})


def _pad(rows, n):
    out = np.full((len(rows), n), np.nan)
    for i, r in enumerate(rows):
        out[i, : len(r)] = r
    return out


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    ncyc = int(ds.attrs["cycles"])
    up = ds.plastic_slip.values[:, :ncyc]
    rhos = ds.rho.values
    first = up[:, 0]
    dev = [rel(first[i] * 1e6, PROTOTYPE_CYCLE1_UM[round(float(r), 3)]) for i, r in enumerate(rhos)
           if round(float(r), 3) in PROTOTYPE_CYCLE1_UM]
    out.append(check("plastic slip in cycle 1 as an earlier prototype of ours (0.38 / 0.58 / 0.89 um)", "rel. < 3 %",
                     " / ".join(f"{x * 1e6:.3f}" for x in first) + " um", bool(dev) and max(dev) < 0.03,
                     ambiguity="rho = f_t,amp / (S_max tau0) (our reading of the amplitude)", kind="regression"))
    out.append(check("slip accumulation grows with amplitude (cycle 1)",
                     f"increasing in rho, each > {VISIBLE * 1e9:g} nm",
                     " < ".join(f"{x * 1e6:.3f}" for x in first) + " um",
                     bool(np.all(np.diff(first) > 0)) and bool(np.all(first > VISIBLE)),
                     mutations=(_CONVENTIONAL,)))
    inc_ok = True
    for i in range(len(rhos)):
        row = up[i][np.isfinite(up[i])]
        if row.size > 1 and not (np.all(np.diff(row) > 0) and row[-1] - row[0] > VISIBLE):
            inc_ok = False
    out.append(check("ratchetting: plastic slip accumulates in every cycle below the sliding surface",
                     f"per-cycle increment > 0 in all cycles, in all > {VISIBLE * 1e9:g} nm", "yes" if inc_ok else "no", inc_ok,
                     mutations=(_CONVENTIONAL,)))
    g = ds.gross_sliding_cycle.values
    gl = int(g[-1])
    measured = f"cycle {gl}" if gl > 0 else f"none within the run's {ncyc} cycles"
    out.append(check("gross sliding occurs after several cycles at the largest amplitude (Fig. 5)",
                     f"at a cycle 2 <= n <= {SEVERAL}", measured, 2 <= gl <= SEVERAL,
                     ambiguity=f"'several' read as at most {SEVERAL} cycles (our bound, not printed; chosen knowing the "
                               "earlier prototype's cycle ~75); a run shorter than that without gross sliding fails",
                     mutations=(_R_11000,)))
    if ncyc >= 2000:
        out.append(check("no gross sliding for rho <= 0.7 within 2000 cycles, as an earlier prototype of ours (variant L)",
                         "none", " ".join(str(int(x)) for x in g[:-1]), bool(np.all(g[:-1] == 0)), kind="regression"))
    upc = np.atleast_1d(ds.attrs["plastic_slip_conventional"])
    ratio = float(upc[0] / first[-1]) if upc.size else np.nan
    out.append(check("conventional limit r -> infinity (r = 1e9 /mm): no ratchetting below the surface",
                     "cycle-1 plastic slip < 1e-3 of the r = 1000 /mm value", ratio, ratio < 1e-3, fmt=".2e",
                     mutations=(Mutation("the limit not reached: r = 1e4 /mm in the conventional run",
                                         {"analysis.conventional_r": 1e4 / MM}),)))
    a = np.atleast_1d(ds.attrs["return_map_plastic_slip"])
    b = np.atleast_1d(ds.attrs["reference_plastic_slip"])
    worst = max(rel(x, y) for x, y in zip(a, b))
    out.append(check("return mapping vs rate form (same velocity history, first cycles): plastic slip",
                     "rel. < 1 %", worst, worst < 0.01, fmt=".2e", kind="verification"))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, axes = plt.subplots(1, 2, figsize=(11, 4))
    for i, r in enumerate(ds.rho.values):
        axes[0].plot(ds.slip[i] / MM * 1e3, ds.shear_stress[i] / MPA, lw=0.6, label=f"rho = {r:g}")
        axes[1].plot(ds.index + 1, ds.plastic_slip[i] / MM * 1e3, label=f"rho = {r:g}")
    axes[0].set(xlabel="slip [um] (first cycles)", ylabel="f_t [MPa]")
    axes[1].set(xlabel="cycle", ylabel="accumulated plastic slip [um]", xscale="log")
    return fig


register_scenario(Scenario(
    name="subloading/fig5",
    description="""Ozaki et al. 2020 Fig. 5: cyclic pulsating loading below the sliding surface at rho = f_t,amp / (S_max tau0)
        = 0.6, 0.7, 0.8, f_n = 0.3 MPa, +-0.1 mm/s (unload speed assumed equal), P-common set, variant L; up to 2000
        cycles (ours). The conventional limit r -> infinity is run for comparison, and the first cycles are
        cross-checked against the rate form.""",
    config=CONFIG, post=post, derive=derive, refine=refine, checks=checks, plot=plot,
    quick={"protocol.cycles": 150},
    references=[REFERENCE], derived=DERIVED, moved=MOVED,
))
