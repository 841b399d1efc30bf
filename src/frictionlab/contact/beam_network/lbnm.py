r"""LBNM: the 2-D LuGre / beam-spring network model of a soft-solid contact patch.

The beam-network paper (doi:10.1115/1.4042247), Sec. 2, eqs. (1)-(9) and Algorithm 1. Every beam i of the patch has a
tip mass m at absolute position :math:`\mathbf u^i`; its clamped end moves with the stage,
:math:`\mathbf s^i = \mathbf X^i + \dot s\,t\,\hat{\mathbf x}`.

.. math::
    m\ddot{\mathbf u}^i = k_b^i(\mathbf s^i-\mathbf u^i) + c_b^i(\dot{\mathbf s}^i-\dot{\mathbf u}^i)
        + \sum_{j\in\mathcal N_i} k_e(\mathbf u^j-\mathbf u^i)
          \Big(1-\frac{u^0_{ij}}{\lVert\mathbf u^j-\mathbf u^i\rVert}\Big) - \mathbf f_f^i

    \dot z^i_k = \dot u^i_k - \frac{\sigma^i_0 |\dot u^i_R|}{f^i_z\,g(\dot u^i_R)} z^i_k, \quad
    f^i_{fk} = \sigma^i_0 z^i_k + \sigma^i_1\dot z^i_k + \sigma^i_2\dot u^i_k, \quad
    g(v) = \mu_C + (\mu_S-\mu_C)e^{-(v/v_s)^\alpha}

(the Stribeck function has the semantics of :func:`frictionlab.laws.lugre.stribeck_g` with
normal scaling; :func:`.mlbnm.stribeck_g` adds a fast path for alpha = 2).

Notes
-----
The bending force is written in its restoring form (our reading): the paper's eq. (3) reads
:math:`k_b\mathbf l + c_b\dot{\mathbf l}` with :math:`\mathbf l = \mathbf u - \mathbf s`, but its
Algorithm 1 integrates :math:`\mathbf l(n+1) = \mathbf l(n) - \Delta t\,\dot{\mathbf l}` and calls the
bending velocity negative, i.e. the stored quantity is the lag :math:`\mathbf s - \mathbf u`.
Algorithm 1 is reproduced as printed: the lag is integrated by forward Euler separately
from the tip position (trapezoid rule), the acceleration uses the friction of the previous
step and the LuGre update uses the new tip velocity (Algorithm 1, lines 5-11).

The semi-implicit loop uses the same rounding-level speed-ups as :mod:`.mlbnm` (hoisted
constants, one division per pass and component, exact-repeat skip of the refinement,
reused Stribeck exponentials, fast-math ``contract`` only).
"""

from __future__ import annotations

import math

import numpy as np
import xarray as xr
from numba import njit

from ...core.errors import ConfigError, IntegrationError, ParameterError
from ...core.result import sanitize_attrs
from .mlbnm import (
    MAX_EXP_CHAIN,
    SCHEMES,
    _check_run,
    _check_saved,
    _gp,
    _stable_check,
    _stribeck_chain,
    stribeck_g,
)
from .params import BeamNetworkParams

__all__ = ["run_lbnm", "network_force"]


@njit(cache=True)
def _network_force(X, Y, ux, uy, pairs, rest, ke, fx, fy):
    """Eqs. (4)-(5): f_e^i = sum_j k_e (u_j - u_i)(1 - u0_ij / |u_j - u_i|); writes fx, fy."""
    fx[:] = 0.0
    fy[:] = 0.0
    for p in range(pairs.shape[0]):
        i = pairs[p, 0]
        j = pairs[p, 1]
        dx = X[j] + ux[j] - X[i] - ux[i]
        dy = Y[j] + uy[j] - Y[i] - uy[i]
        L = math.sqrt(dx * dx + dy * dy)
        c = ke * (1.0 - rest[p] / L)
        fx[i] += c * dx
        fy[i] += c * dy
        fx[j] -= c * dx
        fy[j] -= c * dy


