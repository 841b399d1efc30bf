"""``classic/rsf-stability``: spring-slider with rate-and-state friction around k_c.

A study over the spring stiffness (``axes.system.stiffness``, N/m: 0.6, 0.8, 1.2 and 1.5 times
Rice & Ruina's k_c = (b - a) N / Dc = 500 N/m at the stated parameters); ``derive`` preloads each
spring with the steady friction at the drive velocity (``system.preload``), so only the state
perturbation drives the motion. The post step labels the runs by K / k_c and adds ln(v/V).
"""

from __future__ import annotations

import math

import numpy as np
import xarray as xr

from ...core.registry import make_model
from ...plot import time_series
from ...reference.rate_state import critical_stiffness
from ..base import Mutation, Scenario, check, register_scenario

V = 1e-6
CONFIG = {
    # theta(0) = dc / v_init: the state starts 0.5 % above its steady value at V (the perturbation)
    "model": {"name": "rate_state", "preset": "granite-typical", "law": "aging", "form": "arcsinh",
              "v_init": V / 1.005},
    "protocol": {"type": "constant_velocity", "v": V, "duration_s": 2400.0, "normal_force_value": 1.0},
    # the spring is preloaded with the steady friction at V (derive)
    "system": {"type": "mass", "mass": 1.0, "v0": V},
    # stiff (the direct effect a N / v is a huge damping at small v): adaptive Radau
    "integrator": {"driver": "radau", "dt": 1e-3, "save_dt": 0.1, "rtol": 1e-8, "atol": 1e-14},
}
# the stated parameters (granite-typical, N = 1); the stiffnesses are multiples of Rice & Ruina's
# k_c = (b - a) N / Dc at these values (500 N/m), and the linear theory is evaluated with them, so a mutated
# model moves the run and not the spring or the expectation
PRINTED = {"a": 0.010, "b": 0.015, "dc": 1e-5, "normal_force": 1.0}
_DC_LONG = Mutation("Dc read as 20 um (k_c halves)", {"model.dc": 2e-5})
_DC_SHORT = Mutation("Dc read as 5 um (k_c doubles)", {"model.dc": 5e-6})


def _model(cfg: dict):
    m = dict(cfg["model"])
    return make_model(m.pop("name"), m.pop("preset", None), **m)


def k_critical(cfg: dict) -> float:
    """k_c of the model that ran, at the configured normal force."""
    model = _model(cfg)
    return critical_stiffness(model.a, model.b, model.dc, float(cfg["protocol"]["normal_force_value"]))


def k_critical_printed() -> float:
    """Rice & Ruina's k_c = (b - a) N / Dc at the stated parameters [N/m]: the unit of the ratios K / k_c."""
    return critical_stiffness(PRINTED["a"], PRINTED["b"], PRINTED["dc"], PRINTED["normal_force"])


#: the springs K = 0.6, 0.8, 1.2, 1.5 k_c [N/m] (k_c = (b - a) N / Dc = 500 N/m at PRINTED, to round-off)
STIFFNESSES = [r * k_critical_printed() for r in (0.6, 0.8, 1.2, 1.5)]
CONFIG["axes"] = {"system": {"stiffness": STIFFNESSES}}


def linear_theory(cfg: dict, ratio: float) -> tuple[float, float]:
    r"""Growth rate [1/s] and angular frequency [rad/s] of small oscillations (quasi-static, aging law).

    With :math:`\phi = \ln(v/V)`, :math:`\psi = \ln(V\theta/D_c)`, :math:`\tau = tV/D_c` and
    :math:`\kappa = K D_c / N`, the linearised system is
    :math:`a\phi' = (b - \kappa)\phi + b\psi`, :math:`\psi' = -\phi - \psi`, whose eigenvalues have
    trace :math:`(b-\kappa)/a - 1` and determinant :math:`\kappa/a`: neutral at
    :math:`\kappa = b - a` (:math:`K = k_c`), oscillating at :math:`\omega_c = (V/D_c)\sqrt{(b-a)/a}`.
    """
    a, b, dc, fn = PRINTED["a"], PRINTED["b"], PRINTED["dc"], PRINTED["normal_force"]
    kappa = ratio * k_critical_printed() * dc / fn
    tr = (b - kappa) / a - 1.0
    det = kappa / a
    scale = cfg["protocol"]["v"] / dc
    return 0.5 * tr * scale, math.sqrt(max(det - 0.25 * tr * tr, 0.0)) * scale


def derive(point, cfg: dict) -> dict:
    """The spring's preload: the steady friction at the drive velocity, so only the state perturbation
    drives the motion."""
    model = _model(point)
    v, fn = float(point["protocol"]["v"]), float(point["protocol"]["normal_force_value"])
    steady = make_model("rate_state", None, **{**model.to_dict(), "v_init": v})
    return {"system.preload": float(steady.friction_curve(np.array([v]), fn)[0])}


def post(result, cfg: dict) -> xr.Dataset:
    """The runs along ``stiffness_ratio`` (K / k_c at the stated parameters) with ln(v/V)."""
    kc = k_critical_printed()
    v = float(cfg["protocol"]["v"])
    ds = result.combine()
    if "stiffness" not in ds.dims:  # one stiffness (a sweep point, or the base's own spring)
        from ...systems.base import make_system

        ds = ds.expand_dims(stiffness=[float(make_system(result.points[0].config["system"]).stiffness)])
    ratios = [float(f"{float(k) / kc:.12g}") for k in ds.stiffness.values]  # a label: K / k_c to 12 digits
    ds = ds.rename(stiffness="stiffness_ratio")
    ds = ds.assign_coords(stiffness_ratio=("stiffness_ratio", ratios, {"units": "1", "long_name": "K / k_c"}))
    ds["log_velocity_ratio"] = (np.log(np.maximum(np.abs(ds.slip_velocity), 1e-300) / v))
    ds["log_velocity_ratio"].attrs["units"] = "1"
    ds.attrs["k_c"] = kc
    ds.attrs["k_c_model"] = k_critical(cfg)
    return ds


