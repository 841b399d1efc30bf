"""``report.html``: one self-contained page (figures embedded), failures and deviations first.

Layout rules (checked in a headless browser by ``tests/unit/test_report_browser.py``): the first
screen lists every failed and deviating claim with its scenario, expected and measured value and
a link to its section; every table fits the page width (fixed layout, cells wrap, the verdict in
the first column); each paper's section is a collapsible ``<details>``, open when something in it
failed or deviated; figures are thumbnails linking to the full image in ``figures/``; printing opens
every section and repeats table headers on each page.
"""

from __future__ import annotations

import base64
import html
from pathlib import Path

from ..core.files import write_text_atomic
from .outcomes import (LABEL, ScenarioOutcome, attention, by_paper, counts, deviations, not_run_text, reading_text,
                       references, rows, slug)
from .page_md import THUMB_PX

__all__ = ["write_html"]

_e = html.escape

_CSS = """
:root{--ok:#1e7d32;--okbg:#e6f4e7;--bad:#b3261e;--badbg:#fbe3e1;--dev:#8a5300;--devbg:#fdf0d5;--line:#d0d4da;--mute:#5f6670}
*{box-sizing:border-box}
body{font:15px/1.45 system-ui,-apple-system,"Segoe UI",Roboto,"DejaVu Sans",sans-serif;color:#1d2228;
max-width:1180px;margin:0 auto;padding:20px 28px 60px;background:#fff}
h1{font-size:24px;margin:0 0 4px}h2{font-size:20px;margin:28px 0 10px;padding-bottom:4px;border-bottom:2px solid var(--line)}
h3{font-size:17px;margin:22px 0 6px}
.meta{color:var(--mute);margin:0 0 10px}
#attention h2{margin-top:12px}
.cards{display:flex;gap:10px;flex-wrap:wrap;margin:12px 0 8px}
.card{border:1px solid var(--line);border-radius:8px;padding:6px 14px;min-width:130px}
.card b{display:block;font-size:20px}.card span{color:var(--mute);font-size:12px}
.card.ok b{color:var(--ok)}.card.bad b{color:var(--bad)}.card.dev b{color:var(--dev)}
nav{margin:8px 0 0;font-size:14px}nav a{margin-right:14px}
table{border-collapse:collapse;width:100%;table-layout:fixed;font-size:13px;margin:8px 0 14px}
th,td{border:1px solid var(--line);padding:4px 7px;text-align:left;vertical-align:top;overflow-wrap:anywhere;word-break:break-word}
th{background:#f3f5f8;position:sticky;top:0}
td.meas{font-variant-numeric:tabular-nums}
td.num{text-align:right;font-variant-numeric:tabular-nums}
tr.pass td.verdict{background:var(--okbg);color:var(--ok);font-weight:600}
tr.fail td.verdict{background:var(--badbg);color:var(--bad);font-weight:600}
tr.deviation td.verdict{background:var(--devbg);color:var(--dev);font-weight:600}
tr.fail{background:#fff7f6}tr.deviation{background:#fffaf0}
tr.evidence td{font-size:12px;color:#39414a}tr.evidence td.claim{padding-left:26px}
.badge{display:inline-block;padding:1px 8px;border-radius:10px;font-size:12px;font-weight:600;vertical-align:middle}
.badge.pass{background:var(--okbg);color:var(--ok)}.badge.fail{background:var(--badbg);color:var(--bad)}
.badge.deviation{background:var(--devbg);color:var(--dev)}
.desc{margin:4px 0 8px}.refs{color:var(--mute);font-size:13px}
.why{margin:2px 0 6px}.allpass{color:var(--ok);font-weight:600}
.err{background:var(--badbg);color:var(--bad);padding:6px 10px;border-radius:6px;white-space:pre-wrap;
overflow-wrap:anywhere;font-family:monospace;font-size:12px}
details>summary{cursor:pointer}details>summary>h2{display:inline-block;border:0;margin:18px 0 6px}
details.paper{border-bottom:2px solid var(--line)}
.scenario-body{display:grid;grid-template-columns:minmax(0,1fr) auto;gap:16px;align-items:start}
.scenario-body.nofig{grid-template-columns:minmax(0,1fr)}
figure{margin:8px 0 12px}img.thumb{width:THUMBpx;max-width:100%;border:1px solid var(--line);border-radius:4px}
figcaption{color:var(--mute);font-size:12px;max-width:THUMBpx}
.amb{color:#6b4e00;font-size:12px}
@page{size:A4 landscape;margin:10mm}
@media (max-width:900px){.scenario-body{grid-template-columns:minmax(0,1fr)}}
@media print{body{max-width:none;padding:0;font-size:11px}nav,.noprint{display:none}table{font-size:10px}
th{position:static}thead{display:table-header-group}tr,figure,.card{break-inside:avoid}h2,h3{break-after:avoid}
details::details-content{content-visibility:visible;display:contents}details>summary{list-style:none}
.scenario-body{display:block}img.thumb{width:55%}a{color:inherit;text-decoration:none}}
""".replace("THUMB", str(THUMB_PX))

