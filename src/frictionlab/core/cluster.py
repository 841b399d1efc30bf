"""Connecting to a dask cluster that is not ours: a Client, a cluster object, a scheduler file or an address.

Sweeps (:func:`frictionlab.sweep.run_sweep`) and the independent runs of the long scenarios
(:mod:`frictionlab.scenarios.executor`) accept any of:

* a ``distributed.Client`` -- used as it is, never closed here;
* a cluster object (``dask_jobqueue.SLURMCluster``, ``dask_kubernetes``' ``KubeCluster``, a
  ``LocalCluster``: anything with a ``scheduler_address``) -- a Client is opened on it and closed
  after the run; the cluster itself stays the caller's;
* a scheduler file (the JSON ``dask scheduler --scheduler-file FILE`` writes) -- a path to an
  existing file, or any path ending in ``.json``;
* an address (``tcp://host:8786``, ``host:8786``).

Before any work goes out, :func:`check_workers` waits (up to a timeout) for a first worker, then
asks every worker and the scheduler (which unpickles every task too) which frictionlab they run, so
that one without frictionlab, or with another version or other source files than this process
(whose results would differ), stops the run at once with its error instead of failing its tasks
in its own log.
"""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from .errors import ConfigError

__all__ = ["connect", "check_workers", "describe", "is_client", "is_cluster"]


def is_client(obj: Any) -> bool:
    """Whether ``obj`` is a ``distributed.Client`` (without importing distributed)."""
    return type(obj).__name__ == "Client" and hasattr(obj, "submit") and hasattr(obj, "scheduler_info")


def is_cluster(obj: Any) -> bool:
    """Whether ``obj`` is a dask cluster object (it has a ``scheduler_address``)."""
    return not isinstance(obj, (str, os.PathLike)) and not is_client(obj) and hasattr(obj, "scheduler_address")


def _scheduler_file(s: str | os.PathLike) -> Path | None:
    p = Path(s)
    if isinstance(s, os.PathLike) or p.suffix == ".json" or ("://" not in str(s) and p.is_file()):
        return p
    return None


def describe(scheduler: Any) -> str:
    """A short name of ``scheduler`` for messages."""
    if is_client(scheduler):
        return f"the dask Client of {getattr(scheduler, 'scheduler', None) and scheduler.scheduler.address}"
    if is_cluster(scheduler):
        return f"the dask cluster {type(scheduler).__name__} at {scheduler.scheduler_address}"
    f = _scheduler_file(scheduler)
    return f"the dask scheduler of {str(f)!r}" if f is not None else f"the dask scheduler at {str(scheduler)!r}"


def connect(scheduler: Any, timeout: float) -> tuple[Any, bool]:
    """``(client, ours)``: a Client on ``scheduler`` and whether the caller closes it after use.

    Raises
    ------
    ConfigError
        the scheduler cannot be reached within ``timeout`` seconds, a scheduler file is missing or
        malformed, or ``scheduler`` is none of the accepted kinds.
    """
    if is_client(scheduler):
        if getattr(scheduler, "status", "running") not in ("running", "connecting"):
            raise ConfigError(f"the dask Client passed as scheduler is {scheduler.status}; pass an open one")
        return scheduler, False
    from distributed import Client

    try:
        if is_cluster(scheduler):
            return Client(scheduler, timeout=timeout), True
        if not isinstance(scheduler, (str, os.PathLike)):
            raise ConfigError(f"scheduler must be 'serial', 'local', an address, a scheduler file, a dask Client or a "
                              f"cluster object, not a {type(scheduler).__name__}")
        f = _scheduler_file(scheduler)
        if f is not None:
            if not f.is_file():
                raise ConfigError(f"scheduler file {str(f)!r} does not exist (write it with 'dask scheduler "
                                  "--scheduler-file FILE' on a file system this machine sees)")
            return Client(scheduler_file=str(f), timeout=timeout), True
        s = str(scheduler).strip()
        return Client(s if "://" in s else f"tcp://{s}", timeout=timeout), True
    except ConfigError:
        raise
    except Exception as exc:  # OSError / TimeoutError / ValueError (bad address, bad file)
        raise ConfigError(f"cannot reach {describe(scheduler)} within {timeout:g} s "
                          f"({type(exc).__name__}: {str(exc).splitlines()[0] if str(exc) else 'no answer'}); "
                          "start one with 'dask scheduler' or leave out --scheduler for a local cluster") from None


def _probe() -> Any:
    """A function that says which frictionlab a worker runs; defined in a function so that
    cloudpickle sends it by value (it deserialises on a worker without frictionlab)."""
    def frictionlab_on_worker() -> dict[str, str]:
        import importlib
        import sys

        fl = importlib.import_module("frictionlab")
        hashes = importlib.import_module("frictionlab.core.jitcache")
        return {"version": str(fl.__version__), "source": hashes.package_hash(), "path": str(fl.__file__),
                "python": sys.version.split()[0]}

    return frictionlab_on_worker


def check_workers(client: Any, timeout: float, what: str) -> int:
    """Wait up to ``timeout`` s for a first worker, then check that every worker runs this frictionlab.

    Returns the number of workers.

    Raises
    ------
    ConfigError
        no worker within ``timeout``; a worker cannot import frictionlab (its error, one line), or
        runs another version or other source files (its results would differ from this process's).
    """
    import sys

    from .. import __version__
    from .jitcache import package_hash

    try:
        client.wait_for_workers(1, timeout=timeout)
    except (TimeoutError, OSError) as exc:
        raise ConfigError(f"{what} has no workers after {timeout:g} s ({type(exc).__name__}); start them with "
                          "'dask worker ADDRESS' (or scale the cluster), check that they reach the scheduler, or "
                          "raise --worker-timeout") from None
    answers = client.run(_probe(), on_error="return")
    try:  # the scheduler unpickles every task too: it needs frictionlab as well
        answers["the scheduler"] = client.run_on_scheduler(_probe())
    except Exception as exc:  # noqa: BLE001 - its error, whatever it is, is the answer
        answers["the scheduler"] = exc
    mine = {"version": __version__, "source": package_hash(), "python": sys.version.split()[0]}
    for worker, ans in sorted(answers.items()):
        who = worker if worker == "the scheduler" else f"dask worker {worker}"
        if isinstance(ans, BaseException):
            msg = str(ans).splitlines()[0] if str(ans) else ""
            raise ConfigError(f"{who} cannot run frictionlab ({type(ans).__name__}: {msg}); install the same "
                              "frictionlab on the scheduler and every worker (docs: Parameter sweeps, Clusters)")
        if ans["version"] != mine["version"] or ans["source"] != mine["source"]:
            raise ConfigError(f"{who} runs frictionlab {ans['version']} from {ans['path']} with other "
                              f"source files than this process ({mine['version']}, source {mine['source'][:12]} != "
                              f"{ans['source'][:12]}); its results could differ: install the same frictionlab on every "
                              "worker")
    return len(answers) - 1
