"""report.md / report.html contents: summary per paper, every claim, ambiguity, references, self-contained."""

import re

import _report_fixture


def test_markdown_report(tmp_path):
    md, _, _ = _report_fixture.make_report(tmp_path)
    text = md.read_text()
    assert text.startswith("# frictionlab reproduce report")
    assert "Profile: quick" in text
    assert "checks: 3 pass, 1 deviation, 2 fail (of 6); scenarios that failed to run: 1" in text
    # summary per paper (verdict first): alpha 2 pass 1 fail, beta one crash (a failed row), gamma a deviation
    assert "| FAIL | alpha | 2 | 2 | 0 | 1 | 0 | 3.8 |" in text
    assert "| FAIL | beta | 1 | 0 | 0 | 1 | 1 | 0.5 |" in text
    assert "| deviation | gamma | 1 | 1 | 1 | 0 | 0 | 0.8 |" in text
    # every claim with verdict / expected / measured / ambiguity
    assert ("| pass | paper | alpha/step | direct effect a ln(v2/v1) | 0.02303 (rel 2 %) | 0.02296 | "
            "spec says 'instantaneous'; taken as the first saved sample |") in text
    assert "| FAIL | paper | alpha/hold | healing slope b ln 10 per decade | 0.0345 (rel 5 %) | 0.0400 |" in text
    assert ("| FAIL | paper | beta/map | runs without error | no error | IntegrationError: NaN at step 12 (t = 0.0012 s); "
            "use a smaller dt |") in text
    # figures: a thumbnail linking to the full image; each scenario has an anchor the summaries link to
    assert '<a href="figures/alpha__step.png"><img src="figures/alpha__step.png" width="360" alt="alpha/step"></a>' in text
    assert '<a id="alpha__hold"></a>' in text
    refs = text.split("## References")[1]
    for r in ("Alpha et al. 2001, Fig. 2", "Alpha et al. 2001, Fig. 5", "Beta & Gamma 2010"):
        assert f"- {r}" in refs


def test_html_report_self_contained(tmp_path):
    _, html_, _ = _report_fixture.make_report(tmp_path, quick=False)
    text = html_.read_text()
    assert "Profile: <b>full</b>" in text
    # the check table: header plus one row per claim and one for the crash
    table = text.split("<table id='checks' class='checks'>")[1].split("</table>")[0]
    assert table.index("<th>verdict</th>") < table.index("<th>claim</th>")  # the verdict is the first column
    assert table.count("<tr class='pass'>") == 3 and table.count("<tr class='fail'>") == 2
    assert table.count("<tr class='deviation'>") == 1 and table.count("<tr class='pass evidence'>") == 2
    # the header counts the three verdicts separately
    assert "<b>3</b><span>checks pass</span>" in text and "<b>2</b><span>checks fail</span>" in text
    assert "<b>1</b><span>deviations of the papers (with evidence)</span>" in text
    assert "<th>reading of the paper it rests on (or why not testable)</th>" in table
    assert "seed eq. 7 vs spec table 2: the seed wins" in table
    # per-paper summary tables and anchors
    assert text.count("class='paper-summary'") == 3
    assert "id='paper-alpha'" in text and "id='alpha__step'" in text
    # escaping: the description's '<fig. 2> & friends' is text, not markup
    assert "&lt;fig. 2&gt; &amp; friends" in text
    # self-contained: the figure is embedded, nothing is fetched from elsewhere
    assert re.search(r"src='data:image/png;base64,[A-Za-z0-9+/=]{200,}'", text)
    assert not re.search(r"(src|href)=['\"]?(https?:|//|file:)", text)
    assert "<link" not in text and not re.search(r"<script[^>]*src", text) and "@import" not in text
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
    assert "| pass | growth rate of the linearised system < 0 | < 0 | -3.2 1/s |" in sec
    assert "| pass | run from rest settles on F_z g(V) | rel 1e-3 | 2e-5 |" in sec
    assert "healing slope" not in sec and "period grows with load" not in sec
    # in the full table the evidence rows sit right under their deviation
    rows = [r for r in text.split("## Checks")[1].split("\n## ")[0].splitlines() if "| gamma/onset |" in r]
    assert [r.split(" | ")[0] for r in rows] == ["| deviation", "| pass", "| pass", "| pass"]
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
    assert "| gamma/onset | period grows with load | increasing | increasing:0.5000s," in gamma
    alpha = text.split("## alpha")[1].split("## beta")[0]
    assert "- alpha/hold: healing slope b ln 10 per decade: expected 0.0345 (rel 5 %), measured 0.0400" in alpha
    assert "did not run: `IntegrationError" in text.split("## beta")[1]


