"""Run a scenario over a parameter grid, chunks of points per task, on dask.distributed.

:func:`run_sweep` runs every point that the store does not hold yet: by default the first
points in this process, then -- unless the rest is too short to amortise starting workers
(estimated from the time of those points) -- the others on a :class:`distributed.LocalCluster`
of worker processes forked from this warm process (imports done, compiled loops in memory),
several points per task. ``scheduler="local"`` always uses the local cluster,
``scheduler="serial"`` this process only; an address (``"tcp://host:8786"``), a scheduler file, a
``distributed.Client`` or a cluster object (dask-jobqueue, dask-kubernetes) an existing cluster
(:mod:`frictionlab.core.cluster`: its workers are checked first, so a worker without frictionlab or
a scheduler without workers stops the sweep with one line).
Workers write the points of each task as one segment of the
:class:`~frictionlab.sweep.store.SweepStore` themselves and return only the records, which the
client journals the moment they arrive (``worker_writes=False``: the results travel back and the
client writes them), so an interrupted sweep resumes (``resume=True``) without recomputing a
stored point. A point that raises is recorded with its error and the others carry on; workers that
fail every task stop the sweep with their error. :func:`gather` assembles the store into one
Dataset with the swept keys as dimensions.
"""

from __future__ import annotations

import json
import logging
import math
import multiprocessing
import os
import re
import sys
import tempfile
import time
import traceback
import uuid
from collections.abc import Callable, Iterable, Mapping
from pathlib import Path
from typing import Any

import numpy as np
import xarray as xr

from ..core.errors import ConfigError
from ..core.result import STANDARD_UNITS
from ..scenarios.base import Scenario, load_scenario
from .grid import Grid, ListAxisScenario, key_units, parse_grid
from .metrics import (METRICS, REGIME, MetricNotApplicable, MetricSet, label, regime_labels, resolve_metrics,
                      squeeze_runs)
from .store import SweepStore, make_record, point_key, store_points

__all__ = ["run_sweep", "gather", "default_summary", "run_point", "run_and_store_points", "plan_parallel",
           "local_workers", "SERIAL", "LOCAL"]

#: ``scheduler`` values that run the points in this process, one after the other
SERIAL = ("serial", "synchronous", "sync")
#: ``scheduler`` value that always starts a LocalCluster (no automatic serial choice)
LOCAL = "local"

#: estimated wall time to start a LocalCluster and have its workers ready [s]: forked workers
#: inherit the imports and compiled loops of this process; spawned ones import and compile again
#: (measured on a loaded 2-core machine: ~0.8-1.5 s forked, 3-5 s spawned; ``frictionlab bench sweep``)
STARTUP_FORK_S = 1.5
STARTUP_SPAWN_S = 5.0
#: wall time a dask task costs beyond its compute (round trip, file write, journal line) [s]
TASK_OVERHEAD_S = 0.02
#: a chunk of points per task lasts about this long [s] (fewer round trips, still balanced)
CHUNK_TARGET_S = 0.5


def default_summary(ds: xr.Dataset) -> dict[str, float]:
    """Final and time-mean friction of a run, the metrics used when a scenario has no ``summary``.

    Uses ``friction_force`` [N] when present, else ``friction_coefficient`` [1]; returns
    ``{"<var>_final": ..., "<var>_mean": ...}``. When the variable has dimensions besides
    ``time`` (e.g. ``law``), one pair per combination, suffixed ``_<value>``.
    """
    out: dict[str, float] = {}
    for var in ("friction_force", "friction_coefficient"):
        if var not in ds or "time" not in ds[var].dims:
            continue
        da = squeeze_runs(ds[var])  # one case per point (its grid coordinate): no column per point
        other = [d for d in da.dims if d != "time"]
        final, mean = da.isel(time=-1), da.mean("time")
        if not other:
            out[f"{var}_final"] = float(final)
            out[f"{var}_mean"] = float(mean)
        else:
            stacked_f = final.stack(_p=other)
            stacked_m = mean.stack(_p=other)
            for i, idx in enumerate(stacked_f["_p"].values):
                suffix = "_".join(label(x) for x in (idx if isinstance(idx, tuple) else (idx,)))
                out[f"{var}_final_{suffix}"] = float(stacked_f.values[i])
                out[f"{var}_mean_{suffix}"] = float(stacked_m.values[i])
        break
    return out


