"""Protocols: input programmes (slip velocity, normal load, applied force) vs time.

A protocol is a frozen, validated dataclass with a ``duration`` and vectorised channel
functions of time. Every channel is defined for every protocol, so any model or system can
consume any protocol:

* ``velocity(t)``      -- imposed slip or drive velocity [m/s]
* ``normal_force(t)``  -- normal load [N] (or normal stress [Pa] for stress-based models)
* ``force(t)``         -- externally applied tangential force [N] (free-mass systems)

Compiled integrators sample the channels once on the step grid (:meth:`sample`); adaptive
integrators call them pointwise.

Drivers query a protocol's structure through :meth:`AbstractProtocol.segments` (never by
inspecting its fields): the programme as consecutive :class:`Segment` pieces, each with a
``kind`` from :data:`SEGMENT_KINDS` and the constant velocity / normal force on the piece
(``None`` where the channel varies within it). :attr:`AbstractProtocol.breakpoints` (the
times where a channel jumps) is derived from the segments.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..core.errors import ConfigError, suggest
from ..core.params import Parameters

__all__ = ["AbstractProtocol", "Segment", "SEGMENT_KINDS", "PROTOCOL_FEATURES", "register_protocol", "make_protocol",
           "protocol_names", "piecewise", "segment_kind"]

#: the kinds of :class:`Segment`:
#:
#: * ``"slide"`` -- constant non-zero velocity, constant normal force;
#: * ``"hold"``  -- zero velocity (or a programme's hold creep velocity), constant normal force;
#: * ``"ramp"``  -- the velocity or the applied tangential force varies (linearly) within the
#:   piece, constant normal force;
#: * ``"load"``  -- the normal force varies within the piece;
#: * ``"cyclic"`` -- periodic programme (sinusoid, threshold-switched pulsating loading).
SEGMENT_KINDS: tuple[str, ...] = ("slide", "hold", "ramp", "load", "cyclic")


#: what a protocol does beyond one constant velocity at one constant normal load
#: (:attr:`AbstractProtocol.features`); a driver that cannot take one declares it with a reason
#: (``register_driver(..., refuses={feature: reason})``, :mod:`frictionlab.solve.drivers`):
#:
#: * ``"velocity_change"`` -- the drive velocity changes during the run (steps, holds, ramps, cycles);
#: * ``"load_change"`` -- the normal load changes during the run.
PROTOCOL_FEATURES: dict[str, str] = {
    "velocity_change": "the drive velocity changes during the run",
    "load_change": "the normal load changes during the run",
}


@dataclass(frozen=True)
class Segment:
    """One piece ``[t_start, t_end)`` [s] of a protocol (see :meth:`AbstractProtocol.segments`).

    Attributes
    ----------
    t_start, t_end : float
        Start and end of the piece [s].
    kind : str
        One of :data:`SEGMENT_KINDS`.
    velocity : float or None
        The constant slip (load-point) velocity on the piece [m/s]; ``None`` when it varies.
    normal_force : float or None
        The constant normal load on the piece [N]; ``None`` when it varies.
    """

    t_start: float
    t_end: float
    kind: str
    velocity: float | None
    normal_force: float | None

    def __post_init__(self) -> None:
        if self.kind not in SEGMENT_KINDS:
            raise ValueError(f"segment kind {self.kind!r} is not one of {SEGMENT_KINDS}")
        if not self.t_end > self.t_start:
            raise ValueError(f"segment [{self.t_start!r}, {self.t_end!r}) must have t_end > t_start")

    @property
    def duration(self) -> float:
        """Length of the piece [s]."""
        return self.t_end - self.t_start


def segment_kind(velocity: float | None, normal_force: float | None, *, hold: bool = False) -> str:
    """Kind of a piece from its constant values (``None``: varies): load, ramp, hold or slide."""
    if normal_force is None:
        return "load"
    if velocity is None:
        return "ramp"
    return "hold" if hold or velocity == 0.0 else "slide"

class _Registry(dict):  # type: ignore[type-arg]
    """``type_name -> class`` of every protocol. The package exports lazily (a run imports only the
    modules of its protocols), so the first read that may need another protocol (``in``, lookup,
    iteration, ``len``) imports every module of :mod:`frictionlab.protocols` first."""

    complete = False

    def _load_all(self) -> None:
        if not self.complete:
            self.complete = True
            import importlib
            import pkgutil

            pkg = importlib.import_module(__name__.rsplit(".", 1)[0])
            for mod in pkgutil.iter_modules(pkg.__path__):
                importlib.import_module(f"{pkg.__name__}.{mod.name}")

    def __contains__(self, key: object) -> bool:
        if not super().__contains__(key):
            self._load_all()
        return super().__contains__(key)

    def __getitem__(self, key: str) -> type["AbstractProtocol"]:
        if not super().__contains__(key):
            self._load_all()
        return super().__getitem__(key)

    def get(self, key: str, default: Any = None) -> Any:
        return self[key] if key in self else default

    def __iter__(self) -> Any:
        self._load_all()
        return super().__iter__()

    def __len__(self) -> int:
        self._load_all()
        return super().__len__()

    def keys(self) -> Any:
        self._load_all()
        return super().keys()

    def values(self) -> Any:
        self._load_all()
        return super().values()

    def items(self) -> Any:
        self._load_all()
        return super().items()


_PROTOCOLS: dict[str, type["AbstractProtocol"]] = _Registry()


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

    def segments(self) -> tuple[Segment, ...]:
        """The programme as consecutive pieces covering ``[0, duration]`` (see :class:`Segment`).

        Every protocol implements this; drivers use it (and :attr:`breakpoints`) instead of
        inspecting protocol fields.
        """
        raise NotImplementedError(f"protocol {type(self).__name__} does not implement segments()")

    @property
    def breakpoints(self) -> tuple[float, ...]:
        """Times inside the run where a channel (velocity or normal force) jumps; empty when continuous.

        Derived from :meth:`segments`: a boundary is a breakpoint when the constant values on its
        two sides differ, or, where a side varies, when the channel's left limit differs from
        its value there.
        """
        segs = self.segments()
        out = []
        for a, b in zip(segs[:-1], segs[1:]):
            tb = b.t_start
            for ca, cb, channel in ((a.velocity, b.velocity, self.velocity),
                                    (a.normal_force, b.normal_force, self.normal_force)):
                if ca is not None and cb is not None:
                    jump = ca != cb
                else:
                    eps = 1e-9 * max(abs(tb), b.t_end - tb, a.t_end - a.t_start)
                    left, right = channel(np.array([tb - eps, tb]))
                    jump = abs(left - right) > 1e-6 * max(abs(left), abs(right), 1e-300)
                if jump:
                    out.append(float(tb))
                    break
        return tuple(out)

    @property
    def features(self) -> frozenset[str]:
        """The :data:`PROTOCOL_FEATURES` of this programme, from :meth:`segments`: a channel that
        varies within a piece or takes two values on two pieces is a change."""
        segs = self.segments()
        out = set()
        for feature, values in (("velocity_change", [sg.velocity for sg in segs]),
                                ("load_change", [sg.normal_force for sg in segs])):
            if any(x is None for x in values) or len(set(values)) > 1:
                out.add(feature)
        return frozenset(out)

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
