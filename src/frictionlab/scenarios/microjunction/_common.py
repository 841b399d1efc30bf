"""Helpers shared by the microjunction scenarios (model building, solver options)."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...contact.microjunction import Microjunction
from ...core.errors import ConfigError
from ...core.registry import make_model

REFERENCES = ["Goedecke 2013, Transient Effects in Friction, Appendix A (doi:10.1007/978-3-7091-1506-0)",
              "Jackson & Green 2005, J. Tribol. 127, 343"]


def model_of(cfg: dict[str, Any]) -> Microjunction:
    m = dict(cfg["model"])
    m.pop("name", None)
    return make_model("microjunction", m.pop("preset", None), **m)


def solver_opts(cfg: dict[str, Any]) -> dict[str, Any]:
    """``integrate_junction`` keywords from ``[integrator]``: ``solver``, ``rtol``, ``atol`` and
    ``dt`` (optional; caps the adaptive step, as in the ``"junction"`` driver of ``simulate``)."""
    integ = dict(cfg.get("integrator", {}))
    unknown = sorted(set(integ) - {"solver", "rtol", "atol", "dt"})
    if unknown:
        raise ConfigError(f"the microjunction scenarios take the integrator keys solver, rtol, atol, dt; "
                          f"got {', '.join(unknown)}")
    opts = {"method": integ.get("solver", "DOP853"), "rtol": float(integ.get("rtol", 1e-9)),
            "atol": float(integ.get("atol", 1e-12))}
    if integ.get("dt") is not None:
        opts["max_step"] = float(integ["dt"])
    return opts


def log_grid(t0: float, t1: float, n: int, extra: tuple[float, ...] = ()) -> np.ndarray:
    g = np.unique(np.concatenate([[t0], np.geomspace(t0, t1, n), [x for x in extra if t0 <= x <= t1]]))
    return g


def rel(a: float, b: float) -> float:
    return abs(a - b) / abs(b)
