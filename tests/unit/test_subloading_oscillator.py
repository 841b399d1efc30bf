"""Unit tests of the 1-DOF spring-mass system of Ozaki et al. (2020) eq. (39) with Newmark-beta
and the subloading return mapping, and of the pulsating-load driver."""

from __future__ import annotations

import numpy as np
import pytest

from frictionlab.core.errors import ParameterError
from frictionlab.laws.subloading import P_COMMON, Subloading, c_from_mm_mpa
from frictionlab.protocols import PulsatingThreshold
from frictionlab.laws.subloading_drivers import SubloadingOscillator, run_pulsating

OSC = dict(stiffness=4e4, drive_velocity=1e-5, area=1e-4, normal_stress=3e5)


def test_first_static_peak_converges_in_dt():
    m = Subloading(**P_COMMON)
    osc = SubloadingOscillator(mass=3000.0, **OSC)
    peaks = [float(osc.simulate(m, 40.0, dt, save_dt=0.01).spring_force.max()) for dt in (2e-3, 1e-3, 5e-4)]
    assert 9.8 < peaks[-1] < 10.3  # N (spec 7.6 prototype 9.9-10.2 N)
    assert abs(peaks[2] - peaks[1]) < 1e-3 * peaks[2]
    assert abs(peaks[2] - peaks[1]) < abs(peaks[1] - peaks[0]) + 1e-12


def test_steady_sliding_spring_force_closed_form():
    """C10: without stick-slip the spring force tends to A_a A_ss(V) tau(V)."""
    m = Subloading(**{**P_COMMON, "c": c_from_mm_mpa(0.01, 0.4)})
    osc = SubloadingOscillator(mass=3000.0, **OSC)
    ds = osc.simulate(m, 300.0, 1e-3, save_dt=0.1)
    expect = float(m.steady_stress(1e-5, 3e5)) * 1e-4
    assert ds.spring_force.values[-1] == pytest.approx(expect, rel=1e-6)
    late = ds.spring_force.values[ds.time.values > 150]
    assert np.ptp(late) < 1e-6


def test_stick_slip_with_paper_like_mass():
    m = Subloading(**{**P_COMMON, "c": 0.0})
    ds = SubloadingOscillator(mass=3000.0, **OSC).simulate(m, 200.0, 1e-3, save_dt=0.01)
    late = ds.spring_force.values[ds.time.values > 100]
    assert 0.8 < np.ptp(late) < 1.1  # N (spec prototype 8.66-9.61 N)
    assert np.all(np.isfinite(ds.slip_velocity.values))


def test_oscillator_bad_input():
    with pytest.raises(ParameterError, match="mass"):
        SubloadingOscillator(mass=-1.0)
    with pytest.raises(ParameterError, match="gamma"):
        SubloadingOscillator(gamma=0.2)
    with pytest.raises(ParameterError):
        SubloadingOscillator().simulate(Subloading(**P_COMMON), 1.0, dt=0.0)


def test_pulsating_ratchetting_and_conventional_limit():
    m = Subloading(**P_COMMON)
    pr = PulsatingThreshold(v=1e-4, upper=0.7e5, lower=0.0, cycles=5, max_duration=1.0, normal_force_value=3e5)
    _, cyc, gross = run_pulsating(m, pr, du=1e-9)
    assert gross == 0 and len(cyc) == 5
    assert cyc[0, 0] == pytest.approx(0.574e-6, rel=0.03)  # spec 7.3 prototype 0.58 um
    assert np.all(np.diff(cyc[:, 0]) > 0)
    assert np.all(cyc[:, 2] >= 0.7e5) and np.all(cyc[:, 2] < 0.7e5 * 1.002)  # threshold overshoot < 0.2 %
    mc = Subloading(**{**P_COMMON, "r": 1e15})
    _, cyc_c, _ = run_pulsating(mc, pr, du=1e-9)
    assert cyc_c[-1, 0] < 1e-3 * cyc[-1, 0]
