"""Driver ``"servo"`` of :func:`frictionlab.simulate`: every rate law in a :class:`ServoSystem`.

Registered on :class:`~frictionlab.core.base.AbstractLaw` for the system class
:class:`~frictionlab.control.servo.ServoSystem` only, so ``simulate(law, reference,
system=ServoSystem(...))`` (or ``[system] type = "servo"`` in a configuration) picks it as the
default driver: the generic integrators cannot host the servo (it has no right-hand-side
kernel; its controller is discrete). ``dt`` [s] is the plant RK4 step, a divisor of the
sample period (default ``sample_period / 10``); ``save_dt`` [s] a multiple of the sample
period (default every sample); ``t_end`` [s] stops before the end of the reference.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.base import AbstractLaw
from ..solve.drivers import register_driver
from .servo import ServoSystem

if TYPE_CHECKING:
    import xarray as xr

__all__: list[str] = []


def _drive_servo(run: Any) -> xr.Dataset:
    """Driver ``"servo"``: :func:`~frictionlab.control.run.run_servo` (compiled closed loop).

    The loop module (numba, xarray) is imported here: registering the driver, which every lookup of the
    generic law drivers does, loads neither."""
    from .run import run_servo

    return run_servo(run.model, run.system, run.protocol, dt=run.dt, t_end=run.t_end, save_dt=run.save_dt)


register_driver(AbstractLaw, "servo", _drive_servo, systems=(ServoSystem,),
                description="sampled position servo (PID/PD, sensors, saturation, compensation), plant RK4 "
                            "between samples")
