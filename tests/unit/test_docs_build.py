"""The Sphinx site builds (``make docs``): gallery, API reference (one page per module), guide
pages, the tasks page; it works offline (MathJax served from ``_static``, no CDN URL anywhere);
long code lines wrap."""

import importlib.util
import re
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
    res = subprocess.run([sys.executable, "-m", "sphinx", "-n", "-b", "html", "-q", str(ROOT / "docs"), str(out)],
                         capture_output=True, text=True, timeout=900)
    assert res.returncode == 0, res.stderr[-3000:]
    # nitpicky: every cross-reference resolves (the names conf.py leaves unlinked are listed there, with why)
    warnings = [line for line in res.stderr.splitlines() if "WARNING" in line]
    assert not warnings, "\n".join(warnings[:20])
    for page in ("index.html", "choosing_a_model.html", "sweeps.html", "tasks.html", "generated/api.html",
                 "generated/naming.html", "generated/developing.html", "generated/scenarios.html",
                 "generated/validation.html",
                 "auto_examples/index.html"):
        assert (out / page).exists(), page
    n_examples = len(list((ROOT / "examples").glob("plot_*.py")))
    assert len(list((out / "auto_examples").glob("plot_*.html"))) == n_examples
    # the API reference: an index linking one page per module, each with its members
    api = (out / "generated" / "api.html").read_text()
    for mod, name in (("frictionlab.sweep.runner", "run_sweep"), ("frictionlab.laws.rate_state", "RateState")):
        assert f'href="api/{mod}.html"' in api
        assert f"{mod}.{name}" in (out / "generated" / "api" / f"{mod}.html").read_text()
    assert len(list((out / "generated" / "api").glob("frictionlab.*.html"))) > 40
    assert len(api) < 200_000  # an index, not every docstring on one page
    assert "argument order" in (out / "generated" / "naming.html").read_text().lower()
    # the validation page (from docs/validation.md, written by `frictionlab reproduce`): its tables render
    val = (out / "generated" / "validation.html").read_text()
    assert "Validation against the papers" in val and val.count("<table") >= 2
    # offline: every script and style sheet is local; the mathematics uses the MathJax copy in _static
    pages = list(out.rglob("*.html"))
    remote = [(p.name, m) for p in pages for m in re.findall(r"<(?:script|link)[^>]+(?:src|href)=\"(https?:)?//[^\"]+\"",
                                                               p.read_text())]
    assert not remote, remote[:5]
    rs = (out / "generated" / "api" / "frictionlab.laws.rate_state.html").read_text()
    assert 'src="../../_static/mathjax/tex-svg-full.js' in rs and "math notranslate" in rs
    assert (out / "_static" / "mathjax" / "tex-svg-full.js").stat().st_size > 1_000_000
    # long code lines wrap
    assert "white-space: pre-wrap" in (out / "_static" / "frictionlab.css").read_text()
    assert "_static/frictionlab.css" in (out / "tasks.html").read_text()
