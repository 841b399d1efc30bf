r"""MLBNM: the 1-D integrated-unit-beam (IUB) reduction of the LuGre beam network.

Each column of beams (same x) is lumped into one IUB (beam-network paper, doi:10.1115/1.4042247, Sec. 3.1,
eqs. 10-11); the single-IUB model (one IUB holding the whole patch, no network force) is
the special case used for the pattern analysis (Sec. 3.2, Figs. 4b and 13).

.. math::
    m_I \ddot u_I = k_b^I (s - u_I) + c_b^I (\dot s - \dot u_I) + f_e^I - f_f^I, \qquad
    \dot z_I = \dot u_I - \frac{\sigma_0^I |\dot u_I|}{f_z^I g(\dot u_I)} z_I, \qquad
    f_f^I = \sigma_0^I z_I + \sigma_1^I \dot z_I + \sigma_2^I \dot u_I

with :math:`m_I = N_I m`, :math:`k_b^I = N_I k_b^i`, :math:`c_b^I = N_I c_b/N`,
:math:`\sigma_j^I = N_I \sigma_j^i`, :math:`f_z^I = \sum_{i\in I} f_z^i` and
:math:`f_e^I = k_{I,I-1}(u_{I-1}-u_I) + k_{I,I+1}(u_{I+1}-u_I)` (our reading: both neighbours;
``iub_link = "n_i"`` uses :math:`N_I k_e` as eq. 10, ``"min"`` uses
:math:`\min(N_I,N_J) k_e`, which conserves momentum exactly, and ``"sum"`` uses
:math:`k_e(n_h + n_d/2)`, the linearised x-stiffness of the :math:`n_h` horizontal and
:math:`n_d` diagonal LBNM springs joining the two columns, i.e. the Sec. 3.1 rule "the
elastic forces of the IUB are the summation of the distributed beams" applied to the
8-neighbour network; also momentum-conserving).

Notes
-----
The IUB lumping: eq. (10) prints :math:`f_e^I = N_I k_e\Delta u_{I(I+1)}`
(one neighbour; we use both), while summing the LBNM forces of eqs. (4)-(6) over a
column gives about twice that link stiffness (``"sum"``). The default stays the printed
eq. (10); on the Fig. 8 case neither reading brings the MLBNM period to the LBNM's
(0.66 s / 0.75 s vs 1.06 s), because the gap comes from lumping the column's unequal
normal loads into one LuGre element (see :class:`.params.BeamNetworkParams`, Notes).

The compiled loop is vectorised over a batch of independent cases (parameter points of a
sweep or map) with ``numba.prange``. Two schemes:

* ``"euler"`` -- the paper's Algorithm 1 (forward Euler; lag integrated separately, tip
  position by the trapezoid rule, friction of the previous step in the acceleration);
* ``"semi-implicit"`` -- first-order, linearly implicit: per IUB, the new tip velocity solves
  the momentum balance with bending, damping, the bristle update
  :math:`z' = (z + \Delta t\,\dot u')/(1 + \Delta t\,\lambda)`,
  :math:`\lambda = \sigma_0|\dot u|/(f_z g)` and the diagonal of the network stiffness
  taken at the new step; :math:`\lambda` is refreshed by ``n_picard`` fixed-point passes.
  It is stable at steps far above the explicit limit.

Performance (same equations, rounding-level differences only): per-IUB constants are hoisted
out of the time loop; the implicit velocity is solved with one division per pass
(:func:`_semi_velocity`); the semi-implicit step runs as short sweeps over the IUBs (first
pass; per refinement pass the Stribeck term, then the velocity; the state update), so the
CPU overlaps the independent dependency chains of several IUBs (with one long loop body per
IUB its window held two or three), and the per-IUB constants and work values are tables with
one row per IUB (few base pointers in the loops): these two keep every operation and its
order, so the bits, and cut the kernel's time on the Fig. 8 case by about a quarter (issue
19); a refinement pass that would repeat the previous one exactly is skipped; for alpha = 2
the Stribeck exponential is updated from the previous evaluation of the same IUB when the
exponent moved by at most 1e-2 (:func:`_stribeck_chain`, within about 2 ulp per reuse, a
fresh ``exp`` at least every ``MAX_EXP_CHAIN + 1`` evaluations). On the Fig. 8 case these changes move the
force history by about 1e-8 of its peak after 3 s of stick-slip (round-off amplified by the
slip events), far inside the tests' tolerances.

The batch kernel takes no fast-math flag, not even ``contract`` (fused multiply-add), so that
a run is bit-reproducible: numba runs a ``parallel=True`` loop body as a separate gufunc,
which a process that compiles it executes as compiled on its own and a process that loads
the kernel from the disk cache as the copy re-optimised inside the kernel's library; with
``contract`` LLVM fused different operations in the two, and ``beam-network/fig13`` gave
results differing by up to 3e-8 (relative) between a cold and a warm run.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import xarray as xr
from numba import njit, prange

from ...core.errors import ConfigError, IntegrationError, ParameterError
from ...core.result import sanitize_attrs
from .params import BeamNetworkParams

__all__ = ["iub_arrays", "iub_linear_eigenvalues", "run_mlbnm", "run_mlbnm_batch", "run_mlbnm_cases", "stick_slip_state"]

SCHEMES = {"euler": 0, "semi-implicit": 1}


@njit(cache=True, inline="always")
def stribeck_g(v, fn, p):
    """Eq. (8) scaled by the normal load: f_z (mu_C + (mu_S - mu_C) exp(-|v/v_s|^alpha)).

    Same semantics and parameter vector as :func:`frictionlab.laws.lugre.stribeck_g` with
    normal scaling (``p = (., ., ., mu_C, mu_S, v_s, alpha, 1)``), with a fast path for the
    paper's alpha = 2 (a product instead of a power).
    """
    x = abs(v / p[5])
    e = x * x if p[6] == 2.0 else x ** p[6]
    return fn * (p[3] + (p[4] - p[3]) * math.exp(-e))


@njit(cache=True, inline="always")
def _stribeck_fast(lv, fzc, fzd, inv_vs, alpha, alpha2):
    """(f_z g(v), e, E) for |v| = ``lv`` >= 0 with hoisted constants.

    ``f_z g = fzc + fzd E``, ``E = exp(-e)``, ``e = (lv/v_s)^alpha``; the loops pass
    ``fzc = f_z mu_C``, ``fzd = f_z (mu_S - mu_C)`` and ``inv_vs = 1/v_s``; ``alpha2`` selects
    the x*x path. Equal to :func:`stribeck_g` up to rounding (a few ulp).
    """
    x = lv * inv_vs
    e = x * x if alpha2 else x ** alpha
    E = math.exp(-e)
    return fzc + fzd * E, e, E


MAX_EXP_CHAIN = 8  # reuses of a previous exponential before a fresh exp() (bounds the rounding drift)


@njit(cache=True, inline="always")
def _stribeck_chain(lv, e0, E0, n0, fzc, fzd, inv_vs, alpha, alpha2):
    r"""As :func:`_stribeck_fast`, reusing ``E0 = exp(-e0)`` of a nearby velocity; returns (G, e, E, n).

    For alpha = 2, :math:`|e - e_0| \le 10^{-2}` and ``n0 < MAX_EXP_CHAIN``,
    :math:`E = E_0\exp(e_0-e)` with the exponential of the small difference from its degree-7
    Taylor polynomial (truncation :math:`< 10^{-2\cdot 8}/8! \approx 2\cdot10^{-21}`, far below
    one ulp) and ``n = n0 + 1``: each reuse adds about 2 ulp of rounding, so ``E`` stays within
    about ``2 (n + 1)`` ulp of ``exp(-e)``. Otherwise ``exp`` is evaluated and ``n = 0``.
    In the loops, consecutive evaluations of one element (first pass from the previous step's
    refinement, refinement from the first pass) differ by :math:`|e-e_0|\lesssim 10^{-4}`
    on the Fig. 8 case, so most calls avoid ``exp``.
    """
    x = lv * inv_vs
    if alpha2:
        e = x * x
        d = e0 - e
        if abs(d) <= 1e-2 and n0 < MAX_EXP_CHAIN:
            d2 = d * d  # Estrin's scheme: short dependency chain
            p = ((1.0 + d) + d2 * (0.5 + d * (1.0 / 6.0))) + (d2 * d2) * (
                (1.0 / 24.0 + d * (1.0 / 120.0)) + d2 * (1.0 / 720.0 + d * (1.0 / 5040.0)))
            E = E0 * p
            return fzc + fzd * E, e, E, n0 + 1
    else:
        e = x ** alpha
    E = math.exp(-e)
    return fzc + fzd * E, e, E, 0


@njit(cache=True, inline="always")
def _stribeck_near(lv, e0, E0, fzc, fzd, inv_vs, alpha, alpha2):
    """:func:`_stribeck_chain` for a fresh ``E0`` (one reuse, within about 2 ulp); returns (G, e, E)."""
    g, e, E, _n = _stribeck_chain(lv, e0, E0, 0, fzc, fzd, inv_vs, alpha, alpha2)
    return g, e, E


@njit(cache=True, inline="always")
def _semi_velocity(R0, z, C0, dtk, s0, s1, dts0, g, lv):
    r"""New tip velocity of the linearly implicit step, with a single division.

    With :math:`\lambda = \sigma_0 l_v/G`, :math:`A = 1/(1+\Delta t\lambda)`, the step solves
    :math:`(C_0 + (\sigma_0-\sigma_1\lambda)\Delta t A)\,v' = R_0 - (\sigma_0-\sigma_1\lambda) A z`.
    Multiplying by :math:`D = G + \Delta t\sigma_0 l_v` (so that :math:`A = G/D` and
    :math:`(\sigma_0-\sigma_1\lambda)A = h/D`, :math:`h = \sigma_0(G-\sigma_1 l_v)`) gives
    :math:`v' = (R_0 D - h z)/(C_0 D + \Delta t h)`; returns (v', D). Valid for G > 0.
    """
    D = g + dts0 * lv
    h = s0 * (g - s1 * lv)
    return (R0 * D - h * z) / (C0 * D + dtk * h), D


@njit(cache=True, inline="always")
def _step_column_semi(v, u, z, s_new, vd, m, kb, cb, s0, s1, s2, fz, fe, kd, gp, dt, n_picard):
    """One linearly implicit step of one IUB; returns (v', u', z', ff') (reference form, unhoisted)."""
    lam_v = abs(v)
    v_new = v
    for _ in range(n_picard + 1):
        g = stribeck_g(lam_v, fz, gp)
        lam = s0 * lam_v / g if g > 0.0 else 1e12
        A = 1.0 / (1.0 + dt * lam)
        B = dt * A
        coef = m / dt + kb * dt + cb + kd * dt + (s0 - s1 * lam) * B + s1 + s2
        rhs = m * v / dt + kb * (s_new - u) + cb * vd + fe - (s0 - s1 * lam) * A * z
        v_new = rhs / coef
        lam_v = 0.5 * (abs(v_new) + abs(v)) if n_picard > 0 else abs(v)
    z_new = A * z + B * v_new
    zdot = v_new - lam * z_new
    ff = s0 * z_new + s1 * zdot + s2 * v_new
    return v_new, u + dt * v_new, z_new, ff


# columns of the MLBNM kernel's per-IUB constant table (see _mlbnm_kernel)
_KL, _KR, _C0, _MDT, _KB, _CBVD, _CB, _IM, _S0, _S1, _S2, _DTS0, _FZ, _FZC, _FZD = range(15)
_N_CST = 16
# columns of its per-IUB work table of the semi-implicit step: right-hand side, network force, velocity and
# D of the latest pass, G of the first pass (its sign picks the form), Stribeck anchor e and E = exp(-e),
# speed and G of the latest pass
_R0, _FE, _V, _D, _G0, _AE, _AX, _LV, _G = range(9)
_N_WK = 9


@njit(cache=True, parallel=True)  # no fast-math: see the module notes (reproducibility)
def _mlbnm_kernel(m, kb, cb, s0, s1, s2, fz, kl, kr, gp, v_drive, dt, n_steps, save_every, scheme,
                  n_picard, save_cols):
    B, n = m.shape
    n_save = n_steps // save_every + 1
    F = np.zeros((B, n_save))
    nc = n if save_cols else 1
    ns = n_save if save_cols else 1
    ff_out = np.zeros((B, ns, nc))
    lag_out = np.zeros((B, ns, nc))
    vel_out = np.zeros((B, ns, nc))
    fail = -np.ones(B, dtype=np.int64)
    inv_vs = 1.0 / gp[5]
    alpha = gp[6]
    alpha2 = alpha == 2.0
    dmu = gp[4] - gp[3]
    for b in prange(B):
        # state; u is padded with a zero ghost at each end (its link stiffness is zero there)
        up = np.zeros(n + 2)  # tip displacement from the rest position [m], up[i + 1] = u_i
        v = np.zeros(n)
        z = np.zeros(n)
        ff = np.zeros(n)
        lag = np.zeros(n)     # Algorithm 1's separately integrated bending lag s - u
        # per-IUB constants hoisted out of the time loop and the semi-implicit step's per-IUB work values,
        # as tables with one row per IUB (few base pointers in the loops, one cache line per IUB)
        cst = np.zeros((n, _N_CST))
        wk = np.zeros((n, _N_WK))
        active = np.zeros(n, dtype=np.bool_)  # refinement still running
        w_n = np.full(n, MAX_EXP_CHAIN, dtype=np.int64)  # forces a fresh exp() at the first step
        vd = v_drive[b]
        for i in range(n):
            if i > 0:
                cst[i, _KL] = kl[b, i]
            if i < n - 1:
                cst[i, _KR] = kr[b, i]
            kd = cst[i, _KL] + cst[i, _KR]
            cst[i, _C0] = m[b, i] / dt + kb[b, i] * dt + cb[b, i] + kd * dt + s1[b, i] + s2[b, i]
            cst[i, _MDT] = m[b, i] / dt
            cst[i, _KB] = kb[b, i]
            cst[i, _CB] = cb[b, i]
            cst[i, _CBVD] = cb[b, i] * vd
            cst[i, _IM] = 1.0 / m[b, i]
            cst[i, _S0] = s0[b, i]
            cst[i, _S1] = s1[b, i]
            cst[i, _S2] = s2[b, i]
            cst[i, _DTS0] = dt * s0[b, i]
            cst[i, _FZ] = fz[b, i]
            cst[i, _FZC] = fz[b, i] * gp[3]
            cst[i, _FZD] = fz[b, i] * dmu
        k = 0
        to_save = 0
        for step in range(n_steps + 1):
            if to_save == 0:
                to_save = save_every
                tot = 0.0
                for i in range(n):
                    tot += ff[i]
                F[b, k] = tot
                if save_cols:
                    s_now = vd * step * dt
                    for i in range(n):
                        ff_out[b, k, i] = ff[i]
                        lag_out[b, k, i] = s_now - up[i + 1]
                        vel_out[b, k, i] = v[i]
                k += 1
                if not math.isfinite(tot) or abs(tot) > 1e12:
                    fail[b] = step
                    break
            to_save -= 1
            if step == n_steps:
                break
            s_new = vd * step * dt + vd * dt
            u_left = 0.0  # u_{i-1} at the start of the step (the ghost for i = 0)
            if scheme == 0:
                for i in range(n):
                    ui = up[i + 1]
                    fe = cst[i, _KL] * (u_left - ui) + cst[i, _KR] * (up[i + 2] - ui)
                    u_left = ui
                    vi = v[i]
                    lag_dot = vd - vi
                    fb = cst[i, _KB] * lag[i] + cst[i, _CB] * lag_dot
                    lag[i] += dt * lag_dot
                    v_new = vi + dt * ((fb + fe - ff[i]) * cst[i, _IM])
                    up[i + 1] = ui + 0.5 * dt * (v_new + vi)
                    v[i] = v_new
                    av = abs(v_new)
                    g, _e, _E = _stribeck_fast(av, cst[i, _FZC], cst[i, _FZD], inv_vs, alpha, alpha2)
                    zi = z[i]
                    zdot = v_new - cst[i, _S0] * av * zi / g
                    ff[i] = cst[i, _S0] * zi + cst[i, _S1] * zdot + cst[i, _S2] * v_new
                    z[i] = zi + dt * zdot
            else:
                # Short sweeps over the IUBs (two per pass, then the update): the IUBs are independent
                # within a sweep, so the CPU overlaps their dependency chains (one long loop body per
                # IUB filled its window with two or three IUBs). Per IUB the operations and their order
                # are those of a plain loop over the IUBs, so are the bits
                # (tests/unit/test_beam_network_kernel_bits.py).
                # first pass: network force at the old positions, right-hand side, Stribeck term at |v|
                for i in range(n):
                    ui = up[i + 1]
                    fe = cst[i, _KL] * (up[i] - ui) + cst[i, _KR] * (up[i + 2] - ui)
                    wk[i, _R0] = cst[i, _MDT] * v[i] + cst[i, _KB] * (s_new - ui) + cst[i, _CBVD] + fe
                    wk[i, _FE] = fe
                    g, wk[i, _AE], wk[i, _AX], w_n[i] = _stribeck_chain(
                        abs(v[i]), wk[i, _AE], wk[i, _AX], w_n[i], cst[i, _FZC], cst[i, _FZD], inv_vs, alpha, alpha2)
                    wk[i, _G0] = g
                    wk[i, _G] = g
                    wk[i, _LV] = abs(v[i])
                    active[i] = g > 0.0  # else: zero normal load, the reference form below
                for i in range(n):
                    if active[i]:
                        wk[i, _V], wk[i, _D] = _semi_velocity(wk[i, _R0], z[i], cst[i, _C0], dt, cst[i, _S0],
                                                              cst[i, _S1], cst[i, _DTS0], wk[i, _G], wk[i, _LV])
                # refinement passes (Stribeck term at the mean speed, then the velocity); an IUB whose pass
                # would repeat its previous one exactly stops
                for _ in range(n_picard):
                    n_active = 0
                    for i in range(n):
                        if active[i]:
                            lv = 0.5 * (abs(wk[i, _V]) + abs(v[i]))
                            if lv == wk[i, _LV]:
                                active[i] = False
                            else:
                                n_active += 1
                                wk[i, _LV] = lv
                                wk[i, _G], wk[i, _AE], wk[i, _AX], w_n[i] = _stribeck_chain(
                                    lv, wk[i, _AE], wk[i, _AX], w_n[i], cst[i, _FZC], cst[i, _FZD], inv_vs, alpha,
                                    alpha2)
                    if n_active == 0:
                        break
                    for i in range(n):
                        if active[i]:
                            wk[i, _V], wk[i, _D] = _semi_velocity(wk[i, _R0], z[i], cst[i, _C0], dt, cst[i, _S0],
                                                                  cst[i, _S1], cst[i, _DTS0], wk[i, _G], wk[i, _LV])
                # state update; the anchor (e, E, n) of the next step's first pass is the last pass's
                for i in range(n):
                    vi = v[i]
                    zi = z[i]
                    ui = up[i + 1]
                    sz0 = cst[i, _S0]
                    sz1 = cst[i, _S1]
                    if wk[i, _G0] > 0.0:
                        v_new = wk[i, _V]
                        lv = wk[i, _LV]
                        # z' = A (z + dt v') with A = G/D, and lambda z' = sigma_0 l_v (z + dt v')/D
                        rD = 1.0 / wk[i, _D]
                        w = zi + dt * v_new
                        z_new = wk[i, _G] * w * rD
                        zdot = v_new - sz0 * lv * w * rD
                        v[i] = v_new
                        up[i + 1] = ui + dt * v_new
                        z[i] = z_new
                        ff[i] = sz0 * z_new + sz1 * zdot + cst[i, _S2] * v_new
                    else:  # zero normal load: reference form (lambda -> 1e12)
                        kd = cst[i, _KL] + cst[i, _KR]
                        v[i], up[i + 1], z[i], ff[i] = _step_column_semi(
                            vi, ui, zi, s_new, vd, m[b, i], cst[i, _KB], cst[i, _CB], sz0, sz1, cst[i, _S2],
                            cst[i, _FZ], wk[i, _FE], kd, gp, dt, n_picard)
    return F, ff_out, lag_out, vel_out, fail


def _column_link_weight(g) -> np.ndarray:
    """n_h + n_d/2 for each pair of adjacent columns (I, I+1): LBNM springs joining them.

    A spring of rest length a along x contributes k_e to the x-stiffness between two rigidly
    moving columns, a diagonal one k_e cos^2(45 deg) = k_e/2 (small-deformation limit of
    eqs. 5-6). Springs inside a column carry no force when the column moves as one.
    """
    ci = g.column[g.pairs[:, 0]]
    cj = g.column[g.pairs[:, 1]]
    cross = np.abs(ci - cj) == 1
    lo = np.minimum(ci, cj)[cross]
    w = np.where(np.isclose(g.rest_length[cross], g.a), 1.0, 0.5)
    return np.bincount(lo, weights=w, minlength=g.n_columns - 1)[: g.n_columns - 1].astype(float)


def iub_arrays(p: BeamNetworkParams, single: bool = False) -> dict[str, np.ndarray]:
    """Per-IUB parameters (1-D arrays over columns) of the MLBNM or of the single-IUB model."""
    d = p.derived()
    g = d.geometry
    if single:
        counts = np.array([g.n_beams], dtype=float)
        fz = np.array([p.normal_load])
    else:
        counts = g.column_count.astype(float)
        fz = g.column_normal_force()
    n = counts.size
    if p.iub_link in ("min", "sum") and n > 1:
        link = d.ke * (np.minimum(counts[:-1], counts[1:]) if p.iub_link == "min" else _column_link_weight(g))
        kl = np.concatenate([[0.0], link])
        kr = np.concatenate([link, [0.0]])
    else:
        kl = d.ke * counts
        kr = d.ke * counts
    return {"count": counts, "m": counts * d.mass, "kb": counts * d.kb, "cb": counts * d.cb,
            "s0": counts * d.sigma0, "s1": counts * d.sigma1, "s2": counts * d.sigma2, "fz": fz,
            "kl": kl, "kr": kr, "x": np.array([0.0]) if single else g.column_x}


def _gp(p: BeamNetworkParams) -> np.ndarray:
    # parameter vector of laws.lugre.stribeck_g: (sigma0, sigma1, sigma2, fc, fs, vs, delta, normal_scaling)
    return np.array([0.0, 0.0, 0.0, p.mu_c, p.mu_s, p.v_stribeck, p.alpha, 1.0])


def _check_run(dt: float, duration: float, save_dt: float, scheme: str, v_drive: float) -> tuple[int, int]:
    if scheme not in SCHEMES:
        raise ConfigError(f"scheme {scheme!r} is not one of {list(SCHEMES)}")
    if not dt > 0:
        raise ParameterError(f"dt = {dt!r} s must be positive")
    if not duration > 0:
        raise ParameterError(f"duration = {duration!r} s must be positive")
    if not v_drive >= 0:
        raise ParameterError(f"v_drive = {v_drive!r} m/s must be >= 0")
    if not (duration / dt < 2.0 ** 62 and save_dt / dt < 2.0 ** 62):
        raise ParameterError(f"duration = {duration:g} s over dt = {dt:g} s is {duration / dt:.3g} steps: too many; "
                             "shorten the duration or increase dt")
    n_steps = int(round(duration / dt))
    save_every = max(1, int(round(save_dt / dt)))
    return n_steps, save_every


def _check_saved(n_steps: int, save_every: int, values: float) -> None:
    """Refuse a run whose saved histories (``values`` numbers per saved sample) exceed the memory limit."""
    from ...core.validation import check_memory

    n_save = n_steps // save_every + 1
    check_memory(8.0 * n_save * values, f"this run ({n_save:.3g} saved samples of {values:.4g} values)",
                 "shorten the duration or increase save_dt")


def _stable_check(params: Sequence[BeamNetworkParams], dt: float, scheme: str, allow_unstable: bool) -> None:
    if scheme != "euler" or allow_unstable:
        return
    lim = min(p.explicit_stable_dt() for p in params)
    if dt > lim:
        raise ParameterError(
            f"dt = {dt:g} s exceeds the stability limit of the explicit Algorithm 1 (about {lim:.3g} s for "
            f"these parameters); use dt <= {lim:.3g} s, scheme='semi-implicit', or allow_unstable=True "
            "to study the numerical artefact")


def run_mlbnm_batch(params: Sequence[BeamNetworkParams], v_drive: Sequence[float], duration: float, *,
                    dt: float = 2e-5, save_dt: float = 1e-3, scheme: str = "semi-implicit", single: bool = False,
                    n_picard: int = 1, save_columns: bool = False, allow_unstable: bool = False,
                    raise_on_failure: bool = True) -> dict:
    r"""Run many independent MLBNM (or single-IUB) cases in one parallel compiled loop.

    Parameters
    ----------
    params : sequence of BeamNetworkParams
        One parameter set per case (all with the same number of columns).
    v_drive : sequence of float
        Stage velocity of each case [m/s].
    duration : float
        Simulated time [s].
    dt, save_dt : float
        Time step and output interval [s].
    scheme : {"semi-implicit", "euler"}
    single : bool
        Single-IUB model (whole patch in one IUB, f_e = 0).
    n_picard : int
        Fixed-point passes refreshing the bristle relaxation rate (semi-implicit only).
    save_columns : bool
        Also return per-IUB friction, lag and tip velocity histories.
    allow_unstable : bool
        Skip the explicit-stability check (for studying Euler artefacts).
    raise_on_failure : bool
        Raise on a diverged case; otherwise its rows stay NaN/partial and ``failed_step``
        (B,) holds the step where it stopped (-1 when it finished).

    Returns
    -------
    dict
        ``time`` (n_save,), ``friction_force`` (B, n_save) and, with ``save_columns``,
        ``column_friction``, ``column_lag``, ``column_velocity`` (B, n_save, n_I), plus the
        per-case ``arrays`` of :func:`iub_arrays`.

    Raises
    ------
    IntegrationError
        When a case produces a non-finite or exploding force (names the case, step and time).

    Notes
    -----
    The semi-implicit scheme treats only the diagonal of the inter-IUB stiffness implicitly,
    so it stays stable but loses accuracy once :math:`\Delta t\sqrt{(k_{I,I-1}+k_{I,I+1})/m_I}`
    exceeds about 0.2: with ``ke_mode = "2Eh"`` on Fig. 8 the steady period reads 0.93 s at
    dt = 2e-5 s, 0.73 s at 1e-5 s and converges to 0.65 s (2e-6 and 1e-6 s). Table 3's k_e
    gives 0.04 at dt = 2e-5 s.
    """
    params = list(params)
    vds = np.asarray(v_drive, dtype=float)
    if len(params) != vds.size:
        raise ConfigError(f"{len(params)} parameter sets but {vds.size} drive velocities")
    n_steps, save_every = _check_run(dt, duration, save_dt, scheme, float(vds.min()))
    _stable_check(params, dt, scheme, allow_unstable)
    arrs = [iub_arrays(p, single) for p in params]
    n = {a["m"].size for a in arrs}
    if len(n) != 1:
        raise ConfigError("all cases of a batch must have the same number of IUBs")
    _check_saved(n_steps, save_every, len(params) * (2 + (3 * next(iter(n)) if save_columns else 0)))
    stack = {k: np.ascontiguousarray(np.stack([a[k] for a in arrs])) for k in ("m", "kb", "cb", "s0", "s1", "s2",
                                                                               "fz", "kl", "kr")}
    gps = {tuple(_gp(p)) for p in params}
    if len(gps) != 1:
        raise ConfigError("all cases of a batch must share mu_s, mu_c, v_stribeck and alpha")
    F, ffc, lagc, velc, fail = _mlbnm_kernel(
        stack["m"], stack["kb"], stack["cb"], stack["s0"], stack["s1"], stack["s2"], stack["fz"], stack["kl"],
        stack["kr"], _gp(params[0]), vds, float(dt), n_steps, save_every, SCHEMES[scheme], int(n_picard),
        bool(save_columns))
    bad = np.nonzero(fail >= 0)[0]
    if bad.size and raise_on_failure:
        b = int(bad[0])
        step = int(fail[b])
        raise IntegrationError(
            f"MLBNM case {b} (v_drive = {vds[b]:g} m/s) diverged at step {step}, t = {step * dt:.6g} s with "
            f"scheme {scheme!r} and dt = {dt:g} s; use a smaller dt or scheme='semi-implicit'",
            time=step * dt, step=step)
    t = np.arange(F.shape[1]) * save_every * dt
    for b in bad:
        F[b, int(fail[b]) // save_every:] = np.nan
    out = {"time": t, "friction_force": F, "arrays": arrs, "failed_step": fail}
    if save_columns:
        out.update(column_friction=ffc, column_lag=lagc, column_velocity=velc)
    return out


def stick_slip_state(friction: np.ndarray, normal_force: np.ndarray, mu_c: float, time: np.ndarray) -> np.ndarray:
    """Remark 1 stick (0) / slip (1) flags from friction histories (time on axis 0).

    Slip when ``|f| >= mu_C f_z`` and ``d|f|/dt <= 0``; stick otherwise (force below the Coulomb
    level, or at/above it but still rising). The rate is a backward difference; the first
    sample counts as rising.
    """
    af = np.abs(friction)
    rate = np.zeros_like(af)
    rate[1:] = np.diff(af, axis=0) / np.diff(time)[:, None] if af.ndim == 2 else np.diff(af) / np.diff(time)
    rate[0] = 1.0
    return ((af >= mu_c * normal_force) & (rate <= 0.0)).astype(np.int8)


def run_mlbnm(p: BeamNetworkParams, v_drive: float, duration: float, *, dt: float = 2e-5, save_dt: float = 1e-3,
              scheme: str = "semi-implicit", single: bool = False, n_picard: int = 1,
              allow_unstable: bool = False) -> xr.Dataset:
    """Run the MLBNM (or single IUB) for one case and return a labelled Dataset.

    Variables: ``friction_force`` (total F_f [N]), ``driver_position`` [m], per IUB
    ``iub_friction`` [N], ``iub_lag`` (s - u [m]), ``iub_velocity`` (tip velocity [m/s]) and
    ``iub_slip`` (Remark 1 flag), with coordinates ``iub`` and ``iub_x`` [m].
    See :func:`run_mlbnm_batch` for the arguments.
    """
    return run_mlbnm_cases([p], [v_drive], duration, dt=dt, save_dt=save_dt, scheme=scheme, single=single,
                           n_picard=n_picard, allow_unstable=allow_unstable)[0]


def run_mlbnm_cases(params: Sequence[BeamNetworkParams], v_drive: Sequence[float], duration: float, *,
                    dt: float = 2e-5, save_dt: float = 1e-3, scheme: str = "semi-implicit", single: bool = False,
                    n_picard: int = 1, allow_unstable: bool = False) -> list[xr.Dataset]:
    """Many cases in one parallel loop (:func:`run_mlbnm_batch`), each returned as the Dataset
    :func:`run_mlbnm` gives for it alone (the cases of the loop are independent, so the numbers are
    the same bit for bit). Cases must share what a batch shares (duration, numerics, Stribeck law)."""
    r = run_mlbnm_batch(params, v_drive, duration, dt=dt, save_dt=save_dt, scheme=scheme, single=single,
                        n_picard=n_picard, save_columns=True, allow_unstable=allow_unstable)
    return [_case_dataset(r, b, p, float(v), single, scheme, dt) for b, (p, v) in enumerate(zip(params, v_drive))]


def _case_dataset(r: dict, b: int, p: BeamNetworkParams, v_drive: float, single: bool, scheme: str,
                  dt: float) -> xr.Dataset:
    """Case ``b`` of a :func:`run_mlbnm_batch` result (saved with its columns) as a labelled Dataset."""
    a = r["arrays"][b]
    t = r["time"]
    ff = r["column_friction"][b]
    tt = ("time", "iub")
    # one constructor call (adding the variables one by one aligns and merges each time, ~3 ms per run)
    ds = xr.Dataset({
        "time": ("time", t, {"units": "s"}), "iub": ("iub", np.arange(a["m"].size)),
        "iub_x": ("iub", a["x"], {"units": "m"}),
        "friction_force": ("time", r["friction_force"][b], {"units": "N"}),
        "driver_position": ("time", v_drive * t, {"units": "m"}),
        "iub_friction": (tt, ff, {"units": "N"}),
        "iub_lag": (tt, r["column_lag"][b], {"units": "m"}),
        "iub_velocity": (tt, r["column_velocity"][b], {"units": "m/s"}),
        "iub_normal_force": ("iub", a["fz"], {"units": "N"}),
        "iub_count": ("iub", a["count"], {"units": "1"}),
        "iub_slip": (tt, stick_slip_state(ff, a["fz"][None, :], p.mu_c, t), {"units": "1"})}).set_coords("iub_x")
    ds.attrs.update(sanitize_attrs({**p.attrs(), "model": "single-IUB" if single else "MLBNM", "v_drive": v_drive,
                                    "scheme": scheme, "dt": dt, "citation": p.citation, "doi": p.doi}))
    return ds


def iub_linear_eigenvalues(p: BeamNetworkParams, v_drive: float, single: bool = True) -> np.ndarray:
    r"""Eigenvalues [1/s] of the single IUB linearised about steady sliding at ``v_drive``.

    With :math:`G = f_z g(v)`, :math:`\lambda_0 = \sigma_0 v / G` and the weakening index
    :math:`\beta = -v G'(v)/G`, the perturbation of (10)-(11) obeys

    .. math::
        m s^3 + (c + m\lambda_0 - \beta\sigma_1) s^2 + (k_b + c\lambda_0 - \beta\sigma_0) s + k_b\lambda_0 = 0,
        \quad c = c_b + \sigma_2 .

    Steady sliding is linearly unstable (stick-slip grows) when a root has a positive real
    part; for small mass this happens when :math:`\beta > k_b/\sigma_0 + c\,v/G`, i.e. only
    inside a velocity band around the Stribeck velocity. ``single`` uses the whole-patch IUB.
    """
    a = iub_arrays(p, single=True)
    m, kb, c = a["m"][0], a["kb"][0], a["cb"][0] + a["s2"][0]
    s0, s1, fz = a["s0"][0], a["s1"][0], a["fz"][0]
    x = v_drive / p.v_stribeck
    e = math.exp(-(x**p.alpha))
    g = p.mu_c + (p.mu_s - p.mu_c) * e
    beta = p.alpha * x**p.alpha * (p.mu_s - p.mu_c) * e / g
    lam0 = s0 * v_drive / (fz * g)
    return np.roots([m, c + m * lam0 - beta * s1, kb + c * lam0 - beta * s0, kb * lam0])
