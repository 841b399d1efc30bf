"""``rough-contact/fig17``: forward then reverse sliding with viscoplastic asperities.

Table 1 viscoplastic material with A_cr = 1e-3 (spec R15), Boussinesq, 100 MPa: slide v = +10
for ``slip`` (paper 150), then v = -10 for the same distance (a core ``VelocitySteps``
protocol with a negative velocity) (spec S17). Control: the same protocol with the Table 1
viscoelastic material.

Method
------
On the way back the patch passes the same rigid positions again, so the reverse record is
compared with the forward record *at the same slip position* (second half of the path, away
from the turning point and the initial loading): the difference is the history effect.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...contact.rough.model import VISCOPLASTIC_ONLY
from ...contact.rough.sliding import L_STAR
from ..base import Scenario, check, register_scenario
from ._sliding import INTEGRATOR, MODEL, QUICK_BASE, REFS, SLIDING, build_model, slide, to_paper_units

CONFIG = {
    "model": {**MODEL, "preset": "fig7", "A_cr": 1e-3},
    "integrator": dict(INTEGRATOR),
    "protocol": {**SLIDING, "v": 10.0, "slip": 150.0, "control": True},
}


def _offsets(r: xr.Dataset, L: float) -> tuple[float, float]:
    s, v = r.slip.values, r.slip_velocity.values
    fwd = (v > 0) & (s > 0)
    rev = v < 0
    # compare over the middle of the path: away from the load-up (s < 0.25 L) and the turn (s > 0.75 L)
    grid = np.linspace(0.25 * L, 0.75 * L, 201)
    order_f = np.argsort(s[fwd])
    order_r = np.argsort(s[rev])
    out = []
    for var in ("dilatation", "friction_coefficient"):
        f = np.interp(grid, s[fwd][order_f], r[var].values[fwd][order_f])
        b = np.interp(grid, s[rev][order_r], r[var].values[rev][order_r])
        out.append(float(np.mean(b - f)))
    return out[0], out[1]


def run(cfg: dict, quick: bool) -> xr.Dataset:
    pr = cfg["protocol"]
    v, L = float(pr["v"]), float(pr["slip"])
    mats = ["viscoplastic"] + (["viscoelastic"] if pr.get("control", True) else [])
    rows = []
    for mat in mats:
        # the control is the Table 1 viscoelastic material: the creep and yield fields of [model]
        # do not apply to it (a viscoelastic model refuses them set away from their defaults)
        m = build_model(cfg, interaction="boussinesq", material=mat) if mat == "viscoplastic" else \
            build_model({**cfg, "model": {k: v for k, v in cfg["model"].items() if k not in VISCOPLASTIC_ONLY}},
                        interaction="boussinesq", material=mat)
        r = slide(cfg, m, [v, -v], [L, L], si=True)
        dd, dmu = _offsets(to_paper_units(r), L)  # um: the paper's slip window
        rows.append(xr.Dataset({k: ("step", r[k].values, r[k].attrs) for k in
                                ("slip", "slip_velocity", "dilatation", "friction_coefficient", "normal_force")}
                               | {"reverse_dilatation_offset": ((), dd * L_STAR, {"units": "m"}),
                                  "reverse_mu_offset": ((), dmu, {"units": "1"})}))
    ds = xr.concat(rows, dim="material", join="outer").assign_coords(material=mats)
    ds.attrs["slip_um"] = L
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    ds = to_paper_units(ds)  # the result is SI; the paper's dilatations are in um
    vp = ds.sel(material="viscoplastic")
    dd, dmu = float(vp.reverse_dilatation_offset), float(vp.reverse_mu_offset)
    out = [check("Viscoplastic: on reversal the dilatation decreases (same positions, reverse - forward)", "< 0",
                 f"{dd:+.4f} um", dd < 0),
           check("Viscoplastic: on reversal mu increases (same positions, reverse - forward)", "> 0", f"{dmu:+.4f}",
                 dmu > 0)]
    if "viscoelastic" in ds.material.values:
        ve = ds.sel(material="viscoelastic")
        ddv, dmv = float(ve.reverse_dilatation_offset), float(ve.reverse_mu_offset)
        out.append(check("Viscoelastic control: no systematic reversal offset comparable to the viscoplastic one",
                         "|d offset| and |mu offset| below the viscoplastic ones",
                         f"d {ddv:+.4f} um, mu {dmv:+.4f}", abs(ddv) < abs(dd) and abs(dmv) < abs(dmu)))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    ds = to_paper_units(ds)
    fig, ax = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    for mat in ds.material.values:
        s = ds.sel(material=mat)
        path = np.concatenate([[0.0], np.cumsum(np.abs(np.diff(s.slip.values)))])
        ax[0].plot(path, s.dilatation, label=str(mat))
        ax[1].plot(path, s.friction_coefficient)
    ax[0].set_ylabel("dilatation [um]")
    ax[0].legend()
    ax[1].set(xlabel="slip distance travelled (forward, then reverse) [um]", ylabel="mu")
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="rough-contact/fig17",
    description=("Hulikal et al. Fig. 17: forward (v = +10, 150) then reverse (v = -10, 150) sliding with viscoplastic "
                 "asperities (A_cr = 1e-3), Boussinesq, 100 MPa, 512^2 on 1024 x 512; viscoelastic control."),
    config=CONFIG, run=run, checks=checks, plot=plot,
    quick={**QUICK_BASE, "model.surface_mx": 112, "protocol.slip": 40.0},
    references=REFS, slow=True,
))
