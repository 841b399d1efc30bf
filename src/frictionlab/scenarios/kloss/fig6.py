"""``kloss/fig6``: mass on a wall spring with Kloss friction (Fig. 6, eqs. 23-24).

m = 0.3 kg, k_s = 20 N/m, x(0) = -0.2 m (4 N compression), v(0) = 0; F_max = 1 N,
v_max0 = 0.01 m/s, zeta = 0.5; explicit Euler, dt = 1 ms.

Notes
-----
The seed prints eq. (23) as ``m v' = F_x + k_s x``, which diverges from x(0) = -0.2 m; the
caption describes a compressed spring relaxing to rest, so the restoring form ``- k_s x`` is
used (spec A2, seed typo). Implemented with :class:`~frictionlab.systems.MassSystem`:
wall (driver) at x = 0, reached through ``preload = k_s |x_0|``. Horizon 3 s (ours); the full
profile runs 20 s to check the slow creep (spec K8).

The creep position after the last velocity reversal is not converged at the paper's
Euler 1 ms (dt c0/m = 0.67): RK4 (or Euler at dt <= 0.1 ms) leaves the slider ~43 mm from the
wall at 2 s instead of the 2.0 mm of Euler 1 ms. The scenario reproduces the paper's
integrator and reports the figure's creep as a deviation of the paper, with a dt-halving study
(RK4 at 0.2/0.1/0.05 ms, Euler from 1 ms down to 0.01 ms) computed in the run as evidence.
"""

from __future__ import annotations

import numpy as np
import xarray as xr

from ...plot import plt
from ...reference import kloss as ref
from ..base import Scenario, check, deviation, register_scenario
from ..config import run_config
from ._common import REFS, law_of

CONFIG = {
    "model": {"name": "kloss", "preset": "fig6"},
    "protocol": {"type": "constant_velocity", "v": 0.0, "duration_s": 20.0},
    "system": {"type": "mass", "mass": 0.3, "stiffness": 20.0, "x0": -0.2, "preload": 4.0},
    "integrator": {"driver": "euler", "dt": 1e-3, "save_dt": 1e-3},
}
PROTO_REVERSALS = [(0.383, 0.153), (0.768, -0.106), (1.154, 0.056)]


def run(cfg: dict, quick: bool) -> xr.Dataset:
    return run_config(cfg)


def _reversal_indices(v: np.ndarray) -> list[int]:
    """Velocity reversals: strict sign changes after the start from rest."""
    return [i for i in range(2, v.size) if v[i - 1] * v[i] < 0 or (v[i] == 0 and v[i - 1] != 0)]


def _reversal_times(ds: xr.Dataset) -> list[float]:
    t, v = ds.time.values, ds.slip_velocity.values
    return [float(t[i - 1] + (t[i] - t[i - 1]) * v[i - 1] / (v[i - 1] - v[i])) for i in _reversal_indices(v)]


