"""Cyclic programmes: sinusoidal displacement and threshold-switched pulsating loading."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..core.params import param
from .base import AbstractProtocol, Segment, register_protocol

__all__ = ["Sinusoidal", "PulsatingThreshold"]


@register_protocol
@dataclass(frozen=True)
class Sinusoidal(AbstractProtocol):
    """Sinusoidal slip displacement ``x(t) = amplitude * sin(2 pi f t)``.

    The velocity channel is its derivative, ``2 pi f amplitude cos(2 pi f t)``.

    Parameters
    ----------
    amplitude : float
        Displacement amplitude [m].
    frequency : float
        Frequency f [Hz].
    cycles : float
        Number of periods; the duration is ``cycles / frequency`` [1].
    normal_force_value : float
        Constant normal load [N].
    """

    amplitude: float = param(1e-5, units="m", lo=0.0, lo_open=True)
    frequency: float = param(1.0, units="Hz", lo=0.0, lo_open=True)
    cycles: float = param(2.0, units="1", lo=0.0, lo_open=True)
    normal_force_value: float = param(1.0, units="N", lo=0.0)
    type_name: ClassVar[str] = "sinusoidal"

    @property
    def duration(self) -> float:
        return self.cycles / self.frequency

    def segments(self) -> tuple[Segment, ...]:
        """One ``cyclic`` piece (velocity varies, constant normal load)."""
        return (Segment(0.0, self.duration, "cyclic", None, float(self.normal_force_value)),)

    def displacement(self, t: ArrayLike) -> NDArray[np.float64]:
        """Prescribed displacement :math:`A\\sin(2\\pi f t)` [m] at times ``t`` [s]."""
        return self.amplitude * np.sin(2 * math.pi * self.frequency * np.asarray(t, dtype=float))

    def velocity(self, t: ArrayLike) -> NDArray[np.float64]:
        w = 2 * math.pi * self.frequency
        return self.amplitude * w * np.cos(w * np.asarray(t, dtype=float))


@register_protocol
@dataclass(frozen=True)
class PulsatingThreshold(AbstractProtocol):
    """Pulsating loading switched on the friction output (seed 000, Fig. 5).

    Drive forward at ``v`` until the friction output reaches ``upper``, then backward at
    ``-v`` until it falls to ``lower``; repeat ``cycles`` times. Because the switch depends
    on the model output, this protocol is run by the stepping loop (``feedback = True``):
    :meth:`direction` gives the next drive direction from the current one and the output.
    ``velocity(t)`` returns the forward speed (the sign is set by the loop).

    Parameters
    ----------
    v : float
        Drive speed [m/s].
    upper, lower : float
        Friction output at which the drive reverses to backward / forward [N].
    cycles : int
        Number of forward-backward cycles [1].
    max_duration : float
        Upper bound of the run length [s] (the :attr:`duration` property).
    normal_force_value : float
        Constant normal load [N].
    """

    v: float = param(1e-4, units="m/s", lo=0.0, lo_open=True)
    upper: float = param(0.7, units="N", lo=0.0, lo_open=True)
    lower: float = param(0.0, units="N", lo=0.0)
    cycles: int = param(10, units="1", lo=1, integer=True)
    max_duration: float = param(1e3, units="s", lo=0.0, lo_open=True)
    normal_force_value: float = param(1.0, units="N", lo=0.0)
    type_name: ClassVar[str] = "pulsating_threshold"
    feedback: ClassVar[bool] = True

    def _check(self) -> None:
        if self.lower >= self.upper:
            self._fail("lower", f"= {self.lower:g} must be below upper = {self.upper:g}")

    @property
    def duration(self) -> float:
        return self.max_duration

    def segments(self) -> tuple[Segment, ...]:
        """One ``cyclic`` piece up to ``max_duration`` (the direction is set on the output)."""
        return (Segment(0.0, self.duration, "cyclic", None, float(self.normal_force_value)),)

    def velocity(self, t: ArrayLike) -> NDArray[np.float64]:
        return np.full_like(np.asarray(t, dtype=float), self.v)

    def direction(self, current: float, output: float) -> float:
        """Next drive direction (+1 or -1) given the current one and the friction output."""
        if current > 0 and output >= self.upper:
            return -1.0
        if current < 0 and output <= self.lower:
            return 1.0
        return current
