"""Shared helpers of the ``beam-network/*`` scenarios."""

from __future__ import annotations

from typing import Any

import numpy as np

from ...contact.beam_network.mlbnm import iub_arrays
from ...contact.beam_network.params import CITATION, BeamNetworkParams
from ...contact.beam_network.stability import iub_stability
from ...core.registry import make_model
from ..base import Check, Mutation, check

REFERENCES = [CITATION]

MODEL = {"name": "beam_network", "preset": "vf60-calibrated"}
NUMERICS = {"dt": 2e-5, "scheme": "semi-implicit", "save_dt": 1e-3, "n_picard": 1}

CALIBRATION_NOTE = ("preset vf60-calibrated: printed Table 3 except v_s = 1.5e-3 m/s (printed 0.018), chosen by "
                    "beam-network/calibration because the printed v_s gives no stick-slip at 7.5e-4 m/s")

#: Tables 1-3 (VytaFlex 60) as printed, with c_b = 148 N s/m (Fig. 13, pattern II): the reference of every
#: deviation's evidence
PRINTED_PRESET = "vf60-table3"
#: model values the paper does not print (c_b for Fig. 8, the beam tip mass) or that a scenario sets per case
UNPRINTED = ("cb", "beam_mass", "normal_load")

#: the wrong models the beam-network paper checks are tried against (``frictionlab reproduce --mutations``)
NO_WEAKENING = Mutation("mu_C read as 0.75 (Table 1 prints 0.57): almost no Stribeck drop from mu_S = 0.76",
                        {"model.mu_c": 0.75})
UNIFORM_LOAD = Mutation("Fig. 7's load map read as a uniform load F_z / N on every beam",
                        {"model.load_distribution": "uniform"})
NO_SPRINGS = Mutation("the inter-beam springs of eq. (4) left out (k_e = 0)", {"model.ke": 0.0})


def printed_counterpart(p: BeamNetworkParams) -> BeamNetworkParams:
    """The model that ran with the one value our calibration changes (v_s) set back to Table 3's 0.018 m/s.

    Deviation evidence is computed on it, so ``--set`` moves the evidence with the model; :func:`printed_guard`
    says whether it is still the printed parameter set."""
    return p.replace(v_stribeck=make_model("beam_network", PRINTED_PRESET).v_stribeck)


def printed_guard(p: BeamNetworkParams, what: str) -> Check:
    """Evidence check: ``p`` holds the printed Tables 1-3 values, apart from :data:`UNPRINTED`.

    A deviation says that the *printed* parameters do not give a claim; evidence computed on a set with another
    value (``--set model.mu_c=0.75``) is no evidence about the paper, so this check then fails and the deviation
    is refused."""
    t = make_model("beam_network", PRINTED_PRESET).to_dict()
    mine = p.to_dict()
    diffs = [f"{k} = {mine[k]!r} (printed {t[k]!r})" for k in t if k not in UNPRINTED and mine.get(k) != t[k]]
    return check(f"the evidence's parameter set ({what}) is the printed Tables 1-3 apart from the unprinted c_b "
                 "and beam mass", "no other value differs", "; ".join(diffs) or "none differs", not diffs,
                 kind="verification")


def params_from(cfg: dict[str, Any], **extra: Any) -> BeamNetworkParams:
    """Model parameters from a scenario's ``model`` section (+ ``extra`` overrides)."""
    m = dict(cfg["model"])
    m.pop("name", None)
    preset = m.pop("preset", None)
    m.update(extra)
    return make_model("beam_network", preset, **m)


def stage_load(point: Any, cfg: dict[str, Any]) -> dict[str, Any]:
    """``derive`` of a beam-network study: the stage's normal force is the run's ``model.normal_load``
    (the load sets the contact patch through the Fig. 7 polynomial; the drivers refuse another)."""
    m = dict(point["model"])
    m.pop("name", None)
    return {"protocol.normal_force_value": float(make_model("beam_network", m.pop("preset", None), **m).normal_load)}


