r"""Pacejka "Magic Formula" tyre force baseline (simplified B, C, D, E and MF 5.2 pure slip).

The baseline a tyre engineer compares the Kloss slip form against.

* :func:`magic_formula` -- the simplified four-coefficient curve
  :math:`y = D\sin(C\arctan(Bx - E(Bx - \arctan Bx)))`.
* :func:`mf52_fx0`, :func:`mf52_fy0` -- MF 5.2 pure longitudinal / pure lateral force of a
  coefficient set (a mapping ``name -> value``, e.g. read from a ``.tir`` file; the
  coefficient names are those of the file). Camber is taken as 0; MF 6.x-only terms
  (PDX3, PPX*, ...) are absent and treated as 0; missing scaling factors default to 1.

References
----------
H. B. Pacejka, *Tyre and Vehicle Dynamics*, 3rd ed., Butterworth-Heinemann (2012),
sections 4.3.2 (eqs. 4.E9-4.E18, 4.E19-4.E30).
"""

from __future__ import annotations

from collections.abc import Mapping

import numpy as np
from numpy.typing import ArrayLike, NDArray

from ..core.errors import ParameterError

__all__ = ["magic_formula", "mf52_fx0", "mf52_fy0", "CITATION"]

CITATION = "Pacejka, H. B. (2012). Tyre and Vehicle Dynamics, 3rd ed. Butterworth-Heinemann."


def magic_formula(x: ArrayLike, B: float, C: float, D: float, E: float, sh: float = 0.0,
                  sv: float = 0.0) -> NDArray[np.float64]:
    r"""Simplified Magic Formula :math:`y = D\sin(C\arctan(B\xi - E(B\xi - \arctan B\xi))) + S_V`,
    :math:`\xi = x + S_H`.

    Parameters
    ----------
    x : array_like
        Slip (ratio or angle; the unit sets the meaning of ``B``).
    B, C, D, E : float
        Stiffness, shape, peak and curvature factors (``E <= 1``).
    sh, sv : float
        Horizontal and vertical shifts.
    """
    if E > 1:
        raise ParameterError(f"magic_formula.E = {E:g} must be <= 1 (curvature factor)")
    bx = B * (np.asarray(x, dtype=float) + sh)
    return D * np.sin(C * np.arctan(bx - E * (bx - np.arctan(bx)))) + sv


def _get(c: Mapping[str, float], name: str, default: float | None = None) -> float:
    if name in c:
        return float(c[name])
    if default is None:
        raise ParameterError(f"MF 5.2 coefficient {name!r} is missing")
    return default


