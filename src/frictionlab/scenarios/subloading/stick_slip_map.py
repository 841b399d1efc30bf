r"""``subloading/stick-slip-map``: stick-slip of the eq. (39) slider over c x drive velocity V.

A map of the 1-DOF spring-mass system of Ozaki et al.
(2020), eq. (39), :math:`M\ddot u = K(Vt - u) - A_a f_t`, with the Fig. 9 set (K = 40 N/mm,
A_a = 100 mm^2, f_n = 0.3 MPa, M = 3000 kg, P-common with tau0 = 0.1 MPa) over the
viscosity-like coefficient c of :math:`\tau = \tau_0 + c|v|^d` and the drive velocity V.
Each point of the study (``axes.analysis.c`` [MPa (s/mm)^d], an input axis that ``derive`` turns
into ``model.c`` with the model's d, x ``axes.protocol.v`` [m/s]) runs the ``oscillator`` driver
(:class:`~frictionlab.laws.subloading_drivers.SubloadingOscillator`, Newmark-beta + return mapping,
the engine of ``subloading/fig9``) for a fixed drive slip (``analysis.drive_slip``, at least
``analysis.t_min`` seconds, saved at ``analysis.samples`` rows); the post step reports the late
stick-slip amplitude: the peak-to-peak spring force over the last quarter of the run. Stick-slip is
said to exist when that amplitude exceeds ``analysis.amplitude_threshold`` [N] and is not decaying
(it is at least half the peak-to-peak over the quarter before).

**Linear-stability estimate.** Freeze the normal-sliding ratio at R = 1 (the subloading surface follows
:math:`f_t = S_r\tau` within a plastic slip :math:`\ell_R = 2/(\pi r)`, eq. 34 linearised
at R = 1) and linearise steady sliding at V. The friction force :math:`F = A_a A\tau(v)`
then has a direct effect and one state, the contact-area ratio A (eqs. 7, 8 with
:math:`\dot u^p = v`):

.. math::
    \delta\dot A = -s\,\delta A - \frac{A - S_{min}}{\kappa}\delta v,\qquad
    s = \frac{V}{\kappa} + \frac{1}{\xi}.

With :math:`\phi = \delta v/V` and :math:`\psi = A_a\tau\,\delta A/\beta` this is exactly the
linearised aging law :math:`\dot\psi = -s(\phi + \psi)`, with the rate-and-state
coefficients (forces per e-fold of velocity)

.. math::
    \alpha = A_a A^{ss} c d V^d \;(\leftrightarrow aN),\qquad
    \beta = -A_a\tau(V)\,V\frac{dA^{ss}}{dV} = A_a\tau(V)\frac{(A^{ss} - S_{min})V}{\kappa s}
    \;(\leftrightarrow bN),\qquad L = V/s \;(\leftrightarrow D_c),

so the slider's characteristic cubic is that of ``classic/rsf-stability-map`` and steady
sliding is unstable below the inertial critical stiffness

.. math::
    K_{cr}(V, c) = \frac{\beta - \alpha}{L}\Big(1 + \frac{M V^2}{\alpha L}\Big).

Note :math:`\beta - \alpha = -V\,d(A_a f_t^{ss})/dV` is minus the slope of the closed-form
steady traction :math:`A^{ss}(V)\tau(V)` per e-fold of velocity. For c = 0, :math:`K_{cr} =
\infty` (stick-slip for every K); :math:`K_{cr}` falls as c grows, and the boundary
:math:`c^*(V)` solves :math:`K_{cr}(V, c^*) = K` (:func:`critical_c`). For the Fig. 9 set it
rises with V (0.0039 MPa (s/mm)^d at 3 um/s, 0.0063 at 10 um/s, 0.0131 at 100 um/s): the
inertial factor :math:`M V^2/(\alpha L)` grows with V faster than the steady weakening
:math:`\beta` changes. The estimate needs :math:`L \gg \ell_R`; velocities with
:math:`L < ` ``analysis.validity_ratio`` :math:`\ell_R` (V below about 3 um/s here) are drawn but
not checked against it -- there the frozen-R assumption fails (at V = 1 um/s the observed
boundary lies between 0.0031 and 0.004, above the estimate 0.0022).

Notes
-----
The map is a study: its grid is the axes, and the library runs every point (one compiled Newmark
loop each, 0.2-5 s). A resumable store or parallel points are the sweep's business (``frictionlab
sweep`` over this scenario), not the scenario's.

Observed (full profile, confirmed with 3x longer runs and dt halved): near the boundary the
limit-cycle amplitude is *not* monotone in c on a fine grid -- at V = 0.01 mm/s it is 0.394 N
at c = 0.004 but 0.447 N at c = 0.005 (Fig. 9's own c = 0, 0.0015, 0.005, 0.01 decrease
monotonically); at V = 0.1 mm/s it is 2.5-2.7 N up to c = 0.01, 1.97 N at 0.012 and still 1.51 N at
0.0125 (0.95 c*), and steady sliding follows at 0.0135 (1.03 c*): stick-slip sets in at finite amplitude there (a steep or
subcritical onset), which the linear estimate does not describe. The checks therefore claim
the Fig. 9 trend on Fig. 9's c values and only an overall decrease elsewhere, and list the
local increases.

The mass is the "paper-like" M = 3 N s^2/mm = 3000 kg of ``subloading/fig9``; the
c values are in MPa (s/mm)^d as in ``subloading/fig9`` (converted with
:func:`~frictionlab.laws.subloading.c_from_mm_mpa`). The map itself is not in the paper
(our extension of Fig. 9 over the drive velocity and c); its only paper claim is the Fig. 9 trend at
V = 0.01 mm/s.
"""

