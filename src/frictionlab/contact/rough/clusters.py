"""Connected contact patches of a contact mask: one compiled labelling pass (no scipy.ndimage).

:func:`label_clusters` labels the 4- or 8-connected patches of a boolean mask, optionally on a
periodic map (a patch cut by an edge counts once: the last row touches the first, the last
column the first). The labels are those of :func:`scipy.ndimage.label` followed by merging the
labels that meet across the edges and renumbering them in order: ``1..n`` in the order of each
patch's first pixel in a row-major scan, 0 out of contact (``tests/unit/test_rough_clusters.py``
compares the two on random masks).

Union-find over the pixels, kept in the label array itself (path halving; a union keeps the
smaller root, so a patch's root is its first pixel in the scan and every parent precedes its
child), each pixel joined to its already-scanned neighbours (up and left, plus the two upper
diagonals when 8-connected; on a periodic map the last row and column to the first), then one
scan that numbers the roots and copies each other pixel's number from its parent. The kernel is
cached by numba next to its source like the solver kernels, so a later process loads it and
compiles nothing; a contact solve no longer imports :mod:`scipy.ndimage` (issue 19,
``tests/unit/test_imports_lazy.py``).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

from ...core.errors import ParameterError
from ...core.lazy import lazy_njit

__all__ = ["label_clusters"]


def label_clusters(mask: NDArray[np.bool_], *, periodic: bool = False,
                   connectivity: int = 4, use_numba: bool = True) -> tuple[int, NDArray[np.int64]]:
    """Number of connected patches of ``mask`` and the label map (``int64``: 0 out of the mask,
    ``1..n`` numbered by each patch's first pixel in row-major order).

    ``connectivity`` 4 (edge neighbours) or 8 (edges and corners); ``periodic``: the map wraps
    around both edges (4-connected only, as the periodic contact solve uses). ``use_numba``:
    the compiled scan (:func:`_nb_label`), else the same labels from array operations on the
    mask's pixels (:func:`_label_arrays`; no numba is loaded).
    """
    m = np.asarray(mask)
    if m.ndim != 2:
        raise ParameterError(f"a contact mask must be 2-D, got shape {m.shape}")
    if connectivity not in (4, 8):
        raise ParameterError(f"connectivity = {connectivity!r} must be 4 or 8")
    if periodic and connectivity != 4:
        raise ParameterError("periodic patches are 4-connected: pass connectivity=4 with periodic=True")
    labels = np.zeros(m.shape, dtype=np.int64)
    if m.size == 0:
        return 0, labels
    if not use_numba:
        return _label_arrays(np.asarray(m, dtype=np.bool_), bool(periodic), connectivity == 8, labels)
    n = _nb_label(np.ascontiguousarray(m, dtype=np.bool_), bool(periodic), connectivity == 8, labels)
    return int(n), labels


def _label_arrays(mask: NDArray[np.bool_], periodic: bool, eight: bool,
                  labels: NDArray[np.int64]) -> tuple[int, NDArray[np.int64]]:
    """:func:`_nb_label` by array operations over the pixels of the mask (a contact mask holds a
    few per cent of the grid): the neighbour pairs, then rounds of hooking each pair's larger
    root under the smaller one and full path compression, until every pair shares a root. A
    root only ever points to a smaller index, so each patch's root is its first pixel in the
    scan and the numbering (roots in scan order) is the compiled kernel's."""
    nx, ny = mask.shape
    flat = mask.reshape(-1)
    idx = np.flatnonzero(flat)
    if idx.size == 0:
        return 0, labels
    pos = np.full(flat.size, -1, dtype=np.int64)
    pos[idx] = np.arange(idx.size)
    ii, jj = np.divmod(idx, ny)
    pairs = []

    def join(keep: NDArray[np.bool_], other: NDArray[np.int64]) -> None:
        a, b = pos[idx[keep]], pos[other[keep]]
        on = b >= 0
        pairs.append((a[on], b[on]))

    join(jj > 0, idx - 1)                                   # left
    join(ii > 0, idx - ny)                                  # up
    if eight:
        join((ii > 0) & (jj > 0), idx - ny - 1)             # up-left
        join((ii > 0) & (jj < ny - 1), idx - ny + 1)        # up-right
    if periodic:
        join(ii == nx - 1, jj)                              # last row - first row
        join(jj == ny - 1, ii * ny)                         # last column - first column
    a = np.concatenate([p[0] for p in pairs])
    b = np.concatenate([p[1] for p in pairs])
    root = np.arange(idx.size)
    while a.size:
        ra, rb = root[a], root[b]
        differ = ra != rb
        if not differ.any():
            break
        ra, rb = ra[differ], rb[differ]
        a, b = a[differ], b[differ]
        np.minimum.at(root, np.maximum(ra, rb), np.minimum(ra, rb))
        while True:  # full path compression: every entry points to its root
            nxt = root[root]
            if np.array_equal(nxt, root):
                break
            root = nxt
    first = root == np.arange(idx.size)
    number = np.cumsum(first)  # a root's number; any other pixel's root precedes it
    labels.reshape(-1)[idx] = number[root]
    return int(number[-1]), labels


@lazy_njit(cache=True)
def _nb_find(parent, k):  # pragma: no cover - compiled
    while parent[k] != k:
        parent[k] = parent[parent[k]]
        k = parent[k]
    return k


@lazy_njit(cache=True)
def _nb_union(parent, a, b):  # pragma: no cover - compiled
    ra = _nb_find(parent, a)
    rb = _nb_find(parent, b)
    if ra < rb:
        parent[rb] = ra
    elif rb < ra:
        parent[ra] = rb


@lazy_njit(cache=True)
def _nb_label(mask, periodic, eight, labels):  # pragma: no cover - compiled
    nx, ny = mask.shape
    parent = labels.reshape(nx * ny)  # the union-find forest first, then the labels, in place
    for i in range(nx):
        for j in range(ny):
            if not mask[i, j]:
                continue
            k = i * ny + j
            parent[k] = k
            # neighbours scanned already: left, up, and up-left / up-right when 8-connected; the
            # wrapped ones (periodic) are joined below, once both ends are scanned
            if j > 0 and mask[i, j - 1]:
                _nb_union(parent, k, k - 1)
            if i > 0:
                if mask[i - 1, j]:
                    _nb_union(parent, k, k - ny)
                if eight:
                    if j > 0 and mask[i - 1, j - 1]:
                        _nb_union(parent, k, k - ny - 1)
                    if j < ny - 1 and mask[i - 1, j + 1]:
                        _nb_union(parent, k, k - ny + 1)
    if periodic:
        for j in range(ny):  # last row - first row
            if mask[nx - 1, j] and mask[0, j]:
                _nb_union(parent, (nx - 1) * ny + j, j)
        for i in range(nx):  # last column - first column
            if mask[i, ny - 1] and mask[i, 0]:
                _nb_union(parent, i * ny + ny - 1, i * ny)
    # a union keeps the smaller root and path halving points to an ancestor, so every parent
    # precedes its child in the scan: a root (its patch's first pixel) takes the next number,
    # any other pixel the number already written at its parent
    n = 0
    for i in range(nx):
        for j in range(ny):
            if not mask[i, j]:
                continue
            k = i * ny + j
            if parent[k] == k:
                n += 1
                parent[k] = n
            else:
                parent[k] = parent[parent[k]]
    return n
