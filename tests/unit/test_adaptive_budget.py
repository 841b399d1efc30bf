"""Adaptive runs: the step cap is per protocol segment, and a solver that stops advancing stops.

Reports (issues 27 and 30): one 10 ms segment in a 200 s velocity-step programme capped every step
of the run at 1.25 ms (about 50x slower); LSODA on a stiff RSF slider and RK45 on LuGre with
sigma0 = 1e10 N/m ground on without end (no default step or wall limit).
"""

from __future__ import annotations

import pytest

from frictionlab import simulate
from frictionlab.core.errors import IntegrationError
from frictionlab.laws import LuGre, RateState
from frictionlab.protocols import ConstantVelocity, VelocitySteps
from frictionlab.solve.integrate import adaptive

_RSF = dict(mu0=0.6, a=0.005, b=0.01, dc=1e-5, v0=1e-6, v_init=1e-6)


@pytest.mark.parametrize("integrator", ["radau", "rk45"])
def test_short_segment_caps_only_its_own_steps(integrator):
    # the old whole-run cap (0.01 s / 8) needs 160 000 steps for the two 100 s segments alone
    proto = VelocitySteps(velocities=(1e-6, 1e-5, 1e-6), durations=(100.0, 0.01, 100.0))
    ds = simulate(RateState(**_RSF), proto, integrator=integrator, dt=1e-3, save_dt=1.0, max_steps=20000)
    assert ds.slip.values[-1] == pytest.approx(1e-6 * 200.0 + 1e-5 * 0.01, rel=1e-9)


def test_default_step_budget_sized_from_run():
    one = ConstantVelocity(v=1e-6, duration_s=10.0)
    three = VelocitySteps(velocities=(1e-6, 1e-5, 1e-6), durations=(100.0, 100.0, 100.0))
    assert adaptive.default_max_steps(three, 300.0) - adaptive.default_max_steps(one, 10.0) == 2 * adaptive._STEPS_PER_STRETCH


def test_grinding_solver_stops_by_default(monkeypatch):
    # RK45 on LuGre with sigma0 = 1e10 N/m: stable steps of ~1e-10 s, so it never ends without a budget
    monkeypatch.setattr(adaptive, "_STIFF_BOUND", {})  # the budget itself, without the stiffness probe
    monkeypatch.setattr(adaptive, "_BASE_STEPS", 2000)
    monkeypatch.setattr(adaptive, "_STEPS_PER_STRETCH", 0)
    with pytest.raises(IntegrationError, match=r"rk45: stopped at max_steps = 2000 having reached t = .* of 1 s "
                                               r"\(.* steps per simulated second.*use integrator='radau'"):
        simulate(LuGre(sigma0=1e10), ConstantVelocity(v=0.1, duration_s=1.0), integrator="rk45")
    ds = simulate(LuGre(sigma0=1e10), ConstantVelocity(v=0.1, duration_s=1.0), integrator="rk45", max_steps=10**9,
                  t_end=1e-7)  # overridable
    assert ds.time.values[-1] == pytest.approx(1e-7)


def test_lsoda_advice_names_the_stiff_solvers():
    proto = VelocitySteps(velocities=(1e-6, 1e-5, 1e-6), durations=(100.0, 100.0, 100.0))
    with pytest.raises(IntegrationError, match=r"max_steps = 5 .*use integrator='radau' or 'bdf'"):
        simulate(RateState(**_RSF), proto, integrator="lsoda", dt=1e-3, max_steps=5)


def test_stall_stops_before_the_budget(monkeypatch):
    # RK45 on the stiff LuGre: each stretch's rate projects far beyond the budget, so it stops at the stall
    monkeypatch.setattr(adaptive, "_STIFF_BOUND", {})  # the stall itself, without the stiffness probe
    monkeypatch.setattr(adaptive, "_STALL_STEPS", 3000)
    with pytest.raises(IntegrationError, match=r"rk45: stalled \(at this rate the run would need over 10 x "
                                               r"max_steps = 1100000\) having reached t = .* of 1 s") as exc:
        simulate(LuGre(sigma0=1e10), ConstantVelocity(v=0.1, duration_s=1.0), integrator="rk45")
    assert exc.value.step == 3000


