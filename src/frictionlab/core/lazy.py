"""Lazy package exports: a name is imported from its module on first access (PEP 562).

A package ``__init__`` declares where each public name lives and gets module-level
``__getattr__`` / ``__dir__`` from :func:`lazy_exports`::

    __getattr__, __dir__ = lazy_exports(__name__, {"simulate": ".solve", "Fitter": ".fit"})

``import frictionlab`` then loads none of the heavy dependencies (xarray, pandas, scipy,
numba, matplotlib, dask); ``frictionlab.simulate`` or ``from frictionlab import simulate``
imports :mod:`frictionlab.solve` at that moment and caches the name in the package, so the
second access costs nothing. ``tests/unit/test_imports_lazy.py`` guards it.

A class attribute holding a compiled kernel that lives in another module is a :class:`KernelRef`
(``_rates_kernel = KernelRef("frictionlab.laws.rate_state_kernels", "_rates")``): importing the
class loads no numba, the kernel module is imported when the attribute is first read.

A module whose Python code runs without numba on some paths (the rough-contact operator, solver
and cluster labelling: :func:`~frictionlab.contact.rough.physical.solve_contact` with
``use_numba=False``) decorates its kernels with :func:`lazy_njit` instead of ``numba.njit``:
numba is imported, and every lazy kernel of that module made a numba dispatcher, at the first
call or attribute read of any of them. The dispatcher is the one ``@njit(...)`` would have made
at import (same function, options, source file and line: numba's on-disk cache entries are the
same), and it replaces the placeholder in the module's namespace, so the compiled kernels that
call each other find dispatchers when numba types them. A kernel is therefore called from
compiled code of its own module only (another module's compiled code would see the placeholder).
"""

from __future__ import annotations

import importlib
import importlib.util
import sys
import threading
import types
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["lazy_exports", "KernelRef", "lazy_njit", "LazyKernel", "interpreted"]


class _SameNamePackage(types.ModuleType):
    """A package exporting a name defined in a submodule of that same name (``analysis.steady_state``,
    the function of ``analysis/steady_state.py``).

    Importing the submodule (``from frictionlab.analysis.steady_state import SteadyState``) makes the
    import system set the package attribute to the module; here it is set to the exported object
    instead, as an eager ``from .steady_state import steady_state`` in the ``__init__`` would leave it.
    """

    _same_name: frozenset[str] = frozenset()

    def __setattr__(self, name: str, value: Any) -> None:
        if (name in self._same_name and isinstance(value, types.ModuleType)
                and value.__name__ == f"{self.__name__}.{name}"):
            value = getattr(value, name)
        super().__setattr__(name, value)


