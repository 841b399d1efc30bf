"""``rough-contact/fig8``: friction coefficient against nominal pressure and system size.

mu_s at t = 0+ and t = 100 (Table 1 viscoelastic material) for nominal pressures 25..400 MPa,
several sizes and surface realisations, Boussinesq and mean field (Sect. 4.3, Fig. 8: three system
sizes, read as 128^2, 256^2, 512^2, and 15 realisations, as the caption says).

Method
------
No time stepping is needed. At t = 0+ the elements respond with the instantaneous compliance
(c = 1); at t = 100 >> 1/lambda the hold has relaxed to round-off (exp(-100)), and the fixed point
of the exponential step is q_k = (A_k/lambda_k) p, i.e. the contact problem with the aged
compliance c = 1 + sum A_k/lambda_k (1.2 for Table 1). Each (size, seed, pressure) is therefore two
direct solves (Polonsky-Keer for Boussinesq, the exact sorted solve for the mean field), the
second warm started from the first: the ``"relaxed"`` driver of the model
(:mod:`frictionlab.contact.rough.relaxed`), run on a hold of ``protocol.duration_s`` = 100 s. The
run checks this against a time-stepped hold (64^2, ``"hold"`` driver).

The study: the base is that hold; ``axes`` are Fig. 8's system sizes (``model.patch_nx``, a square
patch on a surface of its own size: ``derive`` sets ``patch_ny`` and ``surface_mx``), the surface
realisations (``model.surface_seed``) and the nominal pressures (the input axis
``analysis.pressure`` [Pa], from which ``derive`` sets the hold's ``normal_force_value`` on the
point's patch). Runs: ``figure`` (both interactions, its own axis ``model.interaction``, the last:
a point is one surface at one pressure and interaction, and consecutive points share their surface,
which the driver keeps, so the surface of a (size, seed) is built once per process as before),
``meanfield_large`` and ``meanfield_iid`` (the mean field against its closed form, below),
``direct`` and ``stepped`` (the 64^2 cross-check). Every point is an independent run:
``study_map = parallel_map`` sends them to the worker processes of the execution (default 1;
``frictionlab run|reproduce --workers N``, :func:`..executor.runs_on`; each process one FFT thread
unless ``integrator.fft_workers`` says otherwise) or the cluster of ``--scheduler``, and keeps each
finished point for a resume; the worker count enters no result and no resume key. The post step
arranges the runs' mu_s by interaction, size, pressure and seed and adds the closed forms.

The mean field is also compared with its exact large-system closed form
(:mod:`frictionlab.reference.meanfield_rough`: mu_s = tau_s Phibar(eta)/p, pressure elasticity
phi psi / Phibar^2 - 1), on many realisations of a large patch (cheap: one sort per solve), at a
stated resolution: runs ``meanfield_large`` (the
paper's surfaces, 512^2, 16 seeds) and ``meanfield_iid`` (i.i.d. Gaussian heights,
``model.surface_acf = "iid"``, 512^2, 12 realisations), at the study's pressures.

Notes
-----
The paper (Sect. 4.3) says that "both with and without elastic interactions, the friction
coefficient is nearly independent of the applied normal pressure". "Nearly independent" is
read here as a relative slope of at most 5 % per doubling of the pressure (a quarter of the
single-asperity Hertz law W^(-1/3), -21 % per doubling, against which the paper contrasts
Amontons' law). With interaction (Boussinesq) the slope at 512^2 is about -3 % per doubling;
without interaction the closed form gives -7.6 % per doubling at 100 MPa (relaxed), which no
system size or seed count changes: for the mean field the claim is a deviation of the paper's own
equations, with the closed form (checked against the computation in the same run) as evidence.
The caption's stronger reading (every size and pressure within one standard deviation of the
mean) is its own check, which names the (size, pressure) points that lie outside. With interaction
it passes on the quick profile's 256^2 (6 seeds). On the full profile (128^2, 256^2, 512^2, 15
seeds) it fails (2.3 and 2.7 standard deviations in the run of 2026-11-27): the Boussinesq mean falls
about 3 % per doubling while the seed scatter shrinks with the size, so the points outside are at
the large sizes and the highest pressure (256^2 and 512^2 at 400 MPa by the review of that run),
not at 128^2, whose scatter is largest. The fail stays a fail; the page names those points.
"""

