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

from .compensation import feedthrough
from .nlsys import to_control
from .passivity import check_lugre_observer, lugre_observer_condition
from .run import run_servo
from .servo import COMPENSATIONS, ServoSystem

__all__ = ["ServoSystem", "run_servo", "COMPENSATIONS", "feedthrough", "check_lugre_observer",
           "lugre_observer_condition", "to_control"]
