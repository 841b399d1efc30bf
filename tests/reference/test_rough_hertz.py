"""Hertz validation of the Boussinesq element model (spec §6.1, S3)."""

import numpy as np
import pytest

from frictionlab.reference import hertz
from frictionlab.scenarios.rough_contact.fig3 import solve_curve


def test_hertz_reference_values():
    assert hertz.hertz_force(0.01) == pytest.approx(4.244e-4, rel=1e-3)
    assert hertz.hertz_force(0.1) == pytest.approx(1.3421e-2, rel=1e-4)
    assert hertz.hertz_indentation(hertz.hertz_force(0.037)) == pytest.approx(0.037, rel=1e-12)
    assert hertz.meanfield_C0(0.1, 1 / 128) == pytest.approx(38351, rel=1e-4)


def test_boussinesq_matches_hertz_at_32_elements_per_radius():
    deltas = np.array([0.0625, 0.1])  # a/dx = 32 and 40 at dx = 1/128
    out, C0 = solve_curve(128, "paraboloid", deltas, 1.0, 3.8, 1e-10)
    assert np.all(np.abs(out["F_b"] / hertz.hertz_force(deltas) - 1) < 0.01)
    assert np.all(np.abs(out["a_b"] / hertz.hertz_radius(deltas) - 1) < 0.01)
    assert np.all(np.abs(out["pc_b"] / hertz.hertz_p0(deltas) - 1) < 0.01)
    # no interaction: exact at the fitted point only, a = sqrt(2 R delta)
    assert out["F_mf"][-1] == pytest.approx(hertz.hertz_force(0.1), rel=0.01)
    assert out["a_mf"][0] == pytest.approx(np.sqrt(2 * 0.0625), rel=0.02)


def test_resolution_convergence():
    # halving dx reduces the force error (self-term regularisation converges)
    d = np.array([0.05])
    e = [abs(solve_curve(k, "paraboloid", d, 1.0, 3.8, 1e-10)[0]["F_b"][0] / hertz.hertz_force(0.05) - 1)
         for k in (32, 64)]
    assert e[1] < e[0]
