"""``beam-network/fig8``: total friction of the LBNM and the MLBNM at 88 N, 7.5e-4 m/s.

The beam-network paper (doi:10.1115/1.4042247), Fig. 8 (and the Fig. 10 observation that, in steady oscillation, the
whole patch slips at once). Both models start from rest and are driven for 27 s (20 mm).

Notes
-----
Runs the ``vf60-calibrated`` preset (spec A1 per-beam reading, c_b = 148 N s/m, m = rho a^2 h,
v_s = 1.5e-3 m/s): with the printed v_s = 0.018 m/s neither model stick-slips at this
velocity (see ``beam-network/calibration``). The MLBNM is also run with the paper's
Algorithm 1 (forward Euler) to compare schemes, and the LBNM once more with every beam carrying
its column's mean load (``load_distribution = "column_mean"``, what the MLBNM's column lumping keeps): the evidence that the MLBNM/LBNM
period gap comes from the load variation inside a column. Per-beam slip flags are stored every
1 ms (a slip lasts 20-30 ms; at 10 ms the Fig. 10 fraction was undersampled, 87 %).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...analysis.beam_patterns import steady_metrics
from ...analysis.stick_slip import stick_slip
from ...plot import time_series
from ...core.errors import ConfigError
from ...solve import simulate
from ..base import Scenario, check, deviation, register_scenario
from ._common import CALIBRATION_NOTE, MODEL, NUMERICS, REFERENCES, params_from, check_integrator, stage_protocol

CONFIG = {
    "model": dict(MODEL),
    "protocol": {"type": "constant_velocity", "v": 7.5e-4, "duration_s": 27.0},
    # per-beam fields every 1 ms: one slip lasts 20-30 ms, so Fig. 10's "whole patch at once" needs it
    "integrator": dict(NUMERICS, euler_dt=2e-5, beam_save_dt=1e-3),
}


def run(cfg: dict, quick: bool) -> xr.Dataset:
    p = params_from(cfg)
    if p.load_distribution != "fig7":
        raise ConfigError(f"model.load_distribution = {p.load_distribution!r}: beam-network/fig8 runs the LBNM with the "
                          "Fig. 7 load map ('fig7') and, as evidence, with column-mean loads itself")
    prot = stage_protocol(cfg, p)
    v = prot.v
    n = check_integrator(cfg, "euler_dt", "beam_save_dt")
    kw = dict(dt=float(n["dt"]), save_dt=float(n["save_dt"]), scheme=n["scheme"], n_picard=int(n["n_picard"]))
    lb = simulate(p, prot, integrator="lbnm", beam_save_dt=float(n["beam_save_dt"]), **kw)
    ml = simulate(p, prot, integrator="mlbnm", **kw)
    mle = simulate(p, prot, integrator="mlbnm", dt=float(n["euler_dt"]), save_dt=float(n["save_dt"]), scheme="euler")
    # evidence for the period gap: the LBNM with every beam carrying its column's mean load
    lbc = simulate(p.replace(load_distribution="column_mean"), prot, integrator="lbnm", beam_save_dt=1.0, **kw)
    t = lb.time.values
    F = np.stack([lb.friction_force.values, ml.friction_force.values, mle.friction_force.values,
                  lbc.friction_force.values])
    ds = xr.Dataset(coords={"time": ("time", t, {"units": "s"}),
                            "model": ("model", ["LBNM", "MLBNM", "MLBNM-euler", "LBNM-column-mean-load"])})
    ds["friction_force"] = (("model", "time"), F, {"units": "N"})
    ds["beam_slip"] = lb.beam_slip
    ds["beam_normal_force"] = lb.beam_normal_force
    ds.attrs.update({k: v for k, v in lb.attrs.items() if k not in ("model", "scheme")})
    ds.attrs["v_drive"] = v
    return ds


def _first_event(t, F):
    r = stick_slip(t, F, window=1.0, prominence=0.02, min_events=1)
    return float(r.peak_times[0]) if r.n_events else float("nan")


def checks(ds: xr.Dataset, cfg: dict) -> list:
    p = params_from(cfg)
    t = ds.time.values
    out = []
    met = {}
    for mname in ("LBNM", "MLBNM", "MLBNM-euler", "LBNM-column-mean-load"):
        F = ds.friction_force.sel(model=mname).values
        met[mname] = steady_metrics(t, F)
    for mname in ("LBNM", "MLBNM"):
        F = ds.friction_force.sel(model=mname).values
        m = met[mname]
        out.append(check(f"{mname}: steady stick-slip at F_z = 88 N, 7.5e-4 m/s (Fig. 8c)",
                         ">= 3 force peaks of prominence > 2 % in the last 40 %",
                         f"{m.raw.n_events} peaks, amplitude {m.amplitude:.3g} N, t_ss {m.period:.3g} s",
                         m.stick_slip, ambiguity=CALIBRATION_NOTE))
        t1 = _first_event(t, F)
        out.append(check(f"{mname}: micro-slip rise, first slip event after about 2 s (Fig. 8a)",
                         "first force peak at 1-4 s", t1, 1.0 <= t1 <= 4.0))
        bound = p.mu_s * p.normal_load
        out.append(check(f"{mname}: |F_f| <= mu_S F_z (static bound, eq. 9)", f"<= {bound:.4g} N (+1 % for the "
                         "sigma_1 term)", float(np.max(np.abs(F))), np.max(np.abs(F)) <= 1.01 * bound))
        # growth of amplitude and period during the transient (Fig. 8b)
        r = stick_slip(t, F, window=1.0, prominence=0.02, min_events=4)
        if r.n_events >= 6:
            pk = np.searchsorted(t, r.peak_times)
            drops = np.array([F[a] - F[a:b + 1].min() for a, b in zip(pk[:-1], pk[1:])])
            gaps = np.diff(r.peak_times)
            grow = drops[-1] >= drops[0] and gaps[-1] >= gaps[0]
            meas = f"first/last drop {drops[0]:.3g}/{drops[-1]:.3g} N, period {gaps[0]:.3g}/{gaps[-1]:.3g} s"
        else:
            grow, meas = False, f"{r.n_events} events"
        out.append(check(f"{mname}: amplitude and period grow from onset to steady state (Fig. 8b)",
                         "last cycle >= first cycle in drop and period", meas, grow))
    a_l, a_m = met["LBNM"].amplitude, met["MLBNM"].amplitude
    T_l, T_m = met["LBNM"].period, met["MLBNM"].period
    rel_a = abs(a_m - a_l) / a_l if np.isfinite(a_l) else float("nan")
    rel_T = abs(T_m - T_l) / T_l if np.isfinite(T_l) else float("nan")
    out.append(check("MLBNM ~ LBNM in steady amplitude (Fig. 8c)", "within 25 %", f"{rel_a:.1%}", rel_a <= 0.25))
    claim_T = "MLBNM ~ LBNM in steady period t_ss (Fig. 8c)"
    T_c = met["LBNM-column-mean-load"].period
    rel_c = abs(T_c - T_m) / T_m if np.isfinite(T_m) else float("nan")
    if rel_T <= 0.25:
        out.append(check(claim_T, "within 25 %", f"{rel_T:.1%}", True))
    else:
        ev = [check("LBNM with each beam carrying its column's mean load (what the MLBNM lumps) has the MLBNM period",
                    "within 10 %", f"{T_c:.3g} s vs MLBNM {T_m:.3g} s ({rel_c:.1%})", rel_c <= 0.10),
              check("the same LBNM with the Fig. 7 load map keeps the gap (it is the load variation inside a column)",
                    "LBNM period differs from the column-mean LBNM by > 25 %",
                    f"{T_l:.3g} s vs {T_c:.3g} s ({abs(T_l - T_c) / T_c:.1%})", abs(T_l - T_c) / T_c > 0.25),
              check("the MLBNM period is a property of its equations, not of the scheme (Algorithm 1 vs semi-implicit)",
                    "within 5 %", f"{met['MLBNM-euler'].period:.3g} s vs {T_m:.3g} s",
                    abs(met["MLBNM-euler"].period - T_m) / T_m <= 0.05)]
        out.append(deviation(claim_T, "within 25 %", f"{rel_T:.1%} (LBNM {T_l:.3g} s, MLBNM {T_m:.3g} s)", ev,
                             "the paper finds both periods close to the experiment, but its MLBNM (Sec. 3.1) lumps "
                             "each column into one LuGre element with the summed load; the LBNM with column-mean "
                             "loads has the MLBNM's period, so the gap is the light outer beams inside each column "
                             "that the reduction discards (preset vf60-calibrated)", ambiguity=CALIBRATION_NOTE))
    a_e, T_e = met["MLBNM-euler"].amplitude, met["MLBNM-euler"].period
    rel = max(abs(a_e - a_m) / a_m, abs(T_e - T_m) / T_m) if np.isfinite(a_m) else float("nan")
    out.append(check("Algorithm 1 (forward Euler) and the semi-implicit scheme agree (MLBNM)",
                     "amplitude and period within 5 %", f"{rel:.2%}", rel <= 0.05))
    # Fig. 10: in steady oscillation, slip spreads over the whole patch at once
    sl = ds.beam_slip.values.astype(float)
    tb = ds.beam_time.values
    frac = sl.mean(axis=1)
    peaks = met["LBNM"].raw.peak_times
    fr_after = [float(frac[(tb >= tp - 1e-9) & (tb <= tp + 0.04 + 1e-9)].max(initial=0.0)) for tp in peaks]
    fr_before = [float(frac[(tb >= tp - 0.2) & (tb < tp - 0.05)].mean()) if np.any((tb >= tp - 0.2) & (tb < tp - 0.05))
                 else float("nan") for tp in peaks]
    ok = bool(fr_after) and min(fr_after) >= 0.9
    out.append(check("steady oscillation: the whole patch slips almost at once (Fig. 10)",
                     ">= 90 % of beams slipping within 0.04 s of every steady force peak",
                     f"min {min(fr_after) if fr_after else float('nan'):.0%} over {len(fr_after)} peaks "
                     f"(stick-phase partial slip {np.nanmean(fr_before) if fr_before else float('nan'):.0%})", ok))
    return out


def plot(ds: xr.Dataset):
    fig = time_series(ds, ["friction_force"], hue="model", title="Fig. 8: total friction, 88 N, 7.5e-4 m/s")
    return fig


register_scenario(Scenario(
    name="beam-network/fig8",
    description=("Fig. 8: LBNM (69 beams) and MLBNM (9 IUBs) total friction from rest at F_z = 88 N, "
                 "7.5e-4 m/s for 27 s (preset vf60-calibrated); MLBNM also with the paper's forward-Euler "
                 "Algorithm 1."),
    config=CONFIG, run=run, checks=checks, plot=plot,
    quick={"protocol.duration_s": 12.0, "integrator.n_picard": 0},
    references=REFERENCES, slow=True,
))
