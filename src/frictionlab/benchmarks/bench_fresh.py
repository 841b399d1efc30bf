"""Fresh-process end-to-end wall times (issue 19): what a user pays per process.

Each figure is the wall time of a new Python process, from its start to its exit, as seen by
this one (interpreter start, imports, compilation or cache loading, the work, exit); the
child's own split (imports / work) is printed in the target column.

* ``python -c "import numpy"``: the floor every Python tool pays; the other figures are
  also given as ratios to it (the machine is shared: ratios in one run are the figures to
  compare).
* LuGre, first ``simulate`` (rk4, prescribed slip, 10^4 steps) with a **cold** cache
  (``FRICTIONLAB_CACHE_DIR`` and ``NUMBA_CACHE_DIR`` in a new empty directory: every
  compiled loop and kernel is compiled) and then **warm** (a second process on the same
  directories: :mod:`frictionlab.core.jitcache` loads the loops; the number of numba
  compilations in that process is reported, target 0).
* One elastic periodic Polonsky-Keer solve of a 512^2 Gaussian surface (beta = 10,
  sigma = 1, 100 MPa, tol 1e-6, E* = 1/pi as in ``bench_rough_contact``) read from a ``.npy``
  file, ours (``pk_solve``, compiled, and the one-call SI-units ``solve_contact``, which also
  computes gap, displacement and contact clusters: by default on its array path, which loads
  neither numba nor scipy, and with ``use_numba=True``) against tamaas ``PolonskyKeerRey`` in its
  own fresh process, when tamaas is importable. The ``contact`` mode adds ``pk_solve``'s array
  iteration (``use_numba=False``).
* One rate-and-state velocity step on the quasi-static spring-slider, the ``rsfmodel``
  README/example problem (``examples/velocity_step_one_state.py``): mu0 = 0.6, a = 0.005,
  b = 0.01 aging (Dieterich) law, Dc = 10 um, k = 1e-3 /um, load point 1 -> 10 um/s at 10 s,
  40 s, both started at steady state at 1 um/s (``vref`` = ``v0`` = 1 um/s) and both returning
  the 4001 samples every 0.01 s (rsfmodel's ``time = arange(0, 40.01, 0.01)``, ours
  ``save_dt = 0.01``; rsfmodel works in um and s, ours in SI: ``stiffness = 1e3`` N/m at N = 1 N
  is k / N = 1e-3 /um). Each side with its own default solver: rsfmodel ``Model.solve()``
  (``odeint``, rtol = atol = 1e-12, ``tcrit`` at the step), ours the driver ``quasi_static``
  (its default solver, the compiled Rodas4 of :mod:`frictionlab.laws.rate_state_qs_kernels`
  between the protocol's breakpoints, rtol 1e-9: no ``scipy.integrate``, whose import was ~0.7-1 s
  of both processes). An unreported pair of
  runs checks that they agree (largest friction difference over the samples every 5 s).
  Ours runs once with a cold cache (new empty cache directories) and then alternates with
  rsfmodel, ``rsf_repeats`` runs each (7; 3 with ``quick``): the figures are the medians
  (and the fastest). Each child reads its result inside the timing (ours
  ``ds.friction_coefficient.values``, rsfmodel ``model.results.friction``: a lazy result that is never
  read measures nothing) and reports which of numba, scipy, xarray, pandas, dask it loaded.
  rsfmodel is found when importable (``PYTHONPATH=/path/to/dir/holding/rsfmodel``). Its
  ``solve`` calls ``scipy.integrate.cumtrapz``, removed in SciPy 1.14: the snippet binds that
  name to ``cumulative_trapezoid`` (the same function renamed) before importing rsfmodel.
  Both packages' bytecode is compiled first (``compileall``), as an installed package's is:
  with ``PYTHONDONTWRITEBYTECODE`` set (this environment) a process would otherwise compile
  frictionlab's sources every time.

The contact figures are taken with warm caches (a first, unreported process fills
them); each is the best of ``repeats`` alternating runs (1 with ``quick``, else 3).
``python -m frictionlab.benchmarks.bench_fresh contact [RUNS] [BASE_SRC]`` prints the contact figures as
medians of ``RUNS`` (7) interleaved rounds with the load, and ``solve_contact`` imported from
another checkout's ``src`` beside them when given (before/after under the same load).

What bounds the contact figures (measured at load 3, shared 2-core machine; a child's wall time
less its own time from first to last line = interpreter start + exit):

* ``python -c "import numpy"``: 0.17 s (start + exit 0.03 s); tamaas' whole process ~1.5 s.
* Any process that runs a numba kernel pays ~0.72 s before and after its work: ``import numba``
  0.24 s, the first call of a cached kernel ~0.33-0.48 s (numba fills its typing and target
  registries and imports ``numba.np.arraymath``, whose BLAS check imports ``scipy.linalg``,
  ~0.3 s of it), ~5-10 ms per further cached kernel loaded (a 512^2 ``pk_solve`` loads 10), and
  the exit 0.15-0.18 s (0.76 s at load 6: the final garbage collections walking the ~1e5 objects
  numba creates; the same with 1 or 11 kernels loaded). ``gc.freeze()`` at exit cut it to 0.07 s
  and is not done: the objects it leaves unfinalized include open files held in reference cycles,
  which then are not flushed. The compiled 512^2 solve itself takes ~0.45 s, so ``pk_solve`` and
  ``solve_contact(use_numba=True)`` stay at ~0.9x tamaas end to end.
* ``solve_contact``'s array path (its default up to 512^2 points x loads) loads no numba: the
  plain projected CG takes ~2x the iterations (38 against 18 here), ~0.65 s, and the process
  exits in 0.03 s: ~0.6x tamaas (``ARRAY_PATH_MAX_POINTS`` in ``contact/rough/physical.py``).
* Without ``.pyc`` files (``PYTHONDONTWRITEBYTECODE`` here, and this mode does not compile them)
  every child also compiles frictionlab's sources it imports (~0.05 s), for ours and the base alike.
``python -m frictionlab.benchmarks.bench_fresh rsf`` runs the rate-and-state rows only.
"""

