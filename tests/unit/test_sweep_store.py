"""Sweep store: segment files and one manifest, checksums found on resume, traces kept by choice,
the former per-point NetCDF layout read and migrated, damaged indexes as one-line errors."""

from __future__ import annotations

import json
import os
import zlib
from pathlib import Path

import numpy as np
import pytest
import xarray as xr

from frictionlab.core.errors import ConfigError, DataError
from frictionlab.core.result import make_dataset
from frictionlab.scenarios import Scenario
from frictionlab.sweep import SweepStore, point_key, run_sweep
from frictionlab.sweep.codec import REDUCED_SAMPLES, decode, encode

import _sweep_toy

GRID = ["toy.x=1:4:4"]


def _computed(log: Path) -> list[float]:
    return [float(ln.split()[0]) for ln in log.read_text().splitlines()] if log.exists() else []


@pytest.fixture
def logged(tmp_path, monkeypatch):
    log = tmp_path / "log"
    monkeypatch.setenv("TOY_LOG", str(log))
    return log


def _store(tmp_path, **kw) -> xr.Dataset:
    return run_sweep(_sweep_toy.TOY, GRID, store=tmp_path / "s", scheduler="serial", **kw)


def _segment(tmp_path) -> Path:
    (seg,) = (tmp_path / "s" / "segments").glob("*.seg")
    return seg


def _record(tmp_path, x: float) -> dict:
    return SweepStore.read_index(tmp_path / "s")["points"][point_key({"toy.x": x})]


def test_codec_round_trip_is_bit_exact():
    t = np.linspace(0.0, 1.0, 7)
    ds = xr.Dataset({"a": ("time", np.sin(t) * 1e-300, {"units": "N", "flag": True}),
                     "b": (("time", "law"), np.arange(14, dtype=np.float32).reshape(7, 2)),
                     "n": ("law", np.array([3, -4], dtype=np.int64)),
                     "ok": ("law", np.array([True, False])),
                     "name": ("law", np.array(["aging", "slip"], dtype=object)),
                     "when": ("law", np.array(["2026-01-01", "2026-02-01"], dtype="datetime64[ns]"))},
                    coords={"time": ("time", t, {"units": "s"}), "law": ["aging", "slip"]},
                    attrs={"x": 2.5, "edges": [1.0, 2.0], "label": "run"})
    back = decode(encode(ds))
    for name in ds.variables:
        assert back[name].dtype == ds[name].dtype and back[name].dims == ds[name].dims
        assert back[name].values.tobytes() == ds[name].values.tobytes() if ds[name].dtype != object \
            else list(back[name].values) == list(ds[name].values)
    assert back.a.attrs == {"units": "N", "flag": "True"}  # as NetCDF stored a boolean attribute
    np.testing.assert_array_equal(back.attrs["edges"], [1.0, 2.0])
    with pytest.raises(DataError, match="not a stored sweep point"):
        decode(b"\x05\x00\x00\x00{bad}")



@pytest.mark.parametrize("header", [b'{"attrs": null, "vars": []}', (b'{"attrs": {}, "vars": [{"name": "a", "role": "data", "dims": [], "shape": [], '
                                     b'"dtype": "json-str", "values": "x", "attrs": null}]}'),
                                    b"[" * 100_000 + b"]" * 100_000])
def test_blob_with_a_malformed_header_is_a_data_error(header):
    """Store fuzzer finds (a blob whose checksum was forged): AttributeError, RecursionError."""
    import struct

    with pytest.raises(DataError, match="not a stored sweep point"):
        decode(struct.pack("<I", len(header)) + header)

def test_flipped_data_bit_is_found_on_resume_and_only_that_point_runs_again(tmp_path, logged):
    """Issue 30: a flipped bit in a stored result survived --resume; now its checksum fails."""
    ref = _store(tmp_path)
    rec = _record(tmp_path, 3.0)
    seg = _segment(tmp_path)
    data = bytearray(seg.read_bytes())
    data[rec["off"] + rec["len"] - 3] ^= 0x10  # inside x = 3's friction_force bytes
    seg.write_bytes(bytes(data))
    logged.unlink()
    st = SweepStore(tmp_path / "s", "toy/sweep", grid={"toy.x": []}, config=_sweep_toy.TOY.config).open(resume=True)
    assert st.repaired == [(point_key({"toy.x": 3.0}), "checksum mismatch")]
    st.close()
    again = _store(tmp_path, resume=True)
    assert _computed(logged) == [3.0]
    xr.testing.assert_identical(again, ref)
    fresh = SweepStore(tmp_path / "s", "toy/sweep").load_point(point_key({"toy.x": 3.0}))
    assert float(fresh.friction_force[-1]) == pytest.approx(3 * (1 - np.exp(-1)), rel=1e-15)


