"""Connected contact patches of a contact mask: one compiled labelling pass (no scipy.ndimage).

:func:`label_clusters` labels the 4- or 8-connected patches of a boolean mask, optionally on a
periodic map (a patch cut by an edge counts once: the last row touches the first, the last
column the first). The labels are those of :func:`scipy.ndimage.label` followed by merging the
labels that meet across the edges and renumbering them in order: ``1..n`` in the order of each
patch's first pixel in a row-major scan, 0 out of contact (``tests/unit/test_rough_clusters.py``
compares the two on random masks).

Union-find over the pixels (path halving; the root of a patch is its first pixel in the scan,
since a union keeps the smaller index), each pixel joined to its already-scanned neighbours
(up and left, plus the two upper diagonals when 8-connected; on a periodic map the neighbours
wrap around the edges), then one scan that numbers the roots. The kernel is cached by numba
next to its source like the solver kernels, so a later process loads it and compiles nothing:
a contact solve imports neither :mod:`scipy.ndimage` nor :mod:`scipy` for it (issue 19,
``tests/unit/test_imports_lazy.py``).
"""

from __future__ import annotations

import numpy as np
from numba import njit
from numpy.typing import NDArray

from ...core.errors import ParameterError

__all__ = ["label_clusters"]


def label_clusters(mask: NDArray[np.bool_], *, periodic: bool = False,
                   connectivity: int = 4) -> tuple[int, NDArray[np.int64]]:
    """Number of connected patches of ``mask`` and the label map (``int64``: 0 out of the mask,
    ``1..n`` numbered by each patch's first pixel in row-major order).

    ``connectivity`` 4 (edge neighbours) or 8 (edges and corners); ``periodic``: the map wraps
    around both edges (4-connected only, as the periodic contact solve uses).
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
    n = _nb_label(np.ascontiguousarray(m, dtype=np.bool_), bool(periodic), connectivity == 8, labels)
    return int(n), labels


@njit(cache=True)
def _nb_find(parent, k):  # pragma: no cover - compiled
    while parent[k] != k:
        parent[k] = parent[parent[k]]
        k = parent[k]
    return k


@njit(cache=True)
def _nb_union(parent, a, b):  # pragma: no cover - compiled
    ra = _nb_find(parent, a)
    rb = _nb_find(parent, b)
    if ra < rb:
        parent[rb] = ra
    elif rb < ra:
        parent[ra] = rb


@njit(cache=True)
def _nb_label(mask, periodic, eight, labels):  # pragma: no cover - compiled
    nx, ny = mask.shape
    parent = np.full(nx * ny, -1, np.int64)
    # already-scanned neighbours (row offset, column offset): up, left, up-left, up-right
    di = np.array([-1, 0, -1, -1])
    dj = np.array([0, -1, -1, 1])
    n_off = 4 if eight else 2
    for i in range(nx):
        for j in range(ny):
            if not mask[i, j]:
                continue
            k = i * ny + j
            parent[k] = k
            for o in range(n_off):
                a = i + di[o]
                b = j + dj[o]
                if a < 0 or b < 0 or b >= ny:
                    continue  # the wrapped neighbours are joined below, once both are scanned
                if mask[a, b]:
                    _nb_union(parent, k, a * ny + b)
    if periodic:
        for j in range(ny):  # last row - first row
            if mask[nx - 1, j] and mask[0, j]:
                _nb_union(parent, (nx - 1) * ny + j, j)
        for i in range(nx):  # last column - first column
            if mask[i, ny - 1] and mask[i, 0]:
                _nb_union(parent, i * ny + ny - 1, i * ny)
    # number the roots in scan order; a root is its patch's first pixel, so it is met first
    n = 0
    for i in range(nx):
        for j in range(ny):
            if not mask[i, j]:
                continue
            k = i * ny + j
            r = _nb_find(parent, k)
            if r == k:
                n += 1
                labels[i, j] = n
            else:
                labels[i, j] = labels[r // ny, r % ny]
    return n
