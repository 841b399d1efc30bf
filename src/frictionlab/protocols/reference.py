"""Reference trajectories for closed-loop (servo) systems: a sinusoid, position steps, a ramp.

A reference protocol adds ``position(t)`` [m] and ``acceleration(t)`` [m/s^2] to the usual
channels; its ``velocity(t)`` channel is the reference velocity, so the same object also
drives the open-loop systems. A closed-loop system given a protocol without ``position``
integrates the velocity channel instead (:func:`reference_signals`).

Every reference protocol carries a normal load that may change slowly and linearly from
``normal_force_value`` at t = 0 to ``normal_force_end`` at the end (equal by default).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..core.params import param
from .base import AbstractProtocol, Segment, register_protocol

__all__ = ["PositionSinusoid", "PositionSteps", "PositionRamp", "reference_signals"]


class _Reference(AbstractProtocol):
    """Common part: the linear normal-load programme and the ``duration_s`` field."""

    def normal_force(self, t: ArrayLike) -> NDArray[np.float64]:
        t = np.asarray(t, dtype=float)
        n0 = float(self.normal_force_value)  # type: ignore[attr-defined]
        n1 = n0 if self.normal_force_end < 0 else float(self.normal_force_end)  # type: ignore[attr-defined]
        s = np.clip(t / self.duration, 0.0, 1.0)
        return n0 + (n1 - n0) * s

    @property
    def duration(self) -> float:
        return float(self.duration_s)  # type: ignore[attr-defined]

    def position(self, t: ArrayLike) -> NDArray[np.float64]:  # pragma: no cover - abstract
        """Reference position [m] at times ``t`` [s]."""
        raise NotImplementedError

    def _constant_load(self) -> float | None:
        """The normal load when it is constant over the run, else ``None``."""
        return None if self.normal_force_end >= 0 else float(self.normal_force_value)  # type: ignore[attr-defined]

    def _pieces(self, edges: list[float], velocities: list[float]) -> tuple[Segment, ...]:
        """Segments ``[edges[k], edges[k+1])`` with constant reference velocity ``velocities[k]``."""
        fn = self._constant_load()
        return tuple(Segment(a, b, "hold" if v == 0.0 else "slide", float(v), fn)
                     for a, b, v in zip(edges[:-1], edges[1:], velocities))

    def acceleration(self, t: ArrayLike) -> NDArray[np.float64]:
        """Reference acceleration [m/s^2] (zero unless overridden)."""
        return np.zeros_like(np.asarray(t, dtype=float))


@register_protocol
@dataclass(frozen=True)
class PositionSinusoid(_Reference):
    r"""Sinusoidal position reference :math:`x_r = x_0 + A\sin(2\pi f t)` (velocity reversals
    at the extremes, every half period).

    Parameters
    ----------
    amplitude : float
        A [m].
    frequency : float
        f [Hz].
    offset : float
        x_0 [m].
    duration_s : float
        Length [s].
    normal_force_value, normal_force_end : float
        Normal load at t = 0 and at the end [N] (linear in between; ``normal_force_end < 0``
        means constant, the default).
    """

    amplitude: float = param(1e-3, units="m", lo=0.0)
    frequency: float = param(1.0, units="Hz", lo=0.0, lo_open=True)
    offset: float = param(0.0, units="m")
    duration_s: float = param(2.0, units="s", lo=0.0, lo_open=True)
    normal_force_value: float = param(1.0, units="N", lo=0.0)
    normal_force_end: float = param(-1.0, units="N")
    type_name: ClassVar[str] = "position_sinusoid"

    def position(self, t: ArrayLike) -> NDArray[np.float64]:
        w = 2 * math.pi * self.frequency
        return self.offset + self.amplitude * np.sin(w * np.asarray(t, dtype=float))

    def velocity(self, t: ArrayLike) -> NDArray[np.float64]:
        w = 2 * math.pi * self.frequency
        return self.amplitude * w * np.cos(w * np.asarray(t, dtype=float))

    def acceleration(self, t: ArrayLike) -> NDArray[np.float64]:
        w = 2 * math.pi * self.frequency
        return -self.amplitude * w * w * np.sin(w * np.asarray(t, dtype=float))

    def segments(self) -> tuple[Segment, ...]:
        """One cyclic piece (the velocity varies within it)."""
        return (Segment(0.0, self.duration, "cyclic", None, self._constant_load()),)

    def reversal_times(self) -> NDArray[np.float64]:
        """Times of the velocity reversals, ``(k + 1/2) / (2 f)`` within the duration [s]."""
        half = 0.5 / self.frequency
        t = (np.arange(int(self.duration / half) + 1) + 0.5) * half
        return t[t < self.duration]


@register_protocol
@dataclass(frozen=True)
class PositionSteps(_Reference):
    """Piecewise-constant position set-points ``positions[k]`` from ``times[k]`` on.

    Parameters
    ----------
    positions : tuple of float
        Set-points [m]; the reference is 0 before ``times[0]``.
    times : tuple of float
        Switching times [s], increasing.
    duration_s : float
        Length [s].
    normal_force_value, normal_force_end : float
        As in :class:`PositionSinusoid`.

    Notes
    -----
    The velocity and acceleration channels are zero (a step has no finite derivative), so no
    channel jumps: :attr:`breakpoints` is empty; :meth:`segments` splits at the switches.
    """

    positions: tuple[float, ...] = param((1.0,), units="m")
    times: tuple[float, ...] = param((0.0,), units="s", lo=0.0)
    duration_s: float = param(10.0, units="s", lo=0.0, lo_open=True)
    normal_force_value: float = param(1.0, units="N", lo=0.0)
    normal_force_end: float = param(-1.0, units="N")
    type_name: ClassVar[str] = "position_steps"

    def _check(self) -> None:
        if len(self.positions) != len(self.times) or not self.positions:
            self._fail("times", f"needs one entry per position ({len(self.positions)}), got {len(self.times)}")
        if any(b <= a for a, b in zip(self.times, self.times[1:])):
            self._fail("times", f"= {list(self.times)} must be strictly increasing")

    def segments(self) -> tuple[Segment, ...]:
        """Hold pieces (zero reference velocity) between the set-point switches."""
        edges = [0.0, *(t for t in self.times if 0.0 < t < self.duration), self.duration]
        return self._pieces(edges, [0.0] * (len(edges) - 1))

    def position(self, t: ArrayLike) -> NDArray[np.float64]:
        t = np.asarray(t, dtype=float)
        idx = np.searchsorted(np.asarray(self.times), t + 1e-12 * np.maximum(1.0, np.abs(t)), side="right") - 1
        vals = np.concatenate([[0.0], np.asarray(self.positions, dtype=float)])
        return vals[idx + 1]


@register_protocol
@dataclass(frozen=True)
class PositionRamp(_Reference):
    """Constant-velocity ramp ``x_r = v (t - t_start)`` for ``t >= t_start`` (0 before).

    Parameters
    ----------
    v : float
        Ramp velocity [m/s].
    t_start : float
        Start of the ramp [s].
    duration_s : float
        Length [s].
    normal_force_value, normal_force_end : float
        As in :class:`PositionSinusoid`.
    """

    v: float = param(1e-3, units="m/s")
    t_start: float = param(0.0, units="s", lo=0.0)
    duration_s: float = param(2.0, units="s", lo=0.0, lo_open=True)
    normal_force_value: float = param(1.0, units="N", lo=0.0)
    normal_force_end: float = param(-1.0, units="N")
    type_name: ClassVar[str] = "position_ramp"

    def segments(self) -> tuple[Segment, ...]:
        """At rest until ``t_start``, then sliding at ``v``."""
        if self.t_start <= 0.0:
            return self._pieces([0.0, self.duration], [self.v])
        if self.t_start >= self.duration:
            return self._pieces([0.0, self.duration], [0.0])
        return self._pieces([0.0, self.t_start, self.duration], [0.0, self.v])

    def position(self, t: ArrayLike) -> NDArray[np.float64]:
        t = np.asarray(t, dtype=float)
        return self.v * np.maximum(t - self.t_start, 0.0)

    def velocity(self, t: ArrayLike) -> NDArray[np.float64]:
        t = np.asarray(t, dtype=float)
        return np.where(t >= self.t_start, self.v, 0.0)


def reference_signals(protocol: AbstractProtocol, times: NDArray[np.float64]) -> tuple[NDArray[np.float64], ...]:
    """Reference position, velocity and acceleration and the normal load at ``times``.

    A protocol with a ``position`` method gives its own signals; for any other protocol the
    position is the trapezoidal integral of the velocity channel (from 0 at t = 0) and the
    acceleration its finite-difference derivative.
    """
    times = np.asarray(times, dtype=float)
    u = protocol.sample(times)
    vel, fn = u[0].copy(), u[1].copy()
    if isinstance(protocol, _Reference):
        pos = np.asarray(protocol.position(times), dtype=float)
        acc = np.asarray(protocol.acceleration(times), dtype=float)
    else:
        pos = np.concatenate([[0.0], np.cumsum(0.5 * (vel[1:] + vel[:-1]) * np.diff(times))])
        acc = np.gradient(vel, times) if times.size > 1 else np.zeros_like(vel)
    return pos, vel, acc, fn