from __future__ import annotations

import compileall
import importlib.util
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

_SRC = str(Path(__import__("frictionlab").__file__).resolve().parents[1])

_NUMPY = "import numpy"

_LUGRE = """
import json, time
t0 = time.perf_counter()
from frictionlab.laws import LuGre
from frictionlab.protocols import ConstantVelocity
from frictionlab.solve import simulate
from frictionlab.core.jitcache import record_compilations
t1 = time.perf_counter()
compiled = record_compilations()
simulate(LuGre(), ConstantVelocity(v=1e-3, duration_s=1.0), integrator="rk4", dt=1e-4)
t2 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "work": t2 - t1, "compiled": len(compiled)}))
"""

#: records numba compilations in the child (``compiled``); inserted in the scripts that report them
_COUNT = """
from frictionlab.core.jitcache import record_compilations
compiled = record_compilations()
"""

_OURS_CONTACT = """
import json, sys, time
t0 = time.perf_counter()
import numpy as np
from frictionlab.contact.rough import BoussinesqFFT, StepOperator, pk_solve
t1 = time.perf_counter()
""" + _COUNT + """
h = np.load(sys.argv[1]); W = float(sys.argv[2])
r = pk_solve(StepOperator(BoussinesqFFT(*h.shape, periodic=True)), h, W, tol=1e-6)
t2 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "work": t2 - t1, "compiled": len(compiled)}))
"""

#: ``pk_solve``'s generic array iteration (no numba: nothing compiled to count; ``loaded`` reported)
_OURS_CONTACT_ARRAYS = (_OURS_CONTACT.replace(_COUNT, "").replace("tol=1e-6)", "tol=1e-6, use_numba=False)")
                        .replace('"compiled": len(compiled)}',
                                 '"loaded": sorted({m.split(".")[0] for m in sys.modules} & {"numba", "scipy"})}'))