def run_point(scenario: Scenario, point: dict[str, Any], overrides: dict[str, Any], quick: bool,
              metrics: MetricSet | None = None,
              ) -> tuple[xr.Dataset | None, dict[str, float], str, float, dict[str, str]]:
    """Run one point; returns an exception of the run as the error text (the sweep goes on).

    A metric that does not apply to the run (it lacks the metric's variable) raises
    :class:`ConfigError`: in this process that stops the sweep at its first point. ``metrics`` (a :class:`~frictionlab.sweep.metrics.MetricSet`) gives the summary; None uses
    the scenario's ``summary`` or :func:`default_summary`.

    Returns
    -------
    (dataset or None, summary metrics, error text ("" on success), wall seconds, units of the metrics)
    """
    t0 = time.perf_counter()
    try:
        ds, _ = scenario.execute({**overrides, **point}, quick=quick)
        summary, units = summarize(ds, scenario, metrics)
        return ds, summary, "", time.perf_counter() - t0, units
    except MetricNotApplicable:  # not this point's fault: every point would fail the same way
        raise
    except Exception as exc:  # recorded with the point; the sweep goes on
        msg = f"{type(exc).__name__}: {exc}"
        if not isinstance(exc, (ValueError, RuntimeError)):
            msg += "\n" + "".join(traceback.format_exception_only(type(exc), exc)).strip()
        return None, {}, msg, time.perf_counter() - t0, {}


def summarize(ds: xr.Dataset, scenario: Scenario, metrics: MetricSet | None) -> tuple[dict[str, float], dict[str, str]]:
    """``(summary, units)`` of one run: the ``metrics`` when given, else the scenario's summary."""
    if metrics is not None:
        return metrics.evaluate(ds)
    summ = (scenario.summary or default_summary)(ds)
    return {str(k): float(v) for k, v in summ.items()}, {}


def run_and_store_points(scenario: Scenario, points: list[tuple[str, dict[str, Any]]], overrides: dict[str, Any],
                         quick: bool, segments_dir: str, traces: str, metrics: MetricSet | None = None,
                         ) -> list[tuple[str, dict[str, Any]]]:
    """Run a chunk of ``(key, point)`` pairs and write them as one segment here (on a worker that
    sees the store's file system); return their sealed records.

    Only the small records travel back; the client then journals them, so a point counts as
    stored only once its segment exists (a crash in between is recovered from the segment's
    footer when the store is reopened). A failed write is recorded as failed points.
    """
    names = None if metrics is None else metrics.names
    items = []
    for key, point in points:
        ds, summary, error, seconds, units = run_point(scenario, point, overrides, quick, metrics)
        items.append((key, ds, make_record(point, summary, error, seconds, units, names, traces)))
    try:
        return store_points(segments_dir, items, traces)
    except Exception as exc:  # e.g. the store is not on this worker's file system
        error = f"cannot write the points into {segments_dir} from the worker: {type(exc).__name__}: {exc}"
        return [(k, make_record(r["params"], {}, error, r["seconds"], {}, names)) for k, _, r in items]


def run_points(scenario: Scenario, points: list[tuple[str, dict[str, Any]]], overrides: dict[str, Any],
               quick: bool, metrics: MetricSet | None = None) -> list[tuple]:
    """:func:`run_point` for a chunk of ``(key, point)`` pairs (results travel back to the client)."""
    return [run_point(scenario, point, overrides, quick, metrics) for _, point in points]


def fork_is_safe() -> bool:
    """Whether worker processes may be forked from this one (POSIX, and no OpenMP/TBB pool running).

    A numba parallel region that already ran on the OpenMP or TBB layer is not fork-safe (the
    GNU OpenMP runtime hangs in the child); then the workers are spawned.
    """
    if "fork" not in multiprocessing.get_all_start_methods() or sys.platform == "darwin":
        return False
    numba = sys.modules.get("numba")
    if numba is None:
        return True
    try:
        layer = numba.threading_layer()
    except ValueError:  # no parallel region ran yet
        return True
    return layer == "workqueue"


