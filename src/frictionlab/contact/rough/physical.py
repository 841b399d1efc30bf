r"""Elastic contact of a rigid rough surface on an elastic half-space, in SI units, in one call.

:func:`solve_contact` maps a height map [m] and the elastic constants onto the FFT Boussinesq
operator (:class:`~frictionlab.contact.rough.elasticity.BoussinesqFFT`) and the
Polonsky-Keer constrained conjugate gradient (:func:`~frictionlab.contact.rough.solver.pk_solve`;
Polonsky & Keer, Wear 231 (1999) 206) and returns pressures, gap, contact area and clusters.

Units: with the pixel size :math:`a` as length unit :math:`L^* = a` and
:math:`F^* = \pi E^* a^2`, :math:`E^* = E/(1-\nu^2)`, the operator's point kernel
:math:`1/\bar r` is Boussinesq's surface displacement :math:`u = F/(\pi E^* r)` (Johnson,
Contact Mechanics (1985), eq. 3.19b), the same scaling as Hulikal et al.'s
:math:`F^* = 2\pi G L^{*2}/(1-\nu)` (eq. 6) since :math:`E^* = 2G/(1-\nu)`. A pixel's
self-compliance is the operator's regularised self term (``self_coef``, 3.8 as in the paper).

Two paths (``use_numba``): the compiled solver (numba kernels, cluster preconditioner) and the
array path (plain projected CG in numpy, no numba loaded), the default for one-shot solves up to
:data:`ARRAY_PATH_MAX_POINTS` grid points x loads, where numba's start-up cost exceeds what the
compiled solver saves; both give the same contact set and forces within ``tol``.

Sign conventions: ``heights`` are those of the rigid surface pressing into the flat elastic
body (larger = touches first); the gap is :math:`g = u - h + d \ge 0` with the rigid-body
separation :math:`d`; ``approach`` is :math:`\max h - d`, the interpenetration of the
undeformed surfaces [m] (the Hertz :math:`\delta` for a sphere).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

from ...core.errors import ParameterError
from .clusters import label_clusters
from .elasticity import BoussinesqFFT, StepOperator
from .solver import pk_solve

__all__ = ["ContactSolution", "solve_contact", "periodic_clusters", "ARRAY_PATH_MAX_POINTS"]

#: largest grid points x loads that ``solve_contact`` solves on the array path by default (no
#: numba): a one-shot solve up to 512^2 is faster end to end without numba's start-up cost
#: (``frictionlab/benchmarks/bench_fresh.py contact``), a larger one gains more from the compiled solver
ARRAY_PATH_MAX_POINTS = 512 * 512


@dataclass(frozen=True)
class ContactSolution:
    """One elastic contact solution (SI units).

    Attributes
    ----------
    load : float
        Total normal force [N].
    pressure : ndarray
        Contact pressure on each pixel [Pa] (zero out of contact).
    gap : ndarray
        Gap between the deformed elastic surface and the rigid surface [m] (zero in contact).
    displacement : ndarray
        Elastic surface displacement into the body [m] (periodic: about its mean).
    approach : float
        Interpenetration of the undeformed surfaces, ``max(heights) - d`` [m].
    contact_area : float
        Real contact area [m^2] (pixels in contact times the pixel area).
    contact_fraction : float
        Real over nominal area [1].
    n_clusters : int
        Connected contact patches (4-connected; across the edges for a periodic map).
    cluster_labels : ndarray of int
        Patch label of each pixel (0 out of contact, 1..n_clusters).
    nominal_pressure : float
        Load over nominal area [Pa].
    iterations : int
        Polonsky-Keer iterations.
    use_numba : bool
        Whether the compiled path solved it (``solve_contact``'s ``use_numba``).
    """

    load: float
    pressure: NDArray[np.float64]
    gap: NDArray[np.float64]
    displacement: NDArray[np.float64]
    approach: float
    contact_area: float
    contact_fraction: float
    n_clusters: int
    cluster_labels: NDArray[np.int64]
    nominal_pressure: float
    iterations: int
    use_numba: bool = True


def periodic_clusters(mask: NDArray[np.bool_], periodic: bool = True, *,
                      use_numba: bool = True) -> tuple[int, NDArray[np.int64]]:
    """4-connected patches of ``mask``; with ``periodic`` a patch cut by an edge counts once
    (:func:`~frictionlab.contact.rough.clusters.label_clusters`)."""
    return label_clusters(mask, periodic=periodic, use_numba=use_numba)


def solve_contact(heights: NDArray[np.float64], pixel_size: float, *, youngs_modulus: float, poisson_ratio: float,
                  load: float | Sequence[float] | None = None, pressure: float | Sequence[float] | None = None,
                  periodic: bool = True, tol: float = 1e-10, max_iter: int = 5000,
                  self_coef: float | str = 3.8,
                  use_numba: bool | None = None) -> ContactSolution | list[ContactSolution]:
    r"""Press a rigid rough surface onto an elastic half-space; pressures, gap, area, clusters.

    Parameters
    ----------
    heights : ndarray (nx, ny)
        Rigid surface heights [m] on a square pixel grid.
    pixel_size : float
        Pixel spacing [m].
    youngs_modulus, poisson_ratio : float
        :math:`E` [Pa] and :math:`\nu` of the elastic body (:math:`E^* = E/(1-\nu^2)`); for two
        elastic bodies pass any :math:`E, \nu` with the combined :math:`E^*`.
    load : float or sequence of float
        Total normal force [N] (> 0), or several (solved in turn, each warm-started).
    pressure : float or sequence of float
        Nominal pressure [Pa] instead of ``load`` (load = pressure x nx ny a^2).
    periodic : bool
        Periodic map (spectral kernel) or an isolated patch (zero-padded kernel).
    tol, max_iter : float, int
        Polonsky-Keer stopping tolerance (relative change of the pressures) and iteration cap
        (reaching it raises :class:`~frictionlab.core.errors.IntegrationError`).
    self_coef : float or "square"
        Self term of the pixel compliance (see :class:`BoussinesqFFT`).
    use_numba : bool, optional
        True: the compiled solver (:func:`pk_solve` with its numba kernels and cluster
        preconditioner) and cluster labelling. False: the array path of :func:`pk_solve`
        (``use_numba=False``: plain projected CG, about twice the iterations) and array
        labelling; numba is not imported. Default (None): the array path when the grid points
        times the number of loads are at most :data:`ARRAY_PATH_MAX_POINTS` (one 512^2 load), the
        compiled path otherwise; ``ContactSolution.use_numba`` says which ran. Both paths solve
        the same problem to ``tol`` (their iterates differ: pressures agree to ``tol`` in
        relative L1; on the tested surfaces the contact sets and clusters are the same,
        ``tests/unit/test_rough_physical.py``). Why: a process that runs numba pays ~0.7 s
        (load 3; ~1 s at load 6) for its import, its first call (which imports
        ``scipy.linalg``), loading the cached kernels and its exit; the compiled solve saves
        0 s at 256^2, 0.3 s at 512^2 and 1.4 s at 1024^2 per load (a warm process, shared
        2-core machine). A process that solves many problems of 512^2 or more should pass
        ``use_numba=True``.

    Returns
    -------
    ContactSolution, or a list of them (one per load) when a sequence is given.
    """
    h = np.asarray(heights, dtype=float)
    if h.ndim != 2 or min(h.shape) < 2 or not np.all(np.isfinite(h)):
        raise ParameterError(f"heights must be a finite 2-D array of at least 2 x 2 pixels, got shape {h.shape}")
    if not (math.isfinite(pixel_size) and pixel_size > 0):
        raise ParameterError(f"pixel_size = {pixel_size!r} m must be positive")
    if not (math.isfinite(youngs_modulus) and youngs_modulus > 0):
        raise ParameterError(f"youngs_modulus = {youngs_modulus!r} Pa must be positive")
    if not (-1.0 < poisson_ratio <= 0.5):
        raise ParameterError(f"poisson_ratio = {poisson_ratio!r} must lie in (-1, 0.5]")
    if (load is None) == (pressure is None):
        raise ParameterError("give exactly one of load [N] and pressure [Pa]")
    nominal_area = h.size * pixel_size**2
    given = load if load is not None else pressure
    many = not np.isscalar(given)
    values = np.atleast_1d(np.asarray(given, dtype=float))
    if values.size == 0 or not np.all(np.isfinite(values) & (values > 0)):
        raise ParameterError(f"{'load' if load is not None else 'pressure'} must be positive and finite, got {given!r}")
    loads = values if load is not None else values * nominal_area
    e_star = youngs_modulus / (1.0 - poisson_ratio**2)
    f_star = math.pi * e_star * pixel_size**2
    g = (h - h.max()) / pixel_size  # dimensionless heights, top at 0 (keeps d of order the approach)
    op = StepOperator(BoussinesqFFT(h.shape[0], h.shape[1], 1.0, self_coef, periodic=periodic))
    compiled = h.size * len(loads) > ARRAY_PATH_MAX_POINTS if use_numba is None else bool(use_numba)
    out: list[ContactSolution] = []
    p_prev = None
    for W in loads:
        res = pk_solve(op, g, float(W) / f_star, p_prev, tol=tol, max_iter=max_iter, use_numba=compiled)
        p = np.asarray(res.p)
        p_prev = p
        u = np.asarray(op.apply(p))
        gap = np.maximum(u - g + res.d, 0.0) * pixel_size
        gap[p > 0] = 0.0
        mask = p > 0
        n_cl, labels = periodic_clusters(mask, periodic, use_numba=compiled)
        out.append(ContactSolution(
            load=float(W), pressure=p * f_star / pixel_size**2, gap=gap, displacement=u * pixel_size,
            approach=float(-res.d * pixel_size), contact_area=float(mask.sum() * pixel_size**2),
            contact_fraction=float(mask.mean()), n_clusters=n_cl, cluster_labels=labels,
            nominal_pressure=float(W) / nominal_area, iterations=int(res.iterations), use_numba=compiled))
    return out if many else out[0]
