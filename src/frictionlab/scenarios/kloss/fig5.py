"""``kloss/fig5``: mass on a 5 deg incline stopped by Kloss friction (Fig. 5, eq. 22).

m = 0.3 kg, theta = 0.0873 rad, v(0) = 1 m/s, F_max = 1 N, v_max0 = 0.01 m/s, zeta = 0.5,
explicit Euler with dt = 1 ms as in the paper (x updated with the old v). Horizon 5 s and
g = 9.81 m/s^2 are ours (spec section 5).

Notes
-----
The law has no true stiction: the block does not stop but creeps at the speed v* where
F(v*) = m g sin(theta) (spec K7); the paper's "equilibrium once the speed is equal to zero"
is this creep state, 1.35 mm/s.
"""

from __future__ import annotations

import math

import numpy as np
import xarray as xr

from ...plot import plt
from ...reference import kloss as ref
from ..base import Scenario, check, register_scenario
from ..config import run_config
from ._common import REFS, law_of, rel

THETA = 0.0873
CONFIG = {
    "model": {"name": "kloss", "preset": "fig5"},
    "protocol": {"type": "constant_velocity", "v": 0.0, "duration_s": 5.0},
    "system": {"type": "mass", "mass": 0.3, "angle_deg": math.degrees(THETA), "v0": 1.0, "normal_from_gravity": True,
               "gravity": 9.81},
    "integrator": {"driver": "euler", "dt": 1e-3, "save_dt": 1e-3},
}


def run(cfg: dict, quick: bool) -> xr.Dataset:
    ds = run_config(cfg)
    s = cfg["system"]
    ds["gravity_force"] = ("time", np.full(ds.time.size, s["mass"] * s["gravity"] * math.sin(math.radians(s["angle_deg"]))),
                           {"units": "N"})
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    s = cfg["system"]
    law = law_of(cfg)
    m = {"f_max": law.f_max, "v_max0": law.v_max0, "zeta": law.zeta}
    th = math.radians(s["angle_deg"])
    mg = s["mass"] * s["gravity"] * math.sin(th)
    v = ds.slip_velocity.values
    f = ds.friction_force.values
    t = ds.time.values
    vstar = ref.incline_creep_velocity(s["mass"], th, m["f_max"], m["v_max0"], m["zeta"], s["gravity"])
    t05 = float(t[np.argmax(v < 0.05)])
    return [
        check("velocity decreases monotonically to a creep speed v* with F(v*) = m g sin(theta) (spec K7)",
              f"v* = {vstar:.6g} m/s (rel 1e-6)", float(v[-1]), rel(v[-1], vstar) < 1e-6 and np.all(np.diff(v) <= 1e-15),
              fmt=".6g"),
        check("friction settles equal and opposite to the gravity force", f"{mg:.6f} N (rel 1e-6)", float(f[-1]),
              rel(f[-1], mg) < 1e-6, fmt=".6f"),
        check("friction starts near the Coulomb level (prototype -0.4871 N)", "0.4871 N (abs 5e-4)", float(f[0]),
              abs(f[0] - 0.4871) < 5e-4),
        check("Stribeck rise to ~F_max just before 'stopping' (prototype peak 0.9984 N)", "0.9984 N (abs 2e-3)",
              float(f.max()), abs(f.max() - 0.9984) < 2e-3),
        check("v falls below 0.05 m/s at t ~ 1.11 s (prototype)", "1.11 s (abs 0.01)", t05, abs(t05 - 1.11) < 0.01),
    ]


def plot(ds: xr.Dataset):
    fig, ax = plt.subplots(figsize=(7, 4))
    ax.plot(ds.time, -ds.friction_force, "r-", label="friction force F_x(v~) [N]")
    ax.plot(ds.time, ds.gravity_force, "k-", label="gravity force m g sin(theta) [N]")
    ax.plot(ds.time, ds.slip_velocity, "b--", label="velocity v [m/s]")
    ax.set_xlabel("time [s]")
    ax.legend(fontsize=8)
    ax.set_title("Kloss friction: mass on a 5 deg incline (Fig. 5)")
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="kloss/fig5",
    description=("Mass 0.3 kg sliding down a 5 deg incline from 1 m/s, Kloss friction F_max 1 N, v_max0 0.01 m/s, "
                 "zeta 0.5, explicit Euler 1 ms (Fig. 5)."),
    config=CONFIG, run=run, checks=checks, plot=plot, quick={}, references=REFS,
))
