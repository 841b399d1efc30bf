"""Partial results of a scenario's independent runs, written as each one finishes.

A long scenario (rough-contact Figs. 8, 13 and 14 at the paper's size: hours) runs many independent
runs (velocities, material sets, surfaces) through
:func:`frictionlab.scenarios.rough_contact._common.run_parallel`. When ``frictionlab run SCENARIO
--out DIR`` or ``frictionlab reproduce ... --out DIR`` runs it, each finished run is written at once
to ``DIR/partial/<scenario>/<key>.pkl`` (a temporary name, then a rename), and a rerun with the same
``--out`` loads the finished runs and computes only the rest. After the scenario's result is
written the scenario's partial directory is removed; ``--fresh`` removes it before the run.

The scenario's ``run`` function knows nothing of this: the CLI (``run``) and the report layer
(:func:`frictionlab.report.reproduce.run_one`) open a :func:`partial_results` context, and
``run_parallel`` asks :func:`active` for the store (``None`` outside such a context: API callers and
tests run as before, nothing written).

The key of a run hashes everything that determines its result: the task function (module and
qualified name, plus its source file when it lives outside frictionlab), its arguments (configs,
numbers, arrays; see :func:`task_key`) and the code identity (:func:`code_identity`: frictionlab's
version and a hash of the content of every frictionlab source file, the versions of Python, numpy,
scipy, numba, llvmlite and xarray, the machine type). Edited code therefore never reuses a stale
result: the old files are simply not found (and are removed with the directory after the next
successful run). A result is stored with :mod:`pickle`, which gives back exactly the object the run
returned (a dataset with its attributes as they were, a tuple of arrays), so a resumed scenario is
bit for bit the uninterrupted one; load only partial directories you wrote yourself.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
import os
import pickle
import shutil
import struct
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

__all__ = ["PartialStore", "partial_results", "active", "task_key", "code_identity", "discard", "partial_dir",
           "PARTIAL", "MISSING"]

#: the sub-directory of ``--out`` holding the partial results, one directory per scenario below it
PARTIAL = "partial"

_ACTIVE: contextvars.ContextVar[PartialStore | None] = contextvars.ContextVar("frictionlab_partials", default=None)
_IDENTITY: list[bytes] = []
#: packages whose version enters every key (absent ones as "-")
_VERSIONED = ("numpy", "scipy", "numba", "llvmlite", "xarray")


def partial_dir(out: str | Path, scenario: str) -> Path:
    """``OUT/partial/<scenario with / as __>``: where the partial results of ``scenario`` are kept."""
    return Path(out) / PARTIAL / scenario.replace("/", "__")


def discard(out: str | Path, scenario: str) -> bool:
    """Remove the partial results of ``scenario`` under ``out`` (and ``out/partial`` once empty);
    True when there were any."""
    d = partial_dir(out, scenario)
    had = d.is_dir()
    shutil.rmtree(d, ignore_errors=True)
    with contextlib.suppress(OSError):
        d.parent.rmdir()  # only when no other scenario keeps partials there
    return had


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


def _encode(obj: Any, h: Any) -> None:
    """Feed a canonical, type-tagged encoding of ``obj`` to the hash ``h``; TypeError for a type it
    cannot encode exactly (so an unknown argument never shares a key with another value)."""
    import numpy as np

    if obj is None or isinstance(obj, bool):
        h.update(f"<{obj!r}>".encode())
    elif isinstance(obj, int):
        h.update(f"i{obj};".encode())
    elif isinstance(obj, float):
        h.update(b"f" + struct.pack("<d", obj))  # every bit: -0.0 and each NaN payload differ
    elif isinstance(obj, str):
        b = obj.encode("utf-8", "surrogatepass")
        h.update(f"s{len(b)}:".encode() + b)
    elif isinstance(obj, bytes):
        h.update(f"b{len(obj)}:".encode() + obj)
    elif isinstance(obj, (list, tuple)):
        h.update(f"{'l' if isinstance(obj, list) else 't'}{len(obj)}[".encode())
        for x in obj:
            _encode(x, h)
        h.update(b"]")
    elif isinstance(obj, dict):  # insertion order kept: a run may iterate its tables in order
        h.update(f"d{len(obj)}{{".encode())
        for k, v in obj.items():
            _encode(k, h)
            _encode(v, h)
        h.update(b"}")
    elif isinstance(obj, (np.ndarray, np.generic)) and obj.dtype.kind in "biufcSU":
        a = np.ascontiguousarray(obj)
        h.update(f"a{a.dtype.str}{a.shape}:".encode() + a.tobytes())
    else:
        raise TypeError(f"cannot key a run on an argument of type {type(obj).__name__}")


def task_key(fn: Callable[..., Any], args: tuple) -> str:
    """The hex key of the run ``fn(*args)`` under the current code (:func:`code_identity`).

    Raises
    ------
    TypeError
        an argument is of a type without an exact encoding (anything but None, bool, int, float, str,
        bytes, lists, tuples, dicts of these, numpy numbers and arrays of numbers or text).
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
    _warned: bool = False

    def path(self, key: str) -> Path:
        return self.directory / f"{key}.pkl"

    def load(self, key: str) -> Any:
        """The stored result of ``key``, else :data:`MISSING` (also for an unreadable file, which the
        run then replaces)."""
        try:
            with open(self.path(key), "rb") as fh:
                return pickle.load(fh)
        except Exception:  # noqa: BLE001 - none yet, or a damaged or foreign file: compute the run again
            return MISSING

    def save(self, key: str, value: Any) -> None:
        """Write ``value`` under ``key`` through a temporary name and a rename; a failure to write
        is said once and the scenario goes on (it only loses the resume of that run)."""
        from ..core.files import atomic_target

        try:
            self.directory.mkdir(parents=True, exist_ok=True)
            with atomic_target(self.path(key)) as tmp, open(tmp, "wb") as fh:
                pickle.dump(value, fh, protocol=pickle.HIGHEST_PROTOCOL)
            self.written += 1
        except (OSError, pickle.PicklingError, TypeError, AttributeError) as exc:
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


@contextlib.contextmanager
def partial_results(out: str | Path, scenario: str, *, fresh: bool = False,
                    say: Callable[[str], None] | None = None) -> Iterator[PartialStore]:
    """Keep the finished runs of ``scenario`` under ``out/partial/<scenario>/`` while the block runs.

    With ``fresh`` the scenario's earlier partial results are removed first. The directory is left
    in place when the block raises (an interruption, a crash: the next run resumes from it); the
    caller removes it with :func:`discard` once the scenario's result is written."""
    if fresh:
        discard(out, scenario)
    store = PartialStore(partial_dir(out, scenario), scenario)
    if say is not None:
        store.say = say
    token = _ACTIVE.set(store)
    try:
        yield store
    finally:
        _ACTIVE.reset(token)
