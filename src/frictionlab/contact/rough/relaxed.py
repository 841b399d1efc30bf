r"""Driver ``"relaxed"`` of the rough-contact model: a hold's loaded and relaxed states by two direct solves.

A static hold of the viscoelastic material (Hulikal, Lapusta & Bhattacharya 2015, Sect. 4) starts
from the instantaneous response at :math:`t = 0^+` (compliance factor :math:`c = 1`) and, once every
rate has relaxed (:math:`e^{-\lambda_{min} t} \le 10^{-12}`), sits at the fixed point of the
exponential step, :math:`q_k = (\bar A_k/\bar\lambda_k)\,p`: the contact problem (eqs. 16-17) with
the relaxed compliance :math:`c = 1 + \sum_k \bar A_k/\bar\lambda_k` (eq. 5). This driver solves
those two problems directly -- Polonsky-Keer for the Boussinesq interaction, the second solve warm
started from the first, the exact sorted solve for the mean field -- instead of stepping the hold:
two solves instead of ``per_decade`` per decade of log time, the same contact set as the
time-stepped hold at its end (``rough-contact/fig8`` checks it, 64^2). The elastic material has one
state (:math:`c = 1` at both times); the viscoplastic one has no relaxed state (refused).

The result has two records, ``time`` = 0 (the loaded state) and the end of the run (the relaxed
state), with the ``"hold"`` driver's variables of a contact solve in SI (:func:`.units.hold_to_si`).
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

import numpy as np
import xarray as xr

from ...core.errors import ConfigError
from ...solve.drivers import register_driver
from .constitutive import relaxed_compliance
from .elasticity import StepOperator
from .model import UNITS, RoughContact
from .numerics import SolverOptions
from .solver import SolveResult, meanfield_solve, pk_solve
from .surface import make_surface
from .units import hold_to_si, to_paper

__all__ = ["relaxed_states", "drive_relaxed"]


def relaxed_states(model: RoughContact, base: Any, heights: np.ndarray, W: float, c_relaxed: float,
                   numerics: SolverOptions) -> list[SolveResult]:
    """The loaded (``c = 1``) and relaxed (``c = c_relaxed``) solves of ``model`` with its interaction operator
    ``base`` on ``heights`` [L*] at the load ``W`` [F*]; the relaxed Polonsky-Keer solve starts from the loaded
    forces."""
    out: list[SolveResult] = []
    for c in (1.0, c_relaxed):
        op = StepOperator(base, c=c)
        if model.interaction == "meanfield":
            out.append(meanfield_solve(heights, W, op.diagonal(), backend=base.be))
        else:
            out.append(pk_solve(op, heights, W, out[-1].p if out else None, tol=numerics.tol,
                                max_iter=numerics.max_iter))
    return out


def _record(model: RoughContact, res: SolveResult, W: float, be: Any) -> dict[str, float]:
    """The scalars of one solve, as :meth:`~.model.RoughContactSim.observe` names them (paper units)."""
    pn = be.to_numpy(res.p)
    n_c = int(np.count_nonzero(pn > 0))
    area = float(n_c) * model.dx**2
    return {"dilatation": float(res.d), "contact_area": area, "area_fraction": n_c / pn.size,
            "n_contact_elements": float(n_c), "friction_coefficient": model.tau_s * area / W,
            "normal_force": -float(pn.sum()), "iterations": float(res.iterations)}


@lru_cache(maxsize=2)
def _heights(nx: int, ny: int, mx: int, sigma: float, beta: float, acf: str, seed: int, dx: float) -> np.ndarray:
    """The rigid surface under the patch (as the ``"hold"`` driver), read-only and kept for the next run on the
    same surface (a study's points at several loads on one surface build it once per process)."""
    h = make_surface(mx, ny, sigma=sigma, beta_x=beta, acf=acf, seed=seed, dx=dx)[:nx]
    h.flags.writeable = False
    return h


def drive_relaxed(run: Any, **numerics: Any) -> xr.Dataset:
    """Driver ``"relaxed"`` (module docstring): the protocol must hold still at one constant normal force;
    the relaxed state is that at the end of the run (``t_end``, default the protocol's duration), refused
    unless the hold has relaxed there to round-off. The solver options are those of
    :class:`~frictionlab.contact.rough.numerics.SolverOptions` (``tol`` the Polonsky-Keer tolerance)."""
    m, protocol, t_end = run.model.kernel_parameters(), run.protocol, run.t_end  # the solves compute in paper units
    if run.dt is not None:
        raise ConfigError("driver 'relaxed' of rough_contact: dt is not supported (it solves two states, no steps)")
    segs = protocol.segments()
    fns = {sg.normal_force for sg in segs}
    if any(sg.velocity != 0.0 for sg in segs) or len(fns) != 1 or None in fns:
        raise ConfigError(f"driver 'relaxed' of rough_contact needs a hold at one constant normal force (zero "
                          f"velocity); protocol {protocol.type_name!r} has pieces of kind "
                          f"{', '.join(sg.kind for sg in segs)}")
    if m.material == "viscoplastic":
        raise ConfigError("driver 'relaxed' of rough_contact: material = 'viscoplastic' creeps without a relaxed "
                          "state; run the 'hold' driver")
    num = SolverOptions.from_options(numerics)
    num.check_for(m.interaction)
    c = relaxed_compliance(m.lams, m.As, float(t_end)) if m.material == "viscoelastic" else 1.0
    h = _heights(m.patch_nx, m.patch_ny, m.surface_mx, m.surface_sigma, m.surface_beta, m.surface_acf,
                 m.surface_seed, m.dx)
    W = to_paper(float(segs[0].normal_force), "N")
    base = m.operator(m.patch_nx, m.patch_ny, num)
    rec = [_record(m, r, W, base.be) for r in relaxed_states(m, base, h, W, c, num)]
    ds = xr.Dataset({k: ("time", np.array([r[k] for r in rec]), {"units": UNITS[k]}) for k in rec[0]},
                    coords={"time": ("time", np.array([0.0, float(t_end)]), {"units": "s"})},
                    attrs={**num.attrs(), "relaxed_compliance": c, "W": W, "nx": m.patch_nx, "ny": m.patch_ny})
    return hold_to_si(ds)


#: the solver options of a static solve (:class:`SolverOptions` without the sliding ones), with their defaults
_OPTIONS = {k: v for k, v in SolverOptions().attrs().items() if k not in ("tol_sliding", "sliding_fft_precision")}
register_driver(RoughContact, "relaxed", drive_relaxed, t_end="within",
                refuse_save_dt="it records two states, the loaded and the relaxed one", options=_OPTIONS,
                description="a hold's loaded (t = 0+) and relaxed end states by two direct solves (paper §4, eq. 5)")
