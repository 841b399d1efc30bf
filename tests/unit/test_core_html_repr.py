"""Notebook views (``_repr_html_``) of models and presets: values, units, ranges, meaning, citation."""

import re
from html.parser import HTMLParser

from frictionlab.core.registry import discover, make_model, model_names, presets_of


class _Cells(HTMLParser):
    """The text of every table row, as lists of cells; and whether every opened tag was closed."""

    def __init__(self):
        super().__init__()
        self.rows, self.stack, self.cell = [], [], None

    def handle_starttag(self, tag, attrs):
        self.stack.append(tag)
        if tag == "tr":
            self.rows.append([])
        elif tag in ("td", "th"):
            self.cell = ""

    def handle_endtag(self, tag):
        assert self.stack and self.stack.pop() == tag, tag
        if tag in ("td", "th"):
            self.rows[-1].append(self.cell)
            self.cell = None

    def handle_data(self, data):
        if self.cell is not None:
            self.cell += data


def _rows(html):
    p = _Cells()
    p.feed(html)
    assert p.stack == []
    return {r[0]: r[1:] for r in p.rows}


def test_model_view_lists_values_units_ranges_and_citation():
    m = make_model("lugre", "canudas1995", sigma0=2e5)
    html = m._repr_html_()
    rows = _rows(html)
    assert rows["sigma0"] == ["200000", "N/m", "(0, inf]", "Bristle stiffness [N/m]."]
    assert rows["normal_scaling"][:3] == ["False", "", "True | False"]
    assert "bristle_deflection" in html and "Canudas de Wit" in html and "https://doi.org/10.1109/9.376053" in html


def test_preset_view_has_its_models_units():
    ps = presets_of("rate_state")["granite-typical"]
    html = ps._repr_html_()
    rows = _rows(html)
    assert rows["dc"][:3] == ["1e-05", "m", "(0, inf]"]
    assert "rate_state/granite-typical" in html and "Marone" in html


def test_a_preset_shared_by_two_models_names_each():
    discover()
    assert "subloading/common" in presets_of("subloading")["common"]._repr_html_()
    assert "subloading_rate/common" in presets_of("subloading_rate")["common"]._repr_html_()
    assert presets_of("subloading")["common"] == presets_of("subloading_rate")["common"]


def test_every_model_and_preset_renders_escaped_html():
    discover()
    for name in model_names():
        m = make_model(name)
        html = m._repr_html_()
        _rows(html)  # well formed
        assert not re.search(r"<(?!/?(div|b|code|table|tr|td|th|p|small|a|pre)\b)", html), name
        for ps in presets_of(name).values():
            _rows(ps._repr_html_())
