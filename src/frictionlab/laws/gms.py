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

# p = [fc, fs, vs, delta, c, sigma2, normal_scaling, n, k_1..k_n, alpha_1..alpha_n, eps, sigma1_1..sigma1_n]
_NHEAD = 8


@njit(cache=True, inline="always")
def _s(v, fn, p):
    """Signed Stribeck curve s(v) = sgn(v) [fc + (fs - fc) exp(-|v/vs|^delta)] (+ for v = 0)."""
    g = p[0] + (p[1] - p[0]) * math.exp(-((abs(v) / p[2]) ** p[3]))
    if p[6] > 0.5:
        g *= fn
    return -g if v < 0.0 else g


@njit(cache=True, inline="always")
def _element_rate(i, fi, v, s, sg, n, p):
    """dF_i/dt of element i at force fi, velocity v, signed limit s = s(v) (v != 0)."""
    k = p[_NHEAD + i]
    a = p[_NHEAD + n + i]
    eps = p[_NHEAD + 2 * n]
    if s == 0.0:  # zero limit (zero load with normal scaling, or fc = fs = 0): the element
        # unloads linearly over the slip distance eps alpha_i max(fs, fc, 1) / k_i
        return -k * abs(v) * fi / (eps * a * max(p[0], p[1], 1.0))
    z = fi / (a * s)  # element force over its signed limit alpha_i s(v): 1 at the limit
    u = (z - 1.0) / eps + 1.0  # 0 at z = 1 - eps, 1 at z = 1
    if u <= 0.0:
        w = 0.0
    elif u >= 1.0:
        w = 1.0
    else:
        w = u * u * (3.0 - 2.0 * u)  # C1 smoothstep
    # stick k_i v blended into the slip law sgn(v) C (alpha_i - F_i / s(v))
    return (1.0 - w) * k * v + w * sg * p[4] * (a - fi / s)


@njit(cache=True, inline="always")
def _rates(state, v, fn, p, out):
    n = int(p[7])
    if v == 0.0:  # no slip: every element keeps its force (presliding memory)
        for i in range(n):
            out[i] = 0.0
        return
    s = _s(v, fn, p)
    sg = 1.0 if v > 0.0 else -1.0
    for i in range(n):
        out[i] = _element_rate(i, state[i], v, s, sg, n, p)


@njit(cache=True, inline="always")
def _friction(state, v, fn, p):
    n = int(p[7])
    f = p[5] * v
    for i in range(n):
        f += state[i]
    if v != 0.0:  # micro-damping sigma1_i dz_i/dt = (sigma1_i / k_i) dF_i/dt of each element
        s = _s(v, fn, p)
        sg = 1.0 if v > 0.0 else -1.0
        for i in range(n):
            d = p[_NHEAD + 2 * n + 1 + i]
            if d > 0.0:
                f += d / p[_NHEAD + i] * _element_rate(i, state[i], v, s, sg, n, p)
    return f


