"""``beam-network/fig9``: onset of partial slip in the LBNM, from the outer ring inwards.

The beam-network paper (doi:10.1115/1.4042247), Fig. 9: deformation maps around the first slip, coloured by the
Remark 1 stick/slip state. Preset ``vf60-calibrated`` (see ``beam-network/calibration``).

Notes
-----
Remark 1 marks a beam as slipping when |f_fx| >= mu_C f_z and |f_fx| is not rising
(the x component: the stage drives along x). The outer beams carry little load (0.02-0.3 N), so their
friction saturates within the first second, long before the first global slip.
"""

from __future__ import annotations

from ...plot import plt
import numpy as np
import xarray as xr

from ...analysis.stick_slip import stick_slip
from ..base import Scenario, check, register_scenario
from ._common import CALIBRATION_NOTE, MODEL, NO_SPRINGS, NO_WEAKENING, NUMERICS, REFERENCES, UNIFORM_LOAD, rank_corr

CONFIG = {
    "model": dict(MODEL),
    # the stage programme; its normal force is the model's normal_load (the driver refuses another)
    "protocol": {"type": "constant_velocity", "v": 7.5e-4, "duration_s": 6.0, "normal_force_value": 88.0},
    "integrator": {"driver": "lbnm", **NUMERICS, "beam_save_dt": 1e-2},
}


def post(result, cfg: dict) -> xr.Dataset:
    """The run with each beam's first slip time and radius."""
    ds = result.combine()
    sl = ds.beam_slip.values
    tb = ds.beam_time.values
    first = np.array([tb[np.argmax(sl[:, i] > 0)] if sl[:, i].any() else np.nan for i in range(sl.shape[1])])
    ds["first_slip_time"] = ("beam", first, {"units": "s"})
    ds["beam_radius"] = ("beam", np.hypot(ds.beam_x.values, ds.beam_y.values), {"units": "m"})
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    r = ds.beam_radius.values
    first = ds.first_slip_time.values
    out = []
    rho = rank_corr(r, first)
    out.append(check("partial slip starts at the outer ring and spreads inward (Fig. 9, Sec. 4.2)",
                     "rank correlation(radius, first slip time) <= -0.7 (our tolerance: the paper gives no number)",
                     rho, rho <= -0.7, ambiguity=CALIBRATION_NOTE, mutations=(UNIFORM_LOAD,)))
    outer = r >= r.max() - 1e-9
    centre = r <= r.min() + 1e-9
    t_out, t_c = float(np.nanmin(first[outer])), float(np.nanmax(first[centre])) if np.any(np.isfinite(first[centre])) else float("nan")
    out.append(check("the outermost beams slip before the centre beam (Fig. 9, Sec. 4.2)", "t_outer < t_centre",
                     f"{t_out:.3g} s vs {t_c:.3g} s", bool(np.isfinite(t_c) and t_out < t_c),
                     mutations=(UNIFORM_LOAD, NO_WEAKENING)))
    t = ds.time.values
    F = ds.friction_force.values
    ev = stick_slip(t, F, window=1.0, prominence=0.02, min_events=1)
    t_peak = float(ev.peak_times[0]) if ev.n_events else float("nan")
    n_slipped = int(np.sum(first <= t_peak + 0.1)) if np.isfinite(t_peak) else 0
    out.append(check("the whole patch slides at the first global slip (Fig. 9, last frame; Sec. 4.2)",
                     "every beam has slipped by the first force peak + 0.1 s (Fig. 9's frame interval)",
                     f"{n_slipped}/{first.size} beams by {t_peak:.3g} s", n_slipped == first.size,
                     mutations=(NO_WEAKENING, NO_SPRINGS)))
    return out


def plot(ds: xr.Dataset):
    first = ds.first_slip_time.values
    t0, t1 = float(np.nanmin(first)), float(np.nanmax(first))
    times = np.linspace(t0, t1 + 0.05, 8)
    fig, axes = plt.subplots(2, 4, figsize=(12, 6), sharex=True, sharey=True)
    x, y = ds.beam_x.values * 1e3, ds.beam_y.values * 1e3
    for ax, tt in zip(axes.ravel(), times):
        k = int(np.searchsorted(ds.beam_time.values, tt))
        k = min(k, ds.beam_time.size - 1)
        dxm = -5 * ds.beam_lag_x.values[k] * 1e3
        dym = -5 * ds.beam_lag_y.values[k] * 1e3
        s = ds.beam_slip.values[k].astype(bool)
        ax.scatter(x + dxm, y + dym, c=np.where(s, "tab:red", "tab:blue"), s=25)
        ax.set_title(f"t = {ds.beam_time.values[k]:.2f} s")
        ax.set_aspect("equal")
    fig.suptitle("Fig. 9: tip deflection x5 (relative to the clamp); red = slip, blue = stick (Remark 1)")
    return fig


register_scenario(Scenario(
    name="beam-network/fig9",
    description="""Fig. 9: LBNM stick/slip maps during the first stick-to-slip transition at 88 N, 7.5e-4 m/s (preset
        vf60-calibrated): first-slip time of every beam against its radius.""",
    config=CONFIG, post=post, checks=checks, plot=plot,
    quick={"integrator.n_picard": 0},
    references=REFERENCES,
))
