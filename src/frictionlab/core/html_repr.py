"""Small HTML views of models and presets for notebooks (``_repr_html_``); standard library only.

A model shows its parameters (value, units, allowed range, meaning), its states and its citation;
a preset its values with the units and ranges of its model, its source and DOI. Results are
xarray Datasets, which have their own view.
"""

from __future__ import annotations

import dataclasses
from html import escape
from typing import Any

from .docstrings import docstring_params, plain
from .params import _range_text

__all__ = ["model_html", "preset_html"]

_TABLE = '<table style="border-collapse:collapse;text-align:left">'
_ROW = "<tr>" + "<td style='padding:1px 8px'>{}</td>" * 5 + "</tr>"
_HEAD = "<tr>" + "<th style='padding:1px 8px'>{}</th>" * 5 + "</tr>"


def _value(v: Any) -> str:
    if isinstance(v, float):
        return f"{v:.6g}"
    if isinstance(v, (tuple, list)):
        return "[" + ", ".join(_value(x) for x in v) + "]"
    return str(v)


def _field_rows(cls: type, values: dict[str, Any]) -> list[str]:
    rows = []
    docs = docstring_params(cls)
    for f in dataclasses.fields(cls):
        if f.name not in values:
            continue
        m = f.metadata
        if m.get("kind") == "option":
            allowed = " | ".join(map(str, m["choices"]))
        elif m.get("kind") == "number":
            allowed = _range_text(m)
        else:
            allowed = ""
        rows.append(_ROW.format(*(escape(x) for x in (f.name, _value(values[f.name]), m.get("units", ""), allowed,
                                                      plain(" ".join((m.get("doc") or docs.get(f.name, "")).split()))))))
    return rows


def _doi(doi: str) -> str:
    if not doi:
        return ""
    if doi.startswith("10."):
        return f' <a href="https://doi.org/{escape(doi)}">doi:{escape(doi)}</a>'
    return f" ({escape(doi)})"


def model_html(model: Any) -> str:
    """The HTML table of a model instance (see module docstring)."""
    cls = type(model)
    if not dataclasses.is_dataclass(model):
        return f"<pre>{escape(repr(model))}</pre>"
    values = {f.name: getattr(model, f.name) for f in dataclasses.fields(model)}
    parts = [f"<div><b>{escape(cls.__name__)}</b> <code>{escape(getattr(model, 'name', ''))}</code>", _TABLE,
             _HEAD.format("parameter", "value", "units", "allowed", "meaning"), *_field_rows(cls, values), "</table>"]
    states = getattr(model, "state_names", ())
    if states:
        units = getattr(model, "state_units", ()) or ("",) * len(states)
        parts.append("<p>states: " + ", ".join(f"<code>{escape(s)}</code> [{escape(u)}]"
                                                for s, u in zip(states, units)) + "</p>")
    if getattr(model, "citation", ""):
        parts.append(f"<p><small>{escape(model.citation)}{_doi(getattr(model, 'doi', ''))}</small></p>")
    return "".join(parts) + "</div>"


def preset_html(preset: Any, model_cls: type | None = None, label: str = "") -> str:
    """The HTML table of a preset: its values, with units and ranges when ``model_cls`` is known."""
    head = f"<div><b>preset</b> <code>{escape(label)}</code>" if label else "<div><b>preset</b>"
    if model_cls is not None and dataclasses.is_dataclass(model_cls):
        rows = _field_rows(model_cls, preset.params)
        known = {f.name for f in dataclasses.fields(model_cls)}
        rows += [_ROW.format(escape(k), escape(_value(v)), "", "", "") for k, v in preset.params.items()
                 if k not in known]
    else:
        rows = [_ROW.format(escape(k), escape(_value(v)), "", "", "") for k, v in preset.params.items()]
    parts = [head, _TABLE, _HEAD.format("parameter", "value", "units", "allowed", "meaning"), *rows, "</table>",
             f"<p><small>source: {escape(preset.source)}{_doi(preset.doi)}</small></p>"]
    if preset.note:
        parts.append(f"<p><small>{escape(preset.note)}</small></p>")
    return "".join(parts) + "</div>"
