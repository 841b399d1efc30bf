"""Keys and store of the partial results of a scenario's independent runs (``scenarios/checkpoint.py``);
the CLI behaviour (interrupt, resume, bit-for-bit result) is in ``tests/cli/test_cli_resume.py``."""

from __future__ import annotations

import math

import numpy as np
import pytest

from frictionlab.scenarios import checkpoint
from frictionlab.scenarios.checkpoint import MISSING, partial_results, task_key
from frictionlab.scenarios.rough_contact._common import run_parallel

CALLS: list[tuple] = []


def counted(x: float, y: float) -> float:
    CALLS.append((x, y))
    if (x, y) == (9.0, 9.0):
        raise ValueError("the run (9, 9) fails")
    return math.hypot(x, y)


def test_key_changes_with_every_argument_bit_and_type():
    cfg = {"model": {"a": 1.0, "b": [1, 2]}, "protocol": {"v": 1e-6}}
    base = task_key(counted, (cfg, 1.0))
    assert task_key(counted, (cfg, 1.0)) == base  # deterministic
    others = [
        (counted, ({"model": {"a": 1.0, "b": [1, 2]}, "protocol": {"v": 1e-6 * (1 + 2**-52)}}, 1.0)),  # one ulp
        (counted, ({"model": {"b": [1, 2], "a": 1.0}, "protocol": {"v": 1e-6}}, 1.0)),  # table order
        (counted, ({"model": {"a": 1.0, "b": (1, 2)}, "protocol": {"v": 1e-6}}, 1.0)),  # tuple, not list
        (counted, ({"model": {"a": 1, "b": [1, 2]}, "protocol": {"v": 1e-6}}, 1.0)),  # int, not float
        (counted, (cfg, 2.0)),
        (counted, (cfg, True)),
        (counted, (cfg, np.array([1.0]))),
        (counted, (cfg, np.array([1.0], dtype=np.float32))),
        (math.hypot, (cfg, 1.0)),  # another function
    ]
    keys = {task_key(fn, args) for fn, args in others}
    assert base not in keys and len(keys) == len(others)
    assert task_key(counted, (cfg, 0.0)) != task_key(counted, (cfg, -0.0))


def test_key_changes_with_the_code(monkeypatch):
    before = task_key(counted, (1.0, 2.0))
    monkeypatch.setattr(checkpoint, "_IDENTITY", [checkpoint.code_identity() + b"\n# an edited line"])
    assert task_key(counted, (1.0, 2.0)) != before
    identity = checkpoint.code_identity().decode()
    assert "frictionlab=" in identity and "source=" in identity and "numpy=" in identity


def test_unkeyable_argument_is_refused_not_guessed():
    with pytest.raises(TypeError, match="object"):
        task_key(counted, (object(),))


def test_store_resumes_skips_damaged_files_and_reports(tmp_path):
    said = []
    tasks = [(3.0, 4.0), (5.0, 12.0), (8.0, 15.0)]
    CALLS.clear()
    with partial_results(tmp_path, "toy/ckpt", say=said.append) as store:
        assert run_parallel(counted, tasks, {}) == [5.0, 13.0, 17.0]
    assert CALLS == tasks and store.written == 3 and said == []
    files = sorted(checkpoint.partial_dir(tmp_path, "toy/ckpt").glob("*.nc"))
    assert len(files) == 3
    files[0].write_bytes(b"not a record")  # damaged: said, computed again and replaced
    CALLS.clear()
    with partial_results(tmp_path, "toy/ckpt", say=said.append) as store:
        assert run_parallel(counted, tasks, {}) == [5.0, 13.0, 17.0]
    assert len(CALLS) == 1 and store.resumed == 2 and store.written == 1
    assert len(said) == 2 and said[0].startswith(f"toy/ckpt: partial result {files[0].name} cannot be decoded")
    assert said[0].endswith("; computing that run again") and store.repaired == 1
    assert said[1] == f"toy/ckpt: resumed 2 of 3 finished runs from {store.directory}; computing 1"
    assert checkpoint.active() is None  # the context is closed
    with partial_results(tmp_path, "toy/ckpt", say=said.append) as store:
        keys, found = store.resume(counted, tasks)
    assert MISSING not in found and len(set(keys)) == 3
    assert checkpoint.discard(tmp_path, "toy/ckpt") and not (tmp_path / "partial").exists()


def test_failing_run_keeps_the_finished_ones(tmp_path):
    tasks = [(3.0, 4.0), (9.0, 9.0), (5.0, 12.0)]
    CALLS.clear()
    with pytest.raises(ValueError, match="fails"), partial_results(tmp_path, "toy/ckpt", say=print) as store:
        run_parallel(counted, tasks, {})
    assert CALLS == tasks[:2] and store.written == 1
    with partial_results(tmp_path, "toy/ckpt", fresh=True, say=print) as store:  # fresh: start over
        CALLS.clear()
        with pytest.raises(ValueError):
            run_parallel(counted, tasks, {})
    assert CALLS == tasks[:2] and store.resumed == 0
