"""``kloss/fig8``: hysteresis of the dynamic Kloss law (eq. 25) vs the Dahl model (Fig. 8).

The paper gives no numbers for Fig. 8. Protocol (ours): prescribed
displacement x(t) = A sin(2 pi t / T), A = 1 mm, T = 1 s, 3 cycles, last cycle analysed;
Kloss parameters of Fig. 4(a); lag time constants T_f in {0, 0.01, 0.05} s with
alpha = exp(-dt/T_f) at dt = 0.1 ms (the paper's discrete alpha-form, :func:`kloss_alpha_filter`);
Dahl with sigma0 = 1e3 N/m and F_C = 0.4706 N.

Notes
-----
The static law is single-valued in the force-velocity plane; the lag opens a loop there
whose area grows with T_f (alpha). In the force-displacement plane the loop area is the
energy dissipated per cycle; for this law it *decreases* with T_f (the lag makes the force
more elastic, in phase with x), which the report shows as an informative measurement.
The continuous :class:`~frictionlab.laws.kloss.KlossDynamic` simulated by the library's RK4
must agree with the discrete alpha-form (exact for a held input) to O(dt).

The study runs the continuous lag (``runs.continuous``, its own ``model.t_f``) and the Dahl model
(``runs.dahl``) under the sinusoid; the paper's discrete alpha-form (eq. 25) is a filter of the
sampled velocity, not a run: the post step applies it for every lag of ``analysis.lags``.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...laws.kloss import alpha_from_time_constant, kloss, kloss_alpha_filter
from ...plot import plt
from ...protocols import make_protocol
from ..base import Mutation, Scenario, check, register_scenario
from ._common import REFS

CONFIG = {
    "model": {"name": "kloss_dynamic", "f_max": 1.0, "v_max0": 0.01, "zeta": 0.5},
    "protocol": {"type": "sinusoidal", "amplitude": 1e-3, "frequency": 1.0, "cycles": 3.0},
    # every step saved (max_points above the step count)
    "integrator": {"driver": "rk4", "dt": 1e-4, "max_points": 10 ** 8},
    # the continuous lag T_f dF/dt = F_ss - F at one time constant (the cross-check of eq. 25), and Dahl
    "runs": {"continuous": {"model": {"t_f": 0.05}},
             "dahl": {"model": {"name": "dahl", "sigma0": 1e3, "fc": 0.4706}}},
    # the lag time constants T_f [s] of the discrete alpha-form, alpha = exp(-dt/T_f)
    "analysis": {"lags": [0.0, 0.01, 0.05]},
}


def _area(x: np.ndarray, y: np.ndarray) -> float:
    return float(abs(np.sum(0.5 * (y[1:] + y[:-1]) * np.diff(x))))


def post(result, cfg: dict) -> xr.Dataset:
    """Eq. 25 for every lag on the sampled sinusoid, beside the continuous lag and Dahl runs (on its samples)."""
    m = cfg["model"]
    dt = float(cfg["integrator"]["dt"])
    proto = make_protocol(cfg["protocol"])
    t = np.arange(int(round(proto.duration / dt)) + 1) * dt
    x = proto.displacement(t)
    v = proto.velocity(t)
    lags = [float(l) for l in cfg["analysis"]["lags"]]
    F = np.empty((len(lags), t.size))
    for j, tf in enumerate(lags):
        F[j] = kloss_alpha_filter(v, alpha_from_time_constant(dt, tf), m["f_max"], m["v_max0"], m["zeta"])
    cont, dahl = result.pick("continuous"), result.pick("dahl")
    return xr.Dataset(
        {"friction_force": (("lag", "time"), F, {"units": "N"}),
         "friction_continuous": ("time", np.interp(t, cont.time.values, cont.friction_force.values), {"units": "N"}),
         "friction_dahl": ("time", np.interp(t, dahl.time.values, dahl.friction_force.values), {"units": "N"}),
         "slip": ("time", x, {"units": "m"}), "slip_velocity": ("time", v, {"units": "m/s"})},
        coords={"time": ("time", t, {"units": "s"}), "lag": ("lag", lags, {"units": "s"})},
        attrs={"f_max": m["f_max"], "v_max0": m["v_max0"], "zeta": m["zeta"], "dt": dt})


_NO_LAG = Mutation("the static law in place of the dynamic form (every lag 0)", {"analysis.lags": [0.0, 0.0, 0.0]})
#: hysteresis "observed": the largest lag's F-v loop encloses more than this fraction of the plot box
#: F_max x (velocity range) -- a loop visible on a figure of that box
LOOP_VISIBLE = 0.01


def checks(ds: xr.Dataset, cfg: dict) -> list:
    m = cfg["model"]
    t = ds.time.values
    period = 1.0 / cfg["protocol"]["frequency"]
    last = t >= t[-1] - period - 1e-12
    x, v = ds.slip.values[last], ds.slip_velocity.values[last]
    fv_area, fx_area = [], []
    for lag in ds.lag.values:
        f = ds.friction_force.isel(lag=list(ds.lag.values).index(lag)).values[last]
        fv_area.append(_area(v, f))
        fx_area.append(_area(x, f))
    dt = float(cfg["integrator"]["dt"])
    # F_{k+1} = alpha F_k + (1 - alpha) F_ss(v_k) is the exact lag for v held at v_k: compare at t_k, at the
    # continuous run's T_f
    lags = list(ds.lag.values)
    t_f = float(cfg["runs"]["continuous"]["model"]["t_f"])
    f_disc = kloss_alpha_filter(ds.slip_velocity.values, alpha_from_time_constant(dt, t_f), m["f_max"], m["v_max0"],
                                m["zeta"])
    err = float(np.max(np.abs(f_disc - ds.friction_continuous.values)))
    fss_series = kloss(ds.slip_velocity.values, m["f_max"], m["v_max0"], m["zeta"])
    zoh_bound = dt * float(np.max(np.abs(np.diff(fss_series)))) / dt  # dt * max |dF_ss/dt|
    f0 = ds.friction_force.isel(lag=lags.index(0.0)).values if 0.0 in lags else None
    delay_err = float(np.max(np.abs(f0[1:] - fss_series[:-1]))) if f0 is not None else float("nan")
    # eq. 25 at constant v: geometric convergence to the static law
    a = 0.9
    fk = kloss_alpha_filter(np.full(50, 0.003), a, m["f_max"], m["v_max0"], m["zeta"], f0=0.0)
    fss = float(kloss(np.array([0.003]), m["f_max"], m["v_max0"], m["zeta"])[0])
    geo_err = float(np.max(np.abs((fk - fss) - a ** np.arange(50) * (0.0 - fss))))
    fd = ds.friction_dahl.values[last]
    box = m["f_max"] * float(np.ptp(v))
    return [
        check("the dynamic form (25) shows hysteresis, and alpha (T_f) shapes it: the F-v loop area grows with the lag "
              "(Sec. V.E on Fig. 8)", "strictly increasing, from 0 at alpha = 0", ", ".join(f"{a_:.3g}" for a_ in fv_area),
              all(np.diff(fv_area) > 0), mutations=(_NO_LAG,),
              ambiguity="the paper prints no numbers for Fig. 8: sinusoidal displacement, lags and Dahl values are ours"),
        check("alpha gives different shapes of the force-displacement curve (Sec. V.E)",
              "F-x loop areas differ by more than 1 % across the lags", ", ".join(f"{a_:.4g}" for a_ in fx_area),
              np.ptp(fx_area) > 0.01 * max(fx_area), mutations=(_NO_LAG,)),
        check("alpha = 0 reproduces the static law, delayed by one sample (eq. 25)", "max |diff| = 0",
              delay_err, delay_err == 0.0, fmt=".3g", kind="verification"),
        check("discrete alpha-form = continuous lag T_f dF/dt = F_ss - F (RK4) to O(dt) (zero-order hold)",
              f"max |diff| <= dt max|dF_ss/dt| = {zoh_bound:.3g} N", err, err <= zoh_bound, fmt=".3g", kind="verification"),
        check("alpha-form converges geometrically at constant v: F_k - F_ss = alpha^k (F_0 - F_ss) (eq. 25)",
              "< 1e-12", geo_err, geo_err < 1e-12, fmt=".3g", kind="verification"),
        check("Dahl comparison loop is bounded by F_C and encloses area", "|F| <= 0.4706 N, area > 0",
              f"max |F| {np.max(np.abs(fd)):.4f}, area {_area(x, fd):.3g}",
              np.max(np.abs(fd)) <= cfg["runs"]["dahl"]["model"]["fc"] + 1e-9 and _area(x, fd) > 0, kind="verification"),
    ]


def plot(ds: xr.Dataset):
    fig, (a1, a2) = plt.subplots(1, 2, figsize=(10, 3.8))
    t = ds.time.values
    last = t >= t[-1] - 1.0 - 1e-12
    for k, lag in enumerate(ds.lag.values):
        f = ds.friction_force.isel(lag=k).values[last]
        a1.plot(ds.slip.values[last] * 1e3, f, label=f"Kloss eq. 25, T_f = {lag:g} s")
        a2.plot(ds.slip_velocity.values[last] * 1e3, f, label=f"T_f = {lag:g} s")
    a1.plot(ds.slip.values[last] * 1e3, ds.friction_dahl.values[last], "k--", label="Dahl")
    a1.set(xlabel="displacement [mm]", ylabel="friction [N]")
    a2.set_xlabel("velocity [mm/s]")
    fig.suptitle("Hysteresis: dynamic Kloss law vs Dahl (Fig. 8)")
    return fig


register_scenario(Scenario(
    name="kloss/fig8",
    description="""Dynamic Kloss law (eq. 25, alpha = exp(-dt/T_f), T_f 0/0.01/0.05 s) vs Dahl under a 1 mm, 1 Hz sinusoidal
        displacement (Fig. 8; protocol ours).""",
    config=CONFIG, post=post, checks=checks, plot=plot, quick={"integrator.dt": 2e-4}, references=REFS,
    moved={"lags": "analysis.lags", "dahl": "runs.dahl.model (sigma0, fc)"},
))
