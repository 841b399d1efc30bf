"""Security and integrity: what a planted file, a crafted or damaged stored result and an
oversized request can make the CLI do.

Each case reproduces an attack or a damage and asserts that it is refused or handled: the
planted code does not run, the planted data is not read (or is named with its checksum), a
crafted partial result runs nothing and a damaged one is recomputed and said, an oversized
request is a one-line error (exit 2) before any work.
"""

from __future__ import annotations

import math
from pathlib import Path

import pytest

# ---------------------------------------------------------------------------- planted benchmark
_PLANTED = """
from pathlib import Path
Path({marker!r}).write_text("ran")
def run(quick):
    return []
"""


def _plant_benchmark(root: Path, name: str) -> tuple[Path, Path]:
    """``root/benchmarks/bench_<name>.py`` writing a marker when executed; returns (marker, deep cwd)."""
    (root / "benchmarks").mkdir(parents=True)
    (root / "a" / "b").mkdir(parents=True)
    marker = root / "marker"
    (root / "benchmarks" / f"bench_{name}.py").write_text(_PLANTED.format(marker=str(marker)))
    return marker, root / "a" / "b"


def test_bench_never_runs_a_file_planted_in_a_parent_directory(cli, tmp_path, monkeypatch):
    marker, deep = _plant_benchmark(tmp_path, "planted")
    monkeypatch.chdir(deep)
    code, out, err = cli(["bench", "planted", "--quick"])
    assert not marker.exists(), "a bench_*.py in a parent directory was executed"
    assert code == 2 and "unknown benchmark 'planted'" in err
    assert "lugre" in err  # the packaged benchmarks are the known ones


def test_bench_shadowing_a_packaged_name_from_a_parent_is_not_loaded(tmp_path, monkeypatch):
    from frictionlab import benchmarks

    marker, deep = _plant_benchmark(tmp_path, "lugre")
    monkeypatch.chdir(deep)
    found = benchmarks.find()
    pkg = Path(benchmarks.__file__).resolve().parent
    assert found["lugre"] == pkg / "bench_lugre.py"
    assert all(f.parent == pkg for f in found.values())
    assert {"lugre", "startup", "fresh", "rough_sliding"} <= set(found)


def test_bench_runs_a_directory_only_when_named_with_path(cli, tmp_path, monkeypatch):
    marker, deep = _plant_benchmark(tmp_path, "planted")
    code, out, err = cli(["bench", "planted", "--path", tmp_path / "benchmarks"])
    assert code == 0, err
    assert marker.read_text() == "ran"
    code, out, err = cli(["bench", "--path", tmp_path / "nothing-here"])
    assert code == 2 and "not a directory" in err


# ---------------------------------------------------------------------------------- planted data
PSTAR = "pstar_proton_liquid_water_stopping_power.csv"


def _plant_tripled_pstar(root: Path) -> Path:
    """A ``data/`` and a ``shared/data/`` copy of the PSTAR table with every stopping power tripled,
    two levels above the returned working directory."""
    from frictionlab.datasets import DATASET_DIR

    lines = []
    for line in (DATASET_DIR / PSTAR).read_text(encoding="utf-8").splitlines():
        if line and not line.startswith("#") and line[0].isdigit():
            e, *rest = line.split(",")
            rest = [f"{3 * float(v):.6g}" for v in rest]
            line = ",".join([e, *rest])
        lines.append(line)
    for d in (root / "data", root / "shared" / "data"):
        d.mkdir(parents=True)
        (d / PSTAR).write_text("\n".join(lines) + "\n", encoding="utf-8")
    deep = root / "a" / "b"
    deep.mkdir(parents=True)
    return deep