def plan_parallel(n_left: int, seconds_per_point: float, n_workers: int, startup_s: float) -> bool:
    """Whether ``n_left`` points of ``seconds_per_point`` finish sooner on ``n_workers`` new workers.

    Serial: ``n t``; cluster: ``startup + n (t + overhead) / w`` (``TASK_OVERHEAD_S`` per point).
    """
    if n_workers < 2 or n_left < 2 or not math.isfinite(seconds_per_point):
        return False
    serial = n_left * seconds_per_point
    cluster = startup_s + n_left * (seconds_per_point + TASK_OVERHEAD_S) / n_workers
    return cluster < serial


def auto_chunk(n_left: int, seconds_per_point: float, n_workers: int) -> int:
    """Points per task: tasks of about ``CHUNK_TARGET_S``, at least 4 tasks per worker (balance)."""
    if not math.isfinite(seconds_per_point) or seconds_per_point <= 0:
        return 1
    by_time = max(1, int(CHUNK_TARGET_S / seconds_per_point))
    by_balance = max(1, n_left // (4 * max(1, n_workers)))
    return max(1, min(by_time, by_balance))


def local_workers(requested: int | None, n_points: int, oversubscribe: bool = False) -> tuple[int, str]:
    """``(workers, note)``: the LocalCluster size for ``n_points`` points.

    Default 2; never more than the points to run nor (unless ``oversubscribe``) the cores of this
    machine: a worker without a point or a core only costs start-up. ``note`` says what was capped.
    """
    n = 2 if requested is None else requested
    cores = os.cpu_count() or 1
    cap = max(1, min(n_points, n if oversubscribe else min(n, cores)))
    note = ""
    if requested is not None and cap < requested:
        why = (f"{n_points} point{'s' if n_points != 1 else ''} to run" if cap == n_points
               else f"{cores} cores (--oversubscribe to exceed)")
        note = f"{requested} workers asked, starting {cap}: {why}"
    return cap, note


def _local_cluster(n: int, start_method: str, dashboard: bool):
    """``(client, cluster)``: a LocalCluster of ``n`` single-thread worker processes.

    No dashboard unless asked: the scheduler's and workers' HTTP servers listen on a free port of
    the loopback interface and serve no pages (a bare LocalCluster binds port 8787, or warns that it
    is taken and picks another, for every sweep).
    """
    import dask
    from distributed import Client, LocalCluster

    settings = {"distributed.worker.multiprocessing-method": start_method,
                # no statistical profiler on the workers (a thread sampling the computing one every 10 ms
                # for the dashboard): ~3% of the workers' CPU on 48 short points
                "distributed.worker.profile.enabled": False}
    if not dashboard:
        settings.update({"distributed.scheduler.http.routes": [], "distributed.worker.http.routes": []})
    from ..core.interrupts import deferred_sigint

    # forked workers inherit a SIGINT handler that only records it: a terminal's Ctrl-C reaches the whole
    # process group, and this process closes the cluster (dask's workers printed a KeyboardInterrupt
    # traceback each and the scheduler logged the lost workers); a Ctrl-C meanwhile is raised after
    with dask.config.set(settings), deferred_sigint():
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True,
                               dashboard_address=":8787" if dashboard else "127.0.0.1:0",
                               silence_logs=logging.ERROR,
                               scheduler_kwargs={"dashboard": bool(dashboard)},
                               worker_dashboard_address=None)
    return Client(cluster), cluster


def _scheduler_kind(scheduler: Any) -> str:
    """``"auto"``, ``"serial"``, ``"local"`` or ``"external"`` (an address, a file, a Client, a cluster)."""
    if scheduler is None:
        return "auto"
    if isinstance(scheduler, str):
        s = scheduler.strip().lower()
        if s in SERIAL:
            return "serial"
        if s == LOCAL:
            return "local"
        if not s:
            raise ConfigError("scheduler is empty: give 'serial', 'local', an address or a scheduler file")
    return "external"


