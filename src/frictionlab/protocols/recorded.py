"""A recorded input programme: velocity and normal load tabulated against time.

Used by :mod:`frictionlab.fit` to simulate a model under the measured conditions of a data
file (``frictionlab.fit.data.load_timeseries``) and usable as ``type = "recorded"`` anywhere.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..core.params import param
from .base import AbstractProtocol, Segment, register_protocol, segment_kind

__all__ = ["RecordedInput"]


@register_protocol
@dataclass(frozen=True)
class RecordedInput(AbstractProtocol):
    """A recorded input programme: velocity and normal load tabulated against time
    (linear interpolation), so any model can be simulated under measured conditions.

    Parameters
    ----------
    times : tuple of float
        Sample times [s], strictly increasing (at least 2).
    velocities : tuple of float
        Slip (or load-point) velocity at each sample [m/s].
    normal_forces : tuple of float
        Normal load at each sample [N].
    forces : tuple of float
        Optional external tangential force at each sample [N] (empty: zero).
    """

    times: tuple[float, ...] = param((0.0, 1.0), units="s")
    velocities: tuple[float, ...] = param((0.0, 0.0), units="m/s")
    normal_forces: tuple[float, ...] = param((1.0, 1.0), units="N")
    forces: tuple[float, ...] = param((), units="N")
    type_name: ClassVar[str] = "recorded"

    def _check(self) -> None:
        n = len(self.times)
        if n < 2:
            self._fail("times", "needs at least 2 samples")
        if np.any(np.diff(self.times) <= 0):
            self._fail("times", "must be strictly increasing")
        for name in ("velocities", "normal_forces"):
            if len(getattr(self, name)) != n:
                self._fail(name, f"has {len(getattr(self, name))} entries but times has {n}")
        if self.forces and len(self.forces) != n:
            self._fail("forces", f"has {len(self.forces)} entries but times has {n}")

    @classmethod
    def from_series(cls, ts: Any) -> "RecordedInput":
        """The programme of a loaded :class:`frictionlab.fit.data.TimeSeries` (its ``time``, ``velocity``,
        ``normal_force`` arrays; times from its first sample)."""
        t0 = ts.time - ts.time[0]
        return cls(times=tuple(t0), velocities=tuple(ts.velocity), normal_forces=tuple(ts.normal_force))

    @property
    def duration(self) -> float:
        return float(self.times[-1] - self.times[0])

    def segments(self) -> tuple[Segment, ...]:
        """One piece per sample interval (times from the first sample); a channel that changes
        across the interval is ``None`` (linear interpolation)."""
        t = np.asarray(self.times, dtype=float) - self.times[0]
        v = np.asarray(self.velocities, dtype=float)
        fn = np.asarray(self.normal_forces, dtype=float)
        f = np.asarray(self.forces, dtype=float) if self.forces else np.zeros_like(t)
        out = []
        for k in range(t.size - 1):
            vk = float(v[k]) if v[k] == v[k + 1] else None
            fk = float(fn[k]) if fn[k] == fn[k + 1] else None
            kind = segment_kind(vk, fk)
            if kind in ("slide", "hold") and f[k] != f[k + 1]:
                kind = "ramp"
            out.append(Segment(float(t[k]), float(t[k + 1]), kind, vk, fk))
        return tuple(out)

    def velocity(self, t: ArrayLike) -> NDArray[np.float64]:
        return np.interp(np.asarray(t, dtype=float) + self.times[0], self.times, self.velocities)

    def normal_force(self, t: ArrayLike) -> NDArray[np.float64]:
        return np.interp(np.asarray(t, dtype=float) + self.times[0], self.times, self.normal_forces)

    def force(self, t: ArrayLike) -> NDArray[np.float64]:
        if not self.forces:
            return np.zeros_like(np.asarray(t, dtype=float))
        return np.interp(np.asarray(t, dtype=float) + self.times[0], self.times, self.forces)
