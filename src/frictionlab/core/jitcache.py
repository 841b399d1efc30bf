"""Compiled loops specialised per (system, law) that a second process does not compile again.

A time loop calls the system's and the law's numba kernels as compile-time constants, so
numba can inline them. Built as closures (``@njit`` inside a factory) such loops cannot use
numba's disk cache: numba keys a cached function by its source file, its name and its
bytecode, and every closure built from the same factory shares all three.

:func:`specialise` therefore writes each specialisation as a small module of its own, the
text of a *template* module (plain Python with ``@njit(cache=True)`` functions that call
the free names ``rhs``, ``law_rates``, ...) followed by the imports that bind those names
to the kernels, e.g.::

    from frictionlab.systems.mass import _rhs as rhs
    from frictionlab.laws.lugre import _rates as law_rates

and imports it. Numba then caches each of its functions next to it (``__pycache__``), and
a later process that asks for the same specialisation imports the same file and loads the
machine code instead of compiling.

Where it lives: ``$FRICTIONLAB_CACHE_DIR/jit`` when that variable is set, else
``$XDG_CACHE_HOME/frictionlab/jit``, else ``~/.cache/frictionlab/jit``; one sub-directory
per frictionlab, numba and Python version. Deleting the directory is always safe
(:func:`clear`). It is used only when it is this user's and nobody else can write it (a
module or numba index planted by another user would run here); otherwise the loops compile
in a private temporary directory. A generated module is imported only when its text is
exactly what this code would write under its name.

Keys: the module name holds a SHA-256 over the template text, the kernels' import paths,
the content of every frictionlab source file and of the source files of every other
kernel reached from the bound ones. Editing any kernel (or anything it may read, such as a
module constant) thus names a new module; a stale loop is never loaded. The file content is
a function of its name, and it is written under a temporary name with a fixed
modification time and renamed into place, so processes that write it at the same time
(sweep workers) write identical files and numba's source stamp (time, size) matches for all
of them; numba writes its own index and data files the same way (temporary name, rename).

Kernels that another process cannot import by name (defined in ``__main__``, in a
function, or on a class only) and a cache directory that cannot be written fall back to a
private temporary directory, removed at exit: the loop compiles as before, once per
process.
"""

from __future__ import annotations

import atexit
import hashlib
import importlib.util
import os
import shutil
import stat
import sys
import tempfile
import threading
from pathlib import Path
from types import ModuleType
from typing import Any

__all__ = ["cache_dir", "specialise", "clear", "record_compilations"]

#: modification time stamped on every generated file (numba keys its cache on (mtime, size))
_MTIME = 1_000_000_000
_LOCK = threading.Lock()
#: per process: (template, kernel ids) -> (module, kernels kept alive so that their ids stay theirs)
_MODULES: dict[tuple[str, tuple[tuple[str, int], ...]], tuple[ModuleType, dict[str, Any]]] = {}
_PRIVATE: list[Path] = []
_PACKAGE_HASH: list[str] = []
#: kernels bound in modules of the private directory (not importable by name), by module name
_LOCAL: dict[str, dict[str, Any]] = {}


def cache_dir() -> Path:
    """The root of the compiled-loop cache (see the module docstring); not created here."""
    root = os.environ.get("FRICTIONLAB_CACHE_DIR")
    if root:
        return Path(root).expanduser() / "jit"
    xdg = os.environ.get("XDG_CACHE_HOME")
    base = Path(xdg).expanduser() if xdg else Path.home() / ".cache"
    return base / "frictionlab" / "jit"


def _version_dir() -> str:
    import numba

    __version__ = sys.modules["frictionlab"].__version__  # the package is imported before its subpackages
    py = f"{sys.implementation.name}{sys.version_info.major}{sys.version_info.minor}"
    return f"frictionlab-{__version__}-numba-{numba.__version__}-{py}"


def clear() -> Path:
    """Delete the whole compiled-loop cache (every version); returns the directory removed."""
    path = cache_dir()
    shutil.rmtree(path, ignore_errors=True)
    return path


def _import_path(kernel: Any) -> tuple[str, str] | None:
    """``(module, name)`` under which a fresh process finds ``kernel``, or None."""
    func = getattr(kernel, "py_func", None)
    if func is None:
        return None
    modname, name = getattr(func, "__module__", None), func.__qualname__
    mod = sys.modules.get(modname or "")
    if mod is None or modname == "__main__" or modname in _LOCAL or "." in name or not getattr(mod, "__file__", None):
        return None
    return (modname, name) if getattr(mod, name, None) is kernel else None


def _source_files(kernels: list[Any]) -> set[str]:
    """Source files of ``kernels`` and of every numba kernel they reach through their globals."""
    from numba.core.dispatcher import Dispatcher

    seen: set[int] = set()
    files: set[str] = set()
    todo = list(kernels)
    while todo:
        k = todo.pop()
        if id(k) in seen:
            continue
        seen.add(id(k))
        func = k.py_func
        files.add(func.__code__.co_filename)
        codes = [func.__code__]
        while codes:
            code = codes.pop()
            codes.extend(c for c in code.co_consts if hasattr(c, "co_names"))
            for name in code.co_names:
                value = func.__globals__.get(name)
                if isinstance(value, Dispatcher):
                    todo.append(value)
                elif isinstance(value, ModuleType) and getattr(value, "__file__", None):
                    if value.__name__.split(".")[0] not in ("numpy", "numba", "math", "scipy"):
                        files.add(value.__file__)
    return files


