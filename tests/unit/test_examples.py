"""Every examples/*.py script runs (they are the gallery pages of the docs)."""

import runpy
from pathlib import Path

import matplotlib
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

EXAMPLES = sorted((Path(__file__).resolve().parents[2] / "examples").glob("*.py"))


def test_examples_exist():
    assert len(EXAMPLES) >= 3
    for f in EXAMPLES:
        doc = f.read_text().split('"""')[1]
        assert "\n===" in doc, f"{f.name}: sphinx-gallery needs a title underlined with '='"


#: examples that take more than ~20 s (none yet) run with the slow tests only
SLOW: tuple[str, ...] = ()
PARAMS = [pytest.param(f, id=f.stem, marks=pytest.mark.slow(reason="long example") if f.stem in SLOW else ())
          for f in EXAMPLES]


@pytest.mark.parametrize("script", PARAMS)
def test_example_runs(script, tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    try:
        ns = runpy.run_path(str(script), run_name="__main__")
        from matplotlib.figure import Figure

        own = [v for v in ns.values() if isinstance(v, Figure)]  # frictionlab.plot draws untracked Figures
        assert plt.get_fignums() or own, f"{script.name} draws no figure"
    finally:
        plt.close("all")
    assert ns
