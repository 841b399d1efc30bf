"""Every ```python block of the README runs as written (in a fresh namespace, an empty directory)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).resolve().parents[2] / "README.md"
BLOCKS = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)


def test_readme_has_the_simulate_and_control_examples():
    assert len(BLOCKS) >= 2
    assert any("fl.simulate(" in b for b in BLOCKS) and any("run_servo(" in b for b in BLOCKS)


@pytest.mark.parametrize("block", BLOCKS, ids=[f"block{i}" for i in range(len(BLOCKS))])
def test_readme_python_block_runs(block, tmp_path, monkeypatch):
    import matplotlib

    matplotlib.use("Agg")
    monkeypatch.chdir(tmp_path)
    namespace: dict = {"__name__": "__readme__"}
    exec(compile(block, "README.md", "exec"), namespace)  # noqa: S102 - our own README
    import matplotlib.pyplot as plt

    plt.close("all")
