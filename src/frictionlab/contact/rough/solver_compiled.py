"""The compiled implementation of the load-controlled PK iteration (numpy float64 arrays): fused
numba kernels (one pass per reduction, no temporaries), preallocated work arrays, the carried
operator product with sparse and windowed corrections, the contact-cluster preconditioner
(:mod:`.precond`) and the extrapolated warm start of sliding steps
(:func:`~frictionlab.contact.rough.solver_compiled.extrapolated_start`).
See *Cost* in the notes of :mod:`.solver`. The kernels are :func:`~frictionlab.core.lazy.lazy_njit`
kernels: importing this module loads no numba."""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...core.lazy import lazy_njit
from .precond import ClusterPreconditioner, nb_precondition_on
from .solver_common import _fail

__all__ = ["extrapolated_start", "pk_iterate_compiled"]


def extrapolated_start(op: Any, p: np.ndarray, Kp: np.ndarray, p_prev: np.ndarray | None = None,
                       Kp_prev: np.ndarray | None = None, ratio: float = 0.0) -> tuple[np.ndarray, np.ndarray, bool]:
    r"""Warm start :math:`p_0 = \max(p + \rho\,(p - p_{prev}), 0)` and its product
    :math:`M p_0` from the carried products :math:`Kp`, :math:`Kp_{prev}` of the previous
    solutions, without an FFT (numpy; ``op`` a :class:`StepOperator` ``cK`` without a diagonal).

    The linear combination's product is :math:`c(Kp + \rho(Kp - Kp_{prev}))`; the elements the
    clipping moved (:math:`p_0 \ne p + \rho(p - p_{prev})`) add their kernel columns, exactly
    (:meth:`~frictionlab.contact.rough.elasticity.StepOperator.add_sparse`) up to twice the operator's ``sparse_limit`` and with the windowed kernel
    (:meth:`~frictionlab.contact.rough.elasticity.StepOperator.add_local`, approximate) beyond. Returns ``(p0, Mp0, exact)`` for
    :func:`pk_solve` (``Mp0``, ``Mp0_exact``)."""
    shape = p.shape
    if p_prev is None or Kp_prev is None or ratio == 0.0:
        return p, op.c * Kp, True
    # one compiled pass: p0, Mp0 and the clipped elements (same arithmetic as the array form
    # E = p + (p - p_prev) ratio, Mp0 = c (Kp + (Kp - Kp_prev) ratio), p0 = maximum(E, 0))
    p0 = np.empty(shape)
    Mp0 = np.empty(shape)
    neg = np.empty(p.size, np.int64)
    vals = np.empty(p.size)
    k = _nb_extrapolate(np.ascontiguousarray(p, dtype=np.float64).reshape(-1),
                        np.ascontiguousarray(p_prev, dtype=np.float64).reshape(-1),
                        np.ascontiguousarray(Kp, dtype=np.float64).reshape(-1),
                        np.ascontiguousarray(Kp_prev, dtype=np.float64).reshape(-1), float(ratio), float(op.c),
                        p0.reshape(-1), Mp0.reshape(-1), neg, vals)
    if k == 0:
        return p0, Mp0, True
    neg, vals = neg[:k], vals[:k]
    ii, jj = neg // shape[1], neg % shape[1]
    cap = int(op.sparse_limit)
    if k <= 2 * cap:
        op.add_sparse(Mp0, ii, jj, vals, k)
        return p0, Mp0, True
    op.add_local(Mp0, ii, jj, vals, k, _local_radius(cap, p.size, k, shape))
    return p0, Mp0, False




