"""One protocol, many models (frictionlab.analysis.compare): a loop of plain simulate calls over
every registered model; measurements, RSF table, plot, CLI, scenarios."""

import inspect
import math

import numpy as np
import pytest

from frictionlab.analysis import compare as C
from frictionlab.analysis.response import interp_segments
from frictionlab.core.errors import ConfigError, ParameterError
from frictionlab.core.registry import make_model, model_names
from frictionlab.plot.compare import plot_compare
from frictionlab.protocols import SlideHoldSlide, VelocitySteps

VS = VelocitySteps(velocities=(1e-4, 1e-3), durations=(0.2, 0.2))


# ---------------------------------------------------------------------------- compare
# ---------------------------------------------------------------------------- no adapters
def test_no_adapter_registry_left():
    """compare holds no per-model code: no adapter registry, no run functions per model, only the
    declarative SETUPS table of registered models (preset, parameters, driver options)."""
    for gone in ("ADAPTERS", "ModelAdapter", "register_adapter", "adapter_names", "DEFAULT_MODELS"):
        assert not hasattr(C, gone), gone
    src = inspect.getsource(C)
    assert "def _run_" not in src and "_law_adapter" not in src and "adapter" not in src.lower()
    assert set(C.SETUPS) <= set(model_names())
    for setup in C.SETUPS.values():
        assert isinstance(setup, C.Setup)
        assert all(isinstance(v, (int, float, str, bool, C.QuickFull)) for v in setup.params.values())
        assert all(isinstance(v, (int, float, str, bool, C.QuickFull)) for v in setup.options.values())


@pytest.fixture(scope="module")
def small():
    return C.compare(VS, ["coulomb", "stribeck", "lugre", "gms", "rate_state", "beam_network", "rough_contact"],
                     quick=True, n_grid=801)


def test_default_is_every_registered_model_one_simulate_call_each(monkeypatch):
    """models=None loops over every registered model, one plain simulate call each (recorded here)."""
    calls = []

    def fake_simulate(model, protocol, **kw):
        calls.append((model.name, protocol, kw.get("integrator")))
        raise ConfigError(f"{model.name}: not run in this test")

    monkeypatch.setattr(C, "simulate", fake_simulate)
    ds = C.compare(VS, fit=False, n_grid=11)
    assert list(ds.model.values) == model_names() == [c[0] for c in calls]
    assert all(p is VS or p.velocity(np.array([0.3]))[0] == 1e-3 for _, p, _ in calls)
    assert dict((n, i) for n, _, i in calls)["rough_contact"] == "sliding"
    assert all(s.startswith("failed: ConfigError:") for s in ds.status.values)


def test_compare_dataset_shape_and_status(small):
    ds = small
    assert list(ds.model.values) == ["coulomb", "stribeck", "lugre", "gms", "rate_state", "beam_network",
                                     "rough_contact"]
    assert ds.friction_coefficient.dims == ("model", "time")
    st = dict(zip(ds.model.values, ds.status.values))
    assert st["coulomb"] == st["rate_state"] == "ok"
    assert "constant stage velocity" in st["beam_network"]
    assert st["rough_contact"] == "ok"
    assert float(ds.direct_effect.sel(model="rough_contact")) > 0  # alpha ln(V2/V1) A/W
    assert np.all(np.isnan(ds.friction_coefficient.sel(model="beam_network")))
    assert "beam_network" in ds.attrs["failed"]
    # the grid contains the step time; every model shares the prescribed slip
    assert 0.2 in ds.time.values
    np.testing.assert_allclose(ds.slip.sel(model="coulomb"), ds.slip.sel(model="rate_state"), rtol=1e-9, atol=1e-15)