# printing opens every section; following a link into a closed section opens it
_SCRIPT = """
addEventListener('beforeprint',()=>document.querySelectorAll('details').forEach(d=>d.open=true));
function openTarget(){const t=location.hash&&document.getElementById(decodeURIComponent(location.hash.slice(1)));
for(let d=t&&t.closest('details');d;d=d.parentElement&&d.parentElement.closest('details'))d.open=true;
if(t)t.scrollIntoView();}
addEventListener('hashchange',openTarget);addEventListener('DOMContentLoaded',openTarget);
"""


def _badge(status: str) -> str:
    return f"<span class='badge {status}'>{LABEL[status]}</span>"


def _cols(*widths: int) -> str:
    """Column widths in percent of the table (fixed layout: the table never outgrows the page)."""
    assert sum(widths) == 100
    return "<colgroup>" + "".join(f"<col style='width:{w}%'>" for w in widths) + "</colgroup>"


def _scen_link(name: str) -> str:
    return f"<a href='#{slug(name)}'>{_e(name)}</a>"


def _check_table(outcomes: list[ScenarioOutcome], table_id: str | None, with_scenario: bool) -> list[str]:
    head = ("<th>verdict</th>" + ("<th>scenario</th>" if with_scenario else "")
            + "<th>claim</th><th>expected</th><th>measured</th><th>reading of the paper it rests on (or why not testable)</th>")
    cols = _cols(9, 13, 27, 15, 17, 19) if with_scenario else _cols(9, 33, 18, 18, 22)
    h = [f"<table{f' id={chr(39)}{table_id}{chr(39)}' if table_id else ''} class='checks'>{cols}<thead><tr>{head}"
         "</tr></thead><tbody>"]
    for o in outcomes:
        for r in rows(o):
            cls = r.status + (" evidence" if r.level else "")
            scen = f"<td>{_scen_link(o.name)}</td>" if with_scenario else ""
            claim = ("&#8627; evidence: " if r.level else "") + _e(r.claim)
            kind = "" if r.kind == "paper" else f" <span class='kind'>[{_e(r.kind)}]</span>"
            h.append(f"<tr class='{cls}'><td class='verdict'>{LABEL[r.status]}{kind}</td>{scen}<td class='claim'>{claim}</td>"
                     f"<td>{_e(r.expected)}</td><td class='meas'>{_e(r.measured)}</td>"
                     f"<td class='amb'>{_e(reading_text(r))}</td></tr>")
    h.append("</tbody></table>")
    return h


def _attention(outcomes: list[ScenarioOutcome]) -> list[str]:
    rs = attention(outcomes)
    n_fail = sum(r.status == "fail" for r in rs)
    h = ["<section id='attention'>", f"<h2>Needs attention: {n_fail} fail, {len(rs) - n_fail} deviation</h2>"]
    if not rs:
        return h + ["<p class='allpass'>Every claim passes.</p></section>"]
    h.append(f"<table class='attention'>{_cols(9, 15, 34, 20, 22)}<thead><tr><th>verdict</th>"
             "<th>scenario</th><th>claim</th><th>expected</th><th>measured</th></tr></thead><tbody>")
    h += [f"<tr class='{r.status}'><td class='verdict'>{LABEL[r.status]}</td><td>{_scen_link(r.scenario)}</td>"
          f"<td class='claim'>{_e(r.claim)}</td><td>{_e(r.expected)}</td><td class='meas'>{_e(r.measured)}</td></tr>"
          for r in rs]
    return h + ["</tbody></table></section>"]


