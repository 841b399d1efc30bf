"""Fast checks of the docs configuration (the full build is ``test_docs_build.py``, slow): MathJax is
served from the vendored copy, code blocks wrap, and no page source loads anything from a CDN."""

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parents[2] / "docs"


def _conf() -> str:
    return (DOCS / "conf.py").read_text()


def test_mathjax_is_the_local_copy():
    m = re.search(r'^mathjax_path = "([^"]+)"', _conf(), flags=re.M)
    assert m and "://" not in m.group(1)
    js = DOCS / "_static" / m.group(1)
    data = js.read_bytes()
    assert len(data) > 1_000_000 and b"MathJax" in data
    assert (js.parent / "LICENSE").exists()
    assert 'html_static_path = ["_static"]' in _conf()


def test_code_blocks_wrap():
    css = (DOCS / "_static" / "frictionlab.css").read_text()
    assert re.search(r"pre[^{]*\{[^}]*white-space: pre-wrap", css)
    assert '"frictionlab.css"' in _conf()


def test_no_cdn_in_the_sources():
    for p in [*DOCS.glob("*.rst"), DOCS / "conf.py", *DOCS.glob("_static/*.css")]:
        assert not re.search(r"https?://(cdn|cdnjs|code\\.jquery|unpkg)", p.read_text()), p
    assert '"write_computation_times": False' in _conf()  # sphinx-gallery's timing page loads CDN scripts