@pytest.mark.slow(reason="all 14 registered models, each compiled and run once, plus 14 RSF fits: ~1-4 min")
def test_compare_runs_every_registered_model():
    """Every registered model (models=None) -- the classic laws and the paper families -- through plain
    simulate calls; the only one that cannot take velocity steps says so in its row."""
    ds = C.compare(VS, quick=True, n_grid=801)
    assert list(ds.model.values) == model_names()
    for fam in ("rough_contact", "microjunction", "beam_network", "subloading", "kloss", "rate_state", "lugre"):
        assert fam in ds.model.values
    st = dict(zip(ds.model.values, ds.status.values))
    assert st.pop("beam_network").startswith("failed: ConfigError: no driver of BeamNetworkParams can run it: "
                                             "driver 'mlbnm' of beam_network refuses protocol 'velocity_steps'")
    assert set(st.values()) == {"ok"}, st
    assert ds.attrs["failed"] == "beam_network"
    assert str(ds.force_units.sel(model="subloading").item()) == "Pa"
    assert float(ds.normal_force.sel(model="subloading").isel(time=5)) == pytest.approx(3e5)
    assert float(ds.normal_force.sel(model="rough_contact").isel(time=5)) == pytest.approx(1.0)
    # no steady-state curve for the contact models; the subloading forms have theirs (steady_stress)
    assert math.isnan(float(ds.steady_expected.sel(model="rough_contact")))
    sub = make_model("subloading_rate", "common")
    assert float(ds.steady_expected.sel(model="subloading_rate")) == pytest.approx(
        float(sub.steady_stress(1e-3, 3e5)) / 3e5, rel=1e-12)
    # and an RSF fit of every model that ran, or the reason it could not be fitted
    assert all(str(s) == "ok" or str(s).startswith(("failed", "not run")) for s in ds.rsf_fit_status.values)
    assert float(ds.rsf_a.sel(model="rate_state")) == pytest.approx(0.01, rel=1e-5)


def test_compare_diagnostics_closed_forms(small):
    ds = small
    rs = make_model("rate_state", "granite-typical")
    assert float(ds.direct_effect.sel(model="rate_state")) == pytest.approx(rs.a * math.log(10), rel=1e-3)
    assert float(ds.direct_effect.sel(model="coulomb")) == 0.0
    st = make_model("stribeck", "canudas1995", normal_scaling=True)
    exp = float(st.friction_curve(np.array([1e-3]))[0] - st.friction_curve(np.array([1e-4]))[0])
    assert float(ds.direct_effect.sel(model="stribeck")) == pytest.approx(exp, rel=1e-9)
    for m in ("coulomb", "stribeck", "lugre", "rate_state"):
        assert float(ds.steady_after_step.sel(model=m)) == pytest.approx(float(ds.steady_expected.sel(model=m)), rel=1e-3)
    # frozen-state expectation: LuGre sigma1 dz/dt + sigma2 dv, GMS sigma2 dv, rate-and-state a ln(V2/V1)
    # GMS: sigma2 dv plus the elements' micro-damping sigma1_i / k_i dF_i/dt on the slip branch,
    # C alpha_i (1 - s(v1) / s(v2)) each, sigma1_i / k_i = 1 / sqrt(sum k) (default rule; unit load)
    gms = make_model("gms", "four-element", normal_scaling=True)
    g = lambda v: gms.fc + (gms.fs - gms.fc) * math.exp(-((v / gms.vs) ** gms.delta))  # noqa: E731
    damp = gms.c / math.sqrt(sum(gms.k)) * (1.0 - g(1e-4) / g(1e-3))
    assert float(ds.direct_expected.sel(model="gms")) == pytest.approx(gms.sigma2 * 9e-4 + damp, rel=1e-6)
    assert float(ds.direct_expected.sel(model="rate_state")) == pytest.approx(rs.a * math.log(10), rel=1e-6)
    for m in ("lugre", "gms", "rate_state", "stribeck", "coulomb"):
        assert float(ds.direct_effect.sel(model=m)) == pytest.approx(float(ds.direct_expected.sel(model=m)),
                                                                   rel=1e-2, abs=1e-6), m

    # noise-free fit to the rate_state model: its own parameters
    assert float(ds.rsf_a.sel(model="rate_state")) == pytest.approx(0.01, rel=1e-5)
    assert float(ds.rsf_b.sel(model="rate_state")) == pytest.approx(0.015, rel=1e-5)
    assert float(ds.rsf_dc.sel(model="rate_state")) == pytest.approx(1e-5, rel=1e-5)
    assert str(ds.rsf_fit_status.sel(model="beam_network").item()) == "not run"


def test_segment_interpolation_does_not_straddle_jumps():
    t = np.array([0.0, 0.5, 1.0, 1.5, 2.0])
    y = np.array([1.0, 1.0, 5.0, 5.0, 5.0])
    grid = np.array([0.0, 0.9, 1.0, 1.2, 2.0])
    out = interp_segments(grid, t, y, np.array([0.0, 1.0, 2.0]))
    np.testing.assert_allclose(out, [1.0, 1.0, 5.0, 5.0, 5.0])


