"""The normal-stress path A-B-C-D of Figs. 6 and 7 (the abscissae are our choices).

The ``[protocol]`` table of those scenarios is a ``normal_load`` programme at constant speed
``v`` [m/s]: ``loads`` [Pa] held from A to B, ramped to C, held to D, at ``times`` [s]
(slip / v). The sweeps change the speed, the final level and the end of the path, keeping the
slip abscissae A, B, C.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from ...protocols import NormalLoadProgramme


def path_slips(cfg: dict[str, Any]) -> np.ndarray:
    """Slip [m] at A, B, C, D of the ``[protocol]`` path."""
    p = cfg["protocol"]
    return np.asarray(p["times"], dtype=float) * float(p["v"])


def path_protocol(cfg: dict[str, Any], *, v: float | None = None, fn_end: float | None = None,
                  end: float | None = None) -> NormalLoadProgramme:
    """The ``[protocol]`` path, optionally at speed ``v`` [m/s], final normal stress ``fn_end`` [Pa]
    (at C and D) and end of the path ``end`` [m] (D)."""
    p = cfg["protocol"]
    slips = path_slips(cfg)
    if end is not None:
        slips[-1] = float(end)
    speed = float(p["v"]) if v is None else float(v)
    loads = [float(x) for x in p["loads"]]
    if fn_end is not None:
        loads[2] = loads[3] = float(fn_end)
    return NormalLoadProgramme(times=tuple(float(x) for x in slips / speed), loads=tuple(loads), v=speed)
