r"""Driver ``quasi_static``: rate-and-state friction on the inertia-free spring-slider.

With :math:`\mu_s = k(x_{lp}-x)/N` the spring force per unit normal load, the slider velocity is
the closed-form inverse of the friction law at the current state,

.. math:: v = v_0 \exp\!\Big(\frac{\mu_s - \mu_0 - \sum_i b_i\ln(v_0\theta_i/D_{ci})}{a}\Big)
          \quad\text{(log form)}, \qquad
          v = 2 v_0\, e^{-\psi/a}\sinh(\mu_s/a) \quad\text{(arcsinh form)},

and :math:`\dot\mu_s = (k/N)(V_{lp} - v)`, :math:`\dot x = v`, :math:`\dot\theta_i` from the
aging or slip law (Ruina, J. Geophys. Res. 88 (1983) 10359, eqs. 5-7; the ``rsfmodel``
formulation). The states :math:`(\mu_s, x/D_{c1}, \ln\theta_i)` are integrated by
:func:`scipy.integrate.solve_ivp` piece by piece between the protocol's breakpoints (velocity
jumps), so no step straddles a jump.

The normal load must be constant (``N`` from the protocol at t = 0); a protocol that varies it
is refused. The run needs neither numba (no kernel is called) nor xarray: the result is a
:class:`~frictionlab.core.result.LazyDataset`, built as a Dataset at first use, so that a fresh
process running one velocity step pays for numpy and :mod:`scipy.integrate` only (issue 19).
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
from scipy.integrate import solve_ivp

from ..core.errors import ConfigError, IntegrationError
from ..core.result import LazyDataset
from ..solve.drivers import register_driver, run_attrs
from ..systems.quasi_static import QuasiStaticSlider
from .rate_state import RateState
from .rate_state2 import RateState2

__all__ = ["run_quasi_static"]

_SOLVERS = ("LSODA", "Radau", "BDF", "RK45", "DOP853")


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
    r"""``rhs(t, y, vlp)`` of :math:`y = (\mu_s, x/D_{c1}, \ln\theta_i)` for :func:`solve_ivp`.

    The arithmetic of :func:`_velocity` and of the evolution laws, with the constants taken out of
    the call (it runs once per function evaluation, a few thousand times a run): for one or two
    state variables the sum over them is written out, in the order ``numpy.sum`` adds them, so
    the result is bit for bit that of the array form.
    """
    mu0, a, v0 = model.mu0, model.a, model.v0
    c = np.log(model.v0 / dcs)
    n = bs.size
    b_0, c_0 = float(bs[0]), float(c[0])
    b_1, c_1 = (float(bs[1]), float(c[1])) if n > 1 else (0.0, 0.0)
    dc1 = float(dcs[0])

    def rhs(t: float, y: np.ndarray, vlp: float) -> np.ndarray:
        lnth = y[2:]
        if n == 1:
            s = b_0 * (c_0 + float(y[2]))
        elif n == 2:
            s = b_0 * (c_0 + float(y[2])) + b_1 * (c_1 + float(y[3]))
        else:
            s = float(np.sum(bs * (c + lnth)))
        psi = mu0 + s
        mu = float(y[0])
        v = 2.0 * v0 * math.exp(-psi / a) * math.sinh(mu / a) if asinh_form else v0 * math.exp((mu - psi) / a)
        av = abs(v)
        out = np.empty(y.size)
        out[0] = kn * (vlp - v)
        out[1] = v / dc1
        if slip_law:
            out[2:] = -(av / dcs) * np.log(np.maximum(av * np.exp(lnth) / dcs, 1e-300))
        else:
            out[2:] = np.exp(-lnth) - av / dcs
        return out

    return rhs


def run_quasi_static(model: Any, protocol: Any, system: QuasiStaticSlider, *, dt: float | None, t_end: float | None,
                     save_dt: float | None, solver: str = "LSODA", rtol: float = 1e-9, atol: float = 1e-11,
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
    dc1 = float(dcs[0])
    rhs = _rhs_for(model, bs, dcs, asinh_form, slip_law, kn)

    edges = sorted({0.0, t_end, *(b for b in protocol.breakpoints if 0.0 < b < t_end)})
    y = np.concatenate([[mu0, 0.0], lnth0])
    Y = np.empty((times.size, y.size))
    Y[0] = y
    for t0, t1 in zip(edges[:-1], edges[1:]):
        vlp = float(protocol.velocity(np.array([0.5 * (t0 + t1)]))[0])
        inside = (times > t0) & (times <= t1)
        t_eval = times[inside]
        if t_eval.size == 0 or t_eval[-1] < t1:
            t_eval = np.append(t_eval, t1)  # the state at the jump carries over to the next piece
        kw = {"first_step": min(dt, t1 - t0)} if dt else {}
        sol = solve_ivp(rhs, (t0, t1), y, method=solver, t_eval=t_eval, rtol=rtol, atol=atol, args=(vlp,), **kw)
        if sol.status != 0 or sol.y.shape[1] != t_eval.size or not np.all(np.isfinite(sol.y)):
            tf = float(sol.t[-1]) if sol.t.size else t0
            kc = float(np.sum(bs) - model.a) * n_load / dc1
            raise IntegrationError(
                f"quasi_static ({solver}) failed at t = {tf:.6g} s: {sol.message}. The inertia-free slider cannot "
                f"follow a dynamic instability (stiffness {system.stiffness:g} N/m vs critical about {kc:g} N/m): "
                "raise the stiffness, use a mass system (spring_slider) or tighten rtol",
                time=tf)
        Y[inside] = sol.y.T[: int(inside.sum())]
        y = sol.y[:, -1]
    mu = Y[:, 0]
    lnth = Y[:, 2:]
    v = _velocities(model, mu, lnth, bs, dcs, asinh_form)
    slip = Y[:, 1] * dc1
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
                    options={"solver": "LSODA", "rtol": 1e-9, "atol": 1e-11, "max_points": 20000}, adaptive=True, default=True,
                    description="inertia-free spring-slider k(x_lp - x) = mu N, closed-form v, solve_ivp between jumps")
