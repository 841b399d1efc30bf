"""Closed-loop servo (frictionlab.control): parameters refused, passivity condition, loop physics."""

import math

import numpy as np
import pytest
from scipy.linalg import expm

from frictionlab import simulate
from frictionlab.control import ServoSystem, lugre_observer_condition, run_servo
from frictionlab.control.passivity import re_g
from frictionlab.core.errors import ConfigError, ParameterError
from frictionlab.core.registry import make_model
from frictionlab.laws import Coulomb, LuGre
from frictionlab.laws.kloss import Kloss
from frictionlab.protocols import ConstantVelocity
from frictionlab.protocols.reference import PositionRamp, PositionSinusoid, PositionSteps, reference_signals

LUGRE = LuGre(sigma0=1e5, sigma1=math.sqrt(1e5), sigma2=0.4, fc=1.0, fs=1.5, vs=1e-3)


# ------------------------------------------------------------------ refusals (no compilation)
def test_model_required_and_refused():
    with pytest.raises(ParameterError, match="required"):
        ServoSystem(compensation="observer")
    with pytest.raises(ParameterError, match="not used"):
        ServoSystem(compensation="none", model=LUGRE)
    with pytest.raises(ParameterError, match="rate law"):
        ServoSystem(compensation="feedforward", model="lugre")


def test_lugre_observer_gain_condition_refused_and_accepted():
    with pytest.raises(ParameterError, match="positive real"):
        ServoSystem(kp=3.0, ki=4.0, kv=6.0, compensation="observer", model=LUGRE)
    ServoSystem(kp=3.0, ki=4.0, kv=6.0, compensation="observer", model=LUGRE, check_passivity=False)
    ServoSystem(kp=2e4, ki=2e5, kv=400.0, compensation="observer", model=LUGRE)


@pytest.mark.parametrize("seed", range(4))
def test_gain_condition_matches_frequency_response(seed):
    """The closed-form condition holds exactly when Re G(j w) > 0 on a dense grid (w > 0)."""
    rng = np.random.default_rng(seed)
    w = np.logspace(-4, 6, 4000)
    agree = 0
    for _ in range(200):
        kp, ki, kv = 10 ** rng.uniform(0, 4), (10 ** rng.uniform(0, 5)) * (rng.random() < 0.8), 10 ** rng.uniform(1, 3)
        ok = not lugre_observer_condition(1e5, math.sqrt(1e5), 1.0, kp, ki, kv)
        den = np.roots([1.0, kv, kp, ki]) if ki > 0 else np.roots([1.0, kv, kp])
        num_ok = bool(np.all(re_g(w, 1e5, math.sqrt(1e5), 1.0, kp, ki, kv) > 0) and np.all(den.real < 0))
        agree += ok == num_ok
    assert agree == 200


def test_other_refusals():
    with pytest.raises(ParameterError, match="ekf_params"):
        ServoSystem(compensation="ekf", model=Kloss(), ekf_params=("f_mx",))
    with pytest.raises(ParameterError, match="only used"):
        ServoSystem(compensation="none", ekf_params=("f_max",))
    with pytest.raises(ParameterError, match="estimator_bandwidth"):
        ServoSystem(compensation="motion_dynamics", estimator_bandwidth=2000.0)
    with pytest.raises(ParameterError, match="contact_area"):
        run_servo(Coulomb(), ServoSystem(contact_area=1e-4), PositionRamp())
    with pytest.raises(ParameterError, match="divide"):
        run_servo(Coulomb(), ServoSystem(), PositionRamp(), dt=3e-4)
    with pytest.raises(ConfigError, match="cannot host system 'servo'.*drivers that do: servo"):
        simulate(Coulomb(), PositionRamp(), system=ServoSystem(), integrator="euler")
    with pytest.raises(ConfigError, match="driver 'servo' has no option 'rtol'"):
        simulate(Coulomb(), PositionRamp(), system=ServoSystem(), rtol=1e-6)


def test_reference_signals():
    t = np.linspace(0, 2, 2001)
    sin = PositionSinusoid(amplitude=1e-3, frequency=1.0, normal_force_value=2.0, normal_force_end=4.0)
    x, v, a, fn = reference_signals(sin, t)
    np.testing.assert_allclose(np.gradient(x, t)[5:-5], v[5:-5], atol=1e-4 * v.max())
    assert fn[0] == 2.0 and fn[-1] == 4.0 and abs(fn[1000] - 3.0) < 1e-12
    np.testing.assert_allclose(sin.reversal_times(), [0.25, 0.75, 1.25, 1.75])
    x, v, _, _ = reference_signals(ConstantVelocity(v=2e-3, duration_s=2.0), t)  # integrated velocity channel
    np.testing.assert_allclose(x, 2e-3 * t, atol=1e-15)
    steps = PositionSteps(positions=(1.0, -1.0), times=(0.5, 1.0), duration_s=2.0)
    assert list(steps.position(np.array([0.0, 0.5, 0.99, 1.0]))) == [0.0, 1.0, 1.0, -1.0]
    with pytest.raises(ParameterError):
        PositionSteps(positions=(1.0, 2.0), times=(1.0, 0.5))


# ------------------------------------------------------------------ loop physics (one plant law)
def _exact_pd(kp, kv, m, ts, n, step):
    """Sampled PD on a frictionless mass, exact ZOH discretisation: x_{k+1} = A x_k + B u_k."""
    A = expm(np.array([[0.0, 1.0], [0.0, 0.0]]) * ts)
    B = np.array([ts**2 / (2 * m), ts / m])
    s = np.zeros(2)
    out = []
    for _ in range(n):
        out.append(s[0])
        u = -(kp * (s[0] - step) + kv * s[1])
        s = A @ s + B * u
    return np.array(out)


