"""The normal-stress path A-B-C-D of Figs. 6 and 7 (spec 7.4; abscissae are spec [R] choices)."""

from __future__ import annotations

from ...protocols import NormalLoadProgramme
from ._common import MM, MPA


def path_protocol(v_mm_s: float, fn_start_mpa: float, fn_end_mpa: float, abcd_mm: list[float]) -> NormalLoadProgramme:
    """f_n held at ``fn_start`` from A to B, ramped linearly to ``fn_end`` at C, held to D,
    as a function of slip at constant speed ``v`` (so of time ``t = u / v``)."""
    a, b, c, d = (x * MM for x in abcd_mm)
    v = v_mm_s * MM
    return NormalLoadProgramme(times=(a / v, b / v, c / v, d / v),
                               loads=(fn_start_mpa * MPA, fn_start_mpa * MPA, fn_end_mpa * MPA, fn_end_mpa * MPA), v=v)
