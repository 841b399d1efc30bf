"""An exclusive lock on a file, for one process at a time (the partial results of a long scenario).

:func:`exclusive` opens the file with ``O_CREAT`` and takes a non-blocking ``fcntl.flock`` on it: a
second process is refused at once (:class:`LockBusy`, whose message names the holder), never made
to wait. The kernel drops a ``flock`` when the last descriptor of the open file closes, so a holder
that ends in any way -- normal exit, an exception, Ctrl-C, SIGKILL, a crash -- never leaves it
held; nothing stale to clean up by hand.

The holder writes its pid, host, start time (UTC) and command line into the file; a refused process
reads them for its message. The file is removed on release while still locked: a process that
opened the old file just before finds, once it gets the lock, that the name no longer points to
the file it locked (``os.path.samestat``) and starts over on the new one, so two processes never
both hold the lock. A child forked while the lock is held (a ``run_parallel`` worker) closes its
copy of the descriptor at once (``os.register_at_fork``): a worker that outlives its parent does
not keep the lock, and only the process that took it can release it.

Windows: ``msvcrt.locking`` of one byte far beyond the holder text instead of ``flock`` (also
released by the system when the process ends); the file is removed after the release there (an
open file cannot be removed), so the re-check above also covers it. The Windows branch is not run
by the tests (no Windows runner).
"""

from __future__ import annotations

import contextlib
import json
import os
import socket
import sys
from collections.abc import Callable, Iterator
from datetime import datetime, timezone
from pathlib import Path

from .errors import FrictionLabError

__all__ = ["LockBusy", "exclusive", "held"]

if sys.platform == "win32":  # pragma: no cover - no Windows runner
    import msvcrt

    _FAR = 1 << 30  # the locked byte: beyond any holder text, which stays readable

    def _try_lock(fd: int) -> bool:
        os.lseek(fd, _FAR, os.SEEK_SET)
        try:
            msvcrt.locking(fd, msvcrt.LK_NBLCK, 1)
        except OSError:
            return False
        return True

    def _unlock(fd: int) -> None:
        os.lseek(fd, _FAR, os.SEEK_SET)
        with contextlib.suppress(OSError):
            msvcrt.locking(fd, msvcrt.LK_UNLCK, 1)
else:
    import fcntl

    def _try_lock(fd: int) -> bool:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        return True

    def _unlock(fd: int) -> None:
        fcntl.flock(fd, fcntl.LOCK_UN)

#: the locks this process holds: absolute path -> descriptor
_HELD: dict[str, int] = {}
#: tries of a lock whose file keeps being replaced under it (each one a release by another process)
_TRIES = 100


class LockBusy(FrictionLabError, RuntimeError):
    """Another process holds the lock (the message names it)."""


def _forget_in_child() -> None:
    """After a fork, in the child: close the inherited lock descriptors (never unlock: the lock is the parent's)."""
    for fd in _HELD.values():
        with contextlib.suppress(OSError):
            os.close(fd)
    _HELD.clear()


if hasattr(os, "register_at_fork"):
    os.register_at_fork(after_in_child=_forget_in_child)


def held(path: str | Path) -> bool:
    """True when this process holds the lock on ``path`` (:func:`exclusive`)."""
    return os.path.abspath(path) in _HELD


def _holder_text() -> bytes:
    command = " ".join([os.path.basename(sys.argv[0]) if sys.argv else "python", *sys.argv[1:]])
    return json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                       "started": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M:%S UTC"),
                       "command": command[:300]}).encode()


def _describe(raw: bytes) -> str:
    """``pid P on host H, started T (command ...)`` from a lock file's text, on one line."""
    try:
        info = json.loads(raw.decode())
        text = f"pid {info['pid']} on host {info['host']}, started {info['started']}"
        if info.get("command"):
            text += f", command: {info['command']}"
    except (ValueError, KeyError, TypeError):
        return "a process that has not yet written its pid"
    return " ".join(text.split())


def _read(fd: int) -> bytes:
    with contextlib.suppress(OSError):
        os.lseek(fd, 0, os.SEEK_SET)
        return os.read(fd, 4096)
    return b""


def _acquire(path: Path, busy: Callable[[str], str]) -> int:
    flags = os.O_RDWR | os.O_CREAT | getattr(os, "O_BINARY", 0)
    for _ in range(_TRIES):
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            fd = os.open(path, flags, 0o644)
        except (FileNotFoundError, FileExistsError):  # a releasing holder removed the (empty) directory meanwhile
            continue
        try:
            locked = _try_lock(fd)
        except OSError:  # no locks here (ENOLCK, EOPNOTSUPP): nobody can hold one, so leave no file either
            with contextlib.suppress(OSError):
                if os.fstat(fd).st_size == 0:
                    os.unlink(path)
            os.close(fd)
            raise
        if not locked:
            holder = _describe(_read(fd))
            os.close(fd)
            raise LockBusy(busy(holder))
        try:
            same = os.path.samestat(os.fstat(fd), os.stat(path))
        except FileNotFoundError:
            same = False
        if not same:  # the previous holder removed this file on release: lock the current one
            _unlock(fd)
            os.close(fd)
            continue
        os.ftruncate(fd, 0)
        os.lseek(fd, 0, os.SEEK_SET)
        os.write(fd, _holder_text())
        _HELD[os.path.abspath(path)] = fd
        return fd
    raise LockBusy(busy(f"the lock file {path} was replaced {_TRIES} times while taking it"))


def _release(path: Path, fd: int) -> None:
    _HELD.pop(os.path.abspath(path), None)
    if sys.platform == "win32":  # pragma: no cover
        _unlock(fd)
        os.close(fd)
        with contextlib.suppress(OSError):
            os.unlink(path)
        return
    with contextlib.suppress(OSError):
        if os.path.samestat(os.fstat(fd), os.stat(path)):
            os.unlink(path)  # still locked: whoever opened it meanwhile retries on a new file
    os.close(fd)  # drops the lock


@contextlib.contextmanager
def exclusive(path: str | Path, busy: Callable[[str], str]) -> Iterator[Path]:
    """Hold the lock on ``path`` (created with its directories) while the block runs.

    Raises
    ------
    LockBusy
        another process holds it (also another :func:`exclusive` of the same path in this
        process); the message is ``busy(holder)``, with ``holder`` the one-line description of
        the process holding it (pid, host, start time, command).
    OSError
        the file cannot be created or the file system has no locks (no file is left then).
    """
    path = Path(path)
    fd = _acquire(path, busy)
    try:
        yield path
    finally:
        _release(path, fd)
