"""Benchmark of the subloading-friction model: the Fig. 9 stick-slip run (Ozaki et al. 2020).

The whole figure -- four values of c, 0-300 s, Newmark-beta with the implicit return mapping,
dt = 1 ms (300 000 steps each) -- should take under 2 s on one core. Also reported: the
return-mapping throughput under prescribed slip (Fig. 4 setting), and ``frictionlab.simulate``
on a subloading model with its default driver (the compiled return mapping) against the
generic Python stepping loop (driver ``"step"``).
"""

from __future__ import annotations

import time

import frictionlab as fl
from frictionlab.laws.subloading import P_COMMON, Subloading, c_from_mm_mpa
from frictionlab.protocols import ConstantVelocity
from frictionlab.laws.subloading_drivers import SubloadingOscillator, run_prescribed


def run(quick: bool) -> list[tuple[str, float, str, str]]:
    osc = SubloadingOscillator(mass=3000.0, stiffness=4e4, drive_velocity=1e-5, area=1e-4, normal_stress=3e5)
    cs = [0.0, 0.0015, 0.005, 0.01]
    models = [Subloading(**{**P_COMMON, "c": c_from_mm_mpa(c, 0.4)}) for c in cs]
    t_end = 300.0
    dt = 1e-3
    osc.simulate(models[0], 1.0, dt)  # JIT warm-up (numba cache)
    best = float("inf")
    best_cpu = float("inf")
    calls = 0.0
    for _ in range(1 if quick else 3):
        t0 = time.perf_counter()
        c0 = time.process_time()
        for m in models:
            ds = osc.simulate(m, t_end, dt, save_dt=0.01)
            calls += ds.attrs["return_map_calls_per_step"]
        best = min(best, time.perf_counter() - t0)
        best_cpu = min(best_cpu, time.process_time() - c0)
    n_steps = len(cs) * round(t_end / dt)
    m = models[1]
    pr = ConstantVelocity(v=1e-3, duration_s=1.0, normal_force_value=3e5)
    run_prescribed(m, pr, du_max=1e-6)
    t0 = time.perf_counter()
    run_prescribed(m, pr, du_max=1e-8)  # 100 000 steps
    t_rm = time.perf_counter() - t0
    # simulate() with the default driver vs the generic stepping loop (10 s at dt = 0.1 ms; 1 s quick)
    cv = ConstantVelocity(v=1e-5, duration_s=1.0 if quick else 10.0, normal_force_value=3e5)
    fl.simulate(m, ConstantVelocity(v=1e-5, duration_s=0.01, normal_force_value=3e5), dt=1e-4)
    t0 = time.perf_counter()
    fl.simulate(m, cv, dt=1e-4)
    t_fast = time.perf_counter() - t0
    t0 = time.perf_counter()
    fl.simulate(m, cv, dt=1e-4, integrator="step")
    t_step = time.perf_counter() - t0
    return [
        (f"simulate(Subloading, {cv.duration:g} s, dt = 1e-4 s), default driver 'prescribed'", t_fast, "s",
         "informative"),
        ("speed-up of the default driver over the generic stepping loop ('step')", t_step / t_fast, "x", "> 20"),
        ("fig9 wall time (4 c values, 300 s, dt = 1 ms)", best, "s", "< 2 s on one core"),
        ("fig9 CPU time of this process (same run; wall time inflates on a shared machine)", best_cpu, "s",
         "< 2 s on one core"),
        ("fig9 Newmark steps per second (CPU time)", n_steps / best_cpu, "steps/s", "> 6e5"),
        ("fig9 return-mapping calls per Newmark step", calls / (len(cs) * (1 if quick else 3)), "1", "informative"),
        ("prescribed-slip return mapping (1 mm at 1 mm/s, du = 1e-5 mm)", 1e5 / t_rm, "steps/s", "informative"),
    ]


if __name__ == "__main__":
    for row in run(quick=False):
        print(row)
