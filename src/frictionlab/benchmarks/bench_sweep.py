"""Sweep throughput end to end: start-up, per-point overhead, serial vs 1 vs 2 workers, start-up included.

Workloads:

* ``noop`` -- a scenario whose run costs ~0 (an 11-sample Dataset): the wall time per point is
  the sweep machinery itself (run, summary, NetCDF write, journal line; on workers also the task
  round trip), measured in this (warm) process;
* ``rsf-1mm`` -- ``classic/rsf-velocity-step`` with 1 mm per segment, saved every 0.5 s: ~0.2 s
  of compute per point on a free core (the issue's "48 points of ~0.2 s").

Each ``rsf-1mm`` sweep runs in a **fresh Python process** and its wall time counts everything a
user waits for: imports, compilation of the loops (or loading them from a disk cache), cluster
start-up and every point. Modes: ``serial`` (``scheduler="serial"``), ``1 worker`` and
``2 workers`` (``scheduler="local"``: a LocalCluster always, its workers forked from the process
after its first point, so they start warm), ``auto`` (the default: first points here, the rest on
2 workers when :func:`~frictionlab.sweep.runner.plan_parallel` says it pays) and ``2 workers,
spawned`` (workers that import and compile again, the behaviour before). Ratios compare runs of
this one invocation (best of two interleaved repeats; one with ``--quick``, 16 points instead
of 48); the load average printed beside them says whether the cores were free. The CPU seconds
of each run (the process and its workers) show the work done, which the load does not change.
Scale (issue "Beyond one machine"): ``noop`` points (10,000; 2,000 with ``--quick``) on 2 forked
workers, against their pure compute time (every point's run and summary in this process, nothing
stored): the ratio of the two, the time to resume the finished store (``--resume`` of a sweep with
nothing left to run: it reads one index) and the store's bytes per point, each beside the figure of
the former store (one NetCDF file per point, measured at 1fb6ae8 and quoted in the issue).

Run with ``frictionlab bench sweep``.
"""

from __future__ import annotations

import json
import logging
import os
import resource
import subprocess
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
RSF = "classic/rsf-velocity-step"
RSF_1MM = {"protocol.distances": [1e-3, 1e-3, 1e-3], "integrator.save_dt": 0.5}

#: one sweep in a fresh process; prints a JSON line {"wall": s, "import": s, "first": s, "point": s}
_FRESH = r"""
import json, sys, tempfile, time
t0 = time.perf_counter()
from frictionlab.sweep import SweepStore, run_sweep
t_import = time.perf_counter() - t0
mode, n, overrides = sys.argv[1], int(sys.argv[2]), json.loads(sys.argv[3])
kw = {"serial": dict(scheduler="serial"), "1w": dict(scheduler="local", n_workers=1),
      "2w": dict(scheduler="local", n_workers=2), "auto": dict(n_workers=2),
      "2w-spawn": dict(scheduler="local", n_workers=2, start_method="spawn")}[mode]
with tempfile.TemporaryDirectory() as d:
    run_sweep("classic/rsf-velocity-step", [f"model.a=0.006:0.012:{n}"], store=d, overrides=overrides, **kw)
    recs = sorted(SweepStore.read_index(d)["points"].values(), key=lambda r: r["finished"])
secs = [r["seconds"] for r in recs]
print(json.dumps({"wall": time.perf_counter() - t0, "import": t_import, "first": max(secs),
                  "point": float(sorted(secs)[len(secs) // 2])}))
"""


def _fresh(mode: str, n: int) -> dict[str, float]:
    """One sweep in a fresh process: its figures plus the CPU seconds of the process and its workers."""
    env = {**os.environ, "PYTHONWARNINGS": "ignore"}
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    res = subprocess.run([sys.executable, "-c", _FRESH, mode, str(n), json.dumps(RSF_1MM)], capture_output=True,
                         text=True, env=env, timeout=1800)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    if res.returncode != 0:
        raise RuntimeError(f"bench sweep {mode}: {res.stderr.strip().splitlines()[-1] if res.stderr else res.stdout}")
    out = json.loads(res.stdout.strip().splitlines()[-1])
    out["cpu"] = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)  # workers included
    return out


def _cluster_start(method: str) -> float:
    import dask
    from distributed import Client, LocalCluster

    t0 = time.perf_counter()
    with dask.config.set({"distributed.worker.multiprocessing-method": method}):
        cluster = LocalCluster(n_workers=2, threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=logging.ERROR, scheduler_kwargs={"dashboard": False})
    try:
        with Client(cluster) as client:
            client.wait_for_workers(2)
            client.run(lambda: None)
            return time.perf_counter() - t0
    finally:
        cluster.close()


def _noop_per_point(n: int, **kw) -> float:
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        run_sweep(NOOP, [f"noop.x=0:1:{n}"], store=d, **kw)
        return (time.perf_counter() - t0) / n


