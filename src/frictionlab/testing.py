"""The public model contract: :func:`check_model`.

Every registered model passes it (the test suite runs it over every model and preset); a new
model should too. It checks, in order:

1. the model runs under :func:`frictionlab.simulate` with a standard protocol (velocity steps
   from ``v`` to ``10 v`` at the model's :attr:`~frictionlab.core.base.AbstractModel.typical_inputs`);
2. the result holds the standard variables (``slip`` [m], ``slip_velocity`` [m/s],
   ``normal_force`` and ``friction_force`` [the model's ``force_units``],
   ``friction_coefficient`` [1]) over ``time`` [s], each with ``units``, and they are finite;
   every variable and coordinate has ``units`` and a ``long_name``, and the result names the
   software and the call that made it (``Conventions``, ``frictionlab_version``, ``source``,
   ``frictionlab_call``: :mod:`frictionlab.core.provenance`);
3. the parameters survive a TOML round trip (``to_dict`` -> TOML -> ``from_dict``);
4. an invalid parameter (NaN) and an unknown parameter name are refused with
   :class:`~frictionlab.core.errors.ParameterError`;
5. halving the step changes ``friction_force`` by less than ``rtol`` (relative to its
   largest magnitude); the observed order is reported in the failure message;
6. where the model declares ``odd``, reversing the velocity reverses the friction.
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

from .core.base import AbstractModel
from .core.errors import ParameterError
from .protocols.base import AbstractProtocol
from .protocols.velocity import VelocitySteps
from .solve import check_convergence, default_driver, simulate

__all__ = ["check_model", "standard_protocol", "ModelCheck", "STANDARD_VARIABLES"]

#: standard result variables every model returns, with their units (``None``: the model's ``force_units``)
STANDARD_VARIABLES: dict[str, str | None] = {"slip": "m", "slip_velocity": "m/s", "normal_force": None,
                                             "friction_force": None, "friction_coefficient": "1"}


@dataclass(frozen=True)
class ModelCheck:
    """What :func:`check_model` measured.

    Attributes
    ----------
    result : xarray.Dataset
        The run under the standard protocol.
    driver : str
        The driver that ran it.
    order : float
        Observed order of convergence of ``friction_force`` on halving the step.
    relative_change : float
        Relative change of ``friction_force`` when the finest step was halved [1].
    """

    result: xr.Dataset
    driver: str
    order: float
    relative_change: float


def standard_protocol(model: AbstractModel, sign: float = 1.0) -> VelocitySteps:
    """Velocity steps ``v -> 10 v`` (each half the duration) at the model's typical inputs."""
    ti = model.typical_inputs
    v = sign * float(ti["v"])
    half = 0.5 * float(ti["duration"])
    return VelocitySteps(velocities=(v, 10.0 * v), durations=(half, half), normal_force_value=float(ti["normal_force"]))


def _negated(protocol: AbstractProtocol) -> AbstractProtocol:
    fields = {f.name for f in dataclasses.fields(protocol)}
    if "velocities" in fields:
        return protocol.replace(velocities=[-v for v in protocol.velocities])
    if "v" in fields:
        return protocol.replace(v=-protocol.v)
    raise AssertionError(f"odd symmetry: cannot reverse protocol {protocol.type_name!r} (give a velocity-steps "
                         "or constant-velocity protocol)")


def check_model(model: AbstractModel, *, protocol: AbstractProtocol | None = None, system: Any = None,
                rtol: float = 2e-3, steps: int = 8000, odd_rtol: float = 1e-9) -> ModelCheck:
    """Run the model contract (see module docstring); raise ``AssertionError`` on a breach.

    Parameters
    ----------
    model : AbstractModel
        The model instance to check.
    protocol : AbstractProtocol, optional
        Default :func:`standard_protocol`.
    system : AbstractSystem, optional
        Default prescribed slip.
    rtol : float
        Largest relative change of ``friction_force`` allowed when the step ``duration /
        steps`` is halved [1].
    steps : int
        Steps of the coarse run of the convergence check.
    odd_rtol : float
        Tolerance of the odd-symmetry check, relative to the largest friction [1].

    Returns
    -------
    ModelCheck
    """
    name = f"{type(model).__name__} ({model.name})"
    prot = protocol if protocol is not None else standard_protocol(model)
    drv = default_driver(model, system, prot)
    dt = float(prot.duration) / steps

    # 1-2: runs, standard variables with units
    ds = simulate(model, prot, system=system, dt=dt)
    assert isinstance(ds, xr.Dataset), f"{name}: simulate returned {type(ds).__name__}, not an xarray.Dataset"
    assert "time" in ds.coords and ds.time.attrs.get("units") == "s", f"{name}: result needs a 'time' coordinate in s"
    for var, unit in STANDARD_VARIABLES.items():
        want = model.force_units if unit is None else unit
        assert var in ds, f"{name}: driver {drv.name!r} returned no {var!r} (has {', '.join(map(str, ds.data_vars))})"
        got = ds[var].attrs.get("units")
        assert got == want, f"{name}: {var!r} has units {got!r}, expected {want!r}"
        assert np.all(np.isfinite(ds[var].values)), f"{name}: {var!r} has non-finite values under {prot.type_name!r}"
    for var in ds.variables:
        if var in ds.coords and var not in ds.dims and ds[var].dtype.kind not in "fiu":
            continue  # a label coordinate (names, flags) has no unit
        assert "units" in ds[var].attrs, f"{name}: result variable {var!r} has no units"
        assert ds[var].attrs.get("long_name"), f"{name}: result variable {var!r} has no long_name"
    for key in ("Conventions", "frictionlab_version", "frictionlab_call", "source"):
        assert ds.attrs.get(key), f"{name}: the result has no {key!r} attribute (provenance)"

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
    return ModelCheck(result=ds, driver=drv.name, order=rep.order, relative_change=rep.relative_change)
