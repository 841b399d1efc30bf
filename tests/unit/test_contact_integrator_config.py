"""Contact models from a run configuration, and ``[integrator]`` settings used by their scenarios."""

from __future__ import annotations

import numpy as np
import pytest

from frictionlab.core.errors import ConfigError
from frictionlab.scenarios.base import get_scenario
from frictionlab.scenarios.config import run_config

CONFIGS = {
    "rough_contact": {
        "model": {"name": "rough_contact", "preset": "table1", "patch_nx": 16, "patch_ny": 16, "surface_mx": 64,
                  "surface_beta": 3.0},
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
    ds, cfg = sc.execute({"drive.duration": 0.02, "integrator.dt": 1e-5}, quick=True)
    assert cfg["integrator"]["dt"] == 1e-5 and ds.attrs["dt"] == 1e-5


def test_rough_scenario_refuses_an_integrator_key_it_does_not_use():
    sc = get_scenario("rough-contact/fig10")
    with pytest.raises(ConfigError, match="integrator keys s_max, shift, hold_dt, dt; got tol"):
        sc.execute({"integrator.tol": 1e-12, "surface.n": 8, "surface.mx": 16}, quick=True)


def test_microjunction_scenario_uses_integrator_dt():
    from frictionlab.scenarios.microjunction._common import solver_opts

    cfg = get_scenario("microjunction/cyclic-load").resolved_config({"integrator.dt": 1e-3})
    assert solver_opts(cfg)["max_step"] == 1e-3
    with pytest.raises(ConfigError, match="integrator.dt is not used"):
        get_scenario("microjunction/hold-time-friction").execute({"integrator.dt": 1e-3}, quick=True)


def test_rough_static_scenario_takes_per_decade_from_integrator_and_refuses_dt():
    sc = get_scenario("rough-contact/fig6")
    assert sc.resolved_config(quick=True)["integrator"] == {"per_decade": 8}
    with pytest.raises(ConfigError, match="per_decade only; got dt"):
        sc.execute({"integrator.dt": 1.0, "surface.n": 16, "surface.beta": 2.0}, quick=True)


@pytest.mark.parametrize("name, key", [("beam-network/fig8", "allow_unstable"), ("microjunction/cyclic-load", "driver")])
def test_scenarios_refuse_integrator_keys_their_runs_do_not_use(name, key):
    value = True if key == "allow_unstable" else "ensemble"
    with pytest.raises(ConfigError, match=f"got {key}"):
        get_scenario(name).execute({f"integrator.{key}": value, "drive.duration": 0.01} if name.startswith("beam")
                                   else {f"integrator.{key}": value}, quick=True)