def test_a_damaged_blob_is_refused_when_read_back(tmp_path):
    _store(tmp_path)
    rec = _record(tmp_path, 2.0)
    seg = _segment(tmp_path)
    data = bytearray(seg.read_bytes())
    data[rec["off"] + 20] ^= 0x01
    seg.write_bytes(bytes(data))
    with pytest.raises(DataError, match="checksum mismatch"):
        SweepStore(tmp_path / "s", "toy/sweep").load_point(point_key({"toy.x": 2.0}))


def test_truncated_segment_points_run_again(tmp_path, logged):
    ref = _store(tmp_path)
    seg = _segment(tmp_path)
    cut = _record(tmp_path, 3.0)["off"] + 10
    seg.write_bytes(seg.read_bytes()[:cut])  # a disk-full copy: points 3 and 4 lost, 1 and 2 intact
    logged.unlink()
    again = _store(tmp_path, resume=True, verify=False)  # even without checksums: the size says it
    assert sorted(_computed(logged)) == [3.0, 4.0]
    xr.testing.assert_identical(again, ref)


def test_damaged_record_in_the_index_is_restored_from_the_segment_footer(tmp_path, logged):
    ref = _store(tmp_path)
    idx = json.loads((tmp_path / "s" / "index.json").read_text())
    key = point_key({"toy.x": 2.0})
    idx["points"][key]["summary"]["friction_force_final"] += 1.0  # a flipped digit in a metric
    (tmp_path / "s" / "index.json").write_text(json.dumps(idx))
    logged.unlink()
    again = _store(tmp_path, resume=True)
    assert _computed(logged) == []  # the footer's copy of the record is good: nothing runs again
    xr.testing.assert_identical(again, ref)


def test_null_and_torn_journal_lines_are_skipped(tmp_path, logged):
    ref = _store(tmp_path)
    (tmp_path / "s" / "journal.jsonl").write_bytes(b'null\n\xff\xfe\n{"key": "p1", "params": {}}\n')
    logged.unlink()
    again = _store(tmp_path, resume=True)
    assert _computed(logged) == []
    xr.testing.assert_identical(again, ref)


@pytest.mark.parametrize("damage, needle", [
    (lambda idx: b"\xff\xfe" + idx, "not UTF-8"),
    (lambda idx: json.dumps({k: v for k, v in json.loads(idx).items() if k != "scenario"}).encode(), "'scenario'"),
    (lambda idx: b"null", "not a frictionlab sweep index"),
])
def test_damaged_index_is_a_one_line_error(tmp_path, cli, damage, needle):
    """Issue 30: these were internal errors (exit 1, traceback)."""
    _store(tmp_path)
    p = tmp_path / "s" / "index.json"
    p.write_bytes(damage(p.read_bytes()))
    with pytest.raises(DataError, match=needle):
        SweepStore.read_index(tmp_path / "s")
    code, _, err = cli(["sweep", "plot", tmp_path / "s"])
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1 and lines[0].startswith("error:") and needle in lines[0], err



def _rewrite_index(tmp_path, edit) -> None:
    """Edit the index as a buggy writer or a forger would: records resealed, ``index.crc`` made to match."""
    from frictionlab.sweep.segments import record_check

    p = tmp_path / "s" / "index.json"
    idx = json.loads(p.read_text())
    edit(idx)
    for k, rec in idx["points"].items():
        rec["check"] = record_check(k, rec)
    text = json.dumps(idx, separators=(",", ":"))
    p.write_text(text)
    (tmp_path / "s" / "index.crc").write_text(str(zlib.crc32(text.encode())))


def _set_in_record(x: float, field: str, value):
    def edit(idx):
        rec = idx["points"][point_key({"toy.x": x})]
        if isinstance(rec.get(field), dict) and isinstance(value, tuple):  # (name, value) inside the field
            rec[field][value[0]] = value[1]
        else:
            rec[field] = value
    return edit


