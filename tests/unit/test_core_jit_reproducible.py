"""Same inputs, same bits: a process that compiles its numba kernels fresh and one that loads
them from the disk caches (numba's ``__pycache__`` and ``core.jitcache``) give bit-identical
results.

A kernel compiled with ``parallel=True`` runs its loop body as a separate gufunc; a fresh
process executes the gufunc as compiled on its own, a cache-loaded one the copy re-optimised
inside the kernel's library. Fast-math flags (even only ``contract``, fused multiply-add) let
LLVM round differently in the two, so the MLBNM batch kernel gave results differing by about
1e-8 (amplified by stick-slip) between a cold and a warm ``frictionlab run beam-network/fig13``.

A fast-math kernel called from another compiled kernel is linked into the caller's module and
optimised there again; a fresh process and a cache-loaded one then need not run the same machine
code for it (likely: the fresh caller's call resolves to the kernel compiled on its own, already
loaded, while the cache holds the copy re-optimised with the caller). With fast-math flags the two
round differently: with the rough-contact preconditioner
(``nb_precondition`` inside the preconditioned CG direction) a cold and a warm process gave a 32^2
sliding run whose minimum free gap differed by 2e-13 (relative) and solver residual by 6e-6.
"""

from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

import frictionlab

_SRC = Path(frictionlab.__file__).resolve().parents[1]

_DIGEST = """
import hashlib
import numpy as np
def digest(arrays):
    h = hashlib.sha256()
    for k in sorted(arrays):
        a = np.asarray(arrays[k])
        if a.dtype.kind in "fiub":
            h.update(k.encode()); h.update(np.ascontiguousarray(a).tobytes())
    return h.hexdigest()
"""

CASES = {
    # the single-IUB batch of beam-network/fig13 (parallel kernel), 0.5 s of stick-slip, and two 9-IUB cases
    "mlbnm": """
from frictionlab.contact.beam_network.mlbnm import run_mlbnm_batch
from frictionlab.core.registry import make_model
p = make_model("beam_network", "vf60-calibrated")
r = run_mlbnm_batch([p.replace(cb=c) for c in (7.4, 148.0, 590.0)], [7.5e-4] * 3, 0.5, dt=2e-5,
                    save_dt=1e-4, single=True, save_columns=True)
# and the 9-IUB Fig. 8 case (the semi-implicit step's sweeps over the IUBs)
r9 = run_mlbnm_batch([p, p.replace(cb=590.0)], [7.5e-4] * 2, 0.5, dt=2e-5, save_dt=1e-4, save_columns=True)
print(digest({**{k: v for k, v in r.items() if k != "arrays"},
              **{"9iub_" + k: v for k, v in r9.items() if k != "arrays"}}))
""",
    # a classic law through simulate (generated rk4 loop of core.jitcache)
    "lugre": """
from frictionlab.laws import LuGre
from frictionlab.protocols import ConstantVelocity
from frictionlab.solve import simulate
ds = simulate(LuGre(), ConstantVelocity(v=1e-3, duration_s=0.5), integrator="rk4", dt=1e-4)
print(digest({k: ds[k].values for k in ds.variables}))
""",
    # a small rough-contact sliding run (contact solver kernels)
    "rough": """
from frictionlab.core.registry import make_model
from frictionlab.protocols import VelocitySteps
from frictionlab.solve import simulate
m = make_model("rough_contact", "table1").replace(patch_nx=16, patch_ny=16, surface_mx=64, surface_beta=3e-6)
fn = 10.0 * m.typical_inputs["normal_force"]
ds = simulate(m, VelocitySteps(velocities=(1e-6, 1e-5), durations=(1.0, 0.4), normal_force_value=fn))
print(digest({k: ds[k].values for k in ds.variables}))
""",
    # rough-contact sliding at 32^2: warm-started, block-preconditioned Polonsky-Keer solves
    "rough_sliding": """
from frictionlab.contact.rough.model import RoughContact, load_from_pressure
from frictionlab.contact.rough.sliding import run_sliding
from frictionlab.contact.rough.surface import make_surface
from frictionlab.protocols import ConstantVelocity
h = make_surface(32 + 10 + 40, 32, beta_x=10.0, seed=0)
ds = run_sliding(RoughContact(), h, ConstantVelocity(v=10e-6, duration_s=40 * 0.025), W=load_from_pressure(100e6, 32, 32),
                 nx=32, ny=32)
print(digest({k: ds[k].values for k in ds.variables}))
""",
    # 128^2 Boussinesq sliding (20 steps): clusters large enough that the preconditioner's
    # fastmath block solves and sums vectorise; inlined into the (non-fastmath) PK direction
    # kernel they rounded differently in a fresh and a cache-loaded process (forces 1e-13 apart)
    "rough_sliding_128": """
from frictionlab.contact.rough.model import RoughContact, load_from_pressure
from frictionlab.contact.rough.sliding import run_sliding
from frictionlab.contact.rough.surface import make_surface
from frictionlab.protocols import ConstantVelocity
n = 128
ds = run_sliding(RoughContact(), make_surface(n + 30, n, beta_x=10.0, seed=0), ConstantVelocity(v=1e-5, duration_s=0.5),
                 W=load_from_pressure(100e6, n, n), nx=n, ny=n)
print(digest({k: ds[k].values for k in ds.variables}))
""",
}


