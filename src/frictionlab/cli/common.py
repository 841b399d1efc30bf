"""What the command modules share: the consoles, plain-text printing, the ``--debug`` flag and
the ``--workers``, ``--scheduler`` and ``--resume`` options of ``run`` and ``reproduce``."""

from __future__ import annotations

from typing import Annotated, Optional

import typer
from rich.console import Console

from ..core.errors import ConfigError

console = Console()
err_console = Console(stderr=True)

#: set by :func:`frictionlab.cli.main.main` when ``--debug`` is on the command line
DEBUG = False


def say(text: str, err: bool = False) -> None:
    """Print ``text`` as plain text (never parsed as rich markup: user paths may hold '[')."""
    (err_console if err else console).print(text, markup=False, highlight=False, soft_wrap=True)


SCHEDULER_HELP = ("run the independent runs of the scenarios made of them (rough-contact Figs. 8, 13, 14) on a "
                  "dask cluster: its address (tcp://host:8786) or scheduler file (FILE.json); every worker and the "
                  "scheduler need the same frictionlab")
WORKERS_HELP = ("local processes for the independent runs of the scenarios made of them (rough-contact Figs. 8, 13, "
                "14; default 1); each process uses one FFT thread; the count changes no result")


def scheduler_option(value: Optional[str]) -> Optional[str]:
    """``--scheduler``: an address or a scheduler file; the local words of ``sweep`` are refused here."""
    if value is None:
        return None
    if not value.strip() or value.strip().lower() in ("local", "serial", "sync", "synchronous"):
        raise ConfigError(f"--scheduler {value!r}: give a dask scheduler's address (tcp://host:8786) or scheduler "
                          "file; local processes are the default (--workers N)")
    return value.strip()


#: ``--scheduler`` of ``run`` and ``reproduce``
SchedulerOption = Annotated[Optional[str], typer.Option("--scheduler", help=SCHEDULER_HELP)]

#: ``--workers`` of ``run`` and ``reproduce``
WorkersOption = Annotated[Optional[int], typer.Option("--workers", help=WORKERS_HELP)]


def execution_options(workers: Optional[int], scheduler: Optional[str]) -> Optional[str]:
    """Check ``--workers`` and ``--scheduler`` together; returns the scheduler (:func:`scheduler_option`)."""
    if workers is not None and workers < 1:
        raise ConfigError(f"--workers {workers}: the number of worker processes must be at least 1")
    scheduler = scheduler_option(scheduler)
    if workers is not None and scheduler is not None:
        raise ConfigError("--workers sizes the local processes; with --scheduler the cluster's workers run the "
                          "independent runs (scale the cluster instead)")
    return scheduler


#: ``--resume`` of ``run`` and ``reproduce``
ResumeOption = Annotated[bool, typer.Option("--resume", help="also resume from finished runs in OUT/partial/ that "
                                            "another user wrote (refused without it: their values enter the result)")]