def network_force(p: BeamNetworkParams, ux: np.ndarray, uy: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Network force on every beam for tip displacements ``ux``, ``uy`` from rest [m] -> [N]."""
    d = p.derived()
    g = d.geometry
    fx = np.zeros(g.n_beams)
    fy = np.zeros(g.n_beams)
    _network_force(g.x, g.y, np.asarray(ux, float), np.asarray(uy, float), g.pairs, g.rest_length, d.ke, fx, fy)
    return fx, fy


@njit(cache=True, fastmath={"contract"})
def _lbnm_kernel(X, Y, pairs, rest, kdx, kdy, m, kb, cb, ke, s0, s1, s2, fz, gp, vd, dt, n_steps, save_every,
                 beam_every, scheme, n_picard, mu_c):
    N = X.size
    n_save = n_steps // save_every + 1
    n_bsave = n_steps // beam_every + 1
    Fx = np.zeros(n_save)
    Fy = np.zeros(n_save)
    bfx = np.zeros((n_bsave, N))
    bfy = np.zeros((n_bsave, N))
    blx = np.zeros((n_bsave, N))
    bly = np.zeros((n_bsave, N))
    bvx = np.zeros((n_bsave, N))
    bslip = np.zeros((n_bsave, N), dtype=np.int8)
    ux = np.zeros(N)
    uy = np.zeros(N)
    vx = np.zeros(N)
    vy = np.zeros(N)
    zx = np.zeros(N)
    zy = np.zeros(N)
    ffx = np.zeros(N)
    ffy = np.zeros(N)
    lagx = np.zeros(N)
    lagy = np.zeros(N)
    fex = np.zeros(N)
    fey = np.zeros(N)
    rate_x = np.ones(N)  # d|f_fx|/dt of the last step (Remark 1)
    fail = -1
    # invariants hoisted out of the time loop
    inv_vs = 1.0 / gp[5]
    alpha = gp[6]
    alpha2 = alpha == 2.0
    mdt = m / dt
    cbvd = cb * vd
    dts0 = dt * s0
    c0 = m / dt + kb * dt + cb + s1 + s2
    c_Cx = np.empty(N)
    c_Cy = np.empty(N)
    c_fzc = np.empty(N)
    c_fzd = np.empty(N)
    w_e = np.zeros(N)  # last Stribeck exponent of each beam and its exponential (reused when close)
    w_E = np.zeros(N)
    w_n = np.full(N, MAX_EXP_CHAIN, dtype=np.int64)
    for i in range(N):
        c_Cx[i] = c0 + kdx[i] * dt
        c_Cy[i] = c0 + kdy[i] * dt
        c_fzc[i] = fz[i] * gp[3]
        c_fzd[i] = fz[i] * (gp[4] - gp[3])
    for step in range(n_steps + 1):
        if step % save_every == 0:
            k = step // save_every
            tx = 0.0
            ty = 0.0
            for i in range(N):
                tx += ffx[i]
                ty += ffy[i]
            Fx[k] = tx
            Fy[k] = ty
            if not math.isfinite(tx) or abs(tx) > 1e12:
                fail = step
                break
        if step % beam_every == 0:
            k = step // beam_every
            s_now = vd * step * dt
            for i in range(N):
                bfx[k, i] = ffx[i]
                bfy[k, i] = ffy[i]
                blx[k, i] = s_now - ux[i]
                bly[k, i] = -uy[i]
                bvx[k, i] = vx[i]
                if abs(ffx[i]) >= mu_c * fz[i] and rate_x[i] <= 0.0:
                    bslip[k, i] = 1
        if step == n_steps:
            break
        s_new = vd * (step + 1) * dt
        _network_force(X, Y, ux, uy, pairs, rest, ke, fex, fey)
        if scheme == 0:
            for i in range(N):
                ldx = vd - vx[i]
                ldy = -vy[i]
                fbx = kb * lagx[i] + cb * ldx
                fby = kb * lagy[i] + cb * ldy
                lagx[i] += dt * ldx
                lagy[i] += dt * ldy
                nvx = vx[i] + dt * (fbx + fex[i] - ffx[i]) / m
                nvy = vy[i] + dt * (fby + fey[i] - ffy[i]) / m
                ux[i] += 0.5 * dt * (nvx + vx[i])
                uy[i] += 0.5 * dt * (nvy + vy[i])
                vx[i] = nvx
                vy[i] = nvy
                vr = math.sqrt(nvx * nvx + nvy * nvy)
                g = stribeck_g(vr, fz[i], gp)
                lam = s0 * vr / g
                zdx = nvx - lam * zx[i]
                zdy = nvy - lam * zy[i]
                old = abs(ffx[i])
                ffx[i] = s0 * zx[i] + s1 * zdx + s2 * nvx
                ffy[i] = s0 * zy[i] + s1 * zdy + s2 * nvy
                rate_x[i] = abs(ffx[i]) - old
                zx[i] += dt * zdx
                zy[i] += dt * zdy
        else:
            for i in range(N):
                vxi = vx[i]
                vyi = vy[i]
                zxi = zx[i]
                zyi = zy[i]
                vr0 = math.sqrt(vxi * vxi + vyi * vyi)
                vr = vr0
                g, e, E, nch = _stribeck_chain(vr, w_e[i], w_E[i], w_n[i], c_fzc[i], c_fzd[i], inv_vs, alpha, alpha2)
                if g > 0.0:
                    # single-division form of the linearly implicit step (see mlbnm._semi_velocity)
                    Rx = mdt * vxi + kb * (s_new - ux[i]) + cbvd + fex[i]
                    Ry = mdt * vyi - kb * uy[i] + fey[i]
                    D = g + dts0 * vr
                    h = s0 * (g - s1 * vr)
                    nvx = (Rx * D - h * zxi) / (c_Cx[i] * D + dt * h)
                    nvy = (Ry * D - h * zyi) / (c_Cy[i] * D + dt * h)
                    for _ in range(n_picard):
                        vr_new = 0.5 * (math.sqrt(nvx * nvx + nvy * nvy) + vr0)
                        if vr_new == vr:  # the refinement would repeat the same pass exactly
                            break
                        vr = vr_new
                        g, e, E, nch = _stribeck_chain(vr, e, E, nch, c_fzc[i], c_fzd[i], inv_vs, alpha, alpha2)
                        D = g + dts0 * vr
                        h = s0 * (g - s1 * vr)
                        nvx = (Rx * D - h * zxi) / (c_Cx[i] * D + dt * h)
                        nvy = (Ry * D - h * zyi) / (c_Cy[i] * D + dt * h)
                    w_e[i] = e  # anchor of the next step's first pass
                    w_E[i] = E
                    w_n[i] = nch
                    # z' = A (z + dt v') with A = G/D, and lambda z' = sigma_0 |v| (z + dt v')/D
                    rD = 1.0 / D
                    wx = zxi + dt * nvx
                    wy = zyi + dt * nvy
                    zxn = g * wx * rD
                    zyn = g * wy * rD
                    lzx = s0 * vr * wx * rD
                    lzy = s0 * vr * wy * rD
                else:  # zero normal load: reference form (lambda -> 1e12)
                    nvx = vxi
                    nvy = vyi
                    lam = 0.0
                    A = 1.0
                    for _ in range(n_picard + 1):
                        g = stribeck_g(vr, fz[i], gp)
                        lam = s0 * vr / g if g > 0.0 else 1e12
                        A = 1.0 / (1.0 + dt * lam)
                        Bc = dt * A
                        base = m / dt + kb * dt + cb + (s0 - s1 * lam) * Bc + s1 + s2
                        nvx = (m * vxi / dt + kb * (s_new - ux[i]) + cb * vd + fex[i]
                               - (s0 - s1 * lam) * A * zxi) / (base + kdx[i] * dt)
                        nvy = (m * vyi / dt - kb * uy[i] + fey[i] - (s0 - s1 * lam) * A * zyi) / (base + kdy[i] * dt)
                        if n_picard > 0:
                            vr = 0.5 * (math.sqrt(nvx * nvx + nvy * nvy) + vr0)
                    zxn = A * zxi + dt * A * nvx
                    zyn = A * zyi + dt * A * nvy
                    lzx = lam * zxn
                    lzy = lam * zyn
                zx[i] = zxn
                zy[i] = zyn
                ux[i] += dt * nvx
                uy[i] += dt * nvy
                vx[i] = nvx
                vy[i] = nvy
                old = abs(ffx[i])
                ffx[i] = s0 * zxn + s1 * (nvx - lzx) + s2 * nvx
                ffy[i] = s0 * zyn + s1 * (nvy - lzy) + s2 * nvy
                rate_x[i] = abs(ffx[i]) - old
    return Fx, Fy, bfx, bfy, blx, bly, bvx, bslip, fail


def run_lbnm(p: BeamNetworkParams, v_drive: float, duration: float, *, dt: float = 2e-5, save_dt: float = 1e-3,
             beam_save_dt: float = 1e-2, scheme: str = "semi-implicit", n_picard: int = 1,
             allow_unstable: bool = False, no_network: bool = False,
             normal_force: np.ndarray | None = None) -> xr.Dataset:
    """Simulate the LBNM from rest under a constant stage velocity along x.

    Parameters
    ----------
    p : BeamNetworkParams
        Model parameters (a preset via ``make_model("beam_network", preset)``).
    v_drive : float
        Stage velocity along x [m/s].
    duration : float
        Simulated time [s].
    dt : float
        Time step [s]. Algorithm 1 (``scheme="euler"``) needs ``dt`` below
        :meth:`BeamNetworkParams.explicit_stable_dt` (about 3.9e-5 s for Table 3).
    save_dt : float
        Output interval of the total forces [s].
    beam_save_dt : float
        Output interval of the per-beam fields [s].
    scheme : {"semi-implicit", "euler"}
        Linearly implicit first-order scheme, or the paper's Algorithm 1.
    n_picard : int
        Fixed-point passes for the bristle relaxation rate (semi-implicit).
    allow_unstable : bool
        Skip the explicit stability check.
    no_network : bool
        Drop the inter-beam springs (k_e = 0) -- the beams become independent.
    normal_force : array (n_beams,), optional
        Per-beam normal forces [N] replacing the Fig. 7 distribution (e.g. each column's mean, to
        isolate what the MLBNM's column lumping discards); positive, any total.

    Returns
    -------
    xarray.Dataset
        ``friction_force`` (total x friction F_f = sum f_fx [N]) and ``friction_force_y``
        over ``time``; per beam over ``beam_time`` x ``beam``: ``beam_friction_x``,
        ``beam_friction_y`` [N], ``beam_lag_x``, ``beam_lag_y`` (s - u, the bending
        deflection [m]), ``beam_velocity_x`` [m/s], ``beam_slip`` (Remark 1: 1 = slip,
        from the x component, the driving direction); beam coordinates ``beam_x``, ``beam_y`` [m],
        ``beam_column`` and ``beam_normal_force`` [N].

    Raises
    ------
    ParameterError
        Unstable explicit ``dt`` (names the stable step) or bad inputs.
    IntegrationError
        Non-finite or exploding forces (names step and time).
    """
    n_steps, save_every = _check_run(dt, duration, save_dt, scheme, v_drive)
    beam_every = max(1, int(round(beam_save_dt / dt)))
    if beam_every % save_every:
        raise ConfigError(f"beam_save_dt = {beam_save_dt:g} s must be a multiple of save_dt = {save_dt:g} s")
    _stable_check([p], dt, scheme, allow_unstable)
    d = p.derived()
    g = d.geometry
    _check_saved(n_steps, save_every, 3 + 7 * g.n_beams * save_every / beam_every)  # forces, then 7 per-beam series
    fz = d.normal_force
    if normal_force is not None:
        fz = np.asarray(normal_force, dtype=float)
        if fz.shape != (g.n_beams,) or not np.all(np.isfinite(fz) & (fz > 0)):
            raise ParameterError(f"normal_force must hold {g.n_beams} positive finite values (one per beam), "
                                 f"got shape {fz.shape}")
    ke = 0.0 if no_network else d.ke
    dx = g.x[g.pairs[:, 1]] - g.x[g.pairs[:, 0]]
    dy = g.y[g.pairs[:, 1]] - g.y[g.pairs[:, 0]]
    ex2 = dx**2 / (dx**2 + dy**2)
    kdx = np.bincount(g.pairs.ravel(), weights=np.repeat(ke * ex2, 2), minlength=g.n_beams)
    kdy = np.bincount(g.pairs.ravel(), weights=np.repeat(ke * (1 - ex2), 2), minlength=g.n_beams)
    Fx, Fy, bfx, bfy, blx, bly, bvx, bslip, fail = _lbnm_kernel(
        g.x, g.y, g.pairs, g.rest_length, kdx, kdy, d.mass, d.kb, d.cb, ke, d.sigma0, d.sigma1, d.sigma2,
        fz, _gp(p), float(v_drive), float(dt), n_steps, save_every, beam_every, SCHEMES[scheme],
        int(n_picard), p.mu_c)
    if fail >= 0:
        raise IntegrationError(
            f"LBNM diverged at step {fail}, t = {fail * dt:.6g} s (scheme {scheme!r}, dt = {dt:g} s); "
            f"use a smaller dt (explicit limit about {p.explicit_stable_dt():.3g} s) or scheme='semi-implicit'",
            time=fail * dt, step=int(fail))
    t = np.arange(Fx.size) * save_every * dt
    tb = np.arange(bfx.shape[0]) * beam_every * dt
    ds = xr.Dataset(coords={
        "time": ("time", t, {"units": "s"}),
        "beam_time": ("beam_time", tb, {"units": "s"}),
        "beam": ("beam", np.arange(g.n_beams)),
        "beam_x": ("beam", g.x, {"units": "m"}),
        "beam_y": ("beam", g.y, {"units": "m"}),
        "beam_column": ("beam", g.column),
    })
    ds["friction_force"] = ("time", Fx, {"units": "N"})
    ds["friction_force_y"] = ("time", Fy, {"units": "N"})
    ds["driver_position"] = ("time", v_drive * t, {"units": "m"})
    ds["beam_normal_force"] = ("beam", fz, {"units": "N"})
    for name, arr, u in (("beam_friction_x", bfx, "N"), ("beam_friction_y", bfy, "N"), ("beam_lag_x", blx, "m"),
                         ("beam_lag_y", bly, "m"), ("beam_velocity_x", bvx, "m/s"), ("beam_slip", bslip, "1")):
        ds[name] = (("beam_time", "beam"), arr, {"units": u})
    ds.attrs.update(sanitize_attrs({**p.attrs(), "model": "LBNM", "v_drive": v_drive, "scheme": scheme, "dt": dt,
                                    "n_beams": g.n_beams, "no_network": no_network, "citation": p.citation,
                                    "doi": p.doi}))
    return ds