@pytest.mark.parametrize("field, value", [
    ("off", ""),  # ValueError from int() when the segment was checked
    ("len", None),  # TypeError
    ("summary", ("friction_force_final", {})),  # gather: TypeError from float()
    ("summary", ("friction_force_final", [])),  # gather: ValueError, an inhomogeneous array
    ("summary", []),  # gather: AttributeError
    ("units", ("friction_force_final", 3)),
    ("traces", "fulm"),
    ("status", None),
])
def test_malformed_record_with_valid_checksums_runs_its_point_again(tmp_path, logged, field, value):
    """Store fuzzer finds: a record of the wrong shape, its checksums recomputed, was an internal error
    (ValueError, TypeError, AttributeError) on resume or in gather; it is a damaged record now."""
    from frictionlab.sweep import gather

    ref = _store(tmp_path)
    _rewrite_index(tmp_path, _set_in_record(2.0, field, value))
    data = SweepStore.read_index(tmp_path / "s")
    assert point_key({"toy.x": 2.0}) not in data["points"] and len(data["points"]) == 3
    assert data["damaged"] == [(point_key({"toy.x": 2.0}), "malformed record")]
    assert list(gather(tmp_path / "s").status.values) == ["done", "missing", "done", "done"]
    logged.unlink()
    again = _store(tmp_path, resume=True)
    assert _computed(logged) == []  # the footer of its segment still had the good record
    xr.testing.assert_identical(again, ref)


@pytest.mark.parametrize("edit, needle", [
    (lambda idx: idx.update(grid={"toy.x": None}), "its 'grid' is not a table of lists of values"),
    (lambda idx: idx.update(grid={"toy.x": [1.0, [2.0]]}), "its 'grid' is not a table of lists of values"),
    (lambda idx: idx.update(overrides=[]), "its 'overrides' is not a table"),
    (lambda idx: idx.update(traces=7), "its 'traces' is 7"),
    (lambda idx: idx.update(quick="no"), "its 'quick' is 'no'"),
])
def test_malformed_index_header_with_valid_checksum_is_a_one_line_error(tmp_path, cli, edit, needle):
    """Store fuzzer find: a grid of None in an index whose CRC matched was a TypeError in gather."""
    _store(tmp_path)
    _rewrite_index(tmp_path, edit)
    with pytest.raises(DataError, match=needle):
        SweepStore.read_index(tmp_path / "s")
    code, _, err = cli(["sweep", "plot", tmp_path / "s"])
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert code == 2 and len(lines) == 1 and needle in lines[0], err


def test_journal_line_without_a_key_or_nested_too_deep_is_skipped(tmp_path, logged):
    """Store fuzzer finds: a journal line ``{}`` was a KeyError; JSON nested 10^5 deep a RecursionError."""
    ref = _store(tmp_path)
    (tmp_path / "s" / "journal.jsonl").write_bytes(b'{"params": {}}\n' + b"[" * 100_000 + b"]" * 100_000 + b"\n")
    data = SweepStore.read_index(tmp_path / "s")
    assert [w for w, _ in data["damaged"]] == ["journal line 1", "journal line 2"]
    logged.unlink()
    xr.testing.assert_identical(_store(tmp_path, resume=True), ref)
    assert _computed(logged) == []


def test_index_nested_too_deep_is_a_one_line_error(tmp_path):
    _store(tmp_path)
    (tmp_path / "s" / "index.json").write_bytes(b"[" * 100_000 + b"]" * 100_000)
    with pytest.raises(DataError, match="is corrupt: nested too deep"):
        SweepStore.read_index(tmp_path / "s")


