"""Rough-surface sliding benchmarks (issue 7): steps/s of the sliding loop and Fig. 14 wall time.

* Sliding throughput at 128^2 and 256^2 (and 512^2 on 1024 x 512 in the full run): Table 1
  viscoelastic material, Boussinesq, 100 MPa, v = 10, 0.25 um of slip per step (our default; the paper prints none),
  cubic-spline shifted heights, warm-started Polonsky-Keer solves; measured after a short
  run-in (first solves are cold and compile the numba kernels). Reported per step: wall time,
  process CPU time, mean PK iterations and operator (FFT) products, solver and viscoelastic
  history together (issue 17); at 512^2 the paper-size estimates of Figs. 13 and 14
  (steps x time per step). ``python -m frictionlab.benchmarks.bench_rough_sliding [full] [N ...]`` prints
  the rows for chosen sizes.
* Single precision in the sliding steps (``sliding_fft_precision``): CPU time per steady step
  double vs single and the differences of mu, area, dilatation, mean contact radius after N
  steps (``python -m frictionlab.benchmarks.bench_rough_sliding precision [N ...] [steps=300]``).
* The two viscoelastic sets of Fig. 14 that bound the sliding cost (issue 32): the default
  Table 1 set (lambda, A) = (1, 0.2) and the strong-creep red set (1, 10), at 256^2 and 512^2 and
  v = 1 and 10 (the red set's area and iterations grow as v falls), float32 sliding products as
  the paper-size profiles: process CPU and wall seconds per steady step, PK iterations, and the
  cluster preconditioner's builds, blocks copied / updated / refactored and CPU share per step.
  The two sets run interleaved in blocks of 25 steps (a shared machine's load hits both alike);
  the load average is printed. ``python -m frictionlab.benchmarks.bench_rough_sliding sets [N ...]
  [v=1,10] [steps=200]``.
* Full Figs. 13 and 14 estimated from 512^2 per-step CPU costs of the sets and velocities they
  run (:func:`figure_minutes`: steps x cost per run, runs on 2 workers):
  ``python -m frictionlab.benchmarks.bench_rough_sliding figures [steps=16]`` (minutes of CPU).
* ``rough-contact/fig14`` quick profile wall time (64^2 patch, two viscoelastic sets, Boussinesq
  and mean field, jump and reference runs, rate-and-state fits).

All on the machine's cores (scipy.fft uses every core; the dev box has 2).
"""

from __future__ import annotations

import time

from frictionlab.contact.rough.numerics import SolverOptions
from frictionlab.contact.rough.model import RoughContact, load_from_pressure
from frictionlab.contact.rough.sliding import run_sliding
from frictionlab.contact.rough.surface import make_surface
from frictionlab.protocols import ConstantVelocity


def _throughput(n: int, n_steps: int) -> dict[str, float]:
    """Steady sliding at ``n^2``: wall and CPU seconds, PK iterations and operator products per
    step (products counted by the operator: solver and history field together)."""
    mx = 2 * n if n >= 512 else n + n_steps // 4 + 40
    h = make_surface(mx, n, beta_x=10.0, seed=0)
    W = load_from_pressure(100e6, n, n)
    m = RoughContact()
    # run-in: loading + a few steps (cold solve, compilation)
    _, sim = run_sliding(m, h, ConstantVelocity(v=10e-6, duration_s=0.1), W=W, nx=n, ny=n, return_sim=True)
    n0 = sim.base.n_products
    t, c = time.perf_counter(), time.process_time()
    ds = run_sliding(m, h, ConstantVelocity(v=10e-6, duration_s=n_steps * 0.025), W=W, nx=n, ny=n, sim=sim)
    el, cpu = time.perf_counter() - t, time.process_time() - c
    return {"s_per_step": el / n_steps, "cpu_per_step": cpu / n_steps,
            "it_per_step": float(ds.solver_iterations.values[1:].mean()),
            "products_per_step": (sim.base.n_products - n0) / n_steps, "fft_workers": sim.base.workers}