def test_two_state_rsf_spring_slider_starts_steady_like_the_one_state_law():
    """rate_state2 in a spring-slider started at rest (v = 0, where the log law's friction is
    mu0 + a ln(1e-300 / v0) < 0 and its stiffness a N / (M v) unbounded): RK45 crawled at 3e9 steps per
    simulated second until the stall test stopped it after 2e5 steps (about a minute). Like rate_state it
    starts at steady sliding at the drive velocity and runs in a few hundred steps."""
    from frictionlab.laws import RateState2
    from frictionlab.systems import MassSystem

    prot = VelocitySteps(velocities=(1e-5, 1e-4), durations=(0.5, 0.5), normal_force_value=1.0)
    ds = simulate(RateState2(), prot, system=MassSystem(mass=1.0, stiffness=1e3), integrator="rk45", dt=1.25e-4,
                  max_steps=20000)
    assert float(ds.slip_velocity[0]) == 1e-5
    assert float(ds.state_theta1[0]) == pytest.approx(1e-5 / 1e-5) and float(ds.state_theta2[0]) == pytest.approx(10.0)
    assert float(ds.spring_force[0]) == pytest.approx(float(ds.friction_force[0]), rel=1e-12)
    # the same run at half the tolerance
    half = simulate(RateState2(), prot, system=MassSystem(mass=1.0, stiffness=1e3), integrator="rk45", dt=1.25e-4,
                    rtol=5e-9, atol=5e-13, max_steps=20000)
    assert float(half.friction_force[-1]) == pytest.approx(float(ds.friction_force[-1]), rel=1e-7)


@pytest.mark.parametrize("integrator", ["rk45", "dop853"])
def test_explicit_solver_on_a_stiff_slider_stops_as_stiff_within_a_few_thousand_steps(integrator):
    """rate_state2's contract case in a spring-slider under its normal-load programme: the load outgrows what
    the spring can carry at the drive velocity, the slider sticks and v falls towards 1e-20 m/s, where the
    direct effect's rate a N / (M v) exceeds 1e7 1/s. RK45 and DOP853 then crawl at their stability limit:
    they ran until the stall test (2e5 steps, a minute or more) or the budget. Now they stop once their step
    has sat at the stability limit for 1000 steps and the rest of the run would need more than the budget."""
    from frictionlab.laws import RateState2
    from frictionlab.protocols import NormalLoadProgramme
    from frictionlab.systems import MassSystem

    prot = NormalLoadProgramme(times=(0.0, 0.5, 1.0), loads=(1.0, 2.0, 2.0), v=1e-5)
    with pytest.raises(IntegrationError, match=rf"{integrator}: the system is stiff here: at step \d+, t = .* s of 1 s "
                                               r".*stability limit.*use integrator='radau' or 'bdf'") as exc:
        simulate(RateState2(), prot, system=MassSystem(mass=1.0, stiffness=1e3), integrator=integrator,
                 dt=1.25e-4, max_steps=60000)
    assert adaptive._STIFF_STEPS <= exc.value.step < 20000 and 0.0 < exc.value.time < 0.2


def test_stiffness_probe_names_the_fastest_rate_of_a_stiff_lugre():
    """RK45 on LuGre with sigma0 = 1e10 N/m: the bristle rate sigma0 v / F_c is the fastest rate; the probe
    stops the run after about 1000 steps (not at the stall's 2e5) and names it."""
    with pytest.raises(IntegrationError, match=r"rk45: the system is stiff here.*fastest rate \|lambda\| = ") as exc:
        simulate(LuGre(sigma0=1e10), ConstantVelocity(v=0.1, duration_s=1.0), integrator="rk45")
    assert exc.value.step < 5000
    lam = float(str(exc.value).split("|lambda| = ")[1].split(" 1/s")[0])
    assert 1e8 < lam < 1e12


def test_an_implicit_solver_that_stops_advancing_stalls_within_a_few_thousand_steps():
    """Radau on the stuck two-state slider above (v ~ 1e-18 m/s) took 3e4 steps without leaving t = 0.3226 s,
    at about 700 steps per wall second: the stall test (2e5 steps from the stretch's start) would have fired
    after about five minutes. radau and bdf now judge the rate of their last 2000 steps."""
    from frictionlab.laws import RateState2
    from frictionlab.protocols import NormalLoadProgramme
    from frictionlab.systems import MassSystem

    prot = NormalLoadProgramme(times=(0.0, 0.5, 1.0), loads=(1.0, 2.0, 2.0), v=1e-5)
    with pytest.raises(IntegrationError, match=r"radau: stalled .* having reached t = 0\.32.* s of 1 s .* at step "
                                               r"\d+ .*steps per simulated second since t = 0\.32") as exc:
        simulate(RateState2(), prot, system=MassSystem(mass=1.0, stiffness=1e3), integrator="radau",
                 dt=1.25e-4, max_steps=30000)
    assert exc.value.step < 15000