def _package_hash() -> str:
    """SHA-256 over every frictionlab source file (once per process, about 20 ms)."""
    if not _PACKAGE_HASH:
        root = Path(__file__).resolve().parent.parent
        h = hashlib.sha256()
        for path in sorted(root.rglob("*.py")):
            h.update(str(path.relative_to(root)).encode())
            h.update(path.read_bytes())
        _PACKAGE_HASH.append(h.hexdigest())
    return _PACKAGE_HASH[0]


#: public name of the source hash (scenario checkpoints key their partial results on it too)
package_hash = _package_hash


def _digest(template: str, paths: dict[str, tuple[str, str]], files: set[str]) -> str:
    h = hashlib.sha256(template.encode())
    h.update(_package_hash().encode())
    for name, (mod, attr) in sorted(paths.items()):
        h.update(f"{name}={mod}:{attr};".encode())
    own = str(Path(__file__).resolve().parent.parent)
    for f in sorted(files):
        if not str(Path(f).resolve()).startswith(own):  # frictionlab's own files are in the package hash
            try:
                h.update(Path(f).read_bytes())
            except OSError:
                h.update(f.encode())
    return h.hexdigest()[:24]


def _writable(path: Path) -> bool:
    try:
        path.mkdir(parents=True, exist_ok=True)
        fd, probe = tempfile.mkstemp(prefix=".probe-", dir=path)
        os.close(fd)
        os.unlink(probe)
        return True
    except OSError:
        return False


def _trusted(directory: Path) -> bool:
    """The cache root, ``directory`` and its numba ``__pycache__`` (where they exist) are real directories
    of this user that nobody else can write: a module or numba index (unpickled by numba) planted there by
    another user would otherwise run in this process."""
    if not hasattr(os, "getuid"):  # no POSIX owners: the user's own cache directory is the only default
        return True
    for d in (cache_dir(), directory, directory / "__pycache__"):
        try:
            st = d.lstat()
        except FileNotFoundError:
            continue
        if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & (stat.S_IWGRP | stat.S_IWOTH):
            return False
    return True


def _private_dir() -> Path:
    if not _PRIVATE:
        path = Path(tempfile.mkdtemp(prefix="frictionlab-jit-"))
        atexit.register(shutil.rmtree, path, True)
        _PRIVATE.append(path)
    return _PRIVATE[0]


def _write(path: Path, text: str) -> None:
    """Write ``text`` to ``path`` atomically with the fixed modification time (no-op if present)."""
    if path.is_file():
        return
    fd, tmp = tempfile.mkstemp(prefix=f".{path.stem}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8") as fh:
            fh.write(text)
        os.utime(tmp, (_MTIME, _MTIME))
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise


def _load(name: str, path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    # numba rebuilds a cached function's environment by importing its module by name
    sys.modules[name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        sys.modules.pop(name, None)
        raise
    return module


def _generated(template: str, text: str, footer: str) -> str:
    """The text of a generated module: the template's text and the bindings of this specialisation."""
    return (f"# Generated by frictionlab.core.jitcache from {template}; safe to delete.\n{text}\n\n"
            f"# bindings of this specialisation\n{footer}")


def specialise(template: str, kernels: dict[str, Any]) -> ModuleType:
    """The module of ``template`` (a module name) with the names in ``kernels`` bound.

    ``template`` is the dotted name of a template module: its text must define the loops
    (``@njit(cache=True)``) and use absolute imports only; each key of ``kernels`` is a
    free name of the template, each value a numba dispatcher. The result is cached per
    process, and on disk as the module docstring describes.
    """
    key = (template, tuple(sorted((n, id(k)) for n, k in kernels.items())))
    with _LOCK:
        if key in _MODULES:
            return _MODULES[key][0]
        spec = importlib.util.find_spec(template)
        if spec is None or spec.origin is None:
            raise ImportError(f"no template module {template!r}")
        text = Path(spec.origin).read_text(encoding="utf-8")
        paths = {n: _import_path(k) for n, k in kernels.items()}
        stem = template.rsplit(".", 1)[-1]
        directory = cache_dir() / _version_dir()
        name = footer = ""
        if all(p is not None for p in paths.values()) and _writable(directory) and _trusted(directory):
            name = f"frictionlab_jit_{stem}_{_digest(text, paths, _source_files(list(kernels.values())))}"
            footer = "".join(f"from {m} import {a} as {n}\n" for n, (m, a) in sorted(paths.items()))
            shared = directory / f"{name}.py"
            if shared.is_file() and shared.read_text(encoding="utf-8") != _generated(template, text, footer):
                name = ""  # not what this code writes there: never executed
        if not name:  # bound through this process's registry, compiled in a private directory
            directory = _private_dir()
            name = f"frictionlab_jit_{stem}_local{len(_LOCAL)}_{os.getpid()}"
            _LOCAL[name] = dict(kernels)
            footer = "".join(f"{n} = _LOCAL[{name!r}][{n!r}]\n" for n in sorted(kernels))
            footer = f"from frictionlab.core.jitcache import _LOCAL\n{footer}"
        path = directory / f"{name}.py"
        _write(path, _generated(template, text, footer))
        module = sys.modules.get(name) or _load(name, path)
        _MODULES[key] = (module, dict(kernels))
        return module


def record_compilations() -> list[str]:
    """Record, from now on in this process, every numba compilation: the returned list receives
    the qualified name of each function numba compiles (a process whose caches are warm keeps it
    empty; the cache tests and ``frictionlab bench fresh`` report it)."""
    from numba.core import event

    names: list[str] = []

    class _Recorder(event.Listener):
        def on_start(self, ev):
            names.append(ev.data["dispatcher"].py_func.__qualname__)

        def on_end(self, ev):
            pass

    event.register("numba:compile", _Recorder())
    return names
