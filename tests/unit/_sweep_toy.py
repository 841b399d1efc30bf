"""A tiny, instant scenario for the sweep tests (``toy/sweep`` and ``toy/other``, unregistered).

``friction_force(t) = x (1 - exp(-t)) + y`` on 11 samples; ``x == toy.fail_at`` raises.
Environment: ``TOY_SLEEP`` seconds to sleep per point, ``TOY_LOG`` a file to which every
computed point appends ``x y pid`` (to count computations across processes and see where they ran).
"""

from __future__ import annotations

import os
import time

import numpy as np

from frictionlab.core.errors import IntegrationError
from frictionlab.core.result import make_dataset
from frictionlab.scenarios.base import Scenario, register_scenario

CONFIG = {"toy": {"x": 1.0, "y": 0.0, "fail_at": -1.0}}


def run(cfg: dict, quick: bool):
    x, y = float(cfg["toy"]["x"]), float(cfg["toy"]["y"])
    log = os.environ.get("TOY_LOG")
    if log:
        with open(log, "a") as fh:
            fh.write(f"{x!r} {y!r} {os.getpid()}\n")
    time.sleep(float(os.environ.get("TOY_SLEEP", "0")))
    if x == cfg["toy"]["fail_at"]:
        raise IntegrationError(f"toy failure at x = {x}")
    t = np.linspace(0.0, 1.0, 11)
    return make_dataset(t, {"friction_force": x * (1 - np.exp(-t)) + y}, attrs={"x": x, "y": y})


def summary(ds):
    return {"friction_force_final": float(ds.friction_force[-1]), "twice_x": 2 * float(ds.attrs["x"])}


TOY = Scenario("toy/sweep", "instant toy scenario for sweep tests", CONFIG, run=run, summary=summary)
OTHER = Scenario("toy/other", "a second toy scenario", CONFIG, run=run)


def register() -> None:
    """Register both toy scenarios (only in CLI subprocesses: the test session's registry stays clean)."""
    register_scenario(TOY)
    register_scenario(OTHER)