#: the same problem through the one-call SI-units API (E* = 1/pi Pa, 1 m pixels: F* = 1 N), which
#: also computes the gap, displacement and contact clusters; with its default path (``ARGS``
#: empty: numpy, no numba loaded, reported as ``loaded``) or ``ARGS`` = ``, use_numba=True``
#: (compilations counted, as in the pk_solve child)
_OURS_SI_TEMPLATE = """
import json, sys, time
t0 = time.perf_counter()
import numpy as np
from frictionlab.contact.rough import solve_contact
t1 = time.perf_counter()
COUNT
h = np.load(sys.argv[1]); W = float(sys.argv[2])
s = solve_contact(h, 1.0, youngs_modulus=1 / np.pi, poisson_ratio=0.0, load=W, tol=1e-6ARGS)
t2 = time.perf_counter()
rep = {"import": t1 - t0, "work": t2 - t1}
if COUNTED:
    rep["compiled"] = len(compiled)
rep["loaded"] = sorted({m.split(".")[0] for m in sys.modules} & {"numba", "scipy"})
print(json.dumps(rep))
"""
_OURS_SI = _OURS_SI_TEMPLATE.replace("COUNTED", "False").replace("COUNT", "").replace("ARGS", "")
_OURS_SI_NUMBA = (_OURS_SI_TEMPLATE.replace("COUNTED", "True").replace("COUNT", _COUNT)
                  .replace("ARGS", ", use_numba=True"))
#: the script as it was before ``use_numba`` (a checkout whose solve_contact always loads numba)
_OURS_SI_BASE = _OURS_SI_TEMPLATE.replace("COUNTED", "True").replace("COUNT", _COUNT).replace("ARGS", "")

_TAMAAS_CONTACT = """
import json, sys, time
t0 = time.perf_counter()
import numpy as np
import tamaas as tm
t1 = time.perf_counter()
h = np.load(sys.argv[1]); W = float(sys.argv[2]); n = h.shape[0]
tm.set_log_level(tm.LogLevel.error)
model = tm.ModelFactory.createModel(tm.model_type.basic_2d, [float(n), float(n)], [n, n])
model.E, model.nu = 1 / np.pi, 0.0
tm.PolonskyKeerRey(model, h.copy(), 1e-6).solve(W / h.size)
t2 = time.perf_counter()
print(json.dumps({"import": t1 - t0, "work": t2 - t1}))
"""

#: the modules a child reports as loaded (a guard that the RSF run stays free of them)
_HEAVY = """
rep["loaded"] = sorted({m.split(".")[0] for m in sys.modules} & {"numba", "scipy", "xarray", "pandas", "dask"})
"""

_OURS_RSF = """
import json, sys, time
t0 = time.perf_counter()
from frictionlab.laws import RateState
from frictionlab.protocols import VelocitySteps
from frictionlab.solve import simulate
from frictionlab.systems import QuasiStaticSlider
t1 = time.perf_counter()
law = RateState(mu0=0.6, a=0.005, b=0.01, dc=1e-5, v0=1e-6, v_init=1e-6)
ds = simulate(law, VelocitySteps(velocities=(1e-6, 1e-5), durations=(10.0, 30.0)),
              system=QuasiStaticSlider(stiffness=1e3), integrator="quasi_static", save_dt=0.01)
mu = ds.friction_coefficient.values  # the result read inside the timing (the Dataset is lazy)
t2 = time.perf_counter()
rep = {"import": t1 - t0, "work": t2 - t1}
""" + _HEAVY + """
if sys.argv[1:] == ["check"]:
    rep["mu"] = mu[::500].tolist()
print(json.dumps(rep))
"""

