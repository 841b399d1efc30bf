"""report.md / report.html contents: summary per paper, every claim, ambiguity, references, self-contained."""

import re

import _report_fixture


def test_markdown_report(tmp_path):
    md, _, _ = _report_fixture.make_report(tmp_path)
    text = md.read_text()
    assert text.startswith("# frictionlab reproduce report")
    assert "Profile: quick" in text
    assert "checks passed: 2/3; scenarios that failed to run: 1" in text
    # summary per paper: alpha 2/3 checks (FAIL), beta 0/0 with one error (FAIL)
    assert "| alpha | 2 | 2/3 | 0 | 3.8 | FAIL |" in text
    assert "| beta | 1 | 0/0 | 1 | 0.5 | FAIL |" in text
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
    assert table.count("<tr class='pass'>") == 2 and table.count("<tr class='fail'>") == 2
    assert "<th>ambiguity it depends on</th>" in table
    assert "seed eq. 7 vs spec table 2: the seed wins" in table
    # per-paper summary tables and anchors
    assert text.count("class='paper-summary'") == 2
    assert "id='paper-alpha'" in text and "id='alpha__step'" in text
    # escaping: the description's '<fig. 2> & friends' is text, not markup
    assert "&lt;fig. 2&gt; &amp; friends" in text
    # self-contained: the figure is embedded, nothing is fetched from elsewhere
    assert re.search(r"src='data:image/png;base64,[A-Za-z0-9+/=]{200,}'", text)
    assert not re.search(r"(src|href)=['\"]?(https?:|//|file:)", text)
    assert "<link" not in text and "<script" not in text
    assert "<li>Beta &amp; Gamma 2010</li>" in text
