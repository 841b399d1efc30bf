"""xarray's "is this a dask array?" answered without importing dask while dask.array is not imported.

xarray asks, for every array it wraps (``xarray.core.variable.as_compatible_data``:
``isinstance(data, array_type("dask"))``), whether it is a dask array; its first such question
imports ``dask.array`` when dask is installed (about 0.3 s on an idle machine, 0.6 s under load:
more than building the Dataset of a run). Yet no object can be a ``dask.array.Array`` before
``dask.array`` is imported: creating or unpickling one imports it. :func:`defer_dask_probe` puts a
stand-in for xarray's record of dask (``xarray.namedarray.pycompat._cached_duck_array_modules
["dask"]``, a ``DuckArrayModule``) that answers ``type`` with ``()`` while ``dask.array`` is not in
``sys.modules``, and is xarray's own record, built then, for everything else (``module``,
``version``, ``available``, and ``type`` once dask.array is imported, by anyone). Answers are thus
the ones xarray would give; only the import is later.

It relies on a private structure of xarray: when that is not there (another xarray version), or
xarray already made its record, it does nothing, and xarray imports dask as before.
(``tests/unit/test_core_lazy_dataset.py`` checks that a Dataset built first still takes dask
arrays and ``.chunk()``.)
"""

from __future__ import annotations

import sys
from typing import Any

__all__ = ["defer_dask_probe"]


class _DeferredDask:
    """xarray's ``DuckArrayModule("dask")``, built at the first question ``dask.array`` is needed for."""

    def __init__(self, cls: type, cache: dict[Any, Any]) -> None:
        self._cls, self._cache, self._real = cls, cache, None

    def _load(self) -> Any:
        if self._real is None:
            self._real = self._cls("dask")
            if self._cache.get("dask") is self:
                self._cache["dask"] = self._real  # later questions go to xarray's record directly
        return self._real

    @property
    def type(self) -> tuple[type, ...]:
        if self._real is None and "dask.array" not in sys.modules:
            return ()  # no object is a dask array before dask.array is imported
        return self._load().type

    def __getattr__(self, name: str) -> Any:
        if name.startswith("_"):
            raise AttributeError(name)
        return getattr(self._load(), name)


def defer_dask_probe() -> None:
    """Install the stand-in (module docstring) if xarray has not recorded dask yet; idempotent."""
    if "dask.array" in sys.modules:
        return
    try:
        from xarray.namedarray import pycompat
    except ImportError:
        return
    cache = getattr(pycompat, "_cached_duck_array_modules", None)
    cls = getattr(pycompat, "DuckArrayModule", None)
    if isinstance(cache, dict) and isinstance(cls, type) and "dask" not in cache:
        cache["dask"] = _DeferredDask(cls, cache)
