"""The compiled-loop disk cache (frictionlab.core.jitcache): a second process compiles nothing."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
from numba import njit

import frictionlab
from frictionlab.core import jitcache

_SRC = str(Path(frictionlab.__file__).resolve().parents[1])

# simulate LuGre (rk4 loop + step-doubling check), record every numba compilation
_SIMULATE = """
import json, sys
from frictionlab.core.jitcache import record_compilations
from frictionlab.laws import LuGre
from frictionlab.protocols import ConstantVelocity
from frictionlab.solve import simulate
from frictionlab.solve.integrate.compiled import fixed_step_loops
from frictionlab.systems.prescribed_slip import PrescribedSlip
compiled = record_compilations()
ds = simulate(LuGre(), ConstantVelocity(v=1e-3, duration_s=0.5), integrator="rk4", dt=1e-4)
euler, rk4 = fixed_step_loops(PrescribedSlip._rhs_kernel, *LuGre.kernels())
print(json.dumps({"compiled": compiled, "hits": sum(rk4.stats.cache_hits.values()),
                  "misses": sum(rk4.stats.cache_misses.values()), "module": rk4.__module__,
                  "F": float(ds.friction_force[-1])}))
"""


def _run_simulate(cache: Path) -> subprocess.Popen:
    env = {**os.environ, "FRICTIONLAB_CACHE_DIR": str(cache),
           "PYTHONPATH": os.pathsep.join([_SRC, os.environ.get("PYTHONPATH", "")])}
    return subprocess.Popen([sys.executable, "-c", _SIMULATE], env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)


def _result(proc: subprocess.Popen) -> dict:
    out, err = proc.communicate(timeout=600)
    assert proc.returncode == 0, err
    return json.loads(out.strip().splitlines()[-1])


def test_second_process_compiles_nothing(tmp_path):
    # two cold processes at once (sweep workers) write the same cache: both succeed, same result
    first = [_run_simulate(tmp_path) for _ in range(2)]
    a, b = (_result(p) for p in first)
    assert a["misses"] >= 1 or b["misses"] >= 1  # somebody compiled the loop
    assert a["F"] == b["F"]
    assert a["module"] == b["module"] and a["module"].startswith("frictionlab_jit_fixed_step_")
    generated = list((tmp_path / "jit").glob("*/frictionlab_jit_*.py"))
    assert {p.stem.split("_")[2] for p in generated} == {"fixed", "doubling"}
    assert not list((tmp_path / "jit").glob("*/.*.tmp"))  # no temporary file left behind
    # a third process loads everything from the caches
    c = _result(_run_simulate(tmp_path))
    assert c["compiled"] == [], f"the warm process compiled {c['compiled']}"
    assert c["hits"] == 1 and c["misses"] == 0
    assert c["F"] == a["F"]


def test_module_name_follows_kernel_source(tmp_path, monkeypatch):
    """Editing a kernel's source names a new module: a stale loop is never loaded."""
    monkeypatch.setenv("FRICTIONLAB_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.syspath_prepend(str(tmp_path))
    names = []
    for version, factor in enumerate((2.0, 3.0)):
        mod = f"jc_user_kernels_{version}"
        src = ("from numba import njit\n\n@njit(cache=True)\ndef rates(z, v, fn, p, out):\n    out[0] = -z[0]\n\n"
               f"@njit(cache=True)\ndef friction(z, v, fn, p):\n    return {factor} * fn\n")
        (tmp_path / f"{mod}.py").write_text(src)
        user = __import__(mod)
        from frictionlab.systems.prescribed_slip import PrescribedSlip
        from frictionlab.solve.integrate.compiled import fixed_step_loops

        euler, _ = fixed_step_loops(PrescribedSlip._rhs_kernel, user.rates, user.friction)
        Y, F = np.empty((2, 2)), np.empty(2)
        U = np.tile([1e-3, 1.0, 0.0], (3, 1))
        assert euler(np.zeros(1), np.zeros(0), U, U[::2].copy(), np.zeros(1), np.ones(1), 0.1, 1, 1, Y, F) == -1
        assert F[-1] == factor
        names.append(euler.__module__)
    assert names[0] != names[1]
    # the same kernels in the same process: the same module, not a new one
    assert fixed_step_loops(PrescribedSlip._rhs_kernel, user.rates, user.friction)[0] is euler


def test_kernels_not_importable_compile_privately(tmp_path, monkeypatch):
    """A law written in a function (not importable by another process) still runs, compiled privately."""
    monkeypatch.setenv("FRICTIONLAB_CACHE_DIR", str(tmp_path / "cache"))

    def make(k):
        @njit
        def rates(z, v, fn, p, out):
            out[0] = -k * z[0]

        @njit
        def friction(z, v, fn, p):
            return z[0] * fn

        return rates, friction

    from frictionlab.solve.integrate.compiled import fixed_step_loops
    from frictionlab.systems.prescribed_slip import PrescribedSlip

    rates, friction = make(10.0)
    euler, _ = fixed_step_loops(PrescribedSlip._rhs_kernel, rates, friction)
    n = 100
    U = np.tile([0.0, 1.0, 0.0], (2 * n + 1, 1))
    Y, F = np.empty((n + 1, 2)), np.empty(n + 1)
    assert euler(np.zeros(1), np.zeros(0), U, U[::2].copy(), np.zeros(1), np.ones(1), 1e-3, n, 1, Y, F) == -1
    assert abs(F[-1] - (1 - 1e-2) ** n) < 1e-12  # explicit Euler on z' = -10 z
    assert "_local" in euler.__module__
    assert not (tmp_path / "cache").exists()  # nothing written to the shared cache


def test_cache_dir_and_clear(tmp_path, monkeypatch):
    monkeypatch.setenv("FRICTIONLAB_CACHE_DIR", str(tmp_path / "c"))
    assert jitcache.cache_dir() == tmp_path / "c" / "jit"
    (tmp_path / "c" / "jit" / "x").mkdir(parents=True)
    assert jitcache.clear() == tmp_path / "c" / "jit"
    assert not (tmp_path / "c" / "jit").exists()
    monkeypatch.delenv("FRICTIONLAB_CACHE_DIR")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert jitcache.cache_dir() == tmp_path / "xdg" / "frictionlab" / "jit"


# the loops that take a law's kernels outside simulate: the servo closed loop (plant, model-based
# observer, outer loop), the C-callable step; and the RSF fit's quasi-static slider (plain cached kernels of
# laws/rate_state_qs_kernels.py, numba's own cache)
_SERVO_FIT = """
import json
import numpy as np
from frictionlab.core.jitcache import record_compilations
from frictionlab.control import ServoSystem, run_servo
from frictionlab.control.cstep import c_step
from frictionlab.fit.rsf import simulate_qs_slider
from frictionlab.laws import LuGre
from frictionlab.protocols import PositionRamp
compiled = record_compilations()
ds = run_servo(LuGre(), ServoSystem(compensation="observer", model=LuGre(), check_passivity=False),
               PositionRamp(duration_s=0.05))
address = c_step(LuGre).address
t = np.linspace(0.0, 4.0, 401)
mu = simulate_qs_slider(t, np.where(t < 1.0, 1e-6, 1e-5), mu_ref=0.6, a=0.005, b=0.01, dc=1e-5, k=1e3,
                        v_ref=1e-6, b2=-0.002, dc2=3e-5)
mu1 = simulate_qs_slider(t, np.where(t < 1.0, 1e-6, 1e-5), mu_ref=0.6, a=0.005, b=0.01, dc=1e-5, k=1e3,
                         v_ref=1e-6)
print(json.dumps({"compiled": compiled, "u": float(ds.control_force[-1]), "mu": float(mu[-1] + mu1[-1]),
                  "address": address > 0}))
"""


def test_servo_and_fit_loops_compile_once_across_processes(tmp_path):
    env = {**os.environ, "FRICTIONLAB_CACHE_DIR": str(tmp_path),
           "PYTHONPATH": os.pathsep.join([_SRC, os.environ.get("PYTHONPATH", "")])}

    def run() -> dict:
        proc = subprocess.run([sys.executable, "-c", _SERVO_FIT], env=env, capture_output=True, text=True, timeout=600)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout.strip().splitlines()[-1])

    cold, warm = run(), run()
    assert {"loop"} <= set(cold["compiled"])  # the first process compiled them
    assert warm["compiled"] == [], f"the warm process compiled {warm['compiled']}"
    assert (warm["u"], warm["mu"], warm["address"]) == (cold["u"], cold["mu"], True)
    stems = {p.stem.split("_")[2] for p in (tmp_path / "jit").glob("*/frictionlab_jit_*.py")}
    assert {"plant", "model", "loop", "cstep"} <= stems


