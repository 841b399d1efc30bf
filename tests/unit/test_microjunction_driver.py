"""Microjunction drivers of ``simulate``: the load history from the protocol, SI results."""

from __future__ import annotations

import numpy as np
import pytest

import frictionlab as fl
from frictionlab.contact.microjunction import ForceHistory, integrate_ensemble, integrate_junction
from frictionlab.contact.microjunction.driver import protocol_slip
from frictionlab.contact.microjunction.ensemble import JunctionEnsemble
from frictionlab.core.errors import ConfigError, ParameterError
from frictionlab.core.registry import make_model, presets_of
from frictionlab.protocols import ConstantVelocity, ForceRamp, NormalLoadProgramme, SlideHoldSlide, make_protocol
from frictionlab.testing import check_model


def _model(preset: str = "demo-steel"):
    return make_model("microjunction", preset)


def test_junction_matches_integrate_junction_in_si():
    m = _model()
    fc = m.constants["force_c"]
    prot = NormalLoadProgramme(times=(0.0, 0.1, 0.5), loads=(2 * fc, 20 * fc, 20 * fc), v=1e-6)
    ds = fl.simulate(m, prot, save_dt=0.01)
    hist = ForceHistory.piecewise_linear([0.0, 0.1, 0.5], [2.0, 20.0, 20.0])
    ref = integrate_junction(m, hist, t_eval=np.linspace(0.0, 0.5, 51)).to_dataset(m)
    np.testing.assert_allclose(ds.time.values, ref.time.values, rtol=0, atol=1e-15)
    for var in ("friction_force", "normal_force", "contact_area", "friction_coefficient", "area_star"):
        np.testing.assert_allclose(ds[var].values, ref[var].values, rtol=1e-9, err_msg=var)
    # friction = tau A with tau = sigma_y / sqrt(3) (Bowden-Tabor), SI units
    np.testing.assert_allclose(ds.friction_force.values, m.shear_strength * ds.contact_area.values, rtol=1e-14)
    np.testing.assert_allclose(ds.normal_force.values[-1], 20 * fc, rtol=1e-12)
    assert ds.friction_force.attrs["units"] == "N" and ds.contact_area.attrs["units"] == "m^2"
    assert ds.slip.values[-1] == pytest.approx(0.5e-6, rel=1e-12) and ds.slip.attrs["units"] == "m"
    # creep under the held load grows the contact area
    assert ds.contact_area.values[-1] > ds.contact_area.sel(time=0.1).values * 1.01


def test_ensemble_matches_integrate_ensemble():
    m = _model()
    fc = m.constants["force_c"]
    prot = NormalLoadProgramme(times=(0.0, 0.05, 0.3), loads=(m.f0 * fc, 200 * fc, 200 * fc))
    ds = fl.simulate(m, prot, integrator="ensemble", n_junctions=40, save_dt=0.01)
    hist = ForceHistory.piecewise_linear([0.0, 0.05, 0.3], [m.f0, 200.0, 200.0])
    ens = JunctionEnsemble(n_junctions=40)
    ref = integrate_ensemble(m, ens, hist, t_eval=np.linspace(0.0, 0.3, 31)).to_dataset(m, ens)
    for var in ("friction_force", "normal_force", "contact_area"):
        np.testing.assert_allclose(ds[var].values, ref[var].values, rtol=1e-9, err_msg=var)
    assert ds.attrs["n_junctions"] == 40


def test_from_protocol_keeps_the_programme_pieces_and_slopes():
    prot = NormalLoadProgramme(times=(0.0, 1.0, 3.0, 4.0), loads=(0.0, 2.0, 2.0, 1.0))
    h = ForceHistory.from_protocol(prot)
    assert h.edges == (0.0, 1.0, 3.0, 4.0)
    assert [h.rate(0.5, 0), h.rate(2.0, 1), h.rate(3.5, 2)] == [2.0, 0.0, -1.0]
    assert h.max_step == (1.0 / 50, np.inf, 1.0 / 50)
    assert h.force(3.5) == pytest.approx(1.5, rel=1e-15)


