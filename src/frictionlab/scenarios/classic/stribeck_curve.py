"""``classic/stribeck-curve``: LuGre steady-state friction vs slip velocity (log sweep)."""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...analysis.steady_state import steady_state
from ...core.registry import make_model
from ...plot import curves
from ...reference.lugre import steady_friction
from ..base import Mutation, Scenario, check, register_scenario

#: the swept slip velocities [m/s]: 25 log-spaced magnitudes 1e-5..1e-1 m/s in both directions
VELOCITIES = np.concatenate([-np.logspace(-5, -1, 25)[::-1], np.logspace(-5, -1, 25)]).tolist()
CONFIG = {
    "model": {"name": "lugre", "preset": "canudas1995"},
    "protocol": {"type": "constant_velocity", "normal_force_value": 1.0},
    "integrator": {"driver": "rk4", "max_points": 400},
    "axes": {"protocol": {"v": VELOCITIES}},
    # each run lasts `relaxation_times` bristle relaxation times tau = g(v) / (sigma0 |v|), with tau /
    # `steps_per_tau` as its step (derive)
    "analysis": {"relaxation_times": 40.0, "steps_per_tau": 20.0},
}
QUICK_VELOCITIES = np.concatenate([-np.logspace(-5, -1, 9)[::-1], np.logspace(-5, -1, 9)]).tolist()
# Canudas de Wit et al. 1995, Table/Section 5 parameters (the description states them); the paper checks
# evaluate the paper's steady state Fc + (Fs - Fc) exp(-(v/vs)^2) + sigma2 v with these, not with the model that ran
PRINTED = {"fc": 1.0, "fs": 1.5, "vs": 1e-3, "sigma2": 0.4, "delta": 2.0}
_EXPONENTIAL = Mutation("Stribeck exponent 1 instead of the printed Gaussian (delta = 1)", {"model.delta": 1.0})
_NO_VISCOUS = Mutation("viscous term missing (sigma2 = 0)", {"model.sigma2": 0.0})
_FS = Mutation("Fs read as 1.2 N instead of 1.5 N", {"model.fs": 1.2})


def _model(cfg: dict):
    m = dict(cfg["model"])
    return make_model(m.pop("name"), m.pop("preset", None), **m)


def relaxation_time(model, v: float, fn: float) -> float:
    """The bristle relaxation time tau = g(v) / (sigma0 |v|) [s] at slip velocity ``v``."""
    g = abs(float(model.friction_curve(np.array([v]), fn)[0]) - model.sigma2 * v)
    return g / (model.sigma0 * abs(v))


def derive(point: dict, cfg: dict) -> dict:
    """Each run's duration and step from its own relaxation time (``analysis`` says how many)."""
    v, fn = float(point["protocol"]["v"]), float(point["protocol"]["normal_force_value"])
    tau = relaxation_time(_model(point), v, fn)
    a = cfg["analysis"]
    return {"protocol.duration_s": float(a["relaxation_times"]) * tau, "integrator.dt": tau / float(a["steps_per_tau"])}


def post(result, cfg: dict) -> xr.Dataset:
    """The steady friction of every run and the closed form of the model that ran."""
    model = _model(cfg)
    vs = np.array(result.axis_values("protocol.v"), dtype=float)
    fn = float(cfg["protocol"]["normal_force_value"])
    sim, t_settle = np.empty(vs.size), np.empty(vs.size)
    for i, ds in enumerate(result.of_run()):
        ss = steady_state(ds.time.values, ds.friction_force.values, rtol=1e-6, tail=0.05)
        sim[i], t_settle[i] = ss.value, ss.time
    exact = steady_friction(vs, model.fc, model.fs, model.vs, model.sigma2, model.delta, fn, model.normal_scaling)
    return xr.Dataset(
        {"friction_force": ("slip_velocity", sim, {"units": "N", "long_name": "simulated steady-state friction"}),
         "friction_force_closed_form": ("slip_velocity", exact, {"units": "N"}),
         "settling_time": ("slip_velocity", t_settle, {"units": "s"})},
        coords={"slip_velocity": ("slip_velocity", vs, {"units": "m/s"})},
        attrs={**model.attrs(), "model": model.name},
    )


