"""Figure of :func:`frictionlab.analysis.compare.compare`: every model's response to one protocol."""

from __future__ import annotations

import math
from typing import TYPE_CHECKING

import numpy as np

from . import pyplot

if TYPE_CHECKING:
    import xarray as xr

__all__ = ["plot_compare", "curve_styles"]


def curve_styles(n: int) -> list[dict[str, object]]:
    """``n`` distinct line styles: the ten colours of matplotlib's ``tab10`` cycle with solid lines,
    then the same colours dashed, dotted and dash-dotted (40 distinct curves)."""
    from matplotlib import colormaps

    colours = colormaps["tab10"].colors
    dashes = ["-", "--", ":", "-."]
    return [{"color": colours[i % 10], "linestyle": dashes[(i // 10) % 4]} for i in range(n)]


def plot_compare(ds: xr.Dataset, title: str = "", table: str = ""):
    """All models together: friction coefficient, its change since a reference instant, the RSF table.

    The abscissa is time, or slip for protocols with holds (the holds then collapse onto
    the reslide points). Samples at zero slip rate are not drawn. The reference instant is
    just before the first velocity change or the first hold. The lower panel's range follows
    the models whose change (after half the reference time) stays within 5 times the median
    range; the others are named as clipped. ``table``: text drawn in the bottom panel (e.g.
    :func:`frictionlab.analysis.compare.format_table`). Each model has its own colour and line
    style (:func:`curve_styles`: 10 colours, each solid, dashed, dotted, dash-dotted); a flagged run (its
    ``flag``, :func:`frictionlab.analysis.compare.plausibility`) is marked "(!)" in the legend and its
    reason is printed in the bottom panel when the table does not already carry it.
    """
    import textwrap

    plt = pyplot()
    fig = plt.figure(figsize=(11, 9))
    gs = fig.add_gridspec(3, 1, height_ratios=[3, 3, 2.2])
    ax0, ax1, ax2 = fig.add_subplot(gs[0]), fig.add_subplot(gs[1]), fig.add_subplot(gs[2])
    t = ds.time.values
    holds = "hold" in ds.dims
    i_ref = 0
    t_ref = float(ds.attrs.get("ref_time", t[0]))
    lines, ranges = {}, {}
    styles = curve_styles(ds.sizes["model"])
    flags = [str(f) for f in ds["flag"].values] if "flag" in ds else [""] * ds.sizes["model"]
    for i, m in enumerate(ds.model.values):
        if ds.status.values[i] != "ok":
            continue
        mu = ds.friction_coefficient.values[i].copy()
        v = ds.slip_velocity.values[i]
        x = ds.slip.values[i] * 1e3 if holds else t
        mu[v == 0] = np.nan
        ref = float(ds.mu_reference.values[i]) if "mu_reference" in ds else math.nan
        d = mu - (ref if math.isfinite(ref) else mu[i_ref])
        label = f"{m} (!)" if flags[i] else str(m)
        ax0.plot(x, mu, lw=1.2, label=label, **styles[i])
        lines[str(m)] = ax1.plot(x, d, lw=1.2, label=label, **styles[i])[0]
        fin = d[np.isfinite(d) & (t >= 0.5 * t_ref)]
        ranges[str(m)] = float(np.ptp(fin)) if fin.size else 0.0
    if ranges:
        med = float(np.median([r for r in ranges.values() if r > 0] or [1.0]))
        keep = [m for m, r in ranges.items() if r <= 5 * med]
        clipped = [m for m in ranges if m not in keep]
        late = t >= 0.5 * t_ref
        vals = np.concatenate([np.asarray(lines[m].get_ydata())[late & np.isfinite(lines[m].get_ydata())]
                               for m in keep] or [np.zeros(1)])
        vals = vals if vals.size else np.zeros(1)
        lo, hi = float(vals.min()), float(vals.max())
        pad = 0.05 * (hi - lo or 1.0)
        ax1.set_ylim(lo - pad, hi + pad)
        if clipped:
            ax1.set_title(f"clipped: {', '.join(clipped)}", fontsize=8, loc="right")
    xl = "slip [mm]" if holds else "time [s]"
    ax0.set_ylabel("friction coefficient [1]")
    ax1.set_ylabel("change since reference [1]")
    ax1.set_xlabel(xl)
    ax0.set_xlabel(xl)
    ax0.legend(fontsize=7, ncol=3)
    ax2.axis("off")
    txt = f"fitted rate-and-state ({ds.attrs.get('rsf_law', 'aging')} law) parameters:\n" + table if table else ""
    if not table:
        flagged = [f"{m}: {f}" for m, f in zip(ds.model.values, flags) if f]
        failed = [f"{m}: {s}" for m, s in zip(ds.model.values, ds.status.values) if s != "ok"]
        if flagged or failed:
            txt = "\n".join(textwrap.fill(t, 118, subsequent_indent="    ") for t in
                            [*(f"(!) {t}" for t in flagged), *(f"did not run: {t}" for t in failed)])
    ax2.text(0.0, 1.0, txt, va="top", ha="left", family="monospace", fontsize=6.5, wrap=False)
    if title:
        ax0.set_title(title, fontsize=10)
    fig.tight_layout()
    return fig
