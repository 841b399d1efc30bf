r"""The paper's units of the rough-contact model and the one place that converts them (Hulikal,
Lapusta & Bhattacharya 2015, eq. 6).

The kernel (:mod:`.model`, :mod:`.sliding`, the solvers) computes in the paper's non-dimensional
units: lengths in :math:`L^* = 1` µm, times in :math:`T^* = 1` s, forces in
:math:`F^* = 2\pi G L^{*2}/(1-\nu)` (0.2513 N for G = 30 GPa, nu = 0.25), stresses in
:math:`F^*/L^{*2}`. Everything outside it -- the model's parameters, protocols, driver results,
scenario configurations and checks -- is SI. The model's SI parameters enter the kernel through
:meth:`~frictionlab.contact.rough.model.RoughContact.kernel_parameters` (each field by its ``units``,
with :func:`to_paper`), called where the kernel starts (:class:`~frictionlab.contact.rough.model.RoughContactSim`,
:func:`~frictionlab.contact.rough.model.run_static`, :func:`~frictionlab.contact.rough.sliding.run_sliding`,
the drivers' rigid surface). The drivers (:mod:`frictionlab.contact.rough.driver`) convert a protocol's SI values into the kernel's
units with :func:`to_paper` and the kernel's records into SI results with the standard names
with :func:`sliding_to_si` / :func:`hold_to_si`; a scenario that calls a paper-unit function
(a reference closed form, a direct solve) converts its SI inputs with :func:`to_paper` and the
outputs back with :func:`to_si_value`.
"""

from __future__ import annotations

import math
from typing import TYPE_CHECKING, Any

import numpy as np

if TYPE_CHECKING:
    import xarray as xr

__all__ = ["L_STAR", "T_STAR", "V_STAR", "F_STAR", "STRESS_STAR", "to_paper", "to_si_value", "paper_unit", "to_si",
           "sliding_to_si", "hold_to_si"]

#: length scale L* [m] (paper eq. 6)
L_STAR = 1e-6
#: time scale T* [s]
T_STAR = 1.0
#: velocity scale L*/T* [m/s]
V_STAR = L_STAR / T_STAR
#: force scale F* = 2 pi G L*^2 / (1 - nu) for G = 30 GPa, nu = 0.25 [N]
F_STAR = 2 * math.pi * 30e9 * 1e-12 / 0.75
#: stress scale F*/L*^2 [Pa]
STRESS_STAR = F_STAR / 1e-12

#: SI unit -> (the paper's unit, the factor from it to SI)
_SCALES = {"m": ("um", L_STAR), "m^2": ("um^2", L_STAR**2), "m/s": ("um/s", V_STAR), "s": ("s", T_STAR),
           "1/s": ("1/s", 1.0 / T_STAR), "1/m": ("1/um", 1e6), "N": ("F*", F_STAR),
           "1/N": ("1/F*", 1.0 / F_STAR), "m/N": ("um/F*", L_STAR / F_STAR), "Pa": ("F*/um^2", STRESS_STAR)}


def to_paper(value: Any, unit: str) -> Any:
    """An SI value (number, array or tuple of numbers) of unit ``unit`` (``"m"``, ``"m^2"``, ``"m/s"``,
    ``"s"``, ``"1/s"``, ``"1/m"``, ``"N"``, ``"1/N"``, ``"m/N"``, ``"Pa"``) in the paper's units."""
    if isinstance(value, tuple):
        return tuple(to_paper(x, unit) for x in value)
    return value / _SCALES[unit][1]


def paper_unit(unit: str) -> str:
    """The paper's unit of the SI unit ``unit`` (``"m/N"`` -> ``"um/F*"``); a unit :func:`to_paper` does not
    convert (``"1"``) is its own."""
    return _SCALES[unit][0] if unit in _SCALES else unit


def to_si_value(value: Any, unit: str) -> Any:
    """A value in the paper's units of the SI unit ``unit`` (as :func:`to_paper`) in SI."""
    return value * _SCALES[unit][1]