def checks(ds: xr.Dataset, cfg: dict) -> list:
    sim = ds.friction_force.values
    exact = ds.friction_force_closed_form.values
    v = ds.slip_velocity.values
    rel = float(np.max(np.abs(sim - exact) / np.abs(exact)))
    printed = steady_friction(v, PRINTED["fc"], PRINTED["fs"], PRINTED["vs"], PRINTED["sigma2"], PRINTED["delta"])
    rel_p = float(np.max(np.abs(sim - printed) / np.abs(printed)))
    # tolerance: the steady-state detector's rtol (1e-6) after 40 relaxation times (e^-40 of the transient)
    out = [check("steady friction equals the paper's sgn(v) (Fc + (Fs - Fc) exp(-(v/vs)^2)) + sigma2 v at the "
                 "printed parameters", "max rel. error < 1e-6", rel_p, rel_p < 1e-6, fmt=".2e",
                 mutations=(_EXPONENTIAL, _NO_VISCOUS, _FS)),
           check("simulated steady state = closed form of the model that ran", "max rel. error < 1e-6",
                 rel, rel < 1e-6, fmt=".2e", kind="verification")]
    pos = v > 0
    if np.any(v < 0):
        fpos = sim[pos]
        fneg = sim[v < 0][::-1]
        odd = float(np.max(np.abs(fpos + fneg)) / np.max(np.abs(fpos)))
        out.append(check("steady friction is odd: F(-v) = -F(v)", "rel. asymmetry < 1e-9", odd, odd < 1e-9, fmt=".2e",
                         insensitive="sgn(v) g(|v|) + sigma2 v is odd for every parameter value; no parameter "
                                     "reading makes it even"))
    fp, vp = sim[pos], v[pos]
    i_min = int(np.argmin(fp))
    # Stribeck minimum of g(v) + sigma2 v: for delta = 2, solve numerically from the closed form
    vv = np.logspace(np.log10(vp[0]), np.log10(vp[-1]), 20001)
    fv = steady_friction(vv, PRINTED["fc"], PRINTED["fs"], PRINTED["vs"], PRINTED["sigma2"], PRINTED["delta"])
    v_star = float(vv[np.argmin(fv)])
    ok = vp[max(i_min - 1, 0)] <= v_star <= vp[min(i_min + 1, vp.size - 1)]
    out.append(check("velocity weakening then strengthening: minimum of F_ss at the Stribeck minimum",
                     f"grid neighbour of v* = {v_star:.3g} m/s", float(vp[i_min]), ok, fmt=".3g",
                     mutations=(_NO_VISCOUS, Mutation("vs read as 10 mm/s", {"model.vs": 1e-2}))))
    f0 = float(fp[0])
    fs = PRINTED["fs"]
    out.append(check("F_ss -> Fs as v -> 0 (lowest swept velocity)", f"{fs:g} N within 1e-3",
                     f0, abs(f0 - fs - PRINTED["sigma2"] * vp[0]) < 1e-3 * fs, mutations=(_FS,)))
    return out


def plot(ds: xr.Dataset):
    v = ds.slip_velocity.values
    pos = v > 0
    return curves(v[pos], {"simulated (LuGre, RK4)": ds.friction_force.values[pos],
                           "closed form sgn(v) g(v) + sigma2 v": ds.friction_force_closed_form.values[pos]},
                  xlabel="slip velocity [m/s]", ylabel="steady friction force [N]", logx=True,
                  styles={"simulated (LuGre, RK4)": "o", "closed form sgn(v) g(v) + sigma2 v": "-"},
                  title="LuGre steady-state (Stribeck) curve")


register_scenario(Scenario(
    name="classic/stribeck-curve",
    description="""LuGre (Canudas de Wit et al. 1995 parameters: sigma0 1e5 N/m, sigma1 sqrt(1e5) N s/m, sigma2 0.4 N s/m, Fc 1
        N, Fs 1.5 N, vs 1 mm/s) slid at constant velocity, 25 log-spaced velocities 1e-5..1e-1 m/s in both
        directions, each until the bristle state has relaxed (40 relaxation times); the simulated steady friction is
        compared with the closed form.""",
    config=CONFIG, post=post, derive=derive, checks=checks, plot=plot,
    quick={"axes.protocol.v": QUICK_VELOCITIES},
    derived={"protocol.duration_s": "analysis.relaxation_times (each run lasts that many relaxation times)",
             "integrator.dt": "analysis.steps_per_tau (each run's step is its relaxation time over it)"},
    moved={"sweep": "the velocities are axes.protocol.v = [...] (m/s), the normal force protocol.normal_force_value, "
                    "the run length and step analysis.relaxation_times and analysis.steps_per_tau",
           "integrator.steps_per_tau": "analysis.steps_per_tau"},
    references=["Canudas de Wit et al. 1995", "Olsson et al. 1998"],
))