def lazy_exports(package: str, exports: Mapping[str, str]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """``(__getattr__, __dir__)`` for package ``package``.

    ``exports`` maps a public name to the module holding it (relative to ``package``, e.g.
    ``".solve"``). Any other name that is a subpackage or submodule (``frictionlab.laws``,
    ``frictionlab.solve.drivers`` after ``import frictionlab``) is imported on access, as it was
    reachable when the ``__init__`` imported everything. A name exported from a submodule of the
    same name stays the exported object even after that submodule is imported directly
    (:class:`_SameNamePackage`). An unknown name raises :class:`AttributeError` as a plain module would.
    """
    exports = dict(exports)
    same_name = frozenset(n for n, m in exports.items() if m == f".{n}")
    if same_name:
        module = sys.modules[package]
        module.__class__ = _SameNamePackage
        module._same_name = same_name

    def __getattr__(name: str) -> Any:
        if name in exports:
            value = getattr(importlib.import_module(exports[name], package), name)
        elif not name.startswith("__") and importlib.util.find_spec(f"{package}.{name}") is not None:
            value = importlib.import_module(f"{package}.{name}")
        else:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        setattr(sys.modules[package], name, value)  # cached: later accesses skip __getattr__
        return value

    def __dir__() -> list[str]:
        mod = sys.modules[package]
        return sorted(set(vars(mod)) | set(exports) | set(getattr(mod, "__all__", ())))

    return __getattr__, __dir__


class KernelRef:
    """Class attribute naming an object (a numba kernel) by module and name, imported on first read.

    ``cls.attr`` and ``instance.attr`` return the object itself (the module is imported once, then
    the object is cached here), so code reading ``Law._rates_kernel`` or ``System._rhs_kernel``
    sees the compiled kernel exactly as with a plain attribute.
    """

    __slots__ = ("module", "name", "_value")

    def __init__(self, module: str, name: str) -> None:
        self.module, self.name = module, name
        self._value: Any = None

    def __get__(self, obj: Any, owner: type | None = None) -> Any:
        if self._value is None:
            self._value = getattr(importlib.import_module(self.module), self.name)
        return self._value

    def __repr__(self) -> str:
        return f"KernelRef({self.module!r}, {self.name!r})"


#: lazy kernels not yet made dispatchers, by defining module
_PENDING: dict[str, list[LazyKernel]] = {}
_PENDING_LOCK = threading.Lock()


class LazyKernel:
    """Placeholder of a numba kernel until its module's kernels are built (:func:`lazy_njit`).

    Calling it, or reading an attribute (``py_func``, ``signatures``, ...), builds the dispatchers
    of every pending lazy kernel of the defining module and forwards to this one's.
    """

    def __init__(self, py_func: Callable[..., Any], options: dict[str, Any]) -> None:
        self.py_func, self.options = py_func, options
        self.dispatcher: Any = None
        self.__name__, self.__qualname__ = py_func.__name__, py_func.__qualname__
        self.__module__, self.__doc__, self.__wrapped__ = py_func.__module__, py_func.__doc__, py_func

    def build(self) -> Any:
        """The numba dispatcher (built with the rest of the module's lazy kernels on first use)."""
        if self.dispatcher is None:
            _build_module(self.py_func.__module__)
        return self.dispatcher

    def __call__(self, *args: Any, **kwargs: Any) -> Any:
        return (self.dispatcher or self.build())(*args, **kwargs)

    def __getattr__(self, name: str) -> Any:
        if name.startswith("__"):
            raise AttributeError(name)
        return getattr(self.build(), name)

    def __repr__(self) -> str:
        state = "built" if self.dispatcher is not None else "numba not loaded yet"
        return f"<lazy numba kernel {self.__module__}.{self.__qualname__} ({state})>"


def _build_module(module: str) -> None:
    import numba

    with _PENDING_LOCK:
        kernels = _PENDING.pop(module, [])
        for k in kernels:
            k.dispatcher = numba.njit(**k.options)(k.py_func)
        for k in kernels:
            # the module's name now means the dispatcher, unless something else was put there
            # since (a test's monkeypatch): compiled callers of the module resolve it by name
            ns = k.py_func.__globals__
            if ns.get(k.__name__) is k:
                ns[k.__name__] = k.dispatcher


def lazy_njit(**options: Any) -> Callable[[Callable[..., Any]], LazyKernel]:
    """``numba.njit(**options)`` deferred to the first use of any lazy kernel of the module
    (module notes): importing the module loads no numba. Module-level functions only."""

    def deco(py_func: Callable[..., Any]) -> LazyKernel:
        if py_func.__qualname__ != py_func.__name__:
            raise TypeError(f"lazy_njit: {py_func.__qualname__} is not a module-level function")
        kernel = LazyKernel(py_func, options)
        with _PENDING_LOCK:
            _PENDING.setdefault(py_func.__module__, []).append(kernel)
            _PY_FUNCS.setdefault(py_func.__module__, {})[py_func.__name__] = py_func
        return kernel

    return deco


#: per module, the plain Python functions of its lazy kernels (by name)
_PY_FUNCS: dict[str, dict[str, Callable[..., Any]]] = {}
_INTERPRETED: dict[str, types.SimpleNamespace] = {}


def interpreted(module: str) -> types.SimpleNamespace:
    """The lazy kernels of ``module`` as plain Python functions that call each other (no numba).

    The same code as the compiled kernels, run by the interpreter: each function is rebound to a
    copy of the module's namespace in which the kernel names are these plain functions, so a
    kernel's call of another stays in Python (the module's own names stay placeholders or
    dispatchers). Slower per operation, but free of numba's import and first dispatch (~0.6 s of a
    fresh process): for a process's first small run (``laws/rate_state_drivers.py``). Python
    raises where compiled code returns inf/nan (``OverflowError`` of ``math.exp``); a caller falls
    back to the compiled kernels then.
    """
    ns = _INTERPRETED.get(module)
    if ns is None:
        glob = dict(vars(sys.modules[module]))
        plain = {name: types.FunctionType(f.__code__, glob, name, f.__defaults__, f.__closure__)
                 for name, f in _PY_FUNCS.get(module, {}).items()}
        glob.update(plain)
        ns = _INTERPRETED[module] = types.SimpleNamespace(**plain)
    return ns
