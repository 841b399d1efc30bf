"""A result Dataset as bytes and back, exactly, without pickle: what a sweep store keeps per point.

A point is one *blob*: a 4-byte little-endian header length, a UTF-8 JSON header (global
attributes; per variable its name, role (coordinate or data), dimensions, dtype, shape, attributes
and where its bytes start) and the raw bytes of every array in that order. Numbers, booleans,
fixed-width text and datetimes are copied byte for byte (the loaded arrays are bit-identical to the
run's); an object array must hold strings, which travel as a JSON list. Attributes are made
NetCDF-like first (:func:`frictionlab.core.result.sanitize_attrs`: booleans and other objects become
text, lists and arrays of numbers float arrays), as the former per-point NetCDF files stored them.

``traces`` chooses what of a run is kept (:data:`TRACES`): ``"full"`` every sample, ``"reduced"``
at most :data:`REDUCED_SAMPLES` samples of every variable along ``time`` (evenly spaced indices,
first and last included; other variables whole), ``"none"`` nothing (the point's metrics only).
"""

from __future__ import annotations

import json
import struct
from typing import TYPE_CHECKING, Any

import numpy as np

from ..core.errors import DataError
from ..core.result import sanitize_attrs

if TYPE_CHECKING:
    import xarray as xr

__all__ = ["encode", "decode", "reduce_traces", "TRACES", "REDUCED_SAMPLES"]

#: what a store keeps of each run besides its metrics
TRACES = ("full", "reduced", "none")
#: samples along ``time`` that ``traces="reduced"`` keeps (at most)
REDUCED_SAMPLES = 256


def _attr_json(attrs: dict[str, Any]) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for k, v in sanitize_attrs(attrs).items():
        if isinstance(v, np.ndarray):
            out[str(k)] = {"__array__": v.dtype.str, "data": v.tolist()}
        elif isinstance(v, np.generic):
            out[str(k)] = v.item()
        else:
            out[str(k)] = v
    return out


def _attr_value(v: Any) -> Any:
    if isinstance(v, dict) and "__array__" in v:
        return np.asarray(v["data"], dtype=np.dtype(v["__array__"]))
    return v


def reduce_traces(ds: xr.Dataset, traces: str) -> xr.Dataset | None:
    """What ``traces`` keeps of ``ds``: the Dataset itself, its time series thinned, or None."""
    if traces == "full":
        return ds
    if traces == "none":
        return None
    if traces != "reduced":
        raise ValueError(f"traces must be one of {TRACES}, got {traces!r}")
    n = ds.sizes.get("time", 0)
    if n <= REDUCED_SAMPLES:
        return ds
    idx = np.unique(np.round(np.linspace(0, n - 1, REDUCED_SAMPLES)).astype(np.int64))
    return ds.isel(time=idx)


def encode(ds: xr.Dataset) -> bytes:
    """The blob of ``ds`` (see the module notes).

    Raises
    ------
    TypeError
        a variable holds Python objects other than strings.
    """
    header: dict[str, Any] = {"attrs": _attr_json(dict(ds.attrs)), "vars": []}
    chunks: list[bytes] = []
    offset = 0
    for role, names in (("coord", list(ds.coords)), ("data", list(ds.data_vars))):
        for name in names:
            var = ds.variables[name]
            arr = np.asarray(var.values)
            entry: dict[str, Any] = {"name": str(name), "role": role, "dims": [str(d) for d in var.dims],
                                     "shape": list(arr.shape), "attrs": _attr_json(dict(var.attrs))}
            if arr.dtype.kind == "O":
                flat = arr.ravel().tolist()
                if not all(isinstance(x, str) for x in flat):
                    raise TypeError(f"variable {name!r} holds Python objects; a sweep store keeps numbers and text")
                entry.update(dtype="json-str", values=flat)
            else:
                data = np.ascontiguousarray(arr).tobytes()
                entry.update(dtype=arr.dtype.str, offset=offset, nbytes=len(data))
                chunks.append(data)
                offset += len(data)
            header["vars"].append(entry)
    head = json.dumps(header, allow_nan=True, separators=(",", ":")).encode()
    return struct.pack("<I", len(head)) + head + b"".join(chunks)


def decode(blob: bytes | memoryview) -> xr.Dataset:
    """The Dataset of a blob written by :func:`encode` (arrays copied out of ``blob``).

    Raises
    ------
    DataError
        the blob is not one (a damaged store: its checksum should have said so first).
    """
    import xarray as xr

    try:
        (n,) = struct.unpack_from("<I", blob, 0)
        header = json.loads(bytes(blob[4:4 + n]))
        base = 4 + n
        coords: dict[str, Any] = {}
        data: dict[str, Any] = {}
        for e in header["vars"]:
            if e["dtype"] == "json-str":
                arr = np.array(e["values"], dtype=object).reshape(e["shape"])
            else:
                start = base + int(e["offset"])
                raw = bytes(blob[start:start + int(e["nbytes"])])
                arr = np.frombuffer(raw, dtype=np.dtype(e["dtype"])).reshape(e["shape"]).copy()
            attrs = {k: _attr_value(v) for k, v in e["attrs"].items()}
            (coords if e["role"] == "coord" else data)[e["name"]] = xr.Variable(e["dims"], arr, attrs)
        attrs = {k: _attr_value(v) for k, v in header["attrs"].items()}
        return xr.Dataset(data, coords=coords, attrs=attrs)
    except (struct.error, ValueError, KeyError, TypeError, AttributeError, UnicodeDecodeError, RecursionError) as exc:
        raise DataError(f"not a stored sweep point ({type(exc).__name__}: {str(exc)[:200]})") from None
