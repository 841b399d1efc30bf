"""``rough-contact/fig17``: forward then reverse sliding with viscoplastic asperities.

Table 1 viscoplastic material with A_cr = 1e-3 um/s (Fig. 17 does not print its creep rate), Boussinesq,
100 MPa: slide v = +10
for ``slip`` (paper 150), then v = -10 for the same distance (a core ``VelocitySteps``
protocol with a negative velocity) (Sect. 5.6, Fig. 17). Control: the same protocol with the Table 1
viscoelastic material.

Method
------
On the way back the patch passes the same rigid positions again, so the reverse record is
compared with the forward record *at the same slip position* (second half of the path, away
from the turning point and the initial loading): the difference is the history effect.

The study: runs ``viscoplastic`` (the material of Fig. 17, ``model.material`` and its ``A_cr``) and
``viscoelastic`` (the control: the base, Table 1's material) over the same protocol; the post step
keeps each run's record and its reverse - forward offsets along ``material``.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...contact.rough.units import to_si_value
from ...core.errors import ConfigError
from ..base import Mutation, Scenario, check, register_scenario
from ._common import MODEL_NAME, one_driver
from ._sliding import INTEGRATOR, MODEL, MOVED_SLIDING, PROTOCOL, QUICK_BASE, REFS, UM

#: the yield force read 100x larger (Table 1: 0.016 = 4 GPa): no permanent deformation, no history
FY_100X = Mutation("initial yield force read as 1.6 F* (Table 1: 0.016 F*, i.e. 4 GPa)",
                   {"runs.viscoplastic.model.Fy0": to_si_value(1.6, "N")})

CONFIG = {
    # the control's material (Table 1 viscoelastic); the viscoplastic run names its own
    "model": dict(MODEL),
    "integrator": dict(INTEGRATOR),
    # forward at +10 um/s, then back at -10 um/s over the same slip [m]
    "protocol": {**PROTOCOL, "velocities": [10.0 * UM, -10.0 * UM], "distances": [150.0 * UM, 150.0 * UM]},
    "runs": {"viscoplastic": {"model": {"material": "viscoplastic", "A_cr": 1e-3 * UM}},  # m/s: 1e-3 um/s
             "viscoelastic": {}},  # the control: the Table 1 viscoelastic material
}
_CONTROL = "the viscoelastic control is runs.viscoelastic (the base material), always run"
MOVED = {**MOVED_SLIDING, "protocol.control": _CONTROL, "analysis.control": _CONTROL}


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


def derive(point, cfg: dict) -> dict:
    """Nothing to set: refuses another driver and a protocol that does not go forward and back over the same slip."""
    one_driver(point, "sliding")
    pr = point["protocol"]
    vels, dist = [float(x) for x in pr["velocities"]], [float(x) for x in pr["distances"]]
    if len(vels) != 2 or vels[0] <= 0 or vels[1] != -vels[0] or len(dist) != 2 or dist[1] != dist[0]:
        raise ConfigError(f"protocol velocities {vels!r}, distances {dist!r}: this scenario slides forward and back "
                          "over the same slip ([v, -v], [L, L], v > 0)")
    return {}


def post(result, cfg: dict) -> xr.Dataset:
    """Each run's record along ``material`` with its reverse - forward offsets of dilatation and mu."""
    L = float(cfg["protocol"]["distances"][0])
    rows = []
    for label in result.labels:
        r = result.pick(label)
        dd, dmu = _offsets(r, L)
        rows.append(xr.Dataset({k: ("step", r[k].values, r[k].attrs) for k in
                                ("slip", "slip_velocity", "dilatation", "friction_coefficient", "normal_force")}
                               | {"reverse_dilatation_offset": ((), dd, {"units": "m"}),
                                  "reverse_mu_offset": ((), dmu, {"units": "1"})}))
    ds = xr.concat(rows, dim="material", join="outer").assign_coords(material=list(result.labels))
    ds.attrs["slip"] = L  # m
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    vp = ds.sel(material="viscoplastic")
    dd, dmu = float(vp.reverse_dilatation_offset), float(vp.reverse_mu_offset)
    # the viscoelastic control's offsets are what the same protocol gives without permanent deformation: the
    # viscoplastic offsets are resolved only beyond them
    ctl_d = ctl_mu = 0.0
    if "viscoelastic" in ds.material.values:
        ve = ds.sel(material="viscoelastic")
        ctl_d, ctl_mu = abs(float(ve.reverse_dilatation_offset)), abs(float(ve.reverse_mu_offset))
    out = [check("Viscoplastic: on reversal the dilatation decreases (same positions, reverse - forward; Sect. 5.6, "
                 "Fig. 17)", "< 0, beyond the viscoelastic control's |offset|",
                 f"{dd / UM:+.4f} um (control {ctl_d / UM:.4f})",
                 dd < -ctl_d, mutations=(FY_100X,)),
           check("Viscoplastic: on reversal mu increases (same positions, reverse - forward; Sect. 5.6, Fig. 17)",
                 "> 0, beyond the viscoelastic control's |offset|", f"{dmu:+.4f} (control {ctl_mu:.4f})",
                 dmu > ctl_mu, mutations=(FY_100X,))]
    if "viscoelastic" in ds.material.values:
        ddv, dmv = float(ve.reverse_dilatation_offset), float(ve.reverse_mu_offset)
        out.append(check("Viscoelastic control: no systematic reversal offset comparable to the viscoplastic one",
                         "|d offset| and |mu offset| below the viscoplastic ones",
                         f"d {ddv / UM:+.4f} um, mu {dmv:+.4f}", abs(ddv) < abs(dd) and abs(dmv) < abs(dmu),
                         kind="verification"))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, ax = plt.subplots(2, 1, figsize=(8, 7), sharex=True)
    for mat in ds.material.values:
        s = ds.sel(material=mat)
        path = np.concatenate([[0.0], np.cumsum(np.abs(np.diff(s.slip.values)))]) / UM
        ax[0].plot(path, s.dilatation / UM, label=str(mat))
        ax[1].plot(path, s.friction_coefficient)
    ax[0].set_ylabel("dilatation [um]")
    ax[1].set(xlabel="slip distance travelled (forward, then reverse) [um]", ylabel="mu")
    return fig


register_scenario(Scenario(
    name="rough-contact/fig17",
    description="""Hulikal et al. Fig. 17: forward (v = +10, 150) then reverse (v = -10, 150) sliding with viscoplastic
        asperities (A_cr = 1e-3), Boussinesq, 100 MPa, 512^2 on 1024 x 512; viscoelastic control.""",
    config=CONFIG, run=None, derive=derive, post=post, checks=checks, plot=plot,
    quick={**QUICK_BASE, "model.surface_mx": 112, "protocol.distances": [40.0 * UM, 40.0 * UM]},
    references=REFS, slow=True, moved=MOVED, derived=dict(MODEL_NAME),
))
