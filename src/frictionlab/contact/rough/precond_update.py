r"""Block factors of the cluster preconditioner, updated from the previous build (issue 32).

:class:`~frictionlab.contact.rough.precond.ClusterPreconditioner` rebuilds its blocks (the
contact clusters, cut at ``block`` elements) several times per sliding step. From one build to
the next most clusters keep most of their elements: a quarter-element slip moves the edges of
the contact spots, and strong creep (viscoelastic set (1, 10) at v = 1) grows them by a few
elements per step. Refactoring such a block costs :math:`m^3/6` multiply-adds for :math:`m`
elements; deriving its Cholesky factor from the factor of the previous build's block costs
about :math:`t^2/2` per removed element (:math:`t` kept elements after it in the factor's
order) and :math:`q^2/2` per added one (:math:`q` its row):

* the block's elements are reordered as the kept elements in the previous factor's order,
  then the added ones (any order of a block gives the same inverse, so the preconditioner is
  the same; only round-off differs);
* a removed element :math:`k` drops its row and column: the rows before it are unchanged and
  the trailing factor :math:`L_{22}` becomes the factor of
  :math:`L_{22}L_{22}^\top + \ell\ell^\top` (:math:`\ell` the removed column below the
  diagonal), a rank-one *update*, computed with plane rotations (Golub & Van Loan,
  *Matrix Computations*, Sect. 6.5.4); removals are applied from the last to the first, so
  each reads its column of the previous factor unchanged;
* an added element appends one row: a forward substitution against the rows above it, the
  row step of the row-by-row Cholesky factorisation.

Each new block is matched to the previous block that holds most of its elements; it is
copied when equal, updated when the update costs less than :data:`UPDATE_SHARE` of a
refactorisation, and refactored otherwise, and also after :data:`MAX_AGE` consecutive updates
(round-off of the rotations stays at the level of one factorisation).
"""

from __future__ import annotations

import numpy as np

from ...core.lazy import lazy_njit

__all__ = ["nb_factor_blocks", "UPDATE_SHARE", "MAX_AGE"]

#: a block is updated from the previous factor when the update's estimated multiply-adds are
#: below this share of a refactorisation (``m^3 / 6 + m^2 / 2``)
UPDATE_SHARE = 0.5
#: consecutive updates after which a block is refactored from its assembled matrix
MAX_AGE = 64


@lazy_njit(inline="always")
def _entry(ei, ej, tab, lx, ly, ny, nx, periodic):  # pragma: no cover - compiled
    """``c K`` between elements ``ei`` and ``ej`` from the offset table (minimum image on the periodic patch)."""
    ii = ei // ny
    ij = ej // ny
    da = ii - ij
    db = (ei - ii * ny) - (ej - ij * ny)
    if periodic:
        if 2 * da > nx:
            da -= nx
        elif 2 * da < -nx:
            da += nx
        if 2 * db > ny:
            db -= ny
        elif 2 * db < -ny:
            db += ny
    return tab[da + lx, db + ly]


@lazy_njit(inline="always")
def _factor_rows(mats, off, m, r0, order, a0, tab, lx, ly, nx, ny, periodic, extra,
                 has_extra):  # pragma: no cover - compiled
    """Assemble rows ``r0..m-1`` of the block (lower triangle, row-major, stride ``m``) and compute
    their Cholesky rows against rows ``0..r0-1``, which hold the factor already."""
    for i in range(r0, m):
        ei = order[a0 + i]
        ri = off + i * m
        for j in range(i + 1):
            v = _entry(ei, order[a0 + j], tab, lx, ly, ny, nx, periodic)
            if i == j and has_extra:
                v += extra[ei]
            mats[ri + j] = v
        for j in range(i + 1):
            rj = off + j * m
            li = mats[ri:ri + j]  # row slices: numba's fast-math loop vectorises the dot product
            lj = mats[rj:rj + j]
            d = 0.0
            for k in range(j):
                d += li[k] * lj[k]
            s = mats[ri + j] - d
            if i == j:
                mats[ri + i] = np.sqrt(s) if s > 0.0 else 1e-300
            else:
                mats[ri + j] = s / mats[rj + j]


@lazy_njit(inline="always")
def _rank_one_update(mats, off, m, j0, c, lv):  # pragma: no cover - compiled
    r"""Factor rows/columns ``j0..c-1`` (trailing) of the block at ``off`` replaced by the factor of
    :math:`L_{22}L_{22}^\top + \ell\ell^\top`, :math:`\ell` = ``lv[j0:c]`` (overwritten)."""
    for j in range(j0, c):
        dj = off + j * m + j
        ljj = mats[dj]
        x = lv[j]
        r = np.sqrt(ljj * ljj + x * x)
        cc = r / ljj
        ss = x / ljj
        mats[dj] = r
        for i in range(j + 1, c):
            q = off + i * m + j
            v = (mats[q] + ss * lv[i]) / cc
            mats[q] = v
            lv[i] = cc * lv[i] - ss * v


