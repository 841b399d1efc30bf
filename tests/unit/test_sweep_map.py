"""classic/rsf-stability-map: the closed-form inertial boundary and the quick map's checks."""

import numpy as np
import pytest

from frictionlab.core.errors import ConfigError

from frictionlab.scenarios import get_scenario
from frictionlab.scenarios.classic.rsf_stability_map import critical_stiffness_inertial

A, B, DC, N, M = 0.010, 0.015, 1e-5, 1.0, 1.0


def _cubic_roots(k, v):
    s = v / DC
    return np.roots([M * v, M * v * s + A * N, k * v - (B - A) * N * s, k * v * s])


@pytest.mark.parametrize("v", [1e-6, 1e-4, 3e-4, 1e-3])
def test_boundary_is_the_hopf_point_of_the_linearised_slider(v):
    kcr = float(critical_stiffness_inertial(v, A, B, DC, N, M))
    # at K_cr a pair of roots sits on the imaginary axis; just below it grows, just above it decays
    assert np.max(_cubic_roots(kcr, v).real) == pytest.approx(0.0, abs=1e-6 * v / DC)
    assert np.max(_cubic_roots(0.97 * kcr, v).real) > 0
    assert np.max(_cubic_roots(1.03 * kcr, v).real) < 0


def test_boundary_limits():
    kc = (B - A) * N / DC
    assert critical_stiffness_inertial(0.0, A, B, DC, N, M) == pytest.approx(kc)
    v1 = np.sqrt(A * N * DC / M)  # M V^2 = a N Dc doubles it
    assert critical_stiffness_inertial(v1, A, B, DC, N, M) == pytest.approx(2 * kc)


def test_quick_map_checks_pass():
    sc = get_scenario("classic/rsf-stability-map")
    ds, cfg = sc.execute(quick=True)
    assert dict(ds.growth.sizes) == {"stiffness_ratio": 4, "velocity": 3}
    assert ds.stiffness_ratio.values.tolist() == [0.5, 1.6, 4.0, 16.0]  # K / k_c labels of the springs
    np.testing.assert_allclose(ds.critical_ratio.values, 1 + M * ds.velocity.values**2 / (A * N * DC))
    checks = sc.evaluate(ds, cfg)
    assert len(checks) >= 4
    failed = [c for c in checks if not c.passed]
    assert not failed, failed


def test_map_keys_moved_to_the_study():
    sc = get_scenario("classic/rsf-stability-map")
    with pytest.raises(ConfigError, match="no map.velocities any more: axes.protocol.v"):
        sc.resolved_config({"map.velocities": [1e-4]})
    with pytest.raises(ConfigError, match="sets integrator.dt itself"):
        sc.resolved_config({"integrator.dt": 1e-3})


@pytest.mark.slow(reason="full map: 45 spring-slider runs (~2 min on one core)")
def test_full_map_checks_pass():
    sc = get_scenario("classic/rsf-stability-map")
    ds, cfg = sc.execute()
    failed = [c for c in sc.evaluate(ds, cfg) if not c.passed]
    assert not failed, failed
