"""Which data files a run read, with the SHA-256 of the bytes it parsed.

A loader that reads a data file calls :func:`note_read` with the file's path and the exact bytes
it parses; inside a :func:`files_read` block (a scenario's run, ``frictionlab fit``) every such read
is collected, so the run can record and print which file it used (its resolved path and checksum):
a copy of a dataset edited elsewhere, or one found somewhere unexpected, is then visible in the
output instead of silently changing a fitted value. Outside such a block nothing is kept.
"""

from __future__ import annotations

import contextlib
import contextvars
import hashlib
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

__all__ = ["FileRead", "note_read", "files_read", "describe"]


@dataclass(frozen=True)
class FileRead:
    """One data file read: its resolved ``path``, the SHA-256 (hex) and ``size`` (bytes) of its content."""

    path: str
    sha256: str
    size: int

    def as_dict(self) -> dict[str, object]:
        return {"path": self.path, "sha256": self.sha256, "size": self.size}


_READS: contextvars.ContextVar[list[FileRead] | None] = contextvars.ContextVar("frictionlab_reads", default=None)


def note_read(path: str | Path, content: bytes) -> FileRead:
    """Record that ``content`` was read from ``path`` (kept inside :func:`files_read`, once per file)."""
    rec = FileRead(str(Path(path).resolve()), hashlib.sha256(content).hexdigest(), len(content))
    reads = _READS.get()
    if reads is not None and rec not in reads:
        reads.append(rec)
    return rec


@contextlib.contextmanager
def files_read() -> Iterator[list[FileRead]]:
    """Collect the data files read while the block runs (nested blocks: the inner one only)."""
    reads: list[FileRead] = []
    token = _READS.set(reads)
    try:
        yield reads
    finally:
        _READS.reset(token)


def describe(reads: list[FileRead]) -> str:
    """``PATH (sha256 HEX); ...``: the form a result's ``data_files`` attribute and the CLI print."""
    return "; ".join(f"{r.path} (sha256 {r.sha256})" for r in reads)
