"""Licence, citation and project metadata ship with the package (issue 29)."""

from __future__ import annotations

import subprocess
import sys
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def _project() -> dict:
    return tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]


def test_licence_and_citation_files_exist_and_agree_with_metadata():
    import yaml

    project = _project()
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    assert project["license"] == "MIT" and project["license-files"] == ["LICENSE"]
    assert project["authors"] and project["classifiers"] and project["keywords"]
    cff = yaml.safe_load((ROOT / "CITATION.cff").read_text(encoding="utf-8"))
    assert cff["cff-version"] == "1.2.0" and cff["type"] == "software"
    assert str(cff["version"]) == project["version"]
    assert cff["license"] == "MIT"
    # one reference per paper whose models ship, each with a DOI or a URL
    refs = cff["references"]
    assert len(refs) == 5
    assert all(r.get("doi") or r.get("url") for r in refs)


def test_wheel_carries_the_licence(tmp_path):
    out = subprocess.run([sys.executable, "-m", "pip", "wheel", str(ROOT), "--no-deps",
                          "-w", str(tmp_path), "-q"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    (wheel,) = tmp_path.glob("frictionlab-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in names), names[-10:]
