"""Sweeps sweep: a grid key that the scenario sets itself is refused up front, list axes too,
and the README example (classic/rsf-stability over axes.system.stiffness) gives distinct rows."""

from __future__ import annotations

import numpy as np
import pytest

from frictionlab.core.errors import ConfigError
from frictionlab.scenarios.base import get_scenario
from frictionlab.sweep import run_sweep
from frictionlab.sweep.grid import parse_grid


@pytest.mark.parametrize("scenario, axis", [
    ("classic/spring-slider-stick-slip", "protocol.v=0.01:0.1:2"),
    ("classic/rsf-stability", "system.preload=0:1:2"),
])
def test_grid_key_set_by_scenario_refused_before_work(scenario, axis, tmp_path):
    # a key the scenario computes (derived) or that an axis sets for every run: never read either way
    with pytest.raises(ConfigError, match=r"sets .* itself, so the value would be ignored; set |is never read: "):
        run_sweep(scenario, [axis], store=tmp_path / "s", quick=True, scheduler="serial")
    assert not (tmp_path / "s").exists() or not any((tmp_path / "s").rglob("*.nc"))


def test_set_of_derived_key_refused():
    sc = get_scenario("classic/spring-slider-stick-slip")
    with pytest.raises(ConfigError, match="set axes.protocol.v instead"):
        sc.study(sc.resolved_config({"protocol.v": 0.5})).points()


def test_list_valued_grid_refused_up_front():
    with pytest.raises(ConfigError, match="single values"):
        parse_grid(["axes.protocol.v=[[0.001],[0.01]]"])


def test_readme_stiffness_sweep_rows_differ(tmp_path):
    """K below and above k_c = 500 N/m: the runs (shortened) differ; the stiffness reaches the system."""
    ds = run_sweep("classic/rsf-stability", ["axes.system.stiffness=[300, 1000]"], store=tmp_path / "k", quick=True,
                   scheduler="serial", overrides={"protocol.duration_s": 300.0, "integrator.save_dt": 1.0})
    r = ds["stiffness_ratio"].values.ravel()
    np.testing.assert_allclose(r, [0.6, 2.0], rtol=1e-12)
    m = ds["spring_force_mean"].values.ravel()
    s = ds["log_velocity_swing"].values.ravel()
    assert m[0] != m[1] and s[0] != s[1]
