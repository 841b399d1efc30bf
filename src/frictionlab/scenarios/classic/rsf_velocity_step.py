"""``classic/rsf-velocity-step``: RSF aging and slip laws under 1 -> 10 -> 1 um/s.

A study of one named run per evolution law (``runs.aging.model.law = "aging"``, ...); the post
step stacks them along ``law`` (each run's own ``model.law``).
"""

from __future__ import annotations

import math

import numpy as np
import xarray as xr

from ...plot import time_series
from ...reference.rate_state import direct_effect, steady_mu
from ...core.errors import ConfigError
from ...core.registry import make_model
from ..base import Mutation, Scenario, check, register_scenario

V1, V2 = 1e-6, 1e-5
CONFIG = {
    "model": {"name": "rate_state", "preset": "granite-typical", "v_init": V1},
    "protocol": {"type": "velocity_steps", "velocities": [V1, V2, V1], "distances": [2e-4, 2e-4, 2e-4],
                 "normal_force_value": 1.0},
    "integrator": {"driver": "rk4", "dt": 5e-3, "save_dt": 5e-3},
    # the evolution laws side by side, one run each
    "runs": {"aging": {"model": {"law": "aging"}}, "slip": {"model": {"law": "slip"}}},
}
# the parameters the description states (granite-typical); the paper checks' expected values use these,
# so a mutated model moves the run and not the expectation
PRINTED = {"mu0": 0.6, "a": 0.010, "b": 0.015, "dc": 1e-5, "v0": 1e-6}
_NO_EVOLUTION = Mutation("no evolution effect (b = 0)", {"model.b": 0.0})
_A_AS_B = Mutation("direct effect with b in place of a (a = 0.015)", {"model.a": 0.015})


def _model(cfg: dict):
    m = dict(cfg["model"])
    return make_model(m.pop("name"), m.pop("preset", None), **m)


def run_configs(cfg: dict) -> dict:
    """``{law: the run's four-section config}`` of every run (the base alone when there are none)."""
    from ...solve.study import merge_run

    base = {k: cfg[k] for k in ("model", "protocol", "system", "integrator") if k in cfg}
    merged = [merge_run(base, run) for run in (cfg.get("runs") or {}).values()] or [base]
    out = {_model(c).law: c for c in merged}
    if len(out) < len(merged):
        raise ConfigError("runs: two runs have the same model.law; give each evolution law one run")
    return out


def _check_resolved(cfg: dict) -> None:
    """The checks read each segment's start and end: refuse a segment shorter than two save
    intervals (a velocity of 1e308 m/s makes the first one last 1e-312 s, which no sample resolves)."""
    p, integ = cfg["protocol"], cfg.get("integrator", {})
    step = max(float(integ.get("dt") or 0.0), float(integ.get("save_dt") or 0.0))
    if not math.isfinite(step):  # simulate's own check names the key
        return
    for i, (d, v) in enumerate(zip(p["distances"], p["velocities"])):
        dur = float(d) / float(v) if float(v) else float("inf")
        if step and not dur >= 2 * step:
            raise ConfigError(f"protocol segment {i + 1} ({float(d):g} m at {float(v):g} m/s) lasts {dur:.3g} s, "
                              f"less than two samples of {step:g} s: its velocity step cannot be checked; use "
                              "slower velocities or longer distances")


def post(result, cfg: dict) -> xr.Dataset:
    """The runs stacked along ``law`` (each run's evolution law)."""
    laws = list(run_configs(cfg))
    for c in run_configs(cfg).values():
        _check_resolved(c)
    ds = result.combine()
    ds = ds.rename(run="law") if "run" in ds.dims else ds.expand_dims("law")
    return ds.assign_coords(law=laws)


