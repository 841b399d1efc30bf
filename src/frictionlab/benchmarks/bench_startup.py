"""Start-up cost: fresh-process wall times of ``import frictionlab``, CLI calls and a first ``simulate``.

Each figure is the median wall time of a few fresh ``python`` processes (this interpreter,
this environment: the same ``PYTHONPATH``), so it includes the interpreter's own start and exit.
The cases run in interleaved rounds (one process of each case per round), and every figure is
also given as the median over the rounds of its ratio to ``python -c "import numpy"`` in the same
round, the comparison that survives a loaded, shared machine; the load average is printed at the
start and the end. ``frictionlab --help`` and ``frictionlab list`` run the console script's code
(``frictionlab.cli.main``) with output discarded.

The first-``simulate`` cases (issue 32: <= 1 s on an idle machine, warm compile cache) are a user's
script: ``import frictionlab as fl``, one ``fl.simulate(...)`` and the result read
(``float(ds.friction_force[-1])``) before the process exits, so the figure includes reading it:
LuGre under prescribed slip (``rk4``, 10^4 steps: the compiled loop loaded from the cache of
:mod:`frictionlab.core.jitcache`), a rate-and-state velocity step on the quasi-static
spring-slider (``quasi_static``; a process's first short run interprets its kernels, no numba)
and Kloss made by name (``make_model("kloss")``: only that law's module is imported,
``core.registry.MODEL_MODULES``); and the LuGre run once more with the result used as a Dataset
(``ds.friction_force.mean()``), which builds the ``xarray.Dataset`` (xarray and pandas imported).
frictionlab's bytecode is compiled first (``compileall``), as an installed package's is, and every
case runs once before the timed rounds, so the caches (compiled loops, the ``list``/``show``
index) are warm. Beside them, the floor of any process that runs compiled code: ``import numba``
and one call of a cached ``@njit`` function (a module written to a temporary directory), then the
exit; a first LuGre or Kloss ``simulate`` runs the compiled loop, so it costs that floor plus its
own part (frictionlab's imports, two cached loops loaded: the run and its step-doubling guard, the
run itself).

Targets (issue 19): ``import frictionlab`` <= 0.3 s and ``frictionlab --help`` <= 0.5 s; (issue 16)
``frictionlab list`` <= 0.5 s and ``frictionlab show lugre`` <= 0.7 s; (issue 32) a first
``simulate`` <= 1 s on an idle machine. ``list`` and ``show MODEL`` read the metadata index
(:mod:`frictionlab.cli.index`), built once per source tree by importing every model and scenario
module; the time of one ``list`` that has to build it (an empty cache directory) is printed as
well. The heavy modules each call loads are listed by ``tests/unit/test_imports_lazy.py``, which
fails if ``import frictionlab``, ``--help``, ``list``, ``show lugre`` or a first LuGre or
rate-and-state ``simulate`` load what they do not need. Run with ``frictionlab bench startup``
(``--quick``: 3 rounds instead of 7).
"""

from __future__ import annotations

import compileall
import os
import statistics
import subprocess
import tempfile
import sys
import time
from pathlib import Path

_CLI = "import sys; from frictionlab.cli import main; sys.argv[0] = 'frictionlab'; main()"

_LUGRE = ("import frictionlab as fl\n"
          "ds = fl.simulate(fl.laws.LuGre(), fl.protocols.ConstantVelocity(v=1e-3, duration_s=1.0), dt=1e-4)\n")
_READ = "x = float(ds.friction_force[-1])\n"
_RSF = ("import frictionlab as fl\n"
        "ds = fl.simulate(fl.laws.RateState(a=0.005, b=0.01), fl.protocols.VelocitySteps(velocities=(1e-6, 1e-5), "
        "durations=(10.0, 30.0)), system=fl.systems.QuasiStaticSlider(stiffness=1e3), integrator='quasi_static', "
        "save_dt=0.01)\n")
_KLOSS = ("import frictionlab as fl\n"
          "ds = fl.simulate(fl.make_model('kloss'), fl.protocols.ConstantVelocity(v=1e-3, duration_s=1.0), dt=1e-4)\n")

#: (label, argv after the interpreter, target in seconds or None)
CASES: tuple[tuple[str, list[str], float | None], ...] = (
    ("import numpy", ["-c", "import numpy"], None),
    ("import frictionlab", ["-c", "import frictionlab"], 0.3),
    ("frictionlab --help", ["-c", _CLI, "--help"], 0.5),
    ("frictionlab list", ["-c", _CLI, "list"], 0.5),
    ("frictionlab show lugre", ["-c", _CLI, "show", "lugre"], 0.7),
    ("first simulate: LuGre rk4 10^4 steps, result read", ["-c", _LUGRE + _READ], 1.0),
    ("first simulate: rate-and-state quasi_static, result read", ["-c", _RSF + _READ], 1.0),
    ("first simulate: make_model('kloss') rk4 10^4 steps, result read", ["-c", _KLOSS + _READ], 1.0),
    ("first simulate: LuGre rk4, result used as a Dataset (xarray)", ["-c", _LUGRE + "x = float(ds.friction_force.mean())\n"],
     None),
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


#: the floor of any process that runs compiled code: numba imported and one cached function called (its
#: first dispatch fills numba's typing and target registries: ``numba.np.arraymath`` imports
#: ``scipy.linalg``), then the exit (the final garbage collections walk the objects numba made)
_NUMBA_FLOOR = """from numba import njit


@njit(cache=True)
def one(x):
    return x + 1.0


one(1.0)
"""


def run(quick: bool) -> list[tuple[str, float, str, str]]:
    repeats = 3 if quick else 7
    load = os.getloadavg()[0]
    # frictionlab's bytecode, as an installed package has it, also where PYTHONDONTWRITEBYTECODE is set
    # (else every process compiles the sources it imports again)
    compileall.compile_dir(str(Path(__file__).resolve().parents[1]), quiet=1)
    with tempfile.TemporaryDirectory(prefix="frictionlab-bench-startup-") as tmp:
        (Path(tmp) / "fl_numba_floor.py").write_text(_NUMBA_FLOOR, encoding="utf-8")
        floor = ("numba floor: import numba, call one cached function",
                 ["-c", f"import sys; sys.path.insert(0, {tmp!r}); import fl_numba_floor"], None)
        cases = (*CASES, floor)
        for _, argv, _ in cases:  # warm the file cache, the .pyc files, the list/show index and the compiled code
            wall_time(argv, 1)
        rounds = [{label: wall_time(argv, 1) for label, argv, _ in cases} for _ in range(repeats)]  # interleaved
    with tempfile.TemporaryDirectory() as empty:  # no index yet: list imports every model and scenario
        cold = wall_time(["-c", _CLI, "list"], 1, env=dict(os.environ, FRICTIONLAB_CACHE_DIR=empty))
    out: list[tuple[str, float, str, str]] = [("load average (1 min) at the start", load, "", "2 cores: > 2 is shared")]
    for label, _, target in cases:
        out.append((f"{label}, fresh process (median of {repeats})", statistics.median(r[label] for r in rounds), "s",
                    f"<= {target:g}" if target is not None else "info"))
    out.append(("frictionlab list building its index (empty cache, once)", cold, "s", "info"))
    for label, _, _ in cases[1:]:
        ratio = statistics.median(r[label] / r["import numpy"] for r in rounds)
        out.append((f"{label} / import numpy (median of the rounds' ratios)", ratio, "x", "info"))
    out.append(("load average (1 min) at the end", os.getloadavg()[0], "", "2 cores: > 2 is shared"))
    return out
