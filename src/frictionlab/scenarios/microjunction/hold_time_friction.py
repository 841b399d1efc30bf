"""``microjunction/hold-time-friction``: static friction vs hold time from creep-driven junction growth.

Notes
-----
The source (the microjunction creep model, its appendix pseudo-code) makes no claim about
hold-time friction; this scenario compares its creep-driven junction growth with the
log-linear ageing of rate-and-state friction (Dieterich 1972). While the holds are short
against the creep time constant t_1 = E C_1 / H_G, the area grows about linearly in time, so
the static-friction gain per decade of hold grows with t_h (apparent exponent about 1) and a
log-linear fit has a poor R² (about 0.64 over 1-1000 s): the model ages faster than
logarithmically. The check states that property; it is not a deviation of the source.

Every check here is an ``extension``: the renewal of the junctions by sliding, the Bowden-Tabor
shear strength, the GW ensemble and the reduced C1 are ours, so none of them is a claim of the
paper or counts among the paper's reproduced claims.

Since sliding renews the junctions, a hold of length t_h is the first t_h of one hold at constant
load from freshly, plastically loaded contacts: the run is one ``constant_velocity`` protocol at
zero slip velocity and the load in N (:func:`._common.newtons` of F* = 20; the ensemble F* = 2
per junction), read at the hold times (``analysis.holds``; ``derive`` makes them the output times)
by ``simulate``'s ``junction`` and ``ensemble`` drivers (the study's two runs), which start on the
JG curve under the initial load. The static friction
is the SI friction force over the applied load; the checks read it and the hold times [s].
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...plot import curves
from ..base import Scenario, check, register_scenario
from ._common import FC_DEMO, MODEL_NAME, REFERENCES, model_of, newtons

HOLDS = [1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0, 10000.0]
CONFIG = {
    "model": {"name": "microjunction", "preset": "demo-steel", "c1": 1.42e-6},
    # one junction held at F* = 20 [N], no slip; the run lasts to the longest hold (derive)
    "protocol": {"type": "constant_velocity", "v": 0.0, "normal_force_value": newtons(20.0)},
    "integrator": {"driver": "junction", "rtol": 1e-9, "atol": 1e-12},
    # the single junction, and the GW ensemble at F* = 2 per junction (its total load [N]: scale it with n_junctions)
    "runs": {"single": {},
             "ensemble": {"integrator": {"driver": "ensemble", "n_junctions": 1000, "sigma_z": 20e-9, "rtol": 1e-5},
                          "protocol": {"normal_force_value": newtons(2.0 * 1000)}}},
    # the hold times [s]: the output times of the hold (derive: integrator.save_times)
    "analysis": {"holds": HOLDS},
}
_N = f"in N (F* x F_c; F_c = {FC_DEMO:.6g} N for the demo steel)"
MOVED = {"protocol.holds": "analysis.holds (the hold times are the output times of one hold)",
         "protocol.slide_duration": "nothing: the slides are not run (each hold starts from renewed junctions)",
         "loading.force_star": f"protocol.normal_force_value {_N}",
         "loading.force_star_per_junction": f"runs.ensemble.protocol.normal_force_value, the total load {_N}",
         "integrator.ensemble_rtol": "runs.ensemble.integrator.rtol",
         "ensemble": "runs.ensemble.integrator (n_junctions, sigma_z: options of the ensemble driver)"}
DERIVED = {**MODEL_NAME, "protocol.duration_s": "analysis.holds (the run lasts to the longest hold)",
           "integrator.save_times": "analysis.holds"}


def derive(point: dict, cfg: dict) -> dict:
    """Every run is read at the hold times and lasts to the longest."""
    holds = [float(h) for h in cfg["analysis"]["holds"]]
    return {"protocol.duration_s": max(holds), "integrator.save_times": holds}


def _fit(t: np.ndarray, mu: np.ndarray) -> tuple[float, float, float]:
    x = np.log(t)
    beta, mu0 = np.polyfit(x, mu, 1)
    res = mu - (mu0 + beta * x)
    r2 = 1.0 - float(np.sum(res ** 2) / np.sum((mu - mu.mean()) ** 2))
    return float(beta), float(mu0), r2


def post(result, cfg: dict) -> xr.Dataset:
    """Static friction tau A(t_h) / F of both runs at the hold times, and their log-linear fits."""
    model = model_of(cfg)
    holds = np.asarray(cfg["analysis"]["holds"], dtype=float)
    data = {}
    for name in ("single", "ensemble"):
        r = result.pick(name)
        load = float(result.point(name).config["protocol"]["normal_force_value"])
        data[f"static_friction_{name}"] = ("hold", r.friction_force.values / load, {"units": "1"})
        data[f"contact_area_{name}"] = ("hold", r.contact_area.values, {"units": "m^2"})
    ens = result.point("ensemble").config["integrator"]
    # the ensemble's load is its total: F* per junction follows n_junctions only through it
    per_junction = float(result.pick("ensemble").force_star[-1]) / int(ens["n_junctions"])
    ds = xr.Dataset(data, coords={"hold": ("hold", holds, {"units": "s"})},
                    attrs={**model.attrs(), "model": model.name, "n_junctions": int(ens["n_junctions"]),
                           "sigma_z": float(ens["sigma_z"]), "force_star_per_junction": per_junction})
    for name in ("single", "ensemble"):
        beta, mu0, r2 = _fit(holds, ds[f"static_friction_{name}"].values)
        ds.attrs.update({f"log_slope_{name}": beta, f"mu0_{name}": mu0, f"log_fit_r2_{name}": r2})
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    for name in ("single", "ensemble"):
        mu = ds[f"static_friction_{name}"].values
        out.append(check(f"{name}: static friction grows with hold time (ageing)", "strictly increasing",
                         f"{mu[0]:.4f} -> {mu[-1]:.4f}", bool(np.all(np.diff(mu) > 0)), kind="extension"))
        beta, r2 = ds.attrs[f"log_slope_{name}"], ds.attrs[f"log_fit_r2_{name}"]
        out.append(check(f"{name}: log slope dμs/d ln(t_h) reported (positive)", "> 0",
                         f"{beta:.4g} (per decade {beta * np.log(10):.4g})", beta > 0, kind="extension"))
        # comparison with rate-and-state ageing (not a claim of the source): RSF's Dieterich ageing is
        # log-linear; creep-driven growth is linear in time while t_h is short against the creep time
        # constant, so the per-decade gain must grow with t_h (faster than logarithmic)
        h = ds.hold.values
        per_dec = np.diff(mu) / np.diff(np.log10(h))
        expo = np.diff(np.log10(per_dec)) / np.diff(np.log10(h))[1:]
        out.append(check(f"{name}: ageing is faster than the log-linear ageing of rate-and-state (Dieterich 1972): "
                         "the gain per decade of hold time grows with t_h",
                         "per-decade gain strictly increasing (R² of μs = μ0 + β ln t_h reported)",
                         f"per decade {per_dec[0]:.3g} -> {per_dec[-1]:.3g}; apparent exponent of the gain "
                         f"{np.median(expo):.2f} (1 = linear in t_h); log-linear R² {r2:.4f}",
                         bool(np.all(np.diff(per_dec) > 0)),
                         ambiguity="not a claim of the source; a comparison with RSF ageing (see Notes)",
                         kind="extension"))
    return out


def plot(ds: xr.Dataset):
    return curves(ds.hold.values, {"single junction": ds.static_friction_single.values,
                                   "GW ensemble": ds.static_friction_ensemble.values},
                  xlabel="hold time [s]", ylabel="static friction coefficient [1]", logx=True,
                  title="Microjunction ageing: static friction vs hold time", styles={"single junction": "o-",
                                                                                      "GW ensemble": "s--"})


register_scenario(Scenario(
    name="microjunction/hold-time-friction",
    description="""Slide-hold-slide ageing from creep-driven contact growth: holds 1 s .. 1e4 s (one hold at constant load read
        at the hold times, simulate's junction and ensemble drivers, loads in N); each slide renews the junctions,
        which are loaded plastically and then creep at constant load; static friction = tau A(t_h) / F
        (Bowden-Tabor, tau = sigma_Y / sqrt 3). Demo steel with C1 = 1.42e-6 1/s (1e-4 x the demonstration value: an
        assumption), single junction at F* = 20 and a 1000-junction Gaussian GW ensemble (sigma_z = 20 nm, F* = 2
        per junction). Log slope and R² of a log-linear fit reported. Notes: the renewal assumption and tau are not
        from the source.""",
    config=CONFIG, post=post, derive=derive, checks=checks, plot=plot,
    quick={"runs.ensemble.integrator.n_junctions": 200, "runs.ensemble.protocol.normal_force_value": newtons(2.0 * 200),
           "analysis.holds": HOLDS[:7]},
    references=REFERENCES + ["Greenwood & Williamson 1966", "Dieterich 1972, J. Geophys. Res. 77, 3690"],
    moved=MOVED, derived=DERIVED,
    units={"analysis.holds": "s"},
))
