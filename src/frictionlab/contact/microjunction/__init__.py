"""Microjunction asperity-creep model (Goedecke 2013, Appendix A): a creeping Jackson--Green
hemisphere under a normal-force history, friction from contact-area growth, and a
Greenwood--Williamson-style ensemble of junctions sharing the normal load."""

from .jackson_green import (
    DELTA_KINK, area_jg, contact_radius_ratio, darea_jg, dforce_jg, force_jg, hardness_ratio, hardness_ratio_at,
    jg_exponent, normalisation,
)
from .creep import CREEP_COEFFICIENTS, creep_coefficients, creep_delta_rate, pressure_rate
from .junction import ForceHistory, JunctionSolution, Microjunction, integrate_junction, junction_rates
from .ensemble import EnsembleSolution, JunctionEnsemble, integrate_ensemble
from .presets import PRESETS
from .scales import Scales

__all__ = [
    "DELTA_KINK", "area_jg", "contact_radius_ratio", "darea_jg", "dforce_jg", "force_jg", "hardness_ratio",
    "hardness_ratio_at", "jg_exponent", "normalisation", "CREEP_COEFFICIENTS", "creep_coefficients",
    "creep_delta_rate", "pressure_rate", "ForceHistory", "JunctionSolution", "Microjunction",
    "integrate_junction", "junction_rates", "EnsembleSolution", "JunctionEnsemble", "integrate_ensemble", "PRESETS",
    "Scales",
]

from . import driver  # noqa: E402,F401  (registers the drivers of frictionlab.simulate)
