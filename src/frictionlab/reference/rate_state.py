r"""Closed forms for Dieterich-Ruina rate-and-state friction.

Under prescribed, piecewise-constant slip velocity the law has a closed form
(:func:`prescribed_slip_mu`). Starting at steady state at the velocity :math:`V_0` of the
first sample (:math:`\theta = D_c/V_0`), on a segment of constant velocity :math:`V_k` from
:math:`t_k`

.. math::
    \theta(t) = \frac{D_c}{V_k} + \Big(\theta_k - \frac{D_c}{V_k}\Big)e^{-V_k (t-t_k)/D_c}
    \quad\text{(aging law, Dieterich 1979; } \theta_k + (t - t_k) \text{ when } V_k = 0),

    \ln\frac{V_k\theta(t)}{D_c} = \ln\frac{V_k\theta_k}{D_c}\,e^{-V_k(t-t_k)/D_c}
    \quad\text{(slip law, Ruina 1983; } \theta \text{ frozen when } V_k = 0),

    \mu(t) = \mu_{ref} + a\ln\frac{V_k}{V_0} + b\ln\frac{V_0\,\theta(t)}{D_c}.

References
----------
Dieterich, J. H. (1979). J. Geophys. Res. 84(B5), 2161-2168 (aging law);
Ruina, A. (1983). J. Geophys. Res. 88(B12), 10359-10370 (slip law);
Marone, C. (1998). Annu. Rev. Earth Planet. Sci. 26, 643-696 (velocity steps, slide-hold-slide).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..core.errors import ParameterError

__all__ = ["steady_mu", "direct_effect", "critical_stiffness", "prescribed_slip_mu", "state_after"]


def steady_mu(v: ArrayLike, mu0: float, a: float, b: float, v0: float) -> NDArray[np.float64]:
    """Steady-state friction ``mu_ss = mu0 + (a - b) ln(v / v0)`` (log form)."""
    return mu0 + (a - b) * np.log(np.asarray(v, dtype=float) / v0)


def direct_effect(v1: float, v2: float, a: float) -> float:
    """Instantaneous friction change ``a ln(v2 / v1)`` at a velocity step (state unchanged)."""
    return float(a * np.log(v2 / v1))


def critical_stiffness(a: float, b: float, dc: float, normal_force: float) -> float:
    """Quasi-static linear-stability critical stiffness ``k_c = (b - a) N / dc`` (Ruina 1983)."""
    return float((b - a) * normal_force / dc)


def prescribed_slip_mu(t: ArrayLike, edges: ArrayLike, velocities: ArrayLike, mu_ref: float, a: float, b: float,
                       dc: float, law: str = "aging") -> NDArray[np.float64]:
    r"""Friction of the Dieterich-Ruina law under prescribed piecewise-constant slip (module docstring).

    Parameters
    ----------
    t : sample times [s], increasing; the law starts at steady state at ``t[0]``.
    edges : segment boundaries [s] (``len(velocities) + 1``); ``velocities`` [m/s] on each segment (>= 0).
    mu_ref : steady friction at the velocity of ``t[0]`` [1]; a, b [1]; dc [m].
    law : ``"aging"`` or ``"slip"``.

    Returns
    -------
    :math:`\mu(t)` [1]; NaN where the velocity is zero (no friction defined at rest under
    prescribed slip).
    """
    t = np.asarray(t, dtype=float)
    edges = np.asarray(edges, dtype=float)
    velocities = np.asarray(velocities, dtype=float)
    # segment index of each sample (a sample on an edge takes the new segment, as the protocols do)
    k_of = np.clip(np.searchsorted(edges, t + 1e-12 * np.maximum(1.0, np.abs(t)), side="right") - 1, 0,
                   velocities.size - 1)
    k0 = int(k_of[0])
    v_ref = float(velocities[k0])
    if v_ref <= 0:
        raise ParameterError("prescribed_slip_mu: the record must start while sliding (velocity > 0)")
    theta0 = np.empty(velocities.size)  # theta at each segment start [s]
    theta0[k0] = dc / v_ref
    starts = edges[:-1].copy()
    starts[k0] = t[0]
    for k in range(k0, velocities.size - 1):
        theta0[k + 1] = state_after(theta0[k], velocities[k], edges[k + 1] - starts[k], dc, law)
    vk = velocities[k_of]
    th = state_after(theta0[k_of], vk, t - starts[k_of], dc, law)
    with np.errstate(divide="ignore", invalid="ignore"):
        mu = mu_ref + a * np.log(vk / v_ref) + b * np.log(v_ref * th / dc)
    return np.where(vk > 0, mu, np.nan)


def state_after(theta: ArrayLike, v: ArrayLike, dt: ArrayLike, dc: float, law: str = "aging") -> NDArray[np.float64]:
    r"""State :math:`\theta` [s] after ``dt`` [s] at constant slip velocity ``v`` [m/s] (>= 0) from ``theta``."""
    theta = np.asarray(theta, dtype=float)
    v = np.asarray(v, dtype=float)
    dt = np.asarray(dt, dtype=float)
    vs = np.where(v > 0, v, 1.0)
    if law == "slip":
        x0 = np.log(vs * theta / dc)
        return np.where(v > 0, dc / vs * np.exp(x0 * np.exp(-vs * dt / dc)), theta)
    if law != "aging":
        raise ParameterError(f"rate-and-state evolution law {law!r} must be 'aging' or 'slip'")
    return np.where(v > 0, dc / vs + (theta - dc / vs) * np.exp(-vs * dt / dc), theta + dt)
