"""Closed-loop control: step latencies per law and closed-loop simulation speed.

* ``C step``: the ``numba.cfunc`` single step of each law (:mod:`frictionlab.control.cstep`,
  one RK4 step of the law state plus the force), called 1e5 times from compiled code
  through its C function pointer; ns per step (CPU time of this process).
* ``observer + controller step``: one sample of the discrete PID plus the observer-based
  compensator (:class:`~frictionlab.control.ServoSystem` ``compensation="observer"``, the
  law as its own model: force estimate + one RK4 step of the observer state), no plant;
  ns per control step. Target < 1 us for the classic laws on one core.
* ``closed loop``: :func:`frictionlab.control.run_servo` internals (the compiled loop) for a
  LuGre plant with the LuGre observer, T_s = 1 ms, 10 plant RK4 steps per sample;
  control steps per second (CPU time, compile excluded).

The machine may be shared: CPU time (``time.process_time``) is used, best of a few runs.
"""

from __future__ import annotations

import math
import time

import numpy as np
from numba import njit

from frictionlab.control import ServoSystem
from frictionlab.control.cstep import c_step
from frictionlab.control.loop import _estimator
from frictionlab.control.run import prepare
from frictionlab.core.registry import make_model
from frictionlab.laws.kloss import Kloss, KlossDynamic
from frictionlab.protocols.reference import PositionSinusoid

CLASSIC = ("coulomb", "stribeck", "dahl", "lugre", "gms", "kloss")


def _laws():
    return {
        "coulomb": make_model("coulomb", mu=1.0, v_reg=1e-5),
        "stribeck": make_model("stribeck", "canudas1995-regularised"),
        "dahl": make_model("dahl", sigma0=1e5, fc=1.0),
        "lugre": make_model("lugre", "canudas1995"),
        "gms": make_model("gms", "four-element"),
        "rate_state": make_model("rate_state", "granite-typical", form="arcsinh"),
        "kloss": Kloss(f_max=1.5, v_max0=7.5e-4, zeta=0.5),
        "kloss_dynamic": KlossDynamic(f_max=1.5, v_max0=7.5e-4, zeta=0.5, t_f=2e-3),
        "subloading_rate": make_model("subloading_rate", "common"),
    }


def _cstep_bench(cf):
    @njit
    def loop(z, p, w, f, n, v, fn, dt):
        acc = 0.0
        nz, npar = np.int32(z.size), np.int32(p.size)
        for k in range(n):
            cf(z.ctypes, nz, v * math.cos(1e-3 * k), fn, dt, p.ctypes, npar, w.ctypes, f.ctypes)
            acc += f[0]
        return acc

    return loop


def _ctrl_bench(estimate, propagate):
    @njit
    def loop(n, mp, zm0, fn, ts, kp, ki, kv, kobs, feed):
        zm = zm0.copy()
        s = np.zeros(2)
        P = np.zeros((2, 2))
        p = mp.copy()
        idx = np.zeros(0, dtype=np.int64)
        q = np.zeros(2)
        lo = np.zeros(0)
        wm = np.empty((5, max(zm.size, 1)))
        integ = 0.0
        acc = 0.0
        for k in range(n):
            xm = 1e-3 * math.sin(6.283185307179586 * ts * k)
            vm = 6.283185307179586e-3 * math.cos(6.283185307179586 * ts * k)
            xr = 1.0001e-3 * math.sin(6.283185307179586 * ts * k)
            e = xm - xr
            integ += ts * e
            fh = estimate(2, zm, s, P, p, mp, xm, vm, e, vm, fn, 0.0, 0.0, False, idx, 1.0, kobs, feed)
            u = -(kp * e + ki * integ + kv * 0.0) + fh
            propagate(2, zm, s, P, p, mp, u, vm, kobs * e, vm, fn, idx, 1.0, 1.0, ts, 1, q, lo, wm)
            acc += u
        return acc

    return loop


def _cpu(fn, repeats):
    best = math.inf
    for _ in range(repeats):
        c0 = time.process_time()
        fn()
        best = min(best, time.process_time() - c0)
    return best


def run(quick: bool) -> list[tuple[str, float, str, str]]:
    rows = []
    laws = _laws()
    names = ("lugre", "kloss", "stribeck") if quick else tuple(laws)
    n = 20000 if quick else 100000
    for name in names:
        law = laws[name]
        fn = 3e5 if law.force_units == "Pa" else 1.0
        v = 1e-4 if name == "subloading_rate" else 5e-3
        dt = 1e-6 if name == "subloading_rate" else 1e-5
        cf = c_step(law).cfunc
        loop = _cstep_bench(cf)
        z0 = np.ascontiguousarray(law.initial_state(), dtype=np.float64)
        p = np.ascontiguousarray(law.param_vector())
        w = np.zeros(5 * max(z0.size, 1))
        f = np.zeros(1)
        loop(z0.copy(), p, w, f, 10, v, fn, dt)
        t = _cpu(lambda: loop(z0.copy(), p, w, f, n, v, fn, dt), 3)
        rows.append((f"C step (cfunc, RK4 + force), {name}", 1e9 * t / n, "ns/step",
                     "< 1000" if name in CLASSIC else "info"))
    for name in names:
        law = laws[name]
        fn = 3e5 if law.force_units == "Pa" else 1.0
        est, prop = _estimator(*law.kernels(), False)
        loop = _ctrl_bench(est, prop)
        mp = law.param_vector()
        zm0 = np.ascontiguousarray(law.initial_state(), dtype=np.float64)
        args = (mp, zm0, fn, 1e-3, 2e4, 2e5, 400.0, 10.0, 0.0)
        loop(10, *args)
        t = _cpu(lambda: loop(n, *args), 3)
        rows.append((f"observer + PID control step (no plant), {name}", 1e9 * t / n, "ns/step",
                     "< 1000" if name in CLASSIC else "info"))
    law = laws["lugre"]
    servo = ServoSystem(kp=2e4, ki=2e5, kv=400.0, compensation="observer", model=law, observer_gain=10.0)
    ref = PositionSinusoid(amplitude=1e-3, frequency=1.0, duration_s=2.0 if quick else 10.0)
    lp, args, info = prepare(law, servo, ref, dt=1e-4)
    lp(*args)
    t = _cpu(lambda: lp(*args), 1 if quick else 3)
    steps = info["times"].size
    rows.append(("closed loop, LuGre plant + LuGre observer, 10 plant RK4 steps per sample", steps / t,
                 "control steps/s", ">= 1e5"))
    rows.append(("closed loop, same, simulated time per CPU second", steps * servo.sample_period / t, "s/s", "info"))
    return rows


if __name__ == "__main__":
    for row in run(quick=False):
        print(*row, sep="  |  ")
