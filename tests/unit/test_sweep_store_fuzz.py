"""Fuzz the sweep store a resumed sweep and ``sweep plot`` read: damaged and crafted stores.

A store (:mod:`frictionlab.sweep.store`) is read back by ``SweepStore.read_index``, ``gather``
(``sweep plot``) and a resumed ``run_sweep``. Whatever its files hold, each must either work or
raise the project's own error (:class:`~frictionlab.core.errors.FrictionLabError`, one line at the
CLI); any other exception would reach the user as ``internal error``. Two kinds of input:

- *damaged* stores (bits flipped, bytes overwritten or inserted, files cut short, deleted or
  replaced, stray files): a resume that goes through must give exactly the sweep of an undamaged
  store (every point, every stored result bit for bit): the checksums find the damage and the
  points concerned run again;
- *crafted* stores (a value anywhere in the index, a journal line or a segment footer replaced by
  any JSON value, and every checksum recomputed so the damage passes them, as a buggy writer or a
  forger would leave it): only the first property (no other exception) is asked;

plus :func:`~frictionlab.sweep.codec.decode` on blobs with a replaced header value (what a blob
whose checksum was forged holds). The base store is ``toy/sweep`` (tests/unit/_sweep_toy.py) over
``toy.x = 1..4``: an index of three points, its ``index.crc``, a journal with the fourth, two segments.

The default suite runs a fixed sample (``derandomize``); the ``slow`` variant runs 2,000 damaged and
2,000 crafted stores (also fixed; ``FRICTIONLAB_FUZZ_EXAMPLES`` sets another count for both).
"""

from __future__ import annotations

import json
import os
import shutil
import struct
import tempfile
import zlib
from pathlib import Path

import numpy as np
import pytest
import xarray as xr
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from frictionlab.core.errors import FrictionLabError
from frictionlab.sweep import SweepStore, gather, point_key, run_sweep
from frictionlab.sweep.codec import decode, encode
from frictionlab.sweep.runner import run_point

import _sweep_toy

GRID = ["toy.x=1:4:4"]
XS = [1.0, 2.0, 3.0, 4.0]
_N_SLOW = int(os.environ.get("FRICTIONLAB_FUZZ_EXAMPLES", "2000"))


def _settings(n: int):
    return settings(max_examples=n, deadline=None, derandomize=True, database=None,
                    suppress_health_check=list(HealthCheck))


# ------------------------------------------------------------------------------------ the stores
class _Base:
    """The reference sweep (undamaged, same points) and the base store the fuzzers damage."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.ref = run_sweep(_sweep_toy.TOY, GRID, store=root / "ref", scheduler="serial")
        self.ref_points = {point_key({"toy.x": x}): SweepStore(root / "ref", "toy/sweep").load_point(
            point_key({"toy.x": x})) for x in XS}
        self.store = root / "base"
        run_sweep(_sweep_toy.TOY, ["toy.x=1:3:3"], store=self.store, scheduler="serial")
        s = SweepStore(self.store, "toy/sweep", grid={"toy.x": XS},
                       config=_sweep_toy.TOY.resolved_config(None, False)).open(resume=True)
        ds, summary, error, seconds, units = run_point(_sweep_toy.TOY, {"toy.x": 4.0}, {}, False)
        s.add(point_key({"toy.x": 4.0}), {"toy.x": 4.0}, ds, summary, error, seconds, units)
        s.flush()
        s.release()  # as a client killed before it folded the journal
        names = sorted(p.relative_to(self.store).as_posix() for p in self.store.rglob("*") if p.is_file())
        assert "journal.jsonl" in names and "index.crc" in names and len(list(self.store.glob("segments/*.seg"))) == 2
        self.files = names

    def copy(self) -> Path:
        dst = Path(tempfile.mkdtemp(prefix="frictionlab-store-fuzz-", dir=self.root))
        shutil.copytree(self.store, dst / "s")
        return dst / "s"


@pytest.fixture(scope="module")
def base(tmp_path_factory):
    return _Base(tmp_path_factory.mktemp("store-fuzz"))


def _ours(fn, *args, **kwargs):
    """``fn(...)``, or None when it raised the project's own error; anything else fails the test."""
    try:
        return fn(*args, **kwargs)
    except FrictionLabError:
        return None


