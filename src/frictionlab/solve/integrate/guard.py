"""Divergence guard for the fixed-step loops: finite garbage is an error, not a result.

An explicit loop run above its stability limit does not always overflow: a law with a
velocity floor (rate-and-state) or a saturating state keeps the numbers finite while the
solution is noise (an RSF spring-slider under RK4 at ten times its limit oscillates at
+-600 m/s with mu = -6). The loops themselves only stop on a non-finite state; after a run
this guard checks the saved states two ways, at no cost to the loops:

* **step doubling** at the saved steps (at most ``_MAX_CHECKS``, evenly spread): from the saved state, one step of ``dt`` and two
  steps of ``dt / 2`` with the same method. Their difference estimates the local error of
  the step; when it is larger than the change the two half steps make, the step is beyond
  the method's stability limit (for the linear test equation this happens at
  ``|lambda dt| = 2`` for Euler and 2.78 for RK4, the limits themselves) and the result is
  refused. At a turning point the change of a component vanishes while its error does
  not, so the error is compared with at least 1e-3 of the component's range over the run.
  A kink in the law (Dahl's saturating power, a GMS element switching) can trip a check
  where the step is stable; an unstable step trips them persistently, so a result is
  refused when at least 3 checks and 10 % of them trip (the message names the first). Physical growth (``lambda > 0``) never trips it: the estimate stays below the
  change. Steps with a protocol jump inside are skipped.
* **state bounds**: a law may declare ``state_min`` (e.g. the rate-and-state state theta
  is a time and must stay > 0); a saved state at or below it is refused.

Both raise :class:`~frictionlab.core.errors.IntegrationError` with the step, the time and
the dt or integrator to use instead.
"""

from __future__ import annotations

import numpy as np

from ...core.errors import IntegrationError
from ...core.jitcache import specialise

__all__ = ["check_fixed_step"]

#: trip when the step-doubling error estimate exceeds this multiple of the change (2: conservative, no trips on kinked laws such as Dahl alpha = 0.5; note that at a very large |lambda dt| the ratio tends to 1, so such steps are caught only by the state bounds or the overflow check)
_RATIO = 2.0
#: ... or this fraction of the component's range over the run, whichever is larger
_FLOOR = 1e-3
#: a kink of the law (a saturating power, a stick-slip switch) trips isolated checks; an unstable step
#: trips them persistently: refuse when at least this many, and this share of the checks, trip
_MIN_FAILS = 3
_FAIL_SHARE = 0.1
#: at most this many saved steps are checked (evenly spread), so the guard costs well under 1 % of a run
_MAX_CHECKS = 2000


def _doubling(rhs, law_rates, law_friction):
    """Compiled step-doubling check for one (system, law) pair (template :mod:`.templates.doubling`)."""
    return specialise("frictionlab.solve.integrate.templates.doubling",
                      {"rhs": rhs, "law_rates": law_rates, "law_friction": law_friction}).check


def _fail(model, what: str, step: int, dt: float, integrator: str, advice: str) -> None:
    t = step * dt
    raise IntegrationError(
        f"{model.name}: {what} at step {step} (t = {t:.6g} s) with integrator {integrator!r} and dt = {dt:g} s; "
        f"{advice}", time=t, step=step)


def check_fixed_step(model, protocol, rhs, law_rates, law_friction, sp, lp, Y: np.ndarray, steps: np.ndarray,
                     dt: float, n: int, ns: int, integrator: str) -> None:
    """Refuse a fixed-step result that is finite garbage (see the module docstring).

    ``Y`` holds the saved states (system first) at the step indices ``steps`` of a run of
    ``n`` steps of ``dt``.
    """
    lower = getattr(model, "state_min", ())
    for k, lo in enumerate(lower):
        bad = np.nonzero(~(Y[:, ns + k] > lo))[0]
        if bad.size:
            name = model.state_names[k]
            _fail(model, f"the state {name} = {Y[bad[0], ns + k]:.4g} left its physical range (> {lo:g})",
                  int(steps[bad[0]]), dt, integrator,
                  f"the step is too large for the law: reduce dt (e.g. dt = {dt / 10:g}) or use integrator='radau'")
    if integrator not in ("euler", "rk4"):
        return
    keep = steps < n
    t0 = steps * dt
    for tb in protocol.breakpoints:  # a jump inside a step makes the estimate meaningless there
        keep &= ~((t0 < tb) & (tb <= t0 + dt))
    rows = np.nonzero(keep)[0]
    if rows.size == 0:
        return
    if rows.size > _MAX_CHECKS:  # evenly spread, always with the last saved steps (garbage persists)
        rows = np.unique(np.concatenate([rows[np.linspace(0, rows.size - 1, _MAX_CHECKS).astype(int)], rows[-8:]]))
    tq = (t0[rows, None] + dt * np.array([0.0, 0.25, 0.5, 0.75, 1.0])).ravel()
    Uq = np.ascontiguousarray(protocol.sample(tq).T.reshape(rows.size, 5, 3))
    check = _doubling(rhs, law_rates, law_friction)
    # at a turning point a component's change vanishes while its error does not: compare with at
    # least a thousandth of the component's range over the run
    floor = np.ascontiguousarray(_FLOOR * np.ptp(Y, axis=0))
    c, count = check(sp, lp, Y, rows.astype(np.int64), Uq, dt, ns, integrator == "rk4", _RATIO, floor)
    if count >= max(_MIN_FAILS, _FAIL_SHARE * rows.size):
        _fail(model, "the step is beyond the method's stability limit (step-doubling error larger than the step's "
                     "change: the result would be numerical noise)", int(steps[rows[c]]), dt, integrator,
              f"reduce dt (e.g. dt = {dt / 10:g}), or use integrator='radau' (adaptive, stiff) "
              "or 'newmark' (implicit, mass systems)")