@pytest.mark.parametrize("damage", ["truncate the segment", "lose the index"])
def test_a_copy_of_a_segment_under_another_name_is_not_taken_for_it(tmp_path, logged, damage):
    """Store fuzzer finds: the records in a copy's footer name the original segment; recovering them
    checked the copy's bytes but kept the original's name, so a resume that went through left points
    whose results were cut short, or deleted the original (the copy's records, not the file, were "used")."""
    ref = _store(tmp_path)
    seg = _segment(tmp_path)
    copy = seg.with_name("s" + "0" * 16 + seg.suffix)  # sorts first
    copy.write_bytes(seg.read_bytes())
    if damage == "truncate the segment":
        seg.write_bytes(seg.read_bytes()[:len(seg.read_bytes()) // 2])
    else:
        (tmp_path / "s" / "index.json").unlink()
        (tmp_path / "s" / "index.crc").unlink()
    logged.unlink()
    again = _store(tmp_path, resume=True)
    xr.testing.assert_identical(again, ref)
    for x in (1.0, 2.0, 3.0, 4.0):
        kept = SweepStore(tmp_path / "s", "toy/sweep").load_point(point_key({"toy.x": x}))
        assert float(kept.friction_force[-1]) == pytest.approx(x * (1 - np.exp(-1)), rel=1e-15)

def test_traces_reduced_and_none_keep_less(tmp_path, logged):
    long = Scenario("toy/sweep", "toy with long series", _sweep_toy.CONFIG, run=_long_run,
                               summary=_sweep_toy.summary)
    sizes = {}
    for traces in ("full", "reduced", "none"):
        ds = run_sweep(long, GRID, store=tmp_path / traces, scheduler="serial", traces=traces)
        assert (ds.status == "done").all()
        sizes[traces] = sum(f.stat().st_size for f in (tmp_path / traces / "segments").glob("*.seg"))
        st = SweepStore(tmp_path / traces, "toy/sweep")
        key = point_key({"toy.x": 2.0})
        if traces == "none":
            with pytest.raises(DataError, match="keeps traces='none'"):
                st.load_point(key)
        else:
            pt = st.load_point(key)
            assert pt.sizes["time"] == (5001 if traces == "full" else REDUCED_SAMPLES)
            assert float(pt.time[-1]) == 1.0 and float(pt.friction_force[-1]) == float(ds.friction_force_final[1])
    assert sizes["full"] > 15 * sizes["reduced"] > 15 * sizes["none"] / 15
    assert sizes["none"] < 4000  # the records only
    # other metrics on resume: re-summarised from full traces, run again from reduced ones
    logged.unlink()
    run_sweep(long, GRID, store=tmp_path / "full", scheduler="serial", resume=True, metrics=["peak_friction"])
    assert _computed(logged) == []
    run_sweep(long, GRID, store=tmp_path / "reduced", scheduler="serial", resume=True, metrics=["peak_friction"])
    assert sorted(_computed(logged)) == [1.0, 2.0, 3.0, 4.0]
    with pytest.raises(ConfigError, match="keeps traces='reduced'.*refusing to mix"):
        run_sweep(long, GRID, store=tmp_path / "reduced", scheduler="serial", resume=True, traces="full")


def _long_run(cfg, quick):
    x = float(cfg["toy"]["x"])
    t = np.linspace(0.0, 1.0, 5001)
    if os.environ.get("TOY_LOG"):
        with open(os.environ["TOY_LOG"], "a") as fh:
            fh.write(f"{x!r} 0.0 {os.getpid()}\n")
    return make_dataset(t, {"friction_force": x * (1 - np.exp(-t))}, attrs={"x": x, "y": 0.0})


def _legacy_store(path: Path, xs: list[float]) -> dict[str, Path]:
    """A store in the former layout (index format 1, one NetCDF per point), as 1fb6ae8 wrote it."""
    from frictionlab.core.result import write_netcdf
    from frictionlab.sweep.store import config_hash, make_record

    files, points = {}, {}
    for x in xs:
        key = point_key({"toy.x": x})
        ds, summary, *_ = _sweep_toy_point(x)
        rec = make_record({"toy.x": x}, summary)
        rec.pop("traces")
        ds.attrs.update(sweep_record=json.dumps(rec), sweep_scenario="toy/sweep", sweep_variables="friction_force")
        files[key] = write_netcdf(ds, path / "points" / f"{key}.nc", provenance=False)  # as the former store wrote them
        points[key] = rec
    cfg = _sweep_toy.TOY.resolved_config(None, False)
    (path / "index.json").write_text(json.dumps({
        "format": "frictionlab-sweep-1", "scenario": "toy/sweep", "quick": False, "overrides": {},
        "config_hash": config_hash(cfg), "grid": {"toy.x": xs}, "points": points}))
    return files


def _sweep_toy_point(x: float):
    from frictionlab.sweep.runner import run_point

    return run_point(_sweep_toy.TOY, {"toy.x": x}, {}, False)


@pytest.mark.filterwarnings("ignore::pytest.PytestUnraisableExceptionWarning")  # h5netcdf closing the damaged file
def test_former_per_point_store_is_read_then_migrated_on_resume(tmp_path, logged):
    from frictionlab.sweep import gather

    files = _legacy_store(tmp_path / "s", [1.0, 2.0, 3.0])
    broken = files[point_key({"toy.x": 2.0})]
    data = bytearray(broken.read_bytes())
    data[200:260] = bytes(60)  # HDF5 metadata zeroed: reading it raised KeyError (issue 30)
    broken.write_bytes(bytes(data))
    old = gather(tmp_path / "s")
    assert list(old.status.values) == ["done"] * 3
    key1 = point_key({"toy.x": 1.0})
    assert float(SweepStore(tmp_path / "s", "toy/sweep").load_point(key1).friction_force[-1]) == \
        pytest.approx(1 - np.exp(-1), rel=1e-15)
    logged.unlink()
    ds = run_sweep(_sweep_toy.TOY, ["toy.x=1:4:4"], store=tmp_path / "s", scheduler="serial", resume=True)
    assert sorted(_computed(logged)) == [2.0, 4.0]  # the damaged file's point and the new one
    ref = run_sweep(_sweep_toy.TOY, ["toy.x=1:4:4"], store=tmp_path / "ref", scheduler="serial")
    xr.testing.assert_identical(ds, ref)
    assert not (tmp_path / "s" / "points").exists()
    assert SweepStore.read_index(tmp_path / "s")["format"] == "frictionlab-sweep-2"
    xr.testing.assert_identical(SweepStore(tmp_path / "s", "toy/sweep").load_point(key1),
                                SweepStore(tmp_path / "ref", "toy/sweep").load_point(key1))


def test_record_checksum_covers_its_key():
    from frictionlab.sweep.segments import record_check, sealed

    rec = sealed("pa", {"params": {"x": 1}, "status": "done"})
    assert rec["check"] == record_check("pa", rec) != record_check("pb", rec)
    assert rec["check"] == zlib.crc32(b'["pa",{"params":{"x":1},"status":"done"}]')


def test_worker_that_cannot_write_records_failed_points_that_read_back(tmp_path):
    """A worker without the store's file system returns failed records; journalled, they stay intact."""
    from frictionlab.sweep.runner import run_and_store_points

    blocked = tmp_path / "not-a-dir"
    blocked.write_text("a file where the segments directory should be")
    recs = run_and_store_points(_sweep_toy.TOY, [(point_key({"toy.x": 1.0}), {"toy.x": 1.0})], {}, False,
                                str(blocked), "full")
    assert recs[0][1]["status"] == "failed" and "cannot write the points into" in recs[0][1]["error"]
    st = SweepStore(tmp_path / "s", "toy/sweep", grid={"toy.x": [1.0]}, config=_sweep_toy.TOY.config).open(resume=False)
    st.append_records(recs)
    st.release()  # as a killed client: the journal is not folded
    data = SweepStore.read_index(tmp_path / "s")
    assert data["damaged"] == [] and data["points"][recs[0][0]]["status"] == "failed"


def test_resuming_a_finished_store_reads_the_index_and_writes_nothing(tmp_path, logged):
    ref = _store(tmp_path)
    index = tmp_path / "s" / "index.json"
    before = (index.stat().st_ino, index.stat().st_mtime_ns, (tmp_path / "s" / "index.crc").read_text())
    assert int(before[2]) == zlib.crc32(index.read_bytes())
    logged.unlink()
    again = _store(tmp_path, resume=True)
    xr.testing.assert_identical(again, ref)
    assert _computed(logged) == []
    assert (index.stat().st_ino, index.stat().st_mtime_ns, (tmp_path / "s" / "index.crc").read_text()) == before


def test_temporary_segments_of_workers_on_other_hosts_are_spared(tmp_path):
    import socket
    import subprocess
    import sys

    _store(tmp_path)
    dead = subprocess.Popen([sys.executable, "-c", "pass"])
    dead.wait()
    segs = tmp_path / "s" / "segments"
    here = segs / f".s00000000000000aa@{socket.gethostname().split('.')[0]}.{dead.pid}.tmp"
    there = segs / f".s00000000000000bb@node-17.{dead.pid}.tmp"  # a worker elsewhere, still writing
    old = segs / f".s00000000000000cc@node-17.{dead.pid}.tmp"
    for p in (here, there, old):
        p.write_bytes(b"half")
    os.utime(old, (0, 0))  # written in 1970: abandoned
    SweepStore(tmp_path / "s", "toy/sweep", grid={"toy.x": []}, config=_sweep_toy.TOY.config).open(resume=True).close()
    assert [p.exists() for p in (here, there, old)] == [False, True, False]
