"""``kloss/fig14``: Bragg-like stopping of a particle under Kloss friction (Fig. 14, eqs. 39-40).

F_max = 5.291, v_max0 = 0.0115 m/s, zeta = 0.005, m = 1 (normalised), v(0) = 0.12 +- 0.001 m/s
(spec A7: the paper prints "12 +- 0.1 cm/s" but only v(0)/v_max0 matters and the same unit
as v_max0 reproduces the quoted entrance LET ratio), explicit Euler dt = 1e-5 s (spec
section 4: 1 ms would be near the stability limit 2.2 ms and inaccurate at the peak).
The stopping power is |F| vs depth x; the sum over the three v(0) is the spread-out peak.

Notes
-----
Shape comparison only: the normalised model range (4.8 mm) has no mapping to cm of water.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...core.registry import make_model
from ...solve import simulate
from ...plot import plt
from ...protocols import ConstantVelocity
from ...reference import kloss as ref
from ...systems import MassSystem
from ..base import Scenario, check, register_scenario
from ._common import REFS, rel

CONFIG = {
    "model": {"name": "kloss", "preset": "fig14"},
    "launch": {"v0": [0.119, 0.120, 0.121], "mass": 1.0, "duration": 0.25, "v_stop": 1e-4},
    "integrator": {"driver": "euler", "dt": 1e-5},
}
PROTOTYPE = {0.119: (1.0389, 4.643e-3, 4.659e-3), 0.120: (1.0306, 4.759e-3, 4.775e-3), 0.121: (1.0225, 4.876e-3, 4.892e-3)}


def run(cfg: dict, quick: bool) -> xr.Dataset:
    m = dict(cfg["model"])
    law = make_model(m.pop("name"), m.pop("preset", None), **m)
    L = cfg["launch"]
    dt = float(cfg["integrator"]["dt"])
    runs = []
    for v0 in L["v0"]:
        sys_ = MassSystem(mass=L["mass"], v0=float(v0))
        ds = simulate(law, ConstantVelocity(v=0.0, duration_s=L["duration"]), system=sys_,
                      integrator=cfg["integrator"]["driver"], dt=dt, save_dt=dt, max_points=10 ** 8)
        runs.append(ds[["slip", "slip_velocity", "friction_force"]])
    out = xr.concat(runs, dim="v0", combine_attrs="drop_conflicts").assign_coords(v0=("v0", list(L["v0"]), {"units": "m/s"}))
    out.attrs.update({k: getattr(law, k) for k in ("f_max", "v_max0", "zeta")})
    return out


def checks(ds: xr.Dataset, cfg: dict) -> list:
    L = cfg["launch"]
    fmax, a0, z = float(ds.attrs["f_max"]), float(ds.attrs["v_max0"]), float(ds.attrs["zeta"])
    lam = ref.peak_velocity(a0, z)
    out = []
    peaks = []
    for v0 in ds.v0.values:
        sub = ds.sel(v0=v0)
        x, v, f = sub.slip.values, sub.slip_velocity.values, sub.friction_force.values
        stop = int(np.argmax(v < L["v_stop"]))
        rng_sim = float(x[stop])
        X = ref.stopping_range(float(v0), L["mass"], fmax, a0, z) - ref.stopping_range(L["v_stop"], L["mass"], fmax, a0, z)
        i = int(np.argmax(f))
        peaks.append(float(f[i]))
        x_peak_exp = ref.stopping_range(float(v0), L["mass"], fmax, a0, z) - ref.stopping_range(lam, L["mass"], fmax, a0, z)
        proto = PROTOTYPE.get(round(float(v0), 3))
        out.append(check(f"v0 = {v0:g}: range to v < {L['v_stop']:g} m/s = m int v dv / F(v) (spec K10)",
                         f"{X * 1e3:.5f} mm (rel 2e-3)", rng_sim * 1e3, rel(rng_sim, X) < 2e-3, fmt=".5f"))
        out.append(check(f"v0 = {v0:g}: Bragg peak |F| = F_max at depth X(v0) - X(lambda_max)",
                         f"{fmax:g} at {x_peak_exp * 1e3:.4f} mm (rel 1e-3, 2e-3)", f"{f[i]:.5f} at {x[i] * 1e3:.4f} mm",
                         rel(f[i], fmax) < 1e-3 and rel(x[i], x_peak_exp) < 2e-3))
        if proto:
            out.append(check(f"v0 = {v0:g}: entrance |F| (prototype {proto[0]})", f"{proto[0]} (abs 1e-4)", float(f[0]),
                             abs(f[0] - proto[0]) < 1e-4))
    f_entr = float(ds.friction_force.sel(v0=ds.v0.values[len(ds.v0) // 2]).values[0])
    out.append(check("sharp peak near the end of range: peak/entrance ratio (spec S14)", "~5.1 (4.9 .. 5.3)",
                     max(peaks) / f_entr, 4.9 < max(peaks) / f_entr < 5.3, fmt=".3f"))
    # spread-out peak: sum on a common depth grid is lower per curve than the individual peaks
    xg = np.linspace(0, float(ds.slip.max()), 4000)
    tot = sum(np.interp(xg, ds.slip.sel(v0=v).values, ds.friction_force.sel(v0=v).values) for v in ds.v0.values)
    ratio = float(tot.max() / (len(ds.v0) * fmax))
    out.append(check("spread of v(0) smears the peak (SOBP): peak of the sum < n F_max", "< 1", ratio, ratio < 1.0,
                     fmt=".3f"))
    return out


def plot(ds: xr.Dataset):
    fig, ax = plt.subplots(figsize=(6.5, 4))
    for v0 in ds.v0.values:
        sub = ds.sel(v0=v0)
        ax.plot(sub.slip * 1e3, sub.friction_force, "r-", lw=1, label=f"v(0) = {v0:g} m/s")
    ax.set_xlabel("depth x [mm] (normalised units)")
    ax.set_ylabel("stopping power |F|")
    ax.legend(fontsize=8)
    ax.set_title("Bragg-like curve from the Kloss law (Fig. 14)")
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="kloss/fig14",
    description=("Particle stopping under Kloss friction F_max 5.291, v_max0 0.0115 m/s, zeta 0.005, m = 1, "
                 "v(0) = 0.119/0.120/0.121 m/s, Euler 1e-5 s (Fig. 14): Bragg-like peak and its spread."),
    config=CONFIG, run=run, checks=checks, plot=plot, quick={"integrator.dt": 2e-5}, references=REFS,
))
