"""The MLBNM batch kernel's semi-implicit step gives the same bits as the plain per-IUB loop.

The kernel runs the step as short sweeps over the IUBs and keeps its per-IUB constants in a
table (beam-network paper, doi:10.1115/1.4042247, Sec. 3.1, eqs. 10-11; the speed-up keeps
every floating-point operation and its order). The oracle below is the straightforward form:
for each IUB in turn, first pass, ``n_picard`` refinement passes (stopping when a pass would
repeat the previous one) and the update, with the same helper functions. Equality is exact.
"""

import math

import numpy as np
import pytest
from numba import njit

from frictionlab.contact.beam_network.mlbnm import (MAX_EXP_CHAIN, _gp, _mlbnm_kernel, _semi_velocity,
                                                    _step_column_semi, _stribeck_chain, iub_arrays)
from frictionlab.core.registry import make_model

V, DT = 7.5e-4, 2e-5


@njit(cache=True)
def _oracle(m, kb, cb, s0, s1, s2, fz, kl, kr, gp, vd, dt, n_steps, n_picard):
    """Friction force sum after every step, the per-IUB loop in its plain order (one case)."""
    n = m.size
    up = np.zeros(n + 2)
    v = np.zeros(n)
    z = np.zeros(n)
    ff = np.zeros(n)
    ae = np.zeros(n)
    ax = np.zeros(n)
    an = np.full(n, MAX_EXP_CHAIN)
    kll = kl.copy()
    krr = kr.copy()
    kll[0] = 0.0
    krr[n - 1] = 0.0
    inv_vs = 1.0 / gp[5]
    alpha2 = gp[6] == 2.0
    out = np.empty(n_steps)
    R0 = np.empty(n)
    fe = np.empty(n)
    for step in range(n_steps):
        s_new = vd * step * dt + vd * dt
        for i in range(n):  # right-hand sides at the old positions
            ui = up[i + 1]
            fe[i] = kll[i] * (up[i] - ui) + krr[i] * (up[i + 2] - ui)
            R0[i] = m[i] / dt * v[i] + kb[i] * (s_new - ui) + cb[i] * vd + fe[i]
        for i in range(n):
            C0 = m[i] / dt + kb[i] * dt + cb[i] + (kll[i] + krr[i]) * dt + s1[i] + s2[i]
            lv0 = abs(v[i])
            g, e, E, nch = _stribeck_chain(lv0, ae[i], ax[i], an[i], fz[i] * gp[3], fz[i] * (gp[4] - gp[3]),
                                           inv_vs, gp[6], alpha2)
            if g > 0.0:
                vn, D = _semi_velocity(R0[i], z[i], C0, dt, s0[i], s1[i], dt * s0[i], g, lv0)
                lv = lv0
                for _ in range(n_picard):
                    lvn = 0.5 * (abs(vn) + lv0)
                    if lvn == lv:
                        break
                    lv = lvn
                    g, e, E, nch = _stribeck_chain(lv, e, E, nch, fz[i] * gp[3], fz[i] * (gp[4] - gp[3]), inv_vs,
                                                   gp[6], alpha2)
                    vn, D = _semi_velocity(R0[i], z[i], C0, dt, s0[i], s1[i], dt * s0[i], g, lv)
                rD = 1.0 / D
                w = z[i] + dt * vn
                z_new = g * w * rD
                zdot = vn - s0[i] * lv * w * rD
                up[i + 1] = up[i + 1] + dt * vn
                v[i] = vn
                z[i] = z_new
                ff[i] = s0[i] * z_new + s1[i] * zdot + s2[i] * vn
            else:
                v[i], up[i + 1], z[i], ff[i] = _step_column_semi(
                    v[i], up[i + 1], z[i], s_new, vd, m[i], kb[i], cb[i], s0[i], s1[i], s2[i], fz[i], fe[i],
                    kll[i] + krr[i], gp, dt, n_picard)
            ae[i] = e
            ax[i] = E
            an[i] = nch
        tot = 0.0
        for i in range(n):
            tot += ff[i]
        out[step] = tot
    return out


@pytest.mark.parametrize("n_picard", [0, 1, 2])
@pytest.mark.parametrize("unloaded_column", [False, True])
def test_kernel_equals_plain_loop_bitwise(n_picard, unloaded_column):
    """Fig. 8 case (9 IUBs), 0.4 s of stick-slip; optionally one column without normal load (reference form)."""
    p = make_model("beam_network", "vf60-calibrated")
    a = iub_arrays(p)
    cols = {k: a[k].copy() for k in ("m", "kb", "cb", "s0", "s1", "s2", "fz", "kl", "kr")}
    if unloaded_column:
        cols["fz"][3] = 0.0
    n_steps = 20000
    F, *_rest, fail = _mlbnm_kernel(*(np.ascontiguousarray(cols[k][None, :]) for k in cols), _gp(p), np.array([V]),
                                    DT, n_steps, 1, 1, n_picard, False)
    assert fail[0] < 0
    ref = _oracle(*(cols[k] for k in cols), _gp(p), V, DT, n_steps, n_picard)
    assert np.ptp(ref) > 0.5 * p.normal_load * (p.mu_s - p.mu_c)  # stick-slip, not a trivial history
    assert np.array_equal(F[0, 1:], ref), f"max difference {np.max(np.abs(F[0, 1:] - ref))}"
    assert math.isfinite(ref[-1])
