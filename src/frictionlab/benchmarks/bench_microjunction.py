"""Microjunction model benchmarks: one junction creeping 1e6 s; a 1e4-junction GW ensemble.

``frictionlab bench microjunction [--quick]``.
"""

from __future__ import annotations

import time

import numpy as np


def run(quick: bool) -> list[tuple[str, float, str, str]]:
    from frictionlab.contact.microjunction import ForceHistory, Microjunction, integrate_junction
    from frictionlab.contact.microjunction.ensemble import JunctionEnsemble, integrate_ensemble

    out: list[tuple[str, float, str, str]] = []
    m = Microjunction()  # demo steel, C1 = 2.84 sigma_Y / E
    # warm-up (numba compilation)
    integrate_junction(m, ForceHistory.piecewise_linear([0.0, 1e-3], [20.0, 20.0]), initial=m.on_curve_state(20.0))
    t_end = 1e4 if quick else 1e6
    h = ForceHistory.piecewise_linear([0.0, t_end], [20.0, 20.0])
    t0 = time.perf_counter()
    sol = integrate_junction(m, h, initial=m.on_curve_state(20.0), rtol=1e-8, atol=1e-10)
    wall = time.perf_counter() - t0
    out.append((f"one junction, F*=20, {t_end:.0e} s of creep (DOP853, rtol 1e-8): wall time", wall, "s",
                "< 5 s"))
    out.append(("  accepted steps", float(sol.n_steps), "1", "-"))
    n = 1000 if quick else 10000
    ens = JunctionEnsemble(n_junctions=n, sigma_z=20e-9)
    slow = m.replace(c1=1.42e-6)
    t_hold = 100.0
    hh = ForceHistory.piecewise_linear([0.0, t_hold], [2.0 * n, 2.0 * n])
    integrate_ensemble(slow, JunctionEnsemble(n_junctions=10), ForceHistory.piecewise_linear([0.0, 1.0], [20.0, 20.0]))
    t0, c0 = time.perf_counter(), time.process_time()
    es = integrate_ensemble(slow, ens, hh, t_eval=np.geomspace(1.0, t_hold, 5), rtol=1e-5)
    wall, cpu = time.perf_counter() - t0, time.process_time() - c0
    out.append((f"GW ensemble of {n} junctions, {t_hold:g} s hold (C1 = 1.42e-6 1/s, RK45 rtol 1e-5): wall time", wall, "s",
                "< 120 s"))
    out.append(("  CPU time (all threads; robust on a shared machine)", cpu, "s", "-"))
    out.append(("  junctions in contact at the end", float(es.n_contacts[-1]), "1", "-"))
    out.append(("  RHS evaluations", float(es.n_steps), "1", "-"))
    out.append(("  time per RHS evaluation per junction", wall / es.n_steps / n * 1e9, "ns", "-"))
    # the unoptimised reference path, for comparison (same model; before the fused kernel)
    c0 = time.process_time()
    er = integrate_ensemble(slow, ens, hh, t_eval=np.geomspace(1.0, t_hold, 5), rtol=1e-5, reference=True)
    cpu_ref = time.process_time() - c0
    out.append(("  reference path: CPU time", cpu_ref, "s", "-"))
    out.append(("  reference path: RHS evaluations", float(er.n_steps), "1", "-"))
    out.append(("  speed-up in CPU time over the reference path", cpu_ref / cpu, "1", "-"))
    out.append(("  max relative difference of total area from the reference path",
                float(np.max(np.abs(es.total_area / er.total_area - 1.0))), "1", "< 1e-5 (rtol)"))
    return out


if __name__ == "__main__":
    for row in run(quick=False):
        print(row, flush=True)
