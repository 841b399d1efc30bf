"""Solve: ``simulate``, the driver registry, the integrators and the convergence check.

Layering: ``solve`` imports ``core``, ``protocols`` and ``systems`` only. Model families
(``laws/``, ``contact/``) import :mod:`frictionlab.solve.drivers` to register their own
drivers; ``solve`` never imports them.
"""

from . import law_drivers as _law_drivers  # noqa: F401  (registers the generic drivers)
from .convergence import ConvergenceReport, check_convergence, relative_change
from .drivers import Driver, default_driver, driver_for, drivers_for, register_driver
from .simulate import INTEGRATORS, simulate

__all__ = ["simulate", "INTEGRATORS", "Driver", "register_driver", "drivers_for", "default_driver", "driver_for",
           "ConvergenceReport", "check_convergence", "relative_change"]