from __future__ import annotations

import math

import numpy as np
import xarray as xr

from ...contact.rough.units import to_paper
from ...core.errors import ConfigError
from ...reference.meanfield_rough import meanfield_mu_static, meanfield_pressure_elasticity
from ..base import Mutation, Scenario, as_kind, check, deviation, register_scenario
from ..executor import parallel_map
from ._common import (MODEL, MODEL_NAME, MOVED_PARALLEL, PRESSURE, UM, build_model, force_on_patch, one_driver,
                      point_model, value_at)

#: the nominal pressures of Fig. 8 [Pa]
PRESSURES = [25e6, 50e6, 100e6, 200e6, 400e6]
#: the runs whose mu_s the figure and the mean-field checks read, at the study's pressures
MEASURED = ("figure", "meanfield_large", "meanfield_iid")

CONFIG = {
    # the rough surface of the static scenarios; its size and seed are axes of every run
    "model": {k: v for k, v in MODEL.items() if k not in ("patch_nx", "patch_ny", "surface_mx", "surface_seed")},
    # a hold of 100 s (the age of the relaxed state); its normal force is derived from analysis.pressure
    "protocol": {"type": "constant_velocity", "v": 0.0, "duration_s": 100.0},
    "integrator": {"driver": "relaxed"},
    "runs": {
        # Fig. 8: both interactions on every (size, seed, pressure)
        "figure": {"axes": {"model": {"interaction": ["boussinesq", "meanfield"]}}},
        # the mean field against its closed form: the paper's surfaces and i.i.d. heights (the closed form's
        # assumption; no correlation length, so this run keeps the default one whatever the base says)
        "meanfield_large": {"model": {"interaction": "meanfield"},
                            "axes": {"model": {"patch_nx": [512], "surface_seed": list(range(16))}}},
        "meanfield_iid": {"model": {"interaction": "meanfield", "surface_acf": "iid", "surface_beta": 10.0 * UM},
                          "axes": {"model": {"patch_nx": [512], "surface_seed": list(range(12))}}},
        # the direct relaxed solve against a time-stepped hold (64^2, Boussinesq, 100 MPa)
        **{label: {"model": {"interaction": "boussinesq"}, **integ,
                   "axes": {"model": {"patch_nx": [64], "surface_seed": [0]}, "analysis": {"pressure": [PRESSURE]}}}
           for label, integ in (("direct", {}), ("stepped", {"integrator": {"driver": "hold", "per_decade": 4}}))},
    },
    # patch sizes (elements per side), surface realisations, nominal pressures [Pa]
    "axes": {"model": {"patch_nx": [128, 256, 512], "surface_seed": list(range(15))},
             "analysis": {"pressure": list(PRESSURES)}},
    # max_rel_slope: the reading of 'nearly independent'
    "analysis": {"max_rel_slope": 0.05},
}
_MF = "runs.meanfield_large.axes.model.{0} (paper's surfaces) and runs.meanfield_iid.axes.model.{0} (i.i.d. heights)"
#: the former keys (of [sweep], [analysis], [integrator] and the [protocol] before them) and where they went
MOVED = {**MOVED_PARALLEL,
         "protocol.workers": "the worker processes (a count >= 1) are an execution option, as for every scenario of "
                             "independent runs: frictionlab run|reproduce --workers N",
         **dict.fromkeys(("protocol.pressures_MPa", "sweep.pressures"), "the nominal pressures are "
                                                                        "axes.analysis.pressure [Pa]"),
         **dict.fromkeys(("protocol.sizes", "sweep.sizes"), "the system sizes are axes.model.patch_nx (square patches)"),
         **dict.fromkeys(("protocol.seeds", "sweep.seeds"), "the surface realisations are the list "
                                                            "axes.model.surface_seed"),
         **dict.fromkeys(("protocol.t_eval", "analysis.t_eval"), "the age of the relaxed state is the hold's "
                                                                 "protocol.duration_s [s]"),
         **dict.fromkeys(("protocol.meanfield_size", "analysis.meanfield_size"), "the mean-field patches are "
                         + _MF.format("patch_nx")),
         **dict.fromkeys(("protocol.meanfield_seeds", "analysis.meanfield_seeds"), "the mean field's surfaces are "
                         "runs.meanfield_large.axes.model.surface_seed"),
         **dict.fromkeys(("protocol.iid_seeds", "analysis.iid_seeds"), "the i.i.d. height fields are "
                         "runs.meanfield_iid.axes.model.surface_seed"),
         "protocol.max_rel_slope": "it is analysis.max_rel_slope",
         "integrator.per_decade": "the time-stepped cross-check's steps are runs.stepped.integrator.per_decade"}
