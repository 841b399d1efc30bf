"""Rate-and-state velocity steps through the public path against ``rsfmodel`` (J. R. Leeman's package).

The problems are rsfmodel's own examples (``examples/velocity_step_one_state.py`` and
``velocity_step_two_state.py``): mu0 = 0.6, a = 0.005, aging (Dieterich) law with b = 0.01,
Dc = 10 um (and a second state b2 = 0.001, Dc2 = 5 um), k = 1e-3 /um, load point 1 -> 10 um/s
at 10 s, 40 s sampled every 0.01 s (4001 samples), both started at steady state at 1 um/s.
Ours is ``simulate(RateState|RateState2(...), VelocitySteps(...), system=QuasiStaticSlider(1e3 N/m),
integrator="quasi_static", save_dt=0.01)`` at N = 1 N (k/N = 1e3 /m = 1e-3 /um), each side with its
default solver (rsfmodel: ``odeint``, rtol = atol = 1e-12; ours: the compiled Rodas4 of
:mod:`frictionlab.laws.rate_state_qs_kernels`, rtol 1e-9).

Every timed call consumes its result: ours reads ``ds.friction_coefficient.values`` inside the
timing (the driver returns a :class:`~frictionlab.core.result.LazyDataset`, which computes nothing
more until read), rsfmodel's ``model.results.friction``. Figures:

* in-process: both warmed up once, then ``rounds`` interleaved calls (ours, rsfmodel, ours, ...);
  the medians and their ratio; also the fit layer's :func:`~frictionlab.fit.rsf.simulate_qs_slider`
  (the same compiled code without the protocol/Dataset layer);
* fresh process (:func:`frictionlab.benchmarks.bench_fresh.run_rsf`): a new interpreter per run,
  imports + the run + reading the result + exit, ours and rsfmodel alternating, medians; ours once
  with a cold compile cache;
* agreement: the largest ``|mu ours - mu rsfmodel|`` over the 4001 samples.

rsfmodel (github.com/jrleeman/rsfmodel) is an optional peer, found on ``PYTHONPATH=/dir/holding/rsfmodel``;
without it only our own figures are printed. Its ``solve`` calls ``scipy.integrate.cumtrapz``
(removed in SciPy 1.14): the name is bound to ``cumulative_trapezoid`` first. The machine may be
shared: ratios taken in one interleaved run are the figures to compare; the 1-min load average is
printed at the start and the end.
"""

from __future__ import annotations

import importlib.util
import os
import statistics
import time
from typing import Any

import numpy as np

CASES = {"one state": ((0.01, 10.0),), "two states": ((0.01, 10.0), (0.001, 5.0))}


def _ours(states: tuple[tuple[float, float], ...]) -> np.ndarray:
    from frictionlab.laws import RateState, RateState2
    from frictionlab.protocols import VelocitySteps
    from frictionlab.solve import simulate
    from frictionlab.systems import QuasiStaticSlider

    if len(states) == 1:
        law: Any = RateState(mu0=0.6, a=0.005, b=states[0][0], dc=states[0][1] * 1e-6, v0=1e-6, v_init=1e-6)
    else:
        (b1, d1), (b2, d2) = states
        law = RateState2(mu0=0.6, a=0.005, b1=b1, dc1=d1 * 1e-6, b2=b2, dc2=d2 * 1e-6, v0=1e-6, v_init=1e-6)
    ds = simulate(law, VelocitySteps(velocities=(1e-6, 1e-5), durations=(10.0, 30.0)),
                  system=QuasiStaticSlider(stiffness=1e3), integrator="quasi_static", save_dt=0.01)
    return ds.friction_coefficient.values


def _fit_path(states: tuple[tuple[float, float], ...]) -> np.ndarray:
    from frictionlab.fit.rsf import simulate_qs_slider

    t = np.arange(4001) * 0.01
    extra = {"b2": states[1][0], "dc2": states[1][1] * 1e-6} if len(states) > 1 else {}
    return simulate_qs_slider(t, np.where(t < 10.0, 1e-6, 1e-5), mu_ref=0.6, a=0.005, b=states[0][0],
                              dc=states[0][1] * 1e-6, k=1e3, v_ref=1e-6, **extra)


