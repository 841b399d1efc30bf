"""``frictionlab data list|show|path`` and packaged dataset names wherever ``fit`` takes a path."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from frictionlab import datasets
from frictionlab.cli import app
from frictionlab.core.errors import DataError
from frictionlab.fit.data import load_xy, read_table

runner = CliRunner()
NAME = "naca0012_ladson_re6e6_tripped_cl_cd"


def test_names_and_paths():
    assert NAME in datasets.names() and len(datasets.names()) == len(list(datasets.DATASET_DIR.glob("*.csv")))
    assert datasets.path(NAME) == datasets.path(NAME + ".csv") == datasets.DATASET_DIR / f"{NAME}.csv"
    with pytest.raises(DataError, match="did you mean 'pstar_proton_liquid_water_stopping_power'"):
        datasets.path("pstar")
    cols, rows = datasets.columns(NAME)
    assert cols == ["Re", "trip_grit", "alpha_deg", "cl", "cd"] and rows == 53


def test_resolve_prefers_an_existing_file(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert datasets.resolve(NAME) == datasets.path(NAME)
    Path(f"{NAME}.csv").write_text("x,y\n1,2\n2,3\n")
    assert datasets.resolve(f"{NAME}.csv") == Path(f"{NAME}.csv")
    with pytest.raises(DataError, match="not a packaged dataset"):
        datasets.resolve("nonexistent/file.csv")


def test_data_cli(tmp_path):
    res = runner.invoke(app, ["data", "list"])
    assert res.exit_code == 0
    for n in datasets.names():
        assert n in res.output
    assert "Ladson, C. L., NASA TM-4074 (1988)" in " ".join(res.output.split())  # the source, not cut at initials
    res = runner.invoke(app, ["data", "show", NAME])
    assert res.exit_code == 0 and "NASA TM-4074" in res.output and "53 rows" in res.output
    res = runner.invoke(app, ["data", "path", NAME])
    assert res.exit_code == 0 and Path(res.output.strip()).is_file()
    res = runner.invoke(app, ["data", "path", "nope"])
    assert res.exit_code != 0


def test_fit_takes_a_dataset_name(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    d = load_xy(NAME, "alpha_deg", "cl", where={"trip_grit": 80}, xmin=0)
    assert d.x.size == 14
    assert read_table(NAME)["cl"].size == 53
    res = runner.invoke(app, ["fit", "kloss-lift", NAME, "--x", "alpha_deg", "--y", "cl", "--where", "trip_grit=80",
                              "--xmin", "0", "--out", "o"])
    assert res.exit_code == 0, res.output
    out = json.loads(next((tmp_path / "o").glob("*.json")).read_text())
    assert out  # params written
