"""One stored partial result: a NetCDF-4 file holding a typed tree of plain values, numpy arrays and
xarray Datasets, with the SHA-256 of its content, verified on read.

A scenario's independent run (:mod:`frictionlab.scenarios.checkpoint`) returns numbers, strings,
tuples/lists/dicts of them, numpy arrays and :class:`xarray.Dataset` s (rough-contact Fig. 8: a tuple of
two arrays; Figs. 13, 14: a Dataset). :func:`write` stores such a value without pickle, so that reading
a file runs no code whoever wrote it:

- the structure is a JSON *tree* (the UTF-8 bytes of variable ``tree``): every node names its type
  (``none``, ``bool``, ``int``, ``float`` as the hex of its 8 IEEE bytes, ``str``, ``bytes``, ``list``,
  ``tuple``, ``dict`` as key/value pairs, ``scalar`` for a numpy number, ``array``, ``dataset``);
- each non-empty array is a NetCDF variable ``a<i>`` with its own dimensions ``a<i>_<axis>``, in its
  own dtype when NetCDF-4 has it (signed/unsigned integers, float32/64 in native byte order), else as
  its raw bytes (``uint8``) with the dtype string in the tree (bool, complex, text, times); no object
  arrays;
- a Dataset is its variables in order (name, coordinate or not, dims, data, attrs, encoding) and its
  attrs; it reads back as the same Dataset (same variables in the same order, dtypes, values bit for
  bit, attributes and encodings).

Two checksums, both verified by :func:`read`, which raises :class:`RecordError` when either fails or the
file cannot be decoded (the caller then runs the task again):

- the file's first 512 bytes are an HDF5 *user block* (which HDF5 and netCDF readers skip) holding the
  format's name and the SHA-256 of every byte after it. It is checked before any byte reaches the HDF5
  library, and the library then parses the bytes that were checked (not the file again): a flipped bit
  in HDF5 metadata can make the library loop forever (a fuzzer found one that did not return in 5 min),
  so damaged metadata must never be parsed;
- the file's attribute ``sha256`` is the hash of the record's key and the canonical, type-tagged
  encoding of the value (:func:`feed`, also what keys a run), compared with the hash of what was
  decoded (an edited value, a file renamed to another run's key, a decoder that is not exact).

The checksums detect damage, not a forger who rewrites them (the partial directory's owner is checked
for that, :func:`frictionlab.scenarios.checkpoint.partial_results`).
"""

from __future__ import annotations

import hashlib
import io
import json
import re
import struct
from pathlib import Path
from typing import Any

__all__ = ["FORMAT", "RecordError", "write", "read", "content_hash", "feed"]

#: the ``frictionlab_partial`` attribute of a record file: the format's name and version
FORMAT = "frictionlab-partial-2"
#: bytes of the user block before the HDF5 data: the format's name and the SHA-256 of the rest of the file
_BLOCK = 512
_HEADER = re.compile(rb"(frictionlab-partial-2)\nsha256 ([0-9a-f]{64})\n\0*")
#: dtypes stored natively (NetCDF-4 types in native byte order); anything else goes as raw bytes
_NATIVE = {"i1", "i2", "i4", "i8", "u1", "u2", "u4", "u8", "f4", "f8"}
#: dtype kinds a record holds (no objects, no structured records)
_KINDS = "biufcSUMm"


class RecordError(Exception):
    """A record file that cannot be decoded or whose content does not match its checksum."""


