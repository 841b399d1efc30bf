"""Every block of the docs' tasks page (``docs/tasks.rst``) runs, on a fresh clone.

Shell blocks run line by line in-process (the README test's machinery: ``command_lines`` and
``_invoke``, an empty working directory, no ``../shared``); Python blocks run with ``exec`` in
the same directory. A block preceded by ``.. test: slow: REASON`` is marked slow with that
reason; one preceded by ``.. test: needs-option: COMMAND --OPTION`` is skipped while
``frictionlab COMMAND --help`` does not list the option (it runs as soon as the option exists).
"""

from __future__ import annotations

import re
import shlex
import textwrap
from pathlib import Path

import matplotlib.pyplot as plt
import pytest
from typer.testing import CliRunner

from frictionlab.cli import app
from test_readme_commands import _invoke, command_lines

PAGE = Path(__file__).resolve().parents[2] / "docs" / "tasks.rst"

_BLOCK = re.compile(r"(?:^\.\. test: (?P<mark>[^\n]+)\n\n)?^\.\. code-block:: (?P<lang>bash|python)\n\n"
                    r"(?P<body>(?:^(?: {3}.*)?\n)+)", flags=re.M)


def page_blocks() -> list[tuple[str, str, str]]:
    """``(language, code, test mark)`` of every code block of the page, in order."""
    return [(m["lang"], textwrap.dedent(m["body"]).strip() + "\n", (m["mark"] or "").strip())
            for m in _BLOCK.finditer(PAGE.read_text())]


def _has_option(mark: str) -> bool:
    *cmd, option = mark.removeprefix("needs-option:").split()
    res = CliRunner().invoke(app, [*cmd, "--help"], terminal_width=200)
    return option in res.output


def _param(i: int, lang: str, code: str, mark: str):
    marks = []
    if mark.startswith("slow:"):
        marks.append(pytest.mark.slow(reason=mark.removeprefix("slow:").strip()))
    elif mark.startswith("needs-option:"):
        if _has_option(mark):
            return pytest.param(lang, code, marks=marks, id=f"block{i}-{lang}")
        marks.append(pytest.mark.skip(reason=f"needs {mark.removeprefix('needs-option:').strip()} "
                                             "(merged separately)"))
    elif mark:
        raise ValueError(f"unknown test mark {mark!r} in {PAGE}")
    return pytest.param(lang, code, marks=marks, id=f"block{i}-{lang}")


BLOCKS = page_blocks()


def test_the_page_covers_the_user_stories():
    text = "\n".join(code for _, code, _ in BLOCKS)
    for needed in ("frictionlab list", "frictionlab show ", "frictionlab data list", "frictionlab data show",
                   "frictionlab data path", "frictionlab fit ", "--metric", "self_affine_surface", "solve_contact",
                   "QuasiStaticSlider", "phase_plane", "frictionlab compare", "frictionlab reproduce"):
        assert needed in text, needed
    assert len(BLOCKS) >= 10 and "../shared" not in text


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    d = tmp_path_factory.mktemp("fresh_clone_tasks")
    (d / "out" / "tasks").mkdir(parents=True)
    return d


@pytest.mark.parametrize("lang, code", [_param(i, *b) for i, b in enumerate(BLOCKS)])
def test_tasks_page_block(lang, code, workdir, monkeypatch):
    if lang == "bash":
        lines = command_lines(code)
        assert lines, code
        for line in lines:
            _invoke(shlex.split(line)[1:], workdir, monkeypatch)
        return
    monkeypatch.chdir(workdir)
    monkeypatch.setenv("FRICTIONLAB_DATA", str(workdir / "no_shared_data"))
    try:
        exec(compile(code, f"{PAGE.name} (python block)", "exec"), {"__name__": "__tasks__"})
    finally:
        plt.close("all")
