"""Benchmarks that ``frictionlab bench`` runs: ``bench_<name>.py`` with
``run(quick: bool) -> list[(metric, value, unit, target)]``.

They ship with the package, and ``frictionlab bench`` runs only these (or the ``bench_*.py`` files
of a directory the user names with ``--path``); it never looks in the working directory or its
parents, where anyone who can write a ``benchmarks/`` folder above the user could plant code.
Each module also runs on its own (``python -m frictionlab.benchmarks.bench_rough_sliding 128``).
"""

from __future__ import annotations

import importlib
import importlib.util
from pathlib import Path
from types import ModuleType

from ..core.errors import ConfigError

__all__ = ["find", "load", "with_peers"]


def find(path: str | Path | None = None) -> dict[str, Path]:
    """``{name: file}`` of the benchmarks: the package's own (this folder), or the ``bench_*.py``
    files of the directory the user names (``frictionlab bench --path``). Never the working
    directory or its parents: a ``benchmarks/`` folder planted above the user would run as their code."""
    d = Path(__file__).resolve().parent if path is None else Path(path)
    if not d.is_dir():
        raise ConfigError(f"--path {str(path)!r}: not a directory")
    return {f.stem[len("bench_"):]: f for f in sorted(d.glob("bench_*.py")) if f.is_file()}


def load(name: str, file: Path, packaged: bool) -> ModuleType:
    """The module of benchmark ``name``: imported from the package, or executed from ``file`` (``--path``)."""
    if packaged:
        return importlib.import_module(f"frictionlab.benchmarks.bench_{name}")
    spec = importlib.util.spec_from_file_location(f"_fl_bench_{file.stem}", file)
    if spec is None or spec.loader is None:
        raise ConfigError(f"cannot load benchmark file {file}")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def with_peers(found: dict[str, Path], packaged: bool) -> list[str]:
    """Names of the benchmarks of ``found`` with a peer comparison (``run_peers``)."""
    return [b for b, f in found.items() if hasattr(load(b, f, packaged), "run_peers")]