def run_sweep(
    scenario: str | Scenario,
    grid: Grid | Iterable[str],
    *,
    store: str | Path | None = None,
    overrides: dict[str, Any] | None = None,
    quick: bool = False,
    scheduler: Any = None,
    n_workers: int | None = None,
    resume: bool = False,
    connect_timeout: float = 5.0,
    progress: bool | Any = False,
    on_point: Callable[[str, dict[str, Any], str], None] | None = None,
    worker_writes: bool | None = None,
    chunk_size: int | None = None,
    metrics: Iterable[str | Callable] | Mapping[str, Callable] | None = None,
    start_method: str | None = None,
    traces: str | None = None,
    verify: bool | None = None,
    worker_timeout: float = 60.0,
    oversubscribe: bool = False,
    dashboard: bool = False,
) -> xr.Dataset:
    """Run ``scenario`` at every point of ``grid`` and return the gathered Dataset.

    Parameters
    ----------
    scenario : a registered scenario name or a :class:`~frictionlab.scenarios.Scenario`
    grid : a :class:`~frictionlab.sweep.grid.Grid` or ``--grid`` strings
        (``"model.a=0.005:0.015:3"``, ``"system.stiffness=1e3:1e5:5:log"``, ``"model.law=[aging,slip]"``)
    store : directory of the resumable store; a new temporary directory when None
    overrides : fixed ``--set`` overrides applied to every point
    quick : use the scenario's quick profile
    scheduler : None (default): the first points in this process, then the rest on a LocalCluster
        of ``n_workers`` processes unless they would finish sooner here (:func:`plan_parallel`,
        from the time of those points); ``"local"``: always a LocalCluster; ``"serial"``: this
        process only; else an existing cluster: an address (``tcp://host:8786``), a scheduler file
        (``dask scheduler --scheduler-file``), a ``distributed.Client`` (used, not closed) or a
        cluster object such as ``dask_jobqueue.SLURMCluster`` (:mod:`frictionlab.core.cluster`)
    n_workers : LocalCluster size (default 2; capped by the points to run and, unless
        ``oversubscribe``, the cores); 1 never beats this process, so with ``scheduler=None`` one
        worker means a serial run. Refused with an external cluster (scale that one instead)
    resume : continue a store of the same sweep, skipping its finished points (failed points
        are tried again; stored points summarised with other ``metrics`` are re-summarised from
        their full traces, not run again)
    connect_timeout : seconds to wait for an external scheduler to answer [s]
    progress : True for a rich progress bar on the terminal, or a ``rich.console.Console``
    on_point : called as ``on_point(key, point, error)`` after each point is stored
    worker_writes : whether dask workers write their points into the store themselves (only
        the small records return to the client, which journals them once the segment exists). Needs
        the store on a file system the workers see; None (default) is True for a LocalCluster
        and False for an external cluster. When False every result Dataset travels back
        and the client writes it, which serialises the sweep on the client.
    chunk_size : points per dask task (one segment file each). None (default): tasks of about
        ``CHUNK_TARGET_S`` seconds from the measured point time, at least 4 per worker, on a
        LocalCluster; on an external one about 8 tasks per worker, at most 256 points each.
    metrics : named metrics (:data:`frictionlab.sweep.metrics.METRICS`, those valid for the
        scenario) and/or functions ``ds -> float`` (named by ``__name__``, or given as
        ``{"name": function}``; a ``units`` attribute on the function gives the units). None:
        the scenario's ``summary``, else final and mean friction (:func:`default_summary`)
    start_method : ``"fork"`` or ``"spawn"`` for LocalCluster workers; None: fork where it is safe
        (:func:`fork_is_safe`), so workers start warm
    traces : what the store keeps of each run besides its metrics: ``"full"`` (every sample),
        ``"reduced"`` (at most 256 samples per time series) or ``"none"``; None (default): what a
        resumed store keeps, ``"full"`` for a new one
    verify : on resume, check every stored result's checksum (None: when the store holds at most
        256 MB; results are always checked when read back)
    worker_timeout : seconds to wait for an external cluster's first worker [s]
    oversubscribe : allow more LocalCluster workers than cores
    dashboard : serve the dask dashboard of a LocalCluster (port 8787); off by default

    Returns
    -------
    xarray.Dataset
        See :func:`gather`.

    Raises
    ------
    ConfigError
        Unknown scenario, grid key or metric (with the valid ones), empty grid, a store of
        another sweep, an unreachable scheduler, a cluster without workers or whose workers
        cannot run frictionlab or fail every task.
    """
    sc = load_scenario(scenario) if isinstance(scenario, str) else scenario  # a name or a TOML file
    overrides = dict(overrides or {})
    mset = resolve_metrics(metrics, sc)
    names = None if mset is None else mset.names
    base_cfg = sc.resolved_config(overrides or None, quick)
    if isinstance(grid, Grid):
        sc.refuse_derived(grid.keys, "--grid")
    else:
        grid = list(grid)
        sc.refuse_derived([g.split("=", 1)[0].strip() for g in grid], "--grid")
    if not isinstance(grid, Grid):
        grid = parse_grid(list(grid), base_cfg, sc.units)
    else:
        grid.validate(base_cfg, sc.units)
    sc = ListAxisScenario.wrap(sc, grid.list_keys)  # a list-of-runs key: each point runs its one value
    if chunk_size is not None and chunk_size < 1:
        raise ConfigError(f"chunk_size must be >= 1, got {chunk_size}")
    if n_workers is not None and n_workers < 1:
        raise ConfigError(f"--workers must be >= 1, got {n_workers}")
    if start_method not in (None, "fork", "spawn"):
        raise ConfigError(f"start_method must be 'fork' or 'spawn', got {start_method!r}")
    kind = _scheduler_kind(scheduler)
    if kind == "external" and (n_workers is not None or oversubscribe or dashboard):
        what = "--workers sizes" if n_workers is not None else ("--oversubscribe sizes" if oversubscribe
                                                                else "--dashboard serves the dashboard of")
        raise ConfigError(f"{what} a local cluster; an external cluster has the workers (and dashboard) it has: "
                          "scale it, or start more 'dask worker' processes")
    if store is None:
        store = tempfile.mkdtemp(prefix="frictionlab-sweep-")
    st = SweepStore(store, sc.name, quick=quick, overrides=overrides, grid=grid.to_json(), config=base_cfg,
                    traces=traces).open(resume=resume, verify=verify)
    console = None
    if progress:
        from rich.console import Console

        console = progress if isinstance(progress, Console) else Console(stderr=True)
    if console is not None and (st.repaired or st.damaged):  # found on resume: say so, they run again
        lost = st.repaired + st.damaged
        console.print(f"{len(lost)} damaged stored point(s) or record(s), their points run again: "
                      + "; ".join(f"{k} ({why})" for k, why in lost[:3]), markup=False, soft_wrap=True)
    todo = [(point_key(p), p) for p in grid.points()]
    try:
        _resummarize(st, sc, [(k, p) for k, p in todo if st.is_done(k)], mset)
    except BaseException:
        st.close()
        raise
    todo = [(k, p) for k, p in todo if not st.is_done(k)]

    bar = None
    if console is not None:
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        bar = Progress(TextColumn("sweep {task.description}"), BarColumn(), MofNCompleteColumn(),
                       TextColumn("{task.fields[failed]} failed"), TimeElapsedColumn(), TimeRemainingColumn(),
                       console=console, transient=False)
    n_done0 = grid.size - len(todo)
    if console is not None and resume:
        console.print(f"resumed {str(st.path)!r}: {n_done0} of {grid.size} points stored, {len(todo)} to run",
                      markup=False, soft_wrap=True)

    n_failed = 0
    task = None
    if bar is not None:
        bar.start()
        task = bar.add_task(sc.name, total=grid.size, completed=n_done0, failed=0)

    def tick(key: str, point: dict[str, Any], error: str) -> None:
        nonlocal n_failed
        n_failed += bool(error)
        if bar is not None:
            bar.update(task, advance=1, failed=n_failed)
        if on_point is not None:
            on_point(key, point, error)

    def finish(key: str, point: dict[str, Any], result: tuple) -> None:
        """A point run in this process, or whose result travelled back: the store writes it."""
        ds, summary, error, seconds, units = result[:5]
        st.add(key, point, ds, summary, error, seconds, units, names)
        tick(key, point, error)

    def finish_records(recs: list[tuple[str, dict[str, Any]]]) -> None:
        """Points a worker wrote into a segment: journal their records."""
        st.append_records(recs)
        for key, rec in recs:
            tick(key, rec["params"], rec["error"])

    def say(text: str) -> None:
        if bar is not None:
            bar.console.print(text, markup=False, highlight=False)

    try:
        if todo and kind == "serial":
            for key, point in todo:
                finish(key, point, run_point(sc, point, overrides, quick, mset))
        elif todo:
            seconds = float("nan")
            local = kind in ("auto", "local")
            n_local, note = local_workers(n_workers, max(1, len(todo) - 2 * (kind == "auto")), oversubscribe)
            if kind == "auto":  # the first points here, the rest where it pays
                todo, seconds = _run_first_points(sc, todo, overrides, quick, mset, finish, n_local, say)
            elif local and (start_method or "fork") == "fork" and fork_is_safe():
                # one point here warms this process: the forked workers start warm
                key, point = todo[0]
                result = run_point(sc, point, overrides, quick, mset)
                finish(key, point, result)
                todo, seconds = todo[1:], (result[3] if not result[2] else seconds)
            st.flush()  # what ran here is on disk before the workers start
            if todo:
                if note:
                    say(note)
                # decided after the first points: a numba parallel region that ran in them may forbid fork
                method = start_method or ("fork" if fork_is_safe() else "spawn")
                if worker_writes is None:
                    worker_writes = local
                if local:
                    client, cluster = _local_cluster(min(n_local, len(todo)), method, dashboard)
                    closing = [client.close, cluster.close]
                else:
                    from ..core.cluster import connect

                    client, ours = connect(scheduler, connect_timeout)
                    closing = [client.close] if ours else []
                try:
                    _run_distributed(client, scheduler if not local else None, sc, todo, overrides, quick, mset, st,
                                     worker_writes, chunk_size, seconds, finish, finish_records, worker_timeout)
                finally:
                    for close in closing:
                        close()
    finally:
        if bar is not None:
            bar.stop()
        st.close()  # write what is kept, fold the journal, release the store's lock
    return gather(st, grid)


