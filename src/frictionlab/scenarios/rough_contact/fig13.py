"""``rough-contact/fig13``: steady contact area and mean contact size against sliding speed.

Boussinesq, 100 MPa; for each viscoelastic set (lambda, A) and each v, slide ``slip`` from the
t = 0+ state and average the second half (the paper does not say how it measured the steady
state). Sect. 5.3 describes "four combinations of A, lambda and three values of A/lambda of 10, 1
and 0.1": (1, 0.1), (1, 1) (blue), (0.1, 0.1) (purple) and (0.1, 1) (A/lambda = 10, the set of
Figs. 13c, d) are ``analysis.sets`` ``fig13a_1`` ... ``fig13a_4``; ``ours_1`` adds (1, 10), Fig. 14's
red set, whose checks are extensions (a set named ``ours_*`` is one of ours). v in
{1, 2, 5, ..., 1000}. Also stores the steady friction coefficient
mu_ss(v) = (tau_s + alpha ln v) A_ss / W, i.e. Fig. 14(d), and the contact maps of (0.1, 1) at
v = 1 and v = 100 after the same slip (Figs. 13c, d).

The study: one run at every point of ``axes.analysis.set`` (an input axis naming the sets of
``analysis.sets``, ``{name: [lambda, A]}`` [1/s], which ``derive`` turns into the run's ``model.lams`` and
``model.As``) x ``axes.protocol.velocities`` (one-velocity lists [m/s]), each sliding
``protocol.distances`` from the t = 0+ state; ``derive`` records the contact-force map
(``integrator.snapshot_times``, at the end of the slip) of the runs of ``analysis.map_set`` at
``analysis.map_velocities`` only. The runs are
independent: they go to ``--workers`` processes or a ``--scheduler`` cluster
(:func:`~frictionlab.scenarios.executor.parallel_map`), each finished one kept for a resume. With
single-precision sliding steps (the paper-size profile) a refinement round slides the double-precision
control (:func:`._sliding.precision_runs`) on the first set at the first velocity.

Notes
-----
The time-scaling invariance (Sect. 4.2) makes (1, 1) and (0.1, 0.1) identical at the same slip per
step when v is scaled by 10 (A must scale with lambda; the paper states it with lambda only); Sect.
5.3 calls the two curves "similar ... shifted by an order of magnitude". The check compares the two
contact-area series element by element: exactly equal in double precision, and within
:data:`INVARIANCE_PIXELS` contact elements with single-precision sliding products (a contact
element at the solver tolerance may flip; fixed before the full-size run was looked at).
"""

from __future__ import annotations


import numpy as np
import xarray as xr

from ...core.errors import ConfigError
from ..base import Mutation, Scenario, check, register_scenario
from ..executor import parallel_map
from ._common import MODEL_NAME, MOVED_PARALLEL, one_driver
from ._sliding import (CONTROL_RUNS, MODEL, MOVED_SLIDING, PROTOCOL, QUICK_BASE, QUICK_DOUBLE, QUICK_VELOCITY_NOTE,
                       REFS, SINGLE_SLIDING, SLIP_TOL, UM, precision_attrs, precision_checks, precision_runs,
                       run_sets, single_sliding, INTEGRATOR)

#: contact elements by which the invariance pair's area series may differ with single-precision sliding steps
INVARIANCE_PIXELS = 2
#: "approximately independent of slip velocity" (Sect. 5.3) read as within 15 % of its mean (no number printed)
RADIUS_SPREAD = 0.15
#: the name prefix of our sets (their checks are extensions); every other set is one of Fig. 13a
OURS = "ours"
#: the sets of Fig. 13a (Sect. 5.3) and ours, (lambda [1/s], A [1/s])
SETS = {"fig13a_1": [1.0, 0.1], "fig13a_2": [1.0, 1.0], "fig13a_3": [0.1, 0.1], "fig13a_4": [0.1, 1.0],
        f"{OURS}_1": [1.0, 10.0]}

