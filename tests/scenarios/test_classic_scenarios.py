"""The classic scenarios: quick profiles pass their checks; halving dt changes results < 1 %."""

import math

import numpy as np
import pytest

from frictionlab.solve.convergence import check_convergence, relative_change
from frictionlab.core.registry import make_model
from frictionlab.protocols import ConstantVelocity
from frictionlab.scenarios import get_scenario
from frictionlab.solve.config import apply_overrides, build

MINE = ["classic/stribeck-curve", "classic/rsf-slide-hold-slide", "classic/spring-slider-stick-slip",
        "classic/rsf-stability", "classic/dahl-hysteresis"]
SLOW = {"classic/spring-slider-stick-slip": "two 4e6-step RK4 runs (~10-25 s)"}


@pytest.mark.parametrize("name", [pytest.param(n, marks=pytest.mark.slow(reason=SLOW[n])) if n in SLOW else n
                                  for n in MINE])
def test_quick_profile_checks_pass(name):
    sc = get_scenario(name)
    ds, cfg = sc.execute(quick=True)
    checks = sc.evaluate(ds, cfg)
    assert checks, "a scenario must have checks"
    failed = [(c.claim, c.expected, c.measured) for c in checks if not c.passed]
    assert not failed, failed


def _fixed_step(name):
    """The quick config and the built first run of its study (its derived step included)."""
    sc = get_scenario(name)
    cfg = sc.resolved_config(quick=True)
    model, protocol, system, integ = build(sc.study(cfg).points()[0].config)
    return cfg, model, protocol, system, integ


def test_stribeck_curve_dt_halving():
    cfg = get_scenario("classic/stribeck-curve").resolved_config(quick=True)
    m = dict(cfg["model"])
    law = make_model(m.pop("name"), m.pop("preset"), **m)
    for v in (1e-5, 3e-3, 1e-1):
        tau = 1.5 / (law.sigma0 * v)
        dt = tau / cfg["analysis"]["steps_per_tau"]
        rep = check_convergence(law, ConstantVelocity(v=v, duration_s=cfg["analysis"]["relaxation_times"] * tau),
                                integrator="rk4", dt=dt, levels=2)
        assert rep.relative_changes[0] < 0.01, str(rep)


@pytest.mark.parametrize("name, variable", [("classic/rsf-slide-hold-slide", "friction_coefficient"),
                                            ("classic/dahl-hysteresis", "friction_force")])
def test_prescribed_slip_scenarios_dt_halving(name, variable):
    cfg, model, protocol, system, integ = _fixed_step(name)
    rep = check_convergence(model, protocol, system=system, integrator=integ["driver"], dt=integ["dt"], levels=2,
                            variable=variable)
    assert rep.relative_changes[0] < 0.01, str(rep)


@pytest.mark.slow(reason="six RK4 runs of 3e6 to 1.2e7 steps")
def test_spring_slider_stick_slip_dt_halving():
    cfg, model, protocol, system, integ = _fixed_step("classic/spring-slider-stick-slip")
    for v in cfg["axes"]["protocol"]["v"]:
        prot = ConstantVelocity(v=float(v), duration_s=protocol.duration_s)
        rep = check_convergence(model, prot, system=system, integrator="rk4", dt=integ["dt"], levels=2,
                                variable="spring_force")
        assert rep.relative_changes[0] < 0.01, str(rep)


@pytest.mark.slow(reason="four stiff Radau runs (~20 s)")
def test_rsf_stability_halving_dt_and_tightening_rtol():
    """Adaptive Radau: dt is only the first step, so halve it *and* tighten rtol tenfold."""
    from frictionlab.scenarios.classic.rsf_stability import oscillation

    sc = get_scenario("classic/rsf-stability")
    ds1, c1 = sc.execute(quick=True)  # K = 0.8 and 1.2 k_c
    ds2, _ = sc.execute(overrides={"integrator.dt": c1["integrator"]["dt"] / 2,
                                   "integrator.rtol": c1["integrator"]["rtol"] / 10}, quick=True)
    for r in ds1.stiffness_ratio.values:
        a = oscillation(ds1.time.values, ds1.log_velocity_ratio.sel(stiffness_ratio=r).values)
        b = oscillation(ds2.time.values, ds2.log_velocity_ratio.sel(stiffness_ratio=r).values)
        assert relative_change(a[0], b[0]) < 0.01 and relative_change(a[1], b[1]) < 0.01
    # the spring force history (incl. the stick-slip cycles at 0.8 k_c) agrees to < 1 %
    assert relative_change(ds1.spring_force.values, ds2.spring_force.values) < 0.01
    assert math.isfinite(float(np.max(ds1.spring_force.values)))


def test_scenario_overrides_reach_the_runs():
    sc = get_scenario("classic/dahl-hysteresis")
    cfg = apply_overrides(sc.config, {"model.alpha": 2.0, "runs.fast.protocol.frequency": 5.0})
    points = sc.study(cfg).points()
    assert [build(p.config)[0].alpha for p in points] == [2.0, 2.0]
    # each run's step is one cycle over analysis.steps_per_cycle (the same steps per cycle)
    assert [(p.config["protocol"]["frequency"], p.config["integrator"]["dt"]) for p in points] == [
        (1.0, 1e-4), (5.0, 1e-4 / 5.0)]
