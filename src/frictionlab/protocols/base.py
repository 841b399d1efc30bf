"""Protocols: input programmes (slip velocity, normal load, applied force) vs time.

A protocol is a frozen, validated dataclass with a ``duration`` and vectorised channel
functions of time. Every channel is defined for every protocol, so any model or system can
consume any protocol:

* ``velocity(t)``      -- imposed slip or drive velocity [m/s]
* ``normal_force(t)``  -- normal load [N] (or normal stress [Pa] for stress-based models)
* ``force(t)``         -- externally applied tangential force [N] (free-mass systems)

Compiled integrators sample the channels once on the step grid (:meth:`sample`); adaptive
integrators call them pointwise.
"""

from __future__ import annotations

from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..core.errors import ConfigError, suggest
from ..core.params import Parameters

__all__ = ["AbstractProtocol", "register_protocol", "make_protocol", "protocol_names", "piecewise"]

_PROTOCOLS: dict[str, type["AbstractProtocol"]] = {}


def register_protocol(cls: type) -> type:
    """Class decorator: register a protocol class under its ``type_name`` (for :func:`make_protocol`)."""
    _PROTOCOLS[cls.type_name] = cls
    return cls


def protocol_names() -> list[str]:
    """Sorted ``type_name`` of every registered protocol."""
    return sorted(_PROTOCOLS)


def make_protocol(config: dict[str, Any]) -> "AbstractProtocol":
    """Build a protocol from ``{"type": name, **fields}``."""
    if not isinstance(config, dict):
        raise ConfigError(f"protocol must be a table with a 'type', got {type(config).__name__} {config!r}"[:200])
    cfg = dict(config)
    name = cfg.pop("type", None)
    if name is None:
        raise ConfigError(f"protocol needs a 'type'; known: {', '.join(protocol_names())}")
    if not isinstance(name, str):
        raise ConfigError(f"protocol type must be a string, got {type(name).__name__} {name!r}"[:200])
    if name not in _PROTOCOLS:
        raise ConfigError(f"unknown protocol type {name!r}{suggest(name, _PROTOCOLS)}; known: {', '.join(protocol_names())}")
    return _PROTOCOLS[name].from_dict(cfg)


def piecewise(t: ArrayLike, edges: NDArray[np.float64], values: NDArray[np.float64]) -> NDArray[np.float64]:
    """Piecewise-constant function: ``values[k]`` on ``[edges[k], edges[k+1])``."""
    t = np.asarray(t, dtype=float)
    # a relative guard of 1e-12 makes a sample that falls on an edge (up to round-off) take the new value
    idx = np.clip(np.searchsorted(edges, t + 1e-12 * np.maximum(1.0, np.abs(t)), side="right") - 1, 0, len(values) - 1)
    return np.asarray(values, dtype=float)[idx]


class AbstractProtocol(Parameters):
    """Base of all protocols. Subclasses define ``duration`` and override channels.

    Protocols with a constant normal load hold it in the field ``normal_force_value`` [N],
    which the default :meth:`normal_force` channel returns.
    """

    type_name: ClassVar[str] = ""
    #: True for protocols that switch on the model output (run only by stepping loops)
    feedback: ClassVar[bool] = False

    @property
    def duration(self) -> float:  # pragma: no cover - abstract
        """Total length of the programme [s]."""
        raise NotImplementedError

    @property
    def breakpoints(self) -> tuple[float, ...]:
        """Times where a channel jumps (piecewise-constant programmes); empty when continuous."""
        edges = getattr(self, "edges", None)
        return tuple(float(e) for e in edges[1:-1]) if edges is not None else ()

    def velocity(self, t: ArrayLike) -> NDArray[np.float64]:
        """Prescribed slip (or load-point) velocity [m/s] at times ``t`` [s]; zero unless overridden."""
        return np.zeros_like(np.asarray(t, dtype=float))

    def normal_force(self, t: ArrayLike) -> NDArray[np.float64]:
        """Normal force [N] at times ``t`` [s]: the constant ``normal_force_value`` (default 1 N) unless overridden."""
        fn = float(getattr(self, "normal_force_value", 1.0))
        return np.full_like(np.asarray(t, dtype=float), fn)

    def force(self, t: ArrayLike) -> NDArray[np.float64]:
        """External tangential force [N] on the slider at times ``t`` [s]; zero unless overridden."""
        return np.zeros_like(np.asarray(t, dtype=float))

    def sample(self, times: ArrayLike) -> NDArray[np.float64]:
        """Channels stacked as a ``(3, len(times))`` array: velocity, normal force, force."""
        t = np.asarray(times, dtype=float)
        return np.ascontiguousarray(np.vstack([self.velocity(t), self.normal_force(t), self.force(t)]))

    def to_config(self) -> dict[str, Any]:
        """``{"type": type_name, **fields}``: the inverse of :func:`make_protocol`."""
        return {"type": self.type_name, **self.to_dict()}
