"""Kloss law and fit benchmarks: vectorised evaluation (ns/point) and real-data fit wall times.

``frictionlab bench kloss`` (``--quick`` uses 10^6 points and the quick fit profiles).
"""

from __future__ import annotations

import time

import numpy as np


def _best(fn, repeat: int = 3) -> float:
    best = float("inf")
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        best = min(best, time.perf_counter() - t0)
    return best


def run(quick: bool) -> list[tuple[str, float, str, str]]:
    from frictionlab.core.registry import make_model
    from frictionlab.solve import simulate
    from frictionlab.laws.kloss import kloss, kloss_2d
    from frictionlab.protocols import ConstantVelocity
    from frictionlab.scenarios import get_scenario
    from frictionlab.systems import incline

    n = 10 ** 6 if quick else 10 ** 7
    rng = np.random.default_rng(0)
    v = rng.normal(0, 0.1, n)
    vy = rng.normal(0, 0.1, n)
    kloss(v[:10], 1.0, 0.01, 0.5)  # compile
    kloss_2d(v[:10], vy[:10], 1.0, 0.01, 0.5)
    t1 = _best(lambda: kloss(v, 1.0, 0.01, 0.5))
    t2 = _best(lambda: kloss_2d(v, vy, 1.0, 0.01, 0.5))
    out = [(f"1-D law, {n:.0e} points (compiled loop)", t1 / n * 1e9, "ns/point", "vectorised"),
           (f"multi-D law, {n:.0e} points (compiled loop)", t2 / n * 1e9, "ns/point", "vectorised")]
    law = make_model("kloss", "fig5")
    steps = 10 ** 5 if quick else 10 ** 6
    sysm = incline(0.3, 5.0, v0=1.0)
    proto = ConstantVelocity(v=0.0, duration_s=steps * 1e-3)
    simulate(law, ConstantVelocity(v=0.0, duration_s=0.01), system=sysm, integrator="euler", dt=1e-3)
    ts = _best(lambda: simulate(law, proto, system=sysm, integrator="euler", dt=1e-3), repeat=2)
    out.append((f"incline (Fig. 5) Euler, {steps:.0e} steps incl. setup", steps / ts, "steps/s", "end-to-end simulate() incl. sampling and Dataset"))
    for name in ("kloss/naca0012-fit", "kloss/tyre-mf52-fit", "kloss/pstar-fit", "classic/rsf-data-fit"):
        sc = get_scenario(name)
        # RSF: one start, aging law, full-resolution records (the full scenario runs 3 starts x 2 laws)
        over = {"fit.laws": ["aging"], "fit.n_starts": 1} if (name.startswith("classic") and not quick) else None
        ds, _ = sc.execute(over, quick=quick)
        if "fit_seconds" in ds.attrs:
            out.append((f"fit {name}", float(ds.attrs["fit_seconds"]), "s", "wall time"))
        elif "fit_seconds" in ds:
            for c, s in zip(ds.case.values, ds.fit_seconds.values):
                out.append((f"fit {name}: {c}", float(s), "s", "wall time"))
        else:
            for tag in ("long", "lat"):
                out.append((f"fit {name}: {tag} (Kloss slip form)", float(ds.attrs[f"{tag}_kloss_seconds"]), "s",
                            "wall time"))
    return out
