"""Where a scenario's independent runs go: local processes (default) or a dask cluster.

:func:`run_tasks` (through :func:`parallel_map`, the study map of rough-contact Figs. 8, 13 and 14, or
:func:`frictionlab.scenarios.rough_contact._common.run_parallel`, a hand-written run's tasks) hands its runs
to an *executor*: ``executor.run(fn, items, finished)`` calls ``fn(*args)`` for every
``(index, args)`` of ``items`` and ``finished(index, value)`` in the calling process as each run ends
(there the partial results are written, :mod:`.checkpoint`); on the first run that raises, the runs
not started are cancelled and the error is raised once the running ones have ended (and been
reported; on a dask cluster, which cannot tell queued tasks from running ones, every unfinished run
is cancelled); on Ctrl-C the workers stop at once (dask: the tasks are cancelled).

* :class:`LocalProcesses` -- ``workers`` processes forked from this one, each with one FFT thread;
  one worker runs in this process. The count is an execution option, not a key of the scenario's
  config (it changes no result): ``runs_on(workers=N)``, the CLI's ``--workers N``; default 1.
* :class:`DaskRuns` -- the workers of a dask cluster (an address, a scheduler file, a
  ``distributed.Client`` or a cluster object, :mod:`frictionlab.core.cluster`), each run one task
  with one FFT thread, its result pickled back to this process. A worker killed mid-run costs that
  run only: dask runs it again on another worker.

The CLI (``frictionlab run|reproduce --scheduler ADDRESS`` or ``--workers N``) opens :func:`runs_on`
(a Python caller does the same: ``with runs_on(workers=4): scenario.execute()``); a scenario's
``run`` or study never sees it, and its results are bit for bit those of a serial local run (each
run is deterministic and independent; the same code runs it).

Every finished run is written to the partial store of the scenario being run (:mod:`.checkpoint`,
when the CLI or ``reproduce`` opened one) and loaded instead of computed on a resume; its key hashes
the run's function and its arguments (a study point: its full config), never the worker count.
"""

from __future__ import annotations

import contextlib
import contextvars
import uuid
from collections.abc import Callable, Iterator
from typing import Any

__all__ = ["LocalProcesses", "DaskRuns", "runs_on", "active", "local_workers", "run_tasks", "parallel_map",
           "runs_independently"]

_ACTIVE: contextvars.ContextVar[DaskRuns | None] = contextvars.ContextVar("frictionlab_executor", default=None)
_WORKERS: contextvars.ContextVar[int | None] = contextvars.ContextVar("frictionlab_workers", default=None)


def one_fft_thread() -> None:
    """``fft_workers = 0`` (auto) means one FFT thread in this process (a worker of many)."""
    from ..contact.rough import elasticity

    elasticity.FFT_THREAD_CROSSOVER = 1 << 62


def _local_worker() -> None:
    """Initializer of a forked worker: one FFT thread, and SIGINT ignored -- a terminal's Ctrl-C reaches
    the whole process group, and the parent stops its workers itself (:func:`_stop_workers`)."""
    import signal

    signal.signal(signal.SIGINT, signal.SIG_IGN)
    one_fft_thread()


def call_with_one_fft_thread(fn: Callable[..., Any], *args: Any) -> Any:
    """``fn(*args)`` in a worker that uses one FFT thread (the dask task of one run)."""
    one_fft_thread()
    return fn(*args)


def _stop_workers(ex: Any) -> None:
    """Terminate the processes of a ``ProcessPoolExecutor`` (``terminate_workers`` from Python 3.14);
    a worker would otherwise go on with the runs already queued to it, minutes each at paper size."""
    stop = getattr(ex, "terminate_workers", None)
    if stop is not None:
        stop()
        return
    procs = list((getattr(ex, "_processes", None) or {}).values())
    for proc in procs:
        proc.terminate()
    for proc in procs:  # reap them: none is left behind when this process exits
        proc.join(timeout=5)
        if proc.is_alive():
            proc.kill()
            proc.join(timeout=5)


