"""The driver contract (solve/contract.py) and the discovery of every registered model's drivers."""

from __future__ import annotations

import re
from pathlib import Path

import numpy as np
import pytest

import frictionlab
from frictionlab.core.errors import ConfigError
from frictionlab.core.registry import driver_modules, get_model_class, make_model, model_names
from frictionlab.protocols import ConstantVelocity, VelocitySteps
from frictionlab.solve import default_driver, drivers_for, simulate
from frictionlab.solve.contract import SAVING, T_END, pick_rows, protocol_slip

_SOLVE = Path(frictionlab.__file__).parent / "solve"


@pytest.mark.parametrize("name", model_names())
def test_every_registered_model_has_its_drivers_discoverable(name):
    """drivers_for is not empty, the default resolves, and every driver's module is one that a package
    declared for the class it registers on (core.registry.declare_drivers): the lookup imports it, not
    whoever imported it first."""
    cls = get_model_class(name)
    table = drivers_for(cls)
    assert table, f"{name}: no driver"
    assert default_driver(cls).name in table
    for drv in table.values():
        declared = driver_modules(drv.model_cls)
        assert drv.func.__module__ in declared, (f"{name}: driver {drv.name!r} is registered by "
                                                 f"{drv.func.__module__}, not declared for {drv.model_cls.__name__} "
                                                 f"(declared: {declared})")
        assert drv.t_end in T_END and drv.saving in SAVING


def _fresh_lookup(fresh_json, name: str) -> dict:
    """In a fresh process that imports only the model's own module: the names the MRO lookup finds
    and whether it needed the full discovery of every package."""
    cls = get_model_class(name)
    code = (f"import importlib, json, sys\nmod = importlib.import_module({cls.__module__!r})\n"
            f"cls = getattr(mod, {cls.__name__!r})\nfrom frictionlab.core import registry\n"
            "from frictionlab.solve.drivers import default_driver, driver_for, _lookup\n"
            "d = default_driver(cls).name\nnames = sorted(_lookup(cls))\n"
            "for n in names:\n    driver_for(cls, n)\n"
            "out = {'default': d, 'names': names, 'discovered': registry._DISCOVERED,\n"
            "       'families': sorted({m.split('.')[2] for m in sys.modules if m.startswith(('frictionlab.contact.', "
            "'frictionlab.laws.'))})}\nprint(json.dumps(out))")
    return fresh_json(code)


@pytest.mark.parametrize("name", model_names())
def test_a_fresh_process_finds_a_models_drivers_from_its_module_alone(fresh_json, name):
    """Importing the model's module is enough: the lookup imports the declared driver modules of its MRO
    (no full discovery, no other family), and finds every driver the full listing has except those a
    package registers on a shared base class (the servo, found once its package is imported)."""
    got = _fresh_lookup(fresh_json, name)
    table = drivers_for(get_model_class(name))
    assert got["default"] == default_driver(get_model_class(name)).name
    assert set(got["names"]) == set(table) - {"servo"}
    assert not got["discovered"]


def test_fresh_lookup_of_a_rate_state_law_imports_no_other_family(fresh_json):
    got = _fresh_lookup(fresh_json, "rate_state")
    assert got["default"] == "quasi_static" and {"quasi_static", "rk4", "radau"} <= set(got["names"])
    assert not got["discovered"]
    # its own modules only (the driver module serves rate_state and rate_state2): no other law, no contact model
    assert got["families"] and all(f.startswith("rate_state") for f in got["families"]), got["families"]


def test_solve_names_no_module_of_laws_or_contact():
    """Drivers register from their package: no table in solve/ names a module of laws/ or contact/."""
    for path in _SOLVE.rglob("*.py"):
        text = path.read_text()
        assert not re.search(r"[\"']frictionlab\.(laws|contact)\.", text), f"{path.name} names a family module"


