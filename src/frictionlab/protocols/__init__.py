"""Input programmes usable with every model and system.

Names are imported from their modules on first use (:func:`frictionlab.core.lazy.lazy_exports`);
the registry behind :func:`make_protocol` and :func:`protocol_names` imports every protocol module
when it is first read, so a lookup by name never depends on what was imported before.
"""

from ..core.lazy import lazy_exports

__all__ = [
    "AbstractProtocol", "make_protocol", "protocol_names", "register_protocol",
    "ConstantVelocity", "VelocitySteps", "SlideHoldSlide", "Sinusoidal", "PulsatingThreshold",
    "NormalLoadProgramme", "RampedNormalLoad", "ForceRamp", "RecordedInput", "PositionSinusoid", "PositionSteps", "PositionRamp",
]

__getattr__, __dir__ = lazy_exports(__name__, {
    **{n: ".base" for n in ("AbstractProtocol", "make_protocol", "protocol_names", "register_protocol")},
    **{n: ".velocity" for n in ("ConstantVelocity", "VelocitySteps", "SlideHoldSlide")},
    **{n: ".cyclic" for n in ("Sinusoidal", "PulsatingThreshold")},
    **{n: ".load" for n in ("NormalLoadProgramme", "RampedNormalLoad", "ForceRamp")},
    "RecordedInput": ".recorded",
    **{n: ".reference" for n in ("PositionSinusoid", "PositionSteps", "PositionRamp")},
})
