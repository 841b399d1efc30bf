"""
A 10^5-point design study: where a rate-and-state slider stops sliding steadily
===============================================================================

A spring-slider with aging-law rate-and-state friction (granite-typical: a = 0.010,
D_c = 10 um) on an inertia-free spring (:class:`frictionlab.systems.QuasiStaticSlider`), driven
at 1 um/s and stepped to 10 um/s, over three design parameters: the stiffness k (50 values, 100
to 3000 N/m), b (40 values, 0.005 to 0.02, so a - b from +0.005 to -0.01) and D_c (50 values,
1 to 100 um): 100,000 points. Steady sliding is stable above the critical stiffness
k_c = (b - a) N / D_c (Ruina 1983); below it the slider leaves quasi-static sliding: the
inertia-free slider cannot follow the dynamic instability and the point fails with the
driver's one-line error (status ``failed``), which is the map's answer there; near k_c the step
rings (``stick_slip_events``) before it settles. Only the metrics are kept (``--traces none``:
about a kilobyte per point, 100 MB for the study).

The whole study from the command line, on a cluster (see *Clusters* in the sweeps guide)::

    frictionlab sweep study.toml --grid "system.stiffness=1e2:3e3:50:log" \\
        --grid "model.b=0.005:0.02:40" --grid "model.dc=1e-6:1e-4:50:log" \\
        --metric peak_slip_velocity --metric stick_slip_events --traces none \\
        --store /shared/sweeps/study --scheduler /shared/sched.json --worker-writes

with ``study.toml`` holding the ``CONFIG`` below as ``[model]``, ``[protocol]``, ``[system]`` and
``[integrator]`` tables (the failed points make the command exit 1; ``--resume`` retries them,
so resume the study with the grid unchanged only to finish interrupted points).

Measured on the shared 2-core development machine (load 2-4), a 10 x 8 x 10 corner-to-corner
coarse version of the grid (800 points, same ranges) on 2 local workers: 37 s wall, 0.074 s of
compute per point on average (0.045 s median; the unstable points cost most), 222 points
unstable. Projected for the 100,000 points: 7,400 s of compute, so about 2.1 h on one worker,
1.0 h on two (77 min at the 800-point run's 80 % parallel efficiency on this loaded machine),
and T(w) = 7,400 s / w + start-up for w workers: 15 min on 8, 2 min on 64. The client's share
per point is small: journalling the records a task returns costs about 0.03 ms per point (one
fsync per task), and 10^4 near-free points run in 1.9 x their pure compute time on 2 workers
(``frictionlab bench sweep``), so the client stays out of the way up to hundreds of workers;
beyond that, larger ``--chunk`` values keep the tasks long.

This page runs a 6-point sample of the same grid in this process, times it, and draws the
sample's outcome and the projection from its own time per point.
"""

import tempfile

import matplotlib.pyplot as plt
import numpy as np

from frictionlab.scenarios import Scenario
from frictionlab.sweep import SweepStore, run_sweep

CONFIG = {
    "model": {"name": "rate_state", "preset": "granite-typical", "law": "aging"},
    "protocol": {"type": "velocity_steps", "velocities": [1e-6, 1e-5], "distances": [2e-5, 2e-4],
                 "normal_force_value": 1.0},
    "system": {"type": "quasi_static", "stiffness": 500.0},
    "integrator": {"save_dt": 0.5},
}
STUDY = Scenario("study/rsf-stability", "rate-and-state slider after a velocity step", CONFIG)
FULL_POINTS = 50 * 40 * 50

store = tempfile.mkdtemp(prefix="study-")
ds = run_sweep(STUDY, ["system.stiffness=[200.0, 600.0, 2000.0]", "model.b=[0.0075, 0.015]", "model.dc=[1e-5]"],
               store=store, scheduler="serial", traces="none", metrics=["peak_slip_velocity", "stick_slip_events"])
# the run time of each point is in its record; the first one also paid this process's imports
seconds = sorted(r["seconds"] for r in SweepStore.read_index(store)["points"].values())
per_point = float(np.mean(seconds[:-1]))
print(f"{len(seconds)} points, {per_point:.3f} s per point after the first")
sample = ds.isel({"model.dc": 0})
print(sample.status.values)

fig, (ax0, ax1) = plt.subplots(1, 2, figsize=(10, 3.8))
k = sample["system.stiffness"].values
for j, b in enumerate(sample["model.b"].values):
    kc = (b - 0.010) * 1.0 / 1e-5
    outcome = ["unstable" if s == "failed" else ("rings" if e > 0 else "steady")
               for s, e in zip(sample.status.values[:, j], sample.stick_slip_events.values[:, j])]
    for x, o in zip(k, outcome):
        ax0.scatter(0.010 - b, x, marker={"unstable": "x", "rings": "o", "steady": "s"}[o],
                    color={"unstable": "C3", "rings": "C1", "steady": "C2"}[o], s=60, label=o)
    if kc > 0:
        ax0.plot([0.010 - b], [kc], "k_", markersize=25, label="k_c = (b - a) N / D_c")
handles, labels = ax0.get_legend_handles_labels()
uniq = dict(zip(labels, handles))
ax0.legend(uniq.values(), uniq.keys(), fontsize=8)
ax0.set(xlabel="a - b", ylabel="stiffness k [N/m]", yscale="log", title="sample of the study (D_c = 10 um)")
workers = np.array([1, 2, 4, 8, 16, 32, 64])
ax1.loglog(workers, FULL_POINTS * per_point / workers / 3600, "o-", label=f"this sample: {per_point:.3f} s per point")
ax1.loglog(workers, FULL_POINTS * 0.074 / workers / 3600, "s--", label="800-point run: 0.074 s per point")
ax1.set(xlabel="workers", ylabel="projected wall time [h]", title=f"{FULL_POINTS:,} points")
ax1.legend(fontsize=8)
fig.tight_layout()