@lazy_njit(cache=True)
def _nb_extrapolate(p, pp, Kp, Kpp, ratio, c, p0, Mp0, neg, vals):  # pragma: no cover - compiled
    """Extrapolated warm start of :func:`extrapolated_start` in one pass: ``p0 = max(E, 0)`` with
    ``E = p + (p - pp) ratio`` (``numpy.maximum`` semantics), ``Mp0 = c (Kp + (Kp - Kpp) ratio)``,
    and the clipped elements (``E < 0``, ascending) with ``-E`` in ``neg``/``vals``. Returns their count."""
    k = 0
    for i in range(p.size):
        e = p[i] + (p[i] - pp[i]) * ratio
        Mp0[i] = c * (Kp[i] + (Kp[i] - Kpp[i]) * ratio)
        p0[i] = e if (e >= 0.0 or e != e) else 0.0
        if e < 0.0:
            neg[k] = i
            vals[k] = -e
            k += 1
    return k


@lazy_njit(cache=True)
def _nb_residual(Mp, g, p, r):  # pragma: no cover - compiled
    """Residual ``r = Mp - g - rbar`` with ``rbar`` its mean on the contact set (the load
    constraint's multiplier); returns ``(nS, rbar)``, ``nS = 0`` (r untouched) when no contact."""
    n = p.size
    s = 0.0
    nS = 0
    for i in range(n):
        if p[i] > 0.0:
            s += Mp[i] - g[i]
            nS += 1
    if nS == 0:
        return 0, 0.0
    rbar = s / nS
    for i in range(n):
        r[i] = Mp[i] - g[i] - rbar
    return nS, rbar


@lazy_njit(cache=True)
def _nb_direction(Mp, g, p, t, r, delta, G_old):  # pragma: no cover - compiled
    n = p.size
    nS, rbar = _nb_residual(Mp, g, p, r)
    if nS == 0:
        return 0.0, 0, 0.0
    G = 0.0
    for i in range(n):
        if p[i] > 0.0:
            G += r[i] * r[i]
    beta = delta * G / G_old
    for i in range(n):
        if p[i] > 0.0:
            t[i] = r[i] + beta * t[i]
        else:
            t[i] = 0.0
    return G, nS, rbar


@lazy_njit(cache=True)
def _nb_residual_on(Mp, g, p, r, S, nS, U):  # pragma: no cover - compiled
    """Residual of :func:`_nb_residual` (grid form) with the contact set as the ascending index list ``S``
    (``nS > 0`` entries): ``rbar`` summed over the list (same order as the grid loop), then one
    pass over the grid that writes ``r = Mp - g - rbar`` only where the projection can use it and
    lists those elements in ``U`` (ascending): the contact set and the free elements with a
    negative residual (re-activation candidates). Returns ``(rbar, nU)``."""
    s = 0.0
    for q in range(nS):
        i = S[q]
        s += Mp[i] - g[i]
    rbar = s / nS
    nU = 0
    for i in range(p.size):
        v = Mp[i] - g[i] - rbar
        if p[i] > 0.0 or v < 0.0:
            r[i] = v
            U[nU] = i
            nU += 1
    return rbar, nU


@lazy_njit(cache=True)
def _nb_direction_on(p, t, z, beta, S, nS, Sp, nSp):  # pragma: no cover - compiled
    """``t = z + beta t`` on the contact list ``S``, 0 on the elements of the previous list ``Sp``
    that left the contact set (``t`` is non-zero on ``Sp`` only)."""
    for q in range(nSp):
        i = Sp[q]
        if not (p[i] > 0.0):
            t[i] = 0.0
    for q in range(nS):
        i = S[q]
        t[i] = z[i] + beta * t[i]


def _direction_pc_on(Mp, g, p, t, r, z, pc, delta, G_old, dinv, S, nS, Sp, nSp, U):
    """Preconditioned direction on the contact lists: residual
    (:func:`_nb_residual_on`), block-Jacobi solve (:func:`~frictionlab.contact.rough.precond.nb_precondition_on`),
    direction (:func:`_nb_direction_on`); same numbers as the grid form, bit for bit. The
    preconditioner kernels take no ``fastmath`` and are called as kernels of their own: a
    ``fastmath`` kernel inlined into a caller compiled in the same process gave other round-off
    than the caller's cached machine code (the former grid form of this function did: 128^2
    sliding forces differed by 1e-13 between a process that compiled it and one that loaded it
    from the cache); here a process gives the same numbers whether it compiles the kernels or
    loads them. Returns ``(G, nS, rbar, nU)``."""
    if nS == 0:
        return 0.0, 0, 0.0, 0
    rbar, nU = _nb_residual_on(Mp, g, p, r, S, nS, U)
    G = nb_precondition_on(pc.order, pc.starts, pc.moff, pc.nb, pc.mats, pc.mark, dinv, p, r, z, pc.e, pc.buf, S, nS,
                           pc.einv, pc.eok)
    _nb_direction_on(p, t, z, delta * G / G_old, S, nS, Sp, nSp)
    return G, nS, rbar, nU


