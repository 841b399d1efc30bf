"""The model contract (:func:`frictionlab.testing.check_model`) over every registered model and preset."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import ClassVar

import numpy as np
import pytest
from numba import njit

from frictionlab.core.base import AbstractLaw
from frictionlab.core.params import param
from frictionlab.core.registry import get_model_class, make_model, model_names, presets_of
from frictionlab.laws import LuGre
from frictionlab.protocols import ConstantVelocity
from frictionlab.solve import drivers_for
from frictionlab.testing import check_model

#: presets whose run takes longer than the fast suite allows
SLOW: set[tuple[str, str]] = set()
#: contact families: the contract runs on every preset in the family's own driver test, at a patch
#: size / run length the fast suite allows (the default 512^2 rough patch takes minutes per preset)
FAMILY_TESTS = {"rough_contact": "tests/unit/test_rough_driver.py::test_check_model_every_preset",
                "microjunction": "tests/unit/test_microjunction_driver.py::test_check_model_every_preset",
                "beam_network": "tests/unit/test_beam_network_driver.py::test_check_model_every_preset"}


def _cases():
    for name in model_names():
        cls = get_model_class(name)
        marks = []
        if not drivers_for(cls):
            marks.append(pytest.mark.skip(reason=f"{name}: no driver registered yet (drivers_for is empty); "
                                                 "the skip disappears when its family registers one"))
        if name in FAMILY_TESTS:
            marks.append(pytest.mark.skip(reason=f"{name}: contract checked at test size in {FAMILY_TESTS[name]}"))
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