_RSFMODEL = """
import json, sys, time
t0 = time.perf_counter()
import numpy as np
from scipy import integrate
if not hasattr(integrate, "cumtrapz"):  # SciPy >= 1.14 renamed it; rsfmodel's solve calls the old name
    integrate.cumtrapz = integrate.cumulative_trapezoid
from rsfmodel import rsf, staterelations
t1 = time.perf_counter()
model = rsf.Model()
model.mu0, model.a, model.k, model.v, model.vref = 0.6, 0.005, 1e-3, 1.0, 1.0
state = staterelations.DieterichState()
state.b, state.Dc = 0.01, 10.0
model.state_relations = [state]
model.time = np.arange(0, 40.01, 0.01)
lp = np.ones_like(model.time)
lp[1000:] = 10.0
model.loadpoint_velocity = lp
model.solve()
mu = np.asarray(model.results.friction)  # read inside the timing, as ours
t2 = time.perf_counter()
rep = {"import": t1 - t0, "work": t2 - t1}
""" + _HEAVY + """
if sys.argv[1:] == ["check"]:
    rep["mu"] = mu[::500].tolist()
print(json.dumps(rep))
"""


def _fresh(code: str, *args: str, env: dict[str, str] | None = None, src: str = _SRC) -> tuple[float, dict]:
    """Wall time [s] of a new process running ``code`` (start to exit) and its JSON report
    (frictionlab imported from ``src``, this checkout's by default)."""
    full = dict(os.environ if env is None else env)
    full["PYTHONPATH"] = os.pathsep.join(p for p in (src, full.get("PYTHONPATH", "")) if p)
    t = time.perf_counter()
    r = subprocess.run([sys.executable, "-c", code, *args], env=full, capture_output=True, text=True, timeout=900)
    wall = time.perf_counter() - t
    if r.returncode != 0:
        raise RuntimeError(r.stderr.strip().splitlines()[-1] if r.stderr.strip() else f"exit {r.returncode}")
    lines = r.stdout.strip().splitlines()
    return wall, (json.loads(lines[-1]) if lines else {})


def _split(rep: dict) -> str:
    out = f"imports {rep['import']:.2f} s, work {rep['work']:.2f} s"
    out += f", {rep['compiled']:.0f} compilations" if "compiled" in rep else ""
    return out + (f", loaded {'/'.join(rep['loaded']) or 'none of numba/scipy/xarray/pandas/dask'}" if "loaded" in rep else "")


def _median(runs: list[tuple[float, dict]]) -> tuple[float, dict]:
    """Median wall time of ``runs`` and the median imports / work of the children."""
    return statistics.median(r[0] for r in runs), {k: statistics.median(r[1][k] for r in runs)
                                                   for k in ("import", "work")} | {"loaded": runs[0][1].get("loaded", [])}


def _best(runs: list[tuple[float, dict]]) -> tuple[float, dict]:
    return min(runs, key=lambda r: r[0])