from __future__ import annotations

import dataclasses
import math

import numpy as np
import xarray as xr
from scipy.optimize import brentq

from ...core.errors import ConfigError
from ...laws.subloading import Subloading, c_from_mm_mpa
from ..base import Mutation, Scenario, check, register_scenario
from ._common import MM, MODEL_NAME, MPA, REFERENCE, models, point_model

__all__ = ["critical_stiffness", "critical_c", "linear_coefficients"]


# --- closed forms ------------------------------------------------------------------------------

def linear_coefficients(model: Subloading, V: float, area: float) -> tuple[float, float, float]:
    r"""Rate-and-state equivalents ``(alpha, beta, L)`` of the law linearised at steady sliding.

    Parameters
    ----------
    model : :class:`~frictionlab.laws.subloading.Subloading` (variant ``literal``, kappa, xi > 0)
    V : steady sliding velocity [m/s]
    area : apparent contact area A_a [m^2]

    Returns
    -------
    alpha : direct effect :math:`A_a A^{ss} c d V^d` [N per e-fold of velocity]
    beta : evolution effect :math:`A_a\tau(V)(A^{ss} - S_{min})V/(\kappa s)` [N]
    L : relaxation slip :math:`V/s`, :math:`s = V/\kappa + 1/\xi` [m]
    """
    if not (model.kappa > 0 and model.xi > 0):
        raise ConfigError("the linear-stability estimate needs kappa > 0 and xi > 0 (area evolution on)")
    A = float(model.steady_area(V))
    s = V / model.kappa + 1.0 / model.xi
    tau = float(model.tau(V))
    alpha = area * A * model.c * model.d * V**model.d
    beta = area * tau * (A - model.s_min) * V / (model.kappa * s)
    return alpha, beta, V / s


def critical_stiffness(model: Subloading, V: float, area: float, mass: float) -> float:
    r"""Inertial critical stiffness :math:`K_{cr} = (\beta-\alpha)/L\,(1 + MV^2/(\alpha L))` [N/m].

    ``inf`` when c = 0 (no direct effect: steady sliding unstable for every K).
    """
    alpha, beta, L = linear_coefficients(model, V, area)
    if alpha <= 0.0:
        return math.inf
    return (beta - alpha) / L * (1.0 + mass * V**2 / (alpha * L))


