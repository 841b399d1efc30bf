"""Newmark-beta for second-order (mass) systems, implicit in the law state.

Average-acceleration Newmark (gamma = 1/2, beta = 1/4 by default) for the slider, with
the law's internal state advanced by the trapezoidal rule; the coupled unknowns
``w = (a_{n+1}, z_{n+1})`` are solved by Newton's method with a finite-difference
Jacobian. This is unconditionally stable for the linear mechanics and robust for stiff
bristle laws (LuGre with large sigma0) where explicit schemes need tiny steps.

The state layout is that of :class:`~frictionlab.systems.mass.MassSystem`:
``y = [x_driver, x, xdot, z...]``.
"""

from __future__ import annotations

from typing import Any

from ...core.jitcache import specialise

__all__ = ["newmark_loop_for"]


def newmark_loop_for(rhs: Any, law_rates: Any, law_friction: Any) -> Any:
    """Newmark loop specialised for one system kernel and one law (template :mod:`.templates.newmark`).

    Signature: ``loop(sp, lp, U, UL, ys0, z0, dt, n, stride, Y, F, beta, gamma) -> int``.
    """
    return specialise("frictionlab.solve.integrate.templates.newmark",
                      {"rhs": rhs, "law_rates": law_rates, "law_friction": law_friction}).loop
