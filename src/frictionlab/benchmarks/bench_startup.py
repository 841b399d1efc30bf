"""Start-up cost: fresh-process wall times of ``import frictionlab`` and of CLI calls.

Each figure is the median wall time of a few fresh ``python`` processes (this interpreter,
this environment: the same ``PYTHONPATH``), so it includes the interpreter's own start. Every
figure is also given as a ratio to ``python -c "import numpy"`` measured in the same run, which
is the comparison that survives a loaded machine. ``frictionlab --help`` and ``frictionlab list``
run the console script's code (``frictionlab.cli.main``) with output discarded.

Targets (issue 19): ``import frictionlab`` <= 0.3 s and ``frictionlab --help`` <= 0.5 s; (issue 16)
``frictionlab list`` <= 0.5 s and ``frictionlab show lugre`` <= 0.7 s. ``list`` and ``show MODEL``
read the metadata index (:mod:`frictionlab.cli.index`), built once per source tree by importing
every model and scenario module; the index is built before the timed runs, and the time of one
``list`` that has to build it (an empty cache directory) is printed as well. The heavy modules
each call loads are listed by ``tests/unit/test_imports_lazy.py``, which fails if ``import
frictionlab``, ``--help``, ``list`` or ``show lugre`` load any. Run with ``frictionlab bench
startup`` (``--quick``: 3 processes per figure instead of 7).
"""

from __future__ import annotations

import os
import statistics
import subprocess
import tempfile
import sys
import time

_CLI = "import sys; from frictionlab.cli import main; sys.argv[0] = 'frictionlab'; main()"

#: (label, argv after the interpreter, target in seconds or None)
CASES: tuple[tuple[str, list[str], float | None], ...] = (
    ("import numpy", ["-c", "import numpy"], None),
    ("import frictionlab", ["-c", "import frictionlab"], 0.3),
    ("frictionlab --help", ["-c", _CLI, "--help"], 0.5),
    ("frictionlab list", ["-c", _CLI, "list"], 0.5),
    ("frictionlab show lugre", ["-c", _CLI, "show", "lugre"], 0.7),
)


def wall_time(argv: list[str], repeats: int, env: dict[str, str] | None = None) -> float:
    """Median wall time [s] of ``repeats`` fresh ``python argv`` processes (output discarded);
    a failing process is an error, not a figure."""
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        proc = subprocess.run([sys.executable, *argv], stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
                              env=env)
        times.append(time.perf_counter() - t0)
        if proc.returncode != 0:
            raise RuntimeError(f"python {' '.join(argv)} exited {proc.returncode}: {proc.stderr.strip()[-300:]}")
    return statistics.median(times)


def run(quick: bool) -> list[tuple[str, float, str, str]]:
    repeats = 3 if quick else 7
    wall_time(["-c", _CLI, "list"], 1)  # warm the file cache, the .pyc files and the list/show index first
    times = {label: wall_time(argv, repeats) for label, argv, _ in CASES}
    with tempfile.TemporaryDirectory() as empty:  # no index yet: list imports every model and scenario
        cold = wall_time(["-c", _CLI, "list"], 1, env=dict(os.environ, FRICTIONLAB_CACHE_DIR=empty))
    ref = times["import numpy"]
    out: list[tuple[str, float, str, str]] = []
    for label, _, target in CASES:
        out.append((f"{label}, fresh process (median of {repeats})", times[label], "s",
                    f"<= {target:g}" if target is not None else "info"))
    out.append(("frictionlab list building its index (empty cache, once)", cold, "s", "info"))
    for label, _, _ in CASES[1:]:
        out.append((f"{label} / import numpy", times[label] / ref, "x", "info"))
    return out
