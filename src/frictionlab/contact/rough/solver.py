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
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...core.errors import IntegrationError, ParameterError
from ...core.lazy import lazy_njit

__all__ = ["SolveResult", "pk_solve", "pk_solve_disp", "meanfield_solve", "alg1_solve", "check_solution",
           "extrapolated_start"]


@dataclass
class SolveResult:
    r"""Outcome of one contact solve.

    Attributes
    ----------
    p : array
        Element contact forces :math:`p_i=-F_i\ge0` [F*].
    d : float
        Dilatation (nominal separation) [L*].
    iterations : int
        Solver iterations (CG iterations for PK; inner CG iterations summed for Algorithm 1).
    products : int
        Operator products used (FFT products for the Boussinesq operator).
    error : float
        Final convergence measure (relative change of ``p``).
    gap_max_contact : float
        :math:`\max_{p_i>0}|\mathrm{gap}_i|` [L*] (complementarity residual).
    gap_min_free : float
        :math:`\min_{p_i=0}\mathrm{gap}_i` [L*] (negative = interpenetration).
    load_error : float
        :math:`|\sum p - W|/W`.
    converged : bool
    info : dict
        Solver-specific diagnostics (Algorithm 1: set changes, violations).
    Mp : array or None
        The operator product :math:`Mp` of the returned forces when the solver has it (PK on
        numpy: carried through the iterations, exact to round-off); None otherwise. Callers
        reuse it instead of a product of their own (the viscoelastic history of the next step,
        :class:`~frictionlab.contact.rough.model.RoughContactSim`).
    """

    p: Any
    d: float
    iterations: int
    products: int
    error: float
    gap_max_contact: float = 0.0
    gap_min_free: float = 0.0
    load_error: float = 0.0
    converged: bool = True
    info: dict = field(default_factory=dict)
    Mp: Any = field(default=None, repr=False)


def _fail(msg: str, step: int | None, time: float | None) -> IntegrationError:
    where = ""
    if step is not None:
        where = f" at step {step}" + (f" (t = {time:.6g})" if time is not None else "")
    return IntegrationError(f"contact solver{where}: {msg}", time=time, step=step)


def _residuals(op: Any, p: Any, g: Any, d: float, W: float | None) -> tuple[float, float, float, Any]:
    be = op.be
    xp = be.xp
    gap = op.apply(p) - g + d
    S = p > 0
    gmax = be.scalar(xp.max(xp.abs(xp.where(S, gap, 0.0))))
    gmin = be.scalar(xp.min(xp.where(S, float("inf"), gap))) if not bool(be.scalar(xp.all(S))) else 0.0
    lerr = abs(be.scalar(xp.sum(p)) - W) / W if W else 0.0
    return gmax, gmin, lerr, gap


