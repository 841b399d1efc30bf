"""The model interface every friction law and contact model implements.

Two kinds of model exist (ARCHITECTURE section 2):

* :class:`AbstractLaw` -- continuous rates ``d(state)/dt = f(state, v, normal_force)`` plus
  an output map (the friction force). The physics is written once as two numba kernels,
  ``_rates_kernel(state, v, fn, p, out)`` and ``_friction_kernel(state, v, fn, p) -> F``,
  over a flat parameter vector ``p`` (from :meth:`AbstractLaw.param_vector`). The Python
  methods :meth:`AbstractLaw.rates` and :meth:`AbstractLaw.friction` call the same kernels, so the compiled loops,
  ``solve_ivp`` and user code all run one implementation.
* :class:`AbstractSteppedModel` -- a discrete update ``step(state, dt, v, normal_force)``
  for return-mapped or constrained physics (subloading friction, rough contact).

Argument order is always ``(t, state, v, normal_force)``; ``v`` is the slip velocity [m/s]
and ``normal_force`` the normal load [N] (or stress [Pa] for stress-based models, which say
so in ``force_units``).
"""

from __future__ import annotations

from abc import abstractmethod
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, ClassVar

import numpy as np
from numpy.typing import NDArray

from .citations import register as _register_citation
from .params import Parameters

__all__ = ["AbstractModel", "AbstractLaw", "AbstractSteppedModel", "ContractCase", "FloatArray"]

FloatArray = NDArray[np.float64]


@dataclass(frozen=True)
class ContractCase:
    """How the model contract's quick mode (:func:`frictionlab.testing.check_model`) runs a model.

    Attributes
    ----------
    model : AbstractModel
        The instance it runs: the model itself, or a copy of the same physics at a size whose
        runs take seconds (the rough-contact patch).
    inputs : mapping
        Slip velocity ``v`` [m/s], ``normal_force`` [force_units] and ``duration`` [s] of the
        contract's protocols (default the model's :attr:`~AbstractModel.typical_inputs`).
    steps : int
        Steps ``duration / dt`` of the coarse run of the step-halving check.
    why : str
        Why the case differs from the model at its typical inputs and 8000 steps (empty if not).
    """

    model: Any
    inputs: Mapping[str, float]
    steps: int = 8000
    why: str = ""


class AbstractModel(Parameters):
    """Common part of every model: name, state description, units, citation."""

    name: ClassVar[str] = ""
    state_names: ClassVar[tuple[str, ...]] = ()
    state_units: ClassVar[tuple[str, ...]] = ()
    #: units of the ``normal_force`` input and of the friction output
    force_units: ClassVar[str] = "N"
    #: True when F(-v, -state) = -F(v, state) (used by property tests)
    odd: ClassVar[bool] = True
    citation: ClassVar[str] = ""
    doi: ClassVar[str] = ""
    #: a typical operating point: slip velocity ``v`` [m/s], ``normal_force`` [force_units] and a
    #: ``duration`` [s] over which the state evolves; used by the model contract
    #: (:func:`frictionlab.testing.check_model`) to build its standard protocol
    typical_inputs: ClassVar[dict[str, float]] = {"v": 1e-3, "normal_force": 1.0, "duration": 1.0}

    def contract_case(self) -> ContractCase:
        """How the model contract's quick mode runs this model (:class:`ContractCase`): the model
        itself at its :attr:`typical_inputs`, 8000 steps; a family whose runs take minutes at that
        size overrides it and says why."""
        return ContractCase(self, dict(self.typical_inputs))

    def initial_state(self) -> FloatArray:
        """State at rest, before any slip (zeros unless a model says otherwise)."""
        return np.zeros(len(self.state_names))

    def _repr_html_(self) -> str:
        """Notebook view: parameters (value, units, allowed range, meaning), states, citation."""
        from .html_repr import model_html

        return model_html(self)

    def cite(self) -> None:
        """Record this model's citation for :func:`frictionlab.citations`."""
        if self.citation:
            _register_citation(self.citation, self.doi)


class AbstractLaw(AbstractModel):
    """A friction law in rate form (see module docstring)."""

    #: parameter names packed, in order, into the kernel parameter vector
    kernel_params: ClassVar[tuple[str, ...]] = ()
    _rates_kernel: ClassVar[Any]
    _friction_kernel: ClassVar[Any]

    def param_vector(self) -> FloatArray:
        """Flat float64 parameter vector for the numba kernels."""
        return np.array([float(getattr(self, k)) for k in self.kernel_params], dtype=np.float64)

    @classmethod
    def kernels(cls) -> tuple[Any, Any]:
        """The compiled ``(rates, friction)`` kernels of this law."""
        return cls._rates_kernel, cls._friction_kernel

    def rates(self, t: float, state: FloatArray, v: float, normal_force: float) -> FloatArray:
        """d(state)/dt at slip velocity ``v`` and normal load ``normal_force``."""
        out = np.empty(len(self.state_names))
        if out.size:
            type(self)._rates_kernel(
                np.ascontiguousarray(state, dtype=np.float64), float(v), float(normal_force),
                self.param_vector(), out,
            )
        return out

    def friction(self, t: float, state: FloatArray, v: float, normal_force: float) -> float:
        """Friction force (same units as ``normal_force``) opposing slip ``v``."""
        return float(
            type(self)._friction_kernel(
                np.ascontiguousarray(state, dtype=np.float64), float(v), float(normal_force),
                self.param_vector(),
            )
        )

    def friction_curve(self, v: FloatArray, normal_force: float = 1.0) -> FloatArray:
        """Steady-state friction at each slip velocity in ``v`` (vectorised).

        Laws with a closed form override :meth:`_steady_state` to return the steady
        state; by default the state is taken as the zero vector (correct for static laws).
        """
        v = np.asarray(v, dtype=float)
        out = np.empty_like(v)
        _, fk = self.kernels()
        p = self.param_vector()
        for i, vi in enumerate(v.ravel()):
            s = self._steady_state(float(vi), normal_force)
            out.flat[i] = fk(s, float(vi), float(normal_force), p)
        return out

    def _steady_state(self, v: float, normal_force: float) -> FloatArray:
        return np.zeros(len(self.state_names))


class AbstractSteppedModel(AbstractModel):
    """A model advanced by a discrete, possibly implicit, update."""

    @abstractmethod
    def step(self, state: FloatArray, dt: float, v: float, normal_force: float) -> FloatArray:
        """Return the state after a step ``dt`` at slip velocity ``v``."""

    @abstractmethod
    def friction(self, t: float, state: FloatArray, v: float, normal_force: float) -> float:
        """Friction output of ``state``."""

    def outputs(self, state: FloatArray, v: float, normal_force: float) -> dict[str, float]:
        """Extra named outputs for the result Dataset (default none)."""
        return {}