def test_data_file_planted_in_a_parent_directory_is_not_used(tmp_path, monkeypatch):
    from frictionlab.datasets import DATASET_DIR
    from frictionlab.fit.data import find_data_file

    monkeypatch.chdir(_plant_tripled_pstar(tmp_path))
    monkeypatch.delenv("FRICTIONLAB_DATA", raising=False)
    assert find_data_file(PSTAR) == DATASET_DIR / PSTAR
    # a folder the user names is used, and only it
    assert find_data_file(PSTAR, str(tmp_path / "data")) == tmp_path / "data" / PSTAR
    with pytest.raises(Exception, match="not found in data.dir"):
        find_data_file("rsf_params_leeman2016_p4309_ruina_fits.csv", str(tmp_path / "data"))
    monkeypatch.setenv("FRICTIONLAB_DATA", str(tmp_path / "shared" / "data"))
    assert find_data_file(PSTAR) == tmp_path / "shared" / "data" / PSTAR


def test_data_fit_scenario_records_and_prints_the_file_and_its_checksum(cli, tmp_path, monkeypatch):
    import hashlib

    import xarray as xr

    from frictionlab.datasets import DATASET_DIR

    monkeypatch.chdir(_plant_tripled_pstar(tmp_path))
    monkeypatch.delenv("FRICTIONLAB_DATA", raising=False)
    code, out, err = cli(["run", "kloss/pstar-fit", "--quick", "--out", tmp_path / "out", "--csv", "none"])
    assert code == 1 and "1/4 checks of kloss/pstar-fit failed" in err, err  # the Bragg-curve extension check fails
    sha = hashlib.sha256((DATASET_DIR / PSTAR).read_bytes()).hexdigest()
    line = f"{DATASET_DIR / PSTAR} (sha256 {sha})"
    assert f"data read: {line}" in out
    with xr.open_dataset(tmp_path / "out" / "kloss__pstar-fit.nc", engine="h5netcdf") as ds:
        assert ds.attrs["data_files"] == line
        assert float(ds.s_data.values[-1]) == pytest.approx(11.54)  # the packaged table's 55 MeV value, not 34.62


def test_reproduce_prints_the_data_file_each_scenario_read(cli, tmp_path):
    import hashlib

    from frictionlab.datasets import DATASET_DIR

    code, out, err = cli(["reproduce", "kloss/pstar-fit", "--quick", "--out", tmp_path])
    sha = hashlib.sha256((DATASET_DIR / PSTAR).read_bytes()).hexdigest()
    assert f"data read: {DATASET_DIR / PSTAR} (sha256 {sha})" in " ".join(out.split()), out

def test_fit_prints_and_records_the_file_it_read(cli, tmp_path):
    import hashlib
    import json

    from frictionlab.datasets import DATASET_DIR

    code, out, err = cli(["fit", "kloss", PSTAR[:-4], "--x", "E_MeV", "--y", "S_total_MeV_cm2_per_g", "--xmin", "1",
                          "--n-starts", "2", "--out", tmp_path, "--quiet"])
    assert code == 0, err
    sha = hashlib.sha256((DATASET_DIR / PSTAR).read_bytes()).hexdigest()
    assert f"data read: {DATASET_DIR / PSTAR} (sha256 {sha})" in out
    rec = json.loads(next(tmp_path.glob("*_kloss.json")).read_text())
    assert rec["data_file"] == {"path": str(DATASET_DIR / PSTAR), "sha256": sha,
                                "size": (DATASET_DIR / PSTAR).stat().st_size}


# ------------------------------------------------------------------------------ partial results
def toy_run(x: float) -> object:
    """A scenario task returning a Dataset (as rough-contact Figs. 13, 14 do)."""
    import numpy as np
    import xarray as xr

    t = np.linspace(0.0, 1.0, 64)
    return xr.Dataset({"mu": ("time", 0.6 + x * np.sin(7 * t) * 1e-3, {"units": "1"})},
                      coords={"time": ("time", t, {"units": "s"})}, attrs={"x": x, "sets": [1.0, x]})


TASKS = [(0.1,), (0.2,), (0.3,)]


def _resume(tmp_path, **kw):
    """Run the toy tasks through ``run_parallel`` inside ``partial_results``: (results, store, said)."""
    from frictionlab.scenarios.checkpoint import partial_results
    from frictionlab.scenarios.rough_contact._common import run_parallel

    said: list[str] = []
    with partial_results(tmp_path, "toy/secure", say=said.append, **kw) as store:
        results = run_parallel(toy_run, TASKS, {})
    return results, store, said


