"""The microjunction scenarios run in their quick profiles and their checks pass (or are proven deviations);
they are studies of simulate's drivers with protocols in N."""

from __future__ import annotations

import pytest

from frictionlab.scenarios import get_scenario

NAMES = ["microjunction/constant-load-creep", "microjunction/load-hold-unload", "microjunction/cyclic-load",
         "microjunction/hold-time-friction"]


@pytest.mark.parametrize("name", NAMES)
def test_quick_profile_checks_pass(name):
    sc = get_scenario(name)
    ds, cfg = sc.execute(quick=True)
    checks = sc.evaluate(ds, cfg)
    assert len(checks) >= 4
    failed = [c.claim for c in checks if not c.ok]
    assert not failed, failed
    devs = [c for c in checks if c.status == "deviation"]
    if name.endswith("constant-load-creep"):
        # the appendix's "area term of Eq. 3.39 can to good approx. be omitted": omitting it moves delta* by
        # 13-18 % for F* <= 20 (the term is 0.82 of the reinsertion term in the Hertz regime with f_A = 0.81)
        (dev,) = devs
        assert "area term of Eq. 3.39" in dev.claim and all(e.status == "pass" for e in dev.evidence)
        assert float(dev.evidence[0].measured) == pytest.approx(2 / (3 * 0.81), rel=5e-3)  # F*/(A*)^1.5 = 0.997 at F* = 0.5
        assert {c.kind for c in checks} == {"paper", "verification", "regression", "extension"}
    else:
        assert not devs
    if name.endswith("hold-time-friction"):
        # hold-time friction is our extension (junction renewal, Bowden-Tabor, the ensemble are not the paper's)
        assert {c.kind for c in checks} == {"extension"}
        rsf = [c for c in checks if c.ambiguity]
        assert len(rsf) == 2 and all("faster than the log-linear" in c.claim for c in rsf)
        assert ds.attrs["log_slope_single"] > 0 and ds.attrs["log_slope_ensemble"] > 0
        assert ds.attrs["force_star_per_junction"] == 2.0 and ds.attrs["n_junctions"] == 200
    if name.endswith("load-hold-unload"):
        assert sorted(c.kind for c in checks if "prototype" in c.claim) == ["regression", "regression"]


def test_scenarios_run_through_simulate_with_si_protocols():
    """No microjunction scenario calls the junction integrators or builds a force history itself:
    each runs simulate's drivers with a protocol in N."""
    import pathlib

    import frictionlab.scenarios.microjunction as pkg

    for path in pathlib.Path(pkg.__file__).parent.glob("*.py"):
        text = path.read_text(encoding="utf-8")
        for name in ("integrate_junction", "integrate_ensemble", "ForceHistory", "static_friction_after_holds",
                     "normalised="):
            assert name not in text, (path.name, name)
    for name in NAMES:
        sc = get_scenario(name)
        assert sc.run is None and sc.post is not None, name  # a study (solve/study.py) plus post-processing
        assert sc.config["protocol"]["type"] in ("normal_load", "ramped_normal_load", "constant_velocity"), name


@pytest.mark.parametrize("name, key, pointer", [
    ("microjunction/constant-load-creep", "loading.loads_star", "axes.protocol.mean"),
    ("microjunction/constant-load-creep", "loading.coarse_rtol", "runs.coarse.integrator.rtol"),
    ("microjunction/constant-load-creep", "loading.hold", "protocol.duration_s"),
    ("microjunction/load-hold-unload", "loading.normalised", "in N"),
    ("microjunction/cyclic-load", "loading.mean_star", "protocol.mean"),
    ("microjunction/hold-time-friction", "protocol.holds", "analysis.holds"),
    ("microjunction/hold-time-friction", "integrator.ensemble_rtol", "runs.ensemble.integrator.rtol"),
])
def test_moved_keys_are_refused_with_a_pointer(name, key, pointer):
    from frictionlab.core.errors import ConfigError

    with pytest.raises(ConfigError, match=f"has no {key} any more: .*{pointer}"):
        get_scenario(name).resolved_config({key: 1.0})


def test_constant_load_creep_results_are_si_with_starred_extras():
    from frictionlab.scenarios.microjunction._common import FC_DEMO

    sc = get_scenario("microjunction/constant-load-creep")
    ds, cfg = sc.execute({"axes.protocol.mean": [20 * FC_DEMO], "protocol.duration_s": 1.001,
                          "analysis.n_out": 11}, quick=True)
    assert ds.held_load.attrs["units"] == "N" and float(ds.load_star[0]) == 20.0
    units = {v: ds[v].attrs["units"] for v in ("approach", "contact_area", "normal_force", "pressure", "friction_force")}
    assert units == {"approach": "m", "contact_area": "m^2", "normal_force": "N", "pressure": "Pa",
                     "friction_force": "N"}
    sub = ds.isel(held_load=0)
    from frictionlab.scenarios.microjunction._common import model_of

    c = model_of(cfg).constants
    assert float(sub.normal_force[-1]) == pytest.approx(20 * FC_DEMO, rel=1e-15)
    assert float(sub.approach[0]) == pytest.approx(float(sub.delta_star[0]) * c["delta_c"], rel=1e-15)
    # the ramp ends on the JG curve at delta* = 8.248 (the prototype's value), the log grid starts there
    assert float(sub.time[0]) == 1e-3 and float(sub.delta_star[0]) == pytest.approx(8.248, rel=1e-3)
    with pytest.raises(Exception, match="protocol.mean = 0.001 is never read: axes.protocol.mean"):
        sc.execute({"protocol.mean": 1e-3}, quick=True)
    with pytest.raises(Exception, match="sets integrator.save_times itself"):
        sc.resolved_config({"integrator.save_times": [1.0]})


def test_no_claim_cites_spec_items():
    import re

    for name in NAMES:
        sc = get_scenario(name)
        assert not re.search(r"\bspec\b|\bS\d\b", sc.description, re.I), name


def test_printed_area_branch_is_refused_in_hybrid_mode_and_leaves_the_curve_in_simple_mode():
    from frictionlab.contact.microjunction import ForceHistory, Microjunction, area_jg, integrate_junction
    from frictionlab.core.errors import ParameterError

    m = Microjunction(area_branch="printed")
    h = ForceHistory.piecewise_linear([0.0, 1e-3, 2e-3], [m.f0, 20.0, 20.0])
    with pytest.raises(ParameterError, match="simple"):
        integrate_junction(m, h)
    sol = integrate_junction(m, h, mode="simple", rtol=1e-9, atol=1e-12)
    ref = integrate_junction(Microjunction(), h, mode="simple", rtol=1e-9, atol=1e-12)
    b = m.constants["b"]
    # corrected reading: on the JG area curve; printed: the elastic law while delta* grows, well below it
    assert abs(ref.area[-1] / area_jg(ref.delta[-1], b) - 1) < 1e-6
    assert sol.area[-1] / area_jg(sol.delta[-1], b) < 0.95