def _deviations(outcomes: list[ScenarioOutcome]) -> list[str]:
    devs = deviations(outcomes)
    h = [f"<details id='deviations-section' open><summary><h2 id='deviations'>Deviations of the papers ({len(devs)})"
         "</h2></summary>",
         "<p>A deviation: the paper's own equations and parameters do not give its claim. Each is shown with the "
         "evidence computed in the same run; a deviation is only granted when every evidence check passed.</p>"]
    if not devs:
        h.append("<p>None.</p>")
    for o, c in devs:
        h.append(f"<h3 class='deviation'>{_scen_link(o.name)}: {_e(c.claim)} {_badge('deviation')}</h3>")
        h.append(f"<p class='why'><b>Paper:</b> {_e(c.expected)}; <b>measured:</b> {_e(c.measured)}.<br>"
                 f"<b>Why:</b> {_e(c.explanation)}"
                 + (f"<br><b>Reading of the paper it rests on:</b> {_e(c.ambiguity)}" if c.ambiguity else "") + "</p>")
        h.append(f"<table class='evidence'>{_cols(9, 45, 20, 26)}<thead><tr><th>verdict</th>"
                 "<th>evidence</th><th>expected</th><th>measured</th></tr></thead><tbody>")
        h += [f"<tr class='{x.status}'><td class='verdict'>{LABEL[x.status]}</td><td>{_e(x.claim)}"
              + (f" <i>(reading: {_e(x.ambiguity)})</i>" if x.ambiguity else "")
              + f"</td><td>{_e(x.expected)}</td><td class='meas'>{_e(x.measured)}</td></tr>" for x in c.evidence]
        h.append("</tbody></table>")
    return h + ["</details>"]


def _card(cls: str, value: str, label: str) -> str:
    return f"<div class='card {cls}'><b>{value}</b><span>{label}</span></div>"


def _figure(o: ScenarioOutcome) -> str:
    src = f"figures/{o.figure.name}"
    b64 = base64.b64encode(o.figure.read_bytes()).decode()
    return (f"<figure><a href='{_e(src)}' title='full size: {_e(src)}'><img class='thumb' alt='{_e(o.name)}' "
            f"src='data:image/png;base64,{b64}'></a><figcaption>{_e(o.name)} (click for full size)</figcaption></figure>")


def _scenario(o: ScenarioOutcome) -> list[str]:
    h = [f"<section class='scenario' id='{slug(o.name)}'><h3>{_e(o.name)} {_badge(o.status)}</h3>",
         f"<p class='desc'>{_e(o.description)}</p>"]
    if o.references:
        h.append("<p class='refs'>References: " + "; ".join(_e(r.rstrip(". ")) for r in o.references)
                 + f". Run time {o.seconds:.2f} s.</p>")
    if o.error:
        h.append(f"<div class='err'>{_e(o.error)}</div>")
    fig = o.figure is not None and o.figure.exists()
    h.append(f"<div class='scenario-body{'' if fig else ' nofig'}'><div>")
    if o.checks or o.error:
        h += _check_table([o], None, with_scenario=False)
    h.append("</div>" + (_figure(o) if fig else "") + "</div></section>")
    return h


def _summary(papers: dict[str, list[ScenarioOutcome]]) -> list[str]:
    h = ["<h2>Summary per paper</h2><table id='summary'><thead><tr><th>status</th><th>paper</th><th>scenarios</th>"
         "<th>pass</th><th>deviation</th><th>fail</th><th>errors</th><th>time [s]</th></tr></thead><tbody>"]
    for p, os_ in papers.items():
        c = counts(os_)
        h.append(f"<tr class='{c.status}'><td class='verdict'>{LABEL[c.status]}</td><td><a href='#paper-{_e(p)}'>{_e(p)}"
                 f"</a></td><td class='num'>{len(os_)}</td><td class='num'>{c.passed}</td><td class='num'>{c.deviation}"
                 f"</td><td class='num'>{c.failed}</td><td class='num'>{c.errors}</td><td class='num'>{c.seconds:.1f}</td>"
                 "</tr>")
    return h + ["</tbody></table>"]


