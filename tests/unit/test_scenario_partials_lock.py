"""One process at a time writes a scenario's partial results (``scenarios/checkpoint.py``): a second
``run``/``reproduce`` on the same ``--out`` is refused at once, naming the holder; the lock goes with
the holder however it ends (normal exit, exception, Ctrl-C, SIGKILL); forked workers do not keep it;
a partial killed mid-write is never loaded."""

from __future__ import annotations

import contextlib
import os
import signal
import socket
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

from frictionlab.core.errors import FrictionLabError
from frictionlab.scenarios import checkpoint
from frictionlab.scenarios.checkpoint import MISSING, partial_dir, partial_results

pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="POSIX processes and signals")

SCEN = "toy/lock"

#: holds the partials of ``toy/lock`` under argv[1] (one result saved), touches argv[2], sleeps
HOLDER = textwrap.dedent('''
    import sys, time, pathlib
    from frictionlab.scenarios.checkpoint import partial_results
    with partial_results(sys.argv[1], "toy/lock") as store:
        store.save("done", 42.0)
        pathlib.Path(sys.argv[2]).touch()
        time.sleep(120)
''')

#: writes the 4 MiB first array of a record, then (inside the same write) touches argv[2] and sleeps:
#: killed mid-write
WRITER = textwrap.dedent('''
    import sys, time, pathlib
    import numpy as np
    import h5netcdf
    from frictionlab.scenarios.checkpoint import partial_results

    real = h5netcdf.File.create_variable
    def slow(self, name, *args, **kwargs):
        var = real(self, name, *args, **kwargs)
        if name == "a1":
            self.flush()
            pathlib.Path(sys.argv[2]).touch()
            time.sleep(120)
        return var
    h5netcdf.File.create_variable = slow

    with partial_results(sys.argv[1], "toy/lock") as store:
        store.save("big", [np.ones(1 << 19), np.ones(3)])
''')