def mf52_fx0(kappa: ArrayLike, fz: float, c: Mapping[str, float]) -> NDArray[np.float64]:
    r"""MF 5.2 pure longitudinal force :math:`F_{x0}(\kappa, F_z)` [N] (camber 0).

    .. math::
        dF_z = \frac{F_z - F_{z0}'}{F_{z0}'},\ \kappa_x = \kappa + S_{Hx},\
        C_x = p_{Cx1},\ D_x = (p_{Dx1} + p_{Dx2}dF_z)\lambda_{\mu x}F_z,\
        E_x = (p_{Ex1} + p_{Ex2}dF_z + p_{Ex3}dF_z^2)(1 - p_{Ex4}\operatorname{sgn}\kappa_x),\
        K_x = F_z(p_{Kx1} + p_{Kx2}dF_z)e^{p_{Kx3}dF_z},\ B_x = K_x/(C_xD_x)

    Parameters
    ----------
    kappa : array_like
        Longitudinal slip ratio [1] (not percent).
    fz : float
        Vertical load [N] (> 0).
    c : mapping
        Coefficients by ``.tir`` name (FNOMIN, PCX1, PDX1, PDX2, PEX1..4, PKX1..3, PHX1..2,
        PVX1..2, scaling factors L*).
    """
    if not fz > 0:
        raise ParameterError(f"mf52_fx0: fz = {fz!r} N must be > 0")
    fz0 = _get(c, "FNOMIN") * _get(c, "LFZO", 1.0)
    dfz = (fz - fz0) / fz0
    shx = (_get(c, "PHX1", 0.0) + _get(c, "PHX2", 0.0) * dfz) * _get(c, "LHX", 1.0)
    kx = np.asarray(kappa, dtype=float) + shx
    cx = _get(c, "PCX1") * _get(c, "LCX", 1.0)
    mux = (_get(c, "PDX1") + _get(c, "PDX2", 0.0) * dfz) * _get(c, "LMUX", 1.0)
    dx = mux * fz
    ex = ((_get(c, "PEX1") + _get(c, "PEX2", 0.0) * dfz + _get(c, "PEX3", 0.0) * dfz ** 2)
          * (1.0 - _get(c, "PEX4", 0.0) * np.sign(kx)) * _get(c, "LEX", 1.0))
    ex = np.minimum(ex, 1.0)
    kxk = fz * (_get(c, "PKX1") + _get(c, "PKX2", 0.0) * dfz) * np.exp(_get(c, "PKX3", 0.0) * dfz) * _get(c, "LKX", 1.0)
    bx = kxk / (cx * dx)
    svx = fz * (_get(c, "PVX1", 0.0) + _get(c, "PVX2", 0.0) * dfz) * _get(c, "LVX", 1.0) * _get(c, "LMUX", 1.0)
    u = bx * kx
    return dx * np.sin(cx * np.arctan(u - ex * (u - np.arctan(u)))) + svx


def mf52_fy0(alpha: ArrayLike, fz: float, c: Mapping[str, float]) -> NDArray[np.float64]:
    r"""MF 5.2 pure lateral force :math:`F_{y0}(\alpha, F_z)` [N] at zero camber.

    .. math::
        K_y = p_{Ky1}F'_{z0}\sin\big(2\arctan\frac{F_z}{p_{Ky2}F'_{z0}}\big)\lambda_{Ky},\ F'_{z0} = \lambda_{Fz0}F_{z0},\
        D_y = (p_{Dy1} + p_{Dy2}dF_z)F_z,\ E_y = (p_{Ey1} + p_{Ey2}dF_z)(1 - p_{Ey3}\operatorname{sgn}\alpha_y)

    Parameters
    ----------
    alpha : array_like
        Slip angle [rad].
    fz : float
        Vertical load [N].
    """
    if not fz > 0:
        raise ParameterError(f"mf52_fy0: fz = {fz!r} N must be > 0")
    fz0 = _get(c, "FNOMIN") * _get(c, "LFZO", 1.0)
    dfz = (fz - fz0) / fz0
    shy = (_get(c, "PHY1", 0.0) + _get(c, "PHY2", 0.0) * dfz) * _get(c, "LHY", 1.0)
    ay = np.asarray(alpha, dtype=float) + shy
    cy = _get(c, "PCY1") * _get(c, "LCY", 1.0)
    muy = (_get(c, "PDY1") + _get(c, "PDY2", 0.0) * dfz) * _get(c, "LMUY", 1.0)
    dy = muy * fz
    ey = (_get(c, "PEY1") + _get(c, "PEY2", 0.0) * dfz) * (1.0 - _get(c, "PEY3", 0.0) * np.sign(ay)) * _get(c, "LEY", 1.0)
    ey = np.minimum(ey, 1.0)
    # eq. 4.E25: lambda_Fz0 enters once, through the scaled nominal load F'_z0 = fz0
    ky = _get(c, "PKY1") * fz0 * np.sin(2.0 * np.arctan(fz / (_get(c, "PKY2") * fz0))) * _get(c, "LKY", 1.0)
    by = ky / (cy * dy)
    svy = fz * (_get(c, "PVY1", 0.0) + _get(c, "PVY2", 0.0) * dfz) * _get(c, "LVY", 1.0) * _get(c, "LMUY", 1.0)
    u = by * ay
    return dy * np.sin(cy * np.arctan(u - ey * (u - np.arctan(u)))) + svy
