"""``microjunction/cyclic-load``: F* = 10 + 5 sin(2πt/0.2 s) after a preload (Appendix A's branches under cycling).

Notes
-----
The appendix prints no cyclic result; the checks state what its branches give: creep (Eq. 3.39)
ratchets δ* and A* up at every cycle end, the running maximum δ*_max never falls, the area falls
while the force falls (elastic unloading), and the δ*-F* loop opens only through creep (the
printed elastic unload/reload laws depend on (F*, A*) alone and are reversible: with C1 = 0 the
loop closes).

The scenario is a study of one run: a ``ramped_normal_load`` protocol in N (:func:`._common.newtons` of
F* = 10 and 5) run by ``simulate``'s ``junction`` driver, saved at ``analysis.n_out_per_period``
points per period (``derive``); every check reads SI (``approach``, ``approach_max``,
``contact_area``, ``normal_force``): ratcheting, growth, a running maximum and an open loop are
the same statements in any units.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...plot import time_series
from ..base import Mutation, Scenario, check, register_scenario
from ._common import FC_DEMO, MODEL_NAME, REFERENCES, newtons

#: no creep: the printed elastic unload/reload branches alone, which are reversible
NO_CREEP = Mutation("no creep (C1 = 0): the printed elastic unload/reload branches alone", {"model.c1": 0.0})
#: a loop narrower than this, relative to ΔF* times the mean δ* of the cycle, counts as closed: the
#: creep-free elastic branches close it to the solver tolerance (rtol 1e-8), far below
LOOP_OPEN = 1e-4
CONFIG = {
    "model": {"name": "microjunction", "preset": "demo-steel"},
    # from the model's preload F*_0 = 1e-3 to F* = 10 in 1 ms, then F* = 10 + 5 sin(2 pi (t - 1 ms) / 0.2 s) to 2 s;
    # the loads in N (F* x F_c; the model refuses loads below its preload)
    "protocol": {"type": "ramped_normal_load", "preload": newtons(1e-3), "mean": newtons(10.0),
                 "amplitude": newtons(5.0), "period": 0.2, "ramp": 1e-3, "duration_s": 2.0},
    # output points per period
    "analysis": {"n_out_per_period": 100},
    "integrator": {"driver": "junction", "solver": "DOP853", "rtol": 1e-8, "atol": 1e-11, "mode": "hybrid"},
}
_N = f"in N (F* x F_c; F_c = {FC_DEMO:.6g} N for the demo steel)"
MOVED = {"loading.mean_star": f"protocol.mean {_N}", "loading.amplitude_star": f"protocol.amplitude {_N}",
         "loading.period": "protocol.period", "loading.duration": "protocol.duration_s", "loading.ramp": "protocol.ramp",
         "loading.n_out_per_period": "analysis.n_out_per_period"}
DERIVED = {**MODEL_NAME, "integrator.save_times": "analysis.n_out_per_period"}


def derive(point: dict, cfg: dict) -> dict:
    """The output times: t = 0, the end of the ramp, then ``analysis.n_out_per_period`` points per period."""
    pr = point["protocol"]
    ramp, per, dur = float(pr["ramp"]), float(pr["period"]), float(pr["duration_s"])
    n = int(round((dur - ramp) / per * int(cfg["analysis"]["n_out_per_period"])))
    return {"integrator.save_times": np.unique(np.concatenate([[0.0, ramp], ramp + np.linspace(0, dur - ramp, n + 1)]))
            .tolist()}


def post(result, cfg: dict) -> xr.Dataset:
    """The one run (the checks read its cycles)."""
    return result.pick()


def checks(ds: xr.Dataset, cfg: dict) -> list:
    ramp, per = float(cfg["protocol"]["ramp"]), float(cfg["protocol"]["period"])
    t = ds.time.values
    n_cyc = int(np.floor((t[-1] - ramp) / per + 1e-9))
    ends = ramp + per * np.arange(n_cyc + 1)
    idx = [int(np.argmin(np.abs(t - x))) for x in ends]
    d_end = ds.approach.values[idx]
    a_end = ds.contact_area.values[idx]
    out = []
    inc = np.diff(d_end)
    out.append(check("ratcheting: the approach δ at the cycle ends grows cycle by cycle", "all increments > 0",
                     f"{d_end[0]:.4g} -> {d_end[-1]:.5g} m", bool(np.all(inc > 0)), mutations=(NO_CREEP,)))
    out.append(check("ratcheting slows down (creep rate decreasing): per-cycle increment of δ decreases",
                     "non-increasing", f"{inc[0]:.4g} -> {inc[-1]:.4g} m",
                     bool(np.all(np.diff(inc) <= 1e-9 * np.abs(inc).max())),
                     kind="extension", ambiguity="not stated by Appendix A; our expectation of decelerating creep"))
    out.append(check("contact area grows cycle by cycle", "all increments > 0", f"{a_end[0]:.4g} -> {a_end[-1]:.5g} m^2",
                     bool(np.all(np.diff(a_end) > 0)), mutations=(NO_CREEP,)))
    dm = ds.approach_max.values
    out.append(check("δ_max never decreases (the appendix's history variable max(δ*_max, δ*))", "non-decreasing",
                     f"{dm[0]:.4g} -> {dm[-1]:.5g} m", bool(np.all(np.diff(dm) >= 0)),
                     insensitive="a running maximum cannot decrease, whatever the parameters"))
    # within the last cycle: unloading half is elastic -> area falls and recovers (hysteresis loop)
    last = ds.sel(time=slice(ends[-2], ends[-1]))
    f, a = last.normal_force.values, last.contact_area.values
    dec = np.diff(f) < 0
    a_drop = float(np.max(np.maximum.accumulate(a) - a)) if a.size else 0.0
    out.append(check("last cycle: the area decreases while the force decreases (elastic unloading)",
                     "A falls during the unloading half (largest drop > 0)", f"ΔA = -{a_drop:.4g} m^2",
                     bool(np.any(np.diff(a)[dec] < 0)) and a_drop > 0,
                     insensitive="while the force falls the interference falls, and both printed area slopes are "
                                 "positive, so the area falls under either reading of the area branch"))
    # the loop over the sampled cycle, closed by the straight segment from its last sample back to its first
    dl = last.approach.values
    loop = float(np.trapezoid(dl, f) + 0.5 * (dl[-1] + dl[0]) * (f[0] - f[-1]))
    scale = float(np.ptp(f) * np.mean(dl))
    out.append(check("last cycle: the δ-F loop is open (creep between unloading and reloading; the printed elastic "
                     "branches alone are reversible)", f"|∮δ dF| > {LOOP_OPEN:g} ΔF mean δ",
                     f"∮δ dF = {loop:.4g} J ({abs(loop) / scale:.1e} ΔF mean δ)", abs(loop) > LOOP_OPEN * scale,
                     mutations=(NO_CREEP,)))
    return out


def plot(ds: xr.Dataset):
    return time_series(ds, ["normal_force", "approach", "contact_area"],
                       title="Microjunction under cyclic load F* = 10 + 5 sin(2 pi t / 0.2 s)")


register_scenario(Scenario(
    name="microjunction/cyclic-load",
    description="""Preload to F* = 10 in 1 ms, then F* = 10 + 5 sin(2 pi t / 0.2 s) for 2 s (10 cycles), demo steel,
        ramped_normal_load protocol in N, simulate's junction driver, hybrid mode, DOP853 rtol 1e-8.""",
    config=CONFIG, post=post, derive=derive, checks=checks, plot=plot,
    quick={"protocol.duration_s": 1.0, "analysis.n_out_per_period": 60},
    references=REFERENCES, moved=MOVED, derived=DERIVED,
    units={"analysis.n_out_per_period": "1"},
))
