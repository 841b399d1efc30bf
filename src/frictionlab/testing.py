"""The public model contract: :func:`check_model`.

Every registered model passes it at its defaults in seconds (the test suite runs it over every
model and preset); a new model should too. It checks, in order:

1. the model's default driver runs each protocol kind of :data:`CONTRACT_KINDS` -- one constant
   velocity, velocity steps ``v -> 10 v``, a normal-load programme (ramp to twice the load, then
   hold) -- at the model's operating point, or refuses it with a reason the driver declares
   (``register_driver(..., refuses={feature: reason})``, :mod:`frictionlab.solve.drivers`): what a
   model cannot run is a documented property, not an accident (:attr:`ModelCheck.kinds`);
2. every result holds the standard variables (``slip`` [m], ``slip_velocity`` [m/s],
   ``normal_force`` and ``friction_force`` [the model's ``force_units``],
   ``friction_coefficient`` [1]) over ``time`` [s], each with ``units``, and they are finite;
   ``normal_force`` is the protocol's at every saved time; a contact area is in m^2 (``contact_area`` or ``real_contact_area``; a fraction of the nominal
   area, units "1", may stand beside it); every variable and coordinate has ``units`` and a
   ``long_name``, and the result names the software and the call that made it (``Conventions``,
   ``frictionlab_version``, ``source``, ``frictionlab_call``: :mod:`frictionlab.core.provenance`);
3. the parameters survive a TOML round trip (``to_dict`` -> TOML -> ``from_dict``);
4. an invalid parameter (NaN) and an unknown parameter name are refused with
   :class:`~frictionlab.core.errors.ParameterError`;
5. halving the step changes ``friction_force`` by less than ``rtol`` (relative to its
   largest magnitude) under the main protocol (velocity steps, or one velocity where the driver
   refuses steps); the observed order is reported in the failure message;
6. where the model declares ``odd``, reversing the velocity reverses the friction.

The quick mode (the default) runs the model's :meth:`~frictionlab.core.base.AbstractModel.contract_case`:
the model itself at its :attr:`~frictionlab.core.base.AbstractModel.typical_inputs` and 8000
steps, except where a family says otherwise and why (:attr:`ModelCheck.why`): rough contact on a
16 x 16 patch at 1 GPa, 20 steps; the beam network at 2000 steps; the microjunction's adaptive
solver capped at 200 steps. ``quick=False`` runs the instance as given at its typical inputs.
"""

from __future__ import annotations

import dataclasses
import math
import tomllib
from dataclasses import dataclass
from typing import Any

import numpy as np
import tomli_w
import xarray as xr

from .core.base import AbstractModel, ContractCase
from .core.errors import ConfigError, ParameterError
from .protocols.base import AbstractProtocol
from .protocols.load import NormalLoadProgramme
from .protocols.velocity import ConstantVelocity, VelocitySteps
from .solve import check_convergence, default_driver, drivers_for, simulate

__all__ = ["check_model", "standard_protocol", "contract_protocols", "ModelCheck", "STANDARD_VARIABLES",
           "CONTRACT_KINDS", "AREA_VARIABLES"]

#: standard result variables every model returns, with their units (``None``: the model's ``force_units``)
STANDARD_VARIABLES: dict[str, str | None] = {"slip": "m", "slip_velocity": "m/s", "normal_force": None,
                                             "friction_force": None, "friction_coefficient": "1"}
#: contact-area variables: where a model returns one, one of them is in m^2 (the other may be a fraction, "1")
AREA_VARIABLES: tuple[str, ...] = ("contact_area", "real_contact_area")
#: the protocol kinds every model's default driver runs or refuses with a declared reason
CONTRACT_KINDS: tuple[str, ...] = ("constant_velocity", "velocity_steps", "normal_load")


@dataclass(frozen=True)
class ModelCheck:
    """What :func:`check_model` measured.

    Attributes
    ----------
    result : xarray.Dataset
        The run under the main protocol.
    driver : str
        The driver that ran it.
    order : float
        Observed order of convergence of ``friction_force`` on halving the step.
    relative_change : float
        Relative change of ``friction_force`` when the finest step was halved [1].
    kinds : dict
        Each of :data:`CONTRACT_KINDS` -> ``None`` (it ran and passed 2.) or the refusal, whose
        reason the driver declares.
    model : AbstractModel
        The instance that ran (quick mode: the model's contract case).
    why : str
        Why the case differs from the model at its typical inputs (empty if it does not).
    """

    result: xr.Dataset
    driver: str
    order: float
    relative_change: float
    kinds: dict[str, str | None] = dataclasses.field(default_factory=dict)
    model: AbstractModel | None = None
    why: str = ""


