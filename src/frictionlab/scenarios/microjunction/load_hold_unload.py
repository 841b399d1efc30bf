"""``microjunction/load-hold-unload``: creep, elastic unloading from the plastic curve, reloading (Appendix A).

Notes
-----
The appendix prints the branches this history exercises: unloading is elastic in force
(Eqs. 3.30, 3.33: dF*/dδ* = (3/2) sqrt(A*) in normalised form) and in area (Eqs. 3.29, 3.32:
dA*/dδ* = (A*)^(3/2)/F*, the residual-radius law), reloading below F*_JG is elastic, and the
hardness and creep coefficients follow the maximum interference δ*_max. The paper checks compare
the run with these printed laws; the C1 = 0 companion of the unloading is a verification of the
integrator against their closed form; the prototype's numbers are regression checks.

The scenario is a study of one run: a ``normal_load`` protocol in N (:func:`._common.newtons` of
F* = 20 and 10) run by ``simulate``'s ``junction`` driver; ``post`` adds the creep-free companion,
which restarts that driver from the run's state (``initial_state``: approach [m], contact area [m^2]). SI is read by the checks of the
history variable (``approach_max``) and of the creep at the lower load (``approach``,
``contact_area``); the printed elastic laws, their closed form and the prototype's values are
non-dimensional, so those checks read the starred extras.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...plot import time_series
from ...protocols import NormalLoadProgramme, make_protocol
from ...reference.microjunction import elastic_unloading
from ..base import Scenario, check, register_scenario
from ._common import FAST_CREEP, FC_DEMO, MODEL_NAME, REFERENCES, model_of, newtons, rel, run_driver

#: how far creep during a 1 ms load ramp may move the printed elastic laws' prediction: the creep rate at
#: the end of the first hold (about 8 /s) over 1 ms is 0.7 % of the elastic drop of δ*; 2 % leaves room
RAMP_CREEP_TOL = 0.02

CONFIG = {
    "model": {"name": "microjunction", "preset": "demo-steel"},
    # from the model's preload F*_0 = 1e-3 to F* = 20 in 1 ms, hold, 20 -> 10, hold, 10 -> 20, hold; the loads
    # in N (F* x F_c of the demo steel; the model refuses loads below its preload)
    "protocol": {"type": "normal_load", "times": [0.0, 1e-3, 1.0, 1.001, 2.0, 2.001, 3.0],
                 "loads": [newtons(f) for f in (1e-3, 20.0, 20.0, 10.0, 10.0, 20.0, 20.0)]},
    # output points per protocol piece
    "analysis": {"n_out_per_segment": 40},
    "integrator": {"driver": "junction", "solver": "DOP853", "rtol": 1e-9, "atol": 1e-12, "mode": "hybrid"},
}
MOVED = {"loading.normalised": f"the protocol's loads are in N (F* x F_c; F_c = {FC_DEMO:.6g} N for the demo steel)",
         "loading.n_out_per_segment": "analysis.n_out_per_segment"}
DERIVED = {**MODEL_NAME, "integrator.save_times": "analysis.n_out_per_segment"}


def _grid(times: list[float], n: int) -> np.ndarray:
    pts = [times[0]]
    for a, b in zip(times[:-1], times[1:]):
        pts += list(np.linspace(a, b, n + 1)[1:])
    return np.unique(np.asarray(pts))


def derive(point: dict, cfg: dict) -> dict:
    """The output times: ``analysis.n_out_per_segment`` points on every piece of the programme."""
    return {"integrator.save_times": _grid(list(point["protocol"]["times"]),
                                           int(cfg["analysis"]["n_out_per_segment"])).tolist()}


def post(result, cfg: dict) -> xr.Dataset:
    """The run, and its creep-free companion over the unloading ramp: the same driver restarted from
    the run's state at the end of the first hold (``initial_state``) with C1 = 0."""
    ds = result.pick().copy()
    point = result.point().config
    prot = make_protocol(point["protocol"])
    t2, t3 = float(prot.times[2]), float(prot.times[3])
    i = int(np.argmin(np.abs(ds.time.values - t2)))
    unload = NormalLoadProgramme(times=(0.0, t3 - t2), loads=tuple(float(f) for f in prot.normal_force([t2, t3])))
    table = {k: v for k, v in point["integrator"].items() if k != "save_times"}
    un = run_driver(model_of(point).replace(c1=0.0), unload, table, "junction",
                    initial_state=[float(ds.approach[i]), float(ds.contact_area[i])])
    ds.attrs.update(nocreep_unload_delta=float(un.delta_star[-1]), nocreep_unload_area=float(un.area_star[-1]))
    return ds


def _at(ds: xr.Dataset, t: float) -> xr.Dataset:
    return ds.sel(time=t, method="nearest")


