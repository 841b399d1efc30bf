"""``beam-network/fig14``: stick-slip existence map over sliding velocity x normal load (MLBNM).

The beam-network paper (doi:10.1115/1.4042247), Fig. 14: stick-slip appears at low velocity and high load, smooth
sliding at high velocity and low load; the dashed critical line separates them. Each map
point is an MLBNM run from rest (preset ``vf60-calibrated``); the whole map is one compiled
loop parallelised over points (``numba.prange``). Stick-slip = >= 3 force peaks with
prominence > 2 % of the mean force in the last 40 % of the run (spec S9).
"""

from __future__ import annotations

import matplotlib.pyplot as plt
import numpy as np
import xarray as xr

from ...analysis.beam_patterns import steady_metrics
from ...contact.beam_network.mlbnm import run_mlbnm_batch
from ..base import Scenario, check, register_scenario
from ._common import CALIBRATION_NOTE, MODEL, NUMERICS, REFERENCES, check_integrator, params_from

CONFIG = {
    "model": dict(MODEL),
    "map": {"v_min": 1e-4, "v_max": 6e-3, "n_v": 15, "loads": [20.0, 35.0, 50.0, 65.0, 80.0, 88.0, 100.0, 115.0,
                                                               130.0, 145.0]},
    "drive": {"duration": 14.0},
    "integrator": dict(NUMERICS, n_picard=0),
    "claims": {"vc_88": 3.5e-3},
}


def run(cfg: dict, quick: bool) -> xr.Dataset:
    p = params_from(cfg)
    mp = cfg["map"]
    v = np.geomspace(float(mp["v_min"]), float(mp["v_max"]), int(mp["n_v"]))
    L = np.asarray(mp["loads"], float)
    V, LL = np.meshgrid(v, L, indexing="ij")
    ps = [p.replace(normal_load=float(x)) for x in LL.ravel()]
    n = check_integrator(cfg)
    r = run_mlbnm_batch(ps, V.ravel(), float(cfg["drive"]["duration"]), dt=float(n["dt"]),
                        save_dt=float(n["save_dt"]), scheme=n["scheme"], n_picard=int(n["n_picard"]))
    mets = [steady_metrics(r["time"], F) for F in r["friction_force"]]
    ss = np.array([m.stick_slip for m in mets], float).reshape(V.shape)
    amp = np.array([m.amplitude for m in mets]).reshape(V.shape)
    per = np.array([m.period for m in mets]).reshape(V.shape)
    ds = xr.Dataset(coords={"velocity": ("velocity", v, {"units": "m/s"}),
                            "normal_load": ("normal_load", L, {"units": "N"})})
    ds["stick_slip"] = (("velocity", "normal_load"), ss, {"units": "1"})
    ds["amplitude"] = (("velocity", "normal_load"), amp, {"units": "N"})
    ds["period"] = (("velocity", "normal_load"), per, {"units": "s"})
    vc = np.array([v[np.nonzero(ss[:, j] > 0.5)[0].max()] if (ss[:, j] > 0.5).any() else np.nan
                   for j in range(L.size)])
    ds["critical_velocity"] = ("normal_load", vc, {"units": "m/s"})
    ds.attrs["n_points"] = int(V.size)
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    v = ds.velocity.values
    L = ds.normal_load.values
    ss = ds.stick_slip.values > 0.5
    out = []
    lo_v_hi_L = ss[np.ix_(v <= 1e-3, L >= 80)]
    hi_v_lo_L = ss[np.ix_(v >= 3.5e-3, L <= 50)]
    f1 = float(lo_v_hi_L.mean()) if lo_v_hi_L.size else float("nan")
    f2 = float(hi_v_lo_L.mean()) if hi_v_lo_L.size else float("nan")
    out.append(check("stick-slip at low velocity and high load, smooth sliding at high velocity and low load (Fig. 14)",
                     "stick-slip fraction (v <= 1e-3, F_z >= 80) > fraction (v >= 3.5e-3, F_z <= 50)",
                     f"{f1:.2f} vs {f2:.2f}", f1 > f2, ambiguity=CALIBRATION_NOTE))
    low = ss[v <= 2e-4, :]
    out.append(check("stick-slip persists at the lowest velocities for high loads (Fig. 14: region below the line)",
                     "some stick-slip at v <= 2e-4 m/s", f"{int(low.sum())}/{low.size} points", bool(low.any())))
    vc = ds.critical_velocity.values
    fin = np.isfinite(vc)
    rises = bool(fin.sum() >= 2 and np.all(np.diff(vc[fin]) >= 0) and vc[fin][-1] > vc[fin][0])
    out.append(check("the critical velocity rises with the normal load (Fig. 14 critical line)",
                     "v_c non-decreasing in F_z and higher at the largest load than at the smallest",
                     "v_c = " + ", ".join(f"{x:.3g}" for x in vc) + " m/s", rises))
    j = int(np.argmin(np.abs(L - 88.0)))
    vc88 = vc[j]
    claim = float(cfg["claims"]["vc_88"])
    out.append(check(f"critical velocity at 88 N ~ {claim:g} m/s (VF60)", "within a factor 2",
                     f"{vc88:.3g} m/s (last stick-slip grid velocity)",
                     np.isfinite(vc88) and claim / 2 <= vc88 <= 2 * claim))
    out.append(check("map size", ">= 150 points", int(ss.size), ss.size >= 150))
    return out


def plot(ds: xr.Dataset):
    fig, ax = plt.subplots(figsize=(6.5, 4.5))
    V, L = np.meshgrid(ds.velocity.values, ds.normal_load.values, indexing="ij")
    ss = ds.stick_slip.values > 0.5
    ax.scatter(V[ss], L[ss], marker="o", c="tab:red", label="stick-slip")
    ax.scatter(V[~ss], L[~ss], marker="x", c="tab:blue", label="smooth sliding")
    ax.plot(ds.critical_velocity, ds.normal_load, "k--", label="critical velocity")
    ax.set_xscale("log")
    ax.set_xlabel("sliding velocity [m/s]")
    ax.set_ylabel("F_z [N]")
    ax.legend()
    ax.set_title("Fig. 14: stick-slip map (MLBNM, vf60-calibrated)")
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="beam-network/fig14",
    description=("Fig. 14: MLBNM stick-slip existence map, 15 velocities (1e-4 .. 6e-3 m/s) x 10 loads "
                 "(20 .. 145 N) = 150 points in one parallel compiled loop (preset vf60-calibrated)."),
    config=CONFIG, run=run, checks=checks, plot=plot,
    quick={"drive.duration": 10.0},
    references=REFERENCES,
))
