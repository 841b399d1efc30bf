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
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...contact.microjunction.ensemble import JunctionEnsemble, static_friction_after_holds
from ...core.errors import ConfigError
from ...plot import curves
from ...protocols import make_protocol
from ..base import Scenario, check, register_scenario
from ._common import REFERENCES, model_of

CONFIG = {
    "model": {"name": "microjunction", "preset": "demo-steel", "c1": 1.42e-6},
    "protocol": {"type": "slide_hold_slide", "v": 1e-6, "slide_duration": 10.0,
                 "holds": [1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0, 3000.0, 10000.0]},
    "loading": {"force_star": 20.0, "force_star_per_junction": 2.0},
    "ensemble": {"n_junctions": 1000, "sigma_z": 20e-9},
    "integrator": {"rtol": 1e-9, "atol": 1e-12, "ensemble_rtol": 1e-5},
}


def _fit(t: np.ndarray, mu: np.ndarray) -> tuple[float, float, float]:
    x = np.log(t)
    beta, mu0 = np.polyfit(x, mu, 1)
    res = mu - (mu0 + beta * x)
    r2 = 1.0 - float(np.sum(res ** 2) / np.sum((mu - mu.mean()) ** 2))
    return float(beta), float(mu0), r2


def run(cfg: dict, quick: bool) -> xr.Dataset:
    model = model_of(cfg)
    holds = np.asarray(make_protocol(cfg["protocol"]).holds, dtype=float)
    ld = cfg["loading"]
    ens = JunctionEnsemble(**cfg["ensemble"])
    integ = cfg["integrator"]
    unknown = sorted(set(integ) - {"rtol", "atol", "ensemble_rtol"})
    if unknown:
        raise ConfigError("microjunction/hold_time_friction steps adaptively and takes the integrator keys rtol, "
                          f"atol, ensemble_rtol; got {', '.join(unknown)} (integrator.dt is not used)")
    _, mu1, a1 = static_friction_after_holds(model, holds, float(ld["force_star"]), rtol=integ["rtol"],
                                             atol=integ["atol"])
    _, mun, an = static_friction_after_holds(model, holds, float(ld["force_star_per_junction"]) * ens.n_junctions,
                                             ensemble=ens, rtol=integ["ensemble_rtol"])
    ds = xr.Dataset(
        {"static_friction_single": ("hold", mu1, {"units": "1"}), "area_star_single": ("hold", a1, {"units": "1"}),
         "static_friction_ensemble": ("hold", mun, {"units": "1"}),
         "area_star_ensemble": ("hold", an, {"units": "1"})},
        coords={"hold": ("hold", holds, {"units": "s"})},
        attrs={**model.attrs(), **ens.attrs()})
    for name, mu in (("single", mu1), ("ensemble", mun)):
        beta, mu0, r2 = _fit(holds, mu)
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
    description=(
        "Slide-hold-slide ageing from creep-driven contact growth: holds 1 s .. 1e4 s (SlideHoldSlide protocol); "
        "each slide renews the junctions, which are loaded plastically and then creep at constant load; "
        "static friction = tau A(t_h) / F (Bowden-Tabor, tau = sigma_Y / sqrt 3). Demo steel with "
        "C1 = 1.42e-6 1/s (1e-4 x the demonstration value: an assumption), single junction at F* = 20 and a "
        "1000-junction Gaussian GW ensemble (sigma_z = 20 nm, F* = 2 per junction). Log slope and R² of a "
        "log-linear fit reported. Notes: the renewal assumption and tau are not from the source."),
    config=CONFIG, run=run, checks=checks, plot=plot,
    quick={"ensemble.n_junctions": 200, "protocol.holds": [1.0, 3.0, 10.0, 30.0, 100.0, 300.0, 1000.0]},
    references=REFERENCES + ["Greenwood & Williamson 1966", "Dieterich 1972, J. Geophys. Res. 77, 3690"],
))
