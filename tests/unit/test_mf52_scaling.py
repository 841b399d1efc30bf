"""MF 5.2 pure-slip forces with every scaling factor != 1, against the published equations.

The reference below is written independently from Pacejka, *Tyre and Vehicle Dynamics*,
3rd ed. (2012), section 4.3.2, eqs. 4.E9-4.E18 (longitudinal) and 4.E19-4.E30 (lateral),
at zero camber and with the MF 5.2 scaling factors (lambda) of the ``.tir`` format. In
particular the cornering stiffness (eq. 4.E25) holds lambda_Fz0 exactly once, through the
scaled nominal load F'_z0 = lambda_Fz0 F_z0.
"""

from __future__ import annotations

import math

import numpy as np
import pytest

from frictionlab.laws.magic_formula import mf52_fx0, mf52_fy0

SCALES = {"LFZO": 1.2, "LCX": 0.95, "LMUX": 1.1, "LEX": 0.8, "LKX": 1.3, "LHX": 1.4, "LVX": 0.7,
          "LCY": 1.05, "LMUY": 0.9, "LEY": 0.85, "LKY": 1.15, "LHY": 1.25, "LVY": 0.6}
COEF = {"FNOMIN": 4000.0,
        "PCX1": 1.6, "PDX1": 1.05, "PDX2": -0.08, "PEX1": 0.3, "PEX2": 0.1, "PEX3": -0.05, "PEX4": 0.2,
        "PKX1": 22.0, "PKX2": 1.5, "PKX3": -0.3, "PHX1": 1e-3, "PHX2": -5e-4, "PVX1": 2e-3, "PVX2": 1e-3,
        "PCY1": 1.35, "PDY1": -0.95, "PDY2": 0.12, "PEY1": -0.6, "PEY2": 0.2, "PEY3": 0.1,
        "PKY1": -18.0, "PKY2": 1.9, "PHY1": 2e-3, "PHY2": 1e-3, "PVY1": 0.01, "PVY2": -0.02,
        **SCALES}


def _fx0_reference(kappa: float, fz: float, p: dict) -> float:
    fz0s = p["LFZO"] * p["FNOMIN"]                                   # F'_z0 (4.E1)
    dfz = (fz - fz0s) / fz0s                                         # (4.E2a)
    shx = (p["PHX1"] + p["PHX2"] * dfz) * p["LHX"]                   # (4.E17)
    kx = kappa + shx                                                 # (4.E10)
    cx = p["PCX1"] * p["LCX"]                                        # (4.E11)
    dx = (p["PDX1"] + p["PDX2"] * dfz) * p["LMUX"] * fz              # (4.E12, 4.E13)
    ex = ((p["PEX1"] + p["PEX2"] * dfz + p["PEX3"] * dfz * dfz)
          * (1 - p["PEX4"] * math.copysign(1.0, kx)) * p["LEX"])     # (4.E14)
    kxk = fz * (p["PKX1"] + p["PKX2"] * dfz) * math.exp(p["PKX3"] * dfz) * p["LKX"]  # (4.E15)
    bx = kxk / (cx * dx)                                             # (4.E16)
    svx = fz * (p["PVX1"] + p["PVX2"] * dfz) * p["LVX"] * p["LMUX"]  # (4.E18)
    return dx * math.sin(cx * math.atan(bx * kx - ex * (bx * kx - math.atan(bx * kx)))) + svx  # (4.E9)


def _fy0_reference(alpha: float, fz: float, p: dict) -> float:
    fz0s = p["LFZO"] * p["FNOMIN"]
    dfz = (fz - fz0s) / fz0s
    shy = (p["PHY1"] + p["PHY2"] * dfz) * p["LHY"]                   # (4.E27), camber 0
    ay = alpha + shy                                                 # (4.E20)
    cy = p["PCY1"] * p["LCY"]                                        # (4.E21)
    dy = (p["PDY1"] + p["PDY2"] * dfz) * p["LMUY"] * fz              # (4.E22, 4.E23)
    ey = (p["PEY1"] + p["PEY2"] * dfz) * (1 - p["PEY3"] * math.copysign(1.0, ay)) * p["LEY"]  # (4.E24)
    ky = p["PKY1"] * fz0s * math.sin(2 * math.atan(fz / (p["PKY2"] * fz0s))) * p["LKY"]  # (4.E25): one lambda_Fz0
    by = ky / (cy * dy)                                              # (4.E26)
    svy = fz * (p["PVY1"] + p["PVY2"] * dfz) * p["LVY"] * p["LMUY"]  # (4.E29)
    return dy * math.sin(cy * math.atan(by * ay - ey * (by * ay - math.atan(by * ay)))) + svy  # (4.E19)


@pytest.mark.parametrize("fz", [2500.0, 4000.0, 6500.0])
def test_mf52_pure_slip_all_scaling_factors(fz):
    kappa = np.linspace(-0.4, 0.4, 41)
    alpha = np.radians(np.linspace(-15, 15, 41))
    np.testing.assert_allclose(mf52_fx0(kappa, fz, COEF), [_fx0_reference(k, fz, COEF) for k in kappa], rtol=1e-12)
    np.testing.assert_allclose(mf52_fy0(alpha, fz, COEF), [_fy0_reference(a, fz, COEF) for a in alpha], rtol=1e-12)


def test_mf52_cornering_stiffness_lfzo_once():
    """dFy0/dalpha at alpha = -S_Hy is K_y (4.E25): with LFZO = 1.2 not 1.2x too large."""
    c = {"FNOMIN": 4000.0, "PCY1": 1.3, "PDY1": -1.0, "PEY1": 0.0, "PKY1": -20.0, "PKY2": 2.0, "LFZO": 1.2}
    fz0s = 4800.0
    ky = -20.0 * fz0s * math.sin(2 * math.atan(4000.0 / (2.0 * fz0s)))
    h = 1e-7
    assert (mf52_fy0(h, 4000.0, c) - mf52_fy0(-h, 4000.0, c)) / (2 * h) == pytest.approx(ky, rel=1e-6)