CONFIG = {
    "model": {**MODEL, "interaction": "boussinesq"},
    "integrator": {**INTEGRATOR, **SINGLE_SLIDING},  # float32 sliding products + a double control (_sliding)
    "protocol": {**PROTOCOL, "distances": [200.0 * UM]},
    # one run per set (names of analysis.sets) and velocity [m/s]
    "axes": {"analysis": {"set": list(SETS)},
             "protocol": {"velocities": [[x * UM] for x in (1.0, 2.0, 5.0, 10.0, 20.0, 50.0, 100.0, 200.0, 500.0,
                                                             1000.0)]}},
    # sets: the four (lambda [1/s], A [1/s]) of Fig. 13a (Sect. 5.3), then ours (extensions); the contact maps of
    # Figs. 13c, d: one set (lambda, A), velocities [m/s]
    "analysis": {"sets": {k: list(v) for k, v in SETS.items()}, "map_set": [0.1, 1.0],
                 "map_velocities": [1.0 * UM, 100.0 * UM]},
}
_SETS = ("the material sets are analysis.sets ({name: [lambda, A]} [1/s]: fig13a_1 ... fig13a_4, ours ours_*); "
         "axes.analysis.set names those run")
DERIVED = {**MODEL_NAME, "model.lams": _SETS, "model.As": _SETS,
           "integrator.snapshot_times": "analysis.map_set and analysis.map_velocities (the runs whose contact map is "
                                        "recorded, at the end of the slip)"}
MOVED = {**MOVED_SLIDING, **MOVED_PARALLEL, "protocol.sets": _SETS, "protocol.extra_sets": _SETS,
         "sweep.sets": _SETS, "sweep.extra_sets": _SETS,
         "sweep.velocities": "the velocities are axes.protocol.velocities, one-velocity lists [[v1], [v2], ...] [m/s]",
         "sweep": f"{_SETS}; the velocities are axes.protocol.velocities",
         "protocol.map_set": "analysis.map_set", "protocol.map_velocities": "analysis.map_velocities [m/s]"}


def _is_ours(label: str) -> bool:
    return label.startswith(OURS)


def derive(point, cfg: dict) -> dict:
    """Each run's ``model.lams``, ``model.As`` (its set) and the contact-force map of the runs of
    ``analysis.map_set`` at ``analysis.map_velocities`` (at the end of the slip); refuses another driver and a
    run of more than one velocity."""
    one_driver(point, "sliding")
    if point.label in CONTROL_RUNS:
        return {}
    vs = point["protocol"]["velocities"]
    if len(vs) != 1:
        raise ConfigError(f"protocol.velocities = {vs!r}: each run of this scenario slides at one velocity; the "
                          "velocities are axes.protocol.velocities = [[v1], [v2], ...] [m/s]")
    v, L = float(vs[0]), float(point["protocol"]["distances"][0])
    lam, A = run_sets({**cfg, "axes": {"analysis": {"set": [point.coord("analysis.set")]}}}).popitem()[1]
    out = {"model.lams": [lam], "model.As": [A]}
    if [lam, A] == [float(x) for x in cfg["analysis"]["map_set"]] and v in [float(x) for x in
                                                                            cfg["analysis"]["map_velocities"]]:
        out["integrator.snapshot_times"] = [L / v]
    return out


def refine(result, cfg: dict) -> dict | None:
    """With single-precision sliding steps: the double-precision control on the first set at the first velocity
    (once)."""
    if not single_sliding(cfg) or CONTROL_RUNS[0] in result.labels:
        return None
    lam, A = next(iter(run_sets(cfg).values()))
    return precision_runs(cfg, {"lams": [lam], "As": [A]}, result.axis_values("protocol.velocities")[0][0])


