"""Generic convergence check: halve dt, report the error and the observed order.

Works for every model / protocol / system / fixed-step integrator through
:func:`~frictionlab.solve.simulate`. All runs save on the grid of the coarsest step,
so the solutions are compared at identical times.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from ..core.errors import ConfigError, ParameterError

__all__ = ["ConvergenceReport", "check_convergence", "relative_change"]


@dataclass(frozen=True)
class ConvergenceReport:
    r"""Result of :func:`check_convergence`.

    Attributes
    ----------
    dts : tuple of float
        Steps tried, each half the previous [s].
    errors : tuple of float
        Max-norm change of each level on halving its step, :math:`e_k = \|y_{h_k} -
        y_{h_k/2}\|_\infty`, an error estimate that for an order-*p* method is
        :math:`(1 - 2^{-p})` times the true error [units of the variable].
    orders : tuple of float
        Observed order between consecutive levels, :math:`\log_2(e_k / e_{k+1})`.
    order : float
        Least-squares slope of :math:`\log e` against :math:`\log \Delta t`.
    relative_change : float
        Max change of the variable when the finest step ``dts[-1]`` is halved, divided by
        its max magnitude [1].
    relative_changes : tuple of float
        The same for every level: ``relative_changes[0]`` is how much the answer at the
        coarsest ``dt`` changes when that step is halved [1].
    variable, integrator : str
        What was compared and with which integrator.
    """

    dts: tuple[float, ...]
    errors: tuple[float, ...]
    orders: tuple[float, ...]
    order: float
    relative_change: float
    variable: str
    integrator: str
    relative_changes: tuple[float, ...] = ()
    extra: dict[str, Any] = field(default_factory=dict)

    def __str__(self) -> str:
        rows = [f"convergence of {self.variable!r} with {self.integrator!r}: observed order {self.order:.3f}, "
                f"relative change on halving {self.relative_change:.3g}"]
        for k, (dt, e) in enumerate(zip(self.dts, self.errors)):
            o = f"  order {self.orders[k - 1]:.3f}" if k > 0 else ""
            rows.append(f"  dt = {dt:.4g} s  error = {e:.4g}{o}")
        return "\n".join(rows)


def relative_change(a: Any, b: Any) -> float:
    """``max |a - b| / max |b|`` for arrays or scalars (0 when both are 0)."""
    a = np.asarray(a, dtype=float)
    b = np.asarray(b, dtype=float)
    scale = float(np.max(np.abs(b))) if b.size else 0.0
    diff = float(np.max(np.abs(a - b))) if b.size else 0.0
    if scale == 0.0:
        return 0.0 if diff == 0.0 else math.inf
    return diff / scale


def check_convergence(
    model: Any,
    protocol: Any,
    *,
    system: Any = None,
    integrator: str | None = None,
    dt: float | None = None,
    levels: int = 4,
    variable: str = "friction_force",
    t_end: float | None = None,
    **simulate_kwargs: Any,
) -> ConvergenceReport:
    r"""Run ``simulate`` at ``dt, dt/2, ..., dt/2^(levels-1)`` and measure the convergence.

    Each level is compared with the next halving (one extra run at ``dt / 2^levels``):
    :math:`e_k = \|y_{h_k} - y_{h_k/2}\|_\infty \approx C h_k^p (1 - 2^{-p})`, so the observed
    order between levels is :math:`p_k = \log_2(e_k/e_{k+1})` without bias from a reference
    solution, and ``order`` is the least-squares slope of :math:`\log e_k` against
    :math:`\log h_k`. Choose ``dt`` in the asymptotic range (errors well above round-off).

    Parameters
    ----------
    model, protocol, system : as for :func:`~frictionlab.solve.simulate`
    integrator : str, optional
        A fixed-step driver of the model (e.g. ``"euler"``, ``"rk4"``, ``"newmark"``,
        ``"step"``); default the model's default driver.
    dt : float
        Coarsest step [s] (default ``duration / 100``).
    levels : int
        Number of step sizes (>= 2).
    variable : str
        Result variable compared (default ``friction_force``).
    t_end : float
        End time [s] (default the protocol duration).
    simulate_kwargs
        Passed on to ``simulate`` (e.g. ``newmark_beta``).

    Returns
    -------
    ConvergenceReport
    """
    from .drivers import default_driver, driver_for
    from .simulate import simulate

    drv = default_driver(model, system, protocol) if integrator is None else driver_for(model, integrator)
    if drv.adaptive:
        raise ConfigError(f"check_convergence needs a fixed-step integrator, not the adaptive {drv.name!r}")
    integrator = drv.name
    if levels < 2:
        raise ParameterError(f"levels = {levels!r} must be >= 2")
    t_stop = float(protocol.duration if t_end is None else t_end)
    dt0 = float(t_stop / 100 if dt is None else dt)
    if not (dt0 > 0 and math.isfinite(dt0)):
        raise ParameterError(f"integrator.dt = {dt0!r} s must be > 0")
    n0 = max(1, int(round(t_stop / dt0)))
    dt0 = t_stop / n0  # an exact divisor of the run, so every level lands on the same grid
    dts = [dt0 / 2**k for k in range(levels + 1)]
    sols = []
    for h in dts:
        ds = simulate(model, protocol, system=system, integrator=integrator, dt=h, t_end=t_stop,
                      save_dt=dt0, **simulate_kwargs)
        if variable not in ds:
            raise ConfigError(f"result has no variable {variable!r}; it has {', '.join(map(str, ds.data_vars))}")
        sols.append(np.asarray(ds[variable].values, dtype=float))
    errors = [float(np.max(np.abs(a - b))) for a, b in zip(sols[:-1], sols[1:])]
    orders = []
    for e1, e2 in zip(errors[:-1], errors[1:]):
        orders.append(math.log2(e1 / e2) if e1 > 0 and e2 > 0 else math.nan)
    good = [(h, e) for h, e in zip(dts[:-1], errors) if e > 0]
    if len(good) >= 2:
        x = np.log([h for h, _ in good])
        y = np.log([e for _, e in good])
        order = float(np.polyfit(x, y, 1)[0])
    else:
        order = math.nan
    rels = tuple(relative_change(a, b) for a, b in zip(sols[:-1], sols[1:]))
    return ConvergenceReport(tuple(dts[:-1]), tuple(errors), tuple(orders), order, rels[-1], variable, integrator,
                             relative_changes=rels)
