"""``kloss/fig12``: combined-slip tyre forces, multi-dimensional Kloss form (Figs. 11-12, eqs. 33-34).

The measured slip histories (Fig. 11) and forces are in ref. [24] only, so the paper's figure
and its FIT cannot be reproduced (not testable). This scenario drives eqs. (33)-(34) with Fig. 10's
parameters along a synthetic combined-slip history (ours): s_x = 10 sin(2 pi t / 4) %,
s_y = 6 sin(2 pi t / 3) %, over 12 s, and verifies the invariants of the isotropic form
and of the anisotropic extension with equal parameters.

The form is evaluated in closed form along the history (a two-dimensional slip is not a run of the
library's one-dimensional laws): the study has no runs and the post step computes it from
``analysis.law`` and ``analysis.history``.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...core.validation import CURVE_BYTES_PER_SAMPLE, check_count
from ...core.result import make_dataset
from ...laws.kloss import KlossAnisotropic, kloss, kloss_combined_slip
from ...plot import plt
from ..base import Scenario, check, not_testable, register_scenario
from ._common import REFS

CONFIG = {"analysis": {
    "law": {"f_max": 1.227, "s_max0": 5.55, "zeta": 0.46},
    "history": {"sx_amp": 10.0, "sx_period": 4.0, "sy_amp": 6.0, "sy_period": 3.0, "duration": 12.0, "n": 6001}}}


def post(result, cfg: dict) -> xr.Dataset:
    """Eqs. 33-34 along the synthetic slip history (no runs)."""
    m, h = cfg["analysis"]["law"], cfg["analysis"]["history"]
    n = check_count("analysis.history.n", h["n"], minimum=2, bytes_each=CURVE_BYTES_PER_SAMPLE)
    t = np.linspace(0, h["duration"], n)
    sx = h["sx_amp"] * np.sin(2 * np.pi * t / h["sx_period"])
    sy = h["sy_amp"] * np.sin(2 * np.pi * t / h["sy_period"])
    fx, fy = kloss_combined_slip(sx, sy, m["f_max"], m["s_max0"], m["zeta"])
    return make_dataset(t, {"slip_x": sx, "slip_y": sy, "force_x": fx, "force_y": fy},
                        units={"slip_x": "%", "slip_y": "%", "force_x": "1", "force_y": "1"}, attrs=dict(m))


def checks(ds: xr.Dataset, cfg: dict) -> list:
    m = cfg["analysis"]["law"]
    sx, sy, fx, fy = (ds[k].values for k in ("slip_x", "slip_y", "force_x", "force_y"))
    mag = np.hypot(fx, fy)
    one_d = kloss(np.hypot(sx, sy), m["f_max"], m["s_max0"], m["zeta"])
    cross = float(np.max(np.abs(fx * sy - fy * sx)))
    ang = 0.7
    c, s = np.cos(ang), np.sin(ang)
    rx, ry = kloss_combined_slip(c * sx - s * sy, s * sx + c * sy, m["f_max"], m["s_max0"], m["zeta"])
    rot = float(np.max(np.hypot(rx - (c * fx - s * fy), ry - (s * fx + c * fy))))
    f1x, f1y = kloss_combined_slip(sx, 0 * sy, m["f_max"], m["s_max0"], m["zeta"])
    red = float(np.max(np.abs(f1x - kloss(sx, m["f_max"], m["s_max0"], m["zeta"]))) + np.max(np.abs(f1y)))
    an = KlossAnisotropic(m["f_max"], m["f_max"], m["s_max0"], m["s_max0"], m["zeta"], m["zeta"])
    ax_, ay_ = an(sx, sy)
    aniso = float(np.max(np.abs(ax_ - fx)) + np.max(np.abs(ay_ - fy)))
    return [
        not_testable("the multi-dimensional form predicts the measured combined-slip forces with FIT > 92 % (Fig. 12)",
                     "the slip histories (Fig. 11) and forces are the measurements of [24], which the paper does not "
                     "print; the checks below verify eqs. (33)-(34) on a synthetic history instead", expected="FIT > 92 %"),
        check("|F*| equals the 1-D law of |s*| (eqs. 33-34)", "< 1e-12", float(np.max(np.abs(mag - one_d))),
              np.max(np.abs(mag - one_d)) < 1e-12, fmt=".3g", kind="verification"),
        check("force collinear with the slip vector: F* x s* = 0", "< 1e-12", cross, cross < 1e-12, fmt=".3g",
              kind="verification"),
        check("friction circle |F*| <= F_max", f"<= {m['f_max']}", float(mag.max()), mag.max() <= m["f_max"] + 1e-12,
              fmt=".6f", kind="verification"),
        check("rotation covariance: rotating s* rotates F*", "< 1e-12", rot, rot < 1e-12, fmt=".3g", kind="verification"),
        check("s_y = 0 reproduces the 1-D slip form", "< 1e-15", red, red < 1e-15, fmt=".3g", kind="verification"),
        check("anisotropic form with equal x/y parameters = isotropic form", "< 1e-12", aniso, aniso < 1e-12, fmt=".3g",
              kind="extension"),
    ]


def plot(ds: xr.Dataset):
    fig, (a1, a2) = plt.subplots(2, 1, figsize=(7, 5), sharex=True)
    a1.plot(ds.time, ds.slip_x, label="s_x")
    a1.plot(ds.time, ds.slip_y, label="s_y")
    a1.set_ylabel("slip [%]")
    a2.plot(ds.time, ds.force_x, label="F_x/F_N")
    a2.plot(ds.time, ds.force_y, label="F_y/F_N")
    a2.set(ylabel="normalised force", xlabel="time [s] (synthetic history)")
    fig.suptitle("Combined slip, multi-dimensional Kloss form (Figs. 11-12 setting)")
    return fig


register_scenario(Scenario(
    name="kloss/fig12",
    description="""Combined-slip tyre forces with the isotropic multi-D Kloss form, Fig. 10 parameters, synthetic slip history
        (the paper's data are in ref. [24] only).""",
    config=CONFIG, post=post, checks=checks, plot=plot, quick={"analysis.history.n": 1201}, references=REFS,
    moved={"model": "the form's F_max, s_max0, zeta are analysis.law.* (a closed form of the slip vector, not a run "
                    "model)", "history": "analysis.history"},
))
