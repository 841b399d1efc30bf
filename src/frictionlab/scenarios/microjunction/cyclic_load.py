"""``microjunction/cyclic-load``: F* = 10 + 5 sin(2πt/0.2 s) after a preload (Appendix A's branches under cycling).

Notes
-----
The appendix prints no cyclic result; the checks state what its branches give: creep (Eq. 3.39)
ratchets δ* and A* up at every cycle end, the running maximum δ*_max never falls, the area falls
while the force falls (elastic unloading), and the δ*-F* loop opens only through creep (the
printed elastic unload/reload laws depend on (F*, A*) alone and are reversible: with C1 = 0 the
loop closes).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...contact.microjunction import ForceHistory, integrate_junction
from ...plot import time_series
from ..base import Mutation, Scenario, check, register_scenario
from ._common import REFERENCES, model_of, solver_opts

#: no creep: the printed elastic unload/reload branches alone, which are reversible
NO_CREEP = Mutation("no creep (C1 = 0): the printed elastic unload/reload branches alone", {"model.c1": 0.0})
#: a loop narrower than this, relative to ΔF* times the mean δ* of the cycle, counts as closed: the
#: creep-free elastic branches close it to the solver tolerance (rtol 1e-8), far below
LOOP_OPEN = 1e-4
CONFIG = {
    "model": {"name": "microjunction", "preset": "demo-steel"},
    "loading": {"mean_star": 10.0, "amplitude_star": 5.0, "period": 0.2, "duration": 2.0, "ramp": 1e-3,
                "n_out_per_period": 100},
    "integrator": {"solver": "DOP853", "rtol": 1e-8, "atol": 1e-11, "mode": "hybrid"},
}


def run(cfg: dict, quick: bool) -> xr.Dataset:
    model = model_of(cfg)
    ld = cfg["loading"]
    ramp, per, dur = float(ld["ramp"]), float(ld["period"]), float(ld["duration"])
    h = ForceHistory.sinusoid(float(ld["mean_star"]), float(ld["amplitude_star"]), per, dur, ramp=ramp)
    n = int(round((dur - ramp) / per * int(ld["n_out_per_period"])))
    t = np.unique(np.concatenate([[0.0, ramp], ramp + np.linspace(0, dur - ramp, n + 1)]))
    sol = integrate_junction(model, h, t_eval=t, **solver_opts(cfg))
    return sol.to_dataset(model)


def checks(ds: xr.Dataset, cfg: dict) -> list:
    ld = cfg["loading"]
    ramp, per = float(ld["ramp"]), float(ld["period"])
    t = ds.time.values
    n_cyc = int(np.floor((t[-1] - ramp) / per + 1e-9))
    ends = ramp + per * np.arange(n_cyc + 1)
    idx = [int(np.argmin(np.abs(t - x))) for x in ends]
    d_end = ds.delta_star.values[idx]
    a_end = ds.area_star.values[idx]
    out = []
    inc = np.diff(d_end)
    out.append(check("ratcheting: δ* at the cycle ends grows cycle by cycle", "all increments > 0",
                     f"{d_end[0]:.3f} -> {d_end[-1]:.3f}", bool(np.all(inc > 0)), mutations=(NO_CREEP,)))
    out.append(check("ratcheting slows down (creep rate decreasing): per-cycle increment of δ* decreases",
                     "non-increasing", f"{inc[0]:.3f} -> {inc[-1]:.3f}", bool(np.all(np.diff(inc) <= 1e-9)),
                     kind="extension", ambiguity="not stated by Appendix A; our expectation of decelerating creep"))
    out.append(check("contact area grows cycle by cycle", "all increments > 0", f"{a_end[0]:.3f} -> {a_end[-1]:.3f}",
                     bool(np.all(np.diff(a_end) > 0)), mutations=(NO_CREEP,)))
    dm = ds.delta_max_star.values
    out.append(check("δ*_max never decreases (the appendix's history variable max(δ*_max, δ*))", "non-decreasing",
                     f"{dm[0]:.3f} -> {dm[-1]:.3f}", bool(np.all(np.diff(dm) >= 0)),
                     insensitive="a running maximum cannot decrease, whatever the parameters"))
    # within the last cycle: unloading half is elastic -> area falls and recovers (hysteresis loop)
    last = ds.sel(time=slice(ends[-2], ends[-1]))
    f, a = last.force_star.values, last.area_star.values
    dec = np.diff(f) < 0
    a_drop = float(np.max(np.maximum.accumulate(a) - a)) if a.size else 0.0
    out.append(check("last cycle: the area decreases while the force decreases (elastic unloading)",
                     "A* falls during the unloading half (largest drop > 0)", f"ΔA* = -{a_drop:.3f}",
                     bool(np.any(np.diff(a)[dec] < 0)) and a_drop > 0,
                     insensitive="while the force falls the interference falls, and both printed area slopes are "
                                 "positive, so the area falls under either reading of the area branch"))
    # the loop over the sampled cycle, closed by the straight segment from its last sample back to its first
    dl = last.delta_star.values
    loop = float(np.trapezoid(dl, f) + 0.5 * (dl[-1] + dl[0]) * (f[0] - f[-1]))
    scale = float(np.ptp(f) * np.mean(dl))
    out.append(check("last cycle: the δ*-F* loop is open (creep between unloading and reloading; the printed elastic "
                     "branches alone are reversible)", f"|∮δ* dF*| > {LOOP_OPEN:g} ΔF* mean δ*",
                     f"∮δ* dF* = {loop:.4f} ({abs(loop) / scale:.1e} ΔF* mean δ*)", abs(loop) > LOOP_OPEN * scale,
                     mutations=(NO_CREEP,)))
    return out


def plot(ds: xr.Dataset):
    return time_series(ds, ["force_star", "delta_star", "area_star"],
                       title="Microjunction under cyclic load F* = 10 + 5 sin(2 pi t / 0.2 s)")


register_scenario(Scenario(
    name="microjunction/cyclic-load",
    description=("Preload to F* = 10 in 1 ms, then F* = 10 + 5 sin(2 pi t / 0.2 s) for 2 s (10 cycles), "
                 "demo steel, hybrid mode, DOP853 rtol 1e-8."),
    config=CONFIG, run=run, checks=checks, plot=plot,
    quick={"loading.duration": 1.0, "loading.n_out_per_period": 60},
    references=REFERENCES,
    optional={"integrator.dt": "caps the adaptive step [s] (_common.solver_opts)"},
))