def test_failures_and_deviations_come_first(tmp_path):
    """Both pages open with every failed and deviating claim: scenario, claim, expected, measured, a link."""
    md, html_, _ = _report_fixture.make_report(tmp_path)
    text = md.read_text()
    head = text.split("## Needs attention: 2 fail, 1 deviation")[1].split("\n## ")[0]
    assert text.index("## Needs attention") < text.index("## Summary per paper")
    lines = [r for r in head.splitlines() if r.startswith("| ") and "---" not in r][1:]
    assert lines == [
        "| FAIL | [alpha/hold](#alpha__hold) | healing slope b ln 10 per decade | 0.0345 (rel 5 %) | 0.0400 |",
        "| FAIL | [beta/map](#beta__map) | runs without error | no error | IntegrationError: NaN at step 12 "
        "(t = 0.0012 s); use a smaller dt |",
        "| deviation | [gamma/onset](#gamma__onset) | stick-slip at the printed parameters | stick-slip | "
        "steady sliding |"]
    page = html_.read_text()
    body = page.split("<body>")[1]
    att = body.split("<section id='attention'>")[1].split("</section>")[0]
    assert body.index("<section id='attention'>") < body.index("class='cards'") < body.index("id='summary'")
    assert att.count("<tr class='fail'>") == 2 and att.count("<tr class='deviation'>") == 1
    assert "<a href='#alpha__hold'>alpha/hold</a>" in att and "healing slope" in att and "0.0400" in att
    assert "<a href='#gamma__onset'>gamma/onset</a>" in att and "period grows" not in att
    assert "id='alpha__hold'" in page and "id='gamma__onset'" in page  # the links' targets


def test_all_pass_says_so(tmp_path):
    from frictionlab.report.reproduce import write_report

    _, _, outcomes = _report_fixture.make_report(tmp_path / "a")
    md, html_ = write_report([outcomes[0]], tmp_path / "b")
    assert "## Needs attention: 0 fail, 0 deviation\n\nEvery claim passes." in md.read_text()
    assert "Every claim passes." in html_.read_text().split("</section>")[0]


def test_html_sections_collapse_and_tables_fit(tmp_path):
    """Papers are <details> (open when something failed or deviated), tables have a fixed layout with
    wrapping cells, figures are thumbnails linking to the full image, printing opens every section."""
    _, html_, _ = _report_fixture.make_report(tmp_path)
    page = html_.read_text()
    papers = re.findall(r"<details class='paper'( open)?><summary><h2 id='paper-(\w+)'", page)
    assert papers == [(" open", "alpha"), (" open", "beta"), (" open", "gamma")]
    assert "<details id='all-checks-section'><summary>" in page  # the long duplicate table starts closed
    css = page.split("<style>")[1].split("</style>")[0]
    assert "table-layout:fixed" in css and "overflow-wrap:anywhere" in css and "white-space:nowrap" not in css
    assert "@media print" in css and "thead{display:table-header-group}" in css
    assert "addEventListener('beforeprint'" in page
    fig = re.search(r"<a href='figures/alpha__step.png'[^>]*><img class='thumb'", page)
    assert fig and "img.thumb{width:360px" in css


def test_passing_paper_starts_closed(tmp_path):
    from frictionlab.report.reproduce import write_report

    _, _, outcomes = _report_fixture.make_report(tmp_path / "a")
    outcomes[1].name = "delta/hold"
    _, html_ = write_report([outcomes[0], outcomes[1]], tmp_path / "b")
    page = html_.read_text()
    assert "<details class='paper'><summary><h2 id='paper-alpha'>" in page
    assert "<details class='paper' open><summary><h2 id='paper-delta'>" in page
