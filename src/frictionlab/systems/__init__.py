"""Systems hosting a friction model: prescribed slip, mass-spring sliders and the quasi-static slider."""

from .base import AbstractSystem, make_system, register_system, system_names
from .mass import MassSystem, force_ramp_mass, incline, spring_mass, spring_slider
from .prescribed_slip import PrescribedSlip
from .quasi_static import QuasiStaticSlider

__all__ = ["AbstractSystem", "make_system", "register_system", "system_names", "PrescribedSlip",
           "MassSystem", "spring_slider", "incline", "spring_mass", "force_ramp_mass", "QuasiStaticSlider"]
