"""`frictionlab reproduce` exit status and printed counts: 0 when no claim fails (deviations allowed),
1 when one fails, 2 when a scenario cannot run. Uses tiny fake scenarios (no simulation)."""

import numpy as np
import pytest
import xarray as xr
from typer.testing import CliRunner

from frictionlab.cli import app
from frictionlab.scenarios import base
from frictionlab.scenarios.base import Check, Scenario, deviation


def _run(cfg, quick):
    if cfg["mode"] == "crash":
        raise RuntimeError("boom")
    return xr.Dataset({"friction_force": ("time", np.ones(3))}, coords={"time": np.arange(3.0)})


def _checks(ds, cfg):
    out = [Check("runs", "3 samples", str(ds.sizes["time"]), ds.sizes["time"] == 3)]
    if cfg["mode"] in ("deviation", "fail"):
        ev = Check("evidence", "< 0", "-1" if cfg["mode"] == "deviation" else "+1", cfg["mode"] == "deviation")
        out.append(deviation("claim", "paper value", "other value", [ev], "the paper's equations give the other value"))
    return out


@pytest.fixture
def fake(monkeypatch):
    base._discover()
    for mode in ("pass", "deviation", "fail", "crash"):
        monkeypatch.setitem(base._SCENARIOS, f"zzfake/{mode}",
                            Scenario(f"zzfake/{mode}", "fake", {"mode": mode}, run=_run, checks=_checks))


@pytest.mark.parametrize("targets,code,line", [
    (["zzfake/pass"], 0, "checks: 1 pass, 0 deviation, 0 fail"),
    (["zzfake/pass", "zzfake/deviation"], 0, "checks: 2 pass, 1 deviation, 0 fail"),
    (["zzfake/deviation", "zzfake/fail"], 1, "checks: 2 pass, 1 deviation, 1 fail"),
    (["zzfake/pass", "zzfake/crash"], 2, "checks: 1 pass, 0 deviation, 1 fail; scenarios that failed to run: 1"),
])
def test_reproduce_exit_code_and_counts(fake, tmp_path, targets, code, line):
    r = CliRunner().invoke(app, ["reproduce", *targets, "--out", str(tmp_path)])
    assert r.exit_code == code, r.output
    assert line in " ".join(r.output.split())
    assert (tmp_path / "validation.md").exists() and (tmp_path / "report.html").exists()


@pytest.mark.parametrize("mode,code,verdict", [("pass", 0, None), ("deviation", 0, "DEVIATION"), ("fail", 1, "FAIL")])
def test_run_counts_verdicts_as_reproduce(fake, tmp_path, mode, code, verdict):
    """`frictionlab run` exits as `reproduce`: a proven deviation is listed as DEVIATION and is not a failure."""
    r = CliRunner().invoke(app, ["run", f"zzfake/{mode}", "--out", str(tmp_path), "--csv", "none"])
    assert r.exit_code == code, r.output
    lines = [ln for ln in r.output.splitlines() if "claim:" in ln]
    if verdict is None:
        assert not lines
    else:
        assert len(lines) == 1 and lines[0].split()[0] == verdict, r.output
    assert ("FAIL" in r.output) == (mode == "fail")
