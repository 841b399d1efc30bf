"""LuGre driven spring-slider: compiled fixed-step loops vs plain ``solve_ivp``.

Problem: LuGre (Canudas de Wit et al. 1995 parameters) on a spring-slider, M = 1 kg,
K = 2 N/m, drive 0.1 m/s (stick-slip), dt = 1e-5 s, 10^6 steps (10 s).

* compiled: the numba loops of :mod:`frictionlab.solve.integrate.compiled` (``fixed_step_loops``:
  Euler and RK4) called directly with pre-sampled inputs; warmed up first so that compile
  time is excluded. Rates are given per CPU second of this process (``time.process_time``)
  because the machine may be shared; wall-clock rates are printed too.
* solve_ivp: a plain Python right-hand side (``math`` scalars, no numba) with the default
  RK45 (rtol 1e-6, atol 1e-9) over the same 10 s (2 s with ``quick``). RK45 is adaptive and
  takes far fewer steps than 10^6 (about 2e4), so its time **per accepted step** is
  extrapolated to 10^6 steps: the speed-up is (solve_ivp CPU time per step) / (compiled CPU
  time per step). The time-to-solution ratio for the same 10 s is printed as well; it is
  near 1 because the fixed dt = 1e-5 s is much finer than RK45 needs at rtol 1e-6.
* C: the same two loops in C (:mod:`frictionlab.benchmarks.c_loops`: the law's C kernels of
  :mod:`frictionlab.laws.c_kernels`, the mass system's right-hand side, the same Euler/RK4 steps
  and saving), built here with the system compiler at ``-std=c99 -O3`` and called through ctypes
  on the same arrays. Numba and C alternate, ``rounds`` times each (7; 3 with ``quick``); the
  ratio is of the median CPU times, and the two results must agree bit for bit (the last row says
  whether they do). Without a C compiler the rows say so.
"""

from __future__ import annotations

import math
import os
import statistics
import time

import numpy as np
from scipy.integrate import solve_ivp

from frictionlab.solve.integrate.compiled import fixed_step_loops
from frictionlab.laws import LuGre
from frictionlab.systems import spring_slider

M, K, V, DT = 1.0, 2.0, 0.1, 1e-5


