"""Contact-patch geometry of the LuGre beam-spring network (grid, load, neighbours).

The contact patch P of a soft hemisphere on a rigid flat is sampled by a square grid of
pitch ``a``; a beam sits at every grid point where the fitted normal pressure is positive
(beam-network paper, doi:10.1115/1.4042247, Sec. 2.1 and Fig. 7).

Functions here are plain numpy; the time loops live in :mod:`.lbnm` and :mod:`.mlbnm`.
"""

from __future__ import annotations

from dataclasses import dataclass, replace

import numpy as np
from numpy.typing import NDArray

from ...core.errors import ParameterError

__all__ = ["load_polynomial", "PatchGeometry", "build_patch", "LOAD_DISTRIBUTIONS", "redistribute_load"]

#: how the total normal load is shared among the beams (``BeamNetworkParams.load_distribution``)
LOAD_DISTRIBUTIONS = ("fig7", "column_mean", "uniform")

FloatArray = NDArray[np.float64]


def load_polynomial(x_mm: FloatArray, y_mm: FloatArray, p0: float, p2: float, p22: float, p4: float) -> FloatArray:
    r"""Fitted normal-pressure polynomial of the paper's Fig. 7.

    .. math:: f(x, y) = p_0 + p_2 x^2 + p_2 y^2 + p_4 x^4 + p_{22} x^2 y^2 + p_4 y^4

    Parameters
    ----------
    x_mm, y_mm : array
        Position in the contact plane [mm].
    p0, p2, p22, p4 : float
        Coefficients [MPa], [MPa/mm^2], [MPa/mm^4], [MPa/mm^4].

    Returns
    -------
    array
        Pressure [MPa] (= N/mm^2); negative outside the contact contour.

    Notes
    -----
    The paper prints the coefficients without units; mm and MPa are inferred (Fig. 7's fit):
    with them the integral of the positive part is 79.4 N, close to the 88 N load.
    """
    x2 = np.asarray(x_mm, dtype=float) ** 2
    y2 = np.asarray(y_mm, dtype=float) ** 2
    return p0 + p2 * (x2 + y2) + p4 * (x2 * x2 + y2 * y2) + p22 * x2 * y2


@dataclass(frozen=True)
class PatchGeometry:
    """Beams of the contact patch and their connectivity.

    Attributes
    ----------
    x, y : (N,) arrays
        Beam centres [m] (grid origin at the patch centre).
    normal_force : (N,) array
        Per-beam normal load f_z^i [N], summing to the total load.
    raw_load : float
        Sum of the unscaled polynomial loads f(x_i, y_i) a^2 [N] (before rescaling).
    pairs : (P, 2) int array
        Each neighbour pair (i, j), i < j, stored once (8-neighbourhood).
    rest_length : (P,) array
        Rest length a or sqrt(2) a of each pair [m] (eq. 6).
    column : (N,) int array
        Column index I (0 .. n_I - 1) of each beam (beams with the same x).
    column_x : (n_I,) array
        x of each column [m].
    column_count : (n_I,) int array
        Number of beams N_I per column.
    """

    a: float
    x: FloatArray
    y: FloatArray
    normal_force: FloatArray
    raw_load: float
    pairs: NDArray[np.int64]
    rest_length: FloatArray
    column: NDArray[np.int64]
    column_x: FloatArray
    column_count: NDArray[np.int64]

    @property
    def n_beams(self) -> int:
        return int(self.x.size)

    @property
    def n_columns(self) -> int:
        return int(self.column_x.size)

    def column_normal_force(self) -> FloatArray:
        """f_z^I = sum of f_z^i over each column [N]."""
        return np.bincount(self.column, weights=self.normal_force, minlength=self.n_columns)

    def neighbour_counts(self) -> NDArray[np.int64]:
        """Number of neighbours of every beam."""
        return np.bincount(self.pairs.ravel(), minlength=self.n_beams)