def start(script: str, out: Path, ready: Path) -> subprocess.Popen:
    proc = subprocess.Popen([sys.executable, "-c", script, str(out), str(ready)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    deadline = time.monotonic() + 60
    while not ready.exists():
        if proc.poll() is not None or time.monotonic() > deadline:
            proc.kill()
            raise AssertionError(f"the child did not get ready: {proc.communicate()}")
        time.sleep(0.05)
    return proc


@pytest.fixture
def holder(tmp_path):
    proc = start(HOLDER, tmp_path, tmp_path / "ready")
    yield proc
    if proc.poll() is None:
        proc.kill()
        proc.wait()


def test_second_writer_is_refused_naming_the_holder_then_sigkill_frees_it(holder, tmp_path):
    t0 = time.monotonic()
    with pytest.raises(FrictionLabError) as info, partial_results(tmp_path, SCEN, say=print):
        pytest.fail("a second process entered the partial results another one is writing")
    msg = str(info.value)
    assert time.monotonic() - t0 < 5  # refused at once, no waiting
    assert str(partial_dir(tmp_path, SCEN)) in msg and f"pid {holder.pid}" in msg
    assert socket.gethostname() in msg and "started" in msg and "\n" not in msg
    assert checkpoint.active() is None
    with pytest.raises(FrictionLabError, match=f"pid {holder.pid}"):  # --fresh must not delete them either
        checkpoint.discard(tmp_path, SCEN)
    assert (partial_dir(tmp_path, SCEN) / "done.nc").exists()

    holder.send_signal(signal.SIGKILL)
    holder.wait()
    with partial_results(tmp_path, SCEN, say=print) as store:  # the kernel dropped the dead holder's lock
        assert store.load("done") == 42.0


def test_cli_run_on_a_busy_out_is_one_line_exit_2(holder, tmp_path, cli, monkeypatch):
    from frictionlab.scenarios import base

    ran = []
    monkeypatch.setitem(base._SCENARIOS, SCEN, base.Scenario(SCEN, "toy", {"toy": {}}, run=lambda c, q: ran.append(1)))
    for argv in (["run", SCEN, "--out", tmp_path], ["run", SCEN, "--out", tmp_path, "--fresh"],
                 ["reproduce", SCEN, "--out", tmp_path], ["reproduce", SCEN, "--out", tmp_path, "--fresh"]):
        code, out, err = cli(argv)
        lines = [ln for ln in err.splitlines() if ln.strip()]
        assert code == 2 and len(lines) == 1 and f"pid {holder.pid}" in lines[0], (argv, out, err)
        assert "Traceback" not in out + err
    assert ran == []
    assert (partial_dir(tmp_path, SCEN) / "done.nc").exists()  # the holder's results are untouched


@pytest.mark.parametrize("exc", [ValueError, KeyboardInterrupt])
def test_lock_is_released_on_exceptions_and_ctrl_c(tmp_path, exc):
    with pytest.raises(exc), partial_results(tmp_path, SCEN, say=print) as store:
        store.save("one", 1)
        raise exc()
    with partial_results(tmp_path, SCEN, say=print) as store:  # a leaked lock would refuse this
        assert store.load("one") == 1
        with pytest.raises(FrictionLabError, match=f"pid {os.getpid()}"), partial_results(tmp_path, SCEN):
            pass  # one writer, also within one process
    kept = partial_dir(tmp_path, SCEN)
    assert sorted(p.name for p in kept.iterdir()) == [store.path("one").name]  # no lock file left behind


def test_nothing_left_on_disk_when_nothing_was_saved(tmp_path):
    with partial_results(tmp_path, SCEN, say=print):
        pass
    assert list(tmp_path.iterdir()) == []


FORKING_HOLDER = textwrap.dedent('''
    import multiprocessing as mp, sys, time, pathlib
    from frictionlab.scenarios.checkpoint import partial_results
    with partial_results(sys.argv[1], "toy/lock") as store:
        worker = mp.get_context("fork").Process(target=time.sleep, args=(120,))  # as run_parallel's workers
        worker.start()
        pathlib.Path(sys.argv[1], "worker.pid").write_text(str(worker.pid))
        pathlib.Path(sys.argv[2]).touch()
        time.sleep(120)
''')


def test_forked_worker_of_a_killed_holder_does_not_keep_the_lock(tmp_path):
    proc = start(FORKING_HOLDER, tmp_path, tmp_path / "ready")
    worker = int((tmp_path / "worker.pid").read_text())
    try:
        with pytest.raises(FrictionLabError, match=f"pid {proc.pid}"), partial_results(tmp_path, SCEN):
            pass
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        os.kill(worker, 0)  # the worker lives on, with its copy of the holder's descriptors
        with partial_results(tmp_path, SCEN, say=print):
            pass
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        with contextlib.suppress(ProcessLookupError):
            os.kill(worker, signal.SIGKILL)


COUNTER = textwrap.dedent('''
    import os, sys, time
    from frictionlab.core.errors import FrictionLabError
    from frictionlab.scenarios.checkpoint import partial_results
    inside = os.path.join(sys.argv[1], "inside")
    got = 0
    while got < int(sys.argv[2]):
        try:
            with partial_results(sys.argv[1], "toy/lock", say=print):
                fd = os.open(inside, os.O_CREAT | os.O_EXCL | os.O_WRONLY)  # fails if another one is inside
                os.close(fd)
                time.sleep(0.001)
                os.unlink(inside)
                got += 1
        except FrictionLabError:
            time.sleep(0.0005)
''')


def test_mutual_exclusion_under_contention(tmp_path):
    """Two processes enter and leave in a loop (the lock file is removed on every release): never both inside."""
    procs = [subprocess.Popen([sys.executable, "-c", COUNTER, str(tmp_path), "150"], stderr=subprocess.PIPE, text=True)
             for _ in range(2)]
    for p in procs:
        _, err = p.communicate(timeout=120)
        assert p.returncode == 0, err


def test_lock_file_removed_between_open_and_lock_is_not_taken(tmp_path, monkeypatch):
    """The holder releases (removing the file) after a second process opened it but before it
    locked it: the second one must lock the file now at the path, not the removed one."""
    from frictionlab.core import filelock

    path = tmp_path / "x.lock"
    first = filelock.exclusive(path, str)
    first.__enter__()
    real = filelock._try_lock
    released = []

    def try_lock(fd):
        if not released:
            released.append(fd)
            first.__exit__(None, None, None)
        return real(fd)

    monkeypatch.setattr(filelock, "_try_lock", try_lock)
    with filelock.exclusive(path, str):
        assert released and path.exists() and filelock.held(path)
        third = subprocess.run([sys.executable, "-c", "import sys\nfrom frictionlab.core import filelock\n"
                                "with filelock.exclusive(sys.argv[1], str): pass", str(path)],
                               capture_output=True, text=True, timeout=60)
        assert third.returncode != 0 and "LockBusy" in third.stderr and f"pid {os.getpid()}" in third.stderr
    assert not path.exists()


def test_partial_killed_mid_write_is_never_loaded(tmp_path):
    proc = start(WRITER, tmp_path, tmp_path / "ready")
    d = partial_dir(tmp_path, SCEN)
    temps = [p for p in d.iterdir() if p.name.startswith(".big.")]
    assert len(temps) == 1 and temps[0].stat().st_size >= 1 << 22  # killed with the 4 MiB array written
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    assert not (d / "big.nc").exists()
    with partial_results(tmp_path, SCEN, say=print) as store:
        assert store.load("big") is MISSING
        assert not temps[0].exists()  # the dead writer's temporary file is cleared by the next holder


def test_file_system_without_locks_runs_without_partials(tmp_path, monkeypatch):
    """A lock that cannot be taken (ENOLCK, say) is said once; the run goes on keeping nothing."""
    import errno

    from frictionlab.core import filelock
    from frictionlab.scenarios.rough_contact._common import run_parallel

    def no_locks(fd):
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(filelock, "_try_lock", no_locks)
    said = []
    with partial_results(tmp_path, SCEN, say=said.append) as store:
        assert checkpoint.active() is None
        assert run_parallel(pow, [(2, 3), (3, 2)], {}) == [8, 9]
        assert checkpoint.discard(tmp_path, SCEN) is False
    assert len(said) == 1 and "cannot lock" in said[0] and "No locks available" in said[0]
    assert store.written == 0 and list(tmp_path.iterdir()) == []
