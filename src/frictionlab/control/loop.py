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

from numba import njit

from ..core.jitcache import specialise
from .kernels import model_module, plant_stepper

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
    estimator state became non-finite. Loops are cached per argument tuple in the process and
    on disk (template :mod:`frictionlab.control.templates.loop`); modes 0 (none) and 4 (motion
    dynamics) need no model, mode 3 needs ``ekf=True``.
    """
    return _closed_loop(plant_rates, plant_friction, model_rates, model_friction, bool(ekf))


@njit(cache=True)
def _no_estimate(mode, zm, s, P, p, mp, xm, vm, e, vr, fnm, rx, rv, use_v, idx, fsm, kobs, feed):
    return 0.0


@njit(cache=True)
def _no_propagate(mode, zm, s, P, p, mp, u, vm, e, vr, fnm, idx, inv_mm, fsm, Ts, nest, qdiag, lo, wm):
    return True


def _estimator(model_rates, model_friction, ekf):
    """``(estimate, propagate)`` for a model law (None: no model) and the EKF flag."""
    if model_rates is None:
        return _no_estimate, _no_propagate
    mod = model_module(model_rates, model_friction)
    if ekf:
        return mod.ekf_estimate, mod.ekf_propagate
    return mod.observer_estimate, mod.observer_propagate


@lru_cache(maxsize=None)
def _closed_loop(plant_rates, plant_friction, model_rates, model_friction, ekf):
    advance, pforce = plant_stepper(plant_rates, plant_friction)
    estimate, propagate = _estimator(model_rates, model_friction, ekf)
    kernels = {"advance": advance, "pforce": pforce, "estimate": estimate, "propagate": propagate}
    return specialise("frictionlab.control.templates.loop", kernels).loop
