"""The driver registry: lookup along the MRO, defaults, option and system checks."""

from __future__ import annotations

from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import pytest

import frictionlab as fl
from frictionlab.core.base import AbstractLaw, AbstractModel, AbstractSteppedModel
from frictionlab.core.errors import ConfigError
from frictionlab.core.result import make_dataset
from frictionlab.laws import LuGre
from frictionlab.protocols import ConstantVelocity, PulsatingThreshold
from frictionlab.solve import default_driver, drivers_for, register_driver
from frictionlab.solve.drivers import _DRIVERS, check_options
from frictionlab.systems import MassSystem, PrescribedSlip


@dataclass(frozen=True)
class _Toy(AbstractSteppedModel):
    """A stepped model with a constant friction, to carry test-only drivers."""

    name: ClassVar[str] = "toy_for_driver_tests"

    def step(self, state, dt, v, normal_force):
        return state

    def friction(self, t, state, v, normal_force):
        return 0.5 * normal_force


@dataclass(frozen=True)
class _ToyChild(_Toy):
    pass


def _toy_run(run, *, gain=1.0, label="x", n=3, cap=None):
    t = np.linspace(0.0, run.t_end, n)
    ds = make_dataset(t, {"friction_force": np.full(n, gain)}, attrs={"label": label, "dt": str(run.dt),
                                                                     "cap": str(cap)})
    return ds


@pytest.fixture
def toy_drivers():
    register_driver(_Toy, "fast", _toy_run, default=True, options={"gain": 1.0, "label": "x", "n": 3, "cap": None})
    register_driver(_ToyChild, "mass_only", _toy_run, systems=(MassSystem,), options={"gain": 2.0})
    yield
    _DRIVERS.pop(_Toy, None)
    _DRIVERS.pop(_ToyChild, None)


def test_every_law_gets_the_generic_drivers_through_the_mro():
    names = set(drivers_for(LuGre()))
    assert {"rk4", "euler", "newmark", "radau", "bdf", "lsoda", "rk45", "dop853", "step"} <= names
    assert default_driver(LuGre()).name == "rk4"
    assert drivers_for(LuGre) == drivers_for(LuGre())
    assert drivers_for(AbstractLaw)["rk4"].model_cls is AbstractLaw


def test_subclass_inherits_and_extends_drivers(toy_drivers):
    child = drivers_for(_ToyChild())
    assert list(child)[:2] == ["mass_only", "fast"]  # nearest class first
    assert "step" in child  # from AbstractSteppedModel
    assert default_driver(_ToyChild()).name == "fast"  # default inherited from _Toy
    # under a mass system the default cannot host it: the first driver that can is chosen
    assert default_driver(_ToyChild(), MassSystem(), ConstantVelocity()).name == "mass_only"


def test_simulate_passes_declared_defaults_and_checked_options(toy_drivers):
    ds = fl.simulate(_Toy(), ConstantVelocity(duration_s=2.0), gain=3, label="y", dt=0.5)
    assert ds.friction_force.values.tolist() == [3.0, 3.0, 3.0]
    assert ds.attrs["label"] == "y" and ds.attrs["dt"] == "0.5" and ds.attrs["cap"] == "None"
    assert float(ds.time[-1]) == 2.0
    ds = fl.simulate(_Toy(), ConstantVelocity(), integrator="fast", cap=7)
    assert ds.attrs["cap"] == "7"


def test_unknown_driver_is_one_line_with_suggestion(toy_drivers):
    with pytest.raises(ConfigError, match=r"unknown driver 'fats' for _Toy \(did you mean 'fast'\?\); known: fast, step"):
        fl.simulate(_Toy(), ConstantVelocity(), integrator="fats")


def test_unknown_option_names_the_valid_ones(toy_drivers):
    with pytest.raises(ConfigError, match=r"driver 'fast' has no option 'gian' \(did you mean 'gain'\?\); "
                                          r"its options: gain, label, n, cap"):
        fl.simulate(_Toy(), ConstantVelocity(), gian=2.0)
    # a law driver refuses an option it does not use
    with pytest.raises(ConfigError, match="driver 'rk4' has no option 'rtol'"):
        fl.simulate(LuGre(), ConstantVelocity(), integrator="rk4", rtol=1e-6)


@pytest.mark.parametrize("key,value,want", [("gain", "2", "float"), ("gain", True, "float"), ("n", 2.5, "int"),
                                            ("label", 3, "str"), ("cap", "big", "a number")])
def test_option_types_are_checked_against_the_defaults(toy_drivers, key, value, want):
    with pytest.raises(ConfigError, match=f"option '{key}' of driver 'fast' must be {want}"):
        fl.simulate(_Toy(), ConstantVelocity(), **{key: value})


def test_option_int_accepted_for_float_and_nonfinite_refused(toy_drivers):
    drv = drivers_for(_Toy())["fast"]
    assert check_options(drv, {"gain": 2})["gain"] == 2
    with pytest.raises(ConfigError, match="finite"):
        check_options(drv, {"gain": float("nan")})


def test_system_the_driver_cannot_host_is_refused(toy_drivers):
    with pytest.raises(ConfigError, match=r"driver 'mass_only' of _ToyChild cannot host system 'prescribed_slip'; "
                                          r"it hosts 'mass'"):
        fl.simulate(_ToyChild(), ConstantVelocity(), integrator="mass_only", system=PrescribedSlip())
    with pytest.raises(ConfigError, match="driver 'fast' .* cannot host system 'mass'"):
        fl.simulate(_Toy(), ConstantVelocity(), integrator="fast", system=MassSystem())


def test_feedback_protocol_needs_a_feedback_driver(toy_drivers):
    with pytest.raises(ConfigError, match="driver 'rk4' cannot run the feedback protocol 'pulsating_threshold'"):
        fl.simulate(LuGre(), PulsatingThreshold(max_duration=0.01), integrator="rk4")
    # the default falls through to the driver that can (the stepping loop)
    assert default_driver(LuGre(), PrescribedSlip(), PulsatingThreshold()).name == "step"


def test_model_without_drivers_says_so():
    @dataclass(frozen=True)
    class Lonely(AbstractModel):  # no driver anywhere on its MRO
        name: ClassVar[str] = "lonely"

    with pytest.raises(ConfigError, match="model Lonely has no registered driver"):
        fl.simulate(Lonely(), ConstantVelocity())


def test_registration_rejects_bad_declarations():
    with pytest.raises(ValueError, match="reserved"):
        register_driver(_Toy, "bad", _toy_run, options={"dt": 1.0})
    with pytest.raises(TypeError, match="AbstractSystem"):
        register_driver(_Toy, "bad", _toy_run, systems=(int,))
    assert "bad" not in drivers_for(_Toy())
    _DRIVERS.pop(_Toy, None)


def test_registering_a_new_default_demotes_the_old(toy_drivers):
    register_driver(_Toy, "slow", _toy_run, default=True)
    assert default_driver(_Toy()).name == "slow"
    assert not drivers_for(_Toy())["fast"].default