def test_a_driver_that_returns_only_its_friction_gets_the_standard_variables():
    """The contract fills slip_velocity, slip, normal_force and friction_coefficient from the protocol and
    the run's attributes for a driver that returns its friction alone (test_solve_drivers' toy driver)."""
    from frictionlab.solve import register_driver
    from frictionlab.solve.drivers import _DRIVERS
    from frictionlab.laws import Coulomb
    from frictionlab.core.result import make_dataset

    class _Half(Coulomb):
        pass

    def advance(run):
        t = np.linspace(0.0, run.t_end, 5)
        return make_dataset(t, {"friction_force": 0.5 * run.protocol.normal_force(t)})

    register_driver(_Half, "half", advance, default=True)
    try:
        prot = VelocitySteps(velocities=(1e-3, 2e-3), durations=(1.0, 1.0), normal_force_value=4.0)
        ds = simulate(_Half(), prot)
    finally:
        _DRIVERS.pop(_Half, None)
    assert ds.slip_velocity.values.tolist() == [1e-3, 1e-3, 2e-3, 2e-3, 2e-3]  # right-continuous at the step
    np.testing.assert_allclose(ds.slip.values, [0.0, 5e-4, 1e-3, 2e-3, 3e-3], rtol=1e-15, atol=0)
    assert ds.normal_force.values.tolist() == [4.0] * 5 and ds.friction_coefficient.values.tolist() == [0.5] * 5
    assert ds.slip.attrs["units"] == "m" and ds.normal_force.attrs["units"] == "N"
    assert ds.attrs["driver"] == "half" and ds.attrs["integrator"] == "half" and ds.attrs["model"] == "coulomb"
    assert ds.attrs["protocol"] == "velocity_steps" and ds.attrs["protocol.normal_force_value"] == 4.0
    assert ds.attrs["system"] == "prescribed_slip" and ds.attrs["mu"] == 0.5


def test_subloading_prescribed_refuses_an_end_beyond_the_protocol():
    """t_end beyond the protocol was cut to its duration without a word (an ignored setting); the
    contract's ``within`` refuses it. Fails on the old code (no error, a 1 s run)."""
    m = make_model("subloading")
    prot = ConstantVelocity(v=1e-5, duration_s=1.0, normal_force_value=3e5)
    with pytest.raises(ConfigError, match=r"t_end = 2 s is beyond the protocol duration 1 s"):
        simulate(m, prot, t_end=2.0, dt=1e-3)
    ds = simulate(m, prot, t_end=0.5, dt=1e-3)
    assert float(ds.time[-1]) == pytest.approx(0.5)


def test_whole_protocol_drivers_refuse_another_end_in_one_line():
    m = make_model("microjunction")
    prot = ConstantVelocity(v=1e-6, duration_s=2.0, normal_force_value=1e-3)
    with pytest.raises(ConfigError, match=r"driver 'junction' of microjunction runs the whole protocol \(2 s\); "
                                          r"t_end = 1 s is not supported"):
        simulate(m, prot, t_end=1.0)


def test_a_refused_save_dt_names_the_reason():
    m = make_model("subloading_rate")
    prot = ConstantVelocity(v=1e-5, duration_s=1.0, normal_force_value=3e5)
    with pytest.raises(ConfigError, match=r"driver 'rate_reference' of subloading_rate: save_dt is not supported "
                                          r"\(it saves at most max_points rows"):
        simulate(m, prot, integrator="rate_reference", save_dt=0.1)


def test_pick_rows_keeps_the_first_step_at_or_after_each_multiple_and_the_last():
    t = np.array([0.0, 0.3, 0.9, 1.0, 1.4, 2.05, 2.5])
    assert pick_rows(t, 1.0).tolist() == [0, 3, 5, 6]
    assert pick_rows(t, 10.0).tolist() == [0, 6]
    with pytest.raises(ConfigError, match="save_dt"):
        pick_rows(t, float("nan"))


def test_protocol_slip_integrates_pieces_exactly():
    prot = VelocitySteps(velocities=(1.0, 3.0), durations=(1.0, 2.0))
    assert protocol_slip(prot, np.array([0.0, 0.5, 1.0, 2.0, 3.0, 4.0])).tolist() == [0.0, 0.5, 1.0, 4.0, 7.0, 7.0]


def test_outside_prescribed_slip_the_slip_is_the_systems_own():
    """Under a servo the slip is the plant's position (fixed base), not the integral of the reference:
    the contract fills the slip from the protocol only under prescribed slip. The servo result carries
    the standard variables, its friction coefficient filled by the contract."""
    from frictionlab.control import ServoSystem
    from frictionlab.laws import Coulomb
    from frictionlab.protocols.reference import PositionSinusoid

    ref = PositionSinusoid(amplitude=1e-3, frequency=1.0, duration_s=0.5, normal_force_value=2.0)
    ds = simulate(Coulomb(), ref, system=ServoSystem(), integrator="servo")
    np.testing.assert_array_equal(ds.slip.values, ds.position.values)
    assert ds.slip.attrs["units"] == "m" and ds.attrs["driver"] == "servo" and ds.attrs["mu"] == Coulomb().mu
    np.testing.assert_array_equal(ds.friction_coefficient.values, ds.friction_force.values / 2.0)
