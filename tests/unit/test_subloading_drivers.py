"""The subloading drivers of ``simulate``: defaults per system/protocol, same numbers as the loops."""

from __future__ import annotations

import numpy as np
import pytest

import frictionlab as fl
from frictionlab.core.errors import ConfigError
from frictionlab.core.registry import make_model
from frictionlab.laws.subloading_drivers import SubloadingOscillator, run_pulsating, run_rate_reference
from frictionlab.protocols import ConstantVelocity, NormalLoadProgramme, PulsatingThreshold, VelocitySteps
from frictionlab.solve import default_driver
from frictionlab.systems import MassSystem, PrescribedSlip

FN = 3e5
SL = make_model("subloading", "common")


def test_default_driver_follows_system_and_protocol():
    cv = ConstantVelocity(v=1e-5, normal_force_value=FN)
    assert default_driver(SL, PrescribedSlip(), cv).name == "prescribed"
    assert default_driver(SL, MassSystem(mass=3000.0, stiffness=4e4), cv).name == "oscillator"
    assert default_driver(SL, PrescribedSlip(), PulsatingThreshold()).name == "pulsating"
    assert default_driver(make_model("subloading_rate", "common")).name == "rk4"


def test_prescribed_is_the_fast_path_and_agrees_with_the_stepping_loop():
    p = VelocitySteps(velocities=(1e-5, 1e-4), durations=(0.5, 0.5), normal_force_value=FN)
    fast = fl.simulate(SL, p, dt=1e-3)
    slow = fl.simulate(SL, p, dt=1e-3, integrator="step")
    assert fast.attrs["integrator"] == "return_map"
    np.testing.assert_allclose(fast.time, slow.time, rtol=0, atol=1e-12)
    np.testing.assert_allclose(fast.friction_force, slow.friction_force, rtol=1e-9, atol=1e-6)
    np.testing.assert_allclose(fast.slip, slow.slip, rtol=1e-9, atol=1e-15)
    for v, u in (("slip", "m"), ("slip_velocity", "m/s"), ("normal_force", "Pa"), ("friction_force", "Pa"),
                 ("friction_coefficient", "1"), ("area_state", "1"), ("plastic_slip", "m")):
        assert fast[v].attrs["units"] == u


def test_prescribed_t_end_and_save_dt_are_used():
    p = ConstantVelocity(v=1e-5, duration_s=2.0, normal_force_value=FN)
    ds = fl.simulate(SL, p, dt=1e-3, t_end=0.5, save_dt=0.1)
    np.testing.assert_allclose(ds.time, np.arange(6) * 0.1, atol=1e-12)
    assert float(ds.slip[-1]) == pytest.approx(0.5e-5, rel=1e-12)


def test_oscillator_driver_is_the_eq39_system_fed_by_the_protocol():
    p = ConstantVelocity(v=1e-5, duration_s=2.0, normal_force_value=FN)
    ds = fl.simulate(SL, p, system=MassSystem(mass=3000.0, stiffness=4e4), dt=1e-2, save_dt=0.1, area=2e-4)
    ref = SubloadingOscillator(mass=3000.0, stiffness=4e4, drive_velocity=1e-5, area=2e-4,
                               normal_stress=FN).simulate(SL, 2.0, 1e-2, save_dt=0.1)
    np.testing.assert_array_equal(ds.friction_force.values, ref.friction_force.values)
    np.testing.assert_allclose(ds.friction_coefficient, ref.friction_force / ref.normal_force)
    assert ds.friction_force.attrs["units"] == "N"


def test_oscillator_refuses_what_it_does_not_model():
    cv = ConstantVelocity(v=1e-5, normal_force_value=FN)
    with pytest.raises(ConfigError, match="does not model system damping = 10.0"):
        fl.simulate(SL, cv, system=MassSystem(mass=3000.0, stiffness=4e4, damping=10.0))
    with pytest.raises(ConfigError, match="needs a constant drive velocity and normal stress .* 2 segment"):
        fl.simulate(SL, VelocitySteps(velocities=(1e-5, 2e-5), durations=(1.0, 1.0), normal_force_value=FN),
                    system=MassSystem(mass=3000.0, stiffness=4e4))
    with pytest.raises(ConfigError, match="driver 'oscillator' has no option 'rtol'"):
        fl.simulate(SL, cv, system=MassSystem(mass=3000.0, stiffness=4e4), rtol=1e-6)


