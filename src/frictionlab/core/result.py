"""Results as labelled data: standard variable names, units, writers (ARCHITECTURE 5)."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from .errors import DataError

if TYPE_CHECKING:
    import xarray as xr

__all__ = ["STANDARD_UNITS", "CSV_MAX_ROWS", "make_dataset", "LazyDataset", "LazyVariable", "add_attrs", "default_attrs",
           "variable_names", "write_netcdf", "write_csv", "csv_note", "read_netcdf"]

#: standard variable names and their units
STANDARD_UNITS: dict[str, str] = {
    "time": "s",
    "slip": "m",
    "slip_velocity": "m/s",
    "normal_force": "N",
    "friction_force": "N",
    "normal_stress": "Pa",
    "shear_stress": "Pa",
    "friction_coefficient": "1",
    "driver_position": "m",
    "spring_force": "N",
    "contact_area": "m^2",
    "approach": "m",
    "pressure": "Pa",
    "dilatation": "m",
    "applied_force": "N",
}


def make_dataset(
    time: np.ndarray,
    data: Mapping[str, np.ndarray],
    *,
    units: Mapping[str, str] | None = None,
    attrs: Mapping[str, Any] | None = None,
) -> xr.Dataset:
    """Build a Dataset over ``time`` with a ``units`` attribute on every variable.

    Units come from ``units`` first, then :data:`STANDARD_UNITS`; a variable with neither
    gets ``"1"`` only if it is listed in ``units`` -- otherwise a ``KeyError`` names it, so
    that no variable is ever written without units.
    """
    import xarray as xr

    from .dask_probe import defer_dask_probe
    from .provenance import CF_STANDARD_NAMES, long_name

    defer_dask_probe()  # wrapping numpy arrays imports no dask.array (about 0.3 s)

    units = dict(units or {})
    ds = xr.Dataset(coords={"time": ("time", np.asarray(time, dtype=float),
                                     {"units": "s", "long_name": "time", "standard_name": CF_STANDARD_NAMES["time"]})})
    for name, values in data.items():
        u = units.get(name, STANDARD_UNITS.get(name))
        if u is None:
            raise KeyError(f"no units known for result variable {name!r}")
        ds[name] = ("time", np.asarray(values, dtype=float), {"units": u, "long_name": long_name(name)})
    ds.attrs.update(sanitize_attrs(attrs or {}))
    return ds


class LazyDataset:
    """A result that becomes the :class:`xarray.Dataset` of :func:`make_dataset` on first use.

    A driver whose run needs neither xarray nor pandas (the rate-and-state ``quasi_static``
    driver) returns one, so that a fresh process running one simulation does not import them
    (about a second of start-up) unless the result is used as a Dataset. It keeps the
    numpy arrays; reading one variable (``ds.slip``, ``ds["slip"]``, ``ds.time``) gives a
    :class:`LazyVariable`, whose ``.values`` is the driver's array (no xarray) and which is the
    DataArray for anything else; any other attribute, item, ``len``, ``in``, iteration, ``repr``, copy or pickle
    builds the Dataset (once) and forwards to it, so ``ds.slip_velocity``, ``ds["slip"]``,
    ``ds.attrs``, ``ds.sel(...)``, ``write_netcdf(ds, ...)`` behave exactly as on the Dataset and
    ``isinstance(ds, xarray.Dataset)`` is true. :meth:`to_dataset` returns the Dataset itself
    (for code that needs ``type(ds) is xarray.Dataset``, e.g. ``xarray.testing``); a pickle or
    copy is a plain Dataset. Units are checked when it is made, as by :func:`make_dataset`.
    """

    __slots__ = ("_parts", "_ds")
    __hash__ = None  # type: ignore[assignment]  # as a Dataset: unhashable

    def __init__(self, time: np.ndarray, data: Mapping[str, np.ndarray], *, units: Mapping[str, str] | None = None,
                 attrs: Mapping[str, Any] | None = None) -> None:
        units = dict(units or {})
        for name in data:
            if units.get(name, STANDARD_UNITS.get(name)) is None:
                raise KeyError(f"no units known for result variable {name!r}")
        object.__setattr__(self, "_parts", (time, dict(data), units, dict(attrs or {})))
        object.__setattr__(self, "_ds", None)

    def to_dataset(self) -> xr.Dataset:
        """The :class:`xarray.Dataset` (built at the first call, then the same object)."""
        ds = object.__getattribute__(self, "_ds")
        if ds is None:
            time, data, units, attrs = object.__getattribute__(self, "_parts")
            ds = make_dataset(time, data, units=units, attrs=attrs)
            object.__setattr__(self, "_ds", ds)
            object.__setattr__(self, "_parts", None)
        return ds

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # isinstance(ds, xarray.Dataset) holds, as for the Dataset it stands for
        return type(self.to_dataset())

    def _variable(self, name: Any) -> LazyVariable | None:
        """The :class:`LazyVariable` ``name`` while the Dataset is not built (else None)."""
        parts = object.__getattribute__(self, "_parts")
        if parts is None or not isinstance(name, str):
            return None
        values = parts[0] if name == "time" else parts[1].get(name)
        return None if values is None else LazyVariable(self, name, values)

    def __getattr__(self, name: str) -> Any:
        if name in ("_parts", "_ds"):
            raise AttributeError(name)
        var = self._variable(name)
        return getattr(self.to_dataset(), name) if var is None else var

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.to_dataset(), name, value)

    def __dir__(self) -> list[str]:
        return dir(self.to_dataset())

    def __getitem__(self, key: Any) -> Any:
        var = self._variable(key)
        return self.to_dataset()[key] if var is None else var

    def __setitem__(self, key: Any, value: Any) -> None:
        self.to_dataset()[key] = value

    def __delitem__(self, key: Any) -> None:
        del self.to_dataset()[key]

    def __contains__(self, key: Any) -> bool:
        return key in self.to_dataset()

    def __iter__(self) -> Any:
        return iter(self.to_dataset())

    def __len__(self) -> int:
        return len(self.to_dataset())

    def __bool__(self) -> bool:
        return bool(self.to_dataset())

    def __eq__(self, other: Any) -> Any:  # type: ignore[override]
        return self.to_dataset() == (other.to_dataset() if type(other) is LazyDataset else other)

    def __ne__(self, other: Any) -> Any:  # type: ignore[override]
        return self.to_dataset() != (other.to_dataset() if type(other) is LazyDataset else other)

    def __repr__(self) -> str:
        return repr(self.to_dataset())

    def __str__(self) -> str:
        return str(self.to_dataset())

    def __copy__(self) -> xr.Dataset:
        return self.to_dataset().copy(deep=False)

    def __deepcopy__(self, memo: dict[int, Any] | None = None) -> xr.Dataset:
        return self.to_dataset().copy(deep=True)

    def __reduce__(self) -> Any:  # a pickle holds (and loads as) the Dataset
        return _same, (self.to_dataset(),)


def _same(obj: Any) -> Any:
    return obj


def _real(x: Any) -> Any:
    return x.to_dataarray() if type(x) is LazyVariable else x


class LazyVariable:
    """A variable of a :class:`LazyDataset` read before the Dataset is built (``ds.friction_coefficient``,
    ``ds["slip"]``, ``ds.time``), or a positional selection of one (``ds.friction_force[-1]``,
    ``ds.slip[10:20]``).

    ``.values``, ``.data``, ``.to_numpy()``, ``.item()``, ``numpy.asarray(...)``, ``float``/``int``/``complex``/
    ``bool``, a format with a spec (``f"{ds.friction_force[-1]:.3f}"``), ``.shape``, ``.dtype``, ``.size``,
    ``.ndim``, ``.name`` and ``len`` are answered from the driver's array without building the Dataset (a
    fresh process that reads one result column or value imports no xarray), with the DataArray's
    semantics (an integer index selects a 0-d array, a slice a view); everything else (``.attrs``,
    ``.sel``, arithmetic, any other indexing, numpy ufuncs, ``repr``, ``isinstance(v, xarray.DataArray)``,
    pickling) is the :class:`xarray.DataArray` ``ds.to_dataset()[name][key]``, built then, as if it had
    been returned.
    """

    __slots__ = ("_owner", "_name", "_values", "_key")
    __hash__ = None  # type: ignore[assignment]  # as a DataArray: unhashable
    __array_priority__ = 60  # above numpy's, so that ndarray op variable defers to the variable

    def __init__(self, owner: LazyDataset, name: str, values: np.ndarray, key: Any = None) -> None:
        object.__setattr__(self, "_owner", owner)
        object.__setattr__(self, "_name", name)
        object.__setattr__(self, "_values", values)
        object.__setattr__(self, "_key", key)

    def to_dataarray(self) -> Any:
        """The :class:`xarray.DataArray` this stands for (builds the Dataset)."""
        da = object.__getattribute__(self, "_owner").to_dataset()[object.__getattribute__(self, "_name")]
        key = object.__getattribute__(self, "_key")
        return da if key is None else da[key]

    def _array(self) -> np.ndarray:
        owner = object.__getattribute__(self, "_owner")
        if object.__getattribute__(owner, "_ds") is not None:  # built since: the Dataset's variable, as it is now
            return self.to_dataarray().values
        return _select(np.asarray(object.__getattribute__(self, "_values"), dtype=float),
                       object.__getattribute__(self, "_key"))

    def __getitem__(self, key: Any) -> Any:
        if object.__getattribute__(self, "_key") is None and _positional(key):
            values = object.__getattribute__(self, "_values")
            _select(np.asarray(values), key)  # an index out of range raises here, as the DataArray's would
            return LazyVariable(object.__getattribute__(self, "_owner"), object.__getattribute__(self, "_name"),
                                values, key)
        return self.to_dataarray()[_real(key)]

    @property
    def values(self) -> np.ndarray:
        return self._array()

    @property
    def data(self) -> np.ndarray:
        return self._array()

    def to_numpy(self) -> np.ndarray:
        return self._array()

    def item(self, *args: Any) -> Any:
        return self._array().item(*args)

    @property
    def name(self) -> str:
        return object.__getattribute__(self, "_name")

    @property
    def shape(self) -> tuple[int, ...]:
        return self._array().shape

    @property
    def dtype(self) -> Any:
        return self._array().dtype

    @property
    def size(self) -> int:
        return self._array().size

    @property
    def ndim(self) -> int:
        return self._array().ndim

    def __format__(self, format_spec: str) -> str:
        a = self._array()
        if format_spec and a.shape == ():
            return a.__format__(format_spec)
        return self.to_dataarray().__format__(format_spec)  # its repr, or its error for a spec on an array

    def __array__(self, dtype: Any = None, copy: bool | None = None) -> np.ndarray:
        a = self._array()
        a = a if dtype is None else a.astype(dtype, copy=False)
        return a.copy() if copy else a

    @property  # type: ignore[misc]
    def __class__(self) -> type:  # isinstance(v, xarray.DataArray) holds, as for the DataArray it stands for
        return type(self.to_dataarray())

    def __getattr__(self, name: str) -> Any:
        if name in LazyVariable.__slots__ or name in ("__array_interface__", "__array_struct__"):
            raise AttributeError(name)  # numpy probes these; the DataArray has neither
        return getattr(self.to_dataarray(), name)

    def __setattr__(self, name: str, value: Any) -> None:
        setattr(self.to_dataarray(), name, value)

    def __dir__(self) -> list[str]:
        return dir(self.to_dataarray())

    def __array_ufunc__(self, ufunc: Any, method: str, *inputs: Any, **kwargs: Any) -> Any:
        inputs = tuple(_real(x) for x in inputs)
        if "out" in kwargs:
            kwargs["out"] = tuple(_real(x) for x in kwargs["out"])
        return getattr(ufunc, method)(*inputs, **kwargs)

    def __reduce__(self) -> Any:  # a pickle holds (and loads as) the DataArray
        return _same, (self.to_dataarray(),)


def _positional(key: Any) -> bool:
    """An integer or a slice of integers: the selections answered without the Dataset (as ``da[key]``,
    positional along the one dimension ``time``)."""
    def integer(x: Any) -> bool:
        return isinstance(x, (int, np.integer)) and not isinstance(x, (bool, np.bool_))

    if isinstance(key, slice):
        return all(p is None or integer(p) for p in (key.start, key.stop, key.step))
    return integer(key)


def _select(a: np.ndarray, key: Any) -> np.ndarray:
    """``a[key]`` as the DataArray gives its values: a 0-d array (not a numpy scalar) for an integer."""
    return a if key is None else a[key, ...]


def _forward(op: str) -> Any:
    def method(self: LazyVariable, *args: Any, **kwargs: Any) -> Any:
        return getattr(self.to_dataarray(), op)(*(_real(a) for a in args), **kwargs)

    method.__name__ = op
    return method


def _on_array(convert: Any) -> Any:
    def method(self: LazyVariable) -> Any:
        return convert(self._array())  # as the DataArray's: the conversion of its values

    method.__name__ = f"__{convert.__name__}__"
    return method


# answered from the driver's array (len, float(ds.friction_force[-1]), ...): no Dataset built
for _convert in (len, float, int, complex, bool):
    setattr(LazyVariable, f"__{_convert.__name__}__", _on_array(_convert))

# the DataArray's other special methods (looked up on the type, so __getattr__ does not see them)
for _op in ("setitem delitem iter contains index round repr str "
            "eq ne lt le gt ge add radd sub rsub mul rmul truediv rtruediv floordiv rfloordiv mod rmod pow rpow "
            "matmul rmatmul and rand or ror xor rxor lshift rlshift rshift rrshift neg pos abs invert "
            "iadd isub imul itruediv ifloordiv imod ipow iand ior ixor copy deepcopy").split():
    setattr(LazyVariable, f"__{_op}__", _forward(f"__{_op}__"))


def add_attrs(ds: Any, attrs: Mapping[str, Any]) -> Any:
    """Add ``attrs`` to a result's ``attrs`` (a :class:`LazyDataset` stays unbuilt); returns ``ds``."""
    if type(ds) is LazyDataset and object.__getattribute__(ds, "_ds") is None:
        object.__getattribute__(ds, "_parts")[3].update(attrs)
    else:
        ds.attrs.update(attrs)
    return ds