def _store_bytes(path: str) -> int:
    return sum(os.path.getsize(os.path.join(d, f)) for d, _, files in os.walk(path) for f in files)


def _scale(n: int) -> list[tuple[str, float, str, str]]:
    """10^4 near-free points on 2 workers vs their pure compute; resume of the finished store."""
    from frictionlab.sweep.runner import run_point

    t0 = time.perf_counter()
    for i in range(n):
        run_point(NOOP, {"noop.x": i / n}, {}, False)
    pure = time.perf_counter() - t0
    grid = [f"noop.x=0:1:{n}"]
    with tempfile.TemporaryDirectory() as d:
        t0 = time.perf_counter()
        run_sweep(NOOP, grid, store=d, scheduler="local", n_workers=2)
        wall = time.perf_counter() - t0
        t0 = time.perf_counter()
        again = run_sweep(NOOP, grid, store=d, scheduler="local", n_workers=2, resume=True)
        resume = time.perf_counter() - t0
        assert int((again.status == "done").sum()) == n
        size = _store_bytes(d) / n
    return [(f"{n} noop points: pure compute (run + summary, in this process)", pure, "s", ""),
            (f"{n} noop points, 2 forked workers: wall, start-up included", wall, "s",
             "before: 14.3 min for 10^4 (--worker-writes --chunk 100)"),
            (f"{n} noop points: wall / pure compute", wall / pure, "x", "<= 3"),
            (f"{n} noop points: --resume of the finished store", resume, "s",
             "<= 2; before: 9 min 24 s for 10^4, 161 s for 2,000"),
            (f"{n} noop points: store size per point (traces full, 11 samples)", size / 1e3, "kB", "")]


def run(quick: bool) -> list[tuple[str, float, str, str]]:
    n = 16 if quick else 48
    out: list[tuple[str, float, str, str]] = []
    out += _scale(2000 if quick else 10_000)
    _noop_per_point(4, scheduler="serial")  # warm the NetCDF stack of this process
    out.append(("per-point overhead, serial (noop, 96 points)", 1e3 * _noop_per_point(96, scheduler="serial"),
                "ms", "sweep machinery: run + summary + segment + journal"))
    out.append(("per-point overhead, 2 forked workers (noop, 96 points, start-up included)",
                1e3 * _noop_per_point(96, scheduler="local", n_workers=2), "ms", ""))
    for method in ("fork", "spawn"):
        out.append((f"LocalCluster start, 2 workers, {method}", _cluster_start(method), "s",
                    "model constant: 1.5 s fork, 5 s spawn"))
    out.append(("load average (1 min) before the fresh-process runs", os.getloadavg()[0], "", "2 cores: > 2 means "
                "the cores are shared and wall-time ratios mean little"))
    runs: dict[str, dict[str, float]] = {}
    modes = ("serial", "1w", "2w", "auto", "2w-spawn")
    for _ in range(1 if quick else 2):  # interleaved repeats, best of each: load that comes and goes hurts all modes
        for mode in modes:
            r = _fresh(mode, n)
            if mode not in runs or r["wall"] < runs[mode]["wall"]:
                runs[mode] = r
    s = runs["serial"]
    out.append(("fresh process: import frictionlab.sweep", s["import"], "s", ""))
    out.append(("fresh process: slowest rsf-1mm point (the first: compilation or cache load)", s["first"], "s", ""))
    out.append(("rsf-1mm: median point compute", s["point"], "s", "~0.2 s on a free core"))
    labels = {"serial": "serial", "1w": "1 worker", "2w": "2 workers (forked, warm)", "auto": "auto (default)",
              "2w-spawn": "2 workers, spawned (import + compile again)"}
    for mode, label in labels.items():
        out.append((f"rsf-1mm ({n} points), {label}: wall, start-up included", runs[mode]["wall"], "s",
                    f"CPU {runs[mode]['cpu']:.1f} s (process + workers)"))
    out.append(("rsf-1mm: speed-up 2 vs 1 worker, start-up included", runs["1w"]["wall"] / runs["2w"]["wall"], "x",
                ">= 1.7"))
    out.append(("rsf-1mm: speed-up auto vs serial, start-up included", s["wall"] / runs["auto"]["wall"], "x", "> 1"))
    out.append(("rsf-1mm: speed-up 2 forked vs 2 spawned workers", runs["2w-spawn"]["wall"] / runs["2w"]["wall"], "x",
                "> 1"))
    return out


if __name__ == "__main__":
    # ``python benchmarks/bench_sweep.py scale [N]``: the scale rows only (N points, default 10,000)
    rows = (_scale(int(sys.argv[2]) if len(sys.argv) > 2 else 10_000) if sys.argv[1:2] == ["scale"]
            else run(quick="--quick" in sys.argv))
    for row in rows:
        print(row)