def test_pulsating_driver_matches_run_pulsating():
    pr = PulsatingThreshold(v=1e-4, upper=0.7e5, lower=0.0, cycles=3, max_duration=1.0, normal_force_value=FN)
    ds = fl.simulate(SL, pr, du=1e-9)
    ref, cyc, gross = run_pulsating(SL, pr, du=1e-9)
    np.testing.assert_array_equal(ds.friction_force.values, ref.friction_force.values)
    np.testing.assert_array_equal(ds.cycle_plastic_slip.values, cyc[:, 0])
    assert ds.attrs["gross_sliding_cycle"] == gross
    assert {"slip_velocity", "normal_force", "friction_coefficient"} <= set(ds.data_vars)


def test_rate_reference_driver_completes_the_standard_variables():
    m = make_model("subloading_rate", "common")
    p = NormalLoadProgramme(times=(0.0, 1.0, 2.0), loads=(FN, 2 * FN, 2 * FN), v=1e-5)
    ds = fl.simulate(m, p, integrator="rate_reference", du=1e-8)
    ref = run_rate_reference(m, p, du=1e-8)
    np.testing.assert_array_equal(ds.friction_force.values, ref.friction_force.values)
    np.testing.assert_allclose(ds.normal_force, p.normal_force(ds.time.values))
    assert ds.normal_force.attrs["units"] == "Pa"
    with pytest.raises(ConfigError, match="t_end = 1 s is not supported"):
        fl.simulate(m, p, integrator="rate_reference", t_end=1.0)
    with pytest.raises(ConfigError, match="give dt or du, not both"):
        fl.simulate(m, p, integrator="rate_reference", du=1e-8, dt=1e-3)


def test_family_drivers_are_found_without_importing_the_driver_module():
    import subprocess
    import sys

    code = ("from frictionlab.laws.subloading import Subloading, P_COMMON\n"
            "from frictionlab.solve import default_driver\n"
            "print(default_driver(Subloading(**P_COMMON)).name)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == "prescribed"


def test_return_map_converges_from_a_trial_far_outside_the_surface():
    """A slip increment 200 times the elastic range (f_n = 1 Pa: S_r tau0 / alpha_t = 1e-11 m) puts the
    trial stress at R ~ 10, beyond the clip of U at R = 1.999; the plastic solve still converges
    (it crawled at 1e-3 of the bracket per Newton step with the unclipped slope and gave up)."""
    from frictionlab.laws.subloading import return_map, shear_strength

    m = make_model("subloading")
    p = m.param_vector()
    ft, q = float(m.initial_state()[0]), float(m.initial_state()[1])
    v, dt, fn = 1e-5, 2e-4, 1.0
    for _ in range(5):
        ft, q, g = return_map(ft, q, fn, v * dt, dt, fn, shear_strength(v, p), p)
        assert g >= 0.0 and np.isfinite(ft)
        surface = (q + m.pressure_factor(fn)) * m.tau0  # literal variant: S_r = q + P
        assert 0.0 < ft <= 1.999 * surface  # on the surface after the return, never beyond the clip


def _interp_friction(ds, t):
    return np.interp(t, ds.time.values, ds.friction_force.values)


def test_defaults_run_a_plain_protocol_at_a_low_normal_stress_and_are_converged():
    """The issue-31 call: 1 Pa normal stress (force_units are Pa), 2 s at 10 um/s, default step."""
    m = make_model("subloading")
    prot = ConstantVelocity(v=1e-5, duration_s=2.0, normal_force_value=1.0)
    ds = fl.simulate(m, prot)
    assert default_driver(m, None, prot).name == "prescribed" and np.all(np.isfinite(ds.friction_force.values))
    half = fl.simulate(m, prot, dt=0.5 * float(ds.attrs["dt"]))
    f = ds.friction_force.values
    err = np.max(np.abs(f - _interp_friction(half, ds.time.values))) / np.max(np.abs(f))
    assert err < 2e-3


def test_default_step_follows_the_slip_scale_and_is_converged_at_high_speed():
    """1 mm/s over 10 s: the former default (duration / 1e4, 1 um of slip per step = 1/r) changed
    friction_force by 5 % on halving; the default now takes slip_scale / 100 per step."""
    from frictionlab.laws.subloading_drivers import default_step

    m = make_model("subloading")
    prot = ConstantVelocity(v=1e-3, duration_s=10.0, normal_force_value=3e5)
    assert m.slip_scale() == pytest.approx(1e-6)
    assert default_step(m, prot) == pytest.approx(1e-8 / 1e-3)
    ds = fl.simulate(m, prot)
    assert float(ds.attrs["dt"]) == pytest.approx(1e-5)
    half = fl.simulate(m, prot, dt=5e-6)
    f = ds.friction_force.values
    assert np.max(np.abs(f - _interp_friction(half, ds.time.values))) / np.max(np.abs(f)) < 2e-3
    with pytest.raises(ConfigError, match="give dt or du_max"):
        fl.simulate(m, ConstantVelocity(v=1.0, duration_s=1000.0, normal_force_value=3e5))