def default_attrs(ds: Any, attrs: Mapping[str, Any]) -> Any:
    """Add those of ``attrs`` (NetCDF-safe, :func:`sanitize_attrs`) that ``ds`` lacks; a
    :class:`LazyDataset` stays unbuilt. Returns ``ds``."""
    if type(ds) is LazyDataset and object.__getattribute__(ds, "_ds") is None:
        have = object.__getattribute__(ds, "_parts")[3]
    else:
        have = ds.attrs
    return add_attrs(ds, sanitize_attrs({k: v for k, v in attrs.items() if k not in have}))


def variable_names(ds: Any) -> set[str]:
    """Names of a result's data variables (a :class:`LazyDataset` stays unbuilt)."""
    if type(ds) is LazyDataset and object.__getattribute__(ds, "_ds") is None:
        return set(object.__getattribute__(ds, "_parts")[1])
    return {str(k) for k in ds.data_vars}


def sanitize_attrs(attrs: Mapping[str, Any]) -> dict[str, Any]:
    """Attributes NetCDF can store: numbers, strings and 1-D numeric arrays."""
    out: dict[str, Any] = {}
    for k, v in attrs.items():
        if isinstance(v, bool) or v is None:
            out[k] = str(v)
        elif isinstance(v, (int, float, str, np.integer, np.floating)):
            out[k] = v
        elif isinstance(v, (list, tuple, np.ndarray)):
            arr = np.asarray(v)
            out[k] = arr.astype(float) if arr.dtype.kind in "biuf" else ", ".join(map(str, arr.ravel()))
        else:
            out[k] = str(v)
    return out