def test_frictionless_pd_matches_exact_zoh_discretisation():
    servo = ServoSystem(mass=2.0, kp=400.0, kv=30.0, sample_period=2e-3)
    ds = run_servo(Coulomb(mu=0.0), servo, PositionSteps(positions=(0.01,), times=(0.0,), duration_s=1.0), dt=2e-4)
    ref = _exact_pd(400.0, 30.0, 2.0, 2e-3, ds.time.size, 0.01)
    np.testing.assert_allclose(ds.position.values, ref, rtol=0, atol=1e-12)
    assert abs(ds.position.values[-1] - 0.01) < 1e-4  # it does converge


def test_saturation_quantisation_and_simulate_hook():
    law = Coulomb(mu=1.0, v_reg=1e-5)
    servo = ServoSystem(kp=1e4, kv=200.0, force_limit=5.0, position_resolution=1e-6, velocity_source="difference")
    ref = PositionSteps(positions=(0.05,), times=(0.0,), duration_s=1.0)
    ds = run_servo(law, servo, ref, dt=1e-4)
    u = ds.control_force.values
    assert np.max(np.abs(u)) == pytest.approx(5.0)
    xm = ds.measured_position.values
    np.testing.assert_allclose(xm / 1e-6, np.round(xm / 1e-6), atol=1e-6)
    ds2 = simulate(law, ref, system=servo, dt=1e-4)
    np.testing.assert_array_equal(ds.position.values, ds2.position.values)
    assert ds2.attrs["system"] == "servo"
    for name in ("time", "position", "slip_velocity", "reference_position", "control_force", "friction_force",
                 "friction_estimate", "tracking_error"):
        assert name in ds2.variables and ds2[name].attrs["units"]


def test_motion_dynamics_estimate_converges_to_friction():
    """The Kloss-paper estimate F_hat = filter(u - m dv/dt) settles on the plant friction during a ramp."""
    law = Coulomb(mu=1.0, v_reg=1e-5)
    servo = ServoSystem(kp=1e4, kv=200.0, compensation="motion_dynamics", estimator_bandwidth=200.0,
                        apply_compensation=False)
    ds = run_servo(law, servo, PositionRamp(v=1e-2, duration_s=1.0), dt=1e-4)
    late = ds.time.values > 0.5
    err = np.abs(ds.friction_estimate_error.values[late])
    assert err.max() < 1e-3  # N, against a friction of 1 N
    assert abs(ds.friction_force.values[-1] - 1.0) < 1e-3


@pytest.mark.slow(reason="compiles the EKF loop for a LuGre plant and model (~20-60 s)")
def test_ekf_estimates_lugre_state_and_coulomb_level():
    """EKF on [x, v, z, fc] from a 40 % wrong Coulomb level: fc and the bristle state converge."""
    guess = LUGRE.replace(fc=0.6)
    servo = ServoSystem(kp=2e4, ki=2e5, kv=400.0, compensation="ekf", model=guess, ekf_params=("fc",),
                        ekf_position_noise=1e-8, ekf_velocity_noise=1e-6, ekf_force_noise=0.01,
                        ekf_param_drift=0.01, ekf_param_std=0.5, estimator_substeps=20)
    ds = run_servo(LUGRE, servo, PositionSinusoid(amplitude=1e-3, frequency=1.0, duration_s=4.0), dt=1e-5)
    late = ds.time.values > 2.0
    fc = ds.estimated_fc.values[late]
    assert np.max(np.abs(fc / LUGRE.fc - 1.0)) < 0.05
    z_err = np.abs(ds.estimated_bristle_deflection.values[late] - ds.bristle_deflection.values[late])
    assert np.max(z_err) < 0.05 * LUGRE.fs / LUGRE.sigma0
    assert np.sqrt(np.mean(ds.friction_estimate_error.values[late] ** 2)) < 0.05


def test_servo_is_a_registered_system_and_driver():
    """``[system] type = "servo"`` with a model table runs through simulate's driver lookup, no special case."""
    from frictionlab.solve.config import dump_toml, run_config
    from frictionlab.solve.drivers import default_driver, drivers_for
    from frictionlab.systems import make_system, system_names

    assert "servo" in system_names()
    cfg = {"model": {"name": "lugre", "preset": "canudas1995"},
           "protocol": {"type": "position_steps", "positions": [0.01], "times": [0.0], "duration_s": 0.2},
           "system": {"type": "servo", "kp": 1000.0, "kv": 400.0, "compensation": "observer",
                      "model": {"name": "lugre", "preset": "canudas1995"}, "observer_gain": 0.01},
           "integrator": {"dt": 1e-4}}
    servo = make_system(cfg["system"])
    assert isinstance(servo, ServoSystem) and isinstance(servo.model, LuGre)
    law = LuGre(**make_model("lugre", "canudas1995").to_dict())
    assert default_driver(law, servo).name == "servo" and "servo" in drivers_for(law)
    ds = run_config(cfg, strict=True)
    direct = run_servo(law, servo, PositionSteps(positions=(0.01,), times=(0.0,), duration_s=0.2), dt=1e-4)
    np.testing.assert_array_equal(ds.position.values, direct.position.values)
    np.testing.assert_array_equal(ds.friction_estimate.values, direct.friction_estimate.values)
    # the system dumps to TOML and re-runs to the same result
    import tomllib

    again = run_config(tomllib.loads(dump_toml({**cfg, "system": servo.to_config()})), strict=True)
    np.testing.assert_array_equal(again.position.values, ds.position.values)
    with pytest.raises(ParameterError, match="needs a 'name'"):
        make_system({"type": "servo", "compensation": "observer", "model": {"sigma0": 1e5}})
