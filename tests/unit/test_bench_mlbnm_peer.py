"""The C peer of the MLBNM semi-implicit step (benchmarks/c_mlbnm.py) gives the kernel's bits.

Beam-network paper (doi:10.1115/1.4042247), Sec. 3.1, eqs. 10-11: the Fig. 8 case (9 IUBs,
dt = 2e-5 s), 1 s of loading into the first slip events, every step saved. Equal bits make the
bench's numba/C time ratio a comparison of the same arithmetic.
"""

import numpy as np
import pytest

from frictionlab.benchmarks.c_loops import compiler
from frictionlab.contact.beam_network.mlbnm import _gp, _mlbnm_kernel, iub_arrays
from frictionlab.core.registry import make_model

KEYS = ("m", "kb", "cb", "s0", "s1", "s2", "fz", "kl", "kr")


@pytest.mark.skipif(compiler() is None, reason="no C compiler")
@pytest.mark.parametrize("n_picard", [0, 1, 2])
def test_c_peer_equals_the_kernel_bitwise(n_picard):
    from frictionlab.benchmarks.c_mlbnm import build_mlbnm

    p = make_model("beam_network", "vf60-calibrated")
    a = iub_arrays(p)
    run_c, cmd = build_mlbnm()
    n_steps = 50000
    F_c = run_c([a[k] for k in KEYS], _gp(p), 7.5e-4, 2e-5, n_steps, 1, n_picard)
    F = _mlbnm_kernel(*(np.ascontiguousarray(a[k][None, :]) for k in KEYS), _gp(p), np.array([7.5e-4]), 2e-5,
                      n_steps, 1, 1, n_picard, False)[0][0]
    assert np.ptp(F) > 10.0
    assert np.array_equal(F_c, F), f"max difference {np.max(np.abs(F_c - F))}"
    assert "-O3" in cmd


def test_c_peer_refuses_what_it_leaves_out():
    from frictionlab.benchmarks.c_mlbnm import build_mlbnm

    if compiler() is None:
        pytest.skip("no C compiler")
    p = make_model("beam_network", "vf60-calibrated")
    a = iub_arrays(p)
    run_c, _cmd = build_mlbnm()
    cols = [a[k].copy() for k in KEYS]
    cols[6][2] = 0.0  # an unloaded IUB: the kernel's zero-load form is not in the C step
    with pytest.raises(ValueError, match="loaded IUBs"):
        run_c(cols, _gp(p), 7.5e-4, 2e-5, 10, 1, 1)
