"""Analysis of simulated or measured series: steady states and stick-slip metrics."""

from ..core.lazy import lazy_exports

__all__ = ["SteadyState", "steady_state", "StickSlip", "stick_slip"]

# imported on first use: ``frictionlab compare --help`` needs no numpy
__getattr__, __dir__ = lazy_exports(__name__, {"SteadyState": ".steady_state", "steady_state": ".steady_state",
                                               "StickSlip": ".stick_slip", "stick_slip": ".stick_slip"})
