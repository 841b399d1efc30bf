r"""Rate-and-state parameters of any friction record under prescribed slip.

:func:`fit_rsf` fits :math:`(\mu_{ref}, a, b, D_c)` of the Dieterich-Ruina law to a
``friction_coefficient`` record made under a piecewise-constant slip-velocity protocol, with
the generic :class:`~frictionlab.fit.Fitter` (bounded multi-start least squares, Jacobian
standard errors, undetermined parameters reported) through the small
:func:`PrescribedSlipRSF` fit model, whose forward model is the closed form
:func:`frictionlab.reference.rate_state.prescribed_slip_mu`. The laboratory inversion of
:mod:`frictionlab.fit.rsf` models an elastic apparatus (load point + spring); here the slip
itself is prescribed, so that closed form is the exact forward model.

References
----------
Dieterich, J. H. (1979). J. Geophys. Res. 84(B5), 2161-2168 (aging law);
Ruina, A. (1983). J. Geophys. Res. 88(B12), 10359-10370 (slip law);
Marone, C. (1998). Annu. Rev. Earth Planet. Sci. 26, 643-696 (velocity steps, slide-hold-slide).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

import numpy as np
import xarray as xr
from numpy.typing import NDArray

from ..core.errors import ConfigError, ParameterError
from ..reference.rate_state import prescribed_slip_mu
from .data import XYData
from .fitter import Fitter
from .models import FitModel

__all__ = ["velocity_segments", "PrescribedSlipRSF", "fit_rsf"]


def velocity_segments(protocol: Any) -> tuple[NDArray[np.float64], NDArray[np.float64]]:
    """Edges [s] and the slip speed [m/s] on each segment of a piecewise-constant velocity protocol."""
    segs = protocol.segments()
    if any(s.velocity is None for s in segs):
        raise ConfigError(f"the rate-and-state fit needs a piecewise-constant velocity protocol "
                          f"(velocity_steps, slide_hold_slide, constant_velocity); got {protocol.type_name!r}")
    edges = np.array([s.t_start for s in segs] + [segs[-1].t_end], dtype=float)
    return edges, np.abs(np.array([s.velocity for s in segs], dtype=float))


@dataclass
class _PrescribedSlipRSF(FitModel):
    edges: Any = None
    velocities: Any = None
    law: str = "aging"

    def predict(self, params: Mapping[str, float], data: Any) -> NDArray[np.float64]:
        x = data.x if isinstance(data, XYData) else np.asarray(data, dtype=float)
        return prescribed_slip_mu(x, self.edges, self.velocities, params["mu_ref"], params["a"], params["b"],
                                  params["dc"], self.law)


def PrescribedSlipRSF(protocol: Any, law: str = "aging", *, dc_max: float = 1.0) -> FitModel:
    """A :class:`~frictionlab.fit.FitModel` of the closed-form RSF law under ``protocol``'s velocity.

    Parameters ``mu_ref`` [1], ``a`` [1], ``b`` [1], ``dc`` [m]; data are
    :class:`~frictionlab.fit.XYData` with ``x`` = time [s] and ``y`` = friction coefficient.
    """
    if law not in ("aging", "slip"):
        raise ConfigError(f"rate-and-state law {law!r} must be 'aging' or 'slip'")
    edges, vels = velocity_segments(protocol)
    return _PrescribedSlipRSF(f"rsf-prescribed-slip-{law}", ("mu_ref", "a", "b", "dc"),
                              {"mu_ref": 0.5, "a": 0.01, "b": 0.01, "dc": 1e-5},
                              {"mu_ref": (-10.0, 10.0), "a": (1e-7, 10.0), "b": (1e-7, 10.0), "dc": (1e-10, dc_max)},
                              ("a", "b", "dc"), "Dieterich-Ruina law under prescribed slip (closed form)", "time",
                              "friction coefficient", {"mu_ref": "1", "a": "1", "b": "1", "dc": "m"},
                              edges=edges, velocities=vels, law=law)


def fit_rsf(ds: xr.Dataset, protocol: Any, *, law: str = "aging", t_start: float | None = None,
            n_starts: int = 6, seed: int = 0, max_points: int = 6000, noise: float = 0.0) -> Fitter:
    """Fit the RSF law (closed form under prescribed slip) to one record's ``friction_coefficient``.

    The window starts at ``t_start`` [s] (default: the middle of the first segment, after any
    initial presliding transient) and keeps only sliding samples (v > 0). ``noise`` > 0 adds
    seeded Gaussian noise of that standard deviation [1] to the record first (a synthetic
    measurement, so that the standard errors are statistical rather than round-off). With a
    single sliding velocity in the window (slide-hold-slide) the direct effect never acts:
    ``a`` is not identifiable and is held at 0 (absent from ``free_``). Returns the fitted
    :class:`~frictionlab.fit.Fitter` (``params_``, ``stderr_``, ``undetermined_``, ``fit_percent_``).
    """
    edges, vels = velocity_segments(protocol)
    if vels.size < 2:
        raise ConfigError("rate-and-state fit: a single constant-velocity segment has no transient; "
                          "b and D_c are not identifiable (use velocity steps or slide-hold-slide)")
    if t_start is None:
        t_start = 0.5 * (edges[0] + edges[1])
    t = ds.time.values
    mu = ds.friction_coefficient.values
    v = np.abs(protocol.velocity(t))
    sel = (t >= t_start - 1e-12) & (v > 0) & np.isfinite(mu)
    t, mu = t[sel], mu[sel]
    if t.size < 8:
        raise ConfigError(f"rate-and-state fit: only {t.size} sliding samples after t = {t_start:g} s")
    if t.size > max_points:
        idx = np.unique(np.linspace(0, t.size - 1, max_points).round().astype(int))
        t, mu = t[idx], mu[idx]
    if noise < 0 or not math.isfinite(noise):
        raise ParameterError(f"fit noise = {noise!r} must be a finite standard deviation >= 0")
    if noise > 0:
        mu = mu + np.random.default_rng(seed).normal(0.0, noise, mu.size)
    slip_total = float(np.sum(vels * np.diff(edges)))
    fm = PrescribedSlipRSF(protocol, law, dc_max=max(slip_total, 1e-9))
    x0 = {"mu_ref": float(mu[0]), "a": 0.01, "b": 0.01, "dc": slip_total / 50.0}
    v_win = np.unique(np.abs(protocol.velocity(t)).round(15))
    fixed = {"a": 0.0} if np.count_nonzero(v_win > 0) < 2 else None
    return Fitter(fm, x0=x0, n_starts=n_starts, seed=seed, fixed=fixed).fit(XYData(t, mu, "time", "friction_coefficient"))
