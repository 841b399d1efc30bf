"""Cluster preconditioner blocks updated from the previous build (issue 32): a block whose
cluster changed by a few elements gets the Cholesky factor of its new matrix (removed elements by
rank-one updates, added ones as appended rows), equal to the factor rebuilt from scratch to
round-off, and the preconditioner applies the same inverse."""

import numpy as np
import pytest

from frictionlab.contact.rough.elasticity import BoussinesqFFT, StepOperator
from frictionlab.contact.rough.precond import ClusterPreconditioner, nb_precondition


def _dense(op, shape):
    n = shape[0] * shape[1]
    cols = []
    for i in range(n):
        e = np.zeros(n)
        e[i] = 1.0
        cols.append(op.apply(e.reshape(shape)).reshape(n))
    return np.array(cols).T


def _blocks(pc):
    for b in range(pc.nb):
        idx = pc.order[pc.starts[b]:pc.starts[b + 1]].copy()
        m = idx.size
        yield idx, np.tril(pc.mats[pc.moff[b]:pc.moff[b] + m * m].reshape(m, m))


def _assert_factors(pc, Md):
    for idx, L in _blocks(pc):
        np.testing.assert_allclose(L @ L.T, Md[np.ix_(idx, idx)], rtol=1e-11, atol=1e-13)


def test_one_changed_cluster_is_updated_and_equals_its_refactorisation():
    shape = (16, 16)
    op = StepOperator(BoussinesqFFT(*shape), c=0.7)
    Md = _dense(op, shape)
    p = np.zeros(shape)
    p[2:7, 3:8] = 1.0      # a 25-element spot
    p[11:13, 10:13] = 1.0  # a 6-element spot, unchanged
    pc = ClusterPreconditioner(op, shape, block=32, whole=32)
    pc.build(p.reshape(-1))
    assert pc.nb == 2 and pc.updated == 0
    # the spot loses an element inside its search order and one at its end, gains two at an edge
    p[3, 4] = p[6, 7] = 0.0
    p[7, 4] = p[7, 5] = 1.0
    pc.build(p.reshape(-1))
    assert (pc.reused, pc.updated) == (1, 1)
    _assert_factors(pc, Md)
    spot = next(idx for idx, _ in _blocks(pc) if idx.size == 25)
    assert sorted(spot.tolist()) == np.flatnonzero(p[:10].reshape(-1)).tolist()
    # kept elements first, in the previous order; the two added ones last
    assert set(spot[-2:].tolist()) == {7 * 16 + 4, 7 * 16 + 5}
    # the factor is the refactorised block's (same order) to round-off
    for idx, L in _blocks(pc):
        ref = np.linalg.cholesky(Md[np.ix_(idx, idx)])
        np.testing.assert_allclose(L, ref, rtol=1e-10, atol=1e-12 * np.abs(ref).max())


@pytest.mark.parametrize("periodic", [False, True])
@pytest.mark.parametrize("viscoplastic", [False, True])
def test_drifting_contact_set_updates_equal_rebuilds(periodic, viscoplastic):
    rng = np.random.default_rng(11)
    shape = (24, 20)
    extra = rng.uniform(0.2, 1.0, shape) if viscoplastic else None
    op = StepOperator(BoussinesqFFT(*shape, periodic=periodic), c=1.1, diag=extra)
    Md = _dense(op, shape)
    p = (rng.random(shape) < 0.35).astype(float)
    inc = ClusterPreconditioner(op, shape, block=12, whole=24)
    inc.build(p.reshape(-1))
    updated = 0
    for _ in range(12):
        # a few elements leave and a few join, as in a sliding step
        flip = rng.random(shape) < 0.03
        p = np.where(flip, 1.0 - p, p)
        inc.build(p.reshape(-1))
        updated += inc.updated
        inc.updated = 0
        _assert_factors(inc, Md)
    assert updated >= 5  # the update path ran (and each of its factors was checked above)
    ref = ClusterPreconditioner(op, shape, block=12, whole=24)
    ref.incremental = False
    ref.build(p.reshape(-1))
    assert ref.updated == 0
    # the same blocks (as sets) and the same preconditioned residual
    assert sorted(sorted(i.tolist()) for i, _ in _blocks(inc)) == sorted(sorted(i.tolist()) for i, _ in _blocks(ref))
    r = rng.standard_normal(p.size)
    z = [np.empty_like(r), np.empty_like(r)]
    G = [nb_precondition(c.order, c.starts, c.moff, c.nb, c.mats, c.mark, c.dinv, p.reshape(-1), r, zz, c.e, c.buf)
         for c, zz in zip((inc, ref), z)]
    np.testing.assert_allclose(z[0], z[1], rtol=1e-10, atol=1e-12 * np.abs(z[1]).max())
    assert G[0] == pytest.approx(G[1], rel=1e-11)


def test_updates_stop_at_max_age_and_large_changes_refactor():
    from frictionlab.contact.rough import precond_update

    shape = (12, 12)
    op = StepOperator(BoussinesqFFT(*shape), c=1.0)
    Md = _dense(op, shape)
    p = np.zeros(shape)
    p[2:8, 2:8] = 1.0  # 36 elements
    pc = ClusterPreconditioner(op, shape, block=64, whole=64)
    pc.build(p.reshape(-1))
    ages = []
    for k in range(precond_update.MAX_AGE + 2):
        p[8, 2 + k % 6] = 1.0 - p[8, 2 + k % 6]  # one element joins or leaves
        pc.build(p.reshape(-1))
        ages.append(int(pc.age[0]))
    assert max(ages) == precond_update.MAX_AGE and ages[precond_update.MAX_AGE] == 0  # refactored, then updated again
    _assert_factors(pc, Md)
    # most of the cluster replaced: refactored, not updated
    pc.updated = 0
    p[:] = 0.0
    p[2:8, 3:9] = 1.0
    p[2:8, 2] = 0.0
    pc.build(p.reshape(-1))
    p[4:10, 3:9] = 1.0
    p[2:4, 3:9] = 0.0
    pc.build(p.reshape(-1))
    assert pc.age[0] == 0
    _assert_factors(pc, Md)
