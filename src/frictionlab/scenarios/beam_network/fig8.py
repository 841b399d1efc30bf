"""``beam-network/fig8``: total friction of the LBNM and the MLBNM at 88 N, 7.5e-4 m/s.

The beam-network paper (doi:10.1115/1.4042247), Fig. 8 (and the Fig. 10 observation that, in steady oscillation, the
whole patch slips at once). Both models start from rest and are driven for 27 s (20 mm).

Notes
-----
Runs the ``vf60-calibrated`` preset (Table 3 read per beam as eqs. 10-11 sum it, c_b = 148 N s/m
from Fig. 13, m = rho a^2 h, v_s = 1.5e-3 m/s): with the printed v_s = 0.018 m/s neither model
stick-slips at this velocity (see ``beam-network/calibration``); both models are run with the
printed v_s too, so every comparison says what the printed parameters give beside what our
calibration gives. The MLBNM is also run with the paper's Algorithm 1 (forward Euler) to
compare schemes, and the LBNM once more with every beam carrying its column's mean load
(``load_distribution = "column_mean"``, what the MLBNM's column lumping keeps). Per-beam slip
flags are stored every 1 ms (a slip lasts 20-30 ms; at 10 ms the Fig. 10 fraction was
undersampled, 87 %).

The first slip "at around 2 s" (Sec. 4.2, Figs. 8a and 9) is printed with one significant
figure, so its tolerance is that digit's rounding interval, 1.5-2.5 s. The paper's "close"
(MLBNM and LBNM amplitudes and periods, Fig. 8c) has no number; 25 % is our tolerance, stated
with the check.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...analysis.beam_patterns import steady_metrics
from ...analysis.stick_slip import stick_slip
from ...plot import time_series
from ..base import Check, Scenario, check, not_testable, register_scenario
from ._common import CALIBRATION_NOTE, MODEL, NO_WEAKENING, NUMERICS, REFERENCES, params_from

#: "around 2 s" (Sec. 4.2) at its one printed significant figure
FIRST_SLIP = (1.5, 2.5)
#: our tolerance for the paper's "close" (Fig. 8c; no number printed)
CLOSE = 0.25

#: Table 3's printed v_s [m/s] (our calibration changes only this value; see beam-network/calibration)
PRINTED_VS = 0.018

CONFIG = {
    "model": dict(MODEL),
    # the stage programme; its normal force is the model's normal_load (the driver refuses another)
    "protocol": {"type": "constant_velocity", "v": 7.5e-4, "duration_s": 27.0, "normal_force_value": 88.0},
    # the numerics both models run with (each run names its driver)
    "integrator": dict(NUMERICS),
    # LBNM (per-beam fields every 1 ms: one slip lasts 20-30 ms, so Fig. 10's "whole patch at once" needs it) and
    # MLBNM; the MLBNM by the paper's Algorithm 1 (forward Euler); as evidence for the period gap, the LBNM with
    # every beam carrying its column's mean load; both models with Table 3's printed v_s (the rest as the model
    # that ran), last, so that their wall times compare loaded kernels
    "runs": {"lbnm": {"integrator": {"driver": "lbnm", "beam_save_dt": 1e-3}},
             "mlbnm": {"integrator": {"driver": "mlbnm"}},
             "mlbnm_euler": {"integrator": {"driver": "mlbnm", "scheme": "euler", "dt": 2e-5, "n_picard": 1}},
             "lbnm_column_mean": {"model": {"load_distribution": "column_mean"},
                                  "integrator": {"driver": "lbnm", "beam_save_dt": 1.0}},
             "lbnm_printed_vs": {"model": {"v_stribeck": PRINTED_VS},
                                 "integrator": {"driver": "lbnm", "beam_save_dt": 1.0}},
             "mlbnm_printed_vs": {"model": {"v_stribeck": PRINTED_VS}, "integrator": {"driver": "mlbnm"}}},
}
MOVED = {"integrator.euler_dt": "runs.mlbnm_euler.integrator.dt",
         "integrator.beam_save_dt": "runs.lbnm.integrator.beam_save_dt"}
DERIVED = {"model.load_distribution": "nothing: beam-network/fig8 runs the LBNM with the Fig. 7 load map and, as "
                                      "evidence, with column-mean loads (runs.lbnm_column_mean)"}
#: the runs, as the model coordinate of the dataset
LABELS = {"lbnm": "LBNM", "mlbnm": "MLBNM", "mlbnm_euler": "MLBNM-euler", "lbnm_column_mean": "LBNM-column-mean-load",
          "lbnm_printed_vs": "LBNM-printed-vs", "mlbnm_printed_vs": "MLBNM-printed-vs"}


def post(result, cfg: dict) -> xr.Dataset:
    """The six friction forces on one time axis, the LBNM's beam slip flags and loads, the printed-v_s runs'
    wall times."""
    lb = result.pick("lbnm")
    v = float(cfg["protocol"]["v"])
    runs = [result.pick(label) for label in LABELS]
    F = np.stack([d.friction_force.values for d in runs])
    ds = xr.Dataset(coords={"time": ("time", lb.time.values, {"units": "s"}),
                            "model": ("model", list(LABELS.values()))})
    ds["friction_force"] = (("model", "time"), F, {"units": "N"})
    ds["beam_slip"] = lb.beam_slip
    ds["beam_normal_force"] = lb.beam_normal_force
    ds.attrs.update({k: v for k, v in lb.attrs.items() if k not in ("model", "scheme")})
    ds.attrs["v_drive"] = v
    # the printed-v_s runs, same case and numerics: the speed-up extension
    ds.attrs["wall_time_lbnm_s"] = result.seconds_of("lbnm_printed_vs")
    ds.attrs["wall_time_mlbnm_s"] = result.seconds_of("mlbnm_printed_vs")
    return ds


def _first_event(t, F):
    r = stick_slip(t, F, window=1.0, prominence=0.02, min_events=1)
    return float(r.peak_times[0]) if r.n_events else float("nan")


def checks(ds: xr.Dataset, cfg: dict) -> list:
    p = params_from(cfg)
    t = ds.time.values
    out = []
    met = {m: steady_metrics(t, ds.friction_force.sel(model=m).values) for m in ds.model.values}
    mut = (NO_WEAKENING,)
    for mname in ("LBNM", "MLBNM"):
        F = ds.friction_force.sel(model=mname).values
        m = met[mname]
        mp = met[f"{mname}-printed-vs"]
        out.append(check(f"{mname}: steady stick-slip at F_z = 88 N, 7.5e-4 m/s (Fig. 8c)",
                         ">= 3 force peaks of prominence > 2 % in the last 40 %",
                         f"{m.raw.n_events} peaks, amplitude {m.amplitude:.3g} N, t_ss {m.period:.3g} s (printed "
                         f"Table 3 v_s: {'stick-slip' if mp.stick_slip else 'no stick-slip'})",
                         m.stick_slip, ambiguity=CALIBRATION_NOTE, mutations=mut))
        t1 = _first_event(t, F)
        lo, hi = FIRST_SLIP
        out.append(check(f"{mname}: micro-slip rise, first slip event at around 2 s (Sec. 4.2, Figs. 8a and 9)",
                         f"first force peak at {lo:g}-{hi:g} s (the rounding interval of the printed '2 s')", t1,
                         lo <= t1 <= hi, ambiguity=CALIBRATION_NOTE, mutations=mut))
        bound = p.mu_s * p.normal_load
        out.append(check(f"{mname}: |F_f| <= mu_S F_z (static bound, eq. 9)", f"<= {bound:.4g} N (+1 % for the "
                         "sigma_1 term)", float(np.max(np.abs(F))), np.max(np.abs(F)) <= 1.01 * bound,
                         kind="verification"))
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
                         "last cycle >= first cycle in drop and period", meas, grow, mutations=mut))
    out += _model_comparison(met, p)
    out += _speed_up(ds)
    a_m, T_m = met["MLBNM"].amplitude, met["MLBNM"].period
    a_e, T_e = met["MLBNM-euler"].amplitude, met["MLBNM-euler"].period
    rel = max(abs(a_e - a_m) / a_m, abs(T_e - T_m) / T_m) if np.isfinite(a_m) else float("nan")
    out.append(check("Algorithm 1 (forward Euler) and the semi-implicit scheme agree (MLBNM)",
                     "amplitude and period within 5 %", f"{rel:.2%}", rel <= 0.05, kind="verification"))
    # Fig. 10: in steady oscillation, slip spreads over the whole patch at once
    sl = ds.beam_slip.values.astype(float)
    tb = ds.beam_time.values
    frac = sl.mean(axis=1)
    peaks = met["LBNM"].raw.peak_times
    fr_after = [float(frac[(tb >= tp - 1e-9) & (tb <= tp + 0.04 + 1e-9)].max(initial=0.0)) for tp in peaks]
    fr_before = [float(frac[(tb >= tp - 0.2) & (tb < tp - 0.05)].mean()) if np.any((tb >= tp - 0.2) & (tb < tp - 0.05))
                 else float("nan") for tp in peaks]
    ok = bool(fr_after) and min(fr_after) >= 0.9
    out.append(check("steady oscillation: the whole patch slips almost at once (Fig. 10, Sec. 4.2)",
                     ">= 90 % of beams slipping within 0.04 s (Fig. 10's frame interval) of every steady force peak",
                     f"min {min(fr_after) if fr_after else float('nan'):.0%} over {len(fr_after)} peaks "
                     f"(stick-phase partial slip {np.nanmean(fr_before) if fr_before else float('nan'):.0%})", ok,
                     mutations=mut))
    return out


def _model_comparison(met: dict, p) -> list[Check]:
    """Fig. 8c: MLBNM and LBNM steady amplitude and period "both close" to the experiment, so to each other; what the
    printed v_s gives beside what our calibrated v_s gives, and Sec. 4.2's 50x speed-up."""
    out = []
    rel = {}
    for nm, tag in (("amplitude", "amplitude"), ("period", "period t_ss")):
        pairs = {}
        for which, (lb, ml) in (("calibrated", ("LBNM", "MLBNM")), ("printed", ("LBNM-printed-vs", "MLBNM-printed-vs"))):
            x_l, x_m = getattr(met[lb], nm), getattr(met[ml], nm)
            both = met[lb].stick_slip and met[ml].stick_slip
            pairs[which] = (x_l, x_m, abs(x_m - x_l) / x_l if both and np.isfinite(x_l) else float("nan"))
        rel[nm] = pairs
        unit = "N" if nm == "amplitude" else "s"
        (cl, cm, rc), (pl, pm, rp) = pairs["calibrated"], pairs["printed"]
        printed_txt = (f"printed Table 3 v_s: {rp:.1%} (LBNM {pl:.3g} {unit}, MLBNM {pm:.3g} {unit})" if np.isfinite(rp)
                       else "printed Table 3 v_s: no stick-slip in "
                       + ("either model" if not (np.isfinite(pl) or np.isfinite(pm)) else "one model") + ", nothing to compare")
        meas = f"calibrated v_s: {rc:.1%} (LBNM {cl:.3g} {unit}, MLBNM {cm:.3g} {unit}); {printed_txt}"
        claim = f"MLBNM ~ LBNM in steady {tag} (Fig. 8c, Sec. 4.2)"
        amb = f"{CALIBRATION_NOTE}; 'close' has no printed number, {CLOSE:.0%} is our tolerance"
        if rc <= CLOSE:
            out.append(check(claim, f"within {CLOSE:.0%}", meas, True, ambiguity=amb, mutations=(NO_WEAKENING,)))
        else:
            why = ("the printed parameters give " + ("no stick-slip, so no " + tag + " to compare" if not np.isfinite(rp)
                                                      else f"{rp:.1%}")
                   + f"; the {rc:.0%} gap is that of our calibrated v_s and the unprinted c_b, so it is no evidence "
                   "about the paper (a deviation needs the printed parameters to show it)")
            out.append(Check(claim, f"within {CLOSE:.0%}", meas, False, amb, status="fail", explanation=why,
                             mutations=(NO_WEAKENING,)))
    T_m, T_c = met["MLBNM"].period, met["LBNM-column-mean-load"].period
    rel_c = abs(T_c - T_m) / T_m if np.isfinite(T_m) else float("nan")
    out.append(check("the LBNM with each beam carrying its column's mean load (what the MLBNM's column lumping keeps, "
                     "Sec. 3.1 eq. 10) has the MLBNM period", "within 10 %",
                     f"{T_c:.3g} s vs MLBNM {T_m:.3g} s ({rel_c:.1%}); LBNM with the Fig. 7 map {met['LBNM'].period:.3g} s",
                     rel_c <= 0.10, kind="verification"))
    return out


