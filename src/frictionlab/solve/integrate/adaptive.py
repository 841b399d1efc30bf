"""Adaptive integration (scipy's Radau, BDF, LSODA, RK45, DOP853), piecewise between jumps.

A single adaptive call over a whole velocity-step or slide-hold-slide programme lets the
step grow to tens of seconds near steady state and jump over a whole segment or hold. So
:func:`run_adaptive` integrates each stretch between two of ``protocol.breakpoints`` on its
own and restarts the solver at every breakpoint. Inside a stretch the protocol is read
with the stretch's own values: at its end points the channels are taken just inside, the
same left and right limits that the fixed-step loops use at a jump. The step is further
bounded by a fraction of the stretch's own length (and of the protocol's period, if it has
one), so no feature can fall between two steps; a short segment does not slow the rest of
the run (one 10 ms segment in a 200 s velocity-step programme once capped every step at
1.25 ms).

Long runs report the simulated time reached (``progress``) and stop at a step count
(``max_steps``; by default :func:`default_max_steps`, sized from the run, far above what an
honest run takes; earlier, once a stretch has taken ``_STALL_STEPS`` at a rate that would need ten
times the budget for the rest of the run, and, for the explicit ``rk45``/``dop853``, once their step has sat at
its stability limit for ``_STIFF_STEPS`` steps (:class:`_StiffnessProbe`) with the rest of the run needing more
steps of that size than the budget has left: a stiff problem stops in seconds, not after the 2e5 steps of the stall) or, if one is given, a wall time (``max_wall_time``; none by default, so a
result does not depend on the machine's speed). A solver that stops advancing (LSODA in its
non-stiff Adams mode on a stiff slider, RK45 on a stiff LuGre) thus ends with an
:class:`~frictionlab.core.errors.IntegrationError` that names the time reached, the steps
per simulated second and an integrator other than the one that failed.
"""

from __future__ import annotations

import math
import sys
import time as _time
from collections.abc import Callable

import numpy as np

from ...core.errors import IntegrationError, ParameterError

__all__ = ["SCIPY_METHODS", "run_adaptive", "max_step_for", "default_max_steps"]

#: driver name -> the :mod:`scipy.integrate` solver class (by name: scipy is imported when a run starts)
SCIPY_METHODS = {"radau": "Radau", "bdf": "BDF", "lsoda": "LSODA", "rk45": "RK45", "dop853": "DOP853"}
_STIFF = ("radau", "bdf", "lsoda")
#: steps per shortest protocol feature, at least
_STEPS_PER_FEATURE = 8
#: seconds of wall time before the automatic progress report starts, and between reports
_PROGRESS_AFTER = 10.0


def pointwise(rhs, law_rates, law_friction):
    """A jitted single evaluation ``f(y, u, ns, sp, lp, dy) -> F`` for adaptive solvers (template
    :mod:`.templates.pointwise`)."""
    from ...core.jitcache import specialise

    return specialise("frictionlab.solve.integrate.templates.pointwise",
                      {"rhs": rhs, "law_rates": law_rates, "law_friction": law_friction}).f


#: default step budget: this many steps, plus ``_STEPS_PER_STRETCH`` per stretch between breakpoints
_BASE_STEPS = 1_000_000
_STEPS_PER_STRETCH = 100_000
#: a stretch that has taken this many steps, at a rate that would need this many times the budget for the
#: rest of the run, is a stall: stop there rather than at the budget
_STALL_STEPS = 200_000
_STALL_FACTOR = 10
#: the implicit radau and bdf (a few hundred steps per wall second) judge the stall on the rate of their last
#: _STALL_WINDOW steps instead: a solver that has stopped advancing (Radau on a rate-and-state slider stuck at
#: v ~ 1e-18 m/s: 3e4 steps without leaving t = 0.3226 s) stops in seconds, not after 2e5 steps
_STALL_WINDOW = 2000
_WINDOWED = ("radau", "bdf")


#: an explicit solver (rk45, dop853) whose step has sat at its stability limit for this many consecutive steps,
#: with the rest of the run needing more steps of that size than the budget has left, stops as stiff
_STIFF_STEPS = 1000
#: |lambda h| at which the explicit pair's step is taken as stability-limited (Hairer & Wanner's stiffness
#: test of DOPRI5 and DOP853, Solving ODEs II, Sec. IV.2: 3.25 and 6.1, a little inside the stability boundary)
_STIFF_BOUND = {"rk45": 3.25, "dop853": 6.1}


