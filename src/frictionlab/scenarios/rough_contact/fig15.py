"""``rough-contact/fig15``: velocity jumps with elasto/viscoplastic asperities.

Table 1 viscoplastic material (n = 3, Fy0 = 0.016, B = 0, m = 1) with A_cr in {1e-5, 1e-4, 1e-3}
(spec R15), the Fig. 14 schedule 10 -> 1 -> 10 -> 1, Boussinesq, 100 MPa (spec S15). As in
``rough-contact/fig14``, every jump run is compared with a constant v = 10 run over the same
rigid path. Creep is integrated with the linearised implicit step, substepping a slip step so
that max |du_p| <= 0.02 sigma (spec §3.4).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Scenario, check, register_scenario
from ._sliding import (MODEL, QUICK_BASE, QUICK_VELOCITY_NOTE, REFS, SLIDING, build_model, on_path, slide, INTEGRATOR)
from .fig14 import _analyse

CONFIG = {
    "model": {**MODEL, "preset": "fig7"},
    "integrator": dict(INTEGRATOR),
    "protocol": {**SLIDING, "velocities": [10.0, 1.0, 10.0, 1.0], "seg": 100.0, "A_cr": [1e-5, 1e-4, 1e-3],
                 "interactions": ["boussinesq"]},
}


def run(cfg: dict, quick: bool) -> xr.Dataset:
    pr = cfg["protocol"]
    vels = [float(v) for v in pr["velocities"]]
    seg = float(pr["seg"])
    rows = []
    for inter in pr["interactions"]:
        per = []
        for acr in pr["A_cr"]:
            m = build_model(cfg, interaction=inter, A_cr=float(acr))
            jump = slide(cfg, m, vels, [seg] * len(vels))
            ref = slide(cfg, m, [vels[0]], [seg * len(vels)])
            an = _analyse(jump, ref, vels, seg)
            per.append(xr.Dataset({
                "slip": ("step", jump.slip.values), "friction_coefficient": ("step", jump.friction_coefficient.values),
                "friction_coefficient_ref": ("step", on_path(jump, ref, "friction_coefficient")),
                "area_fraction": ("step", jump.area_fraction.values),
                "mu_before": ("jump", jump.mu_before.values), "mu_after": ("jump", jump.mu_after.values),
                "direct_effect_expected": ("jump", jump.direct_effect_expected.values),
                "steady_diff": ("jump", an["steady_diff"]), "transient": ("jump", an["transient"]),
                "max_plastic_shortening": ((), float(jump.max_plastic_shortening.values[-1])),
                "substeps": ((), float(jump.n_substeps.values.sum())),
            }))
        rows.append(xr.concat(per, dim="A_cr", join="outer").assign_coords(A_cr=[float(a) for a in pr["A_cr"]]))
    ds = xr.concat(rows, dim="interaction", join="outer").assign_coords(interaction=list(pr["interactions"]))
    ds.attrs["seg"] = seg
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    vels = [float(v) for v in cfg["protocol"]["velocities"]]
    down = [k - 1 for k in range(1, len(vels)) if vels[k] < vels[0]]
    for inter in ds.interaction.values:
        s = ds.sel(interaction=inter)
        err = float(np.nanmax(np.abs(s.mu_after.values - s.mu_before.values - s.direct_effect_expected.values)))
        out.append(check(f"{inter}: direct effect alpha ln(v_new/v_old) A/W at every jump and A_cr", "|error| <= 1e-12",
                         f"{err:.1e}", err <= 1e-12))
        tr = np.abs(s.transient.values).mean(axis=1)
        out.append(check(f"{inter}: larger creep rate gives larger transients", "mean |transient| increasing with A_cr",
                         ", ".join(f"{a:g}: {x:.4f}" for a, x in zip(s.A_cr.values, tr)), bool(np.all(np.diff(tr) > 0))))
        sd = s.steady_diff.values[:, down].mean(axis=1)
        signs = ["weakening" if x > 0 else "strengthening" for x in sd]
        txt = ", ".join(f"{a:g}: {x:+.4f} ({w})" for a, x, w in zip(s.A_cr.values, sd, signs))
        out.append(check(f"{inter}: largest A_cr is velocity weakening", "mu_ss(1) - mu_ss(10) > 0", txt, sd[-1] > 0))
        out.append(check(f"{inter}: smallest A_cr is velocity strengthening", "mu_ss(1) - mu_ss(10) < 0", txt, sd[0] < 0))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, ax = plt.subplots(1, ds.sizes["interaction"], figsize=(7 * ds.sizes["interaction"], 4), squeeze=False)
    for j, inter in enumerate(ds.interaction.values):
        for a in ds.A_cr.values:
            s = ds.sel(interaction=inter, A_cr=a)
            ax[0, j].plot(s.slip, s.friction_coefficient, label=f"A_cr={a:g}")
        ax[0, j].set(xlabel="slip [um]", ylabel="mu", title=str(inter))
        ax[0, j].legend()
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="rough-contact/fig15",
    description=("Hulikal et al. Fig. 15: velocity jumps 10 -> 1 -> 10 -> 1 with viscoplastic asperities, "
                 "A_cr = 1e-5, 1e-4, 1e-3, Boussinesq, 100 MPa, 512^2 on 1024 x 512." + QUICK_VELOCITY_NOTE),
    config=CONFIG, run=run, checks=checks, plot=plot,
    quick={**QUICK_BASE, "model.surface_mx": 168, "protocol.seg": 25.0},
    references=REFS, slow=True,
))
