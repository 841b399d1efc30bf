"""The metadata index behind ``frictionlab list`` and ``show MODEL|SCENARIO``: built from the live
registries, kept on disk under a stamp of frictionlab's source.

Listing the library means importing every model and scenario module, which loads numpy, numba,
scipy, xarray and matplotlib (several seconds in a fresh process before anything is printed).
The index is what ``list`` and ``show`` print, as text -- computed by importing everything, as
before (:func:`frictionlab.cli.show.build_index`), then written as JSON to
``<cache root>/catalogue/index-<layout>-<stamp>.json`` (the cache root of
:func:`frictionlab.core.jitcache.cache_dir`: ``$FRICTIONLAB_CACHE_DIR``, else
``$XDG_CACHE_HOME/frictionlab``, else ``~/.cache/frictionlab``). ``<stamp>`` hashes the path,
size and modification time of every frictionlab source file (:func:`source_stamp`), so an edit
to any model, preset, driver or scenario builds a new index on the next call: the index never
differs from the registries (``tests/unit/test_cli_show.py`` compares the two). Nothing is
maintained by hand. An unreadable or corrupt file is rebuilt; an unwritable directory only
costs the rebuild.
"""

from __future__ import annotations

import json
import os
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

__all__ = ["index_path", "source_stamp", "cached_index"]

#: bumped when the index's layout changes (old files are then ignored and removed)
LAYOUT = 1

_MEMO: dict[str, Any] = {}


def index_path() -> Path:
    """The index file of this source tree (it may not exist yet)."""
    from ..core.jitcache import cache_dir

    return cache_dir().parent / "catalogue" / f"index-{LAYOUT}-{source_stamp()}.json"


def source_stamp(root: str | None = None) -> str:
    """Hash of the path, size and modification time of every ``.py`` file under ``root`` (default:
    the frictionlab package), as Python's own ``.pyc`` check: about 200 ``stat`` calls, no file
    read; any edit changes it."""
    import hashlib

    h = hashlib.sha256()
    todo = [root or os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]
    while todo:
        folder = todo.pop()
        with os.scandir(folder) as entries:
            for e in sorted(entries, key=lambda e: e.name):
                if e.is_dir() and e.name != "__pycache__":
                    todo.append(e.path)
                elif e.name.endswith(".py"):
                    st = e.stat()
                    h.update(f"{e.path}\0{st.st_size}\0{st.st_mtime_ns}\n".encode())
    return h.hexdigest()[:24]


def cached_index(build: Callable[[], dict[str, Any]]) -> dict[str, Any]:
    """The index of this source tree: read from its file, else ``build()`` and written there."""
    if "index" in _MEMO:
        return _MEMO["index"]
    path = index_path()
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, ValueError):
        data = None
    if not isinstance(data, dict) or data.get("layout") != LAYOUT:
        data = json.loads(json.dumps({**build(), "layout": LAYOUT}))  # what a reader of the file gets
        _write(path, data)
    _MEMO["index"] = data
    return data


def _write(path: Path, data: dict[str, Any]) -> None:
    """Write atomically (a concurrent reader sees no file or the whole one) and remove indexes
    older than :data:`KEEP_DAYS` (other source trees -- worktrees, versions -- keep theirs); a
    directory that cannot be written is no error."""
    import time

    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        fd, tmp = tempfile.mkstemp(prefix=".index-", suffix=".tmp", dir=path.parent)
        try:
            with os.fdopen(fd, "w", encoding="utf-8") as fh:
                json.dump(data, fh)
            os.replace(tmp, path)
        finally:
            Path(tmp).unlink(missing_ok=True)
        for old in path.parent.glob("index-*.json"):
            if old != path and time.time() - old.stat().st_mtime > KEEP_DAYS * 86400:
                old.unlink(missing_ok=True)
    except OSError:
        pass


#: an index file not rewritten for this many days is removed by the next write
KEEP_DAYS = 14
