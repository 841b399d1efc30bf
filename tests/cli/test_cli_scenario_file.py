"""A scenario TOML file (``scenario = "NAME"`` plus values) is loaded by one loader for ``run`` and
``sweep``: the scenario keeps its ``derived`` keys, ``summary`` and metrics, so a ``--set`` (or a
file value) of a key the scenario sets itself is refused there as for the scenario by name."""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr

from frictionlab.core.errors import ConfigError
from frictionlab.scenarios import base as scenario_base
from frictionlab.scenarios.base import Scenario, load_scenario

RUNS: list[float] = []


def _run(cfg, quick):
    RUNS.append(float(cfg["protocol"]["v"]))
    v = np.asarray(cfg["toy"]["velocities"], dtype=float)
    return xr.Dataset({"friction_force": ("time", v)}, coords={"time": np.arange(v.size, dtype=float)})


def _summary(ds):
    return {"peak": float(ds.friction_force.max())}


TOY = Scenario("zztoy/derived", "a toy that sets protocol.v itself", {"protocol": {"v": 1.0}, "toy": {"velocities": [1.0, 2.0]}},
               run=_run, checks=lambda ds, cfg: [], summary=_summary, metrics=("steady_friction",),
               derived={"protocol.v": "toy.velocities"})


@pytest.fixture
def toy(monkeypatch):
    scenario_base._discover()
    monkeypatch.setitem(scenario_base._SCENARIOS, TOY.name, TOY)
    RUNS.clear()


def test_run_file_set_of_derived_key_refused(tmp_path, cli):
    """The real case: classic/spring-slider-stick-slip runs protocol.v on an axis (axes.protocol.v)."""
    f = tmp_path / "ss.toml"
    f.write_text('scenario = "classic/spring-slider-stick-slip"\n')
    code, out, err = cli(["run", f, "--set", "protocol.v=0.5", "--out", tmp_path / "o"])
    assert code == 2, out + err
    assert "protocol.v = 0.5 is never read" in err and "set axes.protocol.v instead" in err
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())


def test_run_file_toy_set_refused_before_work(toy, tmp_path, cli):
    f = tmp_path / "t.toml"
    f.write_text('scenario = "zztoy/derived"\n[toy]\nvelocities = [3.0]\n')
    code, out, err = cli(["run", f, "--set", "protocol.v=5", "--out", tmp_path])
    assert code == 2 and "set toy.velocities instead" in err, out + err
    assert RUNS == []


def test_file_value_of_derived_key_refused(toy, tmp_path, cli):
    """A file that changes a derived key would be ignored just the same: refused, naming the file."""
    f = tmp_path / "t.toml"
    f.write_text('scenario = "zztoy/derived"\n[protocol]\nv = 5.0\n')
    with pytest.raises(ConfigError, match=r"t\.toml.*protocol\.v.*set toy\.velocities instead"):
        load_scenario(str(f))
    code, out, err = cli(["run", f, "--out", tmp_path])
    assert code == 2 and "protocol.v" in err and RUNS == []


def test_dumped_file_reruns(toy, tmp_path, cli):
    """A --dump holds the derived key at the scenario's own value: that is not a change, it re-runs."""
    code, out, err = cli(["run", TOY.name, "--dump", "--out", tmp_path])
    assert code == 0, out + err
    dumped = tmp_path / "zztoy__derived.toml"
    assert "v = 1.0" in dumped.read_text()
    code, out, err = cli(["run", dumped, "--out", tmp_path, "--csv", "none"])
    assert code == 0, out + err
    assert RUNS == [1.0]


def test_one_loader_keeps_summary_derived_metrics(toy, tmp_path):
    f = tmp_path / "t.toml"
    f.write_text('scenario = "zztoy/derived"\n[toy]\nvelocities = [3.0, 4.0]\n')
    sc = load_scenario(str(f))
    assert sc.summary is _summary and sc.derived == TOY.derived and sc.metrics == TOY.metrics
    assert sc.run is _run and sc.config["toy"]["velocities"] == [3.0, 4.0] and TOY.config["toy"]["velocities"] == [1.0, 2.0]
    plain = tmp_path / "p.toml"
    plain.write_text('[model]\nname = "coulomb"\n')
    assert load_scenario(str(plain)).name == "file/p"
    assert load_scenario(TOY.name) is TOY


def test_sweep_file_grid_of_derived_key_refused(toy, tmp_path, cli):
    f = tmp_path / "t.toml"
    f.write_text('scenario = "zztoy/derived"\n')
    code, out, err = cli(["sweep", f, "--grid", "protocol.v=[1, 2]", "--store", tmp_path / "s",
                          "--scheduler", "serial"])
    assert code == 2 and "sets protocol.v itself" in err, out + err
    assert RUNS == []


def test_every_dump_loads_back(tmp_path):
    """The derived-key check never refuses a file `--dump` wrote (full and quick profile of every scenario)."""
    from frictionlab.scenarios.base import get_scenario, scenario_names
    from frictionlab.solve.config import dump_toml

    for name in scenario_names():
        if name.startswith("zz"):
            continue
        sc = get_scenario(name)
        for quick in (False, True):
            f = tmp_path / f"{name.replace('/', '__')}-{quick}.toml"
            f.write_text(dump_toml(sc.resolved_config(None, quick), scenario=name, expand=True))
            loaded = load_scenario(str(f))
            assert loaded.name == name and loaded.derived == sc.derived and loaded.summary is sc.summary
