"""Contact models from a run configuration, and ``[integrator]`` settings used by their scenarios."""

from __future__ import annotations

import numpy as np
import pytest

from frictionlab.core.errors import ConfigError
from frictionlab.protocols import make_protocol
from frictionlab.scenarios.base import get_scenario
from frictionlab.solve.config import run_config

CONFIGS = {
    "rough_contact": {
        "model": {"name": "rough_contact", "preset": "table1", "patch_nx": 16, "patch_ny": 16, "surface_mx": 64,
                  "surface_beta": 3e-6},
        "protocol": {"type": "velocity_steps", "velocities": [1e-6, 1e-5], "durations": [1.0, 0.4],
                     "normal_force_value": 0.256},
        "integrator": {"driver": "sliding", "s_max": 0.5},
    },
    "microjunction": {
        "model": {"name": "microjunction", "preset": "demo-steel"},
        "protocol": {"type": "constant_velocity", "v": 1e-6, "duration_s": 0.2, "normal_force_value": 4.5e-4},
        "integrator": {"driver": "ensemble", "n_junctions": 30, "save_dt": 0.01},
    },
    "beam_network": {
        "model": {"name": "beam_network", "preset": "vf60-calibrated"},
        "protocol": {"type": "constant_velocity", "v": 7.5e-4, "duration_s": 0.02, "normal_force_value": 88.0},
        "integrator": {"driver": "lbnm", "dt": 1e-5},
    },
}


@pytest.mark.parametrize("name", sorted(CONFIGS))
def test_run_config_runs_every_contact_model_in_si(name):
    ds = run_config(CONFIGS[name], strict=True)
    assert ds.attrs["driver"] == CONFIGS[name]["integrator"]["driver"]
    for var, unit in (("slip", "m"), ("slip_velocity", "m/s"), ("normal_force", "N"), ("friction_force", "N"),
                      ("friction_coefficient", "1")):
        assert ds[var].attrs["units"] == unit and np.all(np.isfinite(ds[var].values))
    fn = CONFIGS[name]["protocol"]["normal_force_value"]
    np.testing.assert_allclose(ds.normal_force.values[-1], fn, rtol=1e-9)


def test_beam_network_scenario_uses_integrator_dt():
    """Issue 12: ``--set integrator.dt=1e-5`` on a beam-network scenario was accepted and ignored."""
    sc = get_scenario("beam-network/fig9")
    ds, cfg = sc.execute({"protocol.duration_s": 0.02, "integrator.dt": 1e-5}, quick=True)
    assert cfg["integrator"]["dt"] == 1e-5 and ds.attrs["dt"] == 1e-5


SMALL_SLIDING = {"model.patch_nx": 8, "model.patch_ny": 8, "model.surface_mx": 24, "model.surface_beta": 2e-6,
                 "protocol.normal_force_value": 1e9 * 8 * 8 * 1e-12, "analysis.run_in": 2e-6,
                 "analysis.n_snapshots": 2, "analysis.replace_betas": 1.0}  # 1 GPa on the 8 x 8 um patch


def test_rough_scenario_passes_every_integrator_key_to_the_driver():
    """Issue 12 item 6: the sliding scenarios run through ``simulate``; ``--set integrator.X`` is used."""
    sc = get_scenario("rough-contact/fig10")
    ds, cfg = sc.execute({**SMALL_SLIDING, "integrator.tol_sliding": 1e-3, "integrator.solver": "pk"}, quick=True)
    assert ds.attrs["driver"] == "sliding" and ds.attrs["tol_sliding"] == 1e-3 and ds.attrs["solver"] == "pk"
    tight, _ = sc.execute({**SMALL_SLIDING, "integrator.tol_sliding": 1e-9}, quick=True)
    assert ds.solver_iterations.values.sum() < tight.solver_iterations.values.sum()
    with pytest.raises(ConfigError, match="unknown key 'integrator.rtol'"):
        sc.execute({**SMALL_SLIDING, "integrator.rtol": 1e-6}, quick=True)
    with pytest.raises(ConfigError, match="sets integrator.snapshot_times itself"):
        sc.execute({**SMALL_SLIDING, "integrator.snapshot_times": [1.0]}, quick=True)
    with pytest.raises(ConfigError, match="runs the 'sliding' driver"):
        sc.execute({**SMALL_SLIDING, "integrator.driver": "hold"}, quick=True)


def test_rough_scenario_refuses_the_former_model_solver_keys():
    with pytest.raises(ConfigError, match=r"model.tol is not a model parameter: it is an option of driver 'sliding'; "
                                          r"set integrator.tol instead"):
        get_scenario("rough-contact/fig10").execute({**SMALL_SLIDING, "model.tol": 1e-6}, quick=True)


def test_microjunction_scenario_uses_integrator_dt():
    """The microjunction scenarios hand [integrator] to simulate's junction driver: dt caps its step
    (hold-time-friction refused dt before it ran through simulate; now every scenario uses it)."""
    sc = get_scenario("microjunction/load-hold-unload")
    ds, cfg = sc.execute({"integrator.dt": 0.01}, quick=True)
    free, _ = sc.execute(quick=True)
    assert ds.attrs["max_step"] == 0.01 and ds.attrs["driver"] == "junction"
    assert ds.attrs["n_steps"] > free.attrs["n_steps"] and free.attrs["max_step"] == np.inf


