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
