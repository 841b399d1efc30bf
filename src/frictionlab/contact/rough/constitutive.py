r"""Constitutive relations of the asperity elements (Sects. 2.3.1-2.3.3, eqs. 5, 7, 9-12).

Forces are handled as contact forces :math:`p = -F \ge 0` [F*] (the paper's forces are :math:`F \le 0`, eq. 16).

Viscoelastic (paper eqs. 5, 7-8)
    :math:`u_i = \sum_j K_{ij}\,\Phi_j`, :math:`\Phi_j = F_j + \sum_k q_{k,j}`,
    :math:`q_{k}(t) = A_k\int_0^t e^{-\lambda_k(t-\tau)}F(\tau)\,d\tau` (the hereditary integral of eq. 5), advanced exactly
    over a step by exponential integration with ``F`` piecewise linear (default,
    second order) or piecewise constant implicit (first order, like the paper's Euler steps). A step then is an
    elastic contact problem with operator :math:`cK` and a known history field ``H``.

Viscoplastic (paper eqs. 9-12)
    :math:`u = u^e + u^p`, :math:`\dot u^p = A_{cr}(|F|/F^y)^n\,\mathrm{sign}(F)`,
    :math:`\dot u^{acc} = |\dot u^p|`, :math:`F^y = F^y_0(1 + B u^{acc})^m`; integrated by a
    linearised implicit (Rosenbrock-Euler) step (default) or the paper's explicit Euler.

References
----------
Hulikal, Lapusta & Bhattacharya, eqs. (5), (7)-(12).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

import numpy as np

from ...core.errors import ParameterError

__all__ = ["Viscoelastic", "Viscoplastic", "VEStepCoeffs", "relaxed_compliance"]


@dataclass(frozen=True)
class VEStepCoeffs:
    """Per-step coefficients of the exponential integration (piecewise constant or linear force).

    ``c = 1 + sum_k A_k b_k`` scales the operator; ``E_k = exp(-lambda_k dt)``; ``w0_k`` weights
    ``F^n`` and ``b_k`` weights ``F^{n+1}`` in the update of ``q_k``.
    """

    c: float
    E: np.ndarray
    w0: np.ndarray
    b: np.ndarray


@dataclass(frozen=True)
class Viscoelastic:
    r"""Multi-rate viscoelastic element (paper eqs. 5 and 7).

    Parameters
    ----------
    lams : tuple of float
        Relaxation rates :math:`\bar\lambda_k` [1/T*] (> 0). Empty = purely elastic.
    As : tuple of float
        Amplitudes :math:`\bar A_k` [1/T*] (>= 0); the relaxed compliance is
        :math:`(1 + \sum_k A_k/\lambda_k)` times the instantaneous one.
    scheme : {"linear", "constant"}
        Piecewise-linear (default) or piecewise-constant implicit force in a step.
    """

    lams: tuple[float, ...] = (1.0,)
    As: tuple[float, ...] = (0.2,)
    scheme: str = "linear"

    def __post_init__(self) -> None:
        lams = tuple(float(x) for x in np.atleast_1d(self.lams)) if len(np.atleast_1d(self.lams)) else ()
        As = tuple(float(x) for x in np.atleast_1d(self.As)) if len(np.atleast_1d(self.As)) else ()
        object.__setattr__(self, "lams", lams)
        object.__setattr__(self, "As", As)
        if len(lams) != len(As):
            raise ParameterError(f"viscoelastic: lams has {len(lams)} rates but As has {len(As)} amplitudes")
        for k, (lam, A) in enumerate(zip(lams, As)):
            if not (math.isfinite(lam) and lam > 0):
                raise ParameterError(f"viscoelastic.lams[{k}] = {lam!r} must be a positive rate [1/s]")
            if not (math.isfinite(A) and A >= 0):
                raise ParameterError(f"viscoelastic.As[{k}] = {A!r} must be a non-negative rate [1/s]")
        if self.scheme not in ("linear", "constant"):
            raise ParameterError(f"viscoelastic.scheme = {self.scheme!r} is not one of ['linear', 'constant']")

    @property
    def n_rates(self) -> int:
        return len(self.lams)

    @property
    def relaxed_factor(self) -> float:
        """:math:`1 + \\sum_k A_k/\\lambda_k` (relaxed / instantaneous compliance)."""
        return 1.0 + sum(A / lam for lam, A in zip(self.lams, self.As))

    def step_coeffs(self, dt: float) -> VEStepCoeffs:
        """Coefficients for a step ``dt`` (series for :math:`\\lambda dt < 10^{-3}`)."""
        if not (dt > 0 and math.isfinite(dt)):
            raise ParameterError(f"time step dt = {dt!r} must be positive")
        lam = np.asarray(self.lams, dtype=float)
        A = np.asarray(self.As, dtype=float)
        x = lam * dt
        E = np.exp(-x)
        one_m_E = -np.expm1(-x)
        if self.scheme == "constant":
            b = one_m_E / lam
            w0 = np.zeros_like(lam)
        else:
            small = x < 1e-3
            with np.errstate(divide="ignore", invalid="ignore"):
                w0 = np.where(small, dt * (0.5 - x / 3 + x**2 / 8), (one_m_E - x * E) / (lam * x))
                b = np.where(small, dt * (0.5 - x / 6 + x**2 / 24), (x + np.expm1(-x)) / (lam * x))
        c = 1.0 + float(np.sum(A * b))
        return VEStepCoeffs(c=c, E=E, w0=w0, b=b)

    def history(self, q: Any, p_n: Any, co: VEStepCoeffs) -> Any:
        r"""History field :math:`H^n = \sum_k (E_k q_k + A_k w_{0,k} p^n)`, in force units."""
        H = None
        for k in range(self.n_rates):
            term = co.E[k] * q[k] + (self.As[k] * co.w0[k]) * p_n
            H = term if H is None else H + term
        return H

    def update(self, q: Any, p_n: Any, p_n1: Any, co: VEStepCoeffs) -> Any:
        """Advance the hereditary states to the end of the step; returns the new stack."""
        for k in range(self.n_rates):
            q[k] = co.E[k] * q[k] + self.As[k] * (co.w0[k] * p_n + co.b[k] * p_n1)
        return q


@dataclass(frozen=True)
class Viscoplastic:
    r"""Elasto/viscoplastic element with power-law creep and hardening (paper eqs. 9-12).

    Parameters
    ----------
    A_cr : float
        Creep rate :math:`\bar A_{cr}` [L*/T*] (paper 1e-4), > 0.
    n : float
        Creep exponent (paper 3), >= 1.
    Fy0 : float
        Initial yield force :math:`\bar F^y_0` [F*] (Table 1: 0.016, 'a yield stress of 4 GPa', Sect. 2.6).
    B : float
        Hardening coefficient [1/L*] (paper 0).
    m : float
        Hardening exponent (paper 1).
    scheme : {"implicit", "explicit"}
        Linearised implicit (default, ours) or the paper's explicit Euler (Algorithm 1).
    """

    A_cr: float = 1e-4
    n: float = 3.0
    Fy0: float = 0.016
    B: float = 0.0
    m: float = 1.0
    scheme: str = "implicit"

    def __post_init__(self) -> None:
        for name, lo in (("A_cr", 0.0), ("Fy0", 0.0)):
            v = float(getattr(self, name))
            if not (math.isfinite(v) and v > lo):
                raise ParameterError(f"viscoplastic.{name} = {v!r} must be positive")
        if not (math.isfinite(self.n) and self.n >= 1):
            raise ParameterError(f"viscoplastic.n = {self.n!r} must be >= 1")
        if not (math.isfinite(self.B) and self.B >= 0):
            raise ParameterError(f"viscoplastic.B = {self.B!r} must be >= 0 [1/um]")
        if self.scheme not in ("implicit", "explicit"):
            raise ParameterError(f"viscoplastic.scheme = {self.scheme!r} is not one of ['implicit', 'explicit']")

    def yield_force(self, u_acc: Any) -> Any:
        return self.Fy0 * (1.0 + self.B * u_acc) ** self.m

    def rate(self, p: Any, Fy: Any) -> Any:
        r""":math:`\rho = \dot u^p = -A_{cr}(p/F^y)^n` (<= 0) for contact force ``p`` >= 0."""
        return -self.A_cr * (p / Fy) ** self.n

    def drate(self, p: Any, Fy: Any) -> Any:
        r""":math:`\rho'(F) = n A_{cr}|F|^{n-1}/(F^y)^n` (>= 0)."""
        return self.n * self.A_cr * p ** (self.n - 1) / Fy**self.n

    def stable_dt(self, p_max: float, Fy_min: float, k_min: float) -> float:
        """Explicit-Euler accuracy bound :math:`0.2 K_{min} (F^y)^n/(nA_{cr}|F|^{n-1})` (ours: the paper prints no step control)."""
        if p_max <= 0:
            return math.inf
        return 0.2 * k_min * Fy_min**self.n / (self.n * self.A_cr * p_max ** (self.n - 1))


def relaxed_compliance(lams, As, t_eval: float) -> float:
    r"""Compliance factor :math:`c = 1 + \sum_k \bar A_k/\bar\lambda_k` of a hold that has relaxed by ``t_eval``.

    The static hold converges to the contact solve with this compliance (the fixed point of the
    exponential step: :math:`q_k = (\bar A_k/\bar\lambda_k) p`). Refused when
    :math:`e^{-\lambda_{min} t_{eval}} > 10^{-12}`, i.e. the hold has not relaxed to round-off.
    """
    lams, As = tuple(float(x) for x in lams), tuple(float(x) for x in As)
    if lams and math.exp(-min(lams) * t_eval) > 1e-12:
        raise ParameterError(f"t_eval = {t_eval:g} s is not long enough for the direct (relaxed) solve: "
                             f"exp(-lambda_min t_eval) = {math.exp(-min(lams) * t_eval):.2e} > 1e-12; "
                             f"use t_eval >= {27.7 / min(lams):.3g} s or a time-stepped hold")
    return Viscoelastic(lams, As).relaxed_factor
