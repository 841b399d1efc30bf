"""The C-callable step of every rate law, called through ctypes, matches ``simulate`` (rk4)."""

import ctypes

import numpy as np
import pytest

from frictionlab import simulate
from frictionlab.control.cstep import CStep, c_step
from frictionlab.core.errors import ConfigError
from frictionlab.core.registry import make_model
from frictionlab.laws.kloss import Kloss, KlossDynamic
from frictionlab.protocols import ConstantVelocity

# (law, slip velocity [m/s], normal load, dt [s], steps): each run leaves the initial state far behind
CASES = {
    "coulomb": (lambda: make_model("coulomb", mu=0.5, v_reg=1e-4), 5e-5, 2.0, 1e-4, 50),
    "stribeck": (lambda: make_model("stribeck", "canudas1995-regularised"), 5e-4, 1.0, 1e-4, 50),
    "dahl": (lambda: make_model("dahl", sigma0=1e5, fc=1.0, alpha=1.5), 1e-3, 1.0, 1e-5, 400),
    "lugre": (lambda: make_model("lugre", "canudas1995"), 2e-3, 1.0, 1e-5, 400),
    "gms": (lambda: make_model("gms", "four-element"), 1e-3, 1.0, 1e-5, 400),
    "rate_state": (lambda: make_model("rate_state", "granite-typical", v_init=1e-6), 1e-4, 5.0, 1e-3, 400),
    "kloss": (lambda: Kloss(f_max=1.5, v_max0=1e-3, zeta=0.5, normal_scaling=True), 2e-3, 3.0, 1e-4, 20),
    "kloss_dynamic": (lambda: KlossDynamic(f_max=1.5, v_max0=1e-3, zeta=0.5, t_f=2e-3), 2e-3, 1.0, 1e-4, 300),
    "subloading_rate": (lambda: make_model("subloading_rate", "common"), 1e-4, 3e5, 1e-5, 400),
}


def _ptr(a):
    return a.ctypes.data_as(ctypes.POINTER(ctypes.c_double))


_SLOW = pytest.mark.slow(reason="compiles simulate's RK4 loop and the C step of one more law (~10-30 s each); "
                               "lugre and kloss_dynamic run in the fast suite")


@pytest.mark.parametrize("name", [pytest.param(n, marks=() if n in ("lugre", "kloss_dynamic") else _SLOW)
                                  for n in sorted(CASES)])
def test_c_step_matches_simulate(name):
    make, v, fn, dt, n = CASES[name]
    law = make()
    ds = simulate(law, ConstantVelocity(v=v, duration_s=n * dt, normal_force_value=fn), integrator="rk4", dt=dt,
                  save_dt=dt)
    step = c_step(law)
    proto = CStep.ctypes_prototype()
    fn_c = proto(step.address)
    z = np.ascontiguousarray(law.initial_state(), dtype=np.float64)
    p = np.ascontiguousarray(law.param_vector())
    work = np.zeros(5 * max(z.size, 1))
    force = np.zeros(1)
    forces = []
    states = []
    for _ in range(n):
        rc = fn_c(_ptr(z), z.size, v, fn, dt, _ptr(p), p.size, _ptr(work), _ptr(force))
        assert rc == 0
        forces.append(force[0])
        states.append(z.copy())
    f_sim = ds.friction_force.values[1:]
    assert f_sim.size == n
    scale = max(np.max(np.abs(f_sim)), 1e-300)
    np.testing.assert_allclose(np.array(forces), f_sim, rtol=0, atol=1e-12 * scale)
    for j, s in enumerate(law.state_names):
        ref = ds[s].values[1:]
        np.testing.assert_allclose(np.array(states)[:, j], ref, rtol=0, atol=1e-12 * max(np.max(np.abs(ref)), 1e-300))
    # the run is not trivial: the force changed by more than 1 % of its range
    if law.state_names:
        assert np.ptp(f_sim) > 0.01 * scale


def test_c_step_reports_non_finite_state():
    law = make_model("lugre", "canudas1995")
    step = c_step(law)
    z = np.array([np.nan])
    p = law.param_vector()
    out = np.zeros(1)
    rc = step.ctypes(_ptr(z), 1, 1e-3, 1.0, 1e-5, _ptr(p), p.size, _ptr(np.zeros(5)), _ptr(out))
    assert rc == 1


def test_c_step_refuses_stepped_models():
    with pytest.raises(ConfigError):
        c_step(make_model("subloading", "common"))
