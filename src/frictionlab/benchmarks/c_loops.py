"""The fixed-step loops of :mod:`frictionlab.solve.integrate.templates.fixed_step` written in C, as the
peer of ``bench_lugre`` (built at bench time with the system C compiler, loaded through ctypes).

The C text is the same loop operation for operation: the law's C kernels of
:mod:`frictionlab.laws.c_kernels` (the twins of its numba kernels), the mass system's right-hand side
of :func:`frictionlab.systems.mass._rhs` for a law with state (the dynamic-law path), explicit Euler
and classical RK4 reading the pre-sampled inputs ``U`` (half-step grid) and ``UL`` (left limits),
saving every ``stride``-th step and the last, and stopping at the first non-finite state or one
beyond 1e150. Compiled ``-std=c99 -O3`` (no ``-ffast-math``, no ``-march=native``: the same IEEE
arithmetic as numba's loop without fastmath, so the two give the same numbers).
"""

from __future__ import annotations

import ctypes
import os
import shutil
import subprocess
import tempfile
from pathlib import Path
from typing import Any

import numpy as np

__all__ = ["compiler", "build_library", "build_loops"]

_LOOPS = r"""
#include <math.h>

#define NS 3
#define NZ NZ_VALUE
#define BLOWUP 1e150

HELPERS
static void law_rates(const double *x, double v, double fn, const double *p, double *dx)
{RATES}
static double law_friction(const double *x, double v, double fn, const double *p)
{FRICTION}

/* frictionlab.systems.mass._rhs, dynamic-law path: ys = [x_d, x, xdot], sp = [M, K, C, sin, cos, g, gn] */
static double rhs(const double *ys, const double *z, double vd, double fn, double fext, const double *sp,
                  const double *lp, double *dys, double *dz)
{
    double m = sp[0];
    if (sp[6] > 0.5) fn = m * sp[5] * sp[4];
    double xdot = ys[2];
    dys[0] = vd;
    double f = law_friction(z, xdot, fn, lp);
    dys[1] = xdot;
    dys[2] = (sp[1] * (ys[0] - ys[1]) + sp[2] * (vd - xdot) + fext + m * sp[5] * sp[3] - f) / m;
    law_rates(z, xdot, fn, lp, dz);
    return f;
}

static int ok(double x) { return isfinite(x) && fabs(x) < BLOWUP; }

/* both loops: copy the initial state; per step, the first right-hand side (into KS, KZ) and the save */
#define COPY_STATE for (m = 0; m < NS; m++) ys[m] = ys0[m]; for (m = 0; m < NZ; m++) z[m] = z0[m];
#define FIRST_STAGE(KS, KZ) long a = 2 * i; \
        f = rhs(ys, z, U[3 * a], U[3 * a + 1], U[3 * a + 2], sp, lp, KS, KZ); \
        if (i % stride == 0) save(Y, F, j++, ys, z, f);

static void save(double *Y, double *F, long j, const double *ys, const double *z, double f)
{
    int m;
    for (m = 0; m < NS; m++) Y[j * (NS + NZ) + m] = ys[m];
    for (m = 0; m < NZ; m++) Y[j * (NS + NZ) + NS + m] = z[m];
    F[j] = f;
}

long euler(const double *sp, const double *lp, const double *U, const double *UL, const double *ys0,
           const double *z0, double dt, long n, long stride, double *Y, double *F)
{
    double ys[NS], z[NZ], ds[NS], dz[NZ], f;
    long i, j = 0;
    int m, good;
    COPY_STATE
    for (i = 0; i < n; i++) {
        FIRST_STAGE(ds, dz)
        good = 1;
        for (m = 0; m < NS; m++) { ys[m] += dt * ds[m]; good &= ok(ys[m]); }
        for (m = 0; m < NZ; m++) { z[m] += dt * dz[m]; good &= ok(z[m]); }
        if (!good) return i + 1;
    }
    f = rhs(ys, z, U[6 * n], U[6 * n + 1], U[6 * n + 2], sp, lp, ds, dz);
    save(Y, F, j, ys, z, f);
    return -1;
}

long rk4(const double *sp, const double *lp, const double *U, const double *UL, const double *ys0,
         const double *z0, double dt, long n, long stride, double *Y, double *F)
{
    double ys[NS], z[NZ], k1s[NS], k2s[NS], k3s[NS], k4s[NS], ts[NS], k1z[NZ], k2z[NZ], k3z[NZ], k4z[NZ], tz[NZ], f;
    double h2 = 0.5 * dt, h6 = dt / 6.0;
    long i, j = 0;
    int m, good;
    COPY_STATE
    for (i = 0; i < n; i++) {
        FIRST_STAGE(k1s, k1z)
        for (m = 0; m < NS; m++) ts[m] = ys[m] + h2 * k1s[m];
        for (m = 0; m < NZ; m++) tz[m] = z[m] + h2 * k1z[m];
        rhs(ts, tz, U[3 * a + 3], U[3 * a + 4], U[3 * a + 5], sp, lp, k2s, k2z);
        for (m = 0; m < NS; m++) ts[m] = ys[m] + h2 * k2s[m];
        for (m = 0; m < NZ; m++) tz[m] = z[m] + h2 * k2z[m];
        rhs(ts, tz, U[3 * a + 3], U[3 * a + 4], U[3 * a + 5], sp, lp, k3s, k3z);
        for (m = 0; m < NS; m++) ts[m] = ys[m] + dt * k3s[m];
        for (m = 0; m < NZ; m++) tz[m] = z[m] + dt * k3z[m];
        rhs(ts, tz, UL[3 * i + 3], UL[3 * i + 4], UL[3 * i + 5], sp, lp, k4s, k4z);
        good = 1;
        for (m = 0; m < NS; m++) { ys[m] += h6 * (k1s[m] + 2.0 * k2s[m] + 2.0 * k3s[m] + k4s[m]); good &= ok(ys[m]); }
        for (m = 0; m < NZ; m++) { z[m] += h6 * (k1z[m] + 2.0 * k2z[m] + 2.0 * k3z[m] + k4z[m]); good &= ok(z[m]); }
        if (!good) return i + 1;
    }
    f = rhs(ys, z, U[6 * n], U[6 * n + 1], U[6 * n + 2], sp, lp, k1s, k1z);
    save(Y, F, j, ys, z, f);
    return -1;
}
"""


