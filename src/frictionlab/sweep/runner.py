"""Run a scenario over a parameter grid, chunks of points per task, on dask.distributed.

:func:`run_sweep` runs every point that the store does not hold yet: by default the first
points in this process, then -- unless the rest is too short to amortise starting workers
(estimated from the time of those points) -- the others on a :class:`distributed.LocalCluster`
of worker processes forked from this warm process (imports done, compiled loops in memory),
several points per task. ``scheduler="local"`` always uses the local cluster, an address
(``"tcp://host:8786"``) an existing cluster, ``scheduler="serial"`` this process only.
On a LocalCluster each worker writes its point's NetCDF file into
the :class:`~frictionlab.sweep.store.SweepStore` itself and returns only the summary record,
which the client journals the moment it arrives (with an external scheduler, or
``worker_writes=False``, the result Dataset travels back and the client writes the file), so
an interrupted sweep resumes (``resume=True``) without recomputing a stored point. A
point that raises is recorded with its error and the others carry on. :func:`gather`
assembles the store into one Dataset with the swept keys as dimensions.
"""

from __future__ import annotations

import json
import logging
import math
import multiprocessing
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
from .store import SweepStore, make_record, point_key, write_point_file

__all__ = ["run_sweep", "gather", "default_summary", "run_point", "run_and_store_point", "plan_parallel", "SERIAL",
           "LOCAL"]

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


def run_and_store_point(scenario: Scenario, point: dict[str, Any], overrides: dict[str, Any], quick: bool,
                        key: str, points_dir: str, scenario_name: str, metrics: MetricSet | None = None,
                        ) -> tuple[None, dict[str, float], str, float, dict[str, str], dict[str, Any]]:
    """Run one point and write its NetCDF file here (on a worker that sees the store's filesystem).

    Only the small record travels back; the client then journals it, so a point counts as
    stored only once its file exists (a crash in between is recovered from the file's
    attributes when the store is reopened). A failed write is recorded as a failed point.

    Returns
    -------
    (None, summary metrics, error text, wall seconds, units, index record)
    """
    ds, summary, error, seconds, units = run_point(scenario, point, overrides, quick, metrics)
    names = None if metrics is None else metrics.names
    rec = make_record(point, summary, error, seconds, units, names)
    if ds is not None and not error:
        try:
            write_point_file(points_dir, key, ds, rec, scenario_name)
        except Exception as exc:  # e.g. the store is not on this worker's filesystem
            error = f"cannot write the point file in {points_dir} from the worker: {type(exc).__name__}: {exc}"
            rec = make_record(point, {}, error, seconds, {}, names)
    return None, (rec["summary"] if not error else {}), error, seconds, units, rec


def run_and_store_points(scenario: Scenario, points: list[tuple[str, dict[str, Any]]], overrides: dict[str, Any],
                         quick: bool, points_dir: str, scenario_name: str, metrics: MetricSet | None = None,
                         ) -> list[tuple]:
    """:func:`run_and_store_point` for a chunk of ``(key, point)`` pairs, one after the other (one task)."""
    return [run_and_store_point(scenario, point, overrides, quick, key, points_dir, scenario_name, metrics)
            for key, point in points]


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


def _connect(scheduler: str | None, n_workers: int | None, n_todo: int, connect_timeout: float,
             start_method: str | None = None):
    """Return ``(client, cluster or None)``; ConfigError when a scheduler cannot be reached."""
    import dask
    from distributed import Client, LocalCluster

    if scheduler is None or scheduler.lower() == LOCAL:
        n = n_workers if n_workers is not None else min(2, max(1, n_todo))
        if n < 1:
            raise ConfigError(f"--workers must be >= 1, got {n}")
        method = start_method or ("fork" if fork_is_safe() else "spawn")
        # no statistical profiler on the workers (a thread sampling the computing one every 10 ms for
        # the dashboard, which a sweep does not show): ~3% of the workers' CPU on 48 short points
        with dask.config.set({"distributed.worker.multiprocessing-method": method,
                              "distributed.worker.profile.enabled": False}):
            cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                                   silence_logs=logging.ERROR, scheduler_kwargs={"dashboard": False})
        return Client(cluster), cluster
    addr = scheduler if "://" in scheduler else f"tcp://{scheduler}"
    try:
        client = Client(addr, timeout=connect_timeout)
    except Exception as exc:  # OSError / TimeoutError / ValueError for a bad address
        raise ConfigError(f"cannot reach the dask scheduler at {scheduler!r} within {connect_timeout:g} s "
                          f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else 'no answer'}); "
                          "start one with 'dask scheduler' or leave out --scheduler for a local cluster") from None
    return client, None


