"""Docstring meta-tests (in the spirit of python-control's ``docstrings_test``).

* every public class and function re-exported by ``frictionlab``, ``frictionlab.laws``,
  ``frictionlab.protocols`` and ``frictionlab.systems`` has a docstring of its own, and every
  public method / property of those classes has one (inherited from a base class counts);
* every parameter field of every registered model, protocol and system is declared with
  :func:`frictionlab.core.params.param` (numeric, with non-empty ``units``) or
  :func:`~frictionlab.core.params.option` (categorical), and is named in the docstring of
  the class or of one of its bases (or carries ``doc=``).
"""

from __future__ import annotations

import dataclasses
import inspect
import re

import pytest

import frictionlab
from frictionlab.core.registry import get_model_class, model_names
from frictionlab.protocols.base import _PROTOCOLS, protocol_names
from frictionlab.systems.base import _SYSTEMS, system_names

MODULES = [frictionlab, frictionlab.laws, frictionlab.protocols, frictionlab.systems]
#: a units string: SI-like symbols, powers, products, quotients ("Pa (s/m)^d", "F*/um^2", "1")
UNITS_RE = re.compile(r"^[A-Za-z0-9*/^().\s-]+$")


def _public_objects():
    out = []
    for mod in MODULES:
        for name in mod.__all__:
            obj = getattr(mod, name)
            if inspect.isclass(obj) or inspect.isfunction(obj) or inspect.isbuiltin(obj):
                out.append(pytest.param(obj, id=f"{mod.__name__}.{name}"))
    return out


PUBLIC = _public_objects()


def _own_doc(obj) -> str:
    doc = obj.__dict__.get("__doc__") if inspect.isclass(obj) else obj.__doc__
    doc = (doc or "").strip()
    if inspect.isclass(obj) and dataclasses.is_dataclass(obj) and doc.startswith(obj.__name__ + "("):
        return ""  # the signature dataclasses write when a class has no docstring
    return doc


def test_public_lists_are_not_empty():
    assert len(PUBLIC) >= 30
    for mod in MODULES:
        for name in mod.__all__:
            assert hasattr(mod, name), f"{mod.__name__}.__all__ lists {name!r}, which does not exist"


@pytest.mark.parametrize("obj", PUBLIC)
def test_public_object_has_docstring(obj):
    assert _own_doc(obj), f"{obj.__module__}.{obj.__qualname__} has no docstring"


def _member_doc(cls: type, name: str) -> str:
    """Docstring of a public method or property, inherited along the MRO."""
    for klass in cls.__mro__:
        raw = klass.__dict__.get(name)
        if raw is None:
            continue
        if isinstance(raw, (staticmethod, classmethod)):
            raw = raw.__func__
        doc = raw.__doc__ if isinstance(raw, property) or inspect.isfunction(raw) else None
        if doc and doc.strip():
            return doc
    return ""


def _public_members():
    out, seen = [], set()
    for p in PUBLIC:
        cls = p.values[0]
        if not inspect.isclass(cls):
            continue
        for name in dir(cls):
            if name.startswith("_"):
                continue
            try:
                raw = inspect.getattr_static(cls, name)
            except AttributeError:
                continue
            if isinstance(raw, (staticmethod, classmethod)):
                raw = raw.__func__
            if not (inspect.isfunction(raw) or isinstance(raw, property)):
                continue
            owner = raw.fget if isinstance(raw, property) else raw
            if not getattr(owner, "__module__", "").startswith("frictionlab"):
                continue
            key = (cls.__qualname__, name)
            if key not in seen:
                seen.add(key)
                out.append((cls, name))
    return out


def test_public_methods_have_docstrings():
    members = _public_members()
    assert len(members) > 50
    missing = [f"{cls.__module__}.{cls.__qualname__}.{name}" for cls, name in members if not _member_doc(cls, name)]
    assert not missing, "public methods/properties without a docstring:\n  " + "\n  ".join(missing)


def _parameter_classes():
    out = [pytest.param(get_model_class(n), id=f"model:{n}") for n in model_names()]
    out += [pytest.param(_PROTOCOLS[n], id=f"protocol:{n}") for n in protocol_names()]
    out += [pytest.param(_SYSTEMS[n], id=f"system:{n}") for n in system_names()]
    return out


PARAM_CLASSES = _parameter_classes()


def test_every_model_is_checked():
    assert len(model_names()) >= 10
    assert {"lugre", "rate_state", "subloading", "beam_network", "kloss", "rough_contact",
            "microjunction"} <= set(model_names())


