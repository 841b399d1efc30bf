"""``frictionlab bench rough_contact --peers`` (issue 32): the peers' problem, results read, agreement."""

from __future__ import annotations

import math

import numpy as np
import pytest

from frictionlab.benchmarks import rough_peers

from _cli_call import call


def test_peers_problem_is_periodic_self_affine_at_a_few_percent_contact():
    h, pm = rough_peers.peers_problem(128)
    assert h.shape == (128, 128) and h.max() == 0.0
    # rms slope 0.1 of a periodic map (central differences wrap around)
    gx = (np.roll(h, -1, 0) - np.roll(h, 1, 0)) / 2
    gy = (np.roll(h, -1, 1) - np.roll(h, 1, 1)) / 2
    assert 0.05 < math.sqrt(np.mean(gx**2 + gy**2)) < 0.12
    dt, p, nc, it, prod = rough_peers._ours(h, pm, None)
    assert 0.02 < nc / p.size < 0.06
    assert p.sum() == pytest.approx(pm * h.size, rel=1e-9)
    assert it > 0 and prod >= it and dt > 0


def test_our_codes_agree_with_each_other_in_the_peer_rows():
    rows = rough_peers._size(64, rough_peers.peers_problem, "t", memory=False)
    names = [r[0] for r in rows]
    for code in ("pk_solve", "pk_solve(precondition=False)", "solve_contact"):
        assert any(f": {code} " in k for k in names), names
    assert all(r[1] > 0 for r in rows if not math.isnan(r[1]))
    try:
        import tamaas  # noqa: F401
    except ImportError:
        assert any("tamaas" in r[0] and "not installed" in r[3] for r in rows)
        return
    ours = [r for r in rows if "/ tamaas CPU" in r[0]]
    assert len(ours) >= 3
    # the same contact set as tamaas, pressures within the solvers' tolerance 1e-6
    for r in ours:
        assert "contact elements differing 0," in r[3], r
        assert float(r[3].split("pressure rel. L1 diff ")[1].split(";")[0]) < 1e-5, r


def test_bench_peers_refuses_a_benchmark_without_peer_comparison(capsys):
    code, out = call(["bench", "kloss", "--peers"], capsys)
    assert code == 2
    assert "no peer comparison" in out and "rough_contact" in out
