"""Run scenarios, evaluate their checks, and write a self-contained report.

Each claim has one of three verdicts (:class:`frictionlab.scenarios.base.Check`): pass, fail, or
deviation (the paper's own equations do not give its claim, shown with passing evidence computed
in the same run). :func:`exit_code` gives 0 when nothing fails, 1 when a claim fails, 2 when a
scenario could not run.
"""

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
from .validation import write_validation

__all__ = ["ScenarioOutcome", "Counts", "counts", "exit_code", "reproduce", "write_report"]


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
        """True when it ran and no check is ``fail`` (proven deviations of the paper are not failures)."""
        return not self.error and all(c.ok for c in self.checks)

    @property
    def status(self) -> str:
        """``"fail"`` (a failed check or a crash), ``"deviation"`` (at least one proven deviation) or ``"pass"``."""
        if not self.passed:
            return "fail"
        return "deviation" if any(c.status == "deviation" for c in self.checks) else "pass"


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


@dataclass(frozen=True)
class Counts:
    """Verdict counts over outcomes: checks that ``passed``, ``deviation``s, ``failed`` checks (a
    scenario that crashed counts one failed row), scenarios with ``errors``, and run ``seconds``."""

    passed: int
    deviation: int
    failed: int
    errors: int
    seconds: float

    @property
    def checks(self) -> int:
        return self.passed + self.deviation + self.failed

    @property
    def status(self) -> str:
        return "fail" if self.failed or self.errors else "deviation" if self.deviation else "pass"

    def line(self) -> str:
        return f"{self.passed} pass, {self.deviation} deviation, {self.failed} fail"


def counts(outcomes: list[ScenarioOutcome]) -> Counts:
    """Count the three verdicts over ``outcomes`` (evidence checks are not counted as claims)."""
    st = [c.status for o in outcomes for c in o.checks]
    n_err = sum(bool(o.error) for o in outcomes)
    return Counts(st.count("pass"), st.count("deviation"), st.count("fail") + n_err, n_err,
                  sum(o.seconds for o in outcomes))


def exit_code(outcomes: list[ScenarioOutcome]) -> int:
    """0 when no claim is ``fail``, 1 when one is, 2 when a scenario could not run (an error)."""
    c = counts(outcomes)
    return 2 if c.errors else 1 if c.failed else 0


_LABEL = {"pass": "pass", "fail": "FAIL", "deviation": "deviation"}


@dataclass(frozen=True)
class _Row:
    claim: str
    expected: str
    measured: str
    status: str
    ambiguity: str
    level: int = 0  # 0: a claim; 1: an evidence check of the deviation above it


def _rows(o: ScenarioOutcome, evidence: bool = True) -> list[_Row]:
    """Check rows, each deviation followed by its evidence rows; a crash is a failed row."""
    rows: list[_Row] = []
    if o.error:
        rows.append(_Row("runs without error", "no error", o.error.splitlines()[0], "fail", ""))
    for c in o.checks:
        rows.append(_Row(c.claim, c.expected, c.measured, c.status, c.ambiguity))
        if evidence and c.evidence:
            rows += [_Row(e.claim, e.expected, e.measured, e.status, e.ambiguity, 1) for e in c.evidence]
    return rows


def _deviations(outcomes: list[ScenarioOutcome]) -> list[tuple[ScenarioOutcome, Check]]:
    return [(o, c) for o in outcomes for c in o.checks if c.status == "deviation"]


def _md_cell(text: str) -> str:
    return str(text).replace("|", "\\|").replace("\n", " ")


def _md_table(outcomes: list[ScenarioOutcome]) -> list[str]:
    lines = ["| scenario | claim | expected | measured | verdict | ambiguity |", "|---|---|---|---|---|---|"]
    for o in outcomes:
        for r in _rows(o):
            claim = ("&nbsp;&nbsp;↳ evidence: " if r.level else "") + _md_cell(r.claim)
            lines.append(f"| {o.name} | {claim} | {_md_cell(r.expected)} | {_md_cell(r.measured)} | "
                         f"{_LABEL[r.status]} | {_md_cell(r.ambiguity)} |")
    return lines


