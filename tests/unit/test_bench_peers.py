"""The peers of ``frictionlab bench lugre`` (the same loops in C) and ``bench rsf`` (our figures without rsfmodel)."""

from __future__ import annotations

import numpy as np
import pytest

from frictionlab.benchmarks.c_loops import build_loops, compiler


@pytest.mark.skipif(compiler() is None, reason="no C compiler")
def test_the_c_loops_give_the_numba_loops_numbers_bit_for_bit():
    """LuGre spring-slider in stick-slip, 5000 steps: Euler and RK4 in C (-O3, no fast-math) and numba agree
    in every saved state and friction value (the same IEEE operations in the same order)."""
    from frictionlab.benchmarks.bench_lugre import _setup
    from frictionlab.solve.integrate.compiled import fixed_step_loops
    from frictionlab.systems.mass import MassSystem

    args, law = _setup(5000)
    c_euler, c_rk4, cmd = build_loops("lugre", 1)
    assert cmd.startswith("cc -std=c99") and "-O3" in cmd
    Y, F = args[-2], args[-1]
    for numba_loop, c_loop in zip(fixed_step_loops(MassSystem._rhs_kernel, *law.kernels()), (c_euler, c_rk4)):
        Y[:], F[:] = 7.0, 7.0  # the rows a loop does not write stay 7 in both
        assert numba_loop(*args) == -1
        y, f = Y.copy(), F.copy()
        Y[:], F[:] = 7.0, 7.0
        assert c_loop(*args) == -1
        np.testing.assert_array_equal(Y, y)
        np.testing.assert_array_equal(F, f)
        assert np.ptp(f) > 0.1  # the friction moves (stick-slip), not a trivial constant


def test_bench_rsf_in_process_rows_consume_results_and_agree_with_the_fit_path():
    from frictionlab.benchmarks.bench_rsf import in_process

    rows = {r[0]: r for r in in_process(1, have_peer=False)}
    fit = [r for k, r in rows.items() if "simulate_qs_slider" in k]
    assert len(fit) == 2 and all(r[3].endswith("<= 0.0e+00") for r in fit)  # one code: the same numbers
    assert all(r[1] > 0 for r in rows.values())
