"""``classic/dahl-hysteresis``: Dahl presliding loop under a sinusoidal displacement.

A study of two named runs: ``reference`` (the base protocol) and ``fast`` (the same loop at a
higher ``protocol.frequency``); each run's step and save interval are one cycle over
``analysis.steps_per_cycle`` (derive), so both runs take the same steps per cycle and their
friction can be compared sample by sample (rate independence). The post step keeps the
reference run with the fast run's friction alongside.
"""

from __future__ import annotations

import math

import numpy as np
import xarray as xr

from ...core.registry import make_model
from ...plot import versus
from ...core.errors import ConfigError
from ..base import Mutation, Scenario, check, register_scenario

CONFIG = {
    "model": {"name": "dahl", "preset": "unit"},
    "protocol": {"type": "sinusoidal", "amplitude": 2e-5, "frequency": 1.0, "cycles": 4.0, "normal_force_value": 1.0},
    "integrator": {"driver": "rk4"},
    # rate independence: the loop is repeated at 10 x the frequency (same steps per cycle)
    "runs": {"reference": {}, "fast": {"protocol": {"frequency": 10.0}}},
    # every run's step (and save interval) is one cycle over steps_per_cycle (derive)
    "analysis": {"steps_per_cycle": 1e4},
}
# the parameters the description states (Dahl 1968's law with alpha = 1); the tip and area expectations use
# these, not the model that ran
PRINTED = {"fc": 1.0, "sigma0": 1e5, "alpha": 1.0}
_ALPHA = Mutation("Dahl exponent alpha = 2 instead of the stated 1", {"model.alpha": 2.0})
_SIGMA0 = Mutation("sigma0 read as 5e4 N/m instead of 1e5 N/m", {"model.sigma0": 5e4})


def _model(cfg: dict):
    m = dict(cfg["model"])
    return make_model(m.pop("name"), m.pop("preset", None), **m)


def derive(point: dict, cfg: dict) -> dict:
    """Each run's step and save interval: one cycle over ``analysis.steps_per_cycle``."""
    dt = (1.0 / float(cfg["analysis"]["steps_per_cycle"])) / float(point["protocol"]["frequency"])
    return {"integrator.dt": dt, "integrator.save_dt": dt}


def frequency_factor(cfg: dict) -> float:
    """The fast run's frequency over the reference run's."""
    runs = cfg.get("runs") or {}
    if sorted(runs) != ["fast", "reference"]:
        raise ConfigError(f"runs: classic/dahl-hysteresis compares the runs 'reference' and 'fast', got "
                          f"{', '.join(map(repr, runs)) or 'none'}")
    f0 = float((runs["reference"].get("protocol") or {}).get("frequency", cfg["protocol"]["frequency"]))
    return float((runs["fast"].get("protocol") or {}).get("frequency", cfg["protocol"]["frequency"])) / f0


def post(result, cfg: dict) -> xr.Dataset:
    """The reference run, with the fast run's friction (same phase, same steps per cycle) alongside."""
    r = frequency_factor(cfg)
    ds, fast = result.pick("reference"), result.pick("fast")
    n = min(ds.time.size, fast.time.size)
    ds = ds.isel(time=slice(0, n))
    ds["friction_force_fast"] = ("time", fast.friction_force.values[:n],
                                 {"units": "N", "long_name": f"friction at {r:g} x the frequency, same phase"})
    return ds


def last_cycle(ds: xr.Dataset, cfg: dict) -> tuple[np.ndarray, np.ndarray]:
    period = 1.0 / cfg["protocol"]["frequency"]  # the reference run's (the fast run sets its own)
    t = ds.time.values
    sel = t >= t[-1] - period - 1e-12
    return ds.slip.values[sel], ds.friction_force.values[sel]


def loop_energy(x: np.ndarray, f: np.ndarray) -> float:
    """Dissipated energy over the (closed) loop, trapezoidal sum of F dx [J]."""
    return float(np.sum(0.5 * (f[1:] + f[:-1]) * np.diff(x)))


