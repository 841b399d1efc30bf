"""Data for fitting: CSV loading with ``#`` header comments and strict validation.

Every problem with a data file is a :class:`~frictionlab.core.errors.DataError` that names
the file, the column and what is wrong (missing column, NaN, too few points, abscissae
that are not monotone).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from numpy.typing import NDArray

from ..core.errors import ConfigError, DataError, suggest
from ..protocols.recorded import RecordedInput

__all__ = ["XYData", "TimeSeries", "read_table", "load_xy", "load_timeseries", "load_coefficients",
           "RecordedInput", "check_monotone", "find_data_file", "column_unit"]


@dataclass
class XYData:
    """A static curve ``y(x)`` to fit (e.g. friction vs velocity, lift vs angle).

    Parameters
    ----------
    x, y : 1-D arrays of equal length, finite.
    x_name, y_name : column names (for plots and reports).
    source : where the data came from (file path).
    x_units, y_units : units of ``x`` and ``y`` (default ``""``: the unit the column name states,
        e.g. ``alpha_deg``, ``v [m/s]``; the fit report names the column where it states none).
    data_file : the file read, ``{"path": resolved path, "sha256": ..., "size": bytes}`` (set by the loaders).
    """

    x: NDArray[np.float64]
    y: NDArray[np.float64]
    x_name: str = "x"
    y_name: str = "y"
    source: str = ""
    x_units: str = ""
    y_units: str = ""
    data_file: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        self.x = np.asarray(self.x, dtype=float).ravel()
        self.y = np.asarray(self.y, dtype=float).ravel()
        if self.x.shape != self.y.shape:
            raise DataError(f"{self.source or 'data'}: x ({self.x.size}) and y ({self.y.size}) differ in length")
        for name, arr in ((self.x_name, self.x), (self.y_name, self.y)):
            bad = ~np.isfinite(arr)
            if bad.any():
                raise DataError(f"{self.source or 'data'}: column {name!r} has {int(bad.sum())} NaN/inf value(s), "
                                f"first at row {int(np.argmax(bad))}")


@dataclass
class TimeSeries:
    """A recorded time series: the input (slip velocity, normal load) and the measured output.

    Parameters
    ----------
    time : strictly increasing times [s].
    velocity : slip (or load-point) velocity [m/s] at ``time``.
    y : measured output (friction force [N] or coefficient [1]).
    normal_force : normal load [N] (or stress) at ``time``; default 1.
    extra : other columns (e.g. ``slip``).
    data_file : the file read, ``{"path": resolved path, "sha256": ..., "size": bytes}`` (set by the loaders).
    """

    time: NDArray[np.float64]
    velocity: NDArray[np.float64]
    y: NDArray[np.float64]
    normal_force: NDArray[np.float64] | None = None
    y_name: str = "y"
    source: str = ""
    extra: dict[str, NDArray[np.float64]] = field(default_factory=dict)
    data_file: dict[str, Any] | None = None

    def __post_init__(self) -> None:
        self.time = np.asarray(self.time, dtype=float).ravel()
        self.velocity = np.asarray(self.velocity, dtype=float).ravel()
        self.y = np.asarray(self.y, dtype=float).ravel()
        if self.normal_force is None:
            self.normal_force = np.ones_like(self.time)
        self.normal_force = np.asarray(self.normal_force, dtype=float).ravel()
        n = self.time.size
        for name, arr in (("velocity", self.velocity), (self.y_name, self.y), ("normal_force", self.normal_force)):
            if arr.size != n:
                raise DataError(f"{self.source or 'data'}: {name} has {arr.size} samples but time has {n}")
        for name, arr in (("time", self.time), ("velocity", self.velocity), (self.y_name, self.y),
                          ("normal_force", self.normal_force)):
            if not np.all(np.isfinite(arr)):
                raise DataError(f"{self.source or 'data'}: column {name!r} has NaN/inf values")
        check_monotone(self.time, "time", self.source, strictly_increasing=True)


def check_monotone(x: NDArray[np.float64], name: str, source: str = "", strictly_increasing: bool = False) -> None:
    """Raise :class:`DataError` unless ``x`` is strictly monotone (increasing if asked)."""
    d = np.diff(x)
    if strictly_increasing:
        if np.any(d <= 0):
            i = int(np.argmax(d <= 0))
            raise DataError(f"{source or 'data'}: column {name!r} must be strictly increasing but row {i + 1} "
                            f"({x[i + 1]:g}) does not exceed row {i} ({x[i]:g})")
        return
    if not (np.all(d > 0) or np.all(d < 0)):
        i = int(np.argmax(d <= 0)) if d[0] > 0 else int(np.argmax(d >= 0))
        raise DataError(f"{source or 'data'}: abscissa {name!r} is not monotone (row {i + 1}: {x[i + 1]:g} after "
                        f"{x[i]:g}); filter the data (e.g. --where) or sort it")


def read_table(path: str | Path) -> dict[str, NDArray[Any]]:
    """Read a CSV with ``#`` comment lines and one header row; numeric columns become floats.

    ``path`` is a file or the name of a packaged dataset (:func:`frictionlab.datasets.resolve`).
    The file's resolved path and the SHA-256 of the bytes parsed are recorded
    (:func:`frictionlab.core.datafiles.note_read`)."""
    return _read_table(path)[0]


def _read_table(path: str | Path) -> tuple[dict[str, NDArray[Any]], dict[str, Any]]:
    """:func:`read_table` and the record of the file read (``FileRead.as_dict()``)."""
    import csv
    import io

    from ..datasets import resolve

    from ..core.datafiles import note_read

    path = resolve(path)  # a file, else a packaged dataset name (frictionlab.datasets)
    if not path.is_file():  # also refuses a FIFO or a device, which would block or never end
        raise DataError(f"data file {str(path)!r} does not exist")
    try:  # utf-8-sig: a byte-order mark (Excel) is not part of the first column's name
        content = path.read_bytes()
        read = note_read(path, content)  # the run records which file it parsed, with the checksum of these bytes
        text = io.StringIO(content.decode("utf-8-sig"), newline="")
        rows = [r for r in csv.reader(line for line in text if line.strip() and not line.lstrip().startswith("#"))]
    except UnicodeDecodeError as exc:
        raise DataError(f"{path}: not a UTF-8 text file (byte {exc.start}); is it a CSV?") from None
    except csv.Error as exc:  # a NUL byte, a field over the csv module's size limit, ...
        raise DataError(f"{path}: malformed CSV: {exc}") from None
    except OSError as exc:
        raise DataError(f"cannot read data file {str(path)!r}: {exc.strerror or exc}") from None
    if not rows:
        raise DataError(f"{path}: no header row (only comments or empty)")
    header = [h.strip() for h in rows[0]]
    body = rows[1:]
    cols: dict[str, NDArray[Any]] = {}
    for j, name in enumerate(header):
        raw = [r[j].strip() if j < len(r) else "" for r in body]
        try:
            cols[name] = np.array([float(v) if v != "" else np.nan for v in raw], dtype=float)
        except ValueError:
            cols[name] = np.array(raw, dtype=object)
    for i, r in enumerate(body):
        if len(r) != len(header):
            raise DataError(f"{path}: row {i + 1} has {len(r)} fields but the header has {len(header)}")
    return cols, read.as_dict()


def _column(cols: Mapping[str, NDArray[Any]], name: str, path: str) -> NDArray[np.float64]:
    if name not in cols:
        raise DataError(f"{path}: no column {name!r}{suggest(name, cols)}; columns: {', '.join(cols)}")
    c = cols[name]
    if c.dtype == object:
        raise DataError(f"{path}: column {name!r} is not numeric")
    return c


def _select(cols: Mapping[str, NDArray[Any]], where: Mapping[str, Any] | None, path: str) -> NDArray[np.bool_]:
    n = len(next(iter(cols.values()))) if cols else 0
    mask = np.ones(n, dtype=bool)
    for key, val in (where or {}).items():
        if key not in cols:
            raise DataError(f"{path}: --where column {key!r} not found{suggest(key, cols)}; columns: {', '.join(cols)}")
        c = cols[key]
        if c.dtype == object:
            mask &= c == str(val)
        else:
            try:
                x = float(val)
            except (TypeError, ValueError):
                raise DataError(f"{path}: --where {key}={val}: column {key!r} is numeric and {val!r} is not a "
                                "number") from None
            mask &= np.isclose(c, x, rtol=1e-9, atol=0)
    return mask


def load_xy(path: str | Path, x: str, y: str, *, where: Mapping[str, Any] | None = None,
            xmin: float | None = None, xmax: float | None = None, x_scale: float = 1.0, y_scale: float = 1.0,
            min_points: int = 3, monotone: bool = True) -> XYData:
    """Load an ``(x, y)`` curve from a CSV.

    Parameters
    ----------
    path : CSV file (``#`` comments, one header row).
    x, y : column names.
    where : keep rows where ``column == value`` (e.g. ``{"Re": 5e6}``).
    xmin, xmax : keep ``xmin <= x <= xmax`` (in file units, before ``x_scale``).
    x_scale, y_scale : multiply the columns (unit conversion).
    min_points : fewer rows left is a :class:`DataError`.
    monotone : require strictly monotone abscissae.
    """
    path_s = str(path)
    cols, read = _read_table(path)
    xc, yc = _column(cols, x, path_s), _column(cols, y, path_s)
    mask = _select(cols, where, path_s)
    if xmin is not None:
        mask &= ~(xc < xmin)
    if xmax is not None:
        mask &= ~(xc > xmax)
    xs, ys = xc[mask], yc[mask]
    for name, arr in ((x, xs), (y, ys)):
        bad = ~np.isfinite(arr)
        if bad.any():
            raise DataError(f"{path_s}: column {name!r} has {int(bad.sum())} NaN/empty value(s) in the selected rows")
    if xs.size < min_points:
        raise DataError(f"{path_s}: only {xs.size} point(s) after selection; at least {min_points} are needed")
    if monotone:
        check_monotone(xs, x, path_s)
    # a scaled column is no longer in the unit its name states
    units = [f"{column_unit(c) or f'unit of {c}'} x {sc:g}" if sc != 1 else "" for c, sc in ((x, x_scale), (y, y_scale))]
    return XYData(xs * x_scale, ys * y_scale, x, y, path_s, *units, data_file=read)


#: units recognised at the end of a column name (``alpha_deg``, ``slip_um``, ``F_N``)
_NAME_UNITS = ("deg", "rad", "um", "mm", "m", "s", "ms", "N", "kN", "Pa", "kPa", "MPa", "GPa", "m/s", "mm/s", "um/s")


def column_unit(name: str) -> str:
    """The unit a column name states (``slip [um]``, ``v (m/s)``, ``alpha_deg``), or ``""``."""
    m = re.search(r"[\[(]\s*([^\])]+?)\s*[\])]\s*$", name)
    if m:
        return m.group(1)
    m = re.search(r"_([A-Za-z/]+)$", name)
    return m.group(1) if m and m.group(1) in _NAME_UNITS else ""


def load_timeseries(path: str | Path, time: str, y: str, *, velocity: str | None = None, slip: str | None = None,
                    normal_force: str | None = None, slip_scale: float = 1.0, y_scale: float = 1.0,
                    normal_scale: float = 1.0, tmin: float | None = None, tmax: float | None = None,
                    min_points: int = 5) -> TimeSeries:
    """Load a time series; the velocity comes from a column or from ``d(slip)/dt``.

    ``slip_scale`` converts the slip column to metres (e.g. 1e-6 for micrometres); the
    velocity is then a centred difference of the slip (noisy, used only as model input
    after the caller smooths it if needed). ``extra["slip"]`` holds the scaled slip.
    """
    path_s = str(path)
    cols, read = _read_table(path)
    t = _column(cols, time, path_s)
    yy = _column(cols, y, path_s)
    mask = np.ones(t.size, dtype=bool)
    if tmin is not None:
        mask &= t >= tmin
    if tmax is not None:
        mask &= t <= tmax
    if int(mask.sum()) < min_points:
        raise DataError(f"{path_s}: only {int(mask.sum())} sample(s) selected; at least {min_points} are needed")
    t = t[mask]
    extra: dict[str, NDArray[np.float64]] = {}
    if slip is not None:
        s = _column(cols, slip, path_s)[mask] * slip_scale
        if not np.all(np.isfinite(s)):
            raise DataError(f"{path_s}: column {slip!r} has NaN values")
        extra["slip"] = s
    if velocity is not None:
        v = _column(cols, velocity, path_s)[mask]
    elif slip is not None:
        check_monotone(t, time, path_s, strictly_increasing=True)
        v = np.gradient(extra["slip"], t)
    else:
        raise DataError(f"{path_s}: give a velocity column or a slip column to derive it from")
    fn = _column(cols, normal_force, path_s)[mask] * normal_scale if normal_force else None
    return TimeSeries(t, v, yy[mask] * y_scale, fn, y, path_s, extra, read)


def load_coefficients(path: str | Path) -> dict[str, float]:
    """Read a ``name,value`` coefficient table (e.g. the MF 5.2 ``.tir`` extract)."""
    cols = read_table(path)
    for need in ("name", "value"):
        if need not in cols:
            raise DataError(f"{path}: coefficient table needs columns 'name' and 'value'; has {', '.join(cols)}")
    names = cols["name"]
    values = cols["value"]
    if values.dtype == object:
        raise DataError(f"{path}: column 'value' is not numeric")
    return {str(n): float(v) for n, v in zip(names, values)}


def find_data_file(name: str, directory: str | None = None) -> Path:
    """Locate a data file of a scenario: in ``directory`` when given (the scenario's ``data.dir``),
    else in ``$FRICTIONLAB_DATA`` when set and then among the copies packaged in
    :mod:`frictionlab.datasets`.

    Only these places: never the working directory or its parents, where a file planted by someone
    else (a ``data/`` folder in a shared temporary directory) would silently replace the dataset.
    The loaders record the file they read with its SHA-256 (:mod:`frictionlab.core.datafiles`)."""
    import os

    from ..datasets import DATASET_DIR

    if directory:
        cands, where = [Path(directory)], f"data.dir = {directory!r}"
    elif os.environ.get("FRICTIONLAB_DATA"):  # a folder of the user's copies; the packaged ones beside
        env = os.environ["FRICTIONLAB_DATA"]
        cands, where = [Path(env), DATASET_DIR], f"$FRICTIONLAB_DATA = {env!r} or the packaged datasets"
    else:
        cands, where = [DATASET_DIR], "the packaged datasets"
    for d in cands:
        if (d / name).is_file():
            return d / name
    raise DataError(f"data file {name!r} not found in {where}; set data.dir or FRICTIONLAB_DATA to the folder "
                    "that holds it ('frictionlab data list' shows the packaged ones)")


_SLIP_UNITS = {"um": 1e-6, "µm": 1e-6, "micron": 1e-6, "mm": 1e-3, "m": 1.0}


def slip_scale(column: str, units: str | None = None) -> float:
    """Factor from the slip column's unit to metres: ``units`` (um, mm, m) or read from the name.

    The name is read for a unit suffix (``slip_um``, ``disp_mm``, ``slip_m``) or a bracketed
    unit (``slip [um]``, ``slip (mm)``); when neither gives one, a :class:`ConfigError` asks
    for ``--slip-units`` rather than guessing (a record in metres read as micrometres fits
    nonsense with a good FIT %).
    """
    if units is not None:
        key = units.strip().lower()
        if key not in _SLIP_UNITS:
            raise ConfigError(f"--slip-units {units!r}: expected one of um, mm, m")
        return _SLIP_UNITS[key]
    import re

    name = column.strip().lower()
    m = re.search(r"[\[(]\s*(um|µm|micron|mm|m)\s*[\])]\s*$", name) or re.search(r"_(um|µm|mm|m)$", name)
    if m:
        return _SLIP_UNITS[m.group(1)]
    raise ConfigError(f"cannot tell the unit of the slip column {column!r} from its name; "
                      "give --slip-units um|mm|m")
