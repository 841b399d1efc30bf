"""Self-affine surfaces and the one-call elastic contact solve in SI units."""

from __future__ import annotations

import math

import numpy as np
import pytest

from frictionlab.contact.rough import radial_psd, rms_height, rms_slope, self_affine_surface, solve_contact
from frictionlab.contact.rough.physical import periodic_clusters
from frictionlab.core.errors import ParameterError

A = 1e-6  # pixel [m]


@pytest.mark.parametrize("hurst", [0.3, 0.8])
def test_self_affine_psd_slope_and_rms(hurst):
    n = 256
    L = n * A
    qr, qs = 4 * 2 * np.pi / L, 2 * np.pi / (4 * A)
    h = self_affine_surface(n, A, hurst=hurst, rms_height=1e-7, q_rolloff=qr, q_short=qs, seed=3)
    assert rms_height(h) == pytest.approx(1e-7, rel=1e-12)
    q, C = radial_psd(h, A)
    sel = (q > 1.2 * qr) & (q < 0.8 * qs)
    slope = np.polyfit(np.log(q[sel]), np.log(C[sel]), 1)[0]
    assert abs(slope - (-2 * (1 + hurst))) < 0.15  # stated tolerance: +-0.15 on the log-log slope
    # flat below the roll-off, nothing beyond the short cut-off
    below = C[(q > 2 * np.pi / L * 1.01) & (q < 0.8 * qr)]
    assert below.max() / below.min() < 10 and C[q > 1.05 * qs].max() < 1e-12 * C.max()


def test_rms_slope_request_and_two_measures_agree():
    h = self_affine_surface((128, 96), A, hurst=0.7, rms_slope=0.2, q_short=2 * np.pi / (16 * A), seed=0)
    assert rms_slope(h, A) == pytest.approx(0.2, rel=1e-12)
    # well below Nyquist, finite differences agree with the spectral derivative
    assert rms_slope(h, A, periodic=False) == pytest.approx(0.2, rel=0.03)
    np.testing.assert_allclose(h, self_affine_surface((128, 96), A, hurst=0.7, rms_slope=0.2,
                                                      q_short=2 * np.pi / (16 * A), seed=0))


def test_non_periodic_surface_edges_do_not_match():
    hp = self_affine_surface(128, A, hurst=0.8, rms_height=1e-7, seed=1)
    hn = self_affine_surface(128, A, hurst=0.8, rms_height=1e-7, seed=1, periodic=False)
    jump = lambda h: np.mean((h[0] - h[-1]) ** 2) / np.mean((h[1:] - h[:-1]) ** 2)  # noqa: E731
    assert jump(hp) < 3 and jump(hn) > 10
    assert rms_height(hn) == pytest.approx(1e-7, rel=1e-12)


def test_generator_refuses_bad_input():
    with pytest.raises(ParameterError, match="exactly one"):
        self_affine_surface(32, A, hurst=0.8)
    with pytest.raises(ParameterError, match="hurst"):
        self_affine_surface(32, A, hurst=1.2, rms_height=1e-7)
    with pytest.raises(ParameterError, match="q_long"):
        self_affine_surface(32, A, hurst=0.8, rms_height=1e-7, q_short=1e9)


