"""``subloading/fig12``: steady traction ratio vs normal load for specimens I and II.

Ozaki et al. (2020), Fig. 12: P-exp set, b = 7 /MPa (specimen I, Ra 2.11 um) and 11 /MPa
(specimen II, Ra 4.95 um), scaled variant (spec A2), v = 0.1, 1, 10 mm/s, Hertz apparent
area (A14); the load range is not in the text: 0.05-2 N (spec [R]).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Scenario, check, register_scenario
from ._common import MM, REFERENCE, hertz_area, models, protocol_from, run_integrator, swept_model_key

CONFIG = {
    "model": {"name": "subloading", "preset": "fig12-I"},
    # v, duration and normal stress (load / Hertz area) are set per point of [sweep]
    "protocol": {"type": "constant_velocity"},
    # normal loads W [N], speeds [m/s] (0.1, 1, 10 mm/s) and the slide at each point [m]
    "sweep": {"loads": [0.05, 0.1, 0.2, 0.3, 0.5, 0.7, 1.0, 1.5, 2.0], "velocities": [0.1 * MM, 1.0 * MM, 10.0 * MM],
              "slide": 0.05 * MM},
    # pressure sensitivity b [1/Pa] of the two specimens (7 and 11 /MPa)
    "specimens": {"b": [7.0e-6, 11.0e-6], "names": ["I", "II"]},
    # the rubber hemisphere on rigid PMMA (spec A14): radius [m], Young's modulus [Pa], Poisson ratio
    "contact": {"radius": 10.0 * MM, "youngs_modulus": 1.2e6, "poisson_ratio": 0.5},
    "integrator": {"driver": "prescribed", "du_max": 1e-5 * MM},
}
DERIVED = {"protocol.v": "sweep.velocities", "protocol.duration_s": "sweep.slide",
           "protocol.normal_force_value": "sweep.loads", "model.b": "specimens.b"}


def run(cfg: dict, quick: bool) -> xr.Dataset:
    swept_model_key(cfg, 'b', 'specimens.b')
    pc = cfg["sweep"]
    c = cfg["contact"]
    loads = np.array(pc["loads"], dtype=float)
    vels = np.array(pc["velocities"], dtype=float)
    bs = np.array(cfg["specimens"]["b"], dtype=float)
    L = float(pc["slide"])
    ratio = np.zeros((bs.size, vels.size, loads.size))
    closed = np.zeros_like(ratio)
    for i, b in enumerate(bs):
        m, _ = models(cfg, b=b)
        for j, v in enumerate(vels):
            for k, W in enumerate(loads):
                Aa = hertz_area(W, c["radius"], c["youngs_modulus"], c["poisson_ratio"])
                fn = W / Aa
                d = run_integrator(m, protocol_from(cfg, v=v, duration_s=L / v, normal_force_value=fn), cfg)
                ratio[i, j, k] = Aa * float(d.shear_stress.values[-1]) / W
                closed[i, j, k] = Aa * float(m.steady_stress(v, fn)) / W
    m, _ = models(cfg)
    return xr.Dataset(
        {"steady_ratio": (("specimen", "velocity", "normal_load"), ratio, {"units": "1"}),
         "steady_ratio_closed_form": (("specimen", "velocity", "normal_load"), closed, {"units": "1"})},
        coords={"specimen": list(cfg["specimens"]["names"]), "b": ("specimen", bs, {"units": "1/Pa"}),
                "velocity": ("velocity", vels, {"units": "m/s"}), "normal_load": ("normal_load", loads, {"units": "N"})},
        attrs={**m.attrs(), "model": m.name})


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    r, c = ds.steady_ratio.values, ds.steady_ratio_closed_form.values
    worst = float(np.max(np.abs(r - c) / c))
    out.append(check("C5: steady F_x / W = tau(v) (1 - exp(-b W/A_a)) / (W/A_a)", "rel. < 1e-6", worst, worst < 1e-6,
                     fmt=".2e"))
    dec = bool(np.all(np.diff(r, axis=2) < 0))
    out.append(check("the traction ratio decreases with the normal load (both specimens, all speeds)",
                     "monotone decrease in W", "yes" if dec else "no", dec))
    drop = r[:, :, 0] / r[:, :, -1]
    stronger = bool(np.all(drop[-1] > drop[0]))
    out.append(check("the decrease is stronger for the rougher specimen II (larger b)",
                     "ratio(W_min)/ratio(W_max): II > I at every speed",
                     "I: " + " ".join(f"{x:.3f}" for x in drop[0]) + "; II: " + " ".join(f"{x:.3f}" for x in drop[-1]),
                     stronger))
    inc = bool(np.all(np.diff(r, axis=1) > 0))
    out.append(check("the ratio increases with sliding speed (velocity strengthening, S_min = S_max)",
                     "increasing in v at every load", "yes" if inc else "no", inc))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, ax = plt.subplots(figsize=(7, 4))
    for i, sp in enumerate(ds.specimen.values):
        for j, v in enumerate(ds.velocity.values):
            ax.plot(ds.normal_load, ds.steady_ratio[i, j], "o-" if i == 0 else "s--", label=f"{sp}, {v / MM:g} mm/s")
    ax.set_xlabel("normal load W [N]")
    ax.set_ylabel("steady F_x / W")
    ax.legend(fontsize=7)
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="subloading/fig12",
    description=("Ozaki et al. 2020 Fig. 12: steady traction ratio vs normal load at 0.1, 1, 10 mm/s for specimens I "
                 "(b = 7 /MPa) and II (b = 11 /MPa), P-exp set, scaled variant (A2), Hertz apparent area (A14), loads "
                 "0.05-2 N (not in the paper, spec [R])."),
    config=CONFIG, run=run, checks=checks, plot=plot,
    quick={"sweep.loads": [0.05, 0.2, 0.5, 1.0, 2.0]}, derived=DERIVED,
    references=[REFERENCE],
))
