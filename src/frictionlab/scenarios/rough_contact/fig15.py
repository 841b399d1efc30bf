"""``rough-contact/fig15``: velocity jumps with elasto/viscoplastic asperities.

Table 1 viscoplastic material (n = 3, Fy0 = 0.016 F*, B = 0, m = 1) with A_cr in {1e-5, 1e-4, 1e-3} um/s
(Fig. 15 does not print its creep rates: Table 1's 1e-4 and a decade either side are our reading),
the Fig. 14 schedule 10 -> 1 -> 10 -> 1, Boussinesq, 100 MPa (Sect. 5.6, Fig. 15). As in
``rough-contact/fig14``, every jump run is compared with a constant v = 10 run over the same
rigid path. Creep is integrated with the linearised implicit step, substepping a slip step so
that max |du_p| <= 0.02 sigma (our step control; the paper's is not printed).

The study: runs ``jump`` (the base protocol) and ``reference`` (constant v over the same path: its
own ``protocol`` table, the jump run's first velocity and total slip; another is refused before
anything runs) at every point of ``axes.model.interaction`` x ``axes.model.A_cr``; the post step
compares each jump run with its reference on the same rigid path.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Mutation, Scenario, check, register_scenario
from ...contact.rough.units import to_si_value
from ...core.errors import ConfigError
from ._common import MODEL_NAME, one_driver
from ._sliding import INTEGRATOR, MODEL, MOVED_SLIDING, PROTOCOL, QUICK_BASE, QUICK_VELOCITY_NOTE, REFS, UM, on_path
from .fig14 import _analyse, same_path, segment

#: no velocity hardening (alpha = 0 in eq. 14): no direct effect, every set weakens
ALPHA_ZERO = Mutation("no velocity hardening: alpha = 0 in eq. 14", {"model.alpha": 0.0})
#: alpha read 10x larger (Table 1: 2e-4): the direct effect dominates, every set strengthens
ALPHA_10X = Mutation("velocity hardening alpha read as 2e-3 (Table 1: 2e-4) F*/um^2",
                     {"model.alpha": to_si_value(2e-3, "Pa")})

CONFIG = {
    "model": {**MODEL, "preset": "fig7"},
    "integrator": dict(INTEGRATOR),
    # the schedule of Fig. 14: 10 -> 1 -> 10 -> 1 um/s, equal slips [m]
    "protocol": {**PROTOCOL, "velocities": [10.0 * UM, 1.0 * UM, 10.0 * UM, 1.0 * UM], "distances": [100.0 * UM] * 4},
    # the jump run, and the reference at the first velocity over the same path (total slip)
    "runs": {"jump": {}, "reference": {"protocol": {"velocities": [10.0 * UM], "distances": [100.0 * UM * 4]}}},
    # interactions and creep rates A_cr of the model [m/s; the paper's 1e-5, 1e-4, 1e-3 um/s]: one jump run and
    # one reference each
    "axes": {"model": {"interaction": ["boussinesq"], "A_cr": [1e-5 * UM, 1e-4 * UM, 1e-3 * UM]}},
}
_ACR = "the creep rates are axes.model.A_cr"
_INTER = "the interactions are axes.model.interaction"
MOVED = {**MOVED_SLIDING, "protocol.A_cr": _ACR, "sweep.A_cr": _ACR, "protocol.interactions": _INTER,
         "sweep.interactions": _INTER}


def derive(point, cfg: dict) -> dict:
    """Nothing to set: refuses another driver, unequal jump steps, and a reference that does not slide the jump
    run's path (its first velocity, the total slip)."""
    one_driver(point, "sliding")
    if point.label == "reference":
        same_path(point, cfg)
    return {}


