"""Helpers shared by the microjunction scenarios: the model, the SI loads, the runs through ``simulate``.

The scenarios give loads in N and read SI results; the appendix states its regimes and laws in
the normalised load :math:`F^* = F/F_c` (Goedecke 2013, App. A), so a scenario's loads are
written as :func:`newtons` of the :math:`F^*` they stand for, for the demo steel. Each check says
whether it reads the SI variables or, where the appendix's claim is non-dimensional (a printed
law in :math:`\\delta^*, A^*, F^*`, a value of our earlier non-dimensional prototype), the
``*_star`` extras of the same result.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import xarray as xr

from ...contact.microjunction import Microjunction
from ...contact.microjunction.scales import Scales
from ...core.errors import ConfigError
from ...core.registry import make_model
from ...solve import simulate
from ..base import Mutation

REFERENCES = ["Goedecke 2013, Transient Effects in Friction, Appendix A (doi:10.1007/978-3-7091-1506-0)",
              "Jackson & Green 2005, J. Tribol. 127, 343"]

#: the scales of the demo-steel preset (Appendix A normalisation): its critical load F_c = 4.51e-5 N
_DEMO = Scales.of(make_model("microjunction", "demo-steel"))
FC_DEMO = _DEMO.force_c


def newtons(f_star: float) -> float:
    """The load [N] of the demo steel at the normalised load ``f_star`` [1] (F* F_c)."""
    return _DEMO.newtons(float(f_star))


#: ``model.name`` and the driver are not the user's to set: the runs and checks are the microjunction model's
#: and read what its ``junction`` driver returns
MODEL_NAME = {"model.name": "the parameters of the 'microjunction' model (Goedecke 2013, Appendix A), which these "
                            "scenarios run",
              "integrator.driver": "the 'junction' driver's options (these scenarios run that driver)"}


def model_of(cfg: dict[str, Any]) -> Microjunction:
    m = dict(cfg["model"])
    name = m.pop("name", "microjunction")
    if name != "microjunction":  # the scenarios' checks and runs are the microjunction model's
        raise ConfigError(f"model.name = {name!r}: the microjunction scenarios run the 'microjunction' model "
                          "(Goedecke 2013, Appendix A); set its parameters instead")
    return make_model("microjunction", m.pop("preset", None), **m)


def run_driver(model: Microjunction, protocol: Any, table: dict[str, Any], driver: str, **changes: Any) -> xr.Dataset:
    """``simulate`` with the options of ``table`` (an ``[integrator]`` table naming ``driver`` or none),
    ``changes`` set over them; another driver named there is refused (a restart from a run's state
    in a scenario's post step)."""
    opts = {**table, **changes}
    named = opts.pop("driver", driver)
    if named != driver:
        raise ConfigError(f"driver = {named!r}: this microjunction scenario runs the {driver!r} driver "
                          f"(its checks read what that driver returns)")
    return simulate(model, protocol, integrator=driver, **opts)


#: the printed area-branch condition of Appendix A ("if dδ*/dτ > 0 % decreasing interference, i.e.
#: elastic behavior of area"), taken literally: the elastic area law while the interference grows.
#: The hybrid mode is built on the corrected reading, so this wrong reading runs in the simple mode.
PRINTED_AREA_BRANCH = Mutation("the area-branch condition read as printed (dδ*/dτ > 0: elastic area law while "
                               "the interference grows)", {"model.area_branch": "printed", "integrator.mode": "simple"})
#: creep as fast as the 1 ms loading ramps (C1 1000 x the demonstration value): a ramp is then no
#: longer instantaneous against creep (C1 is not printed; this moves every claim about the ramp's end)
FAST_CREEP = Mutation("creep 1000 x faster (C1 = 14.2 1/s): the 1 ms ramps are no longer short against creep",
                      {"model.c1": 14.2})
#: the stress-reinsertion factor of Eq. 3.36 read as 1 instead of the printed f_A = 0.81
F_A_ONE = Mutation("stress-reinsertion factor f_A read as 1 (printed: 0.81)", {"model.f_a": 1.0})
#: the mean pressure with the printed extra 1/sigma_Y (p_hat = F* F_c/(A* A_c sigma_Y) / sigma_Y, in 1/Pa);
#: c2_factor multiplies both alpha_k, so 1/sigma_Y [1/Pa] of the demo steel is exactly that reading
P_HAT_PRINTED = Mutation("the mean pressure with the printed extra 1/sigma_Y (creep law argument 1e-9 x smaller)",
                         {"model.c2_factor": 1e-9})


def log_grid(t0: float, t1: float, n: int, extra: tuple[float, ...] = ()) -> np.ndarray:
    g = np.unique(np.concatenate([[t0], np.geomspace(t0, t1, n), [x for x in extra if t0 <= x <= t1]]))
    return g


def rel(a: float, b: float) -> float:
    return abs(a - b) / abs(b)
