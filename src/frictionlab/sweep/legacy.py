"""The former store layout (``frictionlab-sweep-1``): one NetCDF file per point, read and migrated.

A store written before the segment files (:mod:`.segments`) kept each finished point in
``STORE/points/<key>.nc``, its record in the file's ``sweep_record`` attribute. Such a store is
still gathered and its points loaded as they are; resuming it migrates it once: every finished
point's file is checked (:func:`check_point_file`), its result copied into a segment, the file
removed, and the index rewritten in the new format (a broken file's point runs again).
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from ..core.errors import DataError
from ..core.result import read_netcdf

__all__ = ["check_point_file", "legacy_path", "read_legacy"]

POINTS = "points"


def legacy_path(store: str | Path, key: str) -> Path:
    """Where the former layout kept point ``key``."""
    return Path(store) / POINTS / f"{key}.nc"


def read_legacy(path: Path):
    """The Dataset of a former point file, without the store's own attributes.

    Raises
    ------
    DataError
        the file cannot be read (any failure of the NetCDF/HDF5 stack is reported as this).
    """
    try:
        ds = read_netcdf(path)
    except DataError:
        raise
    except Exception as exc:  # noqa: BLE001 - a damaged HDF5 file fails in many ways (KeyError, ...)
        raise DataError(f"cannot read {path} ({type(exc).__name__}: {exc})") from None
    for k in ("sweep_record", "sweep_scenario", "sweep_variables"):
        ds.attrs.pop(k, None)
    return ds


def check_point_file(path: Path, rec: dict[str, Any] | None = None) -> str:
    """Why the point file ``path`` is not usable ("" when it is): unreadable, no record, or variables missing.

    ``rec``, when given, is the index record the file must match (same parameters).
    """
    try:
        ds = read_netcdf(path)
    except Exception as exc:  # noqa: BLE001 - DataError, or a damaged HDF5 header's KeyError, ...
        return f"unreadable ({str(exc).splitlines()[0][:120] if str(exc) else type(exc).__name__})"
    raw = ds.attrs.get("sweep_record")
    try:
        own = json.loads(raw) if isinstance(raw, str) else None
    except json.JSONDecodeError:
        own = None
    if not isinstance(own, dict):
        return "no sweep record in its attributes"
    if rec is not None and rec.get("params") is not None and own.get("params") != rec.get("params"):
        return "its record is of another point"
    expected = [v for v in str(ds.attrs.get("sweep_variables", "")).split(",") if v]
    missing = [v for v in expected if v not in ds.data_vars]
    if missing or not ds.data_vars:
        return f"variables missing: {', '.join(missing) or 'all'}"
    return ""
