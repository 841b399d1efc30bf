"""Systems couple a friction model to mechanics.

A system is a frozen, validated dataclass that knows

* its own state names (prepended to the model's state),
* a numba kernel ``rhs(ys, z, v, normal_force, force, sp, law_rates, law_friction, lp,
  dys, dz) -> F`` (declared ``inline="always"``) that writes the rates of the system state
  ``ys`` and of the law state ``z`` into ``dys`` and ``dz`` and returns the friction force,
  where ``(v, normal_force, force)`` are the protocol channels at this instant, ``sp`` the
  system parameter vector and ``lp`` the law parameter vector,
* how to turn the solution into the standard result variables (:meth:`AbstractSystem.outputs`).

Integrators advance ``y`` without knowing which system they drive.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np

from ..core.base import FloatArray
from ..core.errors import ConfigError, suggest
from ..core.params import Parameters

__all__ = ["AbstractSystem", "register_system", "make_system", "system_names"]

_SYSTEMS: dict[str, type["AbstractSystem"]] = {}


def register_system(cls: type) -> type:
    """Class decorator: register a system class under its ``type_name`` (for :func:`make_system`)."""
    _SYSTEMS[cls.type_name] = cls
    return cls


def system_names() -> list[str]:
    """Sorted ``type_name`` of every registered system."""
    from ..core.registry import discover

    discover()
    return sorted(_SYSTEMS)


def make_system(config: dict[str, Any] | None) -> "AbstractSystem":
    """Build a system from ``{"type": name, **fields}``; ``None`` or ``{}`` gives :class:`PrescribedSlip`."""
    from .prescribed_slip import PrescribedSlip

    if not config:
        return PrescribedSlip()
    if not isinstance(config, dict):
        raise ConfigError(f"system must be a table with a 'type', got {type(config).__name__} {config!r}"[:200])
    cfg = dict(config)
    name = cfg.pop("type", "prescribed_slip")
    if not isinstance(name, str):
        raise ConfigError(f"system type must be a string, got {type(name).__name__} {name!r}"[:200])
    if name not in _SYSTEMS:  # systems registered by the model packages (e.g. "servo", frictionlab.control)
        from ..core.registry import discover

        discover()
    if name not in _SYSTEMS:
        raise ConfigError(f"unknown system type {name!r}{suggest(name, _SYSTEMS)}; known: {', '.join(system_names())}")
    return _SYSTEMS[name].from_dict(cfg)


class AbstractSystem(Parameters):
    """Base of the systems that host a friction model (validated frozen dataclass).

    A system owns the slider states (``state_names``), a numba right-hand side
    ``_rhs_kernel`` fed by :meth:`param_vector`, and maps its saved states to the standard
    result variables in :meth:`outputs`.
    """

    type_name: ClassVar[str] = ""
    state_names: ClassVar[tuple[str, ...]] = ()
    #: True when the system is second order in the slider position (Newmark applies)
    second_order: ClassVar[bool] = False
    #: True when the generic integrators can advance it through ``_rhs_kernel``; a system with a
    #: loop of its own (e.g. the sampled servo, :mod:`frictionlab.control`) sets False and is
    #: hosted only by drivers that name its class
    rhs_form: ClassVar[bool] = True
    _rhs_kernel: ClassVar[Any]

    def param_vector(self) -> FloatArray:
        """Flat float64 parameter vector for the system's numba kernel."""
        raise NotImplementedError

    def initial_state(self) -> FloatArray:
        """System states at t = 0 (zeros unless a system says otherwise)."""
        return np.zeros(len(self.state_names))

    def initial_conditions(self, model: Any, protocol: Any) -> tuple[FloatArray, FloatArray]:
        """``(system state, law state)`` at t = 0; by default :meth:`initial_state` and the law's own."""
        return self.initial_state(), model.initial_state()

    def outputs(self, y: FloatArray, u: FloatArray, friction: FloatArray) -> dict[str, FloatArray]:
        """Standard result variables from the saved system states ``y[:, :n_sys]``."""
        raise NotImplementedError

    def to_config(self) -> dict[str, Any]:
        """``{"type": type_name, **fields}``: the inverse of :func:`make_system`."""
        return {"type": self.type_name, **self.to_dict()}