@pytest.mark.parametrize("cls", PARAM_CLASSES)
def test_parameter_fields_have_units(cls):
    for f in dataclasses.fields(cls):
        kind = f.metadata.get("kind")
        where = f"{cls.__module__}.{cls.__name__}.{f.name}"
        # "table": a structured value (e.g. the servo's model law) validated by the class's _check, documented
        assert kind in ("number", "option", "table"), f"{where} is not declared with param(..., units=...) or option(...)"
        if kind == "table":
            assert f.metadata.get("doc"), f"{where}: a table field needs a doc"
            continue
        if kind == "number":
            u = f.metadata.get("units", "")
            assert isinstance(u, str) and u.strip(), f"{where} has no units"
            assert UNITS_RE.match(u), f"{where} has units {u!r} that do not look like a units string"
            assert cls.units()[f.name] == u
        else:
            assert len(f.metadata["choices"]) >= 1, f"{where}: an option needs its choices"
    assert set(cls.units()) == set(cls.field_names())


@pytest.mark.parametrize("cls", PARAM_CLASSES)
def test_parameter_fields_are_documented(cls):
    docs = " ".join((k.__dict__.get("__doc__") or "") for k in cls.__mro__
                    if k.__module__.startswith("frictionlab"))
    words = set(re.findall(r"[A-Za-z_][A-Za-z0-9_]*", docs))
    missing = [f.name for f in dataclasses.fields(cls) if f.name not in words and not f.metadata.get("doc")]
    assert not missing, f"{cls.__module__}.{cls.__name__}: fields not named in its docstring: {missing}"


def test_sources_have_no_invalid_escape_sequences():
    """A ``\\s`` or ``\\l`` in a non-raw docstring is a SyntaxWarning (an error in future Pythons)."""
    import warnings
    from pathlib import Path

    root = Path(frictionlab.__file__).resolve().parent
    files = sorted(root.rglob("*.py"))
    assert len(files) > 50
    bad = []
    for path in files:
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            try:
                compile(path.read_text(encoding="utf-8"), str(path), "exec")
            except (SyntaxWarning, DeprecationWarning, SyntaxError) as exc:
                bad.append(f"{path.relative_to(root)}: {exc}")
    assert not bad, "\n".join(bad)


@pytest.mark.parametrize("obj", PUBLIC)
def test_public_docstring_parses_as_numpydoc(obj):
    """numpydoc reads the docstring without warnings (no unknown or malformed sections)."""
    import warnings

    docscrape = pytest.importorskip("numpydoc.docscrape")
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        if inspect.isclass(obj):
            docscrape.ClassDoc(obj, config={"show_class_members": False})
        else:
            docscrape.FunctionDoc(obj)


def _docutils_problems(text: str) -> list[str]:
    import io

    docutils_core = pytest.importorskip("docutils.core")
    err = io.StringIO()
    docutils_core.publish_doctree(text, settings_overrides={"warning_stream": err, "report_level": 2})
    # Sphinx roles (:func:, :class:, ...) are unknown to plain docutils: not problems of the text
    return [ln for ln in err.getvalue().splitlines() if "(ERROR" in ln or "(WARNING" in ln
            if "Unknown interpreted text role" not in ln and "No role entry" not in ln]


def test_developing_page_converts_without_docutils_warnings():
    """docs/developing.md becomes generated/developing.rst (docs/conf.py): no markup errors there."""
    import pathlib

    root = pathlib.Path(__file__).resolve().parents[2]
    src = (root / "docs" / "conf.py").read_text()
    ns: dict = {"re": re}
    exec(src[src.index("def _md_to_rst"):src.index("def _write_developer_pages")], ns)
    rst = ns["_md_to_rst"]((root / "docs" / "developing.md").read_text())
    assert _docutils_problems(rst) == []
    assert "in the family's package::" in rst  # the indented example is a literal block, not text


def test_public_docstrings_have_no_stray_substitutions():
    """``|u|`` outside a literal or :math: is an rst substitution reference (an error in the API pages)."""
    import importlib
    import pkgutil

    bad = []
    for m in pkgutil.walk_packages(frictionlab.__path__, "frictionlab."):
        if m.name.startswith("frictionlab.scenarios.") or re.search(r"(^|\.)(_[^.]*)$", m.name):
            continue
        mod = importlib.import_module(m.name)
        objs = [mod] + [v for k, v in vars(mod).items() if not k.startswith("_")
                        and (inspect.isclass(v) or inspect.isfunction(v)) and v.__module__ == m.name]
        for obj in objs:
            doc = inspect.cleandoc(obj.__doc__ or "")
            if "|" in doc:
                bad += [f"{m.name}.{getattr(obj, '__qualname__', '')}: {p}" for p in _docutils_problems(doc)
                        if "substitution" in p]
    assert bad == []