#: keys the study sets per point (derive): square patches on a surface of their size, the load of the pressure
DERIVED = {**MODEL_NAME,
           **dict.fromkeys(("model.patch_ny", "model.surface_mx"), "model.patch_nx (Fig. 8's systems are square "
                                                                   "patches on a surface of their own size)"),
           "protocol.normal_force_value": "axes.analysis.pressure [Pa] (the force of that pressure on the patch)"}
INTERACTIONS = ("boussinesq", "meanfield")
#: the correlation length read as 50 um instead of Table 1's 10: a few asperities per patch, nearer the
#: single-asperity Hertz law (-21 % per doubling): mu_s then falls with the pressure
BETA_50 = Mutation("correlation length read as 50 um (Table 1: 10 um)", {"model.surface_beta": 50.0 * UM})
#: why no mutation can make the mean field pressure independent (the deviation stands for any reading)
MF_INSENSITIVE = ("the mean field's mu_s = tau_s Phibar(eta)/p (closed form, checked in this run) falls 7-8 % per "
                  "doubling at any size and seed count; it reaches the 5 % bound only with C0 some 10^4 x below "
                  "Table 1's 16, no reading of the paper")


def derive(point, cfg: dict) -> dict:
    """A square patch on a surface of its size, and the normal force of the point's nominal pressure on it;
    refuses another driver (``stepped`` runs the ``"hold"`` driver, every other run ``"relaxed"``)."""
    one_driver(point, "hold" if point.label == "stepped" else "relaxed")
    n = int(point["model"]["patch_nx"])
    dx = build_model(point.config, patch_ny=n, surface_mx=n).dx
    return {"model.patch_ny": n, "model.surface_mx": n,
            "protocol.normal_force_value": force_on_patch(float(point.coord("analysis.pressure")), n, dx)}


def _grid(result, label: str, dims: tuple[str, ...], age: int) -> np.ndarray:
    """mu_s of run ``label``'s points at record ``age`` (0: t = 0+, 1: relaxed) on the grid of its axes ``dims``."""
    axes = [result.axis_values(d, label) for d in dims]
    out = np.full([len(a) for a in axes], np.nan)
    for p, ds in zip(result.points, result.datasets):
        if p.label == label:
            c = dict(p.coords)
            out[tuple(a.index(c[d]) for a, d in zip(axes, dims))] = ds.friction_coefficient.values[age]
    return out


