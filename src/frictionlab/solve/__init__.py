"""Solve: ``simulate``, the driver registry, the integrators and the convergence check.

Layering: ``solve`` imports ``core``, ``protocols`` and ``systems`` only. Model families
(``laws/``, ``contact/``) import :mod:`frictionlab.solve.drivers` to register their own
drivers and declare where they live (:func:`frictionlab.core.registry.declare_drivers`); ``solve``
never imports them. The driver contract (:mod:`.contract`: :class:`Run`, the end of the run, saving,
the SI standard variables and attributes of every result) is one module. The generic drivers
(:mod:`.law_drivers`) register when a lookup first needs them, so importing ``solve`` loads no numba or xarray;
its names are imported from their modules on first use (:func:`frictionlab.core.lazy.lazy_exports`).
"""

from ..core.lazy import lazy_exports

__all__ = ["simulate", "INTEGRATORS", "Driver", "register_driver", "drivers_for", "default_driver", "driver_for",
           "ConvergenceReport", "check_convergence", "relative_change", "Run"]

__getattr__, __dir__ = lazy_exports(__name__, {
    "simulate": ".simulate", "INTEGRATORS": ".simulate",
    **{n: ".drivers" for n in ("Driver", "register_driver", "drivers_for", "default_driver", "driver_for")},
    **{n: ".convergence" for n in ("ConvergenceReport", "check_convergence", "relative_change")},
    "Run": ".contract",
})