def write_netcdf(ds: xr.Dataset, path: str | Path, *, provenance: bool = True) -> Path:
    """Write ``ds`` to NetCDF-4 (h5netcdf engine), through a temporary name and a rename.

    The file is self-describing (:mod:`frictionlab.core.provenance`): ``Conventions``, the
    software version and git revision, ``date_created`` and a ``history`` line with the command,
    and a ``long_name`` on every variable and coordinate (``units`` are the caller's).
    ``provenance=False`` writes ``ds`` as it is: a store's internal records, read back into
    results that must not differ by when each record was written (a sweep's points)."""
    from .provenance import creation_attrs, describe_variables, software_attrs

    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    ds = ds.copy()
    attrs = dict(ds.attrs)
    if provenance:
        describe_variables(ds)
        attrs = {**software_attrs(), **attrs, **creation_attrs(attrs.get("history"))}
    ds.attrs = sanitize_attrs(attrs)
    for v in ds.variables.values():
        v.attrs = sanitize_attrs(v.attrs)
    from .files import atomic_target

    with atomic_target(path) as tmp:
        ds.to_netcdf(tmp, engine="h5netcdf")
    return path


def read_netcdf(path: str | Path) -> xr.Dataset:
    import xarray as xr

    try:
        with xr.open_dataset(path, engine="h5netcdf") as ds:
            return ds.load()
    except (OSError, ValueError) as exc:
        raise DataError(f"cannot read NetCDF file {path}: {exc}") from None


