"""MLBNM real-time factor (beam-network paper, doi:10.1115/1.4042247, Sec. 3.1, eqs. 10-11).

``frictionlab bench mlbnm`` (``--quick`` for a shorter run). The seed's use case is real-time
feedback control, so the figure of merit is the real-time factor: simulated seconds per
second of computation on one core. Fig. 8 case (preset ``vf60-calibrated``, 9 IUBs,
F_z = 88 N, stage at 7.5e-4 m/s, dt = 2e-5 s, output every 1 ms):

* kernel only -- the compiled loop :func:`~frictionlab.contact.beam_network.mlbnm._mlbnm_kernel`
  called directly, its total-force history summed (the result is read);
* end to end -- :func:`~frictionlab.contact.beam_network.mlbnm.run_mlbnm` (parameter tables,
  kernel, labelled Dataset), its ``friction_force`` and ``iub_friction`` values summed;
* C -- the same semi-implicit step in C (:mod:`frictionlab.benchmarks.c_mlbnm`, ``-O3``, no fused
  multiply-add), the compiled-language limit of this algorithm; the row says whether its history is
  bit-identical to the kernel's and the ratio of the kernel's time to C's (skipped without a C compiler).

Each figure is the best of three runs, as CPU time of the process (robust on a shared
machine; the wall time is at least this) and as wall time, with numba's threads set to one.
"""

from __future__ import annotations

import math
import time

import numba
import numpy as np

from frictionlab.contact.beam_network.mlbnm import _gp, _mlbnm_kernel, iub_arrays, run_mlbnm
from frictionlab.core.registry import make_model

V, DT, SAVE_EVERY = 7.5e-4, 2e-5, 50
KEYS = ("m", "kb", "cb", "s0", "s1", "s2", "fz", "kl", "kr")


def _best(fn, reps=3):
    """(best CPU s, best wall s, value) of ``reps`` calls of ``fn`` (which returns a number it read)."""
    cpu, wall, val = math.inf, math.inf, None
    for _ in range(reps):
        t0, c0 = time.perf_counter(), time.process_time()
        val = fn()
        wall = min(wall, time.perf_counter() - t0)
        cpu = min(cpu, time.process_time() - c0)
    if not math.isfinite(val):
        raise RuntimeError(f"MLBNM benchmark: non-finite result {val!r}")
    return cpu, wall, val


def run(quick: bool) -> list[tuple[str, float, str, str]]:
    p = make_model("beam_network", "vf60-calibrated")
    a = iub_arrays(p)
    cols = [np.ascontiguousarray(a[k][None, :]) for k in KEYS]
    T = 2.0 if quick else 10.0
    n_steps = int(round(T / DT))

    def kernel(scheme, n_picard):
        F = _mlbnm_kernel(*cols, _gp(p), np.array([V]), DT, n_steps, SAVE_EVERY, scheme, n_picard, False)[0]
        return float(F.sum())

    def end_to_end(scheme):
        ds = run_mlbnm(p, V, T, dt=DT, scheme=scheme)
        return float(ds.friction_force.values.sum() + ds.iub_friction.values.sum())

    # compile (or load from the cache) first
    _mlbnm_kernel(*cols, _gp(p), np.array([V]), DT, 10, SAVE_EVERY, 1, 1, False)
    _mlbnm_kernel(*cols, _gp(p), np.array([V]), DT, 10, SAVE_EVERY, 0, 1, False)
    run_mlbnm(p, V, 0.01)
    run_mlbnm(p, V, 0.01, scheme="euler")
    out = []
    nt = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        for label, scheme, n_picard in (("semi-implicit (default, n_picard=1)", 1, 1),
                                        ("semi-implicit, n_picard=0", 1, 0), ("euler", 0, 1)):
            cpu, wall, _ = _best(lambda: kernel(scheme, n_picard))
            out.append((f"MLBNM real-time factor, kernel only, {label}, CPU", T / cpu, "sim s / CPU s", ">= 200"))
            out.append((f"MLBNM real-time factor, kernel only, {label}, wall", T / wall, "sim s / wall s", ">= 200"))
            out.append((f"MLBNM kernel time per IUB and step, {label}", cpu / n_steps / a["m"].size * 1e9, "ns", ""))
        for label, scheme in (("semi-implicit (default)", "semi-implicit"), ("euler", "euler")):
            cpu, wall, _ = _best(lambda: end_to_end(scheme))
            out.append((f"MLBNM real-time factor, end to end (run_mlbnm), {label}, CPU", T / cpu, "sim s / CPU s",
                        ">= 200"))
            out.append((f"MLBNM real-time factor, end to end (run_mlbnm), {label}, wall", T / wall,
                        "sim s / wall s", ">= 200"))
        out += _c_peer(cols, p, T, n_steps, kernel)
    finally:
        numba.set_num_threads(nt)
    return out


def _c_peer(cols, p, T, n_steps, kernel) -> list[tuple[str, float, str, str]]:
    """C rows: real-time factor of the C step, numba/C time ratio (interleaved runs), identical bits."""
    from .c_loops import compiler
    from .c_mlbnm import build_mlbnm

    if compiler() is None:
        return [("MLBNM C peer: skipped (no C compiler)", float("nan"), "", "")]
    run_c, cmd = build_mlbnm()
    flat = [c[0] for c in cols]

    def c_run():
        return run_c(flat, _gp(p), V, DT, n_steps, SAVE_EVERY, 1)

    ref = _mlbnm_kernel(*cols, _gp(p), np.array([V]), DT, n_steps, SAVE_EVERY, 1, 1, False)[0][0]
    same = np.array_equal(c_run(), ref)
    c_cpu = k_cpu = math.inf
    for _ in range(3):  # interleaved
        c_cpu = min(c_cpu, _best(lambda: float(c_run().sum()), 1)[0])
        k_cpu = min(k_cpu, _best(lambda: kernel(1, 1), 1)[0])
    return [(f"MLBNM real-time factor, C peer ({cmd}), semi-implicit n_picard=1, CPU", T / c_cpu, "sim s / CPU s",
             ""),
            ("MLBNM kernel time / C peer time (semi-implicit n_picard=1)", k_cpu / c_cpu, "x", "<= 1.2"),
            ("MLBNM C peer history bit-identical to the kernel's", float(same), "1 = yes", "1")]


if __name__ == "__main__":
    import sys

    for row in run("--quick" in sys.argv):
        print(row)