def test_from_protocol_is_bit_equal_to_piecewise_linear_in_newtons():
    """The scenarios now give their loads in N: the history the driver builds from them is the
    one of the former F* knots, bit for bit (values on the ramps as numpy.interp computes them)."""
    from frictionlab.contact.microjunction.scales import Scales

    m = _model()
    fc = m.constants["force_c"]
    knots, loads = [0.0, 1e-3, 1.0, 1.001, 3.0], [m.f0, 20.0, 20.0, 10.0, 10.0]
    old = ForceHistory.piecewise_linear(knots, loads)
    new = ForceHistory.from_protocol(NormalLoadProgramme(times=tuple(knots), loads=tuple(f * fc for f in loads)),
                                     Scales.of(m))
    t = np.concatenate([np.linspace(0.0, 3.0, 3001), knots, [1e-4, 3.3e-4, 1.0005]])
    assert [new.force(x) for x in t] == [old.force(x) for x in t]
    assert [new.rate(x, k) for k, x in enumerate([5e-4, 0.5, 1.0005, 2.0])] == \
        [old.rate(x, k) for k, x in enumerate([5e-4, 0.5, 1.0005, 2.0])]
    assert new.max_step == old.max_step and new.edges == old.edges


def test_from_protocol_follows_load_cycles():
    """A cycle of a sinusoidal load has its end values at its midpoint too: it was taken for a
    constant piece (force and rate held at the mean). Fails on the old code."""
    from frictionlab.protocols import RampedNormalLoad

    prot = RampedNormalLoad(mean=10.0, amplitude=5.0, period=0.2, ramp=1e-3, duration_s=1.0)
    h = ForceHistory.from_protocol(prot)
    w = 2 * np.pi / 0.2
    for k, t in ((1, 0.051), (2, 0.301), (4, 0.7), (5, 0.9)):
        assert h.force(t) == pytest.approx(float(prot.normal_force(t)), rel=1e-15)
        assert h.rate(t, k) == pytest.approx(5.0 * w * np.cos(w * (t - 1e-3)), rel=1e-6, abs=1e-6)
    assert h.rate(5e-4, 0) == pytest.approx(1e4, rel=1e-12) and h.max_step[1:3] == pytest.approx((0.004, 0.004))


def test_save_times_and_initial_state():
    m = _model()
    fc = m.constants["force_c"]
    prot = NormalLoadProgramme(times=(0.0, 1e-3, 2.0), loads=(m.f0 * fc, 20 * fc, 20 * fc))
    te = [1e-3, 0.01, 0.1, 1.0, 2.0]
    ds = fl.simulate(m, prot, save_times=te, rtol=1e-9, atol=1e-12)
    dense = fl.simulate(m, prot, save_dt=1e-3, rtol=1e-9, atol=1e-12)
    assert ds.time.values.tolist() == te
    # the output grid is read from the dense output: the steps, hence the values, are the grid's own
    np.testing.assert_allclose(ds.approach.values, dense.approach.sel(time=te, method="nearest").values, rtol=1e-8)
    with pytest.raises(ConfigError, match="not both"):
        fl.simulate(m, prot, save_times=te, save_dt=0.1)
    with pytest.raises(ConfigError, match="increase strictly"):
        fl.simulate(m, prot, save_times=[0.5, 0.1])
    with pytest.raises(ConfigError, match="save_times"):
        fl.simulate(m, prot, save_times=[0.5, "x"])
    # a restart from the state at t = 1 s under the held load continues the same trajectory
    one = ds.sel(time=1.0)
    rest = fl.simulate(m, NormalLoadProgramme(times=(0.0, 1.0), loads=(20 * fc, 20 * fc)), save_times=[1.0],
                       initial_state=[float(one.approach), float(one.contact_area)], rtol=1e-9, atol=1e-12)
    assert rest.approach.values[-1] == pytest.approx(float(ds.approach[-1]), rel=1e-6)
    assert rest.approach.values[-1] > float(one.approach) * 1.05
    with pytest.raises(ConfigError, match="initial_state"):
        fl.simulate(m, prot, initial_state=[1e-9])


