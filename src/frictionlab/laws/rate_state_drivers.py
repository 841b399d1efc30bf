r"""Driver ``quasi_static``: rate-and-state friction on the inertia-free spring-slider.

With :math:`\mu_s = k(x_{lp}-x)/N` the spring force per unit normal load, the slider velocity is
the closed-form inverse of the friction law at the current state,

.. math:: v = v_0 \exp\!\Big(\frac{\mu_s - \mu_0 - \sum_i b_i\ln(v_0\theta_i/D_{ci})}{a}\Big)
          \quad\text{(log form)}, \qquad
          v = 2 v_0\, e^{-\psi/a}\sinh(\mu_s/a) \quad\text{(arcsinh form)},

and :math:`\dot\mu_s = (k/N)(V_{lp} - v)`, :math:`\dot\theta_i` from the aging or slip law (Ruina,
J. Geophys. Res. 88 (1983) 10359, eqs. 5-7; the ``rsfmodel`` formulation). The states
:math:`(\mu_s, \ln\theta_i)` are integrated piece by piece between the protocol's breakpoints
(velocity jumps), so no step straddles a jump; the load-point velocity must be constant on each
piece (a protocol whose velocity varies continuously is refused). The slip needs no integration:
on a piece starting at :math:`t_0`, :math:`x = x(t_0) + V_{lp}(t-t_0) - (\mu_s-\mu_s(t_0))N/k`
(load-point travel minus the change of the spring's extension), exact to rounding.

Solver (``solver`` option): ``Rodas4`` (default), the stiffly accurate Rosenbrock method with the
exact Jacobian of :mod:`frictionlab.laws.rate_state_qs_kernels` (the one implementation, also behind
the fit's :func:`~frictionlab.fit.rsf.simulate_qs_slider`), or one of
:func:`scipy.integrate.solve_ivp`'s methods (``LSODA``, ``Radau``, ``BDF``, ``RK45``, ``DOP853``) on
the same right-hand side. At the default tolerances both stiff choices agree to about 1e-10 in
:math:`\mu` on a velocity step (test).

The normal load must be constant (``N`` from the protocol at t = 0); a protocol that varies it
is refused. The kernels are numba-compiled (cached on disk); the first run of a process that has
not imported numba runs the same kernels interpreted (:func:`frictionlab.core.lazy.interpreted`)
when it takes at most ``INTERPRETED_STEPS`` steps (a velocity step takes ~1300): numba's import and
first dispatch cost ~0.6 s, more than such a run interpreted (~0.1 s); a longer run, or one whose
interpreted arithmetic overflows, goes to the compiled kernels, and so do all later runs. Both give
the same numbers (the same IEEE operations in the same order; test). The result is a
:class:`~frictionlab.core.result.LazyDataset`: reading a variable's values imports no xarray.
"""

from __future__ import annotations

import math
import sys
from typing import Any

import numpy as np
from ..core.errors import ConfigError, IntegrationError
from ..core.result import LazyDataset
from ..solve.drivers import register_driver, run_attrs
from ..systems.quasi_static import QuasiStaticSlider
from .rate_state import RateState
from .rate_state2 import RateState2

__all__ = ["run_quasi_static"]

_SOLVERS = ("Rodas4", "LSODA", "Radau", "BDF", "RK45", "DOP853")


def _constants(model: Any) -> tuple[np.ndarray, np.ndarray, bool]:
    """``(b_i, dc_i, arcsinh form)`` of a one- or two-state rate-and-state model."""
    if isinstance(model, RateState2):
        return np.array([model.b1, model.b2]), np.array([model.dc1, model.dc2]), False
    return np.array([model.b]), np.array([model.dc]), model.form == "arcsinh"


def _velocity(model: Any, mu: float, lnth: np.ndarray, bs: np.ndarray, dcs: np.ndarray, asinh_form: bool) -> float:
    psi = model.mu0 + float(np.sum(bs * (np.log(model.v0 / dcs) + lnth)))
    if asinh_form:
        return 2.0 * model.v0 * math.exp(-psi / model.a) * math.sinh(mu / model.a)
    return model.v0 * math.exp((mu - psi) / model.a)


def _mu(model: Any, v: float, lnth: np.ndarray, bs: np.ndarray, dcs: np.ndarray, asinh_form: bool) -> float:
    psi = model.mu0 + float(np.sum(bs * (np.log(model.v0 / dcs) + lnth)))
    if asinh_form:
        return model.a * math.asinh(v / (2.0 * model.v0) * math.exp(psi / model.a))
    return psi + model.a * math.log(v / model.v0)


#: steps the first run of a process may take interpreted (module docstring) before it is handed to numba
INTERPRETED_STEPS = 3000
_FIRST_RUN = [True]


def _numba_imported() -> bool:
    return "numba" in sys.modules