class _StiffnessProbe:
    """Is an explicit Runge-Kutta step held at its stability limit? (Hairer & Wanner, Sec. IV.2.)

    The last two stages of scipy's RK45 and DOP853 are both evaluated at ``t + h`` (the last one at the new
    state, first same as last), so ``|lambda| ~ |k_last - k_prev| / |y_new - y_prev stage|`` estimates the
    fastest rate the step sees, at no extra evaluation; ``|lambda| h`` above the bound means the error
    control has pinned ``h`` to the stability limit, not to the accuracy of the solution. As in Hairer's
    DOPRI5, the count of such steps goes back to 0 only after 6 consecutive steps below the bound (at the
    limit the controller alternates long and short steps)."""

    def __init__(self, integrator: str):
        self.bound = _STIFF_BOUND.get(integrator)
        self.run = 0
        self.calm = 0
        self.lam_h = 0.0

    def update(self, solver) -> bool:
        """Count one accepted step; True when the count of stability-limited steps reaches a multiple of 100."""
        if self.bound is None:
            return False
        K, h = getattr(solver, "K", None), getattr(solver, "h_previous", None)
        if K is None or h is None or not hasattr(solver, "A"):  # not scipy's explicit RK layout: no probe
            self.bound = None
            return False
        s = solver.n_stages - 1
        h = float(h)
        dy = h * (K[:s + 1].T @ solver.B - K[:s].T @ solver.A[s, :s])
        den = float(np.sqrt(np.dot(dy, dy)))
        dk = K[-1] - K[s]
        lam_h = h * float(np.sqrt(np.dot(dk, dk))) / den if den > 0.0 else 0.0
        if lam_h > self.bound:
            self.run, self.calm, self.lam_h = self.run + 1, 0, lam_h
            return self.run % 100 == 0
        self.calm += 1
        if self.calm >= 6:
            self.run = 0
        return False


def max_step_for(protocol, t_end: float, stretch: tuple[float, float] | None = None) -> float:
    """Largest adaptive step [s] in ``stretch`` (default: the shortest one of the run): its length, or the
    protocol's period if shorter, over ``_STEPS_PER_FEATURE``."""
    if stretch is None:
        feature = float(np.min(np.diff(_stretches(protocol, t_end))))
    else:
        feature = float(stretch[1] - stretch[0])
    freq = getattr(protocol, "frequency", None)
    if isinstance(freq, (int, float)) and freq > 0:
        feature = min(feature, 1.0 / float(freq))
    return feature / _STEPS_PER_FEATURE


def default_max_steps(protocol, t_end: float) -> int:
    """The step budget of a run without ``max_steps``: ``_BASE_STEPS`` plus ``_STEPS_PER_STRETCH`` per stretch
    between breakpoints and per period of a periodic protocol (the step cap alone needs
    ``_STEPS_PER_FEATURE`` per feature; stiff transients at rtol = 1e-8 take thousands)."""
    features = len(_stretches(protocol, t_end)) - 1
    freq = getattr(protocol, "frequency", None)
    if isinstance(freq, (int, float)) and freq > 0:
        features += int(math.ceil(t_end * float(freq)))
    return _BASE_STEPS + _STEPS_PER_STRETCH * features


def _stretches(protocol, t_end: float) -> np.ndarray:
    inner = [b for b in protocol.breakpoints if 0.0 < b < t_end * (1 - 1e-12)]
    return np.array([0.0, *sorted(inner), t_end])


def _advice(integrator: str) -> str:
    if integrator == "lsoda":  # its automatic switch can stay in the explicit Adams mode on a stiff problem
        return "use integrator='radau' or 'bdf' (stiff throughout), or loosen rtol/atol"
    if integrator in _STIFF:
        return ("check the parameters for a physical blow-up, or for a law singular or switching where the run "
                "stopped (a rate-and-state slider stuck at v -> 0: the law's form='arcsinh' where it has one; a "
                "model with drivers of its own: its default driver), loosen rtol/atol, or use a fixed step "
                "(integrator='newmark' for a mass system, or 'rk4' with a small dt)")
    return "the problem is probably stiff: use integrator='radau' or 'bdf'"