def check_store(base: _Base, path: Path, exact: bool) -> None:
    """Read the store as ``sweep plot`` and a resume do; ``exact``: a resume that goes through gives
    the reference sweep and results."""
    _ours(SweepStore.read_index, path)
    _ours(gather, path)
    ds = _ours(run_sweep, _sweep_toy.TOY, GRID, store=path, scheduler="serial", resume=True)
    if ds is None or not exact:
        return
    xr.testing.assert_identical(ds, base.ref)
    for key, ref in base.ref_points.items():
        xr.testing.assert_identical(SweepStore(path, "toy/sweep").load_point(key), ref)


# --------------------------------------------------------------------------------------- damage
_KINDS = ["flip", "zero", "random", "insert", "truncate", "delete", "replace", "deep", "stray"]
#: JSON nested deeper than Python's parser recurses
_DEEP = b"[" * 100_000 + b"]" * 100_000


def _damage(path: Path, files: list[str], which: int, kind: str, where: float, bit: int, junk: bytes) -> None:
    name = files[which % len(files)]
    f = path / name
    if kind == "stray":  # a file that was not written by the store: junk, or a copy of a real one
        target = path / ("segments/s" + junk.hex()[:16].ljust(16, "0") + ".seg" if bit % 2 else "sweep.lock")
        target.write_bytes(f.read_bytes() if bit % 4 == 1 and f.exists() else junk)
        return
    if not f.exists():
        return
    if kind == "delete":
        f.unlink()
        return
    if kind in ("replace", "deep"):
        f.write_bytes(junk if kind == "replace" else _DEEP)
        return
    raw = bytearray(f.read_bytes())
    at = min(int(where * len(raw)), max(len(raw) - 1, 0))
    if kind == "flip" and raw:
        raw[at] ^= 1 << bit
    elif kind == "zero":
        raw[at:at + len(junk)] = bytes(len(raw[at:at + len(junk)]))
    elif kind == "random":
        raw[at:at + len(junk)] = junk[:len(raw[at:at + len(junk)])]
    elif kind == "insert":
        raw[at:at] = junk
    elif kind == "truncate":
        del raw[at:]
    f.write_bytes(bytes(raw))


# ------------------------------------------------------------------------------ crafted values
json_value = st.recursive(
    st.one_of(st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70), st.floats(allow_nan=True),
              st.text(max_size=6), st.sampled_from(["done", "failed", "full", "reduced", "none", "s", "toy.x",
                                                     "friction_force_final", "<f8", "|O", "json-str", "time"])),
    lambda inner: st.one_of(st.lists(inner, max_size=3), st.dictionaries(st.text(max_size=4) | st.sampled_from(
        ["seg", "off", "len", "crc", "params", "summary", "units", "status", "metrics", "traces", "error"]),
        inner, max_size=3)),
    max_leaves=6)


def _paths(obj, prefix=()):
    """Every path (keys and indices) into a JSON value, the root included."""
    yield prefix
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield from _paths(v, (*prefix, k))
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from _paths(v, (*prefix, i))


def _replaced(obj, path, value):
    if not path:
        return value
    obj[path[0]] = _replaced(obj[path[0]], path[1:], value)
    return obj


def _reseal_records(points: dict) -> None:
    from frictionlab.sweep.segments import record_check

    for k, rec in points.items():
        if isinstance(rec, dict):
            rec["check"] = record_check(str(k), rec)


