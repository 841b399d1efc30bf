"""Friction laws in rate form (one law per module).

Names are imported from their modules on first use (:func:`frictionlab.core.lazy.lazy_exports`):
``from frictionlab.laws import RateState`` loads that law only. A law with drivers of its own
declares their module next to its class (:func:`frictionlab.core.registry.declare_drivers`); they
register when the driver lookup (:mod:`frictionlab.solve.drivers`) first needs one, all models at
:func:`frictionlab.core.registry.discover`.
"""

from ..core.lazy import lazy_exports

__all__ = ["Coulomb", "Dahl", "GMS", "LuGre", "RateState", "RateState2", "Stribeck"]

__getattr__, __dir__ = lazy_exports(__name__, {
    "Coulomb": ".coulomb", "Dahl": ".dahl", "GMS": ".gms", "LuGre": ".lugre", "RateState": ".rate_state",
    "RateState2": ".rate_state2", "Stribeck": ".stribeck",
})
