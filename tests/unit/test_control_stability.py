"""The servo's blow-up message names the real cure (issue 27): a sampled loop that is unstable
(the LuGre observer of Canudas de Wit et al. 1995 with its gain k = 10 1/s sampled at 0.2 ms)
asks for a shorter ``sample_period`` and states one that runs; an unstable RK4 step keeps the
``dt`` advice; the linearised one-period map agrees with python-control's zero-order hold."""

from __future__ import annotations

import re

import numpy as np
import pytest

from frictionlab import simulate
from frictionlab.control import ServoSystem
from frictionlab.control.stability import OperatingPoint, loop_matrix, sampling_margin
from frictionlab.core.errors import IntegrationError
from frictionlab.core.registry import make_model
from frictionlab.protocols.reference import PositionSteps

LAW = make_model("lugre", "canudas1995")
#: control/canudas1995-position's PID (hunting gains) with the observer gain k = 10 1/s
HUNTING = {"kp": 3.0, "ki": 4.0, "kv": 6.0, "check_passivity": False, "compensation": "observer",
           "observer_gain": 10.0, "estimator_substeps": 50}


def _fails(servo: ServoSystem, dt: float, step: float, duration: float) -> str:
    with pytest.raises(IntegrationError) as err:
        simulate(LAW, PositionSteps(positions=(step,), times=(0.0,), duration_s=duration), system=servo, dt=dt)
    return str(err.value)


def test_unstable_sampling_names_sample_period_and_a_period_that_runs():
    """Old code: '... reduce dt, raise estimator_substeps, or lower the gains' -- at dt = 1e-5 s,
    50 observer sub-steps and 0.2 ms sampling, where only the sampling is at fault."""
    msg = _fails(ServoSystem(sample_period=2e-4, model=LAW, **HUNTING), dt=1e-5, step=1.0, duration=0.5)
    found = re.search(r"use sample_period <= ([0-9.e+-]+) s", msg)
    assert found, msg
    assert "whatever dt" in msg and "reduce dt" not in msg
    best = float(found.group(1))
    assert 1e-5 < best < 2e-4
    ds = simulate(LAW, PositionSteps(positions=(1.0,), times=(0.0,), duration_s=0.5),
                  system=ServoSystem(sample_period=best, model=LAW, **HUNTING), dt=best / 20)
    e = ds.tracking_error.values
    assert np.all(np.isfinite(e)) and abs(e[-1]) < 0.5  # runs, on its way to the 1 m step (slow PID gains)


def test_unstable_rk4_step_keeps_the_dt_advice():
    """A sampled loop that is stable at 1 ms (PD inside the passivity condition; it runs at dt = 1e-5 s)
    with one plant RK4 step per period: the first command drives the slider to 4 cm/s, where the bristle
    relaxes at sigma0 |v| / g = 3.3e3 1/s, outside RK4's region at 1 ms. The cure is dt, not the sample
    period; the stated dt (made a divisor) runs."""
    gains = {"kp": 1000.0, "kv": 400.0, "compensation": "observer", "observer_gain": 10.0, "estimator_substeps": 50}
    servo = ServoSystem(sample_period=1e-3, model=LAW, **gains)
    msg = _fails(servo, dt=1e-3, step=0.01, duration=0.3)
    found = re.search(r"reduce dt to <= [0-9.e+-]+ s \(sample_period/(\d+)", msg)
    assert found, msg
    assert "sample_period <=" not in msg
    n = int(found.group(1))
    assert n > 1
    ds = simulate(LAW, PositionSteps(positions=(0.01,), times=(0.0,), duration_s=0.3), system=servo, dt=1e-3 / n)
    assert np.all(np.isfinite(ds.position.values))


def test_sampling_margin_grows_with_the_period():
    """At a state of large error (the observer's steady state under k e = -17 m/s while sliding at
    -1 m/s), the margin grows with the period (5.3 at 1 ms) and is 1 at 1 us; at rest the PD loop
    inside the passivity condition is stable at 1 ms."""
    k_e = -17.0
    v = -1.0
    zm = (v - k_e) * float(LAW.friction_curve(np.array([abs(v)]))[0] - LAW.sigma2 * abs(v)) / (LAW.sigma0 * abs(v))
    op = OperatingPoint(v, 1.0, tuple(LAW._steady_state(v, 1.0)), (zm,))
    servo = ServoSystem(sample_period=1e-4, model=LAW, **HUNTING)
    margins = [sampling_margin(LAW, servo, op, sample_period=t) for t in (1e-3, 2e-4, 1e-4, 1e-6)]
    assert margins[0] > 5 and margins[0] > margins[1] > margins[2] > 1 + 1e-4, margins
    assert margins[3] < 1 + 1e-6
    pd = ServoSystem(sample_period=1e-3, model=LAW, kp=1000.0, kv=400.0, compensation="observer",
                     observer_gain=10.0)
    assert sampling_margin(LAW, pd) < 1 + 1e-6


def test_loop_matrix_matches_python_control_zero_order_hold():
    """A sliding Coulomb slider is a pure mass: the loop map's eigenvalues are those of python-control's
    ZOH discretisation of 1/(m s^2) closed by the sampled PD (plus the unused integral state, 1)."""
    ct = pytest.importorskip("control")
    m, ts, kp, kv = 2.0, 2e-3, 5e3, 60.0
    law = make_model("coulomb")
    servo = ServoSystem(mass=m, sample_period=ts, kp=kp, ki=0.0, kv=kv, inertia_feedforward=False)
    ours = np.sort_complex(np.linalg.eigvals(loop_matrix(law, servo, OperatingPoint(0.1, 1.0))))
    sysd = ct.c2d(ct.ss([[0.0, 1.0], [0.0, 0.0]], [[0.0], [1.0 / m]], np.eye(2), np.zeros((2, 1))), ts, "zoh")
    closed = np.asarray(sysd.A) - np.asarray(sysd.B) @ np.array([[kp, kv]])
    theirs = np.sort_complex(np.r_[np.linalg.eigvals(closed), 1.0])
    np.testing.assert_allclose(ours, theirs, rtol=1e-9, atol=1e-12)