# ------------------------------------------------------------------------------- canonical hash
def feed(obj: Any, h: Any) -> None:
    """Feed a canonical, type-tagged encoding of ``obj`` to the hash ``h``; TypeError for a type it
    cannot encode exactly (so an unknown value never shares a hash with another one).

    Covers None, bool, int, float (every bit: -0.0 and each NaN payload differ), str, bytes, lists,
    tuples, dicts (in insertion order), numpy numbers and arrays of kinds ``biufcSUMm``, and
    :class:`xarray.Dataset` (variables in order with their coordinate flag, dims, attrs, encoding
    and data; then the attrs)."""
    import numpy as np

    if obj is None or isinstance(obj, bool):
        h.update(f"<{obj!r}>".encode())
    elif isinstance(obj, int):
        h.update(f"i{obj};".encode())
    elif isinstance(obj, float):
        h.update(b"f" + struct.pack("<d", obj))
    elif isinstance(obj, str):
        b = obj.encode("utf-8", "surrogatepass")
        h.update(f"s{len(b)}:".encode() + b)
    elif isinstance(obj, bytes):
        h.update(f"b{len(obj)}:".encode() + obj)
    elif isinstance(obj, (list, tuple)):
        h.update(f"{'l' if isinstance(obj, list) else 't'}{len(obj)}[".encode())
        for x in obj:
            feed(x, h)
        h.update(b"]")
    elif isinstance(obj, dict):  # insertion order kept: a run may iterate its tables in order
        h.update(f"d{len(obj)}{{".encode())
        for k, v in obj.items():
            feed(k, h)
            feed(v, h)
        h.update(b"}")
    elif isinstance(obj, (np.ndarray, np.generic)) and obj.dtype.kind in _KINDS:
        a = np.ascontiguousarray(obj)
        h.update(f"{'a' if isinstance(obj, np.ndarray) else 'n'}{a.dtype.str}{a.shape}:".encode() + a.tobytes())
    elif _is_dataset(obj):
        ds = _plain_dataset(obj)
        h.update(f"X{len(ds.variables)}(".encode())
        for name, var in ds.variables.items():
            feed(name, h)
            feed(name in ds.coords, h)
            feed(tuple(var.dims), h)
            feed(dict(var.attrs), h)
            feed(dict(var.encoding), h)
            feed(var.values, h)
        feed(dict(ds.attrs), h)
        h.update(b")")
    else:
        raise TypeError(f"cannot encode a value of type {type(obj).__name__} exactly")


def content_hash(key: str, obj: Any) -> str:
    """SHA-256 (hex) of the record of ``obj`` under ``key``."""
    h = hashlib.sha256(FORMAT.encode() + b"\0")
    feed(key, h)
    feed(obj, h)
    return h.hexdigest()


def _is_dataset(obj: Any) -> bool:
    import sys

    xr = sys.modules.get("xarray")
    return xr is not None and isinstance(obj, xr.Dataset)


def _plain_dataset(obj: Any) -> Any:
    """The :class:`xarray.Dataset` itself (a ``LazyDataset`` builds it)."""
    to_dataset = getattr(type(obj), "to_dataset", None)  # LazyDataset's own method, not xarray's
    if to_dataset is not None and type(obj).__name__ == "LazyDataset":
        return obj.to_dataset()
    return obj


