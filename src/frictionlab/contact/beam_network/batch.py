"""An execution strategy of studies: the MLBNM points of a study run in parallel loops.

A study (:mod:`frictionlab.solve.study`) runs every point through :func:`frictionlab.simulate`
one after the other. The sweeps of the beam-network paper (Figs. 12-14) run tens to hundreds of
MLBNM cases from rest; the driver's compiled loop runs many cases at once in parallel
(``numba.prange``). :func:`batch_map` is a ``map`` for :meth:`Study.execute
<frictionlab.solve.study.Study.execute>` that groups the points one loop can run -- driver
``mlbnm``, the same protocol apart from its velocity ``v`` (and its normal force, which is the
model's ``normal_load``), the same system and integrator table, models differing only in fields a
batch may vary (not the Stribeck law ``mu_s``, ``mu_c``, ``v_stribeck``, ``alpha``, nor the number
of IUBs) -- runs each group in one loop and returns each point's Dataset as its own run gives it:
the same variables and attributes, and the same numbers bit for bit (the cases of the loop are
independent; :func:`~frictionlab.contact.beam_network.mlbnm.run_mlbnm` is a loop of one case).
Every other point (another driver, a lone point, a driver's own batch options) runs as the study
would run it. A group with a diverged case is run again point by point, so the error names the
point, as without the batching.

A scenario uses it by naming it (``Scenario(study_map=batch_map)``). The wall time of a group is
shared evenly among its points (``StudyResult.seconds``).
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from ...core.errors import FrictionLabError

__all__ = ["batch_map", "MAX_CASES"]

#: the most points of one loop (their saved histories are held in memory at once)
MAX_CASES = 64
#: the model fields every case of one loop shares (the loop has one Stribeck law)
_SHARED = ("mu_s", "mu_c", "v_stribeck", "alpha")
#: the integrator options of the driver's own batches: a point that sets them runs alone
_BATCH_OPTIONS = ("batch_params", "batch_velocities", "save_columns", "raise_on_failure")


def batch_map(func: Callable[[Any], Any], points: list[Any]) -> list[Any]:
    """``map(func, points)`` for :meth:`Study.execute <frictionlab.solve.study.Study.execute>`: the
    points of one group (module docstring) in one parallel loop each, ``func`` for the rest.
    Returns ``[(dataset, seconds)]`` in the order of ``points``."""
    out: list[Any] = [None] * len(points)
    groups: dict[str, list[int]] = {}
    for i, p in enumerate(points):
        key = _group_key(p.config)
        if key is None:
            out[i] = func(p)
        else:
            groups.setdefault(key, []).append(i)
    for idx in groups.values():
        for start in range(0, len(idx), MAX_CASES):
            chunk = idx[start:start + MAX_CASES]
            for i, res in zip(chunk, _run_group([points[i] for i in chunk], func)):
                out[i] = res
    return out


def _group_key(cfg: dict[str, Any]) -> str | None:
    """What the points of one loop share (JSON), or None for a point that runs alone."""
    from ...solve.config import config_driver

    if cfg.get("model", {}).get("name") != "beam_network":
        return None
    try:
        driver = config_driver(cfg).name
    except FrictionLabError:
        return None  # the strict path says why
    integ = dict(cfg.get("integrator") or {})
    if driver != "mlbnm" or any(k in integ for k in _BATCH_OPTIONS):
        return None
    model = {k: v for k, v in cfg["model"].items() if k in (*_SHARED, "name", "preset")}
    protocol = {k: v for k, v in cfg["protocol"].items() if k not in ("v", "normal_force_value")}
    return json.dumps([model, protocol, cfg.get("system"), integ], sort_keys=True, default=repr)


def _run_group(points: list[Any], func: Callable[[Any], Any]) -> list[Any]:
    """The points of one group: one loop when the built models share the Stribeck law and the IUB count."""
    if len(points) < 2:
        return [func(p) for p in points]
    from ...core.errors import IntegrationError
    from ...solve.config import build
    from ...solve.contract import finish, start
    from ...solve.simulate import prepare, stamp
    from .driver import drive_mlbnm_cases
    from .mlbnm import iub_arrays

    built = []
    for p in points:  # each checked and resolved as simulate does it
        model, protocol, system, integ = build(p.config)
        integ = dict(integ)
        name = integ.pop("driver")
        common = {k: integ.pop(k, None) for k in ("dt", "t_end", "save_dt")}
        drv, system, opts = prepare(model, protocol, system, name, common["dt"], common["t_end"], common["save_dt"],
                                    integ)
        run = start(drv, model, protocol, system, **{k: None if v is None else float(v) for k, v in common.items()})
        built.append((run, drv, {**common, **opts}))
    models = [b[0].model for b in built]
    settings = built[0][2]
    single = bool(settings["single"])
    if (len({tuple(getattr(m, k) for k in _SHARED) for m in models}) != 1
            or len({iub_arrays(m, single)["m"].size for m in models}) != 1):
        return [func(p) for p in points]  # the loop cannot hold them together
    run_opts = {k: v for k, v in settings.items() if k not in (*_BATCH_OPTIONS, "dt", "t_end", "save_dt")}
    t0 = time.perf_counter()
    for m in models:
        m.cite()
    try:
        dss = drive_mlbnm_cases([b[0] for b in built], **run_opts)
    except IntegrationError:
        return [func(p) for p in points]  # the failing point's own run raises, naming the point
    out = [stamp(finish(ds, run, drv), run.model, run.protocol, run.system, drv.name, st)
           for ds, (run, drv, st) in zip(dss, built)]
    share = (time.perf_counter() - t0) / len(points)
    return [(ds, share) for ds in out]