def closed_form(model: dict, amplitude: float) -> tuple[float, float]:
    r"""Steady loop of the alpha = 1 Dahl law between :math:`\pm A`.

    Each branch is :math:`F = \pm F_c + (F_0 \mp F_c) e^{-\sigma_0 |x - x_0| / F_c}`; periodicity gives
    :math:`F_{max} = F_c \tanh(\sigma_0 A / F_c)` and the loop area
    :math:`W = 2[2 A F_c - (F_{max} + F_c)(F_c/\sigma_0)(1 - e^{-2\sigma_0 A/F_c})]`.
    """
    fc, s0 = model["fc"], model["sigma0"]
    e = math.exp(-2 * s0 * amplitude / fc)
    fmax = fc * math.tanh(s0 * amplitude / fc)
    w = 2 * (2 * amplitude * fc - (fmax + fc) * (fc / s0) * (1 - e))
    return fmax, w


def checks(ds: xr.Dataset, cfg: dict) -> list:
    model = _model(cfg)
    amp = cfg["protocol"]["amplitude"]
    x, f = last_cycle(ds, cfg)
    w = loop_energy(x, f)
    out = [check("dissipated energy over a closed displacement loop is non-negative", ">= 0 J", w, w >= 0, fmt=".4e",
                 insensitive="dF/dx = sigma0 (1 - F sgn(dx)/fc)^alpha keeps |F| <= fc and lags the displacement for "
                             "every positive parameter value: the loop is traversed clockwise whatever they are")]
    gap = abs(float(f[-1] - f[0])) / model.fc
    out.append(check("the loop closes (periodic after the virgin curve)", "abs(F(t_end) - F(t_end - T)) < 1e-6 fc",
                     gap, gap < 1e-6, fmt=".2e", kind="verification"))
    # our closed form of Dahl's law (alpha = 1) at the stated parameters; tolerances: RK4 at 10^4 steps per
    # cycle (1e-4 on the tip) and the trapezoidal loop sum (1e-3 on the area)
    fmax, w_th = closed_form(PRINTED, amp)
    fm = float(np.max(f))
    out.append(check("loop tip F_max = fc tanh(sigma0 A / fc)", f"{fmax:.6f} N within 1e-4 rel.", fm,
                     abs(fm - fmax) < 1e-4 * fmax, fmt=".6f", mutations=(_ALPHA, _SIGMA0)))
    out.append(check("loop area (dissipated energy per cycle) = closed form", f"{w_th:.5e} J within 1e-3 rel.", w,
                     abs(w - w_th) < 1e-3 * w_th, fmt=".5e", mutations=(_ALPHA, _SIGMA0)))
    fast = ds.friction_force_fast.values
    diff = float(np.max(np.abs(fast - ds.friction_force.values))) / model.fc
    out.append(check(f"rate independence: the same loop at {frequency_factor(cfg):g} x the frequency",
                     "max difference < 1e-6 fc", diff, diff < 1e-6, fmt=".2e",
                     insensitive="Dahl's law is written in the displacement alone (dF/dx), so no parameter of it "
                                 "carries a rate; the check guards the implementation (same steps per cycle)"))
    return out


def plot(ds: xr.Dataset):
    return versus(ds, "slip", "friction_force", title="Dahl presliding hysteresis (sinusoidal displacement)")


register_scenario(Scenario(
    name="classic/dahl-hysteresis",
    description="""Dahl (1968) law, sigma0 = 1e5 N/m, Fc = 1 N, alpha = 1, under a sinusoidal slip x = A sin(2 pi f t), A = 20
        um (2 Fc / sigma0), f = 1 Hz, 4 cycles, prescribed slip; loop tip and area against the closed form, and the
        same loop at 10 Hz (rate independence).""",
    config=CONFIG, post=post, derive=derive, checks=checks, plot=plot,
    quick={"analysis.steps_per_cycle": 5e3},
    derived={"integrator.dt": "analysis.steps_per_cycle (each run's step is one cycle over it)",
             "integrator.save_dt": "analysis.steps_per_cycle (every step is saved)"},
    moved={"frequency_factor": "runs.fast.protocol.frequency (the fast run's frequency, Hz)"},
    references=["Dahl 1968", "Olsson et al. 1998"],
))