# ------------------------------------------------------------------------------------ encoding
class _Writer:
    """Collects the arrays of a tree as NetCDF variables while :meth:`node` encodes it."""

    def __init__(self) -> None:
        self.arrays: list[Any] = []

    def array(self, a: Any) -> dict[str, Any]:
        import numpy as np

        a = np.asarray(a)
        if a.dtype.kind not in _KINDS:
            raise TypeError(f"cannot store an array of dtype {a.dtype} exactly")
        node: dict[str, Any] = {"t": "array", "dtype": a.dtype.str, "shape": list(a.shape)}
        if a.size == 0:
            return node
        node["var"] = f"a{len(self.arrays)}"
        native = a.dtype.str[1:] in _NATIVE and a.dtype.isnative
        node["raw"] = not native
        # copy(order="C"), not ascontiguousarray, which turns a 0-d array into a 1-d one
        self.arrays.append(a.copy(order="C") if native else np.frombuffer(a.tobytes(order="C"), dtype=np.uint8))
        return node

    def node(self, obj: Any) -> dict[str, Any]:
        import numpy as np

        if obj is None:
            return {"t": "none"}
        if isinstance(obj, bool):
            return {"t": "bool", "v": obj}
        if isinstance(obj, int):
            return {"t": "int", "v": str(obj)}
        if isinstance(obj, float):
            return {"t": "float", "v": struct.pack("<d", obj).hex()}
        if isinstance(obj, str):
            obj.encode("utf-8")  # a lone surrogate is refused here, as JSON could not carry it back exactly
            return {"t": "str", "v": obj}
        if isinstance(obj, bytes):
            return {"t": "bytes", "v": obj.hex()}
        if isinstance(obj, (list, tuple)):
            return {"t": "list" if isinstance(obj, list) else "tuple", "v": [self.node(x) for x in obj]}
        if isinstance(obj, dict):
            return {"t": "dict", "v": [[self.node(k), self.node(v)] for k, v in obj.items()]}
        if isinstance(obj, np.generic) and obj.dtype.kind in _KINDS:
            return {"t": "scalar", "dtype": obj.dtype.str, "v": np.asarray(obj).tobytes().hex()}
        if isinstance(obj, np.ndarray):
            return self.array(obj)
        if _is_dataset(obj):
            ds = _plain_dataset(obj)
            return {"t": "dataset", "attrs": self.node(dict(ds.attrs)),
                    "vars": [{"name": self.node(name), "coord": name in ds.coords, "dims": [self.node(d) for d in v.dims],
                              "attrs": self.node(dict(v.attrs)), "encoding": self.node(dict(v.encoding)),
                              "data": self.array(v.values)} for name, v in ds.variables.items()]}
        raise TypeError(f"cannot store a value of type {type(obj).__name__} exactly")


def write(path: str | Path, key: str, obj: Any) -> str:
    """Write the record of ``obj`` under ``key`` to ``path`` (NetCDF-4); returns its SHA-256.

    Raises
    ------
    TypeError
        a value (or an array dtype) the format cannot store exactly; nothing is written then.
    """
    import h5netcdf
    import numpy as np

    digest = content_hash(key, obj)
    w = _Writer()
    tree = json.dumps(w.node(obj), ensure_ascii=True, separators=(",", ":")).encode("ascii")
    with h5netcdf.File(path, "w", userblock_size=_BLOCK) as f:
        f.attrs["frictionlab_partial"] = FORMAT
        f.attrs["key"] = key
        f.attrs["sha256"] = digest
        dims = {"tree_bytes": len(tree)}
        for i, a in enumerate(w.arrays):
            dims.update({f"a{i}_{ax}": n for ax, n in enumerate(a.shape)})
        f.dimensions = dims
        f.create_variable("tree", ("tree_bytes",), data=np.frombuffer(tree, dtype=np.uint8))
        for i, a in enumerate(w.arrays):
            f.create_variable(f"a{i}", tuple(f"a{i}_{ax}" for ax in range(a.ndim)), data=a)
    _seal(path)
    return digest


def _seal(path: str | Path) -> None:
    """Write the user block: the format and the SHA-256 of the bytes after it."""
    with open(path, "r+b") as fh:
        fh.seek(_BLOCK)
        h = hashlib.sha256()
        for chunk in iter(lambda: fh.read(1 << 20), b""):
            h.update(chunk)
        head = FORMAT.encode() + b"\nsha256 " + h.hexdigest().encode() + b"\n"
        fh.seek(0)
        fh.write(head.ljust(_BLOCK, b"\0"))