#: the ``derived`` entry of :func:`stage_load`
STAGE_LOAD = {"protocol.normal_force_value": "model.normal_load (it sets the contact patch, Fig. 7)"}


def rank_corr(x, y) -> float:
    """Spearman rank correlation of the finite pairs (nan when fewer than 3)."""
    x = np.asarray(x, float)
    y = np.asarray(y, float)
    ok = np.isfinite(x) & np.isfinite(y)
    if ok.sum() < 3 or np.ptp(x[ok]) == 0 or np.ptp(y[ok]) == 0:  # constant: no rank order (scipy would warn)
        return float("nan")
    from scipy.stats import spearmanr  # here, not at import: scipy.stats alone costs ~0.3 s (frictionlab list)

    return float(spearmanr(x[ok], y[ok]).statistic)


def steady_friction(p, v: float) -> float:
    """Total friction of steady sliding: F_z g(V) + sigma_2 V summed over the beams (eq. 11 at rest state)."""
    a = iub_arrays(p, single=True)
    g = p.mu_c + (p.mu_s - p.mu_c) * np.exp(-((v / p.v_stribeck) ** p.alpha))
    return float(p.normal_load * g + a["s2"][0] * v)


def table3_evidence(growth: np.ndarray, unstable_at_v: np.ndarray, final: np.ndarray, target: np.ndarray,
                    ripple: np.ndarray, what: str) -> list[Check]:
    """Evidence that the printed Table 3 slides steadily: linear stability and runs from rest.

    ``growth``: unit-beam growth rates [1/s] (roots of the cubic); ``unstable_at_v``: the
    Routh-Hurwitz verdict (micro-damping or stiffness or coupled branch) at the same points;
    ``final``/``target``: mean friction of the last 40 % of runs from rest and F_z g(V) + sigma_2 V;
    ``ripple``: their peak-to-peak / mean.
    """
    err = np.abs(final / target - 1)
    return [
        check(f"unit beam linearised at the printed values ({what}): every growth rate < 0",
              "max Re(s) < 0", f"max Re(s) = {np.max(growth):.4g} 1/s over {growth.size} cases", np.max(growth) < 0),
        check("closed-form band (Routh-Hurwitz: micro-damping c + m lambda0 < beta sigma1, stiffness beta > k_b/sigma0 "
              "+ c V/(F_z g), coupled) excludes these points", "no branch active",
              f"{int(np.sum(unstable_at_v))}/{unstable_at_v.size} points unstable", not np.any(unstable_at_v)),
        check("runs from rest rise smoothly to F_z g(V) + sigma_2 V (no stick-slip)",
              "last 40 %: mean within 1 %, peak-to-peak < 1 % of the mean",
              f"max error {np.max(err):.2%}, max ripple {np.max(ripple):.2%}", np.max(err) <= 0.01 and np.max(ripple) < 0.01),
    ]



def linear_stability_evidence(params: list[BeamNetworkParams], velocities, what: str) -> Check:
    """Evidence check: the unit beam is linearly stable at every (params, velocity) point.

    Both the Routh-Hurwitz branches (:mod:`frictionlab.contact.beam_network.stability`) and the
    numerical roots of the cubic are evaluated; the check passes when both say stable everywhere.
    """
    v = np.atleast_1d(np.asarray(velocities, float))
    sts = [iub_stability(p, v) for p in params]
    growth = max(float(st.growth_rate.max()) for st in sts)  # roots: independent of the Hurwitz verdict
    n_un = sum(int(st.unstable.sum()) for st in sts)
    n = len(sts) * v.size
    return check(f"unit beam linearly stable at {what} (Routh-Hurwitz branches and roots)",
                 "no branch active, max Re(s) < 0", f"{n_un}/{n} points unstable, max Re(s) = {growth:.3g} 1/s",
                 n_un == 0 and growth < 0)
