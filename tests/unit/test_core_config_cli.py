import subprocess
import sys
import tomllib

import pytest
import xarray as xr

from frictionlab.core.errors import ConfigError, ParameterError
from frictionlab.scenarios import get_scenario
from frictionlab.solve.config import apply_overrides, dump_toml, parse_set, run_config


def test_parse_set_types():
    assert parse_set(["model.a=0.011", "model.law=slip", "protocol.velocities=[1e-6, 1e-5]"]) == {
        "model.a": 0.011, "model.law": "slip", "protocol.velocities": [1e-6, 1e-5]}


def test_override_validation():
    cfg = get_scenario("classic/rsf-velocity-step").config
    assert apply_overrides(cfg, {"model.a": 0.02})["model"]["a"] == 0.02
    assert apply_overrides(cfg, {"model.dc": 2e-5})["model"]["dc"] == 2e-5  # valid field not in the table yet
    with pytest.raises(ConfigError, match="did you mean 'dc'"):
        apply_overrides(cfg, {"model.Dc": 1.0})
    with pytest.raises(ConfigError, match="wrong type"):
        apply_overrides(cfg, {"model.v_init": "fast"})
    with pytest.raises(ConfigError, match="section"):
        apply_overrides(cfg, {"modle.a": 1.0})


def test_dump_roundtrip_runs_same():
    sc = get_scenario("classic/rsf-velocity-step")
    text = dump_toml(sc.config, scenario=sc.name)
    back = tomllib.loads(text)
    assert back.pop("scenario") == sc.name
    assert back == sc.config


def test_run_config_rejects_bad_model_field():
    cfg = {"model": {"name": "lugre", "sigma0": -1.0}, "protocol": {"type": "constant_velocity"}}
    with pytest.raises(ParameterError, match=r"sigma0 = -1"):
        run_config(cfg)


def _cli(*args, cwd=None):
    return subprocess.run([sys.executable, "-c", "from frictionlab.cli import main; main()", *args],
                          capture_output=True, text=True, cwd=cwd)


def test_cli_run_writes_outputs_and_attrs(tmp_path):
    r = _cli("run", "classic/rsf-velocity-step", "--set", "model.a=0.011", "--out", str(tmp_path))
    # the set value is used: the run differs from the printed a = 0.010, so the paper checks that hold the
    # printed value fail (exit 1), and the outputs are written all the same
    assert r.returncode == 1, r.stderr
    assert "checks of classic/rsf-velocity-step failed" in r.stderr
    ds = xr.open_dataset(tmp_path / "classic__rsf-velocity-step.nc", engine="h5netcdf")
    assert ds.attrs["a"] == 0.011 and "dc" in ds.attrs
    assert (tmp_path / "classic__rsf-velocity-step.csv").exists() and (tmp_path / "classic__rsf-velocity-step.png").exists()


def test_cli_errors_are_one_line_exit_2(tmp_path):
    r = _cli("run", "classic/rsf-velocity-stp")
    assert r.returncode == 2
    assert "did you mean 'classic/rsf-velocity-step'" in r.stderr
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout
    bad = tmp_path / "bad.toml"
    bad.write_text("scenario = 'classic/rsf-velocity-step'\n[model]\na = 'x'\n")
    r = _cli("run", str(bad))
    assert r.returncode == 2 and "RateState.a must be a number" in r.stderr


def test_cli_dump_then_run_file(tmp_path):
    assert _cli("run", "classic/rsf-velocity-step", "--dump", "--out", str(tmp_path)).returncode == 0
    f = tmp_path / "classic__rsf-velocity-step.toml"
    assert tomllib.loads(f.read_text())["model"]["name"] == "rate_state"
    r = _cli("run", str(f), "--out", str(tmp_path / "o"))
    assert r.returncode == 0, r.stderr