def critical_c(model: Subloading, V: float, area: float, mass: float, stiffness: float) -> float:
    """Coefficient c* [Pa (s/m)^d] at which :func:`critical_stiffness` equals ``stiffness``.

    Steady sliding is linearly unstable (stick-slip) for c < c* and stable above; K_cr falls
    monotonically with c. Returns ``nan`` when no root lies in c V^d in [1e-6, 1e9] Pa.
    """
    def f(lg: float) -> float:
        c = math.exp(lg) / V**model.d
        return critical_stiffness(dataclasses.replace(model, c=c), V, area, mass) - stiffness

    lo, hi = math.log(1e-6), math.log(1e9)
    if not (f(lo) > 0 > f(hi)):
        return math.nan
    return math.exp(brentq(f, lo, hi, xtol=1e-12)) / V**model.d


NAME = "subloading/stick-slip-map"


# --- the map ------------------------------------------------------------------------------------

CONFIG = {
    "model": {"name": "subloading", "preset": "fig9"},
    # f_n = 0.3 MPa; the drive velocity per point of the axis, the duration from the drive slip
    "protocol": {"type": "constant_velocity", "normal_force_value": 0.3 * MPA},
    # K = 40 N/mm, M = 3000 kg (Fig. 9, M = 3 read as N s^2/mm)
    "system": {"type": "mass", "mass": 3000.0, "stiffness": 40.0 / MM},
    # the Newmark 1-DOF system of eq. (39), A_a = 100 mm^2; save_dt from analysis.samples
    "integrator": {"driver": "oscillator", "dt": 1e-3, "area": 100.0 * MM**2},
    # c in MPa (s/mm)^d (an input axis: model.c = c converted with the model's d) x drive velocity V [m/s]
    "axes": {"analysis": {"c": [0.0, 0.001, 0.0015, 0.0025, 0.004, 0.005, 0.0065, 0.008, 0.01, 0.013, 0.016, 0.02,
                                0.025]},
             "protocol": {"v": [v * MM for v in (0.001, 0.003, 0.01, 0.03, 0.1)]}},
    # each point runs max(drive_slip / V, t_min) [m, s], saved at `samples` rows; Fig. 9's drive velocity [mm/s]
    # and c values; the stick-slip threshold [N]; the estimate's validity L >= validity_ratio l_R; the band
    # |c/c* - 1| where the estimate is not judged
    "analysis": {"drive_slip": 3.0 * MM, "t_min": 100.0, "samples": 20000,
                 "fig9_velocity_mm_s": 0.01, "fig9_c_mm": [0.0, 0.0015, 0.005, 0.01], "amplitude_threshold": 1e-3,
                 "validity_ratio": 10.0, "margin": 0.2},
}
DERIVED = {"model.c": "axes.analysis.c [MPa (s/mm)^d]",
           "protocol.duration_s": "analysis.drive_slip / V, at least analysis.t_min",
           "integrator.save_dt": "analysis.samples (rows per run)", **MODEL_NAME}
_SWEEP = ("a resumable or parallel map is `frictionlab sweep subloading/stick-slip-map` (its --store, "
          "--scheduler, --workers); the scenario runs its study")
MOVED = {"map.c_mm": "the c values are axes.analysis.c [MPa (s/mm)^d]",
         "map.drive_velocities_mm_s": "the drive velocities are axes.protocol.v [m/s]",
         "map.store": _SWEEP, "map.scheduler": _SWEEP, "map.workers": _SWEEP,
         "map": "the map's analysis numbers are analysis.* (fig9_velocity_mm_s, fig9_c_mm, amplitude_threshold, "
                "validity_ratio, margin)",
         "run_length": "the run length is analysis.drive_slip, analysis.t_min, analysis.samples",
         "point": "a point is a value of axes.analysis.c and axes.protocol.v"}