def test_a_run_that_fails_is_reported_with_simulates_error_not_dropped(monkeypatch):
    """A bad driver option in a setup row: simulate's one-line error (naming the valid options) is the status."""
    monkeypatch.setitem(C.SETUPS, "dahl", C.Setup("unit", options={"bogus_tol": 1e-3}))
    ds = C.compare(VS, ["coulomb", "dahl"], fit=False, n_grid=101)
    assert list(ds.model.values) == ["coulomb", "dahl"]
    st = str(ds.status.sel(model="dahl").item())
    assert st.startswith("failed: ConfigError:") and "bogus_tol" in st and "max_points" in st and "\n" not in st
    assert np.all(np.isnan(ds.friction_coefficient.sel(model="dahl")))
    assert str(ds.rsf_fit_status.sel(model="coulomb").item()) == "not requested"


def test_quick_vs_full_steps_converge():
    """Halving dt twice (1e4 -> 4e4 steps) changes the LuGre and rate-and-state responses < 1e-6."""
    p = VelocitySteps(velocities=(1e-4, 1e-3), durations=(0.5, 0.5))
    for m in ("lugre", "rate_state"):
        q, f = C.run_model(m, p, True), C.run_model(m, p, False)
        muf = np.interp(q.time.values, f.time.values, f.friction_coefficient.values)
        assert np.max(np.abs(q.friction_coefficient.values - muf)[q.time.values != 0.5]) < 1e-6


def test_slide_hold_slide_healing_rate_state():
    p = SlideHoldSlide(v=1e-3, slide_duration=0.2, holds=(0.1, 1.0))
    ds = C.compare(p, ["rate_state", "lugre", "subloading"], n_grid=401)
    rs = make_model("rate_state", "granite-typical")
    exp = [rs.b * math.log(1 + 1e-3 * th / rs.dc) for th in (0.1, 1.0)]
    np.testing.assert_allclose(ds.hold_peaks.sel(model="rate_state"), exp, rtol=1e-3)
    assert np.all(np.abs(ds.hold_peaks.sel(model="lugre")) < 1e-4)
    sub = ds.hold_peaks.sel(model="subloading").values
    assert sub[0] > 0 and sub[1] > sub[0]
    assert math.isnan(float(ds.rsf_a.sel(model="rate_state")))
    assert float(ds.rsf_b.sel(model="rate_state")) == pytest.approx(0.015, rel=1e-4)


def test_plot_and_table(small):
    txt = C.format_table(small)
    fig = plot_compare(small, title="t", table=txt)
    assert len(fig.axes) == 3
    assert "rate_state" in txt and "constant stage velocity" in txt
    rows = {r["model"]: r for r in C.rsf_table(small)}
    assert rows["rate_state"]["a"] == pytest.approx(0.01, rel=1e-5)
    # the fit reports what the record cannot determine: Coulomb's constant friction is refused, not fitted
    assert "constant" in rows["coulomb"]["fit"]


# ---------------------------------------------------------------------------- bad input
def test_bad_input():
    with pytest.raises(ConfigError, match="lugre"):
        C.compare(VS, ["lugra"])
    with pytest.raises(ConfigError, match="empty"):
        C.compare(VS, [])
    with pytest.raises(ConfigError, match="protocol object"):
        C.compare({"type": "velocity_steps"}, ["coulomb"])
    with pytest.raises(ConfigError, match="law"):
        C.compare(VS, ["coulomb"], law="ageing")


def test_build_protocol_defaults_and_fields():
    """``frictionlab compare PROTOCOL --set FIELD=...``: the type's defaults, each given field replacing its own."""
    p = C.build_protocol("velocity_steps")
    assert list(p.velocities) == [1e-4, 1e-3] and list(p.durations) == [1.0, 1.0] and p.duration == 2.0
    p = C.build_protocol("velocity_steps", {"durations": [0.2, 0.3]})
    assert list(p.velocities) == [1e-4, 1e-3] and p.duration == pytest.approx(0.5)
    assert C.build_protocol("slide_hold_slide").duration > 11.1
    assert C.build_protocol("constant_velocity", {"v": 2e-3, "duration_s": 0.5}).velocity(0.1) == 2e-3
    with pytest.raises(ParameterError, match="did you mean 'velocities'"):
        C.build_protocol("velocity_steps", {"velocitys": [1e-3]})


