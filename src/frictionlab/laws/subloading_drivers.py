r"""Compiled drivers for the subloading-friction return mapping (Ozaki et al. 2020).

Three numba loops advance :func:`frictionlab.laws.subloading.return_map`, the one
implementation of the law's implicit step:

* :func:`run_prescribed` -- kinematic driving by any (non-feedback) protocol: slip velocity
  and normal stress sampled on the step grid (the fast equivalent of the core stepping loop);
* :func:`run_rate_reference` -- classical RK4 on the explicit rate form
  (:func:`frictionlab.laws.subloading.rates_full`) with the normal-stress rate as an input,
  the reference under normal-stress programmes (eqs. 16, 19, 24-31);
* :func:`run_pulsating` -- the threshold-switched cyclic loading of Fig. 5
  (:class:`~frictionlab.protocols.PulsatingThreshold`);
* :class:`SubloadingOscillator` -- the 1-DOF spring-mass system of eq. (39),
  :math:`M\ddot u = K(U_d - u) - A_a f_t`, :math:`U_d = Vt`, integrated with Newmark-beta
  (the paper's scheme, Sec. 4.3; average acceleration beta = 1/4, gamma = 1/2: the paper does not
  state beta and gamma), with the
  friction stress from the return mapping at the end of each step.

Results are :class:`xarray.Dataset` objects with the standard variable names (SI units).

They are the drivers of :func:`frictionlab.simulate` for the subloading models (registered at
the end of this module): ``"prescribed"`` (default), ``"oscillator"`` (used when the system is a
:class:`~frictionlab.systems.mass.MassSystem`), ``"pulsating"`` (feedback protocol) for
:class:`Subloading`, and ``"rate_reference"`` for :class:`SubloadingRate` (besides the generic
rate-law drivers).
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import ClassVar

import numpy as np
import xarray as xr
from numba import njit

from ..core.errors import ConfigError, IntegrationError, ParameterError
from ..core.params import Parameters, param
from ..core.result import make_dataset
from ..solve.contract import Run
from ..solve.drivers import register_driver
from ..systems.mass import MassSystem
from .subloading import Subloading, SubloadingRate, rates_full, return_map, shear_strength

__all__ = ["run_prescribed", "run_rate_reference", "run_pulsating", "SubloadingOscillator"]


# --------------------------------------------------------------------------- prescribed slip
@njit(cache=True)
def _prescribed_loop(V, FN, DT, p, ft, q, up, fn_prev, stride, out):
    """V[i], FN[i], DT[i]: velocity over step i, normal stress at its end, its length; out rows
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
        dt = DT[i]
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
                   dt_max: float | None = None, save_every: int | None = None,
                   max_points: int = 20000, t_end: float | None = None) -> xr.Dataset:
    """Drive ``model`` kinematically by ``protocol`` (velocity and normal-stress channels).

    Parameters
    ----------
    model : :class:`Subloading`
    protocol : any non-feedback protocol; ``normal_force`` is read as the normal stress [Pa]
    dt : time step [s]; and/or ``du_max`` [m], the largest slip increment per step: on
        each segment of the protocol (:meth:`~frictionlab.protocols.base.AbstractProtocol.segments`)
        ``dt = min(du_max / max|v|, dt_max)``, so holds take few steps
    dt_max : largest step [s] (default ``dt`` or ``duration / 1e4``)
    save_every : save every this many steps (default: at most ``max_points`` rows)
    t_end : stop at this time [s] (default the protocol duration)

    Returns
    -------
    Dataset over ``time`` with ``slip`` [m], ``slip_velocity`` [m/s], ``shear_stress`` and
    ``normal_stress`` [Pa] (also as ``friction_force`` / ``normal_force``), ``plastic_slip``
    [m], ``contact_ratio``, ``shear_strength``, ``sliding_surface``, ``sliding_ratio``.
    """
    T = float(protocol.duration if t_end is None else min(t_end, protocol.duration))
    segs = protocol.segments()
    edges = np.asarray([sg.t_start for sg in segs if sg.t_start < T] + [T if t_end is not None else segs[-1].t_end],
                       dtype=float)
    if dt is None and du_max is None:
        raise ParameterError("run_prescribed needs dt [s] or du_max [m]")
    if dt is not None and not dt > 0:
        raise ParameterError(f"dt = {dt!r} s must be > 0")
    if du_max is not None and not du_max > 0:
        raise ParameterError(f"du_max = {du_max!r} m must be > 0")
    dt_cap = float(dt_max if dt_max is not None else (dt if dt is not None else T / 1e4))
    grids = [np.zeros(1)]
    for a, b in zip(edges[:-1], edges[1:]):
        h = dt_cap
        if du_max is not None:
            tt = np.linspace(a, b, 65)
            vmax = float(np.max(np.abs(protocol.velocity(tt))))
            if vmax > 0:
                h = min(h, du_max / vmax)
        if dt is not None:
            h = min(h, dt)
        k = max(1, int(math.ceil((b - a) / h - 1e-9)))
        grids.append(np.linspace(a, b, k + 1)[1:])
    tgrid = np.concatenate(grids)
    DT = np.ascontiguousarray(np.diff(tgrid))
    n = DT.size
    V = np.ascontiguousarray(protocol.velocity(0.5 * (tgrid[:-1] + tgrid[1:])), dtype=np.float64)
    FN = np.ascontiguousarray(protocol.normal_force(tgrid[1:]), dtype=np.float64)
    fn0 = float(protocol.normal_force(np.array([0.0]))[0])
    stride = save_every or max(1, int(math.ceil(n / max_points)))
    out = np.zeros((n // stride + 1, 6))
    s0 = model.initial_state()
    status = _prescribed_loop(V, FN, DT, model.param_vector(), float(s0[0]), float(s0[1]), 0.0, fn0, stride, out)
    if status >= 0:
        t_fail = float(tgrid[status])
        raise IntegrationError(f"subloading: return mapping failed at step {status} (t = {t_fail:.6g} s); "
                               "reduce du_max / dt", time=t_fail, step=status)
    times = tgrid[::stride][: out.shape[0]]
    dt = float(DT.min())
    attrs = {**model.attrs(), "model": model.name, "protocol": protocol.type_name, "system": "prescribed_slip",
             "integrator": "return_map", "dt": dt}
    return make_dataset(times, _model_outputs(model, out), units=_units(model), attrs=attrs)


@njit(cache=True)
def _rk4_rate_loop(U, dt, p, y0, stride, out):
    """RK4 on [slip, f_t, q, u_p]; U[k] = (v, f_n, df_n/dt) at t = k dt / 2."""
    y = y0.copy()
    k1 = np.empty(3)
    k2 = np.empty(3)
    k3 = np.empty(3)
    k4 = np.empty(3)
    tmp = np.empty(3)
    n = (U.shape[0] - 1) // 2
    u = 0.0
    out[0, 0] = 0.0
    out[0, 1] = y[0]
    out[0, 2] = y[1]
    out[0, 3] = y[2]
    j = 1
    for i in range(n):
        a = U[2 * i]
        b = U[2 * i + 1]
        c = U[2 * i + 2]
        rates_full(y, a[0], a[1], a[2], p, k1)
        for m in range(3):
            tmp[m] = y[m] + 0.5 * dt * k1[m]
        rates_full(tmp, b[0], b[1], b[2], p, k2)
        for m in range(3):
            tmp[m] = y[m] + 0.5 * dt * k2[m]
        rates_full(tmp, b[0], b[1], b[2], p, k3)
        for m in range(3):
            tmp[m] = y[m] + dt * k3[m]
        rates_full(tmp, c[0], c[1], c[2], p, k4)
        for m in range(3):
            y[m] += dt / 6.0 * (k1[m] + 2.0 * k2[m] + 2.0 * k3[m] + k4[m])
        u += dt / 6.0 * (a[0] + 4.0 * b[0] + c[0])
        if not (np.isfinite(y[0]) and np.isfinite(y[1]) and np.isfinite(y[2])):
            return i + 1
        if (i + 1) % stride == 0:
            out[j, 0] = u
            out[j, 1] = y[0] if c[1] > 0.0 else 0.0
            out[j, 2] = y[1]
            out[j, 3] = y[2]
            j += 1
    return -1


def run_rate_reference(model: SubloadingRate, protocol, *, du: float, max_points: int = 20000) -> xr.Dataset:
    r"""Classical RK4 on the rate form (eqs. 16, 19, 24-31 in 1-D) with slip increments ``du`` [m].

    Unlike the core integrators (whose kernel interface carries no normal-stress rate), this
    loop passes :math:`\dot f_n` (central differences of the protocol's ``normal_force``) to
    :func:`~frictionlab.laws.subloading.rates_full`, so it is the reference under
    normal-stress programmes. Returns ``slip``, ``shear_stress``, ``area_state``,
    ``plastic_slip`` over ``time``.
    """
    T = float(protocol.duration)
    tt = np.linspace(0.0, T, 4001)
    vmax = float(np.max(np.abs(protocol.velocity(tt)))) or 1.0
    n = max(1, int(math.ceil(T * vmax / du)))
    dt = T / n
    th = np.arange(2 * n + 1) * (0.5 * dt)
    eps = 0.25 * dt
    fnr = (protocol.normal_force(th + eps) - protocol.normal_force(th - eps)) / (2 * eps)
    U = np.ascontiguousarray(np.vstack([protocol.velocity(th), protocol.normal_force(th), fnr]).T)
    stride = max(1, int(math.ceil(n / max_points)))
    out = np.zeros((n // stride + 1, 4))
    status = _rk4_rate_loop(U, dt, model.param_vector(), model.initial_state(), stride, out)
    if status >= 0:
        raise IntegrationError(f"subloading rate form: non-finite state at step {status} (t = {status * dt:.6g} s); "
                               "reduce du", time=status * dt, step=status)
    times = np.arange(out.shape[0]) * stride * dt
    data = {"slip": out[:, 0], "shear_stress": out[:, 1], "friction_force": out[:, 1], "area_state": out[:, 2],
            "plastic_slip": out[:, 3]}
    return make_dataset(times, data, units={"shear_stress": "Pa", "friction_force": "Pa", "area_state": "1",
                                            "plastic_slip": "m"},
                        attrs={**model.attrs(), "model": model.name, "integrator": "rk4_with_fn_rate", "dt": dt})


# --------------------------------------------------------------------------- pulsating load
@njit(cache=True)
def _pulsating_loop(v, upper, lower, cycles, fn, dt, p, ft, q, max_steps, stride, out, cyc):
    """Load at +v until f_t >= upper, unload at -v until f_t <= lower; ``cyc`` rows per
    cycle: (plastic slip at its end, slip at its end, peak f_t, time of the load reversal,
    time at its end). Returns (steps, cycles done, status)."""
    t_down = 0.0
    u_start = 0.0
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
            t_down = (i + 1) * dt
        elif direction < 0.0 and ft <= lower:
            cyc[k, 0] = up
            cyc[k, 1] = u
            cyc[k, 2] = peak
            cyc[k, 3] = t_down
            cyc[k, 4] = (i + 1) * dt
            peak = 0.0
            k += 1
            direction = 1.0
            u_start = u
            if k >= cycles:
                return i + 1, k, 0
        if direction > 0.0 and u - u_start > 50.0 * upper / p[1]:
            # gross sliding: the threshold can no longer be reached
            return i + 1, k, 2
    return max_steps, k, 0


def run_pulsating(model: Subloading, protocol, *, du: float = 1e-9, max_rows: int = 1_000_000) -> tuple[xr.Dataset, np.ndarray, int]:
    """Run the threshold-switched cyclic loading of a :class:`PulsatingThreshold` protocol.

    ``protocol.v`` is the loading speed [m/s], ``protocol.upper`` / ``lower`` the stress
    thresholds [Pa], ``protocol.normal_force_value`` the normal stress [Pa]; ``du`` [m] is the
    slip increment per step. Gross sliding is declared when one loading phase slips more than
    ``50 upper / alpha_t`` (fifty times its elastic slip) without reaching ``upper``.

    Returns
    -------
    (dataset over time with slip, shear_stress, plastic_slip, area_state; array of cycle rows
    ``(plastic slip, slip, peak stress, reversal time, end time)`` for each completed cycle;
    the number of the cycle in which gross sliding occurred (0 if none))
    """
    p = model.param_vector()
    dt = du / protocol.v
    max_steps = int(protocol.max_duration / dt)
    # about 200 saved rows per cycle (a cycle takes ~ 2 (upper - lower) / (alpha_t du) steps)
    per_cycle = 2.0 * (protocol.upper - protocol.lower) / (model.alpha_t * du)
    stride = max(1, int(per_cycle / 200))
    out = np.zeros((min(max_steps // stride + 2, max_rows), 5))
    cyc = np.zeros((protocol.cycles, 5))
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

    out rows: (u, v, f_t, spring force, up, q). Returns (-1 or the failing step, total
    number of return-mapping evaluations)."""
    nit = 0
    u = 0.0
    v = 0.0
    ft = 0.0
    q = p[10] if p[11] > 0.5 else 0.0
    up = 0.0
    a = 0.0
    at = p[1]
    c1 = 1.0 / (beta * dt * dt)
    c2 = 1.0 / (2.0 * beta) - 1.0
    kt = at  # last effective tangent df_t/du (chord slope of the previous step)
    j = 0
    out[0, 0] = 0.0
    out[0, 3] = 0.0
    j = 1
    for i in range(n):
        ud1 = V * (i + 1) * dt
        # predictor, then Newton with the previous tangent and secant updates, bracketed
        u1 = u + dt * v + 0.5 * dt * dt * a
        r_prev = 0.0
        u_prevt = 0.0
        ft1 = ft
        q1 = q
        g1 = 0.0
        a1 = a
        v1 = v
        ok = False
        fresh = False
        blo = -1e300
        bhi = 1e300
        J = M * c1 + K + Aa * kt
        # shear strength from the predicted velocity (explicit in tau, as the paper ignores
        # d tau / dt in the consistency condition): tau(v) has an infinite slope at v = 0
        # for d < 1, which would make the residual non-smooth in u1 during stick
        tau = shear_strength(v + dt * a, p)
        for it in range(100):
            a1 = c1 * (u1 - u - dt * v) - c2 * a
            v1 = v + dt * ((1.0 - gamma) * a + gamma * a1)
            ft1, q1, g1 = return_map(ft, q, fn, u1 - u, dt, fn, tau, p)
            nit += 1
            if g1 < 0.0:
                return i + 1, nit
            res = M * a1 - K * (ud1 - u1) + Aa * ft1
            scale = K * abs(ud1 - u1) + Aa * abs(ft1) + M * abs(a1)
            if abs(res) <= 1e-10 * scale:
                ok = True
                fresh = True
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
                ok = True
                break
            u1 = un
        if not ok:
            return i + 1, nit
        if not fresh:
            a1 = c1 * (u1 - u - dt * v) - c2 * a
            v1 = v + dt * ((1.0 - gamma) * a + gamma * a1)
            ft1, q1, g1 = return_map(ft, q, fn, u1 - u, dt, fn, tau, p)
        if u1 != u:
            kt = min(max((ft1 - ft) / (u1 - u), 0.0), at)
        ft = ft1
        q = q1
        up += g1
        u = u1
        v = v1
        a = a1
        if not (np.isfinite(u) and np.isfinite(v)):
            return i + 1, nit
        if (i + 1) % stride == 0:
            out[j, 0] = u
            out[j, 1] = v
            out[j, 2] = ft
            out[j, 3] = K * (ud1 - u)
            out[j, 4] = up
            out[j, 5] = q
            j += 1
    return -1, nit


@dataclass(frozen=True)
class SubloadingOscillator(Parameters):
    """One-degree-of-freedom spring-mass system of eq. (39) (Ozaki et al. 2020, Fig. 8).

    Parameters
    ----------
    mass : float
        Slider mass M [kg] (the paper's "M = 3 kg", Sec. 4.3, reproduces its Fig. 9 only
        when read as 3 N s^2/mm = 3000 kg: see ``subloading/fig9``).
    stiffness : float
        Spring stiffness K [N/m].
    drive_velocity : float
        Driver velocity V [m/s].
    area : float
        Apparent contact area A_a [m^2].
    normal_stress : float
        Constant normal contact stress f_n [Pa] (Sec. 4.3 prints none for Fig. 9; Fig. 4's 0.3 MPa is used there).
    beta, gamma : float
        Newmark coefficients (average acceleration by default; Sec. 4.3 names Newmark's method, not its constants).
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
        status, nit = _newmark_loop(self.mass, self.stiffness, self.drive_velocity, self.area, self.normal_stress, dt, n,
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
                 "dt": dt, "return_map_calls_per_step": nit / max(n, 1), **{f"system.{k}": v for k, v in self.to_dict().items()}}
        return make_dataset(times, data, units={"plastic_slip": "m", "area_state": "1"}, attrs=attrs)


# --------------------------------------------------------------------------- drivers of simulate()
#: default steps per slip scale (:meth:`SubloadingParams.slip_scale`) of the ``prescribed`` driver:
#: 1e-8 m at the paper's parameters, the slip increment of the subloading scenarios
STEPS_PER_SLIP_SCALE = 100
#: most steps the default step may take; beyond, ``dt`` or ``du_max`` must be given
MAX_DEFAULT_STEPS = 50_000_000


def default_step(model: Subloading, protocol, t_end: float | None = None) -> float:
    """The ``prescribed`` driver's step [s] when neither ``dt`` nor ``du_max`` is given.

    ``min(T / 1e4, slip_scale / (100 max|v|))`` over the run length ``T``; a run that would take
    more than :data:`MAX_DEFAULT_STEPS` steps is refused (give ``dt`` or ``du_max``).
    """
    T = float(t_end if t_end is not None else protocol.duration)
    vmax = max((float(np.max(np.abs(protocol.velocity(np.linspace(sg.t_start, sg.t_end, 65)))))
                for sg in protocol.segments() if sg.t_start < T), default=0.0)
    h = T / 1e4
    if vmax > 0.0:
        h = min(h, model.slip_scale() / (STEPS_PER_SLIP_SCALE * vmax))
    if T / h > MAX_DEFAULT_STEPS:
        raise ConfigError(f"driver 'prescribed': the default step ({h:.3g} s, a slip of {h * vmax:.3g} m at "
                          f"{vmax:g} m/s) would take {T / h:.3g} steps over {T:g} s; give dt or du_max")
    return h


def _drive_prescribed(run: Run, *, du_max=None, dt_max=None, max_points=20000) -> xr.Dataset:
    """Driver ``"prescribed"`` (default): :func:`run_prescribed`, the compiled return mapping.

    ``dt`` [s] and/or ``du_max`` [m] set the step; ``save_dt`` [s] saves every
    ``round(save_dt / dt)`` steps. Given neither, ``dt`` is :func:`default_step`: at most
    ``duration / 1e4`` and a slip of :meth:`~frictionlab.laws.subloading.SubloadingParams.slip_scale`
    / 100 per step at the protocol's fastest speed (backward Euler is first order in the slip
    increment: at ``duration / 1e4`` alone, 1 mm/s over 10 s changed by 5 % on halving the step).
    """
    model, protocol, dt, save_dt = run.model, run.protocol, run.dt, run.save_dt
    t_end = run.t_end if run.t_end_given else None
    if dt is None and du_max is None:
        dt = default_step(model, protocol, t_end)
    save_every = None
    if save_dt is not None:
        h = dt if dt is not None else float(dt_max) if dt_max is not None else None
        if h is None:
            raise ConfigError("driver 'prescribed': save_dt needs dt or dt_max (with du_max alone the step varies)")
        save_every = max(1, int(round(save_dt / h)))
    return run_prescribed(model, protocol, dt=dt, du_max=du_max, dt_max=dt_max, save_every=save_every,
                          max_points=max_points, t_end=t_end)


def _drive_oscillator(run: Run, *, area=1e-4, newmark_beta=0.25, newmark_gamma=0.5) -> xr.Dataset:
    """Driver ``"oscillator"``: the 1-DOF system of eq. (39) as a :class:`MassSystem`.

    The mass and stiffness come from the system, the drive velocity V and the normal stress
    f_n [Pa] from the protocol (one segment of constant velocity and normal stress), the
    apparent area A_a [m^2] from the option ``area``; ``dt`` defaults to 1 ms.
    """
    model, protocol, system = run.model, run.protocol, run.system
    segs = protocol.segments()
    if len(segs) != 1 or segs[0].velocity is None or segs[0].normal_force is None:
        raise ConfigError(f"driver 'oscillator' needs a constant drive velocity and normal stress (one segment); "
                          f"protocol {protocol.type_name!r} has {len(segs)} segment(s) of kind "
                          f"{', '.join(s.kind for s in segs)}")
    unused = {k: getattr(system, k) for k in ("damping", "angle_deg", "x0", "v0", "preload") if getattr(system, k) != 0.0}
    if system.normal_from_gravity:
        unused["normal_from_gravity"] = True
    if unused:
        raise ConfigError(f"driver 'oscillator' (eq. 39: M u'' = K (V t - u) - A_a f_t, from rest) does not model "
                          f"system {', '.join(f'{k} = {v!r}' for k, v in unused.items())}; set them to 0")
    if system.stiffness <= 0.0:
        raise ConfigError("driver 'oscillator' needs a spring: system.stiffness must be > 0 N/m")
    if segs[0].velocity < 0.0 or segs[0].normal_force <= 0.0:
        raise ConfigError(f"driver 'oscillator' needs a drive velocity >= 0 and a normal stress > 0 Pa; got "
                          f"v = {segs[0].velocity:g} m/s, normal stress = {segs[0].normal_force:g} Pa")
    osc = SubloadingOscillator(mass=system.mass, stiffness=system.stiffness, drive_velocity=segs[0].velocity,
                               area=area, normal_stress=segs[0].normal_force, beta=newmark_beta, gamma=newmark_gamma)
    return osc.simulate(model, run.t_end, 1e-3 if run.dt is None else run.dt, save_dt=run.save_dt)


def _drive_pulsating(run: Run, *, du=None, max_rows=1_000_000) -> xr.Dataset:
    """Driver ``"pulsating"``: :func:`run_pulsating` (Fig. 5); the cycle table joins the result.

    The slip increment is ``du`` [m], or ``dt * v`` when ``dt`` is given (default 1 nm).
    """
    model, protocol, dt = run.model, run.protocol, run.dt
    if du is None:
        du = 1e-9 if dt is None else dt * protocol.v
    elif dt is not None:
        raise ConfigError("driver 'pulsating': give dt or du, not both (du = dt * v)")
    ds, cyc, gross = run_pulsating(model, protocol, du=du, max_rows=max_rows)
    for k, (name, unit) in enumerate((("cycle_plastic_slip", "m"), ("cycle_slip", "m"), ("cycle_peak_stress", "Pa"),
                                      ("cycle_reversal_time", "s"), ("cycle_end_time", "s"))):
        ds[name] = ("cycle", cyc[:, k], {"units": unit})
    ds.attrs["gross_sliding_cycle"] = gross
    return ds


def _drive_rate_reference(run: Run, *, du=None, max_points=20000) -> xr.Dataset:
    """Driver ``"rate_reference"``: :func:`run_rate_reference`, RK4 with the normal-stress rate.

    The slip increment per step is ``du`` [m], or ``dt * max|v|`` when ``dt`` is given
    (default: ``duration / 1e4`` steps).
    """
    model, protocol, dt = run.model, run.protocol, run.dt
    if du is not None and dt is not None:
        raise ConfigError("driver 'rate_reference': give dt or du, not both (du = dt * max|v|)")
    if du is None:
        T = float(protocol.duration)
        vmax = float(np.max(np.abs(protocol.velocity(np.linspace(0.0, T, 4001))))) or 1.0
        du = vmax * (T / 1e4 if dt is None else dt)
    return run_rate_reference(model, protocol, du=du, max_points=max_points)


register_driver(Subloading, "prescribed", _drive_prescribed, default=True, t_end="within",
                options={"du_max": None, "dt_max": None, "max_points": 20000},
                description="compiled return mapping under prescribed slip (fast)")
register_driver(Subloading, "oscillator", _drive_oscillator, systems=(MassSystem,),
                options={"area": 1e-4, "newmark_beta": 0.25, "newmark_gamma": 0.5},
                description="Newmark 1-DOF spring-mass system of eq. (39), drive velocity from the protocol")
register_driver(Subloading, "pulsating", _drive_pulsating, feedback=True, options={"du": None, "max_rows": 1_000_000},
                t_end="whole", refuse_save_dt="it saves about 200 rows per cycle",
                description="threshold-switched cyclic loading of Fig. 5 (PulsatingThreshold)")
register_driver(SubloadingRate, "rate_reference", _drive_rate_reference, options={"du": None, "max_points": 20000},
                t_end="whole", refuse_save_dt="it saves at most max_points rows; give max_points",
                description="RK4 on the rate form with the normal-stress rate as input (reference)")
