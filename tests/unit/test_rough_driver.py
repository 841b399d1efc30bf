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
from frictionlab.solve.config import run_config
from frictionlab.protocols import ConstantVelocity, ForceRamp, SlideHoldSlide, VelocitySteps
from frictionlab.testing import check_model, standard_protocol

SMALL = {"patch_nx": 16, "patch_ny": 16, "surface_mx": 64, "surface_beta": 3e-6}


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


def test_solver_options_are_driver_options_and_are_used():
    m = _model()
    prot = _steps(m)
    ds = fl.simulate(m, prot, tol=1e-12, tol_sliding=1e-10, solver="pk")
    assert ds.attrs["tol"] == 1e-12 and ds.attrs["tol_sliding"] == 1e-10 and ds.attrs["solver"] == "pk"
    default = fl.simulate(m, prot)
    assert default.attrs["tol"] == 1e-8 and default.attrs["tol_sliding"] == 1e-6
    # the tolerance is used: tighter costs more PK iterations on the sliding steps
    assert ds.solver_iterations.values.sum() > default.solver_iterations.values.sum()
    with pytest.raises(ConfigError, match="applies only to interaction = 'meanfield'"):
        fl.simulate(m, prot, solver="exact")
    with pytest.raises(ConfigError, match="fft_precision = 'single' needs tol"):
        fl.simulate(m, prot, fft_precision="single")
    with pytest.raises(ConfigError, match="has no option 'tolerance'"):
        fl.simulate(m, prot, tolerance=1e-6)


@pytest.mark.parametrize("key, value", [("tol", 1e-6), ("tol_sliding", 1e-5), ("solver", "pk"), ("max_iter", 100),
                                        ("backend", "numpy"), ("fft_precision", "double"), ("fft_workers", 1)])
def test_model_refuses_the_former_solver_fields_pointing_to_integrator(key, value):
    """Issue 12 item 5: numerics left the model; an old [model] key is refused, never ignored."""
    with pytest.raises(ConfigError, match=rf"'{key}' is a solver option.*\[integrator\]"):
        make_model("rough_contact", "table1", **{key: value})
    with pytest.raises(ConfigError, match=r"\[integrator\]"):
        run_config({"model": {"name": "rough_contact", key: value},
                       "protocol": {"type": "constant_velocity", "v": 1e-6, "normal_force_value": 1.0}})
    assert key not in make_model("rough_contact", "table1").to_dict()


def test_sliding_records_snapshots_probes_and_pooled_pdf_in_si():
    m = _model()
    prot = _steps(m)
    ds = fl.simulate(m, prot, snapshot_times=[0.0, 1.0], probes=[[2, 3], [10, 11]], pdf_after_slip=2e-6)
    W = prot.normal_force_value / F_STAR
    ref = run_sliding(m, rigid_surface(m), prot, nx=16, ny=16, W=W, snapshot_times=(0.0, 1.0),
                      probes=((2, 3), (10, 11)), pdf_after_slip=2.0)
    np.testing.assert_allclose(ds.snapshot_time.values, [0.0, 1.0], atol=1e-12)
    np.testing.assert_allclose(ds.snapshot_slip.values, ref.snapshot_slip.values * 1e-6, rtol=1e-12)
    np.testing.assert_allclose(ds.contact_force.values, ref.contact_force.values * F_STAR, rtol=1e-6)
    np.testing.assert_allclose(ds.probe_force.values, ref.probe_force.values * F_STAR, rtol=1e-12)
    np.testing.assert_allclose(ds.probe_gap.values, ref.probe_gap.values * 1e-6, rtol=1e-12, atol=1e-20)
    np.testing.assert_allclose(ds.force_pdf.values, ref.force_pdf.values / F_STAR, rtol=1e-12)
    assert ds.contact_force.attrs["units"] == "N" and ds.probe_gap.attrs["units"] == "m"
    assert ds.attrs["pdf_samples"] == ref.attrs["pdf_samples"] > 0
    with pytest.raises(ConfigError, match="outside the 16 x 16 patch"):
        fl.simulate(m, prot, probes=[[16, 0]])
    with pytest.raises(ConfigError, match="option 'probes' of driver 'sliding' must be a list of element index pairs"):
        fl.simulate(m, prot, probes=[1, 2])


def test_hold_records_snapshots_in_si_converted_by_the_units_module():
    """The hold driver's result is the kernel's record converted by contact/rough/units.py alone: every
    variable is the paper-unit value times its scale, with the SI unit and the standard names."""
    from frictionlab.contact.rough.units import F_STAR as F, L_STAR as L, to_paper, to_si_value

    m = _model(surface_mx=16)
    fn = 10 * m.typical_inputs["normal_force"]
    ds = fl.simulate(m, ConstantVelocity(v=0.0, duration_s=10.0, normal_force_value=fn), integrator="hold",
                     per_decade=3, snapshot_times=[0.0, 10.0])
    ref = run_static(m, rigid_surface(m), to_paper(fn, "N"), t_end=10.0, per_decade=3, snapshot_times=(0.0, 10.0))
    for si, paper, unit, scale in (("dilatation", "dilatation", "m", L), ("real_contact_area", "contact_area", "m^2", L**2),
                                   ("contact_area", "area_fraction", "1", 1.0), ("mean_contact_radius", None, "m", L),
                                   ("friction_coefficient", None, "1", 1.0), ("force_pdf", None, "1/N", 1 / F),
                                   ("mean_force_per_contact", None, "N", F), ("contact_force", None, "N", F)):
        np.testing.assert_allclose(ds[si].values, ref[paper or si].values * scale, rtol=1e-6 if si == "contact_force"
                                   else 1e-12, err_msg=si)
        assert ds[si].attrs["units"] == unit, si
    np.testing.assert_allclose(ds.normal_force.values, -ref.normal_force.values * F, rtol=1e-12)
    assert to_si_value(1.0, "Pa") == pytest.approx(F / L**2) and to_paper(to_si_value(2.5, "m/s"), "m/s") == 2.5
    assert "W" not in ds.attrs and ds.attrs["F_star_N"] == F


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


def test_load_programme_starts_loaded_at_the_protocols_initial_load():
    """Under a load ramp the loaded state at t = 0 was solved (and recorded) at the load of the end of
    the first step (1.1 x the initial load on this 20-step grid); it is the protocol's load at t = 0."""
    from frictionlab.protocols import NormalLoadProgramme

    m = _model(**{"surface_beta": 3e-6})
    fn = 1e9 * m.patch_nx * m.patch_ny * m.dx**2
    ramp = fl.simulate(m, NormalLoadProgramme(times=(0.0, 2.0, 4.0), loads=(fn, 2 * fn, 2 * fn), v=1e-6), dt=0.2)
    flat = fl.simulate(m, ConstantVelocity(v=1e-6, duration_s=4.0, normal_force_value=fn), dt=0.2)
    assert ramp.normal_force.values[0] == pytest.approx(fn, rel=1e-12)
    np.testing.assert_allclose(ramp.normal_force.values, np.interp(ramp.time.values, [0, 2, 4], [fn, 2 * fn, 2 * fn]),
                               rtol=1e-12)
    for var in ("friction_force", "real_contact_area"):
        assert ramp[var].values[0] == pytest.approx(flat[var].values[0], rel=1e-12)