def _records(tmp_path) -> list[Path]:
    from frictionlab.scenarios.checkpoint import partial_dir

    return sorted(partial_dir(tmp_path, "toy/secure").glob("*.nc"))


def _assert_same_as_fresh(results) -> None:
    import xarray as xr

    for got, (x,) in zip(results, TASKS):
        xr.testing.assert_identical(got, toy_run(x))


def test_partials_are_netcdf_records_not_pickles(tmp_path):
    import xarray as xr

    _resume(tmp_path)
    files = _records(tmp_path)
    assert len(files) == 3 and not list(files[0].parent.glob("*.pkl"))
    with xr.open_dataset(files[0], engine="h5netcdf") as rec:  # self-describing: any NetCDF reader opens it
        assert rec.attrs["frictionlab_partial"] == "frictionlab-partial-2" and len(rec.attrs["sha256"]) == 64
        assert rec.attrs["key"] == files[0].stem
    results, store, said = _resume(tmp_path)
    assert store.resumed == 3 and store.repaired == 0
    _assert_same_as_fresh(results)


def test_crafted_pickle_partial_runs_nothing_and_is_recomputed(tmp_path):
    import pickle

    _resume(tmp_path)
    marker = tmp_path / "payload-ran"

    class Payload:
        def __reduce__(self):
            return (exec, (f"open({str(marker)!r}, 'w').write('pwned')",))

    victim = _records(tmp_path)[1]
    victim.write_bytes(pickle.dumps(Payload()))
    victim.with_suffix(".pkl").write_bytes(pickle.dumps(Payload()))  # the former file name too
    results, store, said = _resume(tmp_path)
    assert not marker.exists(), "loading a partial result executed code"
    assert store.resumed == 2 and store.repaired == 1 and store.written == 1
    assert any(f"partial result {victim.name} cannot be decoded" in s and "computing that run again" in s for s in said)
    _assert_same_as_fresh(results)


def test_partial_with_every_float_scaled_is_detected_and_recomputed(tmp_path):
    import h5py

    _resume(tmp_path)
    victim = _records(tmp_path)[0]
    with h5py.File(victim, "r+") as f:  # every stored float x 1.01, the checksum attribute left as it was
        for name, var in f.items():
            if var.dtype.kind == "f":
                var[...] = var[...] * 1.01
    results, store, said = _resume(tmp_path)
    assert store.resumed == 2 and store.repaired == 1
    assert any(f"partial result {victim.name} its file does not match its checksum" in s for s in said)
    _assert_same_as_fresh(results)


def test_partial_scaled_and_its_file_checksum_rewritten_is_caught_by_the_content_checksum(tmp_path):
    import h5py

    from frictionlab.scenarios.partial_record import _seal

    _resume(tmp_path)
    victim = _records(tmp_path)[0]
    with h5py.File(victim, "r+") as f:
        for name, var in f.items():
            if var.dtype.kind == "f":
                var[...] = var[...] * 1.01
    _seal(victim)  # the file's checksum made to match the edited bytes: the value's own one still differs
    results, store, said = _resume(tmp_path)
    assert store.repaired == 1
    assert any(f"partial result {victim.name} its content does not match its checksum" in s for s in said)
    _assert_same_as_fresh(results)

def test_partial_with_one_flipped_bit_is_detected_and_recomputed(tmp_path):
    import numpy as np

    _resume(tmp_path)
    mu = np.ascontiguousarray(toy_run(TASKS[2][0]).mu.values).tobytes()
    # the record of the third task (records are named by a key hash that changes with the code)
    victim = next(r for r in _records(tmp_path) if mu in r.read_bytes())
    raw = bytearray(victim.read_bytes())
    at = raw.find(mu)
    assert at > 0
    raw[at + 8 * 30 + 2] ^= 0x10  # one bit of the 31st sample
    victim.write_bytes(bytes(raw))
    results, store, said = _resume(tmp_path)
    assert store.resumed == 2 and store.repaired == 1
    assert any("does not match its checksum" in s for s in said)
    _assert_same_as_fresh(results)


