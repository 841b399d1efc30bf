"""Friction laws in rate form (one law per module)."""

from .coulomb import Coulomb
from .dahl import Dahl
from .gms import GMS
from .lugre import LuGre
from .rate_state import RateState
from .stribeck import Stribeck

__all__ = ["Coulomb", "Dahl", "GMS", "LuGre", "RateState", "Stribeck"]
