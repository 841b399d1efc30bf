"""The validation page: per paper, what reproduces, what deviates (and why, with the evidence), what fails.

Generated from the outcomes of one ``frictionlab reproduce`` run (``OUT/validation.md``); the
committed ``docs/validation.md`` is this page from a named run, so the documentation's summary of
the papers is never written by hand.
"""

from __future__ import annotations

import time
from pathlib import Path

from ..core.files import write_text_atomic
from .outcomes import LABEL, ScenarioOutcome, by_paper, counts

__all__ = ["validation_markdown", "write_validation"]


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


#: the expected value :func:`~frictionlab.scenarios.base.not_testable` puts when the claim states none
_NO_EXPECTED = "(see why)"


def _sentence(text: str) -> str:
    """``text`` ending with a full stop, so that a following sentence reads as one."""
    text = text.rstrip()
    return text if not text or text.endswith((".", "!", "?")) else text + "."


def _reading(ambiguity: str, lead: str) -> str:
    """``lead`` + the reading of the paper a check rests on, or nothing when it rests on the print alone."""
    return f"{lead}{ambiguity}" if ambiguity else ""


_KIND_TEXT = {
    "verification": "checks of our numerics (closed forms, convergence, two methods agreeing)",
    "regression": "comparisons with an earlier result of ours (not evidence about the paper)",
    "extension": "behaviour beyond the paper",
}


def _kind_line(os_: list[ScenarioOutcome]) -> str:
    parts = []
    for kind in ("verification", "regression", "extension"):
        c = counts(os_, kind)
        if c.checks:
            parts.append(f"{kind}: {c.passed} pass, {c.failed} fail")
    insensitive = sum(1 for o in os_ for x in o.checks if x.kind == "paper" and x.insensitive)
    if insensitive:
        parts.append(f"{insensitive} paper check(s) insensitive to every mutation (out of the headline)")
    return "; ".join(parts)


def _with_mutation(os_: list[ScenarioOutcome]) -> str:
    judged = [x for o in os_ for x in o.checks if x.judged and not x.insensitive]
    return f"{sum(bool(x.mutations) for x in judged)} of {len(judged)}"


