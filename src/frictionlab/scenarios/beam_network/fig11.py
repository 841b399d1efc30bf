"""``beam-network/fig11``: friction distribution along y = 0 from loading to steady sliding.

The beam-network paper (doi:10.1115/1.4042247), Fig. 11: the profile f_fx(x, y = 0) is first double-peaked (the
edge beams saturate first) although the load is central-peaked, and becomes
central-peaked as slip spreads, keeping that shape in the stick-slip oscillation.
Preset ``vf60-calibrated``.
"""

from __future__ import annotations

from ...plot import plt
import numpy as np
import xarray as xr

from ..base import Scenario, check, register_scenario
from ._common import CALIBRATION_NOTE, MODEL, NO_SPRINGS, NUMERICS, REFERENCES, UNIFORM_LOAD

CONFIG = {
    "model": dict(MODEL),
    # the stage programme; its normal force is the model's normal_load (the driver refuses another)
    "protocol": {"type": "constant_velocity", "v": 7.5e-4, "duration_s": 12.0, "normal_force_value": 88.0},
    "integrator": {"driver": "lbnm", **NUMERICS, "beam_save_dt": 1e-2},
    "analysis": {"early_until": 3.0, "late_from": 0.6},
}


def post(result, cfg: dict) -> xr.Dataset:
    """The friction profile along y = 0 over time, with the normal load there."""
    ds = result.combine()
    on = np.isclose(ds.beam_y.values, 0.0)
    idx = np.nonzero(on)[0][np.argsort(ds.beam_x.values[on])]
    prof = ds.beam_friction_x.values[:, idx]
    out = xr.Dataset(coords={"beam_time": ds.beam_time, "x": ("x", ds.beam_x.values[idx], {"units": "m"}),
                             "time": ds.time})
    out["profile"] = (("beam_time", "x"), prof, {"units": "N"})
    out["normal_force_profile"] = ("x", ds.beam_normal_force.values[idx], {"units": "N"})
    out["friction_force"] = ds.friction_force
    out.attrs.update(ds.attrs)
    return out


def _shape(p: np.ndarray, x: np.ndarray) -> tuple[bool, float]:
    """(double-peaked?, relative centre deficit) of one profile."""
    c = int(np.argmin(np.abs(x)))
    return bool(p.max() > p[c] * 1.01 and abs(x[int(np.argmax(p))]) > 0), float(1 - p[c] / p.max())


def checks(ds: xr.Dataset, cfg: dict) -> list:
    x = ds.x.values
    tb = ds.beam_time.values
    P = ds.profile.values
    fz = ds.normal_force_profile.values
    out = []
    c = int(np.argmin(np.abs(x)))
    out.append(check("the normal load along y = 0 is central-peaked (the Fig. 7 polynomial as implemented)",
                     "max at x = 0", f"{x[int(np.argmax(fz))] * 1e3:.3g} mm", int(np.argmax(fz)) == c,
                     kind="verification"))
    early = (tb > 0.05) & (tb <= float(cfg["analysis"]["early_until"]))
    flags = [_shape(P[k], x) for k in np.nonzero(early)[0]]
    n_double = sum(f for f, _ in flags)
    deficit = max((d for _, d in flags), default=float("nan"))
    out.append(check("early loading: the friction profile is double-peaked though the load is central-peaked "
                     "(Fig. 11, Sec. 4.2)",
                     f"off-centre maxima (centre >= 1 % lower) in at least a quarter of the frames up to "
                     f"{cfg['analysis']['early_until']} s", f"{n_double}/{len(flags)} frames, max centre deficit "
                     f"{deficit:.1%}", n_double >= 0.25 * max(len(flags), 1),
                     ambiguity=CALIBRATION_NOTE + "; the frame fraction and the 1 % deficit are our tolerances",
                     mutations=(UNIFORM_LOAD, NO_SPRINGS)))
    late = tb >= float(cfg["analysis"]["late_from"]) * tb[-1]
    mean_late = P[late].mean(axis=0)
    n_central = sum(int(np.argmax(P[k])) == c for k in np.nonzero(late)[0])
    out.append(check("sliding: the profile becomes and stays central-peaked (Fig. 11, Sec. 4.2)",
                     "time-mean profile peaks at x = 0 and >= 90 % of late frames do",
                     f"mean peak at {x[int(np.argmax(mean_late))] * 1e3:.3g} mm, {n_central}/{int(late.sum())} frames",
                     int(np.argmax(mean_late)) == c and n_central >= 0.9 * late.sum(),
                     mutations=(UNIFORM_LOAD, NO_SPRINGS)))
    return out


def plot(ds: xr.Dataset):
    fig, ax = plt.subplots(figsize=(7, 4))
    tb = ds.beam_time.values
    for tt in np.linspace(0.25, tb[-1], 10):
        k = min(int(np.searchsorted(tb, tt)), tb.size - 1)
        ax.plot(ds.x.values * 1e3, ds.profile.values[k], marker="o", label=f"{tb[k]:.2f} s")
    ax.set_xlabel("x [mm] (y = 0)")
    ax.set_ylabel("f_fx [N]")
    ax.legend(fontsize=7, ncol=2)
    ax.set_title("Fig. 11: friction distribution along y = 0")
    return fig


register_scenario(Scenario(
    name="beam-network/fig11",
    description="""Fig. 11: LBNM friction f_fx along y = 0 from loading to steady stick-slip at 88 N, 7.5e-4 m/s (preset
        vf60-calibrated).""",
    config=CONFIG, post=post, checks=checks, plot=plot,
    quick={"protocol.duration_s": 8.0, "integrator.n_picard": 0},
    references=REFERENCES,
))