def _run_compiled(p: np.ndarray, y0: list[float], edges: list[float], vlps: list[float], times: np.ndarray,
                  rtol: float, atol: float, first_step: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, str]:
    """``(states, slip, velocity, time reached, failure message or "")`` of the Rodas4 run
    (:func:`frictionlab.laws.rate_state_qs_kernels.run_pieces`): interpreted for the first run of a
    process that has not imported numba, if it takes at most ``INTERPRETED_STEPS`` steps, else compiled."""
    from ..core.lazy import interpreted
    from . import rate_state_qs_kernels as qk

    Y = np.empty((times.size, len(y0)))
    slip, vel, info = np.empty(times.size), np.empty(times.size), np.zeros(6)
    args = (np.array(y0, dtype=float), p, np.array(edges, dtype=float), np.array(vlps, dtype=float), times,
            rtol, atol, first_step)
    stop = None
    if _FIRST_RUN[0] and not _numba_imported():
        _FIRST_RUN[0] = False
        try:
            stop = interpreted(qk.__name__).run_pieces(*args, INTERPRETED_STEPS, Y, slip, vel, info)
        except (OverflowError, ZeroDivisionError, ValueError):  # compiled code gets inf/nan and rejects the step
            stop = None
        if stop is not None and stop >= 0 and int(info[2]) == qk.TOO_MANY_STEPS:
            stop = None  # a long run: compiled
    if stop is None:
        stop = qk.run_pieces(*args, qk.MAX_STEPS, Y, slip, vel, info)
    if stop < 0:
        return Y, slip, vel, float(times[-1]), ""
    t, h, code = float(info[0]), float(info[1]), int(info[2])
    why = {qk.TINY_STEP: f"the step size {h:.3g} s fell below the resolution of t = {t:.9g} s",
           qk.TOO_MANY_STEPS: f"{qk.MAX_STEPS} steps did not reach the next jump",
           qk.NOT_FINITE: "non-finite state"}[code]
    return Y, slip, vel, t, why


def _run_scipy(p: np.ndarray, y0: list[float], edges: list[float], vlps: list[float], times: np.ndarray,
               solver: str, rtol: float, atol: float, first_step: float) -> tuple[np.ndarray, np.ndarray, np.ndarray, float, str]:
    """The same run with :func:`scipy.integrate.solve_ivp` (``solver``) on the compiled right-hand side."""
    from scipy.integrate import solve_ivp

    from . import rate_state_qs_kernels as qk

    Y = np.empty((times.size, len(y0)))
    Y[0] = y0
    slip = np.zeros(times.size)
    x, y = 0.0, list(y0)
    for t0, t1, vlp in zip(edges[:-1], edges[1:], vlps):
        inside = (times > t0) & (times <= t1)
        t_eval = times[inside]
        if t_eval.size == 0 or t_eval[-1] < t1:
            t_eval = np.append(t_eval, t1)  # the state at the jump carries over to the next piece

        def rhs(t: float, u: np.ndarray, vlp: float = vlp) -> np.ndarray:
            out = np.empty(u.size)
            qk._rhs(u, vlp, p, out)
            return out

        kw = {"first_step": min(first_step, t1 - t0)} if first_step > 0 else {}
        sol = solve_ivp(rhs, (t0, t1), y, method=solver, t_eval=t_eval, rtol=rtol, atol=atol, **kw)
        ok = sol.status == 0 and sol.y.shape[1] == t_eval.size and bool(np.all(np.isfinite(sol.y)))
        if not ok:
            return Y, slip, np.empty(0), float(sol.t[-1]) if sol.t.size else t0, sol.message or "non-finite state"
        k = int(inside.sum())
        ys = sol.y.T
        Y[inside] = ys[:k]
        slip[inside] = x + vlp * (t_eval[:k] - t0) - (ys[:k, 0] - y[0]) / p[3]
        x = x + vlp * (t1 - t0) - (ys[-1, 0] - y[0]) / p[3]
        y = ys[-1].tolist()
    vel = np.array([qk._velocity(row, p) for row in Y])
    return Y, slip, vel, float(times[-1]), ""