def validation_markdown(outcomes: list[ScenarioOutcome], *, quick: bool, stamp: str, command: str = "") -> str:
    """The validation page for ``outcomes`` (Markdown).

    The headline counts the *paper* checks only (claims of the paper compared with what it prints);
    verification, regression and extension checks are counted apart. Each paper's section opens
    with its claim table (every paper check: verdict, claim, expected, measured, and the reading of
    the paper it rests on where that differs from the print), then what deviates (with the
    evidence and the reading each rests on), what is not testable (the paper's value, why, and any
    reading), the paper checks left out of the counts as insensitive (and why), what does not
    reproduce, and the other checks with their readings."""
    n = counts(outcomes, "paper")
    every = counts(outcomes)
    how = f"`{command}`" if command else "`frictionlab reproduce`"
    md = ["# Validation against the papers", "",
          f"Generated from one reproduce run ({how}, **{'quick' if quick else 'full'} profile**, {stamp}); "
          "regenerate it with `frictionlab reproduce ... --out DIR`, which writes `DIR/validation.md`. "
          "Every number below was computed in that run.", "",
          f"Paper claims: **{n.passed} pass, {n.deviation} deviation, {n.failed} fail"
          + (f", {n.not_testable} not testable" if n.not_testable else "") + f"** over {len(outcomes)} scenarios "
          f"({n.errors} failed to run; {n.seconds:.0f} s). All checks, of every kind: {every.line()}."
          + (f" Besides the paper claims: {_kind_line(outcomes)}." if _kind_line(outcomes) else ""), "",
          "- *pass*: the claim reproduces within the stated tolerance.",
          "- *deviation*: the paper's own equations and parameters do not give its claim; shown with evidence "
          "computed in the same run (a closed form, a stability analysis, an independent integration, a "
          "convergence study), every evidence check passing.",
          "- *fail*: the claim does not reproduce and no evidence clears it.",
          "- *not testable*: the paper does not print what the claim needs (a parameter, the data); the reason is given.",
          "- Kinds: *paper*: a claim of the paper (only these make the counts above); "
          + "; ".join(f"*{k}*: {v}" for k, v in _KIND_TEXT.items()) + ".",
          "- *with a mutation*: the judged paper checks (pass or deviation) that declare a wrong model or reading "
          "under which they must change their verdict (`frictionlab reproduce PAPER --quick --mutations` runs them).",
          "",
          "| paper | scenarios | pass | deviation | fail | not testable | with a mutation | other checks |",
          "|---|---|---|---|---|---|---|---|"]
    papers = by_paper(outcomes)
    for p, os_ in papers.items():
        c = counts(os_, "paper")
        md.append(f"| [{p}](#{p}) | {len(os_)} | {c.passed} | {c.deviation} | {c.failed} | {c.not_testable} | "
                  f"{_with_mutation(os_)} | {_cell(_kind_line(os_)) or '-'} |")
    md.append("")
    for p, os_ in papers.items():
        c = counts(os_, "paper")
        refs: list[str] = []
        for o in os_:
            refs += [r for r in o.references if r not in refs]
        md += [f"## {p}", "", f"Paper claims: {c.line()} ({len(os_)} scenarios, {c.seconds:.0f} s)."
               + (f" Other checks: {_kind_line(os_)}." if _kind_line(os_) else "")
               + (" Sources: " + "; ".join(r.rstrip('. ') for r in refs[:3]) + "." if refs else ""), ""]
        paper = [(o, x) for o in os_ for x in o.checks if x.kind == "paper"]
        md += ["### Claims of the paper", "",
               "| verdict | scenario | claim | expected | measured | reading of the paper it rests on |",
               "|---|---|---|---|---|---|"]
        md += [f"| {LABEL[x.status]} | {o.name} | {_cell(x.claim)} | {_cell(x.expected)} | {_cell(x.measured)} | "
               f"{_cell(x.ambiguity) or '-'} |" for o, x in paper]
        md.append("")
        devs = [(o, x) for o, x in paper if x.status == "deviation"]
        if devs:
            md += ["### What deviates, and why", ""]
            for o, x in devs:
                md += [f"**{o.name}: {x.claim}** (paper: {x.expected}; measured: {x.measured}). {_sentence(x.explanation)}"
                       + _reading(x.ambiguity, " Reading of the paper it rests on: "), ""]
                md += [f"- evidence: {e.claim}: {e.measured} (expected {e.expected}; {e.status})"
                       + _reading(e.ambiguity, "; reading: ") for e in x.evidence]
                md.append("")
        untestable = [(o, x) for o, x in paper if x.status == "not testable"]
        if untestable:
            md += ["### Not testable, and why", ""]
            md += [f"- {o.name}: {x.claim}" + (f" (paper: {x.expected})" if x.expected != _NO_EXPECTED else "")
                   + f": {x.explanation}" + _reading(x.ambiguity, " Reading: ") for o, x in untestable]
            md.append("")
        insensitive = [(o, x) for o, x in paper if x.insensitive]
        if insensitive:
            md += ["### Out of the counts: insensitive to every mutation, and why", ""]
            md += [f"- {o.name}: {x.claim} ({LABEL[x.status]}): {x.insensitive}" for o, x in insensitive]
            md.append("")
        fails = [(o, x) for o in os_ for x in o.checks if x.status == "fail"]
        errs = [o for o in os_ if o.error]
        if fails or errs:
            md += ["### What does not reproduce", ""]
            md += [f"- {o.name}: did not run: `{o.error.splitlines()[0]}`" for o in errs]
            md += [f"- {o.name}: {x.claim}" + (f" ({x.kind} check)" if x.kind != "paper" else "")
                   + f": expected {x.expected}, measured {x.measured}"
                   + (f" ({x.explanation})" if x.explanation else "") + _reading(x.ambiguity, "; reading: ")
                   for o, x in fails]
            md.append("")
        other = [(o, x) for o in os_ for x in o.checks if x.kind != "paper"]
        if other:
            md += ["### Other checks (not claims of the paper)", "",
                   "| verdict | kind | scenario | check | expected | measured | reading or note |",
                   "|---|---|---|---|---|---|---|"]
            md += [f"| {LABEL[x.status]} | {x.kind} | {o.name} | {_cell(x.claim)} | {_cell(x.expected)} | "
                   f"{_cell(x.measured)} | {_cell(x.ambiguity) or '-'} |" for o, x in other]
            md.append("")
    return "\n".join(md) + "\n"


def write_validation(outcomes: list[ScenarioOutcome], out: Path, *, quick: bool, stamp: str | None = None,
                     command: str = "") -> Path:
    """Write ``out/validation.md`` (see :func:`validation_markdown`)."""
    stamp = stamp or time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    path = Path(out) / "validation.md"
    return write_text_atomic(path, validation_markdown(outcomes, quick=quick, stamp=stamp, command=command))
