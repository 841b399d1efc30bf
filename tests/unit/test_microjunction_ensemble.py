"""GW-style ensemble of microjunctions: load sharing, single-junction limit, ageing, bad input."""

from __future__ import annotations

import numpy as np
import pytest

from frictionlab.contact.microjunction import ForceHistory, Microjunction, integrate_junction
from frictionlab.contact.microjunction.ensemble import (
    JunctionEnsemble, ensemble_rates, integrate_ensemble,
)
from frictionlab.core.errors import ParameterError

M = Microjunction()


def test_single_member_ensemble_equals_single_junction():
    # N = 1: the only summit sits at z = 0 and carries the whole load
    ens = JunctionEnsemble(n_junctions=1, sigma_z=1e-9)
    assert ens.heights(M.constants["delta_c"])[0] == pytest.approx(0.0, abs=1e-12)
    h = ForceHistory.piecewise_linear([0.0, 1.0], [20.0, 20.0])
    t = np.array([0.01, 0.1, 1.0])
    e = integrate_ensemble(M, ens, h, t_eval=t, rtol=1e-9, atol=1e-12)
    s = integrate_junction(M, h, t_eval=t, initial=M.on_curve_state(20.0), rtol=1e-10, atol=1e-13)
    np.testing.assert_allclose(e.total_area, s.area, rtol=1e-5)
    np.testing.assert_allclose(-e.separation, s.delta, rtol=1e-5)


def test_load_is_shared_and_area_grows():
    ens = JunctionEnsemble(n_junctions=200, sigma_z=20e-9)
    slow = M.replace(c1=1.42e-6)
    h = ForceHistory.piecewise_linear([0.0, 1e3], [400.0, 400.0])
    t = np.geomspace(1.0, 1e3, 7)
    e = integrate_ensemble(slow, ens, h, t_eval=t, rtol=1e-6, atol=1e-9)
    np.testing.assert_allclose(e.total_force, 400.0, rtol=1e-6)
    assert np.all(np.diff(e.total_area) > 0)
    assert np.all(np.diff(e.n_contacts) >= 0) and e.n_contacts[0] < 200
    # the flat approaches: separation decreases
    assert np.all(np.diff(e.separation) < 0)
    # final per-junction forces are non-negative and add up
    assert np.all(e.final_force >= -1e-9) and e.final_force.sum() == pytest.approx(400.0, rel=1e-6)


def test_ensemble_rates_shape_and_constraint():
    ens = JunctionEnsemble(n_junctions=5, sigma_z=10e-9)
    z = ens.heights(M.constants["delta_c"])
    y = np.concatenate([[z[2] - 0.5], np.zeros(5), np.zeros(5), np.zeros(5)])
    # junctions 0..2 in contact on the Hertz curve
    d = np.clip(z - y[0], 0, None)
    y[1:6] = d ** 1.5
    y[11:16] = d
    r = ensemble_rates(M, z, y, float(y[1:6].sum()), 0.0)
    assert r.shape == (16,)
    assert r[1:6].sum() == pytest.approx(0.0, abs=1e-9 * np.abs(r[1:6]).max())  # load rate 0 -> forces redistribute
    assert r[0] < 0  # creep: the flat approaches


def test_bad_inputs():
    with pytest.raises(ParameterError, match="n_junctions"):
        JunctionEnsemble(n_junctions=0)
    with pytest.raises(ParameterError, match="sigma_z"):
        JunctionEnsemble(sigma_z=-1e-9)
    with pytest.raises(ParameterError, match="t_eval"):
        integrate_ensemble(M, JunctionEnsemble(n_junctions=3), ForceHistory.piecewise_linear([0, 1], [5, 5]),
                           t_eval=[0.5, 0.1])
