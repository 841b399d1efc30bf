"""Open report.html in headless Chromium: the page renders (non-blank) with its check table."""

import shutil
import subprocess

import numpy as np
import pytest

import _report_fixture

pytestmark = pytest.mark.browser

FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--no-first-run", "--disable-dev-shm-usage", "--hide-scrollbars"]


def _chromium() -> str:
    for name in ("chromium", "chromium-browser", "google-chrome"):
        path = shutil.which(name)
        if path:
            return path
    pytest.skip("headless Chromium not installed (Debian: apt-get install -y chromium)")


def test_report_renders_in_chromium(tmp_path):
    exe = _chromium()
    _, html_, _ = _report_fixture.make_report(tmp_path / "report")
    url = html_.resolve().as_uri()
    shot = tmp_path / "shot.png"
    subprocess.run([exe, *FLAGS, "--window-size=1200,1400", f"--screenshot={shot}", url],
                   capture_output=True, timeout=120, check=False)
    assert shot.exists() and shot.stat().st_size > 5000
    import matplotlib.image as mpimg

    img = mpimg.imread(shot)[..., :3]
    assert img.shape[0] >= 1000 and img.shape[1] >= 1000
    non_white = np.mean(np.any(img < 0.9, axis=-1))
    assert non_white > 0.02, f"screenshot nearly blank ({non_white:.3%} non-white pixels)"
    assert img.std() > 0.05
    # red FAIL / green pass cells are drawn: both colours present somewhere on the page
    r, g, b = img[..., 0], img[..., 1], img[..., 2]
    assert np.any((r > 0.8) & (g < 0.9) & (b < 0.9) & (r - g > 0.08))   # fail background / text
    assert np.any((g > r + 0.05) & (g > b + 0.03))                       # pass background / text
    # the rendered DOM holds the check table with every row
    dom = subprocess.run([exe, *FLAGS, "--dump-dom", url], capture_output=True, text=True, timeout=120).stdout
    assert 'id="checks"' in dom
    table = dom.split('id="checks"')[1].split("</table>")[0]
    assert table.count("<tr") == 9  # header + 5 claims + 1 crash + 2 evidence rows under the deviation
    assert "healing slope b ln 10 per decade" in table
