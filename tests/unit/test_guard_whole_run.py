"""The fixed-step guard covers the whole run, every fixed-step driver and the first transient.

Cases from the reports (issues 27 and 30): an RSF spring-slider (M = 1 kg, k = 1e4 N/m) under RK4
at dt = 1e-3 s, unstable at the initial 1 um/s (|lambda dt| = a fn dt / (M v) = 5 > 2.785), went
through a mu = -0.57 spike in its first second and ended at mu = 0.5667 where the closed form
gives 0.5885; the instability filled too small a share of the 40 s run's checks. A LuGre
spring-slider (Canudas de Wit parameters, M = 1 kg, K = 2 N/m, RK4, dt = 1e-4 s) was refused over
200 s but not over 50 s; the ``step`` driver wrote 1e269 N; GMS with k = 1e9 N/m under Euler
overshot to 4e6 N in its first steps and relaxed to the right force.
"""

from __future__ import annotations

import math
import re

import numpy as np
import pytest

from frictionlab import simulate
from frictionlab.core.errors import IntegrationError
from frictionlab.laws import GMS, LuGre, RateState
from frictionlab.protocols import ConstantVelocity, VelocitySteps
from frictionlab.systems.mass import spring_slider

_RSF = dict(mu0=0.6, a=0.005, b=0.01, dc=1e-5, v0=1e-6, v_init=1e-6)
_STEP = r"at step \d+ \(t = [0-9.e+-]+ s\) with integrator '{}' and dt = {} s; reduce dt"


def test_rsf_slider_unstable_start_refused_and_converged_run_accepted():
    proto = VelocitySteps(velocities=(1e-6, 1e-5), durations=(20.0, 20.0))
    system = spring_slider(mass=1.0, stiffness=1e4)
    with pytest.raises(IntegrationError, match=_STEP.format("rk4", "0.001")) as exc:
        simulate(RateState(**_RSF), proto, system=system, integrator="rk4", dt=1e-3)
    assert exc.value.time < 1.0  # named where it goes wrong: in the first second, at 1 um/s
    ds = simulate(RateState(**_RSF), proto, system=system, integrator="rk4", dt=1e-4)
    mu_ss = 0.6 + (0.005 - 0.01) * math.log(10.0)  # steady state at 10 um/s (Dieterich 1979)
    assert ds.friction_coefficient.values[-1] == pytest.approx(mu_ss, abs=1e-6)


@pytest.mark.parametrize("duration", [50.0, 200.0])
def test_lugre_slider_verdict_independent_of_run_length(duration):
    proto = ConstantVelocity(v=0.1, duration_s=duration)
    with pytest.raises(IntegrationError, match=_STEP.format("rk4", "0.0001")) as exc:
        simulate(LuGre(), proto, system=spring_slider(mass=1.0, stiffness=2.0), integrator="rk4", dt=1e-4)
    assert 1.0 < exc.value.time < 20.0  # the first fast slip, the same in both runs


def test_step_driver_guarded():
    proto = ConstantVelocity(v=0.1, duration_s=10.0)
    with pytest.raises(IntegrationError, match=_STEP.format("step", "0.5")):
        simulate(LuGre(), proto, integrator="step", dt=0.5)
    ds = simulate(LuGre(), proto, integrator="step", dt=1e-4, save_dt=1e-2)
    assert ds.friction_force.values[-1] == pytest.approx(1.0 + 0.4 * 0.1, rel=1e-3)  # fc + sigma2 v (Stribeck tail)


def test_gms_stiff_overshoot_refused():
    g = GMS(k=(1e9,) * 4)
    proto = ConstantVelocity(v=1.0, duration_s=1.0)
    with pytest.raises(IntegrationError, match=_STEP.format("euler", "0.001")):
        simulate(g, proto, integrator="euler", dt=1e-3)


def test_lugre_first_transient_just_inside_limit_refused():
    # sigma0 |v| / g(v) dt = 1e5 * 0.1 / 1.0 * 2.7e-4 = 2.7 < 2.785: stable, but the first steps are wrong
    proto = ConstantVelocity(v=0.1, duration_s=0.1)
    with pytest.raises(IntegrationError, match=_STEP.format("rk4", "0.00027")) as exc:
        simulate(LuGre(), proto, integrator="rk4", dt=2.7e-4)
    suggested = float(re.search(r"reduce dt \(below ([0-9.e+-]+) s", str(exc.value)).group(1))
    assert suggested < 2.7e-4
    simulate(LuGre(), proto, integrator="rk4", dt=suggested)  # the step the refusal names is accepted
    ref = simulate(LuGre(), proto, integrator="rk4", dt=1e-6, save_dt=1e-3)
    fine = simulate(LuGre(), proto, integrator="rk4", dt=1e-5, save_dt=1e-3)
    assert np.allclose(fine.friction_force.values, ref.friction_force.values, rtol=1e-3, atol=1e-3)
