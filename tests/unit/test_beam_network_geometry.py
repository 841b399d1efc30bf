"""Beam-network geometry, parameters and network force (beam-network paper, doi:10.1115/1.4042247, eqs. 4-6, Fig. 7)."""

import math

import numpy as np
import pytest

from frictionlab.contact.beam_network.geometry import build_patch, load_polynomial
from frictionlab.contact.beam_network.lbnm import network_force
from frictionlab.contact.beam_network.params import BeamNetworkParams
from frictionlab.core.errors import ParameterError
from frictionlab.core.registry import make_model, presets_of

P7 = dict(p0=0.8680, p2=-0.0198, p22=2.2498e-4, p4=1.1251e-4)


def test_patch_matches_spec_grid_and_load():
    g = build_patch(2e-3, 88.0, **P7)
    assert g.n_beams == 69
    assert g.column_count.tolist() == [5, 7, 9, 9, 9, 9, 9, 7, 5]
    assert g.raw_load == pytest.approx(79.443, abs=0.01)          # spec S1: ~79 N before rescaling
    assert g.normal_force.sum() == pytest.approx(88.0, rel=1e-12)  # load bookkeeping
    assert np.all(g.normal_force > 0)
    # central peak of the load
    assert np.argmax(g.normal_force) == int(np.argmin(np.hypot(g.x, g.y)))
    # rest lengths a and sqrt(2) a, every pair once, interior beams have 8 neighbours
    assert set(np.round(g.rest_length / 2e-3, 6)) == {1.0, round(math.sqrt(2), 6)}
    assert len({tuple(p) for p in g.pairs}) == len(g.pairs)
    assert g.neighbour_counts().max() == 8
    centre = int(np.argmin(np.hypot(g.x, g.y)))
    assert g.neighbour_counts()[centre] == 8


def test_load_polynomial_is_nearly_radial_and_zero_near_9mm():
    r = np.linspace(0, 12, 1201)
    f = load_polynomial(r, 0 * r, **P7)
    first_zero = r[np.argmax(f <= 0)]
    assert first_zero == pytest.approx(9.10, abs=0.02)
    fd = load_polynomial(r / math.sqrt(2), r / math.sqrt(2), **P7)
    assert np.max(np.abs(fd - f)) < 3e-4  # (p22/4 - p4/2) r^4 = -2.1e-4 MPa at 12 mm


def test_load_scales_with_normal_load():
    p = BeamNetworkParams(normal_load=44.0)
    d = p.derived()
    d88 = BeamNetworkParams().derived()
    assert np.allclose(d.normal_force * 2, d88.normal_force)
    assert np.sum(p.mu_s * d.normal_force) == pytest.approx(p.mu_s * 44.0)


def test_network_force_third_law_translation_and_linearisation():
    p = BeamNetworkParams()
    g = p.geometry()
    rng = np.random.default_rng(0)
    ux, uy = rng.normal(0, 2e-4, g.n_beams), rng.normal(0, 2e-4, g.n_beams)
    fx, fy = network_force(p, ux, uy)
    assert abs(fx.sum()) < 1e-12 and abs(fy.sum()) < 1e-12        # action = reaction
    fx0, fy0 = network_force(p, np.full(g.n_beams, 3e-3), np.full(g.n_beams, -1e-3))
    assert np.max(np.abs(fx0)) < 1e-12 and np.max(np.abs(fy0)) < 1e-12  # rigid translation
    # small strain: stretch one axial pair by eps along x -> force ke*eps on it
    eps = 1e-9
    i = int(np.argmin(np.hypot(g.x, g.y)))
    ux = np.zeros(g.n_beams)
    ux[i] = eps
    fx, fy = network_force(p, ux, np.zeros(g.n_beams))
    # linearised: sum over neighbours of ke (e.eps) e_x -> axial x neighbours 2, diagonals 4 x 1/2
    assert fx[i] == pytest.approx(-p.ke * eps * (2 + 4 * 0.5), rel=1e-5)


def test_parameter_conventions_and_presets():
    per = BeamNetworkParams().derived()
    lump = BeamNetworkParams(param_convention="lumped").derived()
    assert per.kb == 910.0 and lump.kb == pytest.approx(910.0 / 69)
    assert per.cb == pytest.approx(148.0 / 69) == lump.cb
    assert per.mass == pytest.approx(1040 * 4e-6 * 0.022)
    assert BeamNetworkParams(ke_mode="2Eh").spring_stiffness() == pytest.approx(8.8e4)
    names = presets_of("beam_network")
    assert {"vf60-table3", "vf60-table3-lumped", "vf60-calibrated", "vf40-calibrated"} <= set(names)
    assert make_model("beam_network", "vf60-calibrated").v_stribeck == 1.5e-3
    assert make_model("beam_network", "vf60-table3").v_stribeck == 0.018


@pytest.mark.parametrize("kwargs, field", [
    ({"p0": -0.1}, "p0"),          # load polynomial with no positive region
    ({"a": 0.03}, "a"),            # beam larger than the patch
    ({"cb": -1.0}, "cb"),          # negative damping
    ({"sigma1": -1.0}, "sigma1"),
    ({"mu_c": 0.9}, "mu_c"),       # mu_c > mu_s
])
def test_bad_input_names_the_field(kwargs, field):
    with pytest.raises(ParameterError, match=field):
        BeamNetworkParams(**kwargs).geometry()


def test_unbounded_polynomial_rejected():
    with pytest.raises(ParameterError, match="bounded"):
        build_patch(2e-3, 88.0, p0=1.0, p2=0.0, p22=0.0, p4=0.0)