def oscillation(t: np.ndarray, phi: np.ndarray, lo: float = 1e-6, hi: float = 0.2) -> tuple[float, float, int]:
    """Growth rate [1/s] and period [s] from the maxima of phi = ln(v/V) in the linear regime."""
    from scipy.signal import find_peaks  # here, not at import: it loads scipy.stats (~0.3 s for frictionlab list)

    pk, _ = find_peaks(phi)
    big = np.nonzero(phi[pk] >= hi)[0]
    if big.size:  # keep the linear regime only: the maxima before the first large one
        pk = pk[: big[0]]
    pk = pk[phi[pk] > lo]
    if pk.size < 3:
        return math.nan, math.nan, int(pk.size)
    rate = float(np.polyfit(t[pk], np.log(phi[pk]), 1)[0])
    period = float(np.mean(np.diff(t[pk])))
    return rate, period, int(pk.size)


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    kc = k_critical_printed()
    for ratio in ds.stiffness_ratio.values:
        sub = ds.sel(stiffness_ratio=ratio)
        t = sub.time.values
        phi = sub.log_velocity_ratio.values
        n = t.size
        first = float(np.ptp(phi[: n // 10]))
        last = phi[int(0.7 * n):]
        if ratio < 1.0:
            swing = float(min(last.max(), -last.min()))
            ok = ratio <= 0.8 + 1e-12 and swing > 2.0
            out.append(check(f"K = {ratio:g} k_c (k_c = (b-a) N / Dc = {kc:g} N/m): oscillation grows into stick-slip",
                             "v swings beyond e^2 V and below e^-2 V in the last 30 %", swing, ok, fmt=".2f",
                             mutations=(_DC_LONG,)))
        else:
            ratio_amp = float(np.ptp(last)) / first
            out.append(check(f"K = {ratio:g} k_c: steady sliding is stable (perturbation decays)",
                             "last-30 % amplitude < 1 % of the initial", ratio_amp, ratio_amp < 0.01, fmt=".2e",
                             mutations=(_DC_SHORT,)))
        rate_th, omega_th = linear_theory(cfg, float(ratio))
        rate, period, npk = oscillation(t, phi)
        ok_rate = math.isfinite(rate) and abs(rate - rate_th) < 0.1 * abs(rate_th)
        out.append(check(f"K = {ratio:g} k_c: small-oscillation growth rate = linear stability theory",
                         f"{rate_th:.4g} 1/s within 10 %", rate, ok_rate, fmt=".4g", mutations=(_DC_LONG, _DC_SHORT)))
        period_th = 2 * math.pi / omega_th
        ok_p = math.isfinite(period) and abs(period - period_th) < 0.05 * period_th
        out.append(check(f"K = {ratio:g} k_c: small-oscillation period = linear theory", f"{period_th:.4g} s within 5 %",
                         period, ok_p, fmt=".4g", mutations=(_DC_LONG, _DC_SHORT)))
    return out


def summary(ds: xr.Dataset) -> dict[str, float]:
    """Sweep metrics per stiffness: swing of ln(v/V) over the last 30 % and mean spring force."""
    out = {}
    ratios = ds.stiffness_ratio.values
    for r in ratios:
        sub = ds.sel(stiffness_ratio=r)
        n = sub.time.size
        suffix = "" if ratios.size == 1 else f"_{r:g}"
        out[f"stiffness_ratio{suffix}"] = float(r)
        out[f"log_velocity_swing{suffix}"] = float(np.ptp(sub.log_velocity_ratio.values[int(0.7 * n):]))
        out[f"spring_force_mean{suffix}"] = float(sub.spring_force.mean())
    return out


def plot(ds: xr.Dataset):
    return time_series(ds, ["log_velocity_ratio", "spring_force"], hue="stiffness_ratio",
                       title="Spring-slider with rate-and-state friction: K / k_c")


register_scenario(Scenario(
    name="classic/rsf-stability",
    description="""Spring-slider (M = 1 kg, quasi-static: M V^2 / (a N Dc) = 1e-5) with aging-law rate-and-state friction,
        arcsinh form, granite-typical (a 0.010, b 0.015, Dc 10 um), N = 1, V = 1 um/s, state perturbed by 0.5 %; K =
        0.6, 0.8, 1.2, 1.5 k_c with k_c = (b - a) N / Dc = 500 N/m at these parameters (Ruina 1983; a changed model
        keeps these springs: give axes.system.stiffness). Integrated with adaptive Radau (the direct effect makes
        the problem very stiff).""",
    config=CONFIG, post=post, derive=derive, checks=checks, plot=plot, summary=summary,
    derived={"system.preload": "protocol.v or the model (the spring carries the steady friction at protocol.v)"},
    moved={"stiffness_ratios": "axes.system.stiffness = [...] (N/m; k_c = 500 N/m at the stated parameters)"},
    quick={"axes.system.stiffness": STIFFNESSES[1:3]},
    references=["Ruina 1983", "Rice & Ruina 1983", "Gu et al. 1984"],
))
