"""Partial results of a scenario's independent runs, written as each one finishes.

A long scenario (rough-contact Figs. 8, 13 and 14 at the paper's size: hours) runs many independent
runs (velocities, material sets, surfaces) through
:func:`frictionlab.scenarios.rough_contact._common.run_parallel`. When ``frictionlab run SCENARIO
--out DIR`` or ``frictionlab reproduce ... --out DIR`` runs it, each finished run is written at once
to ``DIR/partial/<scenario>/<key>.nc`` (a temporary name, then a rename), and a rerun with the same
``--out`` loads the finished runs and computes only the rest. After the scenario's result is
written the scenario's partial directory is removed; ``--fresh`` removes it before the run.

The scenario's ``run`` function knows nothing of this: the CLI (``run``) and the report layer
(:func:`frictionlab.report.reproduce.run_one`) open a :func:`partial_results` context, and
``run_parallel`` asks :func:`active` for the store (``None`` outside such a context: API callers and
tests run as before, nothing written).

One process at a time: :func:`partial_results` holds an exclusive lock on
``DIR/partial/<scenario>/.lock`` (:func:`frictionlab.core.filelock.exclusive`) from before it looks
at the directory until the caller has written the result and called :func:`discard`; a second
``run``/``reproduce`` on the same ``--out`` (which would compute the same runs, race on the same
files, and could see the directory removed under it) is refused at once with
:class:`~frictionlab.core.filelock.LockBusy` naming the holder's pid, host, start time and command
(the CLI: one line, exit 2). :func:`discard` by another process (``--fresh``) is refused the same way.
The kernel drops the lock with the holder however it ends, SIGKILL included; the temporary files a
killed writer left are removed by the next holder (a partial is only ever loaded under its final
name, which a rename gives it complete).

The key of a run hashes everything that determines its result: the task function (module and
qualified name, plus its source file when it lives outside frictionlab), its arguments (configs,
numbers, arrays; see :func:`task_key`) and the code identity (:func:`code_identity`: frictionlab's
version and a hash of the content of every frictionlab source file, the versions of Python, numpy,
scipy, numba, llvmlite and xarray, the machine type). Edited code therefore never reuses a stale
result: the old files are simply not found (and are removed with the directory after the next
successful run).

A result is stored without pickle, as a self-describing NetCDF-4 record with the SHA-256 of its
bytes (checked before the HDF5 library parses any) and of its content
(:mod:`frictionlab.scenarios.partial_record`: numbers, text, tuples/lists/dicts, numpy arrays,
xarray Datasets), which gives back exactly the object the run returned (a dataset with its attributes
as they were, a tuple of arrays), so a resumed scenario is bit for bit the uninterrupted one. Reading
a record runs no code; a record that cannot be decoded or does not match its checksum (a flipped bit,
an edited value) is said and its run computed again. A partial directory or record owned by another
user is refused (:class:`ForeignPartials`) unless the caller trusts it (``--resume``): its values
would enter the result.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import os
import shutil
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from ..core import filelock
from ..core.errors import ConfigError
from ..core.filelock import LockBusy
from .partial_record import RecordError
from .partial_record import feed as _encode

__all__ = ["PartialStore", "partial_results", "active", "task_key", "code_identity", "discard", "partial_dir",
           "PARTIAL", "MISSING", "LockBusy", "ForeignPartials", "SUFFIX"]

#: the sub-directory of ``--out`` holding the partial results, one directory per scenario below it
PARTIAL = "partial"
#: the lock file in a scenario's partial directory (removed on release)
LOCK = ".lock"
#: the file suffix of a stored partial result (a NetCDF-4 record, :mod:`.partial_record`)
SUFFIX = ".nc"


class ForeignPartials(ConfigError):
    """The partial results to resume from belong to another user (``--resume`` trusts them)."""

_ACTIVE: contextvars.ContextVar[PartialStore | None] = contextvars.ContextVar("frictionlab_partials", default=None)
_IDENTITY: list[bytes] = []
#: packages whose version enters every key (absent ones as "-")
_VERSIONED = ("numpy", "scipy", "numba", "llvmlite", "xarray")


def partial_dir(out: str | Path, scenario: str) -> Path:
    """``OUT/partial/<scenario with / as __>``: where the partial results of ``scenario`` are kept."""
    return Path(out) / PARTIAL / scenario.replace("/", "__")


def discard(out: str | Path, scenario: str) -> bool:
    """Remove the partial results of ``scenario`` under ``out`` (and ``out/partial`` once empty);
    True when there were any.

    Inside this process's :func:`partial_results` of ``scenario`` (after its result is written) the
    directory goes when that context closes; otherwise the lock is taken for the removal.

    Raises
    ------
    LockBusy
        another process is writing them (its ``run``/``reproduce`` on the same ``--out``)."""
    d = partial_dir(out, scenario)
    if filelock.held(d / LOCK):
        return _clear(d)
    if not d.is_dir():
        _prune(d)
        return False
    try:
        with filelock.exclusive(d / LOCK, _busy(d, scenario)):
            had = _clear(d)
    except OSError:  # no locks on this file system (said when the run started): remove them as they are
        had = _clear(d)
    _prune(d)
    return had


def _busy(d: Path, scenario: str) -> Callable[[str], str]:
    return lambda holder: (f"{scenario}: its partial results in {d} are in use by another frictionlab process "
                           f"({holder}); two processes on one --out would compute the same runs and overwrite each "
                           "other's files: wait for that one to finish, or give this one another --out")


def _clear(d: Path, temporary_only: bool = False) -> bool:
    """Remove the entries of ``d`` but its lock file (only the temporary files of killed writers
    with ``temporary_only``); True when there were any."""
    had = False
    with contextlib.suppress(FileNotFoundError):
        for p in list(d.iterdir()):
            if p.name == LOCK or (temporary_only and not (p.name.startswith(".") and ".tmp" in p.name)):
                continue
            had = True
            if p.is_dir() and not p.is_symlink():
                shutil.rmtree(p, ignore_errors=True)
            else:
                with contextlib.suppress(FileNotFoundError):
                    p.unlink()
    return had


def _prune(d: Path) -> None:
    """Remove ``d`` and ``out/partial`` when empty."""
    for p in (d, d.parent):
        with contextlib.suppress(OSError):
            p.rmdir()


def code_identity() -> bytes:
    """What the code a run executes is: frictionlab's version and source content, the versions of the
    numerical packages, Python and the machine type (computed once per process)."""
    if not _IDENTITY:
        import platform
        from importlib import metadata

        from .. import __version__
        from ..core.jitcache import package_hash

        parts = [f"frictionlab={__version__}", f"source={package_hash()}", f"python={sys.version}",
                 f"machine={platform.machine()}"]
        for name in _VERSIONED:
            try:
                parts.append(f"{name}={metadata.version(name)}")
            except metadata.PackageNotFoundError:
                parts.append(f"{name}=-")
        _IDENTITY.append("\n".join(parts).encode())
    return _IDENTITY[0]


def task_key(fn: Callable[..., Any], args: tuple) -> str:
    """The hex key of the run ``fn(*args)`` under the current code (:func:`code_identity`).

    Raises
    ------
    TypeError
        an argument is of a type without an exact encoding (anything but None, bool, int, float, str,
        bytes, lists, tuples, dicts of these, numpy numbers and arrays of numbers or text, Datasets).
    """
    h = hashlib.sha256(code_identity())
    _encode(f"{fn.__module__}.{fn.__qualname__}", h)
    src = getattr(sys.modules.get(fn.__module__), "__file__", None)
    own = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    if src and not os.path.abspath(src).startswith(own + os.sep):  # frictionlab's files are in the identity
        with contextlib.suppress(OSError):
            h.update(Path(src).read_bytes())
    _encode(tuple(args), h)
    return h.hexdigest()[:32]


#: marks a task without a stored result in :meth:`PartialStore.resume`
MISSING = object()


@dataclass
class PartialStore:
    """The partial results of one scenario in ``directory`` (:func:`partial_results` opens it).

    ``say`` prints one line (resumed runs, a partial that could not be written)."""

    directory: Path
    scenario: str
    say: Callable[[str], None] = field(default=lambda text: print(text, file=sys.stderr))
    resumed: int = 0
    written: int = 0
    repaired: int = 0
    _warned: bool = False

    def path(self, key: str) -> Path:
        return self.directory / f"{key}{SUFFIX}"

    def load(self, key: str) -> Any:
        """The stored result of ``key``, else :data:`MISSING`: none yet, or a record that cannot be
        decoded or does not match its checksum, which is said (and removed: the run replaces it)."""
        from .partial_record import read

        path = self.path(key)
        try:
            return read(path, key)
        except FileNotFoundError:
            return MISSING
        except (RecordError, OSError) as exc:
            self.repaired += 1
            self.say(f"{self.scenario}: partial result {path.name} {exc}; computing that run again")
            with contextlib.suppress(OSError):
                path.unlink()
            return MISSING

    def save(self, key: str, value: Any) -> None:
        """Write ``value`` under ``key`` through a temporary name and a rename; a failure to write
        (or a value the record format cannot hold exactly) is said once and the scenario goes on (it
        only loses the resume of that run)."""
        from ..core.files import atomic_target
        from .partial_record import write

        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            with atomic_target(self.path(key)) as tmp:
                write(tmp, key, value)
            self.written += 1
        except (OSError, TypeError, ValueError) as exc:
            if not self._warned:
                self._warned = True
                self.say(f"{self.scenario}: cannot write partial results to {self.directory} ({exc}); "
                         "an interrupted run will not resume")

    def resume(self, fn: Callable[..., Any], tasks: list[tuple], keyed: list[tuple] | None = None
               ) -> tuple[list[str | None], list[Any]]:
        """Keys of the tasks (hashing ``keyed``, default ``tasks``) and their stored results
        (:data:`MISSING` where none); says how many were resumed. A task that cannot be keyed gets
        ``None`` (it is computed and not stored), said once."""
        keys: list[str | None] = []
        for t in keyed if keyed is not None else tasks:
            try:
                keys.append(task_key(fn, t))
            except TypeError as exc:
                keys.append(None)
                if not self._warned:
                    self._warned = True
                    self.say(f"{self.scenario}: runs of {fn.__qualname__} are not saved as they finish ({exc})")
        found = [self.load(k) if k is not None else MISSING for k in keys]
        n = sum(r is not MISSING for r in found)
        self.resumed += n
        if n:
            self.say(f"{self.scenario}: resumed {n} of {len(tasks)} finished runs from {self.directory}; "
                     f"computing {len(tasks) - n}")
        return keys, found


def active() -> PartialStore | None:
    """The store of the scenario being run by the CLI or ``reproduce``; None elsewhere."""
    return _ACTIVE.get()


def _my_uid() -> int | None:
    """This process's user id (None where the platform has none)."""
    return os.getuid() if hasattr(os, "getuid") else None


