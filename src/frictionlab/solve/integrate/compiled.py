"""Fixed-step explicit integrators compiled with numba.

:func:`fixed_step_loops` returns, per ``(system rhs, law rates, law friction)`` triple, an
explicit-Euler and a classical RK4 loop (template :mod:`.templates.fixed_step`) in which
the three kernels are compile-time constants: numba inlines the small kernels (declared
``inline="always"``) and the loop runs with no Python work, no allocation and no reference
counting per step. The stepping itself (``_euler``, ``_rk4``) is compiled without numba's
reference-counting runtime (``_nrt=False``; ``euler``/``rk4`` allocate its work arrays and call
it): numba's inlining of the kernels otherwise left an atomic incref/decref pair of the parameter
and work arrays around every kernel call, which cost the LuGre Euler loop a third of its time
against the same loop in C (``frictionlab bench lugre``). A kernel therefore must not allocate
(no ``np.empty`` inside a ``rates``/``friction``/``rhs`` kernel; none does).

State is kept as two arrays, the system's ``ys`` and the law's ``z``, and the system kernel
is ``rhs(ys, z, v, normal_force, force, sp, law_rates, law_friction, lp, dys, dz) -> F``.
Protocol inputs arrive pre-sampled on the half-step grid: ``U[k] = (velocity, normal_force,
force)`` at ``t = k dt / 2`` (right limits; Euler reads the even rows only), and ``UL[i]``
holds the left limits at ``t = i dt`` so that a stage at the end of a step does not see a
jump (a velocity step) that happens exactly at that instant.

Each loop saves every ``stride``-th step and the final step into ``Y`` (states, system
first) and ``F`` (friction), and returns ``-1`` on success or the index of the first step
whose state is not finite or beyond 1e150 (the caller raises
:class:`~frictionlab.core.errors.IntegrationError`).

Notes
-----
Each specialisation is a generated module cached on disk (:mod:`frictionlab.core.jitcache`):
a second process loads the compiled loops instead of compiling them.
"""

from __future__ import annotations

from typing import Any

from ...core.jitcache import specialise

__all__ = ["fixed_step_loops"]


def fixed_step_loops(rhs: Any, law_rates: Any, law_friction: Any) -> tuple[Any, Any]:
    """Return ``(euler, rk4)`` loops specialised for one system and one law.

    Both have the signature ``loop(sp, lp, U, UL, ys0, z0, dt, n, stride, Y, F) -> int``.
    """
    mod = specialise("frictionlab.solve.integrate.templates.fixed_step",
                     {"rhs": rhs, "law_rates": law_rates, "law_friction": law_friction})
    return mod.euler, mod.rk4
