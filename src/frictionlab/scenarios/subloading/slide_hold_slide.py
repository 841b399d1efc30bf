"""``subloading/slide-hold-slide``: static friction recovers with hold time (creep term).

The paper describes (Fig. 3(e), schematic) that the real contact area recovers with time at
rest through the creep term of eq. (8), so that the next slide starts from a higher peak.
Reproduced with the core :class:`~frictionlab.protocols.SlideHoldSlide` protocol: P-common set,
f_n = 0.3 MPa, slide at 1 mm/s for 0.6 mm, holds of 1, 10, 100 s each followed by a 0.6 mm
slide. Unlike our first reading, the load is held during the holds (no unloading step;
the protocol has none): with v = 0 the stress stays constant (Lambda <= 0).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...protocols import SlideHoldSlide
from ...protocols.base import make_protocol
from ..base import Mutation, Scenario, check, register_scenario
from ._common import MM, MODEL_NAME, MPA, REFERENCE, models, rel

CONFIG = {
    "model": {"name": "subloading", "preset": "fig4"},
    "protocol": {"type": "slide_hold_slide", "v": 1e-3, "slide_duration": 0.6, "holds": [1.0, 10.0, 100.0],
                 "hold_velocity": 0.0, "normal_force_value": 3e5},
    # slip increment du_max [m] per step (1e-5 mm), at most dt_max [s] (the holds)
    "integrator": {"driver": "prescribed", "du_max": 1e-5 * MM, "dt_max": 1e-3},
    # the return mapping and the rate form (RK4 with the normal-stress rate as input, slip increments du [m])
    # over the shortest hold alone, compared at the peak after it
    "runs": {"holds": {},
             "short_hold": {"protocol": {"holds": [1.0]}},
             "short_hold_rate_form": {"model": {"name": "subloading_rate"}, "protocol": {"holds": [1.0]},
                                      "integrator": {"driver": "rate_reference", "du": 2e-6 * MM}}},
}
MOVED = {"reference": "the rate form is runs.short_hold_rate_form (its driver and du there); its hold "
                      "runs.short_hold.protocol.holds and runs.short_hold_rate_form.protocol.holds"}


def _protocol(table: dict) -> SlideHoldSlide:
    return make_protocol(table)  # type: ignore[return-value]


def _peaks(ds: xr.Dataset, pr: SlideHoldSlide) -> list[float]:
    t = ds.time.values
    f = ds.shear_stress.values
    out = []
    for _, end in pr.hold_windows:
        sel = (t > end) & (t <= end + pr.slide_duration)
        out.append(float(f[sel].max()))
    return out


def post(result, cfg: dict) -> xr.Dataset:
    """Peaks after each hold, S_r at the ends of the holds against its closed form, and the peak after
    the shortest hold of the return mapping and of the rate form."""
    m, _ = models(cfg)
    pr = _protocol(cfg["protocol"])
    d = result.pick("holds")
    pk = _peaks(d, pr)
    t = d.time.values
    A_end, A_start, A_exact, df_hold = [], [], [], []
    for (a, b) in pr.hold_windows:
        i0 = int(np.searchsorted(t, a))  # first saved point in the hold
        i1 = int(np.searchsorted(t, b, side="right")) - 1  # last saved point in the hold
        q0 = float(d.contact_ratio.values[i0])
        A_start.append(q0)
        A_end.append(float(d.contact_ratio.values[i1]))
        # xi = 0 encodes xi -> infinity (no recovery at rest)
        A_exact.append(m.s_max - (m.s_max - q0) * (np.exp(-(t[i1] - t[i0]) / m.xi) if m.xi > 0 else 1.0))
        df_hold.append(float(np.ptp(d.shear_stress.values[i0:i1 + 1])))
    # the shortest hold alone: return mapping and rate form (a uniform-step explicit run)
    d1, dr = result.pick("short_hold"), result.pick("short_hold_rate_form")
    ref_pk = (_peaks(d1, _protocol(result.point("short_hold").config["protocol"]))[0],
              _peaks(dr, _protocol(result.point("short_hold_rate_form").config["protocol"]))[0])
    ds = d.assign_coords(hold=("hold", np.array(pr.holds), {"units": "s"}))
    ds["peak_after_hold"] = ("hold", np.array(pk), {"units": "Pa"})
    ds["contact_ratio_hold_start"] = ("hold", np.array(A_start), {"units": "1"})
    ds["contact_ratio_hold_end"] = ("hold", np.array(A_end), {"units": "1"})
    ds["contact_ratio_hold_end_closed_form"] = ("hold", np.array(A_exact), {"units": "1"})
    ds["stress_change_in_hold"] = ("hold", np.array(df_hold), {"units": "Pa"})
    ds.attrs["first_peak"] = float(d.shear_stress.values[t <= pr.slide_duration].max())
    ds.attrs["reference_peak_return_map"], ds.attrs["reference_peak_rate_form"] = ref_pk
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    pk = ds.peak_after_hold.values
    fn = cfg["protocol"]["normal_force_value"]
    out.append(check("static friction (peak after the hold) grows with hold time", "increasing in t_h",
                     " < ".join(f"{x / fn:.4f}" for x in pk) + " (f_t/f_n)", bool(np.all(np.diff(pk) > 0)),
                     mutations=(Mutation("rate effects off (kappa, xi -> infinity): no recovery of S_r at rest",
                                         {"model.kappa": 0.0, "model.xi": 0.0}),)))
    a, b = ds.contact_ratio_hold_end.values, ds.contact_ratio_hold_end_closed_form.values
    worst = float(np.max(np.abs(a - b)))
    out.append(check("during a hold S_r recovers as S_max - (S_max - S_r0) exp(-t_h / xi) (closed form of eq. 33 at rest)",
                     "|dS_r| < 1e-4 (backward Euler, dt <= 1 ms)", worst, worst < 1e-4, fmt=".2e", kind="verification"))
    dfh = float(np.max(ds.stress_change_in_hold.values))
    out.append(check("no slip and constant stress while held (Lambda <= 0)", "max |df_t| = 0",
                     f"{dfh:.3g} Pa", dfh == 0.0,
                     insensitive="at zero sliding velocity the loading criterion gives Lambda <= 0 and the return "
                                 "mapping leaves the stress unchanged, for any parameters"))
    rm, rf = ds.attrs["reference_peak_return_map"], ds.attrs["reference_peak_rate_form"]
    out.append(check("return mapping vs rate form (RK4): peak after the shortest hold", "rel. < 1e-3",
                     rel(rm, rf), rel(rm, rf) < 1e-3, fmt=".2e", kind="verification"))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, axes = plt.subplots(2, 1, figsize=(8, 6), sharex=True)
    axes[0].plot(ds.time, ds.shear_stress / MPA, label="f_t")
    axes[0].plot(ds.time, ds.sliding_surface / MPA, "--", label="S_r tau (sliding surface)")
    axes[0].set_ylabel("stress [MPa]")
    axes[1].plot(ds.time, ds.contact_ratio, label="S_r")
    axes[1].plot(ds.time, ds.sliding_ratio, label="R")
    axes[1].set_xlabel("time [s]")
    axes[1].set_xscale("symlog", linthresh=1.0)
    return fig


register_scenario(Scenario(
    name="subloading/slide-hold-slide",
    description="""Slide-hold-slide with the subloading-friction model (P-common, variant L, f_n = 0.3 MPa; the paper's Fig.
        3(e) behaviour): slide 0.6 mm at 1 mm/s, holds 1, 10, 100 s under load (no unloading step, no unloading),
        reslide 0.6 mm after each; static friction recovers with hold time through the creep term (eq. 8).""",
    config=CONFIG, post=post, checks=checks, plot=plot,
    quick={},
    references=[REFERENCE], derived=MODEL_NAME, moved=MOVED,
))