def _run_first_points(sc, todo, overrides, quick, mset, finish, n_w, say) -> tuple[list, float]:
    """Run points here until the rest is worth a cluster; return ``(points left, seconds per point)``.

    The first point includes this process's warm-up (compilation), so a second one measures
    the point time; the rest goes to a cluster when :func:`plan_parallel` says it finishes
    sooner, counting the cluster's start-up (forked workers start warm).
    """
    # spawned workers import and compile again: about this process's first point on top of the start
    startup = STARTUP_FORK_S if fork_is_safe() else STARTUP_SPAWN_S
    seconds = float("nan")
    i = 0
    while i < len(todo):
        key, point = todo[i]
        result = run_point(sc, point, overrides, quick, mset)
        finish(key, point, result)
        i += 1
        if not result[2]:
            seconds = result[3] if math.isnan(seconds) else min(seconds, result[3])
        if i >= 2 or len(todo) - i < 2:  # decide on the warm (second) point's time
            if plan_parallel(len(todo) - i, seconds, n_w, startup):
                say(f"{len(todo) - i} points of ~{seconds:.2g} s left: starting {n_w} workers")
                return todo[i:], seconds
    if len(todo) > 1 and math.isnan(seconds):
        say("ran serially in this process (no point finished to time)")
    elif len(todo) > 1:
        say(f"ran serially in this process (~{seconds:.2g} s per point: the points after the first two would not "
            f"have finished sooner on {n_w} new workers, ~{startup:g} s to start)" if n_w >= 2 else
            "ran serially in this process (1 worker never beats it; --scheduler local forces a cluster)")
    return [], seconds


