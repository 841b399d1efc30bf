"""Claim texts cite the papers, never our specs' item numbers (issue 26: "0 spec item numbers in claim
texts on the validation pages").

The texts a scenario puts on the pages (claims, expected values, readings, explanations, mutation
descriptions, the scenario description) are string literals of its package's modules, or constants
those modules import by name. They are read from the source without running any model: every
string literal of ``frictionlab/scenarios/<paper>/*.py`` except docstrings, plus each string
constant imported from another frictionlab module (``from ...laws.x import _NOTE``). One test per
paper, so each paper's result stands on its own.

What counts as a citation of our spec: the word ``spec`` (``spec A3``, ``spec section 6``, ``spec §6.1``,
``spec item``), ``issue N item`` / ``issue item``, and a bare spec id -- a capital A, D, K, M, R or S
with one or two digits closing a parenthesis or a list (``(R18)``, ``(D16, fitted``, ``M13)``). A
paper's own symbols (``A1 sinh(alpha1 p)``, ``A* = A0 (F/F0)``, ``S_2 = 2 S_1``) are not followed by
``)``, ``,`` or ``;`` and pass.
"""

from __future__ import annotations

import ast
import importlib.util
import re
from pathlib import Path

import pytest

import frictionlab

SCENARIOS = Path(frictionlab.__file__).parent / "scenarios"
SPEC_WORDS = re.compile(
    r"\bspec\b"  # spec A3, spec section 6, spec §6.1, spec item 4, "the spec's K12"
    r"|\bissue\s+\d+\s*,?\s*item\b|\bissue item\b",  # issue 9 item 2, Issue item 6
    re.IGNORECASE)
#: a bare spec id closing a parenthesis or a list: (R18), D16, M13) -- case-sensitive
BARE_ID = re.compile(r"(?<![\w.^/\-*])[ADKMRS]\d{1,2}(?=\s*[),;])")


def spec_citations(text: str) -> list[str]:
    """The spec-item citations in ``text`` (empty when it cites only the paper)."""
    return [m.group(0) for m in SPEC_WORDS.finditer(text)] + [m.group(0) for m in BARE_ID.finditer(text)]


def _docstring_nodes(tree: ast.AST) -> set[int]:
    ids = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef)) and node.body:
            first = node.body[0]
            if isinstance(first, ast.Expr) and isinstance(first.value, ast.Constant) and isinstance(first.value.value, str):
                ids.add(id(first.value))
    return ids


def _strings(node: ast.AST, skip: set[int] = frozenset()) -> list[tuple[int, str]]:
    return [(n.lineno, n.value) for n in ast.walk(node)
            if isinstance(n, ast.Constant) and isinstance(n.value, str) and id(n) not in skip]


def _imported_constants(tree: ast.AST, module: str) -> list[tuple[str, int, str]]:
    """String constants that ``module`` imports by name from other frictionlab modules."""
    out = []
    for node in ast.walk(tree):
        if not (isinstance(node, ast.ImportFrom) and node.level):
            continue
        base = module.rsplit(".", node.level)[0]
        target = f"{base}.{node.module}" if node.module else base
        spec = importlib.util.find_spec(target) if target.startswith("frictionlab") else None
        if spec is None or not spec.origin or not spec.origin.endswith(".py"):
            continue
        names = {a.name for a in node.names}
        src = ast.parse(Path(spec.origin).read_text(encoding="utf-8"))
        for stmt in src.body:
            targets = (stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target] if isinstance(stmt, ast.AnnAssign)
                       else [])
            if any(isinstance(t, ast.Name) and t.id in names for t in targets) and stmt.value is not None:
                out += [(spec.origin, line, s) for line, s in _strings(stmt.value)]
    return out


def page_texts(package: Path) -> list[tuple[str, int, str]]:
    """(file, line, text) of every text the scenario package ``package`` can put on a page."""
    out = []
    for path in sorted(package.glob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        out += [(str(path), line, s) for line, s in _strings(tree, _docstring_nodes(tree))]
        out += _imported_constants(tree, f"frictionlab.scenarios.{package.name}.{path.stem}")
    return out


PAPERS = sorted(p.name for p in SCENARIOS.iterdir() if p.is_dir() and (p / "__init__.py").exists())


@pytest.mark.parametrize("package", PAPERS, ids=[p.replace("_", "-") for p in PAPERS])
def test_claim_texts_cite_the_paper_not_the_spec(package):
    hits = [f"{Path(f).name}:{line}: {', '.join(cs)} in {text[:160]!r}" for f, line, text in page_texts(SCENARIOS / package)
            if (cs := spec_citations(text))]
    assert not hits, f"{len(hits)} spec-item citation(s) in {package} texts:\n" + "\n".join(hits)


def test_patterns_flag_spec_items_and_pass_paper_symbols():
    flagged = ["eq. 23 read with -k_s x (spec A2)", "(spec section 6)", "spec §6.1", "the spec's K12", "spec item 4",
               "the map is not in the paper (issue 9 item 2)", "Calibration sweep (issue item 6)",
               "the natural log is used (R2).", "C0 from D16, fitted", "lambda only, R18);", "(spec section 5, M13)",
               "as in S5; the"]
    clean = ["the printed creep law -(A1 sinh(alpha1 p) + A2 sinh(alpha2 p))", "A* = A0 (F/F0)^(2/3)",
             "S_2 = 2 S_1 with gaps e_2 = 2 e_1", "Sec. V.A on Fig. 4(b)", "eqs. (23)-(24)", "FIT > 99 % (Sec. VII.B)",
             "a specimen of 7 mm", "respect to the print", "at Re = 3.6e5, 2e6"]
    assert all(spec_citations(t) for t in flagged), [t for t in flagged if not spec_citations(t)]
    assert not any(spec_citations(t) for t in clean), [(t, spec_citations(t)) for t in clean if spec_citations(t)]


def test_scan_reads_non_docstring_literals_and_imported_constants(tmp_path):
    """The scan sees claim strings and f-string parts, skips docstrings, and follows imported constants."""
    mod = tmp_path / "toy.py"
    mod.write_text('"""Module docstring citing spec A1 (not on a page)."""\n'
                   'from ...laws.kloss import CITATION\n'
                   'def checks(ds, cfg):\n'
                   '    """spec K2 in a docstring"""\n'
                   '    x = 1\n'
                   '    return [check(f"claim at {x} (spec A3)", "expected", x, True)]\n')
    tree = ast.parse(mod.read_text())
    texts = [s for _, s in _strings(tree, _docstring_nodes(tree))]
    assert any("(spec A3)" in s for s in texts) and not any("spec A1" in s or "spec K2" in s for s in texts)
    imported = _imported_constants(tree, "frictionlab.scenarios.kloss.toy")
    assert any("Martinez Molina" in s for _, _, s in imported)


def test_fast_kloss_claims_as_run_cite_the_paper():
    """The claim texts as the pages get them, from runs of the cheap Kloss scenarios."""
    from frictionlab.scenarios import get_scenario

    for name in ("kloss/fig4a", "kloss/fig10", "kloss/fig13", "kloss/eq5-eq6", "kloss/amontons"):
        sc = get_scenario(name)
        ds, cfg = sc.execute(quick=True)
        for c in sc.evaluate(ds, cfg):
            texts = [c.claim, c.expected, c.ambiguity, c.explanation, *(m.what for m in c.mutations)]
            texts += [t for e in c.evidence for t in (e.claim, e.expected)]
            assert not [t for t in texts if spec_citations(t)], (name, c.claim)
