"""Studies (``solve/study.py``): named runs x axes of four-section configs, run by the library."""

from __future__ import annotations

import numpy as np
import pytest

from frictionlab.core.errors import ConfigError, FrictionLabError
from frictionlab.scenarios.base import Scenario
from frictionlab.solve.config import apply_overrides, run_config
from frictionlab.solve.study import Study, merge_run

BASE = {
    "model": {"name": "lugre", "preset": "canudas1995"},
    "protocol": {"type": "constant_velocity", "v": 1e-3, "duration_s": 0.02, "normal_force_value": 1.0},
    "integrator": {"driver": "rk4", "dt": 1e-5},
}


def _digest(ds) -> dict:
    return {k: np.asarray(ds[k].values).tobytes() for k in ds.variables}


def test_a_study_of_one_run_is_exactly_simulate():
    res = Study.from_config(BASE).execute()
    assert len(res) == 1
    assert _digest(res.combine()) == _digest(run_config(BASE))


def test_runs_and_axes_cover_the_outer_product_and_combine_along_run_and_axis():
    cfg = {k: dict(v) for k, v in BASE.items()}
    del cfg["protocol"]["v"]
    cfg["runs"] = {"soft": {"model": {"sigma0": 1e4}}, "stiff": {"model": {"sigma0": 1e6}}}
    cfg["axes"] = {"protocol": {"v": [1e-4, 1e-2]}}
    res = Study.from_config(cfg).execute()
    assert [(lab, c) for lab, c in res] == [("soft", (("protocol.v", 1e-4),)), ("soft", (("protocol.v", 1e-2),)),
                                             ("stiff", (("protocol.v", 1e-4),)), ("stiff", (("protocol.v", 1e-2),))]
    ds = res.combine()
    assert dict(ds.friction_force.sizes)["run"] == 2 and list(ds.v.values) == [1e-4, 1e-2]
    assert len(res.seconds) == 4 and all(s > 0 for s in res.seconds) and res.seconds_of("soft", v=1e-4) > 0
    one = res.pick("stiff", v=1e-2)
    ref = run_config({**{k: v for k, v in BASE.items()}, "model": {**BASE["model"], "sigma0": 1e6},
                      "protocol": {**BASE["protocol"], "v": 1e-2}})
    assert _digest(one)["friction_force"] == _digest(ref)["friction_force"]
    np.testing.assert_array_equal(ds.friction_force.sel(run="stiff", v=1e-2).values, ref.friction_force.values)
    # the bristle stiffness changes the transient: the two runs differ
    assert not np.allclose(ds.friction_force.sel(run="soft").values, ds.friction_force.sel(run="stiff").values)


def test_a_run_naming_another_model_replaces_the_section():
    merged = merge_run(BASE, {"model": {"name": "coulomb", "mu": 0.3}})
    assert merged["model"] == {"name": "coulomb", "mu": 0.3}
    # another form of the same equations (the same parameters) keeps the base's values and preset
    merged = merge_run({"model": {"name": "subloading", "preset": "fig4", "xi": 3.0}},
                       {"model": {"name": "subloading_rate"}})
    assert merged["model"] == {"name": "subloading_rate", "preset": "fig4", "xi": 3.0}
    # a base [integrator] naming no driver: its numerics are shared by the runs' drivers
    merged = merge_run({"integrator": {"dt": 1e-3}}, {"integrator": {"driver": "rk4"}})
    assert merged["integrator"] == {"dt": 1e-3, "driver": "rk4"}
    merged = merge_run(BASE, {"model": {"sigma0": 2.0}})
    assert merged["model"] == {"name": "lugre", "preset": "canudas1995", "sigma0": 2.0}


def test_a_misspelt_key_in_a_run_names_the_run_and_the_key_that_exists():
    cfg = {**BASE, "runs": {"fast": {"protocol": {"vv": 1.0}}}}
    with pytest.raises(FrictionLabError, match=r"run 'fast'.*'v'"):
        Study.from_config(cfg).validate()


def test_a_base_key_every_run_sets_is_refused_as_never_read():
    cfg = {**BASE, "runs": {"a": {"protocol": {"v": 1.0}}, "b": {"protocol": {"v": 2.0}}}}
    with pytest.raises(ConfigError, match=r"protocol.v = 0.001 is never read: runs.a.protocol.v, runs.b.protocol.v"):
        Study.from_config(cfg).points()
    # one run leaving it alone reads it
    cfg["runs"]["b"] = {"model": {"sigma0": 1e4}}
    assert [p.config["protocol"]["v"] for p in Study.from_config(cfg).points()] == [1.0, 1e-3]