@lazy_njit(cache=True)
def _nb_update_on(p, t, r, w, Mp, W, nS, ci, cv, cap, dinv, S, U, nU, Snew):  # pragma: no cover - compiled
    """:func:`_nb_update` on the lists of :func:`_nb_direction_pc_on`: the step's sums over the
    contact list ``S``, the projection over ``U`` (elsewhere ``p = t = 0`` and no re-activation:
    the iterate stays 0 and adds nothing to the sums), the carried product over the grid. Writes
    the new contact list to ``Snew``. Returns ``(tau, total, nO, n_changed, err, nS_new)``."""
    per = dinv.size > 1
    sw = 0.0
    swt = 0.0
    st = 0.0
    srt = 0.0
    for q in range(nS):
        i = S[q]
        sw += w[i]
        swt += w[i] * t[i]
        st += t[i]
        srt += r[i] * t[i]
    denom = swt - (sw / nS) * st
    if denom == 0.0:
        return 0.0, 0.0, 0, 0, 0.0, nS
    tau = srt / denom
    total = 0.0
    nO = 0
    k = 0
    for q in range(nU):
        i = U[q]
        v, o = _nb_project(p[i], t[i], r[i], tau, dinv[i] if per else dinv[0])
        if o:
            nO += 1
        trial = p[i] - tau * t[i]
        if v != trial:
            if k < cap:
                ci[k] = i
                cv[k] = v - trial
            k += 1
        total += v
    if not (total > 0.0):
        return tau, total, nO, k, 0.0, nS
    scale = W / total
    err = 0.0
    nSn = 0
    for q in range(nU):
        i = U[q]
        v, o = _nb_project(p[i], t[i], r[i], tau, dinv[i] if per else dinv[0])
        v *= scale
        err += abs(v - p[i])
        p[i] = v
        if v > 0.0:
            Snew[nSn] = i
            nSn += 1
    for i in range(p.size):
        Mp[i] = scale * (Mp[i] - tau * w[i])
    for m in range(min(k, cap)):
        cv[m] *= scale
    return tau, total, nO, k, err / W, nSn


@lazy_njit(cache=True)
def _nb_project(pi, ti, ri, tau, sc):  # pragma: no cover - compiled
    """Projected value of one element and whether it was re-activated (overlap set O); a
    re-activated element takes the step ``-tau sc r`` (``sc = 1``, or ``1/M_ii`` when the
    direction is preconditioned)."""
    v = pi - tau * ti
    if v < 0.0:
        v = 0.0
    if v == 0.0 and ri < 0.0:
        return -tau * ri * sc, True
    return v, False


