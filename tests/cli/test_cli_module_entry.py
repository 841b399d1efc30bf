"""``python -m frictionlab`` is the same command as ``frictionlab`` (no console script needed)."""

from __future__ import annotations

import subprocess
import sys


def test_python_m_frictionlab_runs_the_cli():
    out = subprocess.run([sys.executable, "-m", "frictionlab", "--help"], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr
    assert "reproduce" in out.stdout


def test_python_m_frictionlab_bad_input_exits_2():
    out = subprocess.run([sys.executable, "-m", "frictionlab", "show", "no-such-model"], capture_output=True,
                         text=True, timeout=120)
    assert out.returncode == 2, (out.returncode, out.stderr)
