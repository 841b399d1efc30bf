r"""Compiled drivers for the subloading-friction return mapping (Ozaki et al. 2020).

Three numba loops advance :func:`frictionlab.laws.subloading.return_map`, the one
implementation of the law's implicit step:

* :func:`run_prescribed` -- kinematic driving by any (non-feedback) protocol: slip velocity
  and normal stress sampled on the step grid (the fast equivalent of the core stepping loop);
* :func:`run_pulsating` -- the threshold-switched cyclic loading of Fig. 5
  (:class:`~frictionlab.protocols.PulsatingThreshold`);
* :class:`SubloadingOscillator` -- the 1-DOF spring-mass system of eq. (39),
  :math:`M\ddot u = K(U_d - u) - A_a f_t`, :math:`U_d = Vt`, integrated with Newmark-beta
  (the paper's scheme; average acceleration beta = 1/4, gamma = 1/2, spec A10), with the
  friction stress from the return mapping at the end of each step.

Results are :class:`xarray.Dataset` objects with the standard variable names (SI units).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import xarray as xr
from numba import njit

from ..core.errors import IntegrationError, ParameterError
from ..core.params import Parameters, param
from ..core.result import make_dataset
from ..laws.subloading import Subloading, return_map, shear_strength

__all__ = ["run_prescribed", "run_pulsating", "SubloadingOscillator"]


# --------------------------------------------------------------------------- prescribed slip
@njit(cache=True)
def _prescribed_loop(V, FN, dt, p, ft, q, up, fn_prev, stride, out):
    """V[i], FN[i]: velocity over step i and normal stress at its end; out rows
    (slip, v, fn, ft, q, up) every ``stride`` steps. Returns -1 or the failing step."""
    n = V.size
    u = 0.0
    j = 0
    out[0, 0] = 0.0
    out[0, 1] = V[0] if n > 0 else 0.0
    out[0, 2] = fn_prev
    out[0, 3] = ft if fn_prev > 0.0 else 0.0
    out[0, 4] = q
    out[0, 5] = up
    j = 1
    for i in range(n):
        v = V[i]
        fn = FN[i]
        du = v * dt
        tau = shear_strength(v, p)
        ft, q, g = return_map(ft, q, fn_prev, du, dt, fn, tau, p)
        if g < 0.0 or not np.isfinite(ft):
            return i + 1
        up += g
        u += du
        fn_prev = fn
        if (i + 1) % stride == 0:
            out[j, 0] = u
            out[j, 1] = v
            out[j, 2] = fn
            out[j, 3] = ft
            out[j, 4] = q
            out[j, 5] = up
            j += 1
    return -1


def _model_outputs(model: Subloading, rows: np.ndarray) -> dict[str, np.ndarray]:
    slip, v, fn, ft, q, up = rows.T
    data = {"slip": slip, "slip_velocity": v, "normal_stress": fn, "shear_stress": ft,
            "friction_force": ft, "normal_force": fn, "area_state": q, "plastic_slip": up}
    with np.errstate(divide="ignore", invalid="ignore"):
        data["friction_coefficient"] = np.where(fn > 0, ft / np.where(fn > 0, fn, 1.0), np.nan)
    data.update(model.diagnostics(ft, q, v, fn))
    return data


def _units(model: Subloading) -> dict[str, str]:
    u = dict(model.output_units)
    u.update({"friction_force": "Pa", "normal_force": "Pa", "area_state": "1", "plastic_slip": "m"})
    return u


def run_prescribed(model: Subloading, protocol, *, dt: float | None = None, du_max: float | None = None,
                   save_every: int | None = None, max_points: int = 20000) -> xr.Dataset:
    """Drive ``model`` kinematically by ``protocol`` (velocity and normal-stress channels).

    Parameters
    ----------
    model : :class:`Subloading`
    protocol : any non-feedback protocol; ``normal_force`` is read as the normal stress [Pa]
    dt : time step [s]; or give ``du_max`` [m], the largest slip increment per step
        (``dt = du_max / max|v|``)
    save_every : save every this many steps (default: at most ``max_points`` rows)

    Returns
    -------
    Dataset over ``time`` with ``slip`` [m], ``slip_velocity`` [m/s], ``shear_stress`` and
    ``normal_stress`` [Pa] (also as ``friction_force`` / ``normal_force``), ``plastic_slip``
    [m], ``contact_ratio``, ``shear_strength``, ``sliding_surface``, ``sliding_ratio``.
    """
    T = float(protocol.duration)
    if dt is None:
        if du_max is None:
            raise ParameterError("run_prescribed needs dt [s] or du_max [m]")
        tt = np.linspace(0.0, T, 2001)
        vmax = float(np.max(np.abs(protocol.velocity(tt)))) or 1.0
        dt = du_max / vmax
    if not dt > 0:
        raise ParameterError(f"dt = {dt!r} s must be > 0")
    n = max(1, int(math.ceil(T / dt - 1e-9)))
    dt = T / n
    t_mid = (np.arange(n) + 0.5) * dt
    V = np.ascontiguousarray(protocol.velocity(t_mid), dtype=np.float64)
    FN = np.ascontiguousarray(protocol.normal_force((np.arange(n) + 1.0) * dt), dtype=np.float64)
    fn0 = float(protocol.normal_force(np.array([0.0]))[0])
    stride = save_every or max(1, int(math.ceil(n / max_points)))
    out = np.zeros((n // stride + 1, 6))
    s0 = model.initial_state()
    status = _prescribed_loop(V, FN, dt, model.param_vector(), float(s0[0]), float(s0[1]), 0.0, fn0, stride, out)
    if status >= 0:
        raise IntegrationError(f"subloading: return mapping failed at step {status} (t = {status * dt:.6g} s, "
                               f"dt = {dt:g} s); reduce dt", time=status * dt, step=status)
    times = np.arange(out.shape[0]) * stride * dt
    attrs = {**model.attrs(), "model": model.name, "protocol": protocol.type_name, "system": "prescribed_slip",
             "integrator": "return_map", "dt": dt}
    return make_dataset(times, _model_outputs(model, out), units=_units(model), attrs=attrs)


# --------------------------------------------------------------------------- pulsating load
@njit(cache=True)
def _pulsating_loop(v, upper, lower, cycles, fn, dt, p, ft, q, max_steps, stride, out, cyc):
    """Load at +v until f_t >= upper, unload at -v until f_t <= lower; ``cyc`` rows per
    cycle: (plastic slip at its end, slip at its end, peak f_t). Returns (steps, cycles done,
    status)."""
    u = 0.0
    up = 0.0
    direction = 1.0
    k = 0
    j = 0
    peak = 0.0
    tau = shear_strength(v, p)
    for i in range(max_steps):
        du = direction * v * dt
        ft, q, g = return_map(ft, q, fn, du, dt, fn, tau, p)
        if g < 0.0 or not np.isfinite(ft):
            return i, k, 1
        up += g
        u += du
        peak = max(peak, ft)
        if i % stride == 0 and j < out.shape[0]:
            out[j, 0] = (i + 1) * dt
            out[j, 1] = u
            out[j, 2] = ft
            out[j, 3] = up
            out[j, 4] = q
            j += 1
        if direction > 0.0 and ft >= upper:
            direction = -1.0
        elif direction < 0.0 and ft <= lower:
            cyc[k, 0] = up
            cyc[k, 1] = u
            cyc[k, 2] = peak
            peak = 0.0
            k += 1
            direction = 1.0
            if k >= cycles:
                return i + 1, k, 0
        if direction > 0.0 and u > 1e3 * upper / p[1] + 1e-3:
            # gross sliding: the threshold can no longer be reached
            return i + 1, k, 2
    return max_steps, k, 0


def run_pulsating(model: Subloading, protocol, *, du: float = 1e-9, max_rows: int = 200000) -> tuple[xr.Dataset, np.ndarray, int]:
    """Run the threshold-switched cyclic loading of a :class:`PulsatingThreshold` protocol.

    ``protocol.v`` is the loading speed [m/s], ``protocol.upper`` / ``lower`` the stress
    thresholds [Pa], ``protocol.normal_force_value`` the normal stress [Pa]; ``du`` [m] is the
    slip increment per step. Gross sliding is declared when the slip exceeds
    ``1000 upper / alpha_t + 1 mm`` without reaching ``upper``.

    Returns
    -------
    (dataset over time with slip, shear_stress, plastic_slip, area_state; array of cycle rows
    ``(plastic slip, slip, peak stress)`` at the end of each completed cycle; the number of the
    cycle in which gross sliding occurred (0 if none))
    """
    p = model.param_vector()
    dt = du / protocol.v
    max_steps = int(protocol.max_duration / dt)
    stride = max(1, max_steps // max_rows)
    out = np.zeros((max_steps // stride + 2, 5))
    cyc = np.zeros((protocol.cycles, 3))
    s0 = model.initial_state()
    steps, k, status = _pulsating_loop(protocol.v, protocol.upper, protocol.lower, protocol.cycles,
                                       protocol.normal_force_value, dt, p, float(s0[0]), float(s0[1]), max_steps,
                                       stride, out, cyc)
    if status == 1:
        raise IntegrationError(f"subloading: return mapping failed at step {steps}; reduce du", step=steps)
    rows = out[: min(out.shape[0], steps // stride + 1)]
    rows = rows[rows[:, 0] > 0]
    data = {"slip": rows[:, 1], "shear_stress": rows[:, 2], "friction_force": rows[:, 2],
            "plastic_slip": rows[:, 3], "area_state": rows[:, 4]}
    ds = make_dataset(rows[:, 0], data, units={"shear_stress": "Pa", "friction_force": "Pa", "plastic_slip": "m",
                                               "area_state": "1"},
                      attrs={**model.attrs(), "model": model.name, "protocol": protocol.type_name, "dt": dt})
    gross = k + 1 if status == 2 else 0
    return ds, cyc[:k].copy(), gross


# --------------------------------------------------------------------------- 1-DOF system
@njit(cache=True)
def _newmark_loop(M, K, V, Aa, fn, dt, n, beta, gamma, p, stride, out):
    """Newmark-beta for M a = K (V t - u) - Aa f_t with f_t from the return mapping.

    out rows: (u, v, f_t, spring force, up, q). Returns -1 or the failing step."""
    u = 0.0
    v = 0.0
    ft = 0.0
    q = p[10] if p[11] > 0.5 else 0.0
    up = 0.0
    a = 0.0
    at = p[1]
    c1 = 1.0 / (beta * dt * dt)
    c2 = 1.0 / (2.0 * beta) - 1.0
    J = M * c1 + K + Aa * at
    j = 0
    out[0, 0] = 0.0
    out[0, 3] = 0.0
    j = 1
    for i in range(n):
        ud1 = V * (i + 1) * dt
        # predictor and chord/secant iterations on u1 (residual increasing in u1)
        u1 = u + dt * v + 0.5 * dt * dt * a
        r_prev = 0.0
        u_prevt = 0.0
        ft1 = ft
        q1 = q
        g1 = 0.0
        ok = False
        blo = -1e300
        bhi = 1e300
        for it in range(100):
            a1 = c1 * (u1 - u - dt * v) - c2 * a
            v1 = v + dt * ((1.0 - gamma) * a + gamma * a1)
            tau = shear_strength(v1, p)
            ft1, q1, g1 = return_map(ft, q, fn, u1 - u, dt, fn, tau, p)
            if g1 < 0.0:
                return i + 1
            res = M * a1 - K * (ud1 - u1) + Aa * ft1
            scale = K * abs(ud1 - u1) + Aa * abs(ft1) + M * abs(a1)
            if abs(res) <= 1e-13 * scale:
                ok = True
                break
            if res > 0.0:
                bhi = min(bhi, u1)
            else:
                blo = max(blo, u1)
            slope = J
            if it > 0 and u1 != u_prevt:
                sl = (res - r_prev) / (u1 - u_prevt)
                if sl > 0.0:
                    slope = sl
            un = u1 - res / slope
            if blo > -1e300 and bhi < 1e300 and (un <= blo or un >= bhi or it > 30):
                un = 0.5 * (blo + bhi)
            u_prevt = u1
            r_prev = res
            if abs(un - u1) <= 4e-16 * abs(u1) + 1e-24:
                u1 = un
                ok = True
                break
            u1 = un
        if not ok:
            return i + 1
        a1 = c1 * (u1 - u - dt * v) - c2 * a
        v1 = v + dt * ((1.0 - gamma) * a + gamma * a1)
        tau = shear_strength(v1, p)
        ft, q, g1 = return_map(ft, q, fn, u1 - u, dt, fn, tau, p)
        up += g1
        u = u1
        v = v1
        a = a1
        if not (np.isfinite(u) and np.isfinite(v)):
            return i + 1
        if (i + 1) % stride == 0:
            out[j, 0] = u
            out[j, 1] = v
            out[j, 2] = ft
            out[j, 3] = K * (ud1 - u)
            out[j, 4] = up
            out[j, 5] = q
            j += 1
    return -1


@dataclass(frozen=True)
class SubloadingOscillator(Parameters):
    """One-degree-of-freedom spring-mass system of eq. (39) (Ozaki et al. 2020, Fig. 8).

    Parameters
    ----------
    mass : float
        Slider mass M [kg] (see spec A9: the paper's "M = 3 kg" reproduces its Fig. 9 only
        when read as 3 N s^2/mm = 3000 kg).
    stiffness : float
        Spring stiffness K [N/m].
    drive_velocity : float
        Driver velocity V [m/s].
    area : float
        Apparent contact area A_a [m^2].
    normal_stress : float
        Constant normal contact stress f_n [Pa] (spec A13: 0.3 MPa).
    beta, gamma : float
        Newmark coefficients (average acceleration by default, spec A10).
    """

    mass: float = param(3000.0, units="kg", lo=0.0, lo_open=True)
    stiffness: float = param(4e4, units="N/m", lo=0.0, lo_open=True)
    drive_velocity: float = param(1e-5, units="m/s", lo=0.0)
    area: float = param(1e-4, units="m^2", lo=0.0, lo_open=True)
    normal_stress: float = param(3e5, units="Pa", lo=0.0, lo_open=True)
    beta: float = param(0.25, units="1", lo=0.0, lo_open=True, hi=0.5)
    gamma: float = param(0.5, units="1", lo=0.5, hi=1.0)
    type_name: ClassVar[str] = "subloading_oscillator"

    def simulate(self, model: Subloading, t_end: float, dt: float = 1e-3, save_dt: float | None = None) -> xr.Dataset:
        """Run from rest (u = 0, f_t = 0, U_d = V t) to ``t_end`` [s] with step ``dt`` [s].

        Returns a Dataset with ``slip``, ``slip_velocity``, ``driver_position``,
        ``spring_force`` [N], ``friction_force`` [N] (= A_a f_t), ``shear_stress`` [Pa],
        ``plastic_slip`` and ``area_state``.
        """
        if not (dt > 0 and t_end > 0):
            raise ParameterError(f"SubloadingOscillator.simulate: dt = {dt!r} and t_end = {t_end!r} must be > 0")
        n = int(round(t_end / dt))
        stride = max(1, int(round((save_dt or max(dt, t_end / 20000)) / dt)))
        out = np.zeros((n // stride + 1, 6))
        status = _newmark_loop(self.mass, self.stiffness, self.drive_velocity, self.area, self.normal_stress, dt, n,
                               self.beta, self.gamma, model.param_vector(), stride, out)
        if status >= 0:
            raise IntegrationError(
                f"subloading oscillator: Newmark step {status} (t = {status * dt:.6g} s) did not converge or diverged "
                f"with dt = {dt:g} s; reduce dt (e.g. {dt / 10:g})", time=status * dt, step=status)
        times = np.arange(out.shape[0]) * stride * dt
        data = {"slip": out[:, 0], "slip_velocity": out[:, 1], "driver_position": self.drive_velocity * times,
                "spring_force": out[:, 3], "friction_force": self.area * out[:, 2], "shear_stress": out[:, 2],
                "plastic_slip": out[:, 4], "area_state": out[:, 5],
                "normal_force": np.full(times.size, self.area * self.normal_stress)}
        attrs = {**model.attrs(), "model": model.name, "system": self.type_name, "integrator": "newmark_return_map",
                 "dt": dt, **{f"system.{k}": v for k, v in self.to_dict().items()}}
        return make_dataset(times, data, units={"plastic_slip": "m", "area_state": "1"}, attrs=attrs)