def test_protocol_slip_is_exact_on_pieces():
    prot = SlideHoldSlide(v=2e-6, slide_duration=1.0, holds=(2.0,))
    s = protocol_slip(prot, np.array([0.0, 0.5, 1.0, 2.0, 3.0, 3.5, 4.0]))
    np.testing.assert_allclose(s, [0.0, 1e-6, 2e-6, 2e-6, 2e-6, 3e-6, 4e-6], rtol=1e-14)


def test_dt_caps_the_step_and_refusals():
    m = _model()
    fc = m.constants["force_c"]
    prot = ConstantVelocity(v=1e-6, duration_s=0.2, normal_force_value=10 * fc)
    a = fl.simulate(m, prot, dt=1e-3)
    assert a.attrs["max_step"] == 1e-3 and a.attrs["n_steps"] >= 200
    b = fl.simulate(m, prot)
    assert b.attrs["n_steps"] < a.attrs["n_steps"]
    with pytest.raises(ConfigError, match="no option 'rtoll'.*did you mean 'rtol'"):
        fl.simulate(m, prot, rtoll=1e-6)
    with pytest.raises(ConfigError, match="tangential force"):
        fl.simulate(m, ForceRamp(rate=1.0, duration_s=1.0, normal_force_value=10 * fc))
    with pytest.raises(ConfigError, match="t_end"):
        fl.simulate(m, prot, t_end=0.1)


@pytest.mark.parametrize("preset", sorted(presets_of("microjunction")))
def test_check_model_every_preset(preset):
    r = check_model(_model(preset), steps=200)
    assert r.driver == "junction" and r.relative_change < 1e-6


def test_ensemble_driver_meets_the_contracts_result_checks():
    """check_model runs the default driver ('junction'); the ensemble driver's results pass the same
    result checks (standard SI names and units, the protocol's load, an area in m^2, provenance) under
    each of the contract's protocols."""
    from frictionlab.testing import _standard_variables, contract_protocols

    m = _model()
    for kind, prot in contract_protocols(m.typical_inputs).items():
        ds = fl.simulate(m, prot, integrator="ensemble", n_junctions=30, save_dt=0.01)
        _standard_variables(ds, m, f"ensemble ({kind})", "ensemble", prot)
        assert ds.contact_area.attrs["units"] == "m^2" and ds.approach.attrs["units"] == "m"


@pytest.mark.parametrize("driver", ["junction", "ensemble"])
def test_simulate_returns_the_si_standard_names_with_starred_extras(driver):
    """Issue 31's call: the standard variables in SI (slip, friction and normal force, the friction
    coefficient, the contact area in m^2), the normalised states only beside them."""
    m = _model()
    prot = ConstantVelocity(v=1e-5, duration_s=2.0, normal_force_value=1.0)
    opts = {"n_junctions": 50} if driver == "ensemble" else {}
    ds = fl.simulate(m, prot, integrator=driver, **opts)
    want = {"slip": "m", "slip_velocity": "m/s", "normal_force": "N", "friction_force": "N",
            "friction_coefficient": "1", "contact_area": "m^2"}
    assert {k: ds[k].attrs.get("units") for k in want} == want
    np.testing.assert_allclose(ds.normal_force.values, 1.0, rtol=1e-12)
    np.testing.assert_allclose(ds.slip.values, 1e-5 * ds.time.values, rtol=1e-12, atol=1e-18)
    np.testing.assert_allclose(ds.friction_coefficient.values, ds.friction_force.values / 1.0, rtol=1e-12)
    starred = [v for v in ds.data_vars if str(v).endswith("_star")]
    assert starred and all(ds[v].attrs["units"] == "1" for v in starred)
    if driver == "junction":  # the area in m^2 is the normalised area times the critical area
        np.testing.assert_allclose(ds.contact_area.values, ds.area_star.values * m.constants["area_c"], rtol=1e-12)
    # the approach [m] and the mean pressure [Pa] are standard names too; the model is named as registered
    assert ds.approach.attrs["units"] == "m" and ds.pressure.attrs["units"] == "Pa"
    np.testing.assert_allclose(ds.pressure.values, ds.normal_force.values / ds.contact_area.values, rtol=1e-12)
    np.testing.assert_allclose(ds.pressure_star.values if driver == "junction" else
                               ds.force_star.values / ds.area_star.values * 2 / 3 * m.constants["cnu"],
                               ds.pressure.values / m.sigma_y, rtol=1e-12)
    assert ds.attrs["model"] == "microjunction" and ds.attrs["driver"] == driver
    assert not [v for v in ds.data_vars if ds[v].attrs["units"] == "1" and not str(v).endswith("_star")
                and v not in ("friction_coefficient", "on_plastic_area", "n_contacts")]


