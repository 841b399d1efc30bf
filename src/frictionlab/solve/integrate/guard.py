"""Divergence guard for the fixed-step loops: finite garbage is an error, not a result.

An explicit loop run above its stability limit does not always overflow: a law with a
velocity floor (rate-and-state) or a saturating state keeps the numbers finite while the
solution is noise (an RSF spring-slider under RK4 at ten times its limit oscillates at
+-600 m/s with mu = -6). The loops themselves only stop on a non-finite state; after a run
this guard checks the saved states two ways, at no cost to the loops:

* **step doubling** at every saved step (at most ``_MAX_CHECKS``, evenly spread), for the
  ``euler`` and ``rk4`` loops and the ``step`` driver's RK4 steps of a rate law: from the saved
  state, one step of ``dt`` and two steps of ``dt / 2`` with the same method. Their difference
  estimates the local error of the step; when it is larger than the change the two half steps
  make, the step is beyond the method's stability limit (for the linear test equation this
  happens at ``|lambda dt| = 2`` for Euler and 2.78 for RK4, the limits themselves) and the
  result is refused. At a turning point the change of a component vanishes while its error does
  not, so the error is compared with at least 1e-3 of the component's range over the run. A kink
  in the law (Dahl's saturating power, a GMS element switching) can trip a check where the step
  is stable; an unstable step trips them persistently, so a result is refused when at least 3
  checks and 10 % of them trip, or when 5 of any 20 consecutive checks trip: an unstable
  stretch of a long run is a small share of all its checks (an RSF spring-slider at 1 um/s under
  RK4 at dt = 1e-3 s, ``|lambda dt| = a N dt / (M v) = 5``, was unstable in its first second only,
  then sat at a spurious state with mu = 0.5667 against 0.5885 until the end of 40 s), and the
  verdict must not depend on the run's length. Physical growth (``lambda > 0``) never trips it:
  the estimate stays below the change. Steps with a protocol jump inside are skipped. The
  refusal names the largest ``dt / 2**k`` at which the check passes at the failing step.
* **force disagreement**: far beyond the limit the ratio above tends to 1 (GMS under Euler at
  dt = 1e-2 s ends at -430 N against 1.4 N), so a check also trips when the one step and the
  two half steps disagree on the friction force by more than a quarter of the force (or of
  the run's force scale: the law's largest steady friction at the protocol's inputs). A
  trip larger than ten force scales is *gross*; an overshoot of the first steps can throw a
  state so far that it then evolves smoothly (a GMS element beyond its limit sticks and
  drifts back at k v: RK4 at dt = 5e-2 s ends at -5e4 N with only two checks tripping), so a
  gross trip with a final force still beyond ten force scales is refused too, and so is a gross
  trip in a run whose saved force leaves ten force scales anywhere (GMS with k = 1e9 N/m under
  Euler at dt = 1e-3 s overshoots to 4e6 N in its first steps, then relaxes to the right force).
* **state bounds**: a law may declare ``state_min`` (e.g. the rate-and-state state theta
  is a time and must stay > 0); a saved state at or below it is refused.

``newmark`` (implicit) is checked for the state bounds only; runs of feedback protocols (the
direction is not in the protocol's samples) and the stepped models' own updates are not checked.

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
#: ... or when one step and two half steps disagree on the friction force by more than this fraction of it
#: (or of the run's force scale, whichever is larger)
_FORCE_REL = 0.25
#: a disagreement larger than this many force scales is gross (see :func:`check_fixed_step`)
_GROSS = 10.0
#: ... or when this many of any ``_WINDOW`` consecutive checks trip: an unstable stretch of a long run (the first
#: second of a 40 s RSF slider under RK4 at dt = 1e-3 s) is a small share of the whole run's checks
_WINDOW = 20
_WINDOW_FAILS = 5
#: at most this many saved steps are checked (evenly spread, always the first and last ones); each check
#: costs three steps, and a run saves at most ``max_points`` (20000 by default) steps
_MAX_CHECKS = 20000


def _doubling(rhs, law_rates, law_friction):
    """Compiled step-doubling check for one (system, law) pair (template :mod:`.templates.doubling`)."""
    return specialise("frictionlab.solve.integrate.templates.doubling",
                      {"rhs": rhs, "law_rates": law_rates, "law_friction": law_friction}).check


def _fail(model, what: str, step: int, dt: float, integrator: str, advice: str) -> None:
    t = step * dt
    raise IntegrationError(
        f"{model.name}: {what} at step {step} (t = {t:.6g} s) with integrator {integrator!r} and dt = {dt:g} s; "
        f"{advice}", time=t, step=step)


def _force_scale(model, protocol, F: np.ndarray, steps: np.ndarray, dt: float) -> float:
    """The physical force level of a run: the largest steady friction of the law at the protocol's
    inputs (at most 64 samples) and at its typical slip velocity times 1e-3 ... 10 (a mass system
    slides at velocities of its own: the protocol may hold its drive still), and at least 1e-3 of
    the saved force's range."""
    k = np.unique(np.linspace(0, steps.size - 1, min(64, steps.size)).astype(int))
    u = protocol.sample(steps[k] * dt)
    v_typ = abs(float(getattr(model, "typical_inputs", {}).get("v", 0.0)))
    fn_max = float(np.max(np.abs(u[1]))) if np.all(np.isfinite(u[1])) else 0.0
    pairs = list(zip(u[0], u[1])) + [(v_typ * f, fn_max) for f in (1e-3, 1e-2, 1e-1, 1.0, 10.0)]
    level = 0.0
    for v, fn in pairs:
        try:
            level = max(level, abs(float(model.friction_curve(np.array([v]), float(fn))[0])))
        except Exception:  # noqa: BLE001  (a law without a steady state at this input: no level from it)
            continue
    level = level if np.isfinite(level) else 0.0
    rng = float(np.ptp(F)) if np.all(np.isfinite(F)) else 0.0
    return max(level, 1e-3 * rng, 1e-300)