def _foreign_owners(d: Path) -> set[int]:
    """User ids other than this process's that own ``d`` or a stored result in it."""
    me = _my_uid()
    if me is None or not d.is_dir():
        return set()
    owners = set()
    for p in [d, *d.glob(f"*{SUFFIX}")]:
        with contextlib.suppress(OSError):
            owners.add(p.lstat().st_uid)
    return owners - {me}


@contextlib.contextmanager
def partial_results(out: str | Path, scenario: str, *, fresh: bool = False, trust_others: bool = False,
                    say: Callable[[str], None] | None = None) -> Iterator[PartialStore]:
    """Keep the finished runs of ``scenario`` under ``out/partial/<scenario>/`` while the block runs,
    holding the directory's lock (one process at a time; see the module notes).

    With ``fresh`` the scenario's earlier partial results are removed first. The directory is left
    in place when the block raises (an interruption, a crash: the next run resumes from it); the
    caller writes the scenario's result and then calls :func:`discard` inside the block, so that no
    other process resumes from the directory before it is gone.

    When the lock cannot be taken for another reason (the directory cannot be created, a file
    system without locks) that is said in one line and the block runs without partial results,
    as a run whose partials cannot be written.

    Partial results owned by another user (the directory or a stored result) are refused unless
    ``trust_others`` (the CLI's ``--resume``) or ``fresh`` (which discards them): their values would
    enter this run's result.

    Raises
    ------
    LockBusy
        another process holds the scenario's partial results under ``out``.
    ForeignPartials
        the partial results belong to another user and neither ``trust_others`` nor ``fresh`` is given.
    """
    d = partial_dir(out, scenario)
    store = PartialStore(d, scenario)
    if say is not None:
        store.say = say
    try:
        with contextlib.ExitStack() as stack:
            try:
                stack.enter_context(filelock.exclusive(d / LOCK, _busy(d, scenario)))
            except OSError as exc:
                store.say(f"{scenario}: cannot lock {d} ({exc}); its finished runs are not kept (an interrupted run "
                          "will not resume)")
                yield store  # not active: run_parallel keeps nothing
                return
            others = set() if fresh or trust_others else _foreign_owners(d)
            if others:
                raise ForeignPartials(
                    f"{scenario}: the finished runs in {d} were written by another user (uid "
                    f"{', '.join(map(str, sorted(others)))}); their values would enter this result: give --resume "
                    "to use them anyway, --fresh to compute everything again, or another --out")
            _clear(d, temporary_only=not fresh)
            token = _ACTIVE.set(store)
            try:
                yield store
            finally:
                _ACTIVE.reset(token)
    finally:
        _prune(d)
