"""subloading/stick-slip-map: the linear-stability estimate, one point, bad input, the quick map."""

import dataclasses
import math

import numpy as np
import pytest

from frictionlab.core.errors import ConfigError
from frictionlab.core.registry import make_model
from frictionlab.laws.subloading import c_from_mm_mpa
from frictionlab.scenarios import get_scenario
from frictionlab.scenarios.subloading import stick_slip_map as ssm

AREA, MASS, K = 1e-4, 3000.0, 4e4  # Fig. 9 set: 100 mm^2, 3 N s^2/mm, 40 N/mm
MODEL = make_model("subloading", "fig9")


def _model(c_mm):
    return dataclasses.replace(MODEL, c=c_from_mm_mpa(c_mm, MODEL.d))


@pytest.mark.parametrize("V", [3e-6, 1e-5, 1e-4])
def test_estimate_uses_minus_the_steady_traction_slope(V):
    # beta - alpha = -V d(A_a f_ss)/dV, f_ss = A_ss(V) tau(V) the law's closed-form steady traction
    m = _model(0.005)
    alpha, beta, L = ssm.linear_coefficients(m, V, AREA)
    h = 1e-5
    fss = lambda v: AREA * float(m.steady_stress(v, 3e5))  # noqa: E731
    slope = (fss(V * (1 + h)) - fss(V * (1 - h))) / (math.log1p(h) - math.log1p(-h))
    assert beta - alpha == pytest.approx(-slope, rel=1e-6)
    assert alpha == pytest.approx(AREA * float(m.steady_area(V)) * m.c * m.d * V**m.d, rel=1e-12)
    assert L == pytest.approx(V / (V / m.kappa + 1 / m.xi), rel=1e-12)


@pytest.mark.parametrize("V", [3e-6, 1e-5, 1e-4])
def test_critical_c_is_the_hopf_point_of_the_linearised_slider(V):
    c_star = ssm.critical_c(MODEL, V, AREA, MASS, K)
    m = dataclasses.replace(MODEL, c=c_star)
    assert ssm.critical_stiffness(m, V, AREA, MASS) == pytest.approx(K, rel=1e-9)
    alpha, beta, L = ssm.linear_coefficients(m, V, AREA)
    s = V / L

    def roots(k):  # M V l^3 + (M V s + alpha) l^2 + (k V - (beta - alpha) s) l + k V s = 0
        return np.roots([MASS * V, MASS * V * s + alpha, k * V - (beta - alpha) * s, k * V * s])

    assert np.max(roots(K).real) == pytest.approx(0.0, abs=1e-6 * s)
    assert np.max(roots(0.97 * K).real) > 0  # softer spring: unstable
    assert np.max(roots(1.03 * K).real) < 0


def test_critical_c_values_and_trend():
    conv = c_from_mm_mpa(1.0, MODEL.d)
    cs = [ssm.critical_c(MODEL, V, AREA, MASS, K) / conv for V in (3e-6, 1e-5, 3e-5, 1e-4)]
    np.testing.assert_allclose(cs, [0.003927, 0.006264, 0.008592, 0.013099], rtol=1e-3)
    assert np.all(np.diff(cs) > 0)  # the boundary rises with V
    # no direct effect: K_cr infinite (stick-slip for every spring)
    assert ssm.critical_stiffness(_model(0.0), 1e-5, AREA, MASS) == math.inf
    # K_cr falls with c
    ks = [ssm.critical_stiffness(_model(c), 1e-5, AREA, MASS) for c in (0.002, 0.004, 0.008, 0.016)]
    assert np.all(np.diff(ks) < 0)


def _point(c_mm, v_mm_s, **numerics):
    """The map's values at one point: the study over a one-point grid."""
    ds, _ = get_scenario("subloading/stick-slip-map").execute(
        {"axes.analysis.c": [c_mm], "axes.protocol.v": [v_mm_s * 1e-3],
         **{f"integrator.{k}": v for k, v in numerics.items()}})
    return {k: float(ds[k].values.item()) for k in ("amplitude", "amplitude_ratio", "force_mid", "steady_force")}


