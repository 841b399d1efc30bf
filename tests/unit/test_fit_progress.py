"""Progress feedback of long fits: ``ProgressLines`` timing, the ``Fitter`` callback, and ``frictionlab fit``
printing lines on stderr (silent with ``--quiet``, and for a fit shorter than the delay)."""

from __future__ import annotations

import io

import numpy as np
import pytest
from typer.testing import CliRunner

from frictionlab.cli import app
from frictionlab.core import progress as progress_mod
from frictionlab.core.progress import ProgressLines
from frictionlab.fit import Fitter
from frictionlab.laws.kloss import kloss


def test_progress_lines_wait_then_print():
    out = io.StringIO()
    quiet = ProgressLines("job", stream=out, delay=60.0)
    quiet(step=1)
    quiet.done()
    assert out.getvalue() == ""  # shorter than the delay: nothing at all
    p = ProgressLines("job", stream=out, delay=0.0, every=0.0)
    p(step=1, cost=2.5)
    p(step=2, cost=1.5)
    p.done("finished")
    lines = out.getvalue().splitlines()
    assert lines[0].startswith("job: step=1, cost=2.5 (") and lines[0].endswith(" s)")
    assert lines[1].startswith("job: step=2, cost=1.5") and lines[2].startswith("job: finished (")


def test_fitter_reports_starts_evaluations_and_cost():
    v = np.linspace(0.0, 1.0, 200)
    y = kloss(v, 1.0, 0.01, 0.5)
    calls = []
    f = Fitter("kloss", n_starts=3, progress=lambda **kw: calls.append(kw)).fit((v, y))
    assert f.fit_percent_ > 99.99
    assert {c["start"] for c in calls} == {1, 2, 3} and all(c["n_starts"] == 3 for c in calls)
    ev = [c["evaluations"] for c in calls]
    assert ev == sorted(ev) and ev[-1] >= len(calls)
    assert all(np.isfinite(c["cost"]) and c["cost"] >= 0 for c in calls)
    assert calls[0]["best_cost"] == float("inf") and calls[-1]["best_cost"] < 1e-10  # best of the finished starts
    assert "progress" in f.get_params()


@pytest.fixture
def immediate_progress(monkeypatch):
    monkeypatch.setattr(progress_mod, "DELAY_S", 0.0)
    monkeypatch.setattr(progress_mod, "EVERY_S", 0.0)


FIT = ["fit", "kloss-lift", "naca0012_ladson_re6e6_tripped_cl_cd", "--x", "alpha_deg", "--y", "cl",
       "--where", "trip_grit=80", "--xmin", "0", "--n-starts", "2"]


def test_fit_cli_prints_progress_on_stderr(immediate_progress, tmp_path):
    res = CliRunner().invoke(app, [*FIT, "--out", str(tmp_path)])
    assert res.exit_code == 0, res.output
    lines = [ln for ln in res.stderr.splitlines() if ln.startswith("fit kloss-lift: ")]
    assert len(lines) > 3
    assert "start 1/2, 1 evaluations, cost " in lines[0]
    assert any("start 2/2" in ln and "best so far" in ln for ln in lines)
    assert lines[-1].startswith("fit kloss-lift: finished, ") and "% FIT" in lines[-1]
    assert "fit kloss-lift:" not in res.stdout  # stdout keeps the result only
    assert "FIT = " in res.stdout


def test_fit_cli_quiet_and_quick_fits_print_nothing(immediate_progress, tmp_path, monkeypatch):
    res = CliRunner().invoke(app, [*FIT, "--out", str(tmp_path), "--quiet"])
    assert res.exit_code == 0 and res.stderr == ""
    monkeypatch.setattr(progress_mod, "DELAY_S", 60.0)  # a fit shorter than the delay stays silent
    res = CliRunner().invoke(app, [*FIT, "--out", str(tmp_path)])
    assert res.exit_code == 0 and res.stderr == ""
