"""Sweep throughput: points/s serially and on 1 and 2 dask workers, the speed-up, the overhead per point.

Three workloads:

* ``noop`` -- a scenario whose run costs ~0 (a 11-sample Dataset): its wall time per point
  is the sweep machinery itself (task round trip, NetCDF write, journal line);
* ``rsf-1mm`` -- ``classic/rsf-velocity-step`` with 1 mm per segment, saved every 0.5 s: ~0.2 s
  of compute and a ~0.5 MB result per point (compute-bound: the meaningful speed-up);
* ``rsf-full`` -- 0.2 mm per segment saved at every step: ~0.05 s of compute and a 10 MB result
  per point (output-bound: shows what writing the point files on the workers buys).

Each is swept serially in this process and on a LocalCluster of 1 and 2 worker processes with
:func:`run_sweep`'s defaults for a LocalCluster (1 worker: the client writes the point files,
overlapping the worker's compute; 2 workers: each worker writes its own); 2 workers are also
run with ``worker_writes=False`` (every result sent back and written by the client: the
behaviour before, which made 2 workers no faster than 1) and, for ``noop``, 8 points per task. Clusters are started and every worker warmed up (imports, numba compilation: compiled
loops are cached per process) beforehand; start-up and warm-up are reported on their own lines
and are not in the point rates. Run with ``frictionlab bench sweep`` (``--quick`` for fewer points).
"""

from __future__ import annotations

import logging
import sys
import tempfile
import time

import cloudpickle
import numpy as np

from frictionlab.core.result import make_dataset
from frictionlab.scenarios.base import Scenario
from frictionlab.sweep import SweepStore, run_sweep

# this file is loaded by path (not importable by the workers): cloudpickle sends its functions by value
if __name__ in sys.modules:
    cloudpickle.register_pickle_by_value(sys.modules[__name__])


def _noop_run(cfg: dict, quick: bool):
    t = np.linspace(0.0, 1.0, 11)
    return make_dataset(t, {"friction_force": np.full(11, float(cfg["noop"]["x"]))})


NOOP = Scenario("bench/noop", "no-cost scenario (sweep overhead)", {"noop": {"x": 0.0}}, run=_noop_run)
RSF = "classic/rsf-velocity-step"
RSF_1MM = {"protocol.distances": [1e-3, 1e-3, 1e-3], "integrator.save_dt": 0.5}
RSF_FULL = {"protocol.distances": [2e-4, 2e-4, 2e-4]}


def _warm_up() -> float:
    from frictionlab.core.result import write_netcdf
    from frictionlab.scenarios import get_scenario

    t0 = time.perf_counter()
    ds, _ = get_scenario(RSF).execute({"protocol.distances": [2e-5, 2e-5, 2e-5]})
    with tempfile.TemporaryDirectory() as d:  # the NetCDF stack too: workers write their point files
        write_netcdf(ds, f"{d}/warm.nc")
    return time.perf_counter() - t0


def _timed(sc, grid, overrides, scheduler, **kw) -> tuple[float, float]:
    """(wall seconds of the sweep, mean seconds one point took inside its worker)."""
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        run_sweep(sc, grid, store=d, overrides=overrides, scheduler=scheduler, **kw)
        wall = time.perf_counter() - t0
        recs = SweepStore.read_index(d)["points"].values()
        return wall, float(np.mean([r["seconds"] for r in recs]))


def run(quick: bool) -> list[tuple[str, float, str, str]]:
    from distributed import Client, LocalCluster

    n_noop = 24 if quick else 96
    n_rsf = 12 if quick else 48
    n_full = 8 if quick else 24
    work = {  # name: (scenario, grid, overrides, n)
        "noop": (NOOP, [f"noop.x=0:1:{n_noop}"], {}, n_noop),
        "rsf-1mm": (RSF, [f"model.a=0.006:0.012:{n_rsf}"], RSF_1MM, n_rsf),
        "rsf-full": (RSF, [f"model.a=0.006:0.012:{n_full}"], RSF_FULL, n_full),
    }
    out: list[tuple[str, float, str, str]] = []
    out.append(("warm-up in this process (imports + numba compilation)", _warm_up(), "s", "excluded below"))
    rate: dict[tuple[str, str], float] = {}
    point_s: dict[tuple[str, str], float] = {}

    def measure(name: str, mode: str, scheduler: str, **kw) -> None:
        sc, grid, ov, n = work[name]
        wall, per_point = _timed(sc, grid, ov, scheduler, **kw)
        rate[name, mode], point_s[name, mode] = n / wall, per_point

    for name in work:
        measure(name, "serial", "serial")

    for n_workers in (1, 2):
        t0 = time.perf_counter()
        cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=logging.ERROR)
        out.append((f"LocalCluster start, {n_workers} worker(s)", time.perf_counter() - t0, "s", "excluded"))
        try:
            addr = cluster.scheduler_address
            with Client(addr) as client:  # every worker once: imports and numba caches
                t0 = time.perf_counter()
                per_worker = client.run(_warm_up)
                label = f"warm-up, {n_workers} worker(s) (wall; max per worker {max(per_worker.values()):.2f} s)"
                out.append((label, time.perf_counter() - t0, "s", "excluded"))
            for name in work:
                # the defaults of a LocalCluster: the client writes for 1 worker, the workers for 2
                measure(name, f"{n_workers}w", addr, worker_writes=n_workers >= 2)
                if n_workers == 2:
                    measure(name, "2w-client", addr, worker_writes=False)
                    if name == "noop":
                        measure(name, "2w-chunk8", addr, worker_writes=True, chunk_size=8)
        finally:
            cluster.close()

    labels = {"serial": "serial", "1w": "1 worker", "2w": "2 workers", "2w-client": "2 workers, client writes",
              "2w-chunk8": "2 workers, 8 points per task"}
    for name, (_, _, _, n) in work.items():
        for mode, label in labels.items():
            if (name, mode) not in rate:
                continue
            out.append((f"{name} ({n} points), {label}", rate[name, mode], "points/s",
                        f"compute {1e3 * point_s[name, mode]:.0f} ms/point"))
        out.append((f"{name}: speed-up 2 vs 1 worker", rate[name, "2w"] / rate[name, "1w"], "x",
                    "~2 on 2 free cores" if name == "rsf-1mm" else ""))
        out.append((f"{name}: 2 workers vs serial", rate[name, "2w"] / rate[name, "serial"], "x", ""))
    out.append(("overhead per point, 2 workers (noop wall / point)", 1e3 / rate["noop", "2w"], "ms", "< 100 ms"))
    # efficiency: the busy fraction of the workers; a low value with a long compute per point
    # means the cores were shared (other processes), a low value with short compute means overhead
    out.append(("rsf-1mm: worker busy fraction, 2 workers", rate["rsf-1mm", "2w"] * point_s["rsf-1mm", "2w"] / 2, "",
                "1 = no sweep overhead"))
    return out


if __name__ == "__main__":
    for row in run(quick="--quick" in sys.argv):
        print(row)