@lazy_njit(cache=True)
def _nb_update(p, t, r, w, Mp, W, nS, ci, cv, cap, dinv):  # pragma: no cover - compiled
    """Step, projection, load rescaling and the carried product, in place (no work vector).

    ``Mp`` becomes ``scale (Mp - tau w)``; the elements where the projection departed from the
    plain step ``p - tau t`` (clipped at zero or re-activated) are listed in ``ci`` with the
    departure ``cv`` (times ``scale``), so that ``Mp + M cv`` is the exact product of the new
    iterate. Returns ``(tau, total, nO, n_changed, err)``; ``n_changed > cap`` means the list
    overflowed (the caller then recomputes ``Mp`` by a full product). ``dinv``: reactivation
    scale per element (size ``n``), or one value for all (size 1)."""
    n = p.size
    per = dinv.size > 1
    sw = 0.0
    swt = 0.0
    st = 0.0
    srt = 0.0
    for i in range(n):
        if p[i] > 0.0:
            sw += w[i]
            swt += w[i] * t[i]
            st += t[i]
            srt += r[i] * t[i]
    denom = swt - (sw / nS) * st
    if denom == 0.0:
        return 0.0, 0.0, 0, 0, 0.0
    tau = srt / denom
    # pass 1: total of the projected iterate, overlap count and the departures
    total = 0.0
    nO = 0
    k = 0
    for i in range(n):
        v, o = _nb_project(p[i], t[i], r[i], tau, dinv[i] if per else dinv[0])
        if o:
            nO += 1
        trial = p[i] - tau * t[i]
        if v != trial:
            if k < cap:
                ci[k] = i
                cv[k] = v - trial
            k += 1
        total += v
    if not (total > 0.0):
        return tau, total, nO, k, 0.0
    # pass 2: the same projection, rescaled to the load, written in place
    scale = W / total
    err = 0.0
    for i in range(n):
        v, o = _nb_project(p[i], t[i], r[i], tau, dinv[i] if per else dinv[0])
        v *= scale
        err += abs(v - p[i])
        p[i] = v
        Mp[i] = scale * (Mp[i] - tau * w[i])
    for m in range(min(k, cap)):
        cv[m] *= scale
    return tau, total, nO, k, err / W


@lazy_njit(cache=True)
def _nb_meanfield_level(gs, W, m):  # pragma: no cover - compiled
    r"""Dilatation of the uniform-compliance mean-field solve from the heights sorted ascending:
    the ``k`` largest heights in contact with :math:`d = (\sum_{j\le k} g_{(j)} - Wm)/k`."""
    n = gs.size
    s = 0.0
    d = gs[n - 1]
    for k in range(1, n + 1):
        s += gs[n - k]
        d = (s - W * m) / k
        nxt = gs[n - k - 1] if k < n else -np.inf
        if d < gs[n - k] and d >= nxt:
            return d
    return d


@lazy_njit(cache=True)
def _nb_finish(p, g, Mp):  # pragma: no cover - compiled
    """Dilatation (mean of ``g - Mp`` on the contact set), complementarity residuals and the
    total force, in two passes without temporaries."""
    n = p.size
    s = 0.0
    nS = 0
    total = 0.0
    for i in range(n):
        total += p[i]
        if p[i] > 0.0:
            s += g[i] - Mp[i]
            nS += 1
    d = s / nS
    gmax = 0.0
    gmin = np.inf
    for i in range(n):
        gap = Mp[i] - g[i] + d
        if p[i] > 0.0:
            if abs(gap) > gmax:
                gmax = abs(gap)
        elif gap < gmin:
            gmin = gap
    if nS == n:
        gmin = 0.0
    return d, gmax, gmin, total


class _IntoAdapter:
    """``apply_into`` for an operator that only has ``apply``."""

    def __init__(self, op: Any):
        self.op = op

    def apply_into(self, x: np.ndarray, out: np.ndarray) -> np.ndarray:
        out[...] = self.op.apply(x)
        return out


