"""Plot helpers leave the user's matplotlib backend and pyplot's figure list as they were.

On the old code ``frictionlab.plot`` called ``matplotlib.use("Agg")`` at its first figure, so a
Jupyter session's next plain ``plt.plot`` showed nothing.
"""

import subprocess
import sys
import textwrap


def test_helpers_keep_backend_and_pyplot_figures(tmp_path):
    code = textwrap.dedent(f"""
        import matplotlib
        matplotlib.use("svg")
        import matplotlib.pyplot as plt
        import numpy as np
        import xarray as xr
        from frictionlab.plot import curves, save, time_series, versus, plt as fplt
        mine = plt.figure()
        t = np.linspace(0.0, 1.0, 11)
        ds = xr.Dataset({{"friction_force": ("time", t ** 2, {{"units": "N"}}),
                          "slip": ("time", t, {{"units": "m"}})}}, coords={{"time": t}})
        figs = [time_series(ds), versus(ds, "slip", "friction_force"),
                curves(t, {{"a": t, "b": 2 * t}}, xlabel="x", ylabel="y"), fplt.subplots(2, 1)[0],
                fplt.figure(figsize=(3, 2))]
        assert matplotlib.get_backend() == "svg", matplotlib.get_backend()
        assert plt.get_fignums() == [mine.number], plt.get_fignums()
        save(figs[0], r"{tmp_path / 'a.png'}")
        assert matplotlib.get_backend() == "svg"
        assert plt.get_fignums() == [mine.number]
        print("ok", len(figs))
    """)
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.returncode == 0, out.stderr[-2000:]
    assert out.stdout.strip() == "ok 5"
    assert (tmp_path / "a.png").stat().st_size > 1000