def _pk_project(be: Any, p: Any, tau: float, t: Any, r: Any) -> tuple[Any, Any, int, float]:
    """Polonsky-Keer projection: step ``p - tau t``, clip at zero, re-open elements with a
    negative gap (overlap set O). Returns ``(p_new, p_trial, n_O, delta)`` where ``delta = 0``
    restarts the conjugate directions when O is not empty."""
    xp = be.xp
    p_trial = p - tau * t
    p_new = be.clip0(p_trial)
    O = (p_new == 0) & (r < 0)
    n_O = be.scalar(xp.sum(O))
    if n_O > 0:
        return xp.where(O, p_new - tau * r, p_new), p_trial, n_O, 0.0
    return p_new, p_trial, n_O, 1.0


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
        p, it, products, err, Mp, info = _pk_numba(op, g, W, p, tol, max_iter, step, time, raise_on_fail, refresh, pc,
                                                   cold=p0_cold, Mp_init=Mp_init, init_exact=bool(Mp0_exact))
        res = _finish_pk(op, g, W, p, it, products, err, tol, max_iter, raise_on_fail, step, time, Mp)
        res.info.update(info)
        return res
    products = 0
    Mp = op.apply(p)
    products += 1
    t = xp.zeros_like(g)
    delta = 0.0
    G_old = 1.0
    err = math.inf
    it = 0
    since_refresh = 0
    for it in range(1, max_iter + 1):
        r = Mp - g
        S = p > 0
        nS = be.scalar(xp.sum(S))
        if nS == 0:
            raise _fail("no element carries load (all p = 0); check the load and the surface", step, time)
        rbar = be.scalar(xp.sum(xp.where(S, r, 0.0))) / nS
        r = r - rbar
        rS = xp.where(S, r, 0.0)
        G = be.scalar(xp.sum(rS * rS))
        t = xp.where(S, r + (delta * G / G_old) * t, 0.0)
        G_old = G if G > 0 else 1.0
        w_raw = op.apply(t)
        products += 1
        wbar = be.scalar(xp.sum(xp.where(S, w_raw, 0.0))) / nS
        denom = be.scalar(xp.sum(xp.where(S, (w_raw - wbar) * t, 0.0)))
        if denom == 0.0 or G == 0.0:
            err = 0.0
            break
        tau = be.scalar(xp.sum(rS * t)) / denom
        p_new, p_trial, n_O, delta = _pk_project(be, p, tau, t, r)
        clipped = p_trial < 0
        total = be.scalar(xp.sum(p_new))
        if not math.isfinite(total) or total <= 0:
            raise _fail(f"iterate became invalid (sum p = {total!r}) at iteration {it}; "
                        "the operator may not be positive definite", step, time)
        scale = W / total
        p_new = p_new * scale
        err = be.scalar(xp.sum(xp.abs(p_new - p))) / W
        exact_update = n_O == 0 and not bool(be.scalar(xp.any(clipped & (p > 0))))
        p = p_new
        since_refresh += 1
        if exact_update and since_refresh < refresh:
            Mp = scale * (Mp - tau * w_raw)
        else:
            Mp = op.apply(p)
            products += 1
            since_refresh = 0
        if not math.isfinite(err):
            raise _fail(f"NaN in the iterate at iteration {it}", step, time)
        if err < tol:
            break
    return _finish_pk(op, g, W, p, it, products, err, tol, max_iter, raise_on_fail, step, time)


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


def pk_solve_disp(op: Any, g: Any, d: float, p0: Any = None, *, tol: float = 1e-10, max_iter: int = 2000,
                  step: int | None = None, time: float | None = None) -> SolveResult:
    r"""Displacement-controlled projected CG (``d`` prescribed; the Hertz check of Sect. 3).

    Minimises :math:`\tfrac12p^\top Mp - (g-d)^\top p` over :math:`p\ge0`; the total force
    :math:`\sum p` is an output. Convergence: :math:`\sum|p-p_{old}|/\sum p <` ``tol``.
    """
    be = op.be
    xp = be.xp
    p = xp.zeros_like(g) if p0 is None else be.clip0(be.asarray(p0, dtype=g.dtype))
    if be.scalar(xp.sum(p)) == 0:
        # start from the rigid interpenetration
        p = be.clip0(g - d) / op.base.diag if hasattr(op, "base") else be.clip0(g - d)
    if be.scalar(xp.sum(p)) == 0:
        return SolveResult(p=p, d=d, iterations=0, products=0, error=0.0)
    t = xp.zeros_like(g)
    delta, G_old, err, products = 0.0, 1.0, math.inf, 0
    Mp = op.apply(p)
    products += 1
    it = 0
    for it in range(1, max_iter + 1):
        r = Mp - g + d
        S = p > 0
        rS = xp.where(S, r, 0.0)
        G = be.scalar(xp.sum(rS * rS))
        if G == 0.0:
            err = 0.0
            break
        t = xp.where(S, r + (delta * G / G_old) * t, 0.0)
        G_old = G
        w = op.apply(t)
        products += 1
        tau = be.scalar(xp.sum(rS * t)) / be.scalar(xp.sum(xp.where(S, w * t, 0.0)))
        p_old = p
        p, p_trial, n_O, delta = _pk_project(be, p, tau, t, r)
        clipped = bool(be.scalar(xp.any((p_trial < 0) & S)))
        total = be.scalar(xp.sum(p))
        err = be.scalar(xp.sum(xp.abs(p - p_old))) / total if total > 0 else 0.0
        if not math.isfinite(err):
            raise _fail(f"NaN in the iterate at iteration {it}", step, time)
        if err < tol:
            break
        # carry M p (one product per iteration) unless the projection changed the iterate
        if clipped or n_O > 0 or tau <= 0 or err < min(1e3 * tol, 1e-8):
            Mp = op.apply(p)
            products += 1
            if tau <= 0:
                delta = 0.0
        else:
            Mp = Mp - tau * w
    if err >= tol:
        raise _fail(f"displacement-controlled PK did not converge in {max_iter} iterations "
                    f"(error {err:.3g})", step, time)
    gap = op.apply(p) - g + d
    S = p > 0
    gmax = be.scalar(xp.max(xp.abs(xp.where(S, gap, 0.0))))
    gmin = be.scalar(xp.min(xp.where(S, float("inf"), gap)))
    return SolveResult(p=p, d=d, iterations=it, products=products + 1, error=err, gap_max_contact=gmax,
                       gap_min_free=gmin)


