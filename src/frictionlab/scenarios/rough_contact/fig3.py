"""``rough-contact/fig3``: Hertz validation of the element model with and without interaction.

A rigid flat indents an elastic sphere (R = 1) discretised with spacing dx (Sect. 3: "a
homogeneous linear-elastic sphere of radius 1"; the spacings, the indentation range and the domain
[-0.5, 0.5]^2 are not printed and are our choice). Boussinesq interaction (eq. 8): no free
parameter. No interaction (eq. 5): C0 = (3 pi^2/4) sqrt(R delta_max)/dx^2, "chosen to make the
force at the final indentation match the analytical solution" (Sect. 3). Displacement control,
warm-started projected CG.

Notes
-----
The strict checks use the paraboloid profile z0 = -r^2/(2R) (Hertz's own approximation); the
paper's spherical profile is run as well and its deviation reported (up to ~0.75 % in delta at
a/R = 0.33 is the paraboloid approximation, not an error).

The self term. Sect. 2.3.2 obtains the factor 3.8 of eq. 7 "using a solution by Love" for a force
spread uniformly over a Delta x Delta square. Love's solution gives 4 ln(1 + sqrt 2) = 3.5255 at
the centre of the square (2.9732 averaged over it): the printed 3.8 is neither. The model runs the
printed 3.8; the check on it is a deviation, with the integral evaluated by quadrature in the run
as evidence. With a/dx >= 32 the Hertz comparison cannot tell the two (both within 0.2 %).

Units: the configuration (``analysis.R``, the indentations) and the results are SI; the elements and
the Hertz closed forms (:mod:`frictionlab.reference.hertz`, written in the paper's units: lengths in
L* = 1 um, forces in F*) compute in the paper's units, converted by
:mod:`frictionlab.contact.rough.units`. ``analysis.inv_dx`` is the number of elements per um.

Study: none. The paper's experiment is a sequence of static, displacement-controlled solves of an
elastic half-space under a rigid indenter (Sect. 3), not a time run of the rough-contact model
(no surface, no load programme, no material), so the scenario has no ``[model]``/``[protocol]``
and its post step solves the curves from ``[analysis]`` (element spacings, profiles, indentations,
the self term of eq. 7 and the solver tolerance).
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...contact.rough.elasticity import SQUARE_SELF_COEF, BoussinesqFFT, StepOperator
from ...contact.rough.solver import pk_solve_disp
from ...contact.rough.units import to_paper, to_si_value
from ...reference import hertz
from ..base import Mutation, Scenario, check, deviation, register_scenario

#: the self term of eq. 7 doubled (a point force regularised over a square of side Delta/2): the
#: wrong near field moves the Hertz force, radius and central pressure by 1.5-2.5 %
SELF_2X = Mutation("self term of eq. 7 doubled (7.6 instead of the printed 3.8)", {"analysis.self_coef": 7.6})
#: the self term read as Love's exact centre value: the paper's 3.8 then is Love's solution
SELF_LOVE = Mutation("self term read as Love's exact centre value 4 ln(1 + sqrt 2) = 3.5255",
                     {"analysis.self_coef": SQUARE_SELF_COEF})

#: metres per micrometre (L*)
UM = 1e-6

CONFIG = {
    # the self term of eq. 7; element spacings (elements per um) and indenter profiles, one curve each; the
    # sphere's radius R [m] (the paper's 1) and n_delta indentations [m] from delta_min to delta_max; the
    # projected-CG tolerance of each solve
    "analysis": {"self_coef": 3.8, "inv_dx": [32, 64, 128, 256], "profiles": ["paraboloid", "sphere"],
                 "R": 1.0 * UM, "delta_min": 1e-3 * UM, "delta_max": 0.1 * UM, "n_delta": 25, "tol": 1e-10},
}
MOVED = {**{f"protocol.{k}": f"it is analysis.{k}" for k in ("inv_dx", "profiles")},
         **{f"protocol.{k}": f"it is analysis.{k}" + ("" if k == "n_delta" else " [m]")
            for k in ("R", "delta_min", "delta_max", "n_delta")},
         "sweep": "the spacings and profiles are analysis.inv_dx and analysis.profiles",
         "model.self_coef": "the self term of eq. 7 is analysis.self_coef (no model runs: direct solves)",
         "integrator.tol": "the solves' tolerance is analysis.tol (no time run: direct solves)",
         # no time run: the scenario has none of a run's sections
         **{sec: "the scenario runs no model in time: direct solves of Sect. 3 set by [analysis]"
            for sec in ("model", "protocol", "system", "integrator")}}


def solve_curve(inv_dx: int, profile: str, deltas: np.ndarray, R: float, self_coef: float, tol: float):
    dx = 1.0 / inv_dx
    n = inv_dx + 1
    x = (np.arange(n) - n // 2) * dx
    r2 = x[:, None] ** 2 + x[None, :] ** 2
    z0 = -r2 / (2 * R) if profile == "paraboloid" else np.sqrt(np.maximum(R**2 - r2, 0.0)) - R
    C0 = hertz.meanfield_C0(deltas[-1], dx, R)
    out = {k: np.empty(len(deltas)) for k in ("F_b", "a_b", "pc_b", "F_mf", "a_mf")}
    p = None
    for i, dl in enumerate(deltas):
        # contact lies inside r^2 <= 2 R delta (gap >= -z0 - delta since K p >= 0): solving on the
        # sub-square that covers it is exact (the finite-patch operator restricted to a sub-box)
        half = min(n // 2, int(np.ceil(np.sqrt(2 * R * dl) / dx)) + 2)
        sl = slice(n // 2 - half, n // 2 + half + 1)
        sub = StepOperator(BoussinesqFFT(2 * half + 1, 2 * half + 1, dx, self_coef))
        p_sub = None if p is None else p[sl, sl]
        res = pk_solve_disp(sub, z0[sl, sl], -dl, p_sub, tol=tol)
        p = np.zeros((n, n))
        p[sl, sl] = res.p
        out["F_b"][i] = p.sum()
        out["a_b"][i] = np.sqrt((p > 0).sum() * dx * dx / np.pi)
        out["pc_b"][i] = p[n // 2, n // 2] / dx**2
        pm = np.maximum(z0 + dl, 0.0) / C0  # exact mean-field solve (diagonal, d prescribed)
        out["F_mf"][i] = pm.sum()
        out["a_mf"][i] = np.sqrt((pm > 0).sum() * dx * dx / np.pi)
    return out, C0


def post(result, cfg: dict) -> xr.Dataset:
    """The Hertz curves of every profile and spacing (direct solves, the study has no runs) and the closed forms."""
    an = cfg["analysis"]
    # the elements and the closed forms compute in the paper's units (um, F*)
    R = to_paper(float(an["R"]), "m")
    deltas = np.geomspace(to_paper(float(an["delta_min"]), "m"), to_paper(float(an["delta_max"]), "m"), int(an["n_delta"]))
    inv = [int(v) for v in an["inv_dx"]]
    profs = list(an["profiles"])
    data = {k: np.full((len(profs), len(inv), len(deltas)), np.nan) for k in ("F_b", "a_b", "pc_b", "F_mf", "a_mf")}
    C0s = np.empty(len(inv))
    for a, prof in enumerate(profs):
        for b, k in enumerate(inv):
            o, C0s[b] = solve_curve(k, prof, deltas, R, an["self_coef"], float(an["tol"]))
            for key in o:
                data[key][a, b] = o[key]
    names = {"F_b": ("force_boussinesq", "N"), "a_b": ("radius_boussinesq", "m"),
             "pc_b": ("central_pressure_boussinesq", "Pa"), "F_mf": ("force_meanfield", "N"),
             "a_mf": ("radius_meanfield", "m")}
    dims = ("profile", "inv_dx", "delta")
    ds = xr.Dataset(coords={"profile": profs, "inv_dx": ("inv_dx", inv, {"units": "1/um"}),
                            "delta": ("delta", to_si_value(deltas, "m"), {"units": "m"})})
    for k, (nm, u) in names.items():
        ds[nm] = (dims, to_si_value(data[k], u), {"units": u})
    ds["C0_meanfield"] = ("inv_dx", to_si_value(C0s, "m/N"), {"units": "m/N",
                                                             "description": "the model's C0 fitted at delta_max"})
    # the closed forms in SI: Hertz's force, radius, central pressure and the indentation at the computed force
    ds["force_hertz"] = ("delta", to_si_value(hertz.hertz_force(deltas, R), "N"), {"units": "N"})
    ds["radius_hertz"] = ("delta", to_si_value(hertz.hertz_radius(deltas, R), "m"), {"units": "m"})
    ds["central_pressure_hertz"] = ("delta", to_si_value(hertz.hertz_p0(deltas, R), "Pa"), {"units": "Pa"})
    ds["indentation_hertz"] = (dims, to_si_value(hertz.hertz_indentation(data["F_b"], R), "m"), {"units": "m"})
    ds["radius_meanfield_closed"] = ("delta", to_si_value(hertz.meanfield_radius(deltas, R), "m"), {"units": "m"})
    ds["force_meanfield_closed"] = (("inv_dx", "delta"), to_si_value(np.array(
        [hertz.meanfield_force(deltas, c, 1.0 / k, R) for c, k in zip(C0s, inv)]), "N"), {"units": "N"})
    ds.attrs.update({"R": float(an["R"]), "self_coef": float(an["self_coef"]),
                     "love_centre_quadrature": _love_centre_quadrature()})
    return ds


def _love_centre_quadrature() -> float:
    """Displacement at the centre of a unit square under unit uniform pressure, in units of
    (1 - nu)/(2 pi G) (Love): the integral of 1/r over the square, in polar coordinates
    8 int_0^(pi/4) dtheta/(2 cos theta), by adaptive quadrature (independent of the closed form)."""
    from scipy.integrate import quad

    return float(quad(lambda th: 4.0 / np.cos(th), 0.0, np.pi / 4, epsabs=1e-13, epsrel=1e-13)[0])


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    k = int(ds.inv_dx.values.max())
    dx = UM / k  # m
    d = ds.delta.values
    aH = ds.radius_hertz.values
    sel = aH / dx >= 32
    prof = "paraboloid" if "paraboloid" in ds.profile.values else str(ds.profile.values[0])
    match = "Sect. 3: 'an excellent match' with Boussinesq interaction, no fitted parameter"
    if sel.any():
        Fb = ds.force_boussinesq.sel(profile=prof, inv_dx=k).values[sel]
        ab = ds.radius_boussinesq.sel(profile=prof, inv_dx=k).values[sel]
        eF = np.max(np.abs(Fb / ds.force_hertz.values[sel] - 1))
        ea = np.max(np.abs(ab / aH[sel] - 1))
        ed = np.max(np.abs(ds.indentation_hertz.sel(profile=prof, inv_dx=k).values[sel] / d[sel] - 1))
        amb = "'excellent match' read as within 1 % where the contact spans >= 32 elements (the paper gives no number)"
        out.append(check(f"Boussinesq ({prof}, dx=1/{k}): force within 1 % of Hertz where a/dx >= 32 (Fig. 3, {match})",
                         "< 1 %", f"{100 * eF:.3f} %", eF < 0.01, amb, mutations=(SELF_2X,)))
        out.append(check(f"Boussinesq ({prof}, dx=1/{k}): contact radius within 1 % of Hertz where a/dx >= 32 (Fig. 3)",
                         "< 1 %", f"{100 * ea:.3f} %", ea < 0.01, amb, mutations=(SELF_2X,)))
        out.append(check("Boussinesq: indentation at given force within 1 % of Hertz (Fig. 3)", "< 1 %",
                         f"{100 * ed:.3f} %", ed < 0.01, amb, mutations=(SELF_2X,)))
        pc = ds.central_pressure_boussinesq.sel(profile=prof, inv_dx=k).values[sel]
        ep = np.max(np.abs(pc / ds.central_pressure_hertz.values[sel] - 1))
        out.append(check("Boussinesq: central pressure within 1 % of Hertz's p0 (Johnson 1985)", "< 1 %",
                         f"{100 * ep:.3f} %", ep < 0.01, kind="verification",
                         ambiguity="not a curve of Fig. 3: a closed-form check of our elasticity"))
        if "sphere" in ds.profile.values:
            es = np.max(np.abs(ds.indentation_hertz.sel(profile="sphere", inv_dx=k).values[sel] / d[sel] - 1))
            out.append(check("Spherical profile (the paper's sphere): indentation within 1.5 % of Hertz (Fig. 3; "
                             "Hertz's own paraboloid approximation accounts for up to 0.75 %)",
                             "< 1.5 %", f"{100 * es:.3f} %", es < 0.015, mutations=(SELF_2X,)))
    else:
        out.append(check("Hertz check needs a/dx >= 32", "some delta with a/dx >= 32", "none", False, kind="verification"))
    # convergence with resolution at the largest indentation (all dx)
    errs = [abs(float(ds.force_boussinesq.sel(profile=prof, inv_dx=kk).values[-1]) / float(ds.force_hertz.values[-1]) - 1)
            for kk in ds.inv_dx.values]
    out.append(check("Boussinesq: force error at delta_max decreases as dx is refined",
                     "monotone decrease over dx = " + ", ".join(f"1/{kk}" for kk in ds.inv_dx.values),
                     ", ".join(f"{100 * e:.3f} %" for e in errs), bool(np.all(np.diff(errs) < 0)), kind="verification"))
    # mean field: matches only at the fitted point, F ~ delta^2, a = sqrt(2 R delta)
    Fm = ds.force_meanfield.sel(profile=prof, inv_dx=k).values
    e_fit = abs(Fm[-1] / ds.force_hertz.values[-1] - 1)
    out.append(check("No interaction: force matches Hertz at delta_max, where C0 is fitted (Sect. 3)",
                     "< 3 % (discrete sum vs continuum)", f"{100 * e_fit:.3f} %", e_fit < 0.03, kind="verification",
                     ambiguity="holds by construction of C0 up to the discretisation: a check of the fit"))
    slope = np.polyfit(np.log(d[d > 0.01 * UM]), np.log(Fm[d > 0.01 * UM]), 1)[0]
    out.append(check("No interaction: the force deviates from Hertz's scaling, F ~ delta^2 instead of delta^1.5 "
                     "(Sect. 3: 'the scaling of the force and area deviates from the Hertzian solution')",
                     "slope 2 +- 0.05 (Hertz: 1.5)", slope, abs(slope - 2) < 0.05,
                     insensitive="without interaction each element carries max(delta - r^2/2R, 0)/C0, so F is a sum "
                                 "over a paraboloid cap and grows as delta^2 for every C0, R and dx: no parameter of "
                                 "the model can move it"))
    am = ds.radius_meanfield.sel(profile=prof, inv_dx=k).values
    a_cf = ds.radius_meanfield_closed.values  # sqrt(2 R delta)
    big = a_cf / dx >= 20
    e_mf = np.max(np.abs(am[big] / a_cf[big] - 1)) if big.any() else np.nan
    e_mfF = np.max(np.abs(Fm[big] / ds.force_meanfield_closed.sel(inv_dx=k).values[big] - 1)) if big.any() else np.nan
    out.append(check("No interaction: a = sqrt(2 R delta) and F = pi R delta^2/(C0 dx^2) within 2 % (a/dx >= 20)",
                     "< 2 %", f"a {100 * e_mf:.2f} %, F {100 * e_mfF:.2f} %", max(e_mf, e_mfF) < 0.02,
                     kind="verification"))
    return out + _self_term_checks(ds)


def _self_term_checks(ds: xr.Dataset) -> list:
    """The factor 3.8 of eq. 7 against Love's uniformly loaded square (Sect. 2.3.2)."""
    quad_value = float(ds.attrs["love_centre_quadrature"])
    ev = check("Love's centre displacement of a uniformly loaded square, by quadrature = 4 ln(1 + sqrt 2)",
               f"{SQUARE_SELF_COEF:.6f} (rel. 1e-10)", f"{quad_value:.10f}",
               abs(quad_value / SQUARE_SELF_COEF - 1) < 1e-10, kind="verification")
    used = float(ds.attrs["self_coef"])
    rel = used / quad_value - 1
    claim = ("the self term of eq. 7 (factor 3.8 as printed) is Love's solution for a force spread uniformly over a "
             "Delta x Delta square (Sect. 2.3.2)")
    exp = f"the self term the model runs = Love's centre value {quad_value:.4f} (rel. 1e-3)"
    meas = f"{used:.4g} ({100 * rel:+.1f} %)"
    if abs(rel) <= 1e-3:
        return [ev, check(claim, exp, meas, True, mutations=(SELF_2X,))]
    return [ev, deviation(claim, exp, meas, [ev], f"the paper takes 3.8 from Love's solution; that solution gives "
                          f"{quad_value:.4f} at the centre of the square (2.9732 averaged over it), so the printed factor "
                          f"is {100 * (3.8 / quad_value - 1):+.1f} % off; the model runs {used:.4g}",
                          mutations=(SELF_LOVE,))]


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, axes = plt.subplots(1, 2, figsize=(10, 4))
    prof = str(ds.profile.values[0])
    d = ds.delta / UM
    for k in ds.inv_dx.values:
        axes[0].loglog(d, ds.force_boussinesq.sel(profile=prof, inv_dx=k), label=f"B dx=1/{k} um")
        axes[0].loglog(d, ds.force_meanfield.sel(profile=prof, inv_dx=k), "--", label=f"MF dx=1/{k} um")
        axes[1].loglog(d, ds.radius_boussinesq.sel(profile=prof, inv_dx=k) / UM)
        axes[1].loglog(d, ds.radius_meanfield.sel(profile=prof, inv_dx=k) / UM, "--")
    axes[0].loglog(d, ds.force_hertz, "k", lw=2, label="Hertz")
    axes[1].loglog(d, ds.radius_hertz / UM, "k", lw=2)
    axes[0].set(xlabel="indentation [um]", ylabel="force [N]")
    axes[1].set(xlabel="indentation [um]", ylabel="contact radius [um]")
    return fig


register_scenario(Scenario(
    name="rough-contact/fig3",
    description="""Hulikal et al. Fig. 3: sphere (R=1) on a rigid flat, Boussinesq elements (no fitted parameter, self term
        3.8/dx) vs no interaction (C0 fitted at delta_max, Sect. 3); dx = 1/32..1/256, 25 indentations 1e-3..0.1,
        displacement control.""",
    config=CONFIG, run=None, post=post, checks=checks, plot=plot,
    units={"analysis.R": "m", "analysis.delta_min": "m", "analysis.delta_max": "m", "analysis.inv_dx": "1/um"},
    quick={"analysis.inv_dx": [32, 128], "analysis.n_delta": 10, "analysis.delta_min": 0.01 * UM,
           "analysis.profiles": ["paraboloid"]}, moved=MOVED,
    references=["Hulikal, Lapusta & Bhattacharya (2015)", "Johnson, Contact Mechanics (1985)"],
))
