"""Beam-network scenarios in the four-section vocabulary: the stage programme is ``[protocol]``.

The former ``[drive]`` section is refused with a pointer to ``[protocol]``; the keys a sweep sets
per case are refused by ``--set``; a ``--dump``ed beam scenario re-runs to the same result.
"""

from __future__ import annotations

import numpy as np
import pytest
import xarray as xr
from typer.testing import CliRunner

from frictionlab.cli import app
from frictionlab.core.errors import ConfigError
from frictionlab.scenarios.base import get_scenario, scenario_names
from frictionlab.scenarios.beam_network._common import stage_load
from frictionlab.solve.config import apply_overrides, run_config

BEAM = [n for n in scenario_names() if n.startswith("beam-network/")]
#: sections the beam-network scenarios add to the four, each for what is truly scenario-specific
EXTRA = {"sweep_a", "sweep_b", "sweep_c", "sweep_d", "sweep_e", "materials", "velocity_sweep", "load_sweep",
         "claims", "printed", "damping", "map", "refine", "analysis", "runs", "axes"}
POINTER = r"config section \[drive\] is gone: its keys are \[protocol\] \(the stage programme: " \
          r"type = \"constant_velocity\", v \[m/s\], duration_s \[s\]\)"


def test_every_beam_scenario_has_a_constant_velocity_protocol_and_no_drive_section():
    assert len(BEAM) == 7
    for name in BEAM:
        for quick in (False, True):
            cfg = get_scenario(name).resolved_config(quick=quick)
            assert "drive" not in cfg and set(cfg) <= {"model", "protocol", "system", "integrator"} | EXTRA, name
            assert cfg["protocol"]["type"] == "constant_velocity" and cfg["protocol"]["duration_s"] > 0, name


def test_quick_profiles_set_the_protocol_duration():
    assert get_scenario("beam-network/fig8").resolved_config(quick=True)["protocol"]["duration_s"] == 12.0
    assert get_scenario("beam-network/fig14").resolved_config(quick=True)["protocol"]["duration_s"] == 10.0


def test_a_drive_section_is_refused_with_a_pointer_to_protocol():
    sc = get_scenario("beam-network/fig9")
    with pytest.raises(ConfigError, match=POINTER):
        sc.resolved_config({"drive.duration": 1.0})
    with pytest.raises(ConfigError, match=POINTER):
        apply_overrides(sc.config, {"drive.v": 1e-3}, strict=False)  # a scenario's own quick profile too
    run_cfg = {"model": {"name": "beam_network", "preset": "vf60-calibrated"},
               "protocol": {"type": "constant_velocity", "v": 7.5e-4, "duration_s": 0.02, "normal_force_value": 88.0},
               "drive": {"v": 7.5e-4, "duration": 0.02}}
    with pytest.raises(ConfigError, match=POINTER):
        run_config(run_cfg, strict=True)
    # a config handed to a scenario's run directly
    with pytest.raises(ConfigError, match=POINTER):
        sc.run_study({**sc.config, "drive": {"v": 7.5e-4, "duration": 0.02}})
    with pytest.raises(ConfigError, match="does not read the config section"):
        sc.run_study({**sc.config, "drift": {"v": 7.5e-4}})


def test_a_drive_section_in_a_scenario_file_is_refused_by_the_cli(tmp_path, capsys):
    from frictionlab.cli import main

    f = tmp_path / "old.toml"
    f.write_text('scenario = "beam-network/fig9"\n\n[drive]\nv = 7.5e-4\nduration = 0.1\n')
    with pytest.raises(SystemExit) as exc:
        main(["run", str(f), "--out", str(tmp_path / "o")])
    err = capsys.readouterr().err
    assert exc.value.code == 2 and "config section [drive] is gone" in err and "[protocol]" in err, err
    assert not (tmp_path / "o").exists() or not any((tmp_path / "o").iterdir())