@final
@register_model
@dataclass(frozen=True)
class GMS(AbstractLaw):
    r"""Generalised Maxwell-slip (GMS) friction model with N elements.

    N massless elementary slip blocks in parallel, element *i* with stiffness
    :math:`k_i` and share :math:`\alpha_i` of the signed Stribeck curve
    :math:`s(v) = \operatorname{sgn}(v)[F_c + (F_s - F_c)e^{-|v/v_s|^\delta}]`. The state is
    the vector of element forces :math:`F_i`. Al-Bender et al. (2005, eqs. 4-5) give

    .. math::
        \text{stick: } \dot F_i = k_i v, \qquad
        \text{slip: } \dot F_i = \operatorname{sgn}(v)\, C \Big(\alpha_i - \frac{F_i}{s(v)}\Big),
        \qquad F = \sum_i \Big(F_i + \frac{\sigma_{1,i}}{k_i}\dot F_i\Big) + \sigma_2 v ,

    an element going from stick to slip when :math:`F_i` reaches :math:`\alpha_i s(v)` and
    back to stick when the motion reverses. Here the mode is not stored but blended from the
    state: with :math:`z_i = F_i / (\alpha_i s(v))` (1 at the limit, negative after a
    reversal) and the C1 ramp :math:`w(z) = u^2(3 - 2u)`, :math:`u = \operatorname{clip}((z - 1)
    / \varepsilon + 1, 0, 1)`,

    .. math::
        \dot F_i = [1 - w(z_i)]\, k_i v + w(z_i)\, \operatorname{sgn}(v)\, C
        \Big(\alpha_i - \frac{F_i}{s(v)}\Big) .

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
        Attraction parameter C of slipping elements towards :math:`\alpha_i s(v)` [N/s]; a
        slipping element relaxes at the rate :math:`C/|s(v)|` [1/s].
    sigma1 : tuple of float
        Element micro-damping :math:`\sigma_{1,i}` [N s/m], one per element (0: none): the
        term :math:`\sigma_{1,i}\dot z_i` of the friction output, :math:`z_i = F_i / k_i` the
        element deformation (Lampaert et al. 2003; Al-Bender et al. 2005). Empty (default):
        :math:`\sigma_{1,i} = \sqrt{1\,\mathrm{kg}\sum_j k_j}\; k_i / \sum_j k_j` (see Notes).
    sigma2 : float
        Viscous coefficient [N s/m].
    switch_width : float
        Relative width :math:`\varepsilon` of the stick-to-slip ramp [1]: an element is purely
        sticking for :math:`z_i \le 1 - \varepsilon` and purely slipping for :math:`z_i \ge 1`.
    normal_scaling : bool
        Multiply the Stribeck curve by the normal load.

    Notes
    -----
    * Slip law: the form with :math:`\alpha_i` inside the bracket,
      :math:`\operatorname{sgn}(v) C(\alpha_i - F_i/s(v))`, is the one of Al-Bender, Lampaert &
      Swevers (2005) and Lampaert, Al-Bender & Swevers (2003); an earlier version of this module
      used :math:`\operatorname{sgn}(v) C(1 - F_i/(\alpha_i s(v)))`, i.e. C/alpha_i per element.
      With the signed s(v) used here the fixed point :math:`F_i = \alpha_i s(v)` is attracting
      for both directions of motion.
    * Regularised switch (our choice, not in the papers): a sharp state-derived switch
      (stick below the limit, slip above) has a discontinuous right-hand side at the limit
      (:math:`k_i v` below, 0 at it), so an explicit integrator chatters around the limit by
      about :math:`k_i |v| \Delta t` per element during steady sliding. The ramp makes the rate
      continuous and, since :math:`w'(1) = 0`, leaves the Jacobian at the limit equal to the
      slip value :math:`-C/|s(v)|`. It changes neither the steady-state curve
      (:math:`w(1) = 1`, so :math:`F_i = \alpha_i s(v)` exactly) nor the presliding stiffness
      :math:`\sum k_i` (all elements stick while :math:`z_i \le 1 - \varepsilon`). Explicit
      stability in the ramp needs roughly
      :math:`\Delta t \lesssim 2\varepsilon\alpha_i|s(v)|/(k_i|v|)`; a step beyond it only
      crosses the ramp in one step and then relaxes on the (gentle) slip branch.
    * Deviation from the papers: during deceleration :math:`|s(v)|` may grow past a slipping
      element's force; the papers keep it slipping (attracted at the rate C) until a reversal,
      here it reloads at :math:`k_i v` once :math:`z_i < 1 - \varepsilon`. The two agree when
      :math:`C \approx k_i |v|`.
    * Micro-damping: without :math:`\sigma_{1,i}` (the former default) a slider on the
      stuck elements is an undamped oscillator of stiffness :math:`\sum k_i` and rings after
      every slip (mass 1 kg, four-element preset: 50 Hz, the friction swinging below zero),
      which a force-based stick-slip detector counts as events. The presets take
      :math:`\sum_i\sigma_{1,i} = \sqrt{1\,\mathrm{kg}\sum_i k_i}` (as LuGre's
      :math:`\sigma_1 = \sqrt{\sigma_0 \cdot 1\,\mathrm{kg}}` of Canudas de Wit et al. 1995),
      shared in proportion to :math:`k_i`: critical damping of the presliding mode of a 1 kg
      slider (our choice; the default when ``sigma1`` is left empty).
    * At v = 0 every element is at rest (the presliding memory is kept). The law is odd:
      F(-v, -F_i) = -F(v, F_i). With a zero limit (zero load under normal scaling) elements
      unload linearly over the slip distance :math:`\varepsilon\alpha_i\max(F_s, F_c, 1)/k_i`.

    References
    ----------
    F. Al-Bender, V. Lampaert, J. Swevers, "The generalized Maxwell-slip model: a novel
    model for friction simulation and compensation", IEEE Trans. Autom. Control 50(11),
    1883-1887, 2005.
    V. Lampaert, F. Al-Bender, J. Swevers, "A generalized Maxwell-slip friction model
    appropriate for control purposes", Proc. IEEE Int. Conf. Physics and Control (PhysCon),
    St. Petersburg, 1170-1177, 2003.
    """

    k: tuple[float, ...] = param((4e4, 3e4, 2e4, 1e4), units="N/m", lo=0.0, lo_open=True)
    alpha: tuple[float, ...] = param((0.4, 0.3, 0.2, 0.1), units="1", lo=0.0, lo_open=True)
    fc: float = param(1.0, units="N", lo=0.0)
    fs: float = param(1.5, units="N", lo=0.0)
    vs: float = param(1e-3, units="m/s", lo=0.0, lo_open=True)
    delta: float = param(2.0, units="1", lo=0.0, lo_open=True)
    c: float = param(1e3, units="N/s", lo=0.0, lo_open=True)
    sigma2: float = param(0.4, units="N s/m", lo=0.0)
    sigma1: tuple[float, ...] = param((), units="N s/m", lo=0.0)
    switch_width: float = param(0.05, units="1", lo=0.0, hi=0.5, lo_open=True)
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
        if self.sigma1 and len(self.sigma1) != len(self.k):
            self._fail("sigma1", f"has {len(self.sigma1)} entries but k has {len(self.k)}")
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

    @property
    def element_damping(self) -> tuple[float, ...]:
        """The micro-damping sigma1_i used [N s/m]: ``sigma1``, or the default rule when empty."""
        if self.sigma1:
            return tuple(float(d) for d in self.sigma1)
        total = sum(self.k)
        return tuple(math.sqrt(total) * ki / total for ki in self.k)

    def param_vector(self) -> FloatArray:
        head = [self.fc, self.fs, self.vs, self.delta, self.c, self.sigma2,
                1.0 if self.normal_scaling else 0.0, float(len(self.k))]
        return np.array(head + list(self.k) + list(self.alpha) + [self.switch_width]
                        + list(self.element_damping), dtype=np.float64)

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