#: re-activated elements (fraction of the contact set) above which the conjugate directions
#: restart (Polonsky & Keer 1999 restart on any): a few re-activations per iteration at the edges
#: of dense contact restarted nearly every iteration of a strong-creep sliding step (set (1, 10),
#: v = 1, 512^2, 14 % contact: 24.5 -> 20.3 PK iterations per step with 0.001; the default set
#: 8.2 -> 8.1; issue 32). The solution is accepted on the same exact-product test
RESTART_FRACTION = 0.001
#: contact-set drift (fraction of the contact elements changed since the last build) that
#: triggers a rebuild of the preconditioner before the set has settled
REBUILD_FRACTION = 0.05
#: cold solves (no warm start; issue 32): blocks cut at ``m`` elements such that a build
#: (~|S| m^2 flops) costs at most ``COLD_BUILD_SHARE`` of a product (5 n log2 n for the ``n``
#: transform points; :func:`_cold_block`), rebuilt when the
#: contact set has drifted by ``COLD_REBUILD_FRACTION`` of its elements, or by
#: ``COLD_REBUILD_SETTLED`` once it has settled. A cold start changes the contact set in most
#: iterations and each rebuild with the sliding blocks (128-256 elements: ~|S| 128^2 flops) cost
#: 10-15 products at 3.5 % contact; measured, periodic 512^2, tol 1e-6, CPU s (iterations,
#: builds): self-affine surface at 3.5 % contact 1.9 s (46, 24) -> 0.47 s (52, 13), no
#: preconditioner 0.61 s (88); Gaussian surface at 100 MPa 0.27 s (18, 10) -> 0.20 s (27, 7),
#: none 0.28 s (45). ``frictionlab bench rough_contact --peers``
COLD_BUILD_SHARE = 0.4
COLD_REBUILD_FRACTION = 0.2
COLD_REBUILD_SETTLED = 0.05


#: step factors ``c`` within this relative distance share the cached preconditioner: equal
#: sliding steps give ``c`` that differ in the last bits (each step's dt is a difference of the
#: plan's cumulative times), and an exact comparison made a new preconditioner, factored from
#: scratch, in a third of the steps (issue 32)
PC_SAME_C = 1e-12


def _preconditioner(op: Any, shape: tuple[int, int]) -> ClusterPreconditioner:
    """The cluster preconditioner of ``op``: the one of the previous solve with the same
    operator (same interaction operator, factor ``c`` and grid, no viscoplastic diagonal) when
    there is one, so that its first build copies the factors of the clusters that did not change
    since that solve's last build (a sliding step changes the edges of some clusters, not all);
    otherwise a new one. Its counters are per solve."""
    base = getattr(op, "base", op)
    key = (float(getattr(op, "c", 1.0)), tuple(shape))
    if getattr(op, "extra", None) is None:
        cached = getattr(base, "_pc_cache", None)
        if cached is not None and cached[0][1] == key[1] and abs(cached[0][0] - key[0]) <= PC_SAME_C * abs(key[0]):
            pc = cached[1]
            pc.builds = pc.reused = 0
            return pc
        pc = ClusterPreconditioner(op, shape)
        try:
            base._pc_cache = (key, pc)
        except AttributeError:  # an operator without instance attributes: no reuse
            pass
        return pc
    return ClusterPreconditioner(op, shape)


def _cold_block(op: Any, shape: tuple[int, int], n_contact: int) -> int:
    """Block size of a cold solve's preconditioner builds: a build of ``n_contact`` elements in
    blocks of ``m`` (~``n_contact m^2`` flops) within ``COLD_BUILD_SHARE`` of one product
    (~``5 n log2 n`` for ``n`` transform points: 4x the grid for the finite patch); at least 16."""
    base = getattr(op, "base", op)
    nt = math.prod(getattr(base, "_shape", shape))
    return int(max(16, math.sqrt(COLD_BUILD_SHARE * 5.0 * nt * math.log2(max(nt, 2)) / max(n_contact, 1))))