def _run(case: str, cache: Path, **env_extra: str) -> str:
    env = {**os.environ, "NUMBA_CACHE_DIR": str(cache / "numba"), "FRICTIONLAB_CACHE_DIR": str(cache),
           "PYTHONPATH": os.pathsep.join([str(_SRC), os.environ.get("PYTHONPATH", "")]), **env_extra}
    proc = subprocess.run([sys.executable, "-c", _DIGEST + CASES[case]], env=env, capture_output=True, text=True,
                          timeout=900)
    assert proc.returncode == 0, proc.stderr[-3000:]
    return proc.stdout.strip().splitlines()[-1]


@pytest.mark.slow  # reason: the cold process compiles the kernels from scratch (30-70 s on 2 loaded cores)
@pytest.mark.parametrize("case", sorted(CASES))
def test_cold_and_warm_process_give_identical_bits(case, tmp_path):
    cold = _run(case, tmp_path)
    assert list((tmp_path / "numba").rglob("*.nbi")), "the cold process wrote no numba cache"
    warm = _run(case, tmp_path)
    assert warm == cold, f"{case}: a cache-loaded kernel gives other bits than the freshly compiled one"
    if case == "mlbnm":  # prange over independent cases: one thread gives the same bits as several
        assert _run(case, tmp_path, NUMBA_NUM_THREADS="1") == cold


def _njit_options(tree: ast.AST):
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for dec in node.decorator_list:
                func = getattr(dec, "func", None)
                fname = getattr(func, "id", None) or getattr(func, "attr", "")
                if isinstance(dec, ast.Call) and fname in ("njit", "jit", "lazy_njit"):
                    yield node.name, {k.arg: k.value for k in dec.keywords}


def test_parallel_kernels_use_no_fast_math():
    """A ``parallel=True`` kernel with fast-math flags rounds differently fresh and cache-loaded."""
    offenders = []
    for path in sorted((_SRC / "frictionlab").rglob("*.py")):
        for name, opts in _njit_options(ast.parse(path.read_text(encoding="utf-8"))):
            par, fm = opts.get("parallel"), opts.get("fastmath")
            if isinstance(par, ast.Constant) and par.value is True and fm is not None and not (
                    isinstance(fm, ast.Constant) and fm.value is False):
                offenders.append(f"{path.relative_to(_SRC)}:{name}")
    assert offenders == []


def _fastmath(opts) -> bool:
    fm = opts.get("fastmath")
    return fm is not None and not (isinstance(fm, ast.Constant) and fm.value is False)


def test_fast_math_kernels_are_called_from_python_only():
    """A fast-math kernel called from another compiled kernel runs as compiled on its own in a fresh
    process and as re-optimised inside the caller in a cache-loaded one (see the module docstring):
    fast-math only on kernels that Python calls."""
    trees = {path: ast.parse(path.read_text(encoding="utf-8"))
             for path in sorted((_SRC / "frictionlab").rglob("*.py"))}
    fast = {name for tree in trees.values() for name, opts in _njit_options(tree) if _fastmath(opts)}
    # the rule sees kernels compiled on first call too (``lazy_njit``): it once looked at ``njit``/``jit`` only
    assert {"_nb_block_solves", "_nb_add_sparse"} <= fast
    offenders = []
    for path, tree in trees.items():
        compiled = {name for name, _ in _njit_options(tree)}
        for node in ast.walk(tree):
            if isinstance(node, ast.FunctionDef) and node.name in compiled:
                for call in ast.walk(node):
                    if isinstance(call, ast.Call) and getattr(call.func, "id", None) in fast:
                        offenders.append(f"{path.relative_to(_SRC)}:{node.name} calls {call.func.id}")
    assert offenders == []
