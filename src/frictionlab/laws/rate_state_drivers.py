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

Solver (``solver`` option): ``Rodas4`` (default), the stiffly accurate Rosenbrock method of
:mod:`frictionlab.solve.integrate.rosenbrock` with this module's exact Jacobian, or one of
:func:`scipy.integrate.solve_ivp`'s methods (``LSODA``, ``Radau``, ``BDF``, ``RK45``, ``DOP853``).
At the default tolerances both stiff choices agree to about 1e-10 in :math:`\mu` on a velocity
step (test); Rodas4 is the default because it needs no :mod:`scipy.integrate`, whose import is most
of a fresh process's time (issue 19).

The normal load must be constant (``N`` from the protocol at t = 0); a protocol that varies it
is refused. The run needs neither numba (no kernel is called) nor xarray: the result is a
:class:`~frictionlab.core.result.LazyDataset`, built as a Dataset at first use, so that a fresh
process running one velocity step with the default solver pays for numpy only (issue 19).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from ..core.errors import ConfigError, IntegrationError
from ..core.result import LazyDataset
from ..solve.drivers import register_driver, run_attrs
from ..solve.integrate.rosenbrock import rodas4
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


def _velocities(model: Any, mu: np.ndarray, lnth: np.ndarray, bs: np.ndarray, dcs: np.ndarray,
                asinh_form: bool) -> np.ndarray:
    """:func:`_velocity` at every saved sample (the same floating-point operations, vectorised up
    to the exponentials, which stay :func:`math.exp`/:func:`math.sinh` as in the step)."""
    psi = model.mu0 + (bs * (np.log(model.v0 / dcs) + lnth)).sum(axis=1)
    if asinh_form:
        return np.array([2.0 * model.v0 * math.exp(-p / model.a) * math.sinh(m / model.a)
                         for m, p in zip(mu.tolist(), psi.tolist())])
    return np.array([model.v0 * math.exp(x) for x in ((mu - psi) / model.a).tolist()])


def _rhs_for(model: Any, bs: np.ndarray, dcs: np.ndarray, asinh_form: bool, slip_law: bool, kn: float):
    r"""``rhs(y, vlp)`` of :math:`y = (\mu_s, \ln\theta_i)` as a list of floats.

    The arithmetic of :func:`_velocity` and of the evolution laws on Python floats (it runs six
    times a step); the sum over the state variables is taken in the order ``numpy.sum`` adds
    one or two terms, so :math:`v` is bit for bit that of :func:`_velocity`.
    """
    mu0, a, v0 = model.mu0, model.a, model.v0
    b = [float(x) for x in bs]
    c = [float(x) for x in np.log(model.v0 / dcs)]
    dc = [float(x) for x in dcs]
    n = len(b)

    def rhs(y: Any, vlp: float) -> list[float]:
        s = b[0] * (c[0] + y[1])
        for i in range(1, n):
            s += b[i] * (c[i] + y[1 + i])
        psi = mu0 + s
        mu = y[0]
        v = 2.0 * v0 * math.exp(-psi / a) * math.sinh(mu / a) if asinh_form else v0 * math.exp((mu - psi) / a)
        av = abs(v)
        out = [kn * (vlp - v)]
        for i in range(n):
            if slip_law:
                out.append(-(av / dc[i]) * math.log(max(av * math.exp(y[1 + i]) / dc[i], 1e-300)))
            else:
                out.append(math.exp(-y[1 + i]) - av / dc[i])
        return out

    return rhs


def _jac_for(model: Any, bs: np.ndarray, dcs: np.ndarray, asinh_form: bool, slip_law: bool, kn: float):
    r"""The exact Jacobian ``jac(y)`` of :func:`_rhs_for`'s right-hand side (for the Rosenbrock solver).

    With :math:`\partial v/\partial\mu_s` (:math:`v/a`, or :math:`2v_0e^{-\psi/a}\cosh(\mu_s/a)/a` in the
    arcsinh form) and :math:`\partial v/\partial\ln\theta_i = -b_i v/a`, the rows are
    :math:`-(k/N)\nabla v` and, per state, the aging law's :math:`-\mathrm{sgn}(v)\nabla v/D_{ci} -
    e^{-\ln\theta_i}e_i` or the slip law's :math:`-\mathrm{sgn}(v)(L_i+1)\nabla v/D_{ci} - (|v|/D_{ci})e_i`,
    :math:`L_i = \ln(|v|\theta_i/D_{ci})` (the constant :math:`L_i` where the driver clips it).
    """
    mu0, a, v0 = model.mu0, model.a, model.v0
    b = [float(x) for x in bs]
    c = [float(x) for x in np.log(model.v0 / dcs)]
    dc = [float(x) for x in dcs]
    n = len(b)

    def jac(y: Any) -> list[list[float]]:
        psi = mu0 + sum(bi * (ci + li) for bi, ci, li in zip(b, c, y[1:]))
        mu = y[0]
        if asinh_form:
            e = 2.0 * v0 * math.exp(-psi / a)
            v = e * math.sinh(mu / a)
            grad = [e * math.cosh(mu / a) / a]
        else:
            v = v0 * math.exp((mu - psi) / a)
            grad = [v / a]
        grad += [-bi * v / a for bi in b]
        sgn = math.copysign(1.0, v) if v != 0.0 else 0.0
        av = abs(v)
        rows = [[-kn * g for g in grad]]
        for i in range(n):
            if slip_law:
                arg = av * math.exp(y[1 + i]) / dc[i]
                clipped = not arg > 1e-300
                w = -sgn * (math.log(max(arg, 1e-300)) + (0.0 if clipped else 1.0)) / dc[i]
                diag = 0.0 if clipped else -av / dc[i]
            else:
                w = -sgn / dc[i]
                diag = -math.exp(-y[1 + i])
            row = [w * g for g in grad]
            row[1 + i] += diag
            rows.append(row)
        return rows

    return jac


