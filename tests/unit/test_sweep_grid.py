"""Grid parsing and validation for frictionlab.sweep."""

import numpy as np
import pytest

from frictionlab.core.errors import ConfigError
from frictionlab.sweep import Grid, parse_axis, parse_grid

import _sweep_toy


def test_linear_log_list_single():
    assert parse_axis("model.a=0.005:0.015:3") == ("model.a", [0.005, 0.01, 0.015])
    key, vals = parse_axis("protocol.v=1e-6:1e-3:4:log")
    assert key == "protocol.v"
    np.testing.assert_allclose(vals, [1e-6, 1e-5, 1e-4, 1e-3], rtol=1e-14)
    assert vals[1] == 1e-5  # cleaned to 15 significant digits: stable point keys
    assert parse_axis("model.law=[aging, slip]") == ("model.law", ["aging", "slip"])
    assert parse_axis("model.a=[0.01, 2e-2]") == ("model.a", [0.01, 0.02])
    assert parse_axis("model.a=0.01") == ("model.a", [0.01])
    assert parse_axis("x=1:1:1") == ("x", [1.0])


def test_product_order_last_axis_fastest():
    g = parse_grid(["toy.x=[1, 2]", "toy.y=0:1:3"])
    assert g.shape == (2, 3) and g.size == 6
    pts = g.points()
    assert pts[0] == {"toy.x": 1, "toy.y": 0.0}
    assert pts[1] == {"toy.x": 1, "toy.y": 0.5}
    assert pts[3] == {"toy.x": 2, "toy.y": 0.0}
    assert g.index_of(pts[5]) == (1, 2)


@pytest.mark.parametrize("item, words", [
    ("model.a", ["key=start:stop:num"]),
    ("model.a=1:2", ["start:stop:num"]),
    ("model.a=1:2:0", ["num = 0", "empty"]),
    ("model.a=0:1:3:log", ["log axis", "start > 0"]),
    ("model.a=1:2:3:cubic", ["'log' or 'lin'"]),
    ("model.a=one:2:3", ["numbers"]),
    ("model.a=[]", ["empty list"]),
    ("model.a=[1,2", ["closing"]),
])
def test_malformed_axes(item, words):
    with pytest.raises(ConfigError) as exc:
        parse_axis(item)
    for w in words:
        assert w in str(exc.value)


def test_empty_grid_and_repeats():
    with pytest.raises(ConfigError, match="empty grid"):
        parse_grid([])
    with pytest.raises(ConfigError, match="given twice"):
        parse_grid(["toy.x=1:2:2", "toy.x=[3]"])
    with pytest.raises(ConfigError, match="repeats a value"):
        Grid({"toy.x": [1.0, 1.0]})


def test_validated_against_scenario_config_with_suggestion():
    cfg = _sweep_toy.CONFIG
    with pytest.raises(ConfigError, match=r"unknown key 'toy.xx'.*did you mean 'x'"):
        parse_grid(["toy.xx=1:2:2"], cfg)
    with pytest.raises(ConfigError, match=r"unknown config section 'tyo'.*did you mean 'toy'"):
        parse_grid(["tyo.x=1:2:2"], cfg)
    with pytest.raises(ConfigError, match="wrong type"):
        parse_grid(["toy.x=[fast, slow]"], cfg)


def test_validated_against_model_fields():
    from frictionlab.scenarios import get_scenario

    cfg = get_scenario("classic/rsf-stability").resolved_config()
    with pytest.raises(ConfigError, match=r"'model.dcc'.*did you mean 'dc'"):
        parse_grid(["model.dcc=1e-5:2e-5:2"], cfg)
    g = parse_grid(["model.dc=1e-5:2e-5:2", "model.law=[aging, slip]"], cfg)
    assert g.keys == ["model.dc", "model.law"]
    # a study whose every named run sets its own law never reads a swept base law: refused up front
    with pytest.raises(ConfigError, match=r"--grid model.law='aging': model.law = 'aging' is never read"):
        parse_grid(["model.law=[aging, slip]"], get_scenario("classic/rsf-velocity-step").resolved_config())
