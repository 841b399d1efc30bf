"""A resumable sweep store: per-point records in one manifest, results in checksummed segment files.

Layout::

    STORE/index.json          scenario, profile, fixed overrides, grid, traces kept, one record per point
    STORE/index.crc           CRC-32 of index.json as written (intact: its records need no check each)
    STORE/journal.jsonl       records of points finished since the index was last compacted
    STORE/segments/<s>.seg    the kept results of many points, each with its checksum (:mod:`.segments`)

A point's ``key`` is a hash of its parameter values. Its record holds its parameters, status,
metrics (with units), error and run time, where its result lies (segment, offset, length, CRC-32)
and a checksum of the record itself. What a record keeps of the run is chosen per store
(``traces``: ``"full"``, ``"reduced"`` or ``"none"``, :mod:`.codec`), so a store grows with what is
kept: the metrics of a point are a few hundred bytes.

Writing: finished points are gathered into one segment per dask task (written by the worker) or
per flush of this process (every :data:`FLUSH_POINTS` points or :data:`FLUSH_S` seconds), written
through a temporary name, flushed to disk and renamed; then their records are appended to the
journal with one flushed write. The journal is folded into ``index.json`` (atomic rename) when the
store is opened and closed (not rewritten when nothing changed). Opening a store reads that one
index (and the journal) -- not the points: a finished 10,000-point store resumes in a fraction of a
second.

Integrity: a record whose own checksum fails (in the index or the journal) is dropped, a torn
journal line skipped; a record's segment must exist and be long enough, and every blob's CRC-32 is
verified on opening when the store's segments total at most :data:`VERIFY_ON_OPEN_BYTES` (else,
or always, when the point is read back, and on ``open(verify=True)``). A point that fails any of
these is listed in :attr:`SweepStore.repaired` and runs again (unless the footer of its segment
still has a good copy of its record). A segment whose records never reached the index (a killed
client) is recovered from its footer. A store of the former per-point NetCDF layout is read as it
is and migrated on its first resume (:mod:`.legacy`).

One writer at a time: :meth:`SweepStore.open` takes ``STORE/sweep.lock`` (pid, host, start
time, command) and a second sweep on the same store is refused with a one-line error naming
the holder; a lock left by a process that no longer runs (on this host) is taken over.
Temporary files left by killed processes are removed.
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
import zlib
from collections import defaultdict
from pathlib import Path
from typing import TYPE_CHECKING, Any

from ..core.errors import ConfigError, DataError
from .codec import TRACES, decode, encode, reduce_traces
from .legacy import POINTS, check_point_file, legacy_path, read_legacy
from .segments import (SUFFIX, read_blob, read_footer, record_check, sealed, verify_records, well_formed,
                       write_segment)

if TYPE_CHECKING:
    import xarray as xr

__all__ = ["SweepStore", "point_key", "make_record", "FORMAT", "FLUSH_POINTS", "FLUSH_S", "VERIFY_ON_OPEN_BYTES"]

INDEX = "index.json"
#: CRC-32 of the bytes of ``index.json`` as last written: when it matches, the records need no check each
INDEX_CRC = "index.crc"
JOURNAL = "journal.jsonl"
LOCK = "sweep.lock"
SEGMENTS = "segments"
FORMAT = "frictionlab-sweep-2"
LEGACY_FORMAT = "frictionlab-sweep-1"
#: a flush of the points this process finished: after this many points ...
FLUSH_POINTS = 256
#: ... or once the oldest unflushed point is this old [s] (what an interrupted sweep may lose)
FLUSH_S = 2.0
#: opening a store verifies every blob's checksum when its segments total at most this [bytes]
VERIFY_ON_OPEN_BYTES = 256 * 2**20


def _jsonable(v: Any) -> Any:
    if hasattr(v, "item"):
        return v.item()
    if isinstance(v, (list, tuple)):
        return [_jsonable(x) for x in v]
    if isinstance(v, dict):
        return {str(k): _jsonable(x) for k, x in v.items()}
    return v


def point_key(point: dict[str, Any]) -> str:
    """Stable key of a point: a hash of its (sorted, JSON-encoded) values."""
    text = json.dumps(_jsonable(point), sort_keys=True)
    return "p" + hashlib.sha1(text.encode()).hexdigest()[:16]


def config_hash(config: dict[str, Any]) -> str:
    """Short hash of a configuration (JSON with sorted keys; non-JSON values by ``repr``)."""
    text = json.dumps(_jsonable(config), sort_keys=True, default=repr)
    return hashlib.sha1(text.encode()).hexdigest()[:12]


def make_record(point: dict[str, Any], summary: dict[str, float], error: str = "",
                seconds: float = 0.0, units: dict[str, str] | None = None,
                metrics: list[str] | None = None, traces: str | None = None) -> dict[str, Any]:
    """The index record of one finished (or failed) point.

    ``units`` are the units of the summary values; ``metrics`` the metric names the sweep asked
    for (None: the scenario's own summary), so a resumed sweep with other metrics re-summarises
    the stored point instead of running it again (from full traces; else it runs again);
    ``traces`` what is kept of the run (:data:`~frictionlab.sweep.codec.TRACES`).
    """
    return {"params": _jsonable(point), "status": "failed" if error else "done",
            "summary": {k: (None if v is None or (isinstance(v, float) and math.isnan(v)) else float(v))
                        for k, v in summary.items()},
            "units": dict(units or {}), "metrics": None if metrics is None else list(metrics),
            "error": error, "seconds": float(seconds), "finished": time.strftime("%Y-%m-%dT%H:%M:%S"),
            "traces": traces if not error else "none"}


def store_points(seg_dir: str | Path, items: list[tuple[str, "xr.Dataset | None", dict[str, Any]]],
                 traces: str) -> list[tuple[str, dict[str, Any]]]:
    """Write finished points as one segment (what ``traces`` keeps of each); their sealed records.

    Safe to call from a worker process that sees the store's file system: the client then
    journals the records it returns (and recovers them from the segment if it dies first).
    """
    return write_segment(seg_dir, [(k, None if ds is None else reduce_traces(ds, traces), r) for k, ds, r in items])


def _pid_alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OSError):
        return True  # exists, owned by someone else (or cannot tell: assume alive)
    return True


def _atomic_write_text(path: Path, text: str) -> None:
    tmp = path.with_name(f".{path.name}.{os.getpid()}.tmp")
    tmp.write_text(text)
    os.replace(tmp, path)


def _flaw(key: Any, rec: Any, legacy: bool, whole: bool = False) -> str:
    """Why a record read back cannot be used ("" when it can): not of a record's shape, or not the one
    written (its own checksum fails; a former store's records have none). ``whole``: read from an
    index whose own checksum matched (its records need no checksum each, but still the right shape)."""
    if not isinstance(key, str) or not well_formed(rec):
        return "malformed record"
    if whole:
        return ""
    if "check" not in rec:
        return "" if legacy else "record without its checksum"
    return "" if rec["check"] == record_check(key, rec) else "record fails its checksum"


def _json(raw: bytes) -> Any:
    """JSON of UTF-8 ``raw``; ValueError (UnicodeDecodeError, JSONDecodeError, too deeply nested) if it is not."""
    try:
        return json.loads(raw.decode("utf-8"))
    except RecursionError:
        raise ValueError("nested too deep") from None


def _check_header(p: Path, data: dict[str, Any]) -> None:
    """DataError naming the first header field of index ``p`` that is missing or of the wrong type."""
    for field, kind in (("scenario", str), ("grid", dict), ("points", dict)):
        if not isinstance(data.get(field), kind):
            raise DataError(f"sweep index {p} is corrupt: its {field!r} is missing or not a {kind.__name__}")
    if not all(isinstance(v, list) and not any(isinstance(x, (list, dict)) for x in v)
               for v in data["grid"].values()):
        raise DataError(f"sweep index {p} is corrupt: its 'grid' is not a table of lists of values")
    if not isinstance(data.get("overrides", {}), dict):
        raise DataError(f"sweep index {p} is corrupt: its 'overrides' is not a table")
    for field, ok, want in (("traces", data.get("traces", "full") in TRACES, f"not one of {', '.join(TRACES)}"),
                            ("quick", isinstance(data.get("quick", False), bool), "not true or false"),
                            ("config_hash", isinstance(data.get("config_hash", ""), str), "not text")):
        if not ok:
            raise DataError(f"sweep index {p} is corrupt: its {field!r} is {data[field]!r:.40}, {want}")


class SweepStore:
    """A sweep's records and kept results on disk (see the module notes).

    Parameters
    ----------
    path : directory of the store (created when missing)
    scenario : the scenario name the store belongs to
    quick : whether points use the scenario's quick profile
    overrides : fixed ``--set`` overrides applied to every point
    grid : ``{key: [values]}`` of the sweep
    config : the scenario configuration the points start from (quick profile and fixed
        overrides applied); its hash is recorded, so a store refuses points of a changed scenario
    traces : what is kept of every run besides its metrics: ``"full"``, ``"reduced"`` (at most 256
        samples per time series) or ``"none"``; None (default): what the store keeps, ``"full"`` for a
        new one
    """

    def __init__(self, path: str | Path, scenario: str, *, quick: bool = False,
                 overrides: dict[str, Any] | None = None, grid: dict[str, list[Any]] | None = None,
                 config: dict[str, Any] | None = None, traces: str | None = None) -> None:
        if traces is not None and traces not in TRACES:
            raise ConfigError(f"traces must be one of {', '.join(TRACES)}, got {traces!r}")
        self.path = Path(path)
        self.scenario = scenario
        self.quick = bool(quick)
        self.overrides = _jsonable(dict(overrides or {}))
        self.grid = _jsonable(dict(grid or {}))
        #: None until opened: then the store's own (a new store: ``"full"``)
        self.traces = traces
        self.points: dict[str, dict[str, Any]] = {}
        self.config_hash = config_hash(config) if config is not None else ""
        #: ``(key, reason)`` of finished points found broken on opening (they run again)
        self.repaired: list[tuple[str, str]] = []
        #: ``(where, reason)`` of records and journal lines that could not be read (skipped)
        self.damaged: list[tuple[str, str]] = []
        self._locked = False
        self._dirty = True  # the index on disk differs from this object (cleared when written)
        self._buffer: list[tuple[str, Any, dict[str, Any]]] = []
        self._buffer_since = 0.0

    # -- opening -----------------------------------------------------------------------
    @property
    def index_path(self) -> Path:
        return self.path / INDEX

    @property
    def segments_dir(self) -> Path:
        return self.path / SEGMENTS

    @property
    def points_dir(self) -> Path:
        """Where a store of the former layout kept its per-point NetCDF files."""
        return self.path / POINTS

    def exists(self) -> bool:
        return self.index_path.exists()

    @staticmethod
    def read_index(path: str | Path) -> dict[str, Any]:
        """The index with the journal folded in; records that fail their checksum are left out and
        listed in ``data["damaged"]`` as ``(key or line, reason)``.

        Raises
        ------
        DataError
            no index, an index that is not UTF-8 JSON of a sweep store, or one without its header
            fields (one line each, for the CLI).
        """
        p = Path(path) / INDEX
        try:
            raw = p.read_bytes()
            data = _json(raw)
        except FileNotFoundError:
            raise DataError(f"{path} is not a sweep store (no {INDEX})") from None
        except IsADirectoryError:
            raise DataError(f"{path} is not a sweep store ({INDEX} is a directory)") from None
        except UnicodeDecodeError as exc:
            raise DataError(f"sweep index {p} is corrupt: not UTF-8 text (byte {exc.start})") from None
        except ValueError as exc:  # JSON, or nested too deep
            raise DataError(f"sweep index {p} is corrupt: {exc}") from None
        if not isinstance(data, dict) or data.get("format") not in (FORMAT, LEGACY_FORMAT):
            fmt = data.get("format") if isinstance(data, dict) else type(data).__name__
            raise DataError(f"{p} is not a frictionlab sweep index (format {fmt!r:.40})")
        _check_header(p, data)
        legacy = data["format"] == LEGACY_FORMAT
        damaged: list[tuple[str, str]] = []
        points: dict[str, dict[str, Any]] = {}
        try:  # the whole file as written: its records are whole (the common case, one C-speed pass)
            whole = int((Path(path) / INDEX_CRC).read_text()) == zlib.crc32(raw)
        except (OSError, ValueError):
            whole = False
        for k, rec in data["points"].items():
            flaw = _flaw(k, rec, legacy, whole)
            if not flaw:
                points[k] = rec
            else:
                damaged.append((str(k), flaw if flaw == "malformed record" else f"{flaw} in the index"))
        data["journalled"] = 0
        journal = Path(path) / JOURNAL
        if journal.exists():
            for i, line in enumerate(journal.read_bytes().splitlines(), 1):
                try:
                    rec = _json(line)
                    key = rec.pop("key", None) if isinstance(rec, dict) else None
                except ValueError:  # a line cut short by a crash, a flipped byte
                    rec, key = None, None
                if key is not None and not _flaw(key, rec, legacy):
                    points[key] = rec
                    data["journalled"] += 1
                elif line.strip():
                    damaged.append((f"journal line {i}", "unreadable or fails its checksum"))
        data["points"] = points
        data["damaged"] = damaged
        data.setdefault("traces", "full")
        return data

    def open(self, *, resume: bool, verify: bool | None = None) -> SweepStore:
        """Create the store, or (``resume``) reopen it after checking it belongs to this sweep.

        ``verify``: check every stored blob's checksum now (None: when the segments total at most
        :data:`VERIFY_ON_OPEN_BYTES`; a blob is always checked when it is read back).

        Raises
        ------
        ConfigError
            The directory holds points of another scenario, profile, traces or fixed overrides, or
            holds points and ``resume`` is False.
        DataError
            The index is damaged beyond its records (one line).
        """
        if self.path.exists() and not self.path.is_dir():
            raise ConfigError(f"--store {str(self.path)!r} is a file, not a directory")
        try:
            self.path.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise ConfigError(f"--store {str(self.path)!r} cannot be created ({exc.strerror or exc})") from None
        self._lock()
        try:
            return self._open(resume, verify)
        except BaseException:
            self.release()
            raise

    def _open(self, resume: bool, verify: bool | None) -> SweepStore:
        legacy = False
        if self.exists():
            data = self.read_index(self.path)
            legacy = data["format"] == LEGACY_FORMAT
            where = f"store {str(self.path)!r}"
            if data["scenario"] != self.scenario:
                raise ConfigError(f"{where} holds a sweep of scenario {data['scenario']!r}, "
                                  f"not {self.scenario!r}; refusing to mix them (choose another --store)")
            if bool(data.get("quick")) != self.quick:
                raise ConfigError(f"{where} was made with quick={data.get('quick')}, this sweep has "
                                  f"quick={self.quick}; refusing to mix profiles (choose another --store)")
            if data.get("overrides", {}) != self.overrides:
                raise ConfigError(f"{where} was made with fixed overrides {data.get('overrides')}, "
                                  f"this sweep has {self.overrides}; refusing to mix them (choose another --store)")
            old_hash = data.get("config_hash", "")
            if old_hash and self.config_hash and old_hash != self.config_hash:
                raise ConfigError(f"{where} was made from a different configuration of "
                                  f"{self.scenario!r} (config hash {old_hash} != {self.config_hash}); refusing to mix "
                                  "them (choose another --store)")
            stored = data["points"]
            if (stored or data["damaged"]) and not resume:
                n_done = sum(r.get("status") == "done" for r in stored.values())
                raise ConfigError(f"{where} already holds {n_done} finished point(s) of "
                                  f"{self.scenario!r}; pass --resume to continue it or choose another --store")
            if self.traces is None or not stored:
                self.traces = self.traces or data["traces"]
            elif data["traces"] != self.traces:
                raise ConfigError(f"{where} keeps traces={data['traces']!r}, this sweep asks for "
                                  f"{self.traces!r}; refusing to mix them (choose another --store)")
            self.points = stored
            self.damaged = list(data["damaged"])
            # unchanged on disk unless the journal, a repair or the sweep's own header says otherwise
            self._dirty = bool(data["journalled"] or data["damaged"] or legacy or data["grid"] != self.grid
                               or data.get("traces") != (self.traces or data["traces"])
                               or data.get("config_hash", "") != self.config_hash
                               or not (self.path / INDEX_CRC).exists())
            # the axes must be the same keys (a resumed sweep may change their values)
            if set(data.get("grid", {})) != set(self.grid):
                raise ConfigError(f"{where} sweeps {list(data['grid'])}, this sweep "
                                  f"{list(self.grid)}; refusing to mix grids (choose another --store)")
        self.traces = self.traces or "full"
        self.segments_dir.mkdir(exist_ok=True)
        self._clean_temp_files()
        self._validate_done(verify)
        self._recover(lost={k for k, _ in self.damaged} | {k for k, _ in self.repaired})
        if legacy:
            self._migrate()
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
        """Remove temporary files that killed processes left (those of live processes stay; a segment
        being written by a worker on another host stays for a day)."""
        me = socket.gethostname()
        for d in (self.path, self.segments_dir, self.points_dir):
            if not d.is_dir():
                continue
            for f in d.glob(".*"):
                if ".tmp" not in f.name and not f.name.startswith(".frictionlab-write-test-"):
                    continue
                host = re.search(r"@([^.@/]+(?:\.[^.@/]+)*?)\.\d+\.tmp$", f.name)
                if host and host.group(1) != me.split(".")[0] and time.time() - self._mtime(f) < 86400:
                    continue
                pids = [int(p) for p in re.findall(r"\.(\d+)\.tmp", f.name)]
                if pids and any(p != os.getpid() and _pid_alive(p) for p in pids):
                    continue
                f.unlink(missing_ok=True)

    def _segment(self, name: str) -> Path:
        return self.segments_dir / f"{name}{SUFFIX}"

    def _drop(self, key: str, why: str) -> None:
        self.repaired.append((key, why))
        del self.points[key]
        self._dirty = True

    def _validate_done(self, verify: bool | None) -> None:
        """Check the finished points' segments (size always; checksums when small or asked); a
        point that fails runs again."""
        by_seg: dict[str, list[tuple[str, dict[str, Any]]]] = defaultdict(list)
        for key, rec in self.points.items():
            if rec.get("status") == "done" and rec.get("seg"):
                by_seg[str(rec["seg"])].append((key, rec))
        sizes: dict[str, int] = {}
        for name in by_seg:
            try:
                sizes[name] = self._segment(name).stat().st_size
            except OSError:
                sizes[name] = -1
        if verify is None:
            verify = sum(max(s, 0) for s in sizes.values()) <= VERIFY_ON_OPEN_BYTES
        for name, recs in by_seg.items():
            if sizes[name] < 0:
                bad = {k: "segment file missing" for k, _ in recs}
            elif verify:
                bad = verify_records(self._segment(name), recs)
            else:
                bad = {k: "segment cut short" for k, r in recs if int(r["off"]) + int(r["len"]) > sizes[name]}
            for key, why in bad.items():
                self._drop(key, why)

    def _recover(self, lost: set[str]) -> None:
        """Add the records of segments the index does not know (a client killed before it journalled
        a worker's segment), and good copies of the records in ``lost``; remove segments nothing uses.

        Only the records of the segment's own blobs (``seg`` its name, or None) count: a copy of a
        segment under another name lists the original's records, which this file's bytes do not vouch for."""
        used = {str(r["seg"]) for r in self.points.values() if r.get("seg")}
        for f in sorted(self.segments_dir.glob(f"s*{SUFFIX}")):
            name = f.name[:-len(SUFFIX)]
            if name in used and not lost:
                continue
            try:
                recs = read_footer(f)
            except DataError:
                recs = []
            wanted = [(k, r) for k, r in recs if r.get("seg") in (None, name)
                      and self.points.get(k, {}).get("status") != "done"
                      and (r.get("status") == "done" or k not in self.points)]
            bad = verify_records(f, [(k, r) for k, r in wanted if r.get("seg")]) if wanted else {}
            for key, rec in wanted:
                if key in bad:
                    continue
                self.points[key] = rec
                self._dirty = True
                if rec.get("seg"):
                    used.add(name)
                lost.discard(key)
                self.repaired[:] = [(k, w) for k, w in self.repaired if k != key]
            if name not in used:
                f.unlink(missing_ok=True)

    def _migrate(self) -> None:
        """Copy the finished points of the former per-point files into a segment; drop broken ones."""
        items = []
        for key, rec in list(self.points.items()):
            if rec.get("status") != "done" or "seg" in rec:
                continue
            f = legacy_path(self.path, key)
            why = "file missing" if not f.exists() else check_point_file(f, rec)
            if why:
                self._drop(key, why)
                continue
            items.append((key, read_legacy(f), {**rec, "traces": "full"}))
        for i in range(0, len(items), FLUSH_POINTS):
            for key, rec in write_segment(self.segments_dir, items[i:i + FLUSH_POINTS]):
                self.points[key] = rec
        for key, rec in list(self.points.items()):
            if "check" not in rec:
                self.points[key] = sealed(key, rec)
        self.compact()
        for f in self.points_dir.glob("p*.nc"):
            f.unlink(missing_ok=True)
        try:
            self.points_dir.rmdir()
        except OSError:
            pass

    def compact(self) -> None:
        """Fold the journal into ``index.json`` (atomically, with its checksum) and remove it; nothing
        to do when the index on disk already holds every record (a finished store resumed)."""
        if not self._dirty:
            return
        self._write_index()
        (self.path / JOURNAL).unlink(missing_ok=True)
        self._dirty = False

    def _write_index(self) -> None:
        data = {"format": FORMAT, "scenario": self.scenario, "quick": self.quick, "overrides": self.overrides,
                "config_hash": self.config_hash, "grid": self.grid, "traces": self.traces, "points": self.points}
        text = json.dumps(data, separators=(",", ":"), allow_nan=True)
        (self.path / INDEX_CRC).unlink(missing_ok=True)  # a crash before the new one: records checked one by one
        _atomic_write_text(self.index_path, text)
        _atomic_write_text(self.path / INDEX_CRC, str(zlib.crc32(text.encode("utf-8"))))

    # -- points ------------------------------------------------------------------------
    def is_done(self, key: str) -> bool:
        rec = self.points.get(key)
        return bool(rec) and rec.get("status") == "done"

    def record(self, key: str) -> dict[str, Any] | None:
        return self.points.get(key)

    def add(self, key: str, point: dict[str, Any], ds: xr.Dataset | None, summary: dict[str, float],
            error: str = "", seconds: float = 0.0, units: dict[str, str] | None = None,
            metrics: list[str] | None = None) -> None:
        """Keep one point this process finished (or failed: ``ds`` None, ``error`` set); it is written
        with the next flush (:data:`FLUSH_POINTS` points or :data:`FLUSH_S` seconds; :meth:`close`)."""
        rec = make_record(point, summary, error, seconds, units, metrics, self.traces)
        if not self._buffer:
            self._buffer_since = time.monotonic()
        self._buffer.append((key, ds if not error else None, rec))
        self.points[key] = rec
        if len(self._buffer) >= FLUSH_POINTS or time.monotonic() - self._buffer_since >= FLUSH_S:
            self.flush()

    write_point = add

    def flush(self) -> None:
        """Write the points kept by :meth:`add` (one segment, then their journal lines)."""
        if self._buffer:
            items, self._buffer = self._buffer, []
            self.append_records(store_points(self.segments_dir, items, self.traces))

    def append_records(self, items: list[tuple[str, dict[str, Any]]]) -> None:
        """Journal records whose results are already in a segment (sealed here if not yet): one flushed write."""
        if not items:
            return
        lines = []
        self._dirty = True
        for key, rec in items:
            rec = rec if "check" in rec else sealed(key, rec)
            self.points[key] = rec
            lines.append(json.dumps({"key": key, **rec}, allow_nan=True, separators=(",", ":")))
        with open(self.path / JOURNAL, "a") as fh:
            fh.write("\n".join(lines) + "\n")
            fh.flush()
            os.fsync(fh.fileno())

    def append_record(self, key: str, rec: dict[str, Any]) -> None:
        """Journal one record."""
        self.append_records([(key, rec)])

    def close(self) -> None:
        """Write what is kept, fold the journal into the index and release the lock."""
        try:
            self.flush()
            self.compact()
        finally:
            self.release()

    def load_point(self, key: str) -> xr.Dataset:
        """What the store kept of a finished point's result Dataset (see ``traces``).

        Raises
        ------
        DataError
            no result kept for ``key``, or its bytes fail their checksum.
        """
        if not self.points and self.exists():  # a store object made to read one (not opened): its records once
            self.points = self.read_index(self.path)["points"]
        rec = self.points.get(key)
        if rec is not None and rec.get("seg"):
            return decode(read_blob(self._segment(str(rec["seg"])), rec))
        if rec is not None and "seg" not in rec and legacy_path(self.path, key).exists():
            return read_legacy(legacy_path(self.path, key))
        for k, ds, _ in self._buffer:
            if k == key and ds is not None:
                return decode(encode(reduce_traces(ds, self.traces)))
        raise DataError(f"sweep store {self.path} has no result for point {key}"
                        + (f" (it keeps traces={rec.get('traces')!r})" if rec is not None and rec.get("status") == "done"
                           else ""))
