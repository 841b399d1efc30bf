"""Ctrl-C during a multi-scenario ``reproduce`` (issue 27): exit 130, one line saying what was written
where, the earlier report in ``--out`` byte for byte as it was, no worker process left; the same
command then resumes and replaces the report.

Two toy scenarios registered in the child process (no numba, seconds in all): ``toy/quick`` (one
check) and ``toy/many`` (four independent runs on two forked workers through ``run_parallel``, the
path of rough-contact Figs. 8, 13, 14; with ``TOY_SLOW`` runs 2 and 3 sleep). The child runs the CLI's
``main``, the entry point of ``python -m frictionlab``, as a terminal's foreground job."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from frictionlab.scenarios import checkpoint

TOYS = '''
import os, sys, time
import numpy as np
from frictionlab.core.result import make_dataset
from frictionlab.scenarios import base
from frictionlab.scenarios.rough_contact._common import run_parallel

def one(i):
    if os.environ.get("TOY_SLOW") and i >= 2:
        time.sleep(120)
    os.write(2, f"ran {i}\\n".encode())
    return np.full(3, float(i))

def many(cfg, quick):
    return make_dataset(np.arange(3.0), {"friction_force": np.sum(run_parallel(one, [(i,) for i in range(4)], cfg), 0)})

def quick_one(cfg, quick):
    return make_dataset(np.arange(3.0), {"friction_force": np.ones(3)})

def checks(ds, cfg):
    return [base.check("the force is finite", "finite", float(ds.friction_force.values[-1]), True)]

base.register_scenario(base.Scenario("toy/quick", "one quick run", {"toy": {}}, run=quick_one, checks=checks))
base.register_scenario(base.Scenario("toy/many", "independent runs", {"toy": {}}, run=many, checks=checks,
                                     parallel_runs=True))
from frictionlab.cli import main
main(["reproduce", "toy/quick", "toy/many", "--out", sys.argv[1], "--workers", "2"])
'''


def _files(out: Path) -> dict[str, bytes]:
    """Every file of the report in ``out`` (not the run's partial results or work in progress)."""
    return {str(p.relative_to(out)): p.read_bytes() for p in sorted(out.rglob("*"))
            if p.is_file() and p.relative_to(out).parts[0] not in ("partial", "in-progress")}


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="POSIX signals and /proc")
@pytest.mark.parametrize("to", ["group", pytest.param("main", marks=pytest.mark.slow(
    reason="the same interrupt sent to the main process only: another 15-20 s"))])
def test_ctrl_c_during_reproduce_keeps_the_earlier_report(tmp_path, ctrl_c_child, to, processes):
    """``to``: SIGINT to the whole process group (a terminal's Ctrl-C: the workers get it too) or to the
    main process only (the workers must still stop). On the old code the report in OUT was rewritten
    after ``toy/quick`` and again at the interrupt (a partial report replaced the complete one)."""
    out = tmp_path / "out"
    env = {k: v for k, v in os.environ.items() if k != "TOY_SLOW"}
    first = subprocess.run([sys.executable, "-c", TOYS, str(out)], capture_output=True, text=True, env=env,
                           timeout=300, preexec_fn=ctrl_c_child)
    assert first.returncode == 0, first.stderr
    before = _files(out)
    assert {"report.md", "report.html", "validation.md", "data/toy__quick.nc", "data/toy__many.nc"} <= set(before)

    proc = subprocess.Popen([sys.executable, "-c", TOYS, str(out)], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            text=True, env={**env, "TOY_SLOW": "1"}, start_new_session=True, preexec_fn=ctrl_c_child)
    kept = checkpoint.partial_dir(out, "toy/many")
    workers: list[int] = []
    try:
        deadline = time.monotonic() + 120
        while time.monotonic() < deadline and proc.poll() is None and len(list(kept.glob("*.nc"))) < 2:
            time.sleep(0.05)
        assert len(list(kept.glob("*.nc"))) == 2, proc.communicate(timeout=5)
        time.sleep(0.3)  # the two slow runs are in their workers now
        workers = processes.below(proc.pid)
        assert len(workers) >= 2, workers
        t0 = time.monotonic()
        if to == "group":
            os.killpg(proc.pid, signal.SIGINT)
        else:
            proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
        took = time.monotonic() - t0
    finally:
        if proc.poll() is None:
            os.killpg(proc.pid, signal.SIGKILL)
    assert proc.returncode == 130, err
    assert took < 20, took  # the sleeping workers were stopped, not waited for
    assert not [p for p in workers if processes.live(p)], "worker processes survived the interrupt"
    assert _files(out) == before, "the earlier report was changed"
    lines = [ln for ln in err.splitlines() if ln.strip()]
    last = lines[-1]
    assert last.startswith("interrupted during toy/many"), err
    assert str(out / "in-progress") in last and "unchanged" in last, last
    assert str(kept) in last and "resumes" in last, last
    assert "Traceback" not in err, err
    assert len(list(kept.glob("*.nc"))) == 2
    assert "INCOMPLETE" in (out / "in-progress" / "report.md").read_text()
    if to == "main":
        return  # the resume below is the same for both

    again = subprocess.run([sys.executable, "-c", TOYS, str(out)], capture_output=True, text=True, env=env,
                           timeout=300, preexec_fn=ctrl_c_child)
    assert again.returncode == 0, again.stderr
    assert "resumed 2 of 4 finished runs" in again.stderr
    assert sorted(re.findall(r"ran (\d)", again.stderr)) == ["2", "3"]
    assert not (out / "in-progress").exists() and not (out / "partial").exists()
    assert set(_files(out)) == set(before)