def test_an_axis_over_a_base_key_is_refused_and_a_bad_axis_is_named():
    with pytest.raises(ConfigError, match="protocol.v = 0.001 is never read: axes.protocol.v"):
        Study.from_config({**BASE, "axes": {"protocol": {"v": [1.0]}}}).points()
    with pytest.raises(ConfigError, match="non-empty list"):
        Study.from_config({**BASE, "axes": {"model": {"sigma0": 3.0}}}).points()
    with pytest.raises(ConfigError, match="a run has the sections"):
        Study.from_config({**BASE, "runs": {"a": {"modle": {"sigma0": 1.0}}}}).points()


def test_derive_sets_only_its_declared_keys():
    cfg = {k: dict(v) for k, v in BASE.items()}
    del cfg["integrator"]["dt"]
    cfg["axes"] = {"model": {"sigma0": [1e4, 1e6]}}

    def step(point, ctx):  # a step of a tenth of the bristle time scale of each point
        return {"integrator.dt": 0.1 * 1.0 / point["model"]["sigma0"] / ctx["analysis"]["scale"]}

    pts = Study.from_config(cfg, derive=step, derived=("integrator.dt",),
                            context={"analysis": {"scale": 1.0}}).points()
    np.testing.assert_allclose([p.config["integrator"]["dt"] for p in pts], [1e-5, 1e-7], rtol=1e-15)
    with pytest.raises(ConfigError, match="does not declare"):
        Study.from_config(cfg, derive=step, derived=(), context={"analysis": {"scale": 1.0}}).points()
    with pytest.raises(ConfigError, match="never read: the study computes it for every run"):
        Study.from_config({**cfg, "integrator": {**cfg["integrator"], "dt": 1e-3}}, derive=step,
                          derived=("integrator.dt",), context={"analysis": {"scale": 1.0}}).points()
    # a derive that leaves the base value to some points: it is read there, and accepted
    def stiff_only(point, ctx):
        return {"integrator.dt": 1e-7} if point["model"]["sigma0"] > 1e5 else {}

    pts = Study.from_config({**cfg, "integrator": {**cfg["integrator"], "dt": 1e-3}}, derive=stiff_only,
                            derived=("integrator.dt",)).points()
    assert [p.config["integrator"]["dt"] for p in pts] == [1e-3, 1e-7]


def test_combine_refuses_runs_on_different_time_grids_unless_asked_to_pad():
    cfg = {**BASE, "runs": {"short": {"protocol": {"duration_s": 0.01}}, "long": {"model": {"sigma0": 1e4}}}}
    res = Study.from_config(cfg).execute()
    with pytest.raises(ConfigError, match="do not share their coordinates"):
        res.combine()
    padded = res.combine(join="outer")
    assert np.isnan(padded.friction_force.sel(run="short").values[-1])


def test_overrides_of_runs_and_axes_are_checked_against_the_run_sections():
    cfg = {**BASE, "runs": {"fast": {"protocol": {"v": 1.0}}, "slow": {}}, "axes": {"model": {"sigma1": [1.0]}}}
    assert apply_overrides(cfg, {"runs.fast.model.sigma0": 5.0})["runs"]["fast"]["model"] == {"sigma0": 5.0}
    with pytest.raises(ConfigError, match="did you mean 'sigma0'"):
        apply_overrides(cfg, {"runs.fast.model.sigmaa0": 5.0})
    with pytest.raises(ConfigError, match=r"no run 'fats'.*did you mean 'fast'"):
        apply_overrides(cfg, {"runs.fats.model.sigma0": 5.0})
    with pytest.raises(ConfigError, match="non-empty list"):
        apply_overrides(cfg, {"axes.model.sigma1": 2.0})
    with pytest.raises(ConfigError, match="did you mean 'sigma1'"):
        apply_overrides(cfg, {"axes.model.sigma11": [2.0]})
    assert apply_overrides(cfg, {"axes.model.sigma2": [0.0, 1.0]})["axes"]["model"]["sigma2"] == [0.0, 1.0]


def test_a_scenario_without_run_executes_its_study_and_refuses_an_unread_override():
    cfg = {**BASE, "runs": {"a": {"protocol": {"v": 1e-3}}, "b": {"protocol": {"v": -1e-3}}}}
    cfg["protocol"] = {k: v for k, v in BASE["protocol"].items() if k != "v"}
    sc = Scenario("test/study", "a two-run study", cfg)
    ds, used = sc.execute()
    assert list(ds.run.values) == ["a", "b"]
    np.testing.assert_allclose(ds.friction_force.sel(run="a").values, -ds.friction_force.sel(run="b").values)
    with pytest.raises(ConfigError, match="never read"):
        sc.execute({"protocol.v": 5e-3})
    with pytest.raises(ConfigError, match="did you mean 'v'"):
        sc.execute({"runs.a.protocol.vv": 5e-3})


