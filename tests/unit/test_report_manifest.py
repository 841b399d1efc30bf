"""Issue 27: a run never silently replaces another run's results in its ``--out``.

``reproduce`` records what produced a report directory (``report-manifest.json``) and refuses a
report of another scenario set or profile without ``--overwrite``; ``sweep --plot`` / ``sweep
plot --out`` refuse a figure file that was not drawn from the same store. Tiny fake scenarios;
each test failed on the code before the fix (the second run replaced the first's report).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from frictionlab.scenarios import base
from frictionlab.scenarios.base import Check, Scenario

from _cli_call import call as _cli

HERE = Path(__file__).resolve().parent
MANIFEST = "report-manifest.json"  # what produced the report (frictionlab.report.manifest)


def _run(cfg, quick):
    return xr.Dataset({"friction_force": ("time", np.full(3, float(cfg["k"])))}, coords={"time": np.arange(3.0)})


def _checks(ds, cfg):
    return [Check("runs", "3 samples", str(ds.sizes["time"]), ds.sizes["time"] == 3)]


def _plot(ds):
    from matplotlib.figure import Figure

    fig = Figure()
    fig.subplots().plot(ds.time, ds.friction_force)
    return fig


@pytest.fixture
def papers(monkeypatch):
    """``zzman``: 3 scenarios; ``zzother``: 1."""
    base._discover()

    def add(name):
        monkeypatch.setitem(base._SCENARIOS, name, Scenario(name, "fake", {"k": 1}, run=_run, checks=_checks,
                                                            plot=_plot))
    for name in ("zzman/a", "zzman/b", "zzman/c", "zzother/x"):
        add(name)
    return add


def test_reproduce_refuses_to_replace_another_runs_report(papers, tmp_path, capsys):
    out = tmp_path / "out"
    code, text = _cli(["reproduce", "zzman", "--quick", "--out", out], capsys)
    assert code == 0, text
    report = (out / "report.md").read_text()
    manifest = json.loads((out / MANIFEST).read_text())
    assert manifest["scenarios"] == ["zzman/a", "zzman/b", "zzman/c"] and manifest["quick"] is True
    # another scenario set, or the same set at another profile: refused, one line, nothing touched
    for other in (["zzman/a"], ["zzother"], ["zzman"]):
        quick = ["--quick"] if other != ["zzman"] else []
        code, text = _cli(["reproduce", *other, *quick, "--out", out], capsys)
        assert code == 2, text
        lines = [ln for ln in text.splitlines() if ln.strip()]
        assert len(lines) == 1 and "refusing to replace it" in lines[0] and "--overwrite" in lines[0], text
        assert "report of 3 scenarios, quick profile (frictionlab reproduce zzman --quick)" in lines[0]
        assert (out / "report.md").read_text() == report
    # the same command again replaces its own report, also when the paper has gained a scenario
    papers("zzman/d")
    code, text = _cli(["reproduce", "zzman", "--quick", "--out", out], capsys)
    assert code == 0, text
    assert json.loads((out / MANIFEST).read_text())["scenarios"][-1] == "zzman/d"
    # --overwrite replaces it, and removes the outputs of the old run's scenarios the new one does not run
    assert (out / "data" / "zzman__b.nc").exists() and (out / "figures" / "zzman__b.png").exists()
    code, text = _cli(["reproduce", "zzman/a", "--quick", "--out", out, "--overwrite"], capsys)
    assert code == 0, text
    assert sorted(p.name for p in (out / "data").iterdir()) == ["zzman__a.nc"]
    assert sorted(p.name for p in (out / "figures").iterdir()) == ["zzman__a.png"]
    assert "zzman/b" not in (out / "report.md").read_text()


def test_report_without_manifest_counts_as_another_runs(papers, tmp_path, capsys):
    out = tmp_path / "old"
    out.mkdir()
    (out / "report.md").write_text("# a report written before manifests\n")
    code, text = _cli(["reproduce", "zzother", "--out", out], capsys)
    assert code == 2 and "not recorded" in text and (out / "report.md").read_text().startswith("# a report written")
    code, text = _cli(["reproduce", "zzother", "--out", out, "--overwrite"], capsys)
    assert code == 0 and "zzother/x" in (out / "report.md").read_text()
    # such a report of the same command (make demo again over an older out/) is its own: replaced
    legacy = tmp_path / "legacy"
    code, text = _cli(["reproduce", "zzman", "--quick", "--out", legacy, "--workers", "2"], capsys)
    assert code == 0, text
    (legacy / MANIFEST).unlink()
    code, text = _cli(["reproduce", "zzman", "--quick", "--out", legacy], capsys)
    assert code == 0, text
    (legacy / MANIFEST).unlink()
    code, text = _cli(["reproduce", "zzman", "--out", legacy], capsys)
    assert code == 2 and "not recorded" in text


def test_readme_reproduce_commands_write_different_directories():
    """`make demo` (every paper, quick, into out/) and the README's reproduce lines do not collide."""
    import re
    import shlex

    readme = (HERE.parents[1] / "README.md").read_text()
    makefile = (HERE.parents[1] / "Makefile").read_text()
    demo_out = re.search(r"frictionlab reproduce --quick --out (\S+);", makefile).group(1).rstrip("/")
    for line in re.findall(r"^frictionlab reproduce [^#\n]*", readme, flags=re.M):
        args = shlex.split(line)[2:]
        out = args[args.index("--out") + 1].rstrip("/") if "--out" in args else "out"
        targets = [a for i, a in enumerate(args) if not a.startswith("-") and (i == 0 or args[i - 1] != "--out")]
        if out == demo_out:  # only every paper at the quick profile may share make demo's directory
            assert not targets and "--quick" in args, line


def _sweep_cli(args, capsys):
    """``frictionlab ARGS`` with the toy sweep scenarios registered for the call."""
    sys.path.insert(0, str(HERE))
    try:
        import _sweep_toy

        for sc in (_sweep_toy.TOY, _sweep_toy.OTHER):
            base._SCENARIOS[sc.name] = sc
        return _cli(args, capsys)
    finally:
        sys.path.remove(str(HERE))
        for name in ("toy/sweep", "toy/other"):
            base._SCENARIOS.pop(name, None)


def test_sweep_plot_refuses_a_figure_of_another_sweep(tmp_path, capsys):
    fig, mine, other = tmp_path / "s.png", tmp_path / "a", tmp_path / "b"
    fig.write_bytes(b"not a figure of any sweep")
    args = ["sweep", "toy/sweep", "--grid", "toy.x=1:3:3", "--scheduler", "serial", "--plot", fig]
    code, text = _sweep_cli([*args, "--store", mine], capsys)
    assert code == 2 and "refusing to replace it" in text and "--overwrite" in text
    assert fig.read_bytes() == b"not a figure of any sweep" and not (mine / "index.json").exists()
    code, text = _sweep_cli([*args, "--store", mine, "--overwrite"], capsys)
    assert code == 0, text
    drawn = fig.read_bytes()
    code, text = _sweep_cli([*args, "--store", mine, "--resume"], capsys)  # the same sweep: its own figure
    assert code == 0, text
    code, text = _sweep_cli(["sweep", "plot", mine, "--out", fig], capsys)
    assert code == 0, text
    code, text = _sweep_cli(["sweep", "toy/other", "--grid", "toy.x=[5]", "--scheduler", "serial", "--plot", fig,
                             "--store", other], capsys)
    assert code == 2 and "was not drawn from the sweep in" in text
    code, text = _sweep_cli(["sweep", "plot", other, "--out", fig], capsys)
    assert code == 2 and fig.read_bytes()[:8] == drawn[:8]
