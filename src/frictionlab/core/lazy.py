"""Lazy package exports: a name is imported from its module on first access (PEP 562).

A package ``__init__`` declares where each public name lives and gets module-level
``__getattr__`` / ``__dir__`` from :func:`lazy_exports`::

    __getattr__, __dir__ = lazy_exports(__name__, {"simulate": ".solve", "Fitter": ".fit"},
                                        submodules=("laws",))

``import frictionlab`` then loads none of the heavy dependencies (xarray, pandas, scipy,
numba, matplotlib, dask); ``frictionlab.simulate`` or ``from frictionlab import simulate``
imports :mod:`frictionlab.solve` at that moment and caches the name in the package, so the
second access costs nothing. ``tests/unit/test_imports_lazy.py`` guards it.
"""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Iterable, Mapping
from typing import Any

__all__ = ["lazy_exports"]


def lazy_exports(package: str, exports: Mapping[str, str], submodules: Iterable[str] = ()
                 ) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for package ``package``.

    ``exports`` maps a public name to the module holding it (relative to ``package``, e.g.
    ``".solve"``); ``submodules`` names subpackages exposed as attributes (``frictionlab.laws``).
    An unknown name raises :class:`AttributeError` as a plain module would.
    """
    exports = dict(exports)
    subs = frozenset(submodules)

    def __getattr__(name: str) -> Any:
        if name in subs:
            value = importlib.import_module(f"{package}.{name}")
        elif name in exports:
            value = getattr(importlib.import_module(exports[name], package), name)
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        setattr(sys.modules[package], name, value)  # cached: later accesses skip __getattr__
        return value

    def __dir__() -> list[str]:
        return sorted(set(vars(sys.modules[package])) | set(exports) | subs)

    return __getattr__, __dir__
