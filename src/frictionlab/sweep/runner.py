"""Run a scenario over a parameter grid, one task per point, on dask.distributed.

:func:`run_sweep` sends every point that the store does not hold yet to a
:class:`distributed.LocalCluster` (worker processes on this machine, the default), to an
existing cluster (``scheduler="tcp://host:8786"``) or runs them in this process
(``scheduler="serial"``). On a LocalCluster of 2+ workers each worker writes its point's NetCDF file into
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
import re
import tempfile
import time
import traceback
import uuid
from collections.abc import Callable, Iterable
from pathlib import Path
from typing import Any

import numpy as np
import xarray as xr

from ..core.errors import ConfigError
from ..core.result import STANDARD_UNITS
from ..scenarios.base import Scenario, get_scenario
from .grid import Grid, parse_grid
from .store import SweepStore, make_record, point_key, write_point_file

__all__ = ["run_sweep", "gather", "default_summary", "run_point", "run_and_store_point", "SERIAL"]

#: ``scheduler`` values that run the points in this process, one after the other
SERIAL = ("serial", "synchronous", "sync")


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
        da = ds[var]
        other = [d for d in da.dims if d != "time"]
        final, mean = da.isel(time=-1), da.mean("time")
        if not other:
            out[f"{var}_final"] = float(final)
            out[f"{var}_mean"] = float(mean)
        else:
            stacked_f = final.stack(_p=other)
            stacked_m = mean.stack(_p=other)
            for i, idx in enumerate(stacked_f["_p"].values):
                suffix = "_".join(str(x) for x in (idx if isinstance(idx, tuple) else (idx,)))
                out[f"{var}_final_{suffix}"] = float(stacked_f.values[i])
                out[f"{var}_mean_{suffix}"] = float(stacked_m.values[i])
        break
    return out


def run_point(scenario: Scenario, point: dict[str, Any], overrides: dict[str, Any], quick: bool,
              ) -> tuple[xr.Dataset | None, dict[str, float], str, float]:
    """Run one point; never raises an ordinary exception (returns it as the error text).

    Returns
    -------
    (dataset or None, summary metrics, error text ("" on success), wall seconds)
    """
    t0 = time.perf_counter()
    try:
        ds, _ = scenario.execute({**overrides, **point}, quick=quick)
        summ = (scenario.summary or default_summary)(ds)
        summary = {str(k): float(v) for k, v in summ.items()}
        return ds, summary, "", time.perf_counter() - t0
    except Exception as exc:  # recorded with the point; the sweep goes on
        msg = f"{type(exc).__name__}: {exc}"
        if not isinstance(exc, (ValueError, RuntimeError)):
            msg += "\n" + "".join(traceback.format_exception_only(type(exc), exc)).strip()
        return None, {}, msg, time.perf_counter() - t0


def run_and_store_point(scenario: Scenario, point: dict[str, Any], overrides: dict[str, Any], quick: bool,
                        key: str, points_dir: str, scenario_name: str) -> tuple[None, dict[str, float], str, float,
                                                                                dict[str, Any]]:
    """Run one point and write its NetCDF file here (on a worker that sees the store's filesystem).

    Only the small record travels back; the client then journals it, so a point counts as
    stored only once its file exists (a crash in between is recovered from the file's
    attributes when the store is reopened). A failed write is recorded as a failed point.

    Returns
    -------
    (None, summary metrics, error text, wall seconds, index record)
    """
    ds, summary, error, seconds = run_point(scenario, point, overrides, quick)
    rec = make_record(point, summary, error, seconds)
    if ds is not None and not error:
        try:
            write_point_file(points_dir, key, ds, rec, scenario_name)
        except Exception as exc:  # e.g. the store is not on this worker's filesystem
            error = f"cannot write the point file in {points_dir} from the worker: {type(exc).__name__}: {exc}"
            rec = make_record(point, {}, error, seconds)
    return None, (rec["summary"] if not error else {}), error, seconds, rec


def run_and_store_points(scenario: Scenario, points: list[tuple[str, dict[str, Any]]], overrides: dict[str, Any],
                         quick: bool, points_dir: str, scenario_name: str) -> list[tuple]:
    """:func:`run_and_store_point` for a chunk of ``(key, point)`` pairs, one after the other (one task)."""
    return [run_and_store_point(scenario, point, overrides, quick, key, points_dir, scenario_name)
            for key, point in points]


def _connect(scheduler: str | None, n_workers: int | None, n_todo: int, connect_timeout: float):
    """Return ``(client, cluster or None)``; ConfigError when a scheduler cannot be reached."""
    from distributed import Client, LocalCluster

    if scheduler is None:
        n = n_workers if n_workers is not None else min(2, max(1, n_todo))
        if n < 1:
            raise ConfigError(f"--workers must be >= 1, got {n}")
        cluster = LocalCluster(n_workers=n, threads_per_worker=1, processes=True, dashboard_address=None,
                               silence_logs=logging.ERROR)
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
    chunk_size: int = 1,
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
    scheduler : None for a LocalCluster of ``n_workers`` processes; ``"serial"`` to run in this
        process; else the address of a running dask scheduler (``tcp://host:8786``)
    n_workers : LocalCluster size (default min(2, points to run))
    resume : continue a store of the same sweep, skipping its finished points (failed points
        are tried again)
    connect_timeout : seconds to wait for an external scheduler [s]
    progress : True for a rich progress bar on the terminal, or a ``rich.console.Console``
    on_point : called as ``on_point(key, point, error)`` after each point is stored
    worker_writes : whether dask workers write their point files into the store themselves (only
        the small record returns to the client, which journals it once the file exists). Needs
        the store on a filesystem the workers see; None (default) is True for a LocalCluster
        of two or more workers, False for one worker (the client's writes then overlap the
        worker's compute, unless ``chunk_size`` > 1) and for an external ``scheduler``. When False every result Dataset
        travels back and the client writes it, which serialises the sweep on the client: with
        2 workers and 1 MB results, 2 workers ran no faster than 1.
    chunk_size : points per dask task (with ``worker_writes``): > 1 saves the per-task round trip
        (~10-20 ms) for points that cost about as much; their files are written one by one, their
        records journalled when the chunk returns (a file written before a crash is recovered
        from its attributes on ``resume``, so nothing is computed twice). Default 1.

    Returns
    -------
    xarray.Dataset
        See :func:`gather`.

    Raises
    ------
    ConfigError
        Unknown scenario or grid key (with suggestions), empty grid, a store of another sweep,
        an unreachable scheduler.
    """
    sc = get_scenario(scenario) if isinstance(scenario, str) else scenario
    overrides = dict(overrides or {})
    base_cfg = sc.resolved_config(overrides or None, quick)
    if isinstance(grid, Grid):
        sc.refuse_derived(grid.keys, "--grid")
    else:
        grid = list(grid)
        sc.refuse_derived([g.split("=", 1)[0].strip() for g in grid], "--grid")
    if not isinstance(grid, Grid):
        grid = parse_grid(list(grid), base_cfg)
    else:
        grid.validate(base_cfg)
    if store is None:
        store = tempfile.mkdtemp(prefix="frictionlab-sweep-")
    st = SweepStore(store, sc.name, quick=quick, overrides=overrides, grid=grid.to_json(),
                    config=base_cfg).open(resume=resume)
    if st.repaired and progress:  # broken point files found on resume: say so, they run again
        from rich.console import Console

        (progress if isinstance(progress, Console) else Console(stderr=True)).print(
            f"{len(st.repaired)} stored point file(s) were broken and run again: "
            + "; ".join(f"{k} ({why})" for k, why in st.repaired[:3]), markup=False)
    todo = [(point_key(p), p) for p in grid.points()]
    todo = [(k, p) for k, p in todo if not st.is_done(k)]

    bar = None
    if progress:
        from rich.console import Console
        from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn, TimeRemainingColumn

        console = progress if isinstance(progress, Console) else Console(stderr=True)
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
        ds, summary, error, seconds = result[:4]
        if len(result) == 5:  # written by the worker: journal its record
            st.append_record(key, result[4])
        else:
            st.write_point(key, point, ds, summary, error, seconds)
        n_failed += bool(error)
        if bar is not None:
            bar.update(task, advance=1, failed=n_failed)
        if on_point is not None:
            on_point(key, point, error)

    try:
        if todo and scheduler is not None and scheduler.lower() in SERIAL:
            for key, point in todo:
                finish(key, point, run_point(sc, point, overrides, quick))
        elif todo:
            if worker_writes is None:  # one local worker: the client's writes overlap its compute
                worker_writes = scheduler is None and (chunk_size > 1 or (n_workers or min(2, len(todo))) >= 2)
            if chunk_size < 1 or (chunk_size > 1 and not worker_writes):
                raise ConfigError(f"chunk_size must be >= 1 (and 1 unless worker_writes), got {chunk_size}")
            store_info = (str(st.points_dir.resolve()), st.scenario) if worker_writes else None
            _run_distributed(sc, todo, overrides, quick, scheduler, n_workers, connect_timeout, finish, store_info,
                             chunk_size)
    finally:
        if bar is not None:
            bar.stop()
        st.close()  # fold the journal, release the store's lock
    return gather(st, grid)


def _run_distributed(sc, todo, overrides, quick, scheduler, n_workers, connect_timeout, finish, store_info=None,
                     chunk_size=1) -> None:
    from distributed import as_completed

    client, cluster = _connect(scheduler, n_workers, len(todo), connect_timeout)
    try:
        sc_future = client.scatter(sc, broadcast=True) if scheduler is None else sc
        futures = {}
        run_id = uuid.uuid4().hex[:8]  # task keys unique to this run: a shared cluster never mixes sweeps
        for i in range(0, len(todo), chunk_size):
            chunk = todo[i:i + chunk_size]
            key, point = chunk[0]
            if chunk_size > 1:
                fut = client.submit(run_and_store_points, sc_future, chunk, overrides, quick, *store_info,
                                    key=f"sweep-{key}-n{len(chunk)}-{run_id}")
            elif store_info is not None:
                fut = client.submit(run_and_store_point, sc_future, point, overrides, quick, key, *store_info,
                                    key=f"sweep-{key}-{run_id}")
            else:
                fut = client.submit(run_point, sc_future, point, overrides, quick, key=f"sweep-{key}-{run_id}")
            futures[fut] = chunk
        for fut in as_completed(futures):
            chunk = futures.pop(fut)  # drop the reference: the worker may free the result
            try:
                results = fut.result() if chunk_size > 1 else [fut.result()]
            except Exception as exc:  # a killed worker, a lost task: record, go on
                results = [(None, {}, f"{type(exc).__name__}: {exc}", float("nan"))] * len(chunk)
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
    coords = {}
    for k, vals in grid.axes.items():
        arr = np.asarray(vals)
        coords[k] = (k, arr, {"long_name": k})
    ds = xr.Dataset(coords=coords)
    dims = grid.keys
    for m in metrics:
        vals = np.array([np.nan if not r or r.get("status") != "done" or r["summary"].get(m) is None
                         else r["summary"][m] for r in recs], dtype=float).reshape(shape)
        ds[re.sub(r"[^\w.+-]", "_", m)] = (dims, vals, {"units": _units_of(m)})  # a NetCDF-safe name
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