def _window_trip(trips: np.ndarray) -> int:
    """Index of the first check of the first window of ``_WINDOW`` consecutive checks with at least
    ``_WINDOW_FAILS`` trips, or -1."""
    if trips.sum() < _WINDOW_FAILS:
        return -1
    counts = np.convolve(trips.astype(np.int64), np.ones(min(_WINDOW, trips.size), dtype=np.int64), mode="valid")
    hit = np.nonzero(counts >= _WINDOW_FAILS)[0]
    if hit.size == 0:
        return -1
    return int(hit[0] + np.argmax(trips[hit[0]:]))


def check_fixed_step(model, protocol, rhs, law_rates, law_friction, sp, lp, Y: np.ndarray, steps: np.ndarray,
                     dt: float, n: int, ns: int, integrator: str, F: np.ndarray) -> None:
    """Refuse a fixed-step result that is finite garbage (see the module docstring).

    ``Y`` holds the saved states (system first) at the step indices ``steps`` of a run of
    ``n`` steps of ``dt``; ``F`` the saved friction force.
    """
    lower = getattr(model, "state_min", ())
    for k, lo in enumerate(lower):
        bad = np.nonzero(~(Y[:, ns + k] > lo))[0]
        if bad.size:
            name = model.state_names[k]
            _fail(model, f"the state {name} = {Y[bad[0], ns + k]:.4g} left its physical range (> {lo:g})",
                  int(steps[bad[0]]), dt, integrator,
                  f"the step is too large for the law: reduce dt (e.g. dt = {dt / 10:g}) or use integrator='radau'")
    if integrator not in ("euler", "rk4", "step"):
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
    scale = _force_scale(model, protocol, F, steps, dt)
    trips = np.zeros(rows.size, dtype=np.bool_)
    c, count, n_gross = check(sp, lp, Y, rows.astype(np.int64), Uq, dt, ns, integrator != "euler", _RATIO, floor,
                              _FORCE_REL, scale, _GROSS, trips)
    # an overshoot of the first steps can leave a state that then evolves smoothly (a GMS element
    # thrown far beyond its limit sticks and drifts back at k v): few checks trip, but grossly, and
    # the force never comes back to its physical scale
    stuck = n_gross > 0 and abs(F[-1]) > _GROSS * scale
    # ... or comes back: one step whose force the step cannot resolve to within ten force scales, in a run whose
    # saved force does leave its physical scale (GMS with k = 1e9 N/m under Euler at dt = 1e-3 s: 4e6 N against
    # 1.4 N in the first steps, then a smooth relaxation to the right sliding force), is a garbage transient
    overshoot = n_gross > 0 and float(np.max(np.abs(F))) > _GROSS * scale
    local = _window_trip(trips)
    if local >= 0:
        c = local
    if count >= max(_MIN_FAILS, _FAIL_SHARE * rows.size) or stuck or overshoot or local >= 0:
        advice = "or use integrator='radau' (adaptive, stiff) or 'newmark' (implicit, mass systems)"
        if integrator == "step":
            advice = "or run an adaptive integrator (integrator='radau')"
        row = int(rows[c])
        ok = _passing_dt(check, protocol, sp, lp, Y, row, t0[row], dt, ns, integrator != "euler", floor, scale)
        hint = f"e.g. dt = {dt / 10:g}" if ok is None else f"below {ok:g} s, where step doubling passes at that step"
        _fail(model, "the step is beyond the method's stability limit (step-doubling error larger than the step's "
                     "change: the result would be numerical noise)", int(steps[row]), dt, integrator,
              f"reduce dt ({hint}), {advice}")


def _passing_dt(check, protocol, sp, lp, Y, row: int, t: float, dt: float, ns: int, rk4: bool, floor, scale):
    """The largest ``dt / 2**k`` (k <= 20) at which the step-doubling check passes from the saved state ``row``
    at time ``t``, or None: the step to suggest in the refusal."""
    trips = np.zeros(1, dtype=np.bool_)
    for k in range(1, 21):
        h = dt / 2.0 ** k
        Uq = np.ascontiguousarray(protocol.sample(t + h * np.array([0.0, 0.25, 0.5, 0.75, 1.0])).T.reshape(1, 5, 3))
        _, count, _ = check(sp, lp, Y, np.array([row], dtype=np.int64), Uq, h, ns, rk4, _RATIO, floor, _FORCE_REL,
                            scale, _GROSS, trips)
        if count == 0:
            return h
    return None
