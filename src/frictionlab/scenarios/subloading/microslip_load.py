"""``subloading/microslip-load``: microscopic sliding up to gross sliding against the normal stress.

Ozaki et al. (2020), Sec. 4.1 (after Fig. 5): "the preliminary microscopic sliding up to the gross
sliding depends on the normal load. That is, the length of microscopic sliding increases with
normal load [34]. The proposed friction model can also consider this effect." The paper shows no
figure of it. Here: the Fig. 4 set (P-common, eqs. 7, 8, 18 as printed), a slide from rest at
1 um/s (ours) under constant normal stresses 0.1, 0.2, 0.3 MPa (ours; Fig. 4 uses 0.3 MPa), and
the microscopic sliding read as the slip at which the normal-sliding ratio R (eq. 14) first reaches
0.99 (gross sliding is R = 1, eq. 17).

In the model the plastic part of that slip, from eq. 16 with U = r cot(pi R / 2), does not depend
on f_n; the elastic part R S_r tau / alpha_t (eq. 13) grows with the contact-area ratio
S_r(f_n) = 1 - exp(-b f_n) (eq. 18). The paper check is killed by a rigid tangential contact
(alpha_t 100 x the printed 100 MPa/mm), under which the elastic part drops below the slip step;
that the measured increase equals the elastic part is verification.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ..base import Mutation, Scenario, check, register_scenario
from ._common import MM, MODEL_NAME, MPA, REFERENCE, models, slide_duration

CONFIG = {
    "model": {"name": "subloading", "preset": "fig4"},
    # v [m/s] (1 um/s, ours); duration_s from analysis.slide
    "protocol": {"type": "constant_velocity", "v": 1e-6},
    # the compiled return mapping, slip increment du_max [m] per step (1e-5 mm): the resolution of the microslip
    "integrator": {"driver": "prescribed", "du_max": 1e-5 * MM},
    # constant normal stresses [Pa] (ours)
    "axes": {"protocol": {"normal_force_value": [0.1 * MPA, 0.2 * MPA, 0.3 * MPA]}},
    # the slide from rest at each stress [m]; the ratio R read as the end of the microscopic sliding (gross
    # sliding is R = 1)
    "analysis": {"slide": 0.02 * MM, "gross_ratio": 0.99},
}
DERIVED = {"protocol.duration_s": "analysis.slide (the slide from rest at protocol.v)", **MODEL_NAME}
MOVED = {"sweep": "the normal stresses are axes.protocol.normal_force_value [Pa], the slide analysis.slide [m]"}
_RIGID = Mutation("tangential contact modulus alpha_t read as 1e4 MPa/mm (100 x the printed 100 MPa/mm): "
                  "no elastic sliding to speak of", {"model.alpha_t": 1e13})


def post(result, cfg: dict) -> xr.Dataset:
    """The slip at which R first reaches analysis.gross_ratio, with S_r and tau there, per stress."""
    m, _ = models(cfg)
    rg = float(cfg["analysis"]["gross_ratio"])
    fns = [float(x) for x in result.axis_values("protocol.normal_force_value")]
    micro, sr, tau, reached = [], [], [], []
    for d in result.of_run():
        R = d.sliding_ratio.values
        hit = R >= rg
        i = int(np.argmax(hit))
        reached.append(bool(hit.any()))
        micro.append(float(d.slip.values[i]) if hit.any() else np.nan)
        sr.append(float(d.contact_ratio.values[i]))
        tau.append(float(d.shear_strength.values[i]))
    return xr.Dataset(
        {"microslip": ("normal_stress", np.array(micro), {"units": "m", "long_name": f"slip to R = {rg:g}"}),
         "contact_ratio": ("normal_stress", np.array(sr), {"units": "1", "long_name": "S_r at that slip"}),
         "shear_strength": ("normal_stress", np.array(tau), {"units": "Pa"}),
         "reached": ("normal_stress", np.array(reached))},
        coords={"normal_stress": ("normal_stress", np.array(fns), {"units": "Pa"})},
        attrs={**m.attrs(), "model": m.name, "alpha_t": m.alpha_t, "du_max": float(cfg["integrator"]["du_max"]),
               "gross_ratio": rg})


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    u = ds.microslip.values
    du = float(ds.attrs["du_max"])
    rg = float(ds.attrs["gross_ratio"])
    ok = bool(ds.reached.values.all())
    out.append(check(f"every slide reaches gross sliding (R >= {rg:g}) within the slide", "all",
                     f"{int(ds.reached.values.sum())}/{ds.normal_stress.size}", ok, kind="verification"))
    # "increases": by more than the slip resolution (one step du_max) from each normal stress to the next
    inc = bool(ok and np.all(np.diff(u) > du))
    out.append(check("the length of microscopic sliding up to gross sliding increases with the normal load (Sec. 4.1, "
                     "after Fig. 5)", f"increasing by > one slip step ({du * 1e6:g} um) per stress",
                     " < ".join(f"{x * 1e6:.3f}" for x in u) + " um at "
                     + ", ".join(f"{fn / MPA:g}" for fn in ds.normal_stress.values) + " MPa", inc,
                     ambiguity=f"microscopic sliding read as the slip to R = {rg:g}; constant normal stresses and "
                               "1 um/s are ours (the paper shows no figure of this)",
                     mutations=(_RIGID,)))
    # the increase is the elastic part R S_r tau / alpha_t (eq. 13) of the model that ran
    el = rg * ds.contact_ratio.values * ds.shear_strength.values / float(ds.attrs["alpha_t"])
    worst = float(np.max(np.abs(np.diff(u) - np.diff(el)))) if ok else float("nan")
    out.append(check("the increase equals that of the elastic slip R S_r tau / alpha_t (eq. 13; the plastic slip of "
                     "eq. 16 does not depend on f_n)", f"within 2 slip steps ({2 * du * 1e6:g} um)", worst * 1e6,
                     ok and worst <= 2 * du, fmt=".3g", kind="verification"))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, ax = plt.subplots(figsize=(5, 3.5))
    ax.plot(ds.normal_stress / MPA, ds.microslip * 1e6, "o-")
    ax.set_xlabel("normal stress f_n [MPa]")
    ax.set_ylabel(f"slip to R = {ds.attrs['gross_ratio']:g} [um]")
    return fig


register_scenario(Scenario(
    name="subloading/microslip-load",
    description="""Ozaki et al. 2020 Sec. 4.1: the microscopic sliding before gross sliding (slip to R = 0.99) under constant
        normal stresses 0.1, 0.2, 0.3 MPa (ours), Fig. 4 set, slide from rest at 1 um/s (ours).""",
    config=CONFIG, post=post, derive=slide_duration, checks=checks, plot=plot, derived=DERIVED, moved=MOVED,
    references=[REFERENCE],
))
