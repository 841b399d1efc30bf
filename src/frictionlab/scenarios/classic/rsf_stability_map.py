r"""``classic/rsf-stability-map``: stability of a rate-and-state spring-slider, stiffness x velocity.

A study over two axes of the ``classic/rsf-stability`` experiment -- a slider of mass M on a
spring K, driven at V, aging-law rate-and-state friction, state perturbed by 2 % -- the spring
stiffness (``axes.system.stiffness``, multiples of k_c) and the driving velocity
(``axes.protocol.v``), with
:math:`k_c = (b - a) N / D_c` the quasi-static critical stiffness. Linearising
:math:`M \ddot x = K (V t - x) - \mu N` about steady sliding (with
:math:`\phi = \ln(v/V)`, :math:`\psi = \ln(V\theta/D_c)`, :math:`s = V/D_c`, aging law
:math:`\psi' = -s(\phi + \psi)`) gives the characteristic cubic

.. math::
    M V \lambda^3 + (M V s + a N)\lambda^2 + (K V - (b - a) N s)\lambda + K V s = 0,

whose Hopf boundary (:math:`c_1 c_2 = c_0 c_3`) is the inertial critical stiffness

.. math::
    K_{cr}(V) = \frac{(b - a) N}{D_c}\Big(1 + \frac{M V^2}{a N D_c}\Big)

(Rice & Ruina 1983; Gu et al. 1984): steady sliding is unstable below the curve and stable
above it. Each point runs for a fixed slip (``analysis.slip_distance``; ``derive`` sets its
duration, step, save interval, initial state and the spring's preload from V) and the post step
reports the growth of the oscillation of :math:`\phi` (peak-to-peak over the last 30 % of the
run divided by that over the first 10 %). The map draws this growth with :math:`K_{cr}(V)/k_c`
over it.

Notes
-----
M = 1 kg, N = 1 N and the granite-typical preset put the inertial turn-up of the boundary
(:math:`M V^2 / (a N D_c) = 1` at V = 0.32 mm/s) inside the velocity range. Points within
25 % of :math:`K_{cr}` grow or decay too slowly to classify over the simulated slip and are
left out of the checks (they are still drawn).

The paper checks compare the map with Rice & Ruina's (1983) K_cr(V) at the stated
granite-typical parameters (``rsf_stability.PRINTED``; the springs are multiples of that k_c),
so a wrong D_c moves the run and not the boundary: D_c read as 20 um or 5 um is declared at each
velocity where it moves the closed-form boundary into another cell of the stiffness grid, at
least 25 % from every grid point.
"""

from __future__ import annotations

import copy
import math

import numpy as np
import xarray as xr

from ..base import Mutation, Scenario, check, register_scenario
from ...reference.rate_state import critical_stiffness
from . import rsf_stability

__all__ = ["critical_stiffness_inertial"]


def critical_stiffness_inertial(v, a: float, b: float, dc: float, normal_force: float, mass: float):
    r"""Critical stiffness of a driven spring-slider with inertia, aging law [N/m].

    :math:`K_{cr} = (b - a) N / D_c \, (1 + M V^2 / (a N D_c))` (Rice & Ruina 1983;
    Gu et al. 1984). ``v`` [m/s] may be an array.
    """
    v = np.asarray(v, dtype=float)
    return critical_stiffness(a, b, dc, normal_force) * (1.0 + mass * v**2 / (a * normal_force * dc))


def _springs(ratios) -> list[float]:
    """The springs [N/m] at ``ratios`` x Rice & Ruina's k_c at the stated parameters."""
    return [float(r) * rsf_stability.k_critical_printed() for r in ratios]


