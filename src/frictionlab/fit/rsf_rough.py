r"""Rate-and-state friction fitted to a velocity-jump record of the rough-contact model
(Hulikal, Lapusta & Bhattacharya 2015, Sects. 5.4-5.6): how far the asperity ensemble behaves
as Dieterich-Ruina friction (:class:`~frictionlab.laws.RateState`) under prescribed slip.

:func:`rate_state_series` turns the SI result of the ``sliding`` driver of
:func:`frictionlab.simulate` (``slip`` [m], ``slip_velocity`` [m/s], ``friction_coefficient``,
the ``jump`` variables) into a :class:`~frictionlab.fit.data.TimeSeries`; :func:`fit_rate_state` fits
``mu0, a, b, dc`` with the fit layer's dynamic law model, simulating ``rate_state`` under the
recorded velocity history.
"""

from __future__ import annotations

import math
from typing import Any

import numpy as np
import xarray as xr

from ..core.errors import DataError
from .data import TimeSeries

__all__ = ["rate_state_series", "fit_rate_state"]


def rate_state_series(ds: xr.Dataset, *, start_slip: float | None = None, decimate: int = 1,
                      reference: xr.Dataset | None = None):
    """The model's :math:`\\mu(t)` under its velocity history as a fit-layer
    :class:`~frictionlab.fit.data.TimeSeries` (SI: time [s], velocity [m/s], friction coefficient).

    ``start_slip`` [m] crops the record (default: the last half of the first segment, where the run
    is at steady state at the first velocity). ``reference``: a constant-velocity run over the
    same rigid path (same surface, load and first velocity); the record is then
    :math:`\\langle\\mu_{ref}\\rangle + \\mu - \\mu_{ref}(\\bar x)`, which removes the roughness noise
    common to both runs and keeps the velocity effect."""
    t = ds.time.values
    s = np.abs(ds.slip.values)
    mu = ds.friction_coefficient.values
    if reference is not None:
        mref = np.interp(ds.slip.values, reference.slip.values, reference.friction_coefficient.values)
        mu = float(np.mean(reference.friction_coefficient.values)) + mu - mref
    if start_slip is None:
        if ds.sizes.get("jump", 0) == 0:
            raise DataError("the sliding record has no velocity jump: nothing for a rate-and-state fit")
        start_slip = 0.5 * abs(float(ds.jump_slip.values[0]))
    sel = s >= start_slip
    idx = np.flatnonzero(sel)[:: max(int(decimate), 1)]
    return TimeSeries(time=t[idx] - t[idx[0]], velocity=np.abs(ds.slip_velocity.values[idx]),
                      y=mu[idx], y_name="friction_coefficient", source="rough sliding")


def fit_rate_state(ds: xr.Dataset, *, law: str = "aging", n_starts: int = 3, seed: int = 0,
                   max_nfev: int | None = 200, start_slip: float | None = None, decimate: int = 1,
                   reference: xr.Dataset | None = None) -> dict[str, Any]:
    r"""Fit Dieterich-Ruina rate-and-state friction (:class:`~frictionlab.laws.RateState`) to a
    velocity-jump record of the rough model, under prescribed slip (no apparatus spring).

    The fit layer's dynamic law model simulates ``rate_state`` under the model's recorded
    velocity history (starting at steady state at the first velocity, ``v0 = v_init`` = that
    velocity) and fits ``mu0, a, b, dc`` by multi-start least squares. ``reference`` (optional):
    a constant-velocity run over the same path, subtracted to remove roughness noise (see
    :func:`rate_state_series`).

    Returns
    -------
    dict
        ``mu0``, ``a``, ``b``, ``dc_m`` [m], ``dc_um`` [um], ``a_minus_b``, ``fit_percent``,
        ``rmse``, ``a_direct`` (the model's own :math:`\alpha\bar A/W` at the first jump, the
        value ``a`` should approach), ``fitter`` (the fitted :class:`~frictionlab.fit.Fitter`).
    """
    from .fitter import Fitter  # scipy.optimize: imported when a fit runs, not with the scenario modules

    ts = rate_state_series(ds, start_slip=start_slip, decimate=decimate, reference=reference)
    v_ref = float(ts.velocity[0])
    mu = ts.y
    # data-driven start: a from the direct effect, a - b from the steady levels before and
    # after the first jump (last quarter of each segment)
    a0 = 0.005
    if ds.sizes.get("jump", 0):
        # the model's direct effect per unit log velocity at the first jump, alpha A / W (Sect. 5.5)
        a0 = float(ds.direct_effect_expected.values[0]) / math.log(abs(float(ds.v_new.values[0])
                                                                        / float(ds.v_old.values[0])))
    a0 = max(a0, 1e-5)
    b0 = 1.5 * a0
    if ds.sizes.get("jump", 0):
        vel = ts.velocity
        first = vel == vel[0]
        k_end = int(np.argmin(first)) if not first.all() else vel.size
        seg2 = np.flatnonzero(~first)
        if k_end > 4 and seg2.size > 4:
            n2 = seg2[: int(np.argmax(np.diff(seg2) > 1)) + 1] if np.any(np.diff(seg2) > 1) else seg2
            m1 = float(np.mean(mu[3 * k_end // 4: k_end]))
            m2 = float(np.mean(mu[n2[3 * n2.size // 4:]]))
            amb = (m2 - m1) / math.log(vel[n2[0]] / vel[0])
            b0 = max(a0 - amb, 1e-5)
    x0 = {"mu0": float(mu[0]), "a": a0, "b": b0, "dc": 5e-6}
    opts = {"output": "friction_coefficient", "substeps": 1, "base": {"law": law}}
    f = Fitter("rate_state", kind="dynamic", free=["mu0", "a", "b", "dc"], fixed={"v0": v_ref, "v_init": v_ref},
               x0=x0, n_starts=n_starts, seed=seed,
               bounds={"mu0": (0.0, 5.0), "a": (1e-6, 1.0), "b": (0.0, 5.0), "dc": (1e-8, 1e-3)},
               model_options=opts, max_nfev=max_nfev).fit(ts)
    p = f.params_
    return {"mu0": p["mu0"], "a": p["a"], "b": p["b"], "dc_m": p["dc"], "dc_um": p["dc"] * 1e6,
            "a_minus_b": p["a"] - p["b"], "fit_percent": f.fit_percent_, "rmse": f.rmse_, "a_direct": a0,
            "v_ref_m_s": v_ref, "fitter": f}