def checks(ds: xr.Dataset, cfg: dict) -> list:
    times = cfg["protocol"]["times"]
    t_hold1, t_un, t_hold2, t_re = times[2], times[3], times[4], times[5]
    a, b = _at(ds, t_hold1), _at(ds, t_un)
    out = []
    d1, a1, d2, a2 = float(a.delta_star), float(a.area_star), float(b.delta_star), float(b.area_star)
    out.append(check("unloading 20 -> 10: δ* as an earlier prototype of ours (≈ 29.6 -> 28.5)", "±1 %",
                     f"{d1:.3f} -> {d2:.3f}", rel(d1, 29.6) < 0.01 and rel(d2, 28.5) < 0.01, kind="regression"))
    out.append(check("unloading 20 -> 10: A* as an earlier prototype of ours (≈ 45.5 -> 28.8)", "±1 %",
                     f"{a1:.3f} -> {a2:.3f}", rel(a1, 45.5) < 0.01 and rel(a2, 28.8) < 0.01, kind="regression"))
    # the printed elastic laws integrated from the run's state at the start of unloading
    f1, f2 = float(a.force_star), float(b.force_star)
    dref, aref = elastic_unloading(f2, f1, d1, a1)
    e_dd = rel(d1 - d2, d1 - float(dref))
    e_da = rel(a1 - a2, a1 - float(aref))
    out.append(check("unloading is elastic: δ* and A* fall along the printed elastic laws dF*/dδ* = (3/2) sqrt(A*) "
                     "(Eqs. 3.30, 3.33) and dA*/dδ* = (A*)^(3/2)/F* (residual radius, Eqs. 3.29, 3.32)",
                     f"drops Δδ* = {d1 - float(dref):.4f}, ΔA* = {a1 - float(aref):.4f} (rel {RAMP_CREEP_TOL:.0%}: "
                     "creep during the 1 ms ramp)", f"Δδ* = {d1 - d2:.4f}, ΔA* = {a1 - a2:.4f}",
                     e_dd < RAMP_CREEP_TOL and e_da < RAMP_CREEP_TOL, mutations=(FAST_CREEP,)))
    e_d = rel(ds.attrs["nocreep_unload_delta"], float(dref))
    e_a = rel(ds.attrs["nocreep_unload_area"], float(aref))
    out.append(check("unloading without creep (C1 = 0, same start) follows the elastic closed form "
                     "A* = A0 (F/F0)^(2/3), δ* = δ0 + F0^(1/3) A0^(-1/2) (F^(2/3) - F0^(2/3))",
                     "rel. 1e-6", f"{e_d:.1e}, {e_a:.1e}", e_d < 1e-6 and e_a < 1e-6, kind="verification"))
    seg = ds.sel(time=slice(t_hold1, t_un))
    dm = seg.approach_max.values
    out.append(check("δ_max is unchanged while unloading (the history variable max(δ*_max, δ*) of the appendix)",
                     "constant (rel 1e-12)", f"{dm[0]:.6g} -> {dm[-1]:.6g} m", abs(dm[-1] / dm[0] - 1) < 1e-12,
                     insensitive="a running maximum cannot change while δ* falls, whatever the parameters"))
    out.append(check("the hybrid mode leaves the plastic area curve on unloading (on_plastic_area = 0)",
                     "0 after unloading", float(b.on_plastic_area), float(b.on_plastic_area) == 0.0, fmt=".0f",
                     kind="verification"))
    hold2 = ds.sel(time=slice(t_un, t_hold2))
    out.append(check("creep continues at the lower load (approach δ and contact area A increase during the second hold)",
                     "increasing", f"δ {float(hold2.approach[0]):.5g} -> {float(hold2.approach[-1]):.5g} m",
                     bool(np.all(np.diff(hold2.approach.values) >= 0) and np.all(np.diff(hold2.contact_area.values) >= 0)),
                     insensitive="the printed creep law makes dδ*/dt > 0 at every positive load, and both area slopes "
                                 "are positive, for any parameters"))
    c0, c1 = _at(ds, t_hold2), _at(ds, t_re)
    dd, df = float(c1.delta_star - c0.delta_star), float(c1.force_star - c0.force_star)
    kel = 1.5 * np.sqrt(0.5 * float(c0.area_star + c1.area_star))
    out.append(check("reloading below F*_JG uses the printed elastic stiffness dF*/dδ* = (3/2) sqrt(A*) (Eqs. 3.30, 3.33)",
                     f"Δδ* ≈ ΔF*/(1.5 sqrt(A*)) = {df / kel:.4f} (rel {RAMP_CREEP_TOL:.0%}: creep during the 1 ms ramp)",
                     dd, rel(dd, df / kel) < RAMP_CREEP_TOL, mutations=(FAST_CREEP,)))
    return out


def plot(ds: xr.Dataset):
    return time_series(ds, ["normal_force", "approach", "contact_area", "approach_max"],
                       title="Microjunction: load 20, hold, unload to 10, hold, reload (demo steel)")


register_scenario(Scenario(
    name="microjunction/load-hold-unload",
    description="""F* 1e-3 (the preload) -> 20 in 1 ms, hold to 1 s, 20 -> 10 in 1 ms, hold to 2 s, 10 -> 20 in 1 ms, hold to 3 s (demo steel,
        normal_load protocol in N, simulate's junction driver, hybrid mode, rtol 1e-9).""",
    config=CONFIG, post=post, derive=derive, checks=checks, plot=plot,
    quick={"analysis.n_out_per_segment": 20},
    references=REFERENCES, moved=MOVED, derived=DERIVED,
    units={"analysis.n_out_per_segment": "1"},
))