# the rsf-stability experiment with the velocity, and what follows from it, set per point (derive)
CONFIG = {k: copy.deepcopy(v) for k, v in rsf_stability.CONFIG.items() if k != "axes"}
del CONFIG["model"]["v_init"], CONFIG["protocol"]["v"], CONFIG["protocol"]["duration_s"], CONFIG["system"]["v0"]
del CONFIG["integrator"]["dt"], CONFIG["integrator"]["save_dt"]
CONFIG["axes"] = {"system": {"stiffness": _springs([0.5, 0.8, 1.6, 2.5, 4.0, 6.3, 10.0, 16.0, 25.0])},
                  "protocol": {"v": [1e-5, 1e-4, 3e-4, 6e-4, 1e-3]}}
CONFIG["analysis"] = {"slip_distance": 1e-3, "samples": 4000}


def derive(point, cfg: dict) -> dict:
    """Per point from its velocity V: a run of ``analysis.slip_distance`` saved at ``analysis.samples``
    samples, a step of 1e-3 Dc / V, the state 2 % above its steady value, the drive's initial velocity
    and the spring's preload (the steady friction at V)."""
    a = cfg["analysis"]
    v = float(point["protocol"]["v"])
    dc = float(rsf_stability._model(point).dc)
    duration = float(a["slip_distance"]) / v
    return {"protocol.duration_s": duration, "system.v0": v, "model.v_init": v / 1.02,
            "integrator.dt": 1e-3 * dc / v, "integrator.save_dt": duration / float(a["samples"]),
            **rsf_stability.derive(point, cfg)}


