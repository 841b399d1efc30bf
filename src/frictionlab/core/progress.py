"""Progress lines for long operations: silent for the first seconds, then a line every few seconds.

A command that may run longer than about two seconds hands a :class:`ProgressLines` to the work
as its ``progress`` callback. The callback is cheap (a clock read) when no line is due, so the work
may call it on every iteration. Lines go to standard error, so standard output stays the result.
"""

from __future__ import annotations

import sys
import time
from typing import IO, Any

__all__ = ["ProgressLines", "DELAY_S", "EVERY_S"]

#: seconds of silence before the first line (a quick operation prints nothing)
DELAY_S = 2.0
#: seconds between lines after that
EVERY_S = 2.0


class ProgressLines:
    """``progress(**fields)``: print ``label: k=v, ...`` to ``stream`` when a line is due.

    Parameters
    ----------
    label : str
        What is running (``"fit rsf"``), the start of every line.
    stream : file, optional
        Where lines go (default: ``sys.stderr`` at call time).
    delay, every : float, optional
        Seconds of silence before the first line and between lines (default :data:`DELAY_S`,
        :data:`EVERY_S`, read when the object is made).
    fmt : callable, optional
        ``fmt(fields) -> str``, the text after ``label: ``; default ``k=v`` pairs.
    """

    def __init__(self, label: str, *, stream: IO[str] | None = None, delay: float | None = None,
                 every: float | None = None, fmt=None) -> None:
        self.label = label
        self.stream = stream
        self.delay = DELAY_S if delay is None else float(delay)
        self.every = EVERY_S if every is None else float(every)
        self.fmt = fmt or (lambda f: ", ".join(f"{k}={v}" for k, v in f.items()))
        self.t0 = time.perf_counter()
        self._next = self.t0 + self.delay
        self.lines = 0

    def __call__(self, **fields: Any) -> None:
        now = time.perf_counter()
        if now < self._next:
            return
        self._next = now + self.every
        self._write(f"{self.label}: {self.fmt(fields)} ({now - self.t0:.1f} s)")

    def done(self, text: str = "done") -> None:
        """Close with one line, only when progress lines were printed (a quick run stays silent)."""
        if self.lines:
            self._write(f"{self.label}: {text} ({time.perf_counter() - self.t0:.1f} s)")

    def _write(self, line: str) -> None:
        stream = self.stream or sys.stderr
        stream.write(line + "\n")
        stream.flush()
        self.lines += 1
