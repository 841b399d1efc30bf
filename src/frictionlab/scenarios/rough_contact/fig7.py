"""``rough-contact/fig7``: viscoplastic ageing (power-law creep, no hardening).

Table 1 viscoplastic material n = 3, Fy0 = 0.016 F*, B = 0, m = 1 with A_cr in {1e-5, 1e-4, 1e-3} um/s
(the paper's Fig. 7 does not print its creep rates; Table 1's 1e-4 and a decade either side are our
reading), 100 MPa hold to t = 1e4, Boussinesq and mean field (Sect. 4.2, Fig. 7). Linearised implicit
creep step with max |du_p| <= 0.02 sigma per step.

The study is one hold per point of ``axes.model.interaction`` x ``axes.model.A_cr`` (the model's
creep rate [m/s]: the paper's 1e-5, 1e-4, 1e-3 um/s); the post step records per hold whether u_p <= 0
everywhere and only where an element touched, and stacks the holds along ``interaction`` and ``A_cr``.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...contact.rough.units import to_si_value
from ..base import Mutation, Scenario, check, register_scenario
from ._common import INTEGRATOR, MODEL, MODEL_NAME, MOVED_HOLD, UM, hold_protocol, monotone, quick_size, runs_driver

#: strain hardening (Table 1: B = 0): the yield force grows with the accumulated creep, which then stops
HARDENING = Mutation("strain hardening B = 1e4 /um (1e10 /m) in eq. 12 (Table 1: B = 0)",
                     {"model.B": to_si_value(1e4, "1/m")})

CONFIG = {
    "model": {**MODEL, "preset": "fig7"},
    "protocol": hold_protocol(1e4),
    "integrator": dict(INTEGRATOR),
    # both interactions, and the creep rates (the model's A_cr [m/s]; the paper's 1e-5, 1e-4, 1e-3 um/s): one hold each
    "axes": {"model": {"interaction": ["boussinesq", "meanfield"], "A_cr": [1e-5 * UM, 1e-4 * UM, 1e-3 * UM]}},
}
MOVED = {**MOVED_HOLD, "protocol.A_cr": "the creep rates are axes.model.A_cr",
         "sweep.A_cr": "the creep rates are axes.model.A_cr"}


def post(result, cfg: dict) -> xr.Dataset:
    """The holds stacked along ``interaction`` and ``A_cr``, each with whether u_p <= 0 everywhere and
    nonzero only where an element touched."""
    inters = result.axis_values("model.interaction")
    acr = [float(a) for a in result.axis_values("model.A_cr")]
    rows = []
    for inter in inters:
        per = []
        for a in acr:
            r = result.pick(interaction=inter, A_cr=a)
            ok_up = bool(np.all(r.plastic_shortening.values <= 0))
            touched = np.isfinite(r.first_contact_time.values)
            ok_loc = bool(np.all(r.plastic_shortening.values[~touched] == 0))
            r = r[["dilatation", "contact_area", "friction_coefficient", "max_plastic_shortening", "iterations",
                   "normal_force"]]
            r["up_nonpositive"] = ((), float(ok_up))
            r["up_only_where_contacted"] = ((), float(ok_loc))
            per.append(r)
        rows.append(xr.concat(per, dim="A_cr").assign_coords(A_cr=acr))
    return xr.concat(rows, dim="interaction").assign_coords(interaction=list(inters))


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    t = ds.time.values
    acr = ds.A_cr.values
    for inter in ds.interaction.values:
        s = ds.sel(interaction=inter)
        for a in acr:
            mu = s.friction_coefficient.sel(A_cr=a).values
            mono = monotone(mu, 1)
            out.append(check(f"{inter}, A_cr={a / UM:g} um/s: mu_s grows with time (Fig. 7)", "monotone",
                             f"{mu[0]:.4f} -> {mu[-1]:.4f}", mono,
                             insensitive="eq. 11 only shortens elements under a compressive force, so at constant load "
                                         "the contact area can only grow, for every creep law parameter"))
        mu = s.friction_coefficient.sel(A_cr=1e-4 * UM if 1e-4 * UM in acr else acr[len(acr) // 2]).values
        d2 = np.interp(1e3, t, mu) - np.interp(1e2, t, mu)
        d3 = np.interp(1e4, t, mu) - np.interp(1e3, t, mu)
        out.append(check(f"{inter}: no saturation -- last decade grows at least half as much as the previous "
                         "(Sect. 4.2: 'no signs of saturation')",
                         "dmu(1e3..1e4) >= 0.5 dmu(1e2..1e3) > 0", f"{d3:.4f} vs {d2:.4f}", d2 > 0 and d3 >= 0.5 * d2,
                         "'no signs of saturation' read as the last decade growing at least half as much as the one "
                         "before", mutations=(HARDENING,)))
        ends = [float(s.friction_coefficient.sel(A_cr=a).values[-1]) for a in sorted(acr)]
        at10 = [float(np.interp(10.0, t, s.friction_coefficient.sel(A_cr=a).values)) for a in sorted(acr)]
        out.append(check(f"{inter}: larger A_cr gives earlier and larger growth (Sect. 4.2)",
                         "mu increasing in A_cr at t=10 and t_end",
                         f"t=10: {', '.join(f'{x:.4f}' for x in at10)}; end: {', '.join(f'{x:.4f}' for x in ends)}",
                         bool(np.all(np.diff(ends) > 0) and np.all(np.diff(at10) >= 0)),
                         insensitive="eq. 11's rate is proportional to A_cr: at constant load a larger A_cr runs the "
                                     "same creep on a faster clock, for every other parameter"))
        ok = bool(np.all(s.up_nonpositive.values == 1) and np.all(s.up_only_where_contacted.values == 1))
        out.append(check(f"{inter}: u_p <= 0 everywhere and nonzero only at elements that touched",
                         "true", str(ok), ok, kind="verification"))
    return out


def plot(ds: xr.Dataset):
    from ...plot import facets

    return facets(ds.isel(time=slice(1, None)), "time", "friction_coefficient", col="interaction", hue="A_cr",
                  label=lambda a: f"A_cr={a / UM:g} um/s", xlabel="time [s]", ylabel="mu_s", logx=True)


register_scenario(Scenario(
    name="rough-contact/fig7",
    description="""Hulikal et al. Fig. 7: viscoplastic ageing (n=3, Fy0=0.016, no hardening), A_cr = 1e-5, 1e-4, 1e-3, 100 MPa
        hold to 1e4, 512^2, Boussinesq and mean field.""",
    config=CONFIG, run=None, derive=runs_driver("hold"), post=post, checks=checks, plot=plot,
    units={"axes.model.A_cr": "m/s"},
    quick={**quick_size(64), "integrator.per_decade": 8},
    references=["Hulikal, Lapusta & Bhattacharya (2015)"], slow=True, moved=MOVED, derived=dict(MODEL_NAME),
))