def standard_protocol(model: AbstractModel, sign: float = 1.0, inputs: Any = None) -> VelocitySteps:
    """Velocity steps ``v -> 10 v`` (each half the duration) at the model's typical inputs (or ``inputs``)."""
    return contract_protocols(model.typical_inputs if inputs is None else inputs, sign)["velocity_steps"]


def contract_protocols(inputs: Any, sign: float = 1.0) -> dict[str, AbstractProtocol]:
    """The protocol of each of :data:`CONTRACT_KINDS` at ``inputs`` (``v`` [m/s], ``normal_force``,
    ``duration`` [s]): one velocity; ``v -> 10 v`` at half time; the load ramped to twice its
    value over the first half at ``v``, then held."""
    v, fn, T = sign * float(inputs["v"]), float(inputs["normal_force"]), float(inputs["duration"])
    return {"constant_velocity": ConstantVelocity(v=v, duration_s=T, normal_force_value=fn),
            "velocity_steps": VelocitySteps(velocities=(v, 10.0 * v), durations=(0.5 * T, 0.5 * T),
                                            normal_force_value=fn),
            "normal_load": NormalLoadProgramme(times=(0.0, 0.5 * T, T), loads=(fn, 2.0 * fn, 2.0 * fn), v=v)}


def _negated(protocol: AbstractProtocol) -> AbstractProtocol:
    fields = {f.name for f in dataclasses.fields(protocol)}
    if "velocities" in fields:
        return protocol.replace(velocities=[-v for v in protocol.velocities])
    if "v" in fields:
        return protocol.replace(v=-protocol.v)
    raise AssertionError(f"odd symmetry: cannot reverse protocol {protocol.type_name!r} (give a velocity-steps "
                         "or constant-velocity protocol)")


def _standard_variables(ds: Any, model: AbstractModel, name: str, driver: str, prot: AbstractProtocol) -> None:
    """Check 2 of the module docstring on one result."""
    assert isinstance(ds, xr.Dataset), f"{name}: simulate returned {type(ds).__name__}, not an xarray.Dataset"
    assert "time" in ds.coords and ds.time.attrs.get("units") == "s", f"{name}: result needs a 'time' coordinate in s"
    for var, unit in STANDARD_VARIABLES.items():
        want = model.force_units if unit is None else unit
        assert var in ds, (f"{name}: driver {driver!r} returned no {var!r} under {prot.type_name!r} "
                           f"(has {', '.join(map(str, ds.data_vars))})")
        got = ds[var].attrs.get("units")
        assert got == want, f"{name}: {var!r} has units {got!r}, expected {want!r}"
        assert np.all(np.isfinite(ds[var].values)), f"{name}: {var!r} has non-finite values under {prot.type_name!r}"
    if ds.normal_force.dims == ("time",):  # the load the run saw is the protocol's, at every saved time
        want_fn = prot.normal_force(ds.time.values)
        err = float(np.max(np.abs(ds.normal_force.values - want_fn))) / (float(np.max(np.abs(want_fn))) or 1.0)
        assert err <= 1e-9, (f"{name}: 'normal_force' departs from the protocol's normal_force(t) by {err:.3g} "
                             f"(relative) under {prot.type_name!r}")
    areas = {var: ds[var].attrs.get("units") for var in AREA_VARIABLES if var in ds}
    if areas:
        assert "m^2" in areas.values() and set(areas.values()) <= {"m^2", "1"}, (
            f"{name}: a contact area must be given in m^2 (a fraction, units '1', may stand beside it); got {areas}")
    for var in ds.variables:
        if var in ds.coords and var not in ds.dims and ds[var].dtype.kind not in "fiu":
            continue  # a label coordinate (names, flags) has no unit
        assert "units" in ds[var].attrs, f"{name}: result variable {var!r} has no units"
        assert ds[var].attrs.get("long_name"), f"{name}: result variable {var!r} has no long_name"
    for key in ("Conventions", "frictionlab_version", "frictionlab_call", "source"):
        assert ds.attrs.get(key), f"{name}: the result has no {key!r} attribute (provenance)"


def _run_kind(model: AbstractModel, prot: AbstractProtocol, system: Any, dt: float, name: str,
              kind: str) -> tuple[Any, str | None]:
    """``(result, None)`` if the default driver runs ``prot``, ``(None, why)`` if it refuses it with a
    reason a driver of the model declares (``refuses``); any other refusal breaks the contract."""
    try:
        drv = default_driver(model, system, prot)
        ds = simulate(model, prot, system=system, dt=dt)
    except ConfigError as exc:
        declared = [r for d in drivers_for(model).values() for f, r in d.refuses.items() if f in prot.features]
        if any(r in str(exc) for r in declared):
            return None, str(exc)
        raise AssertionError(f"{name}: the default driver refused the contract's {kind!r} protocol without a "
                             f"declared reason (register_driver(..., refuses={{feature: reason}})): {exc}") from exc
    _standard_variables(ds, model, name, drv.name, prot)
    return ds, None