# --- the preload: the model runs at loads >= f0 F_c only, and says so -------------------------------
def test_a_load_programme_from_zero_is_refused_naming_the_preload_in_newtons():
    """A programme that starts at 0 N was run at the preload f0 F_c and reported normal_force[0] =
    f0 F_c, a load the protocol did not prescribe (the appendix's rates are singular at zero load)."""
    m = _model()
    fc = m.constants["force_c"]
    prot = NormalLoadProgramme(times=(0.0, 1e-3, 0.01), loads=(0.0, 20 * fc, 20 * fc))
    for driver in ("junction", "ensemble"):
        with pytest.raises(ConfigError) as err:
            fl.simulate(m, prot, integrator=driver)
        msg = str(err.value)
        assert f"{m.f0 * fc:.4g} N" in msg and "f0" in msg and "t = 0 s" in msg and "0 N" in msg, msg
    # the same programme from the preload runs, and reports the load the protocol prescribes
    ok = NormalLoadProgramme(times=(0.0, 1e-3, 0.01), loads=(m.f0 * fc, 20 * fc, 20 * fc))
    ds = fl.simulate(m, ok, save_dt=1e-3)
    np.testing.assert_allclose(ds.normal_force.values, ok.normal_force(ds.time.values), rtol=1e-14, atol=0)


def test_a_load_cycle_dipping_below_the_preload_is_refused_where_it_dips():
    m = _model()
    fc = m.constants["force_c"]
    # a preload above f0, then a cycle 5 +- 5 F_c that reaches 0 N at the first trough (t = 0.1 + 0.75 s)
    prot = make_protocol({"type": "ramped_normal_load", "preload": fc, "mean": 5 * fc, "amplitude": 5 * fc,
                             "period": 1.0, "ramp": 0.1, "duration_s": 2.0})
    with pytest.raises(ConfigError, match=r"below the junction's preload") as err:
        fl.simulate(m, prot)
    t = float(str(err.value).split("at t = ")[1].split(" s")[0])
    assert 0.75 < t < 0.95, str(err.value)


def test_integrate_junction_refuses_a_history_below_the_preload():
    """The F* functions refuse too (they clamped to f0 and reported F* = f0 where the history said 0)."""
    m = _model()
    with pytest.raises(ParameterError, match=r"below the junction's preload"):
        integrate_junction(m, ForceHistory.piecewise_linear([0.0, 1e-3, 0.01], [0.0, 20.0, 20.0]))
    with pytest.raises(ParameterError, match=r"below the junction's preload"):
        integrate_ensemble(m, JunctionEnsemble(n_junctions=10),
                           ForceHistory.piecewise_linear([0.0, 1e-3, 0.01], [0.0, 20.0, 20.0]))
