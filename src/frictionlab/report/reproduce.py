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
from ..core.files import write_text_atomic
from ..core.result import write_netcdf
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
    references: list[str] = field(default_factory=list)

    @property
    def paper(self) -> str:
        return self.name.split("/", 1)[0]

    @property
    def passed(self) -> bool:
        return not self.error and all(c.passed for c in self.checks)


def _slug(name: str) -> str:
    return name.replace("/", "__")


def run_one(sc: Scenario, out: Path, quick: bool, overrides: dict | None = None, debug: bool = False) -> ScenarioOutcome:
    res = ScenarioOutcome(sc.name, sc.description, references=list(sc.references))
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
    outcomes: list[ScenarioOutcome] = []
    pending = [sc.name for sc in scenarios]
    try:
        for sc in scenarios:
            if progress is not None:
                progress(sc.name)
            outcomes.append(run_one(sc, out, quick, debug=debug))
            pending.pop(0)
            write_report(outcomes, out, quick=quick, not_run=pending)  # current, and honest about what is left
    except KeyboardInterrupt:
        write_report(outcomes, out, quick=quick, not_run=pending, interrupted=True)
        raise
    return outcomes


def _references(outcomes: list[ScenarioOutcome]) -> list[str]:
    """The scenarios' own references, then the citations registered by the models they used."""
    refs: list[str] = []
    for o in outcomes:
        for r in o.references:
            if r not in refs:
                refs.append(r)
    for c in citations():
        if c not in refs:
            refs.append(c)
    return refs


def _by_paper(outcomes: list[ScenarioOutcome]) -> dict[str, list[ScenarioOutcome]]:
    papers: dict[str, list[ScenarioOutcome]] = {}
    for o in outcomes:
        papers.setdefault(o.paper, []).append(o)
    return papers


def _counts(os_: list[ScenarioOutcome]) -> tuple[int, int, int, float]:
    """(checks passed, checks, scenarios with errors, seconds)."""
    return (sum(c.passed for o in os_ for c in o.checks), sum(len(o.checks) for o in os_),
            sum(bool(o.error) for o in os_), sum(o.seconds for o in os_))


def _rows(o: ScenarioOutcome) -> list[tuple[str, str, str, bool, str]]:
    """Check rows (claim, expected, measured, passed, ambiguity); a crash is a failed row."""
    rows = [(c.claim, c.expected, c.measured, c.passed, c.ambiguity) for c in o.checks]
    if o.error:
        rows.insert(0, ("runs without error", "no error", o.error.splitlines()[0], False, ""))
    return rows


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _md_table(outcomes: list[ScenarioOutcome]) -> list[str]:
    lines = ["| scenario | claim | expected | measured | pass | ambiguity |", "|---|---|---|---|---|---|"]
    for o in outcomes:
        for claim, exp, meas, ok, amb in _rows(o):
            lines.append(f"| {o.name} | {_md_cell(claim)} | {_md_cell(exp)} | {_md_cell(meas)} | "
                         f"{'pass' if ok else 'FAIL'} | {_md_cell(amb)} |")
    return lines


def _not_run_text(not_run: list[str], interrupted: bool) -> str:
    why = "the run was interrupted" if interrupted else "the run has not reached them (still running, or killed)"
    return (f"INCOMPLETE: {len(not_run)} scenario(s) did not run ({why}): {', '.join(not_run)}. "
            "Their claims are not checked; this report does not pass.")


def _write_md(outcomes: list[ScenarioOutcome], out: Path, quick: bool, stamp: str, not_run: list[str],
              interrupted: bool) -> Path:
    n_pass, n_checks, n_err, secs = _counts(outcomes)
    papers = _by_paper(outcomes)
    md = ["# frictionlab reproduce report", ""]
    if not_run:
        md += [f"**{_not_run_text(not_run, interrupted)}**", ""]
    md += [f"Profile: {'quick' if quick else 'full'}; generated {stamp}. Scenarios: {len(outcomes)}; "
          f"checks passed: {n_pass}/{n_checks}; scenarios that failed to run: {n_err}; "
          f"scenarios not run: {len(not_run)}; total run time {secs:.1f} s.", "",
          "## Summary per paper", "", "| paper | scenarios | checks passed | errors | time [s] | status |",
          "|---|---|---|---|---|---|"]
    for p, os_ in papers.items():
        pp, pn, pe, ps = _counts(os_)
        md.append(f"| {p} | {len(os_)} | {pp}/{pn} | {pe} | {ps:.1f} | {'pass' if all(o.passed for o in os_) else 'FAIL'} |")
    md += ["", "## Checks", ""] + _md_table(outcomes) + [""]
    for p, os_ in papers.items():
        md += [f"## {p}", "", "| scenario | checks passed | time [s] | status |", "|---|---|---|---|"]
        for o in os_:
            md.append(f"| {o.name} | {sum(c.passed for c in o.checks)}/{len(o.checks)} | {o.seconds:.1f} | "
                      f"{'pass' if o.passed else 'FAIL'} |")
        md.append("")
        for o in os_:
            md += [f"### {o.name}", "", o.description, ""]
            if o.references:
                md += ["References: " + "; ".join(r.rstrip(". ") for r in o.references) + ".", ""]
            if o.error:
                md += ["Error: `" + o.error.splitlines()[0] + "`", ""]
            if o.figure:
                md += [f"![{o.name}](figures/{o.figure.name})", ""]
    if not_run:
        md += ["## Not run", ""] + [f"- {n}" for n in not_run] + [""]
    md += ["## References", ""] + [f"- {c}" for c in _references(outcomes)]
    return write_text_atomic(out / "report.md", "\n".join(md) + "\n")


