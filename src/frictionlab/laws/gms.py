"""Generalised Maxwell-slip friction (Al-Bender, Lampaert & Swevers 2005), N elements."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, final

import numpy as np
from numba import njit

from ..core.base import AbstractLaw, FloatArray
from ..core.params import option, param
from ..core.registry import Preset, add_presets, register_model

__all__ = ["GMS"]

# p = [fc, fs, vs, delta, c, sigma2, normal_scaling, n, k_1..k_n, alpha_1..alpha_n]
_NHEAD = 8


@njit(cache=True)
def _s(v, fn, p):
    """Signed Stribeck curve s(v) = sgn(v) [fc + (fs - fc) exp(-|v/vs|^delta)] (+ for v = 0)."""
    g = p[0] + (p[1] - p[0]) * math.exp(-((abs(v) / p[2]) ** p[3]))
    if p[6] > 0.5:
        g *= fn
    return -g if v < 0.0 else g


@njit(cache=True)
def _rates(state, v, fn, p, out):
    n = int(p[7])
    s = _s(v, fn, p)
    c = p[4]
    for i in range(n):
        k = p[_NHEAD + i]
        lim = p[_NHEAD + n + i] * s  # signed element limit alpha_i s(v)
        fi = state[i]
        if v == 0.0:
            out[i] = 0.0
        elif lim == 0.0:
            out[i] = -fi * 1e12
        elif (v > 0.0 and fi < lim) or (v < 0.0 and fi > lim):
            out[i] = k * v  # stick: the element spring is loaded
        else:
            sg = 1.0 if v > 0.0 else -1.0
            out[i] = sg * c * (1.0 - fi / lim)  # slip: attracted to alpha_i s(v)


@njit(cache=True)
def _friction(state, v, fn, p):
    n = int(p[7])
    f = p[5] * v
    for i in range(n):
        f += state[i]
    return f


@final
@register_model
@dataclass(frozen=True)
class GMS(AbstractLaw):
    r"""Generalised Maxwell-slip (GMS) friction model with N elements.

    N massless elementary slip blocks in parallel, element *i* with stiffness
    :math:`k_i` and share :math:`\alpha_i` of the signed Stribeck curve
    :math:`s(v) = \operatorname{sgn}(v)[F_c + (F_s - F_c)e^{-|v/v_s|^\delta}]`. The state is
    the vector of element forces :math:`F_i`:

    .. math::
        \text{stick: } \dot F_i = k_i v, \qquad
        \text{slip: } \dot F_i = \operatorname{sgn}(v)\, C \Big(1 - \frac{F_i}{\alpha_i s(v)}\Big),
        \qquad F = \sum_i F_i + \sigma_2 v .

    Parameters
    ----------
    k : tuple of float
        Element stiffnesses :math:`k_i` [N/m]; their number sets N.
    alpha : tuple of float
        Element shares :math:`\alpha_i` of the Stribeck curve [1] (sum to 1).
    fc, fs : float
        Coulomb and static levels of the Stribeck curve [N] (or [1] with normal scaling).
    vs : float
        Stribeck velocity [m/s].
    delta : float
        Stribeck exponent [1].
    c : float
        Attraction rate C of slipping elements towards their limit [N/s].
    sigma2 : float
        Viscous coefficient [N s/m].
    normal_scaling : bool
        Multiply the Stribeck curve by the normal load.

    Notes
    -----
    Al-Bender et al. switch an element from stick to slip when :math:`F_i` reaches
    :math:`\alpha_i s(v)` and back to stick at a velocity reversal, which needs a discrete
    mode flag. This rate-form implementation derives the mode from the state instead: an
    element slips when its force has reached its limit in the direction of motion
    (:math:`F_i \operatorname{sgn}(v) \ge \alpha_i |s(v)|`) and sticks otherwise. The two
    agree except while :math:`|s(v)|` grows during deceleration, where a slipping element of
    the paper is attracted to the limit at the rate C and here reloads at the rate
    :math:`k_i v` until it reaches it (identical for :math:`C \approx k_i |v|`).
    At v = 0 every element is at rest (the presliding memory is kept).
    The law is odd: F(-v, -F_i) = -F(v, F_i).

    References
    ----------
    F. Al-Bender, V. Lampaert, J. Swevers, "The generalized Maxwell-slip model: a novel
    model for friction simulation and compensation", IEEE Trans. Autom. Control 50(11),
    1883-1887, 2005.
    """

    k: tuple[float, ...] = param((4e4, 3e4, 2e4, 1e4), units="N/m", lo=0.0, lo_open=True)
    alpha: tuple[float, ...] = param((0.4, 0.3, 0.2, 0.1), units="1", lo=0.0, lo_open=True)
    fc: float = param(1.0, units="N", lo=0.0)
    fs: float = param(1.5, units="N", lo=0.0)
    vs: float = param(1e-3, units="m/s", lo=0.0, lo_open=True)
    delta: float = param(2.0, units="1", lo=0.0, lo_open=True)
    c: float = param(1e3, units="N/s", lo=0.0, lo_open=True)
    sigma2: float = param(0.4, units="N s/m", lo=0.0)
    normal_scaling: bool = option(False, choices=(True, False))

    name: ClassVar[str] = "gms"
    citation: ClassVar[str] = ("Al-Bender, F., Lampaert, V., Swevers, J. (2005). The generalized Maxwell-slip model: "
                               "a novel model for friction simulation and compensation. IEEE Trans. Autom. Control "
                               "50(11), 1883-1887.")
    doi: ClassVar[str] = "10.1109/TAC.2005.858676"
    _rates_kernel = _rates
    _friction_kernel = _friction

    def _check(self) -> None:
        if len(self.k) == 0:
            self._fail("k", "must list at least one element stiffness")
        if len(self.alpha) != len(self.k):
            self._fail("alpha", f"has {len(self.alpha)} entries but k has {len(self.k)}")
        total = sum(self.alpha)
        if abs(total - 1.0) > 1e-6:
            self._fail("alpha", f"entries must sum to 1, got {total:.6g}")

    @property
    def n_elements(self) -> int:
        """Number of Maxwell-slip elements [1]."""
        return len(self.k)

    @property
    def state_names(self) -> tuple[str, ...]:  # type: ignore[override]
        """One state per element: ``element_force_i``, the force of element i."""
        return tuple(f"element_force_{i}" for i in range(len(self.k)))

    @property
    def state_units(self) -> tuple[str, ...]:  # type: ignore[override]
        """Units of the element forces [N]."""
        return ("N",) * len(self.k)

    def param_vector(self) -> FloatArray:
        head = [self.fc, self.fs, self.vs, self.delta, self.c, self.sigma2,
                1.0 if self.normal_scaling else 0.0, float(len(self.k))]
        return np.array(head + list(self.k) + list(self.alpha), dtype=np.float64)

    def _steady_state(self, v: float, normal_force: float) -> FloatArray:
        s = _s(v, normal_force, self.param_vector()) if v != 0 else 0.0
        return np.asarray(self.alpha, dtype=float) * s


add_presets("gms", {
    "four-element": Preset(
        {"k": [4e4, 3e4, 2e4, 1e4], "alpha": [0.4, 0.3, 0.2, 0.1], "fc": 1.0, "fs": 1.5, "vs": 1e-3,
         "delta": 2.0, "c": 1e3, "sigma2": 0.4},
        source="illustrative 4-element set (our choice) with the Stribeck curve of Canudas de Wit et al. (1995)"),
    "single-element": Preset(
        {"k": [1e5], "alpha": [1.0], "fc": 1.0, "fs": 1.5, "vs": 1e-3, "delta": 2.0, "c": 1e3, "sigma2": 0.4},
        source="one element: a Maxwell-slip block with a Stribeck limit (our choice)"),
})
