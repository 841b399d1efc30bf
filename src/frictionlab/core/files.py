"""Output files: check a directory is writable up front, write through a temporary name.

Every output frictionlab writes goes to ``.<stem>.<pid>.tmp<suffix>`` next to its final
name and is renamed into place (an atomic ``os.replace``) only once complete, so an
interrupted or failed write never leaves a file that looks complete under the final name
(a CSV cut after a few rows still parses). :func:`writable_dir` checks an ``--out``
directory before any work starts, so a bad path fails in a second, not after the run.
"""

from __future__ import annotations

import contextlib
import json
import math
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .errors import ConfigError

__all__ = ["writable_dir", "atomic_target", "write_text_atomic", "write_json_atomic", "json_safe", "temp_name_of"]


def writable_dir(path: str | Path, option: str = "--out") -> Path:
    """Create ``path`` if needed and check that files can be written in it.

    Raises
    ------
    ConfigError
        ``path`` is an existing file, lies under a file, or cannot be created or written
        (permissions, read-only filesystem); the message names ``option``.
    """
    path = Path(path)
    if path.exists() and not path.is_dir():
        raise ConfigError(f"{option} {str(path)!r} is an existing file, not a directory; choose a directory")
    for parent in path.parents:
        if parent.exists():
            if not parent.is_dir():
                raise ConfigError(f"{option} {str(path)!r} lies under {str(parent)!r}, which is a file, not a directory")
            break
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".frictionlab-write-test-", dir=path)
        os.close(fd)
        os.unlink(probe)
    except OSError as exc:
        raise ConfigError(f"{option} {str(path)!r} is not writable ({exc.strerror or type(exc).__name__}); "
                          "choose another directory") from None
    return path


def temp_name_of(path: str | Path) -> Path:
    """The temporary name :func:`atomic_target` writes ``path`` under (same directory and suffix)."""
    path = Path(path)
    return path.with_name(f".{path.stem}.{os.getpid()}.tmp{path.suffix}")


@contextlib.contextmanager
def atomic_target(path: str | Path) -> Iterator[Path]:
    """Yield a temporary path to write ``path`` to; rename it into place on success.

    On any exception (KeyboardInterrupt included) the temporary file is removed and the
    final name is left as it was.
    """
    path = Path(path)
    tmp = temp_name_of(path)
    try:
        yield tmp
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            tmp.unlink()
        raise


def write_text_atomic(path: str | Path, text: str) -> Path:
    """Write ``text`` (UTF-8) to ``path`` through a temporary name and a rename."""
    path = Path(path)
    with atomic_target(path) as tmp:
        tmp.write_text(text, encoding="utf-8")
    return path


def json_safe(obj: Any) -> Any:
    """``obj`` with every non-finite float (NaN, +-inf) replaced by None, numpy scalars as Python numbers.

    Standard JSON has no NaN or Infinity; a value that is not a number is written as ``null``.
    """
    if isinstance(obj, dict):
        return {str(k): json_safe(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [json_safe(v) for v in obj]
    if hasattr(obj, "item") and not isinstance(obj, (str, bytes)):
        try:
            obj = obj.item()
        except (ValueError, TypeError):
            return obj
    if isinstance(obj, float) and not math.isfinite(obj):
        return None
    return obj


def write_json_atomic(path: str | Path, obj: Any, **kwargs: Any) -> Path:
    """Write ``obj`` as standard JSON (non-finite numbers as ``null``) through a temporary name."""
    return write_text_atomic(path, json.dumps(json_safe(obj), allow_nan=False, **kwargs))