def test_partial_renamed_to_another_runs_key_is_not_used(tmp_path):
    _resume(tmp_path)
    a, b = _records(tmp_path)[:2]
    b.write_bytes(a.read_bytes())
    results, store, said = _resume(tmp_path)
    assert store.repaired == 1 and any("the record of another run" in s for s in said)
    _assert_same_as_fresh(results)


def test_partials_of_another_user_need_resume(tmp_path, monkeypatch, cli):
    from frictionlab.scenarios import checkpoint

    _resume(tmp_path)
    me = checkpoint._my_uid()
    if me is None:
        pytest.skip("no user ids on this platform")
    monkeypatch.setattr(checkpoint, "_my_uid", lambda: me + 1)  # the files now belong to someone else
    with pytest.raises(checkpoint.ForeignPartials, match=r"another user \(uid .*--resume"):
        _resume(tmp_path)
    results, store, said = _resume(tmp_path, trust_others=True)  # --resume: used (still checksummed)
    assert store.resumed == 3
    _assert_same_as_fresh(results)
    results, store, said = _resume(tmp_path, fresh=True)  # --fresh: discarded, computed again
    assert store.resumed == 0 and store.written == 3


# A record of [np.int64(-2362), np.int64(-622), 8981786543516328.0] under key "key", as the format 1
# writer (no checksum of the file's bytes) wrote it, with bit 4 of byte 3303 flipped: the slow partial
# fuzzer's example 14. Reading its attribute ``frictionlab_partial`` with h5py did not return in 5 min.
_HUNG_HDF5 = (
    "H4sIAAAAAAACA+1VzWvTYBh/k3Yzlm5WV7cpDmtOHrbapmnXDgcbbfeBXTvWgYiM7k2TsGDXljYOio6Jgh948KAnL5t3Dzt48OpV"
    "8OIf4M2bl4EgwkDfzy0tm516za8lyfu87/N7vpNnc5mZPt9FH8CQJOAFAeDEL4bt4fY1318Ff0ZhLrMk9qmCKJOlR+zg7YRPBALe"
    "DxA33rLjC5yu95DZv4ivAgiinwTMhlW2rVq1ArVSHTZsC1bIqQuCQCIKkLMkSAAOngE4fygiMv8UvgsoD5j1jtE6EYvHwSIyFhzI"
    "KcLSXINKPNGdZcrBghlh+fsDmj8gCCT/gkDPbjMNfvcEMcnZK5eR3xghMCSBoS301CPhHVEUHVn9ybL6mOfgElHzeI+til+lfvYD"
    "P3KwlDfssm6qGWvd0jEr8pnbdcZDqhSh+exFehJI56aLRSQdaMsCAJn5hWy+OF/Il4rp6VwWqXX2UVx686SQnrtBI3hOzYHZI/qi"
    "d4T44OVrn90wjJLWso3mDrNXOh38dkj2mR39wl1epcXrIS7npxeygLk85XB5ec1qhtAfhqqGnc7MhHRr3ag2UQuGtLt2qFqzD7c2"
    "YMOCWsUIhyii8RRikHdX9k5YXj8262yb9rJK58gpAQy36/HCeo4vLBuiM4h92FGG3HxxGTUsK9MQ60vuH89B2501rvegzXZ7qOQV"
    "r8Tg8a+Jp49ejuOKdG9Fyp1hBX8I2lzZ/3r1I6bhCeFK91nH+9/jycLh2ijcpexMdimbT2dZuIMiDVeHNmwaNugGnpaDyjO51EUv"
    "ADrm5Zi0bnna9T59uLWPo/Pn6EwF0ZgMH0xjulZr6FYVoj6nVqSTWSF5UWnL//18/9h7B7FPvUN06vieF08dD8B/k6a9n0xUKZ9e"
    "bNTqBnpJE1cHkM41B+2G0cDJnFRG1+JV4slkNJwMo6VuxieVcCQcQTv11mQsHE2EI+rIi9fAxT9iNl3ICbwpO7+LCI7v6hj7ro5F"
    "/9eoopYjCfQS1GJaUtUhNJLxVEJPwZSpRZW4GlVS49EYVMaVpObtmKkdoZ1q7oxbQxcuXLhw4cKFCxcuXLhw4aIb7sm2PCFXrKYt"
    "j8ob8sRtKmiWYQU2kEi3W3UDCa5bSXpALifMhOmAvDnaVSelmPqROmalBpllGSYNGDcV1YgZyZipxuTNlc3flfvcDJ8YAAA="
)