def _resummarize(st: SweepStore, sc: Scenario, done: list[tuple[str, dict[str, Any]]], mset: MetricSet | None) -> None:
    """Re-summarise stored points whose records hold other metrics, from their full traces (no re-run);
    a point kept without full traces, or whose kept result fails its checksum, runs again."""
    from ..core.errors import DataError

    names = None if mset is None else mset.names
    redo = []
    for key, point in done:
        rec = st.record(key) or {}
        if rec.get("metrics", None) == names:
            continue
        if rec.get("traces", "full") != "full":
            redo.append(key)
            continue
        try:
            ds = st.load_point(key)
        except DataError as exc:
            st.repaired.append((key, str(exc)))
            redo.append(key)
            continue
        try:
            summary, units = summarize(ds, sc, mset)
            error = ""
        except Exception as exc:
            summary, units, error = {}, {}, f"{type(exc).__name__}: {exc}"
        # a metric that fails on the stored run marks the point failed (as it would have on running it)
        st.append_record(key, {**make_record(point, summary, error, rec.get("seconds", float("nan")), units, names,
                                             rec.get("traces")),
                               **{k: rec[k] for k in ("seg", "off", "len", "crc") if k in rec}})
    for key in redo:
        del st.points[key]


#: infrastructure failures (a task that raised on its worker, not a point that failed) with no task
#: finished, after which a sweep on a cluster stops with the workers' error
FAIL_FAST = 3