def checks(ds: xr.Dataset, cfg: dict) -> list:
    runs = run_configs(cfg)
    vels = cfg["protocol"]["velocities"]
    t_edges = np.cumsum([0.0] + [d / v for d, v in zip(cfg["protocol"]["distances"], vels)])
    out = []
    for law in ds.law.values:
        mu = ds.friction_coefficient.sel(law=law)
        t = ds.time.values
        # steady state at the end of the fast segment and at the end of the run
        mu_end_fast = float(mu.sel(time=t_edges[2] - 1e-9, method="pad"))
        exp_fast = float(steady_mu(vels[1], PRINTED["mu0"], PRINTED["a"], PRINTED["b"], PRINTED["v0"]))
        # Ruina 1983: both laws share the steady state mu0 + (a - b) ln(v/v0); the 1e-4 tolerance is the
        # integrator's (dt 5 ms, 200 um = 20 dc after the step, relaxed to e^-20)
        out.append(check(f"{law}: steady friction at {vels[1]:g} m/s = mu0 + (a-b) ln(v/v0)", f"{exp_fast:.6f} (rel 1e-4)",
                         mu_end_fast, abs(mu_end_fast - exp_fast) < 1e-4 * exp_fast, fmt=".6f",
                         mutations=(_NO_EVOLUTION, _A_AS_B)))
        # direct effect: the first sample after the step
        i_after = int(np.searchsorted(t, t_edges[1] + 1e-12))
        jump = float(mu[i_after] - mu.sel(time=t_edges[1] - 1e-9, method="pad"))
        exp_jump = direct_effect(vels[0], vels[1], PRINTED["a"])
        # Dieterich 1979 / Ruina 1983: the instantaneous jump a ln(v2/v1); 2 % allows the state evolving
        # within the first saved step (5 ms = 0.005 dc at 10 um/s)
        out.append(check(f"{law}: direct effect a ln(v2/v1) at the up-step", f"{exp_jump:.5f} (rel 2 %)", jump,
                         abs(jump - exp_jump) < 0.02 * exp_jump, fmt=".5f", mutations=(_A_AS_B,)))
    # recovery of half the log-state offset (our closed form of each law at prescribed slip rate, computed
    # with the model that ran: a verification of the integration): slip law symmetric (ln 2 dc both ways); aging law
    # asymmetric: theta relaxes exponentially in theta, so dc ln(9/(sqrt(10)-1)) up, dc ln(0.9/(1-10^-0.5)) down
    r = vels[1] / vels[0]
    for law in ds.law.values:
        dc = _model(runs[str(law)]).dc
        expected = {"slip": (np.log(2) * dc, np.log(2) * dc),
                    "aging": (dc * np.log((r - 1) / (np.sqrt(r) - 1)), dc * np.log((1 - 1 / r) / (1 - 1 / np.sqrt(r))))}
        theta = ds.state_theta.sel(law=law).values
        slip = ds.slip.sel(law=law).values
        t = ds.time.values
        for k, (seg, v_new, v_old) in enumerate(((1, vels[1], vels[0]), (2, vels[2], vels[1]))):
            sel = (t >= t_edges[seg]) & (t < t_edges[seg + 1])
            omega = np.log(v_new * theta[sel] / dc)  # log distance from steady state
            half = np.argmax(np.abs(omega) <= 0.5 * abs(np.log(v_new / v_old)))
            x_half = slip[sel][half] - slip[sel][0]
            exp_x = expected[law][k]
            out.append(check(f"{law} law: slip to recover half the state offset after the {'up' if k == 0 else 'down'}-step",
                             f"{exp_x * 1e6:.3f} um (rel 3 %)", x_half * 1e6, abs(x_half - exp_x) < 0.03 * exp_x,
                             kind="verification"))
    return out


def plot(ds: xr.Dataset):
    return time_series(ds, ["friction_coefficient", "state_theta"], hue="law",
                       title="Rate-and-state velocity step 1 -> 10 -> 1 um/s")


register_scenario(Scenario(
    name="classic/rsf-velocity-step",
    description="""Dieterich-Ruina rate-and-state friction (granite-typical: mu0 0.6, a 0.010, b 0.015, Dc 10 um) under
        load-point velocity steps 1 -> 10 -> 1 um/s, 200 um each, prescribed slip; aging and slip evolution laws
        side by side.""",
    config=CONFIG, post=post, checks=checks, plot=plot,
    moved={"laws": "runs: one named run per evolution law (runs.aging.model.law = \"aging\", runs.slip.model.law = "
                   "\"slip\"); model.law is set by each run"},
    references=["Dieterich 1979", "Ruina 1983"],
))