#: the per-point values of the map (and the metrics of a sweep over it)
_SUMMARY = ("amplitude", "amplitude_previous", "amplitude_ratio", "force_mid", "steady_force")


def _t_end(V: float, a: dict) -> float:
    if not V > 0:
        raise ConfigError(f"protocol.v = {V!r}: the map's drive velocities must be > 0 m/s (a run covers "
                          "analysis.drive_slip)")
    return max(float(a["drive_slip"]) / V, float(a["t_min"]))


def derive(point, cfg: dict) -> dict:
    """model.c of the point's c [MPa (s/mm)^d] (converted with its d); the run length and saving step."""
    a = cfg["analysis"]
    V = float(point["protocol"]["v"])
    d = point_model(point).d
    t_end = _t_end(V, a)
    return {"model.c": c_from_mm_mpa(float(point.coord("analysis.c")), d), "protocol.duration_s": t_end,
            "integrator.save_dt": t_end / float(a["samples"])}


def _amplitudes(point, ds: xr.Dataset, cfg: dict) -> tuple[float, ...]:
    """Late and previous-quarter peak-to-peak spring force, late mid force, closed-form steady force [N]."""
    f = ds.spring_force.values
    i3, i2 = int(0.75 * f.size), int(0.5 * f.size)
    late, prev = f[i3:], f[i2:i3]
    fn = float(cfg["protocol"]["normal_force_value"])
    V = float(point["protocol"]["v"])
    f_ss = float(point_model(point).steady_stress(V, fn)) * float(cfg["integrator"]["area"])
    a, ap = float(np.ptp(late)), float(np.ptp(prev))
    return a, ap, a / ap if ap > 0 else math.nan, float(0.5 * (late.max() + late.min())), f_ss


def post(result, cfg: dict) -> xr.Dataset:
    """The late amplitudes of every point on the (c, V) grid, the stick-slip flag, and the linear-stability
    boundary c*(V) on the grid's and on a fine velocity axis."""
    a = cfg["analysis"]
    cs = [float(c) for c in result.axis_values("analysis.c")]
    vs = [float(v) for v in result.axis_values("protocol.v")]
    names = _SUMMARY
    table = np.full((len(cs), len(vs), len(names)), np.nan)
    for i, c in enumerate(cs):
        for j, V in enumerate(vs):
            table[i, j] = _amplitudes(result.point(c=c, v=V), result.pick(c=c, v=V), cfg)
    ds = xr.Dataset({n: (("c", "drive_velocity"), table[:, :, k]) for k, n in enumerate(names)},
                    coords={"c": np.array(cs), "drive_velocity": np.array([V / MM for V in vs])})
    ds["c"].attrs.update(units="MPa (s/mm)^d", long_name="rate coefficient c")
    ds["drive_velocity"].attrs.update(units="mm/s", long_name="drive velocity V")
    ds["amplitude"].attrs.update(units="N", long_name="late peak-to-peak spring force")
    ds.attrs["n_failed"] = int(np.count_nonzero(~np.isfinite(table[:, :, [0, 1, 3]])))  # a point without a result
    thr = float(a["amplitude_threshold"])
    ds["stick_slip"] = ((ds.amplitude > thr) & (ds.amplitude_ratio > 0.5)).astype(bool)
    # linear-stability boundary c*(V) and its validity (L >= validity_ratio * l_R)
    m, _ = models(cfg)
    s = cfg["system"]
    area, mass, K = float(cfg["integrator"]["area"]), float(s["mass"]), float(s["stiffness"])
    conv = c_from_mm_mpa(1.0, m.d)
    ell = float(a["validity_ratio"]) * 2.0 / (math.pi * m.r)
    ds["critical_c"] = ("drive_velocity", np.array([critical_c(m, V, area, mass, K) / conv for V in vs]),
                        {"units": "MPa (s/mm)^d", "long_name": "linear-stability boundary c*(V), R frozen at 1"})
    ds["estimate_valid"] = ("drive_velocity", np.array([linear_coefficients(m, V, area)[2] >= ell for V in vs],
                                                       dtype=bool))
    vv = np.geomspace(float(ds.drive_velocity.min()), float(ds.drive_velocity.max()), 41)
    ds.coords["v_curve"] = ("v_curve", vv, {"units": "mm/s"})
    ds["critical_c_curve"] = ("v_curve", np.array([critical_c(m, float(v) * MM, area, mass, K) / conv for v in vv]),
                              {"units": "MPa (s/mm)^d", "long_name": "c*(V) on a fine velocity grid"})
    ds["estimate_valid_curve"] = ("v_curve", np.array(
        [linear_coefficients(m, float(v) * MM, area)[2] >= ell for v in vv], dtype=bool))
    ds.attrs.update(area=area, mass=mass, stiffness=K, ell_R=2.0 / (math.pi * m.r))
    return ds


