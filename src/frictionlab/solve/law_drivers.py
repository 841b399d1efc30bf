"""The generic drivers: integrators of every rate law, and the stepping loop.

Registered on :class:`~frictionlab.core.base.AbstractLaw` (so every rate law has them) and
on :class:`~frictionlab.core.base.AbstractSteppedModel` (``"step"``, its discrete update).
Each driver declares exactly the options it uses; ``rtol`` with ``"rk4"`` is an error.
``v_stick`` (``rk4``, ``euler``, ``newmark``, the adaptive ones): the Karnopp stick band of a
static law in a mass system (:mod:`frictionlab.systems.mass`; ``newmark`` refuses such a law).

=========  =====================================  ==================================
driver     scheme                                 options
=========  =====================================  ==================================
rk4        classical RK4, compiled (default)      max_points
euler      explicit Euler, compiled               max_points
newmark    Newmark-beta, mass systems only        max_points, newmark_beta, newmark_gamma
radau ...  scipy ``solve_ivp`` (radau, bdf,       max_points, rtol, atol, max_steps,
           lsoda, rk45, dop853), adaptive         max_wall_time, progress
step       Python stepping loop, prescribed       max_points
           slip, feedback protocols
=========  =====================================  ==================================
"""

from __future__ import annotations

from typing import Any

from ..core.base import AbstractLaw, AbstractSteppedModel
from ..systems.base import AbstractSystem
from ..systems.mass import MassSystem
from .drivers import OptionSpec, register_driver
from .simulate import _SCIPY, run_law

__all__: list[str] = []

_SAVE = {"max_points": 20000}
# max_steps None: sized from the run (integrate.adaptive.default_max_steps); max_wall_time None: no wall limit
_TOL = {"rtol": 1e-8, "atol": 1e-12, "max_wall_time": None, "max_steps": None,
        # None: report the simulated time on stderr once a run takes over 10 s; True/False; or f(t, t_end, steps, wall_s)
        "progress": OptionSpec(None, lambda v: v is None or isinstance(v, bool) or callable(v),
                               "None, a bool or a callable f(t, t_end, steps, wall_s)")}
_NEWMARK = {"newmark_beta": 0.25, "newmark_gamma": 0.5}
# Karnopp stick band [m/s] of a static law in a mass system (None: see simulate.stick_velocity)
_STICK = {"v_stick": None}


def _law_driver(integrator: str):
    def advance(run: Any, **options: Any):
        return run_law(run.model, run.protocol, run.system, integrator=integrator, dt=run.dt, t_end=run.t_end,
                       save_dt=run.save_dt, **options)

    advance.__name__ = f"advance_{integrator}"
    advance.__doc__ = f"Generic law driver {integrator!r}: :func:`frictionlab.solve.simulate.run_law`."
    return advance


register_driver(AbstractLaw, "rk4", _law_driver("rk4"), default=True, options={**_SAVE, **_STICK}, systems=(AbstractSystem,),
                description="classical Runge-Kutta 4, fixed step, compiled loop")
register_driver(AbstractLaw, "euler", _law_driver("euler"), options={**_SAVE, **_STICK}, systems=(AbstractSystem,),
                description="explicit Euler, fixed step, compiled loop (the papers' scheme)")
register_driver(AbstractLaw, "newmark", _law_driver("newmark"), options={**_SAVE, **_NEWMARK, **_STICK},
                systems=(MassSystem,),
                description="implicit Newmark-beta for mass systems (stiff laws)")
for _name in _SCIPY:
    register_driver(AbstractLaw, _name, _law_driver(_name), options={**_SAVE, **_TOL, **_STICK}, systems=(AbstractSystem,),
                    adaptive=True, description=f"scipy solve_ivp {_SCIPY[_name]}, adaptive step")
register_driver(AbstractLaw, "step", _law_driver("step"), options=_SAVE, feedback=True,
                description="Python stepping loop (one RK4 step per dt); runs feedback protocols")
register_driver(AbstractSteppedModel, "step", _law_driver("step"), default=True, options=_SAVE, feedback=True,
                description="the model's own discrete update, one step per dt")
del _name
