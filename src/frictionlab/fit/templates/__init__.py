"""Templates of the fit layer's compiled loops, specialised by :func:`frictionlab.core.jitcache.specialise`.

:mod:`.qs_slider` holds the quasi-static rate-and-state spring-slider loops of
:mod:`frictionlab.fit.rsf`, whose free name ``rates`` is the law's state-rate kernel. Never
import a template to call it; :func:`frictionlab.fit.rsf.simulate_qs_slider` specialises it.
"""
