"""A rate law as a python-control nonlinear I/O system (``control.nlsys``).

:func:`to_control` wraps a law's kernels (the ones :func:`frictionlab.simulate` runs) as the
update and output functions of a ``control.NonlinearIOSystem``: input the slip velocity [m/s]
(and, if asked, the normal load), states the law's states (named as in ``simulate``'s result),
output the friction force (and, if asked, the states). It then takes part in
``control.interconnect``, ``input_output_response``, ``find_operating_point`` and
``linearize`` like any other block: a plant with friction, a friction observer, a loop with a
python-control controller (``examples/plot_control_loop.py``).

python-control is imported when :func:`to_control` is called (``pip install 'frictionlab[control]'``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from ..core.base import AbstractLaw
from ..core.errors import ConfigError, ParameterError

if TYPE_CHECKING:
    import control

__all__ = ["to_control", "INPUTS"]

INPUTS = ("slip_velocity", "normal_force")


def to_control(model: AbstractLaw, inputs: tuple[str, ...] = ("slip_velocity",), *,
               outputs: tuple[str, ...] = ("friction_force",), normal_force: float | None = None,
               name: str | None = None) -> "control.NonlinearIOSystem":
    """``model`` as a ``control.nlsys`` (see module docstring).

    Parameters
    ----------
    model : AbstractLaw
        A rate law (``make_model("lugre", "canudas1995")``); stepped models have no right-hand side.
    inputs : tuple of str
        ``("slip_velocity",)`` (the normal load is then the constant ``normal_force``) or
        ``("slip_velocity", "normal_force")``.
    outputs : tuple of str
        ``"friction_force"`` and/or state names (``model.state_names``), in the order wanted.
    normal_force : float, optional
        The constant normal load [``model.force_units``] when it is not an input (default: the
        model's typical load); refused when ``normal_force`` is an input.
    name : str, optional
        The system's name (default: the model's name).

    Returns
    -------
    control.NonlinearIOSystem
        States ``model.state_names`` (their initial values ``model.initial_state()``, which
        ``input_output_response`` takes as ``X0``); no states for a static law. ``params``
        given to the simulation functions are model parameters
        (``input_output_response(sys, T, U, X0, params={"sigma0": 2e5})``), validated and used.
    """
    import control as ct
    import numpy as np

    if not isinstance(model, AbstractLaw):
        raise ConfigError(f"model {getattr(model, 'name', model)!r} is not a rate law: it has no right-hand side "
                          "to give python-control")
    inputs = tuple(inputs)
    if inputs not in (("slip_velocity",), ("slip_velocity", "normal_force")):
        raise ConfigError(f"inputs = {inputs!r}: give ('slip_velocity',) or ('slip_velocity', 'normal_force')")
    if len(inputs) == 2 and normal_force is not None:
        raise ConfigError("normal_force is an input here; a constant normal_force = ... is for inputs=('slip_velocity',)")
    fn_const = float(model.typical_inputs.get("normal_force", 1.0) if normal_force is None else normal_force)
    if not np.isfinite(fn_const):
        raise ParameterError(f"normal_force = {normal_force!r} must be finite")
    states = tuple(model.state_names)
    known = ("friction_force", *states)
    outputs = tuple(outputs)
    for o in outputs:
        if o not in known:
            raise ConfigError(f"output {o!r} is not one of {list(known)}")
    if not outputs:
        raise ConfigError("outputs: give at least one of " + ", ".join(known))
    rates, friction = model.kernels()
    nx = len(states)
    state_index = {s: i for i, s in enumerate(states)}
    vectors: dict[tuple, Any] = {(): model.param_vector()}

    def p_of(params: dict | None):
        key = tuple(sorted((params or {}).items()))
        if key not in vectors:
            vectors[key] = model.replace(**dict(key)).param_vector()
        return vectors[key]

    def u_of(u):
        u = np.atleast_1d(np.asarray(u, dtype=float))
        return float(u[0]), (float(u[1]) if len(inputs) == 2 else fn_const)

    def updfcn(t, x, u, params):
        v, fn = u_of(u)
        out = np.empty(nx)
        rates(np.ascontiguousarray(x, dtype=np.float64), v, fn, p_of(params), out)
        return out

    def outfcn(t, x, u, params):
        v, fn = u_of(u)
        xs = np.ascontiguousarray(x if nx else np.zeros(0), dtype=np.float64)
        y = np.empty(len(outputs))
        for k, o in enumerate(outputs):
            y[k] = friction(xs, v, fn, p_of(params)) if o == "friction_force" else xs[state_index[o]]
        return y

    kw = {"states": list(states)} if nx else {}  # a static law: python-control makes it a static system
    return ct.nlsys(updfcn if nx else None, outfcn, inputs=list(inputs), outputs=list(outputs),
                    name=name or model.name, **kw)