def _not_run_text(not_run: list[str], interrupted: bool) -> str:
    why = "the run was interrupted" if interrupted else "the run has not reached them (still running, or killed)"
    return (f"INCOMPLETE: {len(not_run)} scenario(s) did not run ({why}): {', '.join(not_run)}. "
            "Their claims are not checked; this report does not pass.")


def _md_deviations(outcomes: list[ScenarioOutcome], level: str = "##") -> list[str]:
    """Every deviation with its explanation and its evidence checks."""
    devs = _deviations(outcomes)
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
        md += ["", "| evidence | expected | measured | verdict |", "|---|---|---|---|"]
        md += [f"| {_md_cell(e.claim)} | {_md_cell(e.expected)} | {_md_cell(e.measured)} | {_LABEL[e.status]} |"
               for e in c.evidence]
        md.append("")
    return md


def _write_md(outcomes: list[ScenarioOutcome], out: Path, quick: bool, stamp: str, not_run: list[str],
              interrupted: bool) -> Path:
    n = counts(outcomes)
    papers = _by_paper(outcomes)
    md = ["# frictionlab reproduce report", ""]
    if not_run:
        md += [f"**{_not_run_text(not_run, interrupted)}**", ""]
    md += [f"Profile: {'quick' if quick else 'full'}; generated {stamp}. Scenarios: {len(outcomes)}; "
          f"checks: {n.line()} (of {n.checks}); scenarios that failed to run: {n.errors}; "
          f"scenarios not run: {len(not_run)}; total run time {n.seconds:.1f} s.", "",
          "## Summary per paper", "", "| paper | scenarios | pass | deviation | fail | errors | time [s] | status |",
          "|---|---|---|---|---|---|---|---|"]
    for p, os_ in papers.items():
        c = counts(os_)
        md.append(f"| {p} | {len(os_)} | {c.passed} | {c.deviation} | {c.failed} | {c.errors} | {c.seconds:.1f} | "
                  f"{_LABEL[c.status]} |")
    md += [""] + _md_deviations(outcomes)
    md += ["## Checks", ""] + _md_table(outcomes) + [""]
    for p, os_ in papers.items():
        md += [f"## {p}", "", "| scenario | pass | deviation | fail | time [s] | status |", "|---|---|---|---|---|---|"]
        for o in os_:
            c = counts([o])
            md.append(f"| {o.name} | {c.passed} | {c.deviation} | {c.failed} | {o.seconds:.1f} | {_LABEL[o.status]} |")
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
:root{--ok:#1e7d32;--okbg:#e6f4e7;--bad:#b3261e;--badbg:#fbe3e1;--dev:#8a5300;--devbg:#fdf0d5;--line:#d0d4da;--mute:#5f6670}
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1d2228;
max-width:1180px;margin:0 auto;padding:24px 28px 60px;background:#fff}
h1{font-size:26px;margin:0 0 6px}h2{font-size:21px;margin:34px 0 10px;padding-bottom:4px;border-bottom:2px solid var(--line)}
h3{font-size:17px;margin:26px 0 6px}
.meta{color:var(--mute);margin:0 0 16px}
.cards{display:flex;gap:12px;flex-wrap:wrap;margin:14px 0 8px}
.card{border:1px solid var(--line);border-radius:8px;padding:10px 16px;min-width:150px}
.card b{display:block;font-size:24px}.card span{color:var(--mute);font-size:13px}
.card.ok b{color:var(--ok)}.card.bad b{color:var(--bad)}.card.dev b{color:var(--dev)}
nav{margin:8px 0 0;font-size:14px}nav a{margin-right:14px}
table{border-collapse:collapse;width:100%;font-size:13px;margin:8px 0 14px}
th,td{border:1px solid var(--line);padding:4px 7px;text-align:left;vertical-align:top}
th{background:#f3f5f8;position:sticky;top:0}
td.num{text-align:right;font-variant-numeric:tabular-nums;white-space:nowrap}
tr.pass td.verdict{background:var(--okbg);color:var(--ok);font-weight:600}
tr.fail td.verdict{background:var(--badbg);color:var(--bad);font-weight:600}
tr.deviation td.verdict{background:var(--devbg);color:var(--dev);font-weight:600}
tr.fail{background:#fff7f6}tr.deviation{background:#fffaf0}
tr.evidence td{font-size:12px;color:#39414a}tr.evidence td.claim{padding-left:26px}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;vertical-align:middle}
.badge.pass{background:var(--okbg);color:var(--ok)}.badge.fail{background:var(--badbg);color:var(--bad)}
.badge.deviation{background:var(--devbg);color:var(--dev)}
.desc{margin:4px 0 8px}.refs{color:var(--mute);font-size:13px}
.why{margin:2px 0 6px}
.err{background:var(--badbg);color:var(--bad);padding:6px 10px;border-radius:6px;white-space:pre-wrap;font-family:monospace;font-size:12px}
figure{margin:10px 0 18px}figure img{max-width:100%;border:1px solid var(--line);border-radius:4px}
figcaption{color:var(--mute);font-size:13px}
.amb{color:#6b4e00;font-size:12px}
@media print{th{position:static}}
"""


def _badge(status: str) -> str:
    return f"<span class='badge {status}'>{_LABEL[status]}</span>"


def _check_table(outcomes: list[ScenarioOutcome], table_id: str | None, with_scenario: bool) -> list[str]:
    e = html.escape
    head = ("<th>scenario</th>" if with_scenario else "") + ("<th>claim</th><th>expected</th><th>measured</th>"
                                                            "<th>verdict</th><th>ambiguity it depends on</th>")
    h = [f"<table{f' id={chr(39)}{table_id}{chr(39)}' if table_id else ''} class='checks'><thead><tr>{head}</tr></thead><tbody>"]
    for o in outcomes:
        for r in _rows(o):
            cls = r.status + (" evidence" if r.level else "")
            scen = f"<td><a href='#{_slug(o.name)}'>{e(o.name)}</a></td>" if with_scenario else ""
            claim = ("&#8627; evidence: " if r.level else "") + e(r.claim)
            h.append(f"<tr class='{cls}'>{scen}<td class='claim'>{claim}</td><td>{e(r.expected)}</td>"
                     f"<td class='num'>{e(r.measured)}</td><td class='verdict'>{_LABEL[r.status]}</td>"
                     f"<td class='amb'>{e(r.ambiguity)}</td></tr>")
    h.append("</tbody></table>")
    return h


def _html_deviations(outcomes: list[ScenarioOutcome]) -> list[str]:
    e = html.escape
    devs = _deviations(outcomes)
    h = [f"<h2 id='deviations'>Deviations of the papers ({len(devs)})</h2>",
         "<p>A deviation: the paper's own equations and parameters do not give its claim. Each is shown with the "
         "evidence computed in the same run; a deviation is only granted when every evidence check passed.</p>"]
    if not devs:
        h.append("<p>None.</p>")
    for o, c in devs:
        h.append(f"<h3 class='deviation'><a href='#{_slug(o.name)}'>{e(o.name)}</a>: {e(c.claim)} {_badge('deviation')}</h3>")
        h.append(f"<p class='why'><b>Paper:</b> {e(c.expected)}; <b>measured:</b> {e(c.measured)}.<br>"
                 f"<b>Why:</b> {e(c.explanation)}</p>")
        h.append("<table class='evidence'><thead><tr><th>evidence</th><th>expected</th><th>measured</th><th>verdict</th>"
                 "</tr></thead><tbody>")
        h += [f"<tr class='{x.status}'><td>{e(x.claim)}</td><td>{e(x.expected)}</td><td class='num'>{e(x.measured)}</td>"
              f"<td class='verdict'>{_LABEL[x.status]}</td></tr>" for x in c.evidence]
        h.append("</tbody></table>")
    return h


def _card(cls: str, value: str, label: str) -> str:
    return f"<div class='card {cls}'><b>{value}</b><span>{label}</span></div>"


def _write_html(outcomes: list[ScenarioOutcome], out: Path, quick: bool, stamp: str, not_run: list[str],
                interrupted: bool) -> Path:
    e = html.escape
    n = counts(outcomes)
    papers = _by_paper(outcomes)
    h = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
         "<meta name='viewport' content='width=device-width, initial-scale=1'>",
         "<title>frictionlab reproduce report</title>", f"<style>{_CSS}</style></head><body>",
         f"<h1>frictionlab reproduce report {_badge('fail' if not_run else n.status)}</h1>",
         f"<p class='meta'>Profile: <b>{'quick' if quick else 'full'}</b> &middot; generated {e(stamp)} &middot; "
         f"frictionlab {e(_version())}</p>",
         "<div class='cards'>",
         _card("ok", str(n.passed), "checks pass"),
         _card("dev" if n.deviation else "", str(n.deviation), "deviations of the papers (with evidence)"),
         _card("bad" if n.failed else "ok", str(n.failed), "checks fail"),
         _card("", str(len(outcomes)), f"scenarios in {len(papers)} paper(s)"),
         _card("bad" if n.errors else "ok", str(n.errors), "scenarios that failed to run"),
         _card("", f"{n.seconds:.1f} s", "total run time")
         + (_card("bad", str(len(not_run)), "scenarios not run") if not_run else "") + "</div>",
         *([f"<p class='err' id='not-run'>{e(_not_run_text(not_run, interrupted))}</p>"] if not_run else []),
         "<nav>" + "".join(f"<a href='#paper-{e(p)}'>{e(p)}</a>" for p in papers) + "<a href='#deviations'>deviations</a>"
         "<a href='#all-checks'>all checks</a><a href='#references'>references</a></nav>",
         "<h2>Summary per paper</h2><table id='summary'><thead><tr><th>paper</th><th>scenarios</th><th>pass</th>"
         "<th>deviation</th><th>fail</th><th>errors</th><th>time [s]</th><th>status</th></tr></thead><tbody>"]
    for p, os_ in papers.items():
        c = counts(os_)
        h.append(f"<tr class='{c.status}'><td><a href='#paper-{e(p)}'>{e(p)}</a></td><td class='num'>{len(os_)}</td>"
                 f"<td class='num'>{c.passed}</td><td class='num'>{c.deviation}</td><td class='num'>{c.failed}</td>"
                 f"<td class='num'>{c.errors}</td><td class='num'>{c.seconds:.1f}</td>"
                 f"<td class='verdict'>{_LABEL[c.status]}</td></tr>")
    h.append("</tbody></table>")
    h += _html_deviations(outcomes)
    for p, os_ in papers.items():
        h.append(f"<h2 id='paper-{e(p)}'>{e(p)} {_badge(counts(os_).status)}</h2>")
        h.append("<table class='paper-summary'><thead><tr><th>scenario</th><th>pass</th><th>deviation</th><th>fail</th>"
                 "<th>time [s]</th><th>status</th></tr></thead><tbody>")
        for o in os_:
            c = counts([o])
            h.append(f"<tr class='{o.status}'><td><a href='#{_slug(o.name)}'>{e(o.name)}</a></td>"
                     f"<td class='num'>{c.passed}</td><td class='num'>{c.deviation}</td><td class='num'>{c.failed}</td>"
                     f"<td class='num'>{o.seconds:.1f}</td><td class='verdict'>{_LABEL[o.status]}</td></tr>")
        h.append("</tbody></table>")
        for o in os_:
            h.append(f"<h3 id='{_slug(o.name)}'>{e(o.name)} {_badge(o.status)}</h3><p class='desc'>{e(o.description)}</p>")
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
                 command: str = "", not_run: list[str] | tuple[str, ...] = (),
                 interrupted: bool = False) -> tuple[Path, Path]:
    """Write ``out/report.md``, a self-contained ``out/report.html`` (figures embedded) and ``out/validation.md``.

    The reports hold the counts of the three verdicts (pass, deviation, fail), a summary table per
    paper, one section listing every deviation with its explanation and evidence checks, every
    claim with its expected value, measurement, verdict and the spec ambiguity it depends on
    (evidence rows nested under their deviation), the figures, and the references (the scenarios'
    own and the citations the models registered). ``validation.md`` is the per-paper summary
    (:mod:`frictionlab.report.validation`); ``command`` is quoted in it. Scenarios in ``not_run`` (not reached yet, or cut off by
    an interrupt) are named at the top and the report does not pass. The files are written through
    a temporary name and a rename.

    Returns
    -------
    (path of report.md, path of report.html)
    """
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    stamp = time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())
    not_run = list(not_run)
    write_validation(outcomes, out, quick=quick, stamp=stamp, command=command)
    return (_write_md(outcomes, out, quick, stamp, not_run, interrupted),
            _write_html(outcomes, out, quick, stamp, not_run, interrupted))
