"""Rough-contact drivers of ``simulate``: same numbers as the paper-unit runners, in SI."""

from __future__ import annotations

import numpy as np
import pytest

import frictionlab as fl
from frictionlab.contact.rough.driver import rigid_surface
from frictionlab.contact.rough.model import F_STAR, run_static
from frictionlab.contact.rough.sliding import run_sliding
from frictionlab.core.errors import ConfigError
from frictionlab.core.registry import make_model, presets_of
from frictionlab.protocols import ConstantVelocity, ForceRamp, SlideHoldSlide, VelocitySteps
from frictionlab.testing import check_model, standard_protocol

SMALL = {"patch_nx": 16, "patch_ny": 16, "surface_mx": 64, "surface_beta": 3.0}


def _model(preset: str = "table1", **kw):
    return make_model("rough_contact", preset).replace(**{**SMALL, **kw})


def _steps(m, fn_scale: float = 10.0) -> VelocitySteps:
    fn = fn_scale * m.typical_inputs["normal_force"]
    return VelocitySteps(velocities=(1e-6, 1e-5), durations=(1.0, 0.4), normal_force_value=fn)


def test_sliding_matches_run_sliding_in_si():
    m = _model()
    prot = _steps(m)
    ds = fl.simulate(m, prot)
    W = prot.normal_force_value / F_STAR
    ref = run_sliding(m, rigid_surface(m), prot, nx=16, ny=16, W=W, s_max=0.25, hold_dt=0.25)
    np.testing.assert_allclose(ds.time.values, ref.time.values, rtol=0, atol=1e-12)
    np.testing.assert_allclose(ds.slip.values, ref.slip.values * 1e-6, rtol=1e-12)
    np.testing.assert_allclose(ds.slip_velocity.values, ref.slip_velocity.values * 1e-6, rtol=1e-12)
    np.testing.assert_allclose(ds.normal_force.values, -ref.normal_force.values * F_STAR, rtol=1e-12)
    np.testing.assert_allclose(ds.friction_force.values, ref.shear_force.values * F_STAR, rtol=1e-12)
    np.testing.assert_allclose(ds.friction_coefficient.values, ref.friction_coefficient.values, rtol=1e-12)
    np.testing.assert_allclose(ds.contact_area.values, ref.area_fraction.values, rtol=1e-12)
    np.testing.assert_allclose(ds.dilatation.values, ref.dilatation.values * 1e-6, rtol=1e-12)
    units = {v: ds[v].attrs["units"] for v in ("time", "slip", "slip_velocity", "normal_force", "friction_force",
                                                "friction_coefficient", "contact_area", "dilatation")}
    assert units == {"time": "s", "slip": "m", "slip_velocity": "m/s", "normal_force": "N", "friction_force": "N",
                     "friction_coefficient": "1", "contact_area": "1", "dilatation": "m"}
    # 5 um of slip at 1 um/s, then 4 um at 10 um/s; one velocity jump with its direct effect
    assert ds.slip.values[-1] == pytest.approx(5e-6, rel=1e-12)
    assert ds.sizes["jump"] == 1 and ds.v_new.attrs["units"] == "m/s"
    assert ds.mu_after.values[0] > ds.mu_before.values[0]


def test_sliding_dt_caps_the_step_and_save_dt_thins_the_output():
    m = _model()
    prot = _steps(m)
    coarse = fl.simulate(m, prot)
    fine = fl.simulate(m, prot, dt=0.05)
    assert np.max(np.diff(fine.time.values)) <= 0.05 + 1e-12
    assert fine.sizes["time"] > coarse.sizes["time"]
    saved = fl.simulate(m, prot, dt=0.05, save_dt=0.2)
    np.testing.assert_allclose(saved.time.values, np.arange(8) * 0.2, atol=1e-9)
    rows = np.searchsorted(fine.time.values, saved.time.values - 1e-9)
    np.testing.assert_allclose(fine.time.values[rows], saved.time.values, atol=1e-9)
    np.testing.assert_allclose(saved.friction_force.values, fine.friction_force.values[rows], rtol=1e-12)


def test_sliding_hold_and_slide_hold_slide():
    m = _model()
    prot = SlideHoldSlide(v=1e-6, slide_duration=1.0, holds=(1.0,), normal_force_value=m.typical_inputs["normal_force"] * 10)
    ds = fl.simulate(m, prot, hold_dt=0.5)
    hold = (ds.time.values > 1.0 + 1e-9) & (ds.time.values <= 2.0 + 1e-9)
    assert np.all(ds.slip_velocity.values[hold] == 0.0)
    assert np.ptp(ds.slip.values[hold]) == 0.0
    assert ds.slip.values[-1] == pytest.approx(2e-6, rel=1e-12)


def test_hold_driver_matches_run_static():
    m = _model()
    fn = 10 * m.typical_inputs["normal_force"]
    prot = ConstantVelocity(v=0.0, duration_s=10.0, normal_force_value=fn)
    ds = fl.simulate(m, prot, integrator="hold", per_decade=4)
    ref = run_static(m, rigid_surface(m)[:16], fn / F_STAR, t_end=10.0, per_decade=4)
    np.testing.assert_allclose(ds.contact_area.values, ref.area_fraction.values, rtol=1e-12)
    np.testing.assert_allclose(ds.friction_force.values, ref.friction_coefficient.values * fn, rtol=1e-10)
    np.testing.assert_allclose(ds.dilatation.values, ref.dilatation.values * 1e-6, rtol=1e-12)
    assert ds.normal_force.attrs["units"] == "N" and ds.normal_force.values[-1] == pytest.approx(fn, rel=1e-12)
    assert ds.contact_area.values[-1] > ds.contact_area.values[0]  # ageing: the area grows under the hold


def test_refusals_are_one_line():
    m = _model()
    prot = _steps(m)
    with pytest.raises(ConfigError, match="no option 's_maxx'.*did you mean 's_max'"):
        fl.simulate(m, prot, s_maxx=0.5)
    with pytest.raises(ConfigError, match="needs a hold at one constant normal force"):
        fl.simulate(m, prot, integrator="hold")
    with pytest.raises(ConfigError, match="log-spaced"):
        fl.simulate(m, ConstantVelocity(v=0.0, duration_s=1.0, normal_force_value=0.1), integrator="hold", dt=0.1)
    with pytest.raises(ConfigError, match="applies a tangential force"):
        fl.simulate(m, ForceRamp(rate=1.0, duration_s=1.0, normal_force_value=0.1))
    with pytest.raises(ConfigError, match="'shift'"):
        fl.simulate(m, prot, shift="linear")


def test_solver_options_replace_the_models_numerics():
    m = _model()
    prot = _steps(m)
    ds = fl.simulate(m, prot, tol=1e-12, solver="pk")
    assert ds.attrs["tol"] == 1e-12 and ds.attrs["solver"] == "pk"
    assert fl.simulate(m, prot).attrs["tol"] == m.tol


@pytest.mark.parametrize("preset", sorted(presets_of("rough_contact")))
def test_check_model_every_preset(preset):
    """The model contract on a 16 x 16 patch, 20 coarse steps of the standard velocity steps.

    At 1 GPa nominal pressure: at the standard 100 MPa the small patch has 1-3 elements in
    contact and the Polonsky-Keer solver can lose the last one (see the report of issue 12).
    """
    m = _model(preset)
    std = standard_protocol(m)
    r = check_model(m, protocol=std.replace(normal_force_value=10 * std.normal_force_value), steps=20)
    assert r.driver == "sliding"
    assert r.result.friction_force.attrs["units"] == "N"
