"""Shared helpers of the ``beam-network/*`` scenarios."""

from __future__ import annotations

from typing import Any

import numpy as np
from scipy.stats import spearmanr

from ...contact.beam_network.params import CITATION, BeamNetworkParams
from ...core.errors import ConfigError
from ...core.registry import make_model
from ...protocols import ConstantVelocity

REFERENCES = [CITATION]

MODEL = {"name": "beam_network", "preset": "vf60-calibrated"}
NUMERICS = {"dt": 2e-5, "scheme": "semi-implicit", "save_dt": 1e-3, "n_picard": 1}

CALIBRATION_NOTE = ("preset vf60-calibrated: printed Table 3 except v_s = 1.5e-3 m/s (printed 0.018), chosen by "
                    "beam-network/calibration because the printed v_s gives no stick-slip at 7.5e-4 m/s")


def params_from(cfg: dict[str, Any], **extra: Any) -> BeamNetworkParams:
    """Model parameters from a scenario's ``model`` section (+ ``extra`` overrides)."""
    m = dict(cfg["model"])
    m.pop("name", None)
    preset = m.pop("preset", None)
    m.update(extra)
    return make_model("beam_network", preset, **m)


def stage_protocol(cfg: dict[str, Any], p: BeamNetworkParams) -> ConstantVelocity:
    """The ``[drive]`` section as a constant stage velocity at the model's normal load."""
    return ConstantVelocity(v=float(cfg["drive"]["v"]), duration_s=float(cfg["drive"]["duration"]),
                            normal_force_value=p.normal_load)


def check_integrator(cfg: dict[str, Any], *extra: str) -> dict[str, Any]:
    """The ``[integrator]`` table; keys other than dt, save_dt, scheme, n_picard (and ``extra``) are refused."""
    integ = cfg["integrator"]
    allowed = ("dt", "save_dt", "scheme", "n_picard", *extra)
    unknown = sorted(set(integ) - set(allowed))
    if unknown:
        raise ConfigError(f"this beam-network scenario takes the integrator keys {', '.join(allowed)}; "
                          f"got {', '.join(unknown)}")
    return integ


def numerics(cfg: dict[str, Any]) -> dict[str, Any]:
    n = cfg.get("integrator", {})
    return {"dt": float(n.get("dt", 2e-5)), "scheme": n.get("scheme", "semi-implicit"),
            "save_dt": float(n.get("save_dt", 1e-3)), "n_picard": int(n.get("n_picard", 1))}


def rank_corr(x, y) -> float:
    """Spearman rank correlation of the finite pairs (nan when fewer than 3)."""
    x = np.asarray(x, float)
    y = np.asarray(y, float)
    ok = np.isfinite(x) & np.isfinite(y)
    if ok.sum() < 3:
        return float("nan")
    return float(spearmanr(x[ok], y[ok]).statistic)
