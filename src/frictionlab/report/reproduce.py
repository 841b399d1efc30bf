"""Run scenarios, evaluate their checks, and write a self-contained report."""

from __future__ import annotations

import base64
import html
import time
import traceback
from dataclasses import dataclass, field
from pathlib import Path

from ..core.citations import citations
from ..core.errors import FrictionLabError
from ..core.result import write_csv, write_netcdf
from ..plot import save
from ..scenarios.base import Check, Scenario

__all__ = ["ScenarioOutcome", "reproduce", "write_report"]


@dataclass
class ScenarioOutcome:
    name: str
    description: str
    checks: list[Check] = field(default_factory=list)
    figure: Path | None = None
    data: Path | None = None
    seconds: float = 0.0
    error: str = ""

    @property
    def passed(self) -> bool:
        return not self.error and all(c.passed for c in self.checks)


def _slug(name: str) -> str:
    return name.replace("/", "__")


def run_one(sc: Scenario, out: Path, quick: bool, overrides: dict | None = None, debug: bool = False) -> ScenarioOutcome:
    res = ScenarioOutcome(sc.name, sc.description)
    t0 = time.perf_counter()
    try:
        ds, cfg = sc.execute(overrides, quick=quick)
        res.data = write_netcdf(ds, out / "data" / f"{_slug(sc.name)}.nc")
        res.checks = sc.evaluate(ds, cfg)
        if sc.plot is not None:
            fig = sc.plot(ds)
            res.figure = out / "figures" / f"{_slug(sc.name)}.png"
            res.figure.parent.mkdir(parents=True, exist_ok=True)
            save(fig, res.figure)
    except FrictionLabError as exc:
        res.error = f"{type(exc).__name__}: {exc}"
    except Exception as exc:  # a crash is reported, not hidden, and does not stop the report
        res.error = f"{type(exc).__name__}: {exc}"
        if debug:
            res.error += "\n" + traceback.format_exc()
    res.seconds = time.perf_counter() - t0
    return res


def reproduce(scenarios: list[Scenario], out: Path, *, quick: bool = False, progress=None,
              debug: bool = False) -> list[ScenarioOutcome]:
    out.mkdir(parents=True, exist_ok=True)
    outcomes = []
    for sc in scenarios:
        if progress is not None:
            progress(sc.name)
        outcomes.append(run_one(sc, out, quick, debug=debug))
        write_report(outcomes, out, quick=quick)  # keep the report current: nothing is lost
    return outcomes


def _md_table(outcomes: list[ScenarioOutcome]) -> list[str]:
    lines = ["| scenario | claim | expected | measured | pass |", "|---|---|---|---|---|"]
    for o in outcomes:
        if o.error:
            lines.append(f"| {o.name} | runs without error | no error | {o.error.splitlines()[0]} | FAIL |")
        for c in o.checks:
            lines.append(f"| {o.name} | {c.claim} | {c.expected} | {c.measured} | {'pass' if c.passed else 'FAIL'} |")
    return lines


def write_report(outcomes: list[ScenarioOutcome], out: Path, *, quick: bool = False) -> tuple[Path, Path]:
    n_checks = sum(len(o.checks) for o in outcomes)
    n_pass = sum(c.passed for o in outcomes for c in o.checks)
    n_err = sum(bool(o.error) for o in outcomes)
    papers: dict[str, list[ScenarioOutcome]] = {}
    for o in outcomes:
        papers.setdefault(o.name.split("/")[0], []).append(o)

    md = ["# frictionlab reproduce report", "",
          f"Profile: {'quick' if quick else 'full'}. Scenarios: {len(outcomes)}; checks passed: "
          f"{n_pass}/{n_checks}; scenarios that failed to run: {n_err}.", "",
          "## Summary per paper", "", "| paper | scenarios | checks passed | errors | time [s] |", "|---|---|---|---|---|"]
    for p, os_ in papers.items():
        md.append(f"| {p} | {len(os_)} | {sum(c.passed for o in os_ for c in o.checks)}/{sum(len(o.checks) for o in os_)} "
                  f"| {sum(bool(o.error) for o in os_)} | {sum(o.seconds for o in os_):.1f} |")
    md += ["", "## Checks", ""] + _md_table(outcomes) + [""]
    for o in outcomes:
        md += [f"## {o.name}", "", o.description, "", f"Run time: {o.seconds:.2f} s.", ""]
        if o.figure:
            md.append(f"![{o.name}](figures/{o.figure.name})")
            md.append("")
    md += ["## References", ""] + [f"- {c}" for c in citations()]
    md_path = out / "report.md"
    md_path.write_text("\n".join(md) + "\n")

    h = ["<!DOCTYPE html><html><head><meta charset='utf-8'><title>frictionlab reproduce report</title>",
         "<style>body{font-family:sans-serif;max-width:1100px;margin:auto;padding:1em}"
         "table{border-collapse:collapse;font-size:13px}td,th{border:1px solid #bbb;padding:3px 6px}"
         ".pass{background:#e3f6e3}.fail{background:#fbe0e0}img{max-width:100%}</style></head><body>",
         "<h1>frictionlab reproduce report</h1>",
         f"<p>Profile: {'quick' if quick else 'full'}. Scenarios: {len(outcomes)}; checks passed: "
         f"<b>{n_pass}/{n_checks}</b>; scenarios that failed to run: {n_err}.</p>",
         "<h2>Summary per paper</h2><table><tr><th>paper</th><th>scenarios</th><th>checks passed</th><th>errors</th></tr>"]
    for p, os_ in papers.items():
        ok = all(o.passed for o in os_)
        h.append(f"<tr class='{'pass' if ok else 'fail'}'><td>{p}</td><td>{len(os_)}</td>"
                 f"<td>{sum(c.passed for o in os_ for c in o.checks)}/{sum(len(o.checks) for o in os_)}</td>"
                 f"<td>{sum(bool(o.error) for o in os_)}</td></tr>")
    h.append("</table><h2>Checks</h2><table id='checks'><tr><th>scenario</th><th>claim</th><th>expected</th>"
             "<th>measured</th><th>pass</th><th>ambiguity</th></tr>")
    for o in outcomes:
        if o.error:
            h.append(f"<tr class='fail'><td>{html.escape(o.name)}</td><td>runs without error</td><td>no error</td>"
                     f"<td>{html.escape(o.error)}</td><td>FAIL</td><td></td></tr>")
        for c in o.checks:
            h.append(f"<tr class='{'pass' if c.passed else 'fail'}'><td>{html.escape(o.name)}</td>"
                     f"<td>{html.escape(c.claim)}</td><td>{html.escape(c.expected)}</td><td>{html.escape(c.measured)}</td>"
                     f"<td>{'pass' if c.passed else 'FAIL'}</td><td>{html.escape(c.ambiguity)}</td></tr>")
    h.append("</table>")
    for o in outcomes:
        h.append(f"<h2 id='{_slug(o.name)}'>{html.escape(o.name)}</h2><p>{html.escape(o.description)}</p>"
                 f"<p>Run time: {o.seconds:.2f} s.</p>")
        if o.figure and o.figure.exists():
            b64 = base64.b64encode(o.figure.read_bytes()).decode()
            h.append(f"<img alt='{html.escape(o.name)}' src='data:image/png;base64,{b64}'>")
    h.append("<h2>References</h2><ul>" + "".join(f"<li>{html.escape(c)}</li>" for c in citations()) + "</ul>")
    h.append("</body></html>")
    html_path = out / "report.html"
    html_path.write_text("\n".join(h))
    return md_path, html_path