def test_cli_compare(tmp_path):
    from typer.testing import CliRunner

    from frictionlab.cli import app

    r = CliRunner().invoke(app, ["compare", "velocity_steps", "--set", "durations=[0.2,0.2]", "--models",
                                 "coulomb,rate_state,beam_network", "--out", str(tmp_path)])
    assert r.exit_code == 0, r.output
    assert (tmp_path / "compare_velocity_steps.nc").exists() and (tmp_path / "compare_velocity_steps.png").exists()
    assert "constant stage velocity" in r.output
    import json

    rows = json.loads((tmp_path / "compare_velocity_steps.json").read_text())
    assert [r["model"] for r in rows] == ["coulomb", "rate_state", "beam_network"]
    assert rows[1]["model"] == "rate_state" and rows[1]["b"] == pytest.approx(0.015, rel=1e-5)


# ---------------------------------------------------------------------------- scenarios
@pytest.mark.slow(reason="every registered model through two protocols: ~2 min with numba compilation")
@pytest.mark.parametrize("name", ["classic/compare-velocity-step", "classic/compare-slide-hold-slide"])
def test_quick_profile_checks_pass(name):
    from frictionlab.scenarios import get_scenario

    sc = get_scenario(name)
    ds, cfg = sc.execute(quick=True)
    checks = sc.evaluate(ds, cfg)
    assert len(checks) >= 10
    failed = [(c.claim, c.expected, c.measured) for c in checks if not c.passed]
    assert not failed, failed


def test_spring_slider_system_runs_force_laws_and_reports_the_others():
    from frictionlab.systems.mass import spring_slider

    p = VelocitySteps(velocities=(1e-4, 1e-3), durations=(0.1, 0.1))
    ds = C.compare(p, ["coulomb", "rate_state", "subloading", "microjunction"], n_grid=201,
                   system=spring_slider(mass=1e-3, stiffness=1e4, damping=2.0))
    st = {m: str(s) for m, s in zip(ds.model.values, ds.status.values)}
    assert st["coulomb"] == "ok" and st["rate_state"] == "ok"
    assert "stress-based" in st["subloading"]
    assert "cannot host system 'mass'" in st["microjunction"] and "prescribed_slip" in st["microjunction"]
    assert ds.attrs["system"] == "mass"
    assert str(ds.rsf_fit_status.sel(model="rate_state").item()).startswith("skipped")
    # the load point moves at the protocol velocity; the slider follows it on average
    slip = float(ds.slip.sel(model="rate_state").isel(time=-1))
    assert slip == pytest.approx(1e-4 * 0.1 + 1e-3 * 0.1, rel=0.05)


def test_subloading_steady_curve_is_its_steady_stress():
    """The rate form used to inherit the zero-state curve (0 Pa at every speed); both forms give f_t^ss."""
    v = np.array([1e-5, 1e-4, 1e-3])
    for name in ("subloading", "subloading_rate"):
        m = make_model(name, "common")
        np.testing.assert_allclose(m.friction_curve(v, 3e5), m.steady_stress(v, 3e5), rtol=1e-12)
        assert np.all(m.friction_curve(v, 3e5) > 1e4)


def test_coverage_check_gives_the_whole_reason_a_model_did_not_run():
    """The reason a model could not take the protocol is printed whole (it was cut at 60 characters,
    mid-word: 'driver 'mlbnm' of beam_network takes on')."""
    import numpy as np
    import xarray as xr

    from frictionlab.scenarios.classic._compare import model_coverage_check

    reason = ("failed: ConfigError: driver 'mlbnm' of beam_network takes one constant stage velocity; protocol "
              "'velocity_steps' has 3 piece(s) of kind slide, slide, slide (use 'constant_velocity')")
    ds = xr.Dataset(coords={"model": ["lugre", "beam_network"]}, data_vars={"status": ("model", np.array(["ok", reason]))})
    c = model_coverage_check(ds, ["lugre", "beam_network"])
    assert c.passed
    assert "1 ran; not run: beam_network (ConfigError: driver 'mlbnm'" in c.measured
    assert c.measured.endswith("(use 'constant_velocity'))")


# ---------------------------------------------------------------- issue 29: compare out of the box
def test_curve_styles_distinct_for_fourteen_models():
    from frictionlab.plot.compare import curve_styles

    styles = curve_styles(14)
    assert len({(s["color"], s["linestyle"]) for s in styles}) == 14
    assert len({(s["color"], s["linestyle"]) for s in curve_styles(40)}) == 40


