"""The validation page shows, for every reading of a paper that differs from its print, the reading and
why, and every "not testable" with its reason (issue 26, "What to build" 1 and 3).

A deviation's section must carry the reading it rests on (not only the claim table's last column), a
"not testable" claim its paper value and reason, a failed claim its reading, a non-paper check its
reading, and a paper check declared insensitive the reason it is out of the counts.
"""

from __future__ import annotations

from frictionlab.report.outcomes import ScenarioOutcome
from frictionlab.report.validation import validation_markdown
from frictionlab.scenarios.base import Mutation, check, deviation, not_testable

_M = Mutation("x read as 2", {"toy.x": 2.0})


def _outcomes() -> list[ScenarioOutcome]:
    ev = [check("closed form at the printed x", "< 0", "-1", True, kind="verification",
                ambiguity="evidence reading: x in mm")]
    checks = [
        deviation("printed sign gives the oscillation", "bounded", "runs away", ev, "the printed sign is unstable",
                  ambiguity="eq. 3 read with -k x", mutations=(_M,)),
        not_testable("fits the measurements with FIT 93 %", "the measurements are not printed", expected="FIT 93 %",
                     ambiguity="FIT read as 100 R^2"),
        check("slope as printed", "2.0", 3.0, False, ambiguity="slope read per degree", mutations=(_M,)),
        check("fitted to a table of ours", "> 98 %", 97.0, True, kind="extension", ambiguity="fitted C = 1.2 +- 0.1"),
        check("rest equals the spring force", "0", 0.0, True, insensitive="the equation of motion makes it so"),
    ]
    return [ScenarioOutcome("toy/one", "a toy", checks, seconds=1.0)]


def _section(page: str, title: str) -> str:
    return page.split(title, 1)[1].split("\n### ", 1)[0]


def test_every_reading_and_reason_is_on_the_page():
    page = validation_markdown(_outcomes(), quick=True, stamp="now")
    devs = _section(page, "### What deviates, and why")
    assert "the printed sign is unstable" in devs and "eq. 3 read with -k x" in devs
    assert "evidence reading: x in mm" in devs
    nt = _section(page, "### Not testable, and why")
    assert "the measurements are not printed" in nt and "FIT 93 %" in nt and "FIT read as 100 R^2" in nt
    fails = _section(page, "### What does not reproduce")
    assert "slope read per degree" in fails
    other = _section(page, "### Other checks (not claims of the paper)")
    assert "fitted C = 1.2 +- 0.1" in other
    assert "the equation of motion makes it so" in page


def test_kloss_readings_and_not_testable_reasons_reach_the_page():
    """The cheap Kloss scenarios as run: every deviation's reading and explanation and every not-testable
    reason is in its section of the page."""
    from frictionlab.scenarios import get_scenario

    outcomes = []
    for name in ("kloss/amontons", "kloss/fig10", "kloss/fig13", "kloss/fig12"):
        sc = get_scenario(name)
        ds, cfg = sc.execute(quick=True)
        outcomes.append(ScenarioOutcome(name, sc.description, sc.evaluate(ds, cfg)))
    page = validation_markdown(outcomes, quick=True, stamp="now")
    checks = [c for o in outcomes for c in o.checks if c.kind == "paper"]
    devs = [c for c in checks if c.status == "deviation"]
    untestable = [c for c in checks if c.status == "not testable"]
    assert devs and len(untestable) >= 3
    dev_text = _section(page, "### What deviates, and why")
    for c in devs:
        assert c.explanation in dev_text and c.ambiguity in dev_text, c.claim
    nt_text = _section(page, "### Not testable, and why")
    for c in untestable:
        assert c.claim in nt_text and c.explanation in nt_text, c.claim


def test_report_pages_keep_both_the_reason_and_the_reading():
    """report.md and report.html: a not-testable row shows its reason and its reading (one used to hide the
    other), and the html deviation shows the reading it rests on."""
    from frictionlab.report import page_html, page_md

    outcomes = _outcomes()
    md = "\n".join(page_md._checks(outcomes))
    row = next(line for line in md.splitlines() if "fits the measurements" in line)
    assert "the measurements are not printed" in row and "FIT read as 100 R^2" in row
    html = "\n".join(page_html._check_table(outcomes, None, True))
    row = next(line for line in html.splitlines() if "fits the measurements" in line)
    assert "the measurements are not printed" in row and "FIT read as 100 R^2" in row
    dev = "\n".join(page_html._deviations(outcomes))
    assert "eq. 3 read with -k x" in dev and "evidence reading: x in mm" in dev
