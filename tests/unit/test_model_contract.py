"""The model contract (:func:`frictionlab.testing.check_model`) over every registered model and preset."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
import pytest
from numba import njit

from frictionlab.core.base import AbstractLaw, AbstractModel
from frictionlab.core.errors import ConfigError
from frictionlab.core.params import param
from frictionlab.core.result import make_dataset
from frictionlab.core.registry import get_model_class, make_model, model_names, presets_of
from frictionlab.laws import LuGre
from frictionlab.protocols import ConstantVelocity
from frictionlab.solve import drivers_for, register_driver
from frictionlab.solve.drivers import run_attrs
from frictionlab.testing import CONTRACT_KINDS, check_model

#: presets whose run takes longer than the fast suite allows
SLOW: set[tuple[str, str]] = set()
#: what each registered model's default driver refuses of the contract's protocol kinds (a declared
#: property of the driver; every other kind runs and returns the standard variables)
REFUSED: dict[str, set[str]] = {"beam_network": {"velocity_steps", "normal_load"}}


def _cases():
    for name in model_names():
        cls = get_model_class(name)
        marks = []
        if not drivers_for(cls):
            marks.append(pytest.mark.skip(reason=f"{name}: no driver registered yet (drivers_for is empty); "
                                                 "the skip disappears when its family registers one"))
        for preset in sorted(presets_of(name)) or [None]:
            m = list(marks)
            if (name, preset) in SLOW:
                m.append(pytest.mark.slow(reason="contract run over 20 s"))
            yield pytest.param(name, preset, marks=m, id=f"{name}-{preset}")


@pytest.mark.parametrize("name,preset", list(_cases()))
def test_every_model_and_preset_meets_the_contract(name, preset):
    rep = check_model(make_model(name, preset))
    assert rep.relative_change <= 2e-3
    assert rep.result.attrs["model"] == name


@pytest.mark.parametrize("name", model_names())
def test_every_registered_default_runs_or_declares_each_protocol_kind(name):
    """Issue 31: the default model's default driver runs one velocity, velocity steps and a
    normal-load programme, or refuses one for a reason its registration declares; the results carry
    the SI standard names (check_model's check 2, on every kind that ran)."""
    m = make_model(name)
    rep = check_model(m)
    assert set(rep.kinds) == set(CONTRACT_KINDS)
    assert {k for k, why in rep.kinds.items() if why is not None} == REFUSED.get(name, set())
    declared = {r for d in drivers_for(m).values() for r in d.refuses.values()}
    for why in rep.kinds.values():
        assert why is None or any(r in why for r in declared)
    assert rep.result.friction_force.attrs["units"] == m.force_units and rep.result.slip.attrs["units"] == "m"
    assert rep.model == m or rep.why  # a case that differs from the model says why


def test_beam_network_contract_states_its_refusals_and_runs_at_the_defaults():
    """check_model(make_model("beam_network")) raised ConfigError (velocity steps); now the steps and
    the load programme are declared refusals and the contract runs on one stage velocity."""
    rep = check_model(make_model("beam_network"))
    assert rep.driver == "mlbnm" and rep.result.attrs["protocol"] == "constant_velocity"
    assert "one constant stage velocity" in rep.kinds["velocity_steps"]
    assert "sets the contact patch" in rep.kinds["normal_load"]


def test_rough_contact_contract_runs_its_small_case():
    """check_model(make_model("rough_contact")) did not answer in 150 s (512^2 patch); its quick case
    is a 16 x 16 patch at 1 GPa, the material and solver of the model given."""
    m = make_model("rough_contact", "fig7")
    rep = check_model(m)
    assert (rep.model.patch_nx, rep.model.patch_ny, rep.model.surface_mx) == (16, 16, 64)
    assert rep.model.replace(**{k: getattr(m, k) for k in type(m).CONTRACT_SIZE}) == m
    assert "512 x 512" in rep.why and rep.kinds == dict.fromkeys(CONTRACT_KINDS)
    assert rep.result.real_contact_area.attrs["units"] == "m^2"


def _sliding_block(run):
    """Coulomb friction under prescribed slip, exact on every step grid (a driver of a test model)."""
    model, protocol, system = run.model, run.protocol, run.system
    if "velocity_change" in protocol.features:
        raise ConfigError("this driver takes one velocity")
    t = np.linspace(0.0, float(protocol.duration), 101)
    v, fn = protocol.velocity(t), protocol.normal_force(t)
    f = model.mu * fn * np.sign(v)
    return make_dataset(t, {"slip": v * t, "slip_velocity": v, "normal_force": fn, "friction_force": f,
                            "friction_coefficient": model.mu * np.sign(v)}, attrs=run_attrs(model, protocol, system, "block"))


@dataclass(frozen=True)
class _Block(AbstractModel):
    """A model served by its own driver only, which refuses velocity changes and declares it."""

    mu: float = param(0.3, units="1", lo=0.0)
    name: ClassVar[str] = "block_test_model"


@dataclass(frozen=True)
class _SilentBlock(_Block):
    """The same driver, registered without declaring the refusal."""

    name: ClassVar[str] = "silent_block_test_model"


register_driver(_Block, "block", _sliding_block, default=True,
                refuses={"velocity_change": "it slides at one speed only (test)"})
register_driver(_SilentBlock, "block", _sliding_block, default=True)


def test_contract_takes_a_declared_refusal_and_catches_an_undeclared_one():
    rep = check_model(_Block())
    assert rep.kinds["constant_velocity"] is None and rep.kinds["normal_load"] is None
    assert "velocity changes during the run (velocity_change), and it slides at one speed only" in \
        rep.kinds["velocity_steps"]
    assert rep.result.attrs["protocol"] == "constant_velocity"  # the main protocol falls back to one speed
    with pytest.raises(AssertionError, match="refused the contract's 'velocity_steps' protocol without a declared"):
        check_model(_SilentBlock())


def test_refuses_names_known_features_with_reasons():
    with pytest.raises(ValueError, match="refuses must map features"):
        register_driver(_SilentBlock, "bad", _sliding_block, refuses={"velocity_steps": "not a feature name"})
    with pytest.raises(ValueError, match="refuses must map features"):
        register_driver(_SilentBlock, "bad", _sliding_block, refuses={"load_change": ""})


def test_contract_reports_the_order_when_the_step_is_too_coarse():
    law = LuGre(sigma0=1e5, sigma1=300.0, sigma2=0.4, fc=1.0, fs=1.5, vs=1e-3)
    with pytest.raises(AssertionError, match=r"halving dt = .* changes friction_force by .*observed order"):
        check_model(law, protocol=ConstantVelocity(v=1e-3, duration_s=0.05), rtol=1e-12, steps=50)


@njit(inline="always")
def _no_rates(z, v, fn, p, out):
    pass


@njit(inline="always")
def _biased_friction(z, v, fn, p):
    return p[0] * fn * np.tanh(v / 1e-4) + p[1] * fn


@dataclass(frozen=True)
class _Biased(AbstractLaw):
    """A static law with an offset: not odd, though it (wrongly) inherits ``odd = True``."""

    mu: float = param(0.3, units="1", lo=0.0)
    bias: float = param(0.05, units="1")
    name: ClassVar[str] = "biased_test_law"
    kernel_params: ClassVar[tuple[str, ...]] = ("mu", "bias")
    _rates_kernel = _no_rates
    _friction_kernel = _biased_friction


def test_contract_catches_a_false_odd_declaration():
    with pytest.raises(AssertionError, match=r"declares odd = True but F\(-v\) != -F\(v\)"):
        check_model(_Biased())
    rep = check_model(_Biased(bias=0.0))
    assert rep.driver == "rk4" and rep.relative_change == 0.0


def test_contract_catches_missing_units_and_accepted_nan():
    with pytest.raises(AssertionError, match="mu = nan was accepted"):
        check_model(_NanTolerant())


@dataclass(frozen=True)
class _NanTolerant(_Biased):
    """Accepts any value for ``mu`` (a plain field without validation)."""

    mu: float = field(default=0.3, metadata={"kind": "number", "units": "1", "lo": -np.inf, "hi": np.inf,
                                             "lo_open": False, "hi_open": False, "integer": False})
    bias: float = param(0.0, units="1")

    def __post_init__(self) -> None:  # skips validation: the contract must notice
        pass