def meanfield_solve(g: Any, W: float, mdiag: Any, *, backend: Any = None) -> SolveResult:
    r"""Exact sorted-heights solve for a diagonal operator (the mean field of eq. 5).

    With :math:`M = \mathrm{diag}(m)`, :math:`p_i = \max(0, g_i - d)/m_i` and ``d`` solves the
    monotone piecewise-linear equation :math:`\sum_i \max(0, g_i-d)/m_i = W`. Sorting ``g`` in
    descending order, for ``k`` contacts
    :math:`d_k = (\sum_{j\le k} g_{(j)}/m_{(j)} - W)/\sum_{j\le k}1/m_{(j)}`, and the answer is the
    unique ``k`` with :math:`g_{(k+1)}\le d_k < g_{(k)}`. Cost O(N log N).
    """
    if not (W > 0 and math.isfinite(W)):
        raise ParameterError(f"total load W = {W!r} must be positive (compressive F_N = -W < 0)")
    from .backend import get_backend

    be = get_backend(backend)
    gn = be.to_numpy(g).astype(np.float64)
    shape = gn.shape
    gf = gn.ravel()
    m = np.broadcast_to(np.asarray(be.to_numpy(mdiag) if not np.isscalar(mdiag) else mdiag, dtype=float),
                        shape).ravel()
    order = np.argsort(-gf, kind="stable")
    gs, ms = gf[order], m[order]
    a = np.cumsum(gs / ms)
    b = np.cumsum(1.0 / ms)
    dk = (a - W) / b
    nxt = np.append(gs[1:], -np.inf)
    ok = (dk < gs) & (dk >= nxt)
    k = int(np.argmax(ok)) if ok.any() else len(gs) - 1
    d = float(dk[k])
    p = np.maximum(gf - d, 0.0) / m
    p = p.reshape(shape)
    # exact load: remove the round-off in sum p
    p *= W / p.sum()
    return SolveResult(p=be.asarray(p), d=d, iterations=1, products=0, error=0.0, load_error=abs(p.sum() - W) / W)


def _cg_masked(op: Any, rhs: Any, mask: Any, x0: Any, tol: float, max_iter: int) -> tuple[Any, int]:
    """CG for ``P M P^T x = rhs`` on the masked set (matrix-free, masked before/after)."""
    be = op.be
    xp = be.xp
    x = xp.where(mask, x0, 0.0)
    r = xp.where(mask, rhs - op.apply(x), 0.0)
    z = r
    rr = be.scalar(xp.sum(r * r))
    rhs_n = math.sqrt(be.scalar(xp.sum(xp.where(mask, rhs, 0.0) ** 2))) or 1.0
    it = 0
    while math.sqrt(rr) > tol * rhs_n and it < max_iter:
        it += 1
        Az = xp.where(mask, op.apply(z), 0.0)
        alpha = rr / be.scalar(xp.sum(z * Az))
        x = x + alpha * z
        r = r - alpha * Az
        rr_new = be.scalar(xp.sum(r * r))
        z = r + (rr_new / rr) * z
        rr = rr_new
    return x, it


