"""Sphinx configuration of the frictionlab documentation (``make docs``).

The API reference and the developer pages are generated at build time: ``api.rst`` indexes
every module of the installed package, each documented on its own page ``api/<module>.rst``
(so a new model appears without editing this file), and ``developing.rst`` / ``naming.rst``
are converted from ``docs/developing.md``, the single source of the developer conventions.

The site needs no network: MathJax (TeX to SVG) is served from ``_static/mathjax/`` (a copy of
the MathJax 3 release file, see its README), never from a CDN; ``_static/frictionlab.css``
wraps long code lines.
"""

from __future__ import annotations

import importlib
import pkgutil
import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
GEN = HERE / "generated"  # pages written at build time (git-ignored)
GEN.mkdir(exist_ok=True)
sys.path.insert(0, str(ROOT / "src"))

import frictionlab  # noqa: E402

project = "frictionlab"
author = "the frictionlab developers"
copyright = "2026, the frictionlab developers"
release = version = frictionlab.__version__

extensions = [
    "sphinx.ext.autodoc",
    "sphinx.ext.autosummary",
    "sphinx.ext.mathjax",
    "sphinx.ext.viewcode",
    "numpydoc",
    "sphinx_gallery.gen_gallery",
]
templates_path: list[str] = []
exclude_patterns = ["_build", "developing.md", "validation.md", "validation-rough-contact-full.md", "sg_execution_times.rst", "auto_examples/sg_execution_times.rst", "auto_examples/*.ipynb", "auto_examples/*.py", "auto_examples/*.zip"]
html_theme = "alabaster"
html_static_path = ["_static"]
html_css_files = ["frictionlab.css"]
# offline mathematics: the MathJax 3 file in _static (relative paths are under _static/)
mathjax_path = "mathjax/tex-svg-full.js"
mathjax3_config = {"options": {"enableMenu": False}, "svg": {"fontCache": "global"}}
html_title = f"frictionlab {release}"
html_theme_options = {"description": "Friction models from five research works, behind one interface.",
                      "fixed_sidebar": True}

autodoc_default_options = {"members": True, "undoc-members": False, "show-inheritance": True}
autodoc_typehints = "none"
numpydoc_show_class_members = False
numpydoc_validation_checks: set[str] = set()
numpydoc_xref_param_type = False

def _frictionlab_figures(block, block_vars, gallery_conf):
    """Sphinx-gallery scraper for the figures frictionlab.plot returns: matplotlib Figure objects
    that pyplot does not track (the helpers never touch the user's backend), found in the
    example's globals; each is saved once."""
    from matplotlib.figure import Figure
    from sphinx_gallery.scrapers import figure_rst

    seen = block_vars.setdefault("_frictionlab_seen", set())
    paths = []
    for value in list(block_vars["example_globals"].values()):
        if isinstance(value, Figure) and id(value) not in seen:
            seen.add(id(value))
            path = next(block_vars["image_path_iterator"])
            value.savefig(path, dpi=100)
            paths.append(path)
    return figure_rst(paths, gallery_conf["src_dir"])


sphinx_gallery_conf = {
    "image_scrapers": ("matplotlib", _frictionlab_figures),
    "examples_dirs": str(ROOT / "examples"),
    "gallery_dirs": "auto_examples",
    "filename_pattern": r"/plot_",
    "ignore_pattern": r"__init__\.py",
    "download_all_examples": False,
    "remove_config_comments": True,
    "within_subsection_order": "FileNameSortKey",
    "write_computation_times": False,  # its page loads jQuery/DataTables from CDNs: the site stays offline
}

# --- generated pages --------------------------------------------------------------------

_SECTIONS = [
    ("Top level", "frictionlab", False),
    ("Running models: simulate, drivers, integrators, convergence", "frictionlab.solve", True),
    ("Core: models, parameters, simulate, errors, results", "frictionlab.core", True),
    ("Friction laws", "frictionlab.laws", True),
    ("Contact models", "frictionlab.contact", True),
    ("Protocols", "frictionlab.protocols", True),
    ("Systems", "frictionlab.systems", True),
    ("Closed-loop control", "frictionlab.control", True),
    ("Closed-form references", "frictionlab.reference", True),
    ("Analysis", "frictionlab.analysis", True),
    ("Fitting", "frictionlab.fit", True),
    ("Parameter sweeps", "frictionlab.sweep", True),
    ("Export: FMU and C source", "frictionlab.export", True),
    ("Scenarios", "frictionlab.scenarios", True),
    ("Reproduce report", "frictionlab.report", True),
    ("Plotting", "frictionlab.plot", True),
    ("Export: FMU, C source, python-control", "frictionlab.export", True),
    ("Packaged datasets", "frictionlab.datasets", True),
    ("Testing helpers", "frictionlab.testing", True),
]
_SKIP = re.compile(r"(^|\.)(_[^.]*)$|\.templates(\.|$)")  # templates: numba loop sources


