"""A resumable sweep store: one NetCDF file per point plus a JSON index.

Layout::

    STORE/index.json          scenario, quick, fixed overrides, grid, and one record per point
    STORE/journal.jsonl       records of points finished since the index was last compacted
    STORE/points/<key>.nc     the full result Dataset of each finished point

A point's ``key`` is a hash of its parameter values, so the same point has the same file in
every run. Each finished point is written at once (NetCDF first, through a temporary name
and an atomic rename, then one flushed line appended to the journal: O(1) per point), so an
interrupted sweep loses at most the points that were still running. The journal is folded
into ``index.json`` (atomic rename) when a store is opened and when a sweep ends. A point file carries its own parameters and
summary in its attributes; opening a store re-adds any point file the index missed (a
crash between the two writes). A store remembers the scenario, profile and fixed overrides
it was made with and refuses to mix in points of another.

One writer at a time: :meth:`SweepStore.open` takes ``STORE/sweep.lock`` (pid, host, start
time, command) and a second sweep on the same store is refused with a one-line error naming
the holder; a lock left by a process that no longer runs (on this host) is taken over.
Resuming validates every finished point's file (readable, its own record, the variables it
was written with) and runs a broken one again; temporary files left by killed processes
are removed.
"""

from __future__ import annotations

import hashlib
import json
import math
import os
import re
import socket
import sys
import time
from pathlib import Path
from typing import Any

import xarray as xr

from ..core.errors import ConfigError, DataError
from ..core.result import read_netcdf, write_netcdf

__all__ = ["SweepStore", "point_key", "make_record", "write_point_file"]

INDEX = "index.json"
JOURNAL = "journal.jsonl"
LOCK = "sweep.lock"
FORMAT = "frictionlab-sweep-1"


def _jsonable(v: Any) -> Any:
    if hasattr(v, "item"):
        return v.item()
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    return v


def point_key(point: dict[str, Any]) -> str:
    """Stable file key of a point: a hash of its (sorted, JSON-encoded) values."""
    text = json.dumps(_jsonable(point), sort_keys=True)
    return "p" + hashlib.sha1(text.encode()).hexdigest()[:16]


def config_hash(config: dict[str, Any]) -> str:
    """Short hash of a configuration (JSON with sorted keys; non-JSON values by ``repr``)."""
    text = json.dumps(_jsonable(config), sort_keys=True, default=repr)
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def make_record(point: dict[str, Any], summary: dict[str, float], error: str = "",
                seconds: float = 0.0, units: dict[str, str] | None = None,
                metrics: list[str] | None = None) -> dict[str, Any]:
    """The index record of one finished (or failed) point.

    ``units`` are the units of the summary values; ``metrics`` the metric names the sweep asked
    for (None: the scenario's own summary), so a resumed sweep with other metrics re-summarises
    the stored point from its file instead of running it again.
    """
    return {"params": _jsonable(point), "status": "failed" if error else "done",
            "summary": {k: (None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v))
                        for k, v in summary.items()},
            "units": dict(units or {}), "metrics": None if metrics is None else list(metrics),
            "error": error, "seconds": float(seconds), "finished": time.strftime("%Y-%m-%dT%H:%M:%S")}


def write_point_file(points_dir: str | Path, key: str, ds: xr.Dataset, rec: dict[str, Any], scenario: str) -> None:
    """Write ``points_dir/<key>.nc`` (with ``rec`` in its attributes) through a temporary name and a rename.

    Safe to call from a worker process on the machine of the store: the journal line that
    makes the point count as stored is written afterwards by the client only.
    """
    points_dir = Path(points_dir)
    ds = ds.copy()
    ds.attrs["sweep_record"] = json.dumps(rec)
    ds.attrs["sweep_scenario"] = scenario
    ds.attrs["sweep_variables"] = ",".join(map(str, ds.data_vars))
    write_netcdf(ds, points_dir / f"{key}.nc", provenance=False)  # through .<key>.<pid>.tmp.nc and a rename


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # exists, owned by someone else (or cannot tell: assume alive)
    return True


def check_point_file(path: Path, rec: dict[str, Any] | None = None) -> str:
    """Why the point file ``path`` is not usable ("" when it is): unreadable, no record, or variables missing.

    ``rec``, when given, is the index record the file must match (same parameters).
    """
    try:
        ds = read_netcdf(path)
    except DataError as exc:
        return f"unreadable ({str(exc).splitlines()[0][:120]})"
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