def _hdf5_opened(monkeypatch) -> list:
    """Record every file the records module hands to the HDF5 library (through h5netcdf) from now on."""
    import h5netcdf

    opened: list = []
    real = h5netcdf.File

    def spy(*args, **kw):
        opened.append(args[0] if args else kw.get("path"))
        return real(*args, **kw)

    monkeypatch.setattr(h5netcdf, "File", spy)
    return opened


def test_record_that_hung_the_hdf5_library_is_refused_before_parsing(tmp_path, monkeypatch):
    """Fuzzer find: a bit flipped in a record's HDF5 metadata made h5py loop forever (a resume would hang)."""
    import base64
    import gzip

    from frictionlab.scenarios import partial_record as pr

    path = tmp_path / "key.nc"
    path.write_bytes(gzip.decompress(base64.b64decode("".join(_HUNG_HDF5))))
    opened = _hdf5_opened(monkeypatch)
    with pytest.raises(pr.RecordError, match="not a frictionlab-partial-2 record"):
        pr.read(path, "key")
    assert opened == []


def test_damaged_record_bytes_never_reach_the_hdf5_library(tmp_path, monkeypatch):
    import numpy as np

    from frictionlab.scenarios import partial_record as pr

    path = tmp_path / "key.nc"
    value = [np.int64(-2362), np.int64(-622), 8981786543516328.0]
    pr.write(path, "key", value)
    good = path.read_bytes()
    opened = _hdf5_opened(monkeypatch)
    assert pr.content_hash("key", pr.read(path, "key")) == pr.content_hash("key", value)
    assert opened  # an intact record is parsed
    opened.clear()
    for at in (0, 600, len(good) // 2, len(good) - 1):  # the header, the HDF5 superblock, metadata, the end
        raw = bytearray(good)
        raw[at] ^= 0x10
        path.write_bytes(bytes(raw))
        with pytest.raises(pr.RecordError, match="checksum|not a frictionlab-partial-2 record"):
            pr.read(path, "key")
    path.write_bytes(good[:len(good) - 100])
    with pytest.raises(pr.RecordError, match="checksum"):
        pr.read(path, "key")
    assert opened == []


def _toy_scenario_run(cfg, quick):
    import numpy as np

    from frictionlab.core.result import make_dataset
    from frictionlab.scenarios.rough_contact._common import run_parallel

    runs = run_parallel(toy_run, TASKS, cfg)
    return make_dataset(np.linspace(0.0, 1.0, 64), {"friction_coefficient": sum(r.mu.values for r in runs)})


def test_cli_refuses_another_users_partials_without_resume(cli, tmp_path, monkeypatch):
    from frictionlab.scenarios import base as scenario_base
    from frictionlab.scenarios import checkpoint
    from frictionlab.scenarios.base import Scenario

    name = "toy/secure"
    monkeypatch.setitem(scenario_base._SCENARIOS, name, Scenario(name, name, {"toy": {}}, run=_toy_scenario_run))
    with checkpoint.partial_results(tmp_path, name):  # an interrupted earlier run left its finished runs
        _toy_scenario_run({}, False)
    me = checkpoint._my_uid()
    if me is None:
        pytest.skip("no user ids on this platform")
    monkeypatch.setattr(checkpoint, "_my_uid", lambda: me + 1)
    code, out, err = cli(["run", name, "--out", tmp_path, "--csv", "none"])
    assert code == 2 and "Traceback" not in err and len(err.strip().splitlines()) == 1
    assert "written by another user" in err and "--resume" in err
    assert not (tmp_path / "toy__secure.nc").exists()
    code, out, err = cli(["run", name, "--out", tmp_path, "--csv", "none", "--resume"])
    assert code == 0, err
    assert "resumed 3 of 3 finished runs" in err


# ------------------------------------------------------------------------------- resource bombs
def _one_line(code: int, err: str, *needles: str) -> str:
    assert code == 2, err
    assert "Traceback" not in err and "internal error" not in err
    lines = [ln for ln in err.splitlines() if ln.strip()]
    assert len(lines) == 1 and lines[0].startswith("error:"), err
    for n in needles:
        assert n in lines[0], (n, lines[0])
    return lines[0]


@pytest.mark.parametrize("extra, needles", [
    (["--n-starts", "1000000000"], ["--n-starts = 1000000000 is more than the 10,000 allowed"]),
    (["--n-starts", "0"], ["--n-starts = 0 must be >= 1"]),
    (["--seed", "-1"], ["--seed = -1 must be >= 0"]),
])
def test_fit_starts_and_seed_bounded(extra, needles, cli, tmp_path):
    code, out, err = cli(["fit", "kloss", PSTAR[:-4], "--x", "E_MeV", "--y", "S_total_MeV_cm2_per_g",
                          "--out", tmp_path, "--quiet", *extra])
    _one_line(code, err, *needles)
    assert not list(tmp_path.glob("*.json"))


def test_fitter_api_bounds_starts_and_seed():
    import numpy as np

    from frictionlab.core.errors import ParameterError
    from frictionlab.fit.fitter import Fitter

    v = np.linspace(0.1, 1.0, 20)
    for kw, needle in [({"n_starts": 10 ** 9}, "n_starts = 1000000000 is more than"), ({"seed": -1}, "seed = -1"),
                       ({"n_starts": 2.5}, "n_starts = 2.5 must be a whole number")]:
        with pytest.raises(ParameterError, match=needle):
            Fitter("kloss", **kw).fit((v, 1.0 / (1.0 + v)))


@pytest.mark.parametrize("scenario, setting, needle", [
    ("kloss/fig10", "analysis.curve.n=1000000000", "analysis.curve.n = 1000000000 needs about 119 GiB of memory"),
    ("kloss/fig10", "analysis.curve.n=1.5", "analysis.curve.n = 1.5 must be a whole number"),
    ("kloss/pstar-fit", "analysis.bragg.n=10000000000000", "analysis.bragg.n = 10000000000000 needs about"),
])
def test_curve_sizes_refused_before_allocating(scenario, setting, needle, cli, tmp_path, monkeypatch):
    monkeypatch.delenv("FRICTIONLAB_MAX_MEMORY", raising=False)
    monkeypatch.setattr("frictionlab.core.validation.total_memory", lambda: 24 * 2 ** 30)  # the 24 GB machine
    code, out, err = cli(["run", scenario, "--quick", "--set", setting, "--out", tmp_path, "--csv", "none"])
    _one_line(code, err, needle)


def test_memory_estimate_is_against_the_machine_total_and_the_users_limit(monkeypatch):
    from frictionlab.core import validation
    from frictionlab.core.errors import ConfigError, ParameterError
    from frictionlab.laws import LuGre
    from frictionlab.protocols import make_protocol
    from frictionlab.systems.prescribed_slip import PrescribedSlip

    monkeypatch.delenv("FRICTIONLAB_MAX_MEMORY", raising=False)
    monkeypatch.setattr(validation, "total_memory", lambda: 24 * 2 ** 30)
    monkeypatch.setattr(validation, "available_memory", lambda: 23 * 2 ** 30)  # free now: not what counts
    assert validation.memory_limit()[0] == 12 * 2 ** 30
    law, sys_ = LuGre(), PrescribedSlip()
    proto = make_protocol({"type": "constant_velocity", "v": 1e-3, "duration_s": 1e4})
    # 1.4e8 steps of the compiled loop: ~17 GiB, under the 23 GiB free but over half of the 24 GiB machine
    with pytest.raises(ParameterError, match=r"needs about 17 GiB of memory, more than the 12 GiB a run may use"):
        validation.check_run_settings(law, proto, sys_, "rk4", dt=7e-5)
    validation.check_run_settings(law, proto, sys_, "rk4", dt=1e-2)  # 1e6 steps: fine
    monkeypatch.setenv("FRICTIONLAB_MAX_MEMORY", "64M")  # the user's limit
    with pytest.raises(ParameterError, match=r"more than the 64 MiB allowed \(FRICTIONLAB_MAX_MEMORY = 64M\)"):
        validation.check_run_settings(law, proto, sys_, "rk4", dt=1e-3)
    monkeypatch.setenv("FRICTIONLAB_MAX_MEMORY", "1T")  # above the machine: the machine's total counts
    assert validation.memory_limit()[0] == 24 * 2 ** 30
    for bad in ("lots", "-1G", "0", "1e400"):
        monkeypatch.setenv("FRICTIONLAB_MAX_MEMORY", bad)
        with pytest.raises(ConfigError, match="FRICTIONLAB_MAX_MEMORY"):
            validation.memory_limit()
    assert [validation.parse_bytes(t) for t in ("8G", "512 MiB", "2000", "1.5k")] == [8 * 2 ** 30, 2 ** 29, 2000, 1536]


def test_max_memory_option_refuses_a_run_over_it(cli, tmp_path, monkeypatch):
    monkeypatch.setenv("FRICTIONLAB_MAX_MEMORY", "1T")  # restored after the test (the option sets it)
    code, out, err = cli(["--max-memory", "1M", "run", "classic/rsf-velocity-step", "--out", tmp_path])
    _one_line(code, err, "more than the 1 MiB allowed")
    code, out, err = cli(["--max-memory", "much", "run", "classic/rsf-velocity-step", "--out", tmp_path])
    _one_line(code, err, "--max-memory = 'much'")


def test_beam_network_duration_bomb_refused(monkeypatch):
    from frictionlab.contact.beam_network.mlbnm import _check_run, _check_saved
    from frictionlab.core import validation
    from frictionlab.core.errors import ParameterError

    monkeypatch.delenv("FRICTIONLAB_MAX_MEMORY", raising=False)
    monkeypatch.setattr(validation, "total_memory", lambda: 24 * 2 ** 30)
    with pytest.raises(ParameterError, match="too many"):
        _check_run(2e-5, 1e308, 1e-3, "semi-implicit", 1e-3)
    n_steps, every = _check_run(2e-5, 1e6, 1e-3, "semi-implicit", 1e-3)
    with pytest.raises(ParameterError, match="saved samples"):
        _check_saved(n_steps, every, 3 * 9 + 2)


# ------------------------------------------------------------------ inputs that reached "internal error"
RSF = "classic/rsf-velocity-step"


@pytest.mark.parametrize("scenario, setting, needle", [
    (RSF, "protocol.velocities=[1e308,1e-5,1e-6]", "protocol segment 1 (0.0002 m at 1e+308 m/s) lasts 2e-312 s"),
    (RSF, "integrator.save_dt=1e308", "integrator.save_dt = 1e+308 s is longer than the run"),
    (RSF, "laws=[]", "has no laws any more: runs: one named run per evolution law"),
    ("classic/spring-slider-stick-slip", "axes.protocol.v=[]", "axes.protocol.v = [] must be a non-empty list"),
    ("classic/rsf-data-fit", "data.laws=[]", "data.laws = []: give a list of at least one"),
])
def test_former_internal_errors_are_one_line(scenario, setting, needle, cli, tmp_path):
    code, out, err = cli(["run", scenario, "--quick", "--set", setting, "--out", tmp_path, "--csv", "none"])
    _one_line(code, err, needle)



_STIFF_RSF = ["model.a=1e-4", "model.b=0.5", "model.dc=1e-9"]


@pytest.mark.parametrize("form, needle", [("log", "rate_state: radau failed at t = "),
                                          ("arcsinh", "MassSystem.preload must be finite, got inf")])
def test_radau_on_a_stiff_rsf_spring_slider_is_one_line(form, needle, cli, tmp_path):
    """Issue 30: radau on RSF a = 1e-4, b = 0.5, dc = 1e-9 in a spring-slider was an internal error. In
    classic/rsf-stability (radau, mass system) the log form fails in the solver, the arcsinh form's steady
    friction overflows (exp(mu0 / a)) before the run."""
    sets = [a for s in [*_STIFF_RSF, f"model.form={form}"] for a in ("--set", s)]
    code, out, err = cli(["run", "classic/rsf-stability", "--quick", *sets, "--out", tmp_path, "--csv", "none"])
    _one_line(code, err, needle)


def test_radau_on_a_stiff_rsf_spring_slider_api():
    from frictionlab import simulate
    from frictionlab.core.errors import IntegrationError
    from frictionlab.laws import RateState
    from frictionlab.protocols import ConstantVelocity, VelocitySteps
    from frictionlab.systems.mass import spring_slider

    law = RateState(a=1e-4, b=0.5, dc=1e-9, v0=1e-6, v_init=1e-6)
    with pytest.raises(IntegrationError, match=r"radau failed at t = .*Required step size"):
        simulate(law, VelocitySteps(velocities=(1e-6, 1e-5, 1e-6), durations=(10.0, 10.0, 10.0)),
                 system=spring_slider(1e-3, 1e5), integrator="radau")
    ds = simulate(law, ConstantVelocity(v=1e-6, duration_s=10.0), system=spring_slider(1e-3, 1e5), integrator="radau")
    assert ds.time.values[-1] == 10.0 and all(map(math.isfinite, ds.friction_force.values))

def test_save_dt_longer_than_the_run_refused_by_simulate():
    from frictionlab.core.errors import ParameterError
    from frictionlab.laws import RateState
    from frictionlab.protocols import make_protocol
    from frictionlab.solve import simulate

    proto = make_protocol({"type": "constant_velocity", "v": 1e-6, "duration_s": 10.0})
    for integrator in ("rk4", "radau"):
        with pytest.raises(ParameterError, match=r"save_dt = 1e\+308 s is longer than the run \(10 s\)"):
            simulate(RateState(), proto, integrator=integrator, save_dt=1e308)


def test_fifo_scenario_file_is_refused_not_read(cli, tmp_path):
    import os

    if not hasattr(os, "mkfifo"):
        pytest.skip("no FIFOs on this platform")
    fifo = tmp_path / "s.toml"
    os.mkfifo(fifo)
    code, out, err = cli(["run", fifo, "--out", tmp_path / "o"])  # blocked forever before
    _one_line(code, err, "is not a regular file")


def test_huge_value_is_cut_in_the_message(cli, tmp_path):
    big = tmp_path / "big.toml"
    big.write_text('scenario = "' + "x" * 5_000_000 + '"\n')
    code, out, err = cli(["run", big, "--out", tmp_path / "o"])
    line = _one_line(code, err, "unknown scenario", "characters cut")
    assert len(line) < 400
    spaced = tmp_path / "spaced.toml"
    spaced.write_text('[model]\nname = "' + "y " * 1_000_000 + '"\n')
    code, out, err = cli(["run", spaced, "--out", tmp_path / "o"])
    assert code == 2 and len(err) < 2500 and "characters cut" in err


@pytest.mark.parametrize("argv, text", [(["sweep", "--help"], "key=start:stop:num[:log]"),
                                        (["compare", "--help"], "spring-slider mass [kg]")])
def test_help_keeps_bracketed_words(argv, text, cli, monkeypatch):
    monkeypatch.setenv("COLUMNS", "200")
    code, out, err = cli(argv)
    assert code == 0
    assert text in " ".join(out.split())