def _si_unit(unit: str) -> tuple[float, str, str]:
    """Factor, SI unit and a remark for a unit string of a kernel (paper-unit) record."""
    if unit == "um":
        return L_STAR, "m", ""
    if unit == "um^2":
        return L_STAR**2, "m^2", ""
    if unit == "um/s":
        return V_STAR, "m/s", ""
    if unit == "1/F*":
        return 1.0 / F_STAR, "1/N", ""
    if unit.startswith("F*"):
        rest = unit[2:].strip()
        return F_STAR, "N", "" if rest.startswith("(0.2513") else rest.strip("()")
    return 1.0, unit, ""


def to_si(ds: xr.Dataset, *, rename: dict[str, str] | None = None, drop: tuple[str, ...] = ()) -> xr.Dataset:
    """Every variable and coordinate of a kernel record (paper units) in SI, by its ``units``.

    ``rename`` maps old names to new ones (after conversion); ``drop`` removes variables.
    """
    import xarray as xr

    out = ds.drop_vars([v for v in drop if v in ds])
    coords, data = {}, {}
    for name in list(out.variables):
        var = out[name]
        unit = var.attrs.get("units")
        if unit is None:
            continue
        fac, si, remark = _si_unit(str(unit))
        if fac == 1.0 and si == unit:
            continue
        attrs = {**var.attrs, "units": si}
        if remark:
            attrs["description"] = remark
        new = xr.Variable(var.dims, np.asarray(var.values, dtype=float) * fac, attrs)
        (coords if name in out.coords else data)[name] = new
    # one assignment each (an xarray assignment aligns the whole dataset: per variable it cost more than a
    # small run's solves)
    if coords:
        out = out.assign_coords(coords)
    if data:
        out = out.assign(data)
    return out.rename(rename or {})


def _units_attrs(ds: xr.Dataset) -> None:
    ds.attrs.update({"L_star_m": L_STAR, "T_star_s": T_STAR, "F_star_N": F_STAR,
                     "units_note": "SI; the paper's units are L* = 1 um, T* = 1 s, F* = 0.2513 N (eq. 6)"})
    ds.attrs.pop("W", None)


def sliding_to_si(ds: xr.Dataset) -> xr.Dataset:
    """A sliding record (:func:`~frictionlab.contact.rough.sliding.run_sliding`) as an SI result with the
    standard names: ``slip`` [m], ``slip_velocity`` [m/s], ``normal_force`` [N] (compressive, > 0),
    ``friction_force`` [N] (the shear strength), ``real_contact_area`` [m^2], ``contact_area`` (the
    fraction of the patch in contact, as an extra), ``dilatation`` [m], the jumps, probes, maps and
    PDF by their units."""
    ds = ds.copy()
    ds["normal_force"] = ("time", -ds.normal_force.values, {"units": "F* (0.2513 N)"})
    out = to_si(ds, rename={"shear_force": "friction_force", "contact_area": "real_contact_area",
                            "area_fraction": "contact_area"})
    out["friction_force"].attrs["description"] = "shear strength (tau_s + alpha ln|v|) A, eqs. 13-15 (magnitude)"
    out["contact_area"].attrs["description"] = "fraction of the patch in contact"
    _units_attrs(out)
    return out


def hold_to_si(ds: xr.Dataset) -> xr.Dataset:
    """A static-hold record (:func:`~frictionlab.contact.rough.model.run_static`) as an SI result with the
    standard names (as :func:`sliding_to_si`; ``slip`` and ``slip_velocity`` zero, ``friction_force`` the
    static shear strength :math:`\\tau_S A`)."""
    W = -ds.normal_force.values
    ds = ds.assign(normal_force=("time", W, {"units": "F* (0.2513 N)"}),
                   friction_force=("time", ds.friction_coefficient.values * W, {"units": "F* (0.2513 N)"}))
    out = to_si(ds, rename={"contact_area": "real_contact_area", "area_fraction": "contact_area"})
    n = out.sizes["time"]
    out = out.assign(slip=("time", np.zeros(n), {"units": "m"}), slip_velocity=("time", np.zeros(n), {"units": "m/s"}))
    out["friction_force"].attrs["description"] = "static shear strength tau_s A, eqs. 13-15"
    out["contact_area"].attrs["description"] = "fraction of the patch in contact"
    _units_attrs(out)
    return out
