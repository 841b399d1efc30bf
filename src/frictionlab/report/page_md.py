"""``report.md``: what failed or deviated first, then the per-paper summary, every claim, the figures."""

from __future__ import annotations

from pathlib import Path

from ..core.files import write_text_atomic
from .outcomes import (LABEL, ScenarioOutcome, attention, by_paper, counts, deviations, not_run_text, reading_text,
                       references, rows, slug)

__all__ = ["write_markdown", "THUMB_PX"]

#: width of a figure in the pages (the full image is one click away)
THUMB_PX = 360


def _cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _link(name: str) -> str:
    return f"[{name}](#{slug(name)})"


def _attention(outcomes: list[ScenarioOutcome]) -> list[str]:
    rs = attention(outcomes)
    n_fail = sum(r.status == "fail" for r in rs)
    md = [f"## Needs attention: {n_fail} fail, {len(rs) - n_fail} deviation", ""]
    if not rs:
        return md + ["Every claim passes.", ""]
    md += ["| verdict | scenario | claim | expected | measured |", "|---|---|---|---|---|"]
    md += [f"| {LABEL[r.status]} | {_link(r.scenario)} | {_cell(r.claim)} | {_cell(r.expected)} | {_cell(r.measured)} |"
           for r in rs]
    return md + [""]


def _checks(outcomes: list[ScenarioOutcome]) -> list[str]:
    lines = ["| verdict | kind | scenario | claim | expected | measured | reading of the paper |",
             "|---|---|---|---|---|---|---|"]
    for o in outcomes:
        for r in rows(o):
            claim = ("&nbsp;&nbsp;↳ evidence: " if r.level else "") + _cell(r.claim)
            lines.append(f"| {LABEL[r.status]} | {r.kind} | {o.name} | {claim} | {_cell(r.expected)} | "
                         f"{_cell(r.measured)} | {_cell(reading_text(r))} |")
    return lines


def _deviations(outcomes: list[ScenarioOutcome], level: str = "##") -> list[str]:
    """Every deviation with its explanation and its evidence checks."""
    devs = deviations(outcomes)
    md = [f"{level} Deviations of the papers ({len(devs)})", "",
          "A deviation: the paper's own equations and parameters do not give its claim; each is shown with the "
          "evidence computed in the same run (every evidence check passed).", ""]
    if not devs:
        md += ["None.", ""]
    for o, c in devs:
        md += [f"{level}# {o.name}: {c.claim}", "", f"- paper: {c.expected}; measured: {c.measured}",
               f"- why: {c.explanation}"]
        if c.ambiguity:
            md.append(f"- ambiguity it depends on: {c.ambiguity}")
        md += ["", "| verdict | evidence | expected | measured |", "|---|---|---|---|"]
        md += [f"| {LABEL[e.status]} | {_cell(e.claim)} | {_cell(e.expected)} | {_cell(e.measured)} |"
               for e in c.evidence]
        md.append("")
    return md


def write_markdown(outcomes: list[ScenarioOutcome], out: Path, quick: bool, stamp: str, not_run: list[str],
                   interrupted: bool) -> Path:
    n = counts(outcomes)
    npaper = counts(outcomes, "paper")
    papers = by_paper(outcomes)
    md = ["# frictionlab reproduce report", ""]
    if not_run:
        md += [f"**{not_run_text(not_run, interrupted)}**", ""]
    md += [f"Profile: {'quick' if quick else 'full'}; generated {stamp}. Scenarios: {len(outcomes)}; "
           f"checks: {n.line()} (of {n.checks}); scenarios that failed to run: {n.errors}; "
           f"of the checks, claims of the papers: {npaper.line()} (the others verify our numerics, compare with "
           "earlier results of ours or go beyond the papers: see each check's kind); "
           f"scenarios not run: {len(not_run)}; total run time {n.seconds:.1f} s.", ""]
    md += _attention(outcomes)
    md += ["## Summary per paper", "", "| status | paper | scenarios | pass | deviation | fail | errors | time [s] |",
           "|---|---|---|---|---|---|---|---|"]
    for p, os_ in papers.items():
        c = counts(os_)
        md.append(f"| {LABEL[c.status]} | {p} | {len(os_)} | {c.passed} | {c.deviation} | {c.failed} | {c.errors} | "
                  f"{c.seconds:.1f} |")
    md += [""] + _deviations(outcomes)
    md += ["## Checks", ""] + _checks(outcomes) + [""]
    for p, os_ in papers.items():
        md += [f"## {p}", "", "| status | scenario | pass | deviation | fail | time [s] |", "|---|---|---|---|---|---|"]
        for o in os_:
            c = counts([o])
            md.append(f"| {LABEL[o.status]} | {_link(o.name)} | {c.passed} | {c.deviation} | {c.failed} | "
                      f"{o.seconds:.1f} |")
        md.append("")
        for o in os_:
            md += [f'<a id="{slug(o.name)}"></a>', "", f"### {o.name}", "", o.description, ""]
            if o.references:
                md += ["References: " + "; ".join(r.rstrip(". ") for r in o.references) + ".", ""]
            if o.error:
                md += ["Error: `" + o.error.splitlines()[0] + "`", ""]
            if o.figure:
                src = f"figures/{o.figure.name}"
                md += [f'<a href="{src}"><img src="{src}" width="{THUMB_PX}" alt="{o.name}"></a>', ""]
    if not_run:
        md += ["## Not run", ""] + [f"- {n}" for n in not_run] + [""]
    md += ["## References", ""] + [f"- {c}" for c in references(outcomes)]
    return write_text_atomic(out / "report.md", "\n".join(md) + "\n")
