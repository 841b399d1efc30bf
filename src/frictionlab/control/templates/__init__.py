"""Templates of the servo loop's compiled pieces, specialised per law by
:func:`frictionlab.core.jitcache.specialise` so that a second process loads them instead of
compiling: :mod:`.plant` (plant RK4), :mod:`.model` (estimators on a model law), :mod:`.loop`
(the sampled closed loop), :mod:`.cstep` (the C-callable step). Never import a template to
call it; use :mod:`frictionlab.control.kernels`, :mod:`~frictionlab.control.loop` and
:mod:`~frictionlab.control.cstep`.
"""
