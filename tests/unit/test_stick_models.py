"""Stick phases of a spring-slider: GMS without element ringing, static laws held by a stick model."""

import numpy as np
import pytest

from frictionlab import make_model, simulate
from frictionlab.analysis import stick_slip
from frictionlab.core.errors import DataError
from frictionlab.protocols import ConstantVelocity
from frictionlab.systems import spring_slider


def _slider(model, dt=1e-5, t_end=5.0, integrator="rk4", **options):
    protocol = ConstantVelocity(v=1e-3, duration_s=t_end, normal_force_value=1.0)
    return simulate(model, protocol, system=spring_slider(1.0, 2e3), integrator=integrator, dt=dt, save_dt=1e-3,
                    **options)


def test_gms_does_not_ring_after_a_slip():
    # before the element micro-damping the stuck slider rang at sqrt(sum k / M) = 50 Hz: the friction
    # swung to -0.17 N and a force-based detector found 130 "events" at 0.023 s
    ds = _slider(make_model("gms", "four-element"))
    late = ds.time.values > 2.5
    assert float(ds.friction_force.values[late].min()) > 0.2
    spring = stick_slip(ds.time.values, ds.spring_force.values, window=0.6)
    fric = stick_slip(ds.time.values, ds.friction_force.values, window=0.6)
    assert spring.period == pytest.approx(0.6, rel=0.03)
    assert fric.n_events <= 3 * spring.n_events


def test_static_stribeck_sticks_with_the_karnopp_band():
    # before: the exact law held nothing; the friction stayed at +-fs while the spring loaded
    ds = _slider(make_model("stribeck", "canudas1995"))
    t, f, fs = ds.time.values, ds.friction_force.values, ds.spring_force.values
    stuck = np.abs(ds.slip_velocity.values) < 1e-6
    late = t > 2.5
    assert stuck[late].mean() > 0.5
    held = late & stuck & (fs < 1.4999)  # below the breakaway limit
    np.testing.assert_allclose(f[held], fs[held], atol=1e-9)  # friction balances the spring
    s = stick_slip(t, fs, window=0.6)
    assert s.period == pytest.approx(0.60, rel=0.03)


def test_coulomb_like_stick_slip_matches_the_closed_form():
    # Stribeck with vs -> 0 (sharp drop from fs to fc) and no viscous term: in slip the slider oscillates
    # about the kinetic balance fc / K, the spring force drops by 2 (fs - fc); the stick reloads it at K V.
    m, k, v, fs, fc = 1.0, 2e3, 1e-3, 1.5, 1.0
    law = make_model("stribeck", fc=fc, fs=fs, vs=1e-6, sigma2=0.0)
    ds = _slider(law, dt=2e-6, t_end=3.0)
    r = stick_slip(ds.time.values, ds.spring_force.values, window=0.6)
    amp = 2 * (fs - fc)
    # slip: y = K (x_d - x) - fc obeys y'' = -(K / M) y from y = fs - fc, y' = K V until y' = K V again
    w = np.sqrt(k / m)
    t_slip = (np.pi + 2 * np.arctan(k * v / (w * (fs - fc)))) / w
    period = amp / (k * v) + t_slip
    assert r.amplitude == pytest.approx(amp, rel=0.01)
    assert r.period == pytest.approx(period, rel=0.01)


def test_unusable_stick_settings_are_refused():
    from frictionlab.core.errors import ConfigError

    # before: newmark diverged at its first step (IntegrationError), now one line pointing to rk4/radau
    with pytest.raises(ConfigError, match="'rk4' or 'radau'"):
        _slider(make_model("stribeck", "canudas1995"), t_end=0.01, integrator="newmark")
    with pytest.raises(ConfigError, match="v_stick"):
        _slider(make_model("lugre", "canudas1995"), t_end=0.01, v_stick=1e-5)


@pytest.mark.parametrize("integrator", ["euler", "radau"])
def test_every_generic_driver_holds_the_stick(integrator):
    # reference: rk4 at dt = 1e-5 and 2.5e-6 s both give period 0.6006 s, amplitude 1.0522 N (converged);
    # before the stick band these drivers left the exact law creeping or flipping at +-fs
    protocol = ConstantVelocity(v=1e-3, duration_s=3.0, normal_force_value=1.0)
    ds = simulate(make_model("stribeck", "canudas1995"), protocol, system=spring_slider(1.0, 2e3),
                  integrator=integrator, dt=1e-5, save_dt=2.5e-4)
    r = stick_slip(ds.time.values, ds.spring_force.values, window=0.6)
    assert r.period == pytest.approx(0.6006, rel=0.01)
    assert r.amplitude == pytest.approx(1.0522, rel=0.01)
    held = (np.abs(ds.slip_velocity.values) < 1e-6) & (ds.spring_force.values < 1.4999) & (ds.time.values > 1.0)
    assert held.sum() > 1000
    np.testing.assert_allclose(ds.friction_force.values[held], ds.spring_force.values[held], atol=1e-9)


def test_gms_and_lugre_periods_are_converged():
    # the same slider at dt = 1e-5 and 2.5e-6 s (rk4): the spring-force period and drop agree to 1e-3
    for model in (make_model("gms", "four-element"), make_model("lugre", "canudas1995")):
        a, b = (stick_slip(d.time.values, d.spring_force.values, window=0.6)
                for d in (_slider(model, dt=1e-5, t_end=3.0), _slider(model, dt=2.5e-6, t_end=3.0)))
        assert a.period == pytest.approx(b.period, rel=1e-3)
        assert a.amplitude == pytest.approx(b.amplitude, rel=1e-3)
    assert a.period == pytest.approx(0.552, rel=0.01)  # LuGre: breakaway below fs (presliding creep)


def test_friction_series_period_counts_breakaways_only():
    # the friction of a Stribeck-shaped law peaks twice per cycle (breakaway, and again as the slip slows):
    # all peaks give ~0.24 s; those of at least 0.75 of the largest prominence give the spring-force period
    ds = _slider(make_model("gms", "four-element"))
    t, f = ds.time.values, ds.friction_force.values
    spring = stick_slip(t, ds.spring_force.values, window=0.6)
    assert stick_slip(t, f, window=0.6).period < 0.5 * spring.period
    assert stick_slip(t, f, window=0.6, relative_prominence=0.75).period == pytest.approx(spring.period, rel=0.01)
    with pytest.raises(DataError, match="relative_prominence"):
        stick_slip(t, f, relative_prominence=1.5)
