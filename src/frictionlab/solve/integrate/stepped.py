"""Python-level stepping loop for discrete-update models and feedback protocols.

Stepped models (:class:`~frictionlab.core.base.AbstractSteppedModel`) provide their own
update ``step(state, dt, v, normal_force)``; rate laws are advanced here by one RK4 step
per ``dt`` so that feedback protocols (e.g. :class:`PulsatingThreshold`) work with them
too. Only :class:`PrescribedSlip` is supported here; models that need richer mechanics
(the subloading 1-DOF system, the beam network) provide their own compiled drivers.
"""

from __future__ import annotations

import numpy as np

from ...systems.prescribed_slip import PrescribedSlip
from ...core.base import AbstractLaw, AbstractSteppedModel
from ...core.errors import ConfigError, IntegrationError
from ...core.result import LazyDataset

__all__ = ["run_stepped"]


def _rk4_law_step(model: AbstractLaw, z: np.ndarray, dt: float, v: float, fn: float) -> np.ndarray:
    if z.size == 0:
        return z
    k1 = model.rates(0.0, z, v, fn)
    k2 = model.rates(0.0, z + 0.5 * dt * k1, v, fn)
    k3 = model.rates(0.0, z + 0.5 * dt * k2, v, fn)
    k4 = model.rates(0.0, z + dt * k3, v, fn)
    return z + dt / 6.0 * (k1 + 2 * k2 + 2 * k3 + k4)


def _guard(model, protocol, system, arr: np.ndarray, S: np.ndarray, dt: float, n: int, stride: int) -> None:
    """The fixed-step guard (:mod:`.guard`) on a rate law's RK4 steps: finite garbage is an error here too
    (LuGre under prescribed slip at dt = 0.5 s ends at 1e269 N otherwise). A feedback protocol's direction is
    not in its samples, so its runs are not checked."""
    from .guard import check_fixed_step

    law_rates, law_friction = model.kernels()
    Y = np.ascontiguousarray(np.column_stack([arr[:, 1], S]))
    steps = np.arange(arr.shape[0], dtype=np.int64) * stride
    check_fixed_step(model, protocol, type(system)._rhs_kernel, law_rates, law_friction,
                     system.param_vector().astype(np.float64), model.param_vector(), Y, steps, dt, n,
                     len(system.state_names), "step", np.ascontiguousarray(arr[:, 4]))


def run_stepped(model, protocol, system, *, dt: float, n: int, stride: int):
    if not isinstance(system, PrescribedSlip):
        raise ConfigError(
            f"the stepping loop drives models under 'prescribed_slip' only, not {system.type_name!r}; "
            "use the model's own system driver"
        )
    stepped = isinstance(model, AbstractSteppedModel)
    z = model.initial_state().astype(float)
    slip = 0.0
    direction = 1.0
    rows: list[tuple] = []
    states: list[np.ndarray] = []
    extras: dict[str, list[float]] = {}
    for i in range(n + 1):
        t = i * dt
        u = protocol.sample(np.array([t]))[:, 0]
        v = direction * u[0] if protocol.feedback else u[0]
        fn = u[1]
        f = model.friction(t, z, v, fn)
        if protocol.feedback:
            new_dir = protocol.direction(direction, f)
            if new_dir != direction:
                direction = new_dir
                v = direction * u[0]
        if i % stride == 0:
            rows.append((t, slip, v, fn, f, u[2]))
            states.append(z.copy())
            if stepped:
                for k, val in model.outputs(z, v, fn).items():
                    extras.setdefault(k, []).append(val)
        if i == n:
            break
        z = model.step(z, dt, v, fn) if stepped else _rk4_law_step(model, z, dt, v, fn)
        slip += v * dt
        if not np.all(np.isfinite(z)):
            raise IntegrationError(
                f"{model.name}: non-finite state at step {i + 1} (t = {t + dt:.6g} s, dt = {dt:g} s); "
                f"reduce dt (e.g. {dt / 10:g})", time=t + dt, step=i + 1)
    arr = np.array(rows)
    S = np.array(states).reshape(len(rows), -1)
    if not stepped and not protocol.feedback and S.shape[1]:
        _guard(model, protocol, system, arr, S, dt, n, stride)
    data = {"slip": arr[:, 1], "slip_velocity": arr[:, 2], "normal_force": arr[:, 3],
            "friction_force": arr[:, 4], "applied_force": arr[:, 5]}
    with np.errstate(divide="ignore", invalid="ignore"):
        data["friction_coefficient"] = np.where(arr[:, 3] > 0, arr[:, 4] / np.where(arr[:, 3] > 0, arr[:, 3], 1), np.nan)
    units = {}
    for k, name in enumerate(model.state_names):
        data[name] = S[:, k]
        units[name] = model.state_units[k] if model.state_units else "1"
    for k, vals in extras.items():
        data[k] = np.asarray(vals)
        units.setdefault(k, getattr(model, "output_units", {}).get(k, "1"))
    if model.force_units != "N":
        for name in ("friction_force", "normal_force", "applied_force"):
            units[name] = model.force_units
    attrs = {**model.attrs(), "model": model.name, "protocol": protocol.type_name,
             "system": system.type_name, "integrator": "step", "dt": dt}
    return LazyDataset(arr[:, 0], data, units=units, attrs=attrs)
