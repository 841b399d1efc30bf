"""Observed order of the fixed-step integrators on a smooth problem (ARCHITECTURE section 2).

Smooth problem: a driven spring-slider (M 1 kg, K 20 N/m, drive 0.1 m/s, started at rest)
with a regularised Stribeck law (tanh sign, v_reg 0.02 m/s, Gaussian Stribeck term): every
right-hand side is infinitely differentiable, so each method shows its nominal order.
"""

import pytest

from frictionlab.solve.convergence import check_convergence
from frictionlab.laws import Stribeck
from frictionlab.protocols import ConstantVelocity
from frictionlab.systems import spring_slider

LAW = Stribeck(fc=1.0, fs=1.5, vs=0.05, sigma2=0.4, v_reg=0.02)
SYSTEM = spring_slider(mass=1.0, stiffness=20.0)
PROTOCOL = ConstantVelocity(v=0.1, duration_s=2.0)


@pytest.mark.parametrize("integrator, nominal, dt", [("euler", 1, 2e-3), ("rk4", 4, 2e-2), ("newmark", 2, 1e-2)])
def test_observed_order(integrator, nominal, dt):
    rep = check_convergence(LAW, PROTOCOL, system=SYSTEM, integrator=integrator, dt=dt, levels=4,
                            variable="slip_velocity")
    assert abs(rep.order - nominal) <= 0.3, str(rep)
    assert all(abs(o - nominal) <= 0.5 for o in rep.orders), str(rep)
    assert rep.errors[0] > rep.errors[-1] > 0


def test_report_fields_and_relative_change():
    rep = check_convergence(LAW, PROTOCOL, system=SYSTEM, integrator="rk4", dt=2e-2, levels=3, variable="slip_velocity")
    assert len(rep.dts) == 3 and rep.dts[1] == pytest.approx(rep.dts[0] / 2)
    assert len(rep.orders) == 2
    assert rep.relative_change < 1e-6
    assert "observed order" in str(rep)


def test_adaptive_integrator_rejected():
    from frictionlab.core.errors import ConfigError

    with pytest.raises(ConfigError, match="fixed-step"):
        check_convergence(LAW, PROTOCOL, system=SYSTEM, integrator="radau")
