"""A ``--dump``ed scenario TOML re-runs with ``frictionlab run FILE.toml`` to the same result.

Covers every classic, subloading and Kloss scenario whose run goes through
:func:`frictionlab.solve.config.run_config` (the others build their objects by hand), and
every rough-contact scenario (their runs call :func:`frictionlab.simulate` with the
``[model]``/``[protocol]``/``[integrator]`` sections), on the quick profile, through the CLI itself.
"""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from typer.testing import CliRunner

from frictionlab.cli import app
from frictionlab.core.errors import ConfigError
from frictionlab.scenarios import get_scenario
from frictionlab.scenarios.base import scenario_names
from frictionlab.solve.config import apply_overrides, config_driver, run_config


def _through_run_config(name: str) -> bool:
    sc = get_scenario(name)
    return sc.run is None or "run_config" in getattr(sc.run, "__globals__", {})


NAMES = [n for n in scenario_names() if n.split("/")[0] in ("classic", "subloading", "kloss") and _through_run_config(n)]
NAMES += [n for n in scenario_names() if n.startswith("rough-contact/")]
#: kept in the fast suite; the others run two quick scenario runs each (~10-100 s) and are marked slow
FAST = ("classic/rsf-velocity-step", "kloss/fig5", "rough-contact/fig9")
CASES = [n if n in FAST else pytest.param(n, marks=pytest.mark.slow(reason="two quick scenario runs through the CLI"))
         for n in NAMES]


def test_the_selection_is_not_empty():
    assert {"classic/rsf-velocity-step", "classic/spring-slider-stick-slip"} <= set(NAMES)
    assert sum(n.startswith("rough-contact/") for n in NAMES) == 15


@pytest.mark.parametrize("name", CASES)
def test_dumped_toml_reruns_to_the_same_result(name, tmp_path):
    runner = CliRunner()
    dumped = runner.invoke(app, ["run", name, "--quick", "--dump", "--out", str(tmp_path / "d")])
    assert dumped.exit_code == 0, dumped.output
    toml = next((tmp_path / "d").glob("*.toml"))
    assert "method" not in toml.read_text()  # the [integrator] vocabulary is 'driver'
    a = runner.invoke(app, ["run", name, "--quick", "--out", str(tmp_path / "a")])
    b = runner.invoke(app, ["run", str(toml), "--out", str(tmp_path / "b")])
    # exit 1: a check failed (a proven deviation of the paper, e.g. rough-contact/fig8, fig14,
    # kloss/fig6, is listed as DEVIATION and exits 0); the checks are tested elsewhere, here the
    # re-run must give the same verdicts and the same data
    assert a.exit_code in (0, 1), a.output
    assert b.exit_code == a.exit_code, b.output
    stem = name.replace("/", "__")
    with xr.open_dataset(tmp_path / "a" / f"{stem}.nc", engine="h5netcdf") as da, \
         xr.open_dataset(tmp_path / "b" / f"{stem}.nc", engine="h5netcdf") as db:
        assert set(da.data_vars) == set(db.data_vars)
        for v in da.data_vars:
            if str(v).endswith("_seconds"):  # a wall-clock time (a data fit's fit_seconds) is not a result
                continue
            np.testing.assert_array_equal(da[v].values, db[v].values, err_msg=f"{name}: {v}")


BASE = {"model": {"name": "lugre", "preset": "canudas1995"},
        "protocol": {"type": "constant_velocity", "v": 1e-3, "duration_s": 0.01},
        "integrator": {"driver": "rk4", "dt": 1e-4}}


def test_integrator_keys_are_checked_against_the_driver():
    with pytest.raises(ConfigError, match=r"unknown key 'integrator.rtol'.*known: driver, dt, t_end, save_dt, max_points"):
        apply_overrides(BASE, {"integrator.rtol": 1e-6})
    cfg = apply_overrides(BASE, {"integrator.driver": "radau", "integrator.rtol": 1e-6})
    assert cfg["integrator"]["rtol"] == 1e-6
    with pytest.raises(ConfigError, match="driver 'rk4' has no option 'atol'"):
        run_config({**BASE, "integrator": {"driver": "rk4", "atol": 1e-9}})
    with pytest.raises(ConfigError, match="option 'max_points' of driver 'rk4' must be int"):
        run_config({**BASE, "integrator": {"driver": "rk4", "max_points": "many"}})


def test_old_method_key_and_unknown_sections_are_refused():
    with pytest.raises(ConfigError, match="'method' is now 'driver'"):
        run_config({**BASE, "integrator": {"method": "rk4"}})
    with pytest.raises(ConfigError, match=r"unknown config section 'integrater' .*did you mean 'integrator'"):
        run_config({**BASE, "integrater": {"dt": 1.0}}, strict=True)
    with pytest.raises(ConfigError, match=r"unknown config section 'protocl'"):
        apply_overrides(BASE, {"protocl.v": 1.0})
    with pytest.raises(ConfigError, match=r"unknown driver 'rk5' for LuGre"):
        run_config({**BASE, "integrator": {"driver": "rk5"}})


def test_default_driver_follows_the_system():
    cfg = {"model": {"name": "subloading", "preset": "common"},
           "protocol": {"type": "constant_velocity", "v": 1e-5, "normal_force_value": 3e5},
           "system": {"type": "mass", "mass": 3000.0, "stiffness": 4e4}}
    assert config_driver(cfg).name == "oscillator"
    assert config_driver({k: v for k, v in cfg.items() if k != "system"}).name == "prescribed"
    assert "area" in apply_overrides(cfg, {"integrator.area": 2e-4})["integrator"]
