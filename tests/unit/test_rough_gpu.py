"""Array-API path of the rough-contact numerics on a GPU (CuPy / PyTorch); skipped without one."""

import numpy as np
import pytest

from frictionlab.contact.rough.elasticity import BoussinesqFFT, StepOperator
from frictionlab.contact.rough.solver import pk_solve
from frictionlab.contact.rough.surface import make_surface

pytestmark = pytest.mark.gpu


@pytest.mark.parametrize("backend", ["cupy", "torch"])
def test_gpu_backend_matches_numpy(backend):
    if backend == "cupy":
        cp = pytest.importorskip("cupy")
        if cp.cuda.runtime.getDeviceCount() == 0:
            pytest.skip("no CUDA device")
    else:
        torch = pytest.importorskip("torch")
        if not torch.cuda.is_available():
            pytest.skip("no CUDA device")
    h = make_surface(128, 128, seed=0)
    W = 128 * 128 * 4e-4
    ref = pk_solve(StepOperator(BoussinesqFFT(128, 128)), h, W, tol=1e-10)
    op = StepOperator(BoussinesqFFT(128, 128, backend=backend))
    g = op.be.asarray(h)
    r = pk_solve(op, g, W, tol=1e-10)
    p = op.be.to_numpy(r.p)
    assert np.array_equal(p > 0, ref.p > 0)
    assert np.max(np.abs(p - ref.p)) < 1e-8 * W
