"""The CLI is the top layer: every command lives in ``frictionlab/cli/``, and no module of the library
imports it (``import``, ``from ... import`` at any level, or ``importlib.import_module``)."""

from __future__ import annotations

import ast
from pathlib import Path

import frictionlab

PACKAGE = Path(frictionlab.__file__).resolve().parent

#: the modules allowed to import the CLI: the CLI itself and ``python -m frictionlab``
ABOVE = ("cli", "__main__.py")


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imported_modules(source: str, module: str, is_package: bool = False, discovery: bool = True) -> set[str]:
    """Absolute names of the modules that ``source`` (the text of module ``module``) imports; with
    ``discovery`` also those named to ``importlib.import_module`` (plugin discovery)."""
    package = module if is_package else module.rpartition(".")[0]
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                parent = package.split(".")[:len(package.split(".")) - node.level + 1]
                base = ".".join([*parent, *([base] if base else [])])
            found.add(base)
            found.update(f"{base}.{a.name}" for a in node.names)  # `from frictionlab import cli`
        elif (discovery and isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
              and node.args and isinstance(node.args[0], ast.Constant) and isinstance(node.args[0].value, str)):
            found.add(node.args[0].value)
    return found


def _imports_cli(names: set[str]) -> list[str]:
    return sorted(n for n in names if n == "frictionlab.cli" or n.startswith("frictionlab.cli."))


def test_the_scan_sees_every_form_of_import():
    """The scanner catches what it must (so the test below could fail)."""
    for text in ("from ..cli import main", "from .. import cli", "import frictionlab.cli.show",
                 "from frictionlab.cli.fit import DEFAULT_MIN_FIT", "importlib.import_module('frictionlab.cli')"):
        assert _imports_cli(imported_modules(text, "frictionlab.sweep.runner")), text
    assert _imports_cli(imported_modules("from .cli import main", "frictionlab", is_package=True))
    assert not _imports_cli(imported_modules("from ..client import x\nfrom . import cli", "frictionlab.sweep.runner"))


def test_no_library_module_imports_the_cli():
    offenders = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.parts[0] in ABOVE:
            continue
        names = imported_modules(path.read_text(encoding="utf-8"), _module_name(path), path.name == "__init__.py")
        if bad := _imports_cli(names):
            offenders[str(rel)] = bad
    assert offenders == {}


def test_every_command_module_is_in_the_cli_package():
    """No ``cli.py``/``*_cli.py`` left in the library's packages: the commands live in ``frictionlab/cli/``."""
    stray = [str(p.relative_to(PACKAGE)) for p in PACKAGE.rglob("*.py")
             if p.relative_to(PACKAGE).parts[0] != "cli" and (p.stem == "cli" or p.stem.startswith("cli_")
                                                               or p.stem.endswith("_cli"))]
    assert stray == []


#: the layers, lowest first: a module imports only its own package and packages of a lower rank (never one
#: above, not even lazily); ``python -m frictionlab`` and the CLI are the top
RANKS = {
    "core": 0, "__init__.py": 0,
    "protocols": 1, "systems": 1, "plot": 1, "datasets": 1,
    "solve": 2, "testing.py": 2,
    "laws": 3, "contact": 3,
    "control": 4, "reference": 4, "export": 4,
    "fit": 5,
    "analysis": 6,
    "scenarios": 7,
    "sweep": 8,
    "benchmarks": 9, "report": 9,
    "cli": 10, "__main__.py": 10,
}

#: upward imports that remain, each with the issue that removes it (the list only shrinks)
KNOWN_UPWARD = {
}


def _package_of(name: str) -> str | None:
    parts = name.split(".")
    if parts[0] != "frictionlab" or len(parts) < 2:
        return None
    return parts[1] if parts[1] in RANKS else f"{parts[1]}.py" if f"{parts[1]}.py" in RANKS else None


def test_every_package_has_a_rank():
    tops = {p.name if p.is_dir() else p.name for p in PACKAGE.iterdir()
            if (p.is_dir() and (p / "__init__.py").exists()) or p.suffix == ".py"}
    assert tops - set(RANKS) == set(), "a new top-level package or module needs its place in RANKS"


def test_no_module_imports_a_layer_above_its_own():
    """Layers import downward only (plugin discovery, which imports by a computed name, is the one way up)."""
    upward, seen = {}, set()
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        own = rel.parts[0]
        module = _module_name(path)
        # plugin discovery (``importlib.import_module`` of a package by name) is the one way up
        for name in imported_modules(path.read_text(encoding="utf-8"), module, path.name == "__init__.py",
                                     discovery=False):
            target = _package_of(name)
            if target is None or target == own or RANKS[target] <= RANKS[own]:
                continue
            if (module, target) not in KNOWN_UPWARD:
                upward.setdefault(module, set()).add(target)
            seen.add((module, target))
    assert not upward, f"upward imports: {upward}"
    assert set(KNOWN_UPWARD) <= seen, f"gone, remove from KNOWN_UPWARD: {sorted(set(KNOWN_UPWARD) - seen)}"


def test_the_layer_scan_sees_a_lazy_upward_import():
    names = imported_modules("def f():\n    from ...sweep import run_sweep\n", "frictionlab.scenarios.kloss.fig4")
    assert _package_of(next(n for n in names if "sweep" in n)) == "sweep"
