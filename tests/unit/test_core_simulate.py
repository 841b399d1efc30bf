import numpy as np
import pytest

import frictionlab as fl
from frictionlab.core.errors import ConfigError, IntegrationError, ParameterError
from frictionlab.laws import Coulomb, LuGre, RateState
from frictionlab.protocols import ConstantVelocity, ForceRamp, VelocitySteps
from frictionlab.reference.lugre import steady_friction
from frictionlab.systems import MassSystem, incline, spring_mass, spring_slider


def test_prescribed_slip_lugre_reaches_closed_form_steady_state():
    m = LuGre()
    ds = fl.simulate(m, ConstantVelocity(v=2e-3, duration_s=0.5), dt=1e-5)
    exp = steady_friction(2e-3, m.fc, m.fs, m.vs, m.sigma2)
    assert float(ds.friction_force[-1]) == pytest.approx(float(exp), rel=1e-6)
    assert float(ds.slip[-1]) == pytest.approx(2e-3 * 0.5, rel=1e-9)
    for name in ("slip", "slip_velocity", "normal_force", "friction_force", "friction_coefficient", "bristle_deflection"):
        assert "units" in ds[name].attrs
    assert ds.attrs["sigma0"] == m.sigma0 and ds.attrs["model"] == "lugre"


@pytest.mark.parametrize("method", ["euler", "rk4", "radau", "lsoda"])
def test_integrators_agree_on_rsf_velocity_step(method):
    r = RateState(v_init=1e-6)
    p = VelocitySteps(velocities=(1e-6, 1e-5), distances=(2e-5, 1e-4))
    dt = 1e-3 if method == "euler" else 1e-2
    ds = fl.simulate(r, p, integrator=method, dt=dt, save_dt=1.0)
    ref = fl.simulate(r, p, integrator="rk4", dt=1e-3, save_dt=1.0)
    np.testing.assert_allclose(ds.friction_coefficient.values, ref.friction_coefficient.values, atol=2e-5)


def test_spring_slider_newmark_matches_rk4():
    m = LuGre()
    sys = spring_slider(mass=1.0, stiffness=2e3, damping=10.0)
    p = ConstantVelocity(v=1e-2, duration_s=0.5)
    a = fl.simulate(m, p, system=sys, integrator="rk4", dt=2e-6, save_dt=1e-3)
    b = fl.simulate(m, p, system=sys, integrator="newmark", dt=2e-5, save_dt=1e-3)
    np.testing.assert_allclose(b.spring_force.values, a.spring_force.values, atol=5e-3 * float(abs(a.spring_force).max()))


def test_incline_block_stops_with_static_friction_equal_to_gravity_component():
    # Coulomb regularised: a block sliding down a 5 deg slope with mu = 0.3 decelerates and stops
    m = Coulomb(mu=0.3, v_reg=1e-4)
    sys = incline(mass=2.0, angle_deg=5.0, v0=0.5)
    ds = fl.simulate(m, ConstantVelocity(v=0.0, duration_s=1.0), system=sys, integrator="rk4", dt=1e-5)
    assert abs(float(ds.slip_velocity[-1])) < 1e-3
    assert float(ds.friction_force[-1]) == pytest.approx(2.0 * 9.81 * np.sin(np.radians(5.0)), rel=2e-2)
    assert float(ds.normal_force[0]) == pytest.approx(2.0 * 9.81 * np.cos(np.radians(5.0)))


def test_force_ramp_breaks_away_at_static_level():
    m = Coulomb(mu=0.5, v_reg=1e-5)
    ds = fl.simulate(m, ForceRamp(rate=1.0, duration_s=1.0, normal_force_value=1.0),
                     system=MassSystem(mass=0.1), dt=1e-6, save_dt=1e-3)
    t = ds.time.values
    before = t < 0.49
    assert np.abs(ds.slip_velocity.values[before]).max() < 1e-4  # sticks below the static level
    np.testing.assert_allclose(ds.friction_force.values[before][10:], ds.applied_force.values[before][10:], rtol=1e-2)
    moving = t[np.abs(ds.slip_velocity.values) > 1e-3]
    assert 0.5 < moving[0] < 0.53  # breaks away just after F = mu N = 0.5 N


def test_spring_mass_energy_conserved_without_friction():
    m = Coulomb(mu=0.0)
    ds = fl.simulate(m, ConstantVelocity(v=0.0, duration_s=2.0), system=spring_mass(1.0, 100.0, x0=-0.2),
                     integrator="rk4", dt=1e-4)
    e = 0.5 * ds.slip_velocity.values ** 2 + 0.5 * 100.0 * ds.slip.values ** 2
    assert np.ptp(e) < 1e-8 * e[0]


def test_nan_blowup_is_reported_with_step_and_advice():
    m = LuGre(sigma0=1e8, sigma1=1e4)
    with pytest.raises(IntegrationError, match=r"step \d+ .*reduce dt"):
        fl.simulate(m, ConstantVelocity(v=1e-2, duration_s=0.1), integrator="euler", dt=1e-3)


def test_bad_integration_settings():
    with pytest.raises(ParameterError, match="dt"):
        fl.simulate(LuGre(), ConstantVelocity(), dt=0.0)
    with pytest.raises(ConfigError, match="did you mean .*'rk4'"):
        fl.simulate(LuGre(), ConstantVelocity(), integrator="rk5")
    with pytest.raises(ConfigError, match="newmark.*cannot host system 'prescribed_slip'"):
        fl.simulate(LuGre(), ConstantVelocity(), integrator="newmark")
    with pytest.raises(ParameterError, match="mass"):
        MassSystem(mass=0.0)
    with pytest.raises(ParameterError, match="stiffness"):
        MassSystem(stiffness=-1.0)