def _paper(p: str, os_: list[ScenarioOutcome]) -> list[str]:
    c = counts(os_)
    h = [f"<details class='paper'{'' if c.status == 'pass' else ' open'}><summary><h2 id='paper-{_e(p)}'>{_e(p)} "
         f"{_badge(c.status)} <small>{c.line()}</small></h2></summary>",
         f"<table class='paper-summary'>{_cols(10, 42, 12, 12, 12, 12)}<thead><tr><th>status</th>"
         "<th>scenario</th><th>pass</th><th>deviation</th><th>fail</th><th>time [s]</th></tr></thead><tbody>"]
    for o in os_:
        k = counts([o])
        h.append(f"<tr class='{o.status}'><td class='verdict'>{LABEL[o.status]}</td><td>{_scen_link(o.name)}</td>"
                 f"<td class='num'>{k.passed}</td><td class='num'>{k.deviation}</td><td class='num'>{k.failed}</td>"
                 f"<td class='num'>{o.seconds:.1f}</td></tr>")
    h.append("</tbody></table>")
    for o in os_:
        h += _scenario(o)
    return h + ["</details>"]


def write_html(outcomes: list[ScenarioOutcome], out: Path, quick: bool, stamp: str, not_run: list[str],
               interrupted: bool, version: str) -> Path:
    n = counts(outcomes)
    papers = by_paper(outcomes)
    h = ["<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>",
         "<meta name='viewport' content='width=device-width, initial-scale=1'>",
         "<title>frictionlab reproduce report</title>", f"<style>{_CSS}</style>", f"<script>{_SCRIPT}</script>",
         "</head><body>",
         f"<h1>frictionlab reproduce report {_badge('fail' if not_run else n.status)}</h1>",
         f"<p class='meta'>Profile: <b>{'quick' if quick else 'full'}</b> &middot; generated {_e(stamp)} &middot; "
         f"frictionlab {_e(version)} &middot; checks: {n.line()} &middot; {len(outcomes)} scenarios</p>",
         *([f"<p class='err' id='not-run'>{_e(not_run_text(not_run, interrupted))}</p>"] if not_run else []),
         *_attention(outcomes),
         "<div class='cards'>",
         _card("ok", str(n.passed), "checks pass"),
         _card("dev" if n.deviation else "", str(n.deviation), "deviations of the papers (with evidence)"),
         _card("bad" if n.failed else "ok", str(n.failed), "checks fail"),
         _card("", str(len(outcomes)), f"scenarios in {len(papers)} paper(s)"),
         _card("bad" if n.errors else "ok", str(n.errors), "scenarios that failed to run"),
         _card("", f"{n.seconds:.1f} s", "total run time")
         + (_card("bad", str(len(not_run)), "scenarios not run") if not_run else "") + "</div>",
         "<nav>" + "".join(f"<a href='#paper-{_e(p)}'>{_e(p)}</a>" for p in papers) + "<a href='#deviations'>deviations</a>"
         "<a href='#all-checks'>all checks</a><a href='#references'>references</a></nav>",
         *_summary(papers), *_deviations(outcomes)]
    for p, os_ in papers.items():
        h += _paper(p, os_)
    h.append(f"<details id='all-checks-section'><summary><h2 id='all-checks'>All checks ({n.checks})</h2></summary>")
    h += _check_table(outcomes, "checks", with_scenario=True)
    h.append("</details>")
    h.append("<h2 id='references'>References</h2><ol>" + "".join(f"<li>{_e(c)}</li>" for c in references(outcomes))
             + "</ol>")
    h.append("</body></html>")
    return write_text_atomic(out / "report.html", "\n".join(h))
