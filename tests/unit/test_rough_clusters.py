"""Contact patch labelling (contact/rough/clusters.py) against scipy.ndimage.label, and its disk cache."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest
from scipy import ndimage

import frictionlab
from frictionlab.contact.rough.clusters import label_clusters
from frictionlab.core.errors import ParameterError

_SRC = str(Path(frictionlab.__file__).resolve().parents[1])


def _reference(mask: np.ndarray, periodic: bool, connectivity: int) -> tuple[int, np.ndarray]:
    """``ndimage.label``, then (periodic) the labels meeting across the edges merged into the smallest
    and renumbered in order: what ``solve_contact`` computed before the labelling kernel."""
    labels, n = ndimage.label(mask, structure=ndimage.generate_binary_structure(2, 1 if connectivity == 4 else 2))
    if not periodic or n == 0:
        return int(n), labels
    parent = np.arange(n + 1)

    def find(i: int) -> int:
        while parent[i] != i:
            i = parent[i]
        return i

    for a, b in ((labels[0, :], labels[-1, :]), (labels[:, 0], labels[:, -1])):
        for i, j in zip(a, b):
            if i and j:
                ri, rj = find(int(i)), find(int(j))
                parent[max(ri, rj)] = min(ri, rj)
    uniq, new = np.unique([find(i) for i in range(n + 1)], return_inverse=True)
    return len(uniq) - 1, new[labels]


@pytest.mark.parametrize("use_numba", [True, False])
@pytest.mark.parametrize(("periodic", "connectivity"), [(False, 4), (False, 8), (True, 4)])
def test_same_patches_and_numbers_as_ndimage_on_random_masks(periodic, connectivity, use_numba):
    rng = np.random.default_rng(7 + connectivity + periodic)
    for _ in range(400):
        shape = tuple(int(s) for s in rng.integers(1, 30, 2))
        mask = rng.random(shape) < rng.uniform(0.05, 0.95)
        n, labels = label_clusters(mask, periodic=periodic, connectivity=connectivity, use_numba=use_numba)
        n_ref, ref = _reference(mask, periodic, connectivity)
        assert n == n_ref, (shape, periodic, connectivity)
        np.testing.assert_array_equal(labels, ref)
        assert labels.dtype == np.int64


def test_large_mask_and_patches_cut_by_both_edges():
    rng = np.random.default_rng(3)
    mask = rng.random((256, 200)) < 0.45  # near percolation: long patches that wrap both ways
    n, labels = label_clusters(mask, periodic=True)
    n_ref, ref = _reference(mask, True, 4)
    assert n == n_ref and n < label_clusters(mask)[0]  # the wrap joins some patches
    np.testing.assert_array_equal(labels, ref)
    corner = np.zeros((5, 7), bool)
    corner[0, 0] = corner[-1, 0] = corner[0, -1] = corner[-1, -1] = True  # one patch on a torus
    assert label_clusters(corner, periodic=True)[0] == 1 and label_clusters(corner)[0] == 4
    assert label_clusters(corner, connectivity=8)[0] == 4


@pytest.mark.parametrize("fraction", [0.03, 0.45, 0.7])
def test_array_labelling_equals_the_compiled_scan_on_large_masks(fraction):
    # a contact mask (a few per cent), near percolation, and beyond: patches spanning the map
    rng = np.random.default_rng(11)
    mask = rng.random((300, 257)) < fraction
    for periodic, connectivity in ((True, 4), (False, 4), (False, 8)):
        n, labels = label_clusters(mask, periodic=periodic, connectivity=connectivity)
        n2, labels2 = label_clusters(mask, periodic=periodic, connectivity=connectivity, use_numba=False)
        assert n == n2 and labels2.dtype == np.int64
        np.testing.assert_array_equal(labels, labels2)
    assert label_clusters(np.zeros((4, 6), bool), periodic=True, use_numba=False)[0] == 0
    assert label_clusters(np.ones((4, 6), bool), periodic=True, use_numba=False)[0] == 1


def test_empty_full_and_non_contiguous_masks():
    n, labels = label_clusters(np.zeros((4, 6), bool), periodic=True)
    assert n == 0 and labels.dtype == np.int64 and not labels.any()
    assert label_clusters(np.ones((4, 6), bool))[0] == 1
    rng = np.random.default_rng(5)
    mask = rng.random((40, 30)) < 0.5
    np.testing.assert_array_equal(label_clusters(mask.T, periodic=True)[1], _reference(mask.T, True, 4)[1])
    np.testing.assert_array_equal(label_clusters(mask.astype(int))[1], _reference(mask, False, 4)[1])


def test_refuses_what_it_does_not_label():
    with pytest.raises(ParameterError, match="2-D"):
        label_clusters(np.zeros(5, bool))
    with pytest.raises(ParameterError, match="4 or 8"):
        label_clusters(np.zeros((3, 3), bool), connectivity=6)
    with pytest.raises(ParameterError, match="periodic"):
        label_clusters(np.zeros((3, 3), bool), periodic=True, connectivity=8)


_LABEL = """
import json
import numpy as np
from numba.core import event
from frictionlab.contact.rough.clusters import label_clusters
compiled = []
class Listener(event.Listener):
    def on_start(self, ev):
        compiled.append(ev.data["dispatcher"].py_func.__qualname__)
    def on_end(self, ev):
        pass
mask = np.random.default_rng(0).random((64, 64)) < 0.4
with event.install_listener("numba:compile", Listener()):
    n = label_clusters(mask, periodic=True)[0] + label_clusters(mask, connectivity=8)[0]
print(json.dumps({"compiled": compiled, "n": n}))
"""


def test_a_second_process_loads_the_kernel_from_the_cache(tmp_path):
    env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path),
           "PYTHONPATH": os.pathsep.join([_SRC, os.environ.get("PYTHONPATH", "")])}
    runs = []
    for _ in range(2):
        proc = subprocess.run([sys.executable, "-c", _LABEL], env=env, capture_output=True, text=True, timeout=300)
        assert proc.returncode == 0, proc.stderr
        runs.append(json.loads(proc.stdout.strip().splitlines()[-1]))
    assert "_nb_label" in runs[0]["compiled"]
    assert runs[1]["compiled"] == [] and runs[1]["n"] == runs[0]["n"]
