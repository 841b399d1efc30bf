"""Parameter sweeps: a scenario over a grid, one dask task per point, resumable store.

>>> from frictionlab.sweep import run_sweep
>>> ds = run_sweep("classic/rsf-velocity-step", ["model.a=0.008:0.012:3"],
...                store="out/sweep-a", scheduler="serial")          # doctest: +SKIP

See :func:`run_sweep` (running), :mod:`frictionlab.sweep.grid` (the ``--grid`` syntax),
:class:`SweepStore` (the on-disk store) and :func:`gather` (the result Dataset).
"""

from .grid import Grid, parse_axis, parse_grid
from .runner import default_summary, gather, run_point, run_sweep
from .store import SweepStore, point_key

__all__ = ["Grid", "parse_axis", "parse_grid", "run_sweep", "gather", "default_summary", "run_point",
           "SweepStore", "point_key"]