def alg1_solve(op: Any, g: Any, W: float, active: Any = None, *, consistent: bool = True, tol: float = 1e-10,
               max_sweeps: int = 50, max_cg: int = 2000, step: int | None = None,
               time: float | None = None) -> SolveResult:
    r"""The paper's Algorithm 1 (reference mode; Sect. 2.5).

    For a fixed contact set :math:`\mathcal I_c`, the forces solve
    :math:`M_{cc}p_c = g_c - d\mathbf 1_c`; the total force is affine in ``d``, so the paper's
    secant on :math:`\dot d` is exact after one update, equivalent to two CG solves:
    :math:`y = M_{cc}^{-1}g_c`, :math:`z = M_{cc}^{-1}\mathbf 1_c`,
    :math:`d = (\mathbf 1^\top y - W)/\mathbf 1^\top z`, :math:`p_c = y - dz`. The set is then
    updated as in the paper: tensile elements are removed (their force set to zero) and
    penetrating ones added.

    Parameters
    ----------
    active : bool array, optional
        Contact set to start from; default :math:`\{g_i > d_{MF}\}` from the mean-field solve with
        :math:`C^0 = K_{ii}`.
    consistent : bool
        True (``alg1_consistent``): repeat with the updated set until it stops changing (at most
        ``max_sweeps``). False (``alg1``, paper): one sweep; the updated set is returned in
        ``info["next_active"]`` for the next step and the constraint violations are logged.
    """
    be = op.be
    xp = be.xp
    if active is None:
        mf = meanfield_solve(g, W, be.to_numpy(op.diagonal()) if hasattr(op, "diagonal") else op.diag, backend=be)
        active = mf.p > 0
    active = be.asarray(be.to_numpy(active), dtype=None) if not hasattr(active, "shape") else active
    active = active.astype(bool) if hasattr(active, "astype") else active
    cg_its = 0
    y = xp.zeros_like(g)
    z = xp.zeros_like(g)
    ones = xp.ones_like(g)
    info: dict[str, Any] = {"set_changes": []}
    for sweep in range(1, max_sweeps + 1):
        y, i1 = _cg_masked(op, g, active, y, tol, max_cg)
        z, i2 = _cg_masked(op, ones, active, z, tol, max_cg)
        cg_its += i1 + i2
        d = (be.scalar(xp.sum(y)) - W) / be.scalar(xp.sum(z))
        p = xp.where(active, y - d * z, 0.0)
        gap = op.apply(p) - g + d
        tensile = active & (p < 0)
        penetr = (~active) & (gap < 0)
        n_change = int(be.scalar(xp.sum(tensile)) + be.scalar(xp.sum(penetr)))
        info["set_changes"].append(n_change)
        new_active = (active & ~tensile) | penetr
        if not consistent:
            info["next_active"] = new_active
            info["n_tensile"] = int(be.scalar(xp.sum(tensile)))
            info["n_penetrating"] = int(be.scalar(xp.sum(penetr)))
            p = be.clip0(p)  # paper: tensile forces set to zero (breaks the load balance)
            break
        if n_change == 0:
            break
        active = new_active
    else:
        info["warning"] = f"contact set still changing after {max_sweeps} sweeps"
    if consistent and info["set_changes"][-1] != 0:
        raise _fail(f"Algorithm 1 contact set did not settle in {max_sweeps} sweeps; use solver='pk'", step, time)
    S = p > 0
    gap = op.apply(p) - g + d
    gmax = be.scalar(xp.max(xp.abs(xp.where(S, gap, 0.0))))
    gmin = be.scalar(xp.min(xp.where(S, float("inf"), gap)))
    lerr = abs(be.scalar(xp.sum(p)) - W) / W
    return SolveResult(p=p, d=d, iterations=cg_its, products=cg_its + 2 * len(info["set_changes"]), error=0.0,
                       gap_max_contact=gmax, gap_min_free=gmin, load_error=lerr, converged=True, info=info)


def check_solution(res: SolveResult, sigma: float = 1.0, gap_tol: float = 1e-7) -> list[str]:
    """Acceptance checks of a solve (complementarity of eq. 16, the load of eq. 17); returns the list of violated conditions (empty = ok)."""
    bad = []
    if res.gap_max_contact > gap_tol * sigma:
        bad.append(f"max |gap| on contact {res.gap_max_contact:.3g} > {gap_tol * sigma:.3g}")
    if res.gap_min_free < -gap_tol * sigma:
        bad.append(f"min gap off contact {res.gap_min_free:.3g} < {-gap_tol * sigma:.3g}")
    if res.load_error > 1e-12:
        bad.append(f"load error {res.load_error:.3g} > 1e-12")
    return bad


# --- fused numba kernels for the numpy backend (one pass per reduction, no temporaries) ---------

from .precond import ClusterPreconditioner, nb_precondition_on, supports_preconditioner  # noqa: E402


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


def _pk_numba(op, g, W, p, tol, max_iter, step, time, raise_on_fail, refresh, precondition=False, cold=False,
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