class LocalProcesses:
    """``workers`` forked processes (one: this process), each with one FFT thread."""

    def __init__(self, workers: int) -> None:
        self.workers = workers

    def run(self, fn: Callable[..., Any], items: list[tuple[int, tuple]], finished: Callable[[int, Any], None]) -> None:
        if self.workers == 1 or len(items) <= 1:
            for i, args in items:
                finished(i, fn(*args))
            return
        import multiprocessing as mp
        from concurrent.futures import ProcessPoolExecutor, as_completed

        ex = ProcessPoolExecutor(max_workers=min(self.workers, len(items)), mp_context=mp.get_context("fork"),
                                 initializer=_local_worker)
        futs = {ex.submit(fn, *args): i for i, args in items}
        reported: set[int] = set()
        error: BaseException | None = None
        try:
            for f in as_completed(futs):
                if f.cancelled():
                    continue
                if f.exception() is None:
                    reported.add(futs[f])
                    finished(futs[f], f.result())
                elif error is None:
                    error = f.exception()
                    for g in futs:
                        g.cancel()  # the ones not started; those running finish and are kept
        except BaseException:  # Ctrl-C in this process: stop the workers now (the finished runs are written)
            _stop_workers(ex)
            raise
        finally:
            ex.shutdown(wait=True, cancel_futures=True)
            for f, i in futs.items():
                if i not in reported and f.done() and not f.cancelled() and f.exception() is None:
                    finished(i, f.result())
        if error is not None:
            raise error


class DaskRuns:
    """The runs as tasks of a dask cluster (see the module notes).

    Parameters
    ----------
    scheduler : an address, a scheduler file, a ``distributed.Client`` or a cluster object
    connect_timeout : seconds to reach the scheduler [s]
    worker_timeout : seconds to wait for its first worker [s]
    """

    def __init__(self, scheduler: Any, *, connect_timeout: float = 5.0, worker_timeout: float = 60.0) -> None:
        self.scheduler = scheduler
        self.connect_timeout = connect_timeout
        self.worker_timeout = worker_timeout
        self._client: Any = None
        self._ours = False

    @property
    def client(self) -> Any:
        """The Client, connected (and the workers checked) at the first use."""
        if self._client is None:
            from ..core.cluster import check_workers, connect, describe

            client, ours = connect(self.scheduler, self.connect_timeout)
            try:
                check_workers(client, self.worker_timeout, describe(self.scheduler))
            except BaseException:
                if ours:
                    client.close()
                raise
            self._client, self._ours = client, ours
        return self._client

    def close(self) -> None:
        if self._client is not None and self._ours:
            self._client.close()
        self._client = None

    def run(self, fn: Callable[..., Any], items: list[tuple[int, tuple]], finished: Callable[[int, Any], None]) -> None:
        from distributed import as_completed

        client = self.client
        run_id = uuid.uuid4().hex[:8]
        futs = {client.submit(call_with_one_fft_thread, fn, *args, key=f"{fn.__name__}-{i}-{run_id}", pure=False): i
                for i, args in items}
        error: BaseException | None = None
        try:
            for f in as_completed(list(futs)):
                i = futs.pop(f)
                if f.status == "cancelled":
                    continue
                try:
                    value = f.result()
                except Exception as exc:  # noqa: BLE001 - the run's own error, raised below
                    if error is None:
                        error = exc
                        pending = [g for g in futs if g.status == "pending"]
                        client.cancel(pending)  # the runs not finished; the others are reported
                    continue
                finished(i, value)
        except BaseException:
            client.cancel(list(futs))
            raise
        if error is not None:
            raise error


def check_worker_count(workers: Any, what: str = "workers") -> int:
    """``workers`` as a positive integer, else a :class:`~frictionlab.core.errors.ConfigError`."""
    from ..core.errors import ConfigError

    if isinstance(workers, bool) or not isinstance(workers, int) or workers < 1:
        raise ConfigError(f"{what} = {workers!r}: the number of worker processes must be a positive integer")
    return workers


def local_workers() -> int:
    """The processes of the local executor: the count of the enclosing :func:`runs_on` (``--workers``), else 1."""
    return _WORKERS.get() or 1