def post(result, cfg: dict) -> xr.Dataset:
    """Per set and velocity: the second-half means of every run; the invariance pair's largest area difference;
    the contact maps of the map runs; the single-precision control."""
    L = float(cfg["protocol"]["distances"][0])
    named = run_sets(cfg)
    names = [str(n) for n in result.axis_values("analysis.set")]
    sets = [named[n] for n in names]
    vaxis = result.axis_values("protocol.velocities")
    vs = [float(v[0]) for v in vaxis]
    area = np.zeros((len(sets), len(vs)))
    frac = np.zeros_like(area)
    radius = np.zeros_like(area)
    dil = np.zeros_like(area)
    mu = np.zeros_like(area)
    series = {}
    maps = {}
    map_set = list(map(float, cfg["analysis"]["map_set"]))
    map_vs = [float(x) for x in cfg["analysis"]["map_velocities"]]
    for a, name in enumerate(names):
        for b, r in enumerate(result.pick(set=name, velocities=v) for v in vaxis):
            sel = r.slip.values >= 0.5 * L - SLIP_TOL
            area[a, b] = r.real_contact_area.values[sel].mean()
            frac[a, b] = r.contact_area.values[sel].mean()
            radius[a, b] = r.mean_contact_radius.values[sel].mean()
            dil[a, b] = r.dilatation.values[sel].mean()
            mu[a, b] = r.friction_coefficient.values[sel].mean()  # mu_ss(v) = (tau_s + alpha ln v) A_ss / W
            series[(a, b)] = r.n_contact_elements.values
            if list(sets[a]) == map_set and vs[b] in map_vs:
                maps[vs[b]] = r.contact_force.values[-1]
    paper = [not _is_ours(n) for n in names]
    ds = xr.Dataset({"real_contact_area": (("set", "v"), area, {"units": "m^2"}),
                     "contact_area": (("set", "v"), frac, {"units": "1",
                                                           "description": "fraction of the patch in contact"}),
                     "mean_contact_radius": (("set", "v"), radius, {"units": "m"}),
                     "dilatation": (("set", "v"), dil, {"units": "m"}),
                     "friction_coefficient": (("set", "v"), mu, {"units": "1"})},
                    coords={"set": _set_names(paper), "lam": ("set", [s[0] for s in sets]),
                            "A": ("set", [s[1] for s in sets]), "v": ("v", vs, {"units": "m/s"}),
                            "paper_set": ("set", paper)})
    # time-scaling invariance: (0.1, 0.1) at v vs (1, 1) at 10 v, full area series (in contact elements)
    inv = []
    if (0.1, 0.1) in sets and (1.0, 1.0) in sets:  # the first of each (a set may also be an extra one)
        i1, i2 = sets.index((1.0, 1.0)), sets.index((0.1, 0.1))
        for b, v in enumerate(vs):
            tenfold = [k for k, w in enumerate(vs) if abs(w - 10 * v) <= 1e-12 * w]
            if tenfold:
                s1, s2 = series[(i1, tenfold[0])], series[(i2, b)]
                inv.append(float(np.max(np.abs(s1 - s2))) if s1.shape == s2.shape else np.inf)
    if CONTROL_RUNS[0] in result.labels:
        ds.attrs.update(precision_attrs(result.pick(CONTROL_RUNS[0]), result.pick(CONTROL_RUNS[1]), vs[0]))
    ds.attrs["invariance_max_elements"] = max(inv) if inv else np.nan
    ds.attrs["invariance_pairs"] = len(inv)
    if maps:
        mv = sorted(maps)
        ds = ds.assign_coords(map_v=mv)
        ds["contact_force_map"] = (("map_v", "x", "y"), np.stack([maps[v] for v in mv]), {"units": "N"})
    return ds


def _set_names(paper: list[bool]) -> list[str]:
    """The sets' names by their place among Fig. 13a's sets or ours (their values may be mutated): 'Fig. 13a
    set k', 'our set k'."""
    return [f"Fig. 13a set {sum(paper[:k + 1])}" if p else f"our set {k + 1 - sum(paper[:k + 1])}"
            for k, p in enumerate(paper)]


def _is_paper(ds: xr.Dataset, s: str) -> bool:
    return bool(ds.paper_set.sel(set=s))


