"""The validation page: per paper, what reproduces, what deviates (and why, with the evidence), what fails.

Generated from the outcomes of one ``frictionlab reproduce`` run (``OUT/validation.md``); the
committed ``docs/validation.md`` is this page from a named run, so the documentation's summary of
the papers is never written by hand.
"""

from __future__ import annotations

import time
from pathlib import Path

from ..core.files import write_text_atomic
from .outcomes import ScenarioOutcome, by_paper, counts

__all__ = ["validation_markdown", "write_validation"]


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def validation_markdown(outcomes: list[ScenarioOutcome], *, quick: bool, stamp: str, command: str = "") -> str:
    """The validation page for ``outcomes`` (Markdown)."""
    n = counts(outcomes)
    how = f"`{command}`" if command else "`frictionlab reproduce`"
    md = ["# Validation against the papers", "",
          f"Generated from one reproduce run ({how}, **{'quick' if quick else 'full'} profile**, {stamp}); "
          "regenerate it with `frictionlab reproduce ... --out DIR`, which writes `DIR/validation.md`. "
          "Every number below was computed in that run.", "",
          f"Checks: **{n.passed} pass, {n.deviation} deviation, {n.failed} fail** over {len(outcomes)} scenarios "
          f"({n.errors} failed to run; {n.seconds:.0f} s).", "",
          "- *pass*: the claim reproduces within the stated tolerance.",
          "- *deviation*: the paper's own equations and parameters do not give its claim; shown with evidence "
          "computed in the same run (a closed form, a stability analysis, an independent integration, a "
          "convergence study), every evidence check passing.",
          "- *fail*: the claim does not reproduce and no evidence clears it.", "",
          "| paper | scenarios | pass | deviation | fail |", "|---|---|---|---|---|"]
    papers = by_paper(outcomes)
    for p, os_ in papers.items():
        c = counts(os_)
        md.append(f"| [{p}](#{p}) | {len(os_)} | {c.passed} | {c.deviation} | {c.failed} |")
    md.append("")
    for p, os_ in papers.items():
        c = counts(os_)
        refs: list[str] = []
        for o in os_:
            refs += [r for r in o.references if r not in refs]
        md += [f"## {p}", "", f"{c.passed} pass, {c.deviation} deviation, {c.failed} fail "
               f"({len(os_)} scenarios, {c.seconds:.0f} s)." + (" Sources: " + "; ".join(r.rstrip('. ') for r in refs[:3])
                                                                + "." if refs else ""), ""]
        devs = [(o, x) for o in os_ for x in o.checks if x.status == "deviation"]
        if devs:
            md += ["### What deviates, and why", ""]
            for o, x in devs:
                md += [f"**{o.name}: {x.claim}** (paper: {x.expected}; measured: {x.measured}). {x.explanation}", ""]
                md += [f"- evidence: {e.claim}: {e.measured} (expected {e.expected}; {e.status})" for e in x.evidence]
                md.append("")
        fails = [(o, x) for o in os_ for x in o.checks if x.status == "fail"]
        errs = [o for o in os_ if o.error]
        if fails or errs:
            md += ["### What does not reproduce", ""]
            md += [f"- {o.name}: did not run: `{o.error.splitlines()[0]}`" for o in errs]
            md += [f"- {o.name}: {x.claim}: expected {x.expected}, measured {x.measured}"
                   + (f" ({x.explanation})" if x.explanation else "") for o, x in fails]
            md.append("")
        md += ["### What reproduces", "", "| scenario | claim | expected | measured |", "|---|---|---|---|"]
        md += [f"| {o.name} | {_cell(x.claim)} | {_cell(x.expected)} | {_cell(x.measured)} |"
               for o in os_ for x in o.checks if x.status == "pass"]
        md.append("")
    return "\n".join(md) + "\n"


def write_validation(outcomes: list[ScenarioOutcome], out: Path, *, quick: bool, stamp: str | None = None,
                     command: str = "") -> Path:
    """Write ``out/validation.md`` (see :func:`validation_markdown`)."""
    stamp = stamp or time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    path = Path(out) / "validation.md"
    return write_text_atomic(path, validation_markdown(outcomes, quick=quick, stamp=stamp, command=command))