def run_tasks(fn: Callable[..., Any], tasks: list[tuple], keyed: list[tuple] | None = None, *,
              workers: int | None = None, executor: Any = None) -> list[Any]:
    """``[fn(*t) for t in tasks]`` on an executor, each finished run kept in the partial store.

    ``fn`` must be a module-level function (pickled by reference); results come back in task
    order, bit for bit the serial ones. ``keyed`` (default ``tasks``) are the arguments the
    partial store's keys hash (:func:`.checkpoint.task_key`): what determines a run's result.
    ``executor``: None is the cluster of the enclosing :func:`runs_on` when it has one, else
    :class:`LocalProcesses` of ``workers`` (None: :func:`local_workers`).

    Inside a :func:`.checkpoint.partial_results` context (``frictionlab run|reproduce --out``) each
    finished run is written at once and runs already written are loaded instead of computed;
    without one nothing is written. When a run raises, the runs not started are cancelled, the
    ones in flight finish (and are written), then the error is raised.
    """
    from .checkpoint import MISSING
    from .checkpoint import active as active_store

    w = local_workers() if workers is None else check_worker_count(workers)
    store = active_store()
    if store is not None:
        keys, results = store.resume(fn, tasks, keyed)
    else:
        keys, results = [None] * len(tasks), [MISSING] * len(tasks)
    todo = [i for i, r in enumerate(results) if r is MISSING]

    def finished(i: int, value: Any) -> None:
        results[i] = value
        if store is not None and keys[i] is not None:
            store.save(keys[i], value)

    if todo:
        ex = executor or active() or LocalProcesses(w)
        ex.run(fn, [(i, tasks[i]) for i in todo], finished)
    return results


def parallel_map(func: Callable[[Any], Any], points: list[Any]) -> list[Any]:
    """A study's execution strategy (``Scenario(study_map=parallel_map)``, ``map`` of
    :meth:`Study.execute <frictionlab.solve.study.Study.execute>`): every point an independent run
    through :func:`run_tasks` -- local processes (``--workers``) or the cluster of ``--scheduler``,
    each finished point kept in the partial store under the key of its full config (so a resume
    with another worker count, or on a cluster, loads it). Returns ``[func(p) for p in points]``."""
    return run_tasks(func, [(p,) for p in points], [(p.config,) for p in points])


def runs_independently(scenario: Any) -> bool:
    """Whether ``scenario`` sends independent runs to :func:`run_tasks` (what ``--workers`` and
    ``--scheduler`` reach): a study run by :func:`parallel_map`, or a hand-written ``run`` that
    declares it (``Scenario.parallel_runs``)."""
    return getattr(scenario, "study_map", None) is parallel_map or bool(getattr(scenario, "parallel_runs", False))


def active() -> DaskRuns | None:
    """The cluster executor opened by :func:`runs_on` (the CLI's ``--scheduler``); None elsewhere."""
    return _ACTIVE.get()


@contextlib.contextmanager
def runs_on(scheduler: Any = None, *, workers: int | None = None, connect_timeout: float = 5.0,
            worker_timeout: float = 60.0) -> Iterator[DaskRuns | None]:
    """Send the independent runs of the scenarios run inside the block to ``scheduler``, or (None)
    to ``workers`` local processes (None: the enclosing count, else 1). The cluster is reached at the
    first run that needs it.

    Raises
    ------
    ConfigError
        ``workers`` not a positive integer, or given with a ``scheduler`` (the cluster's workers run them).
    """
    from ..core.errors import ConfigError

    if workers is not None:
        check_worker_count(workers, "workers")
        if scheduler is not None:
            raise ConfigError("workers sizes the local processes; with a scheduler the cluster's workers run the "
                              "independent runs (scale the cluster instead)")
    wtoken = _WORKERS.set(workers) if workers is not None else None
    try:
        if scheduler is None:
            yield None
            return
        runs = DaskRuns(scheduler, connect_timeout=connect_timeout, worker_timeout=worker_timeout)
        token = _ACTIVE.set(runs)
        try:
            yield runs
        finally:
            _ACTIVE.reset(token)
            runs.close()
    finally:
        if wtoken is not None:
            _WORKERS.reset(wtoken)