def check_model(model: AbstractModel, *, protocol: AbstractProtocol | None = None, system: Any = None,
                rtol: float = 2e-3, steps: int | None = None, odd_rtol: float = 1e-9, quick: bool = True,
                kinds: tuple[str, ...] = CONTRACT_KINDS) -> ModelCheck:
    """Run the model contract (see module docstring); raise ``AssertionError`` on a breach.

    Parameters
    ----------
    model : AbstractModel
        The model instance to check.
    protocol : AbstractProtocol, optional
        The main protocol of checks 5-6; default velocity steps, or one velocity where the
        default driver refuses steps.
    system : AbstractSystem, optional
        Default prescribed slip.
    rtol : float
        Largest relative change of ``friction_force`` allowed when the step ``duration /
        steps`` is halved [1].
    steps : int, optional
        Steps of the coarse run of the convergence check (default the contract case's, which
        checks 1-2 always take).
    odd_rtol : float
        Tolerance of the odd-symmetry check, relative to the largest friction [1].
    quick : bool
        Run the model's :meth:`~frictionlab.core.base.AbstractModel.contract_case` (default);
        ``False``: the instance as given at its typical inputs, 8000 steps.
    kinds : tuple of str
        The protocol kinds of check 1 (a subset of :data:`CONTRACT_KINDS`).

    Returns
    -------
    ModelCheck
    """
    case = model.contract_case() if quick else ContractCase(model, dict(model.typical_inputs))
    model = case.model
    name = f"{type(model).__name__} ({model.name})"
    unknown = set(kinds) - set(CONTRACT_KINDS)
    if unknown:
        raise ValueError(f"unknown contract kinds {sorted(unknown)}; known: {', '.join(CONTRACT_KINDS)}")
    nsteps = int(steps if steps is not None else case.steps)
    protocols = contract_protocols(case.inputs)

    # 1-2: each kind runs (standard variables with units) or is refused for a declared reason
    results: dict[str, Any] = {}
    found: dict[str, str | None] = {}
    for kind in kinds:
        prot = protocols[kind]
        results[kind], found[kind] = _run_kind(model, prot, system, float(prot.duration) / case.steps, name, kind)
    if protocol is None:
        main = next((k for k in ("velocity_steps", "constant_velocity") if results.get(k) is not None), None)
        if main is None:
            raise AssertionError(f"{name}: the default driver runs neither velocity steps nor one velocity: {found}")
        prot, ds = protocols[main], (results[main] if nsteps == case.steps else None)
    else:
        prot, ds = protocol, None
    drv = default_driver(model, system, prot)
    dt = float(prot.duration) / nsteps
    if ds is None:
        ds = simulate(model, prot, system=system, dt=dt)
        _standard_variables(ds, model, name, drv.name, prot)

    # 3: TOML round trip
    text = tomli_w.dumps({k: v for k, v in model.to_dict().items() if v is not None})
    back = type(model).from_dict(tomllib.loads(text))
    assert back == model, f"{name}: parameters changed in a TOML round trip:\n{text}"

    # 4: invalid and unknown parameters are refused
    numeric = [f.name for f in dataclasses.fields(model) if f.metadata.get("kind") == "number"
               and not isinstance(getattr(model, f.name), tuple)]
    if numeric:
        try:
            model.replace(**{numeric[0]: math.nan})
        except ParameterError:
            pass
        else:
            raise AssertionError(f"{name}: {numeric[0]} = nan was accepted")
    try:
        model.replace(no_such_parameter=1.0)
    except ParameterError:
        pass
    else:
        raise AssertionError(f"{name}: an unknown parameter name was accepted")

    # 5: step halving
    rep = check_convergence(model, prot, system=system, integrator=drv.name, dt=dt, levels=2)
    assert rep.relative_change <= rtol, (
        f"{name}: halving dt = {rep.dts[-1]:.3g} s changes friction_force by {rep.relative_change:.3g} "
        f"(relative) > rtol = {rtol:g} with driver {drv.name!r}; observed order {rep.order:.2f}\n{rep}")

    # 6: odd symmetry
    if model.odd:
        neg = simulate(model, _negated(prot), system=system, dt=dt)
        f, g = ds.friction_force.values, neg.friction_force.values
        scale = float(np.max(np.abs(f))) or 1.0
        err = float(np.max(np.abs(f + g))) / scale
        assert err <= odd_rtol, (f"{name} declares odd = True but F(-v) != -F(v): max |F(v) + F(-v)| / max |F| = "
                                 f"{err:.3g} > {odd_rtol:g}")
    return ModelCheck(result=ds, driver=drv.name, order=rep.order, relative_change=rep.relative_change,
                      kinds=found, model=model, why=case.why)
