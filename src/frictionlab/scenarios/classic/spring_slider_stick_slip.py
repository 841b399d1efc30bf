"""``classic/spring-slider-stick-slip``: LuGre spring-block, stick-slip at low drive velocity.

Canudas de Wit et al. (1995) show stick-slip of a mass (1 kg) pulled through a spring (2 N/m) at
0.1 m/s with their LuGre parameters. The paper checks: stick-slip, sticking between
slips (both killed without the Stribeck effect, F_s = F_c), breakaway at the printed F_s = 1.5 N
(killed by F_s read as 2 N). Steady sliding at 1 m/s, its decay rate and its friction are
compared with the closed forms of the model that ran (verification).

A study with the drive velocity on an axis (``axes.protocol.v``: stick-slip expected at the first,
steady sliding at the last); the post step names that dimension ``drive_velocity``.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...analysis.stick_slip import stick_slip
from ...core.registry import make_model
from ...plot import time_series
from ...reference.lugre import steady_friction
from ..base import Mutation, Scenario, check, register_scenario

CONFIG = {
    "model": {"name": "lugre", "preset": "canudas1995"},
    "protocol": {"type": "constant_velocity", "duration_s": 60.0, "normal_force_value": 1.0},
    "system": {"type": "mass", "mass": 1.0, "stiffness": 2.0},
    # RK4 is stable for dt * sigma0 |v| / g < 2.8: dt = 1e-5 s covers the start-up overshoot to ~1.7 m/s at 1 m/s
    "integrator": {"driver": "rk4", "dt": 1e-5, "save_dt": 2e-3},
    # drive velocities [m/s]: stick-slip expected at the first, steady sliding at the last
    "axes": {"protocol": {"v": [0.1, 1.0]}},
    "analysis": {"window": 0.6, "prominence": 0.02},
}


def post(result, cfg: dict) -> xr.Dataset:
    """The runs along ``drive_velocity``."""
    ds = result.combine().rename(v="drive_velocity")
    return ds.assign_coords(drive_velocity=("drive_velocity", ds.drive_velocity.values, {"units": "m/s"}))


def metrics(ds: xr.Dataset, cfg: dict, v: float):
    sub = ds.sel(drive_velocity=v)
    a = cfg["analysis"]
    return stick_slip(sub.time.values, sub.spring_force.values, window=a["window"], prominence=a["prominence"])


#: Canudas de Wit et al. (1995)'s LuGre parameters (the preset): the breakaway is judged against the printed F_s,
#: so a mutated model moves the run and not the expectation
PRINTED = {"fc": 1.0, "fs": 1.5}
_SOURCE = "Canudas de Wit et al. 1995: m = 1 kg, k = 2 N/m, drive 0.1 m/s"
_NO_STRIBECK = Mutation("no Stribeck effect (F_s = F_c = 1 N): friction does not fall from static to kinetic",
                        {"model.fs": 1.0})
_FS_HIGH = Mutation("F_s read as 2 N", {"model.fs": 2.0})


def checks(ds: xr.Dataset, cfg: dict) -> list:
    m = dict(cfg["model"])
    model = make_model(m.pop("name"), m.pop("preset", None), **m)
    v_lo, v_hi = float(ds.drive_velocity.values[0]), float(ds.drive_velocity.values[-1])
    out = []
    r = metrics(ds, cfg, v_lo)
    out.append(check(f"stick-slip at the low drive velocity ({_SOURCE}; >= 3 spring-force peaks in the last "
                     f"{cfg['analysis']['window']:.0%})", ">= 3 events", float(r.n_events), r.stick_slip, fmt=".0f",
                     mutations=(_NO_STRIBECK,)))
    sub = ds.sel(drive_velocity=v_lo)
    t = sub.time.values
    # whole cycles when there are peaks; the analysis window otherwise (then the stick-slip checks fail)
    sel = ((t >= r.peak_times[0]) & (t < r.peak_times[-1]) if r.stick_slip
           else t >= (1.0 - float(cfg["analysis"]["window"])) * t[-1])
    f_peak = (float(np.mean(sub.spring_force.values[np.searchsorted(t, r.peak_times)])) if r.stick_slip
              else float("nan"))
    fs = PRINTED["fs"]
    out.append(check("breakaway (peak spring force) of the stick-slip at the static friction level F_s (the paper's "
                     "F_s = 1.5 N)", f"{fs:g} N within 5 %", f_peak if r.stick_slip else "no stick-slip",
                     r.stick_slip and abs(f_peak - fs) < 0.05 * fs, mutations=(_FS_HIGH,)))
    v_min = float(np.min(np.abs(sub.slip_velocity.values[sel])))
    out.append(check("the slider sticks between slips (min of abs(slip velocity) over the cycles)",
                     f"< 1 % of {v_lo:g} m/s", v_min, r.stick_slip and v_min < 0.01 * v_lo, fmt=".3g",
                     mutations=(_NO_STRIBECK,)))
    if r.stick_slip:
        v_mean = float(np.mean(sub.slip_velocity.values[sel]))
        out.append(check("mean slider velocity over whole stick-slip cycles = drive velocity", f"{v_lo:g} m/s within 1 %",
                         v_mean, abs(v_mean - v_lo) < 0.01 * v_lo, kind="verification"))
        out.append(check("stick fraction kappa = t_stick / t_ss of the spring-force sawtooth", "0 < kappa < 1",
                         r.kappa, 0.0 < r.kappa < 1.0, fmt=".3f", kind="verification"))
    sub = ds.sel(drive_velocity=v_hi)
    t = sub.time.values
    n = t.size
    late = slice(int(0.4 * n), None)
    v_min = float(np.min(sub.slip_velocity.values[late]))
    # linear stability of steady sliding: F_ss'(V) + C > 0 at V (sigma2 = 0.4 N s/m once the Stribeck drop has
    # decayed) predicts steady sliding: a check of the run against that closed form
    out.append(check(f"steady sliding at the high drive velocity {v_hi:g} m/s: no stick after start-up (last 60 %)",
                     f"min slip velocity > 0.5 V = {0.5 * v_hi:g} m/s", v_min, v_min > 0.5 * v_hi, fmt=".4g",
                     kind="verification"))
    # the start-up oscillation decays at the linear rate F_ss'(V) / (2 M) (bristle lag g / (sigma0 V) ~ 1e-5 s)
    dv = 1e-6 * v_hi
    slope = float((steady_friction(v_hi + dv, model.fc, model.fs, model.vs, model.sigma2, model.delta)
                   - steady_friction(v_hi - dv, model.fc, model.fs, model.vs, model.sigma2, model.delta)) / (2 * dv))
    mass = float(cfg["system"]["mass"])
    rate_th = (slope + float(cfg["system"].get("damping", 0.0))) / (2 * mass)
    u = sub.slip_velocity.values - v_hi
    from scipy.signal import find_peaks  # here, not at import: it loads scipy.stats (~0.3 s for frictionlab list)

    pk, _ = find_peaks(u)
    pk = pk[(t[pk] > 0.2 * t[-1]) & (u[pk] > 1e-6 * v_hi)]
    rate = float(-np.polyfit(t[pk], np.log(u[pk]), 1)[0]) if pk.size >= 3 else float("nan")
    out.append(check("the start-up oscillation decays at the linear rate (sigma2 + g'(V) + C) / (2 M)",
                     f"{rate_th:.4f} 1/s within 5 %", rate, bool(abs(rate - rate_th) < 0.05 * rate_th), fmt=".4f",
                     kind="verification"))
    f_end = float(sub.friction_force.values[-1])
    f_ss = float(steady_friction(v_hi, model.fc, model.fs, model.vs, model.sigma2, model.delta))
    out.append(check("friction then equals the steady-state LuGre curve F_ss(V)", f"{f_ss:.5f} N within 1e-3 rel.",
                     f_end, abs(f_end - f_ss) < 1e-3 * f_ss, fmt=".5f", kind="verification"))
    return out


def plot(ds: xr.Dataset):
    return time_series(ds, ["spring_force", "slip_velocity"], hue="drive_velocity",
                       title="LuGre spring-slider (M 1 kg, K 2 N/m)")


register_scenario(Scenario(
    name="classic/spring-slider-stick-slip",
    description="""LuGre (Canudas de Wit et al. 1995 parameters) on a driven spring-slider, M = 1 kg, K = 2 N/m, started at
        rest: drive velocity 0.1 m/s gives stick-slip (the paper's example), 1 m/s steady sliding once the start-up
        oscillation has decayed. Stick-slip metrics from the spring force (analysis.stick_slip: last 60 %, peaks
        with prominence > 2 % of the mean).""",
    config=CONFIG, post=post, checks=checks, plot=plot,
    moved={"drive_velocities": "axes.protocol.v = [...] (m/s; stick-slip expected at the first, steady sliding at "
                               "the last; a sweep takes one per point: --grid axes.protocol.v=START:STOP:NUM)"},
    quick={"protocol.duration_s": 40.0},
    references=["Canudas de Wit et al. 1995", "Olsson et al. 1998"],
))