class _Watch:
    """Progress report and wall-time / step limits for one adaptive run."""

    def __init__(self, integrator: str, t_end: float, max_wall_time: float | None, max_steps: int | None,
                 progress: bool | Callable[[float, float, int, float], None] | None):
        if max_wall_time is not None and not (max_wall_time > 0):
            raise ParameterError(f"integrator.max_wall_time = {max_wall_time!r} s must be > 0")
        if max_steps is not None and not (int(max_steps) >= 1):
            raise ParameterError(f"integrator.max_steps = {max_steps!r} must be >= 1")
        self.integrator, self.t_end = integrator, t_end
        self.max_wall_time, self.max_steps = max_wall_time, max_steps
        self.progress = progress
        self.start = _time.perf_counter()
        self.next_report = 0.0 if progress is True or callable(progress) else _PROGRESS_AFTER
        self.steps = 0
        self.mark_t, self.mark_steps = 0.0, 0
        self.window_t, self.window_steps = 0.0, 0

    def mark(self, t: float) -> None:
        """A stretch starts at ``t``: the stall rate in an error counts from here."""
        self.mark_t, self.mark_steps = t, self.steps
        self.window_t, self.window_steps = t, self.steps

    def _window_stalled(self, t: float) -> bool:
        """radau/bdf: the last ``_STALL_WINDOW`` steps advanced so little that the rest of the run would need
        ``_STALL_FACTOR`` times the budget at that rate; the error's rate then counts from the window's start."""
        if self.integrator not in _WINDOWED or self.steps - self.window_steps < _STALL_WINDOW:
            return False
        n, span = self.steps - self.window_steps, t - self.window_t
        stalled = span <= 0 or n / span * (self.t_end - t) > _STALL_FACTOR * self.max_steps
        if stalled:
            self.mark_t, self.mark_steps = self.window_t, self.window_steps
        else:
            self.window_t, self.window_steps = t, self.steps
        return stalled

    def _where(self, t: float) -> str:
        return f"t = {t:.6g} s of {self.t_end:.6g} s ({100.0 * t / self.t_end:.3g} %)"

    def stiff(self, t: float, h: float, lam_h: float, run: int) -> None:
        """An explicit solver's step has sat at its stability limit for ``run`` steps: stop if the rest of the
        run at that step would need more steps than the budget has left (the step cannot grow while the
        problem stays this stiff)."""
        if self.max_steps is None:
            return
        need = (self.t_end - t) / h
        if need <= self.max_steps - self.steps:
            return
        raise IntegrationError(
            f"{self.integrator}: the system is stiff here: at step {self.steps}, {self._where(t)}, the step "
            f"h = {h:.3g} s has been held at the explicit method's stability limit ({run} such steps; fastest rate "
            f"|lambda| = {lam_h / h:.3g} 1/s, |lambda h| = {lam_h:.3g}); the rest of the run would take about "
            f"{need:.3g} more steps (max_steps = {self.max_steps}); use integrator='radau' or 'bdf' (implicit: "
            "their step is not bound by the fastest rate)", time=t, step=self.steps)

    def tick(self, t: float) -> None:
        self.steps += 1
        wall = _time.perf_counter() - self.start
        if self.max_steps is not None:
            n, span = self.steps - self.mark_steps, t - self.mark_t
            # a stall: this stretch alone has taken _STALL_STEPS and, at its rate, the rest of the run would
            # need _STALL_FACTOR times the budget (LSODA pinned at its explicit limit: 1e9 steps to go)
            stalled = (n >= _STALL_STEPS and n % 1000 == 0
                       and (span <= 0 or n / span * (self.t_end - t) > _STALL_FACTOR * self.max_steps))
            stalled = stalled or self._window_stalled(t)
            n, span = self.steps - self.mark_steps, t - self.mark_t
            if self.steps > self.max_steps or stalled:
                rate = (f"{n / span:.3g} steps per simulated second since t = {self.mark_t:.6g} s" if span > 0
                        else f"no progress since t = {self.mark_t:.6g} s")
                what = (f"stopped at max_steps = {self.max_steps}" if not stalled else
                        f"stalled (at this rate the run would need over {_STALL_FACTOR} x max_steps = "
                        f"{self.max_steps})")
                raise IntegrationError(
                    f"{self.integrator}: {what} having reached {self._where(t)} at step {self.steps} "
                    f"({rate}, {wall:.0f} s wall); raise max_steps, or {_advice(self.integrator)}",
                    time=t, step=self.steps)
        if self.max_wall_time is not None and wall > self.max_wall_time:
            raise IntegrationError(
                f"{self.integrator}: stopped at max_wall_time = {self.max_wall_time:g} s having reached "
                f"{self._where(t)} after {self.steps} steps; raise max_wall_time, or {_advice(self.integrator)}",
                time=t, step=self.steps)
        if self.progress is False or wall < self.next_report:
            return
        if callable(self.progress):
            self.progress(t, self.t_end, self.steps, wall)
            self.next_report = wall + 1.0
        else:
            sys.stderr.write(f"frictionlab: {self.integrator} reached {self._where(t)}, "
                             f"{self.steps} steps, {wall:.0f} s wall\n")
            sys.stderr.flush()
            self.next_report = wall + _PROGRESS_AFTER


