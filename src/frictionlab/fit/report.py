"""The fit report of a fitted :class:`~frictionlab.fit.Fitter`, as text and as HTML (notebooks).

In the manner of lmfit's ``fit_report``: every parameter with its value, standard error
(absolute and relative), unit and status (free, fixed, not determined and why), the
correlations of the free parameters above 0.1 in magnitude, FIT %, the warnings about the
data, and the quality verdict (:meth:`Fitter.problems`).
"""

from __future__ import annotations

import html
import math
from typing import Any

__all__ = ["text_report", "html_report", "rows", "correlations"]

#: correlations smaller than this in magnitude are not listed
MIN_CORRELATION = 0.1


def _unit(u: str) -> str:
    return f"[{u}]" if u else "[?]"


def rows(f: Any) -> list[dict[str, str]]:
    """One row per parameter (free ones first, in fit order): name, value, error, relative
    error, unit, status and the model's description of it."""
    out = []
    for k in [*f.free_, *[n for n in f.params_ if n not in f.free_]]:
        v = f.params_[k]
        row = {"name": k, "value": f"{v:.6g}", "stderr": "", "relative": "", "unit": _unit(f.units_.get(k, "")),
               "status": "free", "description": f.model_.descriptions.get(k, "")}
        if k not in f.free_:
            row["status"] = "fixed"
        elif k in f.undetermined_:
            row["status"] = f"not determined by the data ({f.undetermined_[k]})"
        else:
            se = f.stderr_[k]
            row["stderr"] = f"{se:.3g}"
            row["relative"] = f"{100 * se / abs(v):.3g} %" if v != 0 and math.isfinite(se) else ""
        out.append(row)
    return out


def correlations(f: Any, threshold: float = MIN_CORRELATION) -> list[tuple[str, str, float]]:
    """``(a, b, r)`` for the free, determined parameter pairs with ``|r| >= threshold``, largest first."""
    r = f.correlation_
    pairs = [(a, b, float(r[i, j])) for i, a in enumerate(f.free_) for j, b in enumerate(f.free_)
             if j > i and math.isfinite(r[i, j]) and abs(r[i, j]) >= threshold]
    return sorted(pairs, key=lambda p: -abs(p[2]))


def _quality(f: Any, min_fit: float) -> tuple[bool, list[str]]:
    probs = f.problems(min_fit)
    return not probs, probs


def text_report(f: Any, min_fit: float) -> str:
    """The report as plain text (what ``frictionlab fit`` prints)."""
    src = getattr(f.data_, "source", "") or "data"
    lines = [f"[[Fit]] {f.model_.name} to {src}: {f.n_points_} points, {int(f.n_starts)} start(s) (seed {int(f.seed)})",
             f"    FIT = {f.fit_percent_:.3f} %  (R^2 x 100, {f.n_points_} points, {f.seconds_:.2f} s), "
             f"RMSE {f.rmse_:.4g}",
             "[[Parameters]]"]
    w = max(len(k) for k in f.params_)
    for r in rows(f):
        if r["status"] == "free":
            val = f"{r['value']} ± {r['stderr']}" + (f" ({r['relative']})" if r["relative"] else "")
        elif r["status"] == "fixed":
            val = f"{r['value']} (fixed)"
        else:
            val = f"{r['status']}; last value {r['value']}"
        lines.append(f"    {r['name']:<{w}s} = {val}  {r['unit']}" + (f"  {r['description']}" if r["description"] else ""))
    cor = correlations(f)
    lines.append(f"[[Correlations]] (unreported correlations are < {MIN_CORRELATION:g})")
    lines += [f"    C({a}, {b}) = {c:+.3f}" for a, b, c in cor] or ["    none"]
    for msg in f.warnings_:
        lines.append(f"warning: {msg}")
    ok, probs = _quality(f, min_fit)
    if ok:
        lines.append(f"quality: ok (FIT >= {min_fit:g} %, every free parameter determined)")
    else:
        lines += [f"quality: poor: {p}" for p in probs]
    return "\n".join(lines)


def html_report(f: Any, min_fit: float) -> str:
    """The report as an HTML fragment (``Fitter._repr_html_``)."""
    e = html.escape
    src = getattr(f.data_, "source", "") or "data"
    head = (f"<p><b>Fit of {e(f.model_.name)}</b> to {e(str(src))}: {f.n_points_} points, "
            f"FIT = {f.fit_percent_:.3f} % (100 R<sup>2</sup>), RMSE {f.rmse_:.4g}</p>")
    cols = ("name", "value", "stderr", "relative", "unit", "status", "description")
    titles = ("parameter", "value", "standard error", "relative", "unit", "status", "")
    body = "".join("<tr>" + "".join(f"<td>{e(r[c])}</td>" for c in cols) + "</tr>" for r in rows(f))
    table = ("<table><thead><tr>" + "".join(f"<th>{t}</th>" for t in titles) + "</tr></thead><tbody>"
             + body + "</tbody></table>")
    cor = correlations(f)
    ctab = (f"<p>Correlations (|r| &ge; {MIN_CORRELATION:g}): "
            + (", ".join(f"C({e(a)}, {e(b)}) = {c:+.3f}" for a, b, c in cor) or "none") + "</p>")
    warn = "".join(f"<p><b>warning:</b> {e(m)}</p>" for m in f.warnings_)
    ok, probs = _quality(f, min_fit)
    qual = (f"<p>quality: ok (FIT &ge; {min_fit:g} %, every free parameter determined)</p>" if ok
            else "".join(f"<p><b>quality: poor:</b> {e(p)}</p>" for p in probs))
    return "<div>" + head + table + ctab + warn + qual + "</div>"
