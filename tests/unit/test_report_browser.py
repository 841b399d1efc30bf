"""Open report.html in headless Chromium: it renders, its first screen at 1400 px lists what failed or
deviated, no table is wider than the window, and it prints to PDF.

Marked ``browser`` (not in the default run): needs the ``chromium`` binary (Debian: ``apt-get install
-y chromium``); skipped with that reason when it is missing. Layout is measured by a probe script
appended to a copy of the page, whose findings ``--dump-dom`` returns.
"""

import json
import re
import shutil
import subprocess

import numpy as np
import pytest

import _report_fixture

pytestmark = pytest.mark.browser

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage", "--hide-scrollbars"]
WIDTH, HEIGHT = 1400, 900

# measured in the browser: the attention rows on the first screen (sections as the page opens), then,
# with every section opened, every table's right edge and the page's scroll width against the window
PROBE = """<script>
(function(){
  const W = innerWidth, H = innerHeight;
  const first = [...document.querySelectorAll('#attention tbody tr')].map(tr => {
    const r = tr.getBoundingClientRect();
    return {text: tr.innerText, top: r.top, bottom: r.bottom, visible: r.height > 0 && r.bottom <= H};
  });
  document.querySelectorAll('details').forEach(d => d.open = true);
  const tables = [...document.querySelectorAll('table')].map(t => {
    const r = t.getBoundingClientRect();
    return {cls: t.className, id: t.id, left: r.left, right: r.right, width: r.width, scroll: t.scrollWidth};
  });
  const pre = document.createElement('pre'); pre.id = 'probe';
  pre.textContent = JSON.stringify({W, H, first, tables, scrollWidth: document.documentElement.scrollWidth,
                                    height: document.documentElement.scrollHeight});
  document.body.appendChild(pre);
})();
</script>"""


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("headless Chromium not installed (Debian: apt-get install -y chromium)")


@pytest.fixture
def report(tmp_path):
    _, html_, _ = _report_fixture.make_report(tmp_path / "report")
    return html_


def _probe(exe, html_) -> dict:
    page = html_.with_name("probe.html")
    page.write_text(html_.read_text().replace("</body>", PROBE + "</body>"))
    dom = subprocess.run([exe, *FLAGS, f"--window-size={WIDTH},{HEIGHT}", "--dump-dom", page.resolve().as_uri()],
                         capture_output=True, text=True, timeout=120).stdout
    m = re.search(r'<pre id="probe">(.*?)</pre>', dom, flags=re.S)
    assert m, "the probe did not run: " + dom[-500:]
    return json.loads(m.group(1).replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">"))


def test_report_renders_in_chromium(tmp_path, report):
    exe = _chromium()
    url = report.resolve().as_uri()
    shot = tmp_path / "shot.png"
    subprocess.run([exe, *FLAGS, f"--window-size={WIDTH},{HEIGHT}", f"--screenshot={shot}", url],
                   capture_output=True, timeout=120, check=False)
    assert shot.exists() and shot.stat().st_size > 5000
    import matplotlib.image as mpimg

    img = mpimg.imread(shot)[..., :3]
    assert img.shape[1] == WIDTH and img.shape[0] == HEIGHT
    non_white = np.mean(np.any(img < 0.9, axis=-1))
    assert non_white > 0.02, f"screenshot nearly blank ({non_white:.3%} non-white pixels)"
    # the first screen shows red FAIL and amber deviation verdict cells
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    assert np.any((r > 0.8) & (g < 0.9) & (b < 0.9) & (r - g > 0.08))   # fail background / text
    assert np.any((r > 0.9) & (g > 0.85) & (b < 0.88) & (r - b > 0.1))  # deviation background
    # the rendered DOM holds the full check table with every row
    dom = subprocess.run([exe, *FLAGS, "--dump-dom", url], capture_output=True, text=True, timeout=120).stdout
    assert 'id="checks"' in dom
    table = dom.split('id="checks"')[1].split("</table>")[0]
    assert table.count("<tr") == 9  # header + 5 claims + 1 crash + 2 evidence rows under the deviation
    assert "healing slope b ln 10 per decade" in table


def test_first_screen_lists_failures_and_deviations_at_1400px(report):
    p = _probe(_chromium(), report)
    assert p["W"] == WIDTH and p["H"] >= 700  # the window's own bars take some of its height
    first = p["first"]
    assert len(first) == 3 and all(r["visible"] for r in first), first
    texts = [" ".join(r["text"].split()) for r in first]
    assert texts[0].startswith("FAIL alpha/hold healing slope b ln 10 per decade 0.0345 (rel 5 %) 0.0400")
    assert texts[1].startswith("FAIL beta/map runs without error no error IntegrationError: NaN at step 12")
    assert texts[2].startswith("deviation gamma/onset stick-slip at the printed parameters stick-slip steady sliding")


def test_no_table_wider_than_the_window_at_1400px(report):
    p = _probe(_chromium(), report)
    assert len(p["tables"]) >= 9
    wide = [t for t in p["tables"] if t["right"] > p["W"] + 0.5 or t["scroll"] > t["width"] + 1 or t["left"] < 0]
    assert not wide, wide
    assert p["scrollWidth"] <= p["W"], "the page scrolls sideways"
    # thumbnails keep the page short: 4 scenarios, every section open
    assert p["height"] < 6000, p["height"]


def test_report_prints_to_pdf(tmp_path, report):
    exe = _chromium()
    pdf = tmp_path / "report.pdf"
    subprocess.run([exe, *FLAGS, f"--print-to-pdf={pdf}", "--no-pdf-header-footer", report.resolve().as_uri()],
                   capture_output=True, timeout=120, check=False)
    data = pdf.read_bytes()
    assert data.startswith(b"%PDF") and len(data) > 20_000
    n_pages = len(re.findall(rb"/Type\s*/Page[^s]", data))
    assert 2 <= n_pages <= 12, n_pages  # every section printed (opened), not one page per table row
