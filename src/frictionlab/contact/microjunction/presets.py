"""Material presets of the microjunction model (values in SI units).

Appendix A gives **no** material data (its pseudo-code declares sigma_Y, E, nu, R, C1, C2 as globals
without values). Elastic constants and yield
stresses below are handbook values; the asperity radius ``r`` and especially the creep constant
``c1`` are **assumptions**: ``c1`` is the demonstration value :math:`2.84\\sigma_Y/E`, for which
:math:`EC_1/H_{G,\\infty} = 1\\,\\mathrm{s}^{-1}` (physical seconds are about the normalised
creep time). Real metals at room temperature creep far more slowly; rescale time by
:math:`C_1` (trajectories under constant load satisfy :math:`y_k(t) = y_1(kt)`).
"""

from __future__ import annotations

from ...core.registry import Preset, add_presets

__all__ = ["PRESETS"]


def _demo_c1(sigma_y: float, e: float) -> float:
    return 2.84 * sigma_y / e


PRESETS = {
    "demo-steel": Preset(
        {"sigma_y": 1.0e9, "e": 200e9, "nu": 0.3, "r": 10e-6, "c1": _demo_c1(1.0e9, 200e9)},
        source="assumed values (Goedecke 2013, Appendix A prints no material): hardened steel asperity",
        note="E, nu, sigma_y typical of a hardened steel; r = 10 um and c1 = 2.84 sigma_y/E are assumptions",
    ),
    "mild-steel": Preset(
        {"sigma_y": 350e6, "e": 205e9, "nu": 0.29, "r": 10e-6, "c1": _demo_c1(350e6, 205e9)},
        source="AISI 1020 (cold drawn) typical values, ASM Handbook Vol. 1 (1990): E 205 GPa, nu 0.29, sigma_y ~350 MPa",
        note="r = 10 um and c1 = 2.84 sigma_y/E (demonstration creep time scale) are assumptions",
    ),
    "aluminium-6061-t6": Preset(
        {"sigma_y": 276e6, "e": 68.9e9, "nu": 0.33, "r": 10e-6, "c1": _demo_c1(276e6, 68.9e9)},
        source="Al 6061-T6 typical values, ASM Handbook Vol. 2 (1990): E 68.9 GPa, nu 0.33, sigma_y 276 MPa",
        note="r = 10 um and c1 = 2.84 sigma_y/E (demonstration creep time scale) are assumptions",
    ),
}

add_presets("microjunction", PRESETS)