def run(quick: bool) -> list[tuple[str, float, str, str]]:
    from frictionlab.contact.rough.model import load_from_pressure
    from frictionlab.contact.rough.surface import make_surface

    repeats = 1 if quick else 3
    out: list[tuple[str, float, str, str]] = []
    base = _best([_fresh(_NUMPY) for _ in range(repeats)])[0]
    out.append(('python -c "import numpy" (reference)', base, "s", "-"))
    out.append(("load average (1 min) at the start", os.getloadavg()[0], "", "2 cores: > 2 means shared cores"))

    with tempfile.TemporaryDirectory(prefix="frictionlab-bench-fresh-") as tmp:
        env = {**os.environ, "FRICTIONLAB_CACHE_DIR": str(Path(tmp) / "fl"), "NUMBA_CACHE_DIR": str(Path(tmp) / "numba")}
        cold, rep = _fresh(_LUGRE, env=env)
        out.append(("LuGre first simulate, cold cache: process", cold, "s",
                    f"{cold / base:.1f}x numpy; {_split(rep)}"))
        warm, rep = _best([_fresh(_LUGRE, env=env) for _ in range(repeats)])
        out.append(("LuGre first simulate, warm cache: process", warm, "s",
                    f"{warm / base:.1f}x numpy; {_split(rep)}; cold / warm = {cold / warm:.2f}"))
        out.append(("LuGre warm process: numba compilations", float(rep["compiled"]), "1", "0 (issue 19)"))

        n = 512
        path = str(Path(tmp) / "surface.npy")
        np.save(path, make_surface(n, n, seed=0))
        W = str(load_from_pressure(100e6, n, n))
        have_tamaas = importlib.util.find_spec("tamaas") is not None
        _fresh(_OURS_CONTACT, path, W)  # fills numba's cache of the solver kernels
        _fresh(_OURS_SI, path, W)
        ours, si, theirs = [], [], []
        for _ in range(repeats):
            ours.append(_fresh(_OURS_CONTACT, path, W))
            si.append(_fresh(_OURS_SI, path, W))
            if have_tamaas:
                theirs.append(_fresh(_TAMAAS_CONTACT, path, W))
        o, orep = _best(ours)
        out.append((f"{n}^2 periodic contact solve (tol 1e-6): process", o, "s", f"{o / base:.1f}x numpy; {_split(orep)}"))
        a, arep = _best(si)
        out.append((f"{n}^2 solve_contact, SI units (+ gap, clusters): process", a, "s",
                    f"{a / base:.1f}x numpy; {_split(arep)}"))
        if have_tamaas:
            t, trep = _best(theirs)
            out.append((f"{n}^2 periodic contact solve, tamaas: process", t, "s", f"{_split(trep)}"))
            out.append((f"{n}^2 contact solve end to end: ours / tamaas", o / t, "1", "< 1 (issue 19)"))
            out.append((f"{n}^2 solve_contact end to end: ours / tamaas", a / t, "1", "< 1 (issue 19)"))
        else:
            out.append((f"{n}^2 contact solve vs tamaas", float("nan"), "-", "tamaas not installed"))

    out += run_rsf(quick)
    out.append(("load average (1 min) at the end", os.getloadavg()[0], "", ""))
    return out


def contact_medians(runs: int, base_src: str | None = None) -> list[tuple[str, float, str, str]]:
    """The 512^2 contact figures as medians of ``runs`` interleaved fresh processes (pk_solve,
    solve_contact, tamaas; and solve_contact from another checkout's ``src`` when ``base_src`` is
    given: before/after on the same load), with the 1-min load average before each round."""
    import statistics

    from frictionlab.contact.rough.model import load_from_pressure
    from frictionlab.contact.rough.surface import make_surface

    n = 512
    with tempfile.TemporaryDirectory(prefix="frictionlab-bench-fresh-") as tmp:
        path = str(Path(tmp) / "surface.npy")
        np.save(path, make_surface(n, n, seed=0))
        W = str(load_from_pressure(100e6, n, n))
        cases = {"pk_solve": (_OURS_CONTACT, _SRC),
                 "pk_solve, use_numba=False": (_OURS_CONTACT_ARRAYS, _SRC), "solve_contact": (_OURS_SI, _SRC),
                 "solve_contact, use_numba=True": (_OURS_SI_NUMBA, _SRC)}
        if base_src is not None:
            # the base checkout's solve_contact as it is called there (no use_numba argument)
            cases["solve_contact (base src)"] = (_OURS_SI_BASE, str(Path(base_src).resolve()))
        if importlib.util.find_spec("tamaas") is not None:
            cases["tamaas"] = (_TAMAAS_CONTACT, _SRC)
        for code, src in cases.values():  # fill the caches
            _fresh(code, path, W, src=src)
        times: dict[str, list[tuple[float, dict]]] = {k: [] for k in cases}
        loads = []
        for _ in range(runs):
            loads.append(os.getloadavg()[0])
            for k, (code, src) in cases.items():
                times[k].append(_fresh(code, path, W, src=src))
    out: list[tuple[str, float, str, str]] = []
    med = {k: statistics.median(w for w, _ in v) for k, v in times.items()}
    for k, v in times.items():
        rep = {f: statistics.median(r[f] for _, r in v) for f in v[0][1] if f != "loaded"}
        rep |= {"loaded": v[0][1]["loaded"]} if "loaded" in v[0][1] else {}
        out.append((f"{n}^2 {k}: process, median of {runs}", med[k], "s", _split(rep) + " (medians)"))
    if "tamaas" in med:
        for k in med:
            if k != "tamaas":
                out.append((f"{n}^2 {k} / tamaas (medians)", med[k] / med["tamaas"], "1", "< 1 (issue 19)"))
    out.append(("load average (1 min) before each round", statistics.median(loads), "",
                " ".join(f"{x:.1f}" for x in loads)))
    return out


