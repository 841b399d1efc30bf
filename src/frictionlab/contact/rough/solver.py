r"""Per-step contact solvers (eqs. 16-17).

Every time step of the asperity ensemble is the linear complementarity problem (eqs. 16-17)

.. math:: p\ge0,\quad \mathrm{gap} = Mp - g + d\,\mathbf 1 \ge 0,\quad p\odot\mathrm{gap} = 0,
          \quad \mathbf 1^\top p = W,

for the element contact forces :math:`p_i = -F_i\ge0`, with an SPD step operator :math:`M`
(``cK`` viscoelastic, ``K + diag`` viscoplastic, diagonal in the mean field), the known field
``g`` (rigid heights + undeformed lengths + history) and the total load ``W``. The dilatation
``d`` is the Lagrange multiplier of the load constraint. It is the KKT system of
:math:`\min_{p\ge0,\,\sum p = W} \tfrac12 p^\top Mp - g^\top p`, so the solution is unique.

Solvers
-------
* :func:`pk_solve` -- Polonsky & Keer (1999) constrained conjugate gradient, load controlled,
  warm started (default).
* :func:`pk_solve_disp` -- displacement-controlled variant (``d`` given; Hertz check).
* :func:`meanfield_solve` -- exact O(N log N) sorted-heights solve for a diagonal ``M``.
* :func:`alg1_solve` -- the paper's Algorithm 1 (fixed contact set, two masked CG solves,
  contact-set update), in the lagged ``"alg1"`` or the iterated ``"alg1_consistent"`` form.

All functions take and return arrays of the operator's backend (numpy by default).

Modules
-------
This module is the entry of the load-controlled solve (:func:`pk_solve`: start, dispatch,
dilatation and residuals) and re-exports the others; the two implementations of the PK
iteration live apart: :mod:`.solver_compiled` (fused numba kernels on numpy float64, the
cluster preconditioner, :func:`extrapolated_start`) and :mod:`.solver_array` (any array
backend; also :func:`pk_solve_disp` and :func:`alg1_solve`). :mod:`.solver_common` holds
:class:`SolveResult`, :func:`meanfield_solve` and :func:`check_solution`.

Cost (issue 17)
---------------
:func:`pk_solve` uses one operator product per iteration, the search direction's
:math:`w = Mt` (Polonsky & Keer 1999, whose gap update reuses it): the product of the new
iterate is carried as :math:`s(Mp - \tau w) + M c`, where the projection's departure ``c``
from the plain step (elements clipped at zero or re-activated) touches few elements and is
added by direct summation of kernel columns. In the first iterations of a solve, when more
elements change than a product costs, and for the product of a cold start, ``M c`` is added
with the kernel truncated to a window (a quarter of a product's cost); one exact product
follows as soon as the contact set settles, and always before convergence is accepted, so
the final iterate, gap and dilatation are exact. Later large changes take an exact product,
and one is taken every ``refresh`` iterations. The numpy path allocates its vectors once per
solve and its FFTs write into preallocated half-spectrum buffers (``numpy.fft`` with
``out=``; one thread). Cold starts begin from the exact mean-field solution with 4x the
diagonal compliance. ``SolveResult.products`` counts the products; ``frictionlab bench
rough_contact`` prints products per iteration.

Preconditioning: on numpy Boussinesq operators the CG direction is preconditioned by the
exact inverse of :math:`M` on each contact cluster (block Jacobi,
:mod:`~frictionlab.contact.rough.precond`; condition number 10-13 -> 1.2-1.7 at 100 MPa), with
the load constraint kept in the preconditioner's metric. The preconditioner is kept between
solves of one operator (same step factor ``c``; sliding and hold steps): a solve starts from
the blocks of the previous one's final contact set and the rebuilds copy unchanged clusters
(512^2 steady sliding: 2.2 factorisations per step instead of 3.2, same iterations).
:attr:`SolveResult.Mp` hands the final product to the caller, which spares the viscoelastic
history its own product (:class:`~frictionlab.contact.rough.model.RoughContactSim`); the next
step's extrapolated warm start and its product come from the last two products
(:func:`extrapolated_start`, passed as ``Mp0``), so a steady sliding step costs one product
per iteration (128^2-256^2) or one more (512^2, where the clipped elements' correction is
windowed and resynchronised). Same solutions (contact sets
identical, forces within the tolerance); 2-2.5x fewer iterations for cold solves and 2.5-3x
fewer per sliding step (128^2-256^2: 17-20 -> 6-7 at tol 1e-6). A re-activated element takes
the step :math:`-\tau r_i/M_{ii}` (the preconditioner of an isolated element).
``SolveResult.info`` reports ``preconditioner_builds`` and ``approximate_corrections``.
A cold solve (no warm start) changes its contact set in most iterations: its builds cut the
clusters into blocks small enough that one build costs at most 0.4 of a product
(:func:`_cold_block`) and rebuild on a 20 % drift of the set (5 % once it settled); with the
sliding blocks (128-256 elements) a 512^2 cold solve at 3.5 % contact spent 75 % of its time in
24 builds and ran 3x slower than without the preconditioner (issue 32; ``frictionlab bench
rough_contact --peers``). The preconditioned iteration's vector work runs on the list of contact elements (1-10 % of
the grid at 100 MPa) and of the free elements with a negative residual; the grid is passed
once for the residual and once for the carried product per iteration (the masked grid loops
took about 15 % of a 512^2 sliding step; 60 % of that now); same iterates bit for bit.

Tolerances
----------
``tol`` bounds the relative L1 change of the forces per iteration. The contact set (hence
area and :math:`\mu`) settles long before the forces: a 256^2 static solve has the same
contact set from tol 1e-12 to 1e-4 (dilatation within 3e-11 at 1e-8, 2e-7 at 1e-5); 128^2
ageing and 128^2 sliding (80 steps) record identical :math:`\mu` down to tol 1e-5. The model
defaults (:class:`~frictionlab.contact.rough.model.RoughContact`) are therefore ``tol = 1e-8``
for static solves and holds and ``tol_sliding = 1e-6`` for sliding steps; the function default
here stays 1e-10 for direct use. Studies: ``frictionlab bench rough_contact`` / ``rough_sliding``
("tolerance study" rows).

References
----------
M. Polonsky, L. M. Keer, "A numerical method for solving rough contact problems based on the
multi-level multi-summation and conjugate gradient techniques", Wear 231 (1999) 206-219.
Hulikal, Lapusta & Bhattacharya, Algorithm 1.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...core.errors import ParameterError
from .precond import supports_preconditioner
from .solver_array import alg1_solve, pk_iterate_array, pk_solve_disp
from .solver_common import SolveResult, _fail, check_solution, meanfield_solve
from .solver_compiled import _nb_finish, _nb_meanfield_level, extrapolated_start, pk_iterate_compiled

__all__ = ["SolveResult", "pk_solve", "pk_solve_disp", "meanfield_solve", "alg1_solve", "check_solution",
           "extrapolated_start"]


def pk_solve(op: Any, g: Any, W: float, p0: Any = None, *, tol: float = 1e-10, max_iter: int = 2000,
             step: int | None = None, time: float | None = None, raise_on_fail: bool = True,
             refresh: int = 50, use_numba: bool = True, precondition: bool | None = None,
             Mp0: Any = None, Mp0_exact: bool = True) -> SolveResult:
    r"""Load-controlled Polonsky-Keer constrained CG (Polonsky & Keer 1999).

    Parameters
    ----------
    op : operator with ``apply(x)`` and ``be`` (backend)
        SPD step operator :math:`M` [L*/F*].
    g : array (nx, ny)
        Known field of the step [L*]: undeformed lengths + rigid heights (possibly shifted for
        sliding) + history / plastic terms.
    W : float
        Total compressive load :math:`W = -F_N > 0` [F*].
    p0 : array, optional
        Warm start (previous step's forces); rescaled to sum ``W``. Uniform ``W/N`` if None
        or all zero.
    tol : float
        Stop when :math:`\sum|p-p_{old}|/W <` ``tol`` (1e-10 fp64; >= 1e-6 fp32).
    max_iter : int
        Iteration cap; reaching it raises :class:`IntegrationError` naming ``step``/``time``
        (unless ``raise_on_fail=False``).
    refresh : int
        Recompute :math:`Mp` from scratch at least every ``refresh`` iterations.
    use_numba : bool
        True (default): on numpy float64 arrays, the compiled iteration (fused numba kernels,
        preconditioner). False: the generic array iteration (any backend), which imports no numba
        (a fresh process saves numba's ~0.7 s start-up and exit; ``bench_fresh.py``) and takes about
        twice the iterations; same solution to ``tol``.
    precondition : bool, optional
        Contact-cluster block-Jacobi preconditioner (see *Cost* in the module notes). Default:
        on for numpy Boussinesq operators (the only ones it supports; ``True`` with another
        operator raises :class:`ParameterError`), off otherwise.
    Mp0 : array, optional
        The product :math:`M p_0` of the warm start ``p0`` (as given, before its rescaling to
        the load), when the caller has it (:func:`extrapolated_start`): the solve then starts
        without a product of its own. Used on the compiled numpy path only.
    Mp0_exact : bool
        False when ``Mp0`` is approximate (windowed corrections): an exact product then
        follows before convergence is accepted, as after a cold start.

    Returns
    -------
    SolveResult

    Notes
    -----
    The product :math:`Mp` is carried along (numpy path: see *Cost* in the module notes; the
    generic array path forms :math:`M p_{new} = s(Mp - \tau Mt)` when no element was clipped
    or re-activated and recomputes it otherwise). The final gap is exact.
    """
    if not (W > 0 and math.isfinite(W)):
        raise ParameterError(f"total load W = {W!r} must be positive (compressive F_N = -W < 0)")
    be = op.be
    xp = be.xp
    p = None
    Mp_init = None
    if p0 is not None:
        p = be.clip0(be.asarray(p0, dtype=g.dtype))
        s0 = be.scalar(xp.sum(p))
        p = p * (W / s0) if s0 > 0 else None
        if p is not None and Mp0 is not None:
            Mp_init = (np.asarray(Mp0, dtype=np.float64), W / s0)  # scaled into the solver's buffer
    p0_cold = p is None
    compiled = be.name == "numpy" and g.dtype == np.float64 and use_numba
    if p is None:
        p = _cold_start(op, g, W, compiled)
    if precondition and not (compiled and supports_preconditioner(op)):
        raise ParameterError(f"precondition=True needs a numpy float64 Boussinesq operator and use_numba=True "
                             f"(got {type(op).__name__}, backend {be.name!r}, use_numba={use_numba})")
    if compiled:
        pc = supports_preconditioner(op) if precondition is None else bool(precondition)
        p, it, products, err, Mp, info = pk_iterate_compiled(op, g, W, p, tol, max_iter, step, time, raise_on_fail,
                                                             refresh, pc, cold=p0_cold, Mp_init=Mp_init,
                                                             init_exact=bool(Mp0_exact))
        res = _finish_pk(op, g, W, p, it, products, err, tol, max_iter, raise_on_fail, step, time, Mp)
        res.info.update(info)
        return res
    p, it, products, err = pk_iterate_array(op, g, W, p, tol=tol, max_iter=max_iter, step=step, time=time,
                                            refresh=refresh)
    return _finish_pk(op, g, W, p, it, products, err, tol, max_iter, raise_on_fail, step, time)


#: compliance factor of the mean-field cold start (see :func:`_cold_start`)
COLD_START_COMPLIANCE = 4.0


def _cold_start(op: Any, g: Any, W: float, compiled: bool = True) -> Any:
    r"""Cold-start iterate: the exact mean-field solution (:func:`meanfield_solve`) for the
    diagonal compliance ``COLD_START_COMPLIANCE * M_ii``.

    The interacting contact set is larger than the mean-field one at the operator's own
    diagonal (neighbours in contact add compliance); a factor 4 gives about the final number of
    contacts at 1-10 % contact, so the first projections clip a few hundred elements instead of
    half the grid (uniform start). Measured at 128^2-256^2 (30 MPa-1 GPa): 5-15 % fewer
    iterations and 10-20 % fewer operator products than the uniform start ``W/N``. ``compiled``:
    the uniform-compliance level by the compiled scan (:func:`_nb_meanfield_level`), else by the
    same sums in numpy (:func:`_meanfield_level`; the same number: the generic path loads no numba)."""
    be = op.be
    diag = op.diagonal() if hasattr(op, "diagonal") else getattr(op, "diag", None)
    if diag is None:
        return be.xp.zeros_like(g) + W / (g.shape[0] * g.shape[1])
    if np.isscalar(diag) and be.name == "numpy":
        # uniform compliance: one sorted copy and the result, no other temporaries
        m = COLD_START_COMPLIANCE * float(diag)
        gs = np.sort(np.asarray(g, dtype=np.float64), axis=None)
        d = _nb_meanfield_level(gs, W, m) if compiled else _meanfield_level(gs, W, m)
        del gs
        p = np.subtract(g, d, dtype=np.float64)
        np.maximum(p, 0.0, out=p)
        p *= W / p.sum()
        return p
    d = be.to_numpy(diag) if not np.isscalar(diag) else float(diag)
    return be.cast_like(meanfield_solve(g, W, COLD_START_COMPLIANCE * np.asarray(d, dtype=float), backend=be).p, g)


def _meanfield_level(gs: np.ndarray, W: float, m: float) -> float:
    """:func:`_nb_meanfield_level` in numpy: the running sum of the largest heights (``cumsum``
    adds them one by one in the scan's order, so ``d_k`` are the compiled loop's numbers) and the
    first ``k`` whose level lies between the ``k``-th and ``(k+1)``-th largest heights."""
    top = gs[::-1]
    dk = (np.cumsum(top) - W * m) / np.arange(1, top.size + 1)
    nxt = np.append(top[1:], -np.inf)
    ok = (dk < top) & (dk >= nxt)
    return float(dk[np.argmax(ok)] if ok.any() else dk[-1])


def _finish_pk(op, g, W, p, it, products, err, tol, max_iter, raise_on_fail, step, time, Mp=None) -> SolveResult:
    """Dilatation, residuals and the result. ``Mp``: the product of the final iterate when the
    iterations carried it exactly (numpy path: recurrences plus exact sparse corrections,
    recomputed every ``refresh`` iterations, so it differs from a fresh product by round-off
    only); otherwise it is computed here."""
    be = op.be
    xp = be.xp
    n_el = g.shape[0] * g.shape[1]
    converged = err < tol
    if not converged and raise_on_fail:
        raise _fail(f"PK did not converge in {max_iter} iterations (error {err:.3g} > tol {tol:.3g}); "
                    "raise max_iter, loosen tol or take a smaller step", step, time)
    if Mp is not None and be.name == "numpy":
        d, gmax, gmin, total = _nb_finish(p.reshape(-1), np.ascontiguousarray(g, dtype=np.float64).reshape(-1),
                                          Mp.reshape(-1))
        return SolveResult(p=p, d=d, iterations=it, products=products, error=err, gap_max_contact=gmax,
                           gap_min_free=gmin, load_error=abs(total - W) / W, converged=converged, Mp=Mp)
    S = p > 0
    nS = be.scalar(xp.sum(S))
    if Mp is None:
        Mp = op.apply(p)
        products += 1
    d = be.scalar(xp.sum(xp.where(S, g - Mp, 0.0))) / nS
    gap = Mp - g + d
    gmax = be.scalar(xp.max(xp.abs(xp.where(S, gap, 0.0))))
    gmin = be.scalar(xp.min(xp.where(S, float("inf"), gap))) if nS < n_el else 0.0
    lerr = abs(be.scalar(xp.sum(p)) - W) / W
    return SolveResult(p=p, d=d, iterations=it, products=products, error=err, gap_max_contact=gmax,
                       gap_min_free=gmin, load_error=lerr, converged=converged)
