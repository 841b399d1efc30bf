"""Closed-form linear stability of the unit beam (Routh-Hurwitz branches) against the numerical roots."""

import numpy as np
import pytest

from frictionlab.contact.beam_network.lbnm import run_lbnm
from frictionlab.contact.beam_network.mlbnm import iub_linear_eigenvalues
from frictionlab.contact.beam_network.stability import band_edges, iub_stability
from frictionlab.core.errors import ParameterError
from frictionlab.core.registry import make_model

V = np.geomspace(1e-5, 5e-2, 300)


@pytest.mark.parametrize("cb,load", [(0.0, 5.0), (7.4, 88.0), (148.0, 20.0), (148.0, 145.0), (590.0, 88.0)])
def test_hurwitz_verdict_matches_roots(cb, load):
    p = make_model("beam_network", "vf60-calibrated").replace(cb=cb, normal_load=load)
    st = iub_stability(p, V)
    roots = np.array([iub_linear_eigenvalues(p, v).real.max() for v in V])
    assert np.array_equal(st.unstable, roots > 0)
    assert np.allclose(st.growth_rate, roots)


def test_micro_damping_branch_and_load_dependence():
    p = make_model("beam_network", "vf60-calibrated")
    # small c_b: LuGre's micro-damping branch reaches far below v_s; c_b = 148: only the stiffness branch
    assert iub_stability(p.replace(cb=0.0), 2e-4).micro_damping[0]
    assert not iub_stability(p, V).micro_damping.any() and iub_stability(p, V).stiffness.any()
    # the load enters through c V/(F_z g): the band's upper edge (critical velocity) rises with load
    hi = [band_edges(p.replace(normal_load=L), np.geomspace(1e-4, 1e-2, 2001))[1] for L in (5.0, 20.0, 88.0)]
    assert hi[0] < hi[1] < hi[2] and hi[2] / hi[0] > 1.2
    # a minimum load at 7.5e-4 m/s: stable at 5 N, unstable at 10 N
    assert not iub_stability(p.replace(normal_load=5.0), 7.5e-4).unstable[0]
    assert iub_stability(p.replace(normal_load=10.0), 7.5e-4).unstable[0]


def test_printed_table3_is_stable_at_fig8_point():
    p = make_model("beam_network", "vf60-table3")
    for cb in (0.0, 7.4, 148.0, 590.0):
        st = iub_stability(p.replace(cb=cb), 7.5e-4)
        assert not st.unstable[0] and st.growth_rate[0] < 0


def test_lbnm_rejects_bad_normal_force():
    p = make_model("beam_network", "vf60-calibrated")
    with pytest.raises(ParameterError, match="one per beam"):
        run_lbnm(p, 7.5e-4, 0.01, normal_force=np.ones(3))