def compiler() -> str | None:
    """The system C compiler (``$CC``, else ``cc``, ``gcc`` or ``clang`` on the PATH), or None."""
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return shutil.which(name)
    return None


def build_library(text: str, flags: tuple[str, ...] = ("-O3",)) -> Any:
    """The C source ``text`` compiled (``cc -std=c99 FLAGS``) into a temporary shared library, loaded
    with ctypes. Raises ``RuntimeError`` when no compiler is found or the build fails."""
    cc = compiler()
    if cc is None:
        raise RuntimeError("no C compiler found (set CC or install cc/gcc/clang)")
    tmp = Path(tempfile.mkdtemp(prefix="frictionlab-cloop-"))
    src, lib = tmp / "loops.c", tmp / "loops.so"
    src.write_text(text)
    cmd = [cc, "-std=c99", *flags, "-shared", "-fPIC", str(src), "-o", str(lib), "-lm"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=120)
    if r.returncode != 0:
        raise RuntimeError(f"C build failed: {r.stderr.strip()[:300]}")
    dll = ctypes.CDLL(str(lib))
    shutil.rmtree(tmp, ignore_errors=True)  # the library stays mapped
    return dll


def build_loops(law_name: str, n_states: int, flags: tuple[str, ...] = ("-O3",)) -> tuple[Any, Any, str]:
    """``(euler, rk4, command)``: the C loops for the law ``law_name`` (a key of ``C_KERNELS``) with
    ``n_states`` states, compiled with ``flags`` into a temporary shared library and loaded; both take
    the numba loops' arguments (numpy arrays, C-contiguous float64). Raises ``RuntimeError`` when no
    compiler is found or the build fails."""
    from ..laws.c_kernels import C_KERNELS

    k = C_KERNELS[law_name]
    text = (_LOOPS.replace("NZ_VALUE", str(n_states)).replace("HELPERS", k.helpers)
            .replace("{RATES}", "{" + k.rates + "}").replace("{FRICTION}", "{" + k.friction + "}"))
    dll = build_library(text, flags)
    dp = ctypes.POINTER(ctypes.c_double)

    def wrap(fn: Any) -> Any:
        fn.restype = ctypes.c_long
        fn.argtypes = [dp] * 6 + [ctypes.c_double, ctypes.c_long, ctypes.c_long, dp, dp]

        def call(sp, lp, U, UL, ys0, z0, dt, n, stride, Y, F):
            arrs = [np.ascontiguousarray(a, dtype=float) for a in (sp, lp, U, UL, ys0, z0)]
            ptr = [a.ctypes.data_as(dp) for a in arrs]
            return fn(*ptr, float(dt), int(n), int(stride), Y.ctypes.data_as(dp), F.ctypes.data_as(dp))

        return call

    return wrap(dll.euler), wrap(dll.rk4), " ".join(["cc", "-std=c99", *flags])
