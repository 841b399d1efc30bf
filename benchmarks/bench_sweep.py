"""Sweep throughput: points/s on 1 vs 2 dask workers, and the overhead per point.

Two scenarios:

* ``noop`` -- a scenario whose run costs ~0 (a 11-sample Dataset): its wall time per point
  is the sweep machinery itself (task round trip, NetCDF write, index update);
* ``classic/rsf-velocity-step`` shortened to 20 um per segment: a cheap real simulation.

Each is swept serially in this process and on a LocalCluster of 1 and 2 worker processes
(clusters started beforehand and warmed up, so start-up time is reported on its own line).
Run with ``frictionlab bench sweep`` (``--quick`` for fewer points).
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
from frictionlab.sweep import run_sweep

# this file is loaded by path (not importable by the workers): cloudpickle sends its functions by value
if __name__ in sys.modules:
    cloudpickle.register_pickle_by_value(sys.modules[__name__])


def _noop_run(cfg: dict, quick: bool):
    t = np.linspace(0.0, 1.0, 11)
    return make_dataset(t, {"friction_force": np.full(11, float(cfg["noop"]["x"]))})


NOOP = Scenario("bench/noop", "no-cost scenario (sweep overhead)", {"noop": {"x": 0.0}}, run=_noop_run)
RSF_OVERRIDES = {"protocol.distances": [2e-5, 2e-5, 2e-5]}


def _warm_up() -> None:
    from frictionlab.scenarios import get_scenario

    get_scenario("classic/rsf-velocity-step").execute(RSF_OVERRIDES)


def _timed(sc, grid, overrides, scheduler) -> float:
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        run_sweep(sc, grid, store=d, overrides=overrides, scheduler=scheduler)
        return time.perf_counter() - t0


def run(quick: bool) -> list[tuple[str, float, str, str]]:
    from distributed import Client, LocalCluster

    n_noop = 24 if quick else 96
    n_rsf = 6 if quick else 16
    noop_grid = [f"noop.x=0:1:{n_noop}"]
    rsf_grid = [f"model.a=0.006:0.012:{n_rsf}"]
    out: list[tuple[str, float, str, str]] = []

    # serial (in-process) baselines; the first call warms numba and imports
    _timed("classic/rsf-velocity-step", ["model.a=[0.01]"], RSF_OVERRIDES, "serial")
    t_noop_serial = _timed(NOOP, noop_grid, {}, "serial")
    t_rsf_serial = _timed("classic/rsf-velocity-step", rsf_grid, RSF_OVERRIDES, "serial")
    out.append(("noop, serial (store write + summary)", n_noop / t_noop_serial, "points/s", "overhead reference"))
    out.append(("rsf-velocity-step (20 um steps), serial", n_rsf / t_rsf_serial, "points/s", ""))

    rates = {}
    for n_workers in (1, 2):
        t0 = time.perf_counter()
        cluster = LocalCluster(n_workers=n_workers, threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=logging.ERROR)
        t_start = time.perf_counter() - t0
        try:
            addr = cluster.scheduler_address
            with Client(addr) as client:  # warm every worker up: imports and numba caches
                client.run(_warm_up)
            t_noop = _timed(NOOP, noop_grid, {}, addr)
            t_rsf = _timed("classic/rsf-velocity-step", rsf_grid, RSF_OVERRIDES, addr)
        finally:
            cluster.close()
        rates[n_workers] = n_rsf / t_rsf
        out.append((f"LocalCluster start, {n_workers} worker(s)", t_start, "s", ""))
        out.append((f"noop, {n_workers} worker(s)", n_noop / t_noop, "points/s", ""))
        out.append((f"overhead per point, {n_workers} worker(s) (noop wall / point)", 1e3 * t_noop / n_noop, "ms",
                    "< 100 ms"))
        out.append((f"rsf-velocity-step (20 um steps), {n_workers} worker(s)", n_rsf / t_rsf, "points/s", ""))
    out.append(("speed-up 2 vs 1 worker (rsf-velocity-step)", rates[2] / rates[1], "x",
                "~2 on 2 free cores"))
    return out


if __name__ == "__main__":
    for row in run(quick="--quick" in sys.argv):
        print(row)
