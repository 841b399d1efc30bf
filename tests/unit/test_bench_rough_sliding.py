"""The full-figure estimate of ``bench_rough_sliding`` (issue 32): steps x per-step cost per run,
runs on two workers, the sets mapped by the time-scaling invariance (Sect. 4.2)."""

import pytest

from frictionlab.benchmarks.bench_rough_sliding import figure_minutes


def test_figure_minutes_counts_the_runs_steps_and_workers():
    # 0.1 s per step everywhere: Fig. 13 = 5 sets x 10 velocities x 800 steps, Fig. 14 = two sets x
    # (jump run 4 x 400 steps + reference 1600 steps); two workers halve the even loads
    flat = {(1.0, r): [(1.0, 0.1), (100.0, 0.1)] for r in (10.0, 1.0, 0.1)}
    est = figure_minutes(flat)
    assert est["fig13"][1] == pytest.approx(50 * 800 * 0.1 / 60)
    assert est["fig13"][0] == pytest.approx(est["fig13"][1] / 2)
    assert est["fig14"][1] == pytest.approx(4 * 1600 * 0.1 / 60)
    # (0.1, 1) at v costs what (1, 10) costs at 10 v: only the A/lambda = 10 runs see a cost that
    # falls with v; interpolated in log v, the end values beyond
    slow = {**flat, (1.0, 10.0): [(1.0, 1.0), (10.0, 0.1)]}
    est2 = figure_minutes(slow)
    # extra cost over the flat one: (1, 10) at v = 1, 2, 5 (log10 2 = 0.30103, log10 5 = 0.69897);
    # (0.1, 1) runs at v >= 1, i.e. (1, 10) at >= 10: none
    extra = 800 * 0.9 * (1 + (1 - 0.30103) + (1 - 0.69897)) / 60
    assert est2["fig13"][1] - est["fig13"][1] == pytest.approx(extra, rel=1e-5)
    # the red (1, 10) jump run alternates v = 10 and 1 (two 400-step segments at each)
    assert est2["fig14"][1] - est["fig14"][1] == pytest.approx(2 * 400 * 0.9 / 60)
