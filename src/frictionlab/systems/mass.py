"""A rigid slider of mass M on a spring, driven, on an incline, or pushed by a force.

One set of equations covers the spring-slider rig (seed 000 eq. 39), the free mass on an
incline and the mass on a wall spring (seed 002 eqs. 1, 22-24), and the force ramp:

    x_d' = V(t)
    M x'' = K (x_d - x) + C (x_d' - x') + F_ext(t) + M g sin(theta) - F_friction(x', N)

with ``N`` the protocol normal load, or ``M g cos(theta)`` when ``normal_from_gravity``.
``x`` is the slider position (the slip), ``x_d`` the driver (load point) position.

Initial conditions (``initial``): with a law that has no friction at rest but a steady
state at every sliding velocity (rate-and-state, ``starts_steady`` on the law class), a
driven spring-slider starts by default at **steady sliding at the drive velocity**
V(0): slider velocity V(0), the law's state at its steady value for V(0) (replacing the
law's own initial state, e.g. ``RateState.v_init``) and the spring stretched to carry the
steady friction. ``initial="rest"`` keeps the given ``x0``, ``v0``, ``preload`` and the
law's own initial state (the behaviour before; a rate-and-state slider then starts at
v = 0 where the log law has no finite friction).
Stick of a static law (no state: Coulomb, Stribeck): such a law gives F(0) = 0 and
+-F_s at any velocity off zero, so an integrator never holds the slider (it creeps or the
friction flips between +-F_s). The generic drivers therefore run a static law in a mass
system with the stick band of Karnopp (1985): while ``|x'| < v_stick`` the friction balances
the applied force K (x_d - x) + C (x_d' - x') + F_ext + M g sin(theta) as long as it lies
between the breakaway limits, F(+-v_stick) or F(+-1e-9 v_stick) if larger (the static
level of an exact law), and x' and x are then frozen;
beyond them the friction is the limit and the slider accelerates. ``v_stick`` is the
drivers' option (``simulate(..., v_stick=...)``), appended to the system parameters as
``sp[7]`` by :func:`frictionlab.solve.simulate.run_law`; dynamic laws run without it.
D. Karnopp, "Computer simulation of stick-slip friction in mechanical dynamic systems",
J. Dyn. Syst. Meas. Control 107(1), 100-103, 1985.

The convenience constructors :func:`spring_slider`, :func:`incline`, :func:`spring_mass`
and :func:`force_ramp_mass` fill the relevant fields.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
from numba import njit

from ..core.base import FloatArray
from ..core.errors import ConfigError
from ..core.params import option, param
from .base import AbstractSystem, register_system

__all__ = ["MassSystem", "spring_slider", "incline", "spring_mass", "force_ramp_mass"]


@njit(inline="always")
def _rhs(ys, z, vd, fn, fext, sp, law_rates, law_friction, lp, dys, dz):
    # ys = [x_d, x, xdot]; sp = [M, K, C, sin_th, cos_th, g, gravity_normal]
    m = sp[0]
    if sp[6] > 0.5:
        fn = m * sp[5] * sp[4]
    xdot = ys[2]
    dys[0] = vd
    if sp.size > 7 and z.size == 0 and abs(xdot) < sp[7]:
        # Karnopp (1985) stick band of a static law: sp[7] = v_stick (see MassSystem)
        fa = sp[1] * (ys[0] - ys[1]) + sp[2] * (vd - xdot) + fext + m * sp[5] * sp[3]
        # breakaway limits: the law at the band edge or just off zero, whichever is larger
        hi = max(law_friction(z, sp[7], fn, lp), law_friction(z, 1e-9 * sp[7], fn, lp))
        lo = min(law_friction(z, -sp[7], fn, lp), law_friction(z, -1e-9 * sp[7], fn, lp))
        if lo <= fa <= hi:  # stuck: friction balances the applied force, no acceleration, no slip
            dys[1] = 0.0
            dys[2] = 0.0
            return fa
        f = hi if fa > hi else lo
        dys[1] = xdot
        dys[2] = (fa - f) / m
        return f
    f = law_friction(z, xdot, fn, lp)
    dys[1] = xdot
    dys[2] = (sp[1] * (ys[0] - ys[1]) + sp[2] * (vd - xdot) + fext + m * sp[5] * sp[3] - f) / m
    if z.size:
        law_rates(z, xdot, fn, lp, dz)
    return f


@register_system
@dataclass(frozen=True)
class MassSystem(AbstractSystem):
    """Slider of mass ``mass`` on a spring ``stiffness`` to a driver (see module docstring).

    Parameters
    ----------
    mass : float
        Slider mass M [kg].
    stiffness : float
        Spring stiffness K between driver and slider [N/m] (0: no spring).
    damping : float
        Dashpot C in parallel with the spring [N s/m].
    angle_deg : float
        Incline angle theta [deg] (gravity pulls along +x for positive angles).
    gravity : float
        Gravitational acceleration g [m/s^2].
    normal_from_gravity : bool
        Use ``M g cos(theta)`` as the normal load instead of the protocol's.
    x0, v0 : float
        Initial slider position [m] and velocity [m/s].
    preload : float
        Initial spring force [N]: the driver starts ``preload / K`` ahead of the slider.
    initial : {"auto", "steady", "rest"}
        ``"steady"``: start at steady sliding at the drive velocity (``v0``, ``preload`` and
        the law state from the law's steady state); ``"rest"``: ``x0``, ``v0``, ``preload``
        and the law's own initial state as given; ``"auto"`` (default): ``"steady"`` for a
        law with ``starts_steady`` (rate-and-state) on a spring when ``v0`` and ``preload``
        are left at 0, else ``"rest"``.
    """

    mass: float = param(1.0, units="kg", lo=0.0, lo_open=True)
    stiffness: float = param(0.0, units="N/m", lo=0.0)
    damping: float = param(0.0, units="N s/m", lo=0.0)
    angle_deg: float = param(0.0, units="deg", lo=-90.0, hi=90.0)
    gravity: float = param(9.81, units="m/s^2", lo=0.0)
    normal_from_gravity: bool = option(False, choices=(True, False))
    x0: float = param(0.0, units="m")
    v0: float = param(0.0, units="m/s")
    #: start with the spring pre-stretched so the slider is in equilibrium with static friction
    preload: float = param(0.0, units="N")
    initial: str = option("auto", choices=("auto", "steady", "rest"))

    type_name: ClassVar[str] = "mass"
    state_names: ClassVar[tuple[str, ...]] = ("driver_position", "slip", "slip_velocity")
    second_order: ClassVar[bool] = True
    _rhs_kernel = _rhs

    def param_vector(self) -> FloatArray:
        th = math.radians(self.angle_deg)
        return np.array([self.mass, self.stiffness, self.damping, math.sin(th), math.cos(th),
                         self.gravity, 1.0 if self.normal_from_gravity else 0.0])

    def initial_state(self) -> FloatArray:
        xd0 = self.x0 + (self.preload / self.stiffness if self.stiffness > 0 else 0.0)
        return np.array([xd0, self.x0, self.v0])

    def initial_conditions(self, model, protocol) -> tuple[FloatArray, FloatArray]:
        mode = self.initial
        if mode == "auto":
            steady = getattr(model, "starts_steady", False) and self.stiffness > 0 and self.v0 == 0 and self.preload == 0
            mode = "steady" if steady else "rest"
        if mode == "rest":
            return self.initial_state(), model.initial_state()
        if not self.stiffness > 0:
            raise ConfigError("system.initial = 'steady' needs a spring (stiffness > 0) to carry the steady friction")
        u = protocol.sample(np.array([0.0]))[:, 0]
        vd = float(u[0])
        if vd == 0.0:
            raise ConfigError("system.initial = 'steady': the drive velocity at t = 0 is 0, there is no steady "
                              "sliding to start from; use initial = 'rest' with v0 and preload")
        th = math.radians(self.angle_deg)
        fn = self.mass * self.gravity * math.cos(th) if self.normal_from_gravity else float(u[1])
        z = np.asarray(model._steady_state(vd, fn), dtype=float)
        _, friction = model.kernels()
        f = float(friction(z, vd, fn, model.param_vector()))
        spring = f - float(u[2]) - self.mass * self.gravity * math.sin(th)
        return np.array([self.x0 + spring / self.stiffness, self.x0, vd]), z

    def outputs(self, y: FloatArray, u: FloatArray, friction: FloatArray) -> dict[str, FloatArray]:
        fn = u[1]
        if self.normal_from_gravity:
            fn = np.full_like(fn, self.mass * self.gravity * math.cos(math.radians(self.angle_deg)))
        return {
            "driver_position": y[:, 0],
            "slip": y[:, 1],
            "slip_velocity": y[:, 2],
            "normal_force": fn,
            "friction_force": friction,
            "spring_force": self.stiffness * (y[:, 0] - y[:, 1]),
        }


def spring_slider(mass: float, stiffness: float, damping: float = 0.0, **kw) -> MassSystem:
    """Driven spring-slider: the protocol velocity moves the load point.

    With a rate-and-state law it starts at steady sliding at the drive velocity unless
    ``initial="rest"`` (or ``v0`` / ``preload``) is given; see :class:`MassSystem`.
    """
    return MassSystem(mass=mass, stiffness=stiffness, damping=damping, **kw)


def incline(mass: float, angle_deg: float, v0: float = 0.0, **kw: float) -> MassSystem:
    """Free mass on an incline; the normal load is ``M g cos(theta)``."""
    return MassSystem(mass=mass, angle_deg=angle_deg, v0=v0, normal_from_gravity=True, **kw)


def spring_mass(mass: float, stiffness: float, x0: float, **kw: float) -> MassSystem:
    """Mass on a spring to a fixed wall (use a zero-velocity protocol)."""
    return MassSystem(mass=mass, stiffness=stiffness, x0=x0, **kw)


def force_ramp_mass(mass: float, **kw: float) -> MassSystem:
    """Free mass pushed by the protocol's ``force`` channel (e.g. :class:`ForceRamp`)."""
    return MassSystem(mass=mass, **kw)