_CSS = """
:root{--ok:#1e7d32;--okbg:#e6f4e7;--bad:#b3261e;--badbg:#fbe3e1;--line:#d0d4da;--mute:#5f6670}
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1d2228;
max-width:1180px;margin:0 auto;padding:24px 28px 60px;background:#fff}
h1{font-size:26px;margin:0 0 6px}h2{font-size:21px;margin:34px 0 10px;padding-bottom:4px;border-bottom:2px solid var(--line)}
h3{font-size:17px;margin:26px 0 6px}
.meta{color:var(--mute);margin:0 0 16px}
.cards{display:flex;gap:12px;flex-wrap:wrap;margin:14px 0 8px}
.card{border:1px solid var(--line);border-radius:8px;padding:10px 16px;min-width:150px}
.card b{display:block;font-size:24px}.card span{color:var(--mute);font-size:13px}
.card.ok b{color:var(--ok)}.card.bad b{color:var(--bad)}
nav{margin:8px 0 0;font-size:14px}nav a{margin-right:14px}
table{border-collapse:collapse;width:100%;font-size:13px;margin:8px 0 14px}
th,td{border:1px solid var(--line);padding:4px 7px;text-align:left;vertical-align:top}
th{background:#f3f5f8;position:sticky;top:0}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.pass td.verdict{background:var(--okbg);color:var(--ok);font-weight:600}
tr.fail td.verdict{background:var(--badbg);color:var(--bad);font-weight:600}
tr.fail{background:#fff7f6}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;vertical-align:middle}
.badge.pass{background:var(--okbg);color:var(--ok)}.badge.fail{background:var(--badbg);color:var(--bad)}
.desc{margin:4px 0 8px}.refs{color:var(--mute);font-size:13px}
.err{background:var(--badbg);color:var(--bad);padding:6px 10px;border-radius:6px;white-space:pre-wrap;font-family:monospace;font-size:12px}
figure{margin:10px 0 18px}figure img{max-width:100%;border:1px solid var(--line);border-radius:4px}
figcaption{color:var(--mute);font-size:13px}
.amb{color:#6b4e00;font-size:12px}
@media print{th{position:static}}
"""


def _badge(ok: bool) -> str:
    return f"<span class='badge {'pass' if ok else 'fail'}'>{'pass' if ok else 'FAIL'}</span>"


def _check_table(outcomes: list[ScenarioOutcome], table_id: str | None, with_scenario: bool) -> list[str]:
    e = html.escape
    head = ("<th>scenario</th>" if with_scenario else "") + ("<th>claim</th><th>expected</th><th>measured</th>"
                                                            "<th>pass</th><th>ambiguity it depends on</th>")
    h = [f"<table{f' id={chr(39)}{table_id}{chr(39)}' if table_id else ''} class='checks'><thead><tr>{head}</tr></thead><tbody>"]
    for o in outcomes:
        for claim, exp, meas, ok, amb in _rows(o):
            cls = "pass" if ok else "fail"
            scen = f"<td><a href='#{_slug(o.name)}'>{e(o.name)}</a></td>" if with_scenario else ""
            h.append(f"<tr class='{cls}'>{scen}<td>{e(claim)}</td><td>{e(exp)}</td><td class='num'>{e(meas)}</td>"
                     f"<td class='verdict'>{'pass' if ok else 'FAIL'}</td><td class='amb'>{e(amb)}</td></tr>")
    h.append("</tbody></table>")
    return h


