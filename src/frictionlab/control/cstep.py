"""Real-time single-step functions of every rate law, callable from C (``numba.cfunc``).

For a law class, :func:`c_step` compiles (once, then loaded from the disk cache of
:mod:`frictionlab.core.jitcache` in later processes) a function with the plain C
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

from numba import types

from ..core.base import AbstractLaw

__all__ = ["c_step", "step_kernel", "C_SIGNATURE", "CStep"]

C_SIGNATURE = types.int32(types.CPointer(types.float64), types.int32, types.float64, types.float64, types.float64,
                          types.CPointer(types.float64), types.int32, types.CPointer(types.float64),
                          types.CPointer(types.float64))


def step_kernel(rates, friction):
    """The njit step ``step(z, v, fn, dt, p, w) -> (ok, force)`` behind the C function."""
    return _module(rates, friction).step


def _module(rates, friction):
    """Template :mod:`frictionlab.control.templates.cstep` bound to a law (cached on disk)."""
    from ..core.jitcache import specialise

    return specialise("frictionlab.control.templates.cstep", {"rates": rates, "friction": friction})


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
    return CStep(_module(rates, friction).c_function())


def c_step(law: AbstractLaw | type[AbstractLaw]) -> CStep:
    """The C-callable step of a law class (or of an instance's class); see module docstring."""
    cls = law if isinstance(law, type) else type(law)
    if not (isinstance(cls, type) and issubclass(cls, AbstractLaw)):
        from ..core.errors import ConfigError

        raise ConfigError(f"c_step needs a rate law (AbstractLaw), got {cls!r}")
    return _compile(*cls.kernels())
