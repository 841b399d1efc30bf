"""Analysis of simulated or measured series: steady states and stick-slip metrics."""

from .steady_state import SteadyState, steady_state
from .stick_slip import StickSlip, stick_slip

__all__ = ["SteadyState", "steady_state", "StickSlip", "stick_slip"]
