"""Dahl friction (Dahl 1968): a rate-independent hysteretic presliding law."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar, final

import numpy as np
from numba import njit

from ..core.base import AbstractLaw
from ..core.params import option, param
from ..core.registry import Preset, add_presets, register_model

__all__ = ["Dahl"]


@njit(cache=True, inline="always")
def _rates(state, v, fn, p, out):
    # p = [sigma0, fc, alpha, normal_scaling]
    fc = p[1] * fn if p[3] > 0.5 else p[1]
    if fc <= 0.0:
        out[0] = -state[0] * 1e12  # no load: the force relaxes at once (stiff limit)
        return
    if v > 0.0:
        s = 1.0 - state[0] / fc
    elif v < 0.0:
        s = 1.0 + state[0] / fc
    else:
        out[0] = 0.0
        return
    mag = abs(s) ** p[2]
    if s < 0.0:
        mag = -mag
    out[0] = p[0] * mag * v


@njit(cache=True, inline="always")
def _friction(state, v, fn, p):
    return state[0]


@final
@register_model
@dataclass(frozen=True)
class Dahl(AbstractLaw):
    r"""Dahl friction model.

    The friction force ``F`` is the state; with displacement ``x`` and :math:`v = \dot x`,

    .. math::
        \frac{dF}{dt} = \sigma_0\, \Big|1 - \frac{F}{F_c}\operatorname{sgn}(v)\Big|^{\alpha}
        \operatorname{sgn}\!\Big(1 - \frac{F}{F_c}\operatorname{sgn}(v)\Big)\, v .

    The force depends on the displacement only (rate independent): it rises from 0 with
    slope :math:`\sigma_0` and saturates at :math:`\pm F_c`; reversals trace a hysteresis
    loop (presliding). For :math:`\alpha = 1` and constant sign of ``v``,
    :math:`F(x) = \operatorname{sgn}(v) F_c + (F_0 - \operatorname{sgn}(v) F_c)
    e^{-\sigma_0 |x - x_0| / F_c}`.

    Parameters
    ----------
    sigma0 : float
        Rest stiffness (initial slope of F vs x) [N/m].
    fc : float
        Coulomb friction level [N] (or [1] with normal scaling).
    alpha : float
        Shape exponent [1] (1 in most applications; Dahl 1968 allows others).
    f_init : float
        Initial friction force [N].
    normal_scaling : bool
        Multiply ``fc`` by the normal load.

    Notes
    -----
    Odd: F(-v, -F) = -F(v, F). Over a closed displacement loop the dissipated energy
    :math:`\oint F\,dx` is non-negative.

    References
    ----------
    P. R. Dahl, "A solid friction model", Technical Report TOR-0158(3107-18)-1,
    The Aerospace Corporation, El Segundo, CA, 1968.
    """

    sigma0: float = param(1e5, units="N/m", lo=0.0, lo_open=True)
    fc: float = param(1.0, units="N", lo=0.0)
    alpha: float = param(1.0, units="1", lo=0.0, lo_open=True)
    f_init: float = param(0.0, units="N")
    normal_scaling: bool = option(False, choices=(True, False))

    name: ClassVar[str] = "dahl"
    state_names: ClassVar[tuple[str, ...]] = ("dahl_force",)
    state_units: ClassVar[tuple[str, ...]] = ("N",)
    kernel_params: ClassVar[tuple[str, ...]] = ("sigma0", "fc", "alpha", "normal_scaling")
    citation: ClassVar[str] = ("Dahl, P. R. (1968). A solid friction model. Technical Report TOR-0158(3107-18)-1, "
                               "The Aerospace Corporation, El Segundo, CA.")
    _rates_kernel = _rates
    _friction_kernel = _friction

    def _check(self) -> None:
        if not self.normal_scaling and abs(self.f_init) > self.fc:
            self._fail("f_init", f"= {self.f_init:g} N must satisfy |f_init| <= fc = {self.fc:g} N")

    def initial_state(self) -> np.ndarray:
        return np.array([self.f_init])

    def _steady_state(self, v: float, normal_force: float) -> np.ndarray:
        fc = self.fc * normal_force if self.normal_scaling else self.fc
        return np.array([math.copysign(fc, v) if v != 0 else 0.0])


add_presets("dahl", {
    "unit": Preset({"sigma0": 1e5, "fc": 1.0, "alpha": 1.0},
                   source="illustrative values (sigma0 as the LuGre bristle stiffness of Canudas de Wit et al. 1995)"),
    "kloss-fig8": Preset({"sigma0": 1e3, "fc": 0.4706, "alpha": 1.0},
                         source="Dahl comparison of seed 002 Fig. 8 (values from the kloss spec, assumption A4)"),
})
