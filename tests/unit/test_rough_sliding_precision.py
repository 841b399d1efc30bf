"""Single-precision FFT products in the sliding steps only (``sliding_fft_precision``, issue 17 item 4):
the option is used where it says (sliding steps float32, loading and holds float64), refused where it
cannot apply, and a solve that does not converge in single precision raises."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

from frictionlab.contact.rough.model import RoughContact, load_from_pressure
from frictionlab.contact.rough.numerics import SolverOptions
from frictionlab.contact.rough.sliding import run_sliding
from frictionlab.contact.rough.surface import make_surface
from frictionlab.core.errors import ConfigError, IntegrationError
from frictionlab.protocols import ConstantVelocity, SlideHoldSlide

N = 32


@pytest.fixture(scope="module")
def surf():
    return make_surface(N + 40, N, beta_x=5.0, seed=1), load_from_pressure(100e6, N, N)


def _slide(surf, prec, steps=24, **kw):
    h, W = surf
    num = SolverOptions(sliding_fft_precision=prec, fft_workers=1)
    return run_sliding(RoughContact(), h, ConstantVelocity(v=10e-6, duration_s=steps * 0.025), W=W, nx=N, ny=N,
                       numerics=num, return_sim=True, **kw)


def test_single_precision_is_used_in_the_sliding_steps(surf):
    ds_d, sim_d = _slide(surf, "double")
    ds_s, sim_s = _slide(surf, "single")
    assert sim_s.base.fft_precision == "single" and sim_s.base._buffers()["C"].dtype == np.complex64
    assert sim_d.base.fft_precision == "double" and sim_d.base._buffers()["C"].dtype == np.complex128
    # float32 round-off, not float64: the dilatation differs, by far less than any check resolves
    dd = np.abs(ds_s.dilatation.values - ds_d.dilatation.values)
    assert dd[0] == 0.0  # the loading (t = 0+) is a double-precision solve at tol 1e-8
    assert 0.0 < dd.max() < 1e-5
    np.testing.assert_allclose(ds_s.friction_coefficient.values, ds_d.friction_coefficient.values, rtol=0, atol=1e-4)
    # iterations do not grow in single precision
    assert ds_s.solver_iterations.values[1:].mean() <= ds_d.solver_iterations.values[1:].mean() + 1.0


def test_holds_go_back_to_double_precision(surf):
    h, W = surf
    num = SolverOptions(sliding_fft_precision="single", fft_workers=1)
    prot = SlideHoldSlide(v=10e-6, slide_duration=0.2, holds=(0.5,))
    seen = []
    from frictionlab.contact.rough import model as rmodel

    orig = rmodel.RoughContactSim.use_fft_precision

    def spy(self, p):
        seen.append(p)
        return orig(self, p)

    rmodel.RoughContactSim.use_fft_precision = spy
    try:
        run_sliding(RoughContact(), h, prot, W=W, nx=N, ny=N, numerics=num, hold_dt=0.25)
    finally:
        rmodel.RoughContactSim.use_fft_precision = orig
    assert "single" in seen and "double" in seen
    assert seen[0] == "single" and seen[-1] == "single"


def test_back_to_double_drops_the_carried_single_products(surf):
    _, sim = _slide(surf, "single", steps=4)
    assert sim._Kp is not None
    sim.use_fft_precision("double")
    assert sim.base.fft_precision == "double" and sim._Kp is None and sim._Kq is None


@pytest.mark.parametrize("kw, match", [
    ({"sliding_fft_precision": "half"}, "sliding_fft_precision = 'half' is not one of"),
    ({"sliding_fft_precision": "single", "tol_sliding": 1e-7}, "needs tol_sliding >= 1e-6"),
    ({"sliding_fft_precision": "single", "backend": "torch"}, "needs backend = 'numpy'"),
])
def test_invalid_settings_are_refused(kw, match):
    with pytest.raises(ConfigError, match=match):
        SolverOptions(**kw)


def test_refused_for_the_mean_field_and_not_an_option_of_hold():
    with pytest.raises(ConfigError, match="applies only to interaction = 'boussinesq'"):
        SolverOptions(sliding_fft_precision="single").check_for("meanfield")
    SolverOptions(sliding_fft_precision="single").check_for("boussinesq")
    from frictionlab.solve.drivers import driver_for

    assert "sliding_fft_precision" in driver_for(RoughContact, "sliding").options
    assert "sliding_fft_precision" not in driver_for(RoughContact, "hold").options


def test_non_convergence_in_single_precision_raises(surf):
    h, W = surf
    _, sim = _slide(surf, "single", steps=2)
    sim.numerics = dataclasses.replace(sim.numerics, max_iter=1)
    with pytest.raises(IntegrationError, match="did not converge in 1 iterations"):
        run_sliding(RoughContact(), h, ConstantVelocity(v=10e-6, duration_s=0.1), W=W, nx=N, ny=N, sim=sim)


def test_scenario_precision_control_is_checked_in_the_run():
    """The paper-size Figs. 13/14 slide in single precision and check a double control in the same run;
    the quick profiles stay double."""
    import xarray as xr

    from frictionlab.scenarios.base import get_scenario
    from frictionlab.scenarios.rough_contact import _sliding, fig13, fig14

    assert fig13.CONFIG["integrator"]["sliding_fft_precision"] == "single"
    assert fig14.CONFIG["analysis"]["sliding_fft_precision"] == "single"  # the Boussinesq runs' (the mean field: double)
    sc = get_scenario("rough-contact/fig13")
    assert not _sliding.single_sliding(sc.resolved_config(quick=True))
    cfg = sc.resolved_config({"integrator.sliding_fft_precision": "single", "model.patch_nx": 24,
                              "model.patch_ny": 24}, quick=True)
    assert _sliding.single_sliding(cfg)
    at = _sliding.precision_control(cfg, _sliding.build_model(cfg, interaction="boussinesq"), 10e-6)
    assert at["precision_control_steps"] == 20  # 10 um at 0.5 um per step
    assert 0.0 < at["precision_control_dilatation"] <= at["precision_control_tol_dilatation"]  # m
    (ok,) = _sliding.precision_checks(xr.Dataset(attrs=at))
    assert ok.passed and "v = 10 um/s" in ok.claim
    (bad,) = _sliding.precision_checks(xr.Dataset(attrs={**at, "precision_control_tol_dilatation": 1e-18}))
    assert not bad.passed
    assert _sliding.precision_checks(xr.Dataset()) == []
    # the mean field (no FFT) runs double under the same [integrator]
    mf = _sliding.slide(cfg, _sliding.build_model(cfg, interaction="meanfield"), [10e-6], [1e-6])
    assert mf.attrs["sliding_fft_precision"] == "double"


def test_study_control_round_is_the_former_in_run_control_bit_for_bit():
    """Figs. 13/14 as studies: with single-precision sliding steps a refinement round slides the control pair
    (``precision_single``, ``precision_double``) on the first set at the first velocity; its attributes are
    those of :func:`_sliding.precision_control` (the former in-run control) exactly. Double precision: no
    control round. Fig. 14's mean-field runs slide in double precision whatever the Boussinesq runs use."""
    from frictionlab.scenarios.base import get_scenario
    from frictionlab.scenarios.rough_contact import _sliding

    sc = get_scenario("rough-contact/fig13")
    tiny = {"model.patch_nx": 16, "model.patch_ny": 16, "model.surface_mx": 32, "protocol.normal_force_value": 0.0256,
            "protocol.distances": [4e-6], "axes.protocol.velocities": [[1e-5], [1e-4]], "analysis.map_set": [1.0, 1.0]}
    cfg = sc.resolved_config({**tiny, "integrator.sliding_fft_precision": "single"}, quick=True)
    ds = sc.run_study(cfg)
    lam, A = cfg["analysis"]["sets"]["fig13a_1"]
    want = _sliding.precision_control(cfg, _sliding.build_model(cfg, lams=(lam,), As=(A,)), 1e-5)
    assert {k: v for k, v in ds.attrs.items() if k.startswith("precision_control")} == want
    assert want["precision_control_steps"] == 20  # 10 um at 0.5 um per step
    double = sc.run_study(sc.resolved_config(tiny, quick=True))
    assert not any(k.startswith("precision_control") for k in double.attrs)
    assert double.contact_area.shape == (4, 2) and np.all(double.contact_area.values > 0)  # 4 quick sets x 2 v

    sc14 = get_scenario("rough-contact/fig14")
    pts = sc14.study(sc14.resolved_config()).points()
    assert {(dict(p.coords)["model.interaction"], p.config["integrator"]["sliding_fft_precision"]) for p in pts} == {
        ("boussinesq", "single"), ("meanfield", "double")}
    # its control round: the first set, Boussinesq, at the first velocity, single then double
    from frictionlab.scenarios.rough_contact import fig14
    from frictionlab.solve.study import StudyResult

    cfg14 = sc14.resolved_config()
    first = StudyResult(pts, [None] * len(pts), ["jump", "reference"], ["model.interaction", "analysis.set"])
    more = fig14.refine(first, cfg14)
    base = {k: v for k, v in cfg14.items() if k not in ("runs", "axes")}
    control = sc14.study({**base, **more}).points()
    assert [(p.label, p.config["integrator"]["sliding_fft_precision"]) for p in control] == [
        ("precision_single", "single"), ("precision_double", "double")]
    assert all(p.config["model"]["interaction"] == "boussinesq" and p.config["model"]["As"] == [1.0]
               and p.config["protocol"]["velocities"] == [cfg14["protocol"]["velocities"][0]]
               and p.config["protocol"]["distances"] == [_sliding.PRECISION_CONTROL["slip"]]
               for p in control)
    assert fig14.refine(StudyResult(pts + control, [None] * 10, ["jump", "reference", *fig14.CONTROL_RUNS],
                                    ["model.interaction", "analysis.set"]), cfg14) is None  # once
