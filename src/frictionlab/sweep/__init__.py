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

from .grid import Grid, parse_axis, parse_grid
from .metrics import FAMILY_METRICS, METRICS, Metric, MetricSet, metric_names_for
from .plot import plot_sweep
from .runner import default_summary, gather, run_point, run_sweep
from .store import SweepStore, point_key

__all__ = ["Grid", "parse_axis", "parse_grid", "run_sweep", "gather", "default_summary", "run_point",
           "SweepStore", "point_key", "METRICS", "FAMILY_METRICS", "Metric", "MetricSet", "metric_names_for",
           "plot_sweep"]