def tolerance_study(n: int, n_steps: int) -> list[tuple[str, float, str, str]]:
    """Sliding convergence study: mu and contact area of every step vs ``tol_sliding``
    (reference 1e-10), iterations per step; Table 1 viscoelastic, v = 10, 0.25 um/step."""
    import numpy as np

    h = make_surface(n + n_steps // 4 + 60, n, beta_x=10.0, seed=0)
    W = load_from_pressure(100e6, n, n)
    prot = ConstantVelocity(v=10e-6, duration_s=n_steps * 0.025)
    out, ref = [], None
    for tol in (1e-10, 1e-8, 1e-6, 1e-5, 1e-4, 1e-3):
        ds = run_sliding(RoughContact(), h, prot, W=W, nx=n, ny=n, numerics=SolverOptions(tol_sliding=tol))
        mu, a = ds.friction_coefficient.values, ds.contact_area.values
        if ref is None:
            ref = (mu, a, ds.dilatation.values)
        out.append((f"sliding tolerance study {n}^2, tol {tol:g}: max |mu - mu(1e-10)|", float(np.abs(mu - ref[0]).max()),
                    "1", f"{ds.solver_iterations.values[1:].mean():.1f} it/step; max |dA| "
                    f"{np.abs(a - ref[1]).max():.0f} um^2, max |d diff| {np.abs(ds.dilatation.values - ref[2]).max():.1e}"))
    return out


def precision_study(n: int, n_steps: int) -> list[tuple[str, float, str, str]]:
    """``fft_precision = "single"`` (float32 transforms, scipy.fft) against double at tol 1e-6:
    CPU time of the run (loading included) and the largest difference of mu, area and dilatation."""
    import numpy as np

    h = make_surface(n + n_steps // 4 + 60, n, beta_x=10.0, seed=0)
    W = load_from_pressure(100e6, n, n)
    prot = ConstantVelocity(v=10e-6, duration_s=n_steps * 0.025)
    res: dict = {}
    for prec in ("double", "single", "double", "single"):  # alternated; the faster of two runs
        num = SolverOptions(fft_precision=prec, tol=1e-6, tol_sliding=1e-6, fft_workers=1)
        c = time.process_time()
        ds = run_sliding(RoughContact(), h, prot, W=W, nx=n, ny=n, numerics=num)
        c = time.process_time() - c
        res[prec] = (ds, min(c, res[prec][1]) if prec in res else c)
    (a, ta), (b, tb) = res["double"], res["single"]
    dmu = float(np.abs(a.friction_coefficient.values - b.friction_coefficient.values).max())
    return [(f"single-precision FFT at {n}^2 sliding: CPU time single/double", tb / ta, "1",
             f"max |d mu| {dmu:.1e}, max |dA| {np.abs(a.contact_area.values - b.contact_area.values).max():.0f} um^2, "
             f"max |d dilatation| {np.abs(a.dilatation.values - b.dilatation.values).max():.1e} (option, not default)")]


def sliding_precision_rows(n: int, n_steps: int) -> list[tuple[str, float, str, str]]:
    """``sliding_fft_precision = "single"`` (float32 products in the sliding steps only; the
    loading at tol 1e-8 stays double) against double on the same ``n^2`` surface (Table 1 VE,
    100 MPa, v = 10, 0.25 um/step, tol_sliding 1e-6): process CPU seconds per steady sliding
    step (after the same run-in; the two runs interleaved in blocks so that the load of a
    shared machine hits both alike), PK iterations per step (max and mean), and after
    ``n_steps`` the largest difference over all steps of mu, contact area, dilatation and mean
    contact radius."""
    import numpy as np

    mx = 2 * n if n >= 512 else n + n_steps // 4 + 60
    h = make_surface(mx, n, beta_x=10.0, seed=0)
    W = load_from_pressure(100e6, n, n)
    m = RoughContact()
    block = 25
    sims, cpu, parts = {}, {"double": 0.0, "single": 0.0}, {"double": [], "single": []}
    for prec in ("double", "single"):
        num = SolverOptions(sliding_fft_precision=prec, fft_workers=1)
        _, sims[prec] = run_sliding(m, h, ConstantVelocity(v=10e-6, duration_s=0.1), W=W, nx=n, ny=n, numerics=num,
                                    return_sim=True)
    for _ in range(max(1, n_steps // block)):
        for prec in ("double", "single"):
            c = time.process_time()
            parts[prec].append(run_sliding(m, h, ConstantVelocity(v=10e-6, duration_s=block * 0.025), W=W, nx=n, ny=n,
                                           sim=sims[prec]))
            cpu[prec] += time.process_time() - c
    k = max(1, n_steps // block) * block
    cat = {p: {v: np.concatenate([d[v].values for d in parts[p]]) for v in
               ("friction_coefficient", "contact_area", "dilatation", "mean_contact_radius", "solver_iterations")}
           for p in parts}
    d, s = cat["double"], cat["single"]
    diff = {v: float(np.abs(d[v] - s[v]).max()) for v in ("friction_coefficient", "contact_area", "dilatation",
                                                          "mean_contact_radius")}
    rel_a = diff["contact_area"] / float(np.abs(d["contact_area"]).max())
    return [(f"sliding single precision {n}^2: CPU s/step double", cpu["double"] / k, "s/step",
             f"{k} steady steps; it/step mean {d['solver_iterations'].mean():.2f} max {d['solver_iterations'].max():.0f}"),
            (f"sliding single precision {n}^2: CPU s/step single", cpu["single"] / k, "s/step",
             f"single/double {cpu['single'] / cpu['double']:.3f}; it/step mean {s['solver_iterations'].mean():.2f} "
             f"max {s['solver_iterations'].max():.0f}"),
            (f"sliding single precision {n}^2 over {k} steps: max |d mu|", diff["friction_coefficient"], "1",
             f"max |dA| {diff['contact_area']:.3g} um^2 (rel {rel_a:.1e}), max |d dilatation| "
             f"{diff['dilatation']:.1e} um, max |d mean contact radius| {diff['mean_contact_radius']:.1e} um; steps "
             f"with a different area {int(np.sum(d['contact_area'] != s['contact_area']))}/{k}, |mean d mu| over the "
             f"steps {abs(float(np.mean(d['friction_coefficient'] - s['friction_coefficient']))):.1e}")]


#: the viscoelastic sets (lambda, A) [1/s] of the per-set rows: Table 1's and Fig. 14's red set
SETS = {"default (1, 0.2)": (1.0, 0.2), "red (1, 10)": (1.0, 10.0)}


def set_rows(n: int, n_steps: int, v: float, block: int = 25) -> list[tuple[str, float, str, str]]:
    """Per steady sliding step at ``n^2`` and ``v`` [um/s] for each of :data:`SETS` (0.25 um/step,
    100 MPa, ``sliding_fft_precision = "single"`` and one FFT thread as the paper-size profiles):
    process CPU and wall seconds, PK iterations, preconditioner builds, blocks copied / updated /
    refactored, and the builds' share of the CPU time. After a run-in of 8 steps from the t = 0+
    state, ``n_steps`` steps in blocks of ``block``, the sets alternating."""
    import os

    import numpy as np

    from frictionlab.contact.rough.numerics import SolverOptions

    mx = 2 * n if n >= 512 else n + n_steps // 4 + 60
    h = make_surface(mx, n, beta_x=10.0, seed=0)
    W = load_from_pressure(100e6, n, n)
    num = SolverOptions(sliding_fft_precision="single", fft_workers=1)
    dt = 0.25 / v
    state = {}
    for name, (lam, A) in SETS.items():
        m = RoughContact(lams=(lam,), As=(A,))
        _, sim = run_sliding(m, h, ConstantVelocity(v=v * 1e-6, duration_s=8 * dt), W=W, nx=n, ny=n, numerics=num,
                             return_sim=True)
        state[name] = {"m": m, "sim": sim, "cpu": 0.0, "wall": 0.0, "its": [], "steps": 0, "pc0": _totals(sim)}
    k = max(1, n_steps // block)
    load0 = os.getloadavg()[0]
    for _ in range(k):
        for name, st in state.items():
            t, c = time.perf_counter(), time.process_time()
            ds = run_sliding(st["m"], h, ConstantVelocity(v=v * 1e-6, duration_s=block * dt), W=W, nx=n, ny=n,
                             sim=st["sim"])
            st["wall"] += time.perf_counter() - t
            st["cpu"] += time.process_time() - c
            st["its"].append(ds.solver_iterations.values[1:])
            st["steps"] += block
    load = 0.5 * (load0 + os.getloadavg()[0])
    out = []
    for name, st in state.items():
        K = st["steps"]
        tot = {key: x - st["pc0"][key] for key, x in _totals(st["sim"]).items()}
        its = np.concatenate(st["its"])
        what = f"{n}^2 v={v:g} {name}"
        out += [(f"sliding {what}: CPU s/step", st["cpu"] / K, "s/step",
                 f"{K} steps, wall {st['wall'] / K:.3g} s/step, load average {load:.1f} on {os.cpu_count()} cores"),
                (f"sliding {what}: PK iterations/step", float(its.mean()), "1", f"max {its.max():.0f}"),
                (f"sliding {what}: preconditioner builds/step", tot["builds"] / K, "1",
                 f"blocks per build {tot['blocks'] / max(tot['builds'], 1):.0f}: copied {tot['copied'] / K:.0f}, "
                 f"updated {tot['updated'] / K:.0f}, "
                 f"refactored {(tot['blocks'] - tot['copied'] - tot['updated']) / K:.0f}"
                 f" per step; builds {100 * tot['cpu_s'] / st['cpu']:.0f} % of the CPU time")]
    return out


def _totals(sim) -> dict[str, float]:
    """The cluster preconditioner's running totals of a sliding state (builds, blocks, CPU s)."""
    pc = getattr(sim.base, "_pc_cache", (None, None))[1]
    totals = getattr(pc, "totals", None)  # None: no preconditioner (or a build without totals: 0)
    return dict(totals) if totals is not None else {"builds": 0, "copied": 0, "updated": 0, "blocks": 0, "cpu_s": 0.0}


#: (lambda, A) sets and velocities whose 512^2 per-step CPU cost the figure estimate measures: by
#: the time-scaling invariance (Sect. 4.2) a set (lambda, A) at v costs what (1, A / lambda) costs
#: at v / lambda, so the Fig. 13 sets reduce to A / lambda = 10, 1, 0.1
FIGURE_COSTS = [((1.0, 10.0), v) for v in (1.0, 3.0, 10.0, 30.0, 100.0)] + \
    [((1.0, 1.0), v) for v in (1.0, 10.0, 100.0)] + [((1.0, 0.1), 1.0)]


def step_costs(n_steps: int = 16, n: int = 512) -> dict[tuple[float, float], list[tuple[float, float]]]:
    """Process CPU seconds per sliding step (float32 products, one FFT thread, 0.25 um/step, 100 MPa)
    of each :data:`FIGURE_COSTS` entry: ``n_steps`` steps after 8 from the t = 0+ state.
    Returns ``{(1, A / lambda): [(v, s/step), ...]}``."""
    from frictionlab.contact.rough.numerics import SolverOptions

    h = make_surface(2 * n, n, beta_x=10.0, seed=0)
    W = load_from_pressure(100e6, n, n)
    num = SolverOptions(sliding_fft_precision="single", fft_workers=1)
    out: dict[tuple[float, float], list[tuple[float, float]]] = {}
    for (lam, A), v in FIGURE_COSTS:
        m = RoughContact(lams=(lam,), As=(A,))
        dt = 0.25 / v
        _, sim = run_sliding(m, h, ConstantVelocity(v=v * 1e-6, duration_s=8 * dt), W=W, nx=n, ny=n, numerics=num,
                             return_sim=True)
        c = time.process_time()
        run_sliding(m, h, ConstantVelocity(v=v * 1e-6, duration_s=n_steps * dt), W=W, nx=n, ny=n, sim=sim)
        out.setdefault((1.0, A / lam), []).append((v, (time.process_time() - c) / n_steps))
    return out


def figure_minutes(costs: dict[tuple[float, float], list[tuple[float, float]]],
                   workers: int = 2) -> dict[str, tuple[float, float]]:
    """Estimated minutes of the full Figs. 13 and 14 (their Boussinesq 512^2 sliding runs) from
    per-step costs (:func:`step_costs`): each run's steps (slip / 0.25 um) times the cost of its
    set at its velocity (log-linear in v between the measured velocities, the end values beyond),
    the runs handed in task order to the first free of ``workers`` processes. Returns
    ``{figure: (minutes on the workers, CPU minutes of one process)}``. Left out: the loading,
    the precision controls, the mean-field runs, Fig. 14's reference curve and RSF fits."""
    import math

    import numpy as np

    from frictionlab.scenarios.rough_contact import fig13, fig14

    def cost(lam: float, A: float, v: float) -> float:
        pts = sorted(costs[(1.0, A / lam)])
        return float(np.interp(math.log(v / lam), [math.log(x) for x, _ in pts], [y for _, y in pts]))

    def makespan(runs: list[float]) -> float:
        free = [0.0] * workers
        for t in runs:
            free[free.index(min(free))] += t
        return max(free)

    um = 1e-6  # the configs are SI; the costs are per um/s and the steps s_max element spacings (dx = 1 um)
    c13, c14 = fig13.CONFIG, fig14.CONFIG
    ds13, ds14 = float(c13["integrator"]["s_max"]), float(c14["integrator"]["s_max"])
    n13 = round(float(c13["protocol"]["distances"][0]) / um / ds13)
    v13 = [float(v[0]) / um for v in c13["axes"]["protocol"]["velocities"]]
    runs13 = [n13 * cost(lam, A, v) for lam, A in fig13.run_sets(c13).values() for v in v13]
    seg = round(float(c14["protocol"]["distances"][0]) / um / ds14)
    v14 = [float(v) / um for v in c14["protocol"]["velocities"]]
    runs14 = []
    for lam, A in fig14.run_sets(c14).values():  # the jump run and the reference at the first velocity
        runs14 += [seg * sum(cost(lam, A, v) for v in v14), seg * len(v14) * cost(lam, A, v14[0])]
    return {name: (makespan(r) / 60, sum(r) / 60) for name, r in (("fig13", runs13), ("fig14", runs14))}


def figure_rows(n_steps: int = 16) -> list[tuple[str, float, str, str]]:
    """:func:`figure_minutes` of :func:`step_costs` as rows."""
    import os

    load = os.getloadavg()[0]
    costs = step_costs(n_steps)
    out = [(f"512^2 sliding CPU s/step, (lambda, A) = {key} at v = {v:g}", c, "s/step",
            f"{n_steps} steps after 8 from t = 0+") for key, pts in costs.items() for v, c in pts]
    for name, (ms, cpu) in figure_minutes(costs).items():
        target = "<= 15 min (issue 32)" if name == "fig14" else "<= 60 min (issue 32)"
        out.append((f"rough-contact/{name} full estimate, 2 workers (Boussinesq sliding runs)", ms, "min",
                    f"{target}; {cpu:.1f} CPU min in one process; load average {load:.1f} at the start"))
    return out


def paper_size_steps() -> dict[str, int]:
    """Boussinesq 512^2 sliding steps of the full (paper-size) profiles of Figs. 13 and 14,
    from their configurations: slip / s_max per run, summed over the runs."""
    from frictionlab.scenarios.rough_contact import fig13, fig14

    c13, c14 = fig13.CONFIG, fig14.CONFIG
    ds13 = float(c13["integrator"]["s_max"])
    um = 1e-6  # the configs are SI; s_max is in element spacings (dx = 1 um)
    n13 = len(fig13.run_sets(c13)) * len(c13["axes"]["protocol"]["velocities"]) * round(
        float(c13["protocol"]["distances"][0]) / um / ds13)
    p14 = c14["protocol"]
    ds14 = float(c14["integrator"]["s_max"])
    per_run = round(len(p14["velocities"]) * float(p14["distances"][0]) / um / ds14)
    n_bous = sum(1 for i in c14["axes"]["model"]["interaction"] if i == "boussinesq")
    n14 = len(fig14.run_sets(c14)) * n_bous * 2 * per_run  # jump run + constant-velocity reference on the same path
    return {"fig13": n13, "fig14": n14}


def paper_size_estimates(s_per_step: float, basis: str = "wall") -> list[tuple[str, float, str, str]]:
    """Wall time of the full Figs. 13/14 = 512^2 steps x measured time per 512^2 step (one
    process; ``--workers 2`` divides it by at most 2 on two cores). ``basis``: what
    the time per step is (wall time, or the process CPU time, the idle-machine proxy when the
    machine is shared)."""
    out = []
    for name, n in paper_size_steps().items():
        target = "< 15 min on 2 cores (issue 17)" if name == "fig14" else "< 1 h on 2 cores (issue 17)"
        out.append((f"rough-contact/{name} full profile estimate: {n} steps x {s_per_step:.3g} s/step ({basis}, "
                    "1 process)", n * s_per_step / 60, "min", f"{target}; /2 at best with 2 workers"))
    return out


def sliding_rows(n: int, n_steps: int) -> list[tuple[str, float, str, str]]:
    r = _throughput(n, n_steps)
    what = f"{n}^2 (VE, Boussinesq, v=10, 0.25 um/step, {r['fft_workers']} FFT thread(s))"
    out = [(f"sliding time per step at {what}", r["s_per_step"], "s/step",
            "512^2: <= 0.5 s/step on a multi-core CPU (our target)" if n == 512 else "informational"),
           (f"sliding CPU time per step at {n}^2 (process)", r["cpu_per_step"], "s/step", "informational"),
           (f"mean PK iterations per sliding step at {n}^2", r["it_per_step"], "1", "<= 10 (issue 17)"),
           (f"operator products per sliding step at {n}^2 (solver + history)", r["products_per_step"], "1",
            "iterations + <= 1 (issue 17)")]
    if n == 512:
        out += paper_size_estimates(r["s_per_step"])
        out += paper_size_estimates(r["cpu_per_step"], "CPU time")
    return out


def run(quick: bool) -> list[tuple[str, float, str, str]]:
    out = []
    out += tolerance_study(64 if quick else 128, 40 if quick else 80)
    out += precision_study(128 if quick else 256, 40)
    out += set_rows(128, 50, 1.0) if quick else [r for n in (256, 512) for v in (1.0, 10.0)
                                                  for r in set_rows(n, 200, v)]
    out += [] if quick else figure_rows()
    out += sliding_precision_rows(128, 50) if quick else [r for n in (128, 256, 512) for r in sliding_precision_rows(n, 300)]
    sizes = [(128, 40), (256, 20)] if quick else [(128, 80), (256, 40), (512, 12)]
    for n, k in sizes:
        out += sliding_rows(n, k)
    from frictionlab.scenarios.base import get_scenario

    sc = get_scenario("rough-contact/fig14")
    t = time.perf_counter()
    sc.execute(quick=True)
    out.append(("rough-contact/fig14 quick profile wall time", time.perf_counter() - t, "s", "<= ~60 s"))
    return out


if __name__ == "__main__":
    import sys

    args = sys.argv[1:]
    ns = [int(a) for a in args if a.isdigit()]
    if "figures" in args:
        rows = figure_rows(int(next((a.split("=")[1] for a in args if a.startswith("steps=")), 16)))
    elif "sets" in args:
        k = int(next((a.split("=")[1] for a in args if a.startswith("steps=")), 200))
        vs = [float(x) for x in next((a.split("=")[1] for a in args if a.startswith("v=")), "1,10").split(",")]
        rows = [r for n in (ns or [256, 512]) for v in vs for r in set_rows(n, k, v)]
    elif "precision" in args:
        k = int(next((a.split("=")[1] for a in args if a.startswith("steps=")), 300))
        rows = [r for n in (ns or [128, 256, 512]) for r in sliding_precision_rows(n, k)]
    elif ns:
        rows = [r for n in ns for r in sliding_rows(n, {128: 80, 256: 40}.get(n, 12))]
    else:
        rows = run(quick="full" not in args)
    for row in rows:
        print(f"{row[0]}: {row[1]:.4g} {row[2]}  [{row[3]}]")
