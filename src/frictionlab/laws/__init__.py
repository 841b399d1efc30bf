"""Friction laws in rate form (one law per module)."""

from .coulomb import Coulomb
from .lugre import LuGre
from .rate_state import RateState

__all__ = ["Coulomb", "LuGre", "RateState"]