def test_a_study_larger_than_the_grid_limit_is_refused_before_anything_is_built():
    cfg = {k: dict(v) for k, v in BASE.items()}
    del cfg["protocol"]["v"]
    cfg["axes"] = {"protocol": {"v": [1e-3] * 1001}, "model": {"sigma0": [1e5] * 1000}}
    with pytest.raises(ConfigError, match="1,001,000 runs .* more than the 1,000,000 allowed"):
        Study.from_config(cfg).points()


def test_a_study_without_sections_has_no_runs():
    assert Study.from_config({"analysis": {"n": 3}}).execute().points == []


def test_a_run_with_axes_of_its_own_runs_at_its_points_only():
    """A run's own axis replaces the study's axis of that key; the study's other axes still apply."""
    cfg = {k: dict(v) for k, v in BASE.items()}
    del cfg["protocol"]["v"]
    cfg["axes"] = {"protocol": {"v": [1e-4, 1e-3, 1e-2]}}
    cfg["runs"] = {"main": {}, "reference": {"integrator": {"driver": "euler", "dt": 1e-6},
                                              "axes": {"protocol": {"v": [1e-3]}}}}
    pts = Study.from_config(cfg).points()
    assert [(p.label, p.coords) for p in pts] == [
        ("main", (("protocol.v", 1e-4),)), ("main", (("protocol.v", 1e-3),)), ("main", (("protocol.v", 1e-2),)),
        ("reference", (("protocol.v", 1e-3),))]
    assert pts[-1].config["integrator"] == {"driver": "euler", "dt": 1e-6}
    assert apply_overrides(cfg, {"runs.reference.axes.protocol.v": [2e-3]})["runs"]["reference"]["axes"] == {
        "protocol": {"v": [2e-3]}}
    with pytest.raises(ConfigError, match="did you mean 'v'"):
        apply_overrides(cfg, {"runs.reference.axes.protocol.vv": [2e-3]})
    # a base key read by no run: the study's axes and the reference's both set it
    cfg["protocol"]["v"] = 1.0
    with pytest.raises(ConfigError, match="protocol.v = 1.0 is never read: axes.protocol.v, runs.reference.axes"):
        Study.from_config(cfg).points()
    del cfg["protocol"]["v"]
    cfg["axes"]["model"] = {"sigma1": [100.0, 200.0]}
    pts = Study.from_config(cfg).points()
    assert [(p.label, p.coords) for p in pts][-2:] == [
        ("reference", (("protocol.v", 1e-3), ("model.sigma1", 100.0))),
        ("reference", (("protocol.v", 1e-3), ("model.sigma1", 200.0)))]


def test_an_input_axis_of_analysis_reaches_derive_and_not_the_run_config():
    cfg = {k: dict(v) for k, v in BASE.items()}
    del cfg["protocol"]["normal_force_value"]
    cfg["axes"] = {"analysis": {"load": [2.0, 8.0]}}

    def stress(point, ctx):  # a load [N] over an area the context gives
        return {"protocol.normal_force_value": point.coord("analysis.load") / ctx["analysis"]["area"]}

    study = Study.from_config(cfg, derive=stress, derived=("protocol.normal_force_value",),
                              context={"analysis": {"area": 4.0}})
    pts = study.points()
    assert [p.config["protocol"]["normal_force_value"] for p in pts] == [0.5, 2.0]
    assert all("analysis" not in p.config for p in pts)
    assert [p.coords for p in pts] == [(("analysis.load", 2.0),), (("analysis.load", 8.0),)]
    with pytest.raises(ConfigError, match="has no axis analysis.lod"):
        pts[0].coord("analysis.lod")
    with pytest.raises(ConfigError, match="read by the study's derive step, and this study has none"):
        Study.from_config(cfg).points()
    with pytest.raises(ConfigError, match="an axis is a dotted key of a run section"):
        Study.from_config({**cfg, "axes": {"data": {"load": [1.0]}}}, derive=stress).points()


def test_an_input_axis_that_derive_does_not_read_is_refused():
    cfg = {**BASE, "axes": {"analysis": {"load": [2.0], "lod": [1.0]}}}

    def stress(point, ctx):
        return {"protocol.normal_force_value": point.coord("analysis.load")}

    with pytest.raises(ConfigError, match="axes.analysis.lod is never read: the study's derive step"):
        Study.from_config(cfg, derive=stress, derived=("protocol.normal_force_value",)).points()


def test_a_dump_leaves_out_the_preset_values_a_study_sets_for_every_run():
    """A dumped study TOML (preset expanded) re-runs: the preset's b of subloading/fig6 (an axis of model.b)
    and c of subloading/fig9 (derived from axes.analysis.c) are not written into the base, where no run reads them."""
    import tomllib

    from frictionlab.scenarios.base import get_scenario
    from frictionlab.solve.config import dump_toml

    for name, left in (("subloading/fig6", {"b"}), ("subloading/fig9", {"c"})):
        sc = get_scenario(name)
        cfg = sc.resolved_config(quick=True)
        assert sc.study_sets_model_keys(cfg) == left
        loaded = tomllib.loads(dump_toml(cfg, expand=True, leave_out=left))
        assert not left & set(loaded["model"]) and "tau0" in loaded["model"]
        assert sc.study(loaded).points()  # accepted: every base key is read by some run
        with pytest.raises(ConfigError, match="is never read"):
            sc.study(tomllib.loads(dump_toml(cfg, expand=True))).points()


