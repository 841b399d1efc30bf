"""Ctrl-C around the start of worker processes.

A terminal's Ctrl-C sends SIGINT to the whole foreground process group: the workers a run forked
get it as well as the process that owns them. That process stops its workers itself (terminates
its pool, closes its dask cluster); a worker that takes the SIGINT too dies with a
``KeyboardInterrupt`` traceback of its own, and a dask scheduler logs each lost worker as an error.
:func:`deferred_sigint` starts workers so that they inherit a handler that only records the
signal, and raises the KeyboardInterrupt in the owner once they have started.
"""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator

__all__ = ["deferred_sigint"]


@contextlib.contextmanager
def deferred_sigint() -> Iterator[None]:
    """Within the block SIGINT is recorded, not raised (processes forked there keep that handler and
    so ignore a terminal's Ctrl-C); on leaving it, a SIGINT that came meanwhile is raised as
    KeyboardInterrupt. Outside the main thread (no signal handlers there) it does nothing."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    got: list[int] = []

    def record(signum: int, frame: object) -> None:
        got.append(signum)

    previous = signal.signal(signal.SIGINT, record)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)
    if got:
        raise KeyboardInterrupt
