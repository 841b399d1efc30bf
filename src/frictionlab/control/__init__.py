"""Friction in the loop: a sampled position servo with friction from any rate law.

* :class:`ServoSystem` -- mass, sensors (sampling, quantisation), actuator saturation,
  PID / PD controller and the compensation strategy (none, feedforward, observer, EKF,
  motion-dynamics estimate);
* :func:`run_servo` -- one compiled closed-loop run as an ``xarray.Dataset``, also the driver
  ``"servo"`` of :func:`frictionlab.simulate` (:mod:`frictionlab.control.driver`);
* :mod:`frictionlab.control.passivity` -- the LuGre observer gain condition
  (Canudas de Wit et al. 1995, Sec. V);
* :mod:`frictionlab.control.cstep` -- C-callable single-step functions of every law;
* :func:`to_control` -- a law as a python-control ``nlsys`` (:mod:`frictionlab.control.nlsys`).
"""

from ..core.lazy import lazy_exports
from . import driver as _driver  # noqa: F401  (registers the 'servo' system and driver; imports no xarray or numba)

__all__ = ["ServoSystem", "run_servo", "COMPENSATIONS", "feedthrough", "check_lugre_observer",
           "lugre_observer_condition", "to_control"]

# the closed loop, its kernels and xarray are imported when a name is first used: a lookup of the
# generic drivers (this package declares its driver, ``control/servo.py``) stays cheap
__getattr__, __dir__ = lazy_exports(__name__, {
    "ServoSystem": ".servo", "COMPENSATIONS": ".servo", "run_servo": ".run", "feedthrough": ".compensation",
    "check_lugre_observer": ".passivity", "lugre_observer_condition": ".passivity", "to_control": ".nlsys",
})