def test_every_point_of_a_beam_study_gets_its_model_load_as_the_stage_force():
    """``stage_load`` (the studies' derive): each point's protocol normal force is its own model.normal_load (fig14
    sweeps the load), so the driver's refusal of a mismatch never fires on a scenario."""
    sc = get_scenario("beam-network/fig14")
    cfg = sc.resolved_config(quick=True)
    points = sc.study(cfg).points()
    assert len(points) == 150
    assert all(p["protocol"]["normal_force_value"] == p["model"]["normal_load"] for p in points)
    assert stage_load(points[0], cfg) == {"protocol.normal_force_value": 20.0}
    with pytest.raises(ConfigError, match="sets protocol.normal_force_value itself"):
        sc.resolved_config({"protocol.normal_force_value": 50.0})


@pytest.mark.parametrize("name, key", [("beam-network/fig14", "protocol.normal_force_value"),
                                       ("beam-network/fig12", "protocol.normal_force_value"),
                                       ("beam-network/calibration", "protocol.normal_force_value")])
def test_sweeps_refuse_the_protocol_keys_they_set_per_case(name, key):
    with pytest.raises(ConfigError, match=f"sets {key} itself"):
        get_scenario(name).resolved_config({key: 1e-3})


@pytest.mark.parametrize("name, key", [("beam-network/fig14", "protocol.v"), ("beam-network/fig14", "model.normal_load"),
                                       ("beam-network/calibration", "protocol.v")])
def test_a_sweep_refuses_a_base_value_its_runs_set_before_running(name, key, monkeypatch):
    """fig14's map sets both per point (its axes), every run of the calibration its stage velocity: a base value
    would never be read, so the study refuses it before the first run."""
    from frictionlab.solve import study

    monkeypatch.setattr(study, "timed_run_point", lambda p: pytest.fail("ran a point"))
    with pytest.raises(ConfigError, match=f"{key} = 0.001 is never read: .*{key}.* sets? it for every run"):
        get_scenario(name).execute({key: 1e-3}, quick=True)


def test_dumped_beam_scenario_reruns_to_the_same_result(tmp_path):
    runner = CliRunner()
    short = ["--set", "protocol.duration_s=0.2", "--set", "integrator.beam_save_dt=0.01"]
    dumped = runner.invoke(app, ["run", "beam-network/fig9", *short, "--dump", "--out", str(tmp_path / "d")])
    assert dumped.exit_code == 0, dumped.output
    toml = next((tmp_path / "d").glob("*.toml"))
    text = toml.read_text()
    assert "[protocol]" in text and "[drive]" not in text and 'type = "constant_velocity"' in text
    a = runner.invoke(app, ["run", "beam-network/fig9", *short, "--out", str(tmp_path / "a")])
    b = runner.invoke(app, ["run", str(toml), "--out", str(tmp_path / "b")])
    assert a.exit_code in (0, 1) and b.exit_code == a.exit_code, (a.output, b.output)
    stem = "beam-network__fig9"
    with xr.open_dataset(tmp_path / "a" / f"{stem}.nc", engine="h5netcdf") as da, \
         xr.open_dataset(tmp_path / "b" / f"{stem}.nc", engine="h5netcdf") as db:
        assert da.sizes["time"] == 201
        for v in da.data_vars:
            np.testing.assert_array_equal(da[v].values, db[v].values, err_msg=v)


@pytest.mark.parametrize("name, key", [("beam-network/fig12", "printed.vf40"), ("beam-network/fig13", "printed.preset"),
                                       ("beam-network/fig14", "printed.preset")])
def test_the_fixed_printed_sets_are_gone_with_a_pointer(name, key):
    """The deviation evidence follows the model that ran (issue 26): a fixed printed preset is refused, not ignored."""
    with pytest.raises(ConfigError, match="has no printed"):
        get_scenario(name).resolved_config({key: "vf60-table3"})
