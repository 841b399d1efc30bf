"""``frictionlab run`` outputs: NetCDF with every sample, a decimated CSV by default (at most
10,000 rows, said in its first line), every sample with ``--csv full``, no CSV with ``--csv none``."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pytest
import xarray as xr

from frictionlab.core.result import CSV_MAX_ROWS, make_dataset, write_csv
from frictionlab.scenarios import base as scenario_base
from frictionlab.scenarios.base import Scenario

N = 25_001


def _long_run(cfg, quick):
    t = np.linspace(0.0, 1.0, N)
    return make_dataset(t, {"friction_force": np.sin(40 * t), "slip": t}, attrs={"n": N})


LONG = Scenario("toy/long", "a long toy series", {"toy": {"n": N}}, run=_long_run, checks=lambda ds, cfg: [])


@pytest.fixture
def long_toy(monkeypatch):
    monkeypatch.setitem(scenario_base._SCENARIOS, LONG.name, LONG)


def test_default_csv_is_decimated_and_says_so(long_toy, tmp_path, cli):
    code, out, _ = cli(["run", "toy/long", "--out", tmp_path])
    assert code == 0
    csv = tmp_path / "toy__long.csv"
    first = csv.read_text().splitlines()[0]
    assert first.startswith("# frictionlab: decimated: one time sample in every 3 of 25001 (and the last)")
    assert "at most 10000" in first and ".nc file beside it holds every sample" in first
    df = pd.read_csv(csv, comment="#")
    assert 5000 < len(df) <= CSV_MAX_ROWS
    assert list(df.columns) == ["time [s]", "friction_force [N]", "slip [m]"]
    assert df["time [s]"].iloc[0] == 0.0 and df["time [s]"].iloc[-1] == 1.0  # first and last sample kept
    t = np.linspace(0.0, 1.0, N)
    np.testing.assert_allclose(df["friction_force [N]"], np.sin(40 * df["time [s]"]), atol=1e-12)
    assert np.isin(df["time [s]"].to_numpy(), t).all()  # samples of the run, not interpolated
    ds = xr.open_dataset(tmp_path / "toy__long.nc", engine="h5netcdf")
    assert ds.sizes["time"] == N  # the NetCDF file holds every sample
    assert "decimated: one time sample in every 3" in " ".join(out.split())


def test_csv_full_and_none(long_toy, tmp_path, cli):
    code, _, _ = cli(["run", "toy/long", "--out", tmp_path / "full", "--csv", "full"])
    assert code == 0
    text = (tmp_path / "full" / "toy__long.csv").read_text()
    assert not text.startswith("#") and len(pd.read_csv(tmp_path / "full" / "toy__long.csv")) == N
    code, out, _ = cli(["run", "toy/long", "--out", tmp_path / "none", "--csv", "none"])
    assert code == 0 and not (tmp_path / "none" / "toy__long.csv").exists()
    assert (tmp_path / "none" / "toy__long.nc").exists() and (tmp_path / "none" / "toy__long.png").exists()
    code, _, err = cli(["run", "toy/long", "--out", tmp_path, "--csv", "half"])
    assert code == 2 and "--csv 'half'" in err and "decimated, full, none" in err


def test_short_series_is_written_whole(tmp_path):
    t = np.linspace(0.0, 1.0, 11)
    p = write_csv(make_dataset(t, {"slip": t}), tmp_path / "s.csv", max_rows=CSV_MAX_ROWS)
    assert not p.read_text().startswith("#") and len(pd.read_csv(p)) == 11


def test_decimation_counts_rows_over_all_dims(tmp_path):
    """A variable over (time, element) makes time x element rows: the stride accounts for them."""
    t = np.arange(5000.0)
    ds = xr.Dataset({"force": (("time", "element"), np.ones((5000, 7)), {"units": "N"})},
                    coords={"time": ("time", t, {"units": "s"}), "element": np.arange(7)})
    p = write_csv(ds, tmp_path / "e.csv", max_rows=1000)
    df = pd.read_csv(p, comment="#")
    assert len(df) <= 1000 and len(df) % 7 == 0 and df["time [s]"].iloc[-1] == 4999.0
