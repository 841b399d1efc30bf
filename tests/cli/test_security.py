"""Security and integrity: what a planted file, a crafted or damaged stored result and an
oversized request can make the CLI do.

Each case reproduces an attack or a damage and asserts that it is refused or handled: the
planted code does not run, the planted data is not read (or is named with its checksum), a
crafted partial result runs nothing and a damaged one is recomputed and said, an oversized
request is a one-line error (exit 2) before any work.
"""

from __future__ import annotations

from pathlib import Path

import pytest

# ---------------------------------------------------------------------------- planted benchmark
_PLANTED = """
from pathlib import Path
Path({marker!r}).write_text("ran")
def run(quick):
    return []
"""


def _plant_benchmark(root: Path, name: str) -> tuple[Path, Path]:
    """``root/benchmarks/bench_<name>.py`` writing a marker when executed; returns (marker, deep cwd)."""
    (root / "benchmarks").mkdir(parents=True)
    (root / "a" / "b").mkdir(parents=True)
    marker = root / "marker"
    (root / "benchmarks" / f"bench_{name}.py").write_text(_PLANTED.format(marker=str(marker)))
    return marker, root / "a" / "b"


def test_bench_never_runs_a_file_planted_in_a_parent_directory(cli, tmp_path, monkeypatch):
    marker, deep = _plant_benchmark(tmp_path, "planted")
    monkeypatch.chdir(deep)
    code, out, err = cli(["bench", "planted", "--quick"])
    assert not marker.exists(), "a bench_*.py in a parent directory was executed"
    assert code == 2 and "unknown benchmark 'planted'" in err
    assert "lugre" in err  # the packaged benchmarks are the known ones


def test_bench_shadowing_a_packaged_name_from_a_parent_is_not_loaded(tmp_path, monkeypatch):
    from frictionlab import cli as cli_mod

    marker, deep = _plant_benchmark(tmp_path, "lugre")
    monkeypatch.chdir(deep)
    found = cli_mod._benchmarks(None)
    pkg = Path(cli_mod.__file__).resolve().parent / "benchmarks"
    assert found["lugre"] == pkg / "bench_lugre.py"
    assert all(f.parent == pkg for f in found.values())
    assert {"lugre", "startup", "fresh", "rough_sliding"} <= set(found)


def test_bench_runs_a_directory_only_when_named_with_path(cli, tmp_path, monkeypatch):
    marker, deep = _plant_benchmark(tmp_path, "planted")
    code, out, err = cli(["bench", "planted", "--path", tmp_path / "benchmarks"])
    assert code == 0, err
    assert marker.read_text() == "ran"
    code, out, err = cli(["bench", "--path", tmp_path / "nothing-here"])
    assert code == 2 and "not a directory" in err


# ---------------------------------------------------------------------------------- planted data
PSTAR = "pstar_proton_liquid_water_stopping_power.csv"


def _plant_tripled_pstar(root: Path) -> Path:
    """A ``data/`` and a ``shared/data/`` copy of the PSTAR table with every stopping power tripled,
    two levels above the returned working directory."""
    from frictionlab.datasets import DATASET_DIR

    lines = []
    for line in (DATASET_DIR / PSTAR).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#") and line[0].isdigit():
            e, *rest = line.split(",")
            rest = [f"{3 * float(v):.6g}" for v in rest]
            line = ",".join([e, *rest])
        lines.append(line)
    for d in (root / "data", root / "shared" / "data"):
        d.mkdir(parents=True)
        (d / PSTAR).write_text("\n".join(lines) + "\n", encoding="utf-8")
    deep = root / "a" / "b"
    deep.mkdir(parents=True)
    return deep


def test_data_file_planted_in_a_parent_directory_is_not_used(tmp_path, monkeypatch):
    from frictionlab.datasets import DATASET_DIR
    from frictionlab.fit.data import find_data_file

    monkeypatch.chdir(_plant_tripled_pstar(tmp_path))
    monkeypatch.delenv("FRICTIONLAB_DATA", raising=False)
    assert find_data_file(PSTAR) == DATASET_DIR / PSTAR
    # a folder the user names is used, and only it
    assert find_data_file(PSTAR, str(tmp_path / "data")) == tmp_path / "data" / PSTAR
    with pytest.raises(Exception, match="not found in data.dir"):
        find_data_file("rsf_params_leeman2016_p4309_ruina_fits.csv", str(tmp_path / "data"))
    monkeypatch.setenv("FRICTIONLAB_DATA", str(tmp_path / "shared" / "data"))
    assert find_data_file(PSTAR) == tmp_path / "shared" / "data" / PSTAR


def test_data_fit_scenario_records_and_prints_the_file_and_its_checksum(cli, tmp_path, monkeypatch):
    import hashlib

    import xarray as xr

    from frictionlab.datasets import DATASET_DIR

    monkeypatch.chdir(_plant_tripled_pstar(tmp_path))
    monkeypatch.delenv("FRICTIONLAB_DATA", raising=False)
    code, out, err = cli(["run", "kloss/pstar-fit", "--quick", "--out", tmp_path / "out", "--csv", "none"])
    assert code == 0, err
    sha = hashlib.sha256((DATASET_DIR / PSTAR).read_bytes()).hexdigest()
    line = f"{DATASET_DIR / PSTAR} (sha256 {sha})"
    assert f"data read: {line}" in out
    with xr.open_dataset(tmp_path / "out" / "kloss__pstar-fit.nc", engine="h5netcdf") as ds:
        assert ds.attrs["data_files"] == line
        assert float(ds.s_data.values[-1]) == pytest.approx(11.54)  # the packaged table's 55 MeV value, not 34.62


def test_fit_prints_and_records_the_file_it_read(cli, tmp_path):
    import hashlib
    import json

    from frictionlab.datasets import DATASET_DIR

    code, out, err = cli(["fit", "kloss", PSTAR[:-4], "--x", "E_MeV", "--y", "S_total_MeV_cm2_per_g", "--xmin", "1",
                          "--n-starts", "2", "--out", tmp_path, "--quiet"])
    assert code == 0, err
    sha = hashlib.sha256((DATASET_DIR / PSTAR).read_bytes()).hexdigest()
    assert f"data read: {DATASET_DIR / PSTAR} (sha256 {sha})" in out
    rec = json.loads(next(tmp_path.glob("*_kloss.json")).read_text())
    assert rec["data_file"] == {"path": str(DATASET_DIR / PSTAR), "sha256": sha,
                                "size": (DATASET_DIR / PSTAR).stat().st_size}
