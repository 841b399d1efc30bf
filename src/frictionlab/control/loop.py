"""The compiled closed loop: sampled controller, estimator and plant in one numba function.

At each sample ``k`` (period ``Ts``) the loop

1. samples and quantises the sensors (position; velocity from a sensor or a backward
   difference of the quantised position),
2. runs the discrete PID / PD with velocity feedback on ``e = x_m - x_r`` (plus the
   inertia feedforward ``m_model a_r``),
3. forms the friction estimate ``F_hat`` of the compensation mode and adds it to the
   command (when applied), saturates the actuator,
4. logs, advances the estimator to the next sample and integrates the plant over ``Ts``
   with the command held (zero-order hold).

Modes (``sp[11]``): 0 none, 1 model feedforward from the reference velocity, 2 state
observer (Canudas de Wit et al. 1995, Sec. V, for LuGre), 3 extended Kalman filter,
4 the motion-dynamics estimate of the Kloss paper (Martinez Molina 2025, eq. 1).
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np
from numba import njit

from .kernels import model_tools, plant_stepper, quantise

__all__ = ["closed_loop", "SP_FIELDS", "OUT_FIELDS"]

#: layout of the servo parameter vector ``sp``
SP_FIELDS = ("mass", "sample_period", "position_resolution", "velocity_resolution", "velocity_from_difference",
             "force_limit", "kp", "ki", "kv", "model_mass", "inertia_feedforward", "mode", "observer_gain",
             "observer_feedthrough", "estimator_bandwidth", "apply_compensation", "ekf_position_noise",
             "ekf_velocity_noise", "ekf_use_velocity", "plant_force_scale", "model_force_scale",
             "estimator_substeps")
#: columns of the logged array ``OUT``
OUT_FIELDS = ("position", "velocity", "measured_position", "measured_velocity", "control_force",
              "friction_force", "friction_estimate", "position_error")


def closed_loop(plant_rates, plant_friction, model_rates=None, model_friction=None, ekf=False):
    """The loop for one plant law, one model law (or None) and one estimator kind.

    ``loop(sp, lp, mp, XR, VR, AR, FNP, FNM, y0, z0, zm0, s0, P0, qdiag, idx, lo, dt, nsub,
    OUT, ZP, ZM) -> int``: ``-1`` on success, else the first sample whose plant or
    estimator state became non-finite. Loops are cached per argument tuple; modes 0 (none)
    and 4 (motion dynamics) need no model, mode 3 needs ``ekf=True``.
    """
    return _closed_loop(plant_rates, plant_friction, model_rates, model_friction, bool(ekf))


@lru_cache(maxsize=None)
def _estimator(model_rates, model_friction, ekf):
    """``(estimate, propagate)`` for a model law (None: no model) and the EKF flag."""
    if model_rates is None:
        @njit
        def estimate(mode, zm, s, P, p, mp, xm, vm, e, vr, fnm, rx, rv, use_v, idx, fsm, kobs, feed):
            return 0.0

        @njit
        def propagate(mode, zm, s, P, p, mp, u, vm, e, vr, fnm, idx, inv_mm, fsm, Ts, nest, qdiag, lo, wm):
            return True

        return estimate, propagate
    integrate, mforce, ekf_update, ekf_predict, ekf_force = model_tools(model_rates, model_friction)
    if ekf:
        @njit
        def estimate(mode, zm, s, P, p, mp, xm, vm, e, vr, fnm, rx, rv, use_v, idx, fsm, kobs, feed):
            ekf_update(s, P, xm, vm, rx, rv, use_v)
            return ekf_force(s, fnm, p, idx, s.size - 2 - idx.size, fsm)

        @njit
        def propagate(mode, zm, s, P, p, mp, u, vm, e, vr, fnm, idx, inv_mm, fsm, Ts, nest, qdiag, lo, wm):
            return ekf_predict(s, P, u, fnm, p, idx, s.size - 2 - idx.size, inv_mm, fsm, Ts, nest, qdiag, lo)

        return estimate, propagate

    @njit
    def estimate(mode, zm, s, P, p, mp, xm, vm, e, vr, fnm, rx, rv, use_v, idx, fsm, kobs, feed):
        if mode == 1:
            return mforce(zm, vr, fnm, mp, fsm)
        return mforce(zm, vm, fnm, mp, fsm) - feed * kobs * e

    @njit
    def propagate(mode, zm, s, P, p, mp, u, vm, e, vr, fnm, idx, inv_mm, fsm, Ts, nest, qdiag, lo, wm):
        if mode == 1:
            return integrate(zm, vr, fnm, mp, 0.0, Ts / nest, nest, wm)
        return integrate(zm, vm, fnm, mp, e, Ts / nest, nest, wm)

    return estimate, propagate


@lru_cache(maxsize=None)
def _closed_loop(plant_rates, plant_friction, model_rates, model_friction, ekf):
    advance, pforce = plant_stepper(plant_rates, plant_friction)
    estimate, propagate = _estimator(model_rates, model_friction, ekf)

    @njit
    def loop(sp, lp, mp, XR, VR, AR, FNP, FNM, y0, z0, zm0, s0, P0, qdiag, idx, lo, dt, nsub, OUT, ZP, ZM):
        m, Ts, qx, qv, vdiff, umax = sp[0], sp[1], sp[2], sp[3], sp[4], sp[5]
        kp, ki, kv, mm, aff, mode = sp[6], sp[7], sp[8], sp[9], sp[10], int(sp[11])
        kobs, feed, bw, apply = sp[12], sp[13], sp[14], sp[15]
        rx, rv, use_v, fsp, fsm, nest = sp[16], sp[17], sp[18] > 0.5, sp[19], sp[20], int(sp[21])
        inv_m = 1.0 / m
        inv_mm = 1.0 / mm
        y = y0.copy()
        z = z0.copy()
        zm = zm0.copy()
        s = s0.copy()
        P = P0.copy()
        p = mp.copy()
        wp = np.empty((5, max(z.size, 1)))
        wm = np.empty((5, max(zm.size, 1)))
        integ = 0.0
        xm_prev = quantise(y[0], qx)
        momentum = mm * y[1]
        nk = XR.size
        for k in range(nk):
            x, v = y[0], y[1]
            xm = quantise(x, qx)
            if vdiff > 0.5:
                vm = (xm - xm_prev) / Ts if k > 0 else quantise(v, qv)
            else:
                vm = quantise(v, qv)
            xm_prev = xm
            e = xm - XR[k]
            integ += Ts * e
            ufb = -(kp * e + ki * integ + kv * (vm - VR[k])) + aff * mm * AR[k]
            if mode == 4:
                fh = bw * (momentum - mm * vm)
            elif mode == 0:
                fh = 0.0
            else:
                fh = estimate(mode, zm, s, P, p, mp, xm, vm, e, VR[k], FNM[k], rx, rv, use_v, idx, fsm, kobs, feed)
            u = ufb + apply * fh
            if umax > 0.0:
                u = min(max(u, -umax), umax)
            OUT[k, 0] = x
            OUT[k, 1] = v
            OUT[k, 2] = xm
            OUT[k, 3] = vm
            OUT[k, 4] = u
            OUT[k, 5] = pforce(z, v, FNP[k], lp, fsp)
            OUT[k, 6] = fh
            OUT[k, 7] = x - XR[k]
            for j in range(z.size):
                ZP[k, j] = z[j]
            if mode == 3:
                for j in range(s.size - 2):
                    ZM[k, j] = s[2 + j]
            else:
                for j in range(zm.size):
                    ZM[k, j] = zm[j]
            if k == nk - 1:
                break
            ok = True
            if mode == 4:
                momentum += Ts * (u - fh)
            elif mode != 0:
                ok = propagate(mode, zm, s, P, p, mp, u, vm, kobs * e, VR[k], FNM[k], idx, inv_mm, fsm, Ts, nest,
                               qdiag, lo, wm)
            if not ok:
                return k + 1
            if not advance(y, z, u, FNP[k], lp, inv_m, fsp, dt, nsub, wp):
                return k + 1
        return -1

    return loop