def run_rsf(quick: bool, repeats: int | None = None) -> list[tuple[str, float, str, str]]:
    """The rate-and-state rows (module docstring): ours cold, then ours and rsfmodel alternating."""
    repeats = repeats or (3 if quick else 7)
    out: list[tuple[str, float, str, str]] = []
    spec = importlib.util.find_spec("rsfmodel")
    have_rsf = spec is not None
    # both packages load their bytecode, as installed packages do (compiled at install), also where
    # PYTHONDONTWRITEBYTECODE is set: else every fresh process compiles frictionlab's sources again
    compileall.compile_dir(str(Path(_SRC) / "frictionlab"), quiet=1)
    if have_rsf and spec.origin:
        compileall.compile_dir(str(Path(spec.origin).parent), quiet=1)
    with tempfile.TemporaryDirectory(prefix="frictionlab-bench-fresh-") as tmp:
        env = {**os.environ, "FRICTIONLAB_CACHE_DIR": str(Path(tmp) / "fl"), "NUMBA_CACHE_DIR": str(Path(tmp) / "numba")}
        cold, rep = _fresh(_OURS_RSF, env=env)
    out.append(("RSF velocity step (quasi-static), cold cache: process", cold, "s", _split(rep)))
    _, ocheck = _fresh(_OURS_RSF, "check")  # unreported: warms the file cache, checks the answer
    if have_rsf:
        try:
            _, tcheck = _fresh(_RSFMODEL, "check")
        except RuntimeError as exc:
            out.append(("rsfmodel run failed", float("nan"), "-", str(exc)))
            have_rsf = False
    ours, theirs = [], []
    for _ in range(repeats):
        ours.append(_fresh(_OURS_RSF))
        if have_rsf:
            theirs.append(_fresh(_RSFMODEL))
    o, orep = _median(ours)
    out.append((f"RSF velocity step, ours (result read): process, median of {repeats}", o, "s",
                f"fastest {min(r[0] for r in ours):.3f} s; {_split(orep)}"))
    out.append(("RSF first simulate of a warm process: imports + run + read (median)", orep["import"] + orep["work"],
                "s", "<= 1 s on an idle machine (issue 32)"))
    if have_rsf:
        t, trep = _median(theirs)
        out.append((f"RSF velocity step, rsfmodel: process, median of {repeats}", t, "s",
                    f"fastest {min(r[0] for r in theirs):.3f} s; {_split(trep)}"))
        out.append(("RSF velocity step end to end, results read: ours / rsfmodel (medians)", o / t, "1",
                    "<= 0.7 (issue 32)"))
        diff = max(abs(a - b) for a, b in zip(ocheck["mu"], tcheck["mu"]))
        out.append(("RSF velocity step: largest |mu ours - mu rsfmodel| (every 5 s)", diff, "1",
                    "same experiment: agree to the solvers' tolerances"))
    else:
        out.append(("RSF velocity step vs rsfmodel", float("nan"), "-", "rsfmodel not importable"))
    return out


if __name__ == "__main__":
    # ``python -m frictionlab.benchmarks.bench_fresh contact [RUNS] [BASE_SRC]``: the contact figures only, medians
    if sys.argv[1:2] == ["contact"]:
        rest = sys.argv[2:]
        rows = contact_medians(int(rest[0]) if rest else 7, rest[1] if len(rest) > 1 else None)
    elif sys.argv[1:2] == ["rsf"]:
        rows = [("load average (1 min) at the start", os.getloadavg()[0], "", ""), *run_rsf(quick="--quick" in sys.argv),
                ("load average (1 min) at the end", os.getloadavg()[0], "", "")]
    else:
        rows = run(quick="--quick" in sys.argv)
    for row in rows:
        print(" | ".join(f"{v:.4g}" if isinstance(v, float) else str(v) for v in row))
