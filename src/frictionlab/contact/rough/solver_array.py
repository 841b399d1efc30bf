"""The generic array implementation of the rough-contact solvers (numpy, CuPy, PyTorch backends;
no numba): the load-controlled PK iteration of :func:`~.solver.pk_solve` with ``use_numba=False``
or on another backend, the displacement-controlled
:func:`~frictionlab.contact.rough.solver_array.pk_solve_disp` and the paper's Algorithm 1
(:func:`~frictionlab.contact.rough.solver_array.alg1_solve`). Notes and references: :mod:`.solver`."""

from __future__ import annotations

import math
from typing import Any

from .solver_common import SolveResult, _fail, meanfield_solve

__all__ = ["pk_iterate_array", "pk_solve_disp", "alg1_solve"]


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


def pk_iterate_array(op: Any, g: Any, W: float, p: Any, *, tol: float, max_iter: int, step: int | None,
                     time: float | None, refresh: int) -> tuple[Any, int, int, float]:
    r"""The load-controlled PK iterations of :func:`~.solver.pk_solve` on any backend, from the
    start ``p`` (summing to ``W``). :math:`M p_{new} = s(Mp - \tau Mt)` is carried when no element
    was clipped or re-activated and recomputed otherwise (and every ``refresh`` iterations).
    Returns ``(p, iterations, products, error)``; :func:`~.solver.pk_solve` finishes the result."""
    be = op.be
    xp = be.xp
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
    return p, it, products, err


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