def test_rough_static_scenario_runs_the_hold_driver_with_integrator_options():
    sc = get_scenario("rough-contact/fig6")
    assert sc.resolved_config(quick=True)["integrator"] == {"driver": "hold", "per_decade": 8}
    small = {"model.patch_nx": 16, "model.patch_ny": 16, "model.surface_mx": 16, "model.surface_beta": 2e-6,
             "protocol.normal_force_value": 1e8 * 16 * 16 * 1e-12,
             **{f"runs.meanfield.model.{k}": 16 for k in ("patch_nx", "patch_ny", "surface_mx")},
             "runs.meanfield.protocol.normal_force_value": 1e8 * 16 * 16 * 1e-12}
    with pytest.raises(ConfigError, match="log-spaced"):
        sc.execute({**small, "integrator.dt": 1.0}, quick=True)
    with pytest.raises(ConfigError, match="unknown key 'integrator.tol_sliding'"):
        sc.execute({**small, "integrator.tol_sliding": 1e-3}, quick=True)
    ds, _ = sc.execute({**small, "integrator.per_decade": 3}, quick=True)
    assert ds.sizes["time"] == 1 + 3 * 9 + 1  # t = 0+, then 3 steps per decade from 1e-4 s (1e-4/lam_max) to 1e5 s


def test_a_study_passes_a_shared_integrator_option_to_every_run():
    """beam-network/fig8 (a study since issue 31) hands [integrator] to each run's driver: an option both
    drivers take (allow_unstable) reaches all six runs (its hand-written run refused it before)."""
    sc = get_scenario("beam-network/fig8")
    cfg = sc.resolved_config({"integrator.allow_unstable": True}, quick=True)
    points = sc.study(cfg).points()
    assert len(points) == 6 and all(p.config["integrator"]["allow_unstable"] is True for p in points)


@pytest.mark.parametrize("name, key", [("microjunction/cyclic-load", "driver")])
def test_scenarios_refuse_integrator_keys_their_runs_do_not_use(name, key):
    value = True if key == "allow_unstable" else "ensemble"
    with pytest.raises(ConfigError, match=f"got {key}|does not read integrator.{key}|sets integrator.{key} itself"):
        get_scenario(name).execute({f"integrator.{key}": value, "protocol.duration_s": 0.01} if name.startswith("beam")
                                   else {f"integrator.{key}": value}, quick=True)


#: sections the rough-contact scenarios may add to the four: the lists a figure runs over (``sweep`` until the
#: figure is a study, then its ``runs`` and ``axes``) and what its checks need (the worker count is no section:
#: an execution option, ``--workers``)
ROUGH_EXTRA_SECTIONS = {"sweep", "analysis", "runs", "axes"}


def test_rough_scenarios_use_the_four_sections_and_name_their_driver():
    from frictionlab.scenarios.base import scenario_names

    names = [n for n in scenario_names() if n.startswith("rough-contact/")]
    assert len(names) == 15
    for name in names:
        for quick in (False, True):
            cfg = get_scenario(name).resolved_config(quick=quick)
            assert set(cfg) <= {"model", "protocol", "system", "integrator"} | ROUGH_EXTRA_SECTIONS, (name, set(cfg))
            if name != "rough-contact/fig3":  # Hertz validation: direct displacement-controlled solves
                assert cfg["model"]["name"] == "rough_contact"
                assert cfg["integrator"]["driver"] in ("sliding", "hold", "relaxed"), name
                assert not {"solver", "tol", "tol_sliding", "max_iter", "backend"} & set(cfg["model"]), name
            if name == "rough-contact/fig8":  # a hold at each nominal pressure of axes.analysis.pressure [Pa] (the
                # study derives its normal force on each point's patch), the paper's 100 MPa among them
                assert cfg["protocol"]["type"] == "constant_velocity" and cfg["protocol"]["v"] == 0.0
                assert 100e6 in cfg["axes"]["analysis"]["pressure"]
            elif "protocol" in cfg:  # a protocol of the library, SI (issue 31): a hold or velocity steps
                # a scenario that sets velocities or distances per run (a derived key) leaves them out
                steps = cfg["protocol"]["type"] == "velocity_steps"
                prot = make_protocol({"velocities": [1e-6], "distances": [1e-6], **cfg["protocol"]} if steps
                                     else cfg["protocol"])
                assert prot.type_name in ("constant_velocity", "velocity_steps"), name
                # 100 MPa on the patch (the paper's nominal pressure)
                area = cfg["model"]["patch_nx"] * cfg["model"]["patch_ny"] * 1e-12
                assert prot.normal_force_value / area == pytest.approx(100e6, rel=1e-12), (name, quick)
            else:
                assert name == "rough-contact/fig3", name  # direct solves, no time programme


def test_fig3_takes_tol_from_analysis_and_refuses_run_sections():
    """fig3 solves the Hertz indentations directly (no time run): its tolerance is analysis.tol, and a run
    section's key is refused with a pointer (the former integrator.tol to its new place)."""
    sc = get_scenario("rough-contact/fig3")
    assert sc.resolved_config()["analysis"]["tol"] == 1e-10 and "integrator" not in sc.resolved_config()
    with pytest.raises(ConfigError, match="has no integrator any more: the scenario runs no model in time"):
        sc.execute({"integrator.dt": 1e-3}, quick=True)
    with pytest.raises(ConfigError, match="has no integrator.tol any more: .*analysis.tol"):
        sc.execute({"integrator.tol": 1e-8}, quick=True)