def _modules(package: str, recursive: bool) -> list[str]:
    try:
        pkg = importlib.import_module(package)
    except Exception:  # a package still being written: leave it out of this build
        return []
    names = [package]
    if recursive and hasattr(pkg, "__path__"):
        for mod in pkgutil.walk_packages(pkg.__path__, package + "."):
            # the scenario machinery is API; the paper scenarios are listed on their own page
            if not _SKIP.search(mod.name) and not re.match(r"frictionlab\.scenarios\.[a-z_]+\.", mod.name):
                names.append(mod.name)
    return sorted(set(names))


def _summary(module) -> str:
    """The first sentence of a module's docstring, as one rst-safe line."""
    doc = (module.__doc__ or "").strip().split("\n\n")[0].replace("\n", " ")
    return re.sub(r"\s+", " ", doc).replace("|", "\\|") or "(no description)"


def _write_api() -> None:
    """``api.rst``: an index of the modules by section, each module on its own page ``api/<module>.rst``."""
    out = ["API reference", "=============", "",
           "Generated from the docstrings of every module (numpydoc format: parameters with units",
           "in brackets, equations under *Notes*), one page per module. Scenarios are listed on",
           ":doc:`scenarios`.", ""]
    pages = GEN / "api"
    if pages.exists():
        for old in pages.glob("*.rst"):
            old.unlink()
    pages.mkdir(exist_ok=True)
    for title, package, recursive in _SECTIONS:
        mods = _modules(package, recursive)
        if not mods:
            continue
        out += [title, "-" * len(title), "", ".. toctree::", "   :hidden:", ""]
        out += [f"   api/{m}" for m in mods]
        out += ["", ".. list-table::", "   :widths: 35 65", ""]
        for m in mods:
            mod = importlib.import_module(m)
            is_pkg = hasattr(mod, "__path__")
            out += [f"   * - :doc:`{m} <api/{m}>`", f"     - {_summary(mod)}"]
            # a package shows its docstring only: its re-exports are documented in their modules
            body = [m, "=" * len(m), "", f".. automodule:: {m}"] + (["   :no-members:"] if is_pkg else [])
            (pages / f"{m}.rst").write_text("\n".join(body) + "\n")
        out.append("")
    (GEN / "api.rst").write_text("\n".join(out) + "\n")


def _write_scenarios() -> None:
    from frictionlab.scenarios import get_scenario, scenario_names

    out = ["Scenarios", "=========", "",
           "Each scenario is a paper's numerical experiment with the checks that compare it with the",
           "paper's claims and closed forms. Run one with ``frictionlab run NAME``, check a whole",
           "paper with ``frictionlab reproduce PAPER [--quick]``, sweep one with ``frictionlab sweep``.", ""]
    try:
        names = scenario_names()
    except Exception:  # pragma: no cover - a scenario module being written
        names = []
    papers: dict[str, list[str]] = {}
    for n in names:
        papers.setdefault(n.split("/")[0], []).append(n)
    for p, ns in papers.items():
        out += [p, "-" * len(p), ""]
        for n in ns:
            sc = get_scenario(n)
            out += [f"``{n}``", "   " + sc.description.replace("\n", " ").replace("|", "\\|"), ""]  # |x| is rst markup
            if sc.references:
                out += ["   *References:* " + "; ".join(sc.references), ""]
            if sc.quick:
                out += ["   *Quick profile:* " + ", ".join(f"``{k} = {v!r}``" for k, v in sc.quick.items()), ""]
    (GEN / "scenarios.rst").write_text("\n".join(out) + "\n")