def _atomic_write_text(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


class SweepStore:
    """Directory of per-point NetCDF files with a JSON index (see module docstring).

    Parameters
    ----------
    path : directory of the store (created when missing)
    scenario : the scenario name the store belongs to
    quick : whether points use the scenario's quick profile
    overrides : fixed ``--set`` overrides applied to every point
    grid : ``{key: [values]}`` of the sweep
    config : the scenario configuration the points start from (quick profile and fixed
        overrides applied); its hash is recorded, so a store refuses points of a changed scenario
    """

    def __init__(self, path: str | Path, scenario: str, *, quick: bool = False,
                 overrides: dict[str, Any] | None = None, grid: dict[str, list[Any]] | None = None,
                 config: dict[str, Any] | None = None) -> None:
        self.path = Path(path)
        self.scenario = scenario
        self.quick = bool(quick)
        self.overrides = _jsonable(dict(overrides or {}))
        self.grid = _jsonable(dict(grid or {}))
        self.points: dict[str, dict[str, Any]] = {}
        self.config_hash = config_hash(config) if config is not None else ""
        #: ``(key, reason)`` of finished points whose files were broken on opening (they run again)
        self.repaired: list[tuple[str, str]] = []
        self._locked = False

    # -- opening -----------------------------------------------------------------------
    @property
    def index_path(self) -> Path:
        return self.path / INDEX

    @property
    def points_dir(self) -> Path:
        return self.path / "points"

    def exists(self) -> bool:
        return self.index_path.exists()

    @staticmethod
    def read_index(path: str | Path) -> dict[str, Any]:
        p = Path(path) / INDEX
        try:
            data = json.loads(p.read_text())
        except FileNotFoundError:
            raise DataError(f"{path} is not a sweep store (no {INDEX})") from None
        except json.JSONDecodeError as exc:
            raise DataError(f"sweep index {p} is corrupt: {exc}") from None
        if data.get("format") != FORMAT:
            raise DataError(f"{p} is not a frictionlab sweep index (format {data.get('format')!r})")
        journal = Path(path) / JOURNAL
        if journal.exists():
            for line in journal.read_text().splitlines():
                try:
                    rec = json.loads(line)
                except json.JSONDecodeError:  # a line cut short by a crash: that point runs again
                    continue
                data.setdefault("points", {})[rec.pop("key")] = rec
        return data

    def open(self, *, resume: bool) -> SweepStore:
        """Create the store, or (``resume``) reopen it after checking it belongs to this sweep.

        Raises
        ------
        ConfigError
            The directory holds points of another scenario, profile or fixed overrides, or
            holds points and ``resume`` is False.
        """
        if self.path.exists() and not self.path.is_dir():
            raise ConfigError(f"--store {str(self.path)!r} is a file, not a directory")
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"--store {str(self.path)!r} cannot be created ({exc.strerror or exc})") from None
        self._lock()
        try:
            return self._open(resume)
        except BaseException:
            self.release()
            raise

    def _open(self, resume: bool) -> SweepStore:
        if self.exists():
            data = self.read_index(self.path)
            if data["scenario"] != self.scenario:
                raise ConfigError(f"store {str(self.path)!r} holds a sweep of scenario {data['scenario']!r}, "
                                  f"not {self.scenario!r}; refusing to mix them (choose another --store)")
            if bool(data.get("quick")) != self.quick:
                raise ConfigError(f"store {str(self.path)!r} was made with quick={data.get('quick')}, this sweep has "
                                  f"quick={self.quick}; refusing to mix profiles (choose another --store)")
            if data.get("overrides", {}) != self.overrides:
                raise ConfigError(f"store {str(self.path)!r} was made with fixed overrides {data.get('overrides')}, "
                                  f"this sweep has {self.overrides}; refusing to mix them (choose another --store)")
            old_hash = data.get("config_hash", "")
            if old_hash and self.config_hash and old_hash != self.config_hash:
                raise ConfigError(f"store {str(self.path)!r} was made from a different configuration of "
                                  f"{self.scenario!r} (config hash {old_hash} != {self.config_hash}); refusing to mix "
                                  "them (choose another --store)")
            stored = {k: r for k, r in data.get("points", {}).items()}
            if stored and not resume:
                n_done = sum(r.get("status") == "done" for r in stored.values())
                raise ConfigError(f"store {str(self.path)!r} already holds {n_done} finished point(s) of "
                                  f"{self.scenario!r}; pass --resume to continue it or choose another --store")
            self.points = stored
            # the axes must be the same keys (a resumed sweep may change their values)
            if set(data.get("grid", {})) != set(self.grid):
                raise ConfigError(f"store {str(self.path)!r} sweeps {list(data['grid'])}, this sweep "
                                  f"{list(self.grid)}; refusing to mix grids (choose another --store)")
        self.points_dir.mkdir(exist_ok=True)
        self._clean_temp_files()
        self._validate_done()
        self._recover()
        self.compact()
        return self

    # -- one writer ----------------------------------------------------------------------
    @property
    def lock_path(self) -> Path:
        return self.path / LOCK

    def _lock(self) -> None:
        """Take ``sweep.lock``; ConfigError naming the holder when another live process has it."""
        me = {"pid": os.getpid(), "host": socket.gethostname(), "started": time.strftime("%Y-%m-%dT%H:%M:%S"),
              "command": " ".join(sys.argv)[:200]}
        for _ in range(3):
            try:
                fd = os.open(self.lock_path, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
            except FileExistsError:
                try:
                    holder = json.loads(self.lock_path.read_text())
                    pid, host = int(holder["pid"]), str(holder["host"])
                except (OSError, ValueError, KeyError, TypeError):
                    holder, pid, host = {}, -1, ""
                if holder and (host != me["host"] or (pid != me["pid"] and _pid_alive(pid))):
                    raise ConfigError(
                        f"store {str(self.path)!r} is in use by another sweep (pid {pid} on {host}, since "
                        f"{holder.get('started', '?')}: {holder.get('command', '?')}); wait for it, choose another "
                        f"--store, or delete {self.lock_path} if that process is gone") from None
                if not holder and time.time() - self._mtime(self.lock_path) < 5.0:
                    time.sleep(0.2)  # another process is writing its lock right now
                    continue
                self.lock_path.unlink(missing_ok=True)  # stale: its process is gone (or it is ours)
                continue
            except OSError as exc:
                raise ConfigError(f"cannot create the lock file {self.lock_path} ({exc.strerror or exc})") from None
            with os.fdopen(fd, "w") as fh:
                fh.write(json.dumps(me))
            self._locked = True
            return
        raise ConfigError(f"cannot take the lock file {self.lock_path}; another sweep keeps replacing it")

    @staticmethod
    def _mtime(path: Path) -> float:
        try:
            return path.stat().st_mtime
        except OSError:
            return 0.0

    def release(self) -> None:
        """Give the lock back (only if this store object holds it)."""
        if self._locked:
            try:
                holder = json.loads(self.lock_path.read_text())
                if int(holder.get("pid", -1)) == os.getpid():
                    self.lock_path.unlink(missing_ok=True)
            except (OSError, ValueError):
                pass
            self._locked = False

    def close(self) -> None:
        """Fold the journal into the index and release the lock."""
        try:
            self.compact()
        finally:
            self.release()

    # -- repairs on opening ----------------------------------------------------------------
    def _clean_temp_files(self) -> None:
        """Remove temporary files that killed processes left (those of live processes stay)."""
        for d in (self.path, self.points_dir):
            for f in d.glob(".*"):
                if ".tmp" not in f.name and not f.name.startswith(".frictionlab-write-test-"):
                    continue
                pids = [int(p) for p in re.findall(r"\.(\d+)\.tmp", f.name)]
                if pids and any(p != os.getpid() and _pid_alive(p) for p in pids):
                    continue
                f.unlink(missing_ok=True)

    def _validate_done(self) -> None:
        """Check every finished point's file; drop (and delete) broken ones, so they run again."""
        for key, rec in list(self.points.items()):
            if rec.get("status") != "done":
                continue
            f = self.points_dir / f"{key}.nc"
            why = "file missing" if not f.exists() else check_point_file(f, rec)
            if why:
                self.repaired.append((key, why))
                del self.points[key]
                if f.exists():
                    f.unlink(missing_ok=True)

    def _recover(self) -> None:
        """Re-add point files that the index missed (crash between the two writes)."""
        for f in sorted(self.points_dir.glob("p*.nc")):
            key = f.stem
            if self.points.get(key, {}).get("status") == "done":
                continue
            if check_point_file(f):
                f.unlink(missing_ok=True)  # a half-written file: the point is simply run again
                continue
            self.points[key] = json.loads(read_netcdf(f).attrs["sweep_record"])

    def compact(self) -> None:
        """Fold the journal into ``index.json`` (atomically) and remove it."""
        self._write_index()
        (self.path / JOURNAL).unlink(missing_ok=True)

    def _write_index(self) -> None:
        data = {"format": FORMAT, "scenario": self.scenario, "quick": self.quick, "overrides": self.overrides,
                "config_hash": self.config_hash, "grid": self.grid, "points": self.points}
        _atomic_write_text(self.index_path, json.dumps(data, indent=1, sort_keys=False, allow_nan=True))

    # -- points ------------------------------------------------------------------------
    def is_done(self, key: str) -> bool:
        rec = self.points.get(key)
        return bool(rec) and rec.get("status") == "done" and (self.points_dir / f"{key}.nc").exists()

    def record(self, key: str) -> dict[str, Any] | None:
        return self.points.get(key)

    def write_point(self, key: str, point: dict[str, Any], ds: xr.Dataset | None, summary: dict[str, float],
                    error: str = "", seconds: float = 0.0, units: dict[str, str] | None = None,
                    metrics: list[str] | None = None) -> None:
        """Store one finished (or failed: ``ds`` None, ``error`` set) point at once."""
        rec = make_record(point, summary, error, seconds, units, metrics)
        if ds is not None and not error:
            write_point_file(self.points_dir, key, ds, rec, self.scenario)
        self.append_record(key, rec)

    def append_record(self, key: str, rec: dict[str, Any]) -> None:
        """Journal a point whose file (if it succeeded) is already in place: one flushed line."""
        self.points[key] = rec
        with open(self.path / JOURNAL, "a") as fh:
            fh.write(json.dumps({"key": key, **rec}, allow_nan=True) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    def load_point(self, key: str) -> xr.Dataset:
        """The full result Dataset of a finished point."""
        f = self.points_dir / f"{key}.nc"
        if not f.exists():
            raise DataError(f"sweep store {self.path} has no result for point {key}")
        return read_netcdf(f)