def _speed_up(ds: xr.Dataset) -> list[Check]:
    tl, tm = float(ds.attrs["wall_time_lbnm_s"]), float(ds.attrs["wall_time_mlbnm_s"])
    return [not_testable("the MLBNM computes about 50 times faster than the LBNM (Sec. 4.2)",
                         "a wall-time ratio is a property of an implementation and a machine, neither printed (nor the "
                         "paper's time step); our implementation's ratio is the extension check beside"),
            check("our MLBNM (9 IUBs) runs the Fig. 8 case faster than our LBNM (69 beams), same dt and duration",
                  "wall-time ratio > 1 (the paper reports about 50 for its implementation)",
                  f"{tl / tm:.3g} (LBNM {tl:.3g} s, MLBNM {tm:.3g} s, printed-v_s runs)", tl > tm, kind="extension")]


def plot(ds: xr.Dataset):
    fig = time_series(ds, ["friction_force"], hue="model", title="Fig. 8: total friction, 88 N, 7.5e-4 m/s")
    return fig


register_scenario(Scenario(
    name="beam-network/fig8",
    description="""Fig. 8: LBNM (69 beams) and MLBNM (9 IUBs) total friction from rest at F_z = 88 N, 7.5e-4 m/s for 27 s
        (preset vf60-calibrated); MLBNM also with the paper's forward-Euler Algorithm 1.""",
    config=CONFIG, post=post, checks=checks, plot=plot, moved=MOVED, derived=DERIVED,
    quick={"protocol.duration_s": 12.0, "integrator.n_picard": 0},
    references=REFERENCES, slow=True,
))