def post(result, cfg: dict) -> xr.Dataset:
    """mu_s at both ages by interaction, size, pressure and seed (``figure``), the mean field on its large patch
    and on i.i.d. heights by pressure and seed, the closed forms, and the 64^2 cross-check's two values."""
    P = [float(x) for x in result.axis_values("analysis.pressure", "figure")]
    if any([float(x) for x in result.axis_values("analysis.pressure", lab)] != P for lab in MEASURED):
        raise ConfigError(f"the runs {', '.join(MEASURED)} are compared at the same nominal pressures "
                          "(axes.analysis.pressure); a run's own pressure axis may not differ")
    t_eval = float(cfg["protocol"]["duration_s"])  # the age of the relaxed state (the hold every run holds)
    sizes = [int(n) for n in result.axis_values("model.patch_nx", "figure")]
    seeds = [int(s) for s in result.axis_values("model.surface_seed", "figure")]
    first = next(i for i, p in enumerate(result.points) if p.label == "meanfield_large")
    m = point_model(result, first)
    c_aged = float(result.datasets[first].attrs["relaxed_compliance"])
    nmf = m.patch_nx
    niid = point_model(result, next(i for i, p in enumerate(result.points) if p.label == "meanfield_iid")).patch_nx
    mf_seeds = [int(s) for s in result.axis_values("model.surface_seed", "meanfield_large")]
    iid_seeds = result.axis_values("model.surface_seed", "meanfield_iid")
    ds = xr.Dataset(coords={"interaction": list(result.axis_values("model.interaction", "figure")), "size": sizes,
                            "pressure": ("pressure", P, {"units": "Pa"}), "seed": seeds,
                            "mf_seed": mf_seeds, "age": ["t=0+", f"t={t_eval:g}"]})
    dims = ("interaction", "size", "pressure", "seed")
    keys = ("model.interaction", "model.patch_nx", "analysis.pressure", "model.surface_seed")
    ds["mu_initial"] = (dims, _grid(result, "figure", keys, 0), {"units": "1", "description": "mu_s at t=0+ (c = 1)"})
    ds["mu_t_eval"] = (dims, _grid(result, "figure", keys, 1),
                       {"units": "1", "description": f"mu_s at t={t_eval:g} (relaxed, c = {c_aged:g})"})
    keys = ("analysis.pressure", "model.surface_seed")
    ds["mu_meanfield_large"] = (("age", "pressure", "mf_seed"),
                                np.stack([_grid(result, "meanfield_large", keys, k) for k in (0, 1)]),
                                {"units": "1", "description": f"mean field on {nmf}^2"})
    ds = ds.assign_coords(iid_seed=np.arange(len(iid_seeds)))
    ds["mu_meanfield_iid"] = (("age", "pressure", "iid_seed"),
                              np.stack([_grid(result, "meanfield_iid", keys, k) for k in (0, 1)]),
                              {"units": "1", "description": f"mean field, i.i.d. Gaussian heights on {niid}^2"})
    cs = (1.0, c_aged)
    pb = [to_paper(p, "Pa") for p in P]  # the closed form computes in the paper's units, as the model
    k = m.kernel_parameters()  # the closed forms compute in the paper's units
    ds["mu_closed_form"] = (("age", "pressure"), [[meanfield_mu_static(x, k.tau_s, c=c, C0=k.C0, dx=k.dx,
                                                                       sigma=k.surface_sigma)
                                                   for x in pb] for c in cs], {"units": "1"})
    ds["elasticity_closed_form"] = (("age", "pressure"), [[meanfield_pressure_elasticity(
        x, c=c, C0=k.C0, dx=k.dx, sigma=k.surface_sigma) for x in pb] for c in cs], {"units": "1"})
    ds["stepped_mu"] = ((), value_at(result.pick("stepped"), "friction_coefficient", t_eval))
    ds["direct_mu"] = ((), float(result.pick("direct").friction_coefficient.values[1]))
    ds.attrs.update({"c_aged": c_aged, "meanfield_size": nmf, "iid_size": niid, "t_eval": t_eval})
    return ds


def _rel_slopes(P: np.ndarray, mu: np.ndarray) -> np.ndarray:
    """Relative slope d ln mu / d log2 p, fitted per row of ``mu`` (..., pressure)."""
    x = np.log2(P)
    y = np.log(mu)
    xc = x - x.mean()
    return (y * xc).sum(-1) / (xc**2).sum()