def _md_to_rst(md: str) -> str:
    """Convert the small Markdown subset of developing.md (headings, bullets, code) to rst."""
    lines = []
    underline = {1: "=", 2: "-", 3: "~"}
    for line in md.splitlines():
        m = re.match(r"^(#{1,3})\s+(.*)$", line)
        if m:
            title = m.group(2).strip()
            lines += [title, underline[len(m.group(1))] * len(title)]
            continue
        line = re.sub(r"(?<!`)`([^`]+)`(?!`)", r"``\1``", line)
        line = re.sub(r"\*\*([^*]+)\*\*", r"**\1**", line)
        if line.startswith("- "):
            lines.append("* " + line[2:])
        elif line.startswith("  ") and lines and lines[-1].lstrip().startswith(("* ", "  ")):
            lines.append("  " + line.strip())
        else:
            lines.append(line)
    # an indented block after "...:" and a blank line is code (Markdown); rst needs "::" for it
    indent = lambda s: len(s) - len(s.lstrip())  # noqa: E731
    for i in range(len(lines) - 2):
        if (lines[i].rstrip().endswith(":") and not lines[i].rstrip().endswith("::") and not lines[i + 1].strip()
                and lines[i + 2].strip() and indent(lines[i + 2]) >= indent(lines[i]) + 4
                and not lines[i + 2].lstrip().startswith(("* ", "- "))):
            lines[i] = lines[i].rstrip() + ":"
    return "\n".join(lines) + "\n"


def _write_developer_pages() -> None:
    md = (HERE / "developing.md").read_text()
    rst = _md_to_rst(md)
    (GEN / "developing.rst").write_text(rst)
    # the naming page: the "Naming" section, with a short preface
    m = re.search(r"^## Naming\n(.*?)(?=^## |\Z)", md, flags=re.S | re.M)
    body = _md_to_rst(m.group(1)) if m else ""
    preface = ["Naming conventions", "==================", "",
               "One argument order and one set of names across the library, so that every model,",
               "protocol and result reads the same way. This page is generated from the *Naming*",
               "section of :doc:`developing` (``docs/developing.md``); add to it there when a new",
               "pattern appears.", "",
               "Result variables", "----------------", "",
               ".. list-table::", "   :header-rows: 1", "", "   * - variable", "     - units"]
    from frictionlab.core.result import STANDARD_UNITS

    for k, u in STANDARD_UNITS.items():
        preface += [f"   * - ``{k}``", f"     - {u}"]
    preface += ["", "Rules", "-----", ""]
    (GEN / "naming.rst").write_text("\n".join(preface) + "\n" + body)


def _md_table_to_rst(rows: list[str]) -> list[str]:
    """A Markdown pipe table (header, separator, rows) as an rst list-table."""
    def cells(row: str) -> list[str]:
        parts = re.split(r"(?<!\\)\|", row.strip().strip("|"))
        return [c.strip() or "\\ " for c in parts]  # an escaped \\| stays escaped in rst

    body = [cells(r) for r in rows if not re.match(r"^\|[-| :]+\|$", r.strip())]
    out = ["", ".. list-table::", "   :header-rows: 1", ""]
    for r in body:
        out += [f"   * - {r[0]}"] + [f"     - {c}" for c in r[1:]]
    return out + [""]


def _write_validation_page(source: str = "validation.md", page: str = "validation") -> None:
    """A validation file written by ``frictionlab reproduce`` (``docs/validation.md``: the quick
    profile of every paper; ``docs/validation-rough-contact-full.md``: the full-profile runs at
    the papers' sizes) as the rst page ``generated/<page>.rst``."""
    md = (HERE / source).read_text()
    md = re.sub(r"\[([^\]]+)\]\(#[^)]*\)", r"\1", md)  # in-page links -> text
    parts: list[str] = []
    text: list[str] = []
    table: list[str] = []
    for line in md.splitlines() + [""]:
        if line.startswith("|"):
            if text:
                parts.append(_md_to_rst("\n".join(text)))
                text = []
            table.append(re.sub(r"(?<!`)`([^`]+)`(?!`)", r"``\1``", line))
            continue
        if table:
            parts.append("\n".join(_md_table_to_rst(table)))
            table = []
        text.append(line.replace("|", "\\|"))  # |x| is a substitution reference in rst
    parts.append(_md_to_rst("\n".join(text)))
    (GEN / f"{page}.rst").write_text("\n".join(parts))


_write_api()
_write_scenarios()
_write_developer_pages()
_write_validation_page()
_write_validation_page("validation-rough-contact-full.md", "validation_full")


