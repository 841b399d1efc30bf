import matplotlib
import pytest

matplotlib.use("Agg")


@pytest.fixture
def cli(capsys):
    """``cli(argv) -> (exit code, stdout, stderr)``: ``frictionlab ARGV`` run in this process."""
    from frictionlab.cli import main

    def run(argv) -> tuple[int, str, str]:
        try:
            main([str(a) for a in argv])
            code = 0
        except SystemExit as exc:
            code = exc.code if isinstance(exc.code, int) else (0 if exc.code is None else 1)
        out, err = capsys.readouterr()
        return code, out, err

    return run


@pytest.fixture
def fresh_json():
    """``fresh_json(code) -> object``: run ``code`` in a fresh interpreter (this ``sys.path``) and parse
    the JSON it prints on its last line."""
    import json
    import os
    import subprocess
    import sys

    def run(code: str):
        env = dict(os.environ, PYTHONPATH=os.pathsep.join(p for p in sys.path if p))
        proc = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, env=env, timeout=300)
        assert proc.returncode == 0, proc.stderr
        return json.loads(proc.stdout.strip().splitlines()[-1])

    return run


def _live(pid: int) -> bool:
    """Whether ``pid`` runs (a zombie waiting for a reaper does not); Linux ``/proc``."""
    from pathlib import Path

    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def _descendants(pid: int) -> list[int]:
    """The process ids below ``pid``, children of any of its threads (dask forks from its loop's)."""
    from pathlib import Path

    found, todo = [], [pid]
    while todo:
        kids = []
        for task in Path(f"/proc/{todo.pop()}/task").glob("*"):
            try:
                kids += [int(k) for k in (task / "children").read_text().split()]
            except OSError:
                pass
        found += kids
        todo += kids
    return found


@pytest.fixture
def processes():
    """``processes.below(pid)``: the live processes below ``pid``; ``processes.live(pid)``: whether it
    runs (Linux ``/proc``; for the Ctrl-C tests, which check that no worker survives its owner)."""

    class Processes:
        live = staticmethod(_live)

        @staticmethod
        def below(pid: int) -> list[int]:
            return [p for p in _descendants(pid) if _live(p)]

    return Processes