def build_patch(a: float, normal_load: float, p0: float, p2: float, p22: float, p4: float,
                max_radius: float = 0.05) -> PatchGeometry:
    """Grid the patch where the load polynomial is positive and distribute the load.

    Parameters
    ----------
    a : float
        Grid pitch = beam side [m].
    normal_load : float
        Total normal load F_z [N]; per-beam loads f(x_i, y_i) a^2 are rescaled to sum to it.
    p0, p2, p22, p4 : float
        Load-polynomial coefficients (MPa and mm, see :func:`load_polynomial`).
    max_radius : float
        Search radius of the grid [m]; the patch must lie inside it.

    Returns
    -------
    PatchGeometry

    Raises
    ------
    ParameterError
        When the polynomial has no positive region on the grid (``p0``), or when the grid
        pitch ``a`` is larger than the patch (fewer than one beam).

    Notes
    -----
    The patch is the star-shaped region around the origin where f > 0 along every ray (the
    quartic turns positive again just outside the contact contour, which is excluded). The paper does not
    state the grid origin; a grid centred on the load peak is used (our choice), which gives
    N = 69 beams in 9 columns for a = 2 mm.
    """
    if a <= 0:
        raise ParameterError(f"beam_network.a = {a:g} m must be positive")
    n = int(np.floor(max_radius / a))
    idx = np.arange(-n, n + 1)
    P, Q = np.meshgrid(idx, idx, indexing="ij")
    xm, ym = P * a * 1e3, Q * a * 1e3
    f = load_polynomial(xm, ym, p0, p2, p22, p4)
    if f[n, n] <= 0:
        raise ParameterError(
            f"beam_network.p0 = {p0:g}: the load polynomial is not positive at the patch centre, "
            "so there is no contact patch (need p0 > 0)")
    # star-shaped patch: keep a grid point when f > 0 on the whole segment from the centre to
    # it. (The quartic dips only slightly below zero at r ~ 9.1-9.7 mm and is positive again
    # outside, so a flood fill on a 2 mm grid would leak across the thin negative ring.)
    # along the ray of direction (c, s): f = p0 + p2 R + q R^2 with R = r^2 and
    # q = p4 (c^4 + s^4) + p22 c^2 s^2; the patch edge is the smallest positive root R1.
    r2 = xm**2 + ym**2
    with np.errstate(invalid="ignore", divide="ignore"):
        c2 = np.where(r2 > 0, xm**2 / np.where(r2 > 0, r2, 1.0), 1.0)
    q = p4 * (c2**2 + (1 - c2) ** 2) + p22 * c2 * (1 - c2)
    disc = p2 * p2 - 4 * q * p0
    roots = []
    for sign in (-1.0, 1.0):
        with np.errstate(invalid="ignore", divide="ignore"):
            root = np.where(np.abs(q) > 1e-300, (-p2 + sign * np.sqrt(np.maximum(disc, 0.0))) / (2 * q),
                            -p0 / p2 if p2 != 0 else np.inf)
        root = np.where((disc >= 0) & (root > 0), root, np.inf)
        roots.append(root)
    edge = np.minimum(roots[0], roots[1])
    keep = (r2 < edge) & (f > 0)
    if keep[0, :].any() or keep[-1, :].any() or keep[:, 0].any() or keep[:, -1].any():
        raise ParameterError(
            "beam_network load polynomial: the positive region reaches the search radius "
            f"{max_radius:g} m; the coefficients (p2, p4, p22) do not describe a bounded patch")
    ii, jj = np.nonzero(keep)
    if ii.size < 2:
        raise ParameterError(
            f"beam_network.a = {a:g} m is larger than the contact patch (only {ii.size} beam fits); "
            "use a smaller pitch")
    x = idx[ii] * a
    y = idx[jj] * a
    raw = np.maximum(f[ii, jj], 0.0) * (a * 1e3) ** 2  # MPa * mm^2 = N
    raw_total = float(raw.sum())
    fz = raw * (normal_load / raw_total)
    # neighbour pairs (8-neighbourhood), each once
    lookup = -np.ones_like(P)
    lookup[ii, jj] = np.arange(ii.size)
    pairs, rest = [], []
    for k in range(ii.size):
        for di, dj in ((1, -1), (1, 0), (1, 1), (0, 1)):
            i2, j2 = ii[k] + di, jj[k] + dj
            if 0 <= i2 < P.shape[0] and 0 <= j2 < P.shape[1] and lookup[i2, j2] >= 0:
                pairs.append((k, int(lookup[i2, j2])))
                rest.append(a * (np.sqrt(2.0) if di != 0 and dj != 0 else 1.0))
    pairs_arr = np.array(pairs, dtype=np.int64).reshape(-1, 2)
    pairs_arr.sort(axis=1)
    cols = np.unique(ii)
    column = np.searchsorted(cols, ii).astype(np.int64)
    return PatchGeometry(
        a=float(a), x=x.astype(float), y=y.astype(float), normal_force=fz, raw_load=raw_total,
        pairs=pairs_arr, rest_length=np.array(rest, dtype=float), column=column,
        column_x=(idx[cols] * a).astype(float),
        column_count=np.bincount(column).astype(np.int64),
    )


def redistribute_load(geo: PatchGeometry, how: str) -> PatchGeometry:
    """``geo`` with its per-beam normal loads shared out as ``how`` says (same total, same columns).

    ``"fig7"``: the Fig. 7 load map of :func:`build_patch` (``geo`` itself); ``"column_mean"``:
    every beam carries the mean load of its column, so each column keeps its summed load f_z^I
    (what the MLBNM's column lumping of Sec. 3.1, eq. (10), keeps of the map); ``"uniform"``:
    every beam carries F_z / N.
    """
    if how == "fig7":
        return geo
    fz = geo.normal_force
    if how == "column_mean":
        new = (np.bincount(geo.column, weights=fz) / np.bincount(geo.column))[geo.column]
    elif how == "uniform":
        new = np.full(geo.n_beams, fz.sum() / geo.n_beams)
    else:
        raise ParameterError(f"load distribution {how!r} is not one of {', '.join(LOAD_DISTRIBUTIONS)}")
    return replace(geo, normal_force=new)
