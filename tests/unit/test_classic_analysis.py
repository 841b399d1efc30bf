"""analysis.steady_state and analysis.stick_slip on synthetic series with known answers."""

import numpy as np
import pytest
import xarray as xr

from frictionlab.analysis import steady_state, stick_slip
from frictionlab.core.errors import DataError


def sawtooth(t, period, t_rise, lo, hi):
    ph = np.mod(t, period)
    return np.where(ph < t_rise, lo + (hi - lo) * ph / t_rise, hi - (hi - lo) * (ph - t_rise) / (period - t_rise))


@pytest.mark.parametrize("period, t_rise", [(1.0, 0.7), (0.25, 0.2), (2.0, 1.1)])
def test_stick_slip_sawtooth_known_answers(period, t_rise):
    t = np.linspace(0.0, 20 * period, 40001)
    f = sawtooth(t, period, t_rise, 1.0, 1.5)
    r = stick_slip(t, f, window=0.5)
    assert r.stick_slip and r.n_events >= 9
    assert r.period == pytest.approx(period, rel=1e-3)
    assert r.t_ss == r.period
    assert r.t_stick == pytest.approx(t_rise, rel=2e-3)
    assert r.kappa == pytest.approx(t_rise / period, rel=2e-3)
    assert r.amplitude == pytest.approx(0.5, rel=1e-3)
    ds = r.to_dataset()
    assert float(ds.kappa) == pytest.approx(r.kappa) and ds.peak_times.size == r.n_events


def test_smooth_series_is_not_stick_slip_and_dataarray_input():
    t = np.linspace(0, 10, 2001)
    f = 1.0 + 1e-3 * np.sin(2 * np.pi * t)  # ripple below the 2 % prominence threshold
    r = stick_slip(xr.DataArray(f, coords={"time": t}, dims="time"))
    assert not r.stick_slip and np.isnan(r.period)


def test_stick_onset_from_velocity():
    period, t_rise = 1.0, 0.6
    t = np.linspace(0, 10, 10001)
    f = sawtooth(t, period, t_rise, 1.0, 2.0)
    v = np.where(np.mod(t, period) < t_rise + 1e-9, 0.0, 1.0)  # stuck while the force rises
    r = stick_slip(t, f, velocity=v, v_stick=1e-3, window=0.8)
    assert r.t_stick == pytest.approx(t_rise, rel=3e-3)


def test_steady_state_exponential_settling():
    t = np.linspace(0, 20, 20001)
    y = 3.0 - 2.0 * np.exp(-t / 2.0)
    r = steady_state(t, y, rtol=1e-3)
    # the value is the mean of the last 5 %: 3 - 2 exp(-t/2) averaged over t in [19, 20]
    expected = 3.0 - 2.0 * np.mean(np.exp(-t[t >= 19.0] / 2.0))
    assert r.settled and r.value == pytest.approx(expected, rel=1e-6)
    # |y - value| = 2 exp(-t/2) - (3 - value) <= tol  <=>  t >= 2 ln(2 / (tol + 3 - value))
    assert r.tol == pytest.approx(1e-3 * r.value)
    assert r.time == pytest.approx(2 * np.log(2 / (r.tol + 3.0 - r.value)), abs=2e-3)


def test_steady_state_not_settled_and_bad_input():
    t = np.linspace(0, 10, 1001)
    r = steady_state(t, np.sin(t), atol=1e-3)
    assert not r.settled and np.isnan(r.time)
    with pytest.raises(DataError):
        steady_state(t, np.sin(t)[:-1])
    with pytest.raises(DataError):
        stick_slip(t, np.where(t > 5, np.nan, 1.0))