def _local_radius(cap: int, n: int, k: int, shape: tuple[int, int]) -> int:
    """Window radius of the truncated correction of ``k`` departures: ``k (2R+1)^2`` kernel
    terms within a quarter of a product's cost (``2 cap n`` by the cost model of ``sparse_limit``)."""
    side = math.sqrt(0.5 * cap * n / max(k, 1))
    return int(max(1, min((side - 1) // 2, (min(shape) - 1) // 2)))


def pk_iterate_compiled(op, g, W, p, tol, max_iter, step, time, raise_on_fail, refresh, precondition=False, cold=False,
                        Mp_init=None, init_exact=True):
    """PK iterations with fused compiled vector work and preallocated work arrays (numpy backend).

    One operator product per iteration (the search direction's, ``w = M t``), plus one to
    start; the product of the new iterate is carried as ``scale (Mp - tau w)`` plus the exact product of the
    projection's departure from the plain step, which touches few elements and is added by
    direct summation of kernel columns (:meth:`BoussinesqFFT.add_sparse`) while that is cheaper
    than a product; otherwise ``Mp`` is recomputed, or, in the first iterations, corrected with a
    windowed kernel until one exact product resynchronises it. Every
    ``refresh`` iterations ``Mp`` is recomputed from scratch against round-off drift.
    ``precondition``: contact-cluster block-Jacobi preconditioner
    (:class:`~frictionlab.contact.rough.precond.ClusterPreconditioner`), rebuilt when the
    contact set has settled or drifted by ``REBUILD_FRACTION``; the conjugate directions
    restart with it. ``cold``: the start is a cold start (its product may be windowed).
    """
    shape = g.shape
    n = g.size
    g1 = np.ascontiguousarray(g, dtype=np.float64).reshape(n)
    # pk_solve hands over a fresh iterate (rescaled or cold start): iterate on it in place
    p1 = np.ascontiguousarray(p, dtype=np.float64).reshape(n)
    Mp = np.empty(n)
    t = np.zeros(n)
    r = np.empty(n)
    w = np.empty(n)
    if not hasattr(op, "apply_into"):  # a user operator with apply() only
        op = _IntoAdapter(op)
    cap = min(int(op.sparse_limit), n) if hasattr(op, "add_sparse") else 0
    local = cap > 0 and hasattr(op, "add_local")
    # departures of the projection: all of them when the local correction is available
    nlist = n if local else max(cap, 1)
    ci = np.empty(nlist, dtype=np.int64)
    cv = np.empty(nlist)
    stale = False
    n_local = 0
    pc = _preconditioner(op, shape) if precondition else None
    # cold solves: small blocks and fewer rebuilds (COLD_BLOCK); warm starts (sliding, holds):
    # the preconditioner's own blocks, rebuilt on any settled change
    rb_fraction, rb_settled = (COLD_REBUILD_FRACTION, COLD_REBUILD_SETTLED) if cold else (REBUILD_FRACTION, 0.0)
    if pc is not None:
        z = np.zeros(n)
        r.fill(0.0)  # read (masked) outside the contact lists: finite values there
        dinv = pc.dinv
        # contact lists (ascending): current, previous direction's, next; candidates of the projection
        S, Sp, Sn, U = (np.empty(n, np.int64) for _ in range(4))
        nL = int(np.count_nonzero(p1 > 0.0))
        S[:nL] = np.flatnonzero(p1 > 0.0)
        nSp = 0
        nU = 0
        if pc.nb == 0:
            pc.build(p1, limit=_cold_block(op, shape, nL) if cold else None)
            pending = 0
        else:
            # a reused preconditioner keeps the blocks of the previous solve's final contact
            # set (closer to this solution than the warm start's set, and an SPD
            # preconditioner on any set) until the first rebuild below: one build fewer per
            # sliding step, same iterations (512^2: 3.2 -> 2.2 builds per step). The elements
            # whose membership differs count as changes, so it is rebuilt at the latest when
            # the contact set settles
            pending = int(np.count_nonzero((p1 > 0.0) != (pc.mark != 0)))
    else:
        dinv = np.ones(1)
    Mp2, t2, w2, p2 = Mp.reshape(shape), t.reshape(shape), w.reshape(shape), p1.reshape(shape)
    products = 0
    nz = np.flatnonzero(p1) if (cold and local) else None
    if Mp_init is not None:
        # the caller's product of the warm start (carried from earlier solves); an approximate
        # one is resynchronised as after a windowed cold-start product
        np.multiply(Mp_init[0].reshape(n), Mp_init[1], out=Mp)
        if not init_exact:
            stale = True
            n_local += 1
    elif nz is not None and nz.size > cap:
        # cold start: its product with the kernel truncated to a window (the first iterations
        # change the contact set by more than ``cap`` elements anyway and are approximate);
        # the exact product follows when the set settles, before convergence is accepted
        Mp.fill(0.0)
        op.add_local(Mp2, nz // shape[1], nz % shape[1], p1[nz], nz.size, _local_radius(cap, n, nz.size, shape))
        stale = True
        n_local += 1
    else:
        op.apply_into(p2, Mp2)
        products = 1
    del nz
    delta, G_old, err, it, since = 0.0, 1.0, math.inf, 0, 0
    for it in range(1, max_iter + 1):
        if pc is None:
            G, nS, _ = _nb_direction(Mp, g1, p1, t, r, delta, G_old)
        else:
            G, nS, _, nU = _direction_pc_on(Mp, g1, p1, t, r, z, pc, delta, G_old, dinv, S, nL, Sp, nSp, U)
        if nS == 0:
            raise _fail("no element carries load (all p = 0); check the load and the surface", step, time)
        if G == 0.0:
            err = 0.0
            break
        G_old = G
        op.apply_into(t2, w2)
        products += 1
        if pc is None:
            tau, total, nO, k, err = _nb_update(p1, t, r, w, Mp, W, nS, ci, cv, nlist if local else cap, dinv)
        else:
            tau, total, nO, k, err, nSn = _nb_update_on(p1, t, r, w, Mp, W, nS, ci, cv, nlist if local else cap, dinv,
                                                        S, U, nU, Sn)
            S, Sp, Sn, nSp, nL = Sn, S, Sp, nL, nSn
        if not (total > 0.0) or not math.isfinite(err):
            raise _fail(f"iterate became invalid (sum p = {total!r}) at iteration {it}; "
                        "the operator may not be positive definite", step, time)
        # re-activated elements break conjugacy (Polonsky & Keer 1999): restart the directions
        # (more than RESTART_FRACTION of the contact set; fewer, as clipped ones, do not);
        # tau <= 0 is a loss of conjugacy at round-off level, also a restart; a rebuilt
        # preconditioner (any change of the contact set) restarts them too
        rebuild = False
        if pc is not None:
            # rebuild the blocks once the contact set has settled (no change in this
            # iteration) or when it has drifted by REBUILD_FRACTION of the contact elements;
            # stale blocks are still a valid (SPD) preconditioner in between
            pending += k
            rebuild = pending > 0 and ((k == 0 and pending > rb_settled * nS) or pending > rb_fraction * nS)
        since += 1
        exact = not stale
        approx = k > cap and local and (n_local == 0 or stale)
        # exact columns up to the break-even of the cost model (2 cap) once the first run of
        # approximate corrections is over (the list holds every departure when ``local``)
        full = k > (2 * cap if local else cap) and not approx
        if since >= refresh or tau <= 0.0 or full or (stale and k <= cap) or (stale and err < tol):
            # a fresh product: periodic refresh, loss of conjugacy, or the end of a run of
            # approximate corrections (the set has settled, or the iterate would be accepted)
            op.apply_into(p2, Mp2)
            products += 1
            since = 0
            stale = False
        elif approx:
            # many departures (the first iterations of a solve): their product is added with
            # the kernel truncated to a window costing ~1/4 of a product; the next exact
            # product (at the latest before convergence is accepted) removes the error. Only
            # in the first run of such iterations: later ones take a full product (measured:
            # fewer iterations and products than approximating every overflow)
            op.add_local(Mp2, ci[:k] // shape[1], ci[:k] % shape[1], cv, k, _local_radius(cap, n, k, shape))
            stale = True
            n_local += 1
        elif k > 0:
            op.add_sparse(Mp2, ci[:k] // shape[1], ci[:k] % shape[1], cv, k)
        delta = 0.0 if (nO > RESTART_FRACTION * nS or tau <= 0.0 or rebuild or (not exact and not stale)) else 1.0
        if rebuild:
            pc.build(p1, limit=_cold_block(op, shape, nL) if cold else None)
            pending = 0
        if err < tol and exact and not stale:
            break
    info = {"preconditioner_builds": pc.builds if pc is not None else 0,
            "preconditioner_blocks_reused": pc.reused if pc is not None else 0, "approximate_corrections": n_local}
    return p1.reshape(shape), it, products, err, Mp2, info