def summary(ds: xr.Dataset) -> dict[str, float]:
    """The metrics of a one-point map (``frictionlab sweep`` with one value of each axis per point: a
    resumable, parallel map)."""
    if ds.amplitude.size != 1:
        raise ConfigError(f"a sweep point of {NAME} is one (c, V): give --grid axes.analysis.c=[...] and "
                          f"--grid axes.protocol.v=[...] (this point has {ds.amplitude.size})")
    return {k: float(ds[k].values.item()) for k in _SUMMARY}


def _bracket(ds: xr.Dataset, v) -> tuple[float, float]:
    """(largest c with stick-slip, smallest c without) at drive velocity ``v``."""
    ss = ds.stick_slip.sel(drive_velocity=v).values
    cs = ds.c.values
    yes = cs[ss]
    no = cs[~ss]
    return (float(yes.max()) if yes.size else math.nan, float(no.min()) if no.size else math.nan)


_NO_WEAKENING = Mutation("S_min read as 1 (= S_max): no sliding weakening, no stick-slip", {"model.s_min": 1.0})


def checks(ds: xr.Dataset, cfg: dict) -> list:
    out = []
    mp = cfg["analysis"]
    n_fail = int(ds.attrs.get("n_failed", 0))
    out.append(check("every point of the map runs", "0 failed points", str(n_fail), n_fail == 0, kind="verification"))
    cs = ds.c.values
    # Fig. 9 trend at its drive velocity, over the paper's c values
    v9 = float(mp["fig9_velocity_mm_s"])
    c9 = [c for c in (float(x) for x in mp["fig9_c_mm"]) if np.any(np.isclose(cs, c))]
    if np.any(np.isclose(ds.drive_velocity.values, v9)) and len(c9) >= 2:
        row = ds.sel(drive_velocity=v9, method="nearest").sel(c=c9, method="nearest")
        amp, ss = row.amplitude.values, row.stick_slip.values
        a_osc = amp[ss]
        out.append(check(f"Fig. 9 (V = {v9:g} mm/s, c = {', '.join(f'{c:g}' for c in c9)}): stick-slip amplitude "
                         "decreases with c", "monotone decrease over the c with stick-slip (>= 2 of them)",
                         " > ".join(f"{a:.3g}" for a in a_osc) + " N",
                         a_osc.size >= 2 and bool(np.all(np.diff(a_osc) < 0)), mutations=(_NO_WEAKENING,)))
        out.append(check(f"Fig. 9 (V = {v9:g} mm/s): stick-slip at c = 0, none at c = {c9[-1]:g} (velocity "
                         "strengthening)", f"stick-slip at c = {c9[0]:g}; none at c = {c9[-1]:g}",
                         f"amplitude {amp[0]:.3g} N / {amp[-1]:.2e} N", bool(ss[0]) and not bool(ss[-1]),
                         mutations=(Mutation("rate exponent d read as 1 (tau linear in v)", {"model.d": 1.0}),)))
    else:
        out.append(check("Fig. 9 trend", f"V = {v9:g} mm/s and >= 2 of c = {mp['fig9_c_mm']} in the map",
                         "not in the grid", False))
    # overall decrease with c at every V; local increases on the fine grid are listed
    bad, local = [], []
    for v in ds.drive_velocity.values:
        a = ds.amplitude.sel(drive_velocity=v).values[ds.stick_slip.sel(drive_velocity=v).values]
        if a.size >= 2 and not a[-1] < a[0]:
            bad.append(f"V={v:g}")
        if a.size >= 2 and not np.all(np.diff(a) < 0):
            local.append(f"V={v:g}: " + " ".join(f"{x:.3g}" for x in a))
    out.append(check("at every V the stick-slip amplitude at the largest c with stick-slip is below that at c = 0 "
                     "(observed)", "amplitude(c_max stick-slip) < amplitude(0) in every row",
                     ("fails at " + ", ".join(bad) + "; " if bad else "every row; ")
                     + ("not monotone on this grid: " + "; ".join(local) if local else "every row monotone"),
                     not bad and ds.drive_velocity.size > 0, kind="extension",
                     ambiguity="near the boundary the limit-cycle amplitude is not monotone in c (see Notes)"))
    # linear-stability estimate: classification away from the boundary, where valid
    margin = float(mp["margin"])
    wrong, n_cls = [], 0
    for v in ds.drive_velocity.values[ds.estimate_valid.values]:
        cst = float(ds.critical_c.sel(drive_velocity=v))
        for c in cs:
            ratio = c / cst
            if 1.0 - margin <= ratio <= 1.0 / (1.0 - margin):
                continue
            n_cls += 1
            st = bool(ds.stick_slip.sel(drive_velocity=v, c=c))
            if st != (ratio < 1.0):
                wrong.append(f"V={v:g}, c={c:g} (c/c*={ratio:.2f}): {'stick-slip' if st else 'steady'}")
    lo_band, hi_band = 1.0 - margin, 1.0 / (1.0 - margin)
    out.append(check("stick-slip for c < c*(V), steady sliding for c > c*(V), c* from K_cr(V, c*) = K "
                     "(linearised law, R frozen at 1)",
                     f"all {n_cls} points with c/c* outside [{lo_band:.2f}, {hi_band:.2f}] classified as the estimate says",
                     f"{n_cls - len(wrong)}/{n_cls}" + (f"; wrong: {'; '.join(wrong)}" if wrong else ""),
                     not wrong and n_cls > 0, kind="extension",
                     ambiguity=f"only V with L = V/(V/kappa + 1/xi) >= {mp['validity_ratio']:g} x 2/(pi r); "
                               "stick-slip judged over a finite run (late amplitude, not decaying)"))
    # boundary brackets per V, and the direction the boundary moves with V
    mids = []
    for v in ds.drive_velocity.values:
        lo, hi = _bracket(ds, v)
        cst = float(ds.critical_c.sel(drive_velocity=v))
        ok_bracket = math.isfinite(lo) and math.isfinite(hi) and lo < hi
        mids.append(math.sqrt(lo * hi) if ok_bracket and lo > 0 else math.nan)
        if not bool(ds.estimate_valid.sel(drive_velocity=v)):
            continue
        out.append(check(f"V = {v:g} mm/s: observed stick-slip boundary in c brackets the estimate c*(V)",
                         f"{cst:.3g} in [largest c with stick-slip, smallest without]", f"[{lo:g}, {hi:g}]",
                         ok_bracket and lo < cst < hi, kind="extension",
                         ambiguity="bracket as fine as the c grid; c* is a linear (small-perturbation) boundary"))
    mids = np.array(mids)
    fin = np.isfinite(mids)
    out.append(check("the stick-slip boundary in c rises with V (as c*(V) of the estimate does)",
                     "bracket midpoints non-decreasing in V and larger at the largest V than at the smallest",
                     " ".join(f"{m:.3g}" for m in mids) + " MPa (s/mm)^d",
                     fin.sum() >= 2 and bool(np.all(np.diff(mids[fin]) >= 0)) and mids[fin][-1] > mids[fin][0],
                     kind="extension"))
    # steady sliding settles on the closed-form steady force
    worst, n_st = 0.0, 0
    for v in ds.drive_velocity.values:
        for c in cs:
            if bool(ds.stick_slip.sel(drive_velocity=v, c=c)):
                continue
            p = ds.sel(drive_velocity=v, c=c)
            fss = float(p.steady_force)
            err = abs(float(p.force_mid) - fss) / fss
            tol = max(1e-6, float(p.amplitude) / fss)
            n_st += 1
            worst = max(worst, err / tol)
    out.append(check("without stick-slip the spring force settles on A_a A_ss(V) tau(V) (closed form of the steady state)",
                     "|F_mid - F_ss| / F_ss <= max(1e-6, residual amplitude / F_ss) at every steady point",
                     f"worst error / tolerance = {worst:.3g} over {n_st} points", n_st > 0 and worst <= 1.0,
                     kind="verification"))
    return out


