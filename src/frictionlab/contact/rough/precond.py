r"""Contact-cluster block-Jacobi preconditioner of the Polonsky-Keer iteration (issue 17).

The PK conjugate gradient (Polonsky & Keer 1999) works on the operator restricted to the
current contact set :math:`S`, :math:`M_{SS}`. Its condition number on the load-constrained
subspace grows with the size of the contact spots (a spot of radius :math:`R` elements has a
smooth mode of compliance :math:`\sim 2\pi R` against :math:`K_{ii} = 3.8`): measured 10-13 for
Gaussian surfaces at 100 MPa (128^2-256^2), i.e. one decade of error per 3-4 iterations. The
interaction inside a spot dominates; between spots (tens of elements apart) it is weak. The
preconditioner is therefore the exact inverse of :math:`M` restricted to each contact cluster
(8-connected), :math:`B = \mathrm{blockdiag}(M_{cc})`; the preconditioned operator
:math:`B^{-1/2}M_{SS}B^{-1/2}` on the same subspace has condition number 1.2-1.7 (same
surfaces), so CG gains a decade per ~1.3 iterations.

Clusters are grown breadth first and cut at ``block`` elements, so large or percolating
clusters become compact pieces and the cost stays bounded: building is
:math:`O(|S|\,\mathrm{block}^2)` (dense Cholesky of each block; a rebuild copies the blocks
that did not change and updates the factors of those that changed by a few elements,
:mod:`~frictionlab.contact.rough.precond_update`), applying
:math:`O(|S|\,\mathrm{block})`, memory :math:`|S|\,\mathrm{block}` numbers; no operator product.
The blocks are read from the real-space kernel (:meth:`BoussinesqFFT.kernel_real`), so the
preconditioner is exact for the paper's finite patch, the periodic patch, the viscoelastic
factor ``c`` and the viscoplastic diagonal of :class:`StepOperator`.

The load constraint :math:`\mathbf 1^\top p = W` is kept by projecting in the ``B`` metric:
:math:`z = B^{-1}(r - \lambda\mathbf 1)` with :math:`\lambda = \mathbf 1^\top B^{-1}r /
\mathbf 1^\top B^{-1}\mathbf 1`, so that :math:`\mathbf 1^\top z = 0` on :math:`S`.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ...core.lazy import lazy_njit
from .precond_update import MAX_AGE, UPDATE_SHARE, nb_factor_blocks

__all__ = ["ClusterPreconditioner", "supports_preconditioner", "DEFAULT_BLOCK", "DEFAULT_WHOLE"]

#: largest block (elements) of a cluster cut into pieces: build cost ~``|S| block^2`` / 3 flops,
#: memory ``|S|`` block numbers. Measured (Gaussian surface, 100 MPa, 256^2 sliding at v = 10, tol
#: 1e-6): 13.9, 11.9, 10.5, 6.3 PK iterations per step with blocks of 16, 32, 64, 128 (the
#: largest clusters there have ~120 elements, so 128 keeps them whole)
DEFAULT_BLOCK = 128
#: largest cluster kept whole as one block (larger ones are cut at ``block``): at 512^2 the same
#: load has a few clusters of 130-190 elements; keeping them whole cut the PK iterations of a
#: steady sliding step from 10.5 to 8.0 (cut at 256 everywhere: same 8.0, but 2.3x the build
#: cost of a 1 GPa static solve, whose percolating clusters are cut at 128 either way here)
DEFAULT_WHOLE = 256


def _kernel_parts(op: Any) -> tuple[np.ndarray, float, Any, bool] | None:
    """``(kernel_real, c, extra_diag, periodic)`` of a :class:`StepOperator` over a
    :class:`BoussinesqFFT`, or of a bare ``BoussinesqFFT``; None for other operators."""
    base, c, extra = op, 1.0, None
    if hasattr(op, "base") and hasattr(op, "c"):
        base, c, extra = op.base, float(op.c), op.extra
    if not hasattr(base, "kernel_real") or base.be.name != "numpy":
        return None
    return base.kernel_real(), c, extra, bool(base.periodic)


def supports_preconditioner(op: Any) -> bool:
    """Whether :class:`ClusterPreconditioner` can be built for ``op`` (numpy Boussinesq operators)."""
    return _kernel_parts(op) is not None


class ClusterPreconditioner:
    """Block-Jacobi preconditioner on the contact clusters of an iterate (numpy backend).

    Parameters
    ----------
    op : StepOperator or BoussinesqFFT
        The step operator :math:`M = cK + \\mathrm{diag}(D)`.
    shape : (nx, ny)
        Grid of the iterate.
    block : int
        Largest block [elements] of a cluster too large to keep whole.
    whole : int, optional
        Largest cluster kept whole (default ``2 block``; at least ``block``).
    """

    def __init__(self, op: Any, shape: tuple[int, int], block: int = DEFAULT_BLOCK, whole: int | None = None):
        parts = _kernel_parts(op)
        if parts is None:
            raise TypeError("ClusterPreconditioner needs a numpy BoussinesqFFT (or StepOperator over one)")
        kr, c, extra, periodic = parts
        self.kr = np.ascontiguousarray(kr, dtype=np.float64)
        self.c = c
        self.has_extra = extra is not None
        n = shape[0] * shape[1]
        self.extra = (np.ascontiguousarray(extra, dtype=np.float64).reshape(n) if self.has_extra
                      else np.zeros(1))
        self.periodic = periodic
        self.nx, self.ny = int(shape[0]), int(shape[1])
        self.block = int(block)
        self.whole = max(self.block, int(whole) if whole is not None else DEFAULT_WHOLE * self.block // DEFAULT_BLOCK)
        self.order = np.empty(n, np.int64)
        self.starts = np.zeros(n + 1, np.int64)
        self.moff = np.empty(n + 1, np.int64)
        # the previous build: its blocks are copied when unchanged and their factors updated
        # when a few elements changed (precond_update.py)
        self._old = (np.empty(n, np.int64), np.zeros(n + 1, np.int64), np.zeros(n + 1, np.int64), np.empty(0),
                     np.zeros(n + 1, np.int32))
        self._old_nb = 0
        # (32-bit work arrays: a 2048^2 static solve holds n of each)
        self.age = np.zeros(n + 1, np.int32)     # updates of each block since it was last factored
        self._owner = np.full(n, -1, np.int32)   # element -> block of the last build
        self._cnt = np.zeros(n + 1, np.int32)
        self._tag = np.full(n, -1, np.int64)
        self._stamp = 0
        #: blocks copied / updated from the previous build (counters the caller may reset, as the
        #: PK solver resets ``builds`` and ``reused`` per solve)
        self.reused = 0
        self.updated = 0
        #: builds, copied and updated blocks, blocks built and process CPU seconds in builds since
        #: the preconditioner was made (never reset; ``frictionlab bench rough_sliding``)
        self.totals = {"builds": 0, "copied": 0, "updated": 0, "blocks": 0, "cpu_s": 0.0}
        #: ``False``: every block is factored from scratch (the update checks' reference)
        self.incremental = True
        self.mark = np.zeros(n, np.uint8)
        self.e = np.zeros(n)
        self.mats = np.empty(0)
        # kernel of the offsets a block can hold (|a| < block), contiguous: the assembly reads
        # it instead of the transform-grid kernel (cache misses)
        mx, my = self.kr.shape
        self.lx, self.ly = min(self.whole, self.nx), min(self.whole, self.ny)
        a = np.arange(-self.lx, self.lx + 1) % mx
        b = np.arange(-self.ly, self.ly + 1) % my
        self.tab = np.ascontiguousarray(c * self.kr[a[:, None], b[None, :]])
        self.buf = np.empty((2, self.whole))
        #: B^{-1} 1 of the blocks entirely in contact, per element, valid where ``eok[block]``
        self.einv = np.zeros(n)
        self.eok = np.zeros(n + 1, np.uint8)
        self._work = np.empty(3 * self.whole)
        self._iwork = np.empty(3 * self.whole, np.int64)
        self.nb = 0
        self.builds = 0
        #: reactivation scale 1 / M_ii of every element (see :func:`~frictionlab.contact.rough.solver.pk_solve`)
        self.dinv = (1.0 / (c * self.kr[0, 0] + self.extra) if self.has_extra
                     else np.array([1.0 / (c * self.kr[0, 0])]))

    def build(self, p: np.ndarray, limit: int | None = None) -> None:
        """Blocks of the contact set ``p > 0`` (flat ``p``) and their Cholesky factors
        (``mark`` flags the elements in a block). ``limit``: cut every cluster at this many
        elements for this build (a cheaper build: the solver's cold starts), else the
        preconditioner's ``block`` / ``whole``."""
        block, whole = (self.block, self.whole) if limit is None else (min(self.block, int(limit)),
                                                                        min(self.whole, int(limit)))
        c0 = time.process_time()
        old = (self.order, self.starts, self.moff, self.mats, self.age)
        self.order, self.starts, self.moff, mats, self.age = self._old
        nb, need = _nb_blocks(p, self.nx, self.ny, self.periodic, block, whole, self.order,
                              self.starts, self.moff, self.mark)
        if mats.size < need:
            mats = np.empty(max(need, int(1.25 * mats.size)))
        self.mats = mats
        copied, updated = nb_factor_blocks(
            self.order, self.starts, self.moff, nb, self.tab, self.lx, self.ly, self.nx, self.ny, self.periodic,
            self.extra, self.has_extra, self.mats, self.age, old[0], old[1], old[2], old[3], self._old_nb, old[4],
            self._owner, self._cnt, self._tag, self._stamp, self._work, self._iwork, UPDATE_SHARE,
            MAX_AGE if self.incremental else 0)
        self._stamp += nb
        self.eok[:nb] = 0
        self._old = old
        self._old_nb = nb
        self.nb = nb
        self.reused += copied
        self.updated += updated
        self.builds += 1
        for key, v in (("builds", 1), ("copied", copied), ("updated", updated), ("blocks", nb),
                       ("cpu_s", time.process_time() - c0)):
            self.totals[key] += v


@lazy_njit(cache=True)
def _nb_blocks(p, nx, ny, periodic, block, whole, order, starts, moff, mark):  # pragma: no cover - compiled
    """Breadth-first 8-connected clusters of ``p > 0``: a cluster of at most ``whole`` elements is
    one block; from a larger one the first ``block`` elements of its breadth-first order (the
    piece a search limited to ``block`` finds) become a block and the rest is searched again. Fills
    ``order`` (elements block by block), ``starts`` and the matrix offsets ``moff``; returns
    ``(n_blocks, total matrix size)``."""
    n = p.size
    for i in range(n):
        mark[i] = 0
    nb = 0
    pos = 0
    moff[0] = 0
    for s in range(n):
        if p[s] <= 0.0 or mark[s] != 0:
            continue
        a0 = pos
        starts[nb] = a0
        order[pos] = s
        mark[s] = 1
        pos += 1
        head = a0
        lim = whole + 1
        while head < pos and pos - a0 < lim:
            u = order[head]
            head += 1
            iu = u // ny
            ju = u - iu * ny
            for di in range(-1, 2):
                iv = iu + di
                if iv < 0 or iv >= nx:
                    if not periodic:
                        continue
                    iv = (iv + nx) % nx
                for dj in range(-1, 2):
                    if di == 0 and dj == 0:
                        continue
                    jv = ju + dj
                    if jv < 0 or jv >= ny:
                        if not periodic:
                            continue
                        jv = (jv + ny) % ny
                    v = iv * ny + jv
                    if p[v] > 0.0 and mark[v] == 0 and pos - a0 < lim:
                        mark[v] = 1
                        order[pos] = v
                        pos += 1
        if pos - a0 > whole:
            # larger than ``whole``: keep the first ``block`` (a search limited to ``block``)
            for i in range(a0 + block, pos):
                mark[order[i]] = 0
            pos = a0 + block
        m = pos - a0
        moff[nb + 1] = moff[nb] + m * m
        nb += 1
    starts[nb] = pos
    return nb, moff[nb]


@lazy_njit(inline="always")
def _block_solve(mats, off, m, x):  # pragma: no cover - compiled
    """``x <- B^{-1} x`` (length ``m``) with the Cholesky factor ``L`` at ``off`` (lower, row-major):
    ``L y = x`` by rows (dot products), ``L^T x = y`` by the rows of ``L`` too (each solved entry
    subtracted from those above it), so that both passes read ``L`` contiguously; the rows are
    taken as slices, which numba's fast-math loops vectorise (2.6x the indexed form, 512^2 blocks)."""
    for i in range(m):
        ri = off + i * m
        row = mats[ri:ri + i]
        s = 0.0
        for k in range(i):
            s += row[k] * x[k]
        x[i] = (x[i] - s) / mats[ri + i]
    for i in range(m - 1, -1, -1):
        ri = off + i * m
        row = mats[ri:ri + i]
        xi = x[i] / mats[ri + i]
        x[i] = xi
        for k in range(i):
            x[k] -= row[k] * xi


@lazy_njit(cache=True, fastmath=True)
def _nb_block_solves(order, starts, moff, nb, mats, p, z, e, buf, einv, eok):  # pragma: no cover - compiled
    """The block solves of :func:`nb_precondition` in place: ``z <- B^{-1} z`` and ``e <- B^{-1} e``
    block by block. ``B^{-1} e`` of a block whose elements are all in contact (``e = 1`` there)
    is kept in ``einv`` (``eok[b] = 1``; ``eok`` is cleared by each build) and read back while the
    block stays in contact: it depends on the block only. ``eok`` of size 0: no cache. Fast-math
    (vectorised dot products and updates); called from Python only."""
    cache = eok.size > 0
    for b in range(nb):
        a0 = starts[b]
        m = starts[b + 1] - a0
        bx = buf[0, :m]
        for i in range(m):
            bx[i] = z[order[a0 + i]]
        _block_solve(mats, moff[b], m, bx)
        for i in range(m):
            z[order[a0 + i]] = bx[i]
        full = cache
        if full:
            for i in range(m):
                if not (p[order[a0 + i]] > 0.0):
                    full = False
                    break
        if full and eok[b] != 0:
            for i in range(m):
                e[order[a0 + i]] = einv[order[a0 + i]]
            continue
        for i in range(m):
            bx[i] = e[order[a0 + i]]
        _block_solve(mats, moff[b], m, bx)
        for i in range(m):
            e[order[a0 + i]] = bx[i]
        if full:
            for i in range(m):
                einv[order[a0 + i]] = bx[i]
            eok[b] = 1


@lazy_njit(inline="always")
def _set_rhs(i, mark, dinv, per, r, z, e):  # pragma: no cover - compiled
    """Right-hand sides of contact element ``i``: ``r_i`` and 1 in a block (``mark != 0``), else the
    diagonal solve ``r_i / M_ii`` and ``1 / M_ii``. Inlined in numba's IR (compiled with its caller)."""
    if mark[i] != 0:
        z[i] = r[i]
        e[i] = 1.0
    else:
        d = dinv[i] if per else dinv[0]
        z[i] = r[i] * d
        e[i] = d


@lazy_njit(cache=True)
def _nb_project(p, r, z, e):  # pragma: no cover - compiled
    r"""The projection of ``z`` onto :math:`\mathbf 1^\top z = 0` over the contact set (``e``:
    the preconditioned :math:`\mathbf 1`), 0 elsewhere; returns :math:`r^\top z`."""
    n = p.size
    sz = 0.0
    s1 = 0.0
    for i in range(n):
        if p[i] > 0.0:
            sz += z[i]
            s1 += e[i]
    lam = sz / s1 if s1 > 0.0 else 0.0
    G = 0.0
    for i in range(n):
        if p[i] > 0.0:
            z[i] -= lam * e[i]
            G += r[i] * z[i]
        else:
            z[i] = 0.0
    return G


@lazy_njit(cache=True)
def _nb_project_on(r, z, e, S, nS):  # pragma: no cover - compiled
    """:func:`_nb_project` over the ascending contact list ``S``: the same sums in the same order
    (the same bits on ``S``); ``z`` off the list is left as it is (the PK direction reads ``z`` on
    the list only), which spares two passes over the grid per iteration."""
    sz = 0.0
    s1 = 0.0
    for q in range(nS):
        i = S[q]
        sz += z[i]
        s1 += e[i]
    lam = sz / s1 if s1 > 0.0 else 0.0
    G = 0.0
    for q in range(nS):
        i = S[q]
        z[i] -= lam * e[i]
        G += r[i] * z[i]
    return G


@lazy_njit(cache=True)
def _nb_rhs(mark, dinv, p, r, z, e):  # pragma: no cover - compiled
    """Right-hand sides of :func:`nb_precondition` over the grid (0 off contact)."""
    per = dinv.size > 1
    for i in range(p.size):
        if p[i] > 0.0:
            _set_rhs(i, mark, dinv, per, r, z, e)
        else:
            z[i] = 0.0
            e[i] = 0.0


@lazy_njit(cache=True)
def _nb_rhs_on(order, starts, nb, mark, dinv, r, z, e, S, nS):  # pragma: no cover - compiled
    """Right-hand sides of :func:`nb_precondition_on`: 0 on the block elements, then set on the contact list."""
    per = dinv.size > 1
    for q in range(starts[nb]):
        i = order[q]
        z[i] = 0.0
        e[i] = 0.0
    for q in range(nS):
        _set_rhs(S[q], mark, dinv, per, r, z, e)


_NO_CACHE = (np.empty(0), np.empty(0, np.uint8))


def nb_precondition(order, starts, moff, nb, mats, mark, dinv, p, r, z, e, buf, einv=None, eok=None):
    r"""``z = B^{-1}(r - \lambda 1)`` on the contact set ``p > 0`` (0 elsewhere) with
    :math:`\mathbf 1^\top z = 0`; returns :math:`r^\top z`.

    The blocks may be stale (built for an earlier contact set): the operator applied is then
    :math:`P_S B^{-1} P_S` (still SPD on the contact set ``S``), with ``1/M_ii`` (``dinv``) for
    contact elements outside every block (``mark == 0``). ``e`` is work space for
    :math:`P_S B^{-1} P_S \mathbf 1`, ``buf`` a contiguous block-length buffer; ``einv``/``eok``:
    the cache of :math:`B^{-1}\mathbf 1` of the blocks in contact (:attr:`ClusterPreconditioner.einv`).
    Three compiled passes (right-hand sides, block solves, projection), called from Python: the
    block solves are fast-math kernels, which compiled code must not call (their round-off would
    differ between a process that compiles and one that loads them)."""
    einv, eok = (einv, eok) if einv is not None else _NO_CACHE
    _nb_rhs(mark, dinv, p, r, z, e)
    _nb_block_solves(order, starts, moff, nb, mats, p, z, e, buf, einv, eok)
    return _nb_project(p, r, z, e)


def nb_precondition_on(order, starts, moff, nb, mats, mark, dinv, p, r, z, e, buf, S, nS, einv=None, eok=None):
    r""":func:`nb_precondition` with the contact set also given as the ascending index list ``S``
    (``nS`` entries, the elements with ``p > 0``): the right-hand sides are set on the list and
    the block elements instead of the whole grid (the PK iteration's contact set is a few per
    cent of it), ``r`` is read on ``S`` only; the blocks, the constraint projection and
    :math:`r^\top z` are computed exactly as there (same result on ``S``, bit for bit; ``z`` off
    ``S`` is not zeroed: the caller reads it on ``S`` only)."""
    einv, eok = (einv, eok) if einv is not None else _NO_CACHE
    _nb_rhs_on(order, starts, nb, mark, dinv, r, z, e, S, nS)
    _nb_block_solves(order, starts, moff, nb, mats, p, z, e, buf, einv, eok)
    return _nb_project_on(r, z, e, S, nS)