def _rsfmodel(states: tuple[tuple[float, float], ...]) -> np.ndarray:
    from scipy import integrate

    if not hasattr(integrate, "cumtrapz"):  # SciPy >= 1.14 renamed it; rsfmodel's solve calls the old name
        integrate.cumtrapz = integrate.cumulative_trapezoid
    from rsfmodel import rsf, staterelations

    model = rsf.Model()
    model.mu0, model.a, model.k, model.v, model.vref = 0.6, 0.005, 1e-3, 1.0, 1.0
    rels = []
    for b, dc in states:
        s = staterelations.DieterichState()
        s.b, s.Dc = b, dc
        rels.append(s)
    model.state_relations = rels
    model.time = np.arange(0, 40.01, 0.01)
    lp = np.ones_like(model.time)
    lp[1000:] = 10.0
    model.loadpoint_velocity = lp
    model.solve()
    return np.asarray(model.results.friction)


def _timed(f, *args) -> float:
    t = time.perf_counter()
    out = f(*args)
    float(out[-1])  # consumed inside the timing
    return time.perf_counter() - t


def in_process(rounds: int, have_peer: bool) -> list[tuple[str, float, str, str]]:
    out: list[tuple[str, float, str, str]] = []
    for name, states in CASES.items():
        ours = _ours(states)  # warm-up (compile or load the cache, xarray)
        fit = _fit_path(states)
        runners = {"ours": _ours, "fit": _fit_path}
        if have_peer:
            theirs = _rsfmodel(states)
            runners["rsfmodel"] = _rsfmodel
        times: dict[str, list[float]] = {k: [] for k in runners}
        for _ in range(rounds):
            for k, f in runners.items():
                times[k].append(_timed(f, states))
        med = {k: statistics.median(v) for k, v in times.items()}
        out.append((f"{name}: simulate(quasi_static) + read, in-process median of {rounds}", med["ours"] * 1e3, "ms",
                    f"fastest {min(times['ours']) * 1e3:.2f} ms"))
        out.append((f"{name}: fit.rsf.simulate_qs_slider, in-process median", med["fit"] * 1e3, "ms",
                    f"same code: |mu - simulate's| <= {float(np.max(np.abs(fit - ours))):.1e}"))
        if have_peer:
            out.append((f"{name}: rsfmodel solve + read, in-process median", med["rsfmodel"] * 1e3, "ms", ""))
            out.append((f"{name}: in-process ours / rsfmodel (medians, interleaved)", med["ours"] / med["rsfmodel"],
                        "1", "<= 0.2 (issue 32)"))
            out.append((f"{name}: largest |mu ours - mu rsfmodel| (4001 samples)", float(np.max(np.abs(ours - theirs))),
                        "1", "solver tolerances (rtol 1e-9 vs 1e-12)"))
    return out


def run(quick: bool) -> list[tuple[str, float, str, str]]:
    from .bench_fresh import run_rsf

    have_peer = importlib.util.find_spec("rsfmodel") is not None
    out = [("load average (1 min) at the start", os.getloadavg()[0], "", "2 shared cores: > 2 means contention")]
    if not have_peer:
        out.append(("rsfmodel", float("nan"), "-", "not importable: only our figures (PYTHONPATH=/dir/holding/rsfmodel)"))
    out += in_process(5 if quick else 21, have_peer)
    out += run_rsf(quick)
    out.append(("load average (1 min) at the end", os.getloadavg()[0], "", ""))
    return out


if __name__ == "__main__":
    import sys

    for row in run(quick="--quick" in sys.argv):
        print(" | ".join(f"{v:.4g}" if isinstance(v, float) else str(v) for v in row))