def _closed_form_checks(ds: xr.Dataset, lim: float) -> list:
    """The mean-field computation against its exact closed form (large-system limit)."""
    out = []
    P = ds.pressure.values
    nmf, niid = int(ds.attrs["meanfield_size"]), int(ds.attrs.get("iid_size", ds.attrs["meanfield_size"]))
    for age in ds.age.values:
        cf = ds.mu_closed_form.sel(age=age).values
        # values: i.i.d. Gaussian heights, where the closed form is the exact N -> infinity limit
        x = ds.mu_meanfield_iid.sel(age=age).values
        ns = x.shape[-1]
        mean, se = x.mean(-1), x.std(-1, ddof=1) / math.sqrt(ns)
        res = float(np.max(3 * se / cf))
        ok = bool(np.all(np.abs(mean - cf) <= 3 * se)) and res <= 0.03
        out.append(check(f"mean field ({age}, i.i.d. Gaussian heights, {niid}^2, {ns} realisations) = closed form "
                         "mu_s = tau_s Phibar(eta)/p (N -> infinity limit of the model's eq. 5)",
                         "|mean - closed form| <= 3 SE at every pressure, resolution 3 SE <= 3 % of mu_s",
                         "; ".join(f"{p / 1e6:g} MPa: {a:.4f} vs {c:.4f}" for p, a, c in zip(P, mean, cf))
                         + f" (3 SE <= {100 * res:.2f} %)", ok, kind="verification"))
        # slope: the paper's correlated surfaces (only the marginal distribution enters)
        x = ds.mu_meanfield_large.sel(age=age).values
        ns = x.shape[-1]
        sl = _rel_slopes(P, x.T)
        el = ds.elasticity_closed_form.sel(age=age).values
        s_cf = float(_rel_slopes(P, cf))
        s_m, s_se = float(sl.mean()), float(sl.std(ddof=1) / math.sqrt(ns))
        gap = abs(s_cf) - lim
        out.append(check(f"mean field ({age}, paper's surfaces, {nmf}^2, {ns} seeds): pressure slope "
                         "d ln mu / d log2 p = closed form",
                         f"{100 * s_cf:+.2f} % per doubling (exact elasticity {el.min():+.3f}..{el.max():+.3f} per ln p) "
                         f"within 3 SE; resolution 3 SE < {100 * gap:.1f} % (distance of the closed form from the "
                         f"{100 * lim:g} % bound)",
                         f"{100 * s_m:+.2f} +- {100 * s_se:.2f} % per doubling",
                         abs(s_m - s_cf) <= 3 * s_se and 3 * s_se < gap, kind="verification"))
    return out


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    P = ds.pressure.values
    big = int(ds["size"].values.max())
    t_eval = float(ds.attrs["t_eval"])
    dm, st = float(ds.direct_mu), float(ds.stepped_mu)
    out.append(check(f"direct relaxed solve (c = {ds.attrs['c_aged']:g}) = time-stepped hold at t = {t_eval:g} "
                     "(64^2, Boussinesq, 100 MPa)", "rel. diff <= 1e-9", f"{dm:.6f} vs {st:.6f}",
                     abs(dm / st - 1) <= 1e-9, kind="verification"))
    lim = float(cfg["analysis"].get("max_rel_slope", 0.05))
    evidence = _closed_form_checks(ds, lim)
    out += as_kind(evidence, "verification")
    for inter in ds.interaction.values:
        for var, lab in (("mu_initial", "t=0+"), ("mu_t_eval", f"t={t_eval:g}")):
            x = ds[var].sel(interaction=inter)
            if inter == "meanfield":  # best-resolved mean-field data: the large patch
                xs, where = ds.mu_meanfield_large.sel(age=lab).values.T, f"{ds.attrs['meanfield_size']}^2"
            else:
                xs, where = x.sel(size=big).values.T, f"{big}^2"
            sl = _rel_slopes(P, xs)
            s_m = float(sl.mean())
            s_se = float(sl.std(ddof=1) / math.sqrt(sl.size)) if sl.size > 1 else math.inf
            claim = (f"{inter} ({lab}): mu_s nearly independent of pressure (Sect. 4.3, 'both with and without "
                     "elastic interactions')")
            exp = f"|d ln mu / d log2 p| + 2 SE <= {100 * lim:g} % per doubling"
            meas = f"{100 * s_m:+.2f} +- {100 * s_se:.2f} % per doubling ({where}, {sl.size} seeds)"
            amb = (f"'nearly independent' read as <= {100 * lim:g} % per doubling (Hertz single asperity: -21 %)"
                   + (f"; quick profile: {big}^2, not the paper's 512^2 (the Boussinesq slope steepens on small "
                      "patches: about -10 % per doubling at 128^2)" if inter == "boussinesq" and big < 512 else ""))
            ok = abs(s_m) + 2 * s_se <= lim
            if inter == "meanfield" and not ok:
                cf = float(_rel_slopes(P, ds.mu_closed_form.sel(age=lab).values))
                out.append(deviation(claim, exp, meas, evidence,
                                     "the paper says mu_s is nearly independent of pressure also without interaction; "
                                     "the mean-field equations give mu_s = tau_s Phibar(eta)/p exactly, "
                                     f"{100 * cf:+.1f} % per doubling ({P[0] / 1e6:g}..{P[-1] / 1e6:g} MPa) at any size",
                                     ambiguity=amb, insensitive=MF_INSENSITIVE))
            else:
                out.append(check(claim, exp, meas, ok, ambiguity=amb,
                                 **({"mutations": (BETA_50,)} if inter == "boussinesq" else {"insensitive": MF_INSENSITIVE})))
            out.append(_caption_check(ds, x, inter, lab, big, evidence))
    return out