def test_plausibility_flags_growth_without_steady_state_and_large_mu():
    from frictionlab.analysis.compare import plausibility
    from frictionlab.protocols import VelocitySteps

    p = VelocitySteps(velocities=(1e-4, 1e-3), durations=(1.0, 1.0))
    t = np.linspace(0.0, 2.0, 2001)
    steady = np.where(t < 1.0, 0.5, 0.45 + 0.05 * np.exp(-(t - 1.0) / 0.05))
    assert plausibility(steady, t, p) == ""
    noisy = 0.3 + 0.05 * np.sin(2 * np.pi * 37 * t)  # scatter, no trend: not a drift
    assert plausibility(noisy, t, p) == ""
    creeping = 0.25 + 0.55 * t  # the microjunction ensemble's rise under a constant load
    assert "no steady state" in plausibility(creeping, t, p)
    assert "reaches 3" in plausibility(steady * 6.0, t, p)
    assert "non-finite" in plausibility(np.r_[steady[:-1], np.nan], t, p)


def test_compare_flags_microjunction_and_table_notes_wrap():
    from frictionlab.protocols import VelocitySteps

    p = VelocitySteps(velocities=(1e-4, 1e-3), durations=(1.0, 1.0))
    ds = C.compare(p, ["lugre", "microjunction", "beam_network"], n_grid=401)
    flag = dict(zip(ds.model.values, ds.flag.values))
    assert flag["lugre"] == "" and "no steady state" in flag["microjunction"]
    assert "constant stage velocity" in dict(zip(ds.model.values, ds.status.values))["beam_network"]
    table = C.format_table(ds)
    assert max(len(line) for line in table.splitlines()) <= 118
    assert "did not run [" in table and "microjunction: no steady state" in table.replace("\n    ", " ")


# ------------------------------------------------- the classic/compare-* scenarios are studies (issue 31)
def test_compare_scenario_is_a_study_giving_compares_dataset():
    """The scenario's generated runs (one per model of analysis.models, the run_table compare() itself
    runs) through the library, a failing model recorded as its row: compare()'s dataset, variable for
    variable (but the wall times)."""
    from frictionlab.protocols import make_protocol
    from frictionlab.scenarios import get_scenario

    sc = get_scenario("classic/compare-velocity-step")
    over = {"protocol.durations": [0.2, 0.2], "analysis.models": ["coulomb", "beam_network", "rate_state"],
            "analysis.n_grid": 401}
    ds, cfg = sc.execute(over, quick=True)
    ref = C.compare(make_protocol(cfg["protocol"]), ["coulomb", "beam_network", "rate_state"], quick=True, n_grid=401,
                    fit_noise=1e-4, seed=0)
    assert list(ds.model.values) == ["coulomb", "beam_network", "rate_state"]
    assert set(ds.variables) == set(ref.variables)
    for v in ds.variables:
        if v != "run_seconds":
            assert ds[v].identical(ref[v]), v
    assert str(ds.status.sel(model="beam_network").item()).startswith("failed: ConfigError: no driver of")
    assert "run 'beam_network'" not in str(ds.status.sel(model="beam_network").item())  # the row names it
    assert np.isfinite(ds.run_seconds.sel(model="rate_state")) and np.isnan(ds.run_seconds.sel(model="beam_network"))