def run_quasi_static(model: Any, protocol: Any, system: QuasiStaticSlider, *, dt: float | None, t_end: float | None,
                     save_dt: float | None, solver: str = "Rodas4", rtol: float = 1e-9, atol: float = 1e-11,
                     max_points: int = 20000) -> Any:
    """Run ``model`` (rate_state or rate_state2) on ``system`` under ``protocol`` (module docstring)."""
    if solver not in _SOLVERS:
        raise ConfigError(f"quasi_static: solver {solver!r} is not one of {', '.join(_SOLVERS)}")
    t_end = float(protocol.duration if t_end is None else t_end)
    if not (t_end > 0 and math.isfinite(t_end)):
        raise ConfigError(f"quasi_static: t_end = {t_end!r} s must be positive")
    save_dt = float(t_end / 1000 if save_dt is None else save_dt)
    n_save = int(math.floor(t_end / save_dt + 1e-9)) + 1
    if n_save > max_points:
        raise ConfigError(f"quasi_static: {n_save} saved points exceed max_points = {max_points}; raise save_dt")
    times = np.linspace(0.0, (n_save - 1) * save_dt, n_save)
    if times[-1] < t_end * (1 - 1e-12):
        times = np.append(times, t_end)
    for seg in protocol.segments():
        if seg.t_start < t_end and seg.normal_force is None:
            raise ConfigError("quasi_static: the normal load must be constant in time; "
                              f"protocol {protocol.type_name!r} varies it in [{seg.t_start:g}, {seg.t_end:g}] s")
        if seg.t_start < t_end and seg.velocity is None:
            raise ConfigError("quasi_static: the load-point velocity must be constant between the protocol's "
                              f"breakpoints; protocol {protocol.type_name!r} varies it in [{seg.t_start:g}, "
                              f"{seg.t_end:g}] s (use the rk4 or radau driver)")
    n_load = float(protocol.normal_force(np.array([0.0]))[0])
    if not n_load > 0:
        raise ConfigError(f"quasi_static: normal force {n_load:g} N must be positive")
    kn = system.stiffness / n_load  # [1/m]
    bs, dcs, asinh_form = _constants(model)
    slip_law = model.law == "slip"
    lnth0 = np.log(np.asarray(model.initial_state(), dtype=float))
    v_lp0 = float(protocol.velocity(np.array([0.0]))[0])
    if system.start_steady:
        if v_lp0 <= 0 and not asinh_form:
            raise ConfigError("quasi_static: start_steady needs a positive initial load-point velocity "
                              "(or set start_steady = false and preload)")
        mu0 = _mu(model, v_lp0, lnth0, bs, dcs, asinh_form) if v_lp0 > 0 else 0.0
    else:
        mu0 = system.preload / n_load
    from .rate_state_qs_kernels import param_vector

    p = param_vector(model.mu0, model.a, model.v0, kn, bs, dcs, asinh_form, slip_law)
    edges = sorted({0.0, t_end, *(b for b in protocol.breakpoints if 0.0 < b < t_end)})
    vlps = [float(protocol.velocity(np.array([0.5 * (t0 + t1)]))[0]) for t0, t1 in zip(edges[:-1], edges[1:])]
    y0 = [mu0, *lnth0.tolist()]
    first = float(dt) if dt else 0.0
    if solver == "Rodas4":
        Y, slip, v, tf, failure = _run_compiled(p, y0, edges, vlps, times, rtol, atol, first)
    else:
        Y, slip, v, tf, failure = _run_scipy(p, y0, edges, vlps, times, solver, rtol, atol, first)
    if failure:
        kc = float(np.sum(bs) - model.a) * n_load / float(dcs[0])
        raise IntegrationError(
            f"quasi_static ({solver}) failed at t = {tf:.6g} s: {failure}. The inertia-free "
            f"slider cannot follow a dynamic instability (stiffness {system.stiffness:g} N/m vs critical about "
            f"{kc:g} N/m): raise the stiffness, use a mass system (spring_slider) or tighten rtol",
            time=tf)
    mu = Y[:, 0]
    lnth = Y[:, 1:]
    spring = mu * n_load
    data = {"driver_position": slip + spring / system.stiffness, "slip": slip, "slip_velocity": v,
            "load_point_velocity": protocol.velocity(times), "normal_force": np.full_like(mu, n_load),
            "friction_force": spring, "spring_force": spring, "friction_coefficient": mu}
    units = {"load_point_velocity": "m/s"}
    for name, unit, col in zip(model.state_names, model.state_units, lnth.T):
        data[name] = np.exp(col)
        units[name] = unit
    return LazyDataset(times, data, units=units,
                       attrs=run_attrs(model, protocol, system, "quasi_static", solver=solver, rtol=rtol, atol=atol))


def _advance_quasi_static(run: Any, **options: Any) -> Any:
    """Driver ``quasi_static``: :func:`run_quasi_static` over the run."""
    return run_quasi_static(run.model, run.protocol, run.system, dt=run.dt, t_end=run.t_end, save_dt=run.save_dt,
                            **options)


for _cls in (RateState, RateState2):
    register_driver(_cls, "quasi_static", _advance_quasi_static, systems=(QuasiStaticSlider,),
                    options={"solver": "Rodas4", "rtol": 1e-9, "atol": 1e-11, "max_points": 20000}, adaptive=True, default=True,
                    description="inertia-free spring-slider k(x_lp - x) = mu N, closed-form v, Rodas4 (or solve_ivp) between jumps")