def _values(ds: xr.Dataset, s: str) -> str:
    return f"({float(ds.lam.sel(set=s)):g}, {float(ds.A.sel(set=s)):g})"


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    lams = {n: lam for n, (lam, _) in run_sets(cfg).items() if not _is_ours(n)}
    no_relax = Mutation("no viscoelastic relaxation: A = 0 in every set of Fig. 13a",
                        {f"analysis.sets.{n}": [lam, 0.0] for n, lam in lams.items()})
    big_a = Mutation("every set of Fig. 13a read with A/lambda = 10 (A = 10 lambda)",
                     {f"analysis.sets.{n}": [lam, 10 * lam] for n, lam in lams.items()})
    ours = "(1, 10) is Fig. 14's red set, not one of Fig. 13a's four"
    for s in ds.set.values:
        a = ds.contact_area.sel(set=s).values
        paper = _is_paper(ds, s)
        out.append(check(f"{s}: steady area decreases strictly with v (Sect. 5.3: 'the total contact area "
                         "always decreases')", "decreasing",
                         f"{_values(ds, s)}: " + " > ".join(f"{100 * x:.3f}" for x in a) + " %", bool(np.all(np.diff(a) < 0)),
                         "" if paper else ours, kind="paper" if paper else "extension",
                         mutations=(no_relax,) if paper else ()))
    for lam in sorted({float(x) for x in ds.lam.values}):
        group = [s for s in ds.set.values if float(ds.lam.sel(set=s)) == lam]
        for paper in (True, False):
            grp = sorted((s for s in group if _is_paper(ds, s) or not paper), key=lambda s: float(ds.A.sel(set=s)))
            if len(grp) < 2 or (not paper and all(_is_paper(ds, s) for s in grp)):
                continue
            ch = {s: float(ds.contact_area.sel(set=s).values[0] - ds.contact_area.sel(set=s).values[-1]) for s in grp}
            vals = [ch[s] for s in grp]
            out.append(check(f"lambda = {lam:g}: larger A/lambda gives a larger total area change over the v range "
                             f"(Sect. 5.3){'' if paper else ', with our sets'}",
                             "increasing with A", ", ".join(f"{_values(ds, s)}: {100 * ch[s]:.3f} %" for s in grp),
                             bool(np.all(np.diff(vals) > 0)), "" if paper else ours,
                             kind="paper" if paper else "extension", mutations=(no_relax,) if paper else ()))
    if ds.attrs.get("invariance_pairs", 0):
        x = float(ds.attrs["invariance_max_elements"])
        single = ds.attrs.get("precision_control_steps") is not None
        tol = INVARIANCE_PIXELS if single else 0
        out.append(check("(1, 1) and (0.1, 0.1) give the same area curve shifted by one decade in v (Sect. 5.3; the "
                         "time-scaling invariance of Sect. 4.2 with A scaled as lambda)",
                         f"area series equal to {tol} contact elements ("
                         + ("single-precision sliding steps" if single else "double precision: exact") + ")",
                         f"max difference {x:g} elements over {ds.attrs['invariance_pairs']} pairs", x <= tol,
                         kind="verification"))
    r = ds.mean_contact_radius.values
    dev = np.abs(r / r.mean(axis=1, keepdims=True) - 1).max(axis=1)
    paper = np.array([_is_paper(ds, s) for s in ds.set.values])
    for is_paper, sel in ((True, paper), (False, ~paper)):
        if not sel.any():
            continue
        worst = int(np.argmax(np.where(sel, dev, -1)))
        out.append(check("Mean contact radius approximately independent of v (Sect. 5.3, Fig. 13b)"
                         + ("" if is_paper else ", our sets"),
                         f"within {100 * RADIUS_SPREAD:g} % of its mean for every set",
                         f"max deviation {100 * dev[worst]:.1f} % ({_values(ds, ds.set.values[worst])}; "
                         f"{int(sel.sum())} set{'s' if sel.sum() > 1 else ''})", bool(np.all(dev[sel] < RADIUS_SPREAD)),
                         "'approximately independent' read as within 15 % (the paper gives no number)"
                         + ("" if is_paper else "; " + ours), kind="paper" if is_paper else "extension", mutations=(big_a,) if is_paper else ()))
    return out + precision_checks(ds)


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, ax = plt.subplots(1, 3, figsize=(15, 4))
    for s in ds.set.values:
        ax[0].semilogx(ds.v / UM, ds.contact_area.sel(set=s), "o-", label=f"(lam, A) = {_values(ds, s)}")
        ax[1].semilogx(ds.v / UM, ds.mean_contact_radius.sel(set=s) / UM, "o-")
        ax[2].semilogx(ds.v / UM, ds.friction_coefficient.sel(set=s), "o-")
    ax[0].legend()
    ax[0].set(xlabel="v [um/s]", ylabel="steady area fraction")
    ax[1].set(xlabel="v [um/s]", ylabel="mean contact radius [um]")
    ax[2].set(xlabel="v [um/s]", ylabel="steady mu (Fig. 14d)")
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="rough-contact/fig13",
    description=("Hulikal et al. Fig. 13 (and 14d): steady contact area, mean contact radius and steady mu against v "
                 "for (lambda, A) in {(1,0.1),(1,1),(0.1,0.1),(0.1,1)} and ours (1,10), Boussinesq, 100 MPa, 512^2." + QUICK_VELOCITY_NOTE),
    config=CONFIG, run=None, derive=derive, refine=refine, post=post, checks=checks, plot=plot,
    study_map=parallel_map, units={"axes.protocol.velocities": "m/s", "analysis.map_velocities": "m/s"},
    quick={**QUICK_BASE, "model.surface_mx": 128, "protocol.distances": [30.0 * UM],
           "axes.analysis.set": ["fig13a_1", "fig13a_2", "fig13a_3", f"{OURS}_1"],
           "axes.protocol.velocities": [[1.0 * UM], [10.0 * UM], [100.0 * UM]], "analysis.map_set": [1.0, 1.0],
           **QUICK_DOUBLE},
    references=REFS, slow=True, derived=DERIVED, moved=MOVED,
))