def _integrate_piece(rhs, jac, solver: str, t0: float, t1: float, y: list[float], t_eval: np.ndarray, vlp: float,
                     rtol: float, atol: float, first_step: float | None) -> tuple[np.ndarray, list[float], float, str]:
    """``(samples, state at t1, time reached, failure message or "")`` of one piece between jumps."""
    if solver == "Rodas4":
        r = rodas4(lambda u: rhs(u, vlp), jac, t0, t1, y, t_eval, rtol=rtol, atol=atol, first_step=first_step)
        return r.y, r.y_end, r.t_reached, "" if r.success else r.message
    from scipy.integrate import solve_ivp

    kw = {"first_step": first_step} if first_step else {}
    try:
        sol = solve_ivp(lambda t, u: rhs(u, vlp), (t0, t1), y, method=solver, t_eval=t_eval, rtol=rtol, atol=atol,
                        **kw)
    except (OverflowError, ZeroDivisionError) as exc:
        return np.full((t_eval.size, len(y)), np.nan), y, t0, f"{type(exc).__name__}: {exc}"
    ok = sol.status == 0 and sol.y.shape[1] == t_eval.size and bool(np.all(np.isfinite(sol.y)))
    return sol.y.T, sol.y[:, -1].tolist(), float(sol.t[-1]) if sol.t.size else t0, "" if ok else sol.message


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
    rhs = _rhs_for(model, bs, dcs, asinh_form, slip_law, kn)
    jac = _jac_for(model, bs, dcs, asinh_form, slip_law, kn)

    edges = sorted({0.0, t_end, *(b for b in protocol.breakpoints if 0.0 < b < t_end)})
    y = [mu0, *lnth0.tolist()]
    Y = np.empty((times.size, len(y)))
    Y[0] = y
    slip = np.empty(times.size)
    slip[0] = x = 0.0
    for t0, t1 in zip(edges[:-1], edges[1:]):
        vlp = float(protocol.velocity(np.array([0.5 * (t0 + t1)]))[0])
        inside = (times > t0) & (times <= t1)
        t_eval = times[inside]
        if t_eval.size == 0 or t_eval[-1] < t1:
            t_eval = np.append(t_eval, t1)  # the state at the jump carries over to the next piece
        first = min(dt, t1 - t0) if dt else None
        ys, y_end, tf, failure = _integrate_piece(rhs, jac, solver, t0, t1, y, t_eval, vlp, rtol, atol, first)
        if failure or not all(math.isfinite(u) for u in y_end):
            kc = float(np.sum(bs) - model.a) * n_load / float(dcs[0])
            raise IntegrationError(
                f"quasi_static ({solver}) failed at t = {tf:.6g} s: {failure or 'non-finite state'}. The inertia-free "
                f"slider cannot follow a dynamic instability (stiffness {system.stiffness:g} N/m vs critical about "
                f"{kc:g} N/m): raise the stiffness, use a mass system (spring_slider) or tighten rtol",
                time=tf)
        k = int(inside.sum())
        Y[inside] = ys[:k]
        # slip = load-point travel minus spring extension: k (x_lp - x) = mu N at every instant
        slip[inside] = x + vlp * (t_eval[:k] - t0) - (ys[:k, 0] - y[0]) / kn
        x = x + vlp * (t1 - t0) - (y_end[0] - y[0]) / kn
        y = y_end
    mu = Y[:, 0]
    lnth = Y[:, 1:]
    v = _velocities(model, mu, lnth, bs, dcs, asinh_form)
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


for _cls in (RateState, RateState2):
    register_driver(_cls, "quasi_static", run_quasi_static, systems=(QuasiStaticSlider,),
                    options={"solver": "Rodas4", "rtol": 1e-9, "atol": 1e-11, "max_points": 20000}, adaptive=True, default=True,
                    description="inertia-free spring-slider k(x_lp - x) = mu N, closed-form v, Rodas4 (or solve_ivp) between jumps")
