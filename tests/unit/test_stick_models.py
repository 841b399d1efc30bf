"""Stick phases of a spring-slider: GMS without element ringing, static laws held by a stick model."""

import numpy as np
import pytest

from frictionlab import make_model, simulate
from frictionlab.analysis import stick_slip
from frictionlab.protocols import ConstantVelocity
from frictionlab.systems import spring_slider


def _slider(model, dt=1e-5, t_end=5.0, **options):
    protocol = ConstantVelocity(v=1e-3, duration_s=t_end, normal_force_value=1.0)
    return simulate(model, protocol, system=spring_slider(1.0, 2e3), integrator="rk4", dt=dt, save_dt=1e-3,
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