def _caption_check(ds: xr.Dataset, x: xr.DataArray, inter: str, lab: str, big: int, evidence: list):
    """Fig. 8's caption: every (size, pressure) mean within one standard deviation of the grand mean;
    the points outside are named (the size and pressure where the claim fails)."""
    P = ds.pressure.values
    m_all = x.mean("seed")
    sd_all = x.std("seed", ddof=1)
    ref = float(m_all.sel(size=big).mean())
    dist = np.abs(m_all.values - ref) / np.maximum(sd_all.values, 1e-300)  # (size, pressure)
    outside = [f"{int(n)}^2 at {P[j] / 1e6:g} MPa ({dist[i, j]:.2f} SD)" for i, n in enumerate(ds["size"].values)
               for j in range(len(P)) if abs(m_all.values[i, j] - ref) > sd_all.values[i, j] + 1e-12]
    within = not outside
    claim = (f"{inter} ({lab}): caption of Fig. 8 -- every (size, pressure) mean within one standard deviation of "
             "the grand mean")
    exp = "|mean - grand mean| <= one standard deviation (over the seeds) at every size and pressure"
    meas = (f"outside: {'; '.join(outside) if outside else 'none'} (max {float(dist.max()):.2f} SD; sizes "
            f"{', '.join(str(int(n)) for n in ds['size'].values)}^2; {ds.sizes['seed']} seeds; grand mean "
            f"over the pressures at {big}^2)")
    if inter == "meanfield" and not within:
        cf = ds.mu_closed_form.sel(age=lab).values
        spread = 100 * float(sd_all.sel(size=big).mean() / m_all.sel(size=big).mean())
        return deviation(claim, exp, meas, evidence,
                         f"the caption says mu_s is independent of pressure within one standard deviation; "
                         f"the mean-field equations give a {100 * (cf[-1] / cf[0] - 1):+.0f} % change from "
                         f"{P[0] / 1e6:g} to {P[-1] / 1e6:g} MPa, against a seed scatter of {spread:.0f} % at {big}^2",
                         insensitive=MF_INSENSITIVE)
    return check(claim, exp, meas, within,
                 **({"mutations": (BETA_50,)} if inter == "boussinesq" else {"insensitive": MF_INSENSITIVE}))


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, ax = plt.subplots(1, 2, figsize=(11, 4))
    for k, inter in enumerate(ds.interaction.values):
        for n in ds["size"].values:
            for var, ls in (("mu_initial", "-"), ("mu_t_eval", "--")):
                x = ds[var].sel(interaction=inter, size=n)
                ax[k].errorbar(ds.pressure / 1e6, x.mean("seed"), x.std("seed"), capsize=3, ls=ls,
                               label=f"{n}^2, {x.attrs['description'].split(' (')[0][5:]}")
        if inter == "meanfield":
            for age in ds.age.values:
                ax[k].plot(ds.pressure / 1e6, ds.mu_closed_form.sel(age=age), "k:", label=f"closed form {age}")
        ax[k].set(xscale="log", xlabel="nominal pressure [MPa]", ylabel="mu_s", title=str(inter))
        ax[k].legend(fontsize=7)
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="rough-contact/fig8",
    description="""Hulikal et al. Fig. 8: mu_s vs nominal pressure 25..400 MPa for 128^2, 256^2, 512^2, 15 seeds, at t=0+ and
        t=100 by direct solves with the instantaneous and the relaxed compliance, Boussinesq and mean field; the
        mean field against its exact closed form on 512^2 (16 seeds) and i.i.d. heights (12). Quick: Boussinesq and
        mean field on 256^2, 6 seeds, solver tol 1e-8 (same contact counts as 1e-10 here).""",
    config=CONFIG, run=None, derive=derive, post=post, checks=checks, plot=plot, study_map=parallel_map,
    units={"axes.analysis.pressure": "Pa"}, derived=DERIVED,
    quick={"axes.model.patch_nx": [256], "axes.model.surface_seed": list(range(6))}, moved=MOVED,
    references=["Hulikal, Lapusta & Bhattacharya (2015)", "Greenwood & Williamson (1966)"], slow=True,
))
