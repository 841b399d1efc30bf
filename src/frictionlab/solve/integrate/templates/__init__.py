"""Templates of the compiled loops, specialised per (system, law) by :func:`frictionlab.core.jitcache.specialise`.

Each module here is plain Python whose ``@njit(cache=True)`` functions call the free names
``rhs``, ``law_rates`` and ``law_friction`` (``None`` here): the system kernel and the law's
two kernels. :mod:`frictionlab.core.jitcache` copies a template's text into a module of its
own with those names imported, so numba caches each specialisation on disk. Never import a
template to call it; use the factories of :mod:`frictionlab.solve.integrate` (``compiled``,
``newmark``, ``guard``, ``adaptive``). Templates use absolute imports only.
"""
