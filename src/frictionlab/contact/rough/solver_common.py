"""What the rough-contact solvers share: the result of a solve, the failure error, the exact
mean-field solve and the acceptance checks (see :mod:`.solver` for the solvers and their notes)."""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ...core.errors import IntegrationError, ParameterError

__all__ = ["SolveResult", "meanfield_solve", "check_solution"]


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