def test_sphere_matches_hertz_in_si_units():
    E, nu, R = 1e9, 0.3, 1e-3
    e_star = E / (1 - nu**2)
    n = 129
    x = (np.arange(n) - n // 2) * A
    h = -(x[:, None] ** 2 + x[None, :] ** 2) / (2 * R)
    a = 32e-6  # contact radius: 32 pixels
    F = 4 * e_star * a**3 / (3 * R)  # Johnson (1985) eq. 4.22
    s = solve_contact(h, A, youngs_modulus=E, poisson_ratio=nu, load=F, periodic=False)
    assert math.sqrt(s.contact_area / math.pi) == pytest.approx(a, rel=0.01)
    assert s.approach == pytest.approx(a**2 / R, rel=0.01)
    assert s.pressure.max() == pytest.approx(3 * F / (2 * math.pi * a**2), rel=0.01)
    assert s.pressure.sum() * A**2 == pytest.approx(F, rel=1e-9)
    assert s.n_clusters == 1 and s.gap.min() >= 0 and np.all(s.gap[s.pressure > 0] == 0)
    assert s.contact_fraction == pytest.approx(s.contact_area / (n * A) ** 2)


def test_area_proportional_to_load_for_a_self_affine_surface():
    """Small loads: A/A0 = kappa p / (E* h'_rms) with kappa between Persson's sqrt(8/pi) = 1.60 and
    Bush et al.'s sqrt(2 pi) = 2.51 (Hyun et al., Phys. Rev. E 70 (2004) 026117: kappa ~ 2)."""
    n = 256
    E, nu = 1e9, 0.3
    e_star = E / (1 - nu**2)
    h = self_affine_surface(n, A, hurst=0.8, rms_slope=0.1, q_rolloff=4 * 2 * np.pi / (n * A),
                            q_short=2 * np.pi / (8 * A), seed=1)
    ps = np.array([0.005, 0.01]) * e_star * 0.1
    sols = solve_contact(h, A, youngs_modulus=E, poisson_ratio=nu, pressure=ps)
    kappa = np.array([s.contact_fraction * e_star * 0.1 / s.nominal_pressure for s in sols])
    assert np.all((kappa > 1.6) & (kappa < 2.8)), kappa
    assert kappa[1] / kappa[0] == pytest.approx(1.0, abs=0.1)  # proportional within 10 %
    assert sols[1].contact_area > sols[0].contact_area and sols[1].n_clusters > 1


def test_periodic_clusters_join_across_edges():
    m = np.zeros((6, 6), bool)
    m[0, 2] = m[-1, 2] = True  # one patch cut by the top/bottom edge
    m[3, 0] = m[3, -1] = True  # one cut by the left/right edge
    assert periodic_clusters(m, periodic=False)[0] == 4
    n, labels = periodic_clusters(m, periodic=True)
    assert n == 2 and labels[0, 2] == labels[-1, 2] and labels[3, 0] == labels[3, -1]


def test_solve_contact_refuses_bad_input():
    h = np.zeros((8, 8))
    with pytest.raises(ParameterError, match="exactly one"):
        solve_contact(h, A, youngs_modulus=1e9, poisson_ratio=0.3)
    with pytest.raises(ParameterError, match="poisson_ratio"):
        solve_contact(h, A, youngs_modulus=1e9, poisson_ratio=0.7, load=1.0)
    with pytest.raises(ParameterError, match="positive"):
        solve_contact(h, A, youngs_modulus=1e9, poisson_ratio=0.3, load=[1.0, -1.0])


def _gaussian_contact(n: int, periodic: bool, loads, use_numba: bool, tol: float = 1e-8):
    from frictionlab.contact.rough.surface import make_surface

    h = make_surface(n, n, seed=4) * A  # unit-variance heights scaled to 1 um
    e_star = 1e9
    return solve_contact(h, A, youngs_modulus=e_star, poisson_ratio=0.0, pressure=loads, periodic=periodic,
                         tol=tol, use_numba=use_numba)


@pytest.mark.parametrize("periodic", [True, False])
def test_array_path_gives_the_compiled_solution_to_the_tolerance(periodic):
    """``use_numba=False`` (plain projected CG, array labelling) against the compiled solver
    (preconditioned, its own iterates): same contact set and patches, forces within tol."""
    tol = 1e-8
    pressures = [3e6, 1e7]  # 3-10 % contact; a sequence: the second solve is warm-started on each path
    fast = _gaussian_contact(96, periodic, pressures, True, tol)
    plain = _gaussian_contact(96, periodic, pressures, False, tol)
    for a, b in zip(fast, plain):
        assert a.use_numba and not b.use_numba
        assert b.iterations > a.iterations  # really the other iteration
        np.testing.assert_array_equal(a.pressure > 0, b.pressure > 0)
        assert a.n_clusters == b.n_clusters > 3
        np.testing.assert_array_equal(a.cluster_labels, b.cluster_labels)
        assert np.abs(a.pressure - b.pressure).sum() / a.pressure.sum() < 10 * tol
        assert b.pressure.sum() * A**2 == pytest.approx(a.load, rel=1e-12)
        assert b.approach == pytest.approx(a.approach, rel=1e-6)
        assert np.abs(a.gap - b.gap).max() < 1e-6 * np.abs(a.gap).max()
        np.testing.assert_allclose(b.displacement, a.displacement, rtol=0, atol=1e-6 * np.abs(a.displacement).max())


def test_default_path_is_chosen_by_grid_points_times_loads(monkeypatch):
    from frictionlab.contact.rough import physical

    assert physical.ARRAY_PATH_MAX_POINTS == 512 * 512
    monkeypatch.setattr(physical, "ARRAY_PATH_MAX_POINTS", 32 * 32)
    one = _gaussian_contact(32, True, 3e7, None)
    two = _gaussian_contact(32, True, [3e7, 4e7], None)
    assert not one.use_numba and all(s.use_numba for s in two)
    explicit = _gaussian_contact(32, True, 3e7, True)
    assert explicit.use_numba
    np.testing.assert_array_equal(explicit.cluster_labels, one.cluster_labels)
    monkeypatch.setattr(physical, "ARRAY_PATH_MAX_POINTS", 64 * 64)
    assert not any(s.use_numba for s in _gaussian_contact(32, True, [3e7, 4e7], None))