def post(result, cfg: dict) -> xr.Dataset:
    """Per interaction and A_cr: the jump run against its same-path reference (jumps, steady and transient
    differences)."""
    vels = [float(v) for v in cfg["protocol"]["velocities"]]
    seg = segment(cfg)
    inters = result.axis_values("model.interaction")
    acrs = [float(a) for a in result.axis_values("model.A_cr")]
    rows = []
    for inter in inters:
        per = []
        for acr in acrs:
            jump, ref = result.pick("jump", interaction=inter, A_cr=acr), result.pick("reference", interaction=inter,
                                                                                       A_cr=acr)
            an = _analyse(jump, ref, vels, seg)
            per.append(xr.Dataset({
                "slip": ("step", jump.slip.values), "friction_coefficient": ("step", jump.friction_coefficient.values),
                "friction_coefficient_ref": ("step", on_path(jump, ref, "friction_coefficient")),
                "contact_area": ("step", jump.contact_area.values, {"units": "1"}),
                "mu_before": ("jump", jump.mu_before.values), "mu_after": ("jump", jump.mu_after.values),
                "direct_effect_expected": ("jump", jump.direct_effect_expected.values),
                "steady_diff": ("jump", an["steady_diff"]), "transient": ("jump", an["transient"]),
                "max_plastic_shortening": ((), float(jump.max_plastic_shortening.values[-1]), {"units": "m"}),
                "substeps": ((), float(jump.n_substeps.values.sum())),
            }))
        rows.append(xr.concat(per, dim="A_cr", join="outer").assign_coords(A_cr=acrs))
    ds = xr.concat(rows, dim="interaction", join="outer").assign_coords(interaction=list(inters))
    ds.attrs["seg"] = seg
    return ds


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    vels = [float(v) for v in cfg["protocol"]["velocities"]]
    down = [k - 1 for k in range(1, len(vels)) if vels[k] < vels[0]]
    for inter in ds.interaction.values:
        s = ds.sel(interaction=inter)
        err = float(np.nanmax(np.abs(s.mu_after.values - s.mu_before.values - s.direct_effect_expected.values)))
        de = s.mu_after.values - s.mu_before.values
        sense = bool(np.all(np.sign(de) == np.sign(np.diff(np.log(vels)))[None, :]))
        out.append(check(f"{inter}: mu changes instantaneously at every jump and A_cr, in the sense of the velocity "
                         "jump, by alpha ln(v_new/v_old) A/W (Sect. 5.5, 5.6)", "|error| <= 1e-12, same sense",
                         f"{err:.1e}", err <= 1e-12 and sense, mutations=(ALPHA_ZERO,)))
        tr = np.abs(s.transient.values).mean(axis=1)
        out.append(check(f"{inter}: larger creep rate gives larger transients (Sect. 5.6)",
                         "mean |transient| increasing with A_cr",
                         ", ".join(f"{a / UM:g} um/s: {x:.4f}" for a, x in zip(s.A_cr.values, tr)),
                         bool(np.all(np.diff(tr) > 0)),
                         insensitive="eq. 11's rate is proportional to A_cr, so a larger A_cr lets the contacts creep "
                                     "further within their lifetime at either velocity, for every other parameter"))
        sd = s.steady_diff.values[:, down].mean(axis=1)
        signs = ["weakening" if x > 0 else "strengthening" for x in sd]
        txt = ", ".join(f"{a / UM:g} um/s: {x:+.4f} ({w})" for a, x, w in zip(s.A_cr.values, sd, signs))
        out.append(check(f"{inter}: largest A_cr is velocity weakening (Sect. 5.6, Fig. 15)", "mu_ss(1) - mu_ss(10) > 0",
                         txt, sd[-1] > 0, mutations=(ALPHA_10X,)))
        out.append(check(f"{inter}: smallest A_cr is velocity strengthening (Sect. 5.6, Fig. 15)",
                         "mu_ss(1) - mu_ss(10) < 0", txt, sd[0] < 0, mutations=(ALPHA_ZERO,)))
    return out


def plot(ds: xr.Dataset):
    from ...plot import facets

    return facets(ds.assign(slip=ds.slip / UM), "slip", "friction_coefficient", col="interaction", hue="A_cr",
                  label=lambda a: f"A_cr={a / UM:g} um/s", xlabel="slip [um]", ylabel="mu", width=7)


register_scenario(Scenario(
    name="rough-contact/fig15",
    description=("Hulikal et al. Fig. 15: velocity jumps 10 -> 1 -> 10 -> 1 with viscoplastic asperities, "
                 "A_cr = 1e-5, 1e-4, 1e-3, Boussinesq, 100 MPa, 512^2 on 1024 x 512." + QUICK_VELOCITY_NOTE),
    config=CONFIG, run=None, derive=derive, post=post, checks=checks, plot=plot, units={"axes.model.A_cr": "m/s"},
    quick={**QUICK_BASE, "model.surface_mx": 168, "protocol.distances": [25.0 * UM] * 4,
           "runs.reference.protocol.distances": [25.0 * UM * 4]},
    references=REFS, slow=True, moved=MOVED, derived=dict(MODEL_NAME),
))
