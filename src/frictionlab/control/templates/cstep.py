"""Template: one RK4 step of a law's state and its friction, and the C-callable function around
it (see :mod:`frictionlab.control.cstep`); free names ``rates`` and ``friction`` (the law's
kernels), bound per specialisation by :func:`frictionlab.core.jitcache.specialise`."""

import numpy as np
from numba import carray, cfunc, njit

from frictionlab.control.cstep import C_SIGNATURE

# bound per specialisation by frictionlab.core.jitcache.specialise
rates = friction = None


@njit(inline="always", cache=True)
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


def _c_fn(state, n_state, v, fn, dt, params, n_params, work, force):
    z = carray(state, (n_state,))
    p = carray(params, (n_params,))
    nw = max(n_state, 1)
    w = carray(work, (5, nw))
    ok, f = step(z, v, fn, dt, p, w)
    force[0] = f
    return 0 if ok else 1


def c_function():
    """The ``cfunc`` of :func:`_c_fn`, compiled or loaded from numba's cache when called (``cfunc``
    compiles as it is applied, which at import would precede the bindings of ``rates``/``friction``)."""
    return cfunc(C_SIGNATURE, nopython=True, cache=True)(_c_fn)