def test_record_compilations_names_each_compiled_function():
    """The recorder the cache tests and ``bench fresh`` count with sees a compilation (a listener
    installed with ``event.install_listener(...)`` outside a ``with`` block saw none)."""
    names = jitcache.record_compilations()

    @njit
    def freshly_defined(x):
        return x + 1

    assert freshly_defined(1) == 2
    assert [n for n in names if n.endswith("freshly_defined")] == [freshly_defined.py_func.__qualname__]
    freshly_defined(2)  # the same types: no second compilation
    assert len([n for n in names if n.endswith("freshly_defined")]) == 1


def test_cache_writable_by_others_is_not_used(tmp_path):
    """A cache directory another user can write (a shared /tmp) could hold a planted module or numba index
    (which numba unpickles): the loops then compile privately and nothing is read from it (fails on the old
    code: the world-writable directory was used)."""
    root = tmp_path / "shared"
    (root / "jit").mkdir(parents=True)
    for d in (root, root / "jit"):
        d.chmod(0o777)
    result = _result(_run_simulate(root))
    assert "_local" in result["module"]  # bound through the private directory
    assert not list((root / "jit").glob("*/frictionlab_jit_*.py"))


def test_planted_generated_module_is_not_imported(tmp_path):
    """A generated module whose text differs from what this code generates is never executed (fails on the old
    code: any file under the expected name was imported)."""
    first = _result(_run_simulate(tmp_path))
    generated = sorted((tmp_path / "jit").glob("*/frictionlab_jit_fixed_step_*.py"))
    assert generated
    marker = tmp_path / "planted-ran"
    for path in generated:
        path.write_text(f"open({str(marker)!r}, 'w').write('x')\n" + path.read_text())
        for stale in path.parent.glob("__pycache__/*"):
            stale.unlink()
    again = _result(_run_simulate(tmp_path))
    assert not marker.exists()
    assert again["F"] == first["F"]
