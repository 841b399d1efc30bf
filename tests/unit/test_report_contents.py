"""report.md / report.html contents: summary per paper, every claim, ambiguity, references, self-contained."""

import re

import _report_fixture


def test_markdown_report(tmp_path):
    md, _, _ = _report_fixture.make_report(tmp_path)
    text = md.read_text()
    assert text.startswith("# frictionlab reproduce report")
    assert "Profile: quick" in text
    assert "checks: 3 pass, 1 deviation, 2 fail (of 6); scenarios that failed to run: 1" in text
    # summary per paper: alpha 2 pass 1 fail, beta one crash (a failed row), gamma a deviation
    assert "| alpha | 2 | 2 | 0 | 1 | 0 | 3.8 | FAIL |" in text
    assert "| beta | 1 | 0 | 0 | 1 | 1 | 0.5 | FAIL |" in text
    assert "| gamma | 1 | 1 | 1 | 0 | 0 | 0.8 | deviation |" in text
    # every claim with expected / measured / verdict / ambiguity
    assert ("| alpha/step | direct effect a ln(v2/v1) | 0.02303 (rel 2 %) | 0.02296 | pass | "
            "spec says 'instantaneous'; taken as the first saved sample |") in text
    assert "| alpha/hold | healing slope b ln 10 per decade | 0.0345 (rel 5 %) | 0.0400 | FAIL |" in text
    assert ("| beta/map | runs without error | no error | IntegrationError: NaN at step 12 (t = 0.0012 s); "
            "use a smaller dt | FAIL |") in text
    assert "![alpha/step](figures/alpha__step.png)" in text
    refs = text.split("## References")[1]
    for r in ("Alpha et al. 2001, Fig. 2", "Alpha et al. 2001, Fig. 5", "Beta & Gamma 2010"):
        assert f"- {r}" in refs


def test_html_report_self_contained(tmp_path):
    _, html_, _ = _report_fixture.make_report(tmp_path, quick=False)
    text = html_.read_text()
    assert "Profile: <b>full</b>" in text
    # the check table: header plus one row per claim and one for the crash
    table = text.split("<table id='checks' class='checks'>")[1].split("</table>")[0]
    assert table.count("<tr class='pass'>") == 3 and table.count("<tr class='fail'>") == 2
    assert table.count("<tr class='deviation'>") == 1 and table.count("<tr class='pass evidence'>") == 2
    # the header counts the three verdicts separately
    assert "<b>3</b><span>checks pass</span>" in text and "<b>2</b><span>checks fail</span>" in text
    assert "<b>1</b><span>deviations of the papers (with evidence)</span>" in text
    assert "<th>ambiguity it depends on</th>" in table
    assert "seed eq. 7 vs spec table 2: the seed wins" in table
    # per-paper summary tables and anchors
    assert text.count("class='paper-summary'") == 3
    assert "id='paper-alpha'" in text and "id='alpha__step'" in text
    # escaping: the description's '<fig. 2> & friends' is text, not markup
    assert "&lt;fig. 2&gt; &amp; friends" in text
    # self-contained: the figure is embedded, nothing is fetched from elsewhere
    assert re.search(r"src='data:image/png;base64,[A-Za-z0-9+/=]{200,}'", text)
    assert not re.search(r"(src|href)=['\"]?(https?:|//|file:)", text)
    assert "<link" not in text and "<script" not in text
    assert "<li>Beta &amp; Gamma 2010</li>" in text


def test_verdict_counts_and_exit_code(tmp_path):
    from frictionlab.report.reproduce import counts, exit_code
    from frictionlab.scenarios.base import Check, deviation

    _, _, outcomes = _report_fixture.make_report(tmp_path)
    c = counts(outcomes)
    assert (c.passed, c.deviation, c.failed, c.errors, c.checks) == (3, 1, 2, 1, 6)
    assert c.line() == "3 pass, 1 deviation, 2 fail"
    assert exit_code(outcomes) == 2                      # a scenario crashed
    assert exit_code(outcomes[:2]) == 1                  # a claim fails
    assert exit_code([outcomes[0], outcomes[3]]) == 0    # passes and a proven deviation only
    assert outcomes[3].status == "deviation" and outcomes[3].passed and outcomes[0].status == "pass"
    # a deviation whose evidence fails is a failure, and counted as one
    bad = deviation("claim", "x", "y", [Check("evidence", "< 0", "0.1", False)], "paper says x, equations give y")
    outcomes[3].checks.append(bad)
    assert bad.status == "fail" and counts([outcomes[3]]).failed == 1 and exit_code([outcomes[3]]) == 1


def test_deviation_section_lists_evidence(tmp_path):
    md, html_, _ = _report_fixture.make_report(tmp_path)
    text = md.read_text()
    sec = text.split("## Deviations of the papers (1)")[1].split("## Checks")[0]
    assert "### gamma/onset: stick-slip at the printed parameters" in sec
    assert "- why: the paper claims stick-slip; its equations are linearly stable there" in sec
    assert "| growth rate of the linearised system < 0 | < 0 | -3.2 1/s | pass |" in sec
    assert "| run from rest settles on F_z g(V) | rel 1e-3 | 2e-5 | pass |" in sec
    assert "healing slope" not in sec and "period grows with load" not in sec
    # in the full table the evidence rows sit right under their deviation
    rows = [r for r in text.split("## Checks")[1].split("\n## ")[0].splitlines() if r.startswith("| gamma/onset")]
    assert [r.split(" | ")[4] for r in rows] == ["deviation", "pass", "pass", "pass"]
    assert "evidence: growth rate" in rows[1] and "evidence: run from rest" in rows[2]
    page = html_.read_text()
    assert page.index("id='deviations'") < page.index("id='paper-alpha'")
    dev = page.split("id='deviations'")[1].split("<h2")[0]
    assert dev.count("<tr class='pass'>") == 2 and "linearly stable there" in dev


def test_validation_page(tmp_path):
    _report_fixture.make_report(tmp_path)
    text = (tmp_path / "validation.md").read_text()
    assert "**quick profile**" in text and "**3 pass, 1 deviation, 2 fail**" in text
    gamma = text.split("## gamma")[1]
    assert "**gamma/onset: stick-slip at the printed parameters** (paper: stick-slip; measured: steady sliding)" in gamma
    assert "- evidence: growth rate of the linearised system < 0: -3.2 1/s (expected < 0; pass)" in gamma
    assert "| gamma/onset | period grows with load | increasing | increasing |" in gamma
    alpha = text.split("## alpha")[1].split("## beta")[0]
    assert "- alpha/hold: healing slope b ln 10 per decade: expected 0.0345 (rel 5 %), measured 0.0400" in alpha
    assert "did not run: `IntegrationError" in text.split("## beta")[1]
