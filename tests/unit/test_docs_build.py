"""The Sphinx site builds (``make docs``): gallery, API reference, guide pages."""

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.slow(reason="builds the whole Sphinx site and runs every gallery example (~1 min)")
def test_sphinx_site_builds(tmp_path):
    for mod in ("sphinx", "numpydoc", "sphinx_gallery"):
        if importlib.util.find_spec(mod) is None:
            pytest.skip(f"{mod} not installed (pip install -e '.[docs]')")
    out = tmp_path / "html"
    res = subprocess.run([sys.executable, "-m", "sphinx", "-b", "html", "-q", str(ROOT / "docs"), str(out)],
                         capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, res.stderr[-3000:]
    for page in ("index.html", "choosing_a_model.html", "sweeps.html", "generated/api.html",
                 "generated/naming.html", "generated/developing.html", "generated/scenarios.html",
                 "generated/validation.html",
                 "auto_examples/index.html"):
        assert (out / page).exists(), page
    n_examples = len(list((ROOT / "examples").glob("plot_*.py")))
    assert len(list((out / "auto_examples").glob("plot_*.html"))) == n_examples
    api = (out / "generated" / "api.html").read_text()
    for name in ("frictionlab.sweep.runner.run_sweep", "frictionlab.laws.rate_state.RateState"):
        assert name in api
    assert "argument order" in (out / "generated" / "naming.html").read_text().lower()
    # the validation page (from docs/validation.md, written by `frictionlab reproduce`): its tables render
    val = (out / "generated" / "validation.html").read_text()
    assert "Validation against the papers" in val and val.count("<table") >= 2
