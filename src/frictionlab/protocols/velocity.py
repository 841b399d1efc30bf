"""Velocity programmes: constant velocity, velocity steps, slide-hold-slide."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..core.params import param
from .base import AbstractProtocol, Segment, piecewise, register_protocol, segment_kind

__all__ = ["ConstantVelocity", "VelocitySteps", "SlideHoldSlide"]


@register_protocol
@dataclass(frozen=True)
class ConstantVelocity(AbstractProtocol):
    """Slide at constant velocity ``v`` for ``duration`` under a constant normal load.

    Parameters
    ----------
    v : float
        Slip (or load-point) velocity [m/s].
    duration_s : float
        Length of the programme [s] (the :attr:`duration` property).
    normal_force_value : float
        Constant normal load [N].
    """

    v: float = param(1e-6, units="m/s")
    duration_s: float = param(1.0, units="s", lo=0.0, lo_open=True)
    normal_force_value: float = param(1.0, units="N", lo=0.0)
    type_name: ClassVar[str] = "constant_velocity"

    @property
    def duration(self) -> float:
        return self.duration_s

    def segments(self) -> tuple[Segment, ...]:
        """One piece: ``slide`` at ``v`` (``hold`` when ``v = 0``)."""
        fn = float(self.normal_force_value)
        return (Segment(0.0, self.duration, segment_kind(self.v, fn), float(self.v), fn),)

    def velocity(self, t: ArrayLike) -> NDArray[np.float64]:
        return np.full_like(np.asarray(t, dtype=float), self.v)


@register_protocol
@dataclass(frozen=True)
class VelocitySteps(AbstractProtocol):
    """A sequence of constant velocities, each held for a duration or a slip distance.

    Give ``durations`` [s] or ``distances`` [m] (one per velocity); with distances, a zero
    velocity is not allowed (it would never cover its distance).
    """

    velocities: tuple[float, ...] = param((1e-6, 1e-5, 1e-6), units="m/s")
    durations: tuple[float, ...] = param((), units="s", lo=0.0)
    distances: tuple[float, ...] = param((), units="m", lo=0.0)
    normal_force_value: float = param(1.0, units="N", lo=0.0)
    type_name: ClassVar[str] = "velocity_steps"

    def _check(self) -> None:
        n = len(self.velocities)
        if n == 0:
            self._fail("velocities", "must list at least one velocity")
        if bool(self.durations) == bool(self.distances):
            self._fail("durations", "give exactly one of 'durations' or 'distances'")
        given = self.durations or self.distances
        if len(given) != n:
            which = "durations" if self.durations else "distances"
            self._fail(which, f"has {len(given)} entries but velocities has {n}")
        if self.distances and any(v == 0.0 for v in self.velocities):
            self._fail("velocities", "contains 0 but segments are given by distance; use durations")
        if any(d <= 0 for d in given):
            self._fail("durations" if self.durations else "distances", "entries must be > 0")

    @property
    def segment_durations(self) -> NDArray[np.float64]:
        """Duration of each constant-velocity segment [s] (distance / speed when given by distance)."""
        if self.durations:
            return np.asarray(self.durations, dtype=float)
        return np.asarray(self.distances, dtype=float) / np.abs(np.asarray(self.velocities, dtype=float))

    @property
    def edges(self) -> NDArray[np.float64]:
        """Segment boundaries [s], from 0 to :attr:`duration` (one more entry than segments)."""
        return np.concatenate([[0.0], np.cumsum(self.segment_durations)])

    @property
    def duration(self) -> float:
        return float(self.edges[-1])

    def segments(self) -> tuple[Segment, ...]:
        """One piece per velocity: ``slide`` (``hold`` for a zero velocity)."""
        e = self.edges
        fn = float(self.normal_force_value)
        return tuple(Segment(float(e[k]), float(e[k + 1]), segment_kind(float(v), fn), float(v), fn)
                     for k, v in enumerate(self.velocities))

    def velocity(self, t: ArrayLike) -> NDArray[np.float64]:
        return piecewise(t, self.edges, np.asarray(self.velocities, dtype=float))


@register_protocol
@dataclass(frozen=True)
class SlideHoldSlide(AbstractProtocol):
    """Slide at ``v`` for ``slide_duration``, then for each hold time: hold (v = 0), slide.

    The sequence is ``slide, hold[0], slide, hold[1], slide, ...``. ``hold_velocity`` may be
    a small non-zero value (some apparatus creep during holds).
    """

    v: float = param(1e-5, units="m/s", lo=0.0, lo_open=True)
    slide_duration: float = param(10.0, units="s", lo=0.0, lo_open=True)
    holds: tuple[float, ...] = param((1.0, 10.0, 100.0), units="s", lo=0.0, lo_open=True)
    hold_velocity: float = param(0.0, units="m/s", lo=0.0)
    normal_force_value: float = param(1.0, units="N", lo=0.0)
    type_name: ClassVar[str] = "slide_hold_slide"

    def _check(self) -> None:
        if not self.holds:
            self._fail("holds", "must list at least one hold time")

    @property
    def edges(self) -> NDArray[np.float64]:
        """Segment boundaries [s]: slide, then (hold, slide) per hold, from 0 to :attr:`duration`."""
        seg = [self.slide_duration]
        for h in self.holds:
            seg += [h, self.slide_duration]
        return np.concatenate([[0.0], np.cumsum(seg)])

    @property
    def hold_windows(self) -> list[tuple[float, float]]:
        """(start, end) times of each hold."""
        e = self.edges
        return [(float(e[2 * k + 1]), float(e[2 * k + 2])) for k in range(len(self.holds))]

    @property
    def duration(self) -> float:
        return float(self.edges[-1])

    def segments(self) -> tuple[Segment, ...]:
        """``slide`` at ``v``, then per hold a ``hold`` at ``hold_velocity`` and a ``slide``."""
        e = self.edges
        fn = float(self.normal_force_value)
        out = []
        for k in range(e.size - 1):
            hold = k % 2 == 1
            v = float(self.hold_velocity if hold else self.v)
            out.append(Segment(float(e[k]), float(e[k + 1]), "hold" if hold else "slide", v, fn))
        return tuple(out)

    def velocity(self, t: ArrayLike) -> NDArray[np.float64]:
        vals = [self.v]
        for _ in self.holds:
            vals += [self.hold_velocity, self.v]
        return piecewise(t, self.edges, np.asarray(vals, dtype=float))
