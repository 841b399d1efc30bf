"""The control/ scenarios: their quick profiles pass, and their checks fail on wrong results."""

from __future__ import annotations

import numpy as np
import pytest

from frictionlab.scenarios import get_scenario, scenario_names

NAMES = ("control/canudas1995-position", "control/compensation-comparison", "control/kloss-online-estimation")


def test_control_scenarios_registered():
    names = scenario_names()
    for n in NAMES:
        assert n in names
        sc = get_scenario(n)
        assert sc.checks is not None and sc.plot is not None and sc.references


@pytest.mark.slow(reason="runs a closed-loop scenario's quick profile; compiles a few numba loops (~1-3 min each)")
@pytest.mark.parametrize("name", NAMES)
def test_quick_profile_checks(name):
    sc = get_scenario(name)
    ds, cfg = sc.execute(quick=True)
    checks = sc.evaluate(ds, cfg)
    assert len(checks) >= 4
    for c in checks:
        assert c.passed, f"{name}: {c.claim}: expected {c.expected}, measured {c.measured}"
    # the checks can fail: corrupt the result the way a broken compensator would
    bad = ds.copy(deep=True)
    if name == "control/canudas1995-position":
        for v in ("tracking_error", "friction_estimate_error"):
            bad[v].loc[{"run": "hunting/observer"}] = ds[v].sel(run="hunting/none").values
    elif name == "control/compensation-comparison":
        bad["rms_tracking_error"].loc[{"strategy": "lugre_observer"}] = ds.rms_tracking_error.sel(strategy="pid").values
    else:
        bad["estimated_f_max"][:] = np.asarray(ds.estimated_f_max.values) * 1.2
    assert not all(c.passed for c in sc.evaluate(bad, cfg)), name


def test_canudas_runs_are_servo_loops_through_simulate():
    """Each run of control/canudas1995-position is a servo system run by the library (driver 'servo')."""
    from frictionlab.solve.config import build

    sc = get_scenario("control/canudas1995-position")
    points = sc.study(sc.resolved_config(quick=True)).validate()
    assert [p.label for p in points] == ["hunting/none", "hunting/observer", "passive/none", "passive/observer"]
    built = [build(p.config) for p in points]
    assert {b[3]["driver"] for b in built} == {"servo"}
    assert [b[2].compensation for b in built] == ["none", "observer", "none", "observer"]
    assert [b[1].positions for b in built] == [(1.0,), (1.0,), (0.01,), (0.01,)]
    assert [b[2].check_passivity for b in built] == [True, False, True, True]
