"""``ServoSystem``: a mass in a sampled position loop, friction from any rate law.

Plant (continuous, integrated with RK4 at the step ``dt`` between samples):

.. math::
    m\\ddot x = u - F(z, \\dot x, N), \\qquad \\dot z = f(z, \\dot x, N)

with the friction force :math:`F` and state rates :math:`f` taken from the law's own numba
kernels (every :class:`~frictionlab.core.base.AbstractLaw` works; stress-based laws such as
:class:`~frictionlab.laws.subloading.SubloadingRate` are scaled by ``contact_area``). The slider
moves on a fixed base, so its velocity is the slip velocity.

Controller (discrete, period ``sample_period``, zero-order hold): PID / PD with velocity
feedback on the quantised measurements,

.. math::
    u_k = -K_p e_k - K_i T_s\\sum_{j\\le k} e_j - K_v(v_{m,k} - v_{r,k}) + \\hat m\\, a_{r,k}
          + \\hat F_k, \\qquad e_k = x_{m,k} - x_{r,k},

saturated at ``force_limit``. The compensation :math:`\\hat F_k` is one of (``compensation``)

* ``"none"``;
* ``"feedforward"``: the ``model`` law driven by the *reference* velocity (with its state
  integrated along the reference): Coulomb or Stribeck feedforward with a static ``model``,
  model-based feedforward with a dynamic one;
* ``"observer"``: the ``model`` law's state driven by the *measured* velocity with the error
  injection :math:`\\dot{\\hat z} = f(\\hat z, v_m) - k e` -- for LuGre exactly the observer of
  Canudas de Wit et al. (1995, Sec. V), whose passivity gain condition is checked
  (:mod:`frictionlab.control.passivity`); the estimate includes the :math:`\\sigma_1\\dot{\\hat z}`
  injection term :math:`-\\sigma_1 k e`;
* ``"ekf"``: an extended Kalman filter on :math:`[x, v, z, \\theta]` (selected ``model``
  parameters :math:`\\theta` as random walks) built from the ``model`` law's kernels;
* ``"motion_dynamics"``: the friction estimated "from measurements of system speed and
  external forces, by using the motion dynamics" (Martinez Molina 2025, Sec. II.A, eq. 1):
  a momentum observer :math:`\\hat F = L(\\hat m v_m - \\int(u - \\hat F)dt)`, i.e. a first-order
  filter of bandwidth ``estimator_bandwidth`` applied to :math:`u - \\hat m\\dot v`.

With ``apply_compensation = False`` the estimate is computed and logged but not fed back.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, ClassVar

import numpy as np

from ..core.base import AbstractLaw, FloatArray
from ..core.params import option, param
from ..core.registry import declare_drivers
from ..systems.base import AbstractSystem, register_system

__all__ = ["ServoSystem", "COMPENSATIONS"]

#: compensation strategies and their loop codes
COMPENSATIONS = {"none": 0, "feedforward": 1, "observer": 2, "ekf": 3, "motion_dynamics": 4}
_NEEDS_MODEL = ("feedforward", "observer", "ekf")


@register_system
@dataclass(frozen=True)
class ServoSystem(AbstractSystem):
    """A sampled position servo on a mass with friction (see module docstring).

    Parameters
    ----------
    mass : float
        Moving mass m [kg] (motor and load inertia referred to the slide).
    sample_period : float
        Controller and sensor sampling period T_s [s].
    position_resolution : float
        Position quantisation step (encoder resolution) [m]; 0: none.
    velocity_resolution : float
        Velocity-sensor quantisation [m/s]; 0: none (only with ``velocity_source="sensor"``).
    velocity_source : {"sensor", "difference"}
        Velocity from a sensor (sampled, quantised) or the backward difference of the
        quantised position.
    force_limit : float
        Actuator saturation ``|u| <= force_limit`` [N]; 0: no saturation.
    kp, ki, kv : float
        Proportional [N/m], integral [N/(m s)] and velocity [N s/m] gains (ki = 0: PD).
    model_mass : float
        Mass used by the controller and estimators [kg]; 0: equal to ``mass``.
    inertia_feedforward : bool
        Add ``model_mass * reference acceleration`` to the command.
    compensation : str
        One of ``none``, ``feedforward``, ``observer``, ``ekf``, ``motion_dynamics``.
    model : AbstractLaw, dict or None
        The friction law the compensator believes (required by feedforward, observer, ekf;
        refused by the others); in a configuration a table ``{name = "lugre", preset = ...,
        sigma0 = ...}`` built with :func:`~frictionlab.core.registry.make_model`.
    apply_compensation : bool
        Feed the estimate back (False: estimate only, logged as ``friction_estimate``).
    observer_gain : float
        k of the observer error injection ``-k e`` added to every state rate (``observer``)
        [state units/(m s)]: 1/s for LuGre (bristle state in m), N/(m s) for force states
        (Dahl, GMS, dynamic Kloss).
    check_passivity : bool
        Refuse LuGre observer gains outside the passivity condition (``observer``).
    estimator_bandwidth : float
        L of the motion-dynamics estimate [1/s]; needs ``L T_s < 1``.
    estimator_substeps : int
        RK4 sub-steps per sample of the model/observer/EKF state [1].
    ekf_params : tuple of str
        Names of ``model.kernel_params`` the EKF estimates online (with its state).
    ekf_position_noise, ekf_velocity_noise : float
        Measurement noise std of position [m] and velocity [m/s]; velocity 0: not used.
    ekf_force_noise : float
        Process noise intensity of the unmodelled force [N s^0.5].
    ekf_state_noise : float
        Process noise intensity of each friction state [state units / s^0.5].
    ekf_param_drift : float
        Relative random-walk intensity of the estimated parameters [1/s^0.5].
    ekf_param_std : float
        Initial relative standard deviation of the estimated parameters [1].
    contact_area : float
        Contact area [m^2] converting stress-based laws (force_units "Pa") to forces; 0 for
        laws in newtons (required > 0 for stress-based laws).
    x0, v0 : float
        Initial position [m] and velocity [m/s].
    """

    mass: float = param(1.0, units="kg", lo=0.0, lo_open=True)
    sample_period: float = param(1e-3, units="s", lo=0.0, lo_open=True)
    position_resolution: float = param(0.0, units="m", lo=0.0)
    velocity_resolution: float = param(0.0, units="m/s", lo=0.0)
    velocity_source: str = option("sensor", choices=("sensor", "difference"))
    force_limit: float = param(0.0, units="N", lo=0.0)
    kp: float = param(1e4, units="N/m", lo=0.0)
    ki: float = param(0.0, units="N/(m s)", lo=0.0)
    kv: float = param(200.0, units="N s/m", lo=0.0)
    model_mass: float = param(0.0, units="kg", lo=0.0)
    inertia_feedforward: bool = option(True, choices=(True, False))
    compensation: str = option("none", choices=tuple(COMPENSATIONS))
    #: structured fields ("table"): validated by :meth:`_check`, not by ``param``/``option``
    model: Any = field(default=None, metadata={"kind": "table", "units": "", "doc": (
        "the rate law the compensator believes, or a table {name, preset, parameters}")})
    apply_compensation: bool = option(True, choices=(True, False))
    observer_gain: float = param(1.0, units="state units/(m s)", lo=0.0)
    check_passivity: bool = option(True, choices=(True, False))
    estimator_bandwidth: float = param(200.0, units="1/s", lo=0.0, lo_open=True)
    estimator_substeps: int = param(1, units="1", lo=1, integer=True)
    ekf_params: tuple = field(default=(), metadata={"kind": "table", "units": "", "doc": (
        "names of model.kernel_params the EKF estimates online")})
    ekf_position_noise: float = param(1e-6, units="m", lo=0.0, lo_open=True)
    ekf_velocity_noise: float = param(1e-4, units="m/s", lo=0.0)
    ekf_force_noise: float = param(0.1, units="N s^0.5", lo=0.0)
    ekf_state_noise: float = param(0.0, units="state units/s^0.5", lo=0.0)
    ekf_param_drift: float = param(0.1, units="1/s^0.5", lo=0.0)
    ekf_param_std: float = param(0.3, units="1", lo=0.0)
    contact_area: float = param(0.0, units="m^2", lo=0.0)
    x0: float = param(0.0, units="m")
    v0: float = param(0.0, units="m/s")

    type_name: ClassVar[str] = "servo"
    #: no right-hand-side kernel for the generic integrators: the driver ``servo`` runs its own loop
    rhs_form: ClassVar[bool] = False

    def _check(self) -> None:
        if isinstance(self.model, dict):  # from a configuration: [system] model = {name = ..., ...}
            from ..core.registry import make_model

            spec = dict(self.model)
            if "name" not in spec:
                self._fail("model", "as a table needs a 'name' (e.g. model = {name = \"lugre\", preset = \"canudas1995\"})")
            object.__setattr__(self, "model", make_model(spec.pop("name"), spec.pop("preset", None), **spec))
        if self.model is not None and not isinstance(self.model, AbstractLaw):
            self._fail("model", f"must be a rate law (AbstractLaw), got {type(self.model).__name__}")
        if self.compensation in _NEEDS_MODEL and self.model is None:
            self._fail("model", f"is required by compensation {self.compensation!r} (the law the compensator believes)")
        if self.compensation not in _NEEDS_MODEL and self.model is not None:
            self._fail("model", f"is not used by compensation {self.compensation!r}; remove it or choose one of "
                       f"{list(_NEEDS_MODEL)}")
        if self.compensation == "motion_dynamics" and self.estimator_bandwidth * self.sample_period >= 1.0:
            self._fail("estimator_bandwidth", f"= {self.estimator_bandwidth:g} 1/s times sample_period = "
                       f"{self.sample_period:g} s must be < 1 (discrete estimator stability)")
        if self.ekf_params and self.compensation != "ekf":
            self._fail("ekf_params", f"is only used by compensation 'ekf', not {self.compensation!r}")
        if self.velocity_resolution > 0 and self.velocity_source != "sensor":
            self._fail("velocity_resolution", "applies to velocity_source='sensor' only")
        if self.ekf_params:
            object.__setattr__(self, "ekf_params", tuple(str(n) for n in self.ekf_params))
            names = tuple(getattr(self.model, "kernel_params", ()))
            for n in self.ekf_params:
                if n not in names:
                    self._fail("ekf_params", f"names {n!r}, not an estimable parameter of {self.model.name!r}; "
                               f"known: {', '.join(names) or '(none: this law packs its own parameter vector)'}")
                if not float(getattr(self.model, n)) > 0:
                    self._fail("ekf_params", f"{n!r} needs a positive initial value in the model")
        if self.compensation == "observer" and self.check_passivity and self.model is not None \
                and self.model.name == "lugre":
            from .passivity import check_lugre_observer

            check_lugre_observer(self.model.sigma0, self.model.sigma1, self.controller_mass, self.kp, self.ki, self.kv)

    @property
    def controller_mass(self) -> float:
        """The mass the controller and estimators use [kg]."""
        return self.model_mass if self.model_mass > 0 else self.mass

    def force_scale(self, law: AbstractLaw, plant: bool = True) -> float:
        """Factor from the law's force units to newtons (the contact area for stress laws).

        A contact area given for a plant law in newtons is refused (it would be unused).
        """
        if law.force_units == "N":
            if self.contact_area > 0 and plant:
                self._fail("contact_area", f"is only for stress-based laws; {law.name!r} already gives newtons")
            return 1.0
        if not self.contact_area > 0:
            self._fail("contact_area", f"must be > 0 m^2 for the stress-based law {law.name!r} "
                       f"(force units {law.force_units})")
        return self.contact_area

    def to_dict(self) -> dict[str, Any]:
        """Field values; ``model`` as the table ``{name, **parameters}`` that :meth:`from_dict` rebuilds."""
        out = super().to_dict()
        if self.model is not None:
            out["model"] = {"name": self.model.name, **self.model.to_dict()}
        return out

    def param_vector(self) -> FloatArray:
        """The loop's ``sp`` vector (layout :data:`frictionlab.control.loop.SP_FIELDS`)."""
        from .compensation import feedthrough

        model = self.model
        return np.array([
            self.mass, self.sample_period, self.position_resolution, self.velocity_resolution,
            1.0 if self.velocity_source == "difference" else 0.0, self.force_limit, self.kp, self.ki, self.kv,
            self.controller_mass, 1.0 if self.inertia_feedforward else 0.0, float(COMPENSATIONS[self.compensation]),
            self.observer_gain, feedthrough(model) if self.compensation == "observer" else 0.0,
            self.estimator_bandwidth, 1.0 if self.apply_compensation else 0.0, self.ekf_position_noise,
            self.ekf_velocity_noise, 1.0 if self.ekf_velocity_noise > 0 else 0.0, 1.0,
            1.0, float(self.estimator_substeps)], dtype=np.float64)

    def attrs(self) -> dict[str, Any]:
        out: dict[str, Any] = {}
        for k, v in self.to_dict().items():
            if k not in ("model", "ekf_params"):
                out[k] = str(v) if isinstance(v, bool) else v
        out["model"] = self.model.name if self.model is not None else "None"
        if self.model is not None:
            for k, v in self.model.attrs().items():
                out[f"model.{k}"] = v
        out["ekf_params"] = ",".join(self.ekf_params)
        return out


# the servo driver serves every rate law hosted in a ServoSystem (``frictionlab.control.driver``)
declare_drivers(AbstractLaw, f"{__package__}.driver")
