"""``frictionlab list`` / ``show`` / ``run --dump``: full descriptions, parameters, presets, configs."""

from __future__ import annotations

import dataclasses
import os
import tomllib

import pytest
from typer.testing import CliRunner

from frictionlab.cli import app
from frictionlab.cli.show import catalogue, describe
from frictionlab.core.errors import ConfigError
from frictionlab.core.registry import get_model_class, make_model, presets_of
from frictionlab.scenarios import get_scenario, scenario_names
from frictionlab.solve.config import expand_preset

runner = CliRunner()


def test_list_prints_every_description_in_full():
    res = runner.invoke(app, ["list"])
    assert res.exit_code == 0, res.output
    flat = " ".join(res.output.split())
    for name in scenario_names():
        desc = " ".join(get_scenario(name).description.split())
        assert desc in flat, name  # wrapped, never cut


def test_list_filters_by_paper_and_kind():
    rows = catalogue(paper="kloss", kind="model")
    assert {r[1] for r in rows} == {"kloss", "kloss_dynamic"}
    sc = catalogue(paper="microjunction", kind="scenario")
    assert sc and all(r[1].startswith("microjunction/") for r in sc)
    res = runner.invoke(app, ["list", "--kind", "scenario", "--paper", "subloading"])
    assert res.exit_code == 0 and "subloading/fig9" in res.output and "kloss/" not in res.output
    with pytest.raises(ConfigError, match="did you mean 'classic'"):
        catalogue(paper="clasic")
    with pytest.raises(ConfigError, match="model"):
        catalogue(kind="modle")


def test_show_model_lists_parameters_units_ranges_drivers_presets():
    text = describe("lugre", width=200)
    assert "sigma0          N/m" in text and "(0, inf]" in text and "Bristle stiffness" in text
    assert "rk4 (default in mass, prescribed_slip" in text and "radau" in text  # drivers from drivers_for
    qs = describe("rate_state", width=200)
    assert "quasi_static (default in quasi_static)" in qs and "rk4 (default in mass, prescribed_slip)" in qs
    assert "canudas1995: Canudas de Wit" in text and "olsson1998" in text
    beams = " ".join(describe("beam_network", width=200).split())
    assert "Refuses: velocity_change (the compiled loops take one constant stage velocity" in beams  # declared


def test_show_preset_prints_its_values_and_source():
    ps = presets_of("rate_state")["granite-typical"]
    text = describe("rate_state/granite-typical", width=200)
    assert ps.source.split("(")[0].strip() in " ".join(text.split())
    row = next(ln for ln in text.splitlines() if ln.strip().startswith("dc "))
    assert f"{ps.params['dc']:.6g}" in row
    with pytest.raises(ConfigError, match="no preset 'granite-typcal'.*did you mean"):
        describe("rate_state/granite-typcal")


def test_show_every_model_and_preset_has_units_for_every_field():
    from frictionlab.core.registry import model_names

    for n in model_names():
        cls = get_model_class(n)
        text = describe(n, width=300)
        for f in dataclasses.fields(cls):
            assert any(ln.strip().startswith(f.name + " ") for ln in text.splitlines()), (n, f.name)
        for p in presets_of(n):
            assert f"model {n} / preset {p}" in describe(n, preset=p, width=300)
            if f"{n}/{p}" not in scenario_names():  # else the scenario of that name wins
                assert describe(f"{n}/{p}", width=300) == describe(n, preset=p, width=300)


def test_show_shows_every_scenario_even_where_a_model_preset_has_its_name():
    """Issue 27: `show kloss/fig10` said "model 'kloss' has no preset", `show kloss/fig5` showed the preset."""
    for name in scenario_names():
        res = runner.invoke(app, ["show", name])
        assert res.exit_code == 0, (name, res.output)
        assert f"# scenario {name}\n" in res.output, name
    text = describe("kloss/fig5", width=200)
    assert "# scenario kloss/fig5" in text and "frictionlab show kloss --preset fig5" in text
    assert tomllib.loads(text)["scenario"] == "kloss/fig5"
    res = runner.invoke(app, ["show", "kloss", "--preset", "fig5"])
    assert res.exit_code == 0 and res.output.startswith("model kloss / preset fig5"), res.output
    with pytest.raises(ConfigError, match="no scenario 'kloss/fig99'.* and model 'kloss' has no preset 'fig99'"):
        describe("kloss/fig99")
    with pytest.raises(ConfigError, match="--preset 'x' goes with a model name"):
        describe("kloss/fig5", preset="x")