def growth(phi: np.ndarray) -> dict[str, float]:
    """Growth of the oscillation of phi = ln(v/V): peak-to-peak over the last 30 % over that of the first 10 %."""
    n = phi.size
    first = float(np.ptp(phi[: max(n // 10, 2)]))
    last = float(np.ptp(phi[int(0.7 * n):]))
    g = last / first if first > 0 else math.inf
    return {"growth": g, "log10_growth": math.log10(g) if g > 0 else -math.inf,
            "min_log_velocity_ratio": float(phi.min()), "max_log_velocity_ratio": float(phi.max())}


def post(result, cfg: dict) -> xr.Dataset:
    """The oscillation growth at every (K / k_c, V) and the closed-form boundary K_cr(V) / k_c."""
    kc_printed = rsf_stability.k_critical_printed()
    ratios = [float(f"{k / kc_printed:.12g}") for k in result.axis_values("system.stiffness")]  # labels, 12 digits
    vels = [float(v) for v in result.axis_values("protocol.v")]
    metrics: dict[str, np.ndarray] = {}
    for p, ds in zip(result.points, result.datasets):
        c = dict(p.coords)
        i, j = result.axis_values("system.stiffness").index(c["system.stiffness"]), vels.index(c["protocol.v"])
        phi = np.log(np.maximum(np.abs(ds.slip_velocity.values), 1e-300) / float(c["protocol.v"]))
        for name, value in growth(phi).items():
            metrics.setdefault(name, np.full((len(ratios), len(vels)), np.nan))[i, j] = value
    out = xr.Dataset({k: (("stiffness_ratio", "velocity"), v) for k, v in metrics.items()},
                     coords={"stiffness_ratio": ("stiffness_ratio", ratios, {"units": "1", "long_name": "K / k_c"}),
                             "velocity": ("velocity", vels, {"units": "m/s", "long_name": "driving velocity V"})})
    model = rsf_stability._model(cfg)
    fn = float(cfg["protocol"]["normal_force_value"])
    mass = float(cfg["system"]["mass"])
    kc = critical_stiffness(model.a, model.b, model.dc, fn)
    kcr = critical_stiffness_inertial(out.velocity.values, model.a, model.b, model.dc, fn, mass)
    out["critical_ratio"] = ("velocity", kcr / kc, {"units": "1", "long_name": "K_cr(V) / k_c, closed form"})
    out.attrs.update(k_c=kc, mass=mass, a=model.a, b=model.b, dc=model.dc, normal_force=fn)
    return out


_DC_LONG = Mutation("Dc read as 20 um (k_c halves, the inertial term doubles)", {"model.dc": 2e-5})
_DC_SHORT = Mutation("Dc read as 5 um (k_c doubles, the inertial term halves)", {"model.dc": 5e-6})


def critical_ratio_printed(v, mass: float) -> np.ndarray:
    """K_cr(V) / k_c of Rice & Ruina (1983) at the stated parameters (``rsf_stability.PRINTED``): the
    expectation of the paper checks, so a mutated model moves the run and not the boundary."""
    p = rsf_stability.PRINTED
    return (critical_stiffness_inertial(v, p["a"], p["b"], p["dc"], p["normal_force"], mass)
            / rsf_stability.k_critical_printed())


def _separating(v: float, mass: float, grid) -> tuple:
    """The Dc mutations under which the bracket at ``v`` must change: the mutated K_cr (closed form) lies in
    another cell of the stiffness grid and at least 25 % from every grid point (a point nearer the boundary
    grows or decays too slowly to classify, as in the checks)."""
    p = rsf_stability.PRINTED
    grid = np.sort(np.asarray(grid, dtype=float))
    crit = float(critical_ratio_printed(v, mass))
    out = []
    for m in (_DC_LONG, _DC_SHORT):
        mc = float(critical_stiffness_inertial(v, p["a"], p["b"], m.overrides["model.dc"], p["normal_force"], mass)
                   / rsf_stability.k_critical_printed())
        other_cell = np.searchsorted(grid, mc) != np.searchsorted(grid, crit)
        if other_cell and np.all(np.abs(np.log(grid / mc)) >= math.log(1.25)):
            out.append(m)
    return tuple(out)


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    n_fail = int(np.count_nonzero(~np.isfinite(ds.growth.values)))  # a run that failed stops the study itself
    out.append(check("every point of the map runs (a finite growth at every point)", "0 failed points", str(n_fail),
                     n_fail == 0, kind="verification"))
    mass = float(cfg["system"]["mass"])
    wrong, n_cls = [], 0
    for v in ds.velocity.values:
        crit = float(critical_ratio_printed(v, mass))
        for r in ds.stiffness_ratio.values:
            g = float(ds.growth.sel(velocity=v, stiffness_ratio=r))
            rel = r / crit
            if not math.isfinite(g) or 0.8 <= rel <= 1.25:
                continue
            n_cls += 1
            if (rel < 0.8) != (g > 1.0):
                wrong.append(f"V={v:g}, K/k_c={r:g}: growth {g:.3g}")
    out.append(check("points below Rice & Ruina's (1983) K_cr(V) = (b-a)N/Dc (1 + M V^2/(a N Dc)) grow, points above "
                     "decay (|K/K_cr - 1| >= 20-25 %)", f"all {n_cls} classified as the closed form says",
                     f"{n_cls - len(wrong)}/{n_cls}" + (f"; wrong: {'; '.join(wrong)}" if wrong else ""),
                     not wrong and n_cls > 0,
                     ambiguity=f"growth judged over a finite slip ({cfg['analysis']['slip_distance']:g} m); points within "
                               "-20 %/+25 % of K_cr are too slow to classify and are not counted; K_cr at the stated "
                               "granite-typical parameters (a 0.010, b 0.015, Dc 10 um)",
                     mutations=(_DC_LONG, _DC_SHORT)))
    # the boundary bracket per velocity: the closed form lies between the largest growing and the smallest decaying
    # stiffness (a velocity where every point grows, or every point decays, brackets nothing: the check fails)
    for v in ds.velocity.values:
        crit = float(critical_ratio_printed(v, mass))
        g = ds.growth.sel(velocity=v)
        grow = [float(r) for r, x in zip(ds.stiffness_ratio.values, g.values) if x > 1.0]
        decay = [float(r) for r, x in zip(ds.stiffness_ratio.values, g.values) if x < 1.0]
        lo, hi = (max(grow) if grow else math.nan), (min(decay) if decay else math.nan)
        out.append(check(f"V = {v:g} m/s: measured stability boundary brackets Rice & Ruina's (1983) "
                         "K_cr/k_c = 1 + M V^2/(a N Dc)", f"{crit:.3g} in [largest growing, smallest decaying]",
                         f"[{lo:g}, {hi:g}]", bool(grow and decay and lo < crit < hi and lo < hi),
                         ambiguity="bracket as fine as the stiffness grid; the closed form is the linear (small "
                                   "perturbation) boundary, at the stated granite-typical parameters",
                         mutations=_separating(float(v), mass, ds.stiffness_ratio.values)))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, ax = plt.subplots(figsize=(6.4, 4.6))
    lg = ds.log10_growth.transpose("stiffness_ratio", "velocity")
    mesh = ax.pcolormesh(ds.velocity.values, ds.stiffness_ratio.values, np.clip(lg.values, -2, 2), cmap="RdBu_r",
                         vmin=-2, vmax=2, shading="nearest")
    fig.colorbar(mesh, ax=ax, label="log10 oscillation growth, clipped to +-2 (red: unstable)")
    vg, rg = np.meshgrid(ds.velocity.values, ds.stiffness_ratio.values)
    grows = lg.values > 0
    ax.plot(vg[grows], rg[grows], "^", color="darkred", ms=6, label="grows (unstable)")
    ax.plot(vg[~grows], rg[~grows], "o", color="navy", ms=5, label="decays (stable)")
    vv = np.geomspace(float(ds.velocity.min()) / 1.5, float(ds.velocity.max()) * 1.5, 200)
    crit = critical_stiffness_inertial(vv, ds.attrs["a"], ds.attrs["b"], ds.attrs["dc"], ds.attrs["normal_force"],
                                       ds.attrs["mass"]) / ds.attrs["k_c"]
    ax.plot(vv, crit, "k-", lw=2, label=r"$K_{cr}/k_c = 1 + M V^2/(a N D_c)$")
    ax.set(xscale="log", yscale="log", xlim=(vv[0], vv[-1]), xlabel="driving velocity V [m/s]",
           ylabel="stiffness K / k_c [1]", title="Rate-and-state spring-slider stability map")
    ax.legend(loc="upper left", fontsize=8)
    return fig


register_scenario(Scenario(
    name="classic/rsf-stability-map",
    description="""Stability map of a rate-and-state spring-slider (aging law, arcsinh form, granite-typical, M = 1 kg, N = 1
        N): classic/rsf-stability over the driving velocity V (10 um/s to 1 mm/s) and K / k_c, each point run for 1
        mm of slip, with the closed-form inertial critical stiffness K_cr = (b - a) N / Dc (1 + M V^2 / (a N Dc))
        drawn over it.""",
    config=CONFIG, post=post, derive=derive, checks=checks, plot=plot,
    quick={"axes.system.stiffness": _springs([0.5, 1.6, 4.0, 16.0]), "axes.protocol.v": [1e-5, 3e-4, 1e-3],
           "analysis.samples": 2000},
    derived={"protocol.duration_s": "analysis.slip_distance (each point slides that far at its velocity)",
             "integrator.save_dt": "analysis.samples (samples per point)",
             "integrator.dt": "axes.protocol.v (the step is 1e-3 Dc / V)",
             "model.v_init": "axes.protocol.v (the state starts 2 % above its steady value at V)",
             "system.v0": "axes.protocol.v (the drive velocity)",
             "system.preload": "axes.protocol.v or the model (the spring carries the steady friction at V)"},
    moved={"map.stiffness_ratios": "axes.system.stiffness = [...] (N/m; k_c = 500 N/m at the stated parameters)",
           "map.velocities": "axes.protocol.v", "map.slip_distance": "analysis.slip_distance",
           "map.samples": "analysis.samples",
           "map": "the map is a study run in this process: axes.system.stiffness x axes.protocol.v, "
                  "analysis.slip_distance and analysis.samples (no scheduler, workers or store)"},
    references=["Ruina 1983", "Rice & Ruina 1983", "Gu et al. 1984"],
    slow=True,
))
