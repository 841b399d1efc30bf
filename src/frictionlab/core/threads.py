"""The thread budget of frictionlab's threaded hot paths (FFT products, numba ``prange`` loops).

``FRICTIONLAB_THREADS=N`` in the environment (or ``frictionlab --threads N ...``, which sets
it) caps the threads that an *automatic* choice may take: the rough-contact FFT with
``fft_workers`` left at auto uses ``N`` threads from its size crossover on (one below it,
where a second thread costs more than it saves), and the CLI sets numba's thread count to
``N``. A thread count given explicitly (``fft_workers = 4``) is used as given.
"""

from __future__ import annotations

import os

from .errors import ConfigError

__all__ = ["ENV", "thread_limit", "set_thread_limit"]

#: environment variable holding the thread budget
ENV = "FRICTIONLAB_THREADS"


def thread_limit() -> int | None:
    """The budget from ``$FRICTIONLAB_THREADS`` (a positive integer), or None when unset.

    Raises
    ------
    ConfigError
        The variable is set to anything but a positive integer.
    """
    raw = os.environ.get(ENV, "").strip()
    if not raw:
        return None
    try:
        value = int(raw)
    except ValueError:
        value = 0
    if value < 1:
        raise ConfigError(f"{ENV} = {raw!r} must be a positive integer (threads)")
    return value


def set_thread_limit(threads: int) -> None:
    """Set the budget for this process and its children: ``$FRICTIONLAB_THREADS`` and numba's threads."""
    if isinstance(threads, bool) or not isinstance(threads, int) or threads < 1:
        raise ConfigError(f"threads = {threads!r} must be a positive integer")
    os.environ[ENV] = str(threads)
    import sys

    numba = sys.modules.get("numba")
    if numba is None:  # read by numba when it is first imported
        os.environ["NUMBA_NUM_THREADS"] = str(threads)
    else:
        numba.set_num_threads(min(threads, numba.config.NUMBA_NUM_THREADS))
