"""Parameter sweeps: a scenario over a grid, resumable store, named or custom per-point metrics.

>>> from frictionlab.sweep import run_sweep
>>> ds = run_sweep("classic/rsf-velocity-step", ["model.a=0.008:0.012:3"],
...                store="out/sweep-a", metrics=["steady_friction"])     # doctest: +SKIP

See :func:`run_sweep` (running: the first points here, the rest on forked dask workers when
that is faster), :mod:`frictionlab.sweep.grid` (the ``--grid`` syntax),
:mod:`frictionlab.sweep.metrics` (``--metric`` names, custom functions ``ds -> float``),
:class:`SweepStore` (the on-disk store), :func:`gather` (the result Dataset) and
:func:`plot_sweep` (metric-vs-parameter figures).
"""

from ..core.lazy import lazy_exports

__all__ = ["Grid", "parse_axis", "parse_grid", "run_sweep", "gather", "default_summary", "run_point",
           "SweepStore", "point_key", "METRICS", "FAMILY_METRICS", "Metric", "MetricSet", "metric_names_for",
           "plot_sweep"]

# imported on first use: ``frictionlab sweep --help`` needs none of xarray / dask
__getattr__, __dir__ = lazy_exports(__name__, {
    "Grid": ".grid", "parse_axis": ".grid", "parse_grid": ".grid",
    "default_summary": ".runner", "gather": ".runner", "run_point": ".runner", "run_sweep": ".runner",
    "SweepStore": ".store", "point_key": ".store",
    "METRICS": ".metrics", "FAMILY_METRICS": ".metrics", "Metric": ".metrics", "MetricSet": ".metrics",
    "metric_names_for": ".metrics", "plot_sweep": ".plot",
})