def checks(ds: xr.Dataset, cfg: dict) -> list:
    s = cfg["system"]
    t, x, v = ds.time.values, ds.slip.values, ds.slip_velocity.values
    f, fs = ds.friction_force.values, ds.spring_force.values
    # velocity reversals, crossing time interpolated
    idx = _reversal_indices(v)
    out = []
    for k, (tp, xp) in enumerate(PROTO_REVERSALS):
        if k < len(idx):
            i = idx[k]
            tc = t[i - 1] + (t[i] - t[i - 1]) * v[i - 1] / (v[i - 1] - v[i])
            out.append(check(f"velocity reversal {k + 1} (prototype t = {tp} s, x = {xp} m)",
                             f"t {tp} s (abs 2 ms), x {xp} m (abs 1 mm)", f"t {tc:.4f} s, x {x[i]:.4f} m",
                             abs(tc - tp) <= 2e-3 and abs(x[i] - xp) <= 1e-3))
        else:
            out.append(check(f"velocity reversal {k + 1}", f"t {tp} s", "none", False))
    i2 = int(np.argmin(np.abs(t - 2.0)))
    out.append(check("the paper's integrator reproduced: slow creep afterwards, x(2 s) with Euler 1 ms (prototype 2.00 mm)",
                     "2.00 mm (abs 0.05)", abs(x[i2]) * 1e3,
                     abs(abs(x[i2]) * 1e3 - 2.00) < 0.05))
    if t[-1] >= 20.0 - 1e-9:
        i20 = int(np.argmin(np.abs(t - 20.0)))
        law = law_of(cfg)
        T = ref.spring_creep_time(law.f_max, law.v_max0, s["stiffness"])
        out.append(check("creep decays with T = c0/k_s = 10 s: x(20 s) (prototype 0.330 mm)", "0.330 mm (abs 0.01)",
                         abs(x[i20]) * 1e3, abs(abs(x[i20]) * 1e3 - 0.330) < 0.01, ambiguity=f"T = {T:g} s"))
    # the paper's Euler 1 ms against the converged solution: a dt-halving study computed here
    from ...solve import simulate
    from ..config import build

    model, proto, system, _ = build(cfg)

    def x2(method: str, dt: float) -> float:
        r = simulate(model, proto, system=system, integrator=method, dt=dt, t_end=2.0, save_dt=1e-3)
        return float(r.slip.values[-1])

    rk = {dt: x2("rk4", dt) for dt in (2e-4, 1e-4, 5e-5)}
    eu = {dt: x2("euler", dt) for dt in (1e-3, 5e-4, 2.5e-4, 1.25e-4, 1e-5)}
    xc = rk[5e-5]
    d_rk = abs(rk[1e-4] - rk[5e-5]) / abs(xc)
    eu_err = [abs(eu[d] - xc) / abs(xc) for d in sorted(eu, reverse=True)]
    tr_c = _reversal_times(simulate(model, proto, system=system, integrator="rk4", dt=5e-5, t_end=2.0, save_dt=1e-4))
    tr_e = _reversal_times(ds.sel(time=slice(0, 2.0)))
    n_tr = min(len(tr_c), len(tr_e), len(PROTO_REVERSALS))
    d_tr = max((abs(a - b) for a, b in zip(tr_c[:n_tr], tr_e[:n_tr])), default=float("nan"))
    ev = [check("RK4 dt-halving: x(2 s) at dt = 0.1 ms vs 0.05 ms", "relative change < 1e-4",
                f"{rk[1e-4] * 1e3:.4f} vs {rk[5e-5] * 1e3:.4f} mm ({d_rk:.1e})", d_rk < 1e-4),
          check("Euler converges to the same x(2 s) as dt falls (1, 0.5, 0.25, 0.125, 0.01 ms)",
                "error decreasing, < 1 % at 0.01 ms", ", ".join(f"{e:.1%}" for e in eu_err),
                bool(np.all(np.diff(eu_err) < 0)) and eu_err[-1] < 0.01),
          check("the oscillation part agrees: first velocity reversals, Euler 1 ms vs converged",
                f"{len(PROTO_REVERSALS)} reversals within 2 ms", f"{n_tr} reversals, max difference {d_tr * 1e3:.2f} ms",
                n_tr == len(PROTO_REVERSALS) and d_tr <= 2e-3)]
    claim = "Fig. 6 (Euler, 1 ms) shows the solution of eqs. (23)-(24): slow creep after the last reversal"
    if abs(abs(x[i2]) - abs(xc)) < 0.01 * abs(xc):
        out.append(check(claim, f"x(2 s) = converged {xc * 1e3:.2f} mm (rel 1 %)", abs(x[i2]) * 1e3, True))
    else:
        out.append(deviation(claim, f"x(2 s) = {abs(x[i2]) * 1e3:.2f} mm (the paper's Euler 1 ms)",
                             f"converged x(2 s) = {abs(xc) * 1e3:.2f} mm", ev,
                             "the paper integrates eqs. (23)-(24) with Euler at 1 ms, which under-resolves the stiff "
                             "creep after the last reversal (dt c0/m = 0.67): the converged solution leaves the slider "
                             f"{abs(xc) * 1e3:.1f} mm from the wall at 2 s instead of {abs(x[i2]) * 1e3:.1f} mm, while "
                             "the oscillation (reversal times) agrees within 2 ms"))
    acc = np.gradient(v, t)
    bal = float(np.max(np.abs(f[-50:] - fs[-50:] + s["mass"] * acc[-50:])))
    out.append(check("at 'equilibrium' friction = spring force (to within m dv/dt) and |F| < F_max",
                     "|F - F_spring + m a| < 1e-6 N and |F| < 1 N", f"{bal:.2e} N, |F| = {abs(f[-1]):.4g} N",
                     bal < 1e-6 and abs(f[-1]) < 1.0))
    return out


def plot(ds: xr.Dataset):
    fig, ax = plt.subplots(figsize=(7, 4))
    sub = ds.sel(time=slice(0, 3))
    ax.plot(sub.time, -sub.friction_force, "r-", label="friction force [N]")
    ax.plot(sub.time, sub.spring_force, "k-", label="spring force -k_s x [N]")
    ax.plot(sub.time, sub.slip_velocity, "b--", label="velocity [m/s]")
    ax.set_xlabel("time [s]")
    ax.legend(fontsize=8)
    ax.set_title("Kloss friction: mass on a wall spring (Fig. 6)")
    fig.tight_layout()
    return fig


register_scenario(Scenario(
    name="kloss/fig6",
    description=("Mass 0.3 kg on a 20 N/m wall spring released from x = -0.2 m (4 N), Kloss friction F_max 1 N, "
                 "v_max0 0.01 m/s, zeta 0.5, Euler 1 ms (Fig. 6): damped oscillation then slow creep."),
    config=CONFIG, run=run, checks=checks, plot=plot, quick={"protocol.duration_s": 3.0}, references=REFS,
))