def _craft(path: Path, target: int, pick: int, value) -> None:
    """Replace one JSON value in the index, a journal line or a segment footer; recompute the checksums."""
    from frictionlab.sweep.segments import _TRAILER, END, record_check

    which = target % 3
    if which == 0:  # the index (and its CRC: trusted whole)
        obj = json.loads((path / "index.json").read_text())
        paths = list(_paths(obj))
        obj = _replaced(obj, paths[pick % len(paths)], value)
        if isinstance(obj, dict) and isinstance(obj.get("points"), dict):
            _reseal_records(obj["points"])
        text = json.dumps(obj, separators=(",", ":"), allow_nan=True)
        (path / "index.json").write_text(text)
        (path / "index.crc").write_text(str(zlib.crc32(text.encode())))
    elif which == 1:  # the journal line
        line = json.loads((path / "journal.jsonl").read_bytes().splitlines()[0])
        paths = list(_paths(line))
        line = _replaced(line, paths[pick % len(paths)], value)
        if isinstance(line, dict) and isinstance(line.get("key"), str):
            body = {k: v for k, v in line.items() if k not in ("key", "check")}
            line["check"] = record_check(line["key"], body)
        (path / "journal.jsonl").write_text(json.dumps(line, allow_nan=True) + "\n")
    else:  # a segment's footer (what recovers records the index lost)
        seg = sorted((path / "segments").glob("*.seg"))[pick % 2]
        raw = seg.read_bytes()
        n, _, _ = _TRAILER.unpack(raw[-_TRAILER.size:])
        body, footer = raw[:-_TRAILER.size - n], json.loads(raw[-_TRAILER.size - n:-_TRAILER.size])
        paths = list(_paths(footer))
        footer = _replaced(footer, paths[(pick // 2) % len(paths)], value)
        items = footer.get("points") if isinstance(footer, dict) else None
        for item in items if isinstance(items, list) else []:
            if isinstance(item, list) and len(item) == 2 and isinstance(item[1], dict):
                item[1]["check"] = record_check(str(item[0]), {k: v for k, v in item[1].items() if k != "check"})
        text = json.dumps(footer, allow_nan=True, separators=(",", ":")).encode()
        seg.write_bytes(body + text + _TRAILER.pack(len(text), zlib.crc32(text), END))
        (path / "index.json").unlink()  # the index lost: the records come from the footers
        (path / "index.crc").unlink()


def check_damaged(base: _Base, damages) -> None:
    path = base.copy()
    try:
        for which, kind, where, bit, junk in damages:
            _damage(path, base.files, which, kind, where, bit, junk)
        check_store(base, path, exact=True)
    finally:
        shutil.rmtree(path.parent)


def check_crafted(base: _Base, target: int, pick: int, value) -> None:
    path = base.copy()
    try:
        _craft(path, target, pick, value)
        check_store(base, path, exact=False)
    finally:
        shutil.rmtree(path.parent)


def check_blob(pick: int, value, cut: int) -> None:
    """A blob whose header holds ``value`` at one place (its checksum forged): decoded or DataError."""
    t = np.linspace(0.0, 1.0, 5)
    ds = xr.Dataset({"friction_force": ("time", np.sin(t), {"units": "N"}),
                     "name": ("law", np.array(["a"], dtype=object))},
                    coords={"time": ("time", t, {"units": "s"})}, attrs={"x": 2.0, "edges": [1.0, 2.0]})
    blob = encode(ds)
    (n,) = struct.unpack_from("<I", blob, 0)
    header = json.loads(blob[4:4 + n])
    paths = list(_paths(header))
    head = _DEEP if value == "deep" else json.dumps(_replaced(header, paths[pick % len(paths)], value),
                                                    allow_nan=True).encode()
    data = blob[4 + n:]
    _ours(decode, struct.pack("<I", len(head)) + head + data[:len(data) - cut % (len(data) + 1)])


damaged = st.lists(st.tuples(st.integers(0, 10), st.sampled_from(_KINDS), st.floats(0.0, 1.0), st.integers(0, 7),
                             st.binary(min_size=1, max_size=64)), min_size=1, max_size=3)


@_settings(40)
@given(damaged)
def test_fuzz_damaged_store(base, damages):
    check_damaged(base, damages)


@_settings(40)
@given(st.integers(0, 2), st.integers(0, 10 ** 6), json_value)
def test_fuzz_crafted_store(base, target, pick, value):
    check_crafted(base, target, pick, value)


@_settings(150)
@given(st.integers(0, 10 ** 6), json_value | st.just("deep"), st.integers(0, 100))
def test_fuzz_blob_header(pick, value, cut):
    check_blob(pick, value, cut)


@pytest.mark.slow  # reason: 2,000 damaged and 2,000 crafted stores resumed: minutes
@_settings(_N_SLOW)
@given(damaged, st.integers(0, 2), st.integers(0, 10 ** 6), json_value, st.integers(0, 100))
def test_fuzz_stores_long(base, damages, target, pick, value, cut):
    check_damaged(base, damages)
    check_crafted(base, target, pick, value)
    check_blob(pick, value, cut)
