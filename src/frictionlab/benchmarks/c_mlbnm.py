"""The MLBNM semi-implicit step in C, the peer of ``bench_mlbnm`` (built at bench time with the system C
compiler through :func:`frictionlab.benchmarks.c_loops.build_library`, loaded through ctypes).

Beam-network paper (doi:10.1115/1.4042247), Sec. 3.1, eqs. 10-11, the linearly implicit step of
:func:`frictionlab.contact.beam_network.mlbnm._mlbnm_kernel` operation for operation: first pass at
the old speed, ``n_picard`` refinement passes at the mean speed (an IUB whose pass would repeat the
previous one stops), the state update, and the Stribeck exponential reused through the degree-7
polynomial of :func:`frictionlab.contact.beam_network.mlbnm._stribeck_chain`. One case, at most
``NMAX`` IUBs, alpha = 2 and every IUB under load (G > 0: the kernel's zero-load form is left out),
total friction saved every ``save_every`` steps. Compiled ``-std=c99 -O3 -ffp-contract=off`` (no
fused multiply-add, as numba without fast-math), so the two give the same bits.
"""

from __future__ import annotations

import ctypes
from typing import Any

import numpy as np

__all__ = ["NMAX", "build_mlbnm"]

NMAX = 64

_SEMI = r"""
#include <math.h>
#define NMAX 64
#define MAXC MAX_EXP_CHAIN_VALUE
void mlbnm_semi(int n, const double *m, const double *kb, const double *cb, const double *s0, const double *s1,
          const double *s2, const double *fz, const double *kl_, const double *kr_, const double *gp, double vd,
          double dt, long n_steps, long save_every, int n_picard, double *F)
{
    double up[NMAX + 2] = {0}, v[NMAX] = {0}, z[NMAX] = {0}, ff[NMAX] = {0};
    double KL[NMAX], KR[NMAX], C0[NMAX], MDT[NMAX], KB[NMAX], CBVD[NMAX], S0[NMAX], S1[NMAX], S2[NMAX], DTS0[NMAX],
        FZC[NMAX], FZD[NMAX];
    double R0[NMAX], V[NMAX], D[NMAX], AE[NMAX] = {0}, AX[NMAX] = {0}, LV[NMAX], G[NMAX];
    int act[NMAX]; long NC[NMAX];
    double inv_vs = 1.0 / gp[5], dmu = gp[4] - gp[3];
    for (int i = 0; i < n; i++) {
        KL[i] = i > 0 ? kl_[i] : 0.0; KR[i] = i < n - 1 ? kr_[i] : 0.0;
        double kd = KL[i] + KR[i];
        C0[i] = m[i] / dt + kb[i] * dt + cb[i] + kd * dt + s1[i] + s2[i];
        MDT[i] = m[i] / dt; KB[i] = kb[i]; CBVD[i] = cb[i] * vd; S0[i] = s0[i]; S1[i] = s1[i]; S2[i] = s2[i];
        DTS0[i] = dt * s0[i]; FZC[i] = fz[i] * gp[3]; FZD[i] = fz[i] * dmu; NC[i] = MAXC;
    }
    long k = 0;
    for (long step = 0; step <= n_steps; step++) {
        if (step % save_every == 0) { double t = 0; for (int i = 0; i < n; i++) t += ff[i]; F[k++] = t; }
        if (step == n_steps) break;
        double s_new = vd * step * dt + vd * dt;
        for (int pass = 0; pass <= n_picard; pass++) {
            int na = 0;
            for (int i = 0; i < n; i++) {
                if (pass == 0) {
                    double ui = up[i + 1];
                    double fe = KL[i] * (up[i] - ui) + KR[i] * (up[i + 2] - ui);
                    R0[i] = MDT[i] * v[i] + KB[i] * (s_new - ui) + CBVD[i] + fe;
                    LV[i] = fabs(v[i]); act[i] = 1;
                } else if (act[i]) {
                    double lv = 0.5 * (fabs(V[i]) + fabs(v[i]));
                    if (lv == LV[i]) { act[i] = 0; continue; }
                    LV[i] = lv;
                } else continue;
                na++;
                double x = LV[i] * inv_vs, e = x * x, d = AE[i] - e, E;
                if (fabs(d) <= 1e-2 && NC[i] < MAXC) {
                    double d2 = d * d;
                    double p = ((1.0 + d) + d2 * (0.5 + d * (1.0 / 6.0))) + (d2 * d2) * (
                        (1.0 / 24.0 + d * (1.0 / 120.0)) + d2 * (1.0 / 720.0 + d * (1.0 / 5040.0)));
                    E = AX[i] * p; NC[i]++;
                } else { E = exp(-e); NC[i] = 0; }
                AE[i] = e; AX[i] = E; G[i] = FZC[i] + FZD[i] * E;
            }
            if (pass > 0 && na == 0) break;
            for (int i = 0; i < n; i++) if (act[i]) {
                double g = G[i], lv = LV[i];
                double Dd = g + DTS0[i] * lv, h = S0[i] * (g - S1[i] * lv);
                V[i] = (R0[i] * Dd - h * z[i]) / (C0[i] * Dd + dt * h); D[i] = Dd;
            }
        }
        for (int i = 0; i < n; i++) {
            double vn = V[i], rD = 1.0 / D[i], w = z[i] + dt * vn;
            double zn = G[i] * w * rD, zdot = vn - S0[i] * LV[i] * w * rD;
            v[i] = vn; up[i + 1] += dt * vn; z[i] = zn; ff[i] = S0[i] * zn + S1[i] * zdot + S2[i] * vn;
        }
    }
}
"""

FLAGS = ("-O3", "-ffp-contract=off")


def build_mlbnm(flags: tuple[str, ...] = FLAGS) -> tuple[Any, str]:
    """``(run, command)``: ``run(cols, gp, vd, dt, n_steps, save_every, n_picard) -> F`` with ``cols`` the
    nine per-IUB arrays of :func:`~frictionlab.contact.beam_network.mlbnm.iub_arrays` (m, kb, cb, s0, s1, s2,
    fz, kl, kr) of one case and ``F`` the total friction every ``save_every`` steps."""
    from ..contact.beam_network.mlbnm import MAX_EXP_CHAIN
    from .c_loops import build_library

    dll = build_library(_SEMI.replace("MAX_EXP_CHAIN_VALUE", str(MAX_EXP_CHAIN)), flags)
    fn = dll.mlbnm_semi
    dp = ctypes.POINTER(ctypes.c_double)
    fn.restype = None
    fn.argtypes = [ctypes.c_int] + [dp] * 10 + [ctypes.c_double, ctypes.c_double, ctypes.c_long, ctypes.c_long,
                                                 ctypes.c_int, dp]

    def run(cols, gp, vd, dt, n_steps, save_every, n_picard):
        arrs = [np.ascontiguousarray(a, dtype=float) for a in (*cols, gp)]
        n = arrs[0].size
        if not 0 < n <= NMAX or float(arrs[-1][6]) != 2.0 or np.any(arrs[6] <= 0.0):
            raise ValueError(f"the C peer takes 1..{NMAX} loaded IUBs and alpha = 2")
        F = np.zeros(int(n_steps) // int(save_every) + 1)
        fn(n, *[a.ctypes.data_as(dp) for a in arrs], float(vd), float(dt), int(n_steps), int(save_every),
           int(n_picard), F.ctypes.data_as(dp))
        return F

    return run, " ".join(["cc", "-std=c99", *flags])