def _setup(n: int):
    law = LuGre(sigma0=1e5, sigma1=math.sqrt(1e5), sigma2=0.4, fc=1.0, fs=1.5, vs=1e-3)
    sys = spring_slider(M, K)
    U = np.zeros((2 * n + 1, 3))
    U[:, 0] = V
    U[:, 1] = 1.0
    UL = np.ascontiguousarray(U[::2])
    ys0, z0 = sys.initial_state(), law.initial_state()
    y0 = np.concatenate([ys0, z0])
    stride = 100
    Y = np.empty((n // stride + 2, y0.size))
    F = np.empty(n // stride + 2)
    rates, fric = law.kernels()
    return (sys.param_vector(), law.param_vector(), U, UL, ys0, z0, DT, n, stride, Y, F), law


def _time_loop(loop, args, repeats: int) -> tuple[float, float]:
    best_cpu, best_wall = math.inf, math.inf
    for _ in range(repeats):
        c0, w0 = time.process_time(), time.perf_counter()
        status = loop(*args)
        c1, w1 = time.process_time(), time.perf_counter()
        if status >= 0:
            raise RuntimeError(f"benchmark integration diverged at step {status}")
        best_cpu, best_wall = min(best_cpu, c1 - c0), min(best_wall, w1 - w0)
    return best_cpu, best_wall


def _solve_ivp_per_step(law: LuGre, t_span: float) -> tuple[float, int]:
    s0, s1, s2, fc, fs, vs = law.sigma0, law.sigma1, law.sigma2, law.fc, law.fs, law.vs

    def rhs(t, y):
        xd, x, v, z = y
        g = fc + (fs - fc) * math.exp(-((v / vs) ** 2))
        zdot = v - s0 * abs(v) * z / g
        f = s0 * z + s1 * zdot + s2 * v
        return [V, v, (K * (xd - x) - f) / M, zdot]

    c0 = time.process_time()
    sol = solve_ivp(rhs, (0.0, t_span), [0.0, 0.0, 0.0, 0.0], method="RK45", rtol=1e-6, atol=1e-9)
    c1 = time.process_time()
    steps = sol.t.size - 1
    return (c1 - c0) / steps, steps


def _versus_c(loops: dict, args: tuple, warm: tuple, rounds: int) -> list[tuple[str, float, str, str]]:
    """Numba's loops against the same loops in C, interleaved; median CPU times and their ratio."""
    from .c_loops import build_loops

    try:
        c_euler, c_rk4, cmd = build_loops("lugre", 1)
    except RuntimeError as exc:
        return [("LuGre loops vs C", float("nan"), "-", f"not measured: {exc}")]
    c_loops = {"euler": c_euler, "rk4": c_rk4}
    out = []
    Y, F = args[-2], args[-1]
    for name, loop in loops.items():
        c_loops[name](*warm)
        ours, theirs = [], []
        for _ in range(rounds):
            c0 = time.process_time()
            s_ours = loop(*args)
            ours.append(time.process_time() - c0)
            y_ours, f_ours = Y.copy(), F.copy()
            c0 = time.process_time()
            s_c = c_loops[name](*args)
            theirs.append(time.process_time() - c0)
        same = s_ours == s_c == -1 and np.array_equal(y_ours, Y) and np.array_equal(f_ours, F)
        mo, mc = statistics.median(ours), statistics.median(theirs)
        out.append((f"{name}: numba loop, 1e6 steps (CPU, median of {rounds})", mo * 1e3, "ms", ""))
        out.append((f"{name}: the same loop in C ({cmd}), 1e6 steps", mc * 1e3, "ms", ""))
        out.append((f"{name}: numba / C (medians, interleaved)", mo / mc, "x",
                    "<= 1.2 (issue 32); results " + ("bit-identical" if same else "DIFFER")))
    return out


def run(quick: bool) -> list[tuple[str, float, str, str]]:
    n = 10**6
    args, law = _setup(n)
    warm, _ = _setup(1000)
    from frictionlab.systems.mass import MassSystem

    euler_loop, rk4_loop = fixed_step_loops(MassSystem._rhs_kernel, *law.kernels())
    for loop in (euler_loop, rk4_loop):  # compile outside the timing
        loop(*warm)
    out = [("load average (1 min) at the start", os.getloadavg()[0], "", "2 shared cores: > 2 means contention")]
    per_step = {}
    for name, loop in (("euler", euler_loop), ("rk4", rk4_loop)):
        cpu, wall = _time_loop(loop, args, 1 if quick else 3)
        per_step[name] = cpu / n
        out.append((f"{name} compiled loop, 1e6 steps (CPU time)", n / cpu, "steps/s", ">= 1e7"))
        out.append((f"{name} compiled loop, 1e6 steps (wall clock)", n / wall, "steps/s", "info"))
    out += _versus_c({"euler": euler_loop, "rk4": rk4_loop}, args, warm, 3 if quick else 7)
    t_ivp = 2.0 if quick else n * DT
    ivp_step, ivp_steps = _solve_ivp_per_step(law, t_ivp)
    out.append((f"solve_ivp RK45, plain Python rhs ({ivp_steps} steps over {t_ivp:g} s, per step)", 1.0 / ivp_step,
                "steps/s", "info"))
    for name in ("euler", "rk4"):
        out.append((f"speed-up per step, {name} compiled vs solve_ivp", ivp_step / per_step[name], "x", ">= 100"))
    if not quick:
        out.append(("time to solution (10 s), solve_ivp RK45 / rk4 compiled 1e6 steps",
                    ivp_step * ivp_steps / (per_step["rk4"] * n), "x", "info"))
    out.append(("load average (1 min) at the end", os.getloadavg()[0], "", ""))
    return out


if __name__ == "__main__":
    for row in run(quick=False):
        print(*row, sep="  |  ")