def test_point_below_and_above_the_boundary():
    below = _point(0.0065, 0.1)  # 0.5 c*: stick-slip, steady limit cycle
    above = _point(0.026, 0.1)  # 2 c*: decays onto the closed-form steady force
    assert below["amplitude"] > 1.0 and below["amplitude_ratio"] == pytest.approx(1.0, abs=0.05)
    assert above["amplitude"] < 1e-5
    assert above["force_mid"] == pytest.approx(above["steady_force"], rel=1e-6)
    m = _model(0.026)
    assert above["steady_force"] == pytest.approx(AREA * float(m.steady_area(1e-4)) * float(m.tau(1e-4)), rel=1e-12)


def test_point_amplitude_converges_with_dt():
    a1 = _point(0.0015, 0.1, dt=1e-3)["amplitude"]
    a2 = _point(0.0015, 0.1, dt=5e-4)["amplitude"]
    assert a1 > 2.0
    assert abs(a2 - a1) / a1 < 0.02


def test_bad_input():
    sc = get_scenario("subloading/stick-slip-map")
    with pytest.raises(ConfigError, match="drive velocities must be > 0"):
        sc.execute({"axes.protocol.v": [0.0]})
    with pytest.raises(ConfigError, match="non-empty list"):
        sc.execute({"axes.analysis.c": []})
    with pytest.raises(ConfigError, match="kappa"):
        ssm.linear_coefficients(dataclasses.replace(MODEL, kappa=0.0), 1e-5, AREA)
    # the former [map] keys point to where they went; the store and scheduler are the sweep's
    with pytest.raises(ConfigError, match="axes.analysis.c"):
        sc.execute({"map.c_mm": [0.0]})
    with pytest.raises(ConfigError, match="frictionlab sweep"):
        sc.execute({"map.store": "x"})
    with pytest.raises(ConfigError, match="unknown key .analysis.velocity. .did you mean .fig9_velocity_mm_s"):
        sc.execute({"analysis.velocity": [0.01]})


def test_quick_map_checks_pass():
    sc = get_scenario("subloading/stick-slip-map")
    ds, cfg = sc.execute(quick=True)
    assert dict(ds.amplitude.sizes) == {"c": 6, "drive_velocity": 3}
    assert np.isfinite(ds.amplitude.values).all() and ds.attrs["n_failed"] == 0
    # Fig. 9 values at V = 0.01 mm/s (c = 0, 0.0015, 0.005): the subloading/fig9 amplitudes
    amp9 = ds.amplitude.sel(drive_velocity=0.01, c=[0.0, 0.0015, 0.005]).values
    np.testing.assert_allclose(amp9, [0.945, 0.751, 0.447], rtol=0.03)
    assert not bool(ds.stick_slip.sel(drive_velocity=0.01, c=0.01))
    checks = sc.evaluate(ds, cfg)
    assert len(checks) >= 8
    failed = [c for c in checks if not c.passed]
    assert not failed, failed


@pytest.mark.slow(reason="full map: 65 oscillator runs (~1.5 min on one core)")
def test_full_map_checks_pass():
    sc = get_scenario("subloading/stick-slip-map")
    ds, cfg = sc.execute()
    failed = [c for c in sc.evaluate(ds, cfg) if not c.passed]
    assert not failed, failed


def test_summary_gives_a_sweep_the_metrics_of_one_point_and_refuses_a_map():
    sc = get_scenario("subloading/stick-slip-map")
    ds, _ = sc.execute({"axes.analysis.c": [0.0, 0.02], "axes.protocol.v": [1e-4]})
    one = sc.summary(ds.isel(c=[1]))
    assert one["amplitude"] == float(ds.amplitude.values[1, 0]) < 1e-2
    assert set(one) == {"amplitude", "amplitude_previous", "amplitude_ratio", "force_mid", "steady_force"}
    with pytest.raises(ConfigError, match="one \\(c, V\\)"):
        sc.summary(ds)
