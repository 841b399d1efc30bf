"""Template: one evaluation of the right-hand side for the adaptive solvers (see :mod:`frictionlab.solve.integrate.adaptive`)."""

from numba import njit

# bound per specialisation by frictionlab.core.jitcache.specialise
rhs = law_rates = law_friction = None


@njit(cache=True)
def f(y, u, ns, sp, lp, dy):
    return rhs(y[:ns], y[ns:], u[0], u[1], u[2], sp, law_rates, law_friction, lp, dy[:ns], dy[ns:])