def test_compare_scenario_runs_are_generated_from_analysis_models():
    from frictionlab.protocols import make_protocol
    from frictionlab.scenarios import get_scenario

    sc = get_scenario("classic/compare-slide-hold-slide")
    cfg = sc.resolved_config(quick=True)
    study = sc.study(cfg)
    assert list(study.runs) == model_names()  # "all": every registered model
    proto = make_protocol(cfg["protocol"])
    assert study.runs["subloading"] == C.run_table("subloading", proto, True)
    assert study.runs["subloading"]["protocol"] == {"normal_force_value": 3e5}  # stress-based: its typical stress
    assert study.runs["rough_contact"]["model"]["patch_nx"] == 32  # the quick column of SETUPS
    full = sc.study(sc.resolved_config()).runs
    assert full["rough_contact"]["model"]["patch_nx"] == 64 and full["rate_state"]["integrator"]["dt"] < \
        study.runs["rate_state"]["integrator"]["dt"]
    # a user's runs.LABEL table changes that model's run; a label that is no model of the list is refused
    one = sc.study(sc.resolved_config({"analysis.models": ["rate_state"], "runs.rate_state.model.a": 0.02}, quick=True))
    assert list(one.runs) == ["rate_state"] and one.runs["rate_state"]["model"]["a"] == 0.02
    assert one.runs["rate_state"]["model"]["preset"] == "granite-typical"
    with pytest.raises(ConfigError, match="runs.lugre.model.sigma0: no run .lugre.; runs: rate_state"):
        sc.study(sc.resolved_config({"analysis.models": ["rate_state"], "runs.lugre.model.sigma0": 1.0}))
    with pytest.raises(ConfigError, match="unknown key 'model.aa'.*did you mean 'a'"):
        sc.resolved_config({"analysis.models": ["rate_state"], "runs.rate_state.model.aa": 0.02})
    with pytest.raises(ConfigError, match="unknown model 'lugra' .*did you mean 'lugre'"):
        sc.study(sc.resolved_config({"analysis.models": ["lugra"]}))
    with pytest.raises(ConfigError, match="analysis.profile = 'fast'"):
        sc.study(sc.resolved_config({"analysis.profile": "fast"}))
    with pytest.raises(ConfigError, match="law = 'ageing'"):
        sc.study(sc.resolved_config({"analysis.fit.law": "ageing"}))


@pytest.mark.parametrize("old, new", [("models", "analysis.models"), ("law", "analysis.fit.law"),
                                      ("fit_noise", "analysis.fit.noise"), ("seed", "analysis.fit.seed"),
                                      ("n_grid", "analysis.n_grid")])
def test_compare_scenario_old_keys_point_to_their_new_place(old, new):
    from frictionlab.scenarios import get_scenario

    for name in ("classic/compare-velocity-step", "classic/compare-slide-hold-slide"):
        with pytest.raises(ConfigError, match=f"has no {old} any more: {new}"):
            get_scenario(name).resolved_config({old: 1})


def test_compare_scenario_run_override_is_used_and_moves_the_expectations():
    """runs.rate_state.model.a changes the run and the model's own expectations with it (the checks'
    closed forms are those of the model that ran, not of the SETUPS row)."""
    from frictionlab.scenarios import get_scenario

    sc = get_scenario("classic/compare-velocity-step")
    ds, cfg = sc.execute({"protocol.durations": [0.2, 0.2], "analysis.models": ["rate_state"], "analysis.n_grid": 401,
                          "runs.rate_state.model.a": 0.012}, quick=True)
    jump = 0.012 * math.log(10.0)
    assert float(ds.direct_effect.sel(model="rate_state")) == pytest.approx(jump, rel=1e-3)
    assert float(ds.direct_expected.sel(model="rate_state")) == pytest.approx(jump, rel=1e-6)
    assert float(ds.rsf_a.sel(model="rate_state")) == pytest.approx(0.012, rel=1e-3)
    checks = {c.claim: c for c in sc.evaluate(ds, cfg)}
    rec = checks["RSF fit to the rate_state model recovers its own a within 3 standard errors"]
    assert rec.expected.startswith("0.012 ") and rec.passed
    assert checks["rate_state: instantaneous friction jump at the velocity step (state frozen at the step)"].passed


def test_compare_scenario_of_stress_based_models_only():
    """Every run of analysis.models = the subloading forms sets its own normal stress: the scenario's default
    1 N is left out of the base (never read), a load the user gives is refused as never read."""
    from frictionlab.scenarios import get_scenario

    sc = get_scenario("classic/compare-velocity-step")
    only = {"analysis.models": ["subloading", "subloading_rate"]}
    points = sc.study(sc.resolved_config(only, quick=True)).points()
    assert [p.config["protocol"]["normal_force_value"] for p in points] == [3e5, 3e5]
    with pytest.raises(ConfigError, match="protocol.normal_force_value = 2.0 is never read"):
        sc.study(sc.resolved_config({**only, "protocol.normal_force_value": 2.0}, quick=True)).points()
    # with a force-based model among them, the user's load is read by that run
    mixed = sc.study(sc.resolved_config({"analysis.models": ["subloading", "coulomb"],
                                         "protocol.normal_force_value": 2.0}, quick=True)).points()
    assert [p.config["protocol"]["normal_force_value"] for p in mixed] == [3e5, 2.0]