#: rows of the CSV ``frictionlab run`` writes by default (the NetCDF file holds every sample)
CSV_MAX_ROWS = 10_000


def write_csv(ds: xr.Dataset, path: str | Path, *, max_rows: int | None = None) -> Path:
    """Write the data variables as CSV, one column per variable, units in the header.

    With ``max_rows``, a longer series is decimated to one time sample in every k (the last sample
    kept), k a stride that keeps the table within ``max_rows`` rows, and a first line
    ``# frictionlab: decimated ...`` says so (read with ``pandas.read_csv(path, comment="#")``;
    ``numpy.loadtxt`` skips it by default). Without ``max_rows`` (or when the table is short
    enough) every sample is written and there is no comment line.

    Written through a temporary name and a rename: an interrupted write leaves no CSV that
    parses as complete."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    # time series only: variables whose dims lie within those of the time-dependent variables
    # (maps / histograms over other dims would blow the table up to their cartesian product)
    timed = [v for v in ds.data_vars if "time" in ds[v].dims]
    if timed:
        keep_dims = set().union(*(ds[v].dims for v in timed))
        ds = ds[[v for v in ds.data_vars if set(ds[v].dims) <= keep_dims]]
        ds = ds.drop_vars([c for c in ds.coords if not set(ds[c].dims) <= keep_dims])
    note = ""
    if max_rows is not None and "time" in ds.dims:
        n_time = ds.sizes["time"]
        per_time = max(1, int(np.prod([n for d, n in ds.sizes.items() if d != "time"])))
        if n_time * per_time > max_rows:
            stride = int(np.ceil(n_time * per_time / max(max_rows - 2 * per_time, per_time)))
            idx = np.unique(np.r_[np.arange(0, n_time, stride), n_time - 1])
            ds = ds.isel(time=idx)
            note = (f"# frictionlab: decimated: one time sample in every {stride} of {n_time} (and the last), "
                    f"{idx.size * per_time} rows of at most {max_rows}; the .nc file beside it holds every "
                    "sample (frictionlab run --csv full writes them all here)\n")
    from .files import atomic_target

    df = ds.to_dataframe()
    df.columns = [f"{c} [{ds[c].attrs.get('units', '')}]" for c in df.columns]
    df.index.names = [f"{n} [{ds[n].attrs.get('units', '')}]" if n in ds.coords else n for n in df.index.names]
    with atomic_target(path) as tmp:
        if note:
            with open(tmp, "w", encoding="utf-8", newline="") as fh:
                fh.write(note)
                df.to_csv(fh)
        else:
            df.to_csv(tmp)
    return path


def csv_note(path: str | Path) -> str:
    """How the CSV that :func:`write_csv` wrote at ``path`` holds its series: ``decimated: one time
    sample in every k of n (and the last), m rows of at most M`` from its first line, else
    ``every sample``."""
    with open(path, encoding="utf-8") as fh:
        first = fh.readline()
    return "decimated: " + first.split("decimated: ", 1)[1].split(";")[0] if first.startswith("# frictionlab: decimated") \
        else "every sample"
