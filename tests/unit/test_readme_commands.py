"""Every ``frictionlab ...`` line of the README's ```bash blocks runs, on a fresh clone.

The commands run in-process (typer's CliRunner) in an empty working directory, so nothing
from ``../shared`` is reachable: data are named by packaged dataset (``frictionlab data``).
Each line is run in its *fast* form here — as written where that takes seconds; with
``--quick`` (``run``), ``--n-starts 1`` (``fit rsf``), ``--dump`` (running a dumped file) or
``--help`` where the full command takes minutes — and exactly as written in a test marked
slow with the reason.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest
from typer.testing import CliRunner

from frictionlab.cli import app

README = Path(__file__).resolve().parents[2] / "README.md"


def command_lines(block: str) -> list[str]:
    """The ``frictionlab`` command lines of one shell block, comments stripped, in order
    (also used for the docs' tasks page, ``test_tasks_page.py``)."""
    lines = []
    for line in block.splitlines():
        line = line.split(" #", 1)[0].strip()
        if line.startswith("frictionlab "):
            lines.append(line)
    return lines


def readme_commands() -> list[str]:
    """The ``frictionlab`` command lines of the README's bash blocks, in order."""
    blocks = re.findall(r"```bash\n(.*?)```", README.read_text(), flags=re.S)
    return [line for block in blocks for line in command_lines(block)]


#: commands whose full run takes minutes (reason shown in the slow marker)
SLOW_REASON = {
    "reproduce": "runs a paper's (or every paper's) scenarios and checks (minutes)",
    "sweep": "a parameter sweep on dask workers (minutes)",
    "compare": "every model through one protocol plus RSF fits (minutes)",
    "bench": "benchmark timings (minutes)",
    "fit rsf": "multi-start RSF inversion of 5849 samples (30-60 s)",
    "run file": "the full, non-quick scenario run from a dumped file (about a minute)",
    "run": "the full, non-quick scenario run",
}


def fast_form(args: list[str]) -> tuple[list[str], str | None]:
    """``(args to run in the fast suite, slow reason or None when the line is already fast)``."""
    cmd = args[0]
    if cmd in ("list", "show", "data"):
        return args, None
    if cmd == "run":
        if "--dump" in args:
            return [*args, "--quick"], None  # the dumped file then holds the quick profile
        if args[1].endswith(".toml"):
            return [*args, "--dump", "--out", "cfg_check/"], SLOW_REASON["run file"]
        return [*args, "--quick"], SLOW_REASON["run"]
    if cmd == "fit" and args[1] == "rsf":
        return [*args, "--n-starts", "1"], SLOW_REASON["fit rsf"]
    if cmd in ("fit", "export"):
        return args, None
    return [cmd, "--help"], SLOW_REASON.get(cmd, "long-running command")


COMMANDS = readme_commands()


def test_the_readme_has_the_commands_users_need():
    joined = "\n".join(COMMANDS)
    for needed in ("frictionlab list", "frictionlab show ", "frictionlab data ", "frictionlab fit ", "frictionlab run "):
        assert needed in joined
    assert "../shared" not in README.read_text().split("## What is in it")[0]  # examples name packaged data


@pytest.fixture(scope="module")
def workdir(tmp_path_factory):
    return tmp_path_factory.mktemp("fresh_clone")


def _invoke(args: list[str], workdir: Path, monkeypatch) -> None:
    monkeypatch.chdir(workdir)
    monkeypatch.setenv("FRICTIONLAB_DATA", str(workdir / "no_shared_data"))
    res = CliRunner().invoke(app, args)
    assert res.exit_code == 0, f"frictionlab {shlex.join(args)} failed:\n{res.output}\n{res.exception!r}"


@pytest.mark.parametrize("line", COMMANDS)
def test_readme_command_fast_form(line, workdir, monkeypatch):
    args, _ = fast_form(shlex.split(line)[1:])
    if args[:2] == ["export", "fmu"]:
        from frictionlab.export.fmu import find_compiler

        pytest.importorskip("fmpy", reason="the FMI headers come from FMPy (pip install 'frictionlab[fmu]')")
        if find_compiler() is None:
            pytest.skip("no C compiler (cc, gcc or $CC) to build the FMU")
    _invoke(args, workdir, monkeypatch)


SLOW = [pytest.param(line, marks=pytest.mark.slow(reason=fast_form(shlex.split(line)[1:])[1]))
        for line in COMMANDS if fast_form(shlex.split(line)[1:])[1] is not None]


@pytest.mark.parametrize("line", SLOW)
def test_readme_command_as_written(line, workdir, monkeypatch):
    if line.split()[1] == "run" and line.split()[2].endswith(".toml"):  # the file the README dumped before it
        for before in COMMANDS[:COMMANDS.index(line)]:
            if "--dump" in before:
                _invoke(shlex.split(before)[1:], workdir, monkeypatch)
    _invoke(shlex.split(line)[1:], workdir, monkeypatch)
