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
second warm started from the first. The run checks this against a time-stepped hold (64^2).
Seeds are independent and run in parallel over ``[parallel] workers`` processes (default 1, as
Figs. 13 and 14; ``frictionlab reproduce --workers N`` or ``--set parallel.workers=N``; each
process one FFT thread unless ``integrator.fft_workers`` says otherwise), through the shared
runner, which keeps each finished seed for a resume; the worker count enters no result and no
resume key.

The mean field is also compared with its exact large-system closed form
(:mod:`frictionlab.reference.meanfield_rough`: mu_s = tau_s Phibar(eta)/p, pressure elasticity
phi psi / Phibar^2 - 1), on ``analysis.meanfield_size`` with ``analysis.meanfield_seeds``
realisations (cheap: one sort per solve), at a stated resolution.

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

from ...contact.rough.elasticity import StepOperator
from ...contact.rough.model import load_from_pressure
from ...contact.rough.units import to_paper
from ...contact.rough.solver import meanfield_solve, pk_solve
from ...core.errors import ConfigError
from ...reference.meanfield_rough import meanfield_mu_static, meanfield_pressure_elasticity, relaxed_compliance
from ..base import Mutation, Scenario, as_kind, check, deviation, register_scenario
from ._common import (MODEL, PARALLEL, PRESSURE, UM, build_model, hold, hold_protocol, numerics, run_parallel, surface,
                      value_at)

CONFIG = {
    "model": dict(MODEL),
    "integrator": {"driver": "hold", "per_decade": 4},
    # nominal pressures [Pa], patch sizes (elements per side) and surface realisations of the direct solves
    "sweep": {"pressures": [25e6, 50e6, 100e6, 200e6, 400e6], "sizes": [128, 256, 512], "seeds": 15},
    # t_eval [s]: the age of the relaxed state; the mean field against its closed form on meanfield_size^2 with
    # meanfield_seeds surfaces and iid_seeds i.i.d. height fields; max_rel_slope: the reading of 'nearly independent'
    "analysis": {"t_eval": 100.0, "meanfield_size": 512, "meanfield_seeds": 16, "iid_seeds": 12, "max_rel_slope": 0.05},
    "parallel": dict(PARALLEL),
}
#: the former ``protocol.workers`` (0 = all cores) and the keys of the former [protocol] table (this scenario
#: runs direct solves, no protocol) are refused with these pointers
MOVED = {"protocol.workers": "the worker processes are parallel.workers (a count >= 1), as for every scenario with a "
                             "[parallel] section; frictionlab reproduce --workers N sets it",
         "protocol.pressures_MPa": "the nominal pressures are sweep.pressures [Pa]",
         **{f"protocol.{k}": f"it is sweep.{k}" for k in ("sizes", "seeds")},
         **{f"protocol.{k}": f"it is analysis.{k}" + (" [s]" if k == "t_eval" else "")
            for k in ("t_eval", "meanfield_size", "meanfield_seeds", "iid_seeds", "max_rel_slope")}}
INTERACTIONS = ("boussinesq", "meanfield")
#: the correlation length read as 50 um instead of Table 1's 10: a few asperities per patch, nearer the
#: single-asperity Hertz law (-21 % per doubling): mu_s then falls with the pressure
BETA_50 = Mutation("correlation length read as 50 um (Table 1: 10 um)", {"model.surface_beta": 50.0 * UM})
#: why no mutation can make the mean field pressure independent (the deviation stands for any reading)
MF_INSENSITIVE = ("the mean field's mu_s = tau_s Phibar(eta)/p (closed form, checked in this run) falls 7-8 % per "
                  "doubling at any size and seed count; it reaches the 5 % bound only with C0 some 10^4 x below "
                  "Table 1's 16, no reading of the paper")


def _solve_seed(args: tuple) -> tuple[np.ndarray, np.ndarray]:
    """mu_s at t = 0+ and relaxed, for every pressure, on one surface (one worker task)."""
    cfg, inters, n, seed, pressures, c_aged = args
    if seed < 0:  # i.i.d. N(0, sigma^2) heights, realisation -1 - seed (the closed form's own assumption)
        h = to_paper(float(cfg["model"]["surface_sigma"]), "m") * np.random.default_rng(-1 - seed).standard_normal((n, n))
    else:
        h = surface(build_model(cfg, patch_nx=n, patch_ny=n, surface_mx=n, surface_seed=seed))
    num = numerics(cfg)
    mu0 = np.empty((len(inters), len(pressures)))
    mu1 = np.empty_like(mu0)
    for a, inter in enumerate(inters):
        m = build_model(cfg, interaction=inter).kernel_parameters()  # the direct solves compute in the paper's units
        base = m.operator(n, n, num)  # integrator.fft_workers / fft_precision as in every other solve
        for c, p in enumerate(pressures):
            W = load_from_pressure(p, n, n, m.dx)
            res = []
            for k, cc in enumerate((1.0, c_aged)):
                op = StepOperator(base, c=cc)
                if inter == "meanfield":
                    r = meanfield_solve(h, W, op.diagonal(), backend=base.be)
                else:
                    r = pk_solve(op, h, W, res[-1].p if res else None, tol=num.tol, max_iter=num.max_iter)
                res.append(r)
            area = [float(np.count_nonzero(base.be.to_numpy(r.p) > 0)) * m.dx**2 for r in res]
            mu0[a, c], mu1[a, c] = (m.tau_s * x / W for x in area)
    return mu0, mu1


