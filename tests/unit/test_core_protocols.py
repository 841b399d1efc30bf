import numpy as np
import pytest

from frictionlab.core.errors import ConfigError, ParameterError
from frictionlab.protocols import (ConstantVelocity, ForceRamp, NormalLoadProgramme, PulsatingThreshold, Sinusoidal,
                                   SlideHoldSlide, VelocitySteps, make_protocol)


def test_velocity_steps_by_distance():
    p = VelocitySteps(velocities=(1e-6, 1e-5), distances=(1e-4, 1e-4))
    assert p.duration == pytest.approx(100.0 + 10.0)
    np.testing.assert_allclose(p.velocity([0.0, 99.9, 100.0, 109.0]), [1e-6, 1e-6, 1e-5, 1e-5])


def test_velocity_steps_validation():
    with pytest.raises(ParameterError, match="durations"):
        VelocitySteps(velocities=(1.0, 2.0), durations=(1.0,))
    with pytest.raises(ParameterError, match="exactly one"):
        VelocitySteps(velocities=(1.0,), durations=(1.0,), distances=(1.0,))
    with pytest.raises(ParameterError, match="velocities"):
        VelocitySteps(velocities=(0.0,), distances=(1.0,))


def test_slide_hold_slide_windows_and_velocity():
    p = SlideHoldSlide(v=1e-5, slide_duration=10.0, holds=(1.0, 10.0))
    assert p.duration == pytest.approx(10 + 1 + 10 + 10 + 10)
    assert p.hold_windows == [(10.0, 11.0), (21.0, 31.0)]
    np.testing.assert_allclose(p.velocity([5.0, 10.5, 15.0, 25.0, 35.0]), [1e-5, 0, 1e-5, 0, 1e-5])


def test_sinusoid_velocity_is_derivative_of_displacement():
    p = Sinusoidal(amplitude=2e-5, frequency=3.0, cycles=1.0)
    t = np.linspace(0, p.duration, 2001)
    x = p.displacement(t)
    np.testing.assert_allclose(np.gradient(x, t)[5:-5], p.velocity(t)[5:-5], rtol=0, atol=2e-5 * 6 * np.pi * 1e-3)


def test_normal_load_programme_interpolates_and_validates():
    p = NormalLoadProgramme(times=(0.0, 1.0, 3.0), loads=(1.0, 3.0, 3.0), v=1e-3)
    np.testing.assert_allclose(p.normal_force([0.5, 2.0]), [2.0, 3.0])
    with pytest.raises(ParameterError, match="increasing"):
        NormalLoadProgramme(times=(0.0, 0.0), loads=(1.0, 1.0))


def test_force_ramp_and_pulsating():
    assert ForceRamp(rate=2.0, f0=1.0).force(3.0) == pytest.approx(7.0)
    p = PulsatingThreshold(upper=1.0, lower=0.0)
    assert p.direction(1.0, 1.01) == -1.0 and p.direction(-1.0, -0.01) == 1.0 and p.direction(1.0, 0.5) == 1.0
    with pytest.raises(ParameterError, match="lower"):
        PulsatingThreshold(upper=1.0, lower=2.0)


def test_make_protocol_suggests_names():
    assert isinstance(make_protocol({"type": "constant_velocity", "v": 1.0}), ConstantVelocity)
    with pytest.raises(ConfigError, match="did you mean 'velocity_steps'"):
        make_protocol({"type": "velocity_step"})
    with pytest.raises(ParameterError, match="did you mean 'duration_s'"):
        make_protocol({"type": "constant_velocity", "duration": 1.0})