# --- cross-references (``make docs`` builds with ``-n``, nitpicky, clean) -------------------
# Public names are re-exported lazily (``frictionlab.simulate`` lives in ``frictionlab.solve.simulate``)
# and docstrings name classes by their short name (``ConfigError``): a reference Sphinx cannot place
# is resolved here to the documented object it stands for -- the object the dotted name imports
# as, or the one documented object whose dotted name ends with it. Anything still unresolved is
# a warning, except the names below, each for a stated reason.
nitpicky = True
# the gallery configuration holds a function (the frictionlab figure scraper): Sphinx cannot cache it, and says so
suppress_warnings = ["config.cache"]
nitpick_ignore_regex = [
    # other projects' API: the site is built offline, without intersphinx inventories to link them
    (r"py:.*", r"(numpy|scipy|xarray|matplotlib|dask|distributed|pandas|numba|typer|rich|control|fmpy|zarr|"
               r"tamaas|ContactMechanics|rsfmodel|h5py|h5netcdf)(\..*)?"),
    # Python's own types and typing names (no inventory offline either)
    (r"py:.*", r"(optional|callable|iterable|sequence|mapping|array[-_ ]like|path[-_ ]like|ArrayLike|NDArray|"
               r"int|float|str|bool|dict|list|tuple|None|Path|pathlib\..*|typing\..*|collections\..*|"
               r"datetime\..*|os\..*|math\..*|concurrent\..*|contextlib\..*|np\..*|xr\..*)"),
    # private helpers named in docstrings for maintainers; the reference documents public names only
    (r"py:.*", r"(.*\.)?_[A-Za-z0-9][\w]*"),
    # the docstrings of dict/Mapping methods inherited by TrackedConfig and StudyResult ("D.items() -> a set-like
    # object providing a view on D's items"): numpydoc reads their prose return as a type
    (r"py:class", r"(a set-like object providing a view|an object providing a view|v, remove specified key).*"),
]


def _import_dotted(target: str):
    parts = target.split(".")
    for cut in range(len(parts), 0, -1):
        try:
            obj = importlib.import_module(".".join(parts[:cut]))
        except Exception:  # noqa: BLE001 - not a module: try a shorter prefix
            continue
        try:
            for attr in parts[cut:]:
                obj = getattr(obj, attr)
        except AttributeError:
            return None
        return obj
    return None


def _candidates(node) -> list[str]:
    """The dotted names a reference may mean: as written, then inside the class and module it is written in."""
    target = node.get("reftarget", "").lstrip("~.")
    mod, cls = node.get("py:module"), node.get("py:class")
    names = [target]
    if mod and cls:
        names.append(f"{mod}.{cls}.{target}")
    if mod:
        names.append(f"{mod}.{target}")
        names.append(f"{mod.rsplit('.', 1)[0]}.{target}")  # a sibling module (``mlbnm.stribeck_g``)
    return names


def _documented_name(env, target: str) -> str | None:
    objects = env.get_domain("py").objects
    obj = _import_dotted(target) if "." in target else None
    if obj is not None:
        mod, qual = getattr(obj, "__module__", None), getattr(obj, "__qualname__", None)
        if mod and qual and f"{mod}.{qual}" in objects:
            return f"{mod}.{qual}"
        if getattr(obj, "__name__", None) in objects:  # a module
            return obj.__name__
    tail = "." + target
    found = [name for name in objects if name.endswith(tail) and ".templates." not in name]
    return found[0] if len(found) == 1 else None


def _resolve_reexports(app, env, node, contnode):
    """A documented object the reference stands for; else, when the name exists in the code but is
    not part of the documented API (a module constant outside ``__all__``, a numba loop template),
    the reference is shown as code text without a link; else the nitpicky warning stands."""
    if node.get("refdomain") != "py":
        return None
    py = env.get_domain("py")
    for target in _candidates(node):
        name = _documented_name(env, target)
        if name is not None and name != node.get("reftarget"):
            found = py.resolve_any_xref(env, node.get("refdoc"), app.builder, name, node, contnode)
            if found:
                return found[0][1]
    for target in _candidates(node):
        if "." in target and target.startswith("frictionlab.") and _import_dotted(target) is not None:
            return contnode
    return None


def setup(app):
    app.connect("missing-reference", _resolve_reexports)
