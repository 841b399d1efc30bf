"""``kloss/fig13``: NACA 0012 lift coefficient vs angle of attack, Kloss lift form (Fig. 13, eqs. 37-38).

C_max = 1.42, alpha_max0 = 25.38 deg, zeta1 = 0.50, zeta2 = -0.135 per deg (Re = 1e7, paper).
Angles in degrees (spec A6). The Re = 1e7 table itself is not available (the data set has
Re = 3.6e5, 2e6, 5e6 and Ladson's 6e6); fits to those are ``kloss/naca0012-fit``.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...core.validation import CURVE_BYTES_PER_SAMPLE, check_count
from ...laws.kloss import kloss_lift
from ...plot import plt
from ...reference import kloss as ref
from ..base import Scenario, check, register_scenario
from ._common import REFS, curve_dataset

CONFIG = {"model": {"c_max": 1.42, "alpha_max0": 25.38, "zeta1": 0.50, "zeta2": -0.135},
          "curve": {"alpha_min": 0.0, "alpha_max": 20.0, "n": 2001}}
EXPECTED = [(5.0, 0.547), (10.0, 1.098), (18.0, 1.055), (20.0, 0.467)]


def run(cfg: dict, quick: bool) -> xr.Dataset:
    m, c = cfg["model"], cfg["curve"]
    n = check_count("curve.n", c["n"], minimum=2, bytes_each=CURVE_BYTES_PER_SAMPLE)
    a = np.linspace(c["alpha_min"], c["alpha_max"], n)
    return curve_dataset("angle_of_attack", a, {"angle_of_attack": "deg", "lift_coefficient": "1"},
                         {"lift_coefficient": kloss_lift(a, **m)}, dict(m))


def checks(ds: xr.Dataset, cfg: dict) -> list:
    m = cfg["model"]
    out = []
    for a, cl in EXPECTED:
        val = float(kloss_lift(a, **m))
        out.append(check(f"C_L({a:g} deg) (spec S13)", f"{cl} (abs 1e-3)", val, abs(val - cl) < 1e-3, fmt=".4f"))
    ap = ref.lift_peak_angle(m["alpha_max0"], m["zeta1"], m["zeta2"])
    clp = float(kloss_lift(ap, **m))
    out.append(check("peak C_max at alpha* where alpha_max(alpha*) = alpha* (spec K12)", "1.42 at 14.615 deg",
                     f"{clp:.6f} at {ap:.4f} deg", abs(clp - 1.42) < 1e-9 and abs(ap - 14.615) < 1e-3))
    h = 1e-6
    slope = float((kloss_lift(h, **m) - kloss_lift(-h, **m)) / (2 * h))
    out.append(check("lift slope at 0 = 2 C_max/alpha_max0 ~ thin-airfoil 2 pi per rad (degrees reading, A6)",
                     "0.11190 per deg = 6.411 per rad", f"{slope:.5f} per deg = {slope * 180 / np.pi:.3f} per rad",
                     abs(slope - 0.11190) < 1e-5))
    az = ref.lift_zero_angle(m["alpha_max0"], m["zeta1"], m["zeta2"])
    out.append(check("model valid while alpha_max > 0: alpha < 21.331 deg", "21.331 deg (abs 1e-3)", az,
                     abs(az - 21.331) < 1e-3, fmt=".4f"))
    return out


def plot(ds: xr.Dataset):
    fig, ax = plt.subplots(figsize=(6, 4))
    ax.plot(ds.angle_of_attack, ds.lift_coefficient, "g--", label="Kloss lift form (Re = 1e7 parameters)")
    ax.set_xlabel("angle of attack [deg]")
    ax.set_ylabel("C_L")
    ax.legend(fontsize=8)
    ax.set_title("NACA 0012 lift, Kloss form (Fig. 13)")
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="kloss/fig13",
    description="NACA 0012 C_L(alpha) with the Kloss lift form C_max 1.42, alpha_max0 25.38 deg, zeta1 0.5, zeta2 -0.135 (Fig. 13).",
    config=CONFIG, run=run, checks=checks, plot=plot, quick={"curve.n": 401}, references=REFS,
))
