"""Input programmes usable with every model and system."""

from .base import AbstractProtocol, make_protocol, protocol_names, register_protocol
from .cyclic import PulsatingThreshold, Sinusoidal
from .load import ForceRamp, NormalLoadProgramme
from .recorded import RecordedInput
from .reference import PositionRamp, PositionSinusoid, PositionSteps
from .velocity import ConstantVelocity, SlideHoldSlide, VelocitySteps

__all__ = [
    "AbstractProtocol", "make_protocol", "protocol_names", "register_protocol",
    "ConstantVelocity", "VelocitySteps", "SlideHoldSlide", "Sinusoidal", "PulsatingThreshold",
    "NormalLoadProgramme", "ForceRamp", "RecordedInput", "PositionSinusoid", "PositionSteps", "PositionRamp",
]
