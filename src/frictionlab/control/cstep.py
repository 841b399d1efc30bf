"""Real-time single-step functions of every rate law, callable from C (``numba.cfunc``).

For a law class, :func:`c_step` compiles (once per process) a function with the plain C
signature ::

    int32_t step(double *state, int32_t n_state, double v, double normal_force, double dt,
                 const double *params, int32_t n_params, double *work, double *force);

It advances the law state ``state[0:n_state]`` in place by one classical RK4 step ``dt`` at
the slip velocity ``v`` and normal load ``normal_force`` (both held over the step), then
writes the friction force of the new state to ``*force``. ``params`` is the law's
:meth:`~frictionlab.core.base.AbstractLaw.param_vector`, ``work`` a caller-owned scratch
buffer of ``5 * max(n_state, 1)`` doubles (no allocation inside the step). It returns 0, or
1 when the new state is not finite (the state is then left updated; the caller decides).
The arithmetic is the one of the ``"rk4"`` integrator of :func:`frictionlab.simulate` on the
``prescribed_slip`` system, so the two agree to round-off.

``c_step(cls).address`` is the function pointer (e.g. for ``ctypes.CFUNCTYPE`` or to hand
to a C/C++ real-time task); ``c_step(cls).ctypes`` is a ready ctypes callable.
"""

from __future__ import annotations

import ctypes
from functools import lru_cache
from typing import Any

import numpy as np
from numba import carray, cfunc, njit, types

from ..core.base import AbstractLaw

__all__ = ["c_step", "step_kernel", "C_SIGNATURE", "CStep"]

C_SIGNATURE = types.int32(types.CPointer(types.float64), types.int32, types.float64, types.float64, types.float64,
                          types.CPointer(types.float64), types.int32, types.CPointer(types.float64),
                          types.CPointer(types.float64))


@lru_cache(maxsize=None)
def step_kernel(rates, friction):
    """The njit step ``step(z, v, fn, dt, p, w) -> (ok, force)`` behind the C function."""

    @njit(inline="always")
    def step(z, v, fn, dt, p, w):
        nz = z.size
        if nz:
            k1, k2, k3, k4, tz = w[0], w[1], w[2], w[3], w[4]
            h2 = 0.5 * dt
            h6 = dt / 6.0
            rates(z, v, fn, p, k1)
            for m in range(nz):
                tz[m] = z[m] + h2 * k1[m]
            rates(tz, v, fn, p, k2)
            for m in range(nz):
                tz[m] = z[m] + h2 * k2[m]
            rates(tz, v, fn, p, k3)
            for m in range(nz):
                tz[m] = z[m] + dt * k3[m]
            rates(tz, v, fn, p, k4)
            for m in range(nz):
                z[m] += h6 * (k1[m] + 2.0 * k2[m] + 2.0 * k3[m] + k4[m])
        ok = True
        for m in range(nz):
            ok &= np.isfinite(z[m])
        return ok, friction(z, v, fn, p)

    return step


class CStep:
    """A compiled C step function: ``address`` (int), ``ctypes`` (callable), ``cfunc`` (numba)."""

    def __init__(self, cf: Any):
        self.cfunc = cf
        self.address: int = cf.address
        self.ctypes = cf.ctypes

    @staticmethod
    def ctypes_prototype() -> Any:
        """The ``ctypes.CFUNCTYPE`` matching :data:`C_SIGNATURE`."""
        dp = ctypes.POINTER(ctypes.c_double)
        return ctypes.CFUNCTYPE(ctypes.c_int32, dp, ctypes.c_int32, ctypes.c_double, ctypes.c_double,
                                ctypes.c_double, dp, ctypes.c_int32, dp, dp)


@lru_cache(maxsize=None)
def _compile(rates, friction) -> CStep:
    step = step_kernel(rates, friction)

    @cfunc(C_SIGNATURE, nopython=True)
    def c_fn(state, n_state, v, fn, dt, params, n_params, work, force):
        z = carray(state, (n_state,))
        p = carray(params, (n_params,))
        nw = max(n_state, 1)
        w = carray(work, (5, nw))
        ok, f = step(z, v, fn, dt, p, w)
        force[0] = f
        return 0 if ok else 1

    return CStep(c_fn)


def c_step(law: AbstractLaw | type[AbstractLaw]) -> CStep:
    """The C-callable step of a law class (or of an instance's class); see module docstring."""
    cls = law if isinstance(law, type) else type(law)
    if not (isinstance(cls, type) and issubclass(cls, AbstractLaw)):
        from ..core.errors import ConfigError

        raise ConfigError(f"c_step needs a rate law (AbstractLaw), got {cls!r}")
    return _compile(*cls.kernels())