# ------------------------------------------------------------------------------------ decoding
class _Reader:
    def __init__(self, f: Any) -> None:
        self.f = f

    def array(self, node: dict[str, Any]) -> Any:
        import numpy as np

        dtype = np.dtype(node["dtype"])
        if dtype.kind not in _KINDS:
            raise RecordError(f"array of dtype {dtype}")
        shape = tuple(int(n) for n in node["shape"])
        if "var" not in node:
            if any(shape) and 0 not in shape:
                raise RecordError("non-empty array without data")
            return np.empty(shape, dtype=dtype)
        var = self.f.variables[node["var"]]
        data = np.asarray(var[...])
        if node.get("raw"):
            return np.frombuffer(data.tobytes(), dtype=dtype).reshape(shape).copy()
        if data.dtype != dtype or data.shape != shape:
            raise RecordError(f"variable {node['var']}: {data.dtype}{data.shape}, the tree says {dtype}{shape}")
        return data

    def node(self, n: dict[str, Any]) -> Any:
        import numpy as np

        t = n["t"]
        if t == "none":
            return None
        if t == "bool":
            return bool(n["v"])
        if t == "int":
            return int(n["v"])
        if t == "float":
            return struct.unpack("<d", bytes.fromhex(n["v"]))[0]
        if t == "str":
            return str(n["v"])
        if t == "bytes":
            return bytes.fromhex(n["v"])
        if t in ("list", "tuple"):
            items = [self.node(x) for x in n["v"]]
            return items if t == "list" else tuple(items)
        if t == "dict":
            return {self.node(k): self.node(v) for k, v in n["v"]}
        if t == "scalar":
            dtype = np.dtype(n["dtype"])
            if dtype.kind not in _KINDS:
                raise RecordError(f"scalar of dtype {dtype}")
            return np.frombuffer(bytes.fromhex(n["v"]), dtype=dtype)[0]
        if t == "array":
            return self.array(n)
        if t == "dataset":
            import xarray as xr

            variables: dict[Any, Any] = {}
            coords = []
            for v in n["vars"]:
                name = self.node(v["name"])
                variables[name] = xr.Variable(tuple(self.node(d) for d in v["dims"]), self.array(v["data"]),
                                              attrs=self.node(v["attrs"]), encoding=self.node(v["encoding"]))
                if v["coord"]:
                    coords.append(name)
            ds = xr.Dataset(variables, attrs=self.node(n["attrs"]))
            return ds.set_coords([c for c in coords if c not in ds.coords])
        raise RecordError(f"unknown node type {t!r}")


def read(path: str | Path, key: str) -> Any:
    """The value stored in ``path`` under ``key``, after checking its SHA-256.

    Raises
    ------
    RecordError
        the file is not a record of this format, not the record of ``key``, cannot be decoded, or its
        content does not match its checksum.
    FileNotFoundError
        there is no such file.
    """
    import h5netcdf

    data = Path(path).read_bytes()
    head = _HEADER.fullmatch(data[:_BLOCK])
    if head is None:
        raise RecordError(f"cannot be decoded (not a {FORMAT} record)")
    found = hashlib.sha256(memoryview(data)[_BLOCK:]).hexdigest()
    if found != head.group(2).decode():
        raise RecordError(f"its file does not match its checksum (sha256 {found[:12]}... read, "
                          f"{head.group(2)[:12].decode()}... stored)")
    try:
        with h5netcdf.File(io.BytesIO(data), "r") as f:  # the bytes checked, not the file again
            if f.attrs.get("frictionlab_partial") != FORMAT:
                raise RecordError(f"not a {FORMAT} file")
            if f.attrs.get("key") != key:
                raise RecordError("the record of another run")
            stored = str(f.attrs.get("sha256", ""))
            tree = json.loads(bytes(f.variables["tree"][...]).decode("ascii"))
            obj = _Reader(f).node(tree)
    except (RecordError, FileNotFoundError):
        raise
    except Exception as exc:  # noqa: BLE001 - HDF5, JSON, a missing variable, a bad dtype: undecodable
        raise RecordError(f"cannot be decoded ({type(exc).__name__}: {str(exc)[:200]})") from None
    try:
        digest = content_hash(key, obj)
    except TypeError as exc:
        raise RecordError(f"cannot be decoded ({exc})") from None
    if digest != stored:
        raise RecordError(f"its content does not match its checksum (sha256 {digest[:12]}... read, "
                          f"{stored[:12]}... stored)")
    return obj