@lazy_njit(cache=True, fastmath=True)
def nb_factor_blocks(order, starts, moff, nb, tab, lx, ly, nx, ny, periodic, extra, has_extra, mats, age,
                     order_o, starts_o, moff_o, mats_o, nb_o, age_o, owner, cnt, tag, stamp, work, iwork,
                     share, max_age):  # pragma: no cover - compiled
    """Cholesky factors (lower, in place in ``mats`` at ``moff``) of the blocks ``c K + diag(extra)``
    of ``order``/``starts`` (:func:`~frictionlab.contact.rough.precond._nb_blocks`), each copied,
    updated from or refactored without the previous build (``*_o``, ``owner``: element -> previous
    block or -1). A block's elements are reordered in ``order`` when it is updated (kept first, in
    the previous order). ``age``: updates since the block's last refactorisation. ``cnt`` (>= the
    previous block count, zero), ``tag`` (per element) and ``stamp`` (> every stamp in ``tag``) are
    work space; ``work`` and ``iwork`` hold at least three block lengths. Returns
    ``(copied, updated)``; ``owner`` is left mapping the elements to the new blocks."""
    copied = 0
    updated = 0
    lw = work.size // 3
    lv = work[:lw]
    kept = iwork[:lw]
    app = iwork[lw:2 * lw]
    touched = iwork[2 * lw:]
    for b in range(nb):
        a0 = starts[b]
        m = starts[b + 1] - a0
        off = moff[b]
        st = stamp + b
        # the previous block holding most of this block's elements
        nt = 0
        for i in range(m):
            e = order[a0 + i]
            tag[e] = st
            o = owner[e]
            if o >= 0:
                if cnt[o] == 0:
                    touched[nt] = o
                    nt += 1
                cnt[o] += 1
        ob = -1
        best = 0
        for t in range(nt):
            o = touched[t]
            if cnt[o] > best:
                best = cnt[o]
                ob = o
            cnt[o] = 0
        done = False
        if ob >= 0:
            so = starts_o[ob]
            mo = starts_o[ob + 1] - so
            oo = moff_o[ob]
            if best == m and mo == m:
                same = True
                for i in range(m):
                    if order_o[so + i] != order[a0 + i]:
                        same = False
                        break
                if same:
                    for i in range(m * m):
                        mats[off + i] = mats_o[oo + i]
                    age[b] = age_o[ob]
                    copied += 1
                    done = True
            if not done and age_o[ob] < max_age:
                # kept positions of the previous factor (ascending) and the update's cost
                c = 0
                cost = 0.0
                for i in range(mo - 1, -1, -1):
                    if tag[order_o[so + i]] == st:
                        c += 1
                    else:
                        cost += 0.5 * c * c  # rotations over the kept rows after it
                for q in range(best, m):
                    cost += 0.5 * q * q + q
                if cost < share * (m * m * m / 6.0 + 0.5 * m * m):
                    c = 0
                    for i in range(mo):
                        if tag[order_o[so + i]] == st:
                            kept[c] = i
                            c += 1
                    na = 0
                    for i in range(m):
                        e = order[a0 + i]
                        if owner[e] != ob:
                            app[na] = e
                            na += 1
                    for j in range(c):
                        order[a0 + j] = order_o[so + kept[j]]
                        rj = oo + kept[j] * mo
                        for l in range(j + 1):
                            mats[off + j * m + l] = mats_o[rj + kept[l]]
                    # removed elements, last first: each column is read from the previous factor
                    j0 = c
                    for k in range(mo - 1, -1, -1):
                        if j0 > 0 and kept[j0 - 1] == k:
                            j0 -= 1
                            continue
                        if j0 == c:
                            continue  # nothing kept after it: dropping the row is all
                        for j in range(j0, c):
                            lv[j] = mats_o[oo + kept[j] * mo + k]
                        _rank_one_update(mats, off, m, j0, c, lv)
                    for q in range(na):
                        order[a0 + c + q] = app[q]
                    _factor_rows(mats, off, m, c, order, a0, tab, lx, ly, nx, ny, periodic, extra, has_extra)
                    age[b] = age_o[ob] + 1
                    updated += 1
                    done = True
        if not done:
            _factor_rows(mats, off, m, 0, order, a0, tab, lx, ly, nx, ny, periodic, extra, has_extra)
            age[b] = 0
    for b in range(nb_o):
        for q in range(starts_o[b], starts_o[b + 1]):
            owner[order_o[q]] = -1
    for b in range(nb):
        for q in range(starts[b], starts[b + 1]):
            owner[order[q]] = b
    return copied, updated