# ---------------------------------------------------------------------------- failures="record"
def _three_runs() -> dict:
    cfg = {k: dict(v) for k, v in BASE.items()}
    cfg["runs"] = {"fine": {}, "misspelt": {"integrator": {"bogus_tol": 1e-3}},
                   "short": {"integrator": {"max_points": 1}}}  # refused by simulate, after build
    return cfg


def test_a_study_records_failing_points_when_asked_and_runs_the_others():
    res = Study.from_config(_three_runs()).execute(failures="record")
    # the run that could run ran, bit for bit as alone
    assert [p.label for p in res.points] == ["fine"]
    assert _digest(res.pick("fine")) == _digest(run_config(BASE))
    # the other two are listed in run order with their errors, the run named in the message
    assert [f.point.label for f in res.failures] == ["misspelt", "short"]
    built, ran = res.failures
    assert str(built).startswith("run 'misspelt': ") and "bogus_tol" in str(built)
    assert isinstance(built.cause, ConfigError) and "bogus_tol" in str(built.cause)
    assert "misspelt" not in str(built.cause)
    assert str(ran).startswith("run 'short': ") and "max_points" in str(ran)
    assert isinstance(ran.error, FrictionLabError) and type(ran.error) is type(ran.cause)
    assert res.failure("short") is ran and res.failure("fine") is None
    with pytest.raises(KeyError):
        res.pick("short")


def test_a_study_raises_the_first_failing_point_by_default():
    with pytest.raises(ConfigError, match="run 'misspelt': .*bogus_tol"):
        Study.from_config(_three_runs()).execute()
    cfg = _three_runs()
    del cfg["runs"]["misspelt"]
    with pytest.raises(FrictionLabError, match="run 'short': .*max_points"):
        Study.from_config(cfg).execute()
    with pytest.raises(ConfigError, match="'raise' .* or 'record'"):
        Study.from_config(BASE).execute(failures="skip")


def test_recording_failures_never_swallows_a_bug(monkeypatch):
    """Only FrictionLabErrors are recorded: any other exception of a run is a bug and propagates."""
    import frictionlab.solve.config as config

    def broken(cfg):
        raise ZeroDivisionError("a bug in a driver")

    monkeypatch.setattr(config, "run_config", broken)
    with pytest.raises(ZeroDivisionError, match="a bug in a driver"):
        Study.from_config(BASE).execute(failures="record")


def test_a_scenario_with_generated_runs_records_its_failures():
    """Scenario(runs_from=..., failures="record"): one run per item of an [analysis] list, the config's own
    runs.LABEL merged over the generated one, a failing run handed to post as a failure."""
    seen = {}

    def runs_from(cfg):
        return {f"dt{i}": {"integrator": {"dt": dt}} for i, dt in enumerate(cfg["analysis"]["dts"])}

    def post(result, cfg):
        seen["ran"] = [p.label for p in result.points]
        seen["failed"] = [(f.point.label, str(f)) for f in result.failures]
        return result.pick("dt0")

    base = {"model": BASE["model"], "protocol": BASE["protocol"], "integrator": {"driver": "rk4"},
            "analysis": {"dts": [1e-5, 2e-5]}}
    sc = Scenario("test/generated", "generated runs", base, runs_from=runs_from, failures="record", post=post)
    cfg = sc.resolved_config({"runs.dt1.integrator.max_points": 1})
    assert cfg["runs"] == {"dt1": {"integrator": {"max_points": 1}}}
    assert sc.study(cfg).runs["dt1"] == {"integrator": {"dt": 2e-5, "max_points": 1}}
    ds = sc.run_study(cfg)
    assert seen["ran"] == ["dt0"] and seen["failed"][0][0] == "dt1" and "run 'dt1': " in seen["failed"][0][1]
    assert _digest(ds) == _digest(run_config({**BASE, "integrator": {"driver": "rk4", "dt": 1e-5}}))
    with pytest.raises(ConfigError, match="runs.dt2.integrator.dt: no run 'dt2'"):
        sc.resolved_config({"runs.dt2.integrator.dt": 1e-5})
    with pytest.raises(FrictionLabError, match="run 'dt1': .*max_points"):  # the default: the failure stops it
        Scenario("test/generated", "generated runs", base, runs_from=runs_from, post=post).run_study(cfg)