def run_sweep(
    scenario: str | Scenario,
    grid: Grid | Iterable[str],
    *,
    store: str | Path | None = None,
    overrides: dict[str, Any] | None = None,
    quick: bool = False,
    scheduler: str | None = None,
    n_workers: int | None = None,
    resume: bool = False,
    connect_timeout: float = 5.0,
    progress: bool | Any = False,
    on_point: Callable[[str, dict[str, Any], str], None] | None = None,
    worker_writes: bool | None = None,
    chunk_size: int | None = None,
    metrics: Iterable[str | Callable] | Mapping[str, Callable] | None = None,
    start_method: str | None = None,
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
        process only; else the address of a running dask scheduler (``tcp://host:8786``)
    n_workers : LocalCluster size (default min(2, points to run)); 1 never beats this process,
        so with ``scheduler=None`` one worker means a serial run
    resume : continue a store of the same sweep, skipping its finished points (failed points
        are tried again; stored points summarised with other ``metrics`` are re-summarised from
        their files, not run again)
    connect_timeout : seconds to wait for an external scheduler [s]
    progress : True for a rich progress bar on the terminal, or a ``rich.console.Console``
    on_point : called as ``on_point(key, point, error)`` after each point is stored
    worker_writes : whether dask workers write their point files into the store themselves (only
        the small record returns to the client, which journals it once the file exists). Needs
        the store on a filesystem the workers see; None (default) is True for a LocalCluster
        and False for an external ``scheduler``. When False every result Dataset travels back
        and the client writes it, which serialises the sweep on the client: with 2 workers and
        1 MB results, 2 workers ran no faster than 1.
    chunk_size : points per dask task (with ``worker_writes``). None (default): tasks of about
        ``CHUNK_TARGET_S`` seconds from the measured point time, at least 4 per worker; 1 on an
        external scheduler. Records are journalled when a chunk returns (a file written before
        a crash is recovered from its attributes on ``resume``, so nothing is computed twice).
    metrics : named metrics (:data:`frictionlab.sweep.metrics.METRICS`, those valid for the
        scenario) and/or functions ``ds -> float`` (named by ``__name__``, or given as
        ``{"name": function}``; a ``units`` attribute on the function gives the units). None:
        the scenario's ``summary``, else final and mean friction (:func:`default_summary`)
    start_method : ``"fork"`` or ``"spawn"`` for LocalCluster workers; None: fork where it is safe
        (:func:`fork_is_safe`), so workers start warm

    Returns
    -------
    xarray.Dataset
        See :func:`gather`.

    Raises
    ------
    ConfigError
        Unknown scenario, grid key or metric (with the valid ones), empty grid, a store of
        another sweep, an unreachable scheduler.
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
    if store is None:
        store = tempfile.mkdtemp(prefix="frictionlab-sweep-")
    st = SweepStore(store, sc.name, quick=quick, overrides=overrides, grid=grid.to_json(),
                    config=base_cfg).open(resume=resume)
    console = None
    if progress:
        from rich.console import Console

        console = progress if isinstance(progress, Console) else Console(stderr=True)
    if st.repaired and console is not None:  # broken point files found on resume: say so, they run again
        console.print(f"{len(st.repaired)} stored point file(s) were broken and run again: "
                      + "; ".join(f"{k} ({why})" for k, why in st.repaired[:3]), markup=False)
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

    n_failed = 0
    task = None
    if bar is not None:
        bar.start()
        task = bar.add_task(sc.name, total=grid.size, completed=n_done0, failed=0)

    def finish(key: str, point: dict[str, Any], result: tuple) -> None:
        nonlocal n_failed
        ds, summary, error, seconds, units = result[:5]
        if len(result) == 6:  # written by the worker: journal its record
            st.append_record(key, result[5])
        else:
            st.write_point(key, point, ds, summary, error, seconds, units, names)
        n_failed += bool(error)
        if bar is not None:
            bar.update(task, advance=1, failed=n_failed)
        if on_point is not None:
            on_point(key, point, error)

    def say(text: str) -> None:
        if bar is not None:
            bar.console.print(text, markup=False, highlight=False)

    try:
        sched = None if scheduler is None else scheduler.strip()
        if todo and sched is not None and sched.lower() in SERIAL:
            for key, point in todo:
                finish(key, point, run_point(sc, point, overrides, quick, mset))
        elif todo:
            seconds = float("nan")
            local = sched is None or sched.lower() == LOCAL
            if sched is None:  # automatic: the first points here, the rest where it pays
                todo, seconds = _run_first_points(sc, todo, overrides, quick, mset, finish, n_workers, say)
            elif local and (start_method or "fork") == "fork" and fork_is_safe():
                # one point here warms this process: the forked workers start warm
                key, point = todo[0]
                result = run_point(sc, point, overrides, quick, mset)
                finish(key, point, result)
                todo, seconds = todo[1:], (result[3] if not result[2] else seconds)
            if todo:
                # decided after the first points: a numba parallel region that ran in them may forbid fork
                method = start_method or ("fork" if fork_is_safe() else "spawn")
                if worker_writes is None:
                    worker_writes = local
                n_w = n_workers or min(2, len(todo))
                chunk = chunk_size or (auto_chunk(len(todo), seconds, n_w) if local and worker_writes else 1)
                if chunk > 1 and not worker_writes:
                    raise ConfigError(f"chunk_size {chunk} needs worker_writes (workers that write the store)")
                store_info = (str(st.points_dir.resolve()), st.scenario) if worker_writes else None
                _run_distributed(sc, todo, overrides, quick, sched, n_workers, connect_timeout, finish, store_info,
                                 chunk, mset, method if local else None)
    finally:
        if bar is not None:
            bar.stop()
        st.close()  # fold the journal, release the store's lock
    return gather(st, grid)


def _run_first_points(sc, todo, overrides, quick, mset, finish, n_workers, say) -> tuple[list, float]:
    """Run points here until the rest is worth a cluster; return ``(points left, seconds per point)``.

    The first point includes this process's warm-up (compilation), so a second one measures
    the point time; the rest goes to a cluster when :func:`plan_parallel` says it finishes
    sooner, counting the cluster's start-up (forked workers start warm).
    """
    n_w = n_workers if n_workers is not None else 2
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
    """Re-summarise stored points whose records hold other metrics, from their files (no re-run)."""
    names = None if mset is None else mset.names
    for key, point in done:
        rec = st.record(key) or {}
        if rec.get("metrics", None) == names:
            continue
        ds = st.load_point(key)
        try:
            summary, units = summarize(ds, sc, mset)
            error = ""
        except Exception as exc:
            summary, units, error = {}, {}, f"{type(exc).__name__}: {exc}"
        # a metric that fails on the stored run marks the point failed (as it would have on running it)
        st.append_record(key, make_record(point, summary, error, rec.get("seconds", float("nan")), units, names))


def _run_distributed(sc, todo, overrides, quick, scheduler, n_workers, connect_timeout, finish, store_info=None,
                     chunk_size=1, metrics=None, start_method=None) -> None:
    from distributed import as_completed

    client, cluster = _connect(scheduler, n_workers, len(todo), connect_timeout, start_method)
    try:
        sc_future = client.scatter(sc, broadcast=True) if cluster is not None else sc
        futures = {}
        run_id = uuid.uuid4().hex[:8]  # task keys unique to this run: a shared cluster never mixes sweeps
        for i in range(0, len(todo), chunk_size):
            chunk = todo[i:i + chunk_size]
            key, point = chunk[0]
            if chunk_size > 1:
                fut = client.submit(run_and_store_points, sc_future, chunk, overrides, quick, *store_info, metrics,
                                    key=f"sweep-{key}-n{len(chunk)}-{run_id}")
            elif store_info is not None:
                fut = client.submit(run_and_store_point, sc_future, point, overrides, quick, key, *store_info, metrics,
                                    key=f"sweep-{key}-{run_id}")
            else:
                fut = client.submit(run_point, sc_future, point, overrides, quick, metrics, key=f"sweep-{key}-{run_id}")
            futures[fut] = chunk
        for fut in as_completed(futures):
            chunk = futures.pop(fut)  # drop the reference: the worker may free the result
            try:
                results = fut.result() if chunk_size > 1 else [fut.result()]
            except Exception as exc:  # a killed worker, a lost task: record, go on
                results = [(None, {}, f"{type(exc).__name__}: {exc}", float("nan"), {})] * len(chunk)
            for (key, point), result in zip(chunk, results):
                finish(key, point, result)
    finally:
        client.close()
        if cluster is not None:
            cluster.close()


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
        st = SweepStore(store, data["scenario"], quick=data["quick"], overrides=data["overrides"], grid=data["grid"])
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
