"""``to_control``: a law as a python-control nlsys gives ``simulate``'s run of the same input."""

import numpy as np
import pytest

from frictionlab import simulate
from frictionlab.control import to_control
from frictionlab.core.errors import ConfigError, ParameterError
from frictionlab.core.registry import make_model
from frictionlab.protocols.recorded import RecordedInput

ct = pytest.importorskip("control", reason="python-control (pip install 'frictionlab[control]')")

TIGHT = dict(rtol=1e-10, atol=1e-14)


def _both(model, T, V, FN, sys, params=None):
    """python-control's response and simulate's (LSODA both, same tolerance, same piecewise-linear input)."""
    U = V if len(sys.input_labels) == 1 else np.vstack([V, FN])
    run_model = model.replace(**params) if params else model
    r = ct.input_output_response(sys, T, U, X0=run_model.initial_state(), params=params or {},
                                 solve_ivp_method="LSODA", solve_ivp_kwargs=TIGHT)
    prot = RecordedInput(times=tuple(T), velocities=tuple(V), normal_forces=tuple(FN))
    ds = simulate(run_model, prot, integrator="lsoda", dt=1e-7, save_dt=float(T[1] - T[0]), **TIGHT)
    return r, ds


def _rel(a, b):
    return float(np.max(np.abs(a - b)) / np.max(np.abs(b)))


def test_lugre_round_trip_against_simulate():
    m = make_model("lugre", "canudas1995")
    T = np.linspace(0.0, 0.02, 201)
    V = 2e-3 * np.sin(2 * np.pi * 100 * T)
    sys = to_control(m, outputs=("friction_force", "bristle_deflection"))
    assert sys.input_labels == ["slip_velocity"] and sys.state_labels == ["bristle_deflection"]
    r, ds = _both(m, T, V, np.ones_like(T), sys)
    assert _rel(r.outputs[0], ds.friction_force.values) < 1e-6
    assert _rel(r.outputs[1], ds.bristle_deflection.values) < 1e-6
    assert np.ptp(ds.friction_force.values) > 1.0  # a presliding loop of over 1 N, not a constant


def test_normal_force_input_and_params_are_used():
    # rate-and-state: the normal load enters the friction force; a params override enters the rates
    m = make_model("rate_state", "granite-typical")
    T = np.linspace(0.0, 20.0, 201)
    V = 1e-6 * (1.0 + 9.0 * (T > 5.0))
    FN = 10.0 + 2.0 * np.sin(T)
    sys = to_control(m, ("slip_velocity", "normal_force"), outputs=("friction_force", "state_theta"))
    for params in (None, {"dc": 2e-5}):
        r, ds = _both(m, T, V, FN, sys, params)
        assert _rel(r.outputs[0], ds.friction_force.values) < 1e-6, params
        assert _rel(r.outputs[1], ds.state_theta.values) < 1e-6, params
    r_dc, _ = _both(m, T, V, FN, sys, {"dc": 2e-5})
    r_0, _ = _both(m, T, V, FN, sys)
    assert _rel(r_dc.outputs[1], r_0.outputs[1]) > 1e-2  # the override changed the run
    with pytest.raises(ParameterError):
        ct.input_output_response(sys, T[:3], np.vstack([V[:3], FN[:3]]), X0=m.initial_state(), params={"dc": -1.0})


def test_static_law_is_a_static_system():
    m = make_model("stribeck", "canudas1995")
    sys = to_control(m, normal_force=2.0)
    assert sys.nstates == 0
    v = np.array([-2e-3, -1e-4, 1e-4, 5e-4, 3e-3])
    y = [float(sys.output(0.0, [], [vi])[0]) for vi in v]
    assert y == pytest.approx(m.friction_curve(v, 2.0), rel=1e-14)


def test_bad_arguments_are_refused():
    m = make_model("lugre", "canudas1995")
    with pytest.raises(ConfigError, match="inputs"):
        to_control(m, ("normal_force",))
    with pytest.raises(ConfigError, match="is an input"):
        to_control(m, ("slip_velocity", "normal_force"), normal_force=3.0)
    with pytest.raises(ConfigError, match="not one of"):
        to_control(m, outputs=("slip",))
    with pytest.raises(ConfigError, match="not a rate law"):
        to_control(make_model("subloading", "common"))


def test_import_frictionlab_control_does_not_import_python_control():
    import os
    import subprocess
    import sys

    code = "import frictionlab.control, sys; print('control' in sys.modules)"
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, env=env)
    assert out.stdout.strip() == "False"
