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


def imported_modules(source: str, module: str, is_package: bool = False) -> set[str]:
    """Absolute names of the modules that ``source`` (the text of module ``module``) imports."""
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
        elif (isinstance(node, ast.Call) and getattr(node.func, "attr", getattr(node.func, "id", "")) == "import_module"
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
