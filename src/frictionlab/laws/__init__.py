"""Friction laws in rate form (one law per module).

Names are imported from their modules on first use (:func:`frictionlab.core.lazy.lazy_exports`):
``from frictionlab.laws import RateState`` loads that law only. A law's drivers register when
:func:`frictionlab.solve.drivers.drivers_for` looks them up (``DRIVER_MODULES``), all models at
:func:`frictionlab.core.registry.discover`.
"""

from ..core.lazy import lazy_exports

__all__ = ["Coulomb", "Dahl", "GMS", "LuGre", "RateState", "RateState2", "Stribeck"]

__getattr__, __dir__ = lazy_exports(__name__, {
    "Coulomb": ".coulomb", "Dahl": ".dahl", "GMS": ".gms", "LuGre": ".lugre", "RateState": ".rate_state",
    "RateState2": ".rate_state2", "Stribeck": ".stribeck",
})