def test_show_scenario_is_its_resolved_config_as_toml():
    text = describe("classic/rsf-velocity-step", quick=True, overrides={"model.a": 0.011})
    cfg = tomllib.loads(text)
    assert cfg["model"]["a"] == 0.011
    assert "preset" not in cfg["model"] and cfg["model"]["dc"] == presets_of("rate_state")["granite-typical"].params["dc"]
    assert "# preset 'granite-typical'" in text
    res = runner.invoke(app, ["show", "classic/rsf-veloctiy-step"])
    assert res.exit_code != 0


def test_show_protocol_and_system_fields():
    assert "velocities" in describe("velocity_steps")
    assert "stiffness" in describe("mass")


@pytest.mark.parametrize("name", [n for n in scenario_names() if "preset" in (get_scenario(n).config.get("model") or {})])
def test_expanded_preset_builds_the_same_model(name):
    cfg = get_scenario(name).config
    expanded, comment = expand_preset(cfg)
    m0, m1 = dict(cfg["model"]), dict(expanded["model"])
    assert "preset" not in m1 and comment and m0["preset"] in comment
    a = make_model(m0.pop("name"), m0.pop("preset"), **m0)
    b = make_model(m1.pop("name"), None, **m1)
    assert a == b


def test_dump_writes_values_with_the_preset_as_comment(tmp_path):
    res = runner.invoke(app, ["run", "classic/rsf-velocity-step", "--dump", "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    text = next(tmp_path.glob("*.toml")).read_text()
    cfg = tomllib.loads(text)
    assert "preset" not in cfg["model"] and cfg["model"]["mu0"] == 0.6
    assert "# preset 'granite-typical'" in text


def test_list_show_data_compile_nothing():
    """``list``, ``show`` and ``data`` stay fast: no numba kernel of any model gets compiled."""
    import subprocess
    import sys

    code = """
from typer.testing import CliRunner
from frictionlab.cli import app
from frictionlab.core.registry import get_model_class, model_names
r = CliRunner()
for args in (["list"], ["show", "lugre"], ["show", "rate_state/granite-typical"], ["show", "classic/rsf-velocity-step"],
             ["data", "list"]):
    assert r.invoke(app, args).exit_code == 0, args
compiled = [n for n in model_names() for k in ("_friction_kernel", "_rates_kernel")
            if getattr(getattr(get_model_class(n), k, None), "signatures", [])]
print("COMPILED", compiled)
"""
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    assert "COMPILED []" in out.stdout, out.stdout


def test_list_descriptions_carry_no_rst_markup():
    """`list` shows plain text: a docstring's ``:math:`...``` role or ````literal```` quoting is unwrapped."""
    from frictionlab.cli.show import catalogue

    rows = catalogue(kind="model")
    coulomb = next(r for r in rows if r[1] == "coulomb")
    assert ":math:" not in coulomb[3] and "`" not in coulomb[3]
    assert "F = mu N sgn(v)" in coulomb[3]
    assert not [r[1] for r in catalogue() if ":math:" in r[3] or "``" in r[3]]


def _fresh_cli(args, cache_dir):
    """``frictionlab ARGS`` in a fresh process with its cache (and index) under ``cache_dir``."""
    import os
    import subprocess
    import sys

    env = dict(os.environ, FRICTIONLAB_CACHE_DIR=str(cache_dir), COLUMNS="100",
               PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
    code = "import sys; from frictionlab.cli import main; sys.argv[0] = 'frictionlab'; main()"
    out = subprocess.run([sys.executable, "-c", code, *args], capture_output=True, text=True, env=env, timeout=300)
    assert out.returncode == 0, out.stderr[-2000:]
    return out.stdout


def test_index_file_equals_the_live_registries(tmp_path):
    """A fresh `list` / `show MODEL|SCENARIO` prints from the index file; that file is what the registries give."""
    import json

    from frictionlab.cli.index import LAYOUT
    from frictionlab.cli.show import _wrap_rows, build_index

    first = _fresh_cli(["list"], tmp_path)  # builds the index and writes it
    files = list((tmp_path / "catalogue").glob("index-*.json"))
    assert len(files) == 1
    assert _fresh_cli(["list"], tmp_path) == first  # read back
    on_disk = json.loads(files[0].read_text())
    live = build_index()  # this process imports every model and scenario
    assert on_disk == {**json.loads(json.dumps(live)), "layout": LAYOUT}
    assert first == _wrap_rows(catalogue(), 100)
    assert _fresh_cli(["show", "lugre"], tmp_path) == describe("lugre", width=100)
    assert _fresh_cli(["show", "rate_state/granite-typical"], tmp_path) == describe("rate_state/granite-typical", width=100)
    assert _fresh_cli(["show", "kloss/fig5"], tmp_path) == describe("kloss/fig5", width=100)
    assert _fresh_cli(["show", "kloss", "--preset", "fig5"], tmp_path) == describe("kloss", preset="fig5", width=100)
    sc = "classic/rsf-velocity-step"
    assert _fresh_cli(["show", sc], tmp_path) == describe(sc, width=100)
    assert _fresh_cli(["show", sc, "--quick"], tmp_path) == describe(sc, quick=True, width=100)
    over = _fresh_cli(["show", sc, "--set", "model.a=0.013"], tmp_path)  # computed, not from the index
    assert over == describe(sc, overrides={"model.a": 0.013}, width=100) and "a = 0.013" in over


def test_index_rebuilt_when_corrupt_or_the_source_changes(tmp_path, monkeypatch):
    from frictionlab.cli import index as cli_index

    monkeypatch.setenv("FRICTIONLAB_CACHE_DIR", str(tmp_path))
    monkeypatch.setattr(cli_index, "_MEMO", {})
    path = cli_index.index_path()
    path.parent.mkdir(parents=True)
    path.write_text("{not json")
    assert cli_index.cached_index(lambda: {"rows": [["model", "x", "", "d"]]})["rows"] == [["model", "x", "", "d"]]
    monkeypatch.setattr(cli_index, "_MEMO", {})
    assert cli_index.cached_index(lambda: {"rows": []})["rows"] == [["model", "x", "", "d"]]  # read, not rebuilt
    src = tmp_path / "pkg"
    (src / "sub").mkdir(parents=True)
    (src / "a.py").write_text("x = 1\n")
    (src / "sub" / "b.py").write_text("y = 2\n")
    stamp = cli_index.source_stamp(str(src))
    assert cli_index.source_stamp(str(src)) == stamp
    (src / "sub" / "b.py").write_text("y = 3\n")  # same size: the modification time tells
    import os

    os.utime(src / "sub" / "b.py", ns=(0, 10**9))
    assert cli_index.source_stamp(str(src)) != stamp


def test_index_stamp_covers_the_whole_package():
    """The default stamp hashes every source file of frictionlab, not only the CLI's own folder: an
    edit to a model, preset or scenario must build a new index (the CLI moved into ``frictionlab/cli/``)."""
    import frictionlab
    from frictionlab.cli import index as cli_index

    package = os.path.dirname(os.path.abspath(frictionlab.__file__))
    assert cli_index.source_stamp() == cli_index.source_stamp(package)
    assert cli_index.source_stamp() != cli_index.source_stamp(os.path.dirname(os.path.abspath(cli_index.__file__)))


def test_show_sees_what_this_process_registered(monkeypatch):
    """In a process that registered a scenario itself, list/show read the live registries, not the file."""
    from frictionlab.scenarios import base

    sc = base.Scenario("zzshow/mine", "a scenario registered in this process", {"model": {"name": "coulomb"}})
    monkeypatch.setitem(base._SCENARIOS, sc.name, sc)
    assert "a scenario registered in this process" in describe("zzshow/mine")
    assert ("scenario", "zzshow/mine", "zzshow", "a scenario registered in this process") in catalogue(kind="scenario")