def _write_html(outcomes: list[ScenarioOutcome], out: Path, quick: bool, stamp: str, not_run: list[str],
                interrupted: bool) -> Path:
    e = html.escape
    n_pass, n_checks, n_err, secs = _counts(outcomes)
    papers = _by_paper(outcomes)
    all_ok = n_pass == n_checks and not n_err and not not_run
    h = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
         "<meta name='viewport' content='width=device-width, initial-scale=1'>",
         "<title>frictionlab reproduce report</title>", f"<style>{_CSS}</style></head><body>",
         f"<h1>frictionlab reproduce report {_badge(all_ok)}</h1>",
         f"<p class='meta'>Profile: <b>{'quick' if quick else 'full'}</b> &middot; generated {e(stamp)} &middot; "
         f"frictionlab {e(_version())}</p>",
         "<div class='cards'>",
         f"<div class='card {'ok' if n_pass == n_checks else 'bad'}'><b>{n_pass}/{n_checks}</b><span>checks passed</span></div>",
         f"<div class='card'><b>{len(outcomes)}</b><span>scenarios in {len(papers)} paper(s)</span></div>",
         f"<div class='card {'ok' if not n_err else 'bad'}'><b>{n_err}</b><span>scenarios that failed to run</span></div>",
         f"<div class='card'><b>{secs:.1f} s</b><span>total run time</span></div>"
         + (f"<div class='card bad'><b>{len(not_run)}</b><span>scenarios not run</span></div>" if not_run else "")
         + "</div>",
         *([f"<p class='err' id='not-run'>{e(_not_run_text(not_run, interrupted))}</p>"] if not_run else []),
         "<nav>" + "".join(f"<a href='#paper-{e(p)}'>{e(p)}</a>" for p in papers) + "<a href='#checks'>all checks</a>"
         "<a href='#references'>references</a></nav>",
         "<h2>Summary per paper</h2><table id='summary'><thead><tr><th>paper</th><th>scenarios</th><th>checks passed</th>"
         "<th>errors</th><th>time [s]</th><th>status</th></tr></thead><tbody>"]
    for p, os_ in papers.items():
        pp, pn, pe, ps = _counts(os_)
        ok = all(o.passed for o in os_)
        h.append(f"<tr class='{'pass' if ok else 'fail'}'><td><a href='#paper-{e(p)}'>{e(p)}</a></td><td class='num'>{len(os_)}</td>"
                 f"<td class='num'>{pp}/{pn}</td><td class='num'>{pe}</td><td class='num'>{ps:.1f}</td>"
                 f"<td class='verdict'>{'pass' if ok else 'FAIL'}</td></tr>")
    h.append("</tbody></table>")
    for p, os_ in papers.items():
        pp, pn, pe, ps = _counts(os_)
        h.append(f"<h2 id='paper-{e(p)}'>{e(p)} {_badge(all(o.passed for o in os_))}</h2>")
        h.append("<table class='paper-summary'><thead><tr><th>scenario</th><th>checks passed</th><th>time [s]</th>"
                 "<th>status</th></tr></thead><tbody>")
        for o in os_:
            h.append(f"<tr class='{'pass' if o.passed else 'fail'}'><td><a href='#{_slug(o.name)}'>{e(o.name)}</a></td>"
                     f"<td class='num'>{sum(c.passed for c in o.checks)}/{len(o.checks)}</td>"
                     f"<td class='num'>{o.seconds:.1f}</td><td class='verdict'>{'pass' if o.passed else 'FAIL'}</td></tr>")
        h.append("</tbody></table>")
        for o in os_:
            h.append(f"<h3 id='{_slug(o.name)}'>{e(o.name)} {_badge(o.passed)}</h3><p class='desc'>{e(o.description)}</p>")
            if o.references:
                h.append("<p class='refs'>References: " + "; ".join(e(r.rstrip(". ")) for r in o.references)
                         + f". Run time {o.seconds:.2f} s.</p>")
            if o.error:
                h.append(f"<div class='err'>{e(o.error)}</div>")
            if o.checks or o.error:
                h += _check_table([o], None, with_scenario=False)
            if o.figure and o.figure.exists():
                b64 = base64.b64encode(o.figure.read_bytes()).decode()
                h.append(f"<figure><img alt='{e(o.name)}' src='data:image/png;base64,{b64}'>"
                         f"<figcaption>{e(o.name)}</figcaption></figure>")
    h.append("<h2 id='all-checks'>All checks</h2>")
    h += _check_table(outcomes, "checks", with_scenario=True)
    h.append("<h2 id='references'>References</h2><ol>" + "".join(f"<li>{e(c)}</li>" for c in _references(outcomes)) + "</ol>")
    h.append("</body></html>")
    return write_text_atomic(out / "report.html", "\n".join(h))


def _version() -> str:
    try:
        from .. import __version__
    except ImportError:  # pragma: no cover
        return "?"
    return __version__


def write_report(outcomes: list[ScenarioOutcome], out: Path, *, quick: bool = False,
                 not_run: list[str] | tuple[str, ...] = (), interrupted: bool = False) -> tuple[Path, Path]:
    """Write ``out/report.md`` and a self-contained ``out/report.html`` (figures embedded).

    Both hold an overall summary, a summary table per paper, every claim with its expected
    value, measurement, verdict and the spec ambiguity it depends on, the figures, and the
    references (the scenarios' own and the citations the models registered). Scenarios in
    ``not_run`` (not reached yet, or cut off by an interrupt) are named at the top and the
    report does not pass. Both files are written through a temporary name and a rename.

    Returns
    -------
    (path of report.md, path of report.html)
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    not_run = list(not_run)
    return (_write_md(outcomes, out, quick, stamp, not_run, interrupted),
            _write_html(outcomes, out, quick, stamp, not_run, interrupted))