def _run_distributed(client, scheduler, sc, todo, overrides, quick, metrics, st, worker_writes, chunk_size, seconds,
                     finish, finish_records, worker_timeout) -> None:
    from distributed import as_completed

    from ..core.cluster import check_workers, describe

    if scheduler is not None:  # an external cluster: is anyone there, and do they run this frictionlab?
        n_w = check_workers(client, worker_timeout, describe(scheduler))
        chunk = chunk_size or max(1, min(256, len(todo) // (8 * n_w)))
        sc_ref = sc
    else:
        n_w = len(client.scheduler_info(n_workers=-1)["workers"]) or 1
        chunk = chunk_size or auto_chunk(len(todo), seconds, n_w)
        sc_ref = client.scatter(sc, broadcast=True)
    seg_dir = str(st.segments_dir.resolve())
    futures = {}
    run_id = uuid.uuid4().hex[:8]  # task keys unique to this run: a shared cluster never mixes sweeps
    for i in range(0, len(todo), chunk):
        part = todo[i:i + chunk]
        key = f"sweep-{part[0][0]}-n{len(part)}-{run_id}"
        if worker_writes:
            fut = client.submit(run_and_store_points, sc_ref, part, overrides, quick, seg_dir, st.traces, metrics,
                                key=key)
        else:
            fut = client.submit(run_points, sc_ref, part, overrides, quick, metrics, key=key)
        futures[fut] = part
    n_ok, failures = 0, 0
    for fut in as_completed(list(futures)):
        part = futures.pop(fut)  # drop the reference: the worker may free the result
        try:
            out = fut.result()
        except Exception as exc:  # a killed worker, a task that cannot run there: record, go on ...
            failures += 1
            cause = exc.__cause__ or exc  # a task that cannot be unpickled: the ImportError behind it
            text = f"{type(cause).__name__}: {str(cause).splitlines()[0] if str(cause) else ''}"
            if isinstance(cause, ImportError) or (n_ok == 0 and failures >= FAIL_FAST):
                for f in futures:  # ... unless the workers fail every task: stop, with their error
                    f.cancel()
                raise ConfigError(f"the dask workers fail every task ({failures} failed, none finished); the first "
                                  f"error: {text}. Check that the scheduler and every worker import frictionlab and "
                                  "whatever the scenario's code needs (the scheduler unpickles the tasks too), or try "
                                  "--scheduler serial to see the error here") from None
            for key, point in part:
                finish(key, point, (None, {}, text, float("nan"), {}))
            continue
        n_ok += 1
        if worker_writes:
            finish_records(out)
        else:
            for (key, point), result in zip(part, out):
                finish(key, point, result)


def _units_of(metric: str) -> str:
    for var in sorted(STANDARD_UNITS, key=len, reverse=True):
        if metric == var or metric.startswith(var + "_"):
            return STANDARD_UNITS[var]
    return ""


def _regimes(name: str, recs: list[dict[str, Any] | None]) -> np.ndarray:
    """The regime words of one ``stick_slip_regime`` column; a failed point is ``diverged`` when its
    integration diverged (IntegrationError), else ``failed``."""
    out = []
    for r in recs:
        if not r:
            out.append("missing")
        elif r.get("status") != "done":
            out.append("diverged" if str(r.get("error", "")).startswith("IntegrationError") else "failed")
        else:
            code = r.get("summary", {}).get(name)
            out.append(str(regime_labels(np.array([np.nan if code is None else code]))[0]))
    return np.array(out, dtype=object).astype(str)


def _axis_units(st: SweepStore, grid: Grid) -> dict[str, str]:
    """Units of the swept keys from the store's registered scenario (none for a run file's sweep)."""
    try:
        from ..scenarios.base import get_scenario

        sc = get_scenario(st.scenario)
        cfg = sc.resolved_config(st.overrides or None, st.quick)
    except Exception:  # a run file's sweep, a scenario changed since: no units rather than no figure
        return {}
    return {k: u for k in grid.keys if (u := key_units(cfg, k) or sc.units.get(k, ""))}


def gather(store: SweepStore | str | Path, grid: Grid | None = None) -> xr.Dataset:
    """Assemble a store into one Dataset over the swept keys.

    Dimensions are the grid keys (e.g. ``model.a``) with their values as coordinates; data
    variables are the summary metrics of every point (NaN where a point failed or is
    missing), ``status`` (``"done"``, ``"failed"``, ``"missing"``), ``error`` (the error text of
    failed points) and ``point_key`` (the file key, for :meth:`SweepStore.load_point`).
    """
    if not isinstance(store, SweepStore):
        data = SweepStore.read_index(store)
        st = SweepStore(store, data["scenario"], quick=bool(data.get("quick")), overrides=data.get("overrides") or {},
                        grid=data["grid"])
        st.points = data["points"]
    else:
        st = store
    grid = grid or Grid({k: list(v) for k, v in st.grid.items()})
    shape = grid.shape
    keys = [point_key(p) for p in grid.points()]
    recs = [st.points.get(k) for k in keys]
    metrics: list[str] = []
    for r in recs:
        if r and r.get("status") == "done":
            for m in r.get("summary", {}):
                if m not in metrics:
                    metrics.append(m)
    axis_units = grid.units or _axis_units(st, grid)
    coords = {}
    for k, vals in grid.axes.items():
        arr = np.asarray(vals)
        coords[k] = (k, arr, {"long_name": k, **({"units": axis_units[k]} if axis_units.get(k) else {})})
    ds = xr.Dataset(coords=coords)
    dims = grid.keys
    for m in metrics:
        if m == REGIME or m.startswith(REGIME + "_"):  # the regime code of the stick-slip metrics: as words
            ds[re.sub(r"[^\w.+-]", "_", "regime" + m[len(REGIME):])] = (dims, _regimes(m, recs).reshape(shape), {
                "long_name": "stick-slip regime of the run: steady, stick-slip, oscillating (cycles without stick), "
                             "unresolved (no whole cycle after the start-up: run longer), diverged, failed, missing"})
            continue
        vals = np.array([np.nan if not r or r.get("status") != "done" or r["summary"].get(m) is None
                         else r["summary"][m] for r in recs], dtype=float).reshape(shape)
        units = next((r["units"][m] for r in recs if r and m in (r.get("units") or {})), None)
        attrs = {"units": _units_of(m) if units is None else units}
        base = next((n for n in sorted(METRICS, key=len, reverse=True) if m == n or m.startswith(n + "_")), None)
        if base is not None:
            attrs["long_name"] = METRICS[base].description + ("" if m == base else f" ({m[len(base) + 1:]})")
        ds[re.sub(r"[^\w.+-]", "_", m)] = (dims, vals, attrs)  # a NetCDF-safe name
    status = np.array([(r or {}).get("status", "missing") for r in recs], dtype=object).reshape(shape)
    ds["status"] = (dims, status.astype(str))
    errors = np.array([(r or {}).get("error", "") or "" for r in recs], dtype=object).reshape(shape)
    ds["error"] = (dims, errors.astype(str))
    ds["point_key"] = (dims, np.array(keys, dtype=str).reshape(shape))
    ds.attrs.update({"scenario": st.scenario, "quick": str(st.quick), "overrides": json.dumps(st.overrides),
                     "grid": json.dumps(grid.to_json()), "n_points": grid.size,
                     "n_failed": int(sum(1 for r in recs if r and r.get("status") == "failed")),
                     "n_missing": int(sum(1 for r in recs if not r))})
    return ds
