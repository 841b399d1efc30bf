"""Friction laws in rate form (one law per module)."""

from .coulomb import Coulomb
from .dahl import Dahl
from .gms import GMS
from .lugre import LuGre
from .rate_state import RateState
from .rate_state2 import RateState2
from .stribeck import Stribeck
from . import rate_state_drivers  # noqa: F401  (registers the quasi_static driver of RateState/RateState2)

__all__ = ["Coulomb", "Dahl", "GMS", "LuGre", "RateState", "RateState2", "Stribeck"]