def run_adaptive(rhs, law_rates, law_friction, sp, lp, protocol, y0, times, *, integrator: str, dt: float,
                 rtol: float, atol: float, ns: int, label: str = "", max_wall_time: float | None = None,
                 max_steps: int | None = None, progress=None):
    """Integrate from ``times[0] = 0`` to ``times[-1]``, saving at ``times``; returns ``(Y, F, U)``.

    ``Y`` is ``(len(times), n_states)``, ``F`` the friction at the saved times and ``U`` the
    ``(3, len(times))`` protocol channels there (right limits at a jump, as the fixed-step loops).
    """
    if integrator not in SCIPY_METHODS:
        raise ParameterError(f"{integrator!r} is not an adaptive integrator; known: {', '.join(SCIPY_METHODS)}")
    if not (rtol > 0 and atol > 0):
        raise ParameterError(f"integrator rtol = {rtol!r} and atol = {atol!r} must be > 0")
    import scipy.integrate

    method = getattr(scipy.integrate, SCIPY_METHODS[integrator])
    t_end = float(times[-1])
    edges = _stretches(protocol, t_end)
    if max_steps is None:
        max_steps = default_max_steps(protocol, t_end)
    watch = _Watch(integrator, t_end, max_wall_time, max_steps, progress)
    name = label or integrator
    ev = pointwise(rhs, law_rates, law_friction)
    probe = _StiffnessProbe(integrator)
    dy = np.empty_like(y0)
    Y = np.empty((len(times), y0.size))
    y = np.array(y0, dtype=float)
    for k in range(len(edges) - 1):
        ta, tb = float(edges[k]), float(edges[k + 1])
        # LSODA keeps the whole run's cap: its switch between the Adams and BDF methods depends on the cap,
        # and with the longer per-stretch cap it stayed in the explicit mode through the holds of a stiff
        # slider (tests/unit/test_adaptive_segments.py: 1.5 million steps by 4.5 s of 5.5 s, against seconds)
        max_step = max_step_for(protocol, t_end, None if integrator == "lsoda" else (ta, tb))
        last = k == len(edges) - 2
        # read the protocol strictly inside the stretch at a jump (left / right limits)
        gap = min(0.25 * (tb - ta), max(1e-9 * (tb - ta), 1e-11 * max(1.0, abs(tb))))
        lo = ta + gap if k > 0 else ta
        hi = tb - gap if not last else tb

        def fun(t: float, yy: np.ndarray, lo=lo, hi=hi) -> np.ndarray:
            u = protocol.sample(np.array([min(max(t, lo), hi)]))[:, 0].copy()
            ev(np.ascontiguousarray(yy), u, ns, sp, lp, dy)
            return dy.copy()

        idx = np.nonzero((times >= ta) & ((times < tb) | last))[0]
        j = 0
        while j < idx.size and times[idx[j]] <= ta:
            Y[idx[j]] = y
            j += 1
        if tb <= ta:
            continue
        watch.mark(ta)
        # after a jump the solver picks its own first step (the old one may be far too large there)
        solver = method(fun, ta, y, tb, rtol=rtol, atol=atol, max_step=max_step,
                        first_step=min(dt, max_step, tb - ta) if k == 0 else None)
        while solver.status == "running":
            t_old = solver.t
            msg = solver.step()
            if solver.status == "failed" or not np.all(np.isfinite(solver.y)):
                t_fail = float(solver.t)
                raise IntegrationError(
                    f"{name}: {integrator} failed at t = {t_fail:.6g} s (stretch {ta:.6g}-{tb:.6g} s): "
                    f"{msg or 'non-finite state'}; {_advice(integrator)}", time=t_fail, step=watch.steps)
            watch.tick(float(solver.t))
            if probe.update(solver) and probe.run >= _STIFF_STEPS:
                watch.stiff(float(solver.t), float(solver.t - t_old), probe.lam_h, probe.run)
            stop = j
            while stop < idx.size and times[idx[stop]] <= solver.t:
                stop += 1
            if stop > j:
                sol = solver.dense_output()
                for i in idx[j:stop]:
                    Y[i] = solver.y if times[i] == solver.t else sol(times[i])
                j = stop
        for i in idx[j:]:  # round-off at the end of the stretch
            Y[i] = solver.y
        y = np.array(solver.y, dtype=float)
    U = protocol.sample(times)
    F = np.empty(len(times))
    for k in range(len(times)):
        F[k] = ev(Y[k], U[:, k].copy(), ns, sp, lp, dy)
    return Y, F, U
