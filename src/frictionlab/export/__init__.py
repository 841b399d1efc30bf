"""Friction laws where users simulate: FMI 2.0 FMUs and stand-alone C source.

* :func:`export_fmu` -- an FMU (FMI 2.0, co-simulation and/or model exchange) of a rate law,
  compiled from generated C (no Python inside): inputs ``slip_velocity`` [m/s] and
  ``normal_force``, outputs ``friction_force`` and the law's states, parameters with units
  and ranges (``frictionlab export fmu MODEL[/PRESET] --out law.fmu``);
* :func:`c_source`, :func:`write_c` -- the law's right-hand side, friction force and one RK4
  step as a C99 header and source (``frictionlab export c MODEL[/PRESET] --out DIR``);
* :func:`param_entries` -- what each entry of the law's parameter vector is.

The C text of each law lives beside the law (:mod:`frictionlab.laws.c_kernels`).
"""

from ..core.lazy import lazy_exports

__all__ = ["export_fmu", "c_source", "write_c", "param_entries", "model_description"]

__getattr__, __dir__ = lazy_exports(__name__, {
    "export_fmu": ".fmu", "model_description": ".fmu",
    "c_source": ".csource", "write_c": ".csource", "param_entries": ".layout",
})