def plot(ds: xr.Dataset):
    from ...plot import plt

    fig, ax = plt.subplots(figsize=(6.4, 5.0))
    amp = ds.amplitude.transpose("c", "drive_velocity").values
    cpos = np.where(ds.c.values > 0, ds.c.values, np.nan)
    cy = np.where(np.isnan(cpos), np.nanmin(cpos) / 2 if np.any(np.isfinite(cpos)) else 1e-4, cpos)
    mesh = ax.pcolormesh(ds.drive_velocity.values, cy, np.log10(np.maximum(amp, 1e-6)), shading="nearest",
                         cmap="magma", vmin=-6, vmax=1)
    fig.colorbar(mesh, ax=ax, label="log10 late stick-slip amplitude [N]")
    vg, cg = np.meshgrid(ds.drive_velocity.values, cy)
    ss = ds.stick_slip.transpose("c", "drive_velocity").values
    ax.plot(vg[ss], cg[ss], "^", color="white", mec="k", ms=6, label="stick-slip")
    ax.plot(vg[~ss], cg[~ss], "o", color="tab:blue", mec="k", ms=5, label="steady sliding")
    valid = ds.estimate_valid_curve.values
    cc = ds.critical_c_curve.values
    ax.plot(ds.v_curve.values, cc, "k--", lw=1, label="c*(V), linear estimate (dashed: L < 10 l_R)")
    ax.plot(ds.v_curve.values[valid], cc[valid], "k-", lw=2)
    ax.set(xscale="log", yscale="log", xlabel="drive velocity V [mm/s]",
           ylabel="c [MPa (s/mm)^d] (c = 0 drawn at the bottom row)",
           title="Subloading friction: stick-slip map (eq. 39, Fig. 9 set)")
    ax.legend(loc="upper center", bbox_to_anchor=(0.5, -0.14), ncol=3, fontsize=7)
    return fig


register_scenario(Scenario(
    name=NAME,
    description="""Stick-slip map of the 1-DOF system of eq. (39) (Ozaki et al. 2020, Fig. 9 set: K = 40 N/mm, A_a = 100 mm^2,
        f_n = 0.3 MPa, M = 3000 kg) over the rate coefficient c and the drive velocity V: late stick-slip amplitude
        per point (a sweep of SubloadingOscillator runs over 3 mm of drive), with the linear-stability boundary
        c*(V) from K_cr(V, c) = K of the linearised law drawn over it.""",
    config=CONFIG, post=post, derive=derive, checks=checks, plot=plot,
    quick={"axes.analysis.c": [0.0, 0.0015, 0.0025, 0.005, 0.01, 0.02],
           "axes.protocol.v": [v * MM for v in (0.003, 0.01, 0.1)]},
    derived=DERIVED, moved=MOVED, summary=summary,
    references=[REFERENCE, "Rice & Ruina 1983", "Gu et al. 1984"],
    slow=True,
))
