"""rough-contact/fig14 prints a rate-and-state fit parameter the data do not determine as such (the
full-profile red set gave a = 1e-06, the fitter's lower bound, printed as a plain number)."""

from __future__ import annotations

import xarray as xr

from frictionlab.scenarios.rough_contact.fig14 import fit_measured


def _set(a_det: float, b_det: float = 1.0, dc_det: float = 1.0) -> xr.Dataset:
    v = {"rsf_a": 1e-6, "rsf_b": 0.8505, "rsf_dc_um": 0.419, "rsf_fit_percent": 99.9, "rsf_a_direct": 0.02674,
         "rsf_a_determined": a_det, "rsf_b_determined": b_det, "rsf_dc_determined": dc_det}
    return xr.Dataset({k: ((), x) for k, x in v.items()})


def test_undetermined_fit_parameter_is_named():
    assert fit_measured(_set(0.0)).endswith("; not determined by the data: a")
    assert fit_measured(_set(0.0, dc_det=0.0)).endswith("; not determined by the data: a, dc")


def test_determined_fit_prints_values_only():
    txt = fit_measured(_set(1.0))
    assert txt.startswith("a=1e-06, b=0.8505, Dc=0.419 um, FIT 99.9 %") and "not determined" not in txt
