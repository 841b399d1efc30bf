"""Normal-load programmes and applied-force ramps."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..core.params import param
from .base import AbstractProtocol, Segment, register_protocol, segment_kind

__all__ = ["NormalLoadProgramme", "RampedNormalLoad", "ForceRamp"]


@register_protocol
@dataclass(frozen=True)
class NormalLoadProgramme(AbstractProtocol):
    """Piecewise-linear normal load through ``(times[k], loads[k])`` at constant velocity ``v``."""

    times: tuple[float, ...] = param((0.0, 1.0), units="s", lo=0.0)
    loads: tuple[float, ...] = param((1.0, 1.0), units="N", lo=0.0)
    v: float = param(0.0, units="m/s")
    type_name: ClassVar[str] = "normal_load"

    def _check(self) -> None:
        if len(self.times) < 2 or len(self.times) != len(self.loads):
            self._fail("times", f"needs >= 2 knots and as many loads (got {len(self.times)} times, {len(self.loads)} loads)")
        if np.any(np.diff(self.times) <= 0):
            self._fail("times", "must be strictly increasing")

    @property
    def duration(self) -> float:
        return float(self.times[-1])

    def segments(self) -> tuple[Segment, ...]:
        """One piece per knot interval: ``load`` where the load changes, else ``slide``/``hold``."""
        out = []
        for k in range(len(self.times) - 1):
            a, b = float(self.loads[k]), float(self.loads[k + 1])
            fn = a if a == b else None
            out.append(Segment(float(self.times[k]), float(self.times[k + 1]), segment_kind(float(self.v), fn),
                               float(self.v), fn))
        if out[0].t_start > 0.0:  # the load is held at loads[0] before the first knot
            fn0 = float(self.loads[0])
            out.insert(0, Segment(0.0, out[0].t_start, segment_kind(float(self.v), fn0), float(self.v), fn0))
        return tuple(out)

    def velocity(self, t: ArrayLike) -> NDArray[np.float64]:
        return np.full_like(np.asarray(t, dtype=float), self.v)

    def normal_force(self, t: ArrayLike) -> NDArray[np.float64]:
        return np.interp(np.asarray(t, dtype=float), self.times, self.loads)


@register_protocol
@dataclass(frozen=True)
class RampedNormalLoad(AbstractProtocol):
    """Normal load ramped from ``preload`` to ``mean``, then held there or cycled about it.

    :math:`F_n(t) = F_0 + (\\bar F - F_0)\\,t/t_r` for :math:`t < t_r` (the ramp), then
    :math:`\\bar F + \\hat F\\sin(2\\pi (t - t_r)/T)` until ``duration_s``: a load, a creep hold
    (``amplitude = 0``) or load cycles after a preload, at constant slip velocity ``v``.

    Parameters
    ----------
    mean : float
        Load at the end of the ramp, the mean of the cycles [N].
    amplitude : float
        Amplitude of the cycles [N]; 0: the load is held at ``mean``.
    period : float
        Period of the cycles [s].
    ramp : float
        Length of the loading ramp [s].
    preload : float
        Load at t = 0 [N].
    duration_s : float
        Length of the programme, ramp included [s] (the :attr:`duration` property).
    v : float
        Constant slip velocity [m/s].
    """

    mean: float = param(1.0, units="N", lo=0.0)
    amplitude: float = param(0.0, units="N", lo=0.0)
    period: float = param(1.0, units="s", lo=0.0, lo_open=True)
    ramp: float = param(1e-3, units="s", lo=0.0, lo_open=True)
    preload: float = param(0.0, units="N", lo=0.0)
    duration_s: float = param(1.0, units="s", lo=0.0, lo_open=True)
    v: float = param(0.0, units="m/s")
    type_name: ClassVar[str] = "ramped_normal_load"

    def _check(self) -> None:
        if self.amplitude > self.mean:
            self._fail("amplitude", f"= {self.amplitude:g} N exceeds mean = {self.mean:g} N: the load would turn "
                                    "negative (tension)")
        if self.ramp >= self.duration_s:
            self._fail("ramp", f"= {self.ramp:g} s must end before duration_s = {self.duration_s:g} s")

    @property
    def duration(self) -> float:
        return self.duration_s

    def segments(self) -> tuple[Segment, ...]:
        """The ramp (``load``), then a ``hold``/``slide`` at ``mean`` or one ``cyclic`` piece per period
        (the last one possibly shorter), so a driver's step control sees the period."""
        v = float(self.v)
        same = self.preload == self.mean
        out = [Segment(0.0, self.ramp, segment_kind(v, self.mean if same else None), v, self.mean if same else None)]
        if self.amplitude == 0.0:
            return (*out, Segment(self.ramp, self.duration_s, segment_kind(v, self.mean), v, self.mean))
        n = max(1, math.ceil((self.duration_s - self.ramp) / self.period - 1e-9))
        ends = [self.ramp + k * self.period for k in range(1, n)] + [self.duration_s]
        for a, b in zip([self.ramp, *ends[:-1]], ends):
            out.append(Segment(a, b, "cyclic", v, None))
        return tuple(out)

    def velocity(self, t: ArrayLike) -> NDArray[np.float64]:
        return np.full_like(np.asarray(t, dtype=float), self.v)

    def normal_force(self, t: ArrayLike) -> NDArray[np.float64]:
        t = np.asarray(t, dtype=float)
        up = self.preload + (self.mean - self.preload) * t / self.ramp
        cyc = self.mean + self.amplitude * np.sin(2.0 * math.pi * (t - self.ramp) / self.period)
        return np.where(t < self.ramp, up, cyc)


@register_protocol
@dataclass(frozen=True)
class ForceRamp(AbstractProtocol):
    """Applied tangential force ``f0 + rate * t`` (for free-mass systems), zero drive velocity.

    Parameters
    ----------
    rate : float
        Force rate [N/s].
    f0 : float
        Force at t = 0 [N].
    duration_s : float
        Length of the programme [s] (the :attr:`duration` property).
    normal_force_value : float
        Constant normal load [N].
    """

    rate: float = param(1.0, units="N/s")
    f0: float = param(0.0, units="N")
    duration_s: float = param(1.0, units="s", lo=0.0, lo_open=True)
    normal_force_value: float = param(1.0, units="N", lo=0.0)
    type_name: ClassVar[str] = "force_ramp"

    @property
    def duration(self) -> float:
        return self.duration_s

    def segments(self) -> tuple[Segment, ...]:
        """One piece at zero drive velocity: ``ramp`` (``hold`` when ``rate = 0``)."""
        kind = "hold" if self.rate == 0.0 else "ramp"
        return (Segment(0.0, self.duration, kind, 0.0, float(self.normal_force_value)),)

    def force(self, t: ArrayLike) -> NDArray[np.float64]:
        return self.f0 + self.rate * np.asarray(t, dtype=float)
