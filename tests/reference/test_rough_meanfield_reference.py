"""Exact mean-field results of the rough-contact model (reference.meanfield_rough) and the
Fig. 6 / Fig. 8 / Fig. 14 checks built on them."""

import math

import numpy as np
import pytest

from frictionlab.contact.rough.model import STRESS_STAR, TAU_S_BAR
from frictionlab.core.errors import ParameterError
from frictionlab.reference.meanfield_rough import (gaussian_paths, meanfield_mu_static, meanfield_pressure_elasticity,
                                                   meanfield_steady_sliding, paired_difference, relaxed_compliance)

P100 = 100e6 / STRESS_STAR


@pytest.mark.parametrize("c", [1.0, 1.2, 11.0])
@pytest.mark.parametrize("p_mpa", [25.0, 100.0, 400.0])
def test_pressure_elasticity_is_the_derivative_of_the_closed_form(c, p_mpa):
    p = p_mpa * 1e6 / STRESS_STAR
    h = 1e-4
    fd = (math.log(meanfield_mu_static(p * (1 + h), TAU_S_BAR, c=c))
          - math.log(meanfield_mu_static(p * (1 - h), TAU_S_BAR, c=c))) / (math.log1p(h) - math.log1p(-h))
    el = meanfield_pressure_elasticity(p, c=c)
    assert el < 0
    assert el == pytest.approx(fd, rel=1e-5)


def test_closed_form_values_at_100_mpa():
    # spec table (D17): c = 1 -> 0.440, relaxed c = 1.2 -> 0.518; per doubling about -7.6 % (relaxed)
    assert meanfield_mu_static(P100, TAU_S_BAR) == pytest.approx(0.4403, abs=2e-4)
    assert meanfield_mu_static(P100, TAU_S_BAR, c=1.2) == pytest.approx(0.5179, abs=2e-4)
    r = meanfield_mu_static(2 * P100, TAU_S_BAR, c=1.2) / meanfield_mu_static(P100, TAU_S_BAR, c=1.2)
    assert r == pytest.approx(0.920, abs=2e-3)


def test_relaxed_compliance_and_refusal():
    assert relaxed_compliance((1.0,), (0.2,), 100.0) == pytest.approx(1.2)
    assert relaxed_compliance((1.0, 0.1, 0.01, 0.001), (0.05, 0.005, 5e-4, 5e-5), 1e5) == pytest.approx(1.2)
    with pytest.raises(ParameterError, match="not long enough"):
        relaxed_compliance((1.0, 0.001), (0.1, 1e-4), 100.0)


def test_gaussian_paths_statistics():
    h = gaussian_paths(64, 4000, 0.5, beta=10.0, seed=1)
    assert np.var(h) == pytest.approx(1.0, rel=0.05)
    lag = 20  # 10 um = beta
    corr = np.mean(h[:, :-lag] * h[:, lag:]) / np.var(h)
    assert corr == pytest.approx(math.exp(-1.0), abs=0.05)


def test_steady_sliding_slow_limit_is_the_relaxed_static_state():
    # v -> 0: every contact relaxes, mu_ss -> (tau_s + alpha ln v) Phibar(eta_relaxed)/p
    v = 1e-3
    r = meanfield_steady_sliding(v, lams=(1.0,), As=(1.0,), pressure_bar=P100, tau_s=TAU_S_BAR, alpha=2e-4,
                                 n_paths=1024, window=800.0, slip_step=0.5, relax=3.0)
    want = meanfield_mu_static(P100, TAU_S_BAR + 2e-4 * math.log(v), c=2.0)
    assert abs(r.friction_coefficient - want) <= 4 * r.friction_se
    assert r.friction_se < 0.03 * want


def test_steady_sliding_paired_difference_is_resolved_at_the_stated_velocities():
    kw = dict(lams=(1.0,), As=(1.0,), pressure_bar=P100, tau_s=TAU_S_BAR, alpha=2e-4, n_paths=256, window=400.0,
              slip_step=0.5, relax=3.0)
    a, b = meanfield_steady_sliding(1.0, **kw), meanfield_steady_sliding(10.0, **kw)
    d, se = paired_difference(b, a)
    assert d > 10 * se > 0  # blue set weakens strongly between v = 1 and 10
    with pytest.raises(ParameterError):
        paired_difference(a, meanfield_steady_sliding(10.0, **{**kw, "n_paths": 128}))


def _fig14_reference_ds(d_stated, d_shifted, se, path=1e4):
    """fig14's reference curve (SI: velocities in m/s, path and memory in m; ``path`` given in um)."""
    import xarray as xr

    from frictionlab.scenarios.base import get_scenario
    from frictionlab.scenarios.rough_contact.fig14 import _ref_velocities

    vels = _ref_velocities(get_scenario("rough-contact/fig14").resolved_config())  # 1, 10, 100, 1000 um/s
    mu = np.array([[0.7, 0.7 - d_stated[k], 0.5, 0.5 - d_shifted[k]] for k in range(2)])
    dse = np.full((2, 4, 4), se)
    return xr.Dataset({"mu_ss_meanfield_large": (("set", "ref_velocity"), mu),
                       "mu_ss_diff_se": (("set", "ref_velocity", "ref_velocity_b"), dse)},
                      coords={"set": ["blue", "red"], "ref_velocity": vels},
                      attrs={"reference_path": path * 1e-6, "reference_memory": 1000e-6})


@pytest.mark.parametrize("d_shifted, se, ok", [((-0.013, 0.058), 0.002, (True, True)),
                                               ((-0.013, 0.058), 0.01, (False, True)),   # blue not resolved
                                               ((0.013, 0.058), 0.002, (False, True))])  # blue weakens
def test_fig14_shifted_window_check_needs_a_resolved_sign(d_shifted, se, ok):
    from frictionlab.scenarios.base import get_scenario
    from frictionlab.scenarios.rough_contact.fig14 import _reference_checks

    cfg = get_scenario("rough-contact/fig14").resolved_config()
    evidence, shifted = _reference_checks(_fig14_reference_ds((0.17, 1.6), d_shifted, se), cfg)
    assert all(e.status == "pass" for e in evidence.values())  # both weaken at v = 1..10
    assert tuple(c.status == "pass" for c in shifted) == ok


def test_fig14_shifted_window_refuses_paths_shorter_than_ten_memory_lengths():
    """The former 400 um periodic path at v = 1000 (memory 1000 um) fed each element its own past: such a
    result is not evidence, whatever its sign (issue 26)."""
    from frictionlab.scenarios.base import get_scenario
    from frictionlab.scenarios.rough_contact.fig14 import _reference_checks

    cfg = get_scenario("rough-contact/fig14").resolved_config()
    _, shifted = _reference_checks(_fig14_reference_ds((0.17, 1.6), (-0.013, 0.058), 0.002, path=400.0), cfg)
    assert [c.status for c in shifted] == ["fail", "fail"]
    assert all("0.4 x the memory 1000 um" in c.measured for c in shifted)