def run(cfg: dict, quick: bool) -> xr.Dataset:
    if "protocol" in cfg:  # a config built by hand: --set and scenario files are refused before (MOVED)
        old = next((k for k in MOVED if k.split(".", 1)[1] in cfg["protocol"]), "protocol.workers")
        raise ConfigError(f"rough-contact/fig8 has no [protocol] (it runs direct solves): {old}: {MOVED[old]}")
    sw, an = cfg["sweep"], cfg["analysis"]
    P = [float(x) for x in sw["pressures"]]
    sizes = [int(x) for x in sw["sizes"]]
    seeds = int(sw["seeds"])
    t_eval = float(an["t_eval"])
    m = build_model(cfg)
    k = m.kernel_parameters()  # the closed forms compute in the paper's units
    c_aged = relaxed_compliance(m.lams, m.As, t_eval) if m.material == "viscoelastic" else 1.0
    if m.material == "viscoplastic":
        raise ConfigError("rough-contact/fig8 solves the relaxed viscoelastic state directly; "
                          "model.material = 'viscoplastic' has no relaxed state (use rough-contact/fig7)")
    base = int(cfg["model"]["surface_seed"])
    one = {k: v for k, v in cfg.items() if k != "parallel"}  # what a seed's result depends on (and its resume key)
    tasks = [(one, INTERACTIONS, n, base + s, P, c_aged) for n in sizes for s in range(seeds)]
    nmf, smf = int(an["meanfield_size"]), int(an["meanfield_seeds"])
    tasks += [(one, ("meanfield",), nmf, base + s, P, c_aged) for s in range(smf)]
    niid = int(an["iid_seeds"])
    tasks += [(one, ("meanfield",), nmf, -1 - s, P, c_aged) for s in range(niid)]
    out = run_parallel(_solve_seed, [(t,) for t in tasks], cfg)
    k0, k1 = len(sizes) * seeds, len(sizes) * seeds + smf
    main, mf, iid = out[:k0], out[k0:k1], out[k1:]
    shape = (len(sizes), seeds, len(INTERACTIONS), len(P))
    mu0 = np.stack([o[0] for o in main]).reshape(shape).transpose(2, 0, 3, 1)
    mu1 = np.stack([o[1] for o in main]).reshape(shape).transpose(2, 0, 3, 1)
    ds = xr.Dataset(coords={"interaction": list(INTERACTIONS), "size": sizes,
                            "pressure": ("pressure", P, {"units": "Pa"}), "seed": np.arange(seeds) + base,
                            "mf_seed": np.arange(smf) + base, "age": ["t=0+", f"t={t_eval:g}"]})
    dims = ("interaction", "size", "pressure", "seed")
    ds["mu_initial"] = (dims, mu0, {"units": "1", "description": "mu_s at t=0+ (c = 1)"})
    ds["mu_t_eval"] = (dims, mu1, {"units": "1", "description": f"mu_s at t={t_eval:g} (relaxed, c = {c_aged:g})"})
    ds["mu_meanfield_large"] = (("age", "pressure", "mf_seed"),
                                np.stack([np.stack([o[0][0] for o in mf], -1), np.stack([o[1][0] for o in mf], -1)]),
                                {"units": "1", "description": f"mean field on {nmf}^2"})
    ds = ds.assign_coords(iid_seed=np.arange(niid))
    ds["mu_meanfield_iid"] = (("age", "pressure", "iid_seed"),
                              np.stack([np.stack([o[0][0] for o in iid], -1), np.stack([o[1][0] for o in iid], -1)]),
                              {"units": "1", "description": f"mean field, i.i.d. Gaussian heights on {nmf}^2"})
    cs = (1.0, c_aged)
    pb = [to_paper(p, "Pa") for p in P]  # the closed form computes in the paper's units, as the model
    ds["mu_closed_form"] = (("age", "pressure"), [[meanfield_mu_static(x, k.tau_s, c=c, C0=k.C0, dx=k.dx,
                                                                       sigma=k.surface_sigma)
                                                   for x in pb] for c in cs], {"units": "1"})
    ds["elasticity_closed_form"] = (("age", "pressure"), [[meanfield_pressure_elasticity(
        x, c=c, C0=k.C0, dx=k.dx, sigma=k.surface_sigma) for x in pb] for c in cs], {"units": "1"})
    # the direct relaxed solve against a time-stepped hold (64^2, Boussinesq, 100 MPa)
    n = 64
    r = hold({**cfg, "protocol": hold_protocol(t_eval, n)}, m.replace(patch_nx=n, patch_ny=n, surface_mx=n))
    ds["stepped_mu"] = ((), value_at(r, "friction_coefficient", t_eval))
    ds["direct_mu"] = ((), float(_solve_seed((one, ("boussinesq",), n, base, [PRESSURE], c_aged))[1][0, 0]))
    ds.attrs.update({"c_aged": c_aged, "meanfield_size": nmf, "t_eval": t_eval})
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
    nmf = int(ds.attrs["meanfield_size"])
    for age in ds.age.values:
        cf = ds.mu_closed_form.sel(age=age).values
        # values: i.i.d. Gaussian heights, where the closed form is the exact N -> infinity limit
        x = ds.mu_meanfield_iid.sel(age=age).values
        ns = x.shape[-1]
        mean, se = x.mean(-1), x.std(-1, ddof=1) / math.sqrt(ns)
        res = float(np.max(3 * se / cf))
        ok = bool(np.all(np.abs(mean - cf) <= 3 * se)) and res <= 0.03
        out.append(check(f"mean field ({age}, i.i.d. Gaussian heights, {nmf}^2, {ns} realisations) = closed form "
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


    return out


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
    config=CONFIG, run=run, checks=checks, plot=plot, units={"sweep.pressures": "Pa", "analysis.t_eval": "s"},
    quick={"sweep.sizes": [256], "sweep.seeds": 6}, moved=MOVED,
    references=["Hulikal, Lapusta & Bhattacharya (2015)", "Greenwood & Williamson (1966)"], slow=True,
))
