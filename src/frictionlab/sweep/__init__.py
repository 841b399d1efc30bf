"""Parameter sweeps: a scenario over a grid, one dask task per point, resumable store.

>>> from frictionlab.sweep import run_sweep
>>> ds = run_sweep("classic/rsf-velocity-step", ["model.a=0.008:0.012:3"],
...                store="out/sweep-a", scheduler="serial")          # doctest: +SKIP

See :func:`run_sweep` (running), :mod:`frictionlab.sweep.grid` (the ``--grid`` syntax),
:class:`SweepStore` (the on-disk store) and :func:`gather` (the result Dataset).
"""

from ..core.lazy import lazy_exports

__all__ = ["Grid", "parse_axis", "parse_grid", "run_sweep", "gather", "default_summary", "run_point",
           "SweepStore", "point_key"]

# imported on first use: ``frictionlab sweep --help`` needs none of xarray / dask
__getattr__, __dir__ = lazy_exports(__name__, {
    "Grid": ".grid", "parse_axis": ".grid", "parse_grid": ".grid",
    "default_summary": ".runner", "gather": ".runner", "run_point": ".runner", "run_sweep": ".runner",
    "SweepStore": ".store", "point_key": ".store",
})
