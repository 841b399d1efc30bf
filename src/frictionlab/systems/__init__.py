"""Systems hosting a friction model: prescribed slip, mass-spring sliders and the quasi-static slider.

Names are imported from their modules on first use (:func:`frictionlab.core.lazy.lazy_exports`), so
``from frictionlab.systems import QuasiStaticSlider`` loads neither the mass systems nor numba.
"""

from ..core.lazy import lazy_exports

__all__ = ["AbstractSystem", "make_system", "register_system", "system_names", "PrescribedSlip",
           "MassSystem", "spring_slider", "incline", "spring_mass", "force_ramp_mass", "QuasiStaticSlider"]

__getattr__, __dir__ = lazy_exports(__name__, {
    **{n: ".base" for n in ("AbstractSystem", "make_system", "register_system", "system_names")},
    **{n: ".mass" for n in ("MassSystem", "spring_slider", "incline", "spring_mass", "force_ramp_mass")},
    "PrescribedSlip": ".prescribed_slip",
    "QuasiStaticSlider": ".quasi_static",
})
