"""Beam-network benchmarks (beam-network paper, doi:10.1115/1.4042247): LBNM real-time factor, MLBNM speed-up, Fig. 14 map time.

``frictionlab bench beam_network`` (add ``--quick`` for a short version). Model timings are
CPU times of single-threaded runs (the machine may be shared); the Fig. 8 case is
F_z = 88 N, 7.5e-4 m/s, preset vf60-calibrated, dt = 2e-5 s; both models use the same
scheme and step. The map is the full ``beam-network/fig14`` profile (150 points, 14 s
each) with numba's default thread count.
"""

from __future__ import annotations

import time

import numba

from frictionlab.contact.beam_network.lbnm import run_lbnm
from frictionlab.contact.beam_network.mlbnm import run_mlbnm
from frictionlab.core.registry import make_model
from frictionlab.scenarios.base import get_scenario


def _wall(fn, *a, **k):
    """CPU time of one single-threaded call [s] (robust on a shared machine; wall time >= this)."""
    t0 = time.process_time()
    fn(*a, **k)
    return time.process_time() - t0


def run(quick: bool) -> list[tuple[str, float, str, str]]:
    p = make_model("beam_network", "vf60-calibrated")
    T = 3.0 if quick else 27.0
    v = 7.5e-4
    # compile once
    run_lbnm(p, v, 0.01, scheme="euler")
    run_lbnm(p, v, 0.01)
    run_mlbnm(p, v, 0.01, scheme="euler")
    run_mlbnm(p, v, 0.01)
    out = []
    numba.set_num_threads(1)
    try:
        for scheme in ("semi-implicit", "euler"):
            w_l = _wall(run_lbnm, p, v, T, dt=2e-5, scheme=scheme)
            w_m = _wall(run_mlbnm, p, v, T, dt=2e-5, scheme=scheme)
            out.append((f"LBNM real-time factor, Fig. 8 case, {scheme}, 1 core", T / w_l, "sim s / CPU s", ">= 1"))
            out.append((f"MLBNM real-time factor, Fig. 8 case, {scheme}, 1 core", T / w_m, "sim s / CPU s",
                        ">= 100"))
            out.append((f"MLBNM speed-up over LBNM ({scheme})", w_l / w_m, "x", "paper: about 50"))
        w_m0 = _wall(run_mlbnm, p, v, T, dt=2e-5, n_picard=0)
        out.append(("MLBNM real-time factor, semi-implicit without the Picard pass (n_picard=0)", T / w_m0,
                    "sim s / CPU s", ">= 100"))
    finally:
        numba.set_num_threads(numba.config.NUMBA_NUM_THREADS)
    sc = get_scenario("beam-network/fig14")
    cfg = sc.resolved_config(quick=quick)
    t0, c0 = time.perf_counter(), time.process_time()
    ds = sc.run(cfg, quick)
    w, c = time.perf_counter() - t0, time.process_time() - c0
    nt = numba.config.NUMBA_NUM_THREADS
    label = f"Fig. 14 map ({ds.attrs['n_points']} points, {cfg['protocol']['duration_s']:g} s each, {nt} threads)"
    out.append((label + ", wall", w, "s", "< 60 on 2 cores"))
    out.append((label + ", CPU time / 2 (wall on 2 idle cores)", c / 2, "s", "< 60 on 2 cores"))
    return out
